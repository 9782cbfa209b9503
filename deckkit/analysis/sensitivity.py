"""How far each alternative reading of the rules moves a deck's win rate.

The rule documents disagree with themselves in places; deckkit plays one reading of each such
place by default (animayhem.construction.readings). Here the deck plays the same game indices
of one seed under the defaults and under each alternative reading, one option changed at a time,
and each difference comes from the paired outcomes (:mod:`deckkit.analysis.paired`): a reading
that never changes a game shows as 0 with a narrow interval.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from deckkit.analysis.impact import WinSource, estimate, wins_by_index
from deckkit.analysis.paired import METHOD, PairedDifference
from deckkit.analysis.runner import GameFactory
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.readings import BY_NAME, alternatives, apply_rules


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
    edition: Edition,
    rules: dict[str, str],
    factory_for: Callable[[Edition], GameFactory],
    *,
    games: int,
    seed: int,
    workers: int,
    only: Collection[str] | None = None,
) -> tuple[WinSource, list[ReadingEffect]]:
    """The deck's games under ``rules`` (every option's value, as played) and, for each other
    value of each option (those named in ``only``, when given), the paired difference over
    ``games`` games."""
    base = wins_by_index(factory_for(edition), seed=seed, workers=workers)
    out: list[ReadingEffect] = []
    for name, value in alternatives(edition, rules, only):
        changed = apply_rules(edition, {**rules, name: value})
        other = wins_by_index(factory_for(changed), seed=seed, workers=workers)
        result = estimate(base, other, games=games)
        out.append(ReadingEffect(name, value, rules[name], result))
    return base, out


def sensitivity_document(
    effects: list[ReadingEffect], base: WinSource, games: int, rules: dict[str, str]
) -> dict[str, Any]:
    """The table as data, for JSON and the HTML report."""
    rows = base.first(games)
    wins = sum(1 for w in rows if w)
    return {
        "games": games,
        "rules": dict(rules),
        "win_rate": wins / len(rows) if rows else None,
        "readings": [{**e.as_dict(), "summary": BY_NAME[e.option].summary} for e in effects],
        "method": METHOD + "; one rule option changed at a time, the others as played",
    }
