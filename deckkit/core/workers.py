"""Play N seeded games of any game over W worker processes and fold them into one tally.

Every game's long commands run here: Ani-Mayhem's runner (:mod:`deckkit.analysis.runner`, which
adds its per-game rows and the Dask backend), Animus' battles and Anima Tactics' party games.
A game hands in two picklable things (:mod:`deckkit.core.game`):

- a *factory* that, called once in each worker (and once in-process when W is 1), returns a
  function playing game ``index`` of a run seeded ``seed`` to a record; so the expensive
  preparation happens once per process;
- a *kind* that starts an empty tally of its records (and, when rows are wanted, turns a record
  into a row).

Determinism: game ``i`` depends only on ``(seed, i)``, games are handed out in chunks of
consecutive indices, and chunk results are integer tallies merged exactly, so the totals are the
same for any W and any completion order. Rows, when asked for, are put back in game order.

Memory: the schedule of chunks is made as they are handed out (a run of 10^12 games starts at
once), at most ``2 * W`` chunks are in flight, and each comes back as a tally whose size depends
on the deck or team, never on the number of games; only kept rows grow with the run.

Workers: never more than the cores this process may use (:func:`capped_workers`). Each worker
ignores SIGINT, SIGTERM and SIGHUP so only the parent reacts (a stop request reaches it as
``KeyboardInterrupt``, see :mod:`deckkit.stopping`, raised between two steps of the pool's
bookkeeping, never inside one: :func:`deckkit.stopping.stops_deferred`); the parent then cancels
the chunks not yet started, kills the workers (abandoning the chunks they were playing) and
keeps the games that finished, flagged ``interrupted``. A worker whose parent is gone, even
killed outright, exits at once on Linux (the kernel's parent-death signal,
``prctl(PR_SET_PDEATHSIG)``) and within half a second elsewhere (a thread watching its parent),
so no worker outlives its run. A worker that dies is reported as :class:`WorkerDied` (exit 4).

A cluster: inside :func:`chunks_played_by` every run of any game hands the same chunks to a
:class:`ChunkBackend` instead of this machine's processes (the Dask backend of
:mod:`deckkit.analysis.dask_backend`, for ``--scheduler``), with the factory and the kind, both
picklable; game ``i`` is still drawn from ``(seed, i)`` alone, so the totals are the same.

Many short runs: inside :func:`shared_pool` every pooled run of the block plays on one pool of
worker processes, started once; the engine then travels with each chunk and a worker builds it
once per factory. Balance checks, which play a few hundred games per batch over many batches
and checks, run this way.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import ctypes.util
import gc
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from deckkit.errors import EXIT_WORKER_DIED, DeckkitError
from deckkit.stopping import DEFERRED_POLL_SECONDS, ignore_in_worker, stops_deferred

DEFAULT_CHUNK = 250
MAX_CHUNK = 250  # small enough for a smooth progress bar, large enough to amortise IPC
PARENT_POLL_SECONDS = 0.5
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
PR_SET_PDEATHSIG = 1  # linux/prctl.h

Row = tuple[Any, ...]


class WorkerDied(DeckkitError):
    """A worker process ended without finishing its games (killed, out of memory)."""

    exit_code = EXIT_WORKER_DIED


class PlayFn(Protocol):
    """Plays game ``index`` of a run seeded ``seed`` to a record; deterministic in both."""

    def __call__(self, seed: int, index: int) -> Any: ...


class GameFactory(Protocol):
    """Builds a :class:`PlayFn` (deck or team setup, players) once per process. Must be
    picklable, since it is sent to every worker."""

    def __call__(self) -> PlayFn: ...


class Tally(Protocol):
    """Integer sums over games: ``add`` counts one record, ``merged`` gives a new tally of two
    (neither changes), exactly and in any order."""

    @property
    def games(self) -> int: ...

    def add(self, record: Any, /) -> None: ...

    def merged(self, other: Any, /) -> Any: ...


class RecordKind(Protocol):
    """How a game's records are folded: an empty tally, and a record's row (for runs that keep
    one row per game). Must be picklable."""

    def tally(self) -> Tally: ...

    def row(self, record: Any, /) -> Row: ...


class RowSink(Protocol):
    """Takes the rows of each chunk as it finishes (in any order)."""

    def add(self, start: int, rows: list[Row]) -> None: ...


ProgressFn = Callable[[int], None]  # called with the number of games finished so far


@dataclass(slots=True)
class ChunkResult:
    """What a worker sends back for games ``start`` up to ``stop`` (exclusive)."""

    start: int
    stop: int
    tally: Any
    rows: list[Row] | None


FoldFn = Callable[[ChunkResult], None]  # takes a finished chunk into the run's totals


def capped_workers(requested: int) -> int:
    """The worker processes a run should start: all cores for 0, otherwise ``requested`` but
    never more than the cores this process may use (more only adds start-up cost and memory;
    results never depend on it)."""
    cores = default_workers()
    return cores if requested == 0 else max(1, min(requested, cores))


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def chunk_size_for(games: int, workers: int) -> int:
    """Chunks small enough that every worker gets several (load balance, progress), capped so
    progress stays smooth. Chunking never changes results, only scheduling."""
    if workers <= 1:
        return max(1, min(MAX_CHUNK, games))
    return max(1, min(MAX_CHUNK, math.ceil(games / (workers * 4))))


def chunks(games: int, size: int, first: int = 0) -> Iterator[tuple[int, int]]:
    """Consecutive ``[start, stop)`` ranges covering ``range(first, first + games)``, made one
    at a time as they are asked for."""
    for start in range(first, first + games, size):
        yield start, min(start + size, first + games)


def _check(record: Any, index: int) -> Any:
    found = getattr(record, "index", index)
    if found != index:  # an engine returning the wrong game would corrupt row order
        raise RuntimeError(f"engine returned game {found} when asked for game {index}")
    return record


# The young generation's threshold of the cyclic garbage collector while a chunk is played
# (CPython's default is 700 objects).
YOUNG_THRESHOLD = 10_000


class _FewerCollections:
    """The cyclic garbage collector's young generation made larger while a chunk's games are
    played, and put back after.

    A game of the rule engine frees its objects by reference counting (it leaves no cycle:
    play.release), yet the records a chunk keeps, and the objects a game holds when a collection
    promotes them, set off a young collection every twenty games or so of an in-process run,
    each walking every young object alive: 3% of its CPU time on the demo deck (measured with
    gc's callbacks). With 10,000 young objects a chunk of 250 demo games sees one collection or
    none. The collector still runs, so an engine that does leave cycles (the search player's
    rollouts) keeps its garbage within 10,000 objects, not a chunk's worth. Nested and
    concurrent chunks (threads of a Dask worker) are counted; the thresholds in force before are
    restored."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._before = gc.get_threshold()

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._depth == 0:
                self._before = gc.get_threshold()
                young, *older = self._before
                if 0 < young < YOUNG_THRESHOLD:  # 0: automatic collection is off
                    gc.set_threshold(YOUNG_THRESHOLD, *older)
            self._depth += 1
        try:
            yield
        finally:
            with self._lock:
                self._depth -= 1
                if self._depth == 0:
                    gc.set_threshold(*self._before)


fewer_collections = _FewerCollections()


def play_chunk(
    play: PlayFn, kind: RecordKind, seed: int, start: int, stop: int, keep_rows: bool
) -> ChunkResult:
    """Play games ``start..stop-1`` and tally them."""
    tally = kind.tally()
    rows: list[Row] | None = [] if keep_rows else None
    with fewer_collections():
        for index in range(start, stop):
            record = _check(play(seed, index), index)
            tally.add(record)
            if rows is not None:
                rows.append(kind.row(record))
    return ChunkResult(start, stop, tally, rows)


def chunk_of(start: int, records: list[Any], kind: RecordKind, keep_rows: bool) -> ChunkResult:
    """The chunk result of games already played (``records`` are games ``start, start+1...``)."""
    tally = kind.tally()
    for record in records:
        tally.add(record)
    return ChunkResult(
        start, start + len(records), tally, [kind.row(r) for r in records] if keep_rows else None
    )


# --- worker-process side -------------------------------------------------------------------


def follow_parent(parent: int, kernel: bool) -> None:
    """End this worker as soon as its parent ``parent`` is gone: nobody is left to collect the
    games. With ``kernel`` (Linux, and the pool started from the parent's main thread, which
    lives as long as the parent), the kernel kills the worker the moment the parent dies;
    a thread that looks every half second covers every other case."""
    if kernel and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """Once the parent is gone (this process was handed to another), stop at once."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


_worker_play: PlayFn | None = None
_worker_kind: RecordKind | None = None


def _init_worker(factory: GameFactory, kind: RecordKind, parent: int, kernel: bool) -> None:
    """Pool initializer: leave stop requests to the parent, end with the parent, and build the
    engine once per worker."""
    global _worker_play, _worker_kind
    ignore_in_worker()
    follow_parent(parent, kernel)
    _worker_play = factory()
    _worker_kind = kind


def _worker_chunk(seed: int, start: int, stop: int, keep_rows: bool) -> ChunkResult:
    if _worker_play is None or _worker_kind is None:  # pragma: no cover - initializer first
        raise RuntimeError("worker used before its initializer ran")
    return play_chunk(_worker_play, _worker_kind, seed, start, stop, keep_rows)


# A shared pool worker's engines, the latest last: the runs of a block often take turns
# (a deck and its variants, the old and new cards of a drift check).
_shared_engines: list[tuple[GameFactory, PlayFn]] = []
SHARED_ENGINES_KEPT = 4


def _init_shared_worker(parent: int, kernel: bool) -> None:
    """Initializer of a :func:`shared_pool` worker: as :func:`_init_worker`, but the engine
    comes with each chunk (the pool outlives any one run)."""
    ignore_in_worker()
    follow_parent(parent, kernel)


def _shared_worker_chunk(
    factory: GameFactory, kind: RecordKind, seed: int, start: int, stop: int, keep_rows: bool
) -> ChunkResult:
    """Play a chunk on the engine ``factory`` builds, built once while an equal factory is among
    the last few this worker used."""
    found = next((kept for kept in _shared_engines if kept[0] == factory), None)
    if found is None:
        found = (factory, factory())
        del _shared_engines[: max(0, len(_shared_engines) - SHARED_ENGINES_KEPT + 1)]
    else:
        _shared_engines.remove(found)
    _shared_engines.append(found)
    return play_chunk(found[1], kind, seed, start, stop, keep_rows)


def _pool(
    workers: int, mp_context: str, initializer: Callable[..., None], *initargs: Any
) -> ProcessPoolExecutor:
    """A pool of worker processes that follow this process (see :func:`follow_parent`)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(mp_context),
        initializer=initializer,
        initargs=(*initargs, os.getpid(), _on_main_thread()),
    )


