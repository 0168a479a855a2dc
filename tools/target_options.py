"""The target options shared by npu-opt and npu-translate, and how they set a module's target.

``--target=ACCELERATOR`` (also spelt ``--accelerator-config``, as Vela does) ``--config FILE.ini --system-config NAME --memory-mode NAME
--arena-cache-size BYTES`` mirror Vela's ``--accelerator-config``, ``--config``,
``--system-config``, ``--memory-mode`` and ``--arena-cache-size``. They are checked once, before
any input is read (``prepare_target``); then each parsed module gets its ``npu.target`` attribute
(``apply_target``): the options given override the matching parts of an attribute the module
already has, and parts given nowhere are filled in with Vela's defaults, so the printed IR always
names the accelerator, system config and memory mode it was compiled for.

This module imports nothing heavy at import time, so building the argument parser stays cheap.
"""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from npu_opt.hardware.vela_config import VelaConfig
    from npu_opt.ir.core import Operation

_DESTS = ("target", "config", "system_config", "memory_mode", "arena_cache_size")

STOCK_CONFIG_NAME = os.path.join("Arm", "vela.ini")
"""How Vela names its own stock file; npu-opt has those sections built in."""


def _byte_count(text: str) -> int:
    """argparse type of ``--arena-cache-size``: a non-negative integer (decimal or 0x hex)."""
    try:
        value = int(text, 0) if text.lower().startswith("0x") else int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of bytes, not '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {value}")
    return value


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the target options to ``parser`` (npu-opt and npu-translate call this)."""
    group = parser.add_argument_group(
        "target (Ethos-U accelerator and system, as Vela's options of the same names)")
    group.add_argument("--target", metavar="ACCELERATOR", default=None,
                       help="ethos-u55-32, -64, -128, -256, ethos-u65-256 or -512; sets the module's "
                            "npu.target attribute (default: the module's own; else ethos-u55-256 when another target "
                            "option is given; with no target at all, passes that need one, such as estimate, "
                            "stop with an error)")
    group.add_argument("--accelerator-config", dest="target", metavar="ACCELERATOR", default=None,
                       help="Vela's name for --target")
    group.add_argument("--config", metavar="FILE", action="append", default=[],
                       help="Vela configuration file (.ini) with [System_Config.NAME] and [Memory_Mode.NAME] "
                            "sections; may be repeated. Vela's stock sections are built in")
    group.add_argument("--system-config", metavar="NAME", default=None,
                       help="system config (default: Ethos_U55_High_End_Embedded for U55, "
                            "Ethos_U65_Client_Server for U65)")
    group.add_argument("--memory-mode", metavar="NAME", default=None,
                       help="memory mode (default: Shared_Sram for U55, Dedicated_Sram_384KB for U65)")
    group.add_argument("--arena-cache-size", metavar="BYTES", type=_byte_count, default=None,
                       help="size of the arena cache in bytes, overriding the memory mode's")


@dataclass(frozen=True)
class TargetRequest:
    """The target options after checking: names known, configuration files loaded."""

    accelerator: str | None
    system_config: str | None
    memory_mode: str | None
    arena_cache_size: int | None
    config: "VelaConfig"


def _given(args: argparse.Namespace) -> bool:
    return any(getattr(args, dest, None) for dest in _DESTS if dest != "arena_cache_size") or (
        getattr(args, "arena_cache_size", None) is not None)


def _config_paths(paths: list[str]) -> list[str]:
    """The files to read; Vela's own ``Arm/vela.ini`` is built in, so it is skipped unless a
    file of that name exists here."""
    return [p for p in paths if not (os.path.normpath(p) == STOCK_CONFIG_NAME and not os.path.exists(p))]


def prepare_target(args: argparse.Namespace) -> TargetRequest | None:
    """Check the target options of ``args`` (``request_target``); None when none is given."""
    if not _given(args):
        return None
    return request_target(args.target, list(args.config or []), args.system_config, args.memory_mode,
                          args.arena_cache_size)


def request_target(target: str | None = None, config: list[str] | None = None, system_config: str | None = None,
                   memory_mode: str | None = None, arena_cache_size: int | None = None) -> TargetRequest:
    """Check target options given by their flags' names; parts not given stay None.

    Raises TargetError (a UserError) for an unknown accelerator, system config or memory mode
    ("did you mean ...?" and the known names) and for an unreadable or malformed ``.ini``.
    """
    from npu_opt.hardware.accelerators import accelerator
    from npu_opt.hardware.vela_config import MEMORY_MODE, SYSTEM_CONFIG, VelaConfig, builtin_config

    accel = None if target is None else accelerator(target).name
    paths = _config_paths(list(config or []))
    vela_config = VelaConfig.load(paths) if paths else builtin_config()
    system = None if system_config in (None, "internal-default") else system_config
    mode = None if memory_mode in (None, "internal-default") else memory_mode
    if system is not None:
        vela_config.resolve(SYSTEM_CONFIG, system)
        if accel is not None:  # (fail before reading the input)
            from npu_opt.hardware.target import check_system_npu
            check_system_npu(accelerator(accel), system, vela_config.npu_of(system), vela_config)
    if mode is not None:
        vela_config.resolve(MEMORY_MODE, mode)
    return TargetRequest(accel, system, mode, arena_cache_size, vela_config)


def _definition(config: "VelaConfig", kind: str, name: str) -> Any:
    """None when ``name`` means the built-in section of that name; else its resolved keys, to be
    written into the attribute so the IR does not depend on the ``.ini`` file."""
    from npu_opt.hardware.vela_config import builtin_config

    resolved = config.resolve(kind, name)
    builtin = builtin_config()
    if name in builtin.names(kind) and builtin.resolve(kind, name).values == resolved.values:
        return None
    return resolved.values


def apply_target(module: "Operation", request: TargetRequest) -> None:
    """Set ``module``'s ``npu.target`` from ``request`` and what the module already says.

    Raises TargetError when the result is inconsistent (e.g. an arena cache size beyond the
    accelerator's address space) or the module's attribute is not an ``#npu.target``.
    """
    from npu_opt.hardware.accelerators import DEFAULT_ACCELERATOR, accelerator
    from npu_opt.hardware.errors import TargetError
    from npu_opt.hardware.target import default_memory_mode, default_system_config
    from npu_opt.dialects.npu.target_attr import TARGET_ATTR, TargetAttr
    from npu_opt.hardware.vela_config import MEMORY_MODE, SYSTEM_CONFIG

    existing = module.attr(TARGET_ATTR)
    if existing is not None and not isinstance(existing, TargetAttr):
        raise TargetError(f"'{TARGET_ATTR}' must be a #npu.target<...> attribute, not {existing}", module.location)
    accel = request.accelerator or (existing.accelerator if existing is not None else DEFAULT_ACCELERATOR)
    config = accelerator(accel)

    def part(kind: str, asked: str | None, kept: str | None, kept_definition: Any, default: str) -> tuple:
        if asked is None and kept is not None:
            return kept, kept_definition
        name = asked or default
        return name, _definition(request.config, kind, name)

    system, system_def = part(SYSTEM_CONFIG, request.system_config,
                              existing.system_config if existing is not None else None,
                              existing.system_definition if existing is not None else None,
                              default_system_config(config))
    mode, mode_def = part(MEMORY_MODE, request.memory_mode,
                          existing.memory_mode if existing is not None else None,
                          existing.memory_mode_definition if existing is not None else None,
                          default_memory_mode(config))
    from npu_opt.hardware.target import check_system_npu
    known = system in request.config.names(SYSTEM_CONFIG)  # (else a module's own definition: its name decides)
    check_system_npu(config, system, request.config.npu_of(system) if known else None, request.config)
    size = request.arena_cache_size
    if size is None and existing is not None:
        size = existing.arena_cache_size
    attr = TargetAttr.get(accel, system_config=system, memory_mode=mode, arena_cache_size=size,
                          system_definition=system_def, memory_mode_definition=mode_def)
    module.attributes[TARGET_ATTR] = attr


def target_flags(args: Any) -> list[str]:
    """The target options of ``args`` as command-line flags (for crash reproducers); configuration
    files by absolute path, so a replay works from any directory."""
    flags: list[str] = []
    if getattr(args, "target", None):
        flags.append(f"--target={args.target}")
    for path in getattr(args, "config", None) or []:
        flags.append(f"--config={os.path.abspath(path) if os.path.exists(path) else path}")
    if getattr(args, "system_config", None):
        flags.append(f"--system-config={args.system_config}")
    if getattr(args, "memory_mode", None):
        flags.append(f"--memory-mode={args.memory_mode}")
    if getattr(args, "arena_cache_size", None) is not None:
        flags.append(f"--arena-cache-size={args.arena_cache_size}")
    return flags


__all__ = ["TargetRequest", "add_target_arguments", "apply_target", "prepare_target", "request_target",
           "target_flags"]
