"""The tables the players keep between decisions and games, and the copies the search player
plays on: each may save work, none may change a game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deckkit.animayhem.construction.cards import PowerCard
from deckkit.animayhem.engine.codes import KIND_FLASH_EFFECT
from deckkit.animayhem.engine.combat import GameOver
from deckkit.animayhem.engine.determinize import clone, deal
from deckkit.animayhem.engine.phases import play_turn
from deckkit.animayhem.engine.play import play_game, start_game
from deckkit.animayhem.engine.policy import MEMO_UIDS, HeuristicPolicy, _combat_modifiers, _memo
from deckkit.animayhem.engine.queries import charm_halves
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game, Triggers
from tests.engine_helpers import sample_setup

ROOT = Path(__file__).resolve().parent.parent


def _game(deck: str, index: int, turns: int) -> Game:
    setup = sample_setup(deck)
    policy = HeuristicPolicy()
    game = start_game(setup, policy, 1, index)
    try:
        for _ in range(turns):
            play_turn(game, setup.edition, policy)
    except GameOver:
        pass
    return game


def test_a_make_up_keeps_its_number_across_games_and_another_gets_a_new_one() -> None:
    """The charm odds' make-up numbers: the same halves in two games are one make-up, even as
    another tuple (charm_halves hands out one tuple per make-up; a copy stands for a caller's
    own); a pile with one card fewer is another; the table holds the halves."""
    policy = HeuristicPolicy()
    first = charm_halves(_game("medium-solo.deck", 0, 0))
    again = tuple(list(charm_halves(_game("medium-solo.deck", 1, 2))))
    assert first == again and first is not again
    n = policy._makeup_number(first)
    assert policy._makeup_number(again) == n
    fewer = ((first[0][0], first[0][1] - 1), *first[1:]) if first[0][1] > 1 else first[1:]
    m = policy._makeup_number(fewer)
    assert m != n and policy._makeup_number(fewer) == m
    assert [halves for _, halves in policy._makeups.values()] == [first, fewer]


def _objects(game: Game) -> dict[int, list[object]]:
    """Every character, disaster and card object of ``game`` where it lies, by uid."""
    seen: dict[int, list[object]] = {}
    for _, x in game.zones_of():
        seen.setdefault(x.uid, []).append(x)
    for d in game.disasters_dealt:
        seen.setdefault(d.uid, []).append(d)
    for c in game.chars:
        seen.setdefault(c.uid, []).append(c)
    return seen


def test_a_copy_holds_one_object_for_each_object_of_the_game() -> None:
    """A copy (determinize._Copier, its tables by uid) builds one object for each character,
    disaster and card of the game, found again wherever the game holds it, and shares none it
    may change."""
    for deck, index in (("medium-solo.deck", 0), ("tough-solo.deck", 3), ("hard-solo.deck", 5)):
        game = _game(deck, index, 4)
        olds = _objects(game)
        for copy in (clone(game, random.Random(index)), deal(game, 7, random.Random(index))):
            news = _objects(copy)
            assert news.keys() == olds.keys()
            for uid, xs in news.items():
                assert all(x is xs[0] for x in xs), (deck, uid)  # one object a uid
                assert {type(x) for x in xs} == {type(olds[uid][0])}
                old = olds[uid][0]
                if isinstance(old, Char | Dis) or (isinstance(old, Copy) and xs[0] is not old):
                    assert xs[0] is not old


def test_the_actions_of_a_deck_s_effects_are_read_again_when_they_change() -> None:
    """set_up reads the actions a deck's effects use once for all its games (setup._Dealt),
    and again once a caller has changed the effects: an entry taken out or put back."""
    setup = sample_setup("tricky-solo.deck")
    policy = HeuristicPolicy()
    first = start_game(setup, policy, 1, 0).acts
    assert start_game(setup, policy, 1, 1).acts is first  # read once
    uses: dict[str, set[object]] = {
        cid: {e.do for entries in triggers.values() for _, e in entries}
        for cid, triggers in setup.fx.items()
    }
    cid, only = next(
        (cid, acts - set().union(*(u for c, u in uses.items() if c != cid)))
        for cid, acts in uses.items()
        if acts - set().union(*(u for c, u in uses.items() if c != cid))
    )
    taken = setup.fx.pop(cid)
    try:
        assert not only & start_game(setup, policy, 1, 2).acts
    finally:
        setup.fx[cid] = taken
    assert start_game(setup, policy, 1, 3).acts == first


def test_a_deck_s_combat_pile_make_up_is_read_once_and_a_changed_pile_again() -> None:
    """The heuristic player reads a combat pile's make-up once for every game holding the same
    combat cards (HeuristicPolicy._pile_makeup), and anew for a pile that differs."""
    setup = sample_setup("medium-solo.deck")
    policy = HeuristicPolicy()
    a, b = start_game(setup, policy, 1, 0), start_game(setup, policy, 1, 1)
    first = policy._pile_makeup(a)
    # (Compared by their halves: the compiled engine hands out a new pair each time.)
    assert policy._pile_makeup(b)[0] is first[0] and len(policy._piles) == 1
    assert first[0] == charm_halves(a) == charm_halves(b)
    b.combat_discard.append(b.combat_pile.pop())  # the same cards: the same make-up
    assert policy._pile_makeup(b)[0] is first[0]
    b.combat_discard.pop()  # one card fewer
    other = policy._pile_makeup(b)
    assert other[1] != first[1] and other[0] == charm_halves(b) and len(policy._piles) == 2


@pytest.mark.parametrize("deck", ["medium-solo.deck", "tricky-solo.deck", "hard-solo.deck"])
def test_the_cards_every_game_shares_come_out_of_each_game_unchanged(deck: str) -> None:
    """set_up deals the cards without a usage limit as one object per setup (setup._Dealt): a
    game that wrote to one (its uses, its uid) would leak into the next game, so after 30
    games, every one of them still holds what it was dealt with."""
    from deckkit.animayhem.engine.setup import _dealt

    setup = sample_setup(deck)
    policy = HeuristicPolicy()
    play_game(setup, policy, 5, 0)
    shared = _dealt(setup, setup.edition)
    unlimited = zip(shared.power_copies, shared.power_fresh, strict=True)
    copies = [
        *shared.location_copies, *shared.item_copies, *shared.haven_copies,
        *shared.combat_copies, *(x for x, fresh in unlimited if not fresh),
    ]  # fmt: skip
    before = [(x.uid, x.cid, x.uses_left, x.g) for x in copies]
    assert copies and all(x.uses_left is None for x in copies)
    for i in range(1, 31):
        play_game(setup, policy, 5, i)
    assert [(x.uid, x.cid, x.uses_left, x.g) for x in copies] == before


def test_a_power_card_s_memo_by_uid_is_its_own_card_s_and_text_s() -> None:
    """The heuristic player's memo of a power card by uid (policy._memo): one entry while the
    card and its encoded text are the same; a copy of another card at that uid, or the card
    under other text (a caller that changes a deck's effects), gets an entry of its own, and
    the combat bonuses read through it (``_bonuses``) are always its own card's."""
    game = _game("medium-solo.deck", 0, 0)
    policy = HeuristicPolicy()
    flashes = [
        x for _, x in game.zones_of() if isinstance(x, Copy) and x.g.kind == KIND_FLASH_EFFECT
    ]
    a = flashes[0]
    b = next(x for x in flashes if _combat_modifiers(x.card, game) != _combat_modifiers(a.card))
    card_a, card_b = a.card, b.card
    assert isinstance(card_a, PowerCard) and isinstance(card_b, PowerCard)
    text = game.fx.get(a.cid)
    first = _memo(a, card_a, text)
    assert first is not None and _memo(a, card_a, text) is first
    assert policy._bonuses(game, a, card_a) == _combat_modifiers(card_a, game)
    assert first.mods == _combat_modifiers(card_a, game)
    other = Copy(a.uid, card_b, b.g)  # another card at the same uid
    assert policy._bonuses(game, other, card_b) == _combat_modifiers(card_b, game)
    assert _memo(other, card_b, game.fx.get(b.cid)) is not first
    assert policy._bonuses(game, a, card_a) == _combat_modifiers(card_a, game)
    new_text: Triggers = {}  # the same card under another text
    again = _memo(a, card_a, new_text)
    assert again is not None and again is not _memo(a, card_a, text) and again.mods is None
    assert _memo(Copy(MEMO_UIDS, card_a, a.g), card_a, text) is None  # no slot: by card id
