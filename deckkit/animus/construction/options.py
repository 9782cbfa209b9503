"""Named rule options: the choices Animus v3.5 leaves open, each with deckkit's default.

Every option is documented in docs/interpretations.md ("Animus") with the passage that is silent
and why the default was chosen; each has a test showing that its choices play differently.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from deckkit.errors import UsageError

# option -> allowed values (the first is the default). Integers are listed as their range.
CHOICES: dict[str, tuple[str, ...]] = {
    # Both fighters hold the other's type on their advantage gem ("Card types and Combat
    # Advantage" speaks of one card having advantage): each rolls two dice, or neither does.
    "mutual_advantage": ("both_roll_two", "cancel"),
    # "Reset Phase: ... you must draw up to your hand size of 3" with too few cards in the deck.
    "empty_deck": ("draw_what_remains", "lose"),
    # How many characters Support Position holds (the text says "Support Position characters"
    # and never gives a number): an integer, or "unlimited".
    "support_slots": ("2", "1", "3", "unlimited"),
    # "Tactical: ... You can only do this once per turn": once per card, or one per player.
    "tactical_uses": ("each_card", "one_per_turn"),
    # When a player with no character left loses: when the whole team is gone (in play, hand
    # and deck), or as soon as none is in play ("their last character in play").
    "last_character": ("team", "in_play"),
    # The pyramid's face-up rows (the figure is missing): see rules.toml's layouts.
    "pyramid": ("alternate", "hidden"),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    mutual_advantage: str = "both_roll_two"
    empty_deck: str = "draw_what_remains"
    support_slots: str = "2"
    tactical_uses: str = "each_card"
    last_character: str = "team"
    pyramid: str = "alternate"
    turn_cap: int = 200  # a battle still going after this many turns is a draw (not a rule)

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if name == "support_slots" and value != "unlimited":
                if not (value.isdigit() and int(value) >= 1):
                    raise UsageError(
                        f"rule option support_slots must be a whole number >= 1 or 'unlimited', "
                        f"not {value!r}"
                    )
                continue
            if value not in allowed:
                raise UsageError(
                    f"unknown value {value!r} for rule option {name}",
                    hint=f"choose one of: {', '.join(allowed)}",
                )
        if self.turn_cap < 1:
            raise UsageError("turn_cap must be at least 1")

    @property
    def support_capacity(self) -> int:
        return 1_000 if self.support_slots == "unlimited" else int(self.support_slots)

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def non_default(self) -> dict[str, object]:
        base = RuleOptions()
        return {k: v for k, v in self.as_dict().items() if getattr(base, k) != v}


def parse_options(items: list[str] | dict[str, str]) -> RuleOptions:
    """``name=value`` settings (a team file's ``rule.NAME: value`` lines or ``--rule``)."""
    pairs = items.items() if isinstance(items, dict) else (_split(i) for i in items)
    known = {f.name for f in fields(RuleOptions)}
    values: dict[str, object] = {}
    for name, value in pairs:
        if name not in known:
            raise UsageError(
                f"unknown rule option {name!r}", hint=f"options: {', '.join(sorted(known))}"
            )
        if name == "turn_cap":
            if not value.isdigit():
                raise UsageError(f"turn_cap must be a whole number, not {value!r}")
            values[name] = int(value)
        else:
            values[name] = value
    return replace(RuleOptions(), **values)  # type: ignore[arg-type]


def _split(item: str) -> tuple[str, str]:
    name, sep, value = item.partition("=")
    if not sep:
        raise UsageError(f"a rule option is NAME=VALUE, not {item!r}", hint="e.g. empty_deck=lose")
    return name.strip(), value.strip()
