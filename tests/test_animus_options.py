"""One test per named rule option (docs/interpretations.md, "Animus"): each of its values
plays as documented where animus-rules-v3.5.txt is silent."""

from __future__ import annotations

import pytest

from deckkit.animus.construction.options import CHOICES, RuleOptions, parse_options
from deckkit.animus.construction.pyramid import Pyramid, Shape
from deckkit.animus.construction.rules import rule_numbers
from deckkit.animus.engine import phases, queries
from deckkit.animus.engine.combat import fight
from deckkit.animus.engine.state import MELEE, RANGE, SUPPORT
from deckkit.errors import UsageError
from tests.animus_helpers import battle, card, filler, hand, put


def test_every_option_has_a_default_first_and_parses() -> None:
    """Each option's first listed value is RuleOptions' default; unknown values are refused."""
    base = RuleOptions()
    for name, values in CHOICES.items():
        assert getattr(base, name) == values[0]
        for value in values:
            assert getattr(parse_options([f"{name}={value}"]), name) == value
    with pytest.raises(UsageError):
        parse_options(["empty_deck=reshuffle"])
    with pytest.raises(UsageError):
        parse_options(["no_such=1"])


@pytest.mark.parametrize(("choice", "dice_used"), [("both_roll_two", 4), ("cancel", 2)])
def test_mutual_advantage(choice: str, dice_used: int) -> None:
    """mutual_advantage: when each fighter's gem names the other's type, both roll two dice
    (both_roll_two) or neither does (cancel)."""
    a = card("A", type="Power", advantage="Talent", melee=0)
    z = card("Z", type="Talent", advantage="Power", melee=0)
    b = battle([a], [z], rolls=[1, 6, 2, 3], options=RuleOptions(mutual_advantage=choice))
    ua, uz = put(b, 0, a, MELEE), put(b, 1, z, MELEE)
    fight(b, ua, uz)
    assert len(b.chance._picks) == 4 - dice_used  # type: ignore[attr-defined]
    # both_roll_two: A keeps 6, Z keeps 3 -> Z damaged; cancel: A 1, Z 6 -> A damaged
    assert (uz.damage, ua.damage) == ((1, 0) if choice == "both_roll_two" else (0, 1))


@pytest.mark.parametrize("choice", ["draw_what_remains", "lose"])
def test_empty_deck(choice: str) -> None:
    """empty_deck: a Reset Phase that cannot draw up to the hand size draws what is left
    (draw_what_remains) or loses the game (lose)."""
    team = filler("a", 2)
    b = battle(team, filler("z", 1), options=RuleOptions(empty_deck=choice))
    hand(b, 0, team[0])
    phases.reset_phase(b, b.sides[0])
    assert len(b.sides[0].hand) == 2
    if choice == "lose":
        assert b.over and b.record.winner == 1 and b.record.reason == "empty_deck"
    else:
        assert not b.over


@pytest.mark.parametrize(("choice", "room"), [("1", 1), ("2", 2), ("3", 3), ("unlimited", 7)])
def test_support_slots(choice: str, room: int) -> None:
    """support_slots: how many characters Support Position holds."""
    team = filler("a", 9)
    b = battle(team, filler("z", 1), options=RuleOptions(support_slots=choice))
    put(b, 0, team[0], MELEE)
    put(b, 0, team[1], RANGE, 0)
    placed = 0
    for c in team[2:]:
        slots = queries.open_slots(b, b.sides[0])
        support = [s for s in slots if s[0] == SUPPORT]
        if not support:
            break
        put(b, 0, c, SUPPORT)
        placed += 1
    assert placed == room


@pytest.mark.parametrize(("choice", "uses"), [("each_card", 2), ("one_per_turn", 1)])
def test_tactical_uses(choice: str, uses: int) -> None:
    """tactical_uses: every card's Tactical ability once a turn, or one for the player."""
    t1 = card("T1", text="Tactical: damage(1)")
    t2 = card("T2", text="Tactical: damage(1)")
    z = card("Z", melee=0)
    b = battle([t1, t2], [z], options=RuleOptions(tactical_uses=choice))
    put(b, 0, t1, MELEE)
    put(b, 0, t2, RANGE, 0)
    uz = put(b, 1, z, MELEE)
    phases.tactical_phase(b, b.sides[0])
    phases.tactical_phase(b, b.sides[0])
    assert uz.damage == uses


@pytest.mark.parametrize("choice", ["team", "in_play"])
def test_last_character(choice: str) -> None:
    """last_character: a player loses at once when no character is left in play, hand or deck
    (team) or when none is left in play (in_play)."""
    a = card("A", melee=0)
    z = card("Z", melee=9, type="Skill", advantage="Nothing")
    b = battle([a, *filler("a", 2)], [z], rolls=[1, 6], options=RuleOptions(last_character=choice))
    ua = put(b, 0, a, MELEE, damage=2)
    uz = put(b, 1, z, MELEE)
    fight(b, ua, uz)
    if choice == "in_play":
        assert b.over and b.record.winner == 1 and b.record.reason == "no_characters"
    else:
        assert not b.over  # two cards still in the deck


@pytest.mark.parametrize(("choice", "face_up"), [("alternate", 3 + 5), ("hidden", 3)])
def test_pyramid(choice: str, face_up: int) -> None:
    """pyramid: which rows of the 18 start face up; in both, only the front 3 may be taken
    ("In the example above, only the bottom 3 cards can be selected")."""
    layout = rule_numbers().layouts[choice]
    p = Pyramid(Shape.of(layout), [f"c{i}" for i in range(18)])
    assert len(p.visible()) == face_up
    assert p.available() == [15, 16, 17]
