"""A slice of bench/random_networks.py: random small networks through the schedule search at
budgets below Size's SRAM; each schedule passes npu-check-schedule and computes, byte for byte,
what the network computes (the checker does not see values), or the search ends in the one error
that no schedule fits. The bench runs 150 networks on four configs (bench/RANDOM_NETWORKS.md)."""
from __future__ import annotations

import pytest

from random_network import outcomes


@pytest.mark.parametrize("config", ["A", "D16"])
@pytest.mark.parametrize("seed", [13, 62, 63])
def test_a_random_network_schedules_and_computes_what_it_computes(seed: int, config: str) -> None:
    # (seed 63 on D16: the chain ending in an average pool the column bands once cut; seed 62
    # on A: candidates slow enough for the search to fork workers; seed 13 on D16: bands at
    # every budget)
    _, _, found = outcomes((seed, config))
    assert all(o in ("ok", "ok bands", "no fit") for o in found), found
    assert any(o.startswith("ok") for o in found)