class _SharedPool:
    """The pool of :func:`shared_pool`: started by the first pooled run that needs it, stopped
    at the end of the block, or at once when a run is interrupted or a worker dies."""

    def __init__(self, workers: int, mp_context: str) -> None:
        self.workers = workers
        self.mp_context = mp_context
        self.executor: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        if self.executor is None:
            self.executor = _pool(self.workers, self.mp_context, _init_shared_worker)
        return self.executor

    def terminate(self) -> None:
        if self.executor is not None:
            executor, self.executor = self.executor, None
            terminate(executor)

    def close(self) -> None:
        if self.executor is not None:
            executor, self.executor = self.executor, None
            executor.shutdown(wait=True)


_shared: contextvars.ContextVar[_SharedPool | None] = contextvars.ContextVar(
    "deckkit_shared_pool", default=None
)


@contextlib.contextmanager
def shared_pool(workers: int, mp_context: str = "spawn") -> Iterator[None]:
    """Every run started in the block with more than one worker plays on one pool of at most
    ``workers`` processes, started once for them all (results are the same as without it)."""
    pool = _SharedPool(workers, mp_context)
    token = _shared.set(pool)
    try:
        yield
    except BaseException:
        pool.terminate()
        raise
    finally:
        _shared.reset(token)
        pool.close()


