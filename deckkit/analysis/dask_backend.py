"""Playing a run's games on a Dask distributed cluster (``--scheduler tcp://HOST:PORT``).

The runner cuts a run into the same chunks of consecutive games as for its local processes and
hands them here (:func:`deckkit.analysis.runner.chunks_played_by`); each chunk is one Dask task
playing :func:`deckkit.analysis.runner.play_chunk` on a worker, game ``i`` drawn from
``(seed, i)`` alone, so the totals and rows are identical to a local run with any ``--workers``.

A worker builds the engine once per run (per thread) and keeps the last few, like a local
worker process; the factory travels pickled with each task (a deck is a few kilobytes), so a
worker that joins mid-run, or replaces a lost one, needs nothing else. A worker must run the
same deckkit version as the client (its results could differ otherwise): a task checks and
refuses.

Before a client is made, the address must answer a Dask identity request as a scheduler within
the connect time (:data:`CONNECT_TIMEOUT`): a listener that never speaks, a port answering
garbage or HTTP, a TLS address without certificates or a host that does not resolve end there,
exit 7 with one line (a Dask client made on such an address waits its own 20 s timeouts and
prints tracebacks as it is collected). Dask's own log lines are held back while deckkit's
client is in use: the errors deckkit reports say the same in one line.

A lost worker's tasks are run again elsewhere by the scheduler (up to its
``distributed.scheduler.allowed-failures``, then :class:`~deckkit.analysis.runner.WorkerDied`);
results are keyed by the chunk's first game, so a chunk is counted once whatever happens.
When every worker is lost and none comes back within the connect time, the run ends with
:class:`~deckkit.analysis.runner.WorkerDied` (exit 4); when the scheduler is lost, with
:class:`SchedulerUnreachable` (exit 7); both say how many games had finished.
Ctrl-C (or SIGTERM/SIGHUP) cancels the chunks not finished and keeps the ones that did, as a
local run does; a chunk already running on a worker plays to its end there and is discarded.

Dask is optional (``pip install 'deckkit[dask]'``): it is imported only when a scheduler is
given, and its absence is :class:`DaskMissing` (exit 6).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from concurrent.futures import CancelledError
from typing import Any

from deckkit import __version__, stopping
from deckkit.analysis.runner import (
    RECORDS,
    ChunkResult,
    FoldFn,
    GameFactory,
    PlayFn,
    WorkerDied,
    chunks_played_by,
    play_chunk,
)
from deckkit.core.workers import RecordKind
from deckkit.errors import EXIT_NO_DASK, EXIT_NO_SCHEDULER, DeckkitError, UsageError

# Dask's Client and Future, typed loosely: Dask is optional, and its types are not checked.
Client = Any
Future = Any

SCHEDULER_ENV = "DECKKIT_SCHEDULER"
CONNECT_TIMEOUT = 10.0  # seconds to reach the scheduler, and for it to have a worker
WATCH_SECONDS = 1.0  # how often a run looks at the cluster's workers while it waits
ENGINES_KEPT = 4  # engines a worker thread keeps (a balance check plays several decks in turn)
INSTALL_HINT = "pip install 'deckkit[dask]'"


class DaskMissing(DeckkitError):
    """``--scheduler`` was given but Dask's distributed scheduler is not installed."""

    exit_code = EXIT_NO_DASK


class SchedulerUnreachable(DeckkitError):
    """The scheduler cannot be reached, has no worker, or was lost during the run."""

    exit_code = EXIT_NO_SCHEDULER


class WrongVersion(DeckkitError):
    """A worker runs another deckkit version than the client: its games could differ."""

    exit_code = EXIT_NO_SCHEDULER


# --- worker side ------------------------------------------------------------------------------

_engines = threading.local()


def _engine(key: str, payload: bytes) -> PlayFn:
    """The engine of run ``key`` in this worker thread, built on first use."""
    kept: OrderedDict[str, PlayFn] | None = getattr(_engines, "kept", None)
    if kept is None:
        kept = _engines.kept = OrderedDict()
    play = kept.get(key)
    if play is None:
        factory: GameFactory = pickle.loads(payload)
        play = kept[key] = factory()
        while len(kept) > ENGINES_KEPT:
            kept.popitem(last=False)
    else:
        kept.move_to_end(key)
    return play


