"""The compiled engine's copies of the construction layer's card rules give the same answers.

engine/cardrules.py repeats requirements.requirement_met, requirements.skill_totals and
Modifier.apply so the compiled engine need not call into the interpreter; the construction
layer stays the definition, and these tests hold the copies to it on every printed requirement
of the card database and parties of its characters.
"""

from __future__ import annotations

import random

from deckkit.animayhem.construction import requirements
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import CharacterCard, Modifier
from deckkit.animayhem.construction.requirements import Requirement
from deckkit.animayhem.engine import cardrules
from deckkit.animayhem.engine.state import Char


def _requirements() -> list[Requirement]:
    reqs: dict[str, Requirement] = {}
    for card in load_card_db().cards:
        req = getattr(card, "requirement", None)
        if isinstance(req, Requirement):
            reqs.setdefault(req.text, req)
    return list(reqs.values())


def _characters() -> list[Char]:
    cards = [c for c in load_card_db().cards if isinstance(c, CharacterCard)]
    return [Char(i, card) for i, card in enumerate(cards, start=1)]


def test_requirement_met_matches_the_construction_layer() -> None:
    reqs = _requirements()
    chars = _characters()
    assert len(reqs) > 50 and len(chars) > 50  # the whole database, not a sample of it
    rng = random.Random(18)
    parties = [[c] for c in chars] + [rng.sample(chars, rng.randint(2, 4)) for _ in range(300)]
    met = 0
    for party in parties:
        totals = cardrules.skill_totals(party)
        assert totals == requirements.skill_totals(party)
        for req in reqs:
            want = requirements.requirement_met(req, party)
            assert cardrules.requirement_met(req, party) == want, (req.text, party)
            assert cardrules.requirement_met(req, party, totals) == want, (req.text, party)
            met += want
    assert 0 < met < len(parties) * len(reqs)  # both answers occur


def test_apply_mod_matches_modifier_apply() -> None:
    for op in ("+", "x", "/", "="):
        for value in (-3, -1, 1, 2, 3, 7):
            if op in "x/" and value < 1:
                continue
            mod = Modifier(op, value)  # type: ignore[arg-type]
            for current in range(-5, 12):
                assert cardrules.apply_mod(mod, current) == mod.apply(current), (mod, current)


def test_every_term_holds_as_the_construction_layer_says_with_cards_carried() -> None:
    """Term by term (as EASE counts them), for parties carrying items and equipment of the
    database, so categories, vehicles and named cards on carried cards are asked too."""
    from deckkit.animayhem.construction.cards import ItemCard, PowerCard
    from deckkit.animayhem.engine.gamecards import game_requirement
    from deckkit.animayhem.engine.state import Copy

    db = load_card_db().cards
    carried = [c for c in db if isinstance(c, ItemCard | PowerCard)]
    chars = _characters()
    rng = random.Random(7)
    uid = 10_000
    for c in chars:
        for _ in range(rng.randint(0, 2)):
            uid += 1
            card = rng.choice(carried)
            (c.equipment if isinstance(card, PowerCard) else c.items).append(Copy(uid, card))
    parties = [rng.sample(chars, rng.randint(1, 4)) for _ in range(300)]
    held = 0
    for req in _requirements():
        for alt, galt in zip(req.alternatives, game_requirement(req).alternatives, strict=True):
            for term, gterm in zip(alt, galt, strict=True):
                for party in parties:
                    want = requirements.term_met(term, party)
                    assert cardrules.term_holds(gterm, party) == want, (str(term), party)
                    held += want
    assert held > 0
