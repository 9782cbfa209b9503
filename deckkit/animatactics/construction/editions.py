"""The party rules' numbers per edition, read from ``editions.toml`` (rules as data)."""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

from deckkit.errors import CardDataError, UsageError

EDITIONS_FILE = Path(__file__).with_name("editions.toml")
EDITIONS: tuple[str, ...] = ("saga1", "later")
DEFAULT_EDITION = "saga1"


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    source: str
    levels_min: int
    levels_max: int
    levels_default: int
    advantages_cost: str  # "levels" or "advantage_points"
    advantage_points: tuple[tuple[int, int], ...] = ()  # (force levels, points), ascending
    agent_cap: tuple[tuple[int, int], ...] = ()

    @property
    def points_budget(self) -> bool:
        return self.advantages_cost == "advantage_points"

    def _step(self, table: tuple[tuple[int, int], ...], levels: int) -> tuple[int, int] | None:
        fitting = [(size, v) for size, v in table if size <= levels]
        return fitting[-1] if fitting else None

    def advantage_points_for(self, levels: int) -> tuple[int, int] | None:
        """(force size, advantage points) for a game of ``levels``."""
        return self._step(self.advantage_points, levels)

    def agents_allowed(self, levels: int) -> int | None:
        step = self._step(self.agent_cap, levels)
        return None if not self.agent_cap else (step[1] if step else 0)


@functools.cache
def load_edition(name: str) -> Edition:
    if name not in EDITIONS:
        raise UsageError(f"unknown edition {name!r}", hint=f"editions: {', '.join(EDITIONS)}")
    try:
        data = tomllib.loads(EDITIONS_FILE.read_text(encoding="utf-8"))[name]

        def table(key: str) -> tuple[tuple[int, int], ...]:
            return tuple(sorted((int(k), int(v)) for k, v in data.get(key, {}).items()))

        return Edition(
            name=name,
            title=str(data["title"]),
            source=str(data["source"]),
            levels_min=int(data["levels_min"]),
            levels_max=int(data["levels_max"]),
            levels_default=int(data["levels_default"]),
            advantages_cost=str(data["advantages_cost"]),
            advantage_points=table("advantage_points"),
            agent_cap=table("agent_cap"),
        )
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError) as err:
        raise CardDataError(f"broken edition {name!r}: {err}", path=EDITIONS_FILE) from err
