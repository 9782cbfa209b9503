"""Anima Tactics' rule options, read from ``rules.toml`` (rules as data): each option's values
(the default first), its one-line summary, the rulebook passage it reads and whether the exact
duel plays it (docs/interpretations.md, "Anima Tactics"). The engine's
:class:`~deckkit.animatactics.engine.options.RuleSet` of a set of settings is
:func:`deckkit.animatactics.analysis.readings.rule_set`'s."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from deckkit.errors import CardDataError, UsageError

RULES_FILE = Path(__file__).with_name("rules.toml")


@dataclass(frozen=True)
class RuleOption:
    """One reading the rulebook leaves open."""

    name: str
    values: tuple[str, ...]
    summary: str
    passage: str
    duel: bool  # the exact duel plays its other values (party games play every option)

    @property
    def default(self) -> str:
        return self.values[0]


@functools.cache
def rule_options() -> tuple[RuleOption, ...]:
    """Every option of rules.toml, in the file's order."""
    try:
        data = tomllib.loads(RULES_FILE.read_text(encoding="utf-8"))
        return tuple(
            RuleOption(
                name,
                tuple(str(v) for v in entry["values"]),
                str(entry["summary"]),
                str(entry["passage"]),
                bool(entry["duel"]),
            )
            for name, entry in data.items()
        )
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as err:
        raise CardDataError(f"{RULES_FILE}: {err}") from err


def by_name() -> dict[str, RuleOption]:
    return {o.name: o for o in rule_options()}


def check_setting(name: str, value: str, where: str = "--rule") -> None:
    """A usage error unless ``name`` is an option and ``value`` one of its values."""
    options = by_name()
    option = options.get(name)
    if option is None:
        raise UsageError(
            f"{where}: unknown rule option {name!r}", hint=f"options: {', '.join(options)}"
        )
    if value not in option.values:
        raise UsageError(
            f"{where}: rule {name} has no value {value!r}",
            hint=f"choose one of: {', '.join(option.values)}",
        )


def parse_settings(items: list[str] | None, where: str = "--rule") -> dict[str, str]:
    """``NAME=VALUE`` items checked against the options (the last item of a name wins; the CLI
    refuses two values for one name before this)."""
    out: dict[str, str] = {}
    for item in items or ():
        name, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not name or not value:
            raise UsageError(
                f"{where}: expected NAME=VALUE, not {item!r}", hint="e.g. time_limit=draw"
            )
        check_setting(name, value, where)
        out[name] = value
    return out


def rules_line(values: Mapping[str, str]) -> str:
    """The options set away from their defaults, for a line of text ("defaults" when none)."""
    defaults = {o.name: o.default for o in rule_options()}
    changed = [f"{k}={v}" for k, v in values.items() if defaults.get(k, v) != v]
    return ", ".join(changed) + " (others default)" if changed else "the defaults"


__all__ = [
    "RULES_FILE",
    "RuleOption",
    "by_name",
    "check_setting",
    "parse_settings",
    "rule_options",
    "rules_line",
]
