"""The effect interpreter in play: each trigger and action on a real card, with the entry
written out in the test (the shipped entries are checked by tests/test_effectdb.py), so a test
reads as the card's rule and fails if the interpreter stops playing it."""

from __future__ import annotations

from deckkit.animayhem.construction.cards import ItemCard
from deckkit.animayhem.construction.vocabulary import Trigger
from deckkit.animayhem.engine.combat import fight
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.interpreter.standing import can_move
from deckkit.animayhem.engine.interpreter.turns import affect, start_turn
from deckkit.animayhem.engine.movement import move_disaster, place_disaster
from deckkit.animayhem.engine.phases import reload_phase
from deckkit.animayhem.engine.queries import blocked, can_stop
from deckkit.animayhem.engine.state import DEF, DMG, Char, Dis, Game
from tests.engine_helpers import (
    ScriptedPolicy,
    add_char,
    copy_of,
    db,
    edition,
    effect_table,
    entry_of,
    new_disaster,
    on_field,
    stack_combat_pile,
)

ED = edition("guidelines1998")


def encode(game: Game, x: Dis | Char, body: str) -> None:
    """Give a card on the table the effects ``body`` encodes (TOML of one entry)."""
    x.fx = game.fx[x.card.id] = entry_of(x.card, body)


def table(policy: ScriptedPolicy | None = None) -> Game:
    return effect_table(policy)


def test_affect_bonk_unless_condition() -> None:
    """Falling I-Beam: unless the party has Strength x2 or Blind Luck, one random character
    is bonked."""
    game = table()
    weak = add_char(game, "Nene Romanova", 4)
    d = new_disaster(game, "Falling I-Beam")
    encode(
        game,
        d,
        'effects = [{ when = "affect", do = "bonk", target = "one_here", '
        'unless = "Strength x2 or Blind Luck" }]',
    )
    assert affect(game, d, 4)
    assert weak.zone == "bonked" and d.zone == "discard"
    game2 = table()
    add_char(game2, "A-ko Magami", 4)  # Strength x3
    d2 = new_disaster(game2, "Falling I-Beam")
    encode(
        game2,
        d2,
        'effects = [{ when = "affect", do = "bonk", target = "one_here", '
        'unless = "Strength x2 or Blind Luck" }]',
    )
    assert not affect(game2, d2, 4)
    assert all(c.zone == "field" for c in game2.chars)


def test_lands_destroy_item_counts_for_the_disasters() -> None:
    """Kagato destroys an item at each location it lands on; destroyed items count for the
    disasters (1998 guidelines 4.3)."""
    game = table()
    game.items_in_play = 1
    item = copy_of(game, "Dragon Ball")
    assert isinstance(item.card, ItemCard)
    target_slot = game.field.path[2]
    game.locs[target_slot].hidden_cards.append(item)
    d = new_disaster(game, "Kagato")
    encode(game, d, 'effects = [{ when = "lands", do = "destroy", target = "items_here" }]')
    place_disaster(game, d, 0)
    # set0 picks up only after the first full movement, so the landing effect acts first.
    move_disaster(game, edition("set0"), ScriptedPolicy(), d, 2)
    assert game.slot_of(d) == target_slot
    assert item in game.carried_off and game.items_disasters() == 1
    assert any("destroys Dragon Ball" in e["text"] for e in game.trace.events)  # type: ignore[union-attr]


def test_lasting_modify_follows_the_duration_rule() -> None:
    """Nightmare: -1 damage and defense to every character for 3 turns. A duration counts
    the turn it starts in (set0 rulebook, Lexicon "Duration": Yasmin's card lasting 2 turns stays
    through the end of her current turn and her next)."""
    game = table()
    c = add_char(game, "A-ko Magami", 4)
    base = c.cur
    d = new_disaster(game, "Nightmare")
    encode(
        game,
        d,
        'effects = [{ when = "affect", do = "modify", target = "play", '
        'mods = { damage = "-1", defense = "-1" }, scope = "turns", turns = 3 }]',
    )
    assert affect(game, d, -1)
    assert (c.cur[DMG], c.cur[DEF]) == (base[DMG] - 1, base[DEF] - 1)
    for turn in (2, 3):
        game.turn = turn
        start_turn(game)
        assert c.cur[DMG] == base[DMG] - 1, f"still on in turn {turn}"
    game.turn = 4
    start_turn(game)
    assert c.cur == base


