"""Stop requests: Ctrl-C, a process manager's SIGTERM and a closed terminal's SIGHUP, all alike.

Every long job in deckkit already stops cleanly on ``KeyboardInterrupt`` (the runner terminates
its workers and keeps the games that finished). :func:`stop_on_signals` makes SIGTERM and SIGHUP
raise :class:`Stopped`, a ``KeyboardInterrupt`` carrying the signal, so they take the same road;
only the exit code differs, ``128 + signal`` as shells report a process the signal killed:
130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

# The signals that ask a run to stop, each with its exit code.
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """A stop request by signal; ``exit_code`` is what the CLI exits with."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


_last: int = signal.SIGINT


def exit_code() -> int:
    """The exit code of the latest stop request in this process (130 when it was Ctrl-C)."""
    return 128 + _last


def note_stop(err: BaseException) -> None:
    """Remember which signal stopped a run. A plain ``KeyboardInterrupt`` leaves the record as
    it is: it is either Ctrl-C (the record's default) or a command re-raising the stop of a run
    that a SIGTERM or SIGHUP already recorded, whose code must survive the re-raise."""
    global _last
    if isinstance(err, Stopped):
        _last = err.signum


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    global _last
    _last = signum
    # Once stopping, a second signal must not interrupt the clean-up.
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    raise Stopped(signum)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread.

    A no-op off the main thread (Python delivers signals only there). The previous handlers
    come back on exit."""
    global _last
    _last = signal.SIGINT
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_stopped) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


# --- stops held off code that must not be cut in the middle --------------------------------

Handler = Any  # what signal.getsignal returns: a callable, SIG_IGN, SIG_DFL or None

# How often a block of :func:`stops_deferred` should look for a noted stop (its latency).
DEFERRED_POLL_SECONDS = 0.1


class DeferredStops:
    """The stop requests noted in a :func:`stops_deferred` block: at most the first, raised by
    :meth:`raise_pending` through the handler it would have met."""

    def __init__(self) -> None:
        self.pending: int | None = None
        self.handlers: dict[int, Handler] = {}

    def note(self, signum: int, frame: FrameType | None) -> None:
        if self.pending is None:
            self.pending = signum

    def install(self) -> None:
        """Note, rather than raise, every stop signal whose handler is Python code (one left
        ignored or at the system's default stays so: the latter ends the process at once, with
        no exception to land anywhere)."""
        for sig in (signal.SIGINT, *STOP_SIGNALS):
            handler = signal.getsignal(sig)
            if callable(handler):
                self.handlers[sig] = handler
                signal.signal(sig, self.note)

    def raise_pending(self, *, again: bool = True) -> None:
        """The noted stop, if any, handled now as it would have been when it came (its handler
        put back and called: ``KeyboardInterrupt`` or :class:`Stopped`); after a handler that
        does not raise, the block notes stops ``again``."""
        signum, self.pending = self.pending, None
        if signum is None:
            return
        handler = self.handlers[signum]
        signal.signal(signum, handler)
        handler(signum, None)
        if again and signal.getsignal(signum) == handler:
            signal.signal(signum, self.note)

    def forget(self) -> None:
        """Drop a noted stop: one that came while the block was already stopping."""
        self.pending = None

    def restore(self) -> None:
        """The handlers from before the block, where the block's noting is still in place (a
        handler that ran since, such as :func:`_raise_stopped` ignoring further signals, keeps
        what it set)."""
        for sig, handler in self.handlers.items():
            if signal.getsignal(sig) == self.note:
                signal.signal(sig, handler)


@contextlib.contextmanager
def stops_deferred() -> Iterator[DeferredStops]:
    """Within the block, a stop request is noted, not raised, until the block calls
    :meth:`DeferredStops.raise_pending`; one still pending when the block ends normally is
    raised then. Off the main thread (where Python raises no stop) the block changes nothing.

    Why: a ``KeyboardInterrupt`` is raised wherever the main thread happens to be, and the
    worker pool's bookkeeping (``concurrent.futures.wait``) takes one lock after another that
    the pool's manager thread needs too. Raised between two of them, it leaves one held: the
    manager thread then waits for it forever, and so does the interpreter's exit, which joins
    that thread (a stopped run that prints "interrupted" and never ends)."""
    deferred = DeferredStops()
    if not _on_main_thread():
        yield deferred
        return
    deferred.install()
    try:
        yield deferred
    except BaseException:
        deferred.restore()
        raise
    deferred.restore()
    deferred.raise_pending(again=False)


def ignore_in_worker() -> None:
    """A worker leaves every stop request to its parent, which ends it when the run stops."""
    for sig in (signal.SIGINT, *STOP_SIGNALS):
        signal.signal(sig, signal.SIG_IGN)


# --- stops that land where Python cannot raise them -----------------------------------------

# A stop request's exception raised inside a weakref callback or a ``__del__`` (the import
# machinery's module-lock callback is the common one: commands load modules as they run) is
# "ignored": Python prints it with a traceback and the command goes on as if never stopped.
# :func:`keep_stops_raised` catches it there and raises it again a moment later, outside.
_swallowed: list[tuple[KeyboardInterrupt, Any]] = []  # at most one: the stop and SIGINT's handler
REDELIVERY_SECONDS = 0.001


def _raise_swallowed(signum: int, frame: FrameType | None) -> None:
    """SIGINT's handler while a swallowed stop waits: put the handler back, raise the stop."""
    err, previous = _swallowed.pop()
    signal.signal(signal.SIGINT, previous)
    raise err


def _send_sigint(main_thread: int) -> None:
    signal.pthread_kill(main_thread, signal.SIGINT)  # a real signal: it also ends a blocking call


def _on_unraisable(unraisable: Any) -> None:
    """``sys.unraisablehook``: a stop caught in a callback is raised again from the main thread
    once the callback has returned (a real SIGINT to it shortly after, handled by
    :func:`_raise_swallowed`; if that lands in a callback too, it is caught here again). Any
    other exception is printed as Python prints it."""
    err = getattr(unraisable, "exc_value", None)
    if not isinstance(err, KeyboardInterrupt) or not _on_main_thread():
        sys.__unraisablehook__(unraisable)
        return
    if not _swallowed:
        _swallowed.append((err, signal.signal(signal.SIGINT, _raise_swallowed)))
    timer = threading.Timer(REDELIVERY_SECONDS, _send_sigint, (threading.main_thread().ident,))
    timer.daemon = True
    timer.start()


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def keep_stops_raised() -> None:
    """Install :func:`_on_unraisable` for the rest of this process (the console script does)."""
    sys.unraisablehook = _on_unraisable
