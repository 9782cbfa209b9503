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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from deckkit.animayhem.construction.editions import Edition
from deckkit.errors import UsageError

EDITION_DEFAULT = "edition"
# The largest value of a numeric reading. The one there is, stalemate_rounds, is deckkit's bound
# where no document sets one (set0 rulebook "Check for End of Combat": "you may either start
# another combat round or declare a retreat"; docs/interpretations.md): past a thousand rounds a
# fight no side can win only costs time, and a huge value would hold one game for hours.
MAX_RULE_NUMBER = 1000


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One reading: its name, the values it takes, the default and where the texts leave it."""

    name: str
    field: str  # the PlayRules field it sets
    values: tuple[str, ...]  # an empty tuple: a whole number from 1 to MAX_RULE_NUMBER
    default: str  # a value, or "edition"
    summary: str
    passages: str
    # Whether the choice is open under an edition (with the readings in effect): one whose own
    # text settles it, or whose engine never reads it, is left out of `deckkit sensitivity`.
    # None: always.
    applies: Callable[[Edition], bool] | None = None

    def check(self, value: str, where: str) -> str | int:
        """The value the engine uses, or a usage error naming ``where`` it came from."""
        if not self.values:
            try:
                number = int(value)
            except ValueError:
                number = 0
            if not 1 <= number <= MAX_RULE_NUMBER:
                raise UsageError(
                    f"{where}: rule {self.name} takes a whole number from 1 to "
                    f"{MAX_RULE_NUMBER:,}, not {value!r}",
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
        ("choice", "first_automatic", "disaster", "every", "off"),
        EDITION_DEFAULT,
        "Who starts charm battles against a disaster with charm. disaster: the disaster declares "
        "one against each character it attacks, or each character attacking it, before combat "
        "begins, then the player may declare for those it did not charm (set0); choice: the "
        "player declares them, character by character (fifth2018); first_automatic: one charm "
        "battle is automatic when combat starts, the player picks the charmer, and further ones "
        "against a major disaster are the player's choice (general1996, guidelines1998); every: "
        "every character there charms it, as if the player declared each; off: no charm "
        "battles.",
        'set0 rulebook "Move Phase" ("it will initiate a charm battle first"), "Your Characters '
        'Attacking a Disaster" ("the disaster will declare a charm battle against each attacking '
        'character before combat begins"), "A Disaster Attacking Your Character" ("the disaster '
        "will automatically declare a charm battle against each character at its location ... "
        'you may declare a charm battle against the attacking disaster"), "Charm Battle" ("you '
        'may declare", the player charming a disaster); 1996 general rules ("it will '
        'automatically engage in Charm Combat first", "if the player wishes"); Fifth Edition '
        'summary ("Charm combat is optional, agreed before play")',
    ),
    RuleOption(
        "item_pickup",
        "item_pickup",
        ("beneath", "through"),
        "through",
        "Whether a disaster can take an item lying under a location while face-down disasters "
        "still lie above it. through: yes, the pickup passages name no condition; beneath: no, "
        "the item is reached only once no face-down disaster is left (every path: movement, "
        "charm, card effects).",
        'set0 rulebook "Maintenance Phase" ("After completing its first full movement, a combat '
        'disaster will take an item card from underneath its current location"); 1996 rules '
        '"Maintenance Phase" ("At the first Location the Disaster moves to that has an Item, it '
        'will pick the Item up"), which the 1998 guidelines and the Fifth Edition keep; against '
        'them set0 "Field Layouts" ("underneath each location card but above the item card") '
        'and "Scavenge Phase" ("To obtain the item card underneath the location card, all '
        'disaster cards underneath the location must be cleared"), said of the party',
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
    RuleOption(
        "charm_loss",
        "charm_loss",
        ("combat", "until_attacked"),
        "combat",
        "How long a charmer who lost may not attack the disaster. combat: through the combat the "
        "charm battle came before (until the disaster attacks it there); until_attacked: across "
        "combats, until that disaster attacks it.",
        'set0 rulebook "End of Charm Battle" ("the charmer cannot attack the disaster it tried '
        'to charm until that disaster attacks the charmer"); 1996 rules "Combat" ("the Charming '
        'Character may not attack the Disaster until it attacks that Character"); neither names '
        "a combat or a turn",
        lambda e: e.play.charm != "off",
    ),
    RuleOption(
        "combat_card",
        "combat_card",
        ("attacked", "chosen"),
        "attacked",
        "Where one combat card is drawn for the player's side against an attacking disaster, "
        "who gets it. attacked: the character the disaster attacks; chosen: any character "
        "fighting it, the player's choice once the card is seen.",
        'set0 rulebook "A Disaster Attacking Your Character", "Draw Combat Cards" ("play that '
        "combat card's combat modifier on any of your retaliating characters\"); 1996 rules "
        '"Combat" ("give it to the Character who the Disaster is attacking")',
        lambda e: e.name == "set0" and e.play.combat_cards == "one_each_side",
    ),
    RuleOption(
        "retreat_blocked",
        "retreat_blocked",
        ("stay", "no_retreat"),
        "stay",
        "A retreat when no direction is legal (every neighbour destroyed, or a location the "
        "party may not stop on). stay: the party retreats and stays where it is; no_retreat: a "
        "retreat that cannot move is not declared, the party fights on.",
        'set0 rulebook "Declare Retreat" ("All retreating characters that survive must move one '
        'location in any legal direction"): silent when there is none',
    ),
    RuleOption(
        "location_attack",
        "location_attack",
        ("standing", "stopped"),
        "standing",
        "Which groups a location with damage attacks in the Move phase. standing: every group "
        "on it without the skills, whether it stopped there this turn or stayed; stopped: only "
        "a group that ended a move there this turn.",
        'set0 rulebook "Locations with Damage" ("If a group of characters stops on a location '
        'card with a damage ability ... The location will attack once per turn")',
    ),
    RuleOption(
        "majority_trigger",
        "majority_trigger",
        ("each_side", "combined"),
        "each_side",
        "When the majority ends the game. each_side: when one side holds more than half the "
        "items (the player: by the edition's share); combined: when the items retrieved and "
        "removed together pass half; a game neither side then holds a majority of is "
        "undecided, counted apart from wins and losses.",
        'set0 rulebook "Object of the Game" ("When more than half the item cards are retrieved '
        "or removed from play, the game immediately ends ... If the players retrieve more than "
        'half ... If the disasters retrieve or remove from play more than half"); Fifth Edition '
        'summary ("more than half the items have been retrieved by players or captured by '
        'disasters")',
        lambda e: e.play.end_conditions == "majority" and e.play.majority_needs_more_than_half,
    ),
    RuleOption(
        "all_scavenged",
        "all_scavenged",
        ("or_empty", "scavenged"),
        "or_empty",
        'The 1998 ending "all Locations have been Scavenged". or_empty: a location counts once '
        "scavenged or once nothing is left beneath it; scavenged: only a location a party "
        "scavenged counts.",
        '1998 guidelines 4.1 ("or all Locations have been Scavenged"); game terms "Start '
        'Scavenging", "Continue Scavenging" (a location with nothing beneath it cannot be)',
        lambda e: e.play.end_conditions == "guidelines1998",
    ),
    RuleOption(
        "haven_abandoned",
        "haven_abandoned",
        ("hand", "discard"),
        "hand",
        "A haven being built whose builder leaves the location. hand: the building stops and "
        "the card goes back to the hand; discard: the card is discarded.",
        'set0 rulebook "Haven" ("those 3 characters must remain at the location"), "Equip '
        'Phase" (a turn a builder acts "does not count toward the completion"): silent on a '
        "builder who leaves; 1998 guidelines 4.11 (a card not properly used is treated as not "
        "played)",
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
    edition: Edition,
    chosen: Mapping[str, str] | None = None,
    only: Iterable[str] | None = None,
) -> list[tuple[str, str]]:
    """Every (option, value) other than the one in effect: what ``deckkit sensitivity`` plays.
    A whole-number option is tried at half and at twice its value. An option whose choice the
    edition settles (:attr:`RuleOption.applies`) is left out, as is one not named in ``only``
    when it is given."""
    values = effective(edition, chosen)
    played = apply_rules(edition, values)
    wanted = None if only is None else set(only)
    out: list[tuple[str, str]] = []
    for o in RULE_OPTIONS:
        if o.applies is not None and not o.applies(played):
            continue
        if wanted is not None and o.name not in wanted:
            continue
        now = values[o.name]
        if o.values:
            out.extend((o.name, v) for v in o.values if v != now)
        else:
            n = int(now)
            halved, doubled = max(1, n // 2), min(MAX_RULE_NUMBER, n * 2)
            out.extend((o.name, str(v)) for v in sorted({halved, doubled}) if v != n)
    return out


__all__ = [
    "BY_NAME",
    "EDITION_DEFAULT",
    "MAX_RULE_NUMBER",
    "RULE_OPTIONS",
    "RuleOption",
    "alternatives",
    "apply_rules",
    "effective",
    "parse_rule",
    "parse_rules",
]
