"""Every command ends with the exit code its cause calls for: ``128 + signal`` when a signal
stopped it, whichever command re-raises the stop; 130 for a Ctrl-C that lands while the CLI is
still loading; 141 when the reader of stdout has gone; 5 when stdout is not open at all."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_faults import (
    DECK,
    REPO,
    _all_gone,
    _deckkit,
    _wait_for_workers,
    as_at_a_terminal,
    reaper,
    undecided_balance_file,
)

__all__ = ["reaper"]  # the fixture, imported to be used here

LONG = ["--games", "2000000", "--workers", "2", "--seed", "4"]


# SIGHUP's 129 is checked on `simulate` by test_faults; here on every command, in the slow suite.
@pytest.mark.slow  # real runs stopped by a signal: end to end (make test-slow, run by CI)
@pytest.mark.parametrize(
    ("sig", "code"),
    [(signal.SIGTERM, 143), pytest.param(signal.SIGHUP, 129, marks=pytest.mark.slow)],
)
@pytest.mark.parametrize("command", ["compare", "impact", "balance"])
def test_every_playing_command_exits_128_plus_the_signal(
    command: str,
    sig: signal.Signals,
    code: int,
    tmp_path: Path,
    reaper: list[subprocess.Popen[str]],
) -> None:
    if command == "compare":
        args = ["compare", str(DECK), "--policy-b", "random", *LONG]
    elif command == "impact":
        args = ["impact", str(DECK), *LONG[2:], "--games", "200000"]
    else:
        args = ["balance", "check", str(undecided_balance_file(tmp_path)), "--workers", "2"]
    proc = _deckkit(*args)
    reaper.append(proc)
    workers = _wait_for_workers(proc)
    os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "Traceback" not in err
    assert _all_gone(workers)


def _cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far (/proc/PID/stat: user and system clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_to_deckkit_s_handler() -> float:
    """CPU seconds Python takes to start and load the console script's module, after which
    deckkit notes a Ctrl-C (deckkit.cli.launch.run): a signal before then is Python's own
    start-up to report. Counted in CPU time, the same on a loaded machine, where a wall-clock
    delay of half a second once fell inside Python's start-up."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import deckkit.cli.launch"], cwd=REPO, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_ctrl_c_while_loading_is_an_interruption_not_a_traceback() -> None:
    # Once Python has started and deckkit's launcher is loaded (its CPU time, plus a margin of
    # two clock ticks), at several points while deckkit loads its commands.
    start = _cpu_to_deckkit_s_handler() + 0.02
    for extra in (0.0, 0.1, 0.2, 0.3):
        proc = _deckkit("validate", str(DECK))
        try:
            while proc.poll() is None and _cpu_seconds(proc.pid) < start + extra:
                time.sleep(0.002)
        except (FileNotFoundError, ProcessLookupError):  # already gone
            pass
        delay = extra
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        # 130 stopped by deckkit; -2 stopped by the signal before Python set up its handler;
        # 0 when the validation was already done.
        assert proc.returncode in (130, -signal.SIGINT, 0), (delay, err)
        assert "Traceback" not in err, (delay, err)


# Ctrl-C delivered while the import machinery runs a callback of its own (a module lock's
# weakref callback, importlib._bootstrap._get_module_lock): the moment that made the test above
# fail now and then under load. Here it is made to happen: the loading of MODULE drops the last
# reference to an object whose weakref callback sends this process SIGINT, so Python runs the
# handler inside that callback.
_CTRL_C_IN_A_CALLBACK = """
import os, signal, sys, weakref
MODULE = sys.argv[2]
class Finder:
    def find_spec(self, name, path=None, target=None):
        if name == MODULE:
            sys.meta_path.remove(self)
            class Lock: pass
            lock = Lock()
            def ctrl_c(ref):
                os.kill(os.getpid(), signal.SIGINT)
                sum(range(100))  # the handler runs here, inside the callback
            keep = weakref.ref(lock, ctrl_c)
            del lock
        return None
sys.meta_path.insert(0, Finder())
sys.argv = ["deckkit", "validate", sys.argv[1]]
from deckkit.cli.launch import run
run()
"""


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.parametrize(
    "module",
    [
        "deckkit.cli.main",  # while the console script loads the CLI
        "deckkit.animayhem.validation",  # while the command runs and loads what it needs
    ],
)
def test_ctrl_c_inside_an_import_callback_still_stops_the_command(module: str) -> None:
    """An interruption landing in a callback is never lost ("Exception ignored in ...", then the
    command carried on): exit 130, one line; while the CLI loads and once the command runs."""
    done = subprocess.run(
        [sys.executable, "-c", _CTRL_C_IN_A_CALLBACK, str(DECK), module],
        capture_output=True, text=True, cwd=REPO, timeout=60, preexec_fn=as_at_a_terminal,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert done.stderr == "interrupted\n"
    assert done.stdout == ""


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.parametrize(
    "args",
    [
        ["validate", str(DECK)],
        ["cards", "list"],
        ["cards", "coverage", "--cards"],
        # The commands that play games start worker processes too: in make test-slow (run by CI).
        pytest.param(
            ["compare", str(DECK), "--policy-b", "random", "-n", "20"], marks=pytest.mark.slow
        ),
        pytest.param(
            ["impact", str(DECK), "--games", "20", "--card", "Krillin"], marks=pytest.mark.slow
        ),
        pytest.param(
            ["simulate", str(DECK), "-n", "20", "-q", "-f", "json"], marks=pytest.mark.slow
        ),
    ],
)
def test_a_reader_gone_before_anything_was_read_is_exit_141(args: list[str]) -> None:
    """The reader closes the pipe at once (``| true``): output small enough to sit in a buffer
    until the end still meets the closed pipe, and says so with 141, not 0."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "deckkit", *args],
            stdout=write, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120,
        )  # fmt: skip
    finally:
        os.close(write)
    assert done.returncode == 141, (args, done.stderr)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_a_closed_stdout_is_refused_not_silently_ignored() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deckkit", "validate", str(DECK)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=60,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert done.returncode == 5, done.stderr
    assert "standard output is closed" in done.stderr
