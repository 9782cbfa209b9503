"""The heuristic player's costly decisions, each mended: tested on hand-laid tables."""

from __future__ import annotations

from deckkit.animayhem.engine.policy import HeuristicPolicy
from deckkit.animayhem.engine.state import ENE
from tests.engine_helpers import (
    NINE,
    add_char,
    bare_game,
    copy_of,
    edition,
    entry_of,
    new_disaster,
    on_field,
)


def _fighter_with(hand: list[str]):  # type: ignore[no-untyped-def]
    game = bare_game(NINE)
    c = add_char(game, "Krillin", 4)
    c.set_energy(5)
    game.hand.extend(copy_of(game, n) for n in hand)
    return game, c


def test_a_shield_too_small_to_save_the_attacked_character_is_kept() -> None:
    """High Ground (+1 defense) cannot keep a character short by 3 standing: no card is spent
    on one the round knocks out anyway."""
    game, c = _fighter_with(["High Ground"])
    assert HeuristicPolicy().combat_flash(game, [c], c, 0, 3) == []


def test_a_shield_that_is_enough_is_played_on_the_attacked_character() -> None:
    game, c = _fighter_with(["Fire Shield", "High Ground"])
    plays = HeuristicPolicy().combat_flash(game, [c], c, 0, 3)
    assert sorted(x.card.name for x, _ in plays) == ["Fire Shield", "High Ground"]
    assert all(on is c for _, on in plays)


def test_cards_together_are_weighed_against_the_shortfall() -> None:
    """Two +2 damage cards finish a disaster 4 short; one +2 card alone does not and is kept."""
    game, c = _fighter_with(["Laser Eyes", "Assisted Shot"])
    assert len(HeuristicPolicy().combat_flash(game, [c], c, 4, 0)) == 2
    game, c = _fighter_with(["Laser Eyes"])
    assert HeuristicPolicy().combat_flash(game, [c], c, 4, 0) == []


def test_no_damage_card_goes_to_the_character_the_round_knocks_out() -> None:
    """The attacked character is doomed this round (no shield in hand): the damage card goes to
    another fighter."""
    game, target = _fighter_with(["Laser Eyes"])
    other = add_char(game, "Goten", 4)
    plays = HeuristicPolicy().combat_flash(game, [target, other], target, 2, 5)
    assert [(x.card.name, on) for x, on in plays] == [("Laser Eyes", other)]
    # Alone and doomed, it keeps the card.
    game, target = _fighter_with(["Laser Eyes"])
    assert HeuristicPolicy().combat_flash(game, [target], target, 2, 5) == []


def test_energy_is_counted_across_the_cards_of_a_round() -> None:
    """Fire Shield costs 3: with 4 energy the attacked character can pay for one, not two."""
    game, c = _fighter_with(["Fire Shield", "Fire Shield"])
    c.set_energy(4)
    assert c.cur[ENE] == 4
    assert HeuristicPolicy().combat_flash(game, [c], c, 0, 4) == []
    c.set_energy(6)
    assert len(HeuristicPolicy().combat_flash(game, [c], c, 0, 4)) == 2


def _party_at_furinkan_and(newcomer: str):  # type: ignore[no-untyped-def]
    """Krillin and A-ko at Furinkan High (slot 6); items lie only under Tea Room Transylvania
    (slot 7, two steps beyond the haven's location); ``newcomer`` waits in the haven."""
    game = bare_game(NINE)
    party = [add_char(game, "Krillin", 6), add_char(game, "A-ko Magami", 6)]
    new = add_char(game, newcomer, -1)
    game.locs[7].hidden_cards.append(copy_of(game, "Family Picture"))
    return game, party, new


def test_a_weak_newcomer_that_cannot_reach_the_party_waits_in_the_haven() -> None:
    """Priss (3/2, movement 2) cannot reach where the party stops: she no longer sets out alone
    and ends her move by herself between the haven and the party."""
    game, _, priss = _party_at_furinkan_and("Priss Asagiri")
    plans = HeuristicPolicy().moves(game, edition("guidelines1998"))
    assert [([c.name for c in p], r) for p, r in plans] == [(["Krillin", "A-ko Magami"], [7])]
    assert all(priss not in p for p, _ in plans)


def test_a_newcomer_joins_the_party_where_it_stops() -> None:
    """Goten (movement 3) reaches Tea Room Transylvania, where the party stops: he goes there."""
    game, _, _ = _party_at_furinkan_and("Goten")
    plans = dict(
        (p[0].name, r) for p, r in HeuristicPolicy().moves(game, edition("guidelines1998"))
    )
    assert plans["Krillin"] == [7]
    assert plans["Goten"][-1] == 7


def _facing_kishiime(names: list[str]):  # type: ignore[no-untyped-def]
    """``names`` at Cathedral (slot 3) with Kishiime, whom only a character with Speed can
    hurt (its SHIELD, as the card database encodes it)."""
    game = bare_game(NINE)
    party = [add_char(game, n, 3) for n in names]
    d = on_field(game, new_disaster(game, "Kishiime"), 3)
    d.fx = game.fx[d.card.id] = entry_of(
        d.card, 'effects = [{ when = "always", do = "shield", exclude = "Speed" }]'
    )
    return game, party, d


def test_a_disaster_the_party_cannot_hurt_is_not_one_it_can_beat() -> None:
    """Krillin and A-ko (damage 4 + 4 against Kishiime's defense 6) would take its 6 health in
    three rounds, but neither has Speed, so neither hurts it: the player neither attacks it
    nor stays in the fight (it used to do both, and a stronger Krillin made it do so more)."""
    game, party, d = _facing_kishiime(["Krillin", "A-ko Magami"])
    policy = HeuristicPolicy()
    assert not policy.attack(game, d, party)
    assert policy.retreat(game, d, party, 1)
    # Characters with Speed do hurt it: Trunks and Piccolo (6 + 5 against 6) can beat it.
    game, party, d = _facing_kishiime(["Super Saiyan (Trunks)", "Piccolo"])
    assert HeuristicPolicy().attack(game, d, party)
