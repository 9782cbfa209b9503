"""The sentences a default-player rate is printed with: how far it may lie below a stronger
player's, from the ``player_gap`` a game's interface gives a run
(:meth:`deckkit.core.game.CardRuns.player_gap`). One wording for `simulate`, `compare` and the
API's printed results; the report's page draws the same numbers from its sidecar."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from deckkit.api.display import interval, pct, pts


def _leads(refs: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    names = ", ".join(f"{r['deck']} {pct(r['heuristic'])}" for r in refs)
    leads = " and ".join(f"{pts(r['gap'])} ({interval(r['gap_ci'], signed=True)})" for r in refs)
    return names, leads


def run_sentence(gap: Mapping[str, Any]) -> str:
    """One run's line: the sample decks nearest its rate, the search player's lead on each, and
    what that means for this deck's rate, with the command that measures its own gap."""
    refs = gap["reference"]
    names, leads = _leads(refs)
    said = (
        f"default player: on the sample decks nearest this rate ({names}) the search player won "
        f"{leads} more of the same {refs[0]['games']:,} games"
    )
    if gap["near"]:
        return f"{said}: here the default player's rate is near a stronger player's"
    return (
        f"{said}: a stronger player may win this deck up to that much more often. This deck's "
        f"own gap: {gap['command']}"
    )


def comparison_sentence(arms: Sequence[Mapping[str, Any]]) -> str | None:
    """A comparison's line (``arms`` as `compare` documents them, each with its ``player_gap``
    and ``deck_path``): the leads on the sample decks nearest the arms' rates and, where they
    are not all near, that a stronger player's difference between the decks may not be the one
    printed, with the command that measures it. None when an arm has no gap (another player,
    another game)."""
    gaps: list[Mapping[str, Any]] = [arm["player_gap"] for arm in arms if arm.get("player_gap")]
    if not arms or len(gaps) < len(arms):
        return None
    refs = sorted(
        {r["deck"]: r for g in gaps for r in g["reference"]}.values(), key=lambda r: r["heuristic"]
    )
    names = ", ".join(f"{r['deck']} {pct(r['heuristic'])}" for r in refs)
    low, high = min(r["gap"] for r in refs), max(r["gap"] for r in refs)
    span = pts(low) if low == high else f"{pts(low)} to {pts(high)}"
    said = (
        f"default player: on the sample decks nearest these rates ({names}) the search player "
        f"won {span} more of the same games"
    )
    if all(g["near"] for g in gaps):
        return f"{said}: here the default player's rates are near a stronger player's"
    paths = [str(arm["deck_path"]) for arm in arms if arm.get("deck_path")]
    games = str(max(r["games"] for r in refs))  # as many as the ladder played
    check = (
        shlex.join(["deckkit", "compare", *paths, "--policy", "search", "--games", games])
        if len(paths) == len(arms)
        else "the same comparison with the search player (--policy search)"
    )
    return (
        f"{said}, and the lead differs from deck to deck: a stronger player's difference between "
        f"these decks may not be the one above. Check: {check}"
    )


def match_sentence(gap: Mapping[str, Any]) -> str:
    """A two-sided run's line (``gap`` as :func:`deckkit.core.seat_gaps.match_gap` gives it):
    how much a search player in one seat of the sample match-up scored over the heuristic in
    its place, and what that means for this result."""
    refs = gap["reference"]
    leads = " and ".join(
        f"{pts(r['gap'])} ({interval(r['gap_ci'], signed=True)}) in the seat of {r['side']}"
        for r in refs
    )
    sample = "the sample match-up" + (", its cards made up," if gap["sample_made_up"] else "")
    said = (
        f"default players: on {sample} a search player scored {leads} more than the heuristic "
        f"in its place ({refs[0]['games']:,} paired games a seat)"
    )
    if gap["near"]:
        return f"{said}: here a stronger player moves the result little"
    return (
        f"{said}: a stronger player on either side may move this result by as much. This "
        f"side's own gap: {gap['command']}"
    )
