"""The Ethos-U hardware model, apart from the IR: accelerators, Vela's system configs and memory
modes, the resolved ``Target``, the performance model (``perf``), the weight codec (``codec``) and the
command set (``commands``).
Nothing here imports the IR beyond ``ir.diagnostics``; ``dialects/npu`` adapts it to the IR."""
