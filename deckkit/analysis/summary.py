"""Folding many games into counts, and turning counts into honest estimates.

A :class:`Tally` holds only integers (counts, sums, sums of squares, minima and maxima), so adding
games and merging tallies is exact, associative and commutative: however the games were spread
over worker processes and in whatever order the chunks came back, the merged tally, and every
number derived from it, is the same. Its size depends on the deck (card ids x counters), never on
the number of games, which is what keeps a 10-million-game run in flat memory.

:func:`summarize` turns a tally into rates with 95% confidence intervals. Rates use the Wilson
score interval: unlike the textbook normal interval it stays inside [0, 1] and keeps close to its
nominal coverage when a rate is near 0 or 1 (a deck that almost never stalls), and it is less
conservative than Clopper-Pearson. Its closed formula needs only a normal quantile, so it is
computed here with the standard library (importing ``scipy.stats`` costs about a second of a
short command's start-up); a test checks it against ``scipy.stats.binomtest(...).proportion_ci(
method="wilson")``. Mean turns get a Student-t interval from the exact integer sums, its quantile
scipy's (``scipy.special.stdtrit``, what ``scipy.stats.t.ppf`` calls), imported when the first
interval of a mean is computed (:mod:`deckkit.core.estimates`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

# The rates and means every game shares live below the games (deckkit.core.estimates).
from deckkit.core.estimates import CI_METHOD as CI_METHOD
from deckkit.core.estimates import CI_METHOD_LABEL as CI_METHOD_LABEL
from deckkit.core.estimates import CONFIDENCE as CONFIDENCE
from deckkit.core.estimates import MeanEstimate as MeanEstimate
from deckkit.core.estimates import Rate as Rate
from deckkit.core.estimates import mean_estimate as mean_estimate
from deckkit.core.estimates import proportion as proportion
from deckkit.core.estimates import rate_json as rate_json
from deckkit.core.estimates import t_quantile as t_quantile
from deckkit.core.estimates import wilson_interval as wilson_interval

# What a report knows of a counted card (its game gives it: deckkit.core.game.CardRuns).
from deckkit.core.game import CardInfo as CardInfo

# (card id, counter): the counter is one of the game's names for what happened to a card.
CounterKey = tuple[str, str]
K = TypeVar("K")


class Played(Protocol):
    """One finished game as a :class:`Tally` counts it (Ani-Mayhem's engine record has this
    shape): ``counters`` maps (card id, counter) to its count in the game; ``index`` may be
    renumbered (a batch of games played from an offset)."""

    index: int

    @property
    def outcome(self) -> str: ...

    @property
    def turns(self) -> int: ...

    @property
    def items_in_play(self) -> int: ...

    @property
    def items_retrieved(self) -> int: ...

    @property
    def items_lost(self) -> int: ...

    @property
    def end_reason(self) -> str: ...

    @property
    def counters(self) -> Mapping[Any, int]: ...


def _min(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else min(a, b)


def _add_counts(mine: dict[K, int], theirs: Mapping[K, int]) -> None:
    for key, n in theirs.items():
        mine[key] = mine.get(key, 0) + n


def _max(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else max(a, b)


@dataclass(slots=True)
class Tally:
    """Exact integer totals over a set of games; the unit workers send back and the parent
    merges. Every field combines by ``+`` (or ``min``/``max``), so merge order never matters."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    stalls: int = 0
    undecided: int = 0  # ended with neither side holding a majority (majority_undecided)
    turns_sum: int = 0
    turns_sq_sum: int = 0
    turns_min: int | None = None
    turns_max: int | None = None
    items_in_play_sum: int = 0
    items_retrieved_sum: int = 0
    items_lost_sum: int = 0
    end_reasons: dict[str, int] = field(default_factory=dict)
    # (card id, stat) -> total over all games, and -> number of games where it was non-zero
    card_totals: dict[CounterKey, int] = field(default_factory=dict)
    card_games: dict[CounterKey, int] = field(default_factory=dict)

    @classmethod
    def of(cls, records: Iterable[Played]) -> Tally:
        """A tally of the given games."""
        tally = cls()
        for record in records:
            tally.add(record)
        return tally

    def add(self, record: Played) -> None:
        """Count one finished game."""
        self.games += 1
        if record.outcome == "win":
            self.wins += 1
        elif record.outcome == "loss":
            self.losses += 1
        elif record.outcome == "stall":
            self.stalls += 1
        elif record.outcome == "undecided":
            self.undecided += 1
        else:  # an engine bug must not silently skew the rates
            raise ValueError(f"game {record.index}: unknown outcome {record.outcome!r}")
        turns = record.turns
        self.turns_sum += turns
        self.turns_sq_sum += turns * turns
        self.turns_min = _min(self.turns_min, turns)
        self.turns_max = _max(self.turns_max, turns)
        self.items_in_play_sum += record.items_in_play
        self.items_retrieved_sum += record.items_retrieved
        self.items_lost_sum += record.items_lost
        self.end_reasons[record.end_reason] = self.end_reasons.get(record.end_reason, 0) + 1
        totals, seen = self.card_totals, self.card_games
        for key, n in record.counters.items():
            if n:
                totals[key] = totals.get(key, 0) + n
                seen[key] = seen.get(key, 0) + 1

    def merge(self, other: Tally) -> None:
        """Add ``other``'s games to this tally, in place."""
        self.games += other.games
        self.wins += other.wins
        self.losses += other.losses
        self.stalls += other.stalls
        self.undecided += other.undecided
        self.turns_sum += other.turns_sum
        self.turns_sq_sum += other.turns_sq_sum
        self.turns_min = _min(self.turns_min, other.turns_min)
        self.turns_max = _max(self.turns_max, other.turns_max)
        self.items_in_play_sum += other.items_in_play_sum
        self.items_retrieved_sum += other.items_retrieved_sum
        self.items_lost_sum += other.items_lost_sum
        _add_counts(self.end_reasons, other.end_reasons)
        _add_counts(self.card_totals, other.card_totals)
        _add_counts(self.card_games, other.card_games)

    def merged(self, other: Tally) -> Tally:
        """A new tally of both; neither input changes. The runner swaps its running total for
        the result in one assignment, so a Ctrl-C mid-merge cannot leave it half-updated."""
        out = self.copy()
        out.merge(other)
        return out

    def copy(self) -> Tally:
        return Tally(
            games=self.games,
            wins=self.wins,
            losses=self.losses,
            stalls=self.stalls,
            undecided=self.undecided,
            turns_sum=self.turns_sum,
            turns_sq_sum=self.turns_sq_sum,
            turns_min=self.turns_min,
            turns_max=self.turns_max,
            items_in_play_sum=self.items_in_play_sum,
            items_retrieved_sum=self.items_retrieved_sum,
            items_lost_sum=self.items_lost_sum,
            end_reasons=dict(self.end_reasons),
            card_totals=dict(self.card_totals),
            card_games=dict(self.card_games),
        )


