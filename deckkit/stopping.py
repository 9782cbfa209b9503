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
import threading
from collections.abc import Iterator
from types import FrameType

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


def ignore_in_worker() -> None:
    """A worker leaves every stop request to its parent, which ends it when the run stops."""
    for sig in (signal.SIGINT, *STOP_SIGNALS):
        signal.signal(sig, signal.SIG_IGN)
