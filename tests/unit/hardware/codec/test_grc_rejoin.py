"""Re-runs of the codec's parameter search stop where a lane rejoins its recorded run
(hardware/codec/grc_search.py), and the sizes stay Vela's codec's, byte for byte.

Oracle: ethos-u-vela's ``mlw_codec.encode`` where importable. The lane bookkeeping is checked by
counting the lanes each rerun chunk advances (``_LaneBatch.step_costs``)."""
from __future__ import annotations

import numpy as np
import pytest

from npu_opt.hardware.codec import grc_search, weight_encoding
from npu_opt.hardware.codec.weight_encoding import encoded_sizes

try:
    from ethosu import mlw_codec
except ImportError:  # pragma: no cover - Vela not installed
    mlw_codec = None

needs_codec = pytest.mark.skipif(mlw_codec is None, reason="ethos-u-vela's mlw_codec is not installed")


def _streams() -> list[np.ndarray]:
    """Gaussian weights (long memory in the search: many lanes need a rerun), a sparse stream
    (zero-run mode, whose search has free steps) and a short uniform one."""
    rng = np.random.default_rng(11)
    gaussian = np.clip(np.round(rng.normal(0, 12, 60_000)), -255, 255).astype(np.int64)
    sparse = np.where(rng.random(30_000) < 0.85, 0, rng.integers(-60, 61, 30_000)).astype(np.int64)
    uniform = rng.integers(-127, 128, 5_000).astype(np.int64)
    return [gaussian, sparse, uniform]


@needs_codec
def test_reruns_stop_when_lanes_rejoin_and_sizes_match_the_codec(monkeypatch: pytest.MonkeyPatch) -> None:
    rerun_chunks: list[int] = []
    step_costs = grc_search._LaneBatch.step_costs

    def counting(self, t0, t1, lanes):
        if lanes is not None:
            rerun_chunks.append(len(lanes))
        return step_costs(self, t0, t1, lanes)
    monkeypatch.setattr(grc_search._LaneBatch, "step_costs", counting)
    streams = _streams()
    expected = [len(mlw_codec.encode(np.asarray(s, np.int16).tolist())) for s in streams]
    assert encoded_sizes(streams) == expected
    assert rerun_chunks, "the Gaussian stream should need reruns"
    # Within a rerun the lanes still running only shrink, and some stop before the lane's end.
    assert any(later < earlier for earlier, later in zip(rerun_chunks, rerun_chunks[1:]))


@needs_codec
@pytest.mark.parametrize("warm_up", [8, 64])
def test_sizes_do_not_depend_on_the_warm_up(warm_up: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # A short warm-up leaves most lanes wrong at their start; reruns make the runs exact anyway.
    streams = _streams()
    expected = [len(mlw_codec.encode(np.asarray(s, np.int16).tolist())) for s in streams]
    search = grc_search.search_runs
    monkeypatch.setattr(weight_encoding, "search_runs", lambda jobs: search(jobs, warm_up))
    assert encoded_sizes(streams) == expected