# --- another machine's workers -------------------------------------------------------------


class ChunkBackend(Protocol):
    """Plays a run's chunks somewhere other than this machine's processes (a cluster)."""

    def slots(self) -> int:
        """How many chunks it plays at once (sizes the chunks; never changes results)."""
        ...

    def play(
        self,
        factory: GameFactory,
        seed: int,
        ranges: Iterator[tuple[int, int]],
        keep_rows: bool,
        fold: FoldFn,
        kind: RecordKind,
    ) -> bool:
        """Play every ``[start, stop)`` range with :func:`play_chunk` on an engine built by
        ``factory``, its records folded by ``kind``, handing each result to ``fold`` as it
        finishes; True when interrupted (``KeyboardInterrupt``), after dropping the chunks not
        finished."""
        ...


_backend: contextvars.ContextVar[ChunkBackend | None] = contextvars.ContextVar(
    "deckkit_chunk_backend", default=None
)


@contextlib.contextmanager
def chunks_played_by(backend: ChunkBackend | None) -> Iterator[None]:
    """Every run of any game started in the block plays its chunks on ``backend`` (``None``:
    here)."""
    token = _backend.set(backend)
    try:
        yield
    finally:
        _backend.reset(token)


def chunk_backend() -> ChunkBackend | None:
    """The backend runs started now hand their chunks to (None: this machine's processes)."""
    return _backend.get()


