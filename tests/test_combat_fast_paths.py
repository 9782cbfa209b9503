"""Combat's shortcuts give what the readable definitions they stand for give.

A combat round reads a combat card's physical half from integer slots (combat._Half) rather than
from the card, tests a disaster's standing rule without listing them (standing.has_standing,
has_rule), and caps the retaliating characters as it picks them (combat._retaliators). These
tests hold each to its definition on every card of the database.
"""

from __future__ import annotations

import dataclasses
import random

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import CombatCard, DisasterCard, PowerCard
from deckkit.animayhem.construction.modifiers import Modifier
from deckkit.animayhem.construction.vocabulary import Action
from deckkit.animayhem.engine import combat
from deckkit.animayhem.engine.cardrules import apply_mod
from deckkit.animayhem.engine.chance import ScriptedChance
from deckkit.animayhem.engine.gamecards import GameMod, apply_op, game_card
from deckkit.animayhem.engine.interpreter.standing import has_rule, has_standing
from deckkit.animayhem.engine.play import effects_of
from deckkit.animayhem.engine.queries import standing
from deckkit.animayhem.engine.record import CardStat, GameRecord
from deckkit.animayhem.engine.state import Char, Dis, Game


def _combat_cards() -> list[CombatCard]:
    return [c for c in load_card_db().cards if isinstance(c, CombatCard)]


def _applied(op: int, value: int, mod: Modifier | None, current: int) -> tuple[int, int]:
    """A half's coded modifier and the card's own on ``current`` (no modifier: unchanged)."""
    coded = current if op == combat.NO_MOD else apply_op(op, value, current)
    return coded, current if mod is None else apply_mod(mod, current)


def test_a_combat_cards_half_in_integers_is_the_printed_half() -> None:
    cards = _combat_cards()
    assert len(cards) > 20  # the whole database
    ops: set[str] = set()
    for card in cards:
        h = combat._half_of(card)
        half = card.physical
        assert (h.id, h.name, h.extra_draw) == (card.id, half.name, half.extra_draw)
        for op, value, mod in (
            (h.dmg_op, h.dmg, half.damage),
            (h.dfn_op, h.dfn, half.defense),
            (h.opp_dmg_op, h.opp_dmg, half.opp_damage),
            (h.opp_dfn_op, h.opp_dfn, half.opp_defense),
        ):
            assert (op == combat.NO_MOD) == (mod is None)
            if mod is not None:
                ops.add(mod.op)
            for current in range(-3, 13):
                coded, printed = _applied(op, value, mod, current)
                assert coded == printed, (card.name, mod, current)
    assert "+" in ops and len(ops) >= 2  # more than one kind of modifier was compared


def test_every_operation_code_is_the_modifiers_rule() -> None:
    for sign in ("+", "x", "/", "="):
        for value in (-2, 1, 3):
            mod = Modifier(sign, value)  # type: ignore[arg-type]
            for current in range(-4, 9):
                assert apply_op(combat._op(mod), value, current) == mod.apply(current)
                assert apply_mod(GameMod(mod), current) == mod.apply(current)


def test_a_power_cards_compiled_modifiers_are_its_printed_ones() -> None:
    """``GameCard.mod_slots`` (gamecards.GameMod) holds every printed modifier of a power card,
    in order, at its ability's slot, and applies as the printed one does."""
    slots = {"damage": 0, "defense": 1, "movement": 2, "charm": 3, "energy": 4}
    cards = [c for c in load_card_db().cards if isinstance(c, PowerCard) and c.modifiers]
    assert len(cards) > 20  # the whole database
    for card in cards:
        mods = game_card(card).mod_slots
        assert [(i, m.mod) for i, m in mods] == [(slots[a], m) for a, m in card.modifiers]
        for _, m in mods:
            for current in range(-3, 13):
                assert apply_mod(m, current) == m.mod.apply(current), (card.name, m.mod)


