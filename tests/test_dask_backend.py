"""Games on a Dask cluster (``--scheduler``): the same results as a local run, a lost worker's
chunks played again and counted once, Ctrl-C, and clear errors for a missing Dask or a bad
address.

The cluster is a ``distributed.LocalCluster`` of two single-threaded worker processes on
127.0.0.1, started once for the module; the games are the real engine's on the demo deck. The
tests on that cluster are end to end (a scheduler, nannies and worker processes that import
Dask and deckkit, about 25 CPU-seconds before any game) and run in `make test-slow` (CI runs
it), where the module's tests share one worker and so one cluster; `make test` keeps the
checks that need no cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import pickle
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import polars as pl
import pytest
from fakes import FakeEngine
from typer.testing import CliRunner

from deckkit import __version__
from deckkit.analysis import dask_backend
from deckkit.analysis.runner import (
    ChunkResult,
    FoldFn,
    GameFactory,
    WorkerDied,
    chunks_played_by,
    play_chunk,
    run_games,
)
from deckkit.api.engine import ENGINE
from deckkit.api.options import RunOptions
from deckkit.api.solitaire import prepare
from deckkit.cli.main import app
from deckkit.core.workers import RecordKind

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "decks" / "demo-solo.deck"
MEDIUM = REPO / "decks" / "medium-solo.deck"
# A nanny starts a new worker process for a killed one: a fresh interpreter importing Dask,
# which takes a minute and more on a loaded machine.
NANNY_RESTART_SECONDS = 240
# The tests that start the cluster: end to end, in the slow suite (see the module's text).
ON_THE_CLUSTER = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.LocalCluster]:
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        host="127.0.0.1",
        processes=True,
        dashboard_address=":0",  # any free port: several test processes may run a cluster
    ) as local:
        yield local


@pytest.fixture
def client(cluster: distributed.LocalCluster) -> Iterator[distributed.Client]:
    """The test's own view of the cluster (deckkit connects with a client of its own)."""
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as own:
        own.wait_for_workers(2, timeout=NANNY_RESTART_SECONDS)
        yield own


def _deckkit(*args: str, env: dict[str, str] | None = None) -> Any:
    result = CliRunner().invoke(app, list(args), env=env)
    return result


def _json_of(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = _deckkit(*args, "--format", "json", env=env)
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


@ON_THE_CLUSTER
def test_simulate_on_the_cluster_equals_a_local_run(
    cluster: distributed.LocalCluster, tmp_path: Path
) -> None:
    run = ["simulate", str(DEMO), "--games", "120", "--seed", "5"]
    remote = _json_of(
        *run, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "remote.parquet")
    )
    one = _json_of(*run, "--workers", "1", "--out", str(tmp_path / "one.parquet"))
    two = _json_of(*run, "--workers", "2")
    assert remote == one == two
    assert remote["games"] == 120 and not remote["interrupted"]
    # The per-game rows too, in game order.
    rows = pl.read_parquet(tmp_path / "remote.parquet")
    assert rows.equals(pl.read_parquet(tmp_path / "one.parquet"))
    assert rows["index"].to_list() == list(range(120))


@ON_THE_CLUSTER
def test_compare_through_the_environment_variable_equals_a_local_run(
    cluster: distributed.LocalCluster,
) -> None:
    run = ["compare", str(DEMO), str(MEDIUM), "--games", "60", "--seed", "2"]
    remote = _json_of(*run, env={dask_backend.SCHEDULER_ENV: cluster.scheduler_address})
    local = _json_of(*run, env={dask_backend.SCHEDULER_ENV: ""})
    assert remote == local
    assert [arm["games"] for arm in remote["arms"]] == [60, 60]


def _demo_games() -> GameFactory:
    """The real engine on the demo deck, as `deckkit simulate` builds it."""
    options = RunOptions()
    game = prepare(DEMO, options)
    return ENGINE.factory(game.deck, game.edition, game.layout, options.turn_cap, options.policy)


