"""The heuristic player's scavenging: whether a party declares a scavenge where it stands.

Each disaster face down under a location is revealed and fought or suffered before the item
(set0 rulebook, "Scavenge Phase"), and a combat disaster attacks the characters carrying items
first ("Determine Attackers").
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from deckkit.animayhem.engine.policy import (
    CARRIERS_SKIP_SCAVENGE,
    COUNTED_THREAT,
    HeuristicPolicy,
    _top_damage,
    can_beat,
    carriers_skip,
    counted_threat,
)
from deckkit.animayhem.engine.state import DMG, Dis
from tests.engine_helpers import add_char, copy_of, effect_table, new_disaster


def test_a_party_carrying_an_item_does_not_scavenge_above_a_face_down_disaster() -> None:
    """A-ko Magami and Krillin stand at Sewer (slot 0), an item beneath it under a face-down
    Goons. Empty-handed they scavenge; once Krillin carries Keys they do not (the Goons would
    attack him first, and the Keys are at stake for an item they may not reach); with the
    Goons gone and only the item left they scavenge again. Before, they scavenged in all
    three."""
    assert CARRIERS_SKIP_SCAVENGE
    game = effect_table()
    ako = add_char(game, "A-ko Magami", 0)
    krillin = add_char(game, "Krillin", 0)
    loc = game.locs[0]
    loc.hidden_cards.append(copy_of(game, "Earrings"))
    loc.hidden_disasters.append(new_disaster(game, "Goons"))
    party = [ako, krillin]
    player = HeuristicPolicy()
    assert player.scavenge(game, party, 0)
    krillin.items.append(copy_of(game, "Keys"))
    assert carriers_skip(game, party, 0)
    assert not player.scavenge(game, party, 0)
    loc.hidden_disasters.clear()
    assert not carriers_skip(game, party, 0)
    assert player.scavenge(game, party, 0)


def test_a_party_counts_the_unseen_disasters_before_it_scavenges() -> None:
    """A-ko Magami and Krillin stand at Sewer (slot 0), an item beneath it under a face-down
    Goons, which they could beat. With two more Goons in the draw pile they scavenge; with
    Freeza (1st form), whom they could not beat, and two Satellite Strikes (major non-combat)
    there instead, three of the four unseen disasters count against them, and they do not
    (``COUNTED_THREAT``); with one Satellite Strike swapped for a Goons, two of four, they
    still do not (half counts). Once the player has seen the disaster at Sewer (REVEAL), it
    weighs that one alone (``known_threat``) and scavenges. Before, they scavenged in every
    case."""
    assert COUNTED_THREAT
    game = effect_table()
    party = [add_char(game, "A-ko Magami", 0), add_char(game, "Krillin", 0)]
    loc = game.locs[0]
    loc.hidden_cards.append(copy_of(game, "Earrings"))
    goons = new_disaster(game, "Goons")
    loc.hidden_disasters.append(goons)
    game.draw_pile.extend(new_disaster(game, "Goons") for _ in range(2))
    player = HeuristicPolicy()
    assert not counted_threat(game, party, 0)
    assert player.scavenge(game, party, 0)
    strikes = [new_disaster(game, "Satellite Strike") for _ in range(2)]
    game.draw_pile[:] = [new_disaster(game, "Freeza (1st form)"), *strikes]
    assert counted_threat(game, party, 0)
    assert not player.scavenge(game, party, 0)
    game.draw_pile[2:] = [new_disaster(game, "Goons")]  # two of four unseen count
    assert counted_threat(game, party, 0)
    assert not player.scavenge(game, party, 0)
    game.known.add(goons.uid)
    assert not counted_threat(game, party, 0)
    assert player.scavenge(game, party, 0)


# Goons: a combat disaster A-ko Magami and Krillin can beat; Freeza (1st form): one they cannot;
# Satellite Strike: a major non-combat one.
THREATS = ["Goons", "Freeza (1st form)", "Satellite Strike"]


@settings(max_examples=60, deadline=None)
@given(
    under=st.lists(st.sampled_from(THREATS), min_size=1, max_size=3),
    elsewhere=st.lists(st.sampled_from(THREATS), max_size=3),
    drawn=st.lists(st.sampled_from(THREATS), max_size=6),
    seen=st.integers(min_value=0, max_value=3),
)
# Exactly half bad, the bad one weighed last (the answer is settled only by it); and the
# first one weighed bad, then too few left to make a half.
@example(under=["Goons"], elsewhere=[], drawn=["Freeza (1st form)"], seen=0)
@example(
    under=["Goons"], elsewhere=["Satellite Strike"], drawn=["Goons", "Freeza (1st form)"], seen=0
)
@example(under=["Freeza (1st form)"], elsewhere=["Goons", "Goons"], drawn=["Goons"], seen=0)
def test_counted_threat_is_the_count_of_every_unseen_disaster(
    under: list[str], elsewhere: list[str], drawn: list[str], seen: int
) -> None:
    """``counted_threat`` stops weighing disasters once its answer is settled: it answers as
    its definition does, with every unseen disaster weighed (under the locations, the first
    ``seen`` at Sewer seen already, and in the draw pile)."""
    assert COUNTED_THREAT
    game = effect_table()
    party = [add_char(game, "A-ko Magami", 0), add_char(game, "Krillin", 0)]
    game.locs[0].hidden_disasters.extend(new_disaster(game, n) for n in under)
    game.locs[1].hidden_disasters.extend(new_disaster(game, n) for n in elsewhere)
    game.draw_pile.extend(new_disaster(game, n) for n in drawn)
    for d in game.locs[0].hidden_disasters[:seen]:
        game.known.add(d.uid)
    unseen = [d for loc in game.locs for d in loc.hidden_disasters if d.uid not in game.known] + [
        x for x in game.draw_pile if isinstance(x, Dis)
    ]
    bad = sum(1 for d in unseen if (not can_beat(game, party, d) if d.combat else d.major))
    unseen_here = any(d.uid not in game.known for d in game.locs[0].hidden_disasters)
    assert counted_threat(game, party, 0) == (unseen_here and 2 * bad >= len(unseen))


@settings(max_examples=80, deadline=None)
@given(hits=st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=7),
       cap=st.integers(min_value=1, max_value=6))  # fmt: skip
@example(hits=[1, 2, 3, 4, 5], cap=3)
@example(hits=[5, 4, 3, 2, 1, 9], cap=4)
@example(hits=[2, 2, 7, 2, 7], cap=3)
def test_top_damage_is_the_sum_of_the_hardest_hits(hits: list[int], cap: int) -> None:
    """``_top_damage`` keeps the four hardest hits in order as it reads the party (caps 3 and
    4, the player's) and takes the weakest off the whole for other caps: both are the sum of
    the ``cap`` largest hits."""
    game = effect_table()
    party = [add_char(game, "Krillin", 0) for _ in hits]
    for c, hit in zip(party, hits, strict=True):
        cur = list(c.cur)
        cur[DMG] = hit
        c.cur = (cur[0], cur[1], cur[2], cur[3], cur[4])
    assert _top_damage(party, cap) == sum(sorted(hits, reverse=True)[:cap])
