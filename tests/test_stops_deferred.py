"""Stops held off the worker pool's bookkeeping (deckkit.stopping.stops_deferred): a stop that
lands inside ``concurrent.futures.wait`` (between two of its lock acquisitions) left a lock held,
the pool's manager thread waiting for it, the run ten seconds late and the interpreter's exit
waiting forever: `deckkit balance check` printed "interrupted" and never ended (CI, the SIGTERM
test of tests/test_command_signals.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckkit import stopping

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def handlers() -> Iterator[None]:
    """The stop signals' handlers as the test found them, put back after."""
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, *stopping.STOP_SIGNALS)}
    yield
    for sig, handler in saved.items():
        signal.signal(sig, handler)


def test_a_stop_in_the_block_is_noted_and_raised_where_the_block_asks(handlers: None) -> None:
    with stopping.stops_deferred() as stops:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)  # a call: where Python runs a signal's handler
        assert stops.pending == signal.SIGINT
        with pytest.raises(KeyboardInterrupt):
            stops.raise_pending()
        assert stops.pending is None
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_sigterm_is_raised_as_the_stop_it_is_with_its_exit_code(handlers: None) -> None:
    with stopping.stop_on_signals():
        with stopping.stops_deferred() as stops:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.01)
            with pytest.raises(stopping.Stopped) as raised:
                stops.raise_pending()
            assert raised.value.exit_code == 143 and stopping.exit_code() == 143
        # The stop's own handler ignores further stops while the run winds down; the block's
        # end does not undo that.
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN


def test_a_stop_still_pending_at_the_end_of_the_block_is_raised_there(handlers: None) -> None:
    with pytest.raises(KeyboardInterrupt), stopping.stops_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_forgotten_stop_is_not_raised(handlers: None) -> None:
    with stopping.stops_deferred() as stops:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        stops.forget()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ignored_and_default_handlers_are_left_alone(handlers: None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    with stopping.stops_deferred() as stops:
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        assert stops.pending is None


def test_a_handler_that_does_not_raise_leaves_the_block_noting(handlers: None) -> None:
    seen: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    with stopping.stops_deferred() as stops:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        stops.raise_pending()
        assert seen == [signal.SIGINT]
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        assert seen == [signal.SIGINT] and stops.pending == signal.SIGINT
        stops.forget()


# In a fresh process: a pool of two workers whose parent is stopped (SIGINT to itself) just
# after `concurrent.futures.wait` has taken the first of its futures' locks, the moment that hung
# CI's run. The run must come back interrupted at once, with no thread of the pool left behind
# for the interpreter's exit to wait on.
STOP_INSIDE_WAIT = """
import os, signal, threading, time
import concurrent.futures._base as base
from deckkit.core import workers
from tests.test_core_workers import SlowDice, SumKind

calls = 0
def enter(self):
    global calls
    calls += 1
    for i, future in enumerate(self.futures):
        future._condition.acquire()
        if calls >= 20 and i == 0 and len(self.futures) > 1 and not fired:
            fired.append(1)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0)  # a call: Python runs the signal's handler here
fired = []
base._AcquireFutures.__enter__ = enter
started = time.monotonic()
played = workers.play_games(SlowDice(6), SumKind(), games=10**6, seed=1, workers=2, chunk_size=5)
assert fired
print(played.interrupted, round(time.monotonic() - started, 1),
      sorted(t.name for t in threading.enumerate()))
"""


@pytest.mark.slow  # end to end: a real pool in a fresh process; in make test-slow (CI runs it)
def test_a_stop_inside_the_pool_s_waiting_ends_the_run_and_the_process() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", STOP_INSIDE_WAIT],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,  # before the fix: the run came back after 10 s, then the exit never ended
    )
    assert done.returncode == 0, done.stderr
    interrupted, seconds, threads = done.stdout.split(" ", 2)
    assert interrupted == "True"
    assert float(seconds) < 8, "the pool's manager thread was left waiting on a lock"
    assert threads.strip() == "['MainThread']", threads