@ON_THE_CLUSTER
def test_a_killed_worker_s_chunks_are_played_again_and_counted_once(
    cluster: distributed.LocalCluster, client: distributed.Client
) -> None:
    factory = _demo_games()
    # 12 chunks of 400 games, each a few tenths of a second on one core: the killed worker holds
    # some of them. (With chunks of 20 demo games, a few milliseconds each since the engine got
    # faster, every chunk could be done before the first result was seen: none left to kill.)
    games, chunk = 4_800, 400
    pids: dict[str, int] = client.run(os.getpid)
    killed: list[tuple[str, list[str], int]] = []  # worker, its chunks, games done then
    seen: list[int] = []

    def kill_after_the_first_chunk(done: int) -> None:
        """Kill (SIGKILL) a worker that has chunks in hand, once the first chunk is in.

        The worker is frozen (SIGSTOP) first and the scheduler given a moment to take in any
        result already on its way: the chunks the scheduler then lists for the worker are ones
        it cannot finish. (Read while it runs, a listed chunk could finish between the reading
        and the kill: it was then never lost, and its story rightly shows no release.)"""
        seen.append(done)
        if killed:
            return
        for worker in list(pids):
            os.kill(pids[worker], signal.SIGSTOP)
            time.sleep(0.5)
            keys = client.processing().get(worker, ())
            if keys:
                os.kill(pids[worker], signal.SIGKILL)
                killed.append((worker, [str(k) for k in keys], done))
                return
            os.kill(pids[worker], signal.SIGCONT)

    with dask_backend.games_on(cluster.scheduler_address):
        remote = run_games(
            factory,
            games=games,
            seed=11,
            keep_rows=True,
            chunk_size=chunk,
            progress=kill_after_the_first_chunk,
        )
    local = run_games(factory, games=games, seed=11, workers=1, keep_rows=True)

    assert killed, "a worker holding chunks was killed mid-run"
    victim, its_chunks, games_then = killed[0]
    assert games_then < games  # mid-run
    for key in its_chunks:  # the scheduler took each back and another worker played it
        story = client.story(key)
        moves = [row[2:4] for row in story if row[0] == "scheduler"]
        assert ("processing", "released") in moves, story
        played_on = {
            row[0] for row in story if row[0] != "scheduler" and row[2:4] == ("executing", "memory")
        }
        assert played_on and victim not in played_on, story
    assert not remote.interrupted
    assert remote.tally == local.tally  # no chunk lost, none counted twice
    assert remote.rows is not None and local.rows is not None
    assert remote.rows.equals(local.rows)
    assert seen == sorted(seen) and seen[-1] == games  # the progress never went back or past
    client.wait_for_workers(2, timeout=NANNY_RESTART_SECONDS)  # restarted, for the next tests


class TwiceBackend:
    """A backend that hands every chunk's result in twice, as a cluster retrying a chunk whose
    first result was only late (not lost) could."""

    def slots(self) -> int:
        return 3

    def play(
        self,
        factory: GameFactory,
        seed: int,
        ranges: Iterator[tuple[int, int]],
        keep_rows: bool,
        fold: FoldFn,
        kind: RecordKind,
    ) -> bool:
        play = factory()
        results: list[ChunkResult] = [
            play_chunk(play, seed, start, stop, keep_rows, kind) for start, stop in ranges
        ]
        for result in results + results[::-1]:
            fold(result)
        return False


def test_a_chunk_handed_in_twice_is_counted_once() -> None:
    engine = FakeEngine()
    with chunks_played_by(TwiceBackend()):
        twice = run_games(engine, games=500, seed=3, keep_rows=True, chunk_size=40)
    once = run_games(engine, games=500, seed=3, workers=1, keep_rows=True)
    assert twice.tally == once.tally and twice.tally.games == 500
    assert twice.rows is not None and once.rows is not None and twice.rows.equals(once.rows)
    assert twice.workers == 3  # the backend's slots


def test_a_worker_with_another_deckkit_version_refuses_to_play() -> None:
    payload = pickle.dumps(FakeEngine())
    with pytest.raises(dask_backend.WrongVersion, match="runs deckkit"):
        dask_backend.remote_chunk("0.0.1", "run", payload, 1, 0, 10, False)
    same = dask_backend.remote_chunk(__version__, "run", payload, 1, 0, 10, True)
    assert (same.start, same.stop, same.tally.games) == (0, 10, 10)


