"""Vela's own spellings of what npu-opt has, for users who type Vela's flags.

``--accelerator-config`` is ``--target`` (target_options.py declares both names); here:

* ``--optimise Performance|Size`` sets the ``optimise`` option of the pipeline's passes that take
  it (``--pass=schedule --optimise Size`` is ``--pass='schedule{optimise=Size}'``);
* ``--list-configs`` lists the system configs and memory modes npu-opt knows: Vela's stock ones
  (built in) and those of the ``--config`` files, each system config with the NPU it is for.
"""
from __future__ import annotations

import argparse

from npu_opt.ir.pass_registry import PipelineError, with_option


def apply_optimise(args: argparse.Namespace) -> None:
    """Put ``--optimise`` into ``args.pipeline`` (PipelineError when no pass there takes it)."""
    strategy = getattr(args, "optimise", None)
    if strategy is None:
        return
    if not args.pipeline:
        raise PipelineError(f"--optimise {strategy} sets the strategy of the schedule pipeline, but no pass "
                            f"pipeline is given: add --pass=schedule")
    texts, taken = [], 0
    for text in args.pipeline:
        rewritten, count = with_option(text, "optimise", strategy, f"--optimise {strategy}")
        texts.append(rewritten)
        taken += count
    if not taken:
        given = ",".join(args.pipeline)
        raise PipelineError(f"--optimise {strategy} sets the 'optimise' option of the schedule pipeline, but no "
                            f"pass of '{given}' takes it: add --pass=schedule")
    args.pipeline = texts


def list_configs_text(args: argparse.Namespace) -> str:
    """The ``--list-configs`` listing (TargetError for an unreadable ``--config`` file)."""
    from npu_opt.hardware.accelerators import ACCELERATORS
    from npu_opt.hardware.target import default_memory_mode, default_system_config, npu_of_accelerator
    from npu_opt.hardware.vela_config import (
        BUILTIN_SOURCE, MEMORY_MODE, SYSTEM_CONFIG, VelaConfig, builtin_config,
    )
    from npu_opt.tools.target_options import _config_paths

    paths = _config_paths(list(getattr(args, "config", None) or []))
    config = VelaConfig.load(paths) if paths else builtin_config()
    accelerators = list(ACCELERATORS)
    defaults = {default_system_config(a): npu_of_accelerator(a) for a in ACCELERATORS.values()}
    modes = {default_memory_mode(a): npu_of_accelerator(a) for a in ACCELERATORS.values()}
    npus = {npu_of_accelerator(a) for a in ACCELERATORS.values()}

    def origin(kind: str, name: str) -> str:
        resolved = config.resolve(kind, name)
        return "" if resolved.source == BUILTIN_SOURCE else f"  [{resolved.source}]"

    lines = [f"Targets (--target, Vela's --accelerator-config): {', '.join(accelerators)}", "",
             "System configs (--system-config), with the NPU each is for:"]
    width = max(len(n) for n in config.names(SYSTEM_CONFIG) + config.names(MEMORY_MODE)) + 2
    for name in config.names(SYSTEM_CONFIG):
        npu = config.npu_of(name)
        values = dict(config.resolve(SYSTEM_CONFIG, name).values)
        what = npu if npu is not None else "any NPU (its name names none)"
        if npu is not None and npu not in npus:
            what += " (no npu-opt target)"
        clock = values.get("core_clock")
        clock_text = f", {float(clock) / 1e6:g} MHz" if clock is not None else ""
        mark = f" (the default for the {defaults[name]})" if name in defaults else ""
        lines.append(f"  {name:<{width}}{what}{clock_text}, AXI0 {values.get('axi0_port', '?')}, "
                     f"AXI1 {values.get('axi1_port', '?')}{mark}{origin(SYSTEM_CONFIG, name)}")
    lines += ["", "Memory modes (--memory-mode):"]
    for name in config.names(MEMORY_MODE):
        values = dict(config.resolve(MEMORY_MODE, name).values)
        cache = values.get("arena_cache_size")
        mark = f" (the default for the {modes[name]})" if name in modes else ""
        lines.append(f"  {name:<{width}}constants {values.get('const_mem_area', '?')}, arena "
                     f"{values.get('arena_mem_area', '?')}, cache {values.get('cache_mem_area', '?')}"
                     + (f", arena cache size {int(cache):,} B" if cache is not None else "")
                     + mark + origin(MEMORY_MODE, name))
    return "\n".join(lines) + "\n"


__all__ = ["apply_optimise", "list_configs_text"]