def card_catalog(entry: Any) -> dict[str, CardInfo]:
    """Card id -> name, type and counters for every card of an Ani-Mayhem deck (counters are
    keyed by id), as the game's :class:`~deckkit.core.game.CardRuns` gives them."""
    from deckkit.games import card_runs

    return card_runs().card_catalog(entry)


@dataclass(frozen=True, slots=True)
class CardSummary:
    """One card's counters: totals over all games, per-game means, and in how many games each
    counter was non-zero."""

    key: str  # the card's name, or "name (id)" where two cards share a name, or a bare id
    id: str
    name: str | None
    type: str | None
    totals: dict[str, int]
    per_game: dict[str, float | None]
    games_with: dict[str, int]


@dataclass(frozen=True, slots=True)
class Summary:
    """Everything a run established, derived only from a :class:`Tally` and the deck."""

    games: int
    wins: Rate
    losses: Rate
    stalls: Rate
    undecided: Rate
    turns: MeanEstimate
    mean_items_in_play: float | None
    mean_items_retrieved: float | None
    mean_items_lost: float | None
    end_reasons: dict[str, int]
    cards: tuple[CardSummary, ...]
    ci_method: str = CI_METHOD
    confidence: float = CONFIDENCE

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready statistics (the CLI adds run metadata around them)."""

        from deckkit.games import card_runs

        code_of = card_runs().end_reason_code

        def ci(rate: Rate) -> list[float] | None:
            return list(rate.ci) if rate.ci is not None else None

        return {
            "games": self.games,
            "wins": self.wins.count,
            "losses": self.losses.count,
            "stalls": self.stalls.count,
            "undecided": self.undecided.count,
            "win_rate": self.wins.rate,
            "win_rate_ci": ci(self.wins),
            "loss_rate": self.losses.rate,
            "loss_rate_ci": ci(self.losses),
            "stall_rate": self.stalls.rate,
            "stall_rate_ci": ci(self.stalls),
            "undecided_rate": self.undecided.rate,
            "undecided_rate_ci": ci(self.undecided),
            "ci_method": self.ci_method,
            "confidence": self.confidence,
            # The same rates in the shape every deckkit document uses (count, n, rate, ci).
            "outcomes": {
                "win": rate_json(self.wins),
                "loss": rate_json(self.losses),
                "stall": rate_json(self.stalls),
                "undecided": rate_json(self.undecided),
            },
            "mean_turns": self.turns.mean,
            "turns": {
                "mean": self.turns.mean,
                "std": self.turns.std,
                "ci": list(self.turns.ci) if self.turns.ci is not None else None,
                "min": self.turns.min,
                "max": self.turns.max,
            },
            "mean_items_in_play": self.mean_items_in_play,
            "mean_items_retrieved": self.mean_items_retrieved,
            "mean_items_lost": self.mean_items_lost,
            "end_reasons": [
                {"code": code_of(reason), "reason": reason, "games": n}
                for reason, n in self.end_reasons.items()
            ],
            "cards": {
                c.id: {
                    "id": c.id,
                    "name": c.name,
                    "type": c.type,
                    "totals": c.totals,
                    "per_game": c.per_game,
                    "games_with": c.games_with,
                }
                for c in self.cards
            },
        }


def _card_summaries(tally: Tally, catalog: Mapping[str, CardInfo]) -> tuple[CardSummary, ...]:
    stats_of: dict[str, list[str]] = {}
    for known in catalog.values():
        if known.stats:
            stats_of[known.id] = list(known.stats)
    for card_id, stat in tally.card_totals:  # counters the engine kept beyond the defaults
        listed = stats_of.setdefault(card_id, [])
        if stat not in listed:
            listed.append(stat)

    name_uses: dict[str, int] = {}
    for card_id in stats_of:
        if card_id in catalog:
            name = catalog[card_id].name
            name_uses[name] = name_uses.get(name, 0) + 1

    unknown = max((info.rank for info in catalog.values()), default=0) + 1  # after the known

    def order(card_id: str) -> tuple[int, str, str]:
        info = catalog.get(card_id)
        if info is None:
            return (unknown, card_id, card_id)
        return (info.rank, info.name.casefold(), card_id)

    n = tally.games
    out: list[CardSummary] = []
    for card_id in sorted(stats_of, key=order):
        info = catalog.get(card_id)
        if info is None:
            key = card_id
        elif name_uses[info.name] > 1:
            key = f"{info.name} ({card_id})"
        else:
            key = info.name
        totals = {str(s): tally.card_totals.get((card_id, s), 0) for s in stats_of[card_id]}
        out.append(
            CardSummary(
                key=key,
                id=card_id,
                name=info.name if info else None,
                type=str(info.type) if info else None,
                totals=totals,
                per_game={s: (t / n if n else None) for s, t in totals.items()},
                games_with={
                    str(s): tally.card_games.get((card_id, s), 0) for s in stats_of[card_id]
                },
            )
        )
    return tuple(out)


def summarize(tally: Tally, catalog: Mapping[str, CardInfo] | None = None) -> Summary:
    """Rates with Wilson intervals, means, and per-card statistics of a tally."""
    n = tally.games

    def mean(total: int) -> float | None:
        return total / n if n else None

    return Summary(
        games=n,
        wins=proportion(tally.wins, n),
        losses=proportion(tally.losses, n),
        stalls=proportion(tally.stalls, n),
        undecided=proportion(tally.undecided, n),
        turns=mean_estimate(
            n, tally.turns_sum, tally.turns_sq_sum, tally.turns_min, tally.turns_max
        ),
        mean_items_in_play=mean(tally.items_in_play_sum),
        mean_items_retrieved=mean(tally.items_retrieved_sum),
        mean_items_lost=mean(tally.items_lost_sum),
        end_reasons=dict(sorted(tally.end_reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        cards=_card_summaries(tally, catalog or {}),
    )
