"""The Animus card model: characters, Entities and their abilities in a small vocabulary.

A card's text is kept as ability lines ``Keyword: effect(parameters)`` (docs/animus-cards.md):
the keyword says when (animus-rules-v3.5.txt, "Card Ability Definitions"), the effect what. The
engine interprets every effect named in :data:`EFFECTS`; a card file naming anything else is
rejected when it loads, so no ability is silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    CHARACTER = "character"
    ENTITY = "entity"


class Keyword(StrEnum):
    """When an ability applies ("Card Ability Definitions")."""

    PLAY = "Play"  # when played from hand
    TACTICAL = "Tactical"  # in one of your Tactical Phases, once per turn
    COMBAT = "Combat"  # in your Combat Phase, instead of attacking; even from Support
    KILL = "Kill"  # when this card Kills another card
    DEATH = "Death"  # when this card is Killed and removed from play
    ONGOING = "Ongoing"  # as long as this card is in play
    RESET = "Reset"  # revealed from hand in the Reset Phase and put on the bottom of the deck
    REACTION = "Reaction"  # when the listed condition happens


class Effect(StrEnum):
    """What an ability does, in deckkit's own terms."""

    DAMAGE = "damage"  # damage(N): N damage tokens on an enemy character in play
    HEAL = "heal"  # heal(N): remove up to N damage tokens from one of your characters
    DRAW = "draw"  # draw(N): draw N cards from your deck
    BOOST = "boost"  # boost(melee=N, range=M, who=self|team): Ongoing value bonus
    EDGE = "edge"  # edge(): Ongoing, this character fights with advantage against every type
    TOUGH = "tough"  # tough(N): Ongoing, killed at kill_tokens + N damage tokens
    HAND = "hand"  # hand(N): Ongoing (Entity), hand size + N
    REVEAL = "reveal"  # reveal(what=opponent_hand|deck_top): Ongoing, cards played face up


# What reveal() turns face up ("Entity Cards", the example Entity: "Your opponent plays with
# their hand face up. The top card of your deck is also face up.").
OPPONENT_HAND = "opponent_hand"
DECK_TOP = "deck_top"
REVEALS = (OPPONENT_HAND, DECK_TOP)


# Which keywords each effect may follow: standing bonuses are Ongoing, actions are not.
STANDING = frozenset({Effect.BOOST, Effect.EDGE, Effect.TOUGH, Effect.HAND, Effect.REVEAL})
ACTIONS = frozenset({Effect.DAMAGE, Effect.HEAL, Effect.DRAW})
# Parameters of each effect: name -> default (None = required). "n" is the positional one.
PARAMETERS: dict[Effect, dict[str, int | str | None]] = {
    Effect.DAMAGE: {"n": 1},
    Effect.HEAL: {"n": 1},
    Effect.DRAW: {"n": 1},
    Effect.BOOST: {"melee": 0, "range": 0, "who": "self"},
    Effect.EDGE: {},
    Effect.TOUGH: {"n": 1},
    Effect.HAND: {"n": 1},
    Effect.REVEAL: {"what": None},
}
WHO = ("self", "team")
# Reaction conditions: Reaction(condition): effect(...).
CONDITIONS = ("ally_killed", "damaged")


@dataclass(frozen=True, slots=True)
class Ability:
    keyword: Keyword
    effect: Effect
    n: int = 0
    melee: int = 0
    range: int = 0
    who: str = "self"
    condition: str | None = None
    what: str = ""  # reveal(): one of REVEALS

    def text(self) -> str:
        """The ability written back in the card file's syntax."""
        kw = f"{self.keyword}({self.condition})" if self.condition else str(self.keyword)
        if self.effect is Effect.BOOST:
            args = f"melee={self.melee}, range={self.range}, who={self.who}"
        elif self.effect is Effect.EDGE:
            args = ""
        elif self.effect is Effect.REVEAL:
            args = f"what={self.what}"
        else:
            args = str(self.n)
        return f"{kw}: {self.effect}({args})"


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One row of a card file. ``advantage`` is the small gem: the type it beats. Cards compare
    by identity: each is one object of its card set."""

    id: str
    name: str
    kind: Kind
    level: int
    type: str
    advantage: str
    melee: int
    range: int
    abilities: tuple[Ability, ...] = ()
    made_up: bool = False
    source: str = ""
    line: int = 0
    # Derived once: the abilities by keyword, read in the engine's hot loop.
    by_keyword: dict[Keyword, tuple[Ability, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    # Standing (Ongoing) numbers, summed once: own and team value bonuses, extra kill tokens,
    # edge, extra hand size, what it turns face up.
    own_melee: int = field(default=0, init=False, compare=False, repr=False)
    own_range: int = field(default=0, init=False, compare=False, repr=False)
    team_melee: int = field(default=0, init=False, compare=False, repr=False)
    team_range: int = field(default=0, init=False, compare=False, repr=False)
    tough: int = field(default=0, init=False, compare=False, repr=False)
    edge: bool = field(default=False, init=False, compare=False, repr=False)
    extra_hand: int = field(default=0, init=False, compare=False, repr=False)
    shows_opponent_hand: bool = field(default=False, init=False, compare=False, repr=False)
    shows_deck_top: bool = field(default=False, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        grouped: dict[Keyword, list[Ability]] = {}
        for ability in self.abilities:
            grouped.setdefault(ability.keyword, []).append(ability)
        self.by_keyword.update({k: tuple(v) for k, v in grouped.items()})
        team = self.kind is Kind.ENTITY  # an Entity's bonuses go to the whole team
        sums = dict.fromkeys(
            ("own_melee", "own_range", "team_melee", "team_range", "tough", "extra_hand"), 0
        )
        for a in grouped.get(Keyword.ONGOING, ()):
            if a.effect is Effect.BOOST:
                scope = "team" if team or a.who == "team" else "own"
                sums[f"{scope}_melee"] += a.melee
                sums[f"{scope}_range"] += a.range
            elif a.effect is Effect.TOUGH:
                sums["tough"] += a.n
            elif a.effect is Effect.HAND:
                sums["extra_hand"] += a.n
            elif a.effect is Effect.EDGE:
                object.__setattr__(self, "edge", True)
            elif a.effect is Effect.REVEAL:
                flag = "shows_opponent_hand" if a.what == OPPONENT_HAND else "shows_deck_top"
                object.__setattr__(self, flag, True)
        for name, value in sums.items():
            object.__setattr__(self, name, value)

    def has(self, keyword: Keyword) -> bool:
        return keyword in self.by_keyword

    def standing(self, effect: Effect) -> tuple[Ability, ...]:
        """This card's Ongoing abilities of one effect."""
        return tuple(a for a in self.by_keyword.get(Keyword.ONGOING, ()) if a.effect is effect)