def test_the_client_loop_drops_only_an_orphaned_gather_s_stop_waiting() -> None:
    """A result fetch cut short by its timeout (the worker holding the result was lost) leaves
    Dask's inner wait behind; when the run's chunks are cancelled it ends with ``AllExit`` that
    nobody awaits, and asyncio printed it with a traceback after deckkit's one-line error (a
    flaky end of the lost-worker test). The loop drops that one exception and reports any
    other as before."""
    reported: list[dict[str, Any]] = []
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(lambda _loop, context: reported.append(context))
        dask_backend._drop_orphaned_gathers(distributed, loop)

        async def stop_waiting() -> None:
            raise distributed.client.AllExit()

        async def broken() -> None:
            raise ValueError("a real fault")

        for body in (stop_waiting, broken):
            task = loop.create_task(body())
            loop.run_until_complete(asyncio.wait([task]))
            del task  # never retrieved: reported as it is collected
            gc.collect()
    finally:
        loop.close()
    assert [type(context.get("exception")) for context in reported] == [ValueError]


class _ClosedOnFetch:
    """A finished chunk whose result fetch meets a closed connection: the scheduler went
    between the chunk's end and the fetch."""

    def done(self) -> bool:
        return True

    def result(self, timeout: float | None = None) -> Any:
        raise distributed.comm.CommClosedError("in <TCP (closed) ConnectionPool.gather>")


class _GoneSchedulerClient:
    """The few client calls a run makes, with every chunk's fetch cut off."""

    status = "running"

    def nthreads(self) -> dict[str, int]:
        return {"tcp://127.0.0.1:1": 1}

    def submit(self, *args: Any, **kwargs: Any) -> _ClosedOnFetch:
        return _ClosedOnFetch()

    def cancel(self, futures: Any, force: bool = False) -> None:
        pass


def test_a_closed_connection_while_fetching_a_result_is_the_scheduler_lost() -> None:
    """Dask's closed-connection error is an OSError: left to the command, it read as a failure
    to write the output (exit 5, "cannot write the output: ... Stream is closed", seen once in
    ten runs of the lost-scheduler test below); it is the scheduler lost, exit 7, with the
    games finished."""
    backend = dask_backend.DaskBackend("tcp://127.0.0.1:1")
    backend._client = _GoneSchedulerClient()
    payload = FakeEngine()
    with pytest.raises(dask_backend.SchedulerUnreachable, match="during the run") as caught:
        backend.play(payload, 1, iter([(0, 10), (10, 20)]), False, lambda result: None)
    assert caught.value.exit_code == 7
    backend._client = None


@ON_THE_CLUSTER
@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_cancels_the_chunks_and_exits_128_plus_the_signal(
    cluster: distributed.LocalCluster, client: distributed.Client, stop: int, code: int
) -> None:
    """Ctrl-C, or a process manager's SIGTERM, stops a run on the cluster as it stops a local
    one: the chunks cancelled, the whole ones kept, exit 128 + the signal."""
    run = ["simulate", str(DEMO), "--games", "2000000", "--seed", "4", "--format", "json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckkit", *run, "--scheduler", cluster.scheduler_address],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not _deckkit_tasks(client):  # the run has reached the cluster
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the run never reached the cluster"
            time.sleep(0.1)
        time.sleep(1.0)  # some chunks finish
        os.kill(proc.pid, stop)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == code, err
    assert "Traceback" not in err
    doc = json.loads(out)
    assert doc["interrupted"] is True
    assert doc["games"] < 2_000_000 and doc["games"] % 250 == 0  # whole chunks only
    deadline = time.monotonic() + 30
    while _deckkit_tasks(client):  # cancelled: nothing of the run stays on the cluster
        assert time.monotonic() < deadline, _deckkit_tasks(client)
        time.sleep(0.2)


