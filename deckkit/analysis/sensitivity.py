"""How far each alternative reading of the rules moves a deck's win rate.

The rule documents disagree with themselves in places; deckkit plays one reading of each such
place by default (for Ani-Mayhem, animayhem.construction.readings: the game gives the readings
and builds each setup, so this module serves any game with rule options). Here the deck plays
the same game indices of one seed under the defaults and under each alternative reading, one
option changed at a time, and each difference comes from the paired outcomes
(:mod:`deckkit.analysis.paired`): a reading that never changes a game shows as 0 with a narrow
interval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deckkit.analysis.impact import WinSource, estimate, wins_by_index
from deckkit.analysis.paired import METHOD, PairedDifference
from deckkit.analysis.runner import GameFactory


@dataclass(frozen=True)
class ReadingEffect:
    """One alternative reading: the option, the value played instead of ``default``, and the
    paired difference (alternative minus default)."""

    option: str
    value: str
    default: str
    result: PairedDifference

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.option,
            "value": self.value,
            "default": self.default,
            "setting": f"{self.option}={self.value}",
            **self.result.as_dict(),
        }


def measure(
    base: GameFactory,
    reading: Callable[[str, str], GameFactory],
    alternatives: Sequence[tuple[str, str]],
    rules: Mapping[str, str],
    *,
    games: int,
    seed: int,
    workers: int,
) -> tuple[WinSource, list[ReadingEffect]]:
    """The deck's games as played (``base``; ``rules``: every option's value, as played) and,
    for each (option, value) of ``alternatives``, the games of the setup ``reading(option,
    value)`` builds (that one option changed): the paired difference over ``games`` games. The
    game says which readings it has (for Ani-Mayhem, animayhem.construction.readings)."""
    played = wins_by_index(base, seed=seed, workers=workers)
    out: list[ReadingEffect] = []
    for name, value in alternatives:
        other = wins_by_index(reading(name, value), seed=seed, workers=workers)
        result = estimate(played, other, games=games)
        out.append(ReadingEffect(name, value, rules[name], result))
    return played, out


def sensitivity_document(
    effects: list[ReadingEffect],
    base: WinSource,
    games: int,
    rules: Mapping[str, str],
    summaries: Mapping[str, str],
) -> dict[str, Any]:
    """The table as data, for JSON and the HTML report (``summaries``: each option's one-line
    description)."""
    rows = base.first(games)
    wins = sum(1 for w in rows if w)
    return {
        "games": games,
        "rules": dict(rules),
        "win_rate": wins / len(rows) if rows else None,
        "readings": [{**e.as_dict(), "summary": summaries[e.option]} for e in effects],
        "method": METHOD + "; one rule option changed at a time, the others as played",
    }
