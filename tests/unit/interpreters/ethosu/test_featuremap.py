"""Feature-map addresses against Vela's ``get_address`` (register_command_stream_util): every
element of NHWC and NHCWB16 feature maps of 8, 16 and 32-bit elements over one, two and four
tiles lands where Vela's command-stream generator places it."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr
from npu_opt.interpreters.ethosu.featuremap import addresses

vela_api = pytest.importorskip("ethosu.vela.api")
from ethosu.vela.register_command_stream_util import get_address, get_strides  # noqa: E402

DTYPES = {"int8": vela_api.NpuDataType.INT8, "int16": vela_api.NpuDataType.INT16, "int32": vela_api.NpuDataType.INT32}
LAYOUTS = {"NHWC": vela_api.NpuLayout.NHWC, "NHCWB16": vela_api.NpuLayout.NHCWB16}


@pytest.mark.parametrize("dtype,layout", list(itertools.product(DTYPES, LAYOUTS)))
def test_addresses_are_velas(dtype, layout):
    h, w, c = 6, 5, 37
    for height0, height1, width0 in ((6, 6, 5), (2, 6, 5), (3, 4, 2), (1, 0, 4)):
        fm = vela_api.NpuFeatureMap()
        fm.data_type, fm.layout = DTYPES[dtype], LAYOUTS[layout]
        fm.shape = vela_api.NpuShape3D(height=h, width=w, depth=c)
        fm.tiles = vela_api.NpuTileBox(height_0=height0, height_1=height1, width_0=width0,
                                       addresses=[1000, 5000, 9000, 13000])
        strides = get_strides(fm)
        ours = FeatureMapAttr.build(dtype=dtype, layout=layout, region=1, bases=[1000, 5000, 9000, 13000],
                                    tiles=[height0, height1, width0],
                                    strides=[strides.width, strides.height, strides.depth], depth=c)
        got = addresses(ours, h, w, c)
        expected = np.array([[[get_address(fm, strides, y, x, z) for z in range(c)] for x in range(w)]
                             for y in range(h)])
        assert np.array_equal(got, expected), (height0, height1, width0)
