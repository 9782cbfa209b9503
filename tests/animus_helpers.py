"""Building Animus battles by hand for the golden tests: cards, boards and scripted dice."""

from __future__ import annotations

from collections.abc import Sequence

from deckkit.animayhem.engine.chance import ScriptedChance
from deckkit.animus.construction.carddb import _abilities
from deckkit.animus.construction.cards import Card, Kind
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.engine.play import Lineup, setup
from deckkit.animus.engine.state import MELEE, RANGE, SUPPORT, Battle, Unit

BEATS = {"Power": "Talent", "Talent": "Skill", "Skill": "Power"}


def _bad(column: str, message: str, hint: str | None = None) -> Exception:
    return ValueError(f"{column}: {message}")


def card(
    name: str,
    *,
    level: int = 1,
    type: str = "Skill",
    advantage: str | None = None,
    melee: int = 1,
    range: int = 1,
    text: str = "",
    kind: Kind = Kind.CHARACTER,
) -> Card:
    """A made-up card; ``text`` in the card file's ability syntax."""
    return Card(
        name.lower().replace(" ", "-"),
        name,
        kind,
        level,
        type,
        advantage or BEATS[type],
        melee,
        range,
        _abilities(text, kind, _bad),  # type: ignore[arg-type]
        made_up=True,
        source="test",
    )


def dice(*rolls: int) -> ScriptedChance:
    """Die results in the order the rules roll them (attacker first, then the defender)."""
    return ScriptedChance([r - 1 for r in rolls])


def filler(prefix: str, n: int, level: int = 1) -> list[Card]:
    return [card(f"{prefix}{i}", level=level, type="Skill", advantage="Nothing") for i in range(n)]


def battle(
    mine: Sequence[Card],
    theirs: Sequence[Card],
    *,
    rolls: Sequence[int] = (),
    options: RuleOptions | None = None,
    entity: tuple[Card | None, Card | None] = (None, None),
    log: list[str] | None = None,
) -> Battle:
    """A battle of two teams; side 0 plays first. Every card starts in its deck; place cards
    with :func:`put` and give the hands with :func:`hand`."""
    chance = dice(*rolls)
    b = setup(
        (Lineup(tuple(mine), entity[0]), Lineup(tuple(theirs), entity[1])),
        options or RuleOptions(),
        chance,
        first=0,
        trace=log.append if log is not None else None,
    )
    for side in b.sides:  # the scripted chance keeps order: take the opening hand back
        side.deck.extend(reversed(side.hand))
        side.hand.clear()
    return b


def put(b: Battle, side: int, c: Card, pos: str, k: int = 0, damage: int = 0) -> Unit:
    """Put a card from its side's deck straight into a slot (no Play ability)."""
    s = b.sides[side]
    s.deck.remove(c)
    unit = Unit(c, side, s.team.index(c), damage=damage)
    if pos == MELEE:
        s.melee = unit
    elif pos == RANGE:
        s.range[k] = unit
    else:
        assert pos == SUPPORT
        s.support.append(unit)
    return unit


def hand(b: Battle, side: int, *cards: Card) -> None:
    s = b.sides[side]
    for c in cards:
        s.deck.remove(c)
        s.hand.append(c)


def roll_more(b: Battle, *rolls: int) -> None:
    """Script further die results."""
    b.chance._picks.extend(r - 1 for r in rolls)  # type: ignore[attr-defined]
