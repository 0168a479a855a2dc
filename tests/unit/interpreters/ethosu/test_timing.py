"""The commands in flight: byte footprints as runs, each kind retired in order by its waits and
by the hardware's limit, and a race between a command and one still running refused."""
from __future__ import annotations

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
from npu_opt.dialects.ethosu.ops_stream import StopOp
from npu_opt.interpreters.ethosu.memory import SHRAM
from npu_opt.interpreters.ethosu.timing import Footprint, Running, Timeline, WaitError

OP = StopOp.build(attrs={"mask": 0xFFFF})
"""Any op: the timeline keeps it only to name it."""


def _running(index: int, reads=(), writes=()) -> Running:
    accesses = [(1, False, span) for span in reads] + [(1, True, span) for span in writes]
    return Running(index, OP, Footprint.of(accesses))


def test_footprints_merge_addresses_and_spans_into_runs():
    footprint = Footprint.of([(1, False, np.array([[5, 6], [7, 9]])), (1, False, (8, 12)), (1, False, (20, 21)),
                              (SHRAM, True, (0, 4))])
    starts, ends = footprint.reads[1]
    assert starts.tolist() == [5, 20] and ends.tolist() == [12, 21]
    assert footprint.writes[SHRAM][0].tolist() == [0] and footprint.writes[SHRAM][1].tolist() == [4]


def test_a_dma_read_before_its_wait_is_refused_and_after_it_runs():
    timeline = Timeline(max_dmas=2, max_kernels=2)
    timeline.issue(True, None, None)
    timeline.start(_running(0, reads=[(1000, 1100)], writes=[(0, 100)]), True)
    timeline.issue(False, None, None)
    with pytest.raises(WaitError, match=r"reads bytes 40 to 49 of region 1, which op 0 \(ethosu.stop\) may still be "
                                        r"writing"):
        timeline.start(_running(1, reads=[(40, 50)], writes=[(200, 300)]), False)
    timeline.issue(False, None, 0)  # NPU_OP_DMA_WAIT 0 retires the DMA
    timeline.start(_running(1, reads=[(40, 50)], writes=[(200, 300)]), False)


def test_a_dma_overwriting_what_a_running_operation_reads():
    timeline = Timeline(max_dmas=1, max_kernels=2)
    for index in range(2):
        timeline.issue(False, None, None)
        timeline.start(_running(index, reads=[(100 * index, 100 * index + 50)]), False)
    timeline.issue(True, 1, None)  # op 0 retired, op 1 (bytes 100 to 149) still reading
    timeline.start(_running(2, writes=[(0, 50)]), True)
    timeline.issue(True, 1, None)
    with pytest.raises(WaitError, match=r"overwrites bytes 120 to 129 of region 1, which op 1 .* may still be reading"):
        timeline.start(_running(3, writes=[(120, 130)]), True)


def test_the_limits_retire_the_oldest():
    """A third NPU operation waits for the first; on a U55 a second DMA for the first; on a U65
    two DMAs run together and race each other."""
    timeline = Timeline(max_dmas=1, max_kernels=2)
    for index in range(3):
        timeline.issue(False, None, None)
        timeline.start(_running(index, writes=[(0, 10)] if index == 0 else []), False)
    timeline.issue(True, None, None)
    timeline.start(_running(3, writes=[(0, 10)]), True)  # op 0 left when op 2 was issued
    timeline.issue(True, None, None)
    timeline.start(_running(4, reads=[(0, 10)]), True)  # one DMA at a time: op 3 has finished
    u65 = Timeline(max_dmas=2, max_kernels=2)
    u65.issue(True, None, None)
    u65.start(_running(0, writes=[(0, 10)]), True)
    u65.issue(True, None, None)
    with pytest.raises(WaitError, match=r"reads bytes 0 to 9 of region 1, which op 0"):
        u65.start(_running(1, reads=[(0, 10)]), True)


def test_regions_do_not_meet():
    timeline = Timeline(max_dmas=1, max_kernels=2)
    timeline.issue(True, None, None)
    timeline.start(Running(0, OP, Footprint.of([(2, True, (0, 100))])), True)
    timeline.issue(False, None, None)
    timeline.start(_running(1, reads=[(0, 100)]), False)
