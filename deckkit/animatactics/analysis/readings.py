"""The engine's rule options (:class:`~deckkit.animatactics.engine.options.RuleSet`) from
``NAME=VALUE`` settings checked against rules.toml
(:mod:`deckkit.animatactics.construction.rules`), and back to the file's spelling."""

from __future__ import annotations

from collections.abc import Mapping

from deckkit.animatactics.construction.rules import by_name, check_setting, rule_options
from deckkit.animatactics.engine.options import RuleSet
from deckkit.errors import UsageError


def rule_set(settings: Mapping[str, str] | None = None, where: str = "--rule") -> RuleSet:
    """The engine's rule options: each option's default, overridden by ``settings`` (names
    that are not rule options of the engine, such as ``edition`` and ``levels``, are skipped)."""
    values = {o.name: o.default for o in rule_options()}
    for name, value in (settings or {}).items():
        if name in values:
            check_setting(name, value, where)
            values[name] = value
    return RuleSet(
        time_limit=values["time_limit"],
        counter_dodge=values["counter_dodge"] == "yes",
        opening_charge=values["opening_charge"] == "yes",
        initiative=values["initiative"],
        board=values["board"],
    )


def duel_rules(settings: Mapping[str, str] | None = None, where: str = "--rule") -> RuleSet:
    """:func:`rule_set` for the exact duel: an option the duel does not play, set to another
    value than its default, is refused naming the party games that play it."""
    options = by_name()
    for name, value in (settings or {}).items():
        option = options.get(name)
        if option is not None and not option.duel and value != option.default:
            raise UsageError(
                f"{where}: the exact duel does not play {name}={value}",
                hint="party games play it: add --vs PARTY",
            )
    return rule_set(settings, where)


def rules_dict(rules: RuleSet) -> dict[str, str]:
    """Every rule option's value as played, as rules.toml spells it."""

    def spelled(name: str) -> str:
        value = getattr(rules, name)
        return ("yes" if value else "no") if isinstance(value, bool) else str(value)

    return {o.name: spelled(o.name) for o in rule_options()}
