"""The best legal Anima Tactics party for a level budget against a field (`deckkit build` for a
party).

Two stages, as deck building does for Ani-Mayhem: a cheap exact screen, then seeded games.

1. The screen. Every character's worth against the field is its level cost times its
   level-weighted mean exact duel value against the field's characters (:mod:`.matrix`): the
   levels it can expect to keep standing, the standard scenario's score ("the player with the
   most levels on the table at the end of 10 turns is the winner", rulebook, THE GOAL). That
   worth adds up over a party, so the best party of each legal grouping is a 0/1 knapsack over
   the level budget. The groupings are the party rules' (rulebook, Organizing your party): Light
   with Unaligned, Darkness with Unaligned, or every character of one organization (Wanderers
   form none). Each grouping's best party and its runners-up (the best party without one of
   the best's members) are the candidates; :func:`check_party` judges each, and only legal ones
   go on.
2. The race. With field parties given, the best-screened candidates play seeded party games
   against each field party (:func:`.parties.versus`: every candidate the same games, common
   random numbers); the worse half is dropped each round (successive halving) and the winner is
   confirmed on fresh games (another seed) it was not chosen on. Against the whole roster there
   is no party to play, and the screen's exact values are the answer.

The screen knows what the engine plays: stat lines and attacks (:mod:`.caveats`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckkit.animatactics.analysis.matrix import Entrant, entrant, roster
from deckkit.animatactics.construction.carddb import CardDB
from deckkit.animatactics.construction.cards import Faction
from deckkit.animatactics.construction.editions import Edition
from deckkit.animatactics.construction.legality import check_party
from deckkit.animatactics.construction.party import Member, Party
from deckkit.animatactics.engine.duel import duel
from deckkit.animatactics.engine.options import DEFAULT_RULES, RuleSet
from deckkit.errors import UsageError

CONFIRMATION_SEED_OFFSET = 1_000_003  # the confirmation games' seed: seed + this
RACED = 8  # candidates that enter the race, the best-screened first


@dataclass(frozen=True)
class Candidate:
    """A legal party the screen proposed, with its worth against the field."""

    members: tuple[Entrant, ...]
    grouping: str
    worth: float  # expected levels standing, by the screen

    @property
    def levels(self) -> int:
        return sum(m.levels for m in self.members)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.members)

    def party(self, name: str) -> Party:
        return Party(
            name=name,
            path=None,
            members=[Member(m.character, m.pilot, i + 1) for i, m in enumerate(self.members)],
        )

    def text(self, name: str, levels: int, edition: str) -> str:
        """The party as a party file."""
        lines = [
            "# Built by `deckkit build` (Anima Tactics): the screen's expected levels standing "
            f"{self.worth:.1f}.",
            "game: anima-tactics",
            f"name: {name}",
            f"levels: {levels}",
            f"edition: {edition}",
            "",
            "[characters]",
        ]
        for m in self.members:
            line = m.name + (f" with {m.pilot.name}" if m.pilot is not None else "")
            lines.append(f"{line:<36} # {m.levels}")
        return "\n".join(lines) + "\n"


@dataclass
class Raced:
    """A candidate's party games so far: wins count 1, draws 1/2, over every field party."""

    candidate: Candidate
    games: int = 0
    score: float = 0.0
    per_field: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0


def groupings(pool: Sequence[Entrant]) -> dict[str, list[Entrant]]:
    """The pool split into the groups a legal party may be drawn from (Organizing your party):
    Light with Unaligned, Darkness with Unaligned, or one organization whatever the factions."""
    neutral = (Faction.UNALIGNED, Faction.UNKNOWN)
    groups = {
        "Light and Unaligned": [
            e for e in pool if e.character.faction in (Faction.LIGHT, *neutral)
        ],
        "Darkness and Unaligned": [
            e for e in pool if e.character.faction in (Faction.DARKNESS, *neutral)
        ],
    }
    organizations = sorted(
        {a for e in pool for a in e.character.affiliations if a and a != "Wanderer"}
    )
    for org in organizations:
        groups[f"{org} only"] = [e for e in pool if org in e.character.affiliations]
    return {k: v for k, v in groups.items() if v}


def worths(
    pool: Sequence[Entrant],
    field_chars: Sequence[tuple[Entrant, float]],
    rules: RuleSet = DEFAULT_RULES,
) -> list[float]:
    """Each pool character's expected levels standing against the weighted field, by exact
    duels under ``rules``."""
    total = sum(w for _, w in field_chars) or 1.0
    out = []
    for e in pool:
        mean = (
            sum(
                w * duel(e.duellist, o.duellist, rules=rules, levels=(e.levels, o.levels)).value
                for o, w in field_chars
            )
            / total
        )
        out.append(e.levels * mean)
    return out


def knapsack(
    items: Sequence[Entrant], worth: dict[str, float], budget: int, banned: frozenset[str]
) -> tuple[Entrant, ...]:
    """The most worth within ``budget`` levels, each character at most once (exact 0/1
    knapsack over level costs; ties keep the earlier characters)."""
    best: list[tuple[float, tuple[int, ...]]] = [(0.0, ())] * (budget + 1)
    for i, e in enumerate(items):
        if e.name in banned or e.levels <= 0 or e.levels > budget:
            continue
        w = worth[e.name]
        for b in range(budget, e.levels - 1, -1):
            value, chosen = best[b - e.levels]
            if value + w > best[b][0] + 1e-12:
                best[b] = (value + w, (*chosen, i))
    top = max(best, key=lambda x: x[0])
    return tuple(items[i] for i in top[1])


