"""Faults a real run meets: stop signals, a killed parent, a dying worker, a closed stdout, an
unusual encoding, an unwritable destination. Each one ends with a known exit code, one line of
explanation, nothing lost and no process left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_untrusted_files import deckkit_here

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"
LONG_RUN = ["simulate", str(DECK), "--games", "2000000", "--workers", "2", "--seed", "4"]


def as_at_a_terminal() -> None:
    """SIGINT back to its default in a child about to start, as at a terminal: a test run
    started in the background by a shell (as some CI runners start jobs) inherits SIGINT
    ignored, and a Ctrl-C sent to its children would then do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _deckkit(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    kwargs.setdefault("preexec_fn", as_at_a_terminal)
    return subprocess.Popen(
        [sys.executable, "-m", "deckkit", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        start_new_session=True,
        **kwargs,  # type: ignore[call-overload]
    )


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            found.append(int(entry.name))
    return found


def undecided_balance_file(tmp_path: Path) -> Path:
    """A band check that cannot decide for millions of games, whatever the deck's win rate: with
    a margin of a millionth each side's log-likelihood ratio moves about a millionth a game
    (times a factor near 1 for any plausible rate), so neither reaches its bound of about 3
    before millions of games, and the budget is larger still. (A band merely hugging the
    random player's rate decided within seconds once that rate moved inside it.)"""
    path = tmp_path / "balance.toml"
    path.write_text(
        f'[[check]]\nname = "slow"\ndeck = "{DECK}"\nband = [0.05, 0.20]\n'
        'margin = 0.000001\npolicy = "random"\nbudget = 100000000\n'
    )
    return path


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for_workers(proc: subprocess.Popen[str], count: int = 2) -> list[int]:
    """The worker processes of a run, once they have started playing."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        kids = [k for k in _children(proc.pid) if "deckkit" in _cmdline(k) or _is_worker(k)]
        if len(kids) >= count:
            _wait_until_playing(kids)
            return _children(proc.pid)
        time.sleep(0.1)
    raise AssertionError("the workers never started")


PLAYING_CPU_SECONDS = 0.4  # a pool worker's start-up (imports, engine) takes about 0.15


def _cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _wait_until_playing(kids: list[int]) -> None:
    """Until every pool worker among ``kids`` has used more CPU than its start-up takes, so
    that it builds its engine and plays (at most 10 s; a busy machine may leave it starting)."""
    workers = [k for k in kids if "spawn_main" in _cmdline(k)] or kids
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if all(_cpu_seconds(w) >= PLAYING_CPU_SECONDS for w in workers):
            return
        time.sleep(0.05)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _is_worker(pid: int) -> bool:
    return "multiprocessing" in _cmdline(pid)


def _all_gone(pids: list[int], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def stop_run(
    proc: subprocess.Popen[str], sig: signal.Signals, *, group: bool = False
) -> tuple[str, str, list[int], float]:
    """Send ``sig`` to a run once its workers play: to the parent alone (as a process manager
    does), or with ``group`` to its whole process group (as a terminal sends Ctrl-C). Returns
    its stdout, its stderr, the workers it had and the seconds it took to end after the signal."""
    workers = _wait_for_workers(proc)
    assert workers
    sent = time.monotonic()
    if group:
        os.killpg(proc.pid, sig)
    else:
        os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=60)
    return out, err, workers, time.monotonic() - sent


@pytest.fixture
def reaper() -> Iterator[list[subprocess.Popen[str]]]:
    """Kill whatever a failing test leaves running."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


# SIGHUP in make test-slow (CI runs it): the two take the same road (deckkit/stopping.py).
@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.parametrize(
    ("sig", "code"),
    [(signal.SIGTERM, 143), pytest.param(signal.SIGHUP, 129, marks=pytest.mark.slow)],
)
def test_stop_signals_end_a_run_like_ctrl_c(
    sig: signal.Signals, code: int, reaper: list[subprocess.Popen[str]]
) -> None:
    proc = _deckkit(*LONG_RUN, "--format", "json")
    reaper.append(proc)
    workers = _wait_for_workers(proc)
    os.kill(proc.pid, sig)  # as a process manager does: the parent only
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    doc = json.loads(out)
    assert doc["interrupted"] is True
    # Whole chunks of finished games only (none yet, on a busy machine, is fine too).
    assert doc["games"] < 2_000_000 and doc["games"] % 250 == 0
    assert "Traceback" not in err
    assert _all_gone(workers)


# SIGTERM and SIGHUP end the workers in test_stop_signals_end_a_run_like_ctrl_c too (its last
# assertion); here once more each, in the slow suite.
@pytest.mark.slow  # workers killed with their parent: end to end (make test-slow, run by CI)
@pytest.mark.parametrize(
    "sig",
    [
        pytest.param(signal.SIGTERM, marks=pytest.mark.slow),
        pytest.param(signal.SIGHUP, marks=pytest.mark.slow),
        signal.SIGKILL,
    ],
)
def test_no_worker_outlives_its_parent(
    sig: signal.Signals, reaper: list[subprocess.Popen[str]]
) -> None:
    proc = _deckkit(*LONG_RUN)
    reaper.append(proc)
    workers = _wait_for_workers(proc)
    os.kill(proc.pid, sig)
    proc.communicate(timeout=60)
    assert _all_gone(workers), [p for p in workers if _alive(p)]


@pytest.mark.slow  # a worker process killed mid-run: end to end (make test-slow, run by CI)
def test_a_dying_worker_is_one_line_and_exit_4(reaper: list[subprocess.Popen[str]]) -> None:
    proc = _deckkit(*LONG_RUN)
    reaper.append(proc)
    workers = [w for w in _wait_for_workers(proc) if _is_worker(w)]
    victim = next(w for w in workers if "spawn_main" in _cmdline(w))
    os.kill(victim, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 4, err
    assert "Traceback" not in err
    assert "worker process died" in err
    assert _all_gone(workers)


@pytest.mark.slow  # a real run stopped by SIGTERM: end to end (make test-slow, run by CI)
def test_an_interrupted_run_never_replaces_an_existing_out_file(
    tmp_path: Path, reaper: list[subprocess.Popen[str]]
) -> None:
    out_file = tmp_path / "games.csv"
    out_file.write_text("precious\n")
    proc = _deckkit(*LONG_RUN, "--out", str(out_file), "--force")
    reaper.append(proc)
    _wait_for_workers(proc)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert out_file.read_text() == "precious\n"
    assert "left as it was" in err
    assert [p.name for p in tmp_path.iterdir()] == ["games.csv"]  # no temporary file left


@pytest.mark.slow  # real processes on a closed pipe: end to end (make test-slow, run by CI)
def test_a_closed_stdout_ends_quietly_like_unix_tools() -> None:
    for args in (["validate", str(DECK)], ["simulate", str(DECK), "--games", "20"]):
        proc = _deckkit(*args)
        assert proc.stdout is not None
        # `| head -0`: the reader is gone before the first line. (Reading a line first races:
        # a short output can be written whole before the reader closes, and exit 0 is right.)
        proc.stdout.close()
        proc.wait(timeout=60)
        assert proc.stderr is not None
        err = proc.stderr.read()
        assert proc.returncode == 141, (args, err)
        assert "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_an_ascii_only_stdout_gets_escapes_not_a_traceback() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [sys.executable, "-m", "deckkit", "validate", str(DECK)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "D = 2\\xd79" in done.stdout  # the multiplication sign, escaped; the numbers intact


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_an_unwritable_out_directory_is_found_before_any_game() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deckkit", *LONG_RUN, "--out", "/proc/games.parquet"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 2
    assert "cannot write in the directory for --out" in done.stderr
    assert done.stdout == ""


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.parametrize("kind", ["fifo", "device", "huge", "long line", "directory"])
def test_deck_paths_that_never_end_or_are_too_big_fail_fast(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        path = tmp_path / "pipe.deck"
        os.mkfifo(path)  # nobody ever writes: reading it would block forever
    elif kind == "device":
        path = Path("/dev/zero")  # never ends
    elif kind == "huge":
        path = tmp_path / "huge.deck"
        path.write_text("[characters]\n" + "Goku\n" * 400_000)
    elif kind == "long line":
        path = tmp_path / "long.deck"
        path.write_text("[characters]\n" + "Goku" * 10_000 + "\n")
    else:
        path = tmp_path
    started = time.monotonic()
    if kind in ("fifo", "device"):  # could block or never end: a process with its own timeout
        done = subprocess.run(
            [sys.executable, "-m", "deckkit", "validate", str(path)],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
        )
    else:  # refused by deckkit's own reading: this process, no interpreter start-up
        done = deckkit_here("validate", path)
    assert done.returncode == 2, done.stderr
    assert time.monotonic() - started < 30
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith(f"error: {path}"), done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # the console script on /dev/full: end to end (make test-slow, run by CI)
@pytest.mark.parametrize(
    "args", [["validate", str(DECK)], ["simulate", str(DECK), "-n", "20", "-f", "json"]]
)
def test_a_full_disk_on_stdout_is_one_line_and_exit_5(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "deckkit", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            timeout=120,
        )
    assert done.returncode == 5, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "error: cannot write the output: No space left on device"
    )
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


@pytest.mark.slow  # a real process under a file size limit: end to end (make test-slow, run by CI)
def test_a_file_size_limit_on_out_loses_nothing(tmp_path: Path) -> None:
    import resource

    out_file = tmp_path / "games.csv"
    out_file.write_text("precious\n")

    def tiny_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))

    done = subprocess.run(
        [sys.executable, "-m", "deckkit", "simulate", str(DECK), "-n", "300", "-q",
         "-o", str(out_file), "--force", "-f", "json"],
        capture_output=True, text=True, cwd=REPO, timeout=300, preexec_fn=tiny_files,
    )  # fmt: skip
    assert done.returncode == 5, done.stderr  # the output could not be written
    assert "cannot write --out" in done.stderr and "nothing was written" in done.stderr
    assert out_file.read_text() == "precious\n"
    assert [p.name for p in tmp_path.iterdir()] == ["games.csv"]


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_a_narrow_terminal_keeps_every_number() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deckkit", "validate", str(DECK)],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, "COLUMNS": "20"},
    )  # fmt: skip
    assert done.returncode == 0
    assert "…" not in done.stdout
    assert "24" in done.stdout and "≥ 12" in done.stdout
