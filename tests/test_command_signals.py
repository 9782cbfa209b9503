"""Every long Ani-Mayhem command under the three ways a run is stopped (issue 31, build point
6): Ctrl-C (SIGINT to the whole process group, as a terminal sends it) and SIGTERM (to the
parent alone, as a process manager sends it) end it with ``128 + signal``, the games that
finished kept and no traceback; SIGKILL of the parent leaves no worker playing (the kernel's
parent-death signal, deckkit/core/workers.py). The runner is shared, so each command is checked
end to end (README, "Exit codes").

Covered elsewhere: SIGTERM and SIGHUP of simulate, and a simulate `--out` left as it was
(tests/test_faults.py); SIGTERM of compare, impact and balance check (tests/test_exit_codes.py);
Animus and Anima Tactics (tests/test_sibling_signals.py). One process start and two workers
each: end to end, in the slow suite (CI runs it); `make test` keeps one stopped run, simulate's
SIGTERM (tests/test_faults.py)."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from tests.test_faults import (
    DECK,
    _alive,
    _all_gone,
    _deckkit,
    reaper,
    stop_run,
    undecided_balance_file,
)

__all__ = ["reaper"]  # the fixture, imported to be used here

HUGE = "100000000"
RUN = ["--workers", "2", "--seed", "4"]


def _args(command: str, tmp_path: Path) -> list[str]:
    """A run of ``command`` that plays far longer than any test waits."""
    if command == "simulate":
        return ["simulate", str(DECK), "--games", HUGE, *RUN, "--format", "json"]
    if command == "report":
        return ["report", str(DECK), "--games", HUGE, *RUN, "-q", "-o", str(tmp_path / "p.html")]
    if command == "compare":
        return ["compare", str(DECK), "--policy-b", "random", "--games", HUGE, *RUN]
    if command == "impact":
        return ["impact", str(DECK), "--games", "2000000", *RUN]
    if command == "sensitivity":
        return ["sensitivity", str(DECK), "--games", HUGE, *RUN]
    return ["balance", "check", str(undecided_balance_file(tmp_path)), "--workers", "2"]


COMMANDS = ["simulate", "report", "compare", "impact", "sensitivity", "balance"]
SLOW = pytest.mark.slow


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("sig", "code", "group"),
    [
        pytest.param(signal.SIGINT, 130, True, marks=SLOW, id="ctrl-c"),
        pytest.param(signal.SIGTERM, 143, False, marks=SLOW, id="sigterm"),
    ],
)
def test_a_stop_ends_the_command_with_128_plus_the_signal(
    command: str,
    sig: signal.Signals,
    code: int,
    group: bool,
    tmp_path: Path,
    reaper: list[subprocess.Popen[str]],
) -> None:
    proc = _deckkit(*_args(command, tmp_path))
    reaper.append(proc)
    out, err, workers, seconds = stop_run(proc, sig, group=group)
    assert proc.returncode == code, err
    assert seconds < 30, "the run kept playing after the stop"
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert _all_gone(workers, timeout=5), [w for w in workers if _alive(w)]
    if command == "simulate":  # the games that finished, in whole chunks, flagged
        doc = json.loads(out)
        assert doc["interrupted"] is True and doc["games"] % 250 == 0
    if command == "report":  # the page of the games played, written at once, or none at all
        pages = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))
        assert pages in ([], ["p.html", "p.json"]), pages
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no spool left


@pytest.mark.slow  # real runs killed with their workers: end to end (make test-slow, run by CI)
@pytest.mark.parametrize(
    "command",
    [c if c in ("report", "sensitivity") else pytest.param(c, marks=SLOW) for c in COMMANDS],
)
def test_no_worker_outlives_a_killed_parent(
    command: str, tmp_path: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    proc = _deckkit(*_args(command, tmp_path))
    reaper.append(proc)
    _, _, workers, _ = stop_run(proc, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    # Within a second: the parent-death signal (Linux), or the parent watch elsewhere.
    assert _all_gone(workers, timeout=1.5), [w for w in workers if _alive(w)]
