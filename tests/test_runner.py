"""The runner: identical results for any number of workers, flat chunks, clean Ctrl-C."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import polars as pl
import pytest
from fakes import FakeEngine, fake_play

from deckkit.analysis.results import tally_of_frame
from deckkit.analysis.runner import (
    COUNTER_PREFIX,
    chunk_size_for,
    chunks,
    run_games,
    shared_pool,
)
from deckkit.analysis.summary import Tally, summarize

ENGINE = FakeEngine()
TESTS_DIR = Path(__file__).parent
REPO = TESTS_DIR.parent


def test_one_and_two_workers_give_identical_results() -> None:
    one = run_games(ENGINE, games=600, seed=42, workers=1, keep_rows=True)
    two = run_games(ENGINE, games=600, seed=42, workers=2, keep_rows=True, chunk_size=37)
    assert not one.interrupted and not two.interrupted
    assert one.tally == two.tally
    assert summarize(one.tally).as_dict() == summarize(two.tally).as_dict()
    assert one.rows is not None and two.rows is not None
    assert one.rows.equals(two.rows)
    assert one.rows["index"].to_list() == list(range(600))


def test_results_are_those_of_games_played_one_by_one() -> None:
    """The runner adds nothing and loses nothing: its tally is the tally of games 0..n-1."""
    result = run_games(ENGINE, games=300, seed=9, workers=1, chunk_size=64)
    assert result.tally == Tally.of(fake_play(ENGINE, 9, i) for i in range(300))


def test_seed_matters() -> None:
    a = run_games(ENGINE, games=200, seed=1).tally
    b = run_games(ENGINE, games=200, seed=2).tally
    assert a != b


def test_rows_only_when_asked() -> None:
    assert run_games(ENGINE, games=10, seed=0).rows is None
    rows = run_games(ENGINE, games=10, seed=0, keep_rows=True).rows
    assert rows is not None and rows.columns[:7] == [
        "index",
        "outcome",
        "turns",
        "items_in_play",
        "items_retrieved",
        "items_lost",
        "end_reason",
    ]
    counters = rows.columns[7:]
    assert counters and counters == sorted(counters)
    assert all(name.startswith(COUNTER_PREFIX) for name in counters)


def test_counter_columns_rebuild_the_tally() -> None:
    """Each game's card counters are in its row, so the rows alone give the run's tally."""
    result = run_games(ENGINE, games=300, seed=5, workers=2, keep_rows=True, chunk_size=40)
    assert result.rows is not None
    assert tally_of_frame(result.rows) == result.tally


def test_a_run_extends_in_batches() -> None:
    """Games first..first+n-1 are the same games whatever batch plays them."""
    whole = run_games(ENGINE, games=120, seed=8, keep_rows=True)
    head = run_games(ENGINE, games=50, seed=8, keep_rows=True)
    tail = run_games(ENGINE, games=70, seed=8, keep_rows=True, first=50, workers=2, chunk_size=9)
    assert head.rows is not None and tail.rows is not None and whole.rows is not None
    assert tail.rows["index"].to_list() == list(range(50, 120))
    assert (
        pl.concat([head.rows, tail.rows], how="diagonal_relaxed")
        .fill_null(0)
        .select(whole.rows.columns)
        .equals(whole.rows)
    )
    assert head.tally.merged(tail.tally) == whole.tally


def test_progress_reports_games_done() -> None:
    seen: list[int] = []
    run_games(ENGINE, games=55, seed=0, chunk_size=10, progress=seen.append)
    assert seen == [10, 20, 30, 40, 50, 55]


def test_chunking_covers_every_game_once() -> None:
    assert list(chunks(7, 3)) == [(0, 3), (3, 6), (6, 7)]
    assert 1 <= chunk_size_for(10, 8) <= 250
    assert chunk_size_for(10_000_000, 4) == 250


def test_zero_games_and_bad_arguments() -> None:
    empty = run_games(ENGINE, games=0, seed=0)
    assert empty.tally.games == 0 and not empty.interrupted
    with pytest.raises(ValueError):
        run_games(ENGINE, games=10, seed=0, workers=0)
    with pytest.raises(ValueError):
        run_games(ENGINE, games=-1, seed=0)


def test_each_worker_prepares_once(tmp_path: Path) -> None:
    log = tmp_path / "prepared.txt"
    engine = FakeEngine(prepare_log=str(log))
    result = run_games(engine, games=400, seed=3, workers=2, chunk_size=10)
    assert result.tally.games == 400
    pids = log.read_text().split()
    assert 1 <= len(pids) <= 2  # 40 chunks, but at most one setup per worker process
    assert len(set(pids)) == len(pids)
    assert str(os.getpid()) not in pids  # the pool, not the parent, played


def test_single_worker_prepares_once_in_process(tmp_path: Path) -> None:
    log = tmp_path / "prepared.txt"
    run_games(FakeEngine(prepare_log=str(log)), games=100, seed=3, chunk_size=10)
    assert log.read_text().split() == [str(os.getpid())]


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_a_shared_pool_serves_many_runs_with_the_same_results(tmp_path: Path) -> None:
    """Inside shared_pool the runs' workers are started once: the engine is prepared at most
    once per worker process for all the runs (while it stays the same), and every run's rows
    and tally are those it gets on a pool of its own."""
    log = tmp_path / "prepared.txt"
    engine = FakeEngine(prepare_log=str(log))
    other = FakeEngine(win_weight=7)
    alone = [
        run_games(e, games=300, seed=s, workers=2, keep_rows=True, chunk_size=20)
        for e, s in ((ENGINE, 1), (ENGINE, 2), (other, 3))
    ]
    log.write_text("")
    with shared_pool(2):
        for seed in (4, 5, 6):
            assert run_games(engine, games=200, seed=seed, workers=2, chunk_size=20).tally
        shared = [
            run_games(e, games=300, seed=s, workers=2, keep_rows=True, chunk_size=20)
            for e, s in ((ENGINE, 1), (ENGINE, 2), (other, 3))
        ]
        again = run_games(engine, games=200, seed=4, workers=2, chunk_size=20)  # still kept
        assert again.tally == run_games(ENGINE, games=200, seed=4).tally  # (in this process)
        pool_children = {p.pid for p in multiprocessing.active_children()}
    pids = log.read_text().split()
    assert 1 <= len(pids) <= 2  # 30 chunks over three runs, one setup per worker process
    assert {int(p) for p in pids} <= pool_children
    for a, b in zip(alone, shared, strict=True):
        assert a.tally == b.tally
        assert a.rows is not None and b.rows is not None and a.rows.equals(b.rows)
    assert alone[0].tally != alone[2].tally  # the other engine was played, not the cached one
    assert multiprocessing.active_children() == []  # the block's end stops the pool


def test_a_shared_pool_stops_when_a_run_fails() -> None:
    with pytest.raises(ValueError, match="fake engine failure at game 123"), shared_pool(2):
        run_games(ENGINE, games=200, seed=0, workers=2, chunk_size=20)
        run_games(FakeEngine(fail_at=123), games=400, seed=0, workers=2, chunk_size=20)
    assert multiprocessing.active_children() == []


def test_engine_errors_propagate_from_workers() -> None:
    with pytest.raises(ValueError, match="fake engine failure at game 123"):
        run_games(FakeEngine(fail_at=123), games=400, seed=0, workers=2, chunk_size=20)
    assert multiprocessing.active_children() == []


def test_interrupt_in_process_keeps_finished_games() -> None:
    result = run_games(
        FakeEngine(interrupt_at=137), games=1000, seed=5, keep_rows=True, chunk_size=50
    )
    assert result.interrupted
    assert result.tally == Tally.of(fake_play(ENGINE, 5, i) for i in range(137))
    assert result.rows is not None and result.rows["index"].to_list() == list(range(137))


def test_interrupt_in_pool_stops_workers_and_keeps_completed_chunks() -> None:
    calls: list[int] = []

    def progress(done: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt  # what Ctrl-C does in the parent

    started = time.perf_counter()
    result = run_games(
        FakeEngine(delay=0.002),
        games=20_000,
        seed=8,
        workers=2,
        chunk_size=25,
        keep_rows=True,
        progress=progress,
    )
    assert time.perf_counter() - started < 20
    assert result.interrupted
    assert result.tally.games == calls[-1] == 50  # exactly the two chunks that were folded
    assert result.rows is not None and len(result.rows) == 50
    indices = result.rows["index"].to_list()
    expected = Tally.of(fake_play(ENGINE, 8, i) for i in indices)
    assert result.tally == expected
    assert multiprocessing.active_children() == []


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_real_sigint_to_the_process_group_stops_cleanly(tmp_path: Path) -> None:
    """A terminal Ctrl-C signals the parent and every worker; only the parent should react."""
    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, signal, sys
            # A terminal's Ctrl-C, whatever disposition this process inherited (a job started
            # in the background by a shell, as in some CI runners, inherits SIGINT ignored).
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.path.insert(0, {str(TESTS_DIR)!r})
            from fakes import FakeEngine
            from deckkit.analysis.runner import run_games

            if __name__ == "__main__":
                r = run_games(FakeEngine(delay=0.01), games=100_000, seed=1, workers=2,
                              chunk_size=10, progress=lambda n: print(n, flush=True))
                print(json.dumps({{"interrupted": r.interrupted, "games": r.tally.games}}))
            """
        )
    )
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=REPO,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # games are being played by the workers
    assert first.strip().isdigit(), proc.stderr.read() if proc.stderr else ""
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    final = json.loads(out.strip().splitlines()[-1])
    assert final["interrupted"] is True
    assert 0 < final["games"] < 100_000
    assert final["games"] % 10 == 0  # whole chunks only
    assert "Traceback" not in err


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_stopping_does_not_hang_on_a_result_cut_short(tmp_path: Path) -> None:
    """A worker killed while sending its result leaves half a message in the result pipe; the
    pool's manager thread, reading it, must not wait forever for the rest (nor the interpreter's
    exit, which joins that thread). Seen once as a run that printed its result and never ended."""
    script = tmp_path / "cut.py"
    script.write_text(
        textwrap.dedent(
            """
            import multiprocessing, os, struct, time
            from concurrent.futures import ProcessPoolExecutor
            from deckkit.analysis.runner import _terminate

            if __name__ == "__main__":
                pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
                futures = [pool.submit(time.sleep, 30) for _ in range(4)]
                time.sleep(1.0)  # the workers are up and busy
                # What a worker killed mid-send leaves: a header announcing 100 bytes, then 2.
                os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 100) + b"ab")
                time.sleep(0.3)  # the manager thread reads the header and waits for the rest
                manager = pool._executor_manager_thread
                _terminate(pool)
                print("manager alive:", manager.is_alive(), flush=True)
            """
        )
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "manager alive: False"


def test_a_chunk_plays_with_fewer_young_collections_and_puts_the_thresholds_back() -> None:
    """The young generation is raised while a chunk plays (nested chunks counted), the
    thresholds in force before come back after, and automatic collection turned off (0) by a
    caller stays off."""
    import gc

    from deckkit.analysis.runner import YOUNG_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with fewer_collections():
            assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
            with fewer_collections():
                assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
            assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        seen: list[tuple[int, ...]] = []
        run_games(
            lambda: (
                lambda seed, index: (
                    seen.append(gc.get_threshold()),
                    fake_play(ENGINE, seed, index),
                )[1]
            ),
            games=3,
            seed=1,
        )
        assert seen == [(YOUNG_THRESHOLD, 10, 10)] * 3
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(0, 10, 10)
        with fewer_collections():
            assert gc.get_threshold() == (0, 10, 10)
        assert gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*before)