def test_explicit_disaster_without_target_is_discarded_and_the_draw_goes_on() -> None:
    """set0 rulebook, "Reload Phase": an explicit disaster with no valid target is discarded
    and drawing continues (the Have a Nice Trip example: no hardsuit or mecha on the field)."""
    game = table()
    add_char(game, "A-ko Magami", 4)
    trip = new_disaster(game, "Have a Nice Trip")
    encode(
        game,
        trip,
        'effects = [{ when = "affect", do = "destroy", target = "nearest_card", '
        'cards = ["Battlesuit", "Mecha"] }]',
    )
    filler = [copy_of(game, "Sewer") for _ in range(7)]
    game.draw_pile = [*filler, trip]
    reload_phase(game, ED, ScriptedPolicy())
    assert trip.zone == "discard" and trip in game.discard
    assert len(game.hand) == 7, "the draw went on after the fizzled disaster"


def test_block_and_hold() -> None:
    """Blocked locations cannot be stopped on until the block ends; a held character cannot
    move (Falling Debris blocks its location for 3 turns; Hounded by the Press holds)."""
    game = table()
    c = add_char(game, "A-ko Magami", 4)
    d = on_field(game, new_disaster(game, "Falling Debris"), 4)
    encode(
        game,
        d,
        'effects = [{ when = "lands", do = "block", turns = 3 }, '
        '{ when = "lands", do = "hold", target = "here", turns = 1 }]',
    )
    assert fire(game, d, Trigger.LANDS, 4)
    assert blocked(game, 4) and not can_stop(game, [c], 4)
    assert not can_move(game, c)
    game.turn = 2
    assert can_move(game, c)
    game.turn = 4
    assert not blocked(game, 4)


def test_combat_defeat_by_paying_and_prefer() -> None:
    """A special way to defeat: the party discards a vehicle (Dobermans); equipment is paid
    before any item, and the disaster is defeated without a round."""
    game = table()
    c = add_char(game, "A-ko Magami", 4)
    bike = copy_of(game, "The Masaki Van")
    c.equipment.append(bike)
    d = on_field(game, new_disaster(game, "Dobermans"), 4)
    encode(game, d, 'effects = [{ when = "combat", do = "defeat", pay = ["Vehicle"] }]')
    assert fight(game, ED, ScriptedPolicy(), d, 4, "disaster") == "defeated"
    assert bike in game.discard and not c.equipment
    assert d.zone == "discard"


def test_spare_and_prefer_choose_who_is_attacked() -> None:
    """Happosai only attacks females: a male is spared, a female is the target."""
    game = table()
    male = add_char(game, "Ryoga Hibiki", 4)
    female = add_char(game, "Akane Tendo", 4)
    d = on_field(game, new_disaster(game, "Happosai"), 4)
    d.charm = 0  # no charm battle in this test
    encode(game, d, 'effects = [{ when = "always", do = "spare", filter = "Male" }]')
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    hits = [e for e in game.trace.events if e["kind"] == "round"]  # type: ignore[union-attr]
    assert hits and all(h["name"] == female.name for e in hits for h in e["hits"])
    assert male.health == male.health_max


def test_capture_until_defeated_and_release() -> None:
    """Kidnapped: the captive leaves the field, dropping its items, until the disaster is
    gone; then it returns to the haven."""
    game = table()
    c = add_char(game, "Nene Romanova", 4)
    d = on_field(game, new_disaster(game, "Kidnapped"), 4)
    encode(
        game,
        d,
        'effects = [{ when = "combat", do = "capture", target = "here", filter = "Attack 1+" }]',
    )
    fire(game, d, Trigger.COMBAT, 4)
    assert c.zone == "captured"
    game.disasters.remove(d)
    game.turn = 2
    start_turn(game)
    assert c.zone == "haven"


def test_shield_only_the_named_skill_damages_it() -> None:
    """Kishiime: only a character with Speed can damage it; the others' attacks do nothing."""
    game = table(ScriptedPolicy(["A-ko Magami"]))
    c = add_char(game, "A-ko Magami", 4)  # no Speed
    d = on_field(game, new_disaster(game, "Kishiime"), 4)
    encode(game, d, 'effects = [{ when = "always", do = "shield", exclude = "Speed" }]')
    stack_combat_pile(game, [])
    c.health = c.health_max = 99  # outlast the fight
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
    rounds = [e for e in game.trace.events if e["kind"] == "round"]  # type: ignore[union-attr]
    assert rounds and all(e["party_damage"] == 0 for e in rounds)


def test_item_gives_itself_up_to_defeat_its_disaster() -> None:
    """Horned Mongoose Whistle: discarded to defeat Yamato No Orochi; the discarded item counts
    for the disasters (1998 guidelines 4.3), so the player gives it up only when the fight
    looks hopeless."""
    game = table(HopelessPolicy())
    c = add_char(game, "Nene Romanova", 4)
    whistle = copy_of(game, "Horned Mongoose Whistle")
    c.items.append(whistle)
    d = on_field(game, new_disaster(game, "Yamato No Orochi"), 4)
    game.items_in_play = 1
    text = (
        'effects = [{ when = "combat", do = "defeat", target = "disasters", '
        'cards = ["Yamato No Orochi"], pay = ["self"] }]'
    )
    game.fx["am415"] = entry_of(whistle.card, text)
    game.fx[d.card.id] = {}
    assert fight(game, ED, HopelessPolicy(), d, 4, "disaster") == "defeated"
    assert whistle in game.carried_off and not c.items
    assert d.zone == "discard"


