"""What the Ani-Mayhem commands that play do alike before and after their games: the run's
settings from the shared options, the refusal of an illegal deck, the deck written by ``--out``.

Said once here so that a flag, a refusal or a written deck means the same in every command.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import typer

from deckkit.api.options import RunOptions
from deckkit.cli.console import echo, explain_illegal
from deckkit.errors import EXIT_ILLEGAL

if TYPE_CHECKING:
    from deckkit.animayhem.construction.legality import LegalityReport

# The RunOptions fields set by the shared option of the same parameter name (options.py);
# `--rule` (parameter `rule`) gives `rules`.
RUN_FIELDS = ("games", "seed", "workers", "policy", "edition", "variant", "layout", "players",
              "turn_cap")  # fmt: skip


def run_options(ctx: typer.Context, **fixed: Any) -> RunOptions:
    """The run's settings from the shared options the command declares, read by their
    parameter names from the parsed command line: the command's signature stays the one list
    of its options, and no command spells the same nine keywords again. A field the command has
    no option for keeps RunOptions' default (`play` has no --games); ``fixed`` sets what the
    command decides itself (`tune` plays its games in batches, so ``games=1``)."""
    params = ctx.params
    fields = {name: params[name] for name in RUN_FIELDS if name in params}
    if "rule" in params:
        fields["rules"] = tuple(params["rule"] or ())
    return RunOptions(**(fields | fixed))


def refuse_illegal(*reports: LegalityReport, allow: bool, refusal: str) -> None:
    """Each illegal deck's explanation on stderr; then, unless ``allow`` (--allow-illegal),
    ``refusal`` and exit EXIT_ILLEGAL: an illegal deck's win rate answers a question nobody
    asked, so playing one is the user's explicit choice, never a quiet default."""
    illegal = [report for report in reports if not report.legal]
    for report in illegal:
        explain_illegal(report)
    if illegal and not allow:
        echo(refusal, err=True)
        raise typer.Exit(EXIT_ILLEGAL)


def write_deck(out: Path, text: str, *, force: bool) -> None:
    """``--out`` of `build` and `tune`: the deck written whole or not at all (an interrupted
    run never leaves half a deck file where a deck is expected); ``out`` was checked writable
    before the games (check_writable), so a bad path costs no run."""
    from deckkit.analysis.output import write_atomic

    data = text.encode()

    def fill(handle: IO[bytes]) -> None:
        handle.write(data)

    write_atomic(out, fill, force=force)