# --- parent side -----------------------------------------------------------------------------


class Collector:
    """The parent's running totals. ``tally`` is replaced, never mutated, so a Ctrl-C arriving
    between two statements leaves either the old or the new total, not a half-merged one."""

    def __init__(
        self,
        kind: RecordKind,
        keep_rows: bool,
        progress: ProgressFn | None,
        sink: RowSink | None = None,
    ) -> None:
        self.tally: Any = kind.tally()
        self.folded: set[int] = set()  # the first game of every chunk in ``tally``
        self.sink = sink
        self.row_chunks: dict[int, list[Row]] | None = {} if keep_rows else None
        self.progress = progress

    @property
    def wants_rows(self) -> bool:
        return self.row_chunks is not None or self.sink is not None

    def fold(self, result: ChunkResult) -> None:
        if result.start in self.folded:  # the same chunk again (played twice): counted once
            return
        # Rows and tally together: a stop request waits the moment this takes (it is delivered
        # when the mask is lifted), so the rows kept are those of exactly the games tallied.
        with stops_held():
            if result.rows is not None:
                if self.sink is not None:
                    self.sink.add(result.start, result.rows)
                elif self.row_chunks is not None:
                    self.row_chunks[result.start] = result.rows
            self.tally = self.tally.merged(result.tally)
            self.folded.add(result.start)
        if self.progress is not None:
            self.progress(self.tally.games)

    def ordered_rows(self) -> list[Row] | None:
        """The rows of exactly the games in ``tally``, in game order (kept rows only)."""
        if self.row_chunks is None:
            return None
        ordered: list[Row] = []
        for start in sorted(self.row_chunks):
            ordered.extend(self.row_chunks[start])
        return ordered


def run_inline(
    factory: GameFactory,
    kind: RecordKind,
    seed: int,
    ranges: Iterator[tuple[int, int]],
    collector: Collector,
) -> bool:
    """W=1: no pool. Returns True when interrupted; keeps every game that finished."""
    play = factory()
    keep_rows = collector.wants_rows
    for start, stop in ranges:
        done: list[Any] = []
        try:
            with fewer_collections():
                for index in range(start, stop):
                    done.append(_check(play(seed, index), index))
            collector.fold(chunk_of(start, done, kind, keep_rows))
        except KeyboardInterrupt:
            # Fold the games of this chunk that finished, unless the fold above completed.
            if start not in collector.folded:
                collector.progress = None
                collector.fold(chunk_of(start, done, kind, keep_rows))
            return True
    return False


