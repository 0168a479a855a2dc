"""npu-check-schedule: the overlap sweep against brute force on random allocations, the row
arithmetic of rolling buffers, and a 30,000-op schedule checked with a linear number of
comparisons (the sweep is O(N log N): a sort, then a binary search and two neighbour looks per
allocation), changing nothing. The per-rule diagnostics are in tests/lit/npu/check-schedule.mlir.
"""
from __future__ import annotations

import io
import random

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.attrs import KernelAttr
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import parse_module
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.printer import print_op
from npu_opt.passes.schedule.check_memory import Rect, peak_bytes, sweep
from npu_opt.passes.schedule.check_rules import input_rows
from npu_opt.passes.schedule.check_schedule import CheckSchedule
from targeted_import import imported_with_target, run_pipeline


def _overlap(a: Rect, b: Rect) -> bool:
    return (a.first <= b.last and b.first <= a.last and a.offset < b.end and b.offset < a.end
            and a.end > a.offset and b.end > b.offset)


def _greedy(rects: list[Rect], may_share=None) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The sweep's contract by brute force: in (first, offset, index) order, a rectangle that
    overlaps an accepted, still live one is a conflict with the lowest-offset such one; else
    accepted (replacing a shared predecessor)."""
    accepted: list[int] = []
    conflicts, shared = [], []
    for i in sorted(range(len(rects)), key=lambda i: (rects[i].first, rects[i].offset, i)):
        r = rects[i]
        if r.end <= r.offset:
            continue
        hits = sorted((j for j in accepted if _overlap(rects[j], r)), key=lambda j: rects[j].offset)
        if not hits:
            accepted.append(i)
            continue
        j = hits[0]
        b = rects[j]
        if ((b.offset, b.end) == (r.offset, r.end) and (b.last == r.first or b == r)
                and may_share is not None and may_share(j, i)):
            accepted[accepted.index(j)] = i
            shared.append((j, i))
        else:
            conflicts.append((j, i))
    return conflicts, shared


def _random_rects(rng: random.Random, n: int) -> list[Rect]:
    rects = []
    for _ in range(n):
        first = rng.randrange(20)
        offset = rng.randrange(0, 256, rng.choice((1, 16, 64)))
        rects.append(Rect(first, first + rng.randrange(6), offset, offset + rng.choice((0, 16, 32, 64, 100))))
    return rects


def test_sweep_matches_brute_force() -> None:
    rng = random.Random(1234)
    for trial in range(400):
        rects = _random_rects(rng, rng.randrange(1, 40))
        result = sweep(rects)
        assert result.conflicts == _greedy(rects)[0], trial
        any_pair = any(_overlap(a, b) for i, a in enumerate(rects) for b in rects[:i])
        assert bool(result.conflicts) == any_pair, trial
        assert all(_overlap(rects[a], rects[b]) for a, b in result.conflicts)
        assert result.comparisons <= 2 * len(rects)


def test_sweep_sharing_matches_brute_force() -> None:
    rng = random.Random(99)
    for trial in range(300):
        rects = _random_rects(rng, rng.randrange(1, 30))
        # in-place chains: a rectangle starting where another ends with the same bytes
        for _ in range(rng.randrange(5)):
            base = rng.choice(rects)
            rects.append(Rect(base.last, base.last + rng.randrange(4), base.offset, base.end))
            rects.append(rng.choice(rects))  # identical: a merged in-place range
        allowed = {(i, j) for i in range(len(rects)) for j in range(len(rects)) if (i + j) % 3}
        may_share = lambda a, b: (a, b) in allowed  # noqa: E731
        result = sweep(rects, may_share)
        assert (result.conflicts, result.shared) == _greedy(rects, may_share), trial


def test_peak_counts_an_in_place_pair_once() -> None:
    rects = [Rect(0, 2, 0, 100), Rect(2, 4, 0, 100), Rect(1, 3, 100, 150)]
    assert peak_bytes(rects, []) == 250
    assert peak_bytes(rects, [(0, 1)]) == 150
    merged = [Rect(0, 4, 0, 100), Rect(0, 4, 0, 100), Rect(1, 3, 100, 150)]
    assert peak_bytes(merged, [(0, 1)]) == 150


def test_input_rows() -> None:
    k3 = KernelAttr.get((3, 3), padding=(1, 1, 1, 1))
    assert input_rows(8, 2, k3, 8) == (4, 1, 4)
    assert input_rows(8, 8, k3, 8) == (8, 0, 7)  # the padding rows are not read
    k3s2 = KernelAttr.get((3, 3), stride=(2, 2))
    assert input_rows(3, 2, k3s2, 7) == (5, 0, 4)  # (2 - 1) * 2 + 3
    assert input_rows(8, 2, None, 4, upscale=2) == (1, 0, 0)  # x2 upscaling: 2 OFM rows per IFM row
    assert input_rows(8, 3, None, 4, upscale=2) == (2, 0, 1)


def _chain(n: int) -> str:
    """A chain of n adds, OFMs alternating between two 1024-byte Sram slots (ping-pong)."""
    fm = "tensor<1x8x8x16xi8>"
    lines = ["module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 3072, "
             "sram_target = 3072>, npu.usage = #npu.usage<Sram = [3072, 3072]>} {",
             f"  func.func @f(%x: {fm}) -> {fm} attributes "
             f"{{npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, {n - 1}]>]}} {{"]
    previous = "%x"
    for t in range(n):
        offset = 1024 + 1024 * (t % 2)
        lines.append(f'    %{t} = "npu.add"({previous}, %x) {{npu.time = {t} : i64, npu.alloc = #npu.alloc<Sram, '
                     f"offset = {offset}, size = 1024, live = [{t}, {t + 1 if t + 1 < n else t}]>}} : ({fm}, {fm}) -> {fm}")
        previous = f"%{t}"
    lines += [f"    return {previous} : {fm}", "  }", "}"]
    return "\n".join(lines)


def _check(text: str) -> tuple[PassContext, str, str]:
    module = parse_module(text)
    before = print_op(module)
    stream = io.StringIO()
    ctx = PassContext(DiagnosticEngine(stream=stream))
    CheckSchedule().run(module, ctx)
    assert print_op(module) == before  # the checker changes nothing
    return ctx, stream.getvalue(), before


def test_large_schedule_is_linear() -> None:
    # the checker's comparisons are counted, not timed: at most two per allocation shows it
    # linear at any n, so n need not be large (30,000 took 11 s of the suite, parsing mostly)
    n = 5_000
    ctx, printed, _ = _check(_chain(n))
    assert "error" not in printed and not ctx.failed
    assert printed.endswith(f"note: schedule OK: 6 rules checked (1 function, {n + 1:,} allocations)\n")
    assert ctx.stats["allocations"] == n + 1
    assert ctx.stats["comparisons"] <= 2 * (n + 1)


def test_large_schedule_reports_each_broken_allocation() -> None:
    text = _chain(2000).replace("offset = 2048, size = 1024, live = [101, 102]",
                                "offset = 1536, size = 1024, live = [101, 102]")
    ctx, errors, _ = _check(text)
    assert ctx.failed
    assert errors.count("error:") == 1 and "schedule rule 3" in errors
    assert ctx.stats["comparisons"] <= 2 * 2001


def test_a_clean_schedule_gets_one_verdict_note():
    module = imported_with_target("branches", "ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB")
    assert run_pipeline(module, "schedule") == ""
    printed = run_pipeline(module, "npu-check-schedule", remarks=True)
    assert printed.count("note: schedule OK: 6 rules checked (1 function, ") == 1 and "error" not in printed
