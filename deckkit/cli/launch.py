"""The `deckkit` console script. Before the CLI's imports (about half a second) it starts what
the command will need from another process: for `deckkit report --from`, the chart helper of
:mod:`deckkit.report.chart_process`, whose own start-up then overlaps those imports too.

Under an address-space cap (``ulimit -v``) it first keeps the C allocator's reservations small
(:func:`fit_to_address_cap`), before numpy, polars and their threads are loaded."""

from __future__ import annotations

import os
import signal
import sys

from deckkit import stopping

# glibc's mallopt parameter for the most arenas (malloc.h), and the environment variable its
# processes read at start.
M_ARENA_MAX = -8
ARENA_ENV = "MALLOC_ARENA_MAX"
# Arenas under an address-space cap: glibc gives every thread that allocates an arena of its
# own, up to 8 per core, each reserving 64 MB of address space it may never use. A report's
# 15 threads (polars' pool, numpy's, the main one) then reserve 1.35 GB, and the cap is reached
# while only 135 MB are in use: polars' allocator aborts ("memory allocation of 24 bytes
# failed"). With 2 arenas the same report reserves 0.6 GB.
CAPPED_ARENAS = 2


def draws_a_saved_run(args: list[str]) -> bool:
    """Whether the command line asks for `report --from` (a guess made before parsing: a wrong
    one costs a helper stopped at exit, or one started later)."""
    return "report" in args and any(a == "--from" or a.startswith("--from=") for a in args)


def address_space_capped() -> bool:
    """Whether ``ulimit -v`` (RLIMIT_AS) limits this process."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not Unix
        return False
    return soft != resource.RLIM_INFINITY


def fit_to_address_cap() -> bool:
    """Under an address-space cap on Linux, at most :data:`CAPPED_ARENAS` allocator arenas in
    this process (threads started later share them) and, through ``MALLOC_ARENA_MAX``, in the
    processes it starts (workers, the chart helper), unless the user set that variable. Only
    the address space reserved changes, never what is allocated. True when applied."""
    if not sys.platform.startswith("linux") or not address_space_capped():
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt  # glibc's; another C library may lack it
    except (AttributeError, OSError):  # pragma: no cover - not glibc
        return False
    arenas = os.environ.setdefault(ARENA_ENV, str(CAPPED_ARENAS))
    if arenas.isdigit() and int(arenas) > 0:
        mallopt(M_ARENA_MAX, int(arenas))
    return True


def run() -> None:
    fit_to_address_cap()
    stopping.keep_stops_raised()  # a stop landing in a callback while modules load, later
    # Ctrl-C while the CLI is still loading: noted, and acted on once loading is done. Raised
    # where it lands, it can land in a callback of the import machinery (a module lock's weakref
    # callback), where Python prints it as an ignored exception with its traceback and the
    # command goes on as if never stopped.
    pressed: list[int] = []
    before = signal.getsignal(signal.SIGINT)
    if before is signal.default_int_handler:  # not when the caller has it ignored
        signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        if draws_a_saved_run(sys.argv[1:]):
            from deckkit.report import chart_process

            chart_process.start_early()
        from deckkit.cli.main import run as main_run
    finally:
        if before is signal.default_int_handler:
            signal.signal(signal.SIGINT, before)
    if pressed:  # stopped, no traceback
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    main_run()
