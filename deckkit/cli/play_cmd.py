"""`deckkit play`: one solitaire game, turn by turn, in words a player can check.

Game ``--game i`` with ``--seed S`` is exactly game i of `deckkit simulate --seed S`, so any game
of a simulation can be replayed and read.
"""

from __future__ import annotations

from typing import Annotated

import typer

from deckkit.api.play import play_settled, settle
from deckkit.cli import options as opt
from deckkit.cli.console import echo
from deckkit.cli.jsonout import emit
from deckkit.cli.runsetup import refuse_illegal, run_options

OutputFormat = opt.Format


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        ctx: typer.Context,
        deck_path: opt.DeckArg,
        seed: opt.SeedOpt = 0,
        game: Annotated[
            int, typer.Option("--game", "-g", min=0, help="Game index within the run.")
        ] = 0,
        policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
        edition: opt.EditionOpt = None,
        variant: opt.VariantOpt = None,
        layout: opt.LayoutOpt = None,
        turn_cap: opt.TurnCapOpt = opt.TURN_CAP,
        allow_illegal: opt.AllowIllegalOpt = False,
        fmt: opt.FormatOpt = opt.Format.TEXT,
        rule: opt.RuleOpt = None,
    ) -> None:
        """Play one solitaire game and print it turn by turn."""
        options = run_options(ctx)
        chosen = settle(deck_path, options)
        refuse_illegal(
            chosen.report,
            allow=allow_illegal,
            refusal="refusing to play; pass --allow-illegal to play it anyway",
        )
        played = play_settled(chosen, options, game)
        if fmt == OutputFormat.JSON:
            emit(played.as_dict())
            return
        record, ed = played.record, chosen.edition
        echo(f"{chosen.deck.name}: game {game} of seed {seed}, {policy} player, {ed.name} rules")
        echo(played.text())
        echo(
            f"Result: {record.outcome} after {record.turns} turns ({record.end_reason}); "
            f"items retrieved {record.items_retrieved}, lost {record.items_lost} "
            f"of {record.items_in_play}"
        )
        if played.setup.not_simulated:
            echo("Card text not fully simulated: " + ", ".join(played.setup.not_simulated))
