"""The Ethos-U performance model: pure, memoised cost functions over op descriptions.

One module per concept:

* ``shape.py``: ``Shape4``, the NHWC extent everything is measured in;
* ``op_desc.py``: ``NpuOpDesc``, one NPU operation as the cost model sees it;
* ``arch.py``: ``PerfTarget``, the hashable digest of a ``Target`` (accelerator + memories);
* ``block_config.py``: the SHRAM fit and Vela's OFM block-config search;
* ``memory.py``: the burst-length model and DMA copy cycles;
* ``compute.py``: DPU/output pipeline cycles and MAC counts;
* ``access.py``: element accesses and bytes per memory area;
* ``dma.py``: LUT, memcpy and weight-streaming terms of the NPU cycles;
* ``estimate.py``: ``estimate_op`` -> ``OpCost``, everything together;
* ``weight_reorder.py``, ``weight_encoding.py`` (with ``palette_sections.py`` and
  ``grc_search.py``), ``weight_size.py``: the weights' stream order and compressed size per depth
  slice, byte-exact with Vela's codec; ``weight_streams.py``: the module's weight encoders as an
  analysis (all full-depth streams encoded in one batch); ``weight_buffering.py``: Vela's choice of which weights to
  stream into fast storage and how to slice them (what a scheduler feeds ``estimate_op``);
* ``ir_adapter.py`` (npu op -> ``NpuOpDesc``) and ``ir_attrs.py`` (``#npu.block``, ``#npu.cost``,
  whose parsers the npu dialect registers when it loads) connect it to the IR.

The model is Vela 5.2.0's legacy Python performance model (``npu_performance.py``,
``architecture_allocator.py``), re-derived; bench/perf_fidelity.py measures the agreement.
"""
from __future__ import annotations

from npu_opt.dialects.npu.perf.arch import PerfTarget, perf_target, resolve_perf_target
from npu_opt.dialects.npu.perf.block_config import BlockConfig, check_block_config, find_block_config, select_block_config
from npu_opt.dialects.npu.perf.dma import WeightStreaming
from npu_opt.dialects.npu.perf.estimate import ACCESS_COLUMNS, OpCost, clear_caches, estimate_op, op_compute_cycles
from npu_opt.dialects.npu.perf.op_desc import (
    Kernel, NpuOpDesc, OpKind, Resampling, TensorDesc, TensorFormat, WeightsDesc,
)
from npu_opt.dialects.npu.perf.shape import Shape4
from npu_opt.dialects.npu.perf import ir_attrs  # noqa: E402,F401  (the #npu.block and #npu.cost classes)

__all__ = [
    "ACCESS_COLUMNS", "BlockConfig", "Kernel", "NpuOpDesc", "OpCost", "OpKind", "PerfTarget", "Resampling",
    "Shape4", "TensorDesc", "TensorFormat", "WeightStreaming", "WeightsDesc", "check_block_config",
    "clear_caches", "estimate_op", "find_block_config", "op_compute_cycles", "perf_target",
    "resolve_perf_target", "select_block_config",
]
