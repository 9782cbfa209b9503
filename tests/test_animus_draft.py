"""The draft pyramid, draft legality and the draft simulator's policies
(animus-rules-v3.5.txt, "Setup", Draft Characters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animus.construction.carddb import load_cards
from deckkit.animus.construction.legality import check_team
from deckkit.animus.construction.pyramid import Pyramid, Shape, picker_order
from deckkit.animus.construction.rules import rule_numbers
from deckkit.animus.construction.team import read_team
from deckkit.animus.engine.draft import DRAFT_POLICIES, CounterDraft, DraftView, draft


def test_pick_order_one_two_then_alternating() -> None:
    """ "The first player to draft may select 1 card ... The second player ... will then select
    2 cards ... each player will alternate drafting a single card at a time until all of the
    cards have been taken." 18 picks, 9 each."""
    order = picker_order(rule_numbers().opening_picks, 18)
    assert order[:5] == [0, 1, 1, 0, 1]
    assert order.count(0) == order.count(1) == 9


def test_uncovered_cards_flip_and_become_available() -> None:
    """ "A player may only select cards that are faceup and do not have any other cards on top
    of them ... When a facedown card has no other cards on top of it, it is flipped faceup." """
    p = Pyramid(Shape.of(rule_numbers().layouts["hidden"]), [f"c{i}" for i in range(18)])
    assert p.available() == [15, 16, 17]
    with pytest.raises(ValueError):
        p.take(12)  # covered
    p.take(15)
    assert 11 in p.available() and p.face_up[11]  # rested on 15 alone
    assert 12 not in p.available() and not p.face_up[12]  # still under 16
    p.take(16)
    assert 12 in p.available() and p.face_up[12]


def test_a_draft_gives_each_nine_cards_and_policies_see_no_face_down_card() -> None:
    """Every policy's view holds only face-up cards; the draft hands out all 18."""
    seen: list[DraftView] = []

    class Spy(CounterDraft):
        def pick(self, view: DraftView, chance: object) -> int:  # type: ignore[override]
            seen.append(view)
            assert set(view.available) <= set(view.visible)
            return super().pick(view, chance)  # type: ignore[arg-type]

    result = draft(load_cards(), (Spy(), DRAFT_POLICIES["random"]()), SeededChance(5))
    assert len(result.team(0)) == len(result.team(1)) == 9
    assert len({c.name for _, c in result.picks}) == 18
    assert all(v.face_down + len(v.visible) <= 18 for v in seen)


@pytest.mark.parametrize("name", sorted(DRAFT_POLICIES))
def test_each_policy_drafts_deterministically(name: str) -> None:
    a = draft(load_cards(), (DRAFT_POLICIES[name](), DRAFT_POLICIES["greedy"]()), SeededChance(9))
    b = draft(load_cards(), (DRAFT_POLICIES[name](), DRAFT_POLICIES["greedy"]()), SeededChance(9))
    assert a == b


def test_counter_prefers_the_card_that_beats_the_opponents_types() -> None:
    cards = load_cards()
    by_type = {t: [c for c in cards.characters if c.type == t] for t in cards.types.types}
    theirs = tuple(by_type["Talent"][:3])
    power, skill = by_type["Power"][0], by_type["Skill"][0]
    view = DraftView({0: skill, 1: power}, {0: skill, 1: power}, (), theirs, 0, cards.types)
    assert CounterDraft().pick(view, SeededChance(1)) == 1  # Power beats Talent


def _draft_file(tmp_path: Path, picks_edit: int | None = None) -> Path:
    result = draft(
        load_cards(), (DRAFT_POLICIES["greedy"](), DRAFT_POLICIES["counter"]()), SeededChance(2)
    )
    picks = [c.name for _, c in result.picks]
    if picks_edit is not None:  # swap a later pick ahead of an earlier one
        picks[picks_edit], picks[-1] = picks[-1], picks[picks_edit]
    text = "game: animus\nname: drafted\ndrafted: first\n[team]\n"
    text += "\n".join(c.name for c in result.team(0))
    text += "\n[pyramid]\n" + "\n".join(c.name for c in result.pyramid)
    text += "\n[picks]\n" + "\n".join(picks) + "\n"
    path = tmp_path / "drafted.team"
    path.write_text(text)
    return path


def test_a_recorded_draft_replays_legal(tmp_path: Path) -> None:
    report = check_team(read_team(_draft_file(tmp_path)))
    assert report.draft_checked and report.legal, report.violations


def test_a_pick_of_a_covered_card_is_illegal(tmp_path: Path) -> None:
    report = check_team(read_team(_draft_file(tmp_path, picks_edit=0)))
    assert not report.legal
    assert report.violations[0].rule == "pick"
    assert "covered" in report.violations[0].message
