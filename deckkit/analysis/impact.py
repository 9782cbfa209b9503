"""What a card is worth to its deck: the change in win rate when one copy is taken out,
against a stated replacement level.

Each what-if deck is played on the same game indices and seed as the deck itself (common random
numbers), so the two runs are paired game by game (:mod:`deckkit.analysis.paired`). A copy is
*replaced* by default, because a replacement keeps the deck's size and the card's place in its
pile: the shuffles then match and the pairing is tight. Removing the copy instead changes the
pile sizes, so the games drift apart and the interval is wider (and the deck may no longer be
legal; the result says so).

A card's value depends on what replaces it, so the default replacement level is not one card
but the median over a few legal stand-ins of the same kind (the game's rule chooses them:
Ani-Mayhem's :mod:`deckkit.animayhem.construction.standins`): each stand-in is
measured on the same games, the card's value is the median stand-in's change (for an even
number, the lower of the middle two, so that value and interval belong to one measured
stand-in), and the spread (the smallest and largest change over the stand-ins) shows how much
the choice of replacement matters. A value is *supported* when its interval excludes zero and,
against stand-ins, every stand-in's change has the same sign. One named card
(``--replace-with``) or removal are the other replacement levels.

The measuring here knows no game: the cards are the game's own (read only for their id, name
and type), and the caller says how many stand-ins its game's rule gives a card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckkit.analysis.paired import METHOD, PairedDifference, paired_difference
from deckkit.analysis.runner import GameFactory, run_games
from deckkit.core.game import Card

if TYPE_CHECKING:  # polars is imported where frames are built
    import polars as pl

DEFAULT_BATCH = 500


def median_stand_in(results: Sequence[tuple[Card, PairedDifference]]) -> int:
    """The index of the median stand-in by change in win rate (the lower of the middle two
    for an even number; ties by the order given)."""
    order = sorted(range(len(results)), key=lambda i: (results[i][1].difference or 0.0, i))
    return order[(len(order) - 1) // 2]


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


LEVEL_STAND_INS = "median of stand-ins"
LEVEL_NAMED = "named card"
LEVEL_REMOVAL = "removal"


@dataclass(frozen=True)
class CardImpact:
    """One card's what-if: which change, on which deck, and the paired result (against stand-ins:
    the median stand-in's, with every stand-in's in ``stand_ins``)."""

    card: Card
    replacement: Card | None
    how: str  # "replaced by X (named)", "median of 5 stand-ins: ...", "removed"
    legal: bool  # whether the what-if deck is legal
    result: PairedDifference
    level: str = LEVEL_NAMED  # LEVEL_STAND_INS, LEVEL_NAMED or LEVEL_REMOVAL
    stand_ins: tuple[tuple[Card, PairedDifference], ...] = ()

    @property
    def spread(self) -> tuple[float, float] | None:
        """The smallest and largest change over the stand-ins."""
        values = [r.difference for _, r in self.stand_ins if r.difference is not None]
        return (min(values), max(values)) if values else None

    @property
    def supported(self) -> bool:
        """The interval excludes zero and, against stand-ins, every stand-in agrees in sign."""
        ci = self.result.ci
        if ci is None or ci[0] <= 0 <= ci[1]:
            return False
        spread = self.spread
        return spread is None or spread[0] > 0 or spread[1] < 0

    def as_dict(self) -> dict[str, Any]:
        r = self.result
        spread = self.spread
        return {
            "card": self.card.name,
            "id": self.card.id,
            "type": str(self.card.type),
            "change": self.how,
            "kind": (
                "removed"
                if self.replacement is None
                else "median stand-in"
                if self.level == LEVEL_STAND_INS
                else "named"
            ),
            "replacement_level": self.level,
            "stand_ins": [
                {
                    "card": c.name,
                    "id": c.id,
                    "games": d.n,
                    "difference": d.difference,
                    "ci": list(d.ci) if d.ci else None,
                }
                for c, d in self.stand_ins
            ],
            "spread": list(spread) if spread is not None else None,
            "supported": self.supported,
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


def level_text(level: str, replacement: Card | None = None, *, stand_ins: int) -> str:
    """The replacement level in words, for the outputs (``stand_ins``: the most a card is
    measured against)."""
    if level == LEVEL_STAND_INS:
        return (
            f"the median over up to {stand_ins} legal stand-ins of the same kind (the most "
            "neutral cards of the database: no text effects, printed numbers nearest their "
            "type's median), each named, with the spread of the change across them"
        )
    if level == LEVEL_REMOVAL:
        return "removal: the copy is taken out and not replaced"
    name = replacement.name if replacement is not None else "one named card"
    return f"one named card: {name}"


def impact_document(
    impacts: Sequence[CardImpact],
    games: int,
    target: float | None,
    *,
    level: str = LEVEL_STAND_INS,
    replacement: Card | None = None,
    cards_in_deck: int | None = None,
    stand_ins: int,
) -> dict[str, Any]:
    """The JSON shape of card impact (also the report's impact section); ``stand_ins`` is the
    most stand-ins the game's rule measures a card against."""
    return {
        "method": (
            "Change in win rate when one copy of the card is taken out (replaced or removed), "
            f"with a 95% interval: {METHOD}. Negative: the deck wins less without it."
        ),
        "replacement_level": level,
        "replacement_level_text": level_text(level, replacement, stand_ins=stand_ins),
        "stand_ins_per_card": stand_ins if level == LEVEL_STAND_INS else None,
        "supported_means": (
            "the 95% interval excludes zero"
            + (" and every stand-in's change has the same sign" if level == LEVEL_STAND_INS else "")
        ),
        "cards_measured": len(impacts),
        "cards_in_deck": cards_in_deck,
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
