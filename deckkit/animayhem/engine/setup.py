"""Game setup for solitaire: the field, items and starting disasters, the haven, the starting
characters, the opening hand and the draw pile.

Set0 rulebook, Part II "Game Setup", "Deck Construction" (what starts where) and "Field Layouts >
Solitaire"; 1996 rules "Setup" (the opening hand of 7 from characters and power cards).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from deckkit.animayhem.construction.cards import AnyCard, CharacterCard, DisasterCard
from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.codes import (
    TYPE_CHARACTER,
    TYPE_COMBAT,
    TYPE_DISASTER,
    TYPE_ENHANCEMENT,
    TYPE_EQUIPMENT,
    TYPE_FLASH_EFFECT,
    TYPE_GLOBAL_EFFECT,
    TYPE_HAVEN,
    TYPE_ITEM,
    TYPE_LOCATION,
)
from deckkit.animayhem.engine.field import all_distances, lay_out
from deckkit.animayhem.engine.hooks import EngineHooks
from deckkit.animayhem.engine.prepared import GameSetup
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game, Loc

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.policy import Policy

STARTING_DISASTERS_PER_LOCATION: Final = (
    2  # "Place two disaster cards ... underneath each location"
)


def set_up(game: Game, setup: GameSetup, edition: Edition, policy: Policy) -> None:
    """Lay out the field and deal every card of the deck into its starting zone."""
    chance = game.chance
    uid = 0
    game.fx = setup.fx
    game.acts = frozenset(e.do for fx in setup.fx.values() for t in fx.values() for _, e in t)
    game.hooks = EngineHooks(edition, policy)
    game.item_pickup = edition.play.item_pickup

    def copy_of(card: AnyCard) -> Copy:
        nonlocal uid
        uid += 1
        return Copy(uid, card)

    locations = [copy_of(c) for c in setup.locations]
    chance.shuffle(locations)
    game.field = lay_out(len(locations), setup.options.layout, chance)
    game.locs = [Loc(i, cp) for i, cp in enumerate(locations)]
    game.dist = all_distances(game.field)

    items = [copy_of(c) for c in setup.items]
    chance.shuffle(items)
    for loc in game.locs:
        if items:
            loc.hidden_cards.append(items.pop())
    game.unused.extend(items)  # items beyond one per location are not used
    game.items_in_play = sum(len(loc.hidden_cards) for loc in game.locs)
    game.tally_extra = game.items_hidden(tally=True) - game.items_in_play

    disasters: list[Dis] = []
    for card in setup.disasters:
        uid += 1
        assert isinstance(card, DisasterCard)
        d = Dis(uid, card)
        d.fx = setup.fx.get(card.id)
        disasters.append(d)
    game.disasters_dealt = list(disasters)
    chance.shuffle(disasters)
    for loc in game.locs:
        for _ in range(STARTING_DISASTERS_PER_LOCATION):
            if disasters:
                d = disasters.pop()
                d.zone = "location"
                loc.hidden_disasters.append(d)

    havens = [copy_of(c) for c in setup.havens]
    start_haven = policy.starting_haven(havens)
    if start_haven is not None:
        havens.remove(start_haven)
        game.havens.append(start_haven)

    chars: list[Char] = []
    for card, template in zip(setup.characters, setup.templates, strict=True):
        uid += 1
        assert isinstance(card, CharacterCard)
        c = Char(uid, card, template)
        c.fx = setup.fx.get(card.id)
        chars.append(c)
    game.chars = chars
    starters = policy.starting_characters(game, chars, edition.play.starting_characters)
    for c in starters:
        c.zone = "haven"
    rest_chars = [c for c in chars if c.zone != "haven"]

    power = [copy_of(c) for c in setup.power]
    pool: list[Copy | Char] = list(power)
    if edition.play.hand_from_characters:
        pool.extend(rest_chars)
    chance.shuffle(pool)
    hand = pool[: edition.play.hand_limit]
    for x in hand:
        if isinstance(x, Char):
            x.zone = "hand"
    game.hand = list(hand)
    draw: list[Copy | Char | Dis] = list(pool[edition.play.hand_limit :])
    if not edition.play.hand_from_characters:
        draw.extend(rest_chars)
    draw.extend(havens)
    draw.extend(disasters)
    chance.shuffle(draw)
    game.draw_pile = draw

    game.combat_pile = [copy_of(c) for c in setup.combat]
    chance.shuffle(game.combat_pile)
    for c in chars:
        refresh(game, c)
    if game.trace is not None:
        game.say(
            "setup",
            f"field of {len(game.locs)} locations, {game.items_in_play} items, "
            f"starting characters: {', '.join(c.name for c in starters)}",
            field=game.field.render([loc.g.name[:14] for loc in game.locs]),
        )


def deck_piles(cards: Iterable[AnyCard]) -> dict[str, list[AnyCard]]:
    """Split a deck's cards into the piles setup deals from."""
    piles: dict[str, list[AnyCard]] = {
        "characters": [],
        "locations": [],
        "items": [],
        "havens": [],
        "power": [],
        "disasters": [],
        "combat": [],
    }
    key = {
        TYPE_CHARACTER: "characters",
        TYPE_LOCATION: "locations",
        TYPE_ITEM: "items",
        TYPE_HAVEN: "havens",
        TYPE_EQUIPMENT: "power",
        TYPE_ENHANCEMENT: "power",
        TYPE_FLASH_EFFECT: "power",
        TYPE_GLOBAL_EFFECT: "power",
        TYPE_DISASTER: "disasters",
        TYPE_COMBAT: "combat",
    }
    for card in cards:
        piles[key[card.type]].append(card)
    return piles
