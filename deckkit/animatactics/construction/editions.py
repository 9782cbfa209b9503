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
    levels_default: int
    levels_suggested_min: int | None  # a smaller game draws a note, not a violation
    levels_suggested_max: int | None
    advantages_cost: str  # "levels" or "advantage_points"
    advantage_points: tuple[tuple[int, int], ...] = ()  # (force levels, points), ascending
    agent_cap: tuple[tuple[int, int], ...] = ()
    leader_cap: tuple[tuple[int, int], ...] = ()
    wanderer_cap: tuple[tuple[int, int], ...] = ()

    @property
    def points_budget(self) -> bool:
        return self.advantages_cost == "advantage_points"

    def _step(self, table: tuple[tuple[int, int], ...], levels: int) -> tuple[int, int] | None:
        fitting = [(size, v) for size, v in table if size <= levels]
        return fitting[-1] if fitting else None

    def advantage_points_for(self, levels: int) -> tuple[int, int] | None:
        """(force size, advantage points) for a game of ``levels``."""
        return self._step(self.advantage_points, levels)

    def _cap(self, table: tuple[tuple[int, int], ...], levels: int) -> int | None:
        """The cap of the force size a game of ``levels`` falls in; 0 below the smallest size,
        None when the edition sets no such cap."""
        step = self._step(table, levels)
        return None if not table else (step[1] if step else 0)

    def agents_allowed(self, levels: int) -> int | None:
        return self._cap(self.agent_cap, levels)

    def leaders_allowed(self, levels: int) -> int | None:
        return self._cap(self.leader_cap, levels)

    def wanderers_allowed(self, levels: int) -> int | None:
        return self._cap(self.wanderer_cap, levels)


@functools.cache
def load_edition(name: str) -> Edition:
    if name not in EDITIONS:
        raise UsageError(f"unknown edition {name!r}", hint=f"editions: {', '.join(EDITIONS)}")
    try:
        data = tomllib.loads(EDITIONS_FILE.read_text(encoding="utf-8"))[name]

        def optional(key: str) -> int | None:
            return int(data[key]) if key in data else None

        def table(key: str) -> tuple[tuple[int, int], ...]:
            return tuple(sorted((int(k), int(v)) for k, v in data.get(key, {}).items()))

        return Edition(
            name=name,
            title=str(data["title"]),
            source=str(data["source"]),
            levels_default=int(data["levels_default"]),
            levels_suggested_min=optional("levels_suggested_min"),
            levels_suggested_max=optional("levels_suggested_max"),
            advantages_cost=str(data["advantages_cost"]),
            advantage_points=table("advantage_points"),
            agent_cap=table("agent_cap"),
            leader_cap=table("leader_cap"),
            wanderer_cap=table("wanderer_cap"),
        )
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError) as err:
        raise CardDataError(f"broken edition {name!r}: {err}", path=EDITIONS_FILE) from err