class HopelessPolicy(ScriptedPolicy):
    def pay_item(self, game: Game, source: object) -> bool:  # type: ignore[override]
        return True


def test_unlock_scavenges_without_the_listed_skills() -> None:
    """Antiques: its carrier's party may scavenge a Museum without the listed skills."""
    game = table()
    c = add_char(game, "Nene Romanova", 4)
    antiques = copy_of(game, "Antiques")
    c.items.append(antiques)
    museum = [loc for loc in db().cards if loc.name == "Museum"]
    assert museum
    from deckkit.animayhem.engine.scavenge import passes_skill_test
    from deckkit.animayhem.engine.state import Copy, Loc

    game.locs[4] = Loc(4, Copy(99_001, museum[0]))
    assert not passes_skill_test(game, [c], 4)
    game.fx["am384"] = entry_of(
        antiques.card,
        'effects = [{ when = "always", do = "unlock", target = "locations", cards = ["Museum"] }]',
    )
    assert passes_skill_test(game, [c], 4)


def test_a_printed_disaster_health_replaces_its_defense_as_health() -> None:
    """Recoom prints "Health = 14" (card text, kept in the health column): a combat starts it
    at 14 health, while damage still goes through its defense of 6."""
    game = table(ScriptedPolicy(["A-ko Magami"]))
    add_char(game, "A-ko Magami", 4)
    d = on_field(game, new_disaster(game, "Recoom"), 4)
    assert d.card.health == 14 and d.defense == 6 and d.health == 14  # type: ignore[union-attr]
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
    first = next(e for e in game.trace.events if e["kind"] == "round")  # type: ignore[union-attr]
    assert first["disaster_health"] == 14 - first["disaster_loss"]


def test_reload_stops_when_only_fizzling_disasters_remain() -> None:
    """set0 rulebook, "Reload Phase": an explicit disaster without a target is discarded and
    the draw goes on. When nothing but such disasters is left, the draw ends after one pass
    through the deck (reshuffling the discards once) instead of cycling forever."""
    game = table()
    trips = [new_disaster(game, "Have a Nice Trip") for _ in range(4)]
    for d in trips:
        encode(
            game,
            d,
            'effects = [{ when = "affect", do = "destroy", target = "nearest_card", '
            'cards = ["Battlesuit"] }]',
        )
    game.draw_pile = list(trips[:2])
    game.discard = list(trips[2:])
    reload_phase(game, ED, ScriptedPolicy())
    assert not game.hand and not game.draw_pile
    assert sorted(d.uid for d in game.discard) == sorted(d.uid for d in trips)


class RunsAtOnce(ScriptedPolicy):
    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        return True


def test_a_disabled_character_defends_and_may_still_run_away() -> None:
    """1998 guidelines 1.2: "Unless explicitly stated otherwise, characters can always Run Away
    from Combat, even if they are unable to do 'anything'" (Baby, Fire Fight, Ebi-Furiya). A
    disabled character deals no damage when attacked, yet may retreat."""
    game = table()
    c = add_char(game, "A-ko Magami", 4)
    c.disabled_until = game.turn
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    game.fx[d.card.id] = {}  # effects are live in this game
    stack_combat_pile(game, [])
    c.health = c.health_max = 99
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    rounds = [e for e in game.trace.events if e["kind"] == "round"]  # type: ignore[union-attr]
    assert rounds and all(e["party_damage"] == 0 for e in rounds)
    game2 = table(RunsAtOnce())
    c2 = add_char(game2, "A-ko Magami", 4)
    c2.disabled_until = game2.turn
    d2 = on_field(game2, new_disaster(game2, "Ginger"), 4)
    game2.fx[d2.card.id] = {}
    assert fight(game2, ED, RunsAtOnce(), d2, 4, "disaster") == "retreat"


def test_every_pile_action_has_its_handler() -> None:
    """The read-only layer names the pile actions (queries._PILE_ACTIONS) and the interpreter
    runs each by its handler: the two lists must be the same actions, or an effect would fail
    with a KeyError in a game."""
    from deckkit.animayhem.engine import queries
    from deckkit.animayhem.engine.interpreter import piles

    assert set(piles._PILE_HANDLERS) == set(queries._PILE_ACTIONS)
    assert len(set(piles._PILE_HANDLERS.values())) == len(piles._PILE_HANDLERS)
