"""Stop signals and a killed parent in the long commands of Animus and Anima Tactics (issue 31,
problem 5): the games share Ani-Mayhem's runner (deckkit.core.workers), so SIGINT, SIGTERM and
SIGHUP end them with ``128 + signal`` and one line, and after SIGKILL of the parent no worker
keeps playing (the kernel's parent-death signal ends them at once)."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from tests.test_faults import (
    REPO,
    _alive,
    _all_gone,
    _deckkit,
    reaper,
    stop_run,
)

__all__ = ["reaper"]  # the fixture, imported to be used here

DECKS = REPO / "decks"
HUGE = "1000000000"
# Each sibling game's long commands: a run that plays far longer than any test waits.
LONG = {
    "animus simulate": [
        "simulate", str(DECKS / "animus-vanguard.team"),
        "--vs", str(DECKS / "animus-counterpoint.team"),
    ],
    "animus report": [
        "report", str(DECKS / "animus-vanguard.team"),
        "--vs", str(DECKS / "animus-counterpoint.team"),
    ],
    "anima-tactics simulate": [
        "simulate", str(DECKS / "at-empire-light.party"),
        "--vs", str(DECKS / "at-samael-darkness.party"),
    ],
    "anima-tactics report": [
        "report", str(DECKS / "at-empire-light.party"),
        "--vs", str(DECKS / "at-samael-darkness.party"),
    ],
}  # fmt: skip


def _start(command: str, tmp_path: os.PathLike[str]) -> subprocess.Popen[str]:
    args = [*LONG[command], "--games", HUGE, "--workers", "2"]
    if command.endswith("report"):
        args += ["-o", os.path.join(tmp_path, "page.html")]
    return _deckkit(*args)


# The report commands play on the same runner as simulate: in the slow suite.
COMMANDS = [
    pytest.param(c, marks=pytest.mark.slow) if c.endswith("report") else c for c in sorted(LONG)
]


@pytest.mark.slow  # real runs stopped by a signal: end to end (make test-slow, run by CI)
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("sig", "code"),
    [
        (signal.SIGTERM, 143),
        pytest.param(signal.SIGHUP, 129, marks=pytest.mark.slow),
        pytest.param(signal.SIGINT, 130, marks=pytest.mark.slow),
    ],
)
def test_a_stop_signal_ends_the_run_and_its_workers(
    command: str,
    sig: signal.Signals,
    code: int,
    tmp_path: os.PathLike[str],
    reaper: list[subprocess.Popen[str]],
) -> None:
    proc = _start(command, tmp_path)
    reaper.append(proc)
    _, err, workers, seconds = stop_run(proc, sig)  # as a process manager does: the parent only
    assert proc.returncode == code, err
    assert seconds < 10, "the run kept playing after the stop"
    assert "Traceback" not in err
    assert _all_gone(workers, timeout=5), [w for w in workers if _alive(w)]


@pytest.mark.slow  # real runs killed with their workers: end to end (make test-slow, run by CI)
@pytest.mark.parametrize("command", COMMANDS)
def test_no_worker_outlives_a_killed_parent(
    command: str, tmp_path: os.PathLike[str], reaper: list[subprocess.Popen[str]]
) -> None:
    proc = _start(command, tmp_path)
    reaper.append(proc)
    _, _, workers, _ = stop_run(proc, signal.SIGKILL)  # every child: workers, the tracker
    # Within a second: the parent-death signal (Linux), or the parent watch elsewhere.
    assert _all_gone(workers, timeout=1.5), [w for w in workers if _alive(w)]
