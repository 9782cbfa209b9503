"""Cards the engine once played otherwise than they read, each test citing the card or the
passage it follows (set0 rulebook unless another document is named), so that breaking the rule
again fails a test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.combat import fight
from deckkit.animayhem.engine.hooks import EngineHooks
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.interpreter.standing import can_act
from deckkit.animayhem.engine.movement import place_disaster
from deckkit.animayhem.engine.phases import equip_phase, reload_phase
from deckkit.animayhem.engine.policy import Policy
from deckkit.animayhem.engine.queries import can_stop
from deckkit.animayhem.engine.state import CHA, DMG, Char, Copy, Game, Triggers
from tests.engine_helpers import (
    NINE,
    ScriptedPolicy,
    add_char,
    bare_game,
    card,
    copy_of,
    edition,
    effect_table,
    new_disaster,
)


class OneRound(ScriptedPolicy):
    def retreat(self, game: Game, d: object, chars: list[object], rnd: int) -> bool:  # type: ignore[override]
        return rnd > 1


def _first_round(game: Game, disaster: str = "Toma's Guards") -> dict[str, object]:
    d = new_disaster(game, disaster)
    place_disaster(game, d, game.field.path_index[0])
    game.combat_pile = []
    fight(game, edition("set0"), OneRound(), d, 0, "disaster")
    assert game.trace is not None
    return next(e for e in game.trace.events if e["kind"] == "round")


def _sword_game(name: str) -> tuple[Game, int]:
    game = bare_game(NINE)
    game.hooks = EngineHooks(edition("set0"), OneRound())
    game.turn = 1
    c = add_char(game, name, 0)
    sword = copy_of(game, "Red Dragon Spirit Capture Star Sword")
    fx = by_trigger(sword.card.effects)  # type: ignore[arg-type]
    assert fx is not None
    game.fx[sword.card.id] = fx
    c.equipment.append(sword)
    refresh(game, c)
    return game, c.cur[DMG]


@pytest.mark.parametrize(
    ("name", "energy", "bonus"),
    [
        ("A-ko Magami", 0, 0),
        ("Ayaka Kisaragi", 0, 0),
        ("Ayaka Kisaragi", 1, 2),
        ("Magical Girl Pretty Sammy", 3, 2),
    ],
)
def test_red_dragon_spirit_sword_costs_one_energy_and_gives_magic_two(
    name: str, energy: int, bonus: int
) -> None:
    """Red Dragon Spirit Capture Star Sword's card: for a cost of 1 energy, +1 attack, +2 with the
    Magic skill. Like an enhancement's energy cost (set0 "Enhancement": paid "each time it is
    used", once per combat round) it is no standing bonus: a character without energy cannot
    pay and gains nothing (A-ko; Ayaka, a Magic character, at 0); a Magic character with energy
    pays 1 and gains 2 that round."""
    game, standing = _sword_game(name)
    assert standing == card(name).abilities.damage  # type: ignore[union-attr]
    game.chars[0].set_energy(energy)
    first = _first_round(game)
    assert first["party_damage"] == standing + bonus


def test_interdimensional_teleport_opens_dimensional_locations() -> None:
    """Interdimensional Teleport's card lets its character visit dimensional locations; set0
    Part I, "Dimensional Location": a party stops on one only with the dimensional symbol on a
    member or on a card a member uses. The enhancement bears the symbol."""
    game = bare_game(["Computer Core", *NINE[1:]])
    c = add_char(game, "A-ko Magami", 1)
    assert not can_stop(game, [c], 0)
    c.enhancements.append(copy_of(game, "Interdimensional Teleport"))
    assert can_stop(game, [c], 0)


@pytest.mark.parametrize("rule", ["guidelines1998", "fifth2018"])
def test_1998_bonked_character_returns_to_the_haven_not_the_hand(rule: str) -> None:
    """1998 guidelines, game term "Bonked": "A Bonked Character is Set Aside for 1 Turn and then
    returns to Play (Health restored) at his owner's starting Haven during the owner's next Equip
    phase" - not to the hand at the Reload phase (Fifth Edition: silent, the 1998 text stands).
    Bonked in turn 1: still aside through turn 2; in the haven at turn 3's Equip phase, never
    through the hand."""
    game = bare_game(NINE)
    c = add_char(game, "Nabiki Tendo", 0)
    c.zone, c.bonked_turn, c.health = "bonked", 1, 0
    ed = edition(rule)
    for turn, zone in ((2, "bonked"), (3, "haven")):
        game.turn = turn
        reload_phase(game, ed, Policy())
        assert c.zone == "bonked" and c not in game.hand
        equip_phase(game, ed, Policy())
        assert c.zone == zone and c not in game.hand
    assert c.health == c.health_max


def _builders_at(game: Game, slot: int, names: list[str]) -> list[Char]:
    return [add_char(game, n, slot) for n in names]


def _haven_table() -> tuple[Game, Copy, list[Char]]:
    """Three characters at an emptied location (slot 4, not the starting haven's) and The Silky
    Doll (every character in play +1 charm) drawn into the hand; effects live."""
    game = effect_table()
    game.field = replace(game.field, haven_slot=0)
    silky = copy_of(game, "The Silky Doll")
    fx = by_trigger(silky.card.effects)  # type: ignore[arg-type]
    assert fx is not None
    game.fx[silky.card.id] = fx
    game.hand.append(silky)
    chars = _builders_at(game, 4, ["Nabiki Tendo", "A-ko Magami", "Kami"])
    return game, silky, chars


def test_an_extra_haven_drawn_is_built_by_three_characters_in_two_turns() -> None:
    """set0 "Haven": an additional haven drawn may be built beside a location by 3 characters
    there, who for two turns, the current one included, "cannot perform any actions"; "Equip
    Phase": played in the Equip phase, one haven per location. Built, it is the player's haven:
    its bonus (The Silky Doll: +1 charm to every character in play) reaches the characters."""
    game, silky, chars = _haven_table()
    charm = [c.cur[CHA] for c in chars]
    game.turn = 1
    equip_phase(game, edition("set0"), Policy())
    assert silky not in game.hand and [b.slot for b in game.building] == [4]
    assert all(not can_act(game, c) for c in chars)  # they rest: no move, scavenge or attack
    game.turn = 2
    equip_phase(game, edition("set0"), Policy())
    assert silky not in game.havens and all(not can_act(game, c) for c in chars)
    game.turn = 3
    equip_phase(game, edition("set0"), Policy())
    assert silky in game.havens and game.annexed == {4: silky} and not game.building
    assert all(can_act(game, c) for c in chars)
    assert [c.cur[CHA] for c in chars] == [x + 1 for x in charm]


def test_a_haven_built_in_a_game_without_effects_leaves_the_runs_table_alone() -> None:
    """A deck without encoded effects shares one empty effect table (GameSetup.fx) among all the
    games of a process. Building a haven switches effects on for that game only (its builders'
    rest is enforced there); the shared table stays empty, so a game's result never depends on
    the games played before it in the same worker."""
    game, _silky, chars = _haven_table()
    shared: dict[str, Triggers] = {}
    game.fx = shared
    game.turn = 1
    equip_phase(game, edition("set0"), Policy())
    assert [b.slot for b in game.building] == [4] and all(not can_act(game, c) for c in chars)
    assert game.fx and game.fx is not shared
    assert shared == {}


def test_a_haven_is_not_built_by_two_nor_beside_the_starting_haven() -> None:
    """set0 "Haven": "3 of your characters must be at the location"; "Equip Phase": "Each
    location card, however, can only have a maximum of one haven card annexed" (the starting
    haven's location has one)."""
    game, silky, chars = _haven_table()
    game.turn = 1
    chars[2].slot = 5  # only two at slot 4
    equip_phase(game, edition("set0"), Policy())
    assert silky in game.hand and not game.building
    for c in chars:
        c.slot = 0  # the starting haven's location
    equip_phase(game, edition("set0"), Policy())
    assert silky in game.hand and not game.building


def test_a_builder_who_leaves_stops_the_building() -> None:
    """set0 "Haven": the three "must remain at the location"; one bonked (or gone) before the
    two turns end leaves no haven: the card goes back to the hand."""
    game, silky, chars = _haven_table()
    game.turn = 1
    equip_phase(game, edition("set0"), Policy())
    chars[0].zone = "bonked"
    game.turn = 3
    equip_phase(game, edition("set0"), Policy())
    assert silky not in game.havens and not game.annexed
    assert silky in game.hand and not game.building
