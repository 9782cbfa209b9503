"""`deckkit play`: one solitaire game, turn by turn, in words a player can check.

Game ``--game i`` with ``--seed S`` is exactly game i of `deckkit simulate --seed S`, so any game
of a simulation can be replayed and read.
"""

from __future__ import annotations

from typing import Annotated

import typer

from deckkit.analysis.engine import check_playable
from deckkit.animayhem.engine.endgame import end_reason_code
from deckkit.animayhem.engine.field import LAYOUTS
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.players import make_player
from deckkit.animayhem.engine.state import Trace
from deckkit.cli import options as opt
from deckkit.cli.console import echo
from deckkit.cli.jsonout import emit
from deckkit.cli.simulate_cmd import not_simulated_cards
from deckkit.cli.solitaire import explain_illegal, resolve
from deckkit.errors import EXIT_ILLEGAL

OutputFormat = opt.Format


def render_text(trace: Trace) -> str:
    """Group the events under "Turn N" headings and phase labels."""
    lines: list[str] = []
    turn, phase = -1, ""
    for e in trace.events:
        if e["turn"] != turn:
            turn = e["turn"]
            phase = ""
            if lines:
                lines.append("")
            lines.append("Setup" if turn == 0 else f"Turn {turn}")
        if e["phase"] != phase and turn != 0:
            phase = e["phase"]
            lines.append(f"  {phase.capitalize()} phase")
        lines.append(("    " if turn else "  ") + e["text"])
        if e.get("field"):
            lines.extend("    " + row for row in str(e["field"]).splitlines())
    return "\n".join(lines).strip() + "\n"


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
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
        chosen = resolve(
            deck_path,
            edition=edition,
            variant=variant,
            layout=layout,
            players=None,
            layouts=LAYOUTS,
            command="play",
            rules=tuple(rule or ()),
        )
        deck, ed, layout_name = chosen.deck, chosen.edition, chosen.layout
        if not chosen.report.legal:
            explain_illegal(chosen.report)
            if not allow_illegal:
                echo("refusing to play; pass --allow-illegal to play it anyway", err=True)
                raise typer.Exit(EXIT_ILLEGAL)
        check_playable(deck)
        setup = prepare_game(deck, ed, GameOptions(layout=layout_name, turn_cap=turn_cap))  # type: ignore[arg-type]
        trace = Trace()
        record = play_game(setup, make_player(policy), seed, game, trace=trace)
        if fmt == OutputFormat.JSON:
            doc = {
                "deck": deck.name,
                "seed": seed,
                "game": game,
                "policy": policy,
                "edition": ed.name,
                "layout": layout_name,
                "rules": chosen.rules,
                "outcome": record.outcome,
                # the same shape as simulate's end_reasons and not_simulated
                "end_reason": {
                    "code": end_reason_code(record.end_reason),
                    "reason": record.end_reason,
                },
                "turns": record.turns,
                "items_in_play": record.items_in_play,
                "items_retrieved": record.items_retrieved,
                "items_lost": record.items_lost,
                "not_simulated": not_simulated_cards(deck),
                "events": trace.events,
            }
            emit(doc)
            return
        echo(f"{deck.name}: game {game} of seed {seed}, {policy} player, {ed.name} rules")
        echo(render_text(trace))
        echo(
            f"Result: {record.outcome} after {record.turns} turns ({record.end_reason}); "
            f"items retrieved {record.items_retrieved}, lost {record.items_lost} "
            f"of {record.items_in_play}"
        )
        if setup.not_simulated:
            echo("Card text not fully simulated: " + ", ".join(setup.not_simulated))
