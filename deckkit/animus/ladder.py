"""The Animus player ladder: each player against the heuristic, paired on the same battles.

For each seating (one sample team played by the player under test, the other by the heuristic;
then the other way round), battle ``i`` of seed ``s`` is played twice: once with the player under
test and once with the heuristic in its place. Both draw their shuffles, first-player roll and
dice from (``s``, ``i``) (the same stream, as far as the choices keep them aligned), so the
per-battle difference of scores (win 1, draw 1/2, loss 0) is paired; its mean comes with a
Student-t 95% interval, for each seating and for both seatings' battles taken together. As the
Anima Tactics ladder (deckkit.animatactics.analysis.ladder) does it. The sample teams are made
up, and so is what the ladder says about them.
Run ``python -m deckkit.animus.ladder --help``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from deckkit.animus.construction.notices import made_up_notice
from deckkit.animus.construction.team import read_team
from deckkit.animus.montecarlo import BattleFn, Match, check_policy
from deckkit.core.estimates import mean_estimate
from deckkit.core.seat_gaps import load_seat_gaps, match_gap

BASELINE = "heuristic"
DECKS = Path(__file__).resolve().parents[2] / "decks"
TEAMS = (DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team")
# This ladder's search rows, kept as data by benchmarks/sibling_ladders.py.
LADDER_DATA = Path(__file__).with_name("player_ladder.jsonl")


def _score(winner: int | None, seat: int) -> int:
    """Half points of ``seat``: 2 a win, 1 a draw, 0 a loss."""
    return 1 if winner is None else 2 if winner == seat else 0


def _battles(teams: tuple[Path, Path], seat: int, policy: str) -> tuple[BattleFn, BattleFn]:
    """The battles with ``policy`` in ``seat`` and the heuristic in the other, and the same
    with the heuristic in both."""
    options = read_team(teams[0]).options
    tested = [BASELINE, BASELINE]
    tested[seat] = policy
    return (
        Match(teams[0], teams[1], options, (tested[0], tested[1])).player(),
        Match(teams[0], teams[1], options, (BASELINE, BASELINE)).player(),
    )


def sums(
    teams: tuple[Path, Path], seat: int, policy: str, games: int, seed: int
) -> tuple[int, int, int]:
    """Half-point sums over the battles: of the differences, of their squares, of the
    baseline's scores."""
    tested, base = _battles(teams, seat, check_policy(policy))
    total = sq = base_total = 0
    for i in range(games):
        mine = _score(tested(seed, i).winner, seat)
        ref = _score(base(seed, i).winner, seat)
        total += mine - ref
        sq += (mine - ref) ** 2
        base_total += ref
    return total, sq, base_total


def row(policy: str, games: int, total: int, sq: int, base_total: int) -> dict[str, Any]:
    """One rung: the player's score, the heuristic's on the same battles, the gap and its
    95% interval (in score points: 1 a win)."""
    est = mean_estimate(games, total, sq)
    assert est.mean is not None
    return {
        "policy": policy,
        "games": games,
        "score": (base_total + total) / (2 * games),
        "baseline_score": base_total / (2 * games),
        "gap": est.mean / 2,
        "ci95": [est.ci[0] / 2, est.ci[1] / 2] if est.ci else None,
        "sums": [total, sq, base_total],  # half points: to pool seatings run apart
    }


def paired_gap(
    teams: tuple[Path, Path], seat: int, policy: str, games: int, seed: int
) -> dict[str, Any]:
    """``policy`` playing ``teams[seat]`` against the heuristic, minus the heuristic in its
    place, over battles ``0..games-1`` of ``seed``."""
    return row(policy, games, *sums(teams, seat, policy, games, seed))


def player_gap(policies: tuple[str, str], files: tuple[str, str]) -> dict[str, Any] | None:
    """How far a result between default players may move with a stronger one: the sample
    match-up's seat gaps (None unless both sides are the heuristic player)."""
    return match_gap(policies, load_seat_gaps(LADDER_DATA), files)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="battles per seating")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policies", default="random,search", help="comma-separated players")
    ap.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        help="one seating only (0: the player under test plays Vanguard); pool two such runs "
        "with their rows' sums",
    )
    args = ap.parse_args(argv)
    seats = (0, 1) if args.seat is None else (args.seat,)
    teams = (TEAMS[0], TEAMS[1])
    read = [read_team(t) for t in teams]
    cards = [c for t in read for c in t.cards] + [t.entity for t in read if t.entity]
    notice = made_up_notice(cards)
    if notice:
        print(json.dumps({"notice": notice}), flush=True)
    for policy in args.policies.split(","):
        both = [0, 0, 0]
        for seat in seats:
            found = sums(teams, seat, policy, args.games, args.seed)
            both = [a + b for a, b in zip(both, found, strict=True)]
            print(json.dumps({**row(policy, args.games, *found), "team": read[seat].name}))
        if len(seats) == 2:
            whole = row(policy, 2 * args.games, both[0], both[1], both[2])
            print(json.dumps({**whole, "team": "both seatings"}), flush=True)


if __name__ == "__main__":
    main()
