"""Rule options: the readings deckkit takes where the rule documents leave a choice, as switches.

Each option names one choice docs/interpretations.md records, its values, its default and the
passages it rests on. An option whose default is ``edition`` takes the value the chosen edition's
file sets (``[play]`` in ``editions/*.toml``); any other default is the same in every edition.
``--rule NAME=VALUE`` (repeatable), a deck header line ``rule: NAME=VALUE`` and a balance file's
``rules = {NAME = "VALUE"}`` set them; :func:`apply_rules` gives the edition the engine plays by.
The values are play-rule fields, so they travel with the edition to every worker process.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from deckkit.animayhem.construction.editions import Edition
from deckkit.errors import UsageError

EDITION_DEFAULT = "edition"


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One reading: its name, the values it takes, the default and where the texts leave it."""

    name: str
    field: str  # the PlayRules field it sets
    values: tuple[str, ...]  # an empty tuple: a whole number of at least 1
    default: str  # a value, or "edition"
    summary: str
    passages: str

    def check(self, value: str, where: str) -> str | int:
        """The value the engine uses, or a usage error naming ``where`` it came from."""
        if not self.values:
            try:
                number = int(value)
            except ValueError:
                number = 0
            if number < 1:
                raise UsageError(
                    f"{where}: rule {self.name} takes a whole number of at least 1, not {value!r}",
                    hint=f"e.g. --rule {self.name}={self.default}",
                )
            return number
        if value not in self.values:
            raise UsageError(
                f"{where}: rule {self.name} has no value {value!r}",
                hint=f"choose one of: {', '.join(self.values)}",
            )
        return value


RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "charm",
        "charm",
        ("choice", "first_automatic", "every", "off"),
        EDITION_DEFAULT,
        "Who starts charm battles against a disaster with charm. choice: the player declares "
        "them, character by character (set0, fifth2018); first_automatic: one charm battle is "
        "automatic when combat starts, the player picks the charmer, and further ones against a "
        "major disaster are the player's choice (general1996, guidelines1998); every: the "
        "disaster declares one against every character there; off: no charm battles.",
        'set0 rulebook "Charm Battle" ("you may declare") against its "Determine Attackers" '
        '("the disaster will automatically declare a charm battle against each character"); '
        '1996 general rules ("it will automatically engage in Charm Combat first", "if the '
        'player wishes"); Fifth Edition summary ("Charm combat is optional, agreed before play")',
    ),
    RuleOption(
        "item_pickup",
        "item_pickup",
        ("beneath", "through"),
        "beneath",
        "Whether a disaster can take an item lying under a location while face-down disasters "
        "still lie above it. beneath: no, the item is reached only once no face-down disaster is "
        "left (every path: movement, charm, card effects); through: yes.",
        'set0 rulebook "Field Layouts" ("two disaster cards, face down, underneath each location '
        'card but above the item card"), "Scavenge Phase" ("To obtain the item card underneath '
        'the location card, all disaster cards underneath the location must be cleared"), '
        '"Maintenance Phase" ("take an item card from underneath its current location"); 1996 '
        'rules "Maintenance Phase" ("it will pick the Item up")',
    ),
    RuleOption(
        "charm_tie",
        "charm_tie",
        ("nothing", "lost"),
        "nothing",
        "A charm battle whose totals are equal. nothing: neither side won; lost: the charmer did "
        "not win, so it lost.",
        'set0 rulebook "Check Charm" (higher: won; lower: lost; equal is not addressed); 1996 '
        'rules ("a higher total")',
    ),
    RuleOption(
        "scavenge_after_charm",
        "scavenge_after_charm",
        ("continue", "stop"),
        "continue",
        "A combat disaster revealed while scavenging and charmed instead of fought. continue: "
        "it has been dealt with, the party may scavenge on; stop: the attempt ends.",
        'set0 rulebook "Scavenge Phase" ("your party must defeat it in combat to continue"), '
        '"End of Charm Battle" (a charmed disaster may be incapacitated for the turn)',
    ),
    RuleOption(
        "stalemate_rounds",
        "stalemate_rounds",
        (),
        "30",
        "Combat rounds after which a fight neither side can win ends in a forced retreat.",
        'set0 rulebook "Combat" sets no limit ("Combat continues until ..." in the 1996 rules)',
    ),
)

BY_NAME: dict[str, RuleOption] = {o.name: o for o in RULE_OPTIONS}


def parse_rule(text: str, where: str = "--rule") -> tuple[str, str]:
    """``NAME=VALUE`` as a checked pair; a usage error names ``where`` and the known names."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise UsageError(
            f"{where}: expected NAME=VALUE, not {text!r}", hint="e.g. --rule charm=every"
        )
    option = BY_NAME.get(name)
    if option is None:
        raise UsageError(
            f"{where}: unknown rule option {name!r}",
            hint=f"choose one of: {', '.join(BY_NAME)} (docs/interpretations.md)",
        )
    option.check(value, where)
    return name, value


def parse_rules(texts: Iterable[str], where: str = "--rule") -> dict[str, str]:
    """Repeated ``NAME=VALUE`` settings; a later one replaces an earlier one of the same name."""
    out: dict[str, str] = {}
    for text in texts:
        name, value = parse_rule(text, where)
        out[name] = value
    return out


def effective(edition: Edition, chosen: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every option's value for a run under ``edition``: the chosen one, else its default."""
    chosen = chosen or {}
    out: dict[str, str] = {}
    for o in RULE_OPTIONS:
        if o.name in chosen:
            out[o.name] = str(chosen[o.name])
        elif o.default == EDITION_DEFAULT:
            out[o.name] = str(getattr(edition.play, o.field))
        else:
            out[o.name] = o.default
    return out


def apply_rules(edition: Edition, chosen: Mapping[str, str] | None = None) -> Edition:
    """``edition`` with the chosen readings in its play rules (unchanged when none differ)."""
    values = effective(edition, chosen)
    changes: dict[str, Any] = {}
    for o in RULE_OPTIONS:
        value = o.check(values[o.name], "rule")
        if getattr(edition.play, o.field) != value:
            changes[o.field] = value
    if not changes:
        return edition
    return dataclasses.replace(edition, play=dataclasses.replace(edition.play, **changes))


def alternatives(
    edition: Edition, chosen: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """Every (option, value) other than the one in effect: what ``deckkit sensitivity`` plays.
    A whole-number option is tried at half and at twice its value."""
    values = effective(edition, chosen)
    out: list[tuple[str, str]] = []
    for o in RULE_OPTIONS:
        now = values[o.name]
        if o.values:
            out.extend((o.name, v) for v in o.values if v != now)
        else:
            n = int(now)
            out.extend((o.name, str(v)) for v in sorted({max(1, n // 2), n * 2}) if v != n)
    return out


__all__ = [
    "BY_NAME",
    "EDITION_DEFAULT",
    "RULE_OPTIONS",
    "RuleOption",
    "alternatives",
    "apply_rules",
    "effective",
    "parse_rule",
    "parse_rules",
]
