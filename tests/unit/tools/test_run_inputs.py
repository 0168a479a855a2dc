"""npu-run's input files: what is not a .npy/.npz says so, instead of numpy's pickle advice."""
from __future__ import annotations

import numpy as np
import pytest

from npu_opt.ir.diagnostics import UserError
from npu_opt.tools.run_inputs import _read_arrays


def test_a_text_file_named_npy_is_not_a_pickle(tmp_path):
    path = tmp_path / "x.npy"
    path.write_text("1 2 3\n")
    with pytest.raises(UserError) as err:
        _read_arrays("x", str(path))
    assert "is not a numpy .npy or .npz file" in str(err.value) and "allow_pickle" not in str(err.value)


def test_an_object_array_is_refused_without_unpickling(tmp_path):
    path = tmp_path / "o.npy"
    np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(UserError) as err:
        _read_arrays("x", str(path))
    assert "holds Python objects" in str(err.value) and "allow_pickle" not in str(err.value)


def test_a_real_array_reads(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.arange(6, dtype=np.int8).reshape(2, 3))
    [(name, array)] = _read_arrays("x", str(path))
    assert name == "x" and array.shape == (2, 3)
