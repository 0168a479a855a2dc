"""Code generation: the scheduled npu dialect to Ethos-U command streams (docs/codegen_design.md)."""
