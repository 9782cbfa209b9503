"""A game's trace as text, and the traces of a run's typical won and lost games: each game
replayed by the engine exactly as `deckkit play --seed S --game I` plays it (game i of a run
draws from its own random stream), so the report's page shows the very game its command prints.
The page picks the games (deckkit.report.model.typical_games); the game replays them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from deckkit.animayhem.construction.deck import Deck
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.state import Trace

MAX_LINES = 1_500  # a longer trace is cut, with a line saying how to see the rest


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


def typical_traces(
    picks: Mapping[str, Mapping[str, Any]],
    deck: Deck,
    edition: Edition,
    *,
    layout: str,
    turn_cap: int,
    policy: str,
    seed: int,
) -> dict[str, str]:
    """outcome -> the trace, as `deckkit play` prints it, of each picked game (``picks``:
    outcome -> ``{"game": index, ...}``, the run's typical win and loss)."""
    from deckkit.animayhem.engine.field import Layout
    from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
    from deckkit.animayhem.engine.players import make_player
    from deckkit.animayhem.engine.state import Trace

    if not picks:
        return {}
    setup = prepare_game(deck, edition, GameOptions(layout=cast(Layout, layout), turn_cap=turn_cap))
    out: dict[str, str] = {}
    for outcome, pick in picks.items():
        trace = Trace()
        record = play_game(setup, make_player(policy), seed, pick["game"], trace=trace)
        lines = render_text(trace).splitlines()
        if len(lines) > MAX_LINES:
            cut = len(lines) - MAX_LINES
            lines = [*lines[:MAX_LINES], f"... ({cut} more lines: run the command above)"]
        lines.append(f"Result: {record.outcome} after {record.turns} turns ({record.end_reason})")
        out[outcome] = "\n".join(lines)
    return out
