"""The tfl dialect: TensorFlow Lite's builtin operators, named as in TensorFlow's TFL MLIR dialect.

Importing the package registers the dialect and all its ops. ``OPS_BY_BUILTIN`` maps a TFLite
builtin operator name (``"CONV_2D"``) to its op class, for the TFLite importer and exporter.
"""
from __future__ import annotations

from npu_opt.dialects.tfl.common import TFL, TflOp
from npu_opt.dialects.tfl.ops_conv import *  # noqa: F401,F403  (registration happens on import)
from npu_opt.dialects.tfl.ops_elementwise import *  # noqa: F401,F403
from npu_opt.dialects.tfl.ops_ethosu import *  # noqa: F401,F403
from npu_opt.dialects.tfl.ops_misc import *  # noqa: F401,F403
from npu_opt.dialects.tfl.ops_reduce import *  # noqa: F401,F403
from npu_opt.dialects.tfl.ops_shape import *  # noqa: F401,F403
from npu_opt.dialects.tfl.ops_slice import *  # noqa: F401,F403

OPS_BY_BUILTIN: dict[str, type[TflOp]] = {
    cls.BUILTIN: cls for cls in TFL.ops.values() if getattr(cls, "BUILTIN", "")  # type: ignore[misc]
}
"""TFLite builtin operator name -> the op class that models it."""

__all__ = ["TFL", "TflOp", "OPS_BY_BUILTIN"]