def terminate(executor: ProcessPoolExecutor) -> None:
    """Stop now: drop queued chunks and kill workers mid-chunk (their games are abandoned;
    SIGKILL, since workers ignore the polite signals).

    ``ProcessPoolExecutor`` has no public terminate before Python 3.14, hence the private
    ``_processes`` and ``_executor_manager_thread``. The pool's manager thread reaps the killed
    workers too; it is joined so that no worker, zombie or thread outlives the run (and so that
    its ``waitpid`` has finished before anyone asks whether the workers are gone).

    A worker killed while sending a result leaves the message cut short, and the manager thread,
    reading it, would wait for the rest forever (the parent holds the pipe's write end too), and
    the interpreter's exit, which joins that thread, with it. Closing the parent's write end once
    the workers are dead turns that wait into an end of file."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    results = getattr(executor, "_result_queue", None)  # shutdown() forgets it
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(timeout=5)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()
    if manager is not None:
        manager.join(timeout=10)
    for process in processes:
        process.join(timeout=5)


def run_pool(
    factory: GameFactory,
    kind: RecordKind,
    seed: int,
    ranges: Iterator[tuple[int, int]],
    workers: int,
    collector: Collector,
    mp_context: str = "spawn",
) -> bool:
    """W>1: hand out chunks, at most ``2 * workers`` in flight. Returns True when interrupted."""
    keep_rows = collector.wants_rows
    shared = _shared.get()
    if shared is not None:
        executor = shared.get()
        workers = min(workers, shared.workers)
    else:
        executor = _pool(workers, mp_context, _init_worker, factory, kind)

    def stop_pool() -> None:
        if shared is not None:
            shared.terminate()
        else:
            terminate(executor)

    in_flight: set[Future[ChunkResult]] = set()
    # A stop is noted while the pool's bookkeeping runs and raised between two of its steps,
    # never inside one (deckkit.stopping.stops_deferred says what a stop raised inside does).
    with stops_deferred() as stops:
        try:

            def top_up() -> None:
                while len(in_flight) < 2 * workers:
                    nxt = next(ranges, None)
                    if nxt is None:
                        return
                    start, stop = nxt
                    if shared is not None:
                        future = executor.submit(
                            _shared_worker_chunk, factory, kind, seed, start, stop, keep_rows
                        )
                    else:
                        future = executor.submit(_worker_chunk, seed, start, stop, keep_rows)
                    in_flight.add(future)

            # Workers are spawned by the first submissions. A blocked signal stays blocked
            # across fork and exec, so spawning them with the stop signals blocked makes them
            # immune from birth, before their initializer runs (a Ctrl-C then would print a
            # traceback). (On any thread: the mask is the spawning thread's, and the workers
            # inherit it.)
            previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
            try:
                top_up()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            while in_flight:
                done, _ = wait(
                    in_flight, timeout=DEFERRED_POLL_SECONDS, return_when=FIRST_COMPLETED
                )
                for future in done:  # any order: merging tallies commutes
                    in_flight.discard(future)
                    collector.fold(future.result())
                stops.raise_pending()  # the chunks that finished are kept
                top_up()
        except KeyboardInterrupt:
            stop_pool()
            stops.forget()  # a second stop while the first is being handled is the same stop
            return True
        except BrokenProcessPool:
            stop_pool()
            raise WorkerDied(
                "a worker process died before finishing its games (killed, or out of memory)",
                hint="run again, with fewer --workers if memory is short",
            ) from None
        except BaseException:
            stop_pool()
            raise
        if shared is None:
            executor.shutdown(wait=True)
    return False


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """Hold back the stop signals for the duration of the block (main thread only)."""
    if not _on_main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@dataclass(frozen=True, slots=True)
class Played:
    """A finished (or interrupted) run of any game: the tally of the completed games, their rows
    in game order when kept, and how it went."""

    tally: Any
    rows: list[Row] | None
    games_requested: int
    seed: int
    workers: int
    interrupted: bool
    seconds: float


def play_games(
    factory: GameFactory,
    kind: RecordKind,
    *,
    games: int,
    seed: int,
    workers: int = 1,
    keep_rows: bool = False,
    row_sink: RowSink | None = None,
    progress: ProgressFn | None = None,
    chunk_size: int | None = None,
    mp_context: str = "spawn",
    first: int = 0,
) -> Played:
    """Play games ``first..first+games-1`` of the run seeded ``seed`` and tally them.

    ``workers=1`` plays in this process; more start a pool of that many processes ("spawn" by
    default: safe with the threads polars and numpy start, and the same on every platform).
    The tally, and the rows when ``keep_rows``, do not depend on ``workers`` or ``chunk_size``.
    With a ``row_sink`` the rows go to it as chunks finish instead of into the result.
    Inside :func:`chunks_played_by` the chunks go to that backend and ``workers`` is ignored
    (the result's ``workers`` is then the backend's slots)."""
    if games < 0:
        raise ValueError("games must be >= 0")
    if workers < 1:
        raise ValueError("workers must be >= 1")
    if first < 0:
        raise ValueError("first must be >= 0")
    backend = _backend.get() if games > 0 else None
    if backend is not None:
        workers = max(1, backend.slots())
    size = chunk_size if chunk_size is not None else chunk_size_for(games, workers)
    if size < 1:
        raise ValueError("chunk_size must be >= 1")
    collector = Collector(kind, keep_rows and row_sink is None, progress, row_sink)
    started = time.perf_counter()
    ranges = chunks(games, size, first)
    if backend is not None:
        interrupted = backend.play(
            factory, seed, ranges, collector.wants_rows, collector.fold, kind
        )
    elif games == 0:
        interrupted = False
    elif workers == 1 or games <= size:
        interrupted = run_inline(factory, kind, seed, ranges, collector)
    else:
        pool_size = min(workers, math.ceil(games / size))
        interrupted = run_pool(factory, kind, seed, ranges, pool_size, collector, mp_context)
    return Played(
        tally=collector.tally,
        rows=collector.ordered_rows(),
        games_requested=games,
        seed=seed,
        workers=workers,
        interrupted=interrupted,
        seconds=time.perf_counter() - started,
    )
