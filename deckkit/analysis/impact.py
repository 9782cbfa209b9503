"""What a card is worth to its deck: the change in win rate when one copy is taken out.

Each what-if deck is played on the same game indices and seed as the deck itself (common random
numbers), so the two runs are paired game by game (:mod:`deckkit.analysis.paired`). A copy is
*replaced* by default, by the most neutral card of its type that keeps the deck legal, because
a replacement keeps the deck's size and the card's place in its pile: the shuffles then match
and the pairing is tight. Removing the copy instead changes the pile sizes, so the games drift
apart and the interval is wider (and the deck may no longer be legal; the result says so).

"Most neutral" is a stated rule, not a judgement: among the database's cards of the same type
(for disasters, also the same combat and major flags) that the deck does not hold, whose text
the engine plays in full, prefer those with no encoded text effects, then the one whose printed
numbers (abilities, modifiers, damage and defense) sum closest to the median of its type, then
the lowest id; the first such card that leaves the deck legal is used.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from deckkit.analysis.paired import METHOD, PairedDifference, paired_difference
from deckkit.analysis.runner import GameFactory, run_games
from deckkit.animayhem.construction.cards import (
    AnyCard,
    CharacterCard,
    CombatCard,
    Coverage,
    DisasterCard,
    ItemCard,
    LocationCard,
    PowerCard,
)
from deckkit.animayhem.construction.deck import Deck, DeckEntry

if TYPE_CHECKING:  # polars is imported where frames are built
    import polars as pl

DEFAULT_BATCH = 500
MAX_CANDIDATES = 40  # legality checks per replacement search


def _modifier_sum(mods: Iterable[Any]) -> int:
    return sum(abs(m.value) for m in mods if m is not None and m.op == "+")


def printed_strength(card: AnyCard) -> float:
    """The sum of a card's printed numbers: the yardstick of "neutral"."""
    if isinstance(card, CharacterCard | DisasterCard):
        a = card.abilities
        return sum(v or 0 for v in (a.damage, a.defense, a.movement, a.charm, a.energy))
    if isinstance(card, LocationCard):
        return (card.damage or 0) + (card.defense or 0)
    if isinstance(card, PowerCard):
        return _modifier_sum(m for _, m in card.modifiers)
    if isinstance(card, CombatCard):
        p = card.physical
        return _modifier_sum((p.damage, p.defense, p.opp_damage, p.opp_defense))
    if isinstance(card, ItemCard):
        return card.tally
    return 0


def _same_kind(a: AnyCard, b: AnyCard) -> bool:
    if a.type != b.type:
        return False
    if isinstance(a, DisasterCard) and isinstance(b, DisasterCard):
        return (a.major, a.combat) == (b.major, b.combat)
    return True


def with_one_copy_changed(deck: Deck, card: AnyCard, replacement: AnyCard | None) -> Deck:
    """The deck with one copy of ``card`` replaced (in the same place) or removed."""
    entries: list[DeckEntry] = []
    done = False
    for entry in deck.entries:
        if not done and entry.card.id == card.id:
            done = True
            if entry.count > 1:
                entries.append(replace(entry, count=entry.count - 1))
            if replacement is not None:
                entries.append(DeckEntry(replacement, 1, entry.line, entry.section))
            continue
        entries.append(entry)
    if not done:
        raise ValueError(f"{card.name} is not in the deck")
    return replace(deck, entries=tuple(entries))


def neutral_replacement(
    deck: Deck,
    card: AnyCard,
    catalogue: Sequence[AnyCard],
    is_legal: Callable[[Deck], bool],
) -> AnyCard | None:
    """The most neutral card of ``card``'s kind that keeps ``deck`` legal (rule above)."""
    held = {e.card.id for e in deck.entries}
    kind = [c for c in catalogue if _same_kind(c, card)]
    if not kind:
        return None
    median = statistics.median(printed_strength(c) for c in kind)
    candidates = [c for c in kind if c.id not in held and c.coverage is Coverage.FULL]
    candidates.sort(key=lambda c: (c.effects is not None, abs(printed_strength(c) - median), c.id))
    for candidate in candidates[:MAX_CANDIDATES]:
        if is_legal(with_one_copy_changed(deck, card, candidate)):
            return candidate
    return None


