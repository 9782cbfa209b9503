"""The best Animus team a draft can give against a field of teams (`deckkit build` for a team).

A team is drafted, never chosen freely (animus-rules-v3.5.txt, "Draft Characters": 18 cards
laid out face down in a pyramid, picked in turn), so the candidates are teams drafts give:
``drafts`` seeded drafts (deal ``d`` of the seed, :func:`deckkit.animus.engine.draft.draft`),
each played by every pair of drafting policies (greedy by stats, by level, counter-drafting,
random), both seats of each draft a candidate. Each candidate keeps its draft (the pyramid and
every pick), so its team file replays it and `deckkit validate` checks it.

Then the race, as `deckkit build` does for an Anima Tactics party: successive halving, every
surviving candidate playing the same seeded battles against each field team (battle ``i`` of
the seed, :func:`deckkit.core.chance.SeededChance.for_game`), the worse half dropped each round;
the winner is confirmed on fresh battles of another seed it was not chosen on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from deckkit.animus.construction.carddb import CardSet
from deckkit.animus.construction.cards import Card
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.team import Team
from deckkit.animus.engine.draft import DRAFT_POLICIES, draft
from deckkit.animus.engine.play import Lineup, play_battle
from deckkit.animus.engine.policy import make_policy
from deckkit.core.chance import SeededChance
from deckkit.core.estimates import CI_METHOD, CONFIDENCE, proportion, rate_json

CONFIRMATION_SEED_OFFSET = 1_000_003  # the confirmation battles' seed: seed + this
RACED = 32  # candidates that enter the race, the highest levels first
DRAFT_SALT = 7_919  # drafts draw from seeds of their own: seed * salt + d, never a battle's


@dataclass(frozen=True)
class Drafted:
    """A team one seat of one draft took, with the draft that gave it."""

    cards: tuple[Card, ...]
    draft: int  # the deal's number
    drafters: tuple[str, str]  # the first and the second drafter's policy
    seat: int  # 0: drafted first
    pyramid: tuple[Card, ...]
    picks: tuple[tuple[int, Card], ...]

    @property
    def levels(self) -> int:
        return sum(c.level for c in self.cards)

    @property
    def key(self) -> frozenset[str]:
        return frozenset(c.name for c in self.cards)

    @property
    def drafted_by(self) -> str:
        return self.drafters[self.seat]

    def text(self, name: str, cards_line: str, entity: Card | None) -> str:
        """The candidate as a team file, its draft recorded so that validate replays it."""
        lines = [
            f"# Drafted by `deckkit build` (draft {self.draft}: {self.drafters[0]} first, "
            f"{self.drafters[1]} second); levels {self.levels}.",
            "game: animus",
            f"name: {name}",
            f"cards: {cards_line}",
            *([f"entity: {entity.name}"] if entity is not None else []),
            f"drafted: {'first' if self.seat == 0 else 'second'}",
            "",
            "[team]",
            *(c.name for c in self.cards),
            "",
            "[pyramid]  # back row first",
            *(c.name for c in self.pyramid),
            "",
            "[picks]  # in draft order, both players",
            *(c.name for _, c in self.picks),
        ]
        return "\n".join(lines) + "\n"


def candidates(card_set: CardSet, drafts: int, seed: int, options: RuleOptions) -> list[Drafted]:
    """Both seats of ``drafts`` seeded drafts under every pair of drafting policies, each team
    once (the first draft to give it), the highest levels first."""
    found: dict[frozenset[str], Drafted] = {}
    names = sorted(DRAFT_POLICIES)
    for d in range(drafts):
        for first in names:
            for second in names:
                chance = SeededChance.for_game(seed * DRAFT_SALT + d, 0)
                seats = (DRAFT_POLICIES[first](), DRAFT_POLICIES[second]())
                result = draft(card_set, seats, chance, options)
                # drafter 0 of the result (who picked first) is seats[result.first]
                order = (first, second) if result.first == 0 else (second, first)
                for drafter in (0, 1):
                    team = Drafted(
                        result.team(drafter), d, order, drafter, result.pyramid, result.picks
                    )
                    found.setdefault(team.key, team)
    return sorted(found.values(), key=lambda t: (-t.levels, sorted(t.key)))


@dataclass
class Raced:
    candidate: Drafted
    games: int = 0
    score: float = 0.0

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0


Battles = Callable[[Drafted, Team, int, int, int], tuple[int, int, int]]


def battles(entity: Card | None, options: RuleOptions, policy: str, vs_policy: str) -> Battles:
    """``n`` battles of a candidate (with ``entity``) against a field team from battle index
    ``first`` of ``seed``: (wins, draws, losses)."""

    def play(cand: Drafted, field: Team, n: int, seed: int, first: int) -> tuple[int, int, int]:
        lineups = (Lineup(cand.cards, entity), Lineup(field.cards, field.entity))
        wins = draws = 0
        for i in range(first, first + n):
            policies = (make_policy(policy), make_policy(vs_policy))
            rec = play_battle(lineups, options, SeededChance.for_game(seed, i), policies)
            wins += rec.winner == 0
            draws += rec.winner is None
        return wins, draws, n - wins - draws

    return play


def race(
    found: Sequence[Drafted], field: Sequence[Team], play: Battles, *, games: int, seed: int
) -> list[Raced]:
    """Successive halving over the first candidates: each round every survivor plays its share
    of ``games`` against each field team on the same battles (indices after those of earlier
    rounds), the worse half dropped; the ranking of the last round first."""
    alive = [Raced(c) for c in found[:RACED]]
    rounds = max(1, (len(alive) - 1).bit_length())
    per_round = max(1, games // rounds)
    dropped: list[Raced] = []
    played = 0
    while True:
        n = max(1, per_round // (len(alive) * max(1, len(field))))
        for r in alive:
            for team in field:
                wins, draws, _ = play(r.candidate, team, n, seed, played)
                r.games += n
                r.score += wins + 0.5 * draws
        played += n
        alive.sort(key=lambda r: (-r.rate, -r.candidate.levels, sorted(r.candidate.key)))
        if len(alive) <= 1:
            break
        keep = (len(alive) + 1) // 2
        dropped = alive[keep:] + dropped
        alive = alive[:keep]
    return alive + dropped


def confirm(
    best: Drafted, field: Sequence[Team], play: Battles, *, games: int, seed: int
) -> dict[str, Any]:
    """The winner's rate on fresh battles (seed + :data:`CONFIRMATION_SEED_OFFSET`) against
    each field team and over all (a draw counting half)."""
    fresh = seed + CONFIRMATION_SEED_OFFSET
    n = max(1, games // max(1, len(field)))
    per = []
    total = wins = draws = 0
    for team in field:
        w, d, _ = play(best, team, n, fresh, 0)
        per.append({"vs": team.name, "games": n, "win": rate_json(proportion(w, n)), "draws": d})
        total, wins, draws = total + n, wins + w, draws + d
    return {
        "seed": fresh,
        "games": total,
        "win": rate_json(proportion(wins, total)),
        "draw": rate_json(proportion(draws, total)),
        "ci_method": CI_METHOD,
        "confidence": CONFIDENCE,
        "per_team": per,
    }
