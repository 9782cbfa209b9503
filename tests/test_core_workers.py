"""The worker runner every game shares (deckkit.core.workers): any game's records, any number of
workers, the same totals; and workers that the kernel ends with their parent (issue 31,
problem 5: a worker must not outlive a parent killed outright)."""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import time
from dataclasses import dataclass

import pytest

from deckkit.core import workers

PR_GET_PDEATHSIG = 2  # linux/prctl.h


def _death_signal_after_follow(kernel: bool) -> int:
    """In a fresh process: follow the parent, then ask the kernel for the parent-death signal."""
    workers.follow_parent(os.getppid(), kernel)
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    found = ctypes.c_int(0)
    libc.prctl(PR_GET_PDEATHSIG, ctypes.byref(found), 0, 0, 0)
    return found.value


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_a_worker_asks_the_kernel_to_end_it_with_its_parent() -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        assert pool.apply(_death_signal_after_follow, (True,)) == signal.SIGKILL
        # A pool started off the main thread (the thread may end before the parent) is
        # followed by the watching thread alone.
    with context.Pool(1) as pool:
        assert pool.apply(_death_signal_after_follow, (False,)) == 0


@dataclass(frozen=True)
class Dice:
    """A stand-in game: game ``index`` of seed ``seed`` is one number, its record."""

    faces: int

    def __call__(self) -> workers.PlayFn:
        return self.play

    def play(self, seed: int, index: int) -> int:
        return (seed * 7919 + index * 104729) % self.faces


@dataclass(frozen=True)
class SlowDice(Dice):
    """:class:`Dice` at two milliseconds a game: a run that lasts until it is stopped."""

    def play(self, seed: int, index: int) -> int:
        time.sleep(0.002)
        return super().play(seed, index)


class Sums:
    def __init__(self) -> None:
        self.games = 0
        self.total = 0
        self.counts: dict[int, int] = {}

    def add(self, record: int) -> None:
        self.games += 1
        self.total += record
        self.counts[record] = self.counts.get(record, 0) + 1

    def merged(self, other: Sums) -> Sums:
        out = Sums()
        out.games = self.games + other.games
        out.total = self.total + other.total
        out.counts = {k: self.counts.get(k, 0) + other.counts.get(k, 0)
                      for k in self.counts.keys() | other.counts.keys()}  # fmt: skip
        return out


class SumKind:
    def tally(self) -> Sums:
        return Sums()

    def row(self, record: int) -> tuple[int]:
        return (record,)


def test_any_game_s_records_give_the_same_totals_for_any_workers_and_chunks() -> None:
    one = workers.play_games(Dice(6), SumKind(), games=900, seed=3, workers=1, keep_rows=True)
    two = workers.play_games(Dice(6), SumKind(), games=900, seed=3, workers=2, keep_rows=True,
                             chunk_size=37)  # fmt: skip
    expected = [Dice(6).play(3, i) for i in range(900)]
    for run in (one, two):
        assert not run.interrupted
        assert run.tally.games == 900
        assert run.tally.total == sum(expected)
        assert run.rows == [(x,) for x in expected]
    assert one.tally.counts == two.tally.counts


def test_the_schedule_is_made_as_it_is_handed_out() -> None:
    ranges = workers.chunks(10**12, 250)
    assert not isinstance(ranges, list | tuple)
    assert [next(ranges), next(ranges)] == [(0, 250), (250, 500)]


def test_workers_are_capped_at_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert [workers.capped_workers(n) for n in (0, 1, 2, 64)] == [2, 1, 2, 2]
