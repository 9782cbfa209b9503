"""How far each alternative reading of the rules moves a result, for any game through its
interface (:class:`deckkit.core.game.Game`): two parties or two teams meet on the same game
indices of one seed under the readings as played and under each other value of each rule
option, one option changed at a time; every row is the paired difference of the first side's
win rate (:mod:`deckkit.analysis.paired`), in the shape of Ani-Mayhem's table
(:mod:`deckkit.analysis.sensitivity`). Imports no game: the game is handed in.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deckkit.analysis.paired import METHOD, paired_difference
from deckkit.analysis.sensitivity import ReadingEffect
from deckkit.core import workers as core
from deckkit.core.game import Game, Record


@dataclass(frozen=True, slots=True)
class RecordGames:
    """A run's factory for the workers: game ``index`` of the seed, as the game's record."""

    game: Game
    setup: Any

    def __call__(self) -> core.PlayFn:
        return functools.partial(self.game.play, self.setup)


@dataclass(slots=True)
class GamesCount:
    """The tally of a run whose rows are kept (one outcome per game)."""

    games: int = 0

    def add(self, record: Record) -> None:
        self.games += 1

    def merged(self, other: GamesCount) -> GamesCount:
        return GamesCount(self.games + other.games)


class OutcomeRows:
    """Each record's row: its outcome."""

    def tally(self) -> GamesCount:
        return GamesCount()

    def row(self, record: Record) -> tuple[str]:
        return (record.outcome,)


def first_side_wins(
    game: Game,
    entries: Sequence[Any],
    *,
    player: str | None,
    rules: Mapping[str, str],
    games: int,
    seed: int,
    workers: int,
) -> list[bool]:
    """Games ``0..games-1`` of the seed under ``rules``: whether the first side won each."""
    setup = game.prepare(entries, player=player, rules=rules)
    played = core.play_games(
        RecordGames(game, setup), OutcomeRows(), games=games, seed=seed,
        workers=core.capped_workers(workers), keep_rows=True,
    )  # fmt: skip
    if played.interrupted or played.rows is None:
        raise KeyboardInterrupt
    win = game.outcomes[0]
    return [row[0] == win for row in played.rows]


def measure(
    game: Game,
    entries: Sequence[Any],
    *,
    options: Sequence[str],
    rules: Mapping[str, str],
    player: str | None,
    games: int,
    seed: int,
    workers: int,
) -> dict[str, Any]:
    """The sensitivity table of two sides as a document: ``rules`` the settings as played (the
    rest at their defaults), ``options`` the rule options to vary (each of their other values,
    one at a time)."""
    choices = {c.name: c for c in game.rule_options()}
    played = {name: rules.get(name, choices[name].default) for name in options}
    as_played = {**rules, **played}

    def wins(settings: Mapping[str, str]) -> list[bool]:
        return first_side_wins(
            game, entries, player=player, rules=settings, games=games, seed=seed,
            workers=workers,
        )  # fmt: skip

    with core.shared_pool(core.capped_workers(workers)):
        base = wins(as_played)
        effects = [
            ReadingEffect(
                name, value, played[name], paired_difference(base, wins({**as_played, name: value}))
            )
            for name in options
            for value in choices[name].values
            if value != played[name]
        ]
    return {
        "game": game.name,
        "games": games,
        "rules": as_played,
        "win_rate": sum(base) / len(base) if base else None,
        "readings": [{**e.as_dict(), "summary": choices[e.option].summary} for e in effects],
        "method": METHOD + "; one rule option changed at a time, the others as played",
    }
