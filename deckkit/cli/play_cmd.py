"""`deckkit play`: one solitaire game, turn by turn, in words a player can check.

Game ``--game i`` with ``--seed S`` is exactly game i of `deckkit simulate --seed S`, so any game
of a simulation can be replayed and read.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path

import typer

from deckkit.animayhem.editions import DEFAULT_EDITION, EDITIONS
from deckkit.animayhem.field import LAYOUTS
from deckkit.animayhem.play import DEFAULT_TURN_CAP, GameOptions, play_game, prepare_game
from deckkit.animayhem.policy import POLICIES, make_policy
from deckkit.animayhem.state import Trace
from deckkit.cli.console import echo
from deckkit.cli.solitaire import explain_illegal, resolve
from deckkit.errors import EXIT_ILLEGAL, UsageError


class OutputFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


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
        deck_path: Path = typer.Argument(..., metavar="DECK", help="Deck file to play."),
        seed: int = typer.Option(0, "--seed", help="Seed of the run."),
        game: int = typer.Option(0, "--game", min=0, help="Game index within the run."),
        policy: str = typer.Option("heuristic", "--policy", help=f"One of {', '.join(POLICIES)}."),
        edition: str | None = typer.Option(
            None,
            "--edition",
            help=f"One of {', '.join(EDITIONS)}; default: the deck's, else {DEFAULT_EDITION}.",
        ),
        variant: str | None = typer.Option(
            None, "--variant", help="Field variant; default: the deck's, else standard."
        ),
        layout: str | None = typer.Option(
            None,
            "--layout",
            help=f"One of {', '.join(LAYOUTS)}; default: straight-line for the straight-line "
            "variant, else compact.",
        ),
        turn_cap: int = typer.Option(
            DEFAULT_TURN_CAP, "--turn-cap", min=1, help="Turns before a stall."
        ),
        allow_illegal: bool = typer.Option(
            False, "--allow-illegal", help="Play an illegal deck anyway."
        ),
        fmt: OutputFormat = typer.Option(OutputFormat.TEXT, "--format", help="text or json."),
    ) -> None:
        """Play one solitaire game and print it turn by turn."""
        if policy not in POLICIES:
            raise UsageError(
                f"unknown policy {policy!r}", hint=f"choose one of {', '.join(POLICIES)}"
            )
        chosen = resolve(
            deck_path,
            edition=edition,
            variant=variant,
            layout=layout,
            players=None,
            layouts=LAYOUTS,
            command="play",
        )
        deck, ed, layout = chosen.deck, chosen.edition, chosen.layout
        if not chosen.report.legal:
            explain_illegal(chosen.report)
            if not allow_illegal:
                echo("refusing to play; pass --allow-illegal to play it anyway", err=True)
                raise typer.Exit(EXIT_ILLEGAL)
        setup = prepare_game(deck, ed, GameOptions(layout=layout, turn_cap=turn_cap))  # type: ignore[arg-type]
        trace = Trace()
        record = play_game(setup, make_policy(policy), seed, game, trace=trace)
        if fmt == OutputFormat.JSON:
            doc = {
                "deck": deck.name,
                "seed": seed,
                "game": game,
                "policy": policy,
                "edition": ed.name,
                "layout": layout,
                "outcome": record.outcome,
                "end_reason": record.end_reason,
                "turns": record.turns,
                "items_in_play": record.items_in_play,
                "items_retrieved": record.items_retrieved,
                "items_lost": record.items_lost,
                "not_simulated": list(setup.not_simulated),
                "events": trace.events,
            }
            typer.echo(json.dumps(doc, indent=2))
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
