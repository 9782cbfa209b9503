"""The Anima Tactics player ladder: each player against the heuristic, paired on the same games.

For each seating (one sample party played by the player under test, the other by the heuristic;
then the other way round), game ``i`` of seed ``s`` is played twice: once with the player under
test and once with the heuristic in its place. Both draw their dice from (``s``, ``i``) (the
same initiative roll and the same stream, as far as the choices keep them aligned), so the
per-game difference of scores (win 1, draw 1/2, loss 0) is paired; its mean comes with a
Student-t 95% interval, for each seating and for both seatings' games taken together.
Run ``python -m deckkit.animatactics.analysis.ladder --help``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from deckkit.animatactics.analysis.parties import fighters, plan_of
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.party import read_party
from deckkit.animatactics.engine.playing import play_game
from deckkit.animatactics.engine.skirmish import Side
from deckkit.core.estimates import mean_estimate

BASELINE = "heuristic"
DECKS = Path(__file__).resolve().parents[3] / "decks"
PARTIES = (DECKS / "at-unaligned.party", DECKS / "at-samael-darkness.party")


def _side(path: Path, plan: str) -> Side:
    fs = fighters(read_party(path, load_card_db()))
    return Side(tuple(e.duellist for e in fs), tuple(e.levels for e in fs), plan_of(plan))


def _score(winner: int | None, seat: int) -> int:
    """Half points of ``seat``: 2 a win, 1 a draw, 0 a loss."""
    return 1 if winner is None else 2 if winner == seat else 0


def _sums(
    sides: tuple[Side, Side], seat: int, policy: str, games: int, seed: int
) -> tuple[int, int, int]:
    """Half-point sums over the games: of the differences, of their squares, of the baseline."""
    total = sq = base_total = 0
    tested, base = list(sides), list(sides)
    tested[seat] = replace(sides[seat], policy=policy)
    base[seat] = replace(sides[seat], policy=BASELINE)
    for i in range(games):
        mine = _score(play_game((tested[0], tested[1]), seed, i).winner, seat)
        ref = _score(play_game((base[0], base[1]), seed, i).winner, seat)
        total += mine - ref
        sq += (mine - ref) ** 2
        base_total += ref
    return total, sq, base_total


def _row(policy: str, games: int, total: int, sq: int, base_total: int) -> dict[str, Any]:
    est = mean_estimate(games, total, sq)
    assert est.mean is not None
    return {
        "policy": policy,
        "games": games,
        "score": (base_total + total) / (2 * games),
        "baseline_score": base_total / (2 * games),
        "gap": est.mean / 2,
        "ci95": [est.ci[0] / 2, est.ci[1] / 2] if est.ci else None,
    }


def paired_gap(
    sides: tuple[Side, Side], seat: int, policy: str, games: int, seed: int
) -> dict[str, Any]:
    """``policy`` playing ``sides[seat]`` against the heuristic, minus the heuristic in its
    place, over games ``0..games-1`` of ``seed``."""
    return _row(policy, games, *_sums(sides, seat, policy, games, seed))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plan", default="guarded")
    ap.add_argument("--policies", default="random,search:8", help="comma-separated players")
    args = ap.parse_args(argv)
    sides = (_side(PARTIES[0], args.plan), _side(PARTIES[1], args.plan))
    for policy in args.policies.split(","):
        both = [0, 0, 0]
        for seat in (0, 1):
            sums = _sums(sides, seat, policy, args.games, args.seed)
            both = [a + b for a, b in zip(both, sums, strict=True)]
            row = _row(policy, args.games, *sums)
            print(json.dumps({**row, "party": PARTIES[seat].name}), flush=True)
        row = _row(policy, 2 * args.games, both[0], both[1], both[2])
        print(json.dumps({**row, "party": "both seatings"}), flush=True)


if __name__ == "__main__":
    main()
