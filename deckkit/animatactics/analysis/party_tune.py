"""The swaps that raise an Anima Tactics party's win rate most against a field (`deckkit tune`
for a party), as `deckkit tune` does for an Ani-Mayhem deck: one character out, one in, raced
on paired games, the best confirmed on fresh ones.

A swap takes one member out (with the Equipment and Powers it bore) and puts one character of
the pool in (the characters of ``--pool`` parties, else every character the card data gives
stats for; Gear, which needs a pilot, is left out); only swaps after which the party is legal
under its edition and level total go on (:func:`check_party`, rulebook "Organizing your
party").

The race is paired: game ``i`` of a seed is played by the start party and by every swapped party
against the same field party (the same dice stream, :func:`.playing.play_game`), and a swap is
scored by its mean difference of scores (win 1, draw 1/2, loss 0) from the start's, game by
game. Every legal swap enters the race (no screen ranks them first); successive halving keeps
the better half each round on fresh game indices, so most games go to the best swaps. A swap that
beats the start is taken and the search goes on from the new party (``steps`` swaps at most);
then the start and the best party play fresh games of another seed, paired, and the gain comes
with its Student-t 95% interval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from math import sqrt
from typing import Any

from deckkit.animatactics.analysis.parties import versus_sides
from deckkit.animatactics.analysis.party_games import PartyGames
from deckkit.animatactics.construction.cards import Character
from deckkit.animatactics.construction.editions import Edition
from deckkit.animatactics.construction.legality import check_party
from deckkit.animatactics.construction.party import Member, Party
from deckkit.animatactics.engine.options import RuleSet
from deckkit.core.estimates import CONFIDENCE, t_quantile

CONFIRMATION_SEED_OFFSET = 1_000_003  # the confirmation games' seed: seed + this


@dataclass(frozen=True)
class Swap:
    out: str
    into: str
    party: Party


def swapped(party: Party, index: int, character: Character) -> Party:
    """``party`` with member ``index`` replaced by ``character``; the advantages it bore leave
    with it."""
    gone = party.members[index].character.name.casefold()
    members = list(party.members)
    members[index] = Member(character, None, party.members[index].line)
    return replace(
        party,
        members=members,
        advantages=[a for a in party.advantages if (a.bearer or "").casefold() != gone],
    )


def swaps(party: Party, pool: Sequence[Character], edition: Edition, levels: int) -> list[Swap]:
    """Every legal one-for-one swap of a member for a pool character not in the party."""
    have = {m.character.name.casefold() for m in party.members}
    out: list[Swap] = []
    for i, member in enumerate(party.members):
        for c in pool:
            if c.name.casefold() in have or not c.complete or c.is_gear:
                continue
            new = swapped(party, i, c)
            if check_party(new, edition, levels).legal:
                out.append(Swap(member.character.name, c.name, new))
    return out


Score = Callable[[Party, Party, int, int, int], list[float]]


def scorer(plan: Any, policy: str, vs_policy: str, rules: RuleSet) -> Score:
    """Games ``first .. first+n-1`` of seed ``seed`` of a party against a field party: the
    first party's score in each (win 1, draw 1/2, loss 0)."""

    def score(party: Party, vs: Party, seed: int, first: int, n: int) -> list[float]:
        setup = PartyGames(versus_sides(party, vs, plan, policy, vs_policy), rules)
        out = []
        for i in range(first, first + n):
            w = setup.play(seed, i).winner
            out.append(0.5 if w is None else 1.0 if w == 0 else 0.0)
        return out

    return score


@dataclass
class Raced:
    swap: Swap
    diffs: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.diffs) / len(self.diffs) if self.diffs else 0.0


def paired(diffs: Sequence[float]) -> dict[str, Any]:
    """Mean difference with its Student-t interval (the shape of common.schema.json's
    ``difference``)."""
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    if n < 2:
        return {"diff": mean, "ci": None, "n": n}
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = t_quantile(n - 1, 0.5 + CONFIDENCE / 2) * sqrt(var / n)
    return {"diff": mean, "ci": [mean - half, mean + half], "n": n}


def race(
    start: Party, found: Sequence[Swap], field_parties: Sequence[Party], score: Score, *,
    games: int, seed: int, offset: int, on_games: Callable[[int], None] | None = None,
) -> list[Raced]:  # fmt: skip
    """Successive halving over every swap, each scored by its paired difference from
    ``start`` on the same games; the ranking of the last round first.
    ``offset``: the game index this race starts at (each step of a search its own games);
    ``on_games``: told of each batch of games played (a progress bar)."""
    alive = [Raced(s) for s in found]
    rounds = max(1, (len(alive) - 1).bit_length())
    per_round = max(1, games // rounds)
    dropped: list[Raced] = []
    played = offset
    while alive:
        n = max(1, per_round // ((len(alive) + 1) * max(1, len(field_parties))))
        for fp in field_parties:
            base = score(start, fp, seed, played, n)
            if on_games is not None:
                on_games(n)
            for r in alive:
                mine = score(r.swap.party, fp, seed, played, n)
                r.diffs.extend(a - b for a, b in zip(mine, base, strict=True))
                if on_games is not None:
                    on_games(n)
        played += n
        alive.sort(key=lambda r: (-r.mean, r.swap.out, r.swap.into))
        if len(alive) <= 1:
            break
        keep = (len(alive) + 1) // 2
        dropped = alive[keep:] + dropped
        alive = alive[:keep]
    return alive + dropped


def confirm(
    start: Party, best: Party, field_parties: Sequence[Party], score: Score, *, games: int,
    seed: int, on_games: Callable[[int], None] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The start's and the best party's rates on the same fresh games (seed +
    :data:`CONFIRMATION_SEED_OFFSET`) and the paired gain; ``on_games`` as for :func:`race`."""
    fresh = seed + CONFIRMATION_SEED_OFFSET
    n = max(1, games // max(1, len(field_parties)))
    a: list[float] = []
    b: list[float] = []
    for fp in field_parties:
        a += score(start, fp, fresh, 0, n)
        b += score(best, fp, fresh, 0, n)
        if on_games is not None:
            on_games(2 * n)
    return {
        "seed": fresh,
        "games": len(a),
        "start": sum(a) / len(a),
        "best": sum(b) / len(b),
        "gain": paired([y - x for x, y in zip(a, b, strict=True)]),
    }


def party_text(party: Party, name: str, levels: int, edition: str, path: list[str]) -> str:
    """The party as a party file."""
    lines = [
        "# Tuned by `deckkit tune` (Anima Tactics): " + ("; ".join(path) or "no swap helped"),
        "game: anima-tactics",
        f"name: {name}",
        f"levels: {levels}",
        f"edition: {edition}",
        "",
        "[characters]",
    ]
    for m in party.members:
        line = m.character.name + (f" with {m.pilot.name}" if m.pilot is not None else "")
        lines.append(f"{line:<36} # {m.character.level_cost}")
    if party.advantages:
        lines += ["", "[advantages]"]
        for a in party.advantages:
            lines.append(a.advantage.name + (f" on {a.bearer}" if a.bearer else ""))
    return "\n".join(lines) + "\n"
