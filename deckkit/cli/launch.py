"""The `deckkit` console script. Before the CLI's imports (about half a second) it starts what
the command will need from another process: for `deckkit report --from`, the chart helper of
:mod:`deckkit.report.chart_process`, whose own start-up then overlaps those imports too."""

from __future__ import annotations

import sys


def draws_a_saved_run(args: list[str]) -> bool:
    """Whether the command line asks for `report --from` (a guess made before parsing: a wrong
    one costs a helper stopped at exit, or one started later)."""
    return "report" in args and any(a == "--from" or a.startswith("--from=") for a in args)


def run() -> None:
    try:
        if draws_a_saved_run(sys.argv[1:]):
            from deckkit.report import chart_process

            chart_process.start_early()
        from deckkit.cli.main import run as main_run
    except KeyboardInterrupt:  # Ctrl-C while the CLI is still loading: stopped, no traceback
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    main_run()
