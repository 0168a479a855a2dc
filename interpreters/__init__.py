"""Executable semantics apart from the dialects: the tfl and npu kernels the reference interpreter
runs op by op (``tfl``, ``npu``), and the executor of a scheduled module (``scheduled``)."""