class WinSource:
    """The games of one configuration by index, played on demand in batches: whether each was
    won, and the per-game rows (for the observational view)."""

    def __init__(self, play: Callable[[int, int], pl.DataFrame]) -> None:
        self._play = play  # (first index, games) -> per-game rows of those games
        self.won: list[bool] = []
        self.frames: list[pl.DataFrame] = []

    def first(self, n: int) -> list[bool]:
        if n > len(self.won):
            rows = self._play(len(self.won), n - len(self.won))
            self.frames.append(rows)
            self.won.extend(outcome == "win" for outcome in rows["outcome"].to_list())
        return self.won[:n]

    def rows(self) -> pl.DataFrame:
        """Every game played so far, in order (counter columns a batch lacks are zero)."""
        if not self.frames:
            raise ValueError("no games played yet")
        import polars as pl

        return pl.concat(self.frames, how="diagonal_relaxed").fill_null(0)


def estimate(
    base: WinSource,
    variant: WinSource,
    *,
    games: int,
    target_error: float | None = None,
    batch: int = DEFAULT_BATCH,
) -> PairedDifference:
    """Paired difference (variant minus base) over ``games`` games, or fewer when
    ``target_error`` is given and the interval's half-width falls to it first."""
    if target_error is None:
        return paired_difference(base.first(games), variant.first(games))
    n = 0
    while True:
        n = min(games, n + batch)
        result = paired_difference(base.first(n), variant.first(n))
        half = result.half_width
        if n >= games or (half is not None and half <= target_error):
            return result


@dataclass(frozen=True)
class CardImpact:
    """One card's what-if: which change, on which deck, and the paired result."""

    card: AnyCard
    replacement: AnyCard | None
    how: str  # "replaced by X (named)", "replaced by X (most neutral ...)", "removed"
    legal: bool  # whether the what-if deck is legal
    result: PairedDifference

    def as_dict(self) -> dict[str, Any]:
        r = self.result
        return {
            "card": self.card.name,
            "id": self.card.id,
            "type": str(self.card.type),
            "change": self.how,
            "kind": (
                "removed"
                if self.replacement is None
                else "named"
                if self.how.endswith("(named)")
                else "most neutral"
            ),
            "replacement": self.replacement.name if self.replacement else None,
            "legal_after": self.legal,
            "games": r.n,
            "win_rate_with": r.wins_a / r.n if r.n else None,
            "win_rate_without": r.wins_b / r.n if r.n else None,
            "difference": r.difference,
            "ci": list(r.ci) if r.ci else None,
            "p_value": r.p_value,
            "only_with_won": r.only_a,
            "only_without_won": r.only_b,
        }


def sort_impacts(impacts: Iterable[CardImpact]) -> list[CardImpact]:
    """Most valuable first: the largest drop in win rate when the card goes."""
    return sorted(impacts, key=lambda i: (i.result.difference or 0.0, i.card.name.casefold()))


def impact_document(
    impacts: Sequence[CardImpact], games: int, target: float | None
) -> dict[str, Any]:
    """The JSON shape of card impact (also the report's impact section)."""
    return {
        "method": (
            "Change in win rate when one copy of the card is taken out (replaced or removed), "
            f"with a 95% interval: {METHOD}. Negative: the deck wins less without it."
        ),
        "max_games": games,
        "target_error": target,
        "cards": [i.as_dict() for i in sort_impacts(impacts)],
    }


def wins_by_index(factory: GameFactory, *, seed: int, workers: int) -> WinSource:
    """A :class:`WinSource` playing games of ``factory`` with the runner (any ``workers`` give
    the same games); Ctrl-C stops the whole estimate."""

    def play(first: int, games: int) -> pl.DataFrame:
        result = run_games(
            factory, games=games, seed=seed, workers=workers, keep_rows=True, first=first
        )
        if result.interrupted or result.rows is None:
            raise KeyboardInterrupt
        return result.rows

    return WinSource(play)