def remote_chunk(
    version: str,
    key: str,
    payload: bytes,
    seed: int,
    start: int,
    stop: int,
    keep_rows: bool,
    kind: RecordKind = RECORDS,
) -> ChunkResult:
    """One Dask task: games ``start..stop-1`` of run ``key``, on this worker, folded by
    ``kind`` (the game's records: Ani-Mayhem's, a party's or a team's)."""
    if version != __version__:
        raise WrongVersion(
            f"a Dask worker (pid {os.getpid()}) runs deckkit {__version__}, this client "
            f"{version}: its games could differ",
            hint="install the same deckkit on every worker machine",
        )
    return play_chunk(_engine(key, payload), seed, start, stop, keep_rows, kind)


# --- client side ------------------------------------------------------------------------------


def _probe(distributed: Any, address: str, timeout: float) -> None:
    """Raise :class:`SchedulerUnreachable` unless ``address`` answers a Dask identity request
    as a scheduler within ``timeout`` seconds. Asked on a loop of its own, in a thread of its
    own, so that nothing the other end does (or does not do) can hold the command longer."""

    async def identity() -> Any:
        args = distributed.Security().get_connection_args("client")
        comm = await distributed.comm.connect(address, timeout=timeout, **args)
        try:
            await comm.write({"op": "identity", "reply": True, "n_workers": 0})
            return await comm.read()
        finally:
            comm.abort()

    outcome: list[Any] = []

    def ask() -> None:
        loop = asyncio.new_event_loop()
        try:
            outcome.append(loop.run_until_complete(asyncio.wait_for(identity(), timeout)))
        except BaseException as err:
            outcome.append(err)
        finally:
            with contextlib.suppress(Exception):
                loop.close()

    asker = threading.Thread(target=ask, name="deckkit-dask-probe", daemon=True)
    asker.start()
    asker.join(timeout + 1.0)
    answer = outcome[0] if outcome else TimeoutError(f"no answer within {timeout:g} s")
    if isinstance(answer, dict) and answer.get("type") == "Scheduler":
        return
    if isinstance(answer, (TimeoutError, asyncio.TimeoutError)):
        why = f"no answer within {timeout:g} s"
    elif isinstance(answer, (OSError, TypeError, ValueError)) and str(answer):
        why = str(answer)  # refused, unresolvable, TLS without certificates
    else:  # garbage, HTTP, another protocol
        why = "it answered, but not as a Dask scheduler"
    raise SchedulerUnreachable(
        f"cannot reach the Dask scheduler at {address}: {why}",
        hint="start one with `dask scheduler` (and `dask worker ADDRESS` on each "
        "machine), or check the address; tcp://HOST:PORT, port 8786 by default",
    )


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's log lines held back (its tracebacks for a lost connection repeat, at length,
    what deckkit reports in one line); the level restored after."""
    names = ["distributed"] + [  # Dask's config gives some of them levels of their own
        name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
    ]
    before = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)


def _drop_orphaned_gathers(distributed: Any, loop: asyncio.AbstractEventLoop) -> None:
    """The client's loop no longer reports a gather's inner wait that ended with Dask's private
    "stop waiting" exception (``AllExit``) after nobody awaited it: a result fetch cut short by
    its timeout (its worker was lost) leaves such a task behind, and asyncio prints it with a
    traceback as it is collected, after deckkit's one-line error. Anything else the loop
    reports goes to the handler it had."""
    stop_waiting = getattr(distributed.client, "AllExit", None)
    if stop_waiting is None:
        return
    previous = loop.get_exception_handler()

    def handler(this: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), stop_waiting):
            return
        if previous is not None:
            previous(this, context)
        else:
            this.default_exception_handler(context)

    loop.set_exception_handler(handler)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise DaskMissing(
            "--scheduler needs Dask's distributed scheduler, which is not installed",
            hint=f"{INSTALL_HINT}, or run without --scheduler (and {SCHEDULER_ENV} unset)",
        ) from None
    return distributed


class DaskBackend:
    """A :class:`~deckkit.analysis.runner.ChunkBackend` on the cluster at ``address``; connects
    on first use (so an error is reported as the command's) and once for every run after."""

    def __init__(self, address: str, *, timeout: float = CONNECT_TIMEOUT) -> None:
        self.address = address
        self.timeout = timeout
        self._client: Client = None
        self._quiet: contextlib.ExitStack | None = None

    def client(self) -> Client:
        if self._client is None:
            distributed = _distributed()
            if self._quiet is None:
                self._quiet = contextlib.ExitStack()
                self._quiet.enter_context(_dask_quiet())
            try:  # a malformed address, before a client exists (it would complain as it goes)
                distributed.comm.get_address_host_port(self.address)
            except ValueError as err:
                raise UsageError(
                    f"not a Dask scheduler address: {self.address} ({err})",
                    hint="give tcp://HOST:PORT (port 8786 by default)",
                ) from None
            _probe(distributed, self.address, self.timeout)
            try:
                client = distributed.Client(
                    self.address, timeout=self.timeout, set_as_default=False
                )
            except (OSError, TimeoutError, ValueError, TypeError) as err:
                raise SchedulerUnreachable(
                    f"cannot reach the Dask scheduler at {self.address}: {err}",
                    hint="start one with `dask scheduler` (and `dask worker ADDRESS` on each "
                    "machine), or check the address; tcp://HOST:PORT, port 8786 by default",
                ) from None
            try:
                client.wait_for_workers(1, timeout=self.timeout)
            except (OSError, TimeoutError) as err:
                with contextlib.suppress(Exception):
                    client.close(timeout=self.timeout)
                raise SchedulerUnreachable(
                    f"the Dask scheduler at {self.address} has no worker ({err})",
                    hint="start one on each machine with `dask worker ADDRESS`",
                ) from None
            with contextlib.suppress(AttributeError):  # the client's own asyncio loop
                _drop_orphaned_gathers(distributed, client.loop.asyncio_loop)
            self._client = client
        return self._client

    def close(self) -> None:
        """Disconnect (bounded: a lost scheduler must not hold the command) and let Dask log
        again."""
        try:
            if self._client is not None:
                with contextlib.suppress(Exception):
                    self._client.close(timeout=self.timeout)
                self._client = None
        finally:
            if self._quiet is not None:
                self._quiet.close()
                self._quiet = None

    def _workers(self, client: Client) -> int:
        """The workers the scheduler has now (0 when it cannot say)."""
        try:
            info: dict[str, Any] = client.scheduler_info(n_workers=0)
            return int(info.get("n_workers", 0))
        except Exception:
            return 0

    def slots(self) -> int:
        threads: dict[str, int] = self.client().nthreads()  # worker -> its threads
        return max(1, sum(threads.values()))

    def play(
        self,
        factory: GameFactory,
        seed: int,
        ranges: Iterator[tuple[int, int]],
        keep_rows: bool,
        fold: FoldFn,
        kind: RecordKind = RECORDS,
    ) -> bool:
        """At most two chunks per slot in flight (memory stays flat however long the run); each
        result folded as it arrives, keyed by its first game.

        A stop request (Ctrl-C, SIGTERM, SIGHUP) is only noted while the run waits, and acted on
        between polls (:func:`deckkit.stopping.stops_deferred`): raised as ``KeyboardInterrupt``
        inside the Dask client's own calls, it could leave them half done and the clean-up
        waiting on them for good."""
        distributed = _distributed()
        client = self.client()
        payload = pickle.dumps(factory)
        run = uuid.uuid4().hex
        limit = 2 * self.slots()
        in_flight: dict[Future, int] = {}
        finished_games = 0

        def top_up() -> None:
            while len(in_flight) < limit:
                nxt = next(ranges, None)
                if nxt is None:
                    return
                start, stop = nxt
                future = client.submit(
                    remote_chunk,
                    __version__,
                    run,
                    payload,
                    seed,
                    start,
                    stop,
                    keep_rows,
                    kind,
                    key=f"deckkit-{run}-{start}",
                    pure=False,
                )
                in_flight[future] = start

        def games_done() -> str:
            return f"{finished_games:,} game{'s' if finished_games != 1 else ''} had finished"

        next_look = time.monotonic() + WATCH_SECONDS
        workerless_since: float | None = None
        with stopping.stops_deferred() as stops:
            try:
                top_up()
                while in_flight and stops.pending is None:
                    folded = False
                    for future in [future for future in in_flight if future.done()]:
                        try:
                            result: ChunkResult = future.result(timeout=self.timeout)
                        except TimeoutError:
                            # Finished, but its result went with a lost worker before it was
                            # fetched: Dask plays the chunk again once a worker is there, and
                            # until then fetching it waits, so the run looks at its workers.
                            break
                        except distributed.comm.CommClosedError:
                            # The scheduler went between the chunk's end and the fetch of its
                            # result. The error is an OSError, so left alone it would read as a
                            # failure to write the run's output (exit 5), not as the lost scheduler.
                            raise CancelledError from None
                        del in_flight[future]
                        fold(result)
                        folded = True
                        finished_games += result.stop - result.start
                    if folded:
                        top_up()
                        continue
                    time.sleep(0.02)
                    now = time.monotonic()
                    if now < next_look:
                        continue
                    next_look = now + WATCH_SECONDS
                    if client.status not in ("running", "connecting"):
                        raise CancelledError  # the client gave the scheduler up
                    if self._workers(client) > 0:
                        workerless_since = None
                    elif workerless_since is None:
                        workerless_since = now
                    elif now - workerless_since > self.timeout:
                        self._cancel(in_flight)
                        raise WorkerDied(
                            f"every Dask worker of the scheduler at {self.address} was lost and "
                            f"none came back within {self.timeout:g} s; {games_done()}",
                            hint="look at the workers' logs (killed? out of memory?), restart them "
                            "with `dask worker ADDRESS`, then run again",
                        )
                if stops.pending is not None:
                    self._cancel(in_flight)
                    signum = stops.pending
                    stops.forget()
                    if signum != signal.SIGINT:
                        stopping.note_stop(stopping.Stopped(signum))  # its exit code, 128 + signal
                    return True
            except KeyboardInterrupt:
                self._cancel(in_flight)
                return True
            except distributed.KilledWorker as err:
                self._cancel(in_flight)
                raise WorkerDied(
                    f"Dask workers died playing the same chunk again and again ({err}); "
                    f"{games_done()}",
                    hint="look at the workers' logs (out of memory?), then run again",
                ) from None
            except CancelledError:
                self._cancel(in_flight)
                raise SchedulerUnreachable(
                    f"lost the Dask scheduler at {self.address} during the run; {games_done()}",
                    hint="run again once the scheduler is back",
                ) from None
            except BaseException:
                self._cancel(in_flight)
                raise
            finally:
                stops.forget()  # a stop that came during the clean-up is the one being handled
        return False

    def _cancel(self, in_flight: dict[Future, int]) -> None:
        """Drop the chunks not finished (a stop must not wait on a gone scheduler)."""
        if in_flight and self._client is not None:
            with contextlib.suppress(Exception):
                self._client.cancel(list(in_flight), force=True)
        in_flight.clear()


def scheduler_address(address: str | None) -> str | None:
    """The scheduler to use: the given address, ``None`` (or blank) for this machine."""
    if address is None or not address.strip():
        return None
    return address.strip()


@contextlib.contextmanager
def games_on(address: str | None, *, timeout: float | None = None) -> Iterator[None]:
    """Every run started in the block plays its games on the Dask cluster at ``address``
    (``None`` or blank: on this machine, as without the block); ``timeout`` seconds to reach
    it (:data:`CONNECT_TIMEOUT` by default)."""
    chosen = scheduler_address(address)
    if chosen is None:
        yield
        return
    backend = DaskBackend(chosen, timeout=CONNECT_TIMEOUT if timeout is None else timeout)
    try:
        with chunks_played_by(backend):
            yield
    finally:
        backend.close()
