"""Rule edges where a one-character change to the engine once passed every test: an even item
tally, a scavenging party that must stop, health reaching exactly 0, an emptied location. Each
test cites its passage (set0 rulebook unless another document is named)."""

from __future__ import annotations

import pytest

from deckkit.animayhem.engine.combat import GameOver
from deckkit.animayhem.engine.endgame import check_end
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.interpreter.turns import affect
from deckkit.animayhem.engine.scavenge import scavenge
from deckkit.animayhem.engine.state import Dis, Game
from tests.engine_helpers import (
    NINE,
    ScriptedPolicy,
    add_char,
    bare_game,
    copy_of,
    edition,
    effect_table,
    new_disaster,
)


def _tally(held: int, theirs: int, hidden: int, unscavenged: bool = True) -> Game:
    """The player holds ``held`` items, the disasters ``theirs``; ``hidden`` lie under a
    location: a tally of held + theirs + hidden. ``unscavenged``: a disaster still lies under
    another location, so the 1998 "all locations scavenged" end cannot apply."""
    game = bare_game(NINE)
    if unscavenged:
        game.locs[2].hidden_disasters = [new_disaster(game, "Goons")]
    c = add_char(game, "Kami", 0)
    c.items = [copy_of(game, "Piece of Cake") for _ in range(held)]
    game.carried_off = [copy_of(game, "Go Board") for _ in range(theirs)]
    game.locs[1].hidden_cards = [copy_of(game, "Keys") for _ in range(hidden)]
    game.items_in_play = held + theirs + hidden
    return game


def _ends(game: Game, rule: str) -> str | None:
    """The outcome if the edition's end conditions hold now (at the Discard phase), else None."""
    try:
        check_end(game, edition(rule), at_discard=True)
    except GameOver:
        return game.outcome
    return None


@pytest.mark.parametrize(
    ("rule", "half_for_player", "half_for_disasters"),
    [
        # set0 "Object of the Game": "If the players retrieve more than half of the item
        # cards, then the player with the most item cards wins. If the disasters retrieve or
        # remove from play more than half of the item cards, all players lose."
        ("set0", None, None),
        # 1996 rules (opening paragraph): "If the Disasters retrieve more than half the Items,
        # the deck wins. If the players retrieve half or more, the player with the most number
        # of Items wins."
        ("general1996", "win", None),
        # 1998 guidelines 4.1: "Controls a majority of Items" (more than half) for either side.
        ("guidelines1998", None, None),
    ],
)
def test_majority_at_an_even_item_tally(
    rule: str, half_for_player: str | None, half_for_disasters: str | None
) -> None:
    """With 8 items, 4 is exactly half: the player wins with it only under the 1996 wording
    ("half or more"); the disasters never do (every edition says "more than half"); 5 is a
    majority everywhere. A disaster stays under a location, so the 1998 "all locations
    scavenged" end does not apply."""
    assert _ends(_tally(4, 0, 4), rule) == half_for_player
    assert _ends(_tally(0, 4, 4), rule) == half_for_disasters
    assert _ends(_tally(4, 4, 0), rule) == half_for_player
    assert _ends(_tally(3, 4, 1), rule) is None
    assert _ends(_tally(5, 0, 3), rule) == "win"
    assert _ends(_tally(0, 5, 3), rule) == "loss"


class Stays(ScriptedPolicy):
    """Never retreats; would go on scavenging."""


def _ambushed() -> tuple[Game, Dis]:
    """Nabiki Tendo (Streetwise: she meets the Sewer's listing) and Genma Saotome scavenge the
    Sewer; beneath it lie Vampiric Ambush (a minor combat disaster whose card spares every
    character who is not female), then Goons, then an item."""
    game = effect_table(Stays())
    nabiki = add_char(game, "Nabiki Tendo", 0)
    genma = add_char(game, "Genma Saotome", 0)
    ambush = new_disaster(game, "Vampiric Ambush")
    fx = by_trigger(ambush.card.effects)  # type: ignore[arg-type]
    assert fx is not None
    ambush.fx = game.fx[ambush.card.id] = fx
    goons = new_disaster(game, "Goons")
    loc = game.locs[0]
    loc.hidden_disasters = [ambush, goons]
    loc.hidden_cards = [copy_of(game, "Keys")]
    game.combat_pile = []
    assert nabiki.zone == genma.zone == "field"
    return game, goons


def test_scavenging_stops_when_the_revealed_disaster_beats_all_who_fought_it() -> None:
    """ "Scavenge Phase": "If a combat disaster is revealed, your party must defeat it in combat
    to continue." Vampiric Ambush fights Nabiki alone (Genma, spared, stands by); it bonks her
    and is not defeated, so the party may not go on: Goons stay beneath, the item is not
    retrieved, and the location cannot be scavenged again this turn, though Genma still stands
    there unhurt."""
    game, goons = _ambushed()
    nabiki, genma = game.chars
    party = [nabiki, genma]
    assert scavenge(game, edition("guidelines1998"), Stays(), party, 0) is False
    loc = game.locs[0]
    assert nabiki.zone == "bonked"
    assert genma.zone == "field" and genma.slot == 0 and genma.health == genma.health_max
    assert loc.hidden_disasters == [goons] and len(loc.hidden_cards) == 1
    assert not genma.items and 0 in game.done_scavenging and 0 not in game.scavenged


@pytest.mark.parametrize(("name", "bonked"), [("Nabiki Tendo", True), ("Kami", False)])
def test_card_damage_to_exactly_zero_health_bonks(name: str, bonked: bool) -> None:
    """Lexicon "Bonked": "Nabiki Tendo will be bonked if she reaches 0 health or less"; card
    damage is no exception (docs/effects.md, `damage`: "0 or less is bonked"). Acid Head's
    shipped entry deals 1 health three times: Nabiki (health 3) reaches exactly 0 and is
    bonked; Kami (health 4) is left at 1."""
    game = effect_table()
    c = add_char(game, name, 4)
    d = new_disaster(game, "Acid Head")
    fx = by_trigger(d.card.effects)  # type: ignore[arg-type]
    assert fx is not None
    d.fx = game.fx[d.card.id] = fx
    assert c.health == (3 if bonked else 4)
    affect(game, d, 4)
    assert (c.zone == "bonked") is bonked
    if not bonked:
        assert c.health == 1 and c.zone == "field"


def test_1998_an_emptied_location_counts_as_scavenged() -> None:
    """1998 guidelines 4.1: the game ends when "all Locations have been Scavenged". A location
    with nothing left beneath it (its item taken by a disaster, its cards cleared) has nothing
    to scavenge: it counts, or the game could never end this way. One still hiding a card does
    not."""
    game = _tally(3, 3, 0, unscavenged=False)
    game.scavenged = set(range(8))  # the ninth, slot 8, was emptied without being scavenged
    assert _ends(game, "guidelines1998") == "loss"  # 3 each: the player does not hold more
    game = _tally(3, 3, 0, unscavenged=False)
    game.scavenged = set(range(8))
    game.locs[8].hidden_disasters = [new_disaster(game, "Goons")]
    assert _ends(game, "guidelines1998") is None