@ON_THE_CLUSTER
def test_an_interrupted_run_cancels_its_chunks_while_connected(
    cluster: distributed.LocalCluster, client: distributed.Client
) -> None:
    """The stop cancels the chunks in flight: they leave the scheduler while deckkit is still
    connected (not only once it disconnects), and the games kept are whole chunks."""

    def stop_after_the_first_chunk(done: int) -> None:
        raise KeyboardInterrupt

    with dask_backend.games_on(cluster.scheduler_address):
        result = run_games(
            _demo_games(), games=2000, seed=8, chunk_size=20, progress=stop_after_the_first_chunk
        )
        assert result.interrupted and result.tally.games == 20
        deadline = time.monotonic() + 20
        while _deckkit_tasks(client):
            assert time.monotonic() < deadline, _deckkit_tasks(client)
            time.sleep(0.1)


def _deckkit_tasks(client: distributed.Client) -> list[str]:
    def keys(dask_scheduler: Any) -> list[str]:
        return [str(k) for k in dask_scheduler.tasks if str(k).startswith("deckkit-")]

    found: list[str] = client.run_on_scheduler(keys)
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_an_unreachable_scheduler_is_exit_7_within_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Nothing listens there: the connection is refused at once, and tried again until the
    # connect time ends (half a second here; 10 s in use).
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 0.5)
    address = f"tcp://127.0.0.1:{_free_port()}"
    started = time.monotonic()
    result = _deckkit("simulate", str(DEMO), "--games", "10", "--scheduler", address)
    assert result.exit_code == 7, result.output
    assert time.monotonic() - started < 15
    assert f"cannot reach the Dask scheduler at {address}" in result.stderr
    assert "dask scheduler" in result.stderr  # the hint: how to start one
    assert "Traceback" not in result.stderr


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_a_scheduler_without_workers_is_exit_7(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=":0"
    ) as empty:
        result = _deckkit(
            "simulate", str(DEMO), "--games", "10", "--scheduler", empty.scheduler_address
        )
    assert result.exit_code == 7, result.output
    assert f"the Dask scheduler at {empty.scheduler_address} has no worker" in result.stderr


def test_a_malformed_address_is_bad_usage() -> None:
    result = _deckkit("simulate", str(DEMO), "--games", "10", "--scheduler", "not-an-address")
    assert result.exit_code == 2, result.output
    assert "not a Dask scheduler address: not-an-address" in result.stderr


def test_without_dask_the_scheduler_option_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    result = _deckkit("simulate", str(DEMO), "--games", "10", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 6, result.output
    assert "pip install 'deckkit[dask]'" in result.stderr
    # Without --scheduler (and with the variable blank) nothing needs Dask.
    plain = _deckkit("simulate", str(DEMO), "--games", "10", env={dask_backend.SCHEDULER_ENV: ""})
    assert plain.exit_code == 0, plain.output


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", str(DEMO)],
        ["compare", str(DEMO), str(MEDIUM)],
        ["impact", str(MEDIUM), "--card", "Goten"],
        ["sensitivity", str(DEMO)],
        ["report", str(DEMO), "--force"],
        ["balance", "check", str(REPO / "reports" / "balance.toml")],
        ["balance", "baseline", str(REPO / "reports" / "balance.toml"), "--force"],
    ],
)
def test_every_command_built_on_simulate_sends_its_games_to_the_scheduler(
    command: list[str], tmp_path: Path
) -> None:
    """Each reaches the runner with the scheduler (a malformed one: refused at the first run,
    before any game is played or any file written)."""
    if command[0] == "report":
        command = [*command, "--out", str(tmp_path / "r.html")]
    result = _deckkit(*command, "--scheduler", "not-an-address")
    assert result.exit_code == 2, result.output
    assert "not a Dask scheduler address" in result.stderr
    assert list(tmp_path.iterdir()) == []


# --- addresses that are no healthy scheduler, and a cluster lost mid-run (issue 31, problem 4) ---

# The CLI in a process of its own with a 2 s connect time; it reports the seconds from its
# first attempt to connect to the interpreter's exit (after every atexit and collector has run;
# the imports before, Dask's first, slow on a busy machine, do not count).
_TIMED_CLI = """
import atexit, sys, time
from deckkit.analysis import dask_backend
from deckkit.cli.launch import run
dask_backend.CONNECT_TIMEOUT = 2.0
started = []
import distributed
connect = dask_backend.DaskBackend.client
def client(self):
    started.append(time.monotonic())
    return connect(self)
dask_backend.DaskBackend.client = client
atexit.register(lambda: sys.stderr.write(f"SECONDS {time.monotonic() - started[0]:.2f}\\n"))
sys.argv = ["deckkit", *sys.argv[1:]]
run()
"""