def candidates(
    pool: Sequence[Entrant],
    field_chars: Sequence[tuple[Entrant, float]],
    edition: Edition,
    levels: int,
    rules: RuleSet = DEFAULT_RULES,
) -> list[Candidate]:
    """The legal candidates of the screen under ``rules``, best worth first (duplicates across
    groupings once)."""
    worth = dict(zip((e.name for e in pool), worths(pool, field_chars, rules), strict=True))
    seen: set[frozenset[str]] = set()
    found: list[Candidate] = []
    for grouping, items in groupings(pool).items():
        best = knapsack(items, worth, levels, frozenset())
        tries = [best] + [knapsack(items, worth, levels, frozenset({m.name})) for m in best]
        for members in tries:
            key = frozenset(m.name for m in members)
            if not members or key in seen:
                continue
            seen.add(key)
            cand = Candidate(members, grouping, sum(worth[m.name] for m in members))
            if check_party(cand.party("candidate"), edition, levels).legal:
                found.append(cand)
    found.sort(key=lambda c: (-c.worth, c.names))
    return found


def pool_of(db: CardDB, parties: Sequence[Party]) -> list[Entrant]:
    """The characters to build from: those of the given parties (a player's miniatures), else
    every character of the card data with stats."""
    if not parties:
        return roster(db)
    chosen: dict[str, Entrant] = {}
    for p in parties:
        for m in p.members:
            if m.character.complete:
                chosen.setdefault(m.character.name, entrant(m.character, m.pilot, db))
    if not chosen:
        raise UsageError("the pool parties hold no character with stats in the card data")
    return list(chosen.values())


def field_of(db: CardDB, parties: Sequence[Party]) -> list[tuple[Entrant, float]]:
    """The field's characters with their weights: each field party counts alike, its
    characters by their level share; without field parties, every roster character alike."""
    if not parties:
        return [(e, 1.0) for e in roster(db)]
    out: list[tuple[Entrant, float]] = []
    for p in parties:
        fighters = [entrant(m.character, m.pilot, db) for m in p.members if m.character.complete]
        total = sum(f.levels for f in fighters) or 1
        out.extend((f, f.levels / total) for f in fighters)
    return out


Versus = Callable[[Party, Party, int, int], dict[str, Any]]


def race(
    found: Sequence[Candidate],
    field_parties: Sequence[Party],
    versus: Versus,
    *,
    games: int,
    seed: int,
    on_games: Callable[[int], None] | None = None,
) -> list[Raced]:
    """Successive halving over the best-screened candidates: each round every survivor plays
    its share of ``games`` against each field party on the same seeded games, the worse half
    is dropped; the ranking of the last round first."""
    alive = [Raced(c) for c in found[:RACED]]
    rounds = max(1, (len(alive) - 1).bit_length())
    per_round = max(1, games // max(1, rounds))
    dropped: list[Raced] = []
    played = 0  # games of each survivor so far: the next round's indices start after them
    while True:
        n = max(1, per_round // (len(alive) * max(1, len(field_parties))))
        for r in alive:
            for fp in field_parties:
                doc = _games(versus, r.candidate, fp, n, seed, played)
                r.games += doc["games"]
                r.score += doc["win"]["count"] + 0.5 * doc["draw"]["count"]
                if on_games is not None:
                    on_games(doc["games"])
        played += n
        alive.sort(key=lambda r: (-r.rate, -r.candidate.worth, r.candidate.names))
        if len(alive) <= 1:
            break
        keep = (len(alive) + 1) // 2
        dropped = alive[keep:] + dropped
        alive = alive[:keep]
    return alive + dropped


def _games(
    versus: Versus, cand: Candidate, fp: Party, n: int, seed: int, first: int
) -> dict[str, Any]:
    """``n`` games of the candidate against a field party. Rounds after the first take a seed
    of their own (``seed`` + games played before), so no game repeats between rounds while
    every candidate of a round plays the same games."""
    return versus(cand.party("candidate"), fp, n, seed + first)


def confirm(
    best: Candidate,
    field_parties: Sequence[Party],
    versus: Versus,
    *,
    games: int,
    seed: int,
) -> dict[str, Any]:
    """The winner's rate on fresh games, a seed the race never used, against each field
    party, and over all of them (wins 1, draws 1/2)."""
    from deckkit.core.estimates import CI_METHOD, CONFIDENCE, proportion, rate_json

    total = wins = draws = 0
    per: dict[str, Any] = {}
    n = max(1, games // max(1, len(field_parties)))
    for fp in field_parties:
        doc = versus(best.party("candidate"), fp, n, seed + CONFIRMATION_SEED_OFFSET)
        per[fp.name] = {k: doc[k] for k in ("games", "win", "loss", "draw")}
        total += doc["games"]
        wins += doc["win"]["count"]
        draws += doc["draw"]["count"]
    return {
        "games": total,
        "seed": seed + CONFIRMATION_SEED_OFFSET,
        "win": rate_json(proportion(wins, total)),
        "draw": rate_json(proportion(draws, total)),
        "ci_method": CI_METHOD,
        "confidence": CONFIDENCE,
        "per_field": per,
    }