def test_a_changed_card_of_the_same_id_is_read_again() -> None:
    card = next(c for c in _combat_cards() if c.physical.damage is not None)
    first = combat._half_of(card)
    changed = dataclasses.replace(
        card, physical=dataclasses.replace(card.physical, damage=Modifier("+", 41))
    )
    again = combat._half_of(changed)
    assert again.card is changed and (again.dmg_op, again.dmg) == (combat.ADD, 41)
    assert combat._half_of(card).dmg == first.dmg  # and back


def test_a_combat_cards_charm_half_in_integers_plays_as_the_printed_half() -> None:
    """combat.charm_card's coded half changes the charms as queries.apply_charm_half does, on
    either side of a charm battle, for every combat card."""
    cards = _combat_cards()
    targets: set[str] = set()
    for card in cards:
        h = combat.charm_card(game_card(card))
        half = card.charm
        assert h.card is card and h.name == half.name
        targets.add(half.target)
        for recipient in range(-2, 9):
            for opponent in (0, 3, 7):
                mine, theirs = recipient, opponent
                if h.op != combat.NO_MOD:
                    if h.on_self:
                        mine = apply_op(h.op, h.value, mine)
                    else:
                        theirs = apply_op(h.op, h.value, theirs)
                assert (mine, theirs) == combat.apply_charm_half(half, recipient, opponent), (
                    card.name,
                    half,
                )
    assert {"self", "opponent"} <= targets  # both directions were compared


def test_a_standing_rule_is_found_as_the_list_of_them_finds_it() -> None:
    db = load_card_db()
    fx = effects_of(list(db.cards))
    disasters = [c for c in db.cards if isinstance(c, DisasterCard)]
    game = Game(ScriptedChance(), GameRecord(0, "stall", 0, 0, 0, 0, ""), None)
    checked = found = 0
    for card in disasters:
        d = Dis(1, card)
        d.fx = fx.get(card.id)
        for rule in Action:
            listed = bool(standing(d.fx, rule))
            credited = game.record.counters.get((card.id, CardStat.EFFECTS), 0)
            assert has_standing(d.fx, rule) == listed
            assert has_rule(game, d, rule) == listed
            # A rule it has counts as one use of its card's effect (and nothing else does).
            assert game.record.counters.get((card.id, CardStat.EFFECTS), 0) == credited + listed
            checked += 1
            found += listed
    assert checked > 1000 and found > 10


def _retaliators_by_definition(
    chosen: list[Char], able: list[Char], target: Char, cap: int
) -> list[Char]:
    picked = [target] if target in able else []
    for c in chosen:
        if c in able and c not in picked:
            picked.append(c)
    return picked[:cap]


def test_retaliators_are_capped_as_they_are_picked() -> None:
    card = next(c for c in load_card_db().cards if c.type.value == "character")
    chars = [Char(i, card) for i in range(7)]  # type: ignore[arg-type]
    rng = random.Random(18)
    for _ in range(2000):
        able = rng.sample(chars, rng.randint(0, 6))
        chosen = [rng.choice(chars) for _ in range(rng.randint(0, 6))]
        target = rng.choice(chars)
        cap = rng.randint(0, 5)
        got = combat._retaliators(chosen, able, target, cap)
        assert got == _retaliators_by_definition(chosen, able, target, cap)
        # A choice the rule already allows (as a player's usually is) comes back as it is;
        # one that breaks it by one member does not.
        others = [c for c in able if c is not target]
        allowed = ([target] if target in able else []) + rng.sample(
            others, rng.randint(0, len(others))
        )
        assert combat._retaliators(allowed, able, target, cap) == _retaliators_by_definition(
            allowed, able, target, cap
        )
        if allowed and len(allowed) <= cap:
            assert combat._retaliators(allowed, able, target, cap) == allowed
            broken = [*allowed, allowed[-1]]  # a member twice
            assert combat._retaliators(broken, able, target, cap + 1) == allowed