def _listener(answer: bytes | None, *, http: bool = False) -> tuple[socket.socket, int]:
    """A local port that accepts and then says ``answer`` (``None``: nothing, ever)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                held.append(conn)
                if http:
                    conn.recv(4096)
                if answer is not None:
                    conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    port: int = server.getsockname()[1]
    return server, port


@pytest.mark.slow
def test_an_address_that_is_no_scheduler_is_exit_7_and_one_line_within_the_time() -> None:
    """A listener that never speaks, garbage, HTTP, tls:// without certificates, a host too
    long to resolve: each exit 7 within the connect time, one line and its hint, no traceback
    and no Dask client complaining as it is collected."""
    silent, silent_port = _listener(None)
    garbage, garbage_port = _listener(b"\x00garbage\xff" * 100)
    http, http_port = _listener(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", http=True)
    addresses = {
        "silent": f"tcp://127.0.0.1:{silent_port}",
        "garbage": f"tcp://127.0.0.1:{garbage_port}",
        "http": f"tcp://127.0.0.1:{http_port}",
        "tls": f"tls://127.0.0.1:{http_port}",
        "long host": f"tcp://{'h' * 300}:8786",
    }
    procs: dict[str, subprocess.Popen[str]] = {}
    try:
        procs = {
            what: subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _TIMED_CLI,
                    "simulate",
                    str(DEMO),
                    "-n",
                    "10",
                    "--scheduler",
                    address,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=REPO,
            )
            for what, address in addresses.items()
        }
        outcomes = {what: (*proc.communicate(timeout=120), proc.returncode)
                    for what, proc in procs.items()}  # fmt: skip
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for server in (silent, garbage, http):
            server.close()
    for what, (_out, err, code) in outcomes.items():
        assert code == 7, (what, err)
        lines = err.splitlines()
        seconds = float(lines[-1].removeprefix("SECONDS "))
        assert seconds < 2.0 + 3.0, (what, err)  # the connect time, and a margin
        assert lines[0].startswith("error: cannot reach the Dask scheduler at "), (what, err)
        assert lines[1].startswith("  hint: start one with `dask scheduler`"), (what, err)
        assert len(lines) == 3, (what, err)  # the error, its hint, the seconds: nothing else
    assert "no answer within 2 s" in outcomes["silent"][1]
    assert "not as a Dask scheduler" in outcomes["garbage"][1]
    assert "not as a Dask scheduler" in outcomes["http"][1]


def _worker(address: str) -> subprocess.Popen[bytes]:
    """A Dask worker process without a nanny (nothing restarts it when it is killed)."""
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
         "--nthreads", "1", "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()


@contextlib.contextmanager
def _at_most(seconds: int) -> Iterator[None]:
    """Fail, rather than wait for good, when the block takes longer than ``seconds``."""

    def waited_for_good(signum: int, frame: object) -> None:
        raise AssertionError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, waited_for_good)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.slow
@pytest.mark.parametrize("when", ["playing", "holding a finished chunk"])
def test_every_worker_lost_mid_run_is_exit_4_with_the_games_finished(when: str) -> None:
    """The only worker killed after the first chunk is in: no worker comes back within the
    connect time, and the run ends (rather than waiting for good) with WorkerDied and the games
    done. Killed while "holding a finished chunk", a chunk the client has seen finish but not yet
    fetched: the fetch cannot succeed until a worker plays the chunk again (it once waited for
    good there, issue 31 problem 4)."""
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        worker = _worker(cluster.scheduler_address)
        backend = dask_backend.DaskBackend(cluster.scheduler_address, timeout=60.0)
        try:

            def a_later_chunk_finished() -> bool:
                keys = [str(key) for key in list(cluster.scheduler.tasks)]
                later = [k for k in keys if k.startswith("deckkit-") and not k.endswith("-0")]
                return any(distributed.Future(k, client=backend.client()).done() for k in later)

            def kill_the_worker(done: int) -> None:
                if worker.poll() is not None:
                    return
                if when == "holding a finished chunk":
                    deadline = time.monotonic() + 60
                    while not a_later_chunk_finished() and time.monotonic() < deadline:
                        time.sleep(0.05)
                    assert a_later_chunk_finished()
                _kill(worker)

            backend.client()  # connected once the worker has joined
            backend.timeout = 2.0
            started = time.monotonic()
            with (
                _at_most(60),
                pytest.raises(WorkerDied, match="every Dask worker") as caught,
                chunks_played_by(backend),
            ):
                run_games(_demo_games(), games=400, seed=1, chunk_size=10, progress=kill_the_worker)
        finally:
            backend.close()
            _kill(worker)
    assert time.monotonic() - started < 30
    assert re.search(r"; [1-9][0-9,]* games? had finished", str(caught.value))
    assert caught.value.exit_code == 4


@pytest.mark.slow
@pytest.mark.parametrize(("lost", "code"), [("worker", 4), ("scheduler", 7)])
def test_the_command_ends_with_one_line_when_the_cluster_is_lost_mid_run(
    lost: str, code: int
) -> None:
    """`deckkit simulate --scheduler` with its only worker, or its scheduler, killed once the
    first chunk is in: exit 4 (no worker came back within the connect time) or 7, the error and
    its hint with the games finished, and nothing else: no traceback, no Dask log line."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--dashboard-address", ":0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
    )  # fmt: skip
    worker = _worker(address)
    command: subprocess.Popen[str] | None = None
    try:
        with distributed.Client(address, timeout=60, set_as_default=False) as watcher:
            watcher.wait_for_workers(1, timeout=NANNY_RESTART_SECONDS)
            # 300 chunks of 250: the compiled engine plays a demo chunk in about 20 ms, so a
            # short run could end between two looks at the scheduler, before anything is killed.
            command = subprocess.Popen(
                [sys.executable, "-m", "deckkit", "simulate", str(DEMO), "-n", "75000",
                 "--scheduler", address],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO)},
            )  # fmt: skip

            def third_chunk_asked() -> bool:
                """One slot: two chunks of 250 in flight, the third (games 500 on) asked once one
                is in. Any later chunk counts: a chunk is played and forgotten between two looks."""
                keys: list[str] = watcher.run_on_scheduler(
                    lambda dask_scheduler: [str(key) for key in dask_scheduler.tasks]
                )
                starts = [key.rsplit("-", 1)[-1] for key in keys]
                return any(start.isdigit() and int(start) >= 500 for start in starts)

            deadline = time.monotonic() + NANNY_RESTART_SECONDS
            while not third_chunk_asked():
                assert command.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        _kill(worker if lost == "worker" else scheduler)
        out, err = command.communicate(timeout=120)
    finally:
        if command is not None and command.poll() is None:
            command.kill()
            command.communicate()
        _kill(worker)
        _kill(scheduler)
    assert command.returncode == code, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert re.match(r"error: .*; [1-9][0-9,]* games had finished$", lines[0]), err
    assert lines[1].startswith("  hint: "), err


@pytest.mark.slow
def test_the_scheduler_lost_mid_run_is_exit_7_with_the_games_finished(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The scheduler killed after the first chunk: exit 7, the games done, and none of Dask's
    tracebacks for the lost connection."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--dashboard-address", ":0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
    )  # fmt: skip
    worker = _worker(address)
    try:

        def kill_the_scheduler(done: int) -> None:
            if scheduler.poll() is None:
                _kill(scheduler)

        with (
            pytest.raises(dask_backend.SchedulerUnreachable, match="during the run") as caught,
            dask_backend.games_on(address, timeout=10.0),
        ):
            run_games(_demo_games(), games=400, seed=1, chunk_size=10, progress=kill_the_scheduler)
    finally:
        _kill(worker)
        _kill(scheduler)
    assert re.search(r"; [1-9][0-9,]* games? had finished", str(caught.value))
    assert caught.value.exit_code == 7
    assert not [r for r in caplog.records if r.name.startswith("distributed")]
