"""Rule boundaries no other test pinned: a location's defense met exactly, a charged attack's
energy, an enhancement costing all the energy there is, a second start of scavenging, the end
of a combat with one fighter left, charm below 0 in the engine's charm battle, and Skirmish's
two-copy cap on power cards an edition limits to three. Each test cites its passage and runs
the engine's (or the legality check's) own code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.construction.deck import DeckEntry
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.legality import check_deck
from deckkit.animayhem.construction.readings import apply_rules
from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.chance import ScriptedChance
from deckkit.animayhem.engine.combat import charm_battle, fight
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.movement import place_disaster
from deckkit.animayhem.engine.policy import Policy
from deckkit.animayhem.engine.scavenge import passes_skill_test, scavenge
from deckkit.animayhem.engine.state import CHA, DMG, ENE, Char, Copy, Dis, Game
from tests.engine_helpers import (
    NINE,
    ScriptedPolicy,
    add_char,
    bare_game,
    copy_of,
    edition,
    effect_table,
    new_disaster,
    on_field,
    stack_combat_pile,
)
from tests.test_legality import _skirmish as skirmish_deck
from tests.test_legality import power, rules


def _rules(name: str, **chosen: str) -> Edition:
    """An edition with rule options set explicitly (defaults may change between releases)."""
    return apply_rules(edition(name), chosen)


def _rounds(game: Game) -> list[dict[str, object]]:
    assert game.trace is not None
    return [e for e in game.trace.events if e["kind"] == "round"]


# --- Set 0 "Locations with Defense": greater than, not equal to ----------------------------


def test_location_defense_is_passed_only_by_greater_combined_damage() -> None:
    """set0 rulebook, "Locations with Defense": a group without the required skills may
    scavenge "if they can attack the location with a combined damage greater than the location
    card's defense". Cest Lavie (defense 5, Streetwise or Seduction): Kami (4) and Nene
    Romanova (1), neither with those skills, reach exactly 5, which is not enough; Kami and
    Genma Saotome (3) reach 7 and may scavenge."""
    game = bare_game(["Cest Lavie"])
    assert game.locs[0].card.defense == 5  # type: ignore[attr-defined]
    kami = add_char(game, "Kami", 0)
    nene = add_char(game, "Nene Romanova", 0)
    genma = add_char(game, "Genma Saotome", 0)
    assert kami.cur[DMG] + nene.cur[DMG] == 5
    assert not passes_skill_test(game, [kami, nene], 0)
    assert kami.cur[DMG] + genma.cur[DMG] == 7
    assert passes_skill_test(game, [kami, genma], 0)


# --- a charged attack spends what it puts in ----------------------------------------------


class _FlashOnce(ScriptedPolicy):
    """Every character at the location fights; ``flash`` is played on ``on`` in round 1."""

    def __init__(self, flash: Copy, on: str) -> None:
        super().__init__()
        self.flash: Copy | None = flash
        self.on = on

    def fighters(self, game: Game, d: Dis, able: list[Char], target: Char, cap: int) -> list[Char]:
        return list(able)

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        if self.flash is None:
            return []
        who = next(c for c in fighters if c.name == self.on)
        flash, self.flash = self.flash, None
        return [(flash, who)]


def _shipped_copy(game: Game, name: str) -> Copy:
    x = copy_of(game, name)
    fx = by_trigger(x.card.effects)
    assert fx is not None, f"{name} ships no effects"
    game.fx[x.card.id] = fx
    game.acts = frozenset(e.do for f in game.fx.values() for t in f.values() for _, e in t)
    return x


def test_charged_attack_spends_the_energy_it_puts_in() -> None:
    """Kamehameha (card_db/animayhem/effects/power-effects.toml, am262: "adds the character's
    current energy (then spent)"; docs/effects.md, `charge`): Adult Gohan (Chi x2, energy 4)
    adds his 4 energy to his attack for the round and has none left: in round 2, before any
    energy comes back ("End of Combat and Revitalization" restores it only when the combat
    ends), he has 0 energy, and the charge is not added a second time. The disaster is made
    tough enough to last past round 2, and the combat ends by retreat in round 3."""
    game = effect_table()
    gohan = add_char(game, "Adult Gohan", 4)
    gohan.health = gohan.health_max = 99
    assert gohan.cur[ENE] == 4
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    d.charm = 0
    d.defense = 40  # health 40: no round ends the combat
    flash = _shipped_copy(game, "Kamehameha")
    game.hand.append(flash)
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 40)
    seen: list[int] = []

    class Watch(_FlashOnce):
        def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
            seen.append(gohan.cur[ENE])  # at the start of each round
            return rnd > 2

    fight(game, _rules("guidelines1998", charm="off"), Watch(flash, "Adult Gohan"), d, 4, "party")
    first, second = _rounds(game)[:2]
    base = gohan.card.abilities.damage  # type: ignore[attr-defined]
    assert first["party_damage"] == base + 4
    assert second["party_damage"] == base
    # Round 2 starts with what the charge left: 0 (+1 "Energy Gain" for having spent energy).
    assert seen[:2] == [4, 1]
    assert gohan.cur[ENE] == 4  # restored when the combat ended


# --- an enhancement costing exactly the energy left ----------------------------------------


@pytest.mark.parametrize(("energy", "damage"), [(2, 5), (1, 4)])
def test_enhancement_costing_all_the_energy_left_can_be_used(energy: int, damage: int) -> None:
    """set0 rulebook, "Enhancement": the character pays the energy cost each time the card is
    used, once per combat round. Juraian Battlesuit (cost 2, +1 damage; 1998 errata) on Kami
    with exactly 2 energy: he can pay it, so he attacks with 4 + 1 = 5; with 1 energy he cannot,
    and attacks with 4. The cost is taken from the energy he has (2 - 2 = 0, then +1 for having
    spent energy, "Energy Gain")."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)  # damage 4, energy 6
    kami.enhancements.append(copy_of(game, "Juraian Battlesuit"))
    refresh(game, kami)
    kami.set_energy(energy)
    assert kami.cur[ENE] == energy
    game.combat_pile = []
    d = new_disaster(game, "Toma's Guards")
    place_disaster(game, d, game.field.path_index[0])
    left: list[int] = []

    class OneRound(ScriptedPolicy):
        def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
            if rnd > 1:
                left.append(kami.cur[ENE])
            return rnd > 1

    fight(game, _rules("set0", charm="off"), OneRound(), d, 0, "disaster")
    assert _rounds(game)[0]["party_damage"] == damage
    # Round 2 starts with 1 either way: 2 - 2 + 1 ("Energy Gain"), or the 1 never spent.
    assert left == [1]


# --- 1998 guidelines 2.9: scavenging starts once per turn ----------------------------------


def test_a_party_with_a_member_who_already_started_scavenging_cannot_start_again() -> None:
    """1998 guidelines 2.9: "A Character may only Start Scavenging once per Controlling
    player's Turn." Kami started scavenging this turn elsewhere and walked on to the Sewer
    (Streetwise or Strength) with A-ko Magami (Strength x3), who has not: the party with Kami in
    it may not start scavenging the Sewer, though A-ko alone meets its listing; the next turn
    (the started set cleared) it may."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)
    ako = add_char(game, "A-ko Magami", 0)
    loc = game.locs[0]
    assert loc.g.name == "Sewer"
    loc.hidden_cards = [copy_of(game, "Keys")]
    game.scavenge_started.add(kami.uid)
    ed = edition("guidelines1998")
    assert passes_skill_test(game, [kami, ako], 0)
    assert scavenge(game, ed, Policy(), [kami, ako], 0) is False
    assert len(loc.hidden_cards) == 1 and not kami.items and not ako.items
    assert ako.uid not in game.scavenge_started
    game.scavenge_started.clear()  # a new turn (phases: the started set is cleared)
    assert scavenge(game, ed, Policy(), [kami, ako], 0) is True
    assert not loc.hidden_cards


# --- Set 0 "Check for End of Combat": all of them, not any ---------------------------------


def test_combat_goes_on_while_one_retaliating_character_stands() -> None:
    """set0 rulebook, "Disaster Attacking Your Characters > Check for End of Combat": "The
    combat ends if all retaliating characters this combat round are bonked or killed."
    Toma's Guards (6/6) attack Nabiki Tendo (defense 3, health 3) and Kami (4/4) fighting
    together, charm battles off: round 1 it bonks Nabiki (6 - 3 = 3), and the party's 1 + 4 does
    not pass its defense 6; Kami still stands, so the combat goes on. Round 2 it hits Kami
    (6 - 4 = 2, health 2), round 3 again (health 0): only then is every fighter down."""
    game = bare_game(NINE, chance=ScriptedChance())
    nabiki = add_char(game, "Nabiki Tendo", 0)
    kami = add_char(game, "Kami", 0)
    d = new_disaster(game, "Toma's Guards")
    place_disaster(game, d, game.field.path_index[0])
    game.combat_pile = []
    policy = ScriptedPolicy(["Nabiki Tendo", "Kami"])  # both fight, never retreat
    result = fight(game, _rules("set0", charm="off"), policy, d, 0, "disaster")
    rounds = _rounds(game)
    assert [[h["name"] for h in r["hits"]] for r in rounds] == [  # type: ignore[attr-defined]
        ["Nabiki Tendo"],
        ["Kami"],
        ["Kami"],
    ]
    assert result == "wiped"
    assert nabiki.zone != "field" and kami.zone != "field"


# --- 1998 guidelines 1.5: charm is never below 0 in the engine's charm battle ---------------


@pytest.mark.parametrize(
    ("on_disaster", "on_character", "disaster_charm", "expected"),
    [
        # Kami 1 - 3 (Scandal) = -2 counts as 0; the disaster's 0 - 1 (Overdoing It) = -1
        # counts as 0: a tie, where the raw numbers (-2 against -1) would lose it.
        ("Avoid / Overdoing It", "Charge / Scandal", 0, 0),
        # The disaster's 1 - 3 (Scandal) = -2 counts as 0; Kami 1 + 1 (Stunning Smile) = 2
        # wins by 2, not by 4.
        ("Charge / Scandal", "Club / Stunning Smile", 1, 2),
    ],
)
def test_charm_battle_totals_are_never_below_zero(
    on_disaster: str, on_character: str, disaster_charm: int, expected: int
) -> None:
    """1998 guidelines 1.5: "Total Attack, Defense, and Charm cannot be less than 0." In the
    engine's charm battle (combat.charm_battle; set0 "Your Character Charming a Disaster > Draw
    Combat Cards": one card's charm half on the disaster, one on the character) a total pushed
    below 0 counts as 0 on either side."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)
    assert kami.cur[CHA] == 1
    d = on_field(game, new_disaster(game, "Toma's Guards"), 0)
    d.charm = disaster_charm
    stack_combat_pile(game, [on_disaster, on_character])
    assert charm_battle(game, kami, d) == expected
    assert not game.combat_pile


# --- Set 0 "Two-player: Skirmish": two copies, also where the edition allows three ----------


@pytest.mark.parametrize("rule", ["set0", "general1996", "guidelines1998", "fifth2018"])
@pytest.mark.parametrize("kind", [CardType.EQUIPMENT, CardType.FLASH_EFFECT])
def test_skirmish_caps_power_cards_an_edition_allows_three_of(rule: str, kind: CardType) -> None:
    """set0 rulebook, Part IV "Two-player: Skirmish": "Each player cannot have more than two of
    any given item card, combat card, disaster card, and power card" (variants.toml,
    pile_copy_limit = 2). Every edition allows 3 of a power card in a standard deck
    (editions/*.toml, copy_limits.power); in Skirmish 3 copies are one too many and 2 are
    legal."""
    assert edition(rule).copy_limit("power") == 3
    base = skirmish_deck(power_cards=17)
    for copies, legal in ((3, False), (2, True)):
        card = power(f"Thrice {rule} {kind.value}", kind)
        padding = [DeckEntry(power(f"Pad {rule} {kind.value}", kind), 1, 98)] if copies == 2 else []
        deck = replace(base, entries=(*base.entries, DeckEntry(card, copies, 99), *padding))
        report = check_deck(deck, rule, "skirmish", 2)
        assert report.counts["power"] == 20
        if legal:
            assert report.legal, report.violations
        else:
            assert rules(report) == {"skirmish.copies"}


def test_skirmish_caps_a_printed_limit_of_three() -> None:
    """A card printing its own limit of 3 (card text beats the rulebook) is still held to
    Skirmish's 2: the variant's cap is the smaller (set0 Part IV "Two-player: Skirmish")."""
    base = skirmish_deck(power_cards=17)
    card = power("Printed three", CardType.EQUIPMENT, deck_limit=3)
    deck = replace(base, entries=(*base.entries, DeckEntry(card, 3, 99)))
    assert rules(check_deck(deck, "guidelines1998", "skirmish", 2)) == {"skirmish.copies"}


def test_flash_effect_cost_counts_for_energy_gain_and_returns_after_combat() -> None:
    """set0 rulebook, "Disaster Attacking Your Characters": "Energy Gain": "All retaliating
    characters who expended energy this combat round gain 1 energy"; "End of Combat and
    Revitalization": "All characters in play regain full energy." A flash effect's cost is
    energy expended ("Flash Effect": the targeted character pays the energy cost). Kami (energy
    6) pays 2 for Big Sucker Gas Slash in round 1: round 2 starts with 6 - 2 + 1 = 5, and after
    the combat he has his 6 again."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)
    assert kami.cur[ENE] == 6
    slash = copy_of(game, "Big Sucker Gas Slash")
    assert slash.card.energy_cost == 2  # type: ignore[attr-defined]
    game.hand.append(slash)
    game.combat_pile = []
    d = new_disaster(game, "Toma's Guards")
    d.damage = 4  # no more than Kami's defense: he stays in play through the retreat
    place_disaster(game, d, game.field.path_index[0])
    seen: list[int] = []

    class Watch(_FlashOnce):
        def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
            seen.append(kami.cur[ENE])
            return rnd > 1

    fight(game, _rules("set0", charm="off"), Watch(slash, "Kami"), d, 0, "disaster")
    assert _rounds(game)[0]["party_damage"] == 4 + 2
    assert seen == [6, 5]
    assert kami.zone == "field" and kami.cur[ENE] == 6
