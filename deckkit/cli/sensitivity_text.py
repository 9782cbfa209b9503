"""The text of a sensitivity table: the two-sided one (Anima Tactics parties, Animus teams),
whose commands print their :mod:`deckkit.analysis.game_sensitivity` document with it, and the
rows below the title that Ani-Mayhem's `deckkit sensitivity` prints alike."""

from __future__ import annotations

from typing import Any

from deckkit.cli.console import echo, percent

DEFAULT_GAMES = 1_000


def print_two_sided(doc: dict[str, Any], side: str, notices: list[str] | None = None) -> None:
    """``side``: what the game calls a side ("party", "team")."""
    echo(
        f"{doc['deck']} vs {doc['vs']}: the first {side}'s win rate under each alternative rule "
        f"reading, {doc['policy']} player, seed {doc['seed']}, {doc['games']:,} paired games each"
    )
    for notice in notices or ():
        echo(f"notice: {notice}")
    print_readings(doc, "docs/interpretations.md")


def print_readings(doc: dict[str, Any], passages: str) -> None:
    """The rows every game's sensitivity table shares, after its title: the readings as
    played, one row per alternative reading, the method, and where ``passages`` explains
    the readings; one layout, so the three games' tables read alike."""
    echo(
        "as played: "
        + ", ".join(f"{k}={v}" for k, v in doc["rules"].items())
        + f" (win rate {percent(doc['win_rate'])})"
    )
    width = max((len(r["setting"]) for r in doc["readings"]), default=10)
    echo("")
    echo(f"  {'reading':<{width}}  {'win rate':>8}  {'change':>9}  95% interval")
    for r in doc["readings"]:
        lo, hi = r["ci"] if r["ci"] is not None else (None, None)
        echo(
            f"  {r['setting']:<{width}}  {percent(r['win_rate_b']):>8}  "
            f"{percent(r['difference'], True):>9}  {percent(lo, True)} to {percent(hi, True)}"
        )
    echo("")
    echo(f"method: {doc['method']}")
    echo(f"the readings and their passages: {passages}")
