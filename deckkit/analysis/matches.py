"""Runs of any game through its interface (:mod:`deckkit.core.game`): seeded games of a prepared
setup over the worker runner (:mod:`deckkit.core.workers`), folded into one tally of the shared
:class:`~deckkit.core.game.Record`, with one row per game when asked for.

This module imports no game: it reaches each by its registered name (:mod:`deckkit.games`), in
every worker too, so what travels to a worker is the game's name and its picklable setup.
Game ``index`` of a run seeded ``seed`` is the same game for any number of workers, and two
setups played on the same seed and indices draw from the same random stream (common random
numbers), which is what :mod:`deckkit.analysis.paired` compares.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckkit import games
from deckkit.core.estimates import mean_estimate, proportion, rate_json
from deckkit.core.game import Game, Record
from deckkit.core.workers import PlayFn, ProgressFn, Row, play_games

# One row per game: what a paired comparison and a saved run read; a saved run adds a column
# per (card or character, counter) the games counted, named "SIDE:NAME|COUNTER" as the records
# key them.
ROW_COLUMNS = ("game", "outcome", "end_reason", "turns")
# The Parquet key-value metadata key of a saved run of a game played through its interface (an
# Ani-Mayhem run's is deckkit.analysis.results.METADATA_KEY).
RUN_METADATA_KEY = "deckkit.match"


def interface_of(name: str) -> Game:
    """The registered game of this name's interface."""
    found = games.find_game(name)
    if found is None:
        raise ValueError(f"no game {name!r}")
    return games.game_interface(found)


@dataclass(frozen=True)
class InterfacePlay:
    """A worker's factory (:class:`deckkit.core.workers.GameFactory`): the game's name and a
    setup its :meth:`~deckkit.core.game.Game.prepare` made; in each process it plays games to
    the shared records."""

    game: str
    setup: Any

    def __call__(self) -> PlayFn:
        game = interface_of(self.game)
        setup = self.setup

        def play(seed: int, index: int) -> Record:
            return game.play(setup, seed, index)

        return play


@dataclass
class RecordTally:
    """Integer sums over records: outcomes, end reason codes, turns (sum, sum of squares, least
    and most), and every (card or character, counter) total."""

    games: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    end_reasons: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    turns_sq: int = 0
    turns_min: int | None = None
    turns_max: int | None = None
    counters: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, record: Record, /) -> None:
        self.games += 1
        self.outcomes[record.outcome] = self.outcomes.get(record.outcome, 0) + 1
        self.end_reasons[record.end_reason] = self.end_reasons.get(record.end_reason, 0) + 1
        self.turns += record.turns
        self.turns_sq += record.turns * record.turns
        self.turns_min = (
            record.turns if self.turns_min is None else min(self.turns_min, record.turns)
        )
        self.turns_max = (
            record.turns if self.turns_max is None else max(self.turns_max, record.turns)
        )
        for key, n in record.counters.items():
            self.counters[key] = self.counters.get(key, 0) + n

    def merged(self, other: RecordTally, /) -> RecordTally:
        def add(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
            out = dict(a)
            for k, n in b.items():
                out[k] = out.get(k, 0) + n
            return out

        lows = [t for t in (self.turns_min, other.turns_min) if t is not None]
        highs = [t for t in (self.turns_max, other.turns_max) if t is not None]
        return RecordTally(
            self.games + other.games,
            add(self.outcomes, other.outcomes),
            add(self.end_reasons, other.end_reasons),
            self.turns + other.turns,
            self.turns_sq + other.turns_sq,
            min(lows) if lows else None,
            max(highs) if highs else None,
            add(self.counters, other.counters),
        )


@dataclass(frozen=True)
class RecordRows:
    """The kind of the shared records (:class:`deckkit.core.workers.RecordKind`)."""

    def tally(self) -> RecordTally:
        return RecordTally()

    def row(self, record: Record, /) -> Row:
        return (record.index, record.outcome, record.end_reason, record.turns, record.counters)


@dataclass(frozen=True)
class Run:
    """A finished (or interrupted) run through the interface: the tally and, when kept, one row
    per game in game order (:data:`ROW_COLUMNS`)."""

    game: str
    tally: RecordTally
    rows: list[Row] | None
    seed: int
    interrupted: bool
    seconds: float

    def won(self) -> list[bool]:
        """Game by game, whether the first side won (rows kept)."""
        if self.rows is None:
            raise ValueError("the run kept no rows")
        return [row[1] == "win" for row in self.rows]


def run(
    game: str,
    setup: Any,
    *,
    games: int,
    seed: int,
    workers: int = 1,
    keep_rows: bool = False,
    progress: ProgressFn | None = None,
    first: int = 0,
) -> Run:
    """Games ``first..first+games-1`` of the run seeded ``seed`` on ``setup`` (the same for any
    ``workers``)."""
    played = play_games(
        InterfacePlay(game, setup),
        RecordRows(),
        games=games,
        seed=seed,
        workers=workers,
        keep_rows=keep_rows,
        progress=progress,
        first=first,
    )
    return Run(game, played.tally, played.rows, seed, played.interrupted, played.seconds)


def outcomes_json(tally: RecordTally, outcomes: Sequence[str]) -> dict[str, dict[str, object]]:
    """Every outcome the game has, as the one JSON shape of a rate (:func:`rate_json`)."""
    return {
        name: rate_json(proportion(tally.outcomes.get(name, 0), tally.games)) for name in outcomes
    }


def end_reasons_json(
    tally: RecordTally, names: Mapping[str, str] | None = None
) -> list[dict[str, object]]:
    """How the games ended, by the end reason's stable code (most games first), with the words
    beside it: the game's own (:attr:`deckkit.core.game.Game.end_reasons`), else the code's,
    spelled out."""
    said = names or {}
    return [
        {"code": code, "reason": said.get(code, code.replace("_", " ")), "games": n}
        for code, n in sorted(tally.end_reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def mean_turns(tally: RecordTally) -> float | None:
    return mean_estimate(tally.games, tally.turns, tally.turns_sq).mean


def counter_column(key: tuple[str, str]) -> str:
    return f"{key[0]}|{key[1]}"


def rows_frame(rows: Sequence[Row]) -> Any:
    """A polars frame of kept rows: :data:`ROW_COLUMNS`, then one integer column per counter
    any game counted (zero where a game did not), in name order."""
    import polars as pl

    keys = sorted({k for row in rows for k in row[4]})
    data: dict[str, list[Any]] = {
        name: [row[i] for row in rows] for i, name in enumerate(ROW_COLUMNS)
    }
    for key in keys:
        data[counter_column(key)] = [row[4].get(key, 0) for row in rows]
    schema = {"game": pl.Int64, "outcome": pl.String, "end_reason": pl.String, "turns": pl.Int64}
    schema.update({counter_column(k): pl.Int64 for k in keys})
    return pl.DataFrame(data, schema=schema)


StepFn = Callable[[str], Any]
