"""The search player and the determinized copies it plans on: it cannot peek, it leaves the real
game alone, and it plays the same games for any number of worker processes."""

from __future__ import annotations

import _random
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from deckkit.analysis.runner import run_games
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import load_edition
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.codes import KIND_ITEM, STAT_DEFEATED, STAT_MET, STAT_WAS_BONKED
from deckkit.animayhem.engine.combat import Combat, GameOver, fight, go_on
from deckkit.animayhem.engine.determinize import clone, determinize
from deckkit.animayhem.engine.phases import play_turn
from deckkit.animayhem.engine.play import (
    GameOptions,
    GameSetup,
    finish,
    play_game,
    prepare_game,
    start_game,
)
from deckkit.animayhem.engine.players import make_player, search_budget
from deckkit.animayhem.engine.policy import HeuristicPolicy, Policy, make_policy
from deckkit.animayhem.engine.queries import charm_halves
from deckkit.animayhem.engine.rollout import carried, play_out
from deckkit.animayhem.engine.search import SearchPolicy, _Forced, plan_key
from deckkit.animayhem.engine.state import (
    Char,
    Copy,
    Dis,
    Game,
    Loc,
    Trace,
    bump,
    count,
    counted_keys,
)
from deckkit.animayhem.runs import EngineGames
from tests.test_policy import _reshuffle_hidden

ROOT = Path(__file__).resolve().parent.parent
ED = load_edition("guidelines1998")


def _setup(deck: str = "tests/data/wild-solo.deck") -> GameSetup:
    cards = read_deck(ROOT / deck, load_card_db())
    return prepare_game(cards, ED, GameOptions())


def _midgame(setup: GameSetup, seed: int, turns: int) -> Game | None:
    """Game 0 of ``seed`` after ``turns`` turns of the heuristic player (None if it ended)."""
    policy = make_policy("heuristic")
    game = start_game(setup, policy, seed, 0)
    try:
        for _ in range(turns):
            play_turn(game, setup.edition, policy)
    except GameOver:
        return None
    return game


def _layout(game: Game) -> object:
    """Where every card lies, by uid, zone by zone (lists keep their order)."""
    return (
        [([d.uid for d in loc.hidden_disasters], [x.uid for x in loc.hidden_cards])
         for loc in game.locs],
        [x.uid for x in game.draw_pile],
        [x.uid for x in game.combat_pile],
        sorted(x.uid for x in game.unused),
    )  # fmt: skip


def _zones(game: Game) -> Counter[tuple[str, int]]:
    return Counter((zone, x.uid) for zone, x in game.zones_of())


def test_a_clone_plays_on_without_touching_the_game() -> None:
    """A copy is played to its end; the game it was taken from is as it was (every card in the
    same zone, the same counts), and the copy had every card the game had."""
    setup = _setup()
    for seed in range(4):
        game = _midgame(setup, seed, 3)
        if game is None:
            continue
        before = (_zones(game), _layout(game), [c.health for c in game.chars], game.turn)
        copy = clone(game, random.Random(1))
        assert _zones(copy) == _zones(game)
        assert all(a is not b for a, b in zip(copy.chars, game.chars, strict=True))
        play_out(copy, make_policy("heuristic"), "move", 200)
        assert (_zones(game), _layout(game), [c.health for c in game.chars], game.turn) == before
        assert copy.record is not game.record


def test_determinize_deals_hidden_cards_anew_and_keeps_what_is_seen() -> None:
    """Same cards in the same kinds of places and counts; the cards the player looked at stay
    where they lie; the face-up cards, the hand and the characters are untouched."""
    setup = _setup()
    game = _midgame(setup, 1, 2)
    assert game is not None
    loc = next(loc for loc in game.locs if loc.hidden_disasters)
    seen = loc.hidden_disasters[0]
    game.known.add(seen.uid)
    copy = determinize(game, random.Random(7))
    assert _layout(copy) != _layout(game)
    assert copy.locs[loc.slot].hidden_disasters[0].uid == seen.uid
    for a, b in zip(copy.locs, game.locs, strict=True):
        assert (len(a.hidden_disasters), len(a.hidden_cards)) == (
            len(b.hidden_disasters),
            len(b.hidden_cards),
        )
    assert Counter(u for _, u in _zones(copy)) == Counter(u for _, u in _zones(game))
    assert [x.uid for x in copy.hand] == [x.uid for x in game.hand]
    assert [(d.uid, d.pos) for d in copy.disasters] == [(d.uid, d.pos) for d in game.disasters]
    assert copy.tally_in_play() == copy.items_hidden(tally=True) + sum(
        x.card.tally  # type: ignore[union-attr]
        for c in copy.chars if c.zone in ("field", "haven") for x in c.items
    ) + sum(x.card.tally for x in copy.haven_cards) + sum(  # type: ignore[union-attr]
        x.card.tally for d in copy.disasters for x in d.carrying  # type: ignore[union-attr]
    ) + sum(x.card.tally for x in copy.carried_off)  # type: ignore[union-attr]  # fmt: skip


def _state(game: Game) -> object:
    """What a game's players and rules read: every card's place and the characters' and
    disasters' counts, the turn and phase, and the outcome."""
    return (
        _layout(game), sorted(_zones(game).items()), game.turn, game.phase, game.outcome,
        [(c.uid, c.zone, c.slot, c.health, c.cur, [x.uid for x in c.items]) for c in game.chars],
        [(d.uid, d.zone, d.pos, d.health, [x.uid for x in d.carrying]) for d in game.disasters],
        game.items_player(tally=True), game.items_disasters(tally=True), sorted(game.known),
    )  # fmt: skip


def test_a_copy_of_a_dealt_sample_plays_as_dealing_it_again() -> None:
    """The search player deals one determinization per sample and plays each choice on a copy
    of it with a chance of the same seed (search.py): that copy plays on exactly as the sample
    dealt again from the same generator does, so a choice's rollouts do not depend on whether
    the sample was dealt for it or copied."""
    from deckkit.animayhem.engine.determinize import copy_game, deal

    setup = _setup("decks/medium-solo.deck")
    played = 0
    for seed in range(6):
        game = _midgame(setup, seed, 2)
        if game is None:
            continue
        for sample in (1, 2):
            again = determinize(game, random.Random(sample))
            dealer = random.Random(sample)
            chance_seed = dealer.getrandbits(64)
            dealt = deal(game, chance_seed, dealer)
            copied = copy_game(dealt, SeededChance(chance_seed))
            assert _state(copied) == _state(again) == _state(dealt)
            values = [play_out(g, make_policy("heuristic"), "move", 3) for g in (again, copied)]
            assert values[0] == values[1] and _state(copied) == _state(again)
            played += again.turn > game.turn
    assert played >= 4


def _dealt_by_the_book(game: Game, seed: int, rng: random.Random) -> Game:
    """The determinization ``deal`` makes, by the module docstring's words in plain Python:
    the unseen disasters under the locations and those in the draw pile, the unseen items
    under the locations and the unused ones, each pooled in order of uid and shuffled by the
    library into the same places; then the draw and combat piles in order of uid, shuffled."""
    from deckkit.animayhem.engine.determinize import _extra, copy_game

    g = copy_game(game, SeededChance(seed))
    under = [(loc, i) for loc in g.locs for i, d in enumerate(loc.hidden_disasters)
             if d.uid not in g.known]  # fmt: skip
    in_pile = [i for i, x in enumerate(g.draw_pile) if isinstance(x, Dis)]
    pool = [loc.hidden_disasters[i] for loc, i in under]
    pool += [g.draw_pile[i] for i in in_pile]  # type: ignore[misc]
    pool.sort(key=lambda d: d.uid)
    rng.shuffle(pool)
    for (loc, i), d in zip(under, pool, strict=False):
        loc.hidden_disasters[i], d.zone = d, "location"
    for i, d in zip(in_pile, pool[len(under) :], strict=True):
        g.draw_pile[i], d.zone = d, "draw"
    slots = [(loc, i) for loc in g.locs for i, x in enumerate(loc.hidden_cards)
             if x.g.kind == KIND_ITEM and x.uid not in g.known]  # fmt: skip
    before = sum(_extra(loc.hidden_cards[i]) for loc, i in slots)
    items = sorted([loc.hidden_cards[i] for loc, i in slots] + g.unused, key=lambda x: x.uid)
    rng.shuffle(items)
    for (loc, i), x in zip(slots, items, strict=False):
        loc.hidden_cards[i] = x
    g.unused = items[len(slots) :]
    g.tally_extra += sum(_extra(x) for x in items[: len(slots)]) - before
    for pile in (g.draw_pile, g.combat_pile):
        pile.sort(key=lambda x: x.uid)
        rng.shuffle(pile)
    return g


def test_deal_deals_as_the_book_says_with_its_plan_or_without() -> None:
    """``deal`` (index loops and the game's DealPlan, worked out once for many samples) puts
    every card where the plain reading of the rules puts it, in games of several turns with
    disasters in the draw pile and cards the player has seen (REVEAL), and leaves the game
    untouched."""
    from deckkit.animayhem.engine.determinize import DealPlan, deal

    setup = _setup("decks/medium-solo.deck")
    checked = 0
    for seed in range(5):
        for turns in (1, 3, 6):
            game = _midgame(setup, seed, turns)
            if game is None:
                continue
            if seed % 2:  # the player has seen a disaster and an item beneath locations
                for loc in game.locs:
                    game.known.update(d.uid for d in loc.hidden_disasters[:1])
                    game.known.update(x.uid for x in loc.hidden_cards[:1])
            before = _state(game)
            plan = DealPlan(game)
            for sample in range(3):
                book = _dealt_by_the_book(game, 11 + sample, random.Random(sample))
                alone = deal(game, 11 + sample, random.Random(sample))
                planned = deal(game, 11 + sample, _random.Random(sample), plan)
                assert _state(alone) == _state(planned) == _state(book), (seed, turns)
                assert alone.tally_extra == planned.tally_extra == book.tally_extra
                assert _state(game) == before
            checked += any(isinstance(x, Dis) for x in game.draw_pile)
    assert checked >= 3


def test_the_dealer_shuffles_as_the_library_does() -> None:
    """determinize's shuffle (compiled with the engine) makes the very draws and swaps of
    ``random.Random.shuffle``, whatever the pile's length: a determinization is the same
    whichever build deals it."""
    from deckkit.animayhem.engine.determinize import _shuffle

    for seed in range(40):
        for n in (0, 1, 2, 3, 7, 8, 9, 31, 64, 100):
            # The search player deals with the C generator under random.Random (no
            # Python-level seeding): it too must shuffle as the library does.
            for ours in (random.Random(seed), _random.Random(seed)):
                theirs = random.Random(seed)
                a, b = list(range(n)), list(range(n))
                _shuffle(ours, a)
                theirs.shuffle(b)
                assert a == b and ours.getrandbits(32) == theirs.getrandbits(32), (seed, n)


def test_the_dealer_sorts_by_uid_as_sorted_does() -> None:
    """determinize's sort by uid (insertion for a few cards, a table by uid for more) puts a
    pile in the order ``sorted(key=uid)`` gives, whatever its length."""
    from deckkit.animayhem.engine.determinize import _sort_by_uid

    rng = random.Random(4)
    for n in (0, 1, 2, 7, 8, 9, 20, 60):
        for _ in range(20):
            uids = rng.sample(range(1, 120), n)
            cards = [f"card {u}" for u in uids]
            _sort_by_uid(cards, list(uids))
            assert cards == [f"card {u}" for u in sorted(uids)], (n, uids)


def test_determinize_never_reads_the_true_hidden_order() -> None:
    """Rearranging the face-down cards of the game gives the very same determinization for the
    same generator: the copy depends on what the player could know, not on the true order."""
    setup = _setup()
    game = _midgame(setup, 2, 2)
    assert game is not None
    first = _layout(determinize(game, random.Random(3)))
    for k in range(3):
        _reshuffle_hidden(game, random.Random(k))
        assert _layout(determinize(game, random.Random(3))) == first


def _search_choices(game: Game, policy: SearchPolicy) -> object:
    """The search player's decisions at this point of the game (moves, attacks, scavenging)."""
    moves = plan_key(policy.moves(game, ED))
    slots = sorted({c.slot for c in game.on_field()})
    attacks = [
        policy.attack(game, d, game.at(s)) for s in slots for d in game.disasters_at(s) if d.combat
    ]
    scavenges = [policy.scavenge(game, game.at(s), s) for s in slots]
    return moves, attacks, scavenges


def test_the_search_player_cannot_peek() -> None:
    """Permuting the hidden order of face-down cards (under the locations, the draw and combat
    piles) does not change a decision made with the same sampling seed (the game's chance is
    untouched by the permutation, and the search draws its seed from it)."""
    setup = _setup()
    checked = 0
    weighed = 0
    for seed in range(6):
        game = _midgame(setup, seed, 1 + seed % 3)
        if game is None:
            continue
        policy = SearchPolicy(play_out, rollouts=2, horizon=1)
        before = _search_choices(game, policy)
        weighed += policy.decisions
        for k in range(2):
            _reshuffle_hidden(game, random.Random(100 + k))
            assert _search_choices(game, policy) == before
        checked += 1
    assert checked >= 4
    assert weighed >= 4  # decisions really were weighed by rollouts


def test_search_budget_names() -> None:
    assert search_budget("search") == 8
    assert search_budget("search:3") == 3
    assert search_budget("search:0") is None
    assert search_budget("heuristic") is None
    player = make_player("search:3")
    assert isinstance(player, SearchPolicy) and player.rollouts == 3


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_search_games_are_the_same_for_any_number_of_workers() -> None:
    """Game i of a seed is the same game whether played in one process or spread over two."""
    setup_deck = read_deck(ROOT / "tests/data/wild-solo.deck", load_card_db())
    factory = EngineGames(setup_deck, ED, GameOptions(), "search:1")
    one = run_games(factory, games=2, seed=3, workers=1, keep_rows=True)
    two = run_games(factory, games=2, seed=3, workers=2, keep_rows=True)
    assert one.tally == two.tally
    assert one.rows is not None and two.rows is not None
    assert one.rows.equals(two.rows)


def test_a_search_game_is_replayable() -> None:
    """The same game twice gives the same record (no hidden state carried between games)."""
    setup = _setup()
    player = SearchPolicy(play_out, rollouts=1, horizon=1)
    records = []
    for _ in range(2):
        game = start_game(setup, player, 4, 1)
        records.append(finish(game, setup, player))
    assert records[0] == records[1]


def test_rollouts_share_the_search_player_s_memo_tables_and_play_the_same() -> None:
    """Each rollout's player shares the search player's memo tables (charm odds, flash bonuses,
    what the flash weighing reads of a card: search._Forced): the same games as with tables of
    its own, worked out afresh each rollout."""
    setup = _setup("decks/medium-solo.deck")

    def fresh(copy: Game, forced: Policy, resume: str, turns: int) -> float:
        assert isinstance(forced, _Forced)
        forced._makeups, forced._charm_odds, forced._bonus, forced._flash = {}, {}, {}, {}
        return play_out(copy, forced, resume, turns)

    shared_tables: list[bool] = []

    def shared(copy: Game, forced: Policy, resume: str, turns: int) -> float:
        assert isinstance(forced, _Forced)
        shared_tables.append(
            forced._charm_odds is sharing._charm_odds and forced._flash is sharing._flash
        )
        return play_out(copy, forced, resume, turns)

    for index in (0, 1):
        alone = SearchPolicy(fresh, rollouts=2, horizon=1)
        sharing = SearchPolicy(shared, rollouts=2, horizon=1)
        a = play_game(setup, alone, 4, index)
        b = play_game(setup, sharing, 4, index)
        assert (a.outcome, a.turns, a.counters) == (b.outcome, b.turns, b.counters)
        assert alone.weighed == sharing.weighed and alone.changed == sharing.changed
    assert shared_tables and all(shared_tables)


def test_a_rollout_s_player_has_every_attribute_of_the_heuristic() -> None:
    """A rollout's player given the search player's tables sets the heuristic's state itself
    (search._Forced, without HeuristicPolicy.__init__): none of its attributes is forgotten,
    the tables by key are the search player's and what it keeps of one game is its own."""
    heuristic = HeuristicPolicy()
    names = getattr(HeuristicPolicy, "__mypyc_attrs__", None) or tuple(vars(heuristic))
    assert {"_charm_odds", "_flash", "_last_pile"} <= set(names)
    of = SearchPolicy(play_out)
    forced = _Forced("moves", 0, None, of)
    for name in names:
        if name == "__dict__":
            continue
        mine, theirs = getattr(forced, name), getattr(heuristic, name)
        if isinstance(theirs, dict):
            assert mine is getattr(of, name), name
        else:
            assert mine == theirs, name


def test_rollouts_take_the_game_s_combat_pile_make_up_and_play_the_same() -> None:
    """Each rollout's player is handed the combat pile's make-up of the game it copies
    (search._Forced): the copy's own, and the same games as reading it again from each copy."""
    setup = _setup("decks/medium-solo.deck")

    def fresh(copy: Game, forced: Policy, resume: str, turns: int) -> float:
        assert isinstance(forced, _Forced)
        forced._charm_game = None  # read from the copy at its first charm odds, as before
        return play_out(copy, forced, resume, turns)

    handed: list[bool] = []

    def taken(copy: Game, forced: Policy, resume: str, turns: int) -> float:
        assert isinstance(forced, _Forced)
        handed.append(forced._charm_game is copy and forced._halves == charm_halves(copy))
        return play_out(copy, forced, resume, turns)

    for index in (0, 1):
        alone = SearchPolicy(fresh, rollouts=2, horizon=1)
        given = SearchPolicy(taken, rollouts=2, horizon=1)
        a = play_game(setup, alone, 4, index)
        b = play_game(setup, given, 4, index)
        assert (a.outcome, a.turns, a.counters) == (b.outcome, b.turns, b.counters)
        assert alone.weighed == given.weighed and alone.changed == given.changed
    assert handed and all(handed)


def test_the_command_line_names_the_search_player_and_its_budget() -> None:
    """`--policy search --rollouts N` plays the search player with N rollouts; --rollouts with
    another player is a usage error (exit 2); a malformed search:N is refused."""
    from typer.testing import CliRunner

    from deckkit.cli.main import app

    deck = str(ROOT / "decks" / "demo-solo.deck")
    run = CliRunner().invoke
    ok = run(app, ["simulate", deck, "--policy", "search", "--rollouts", "1", "-n", "1",
                   "--format", "json", "--quiet"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    assert '"search:1"' in ok.output
    bad = run(app, ["simulate", deck, "--rollouts", "2", "-n", "1"])
    assert bad.exit_code == 2 and "--policy search" in bad.output
    wrong = run(app, ["compare", deck, "--policy-b", "search:x", "-n", "1"])
    assert wrong.exit_code == 2


# --- Decisions in a combat: charm, a won charm battle's action, retreat, flash effects ---

Decide = Callable[[SearchPolicy], object]  # a search player's decision at this point
Check = Callable[[Game, str, Decide], None]


class _Probe(HeuristicPolicy):
    """The heuristic player, which at each combat decision (the first ``limit`` of each kind)
    hands ``check`` the game, the kind and a function giving a search player's decision there;
    it then answers as the heuristic would."""

    def __init__(self, check: Check, limit: int) -> None:
        super().__init__()
        self.check = check
        self.limit = limit
        self.seen: Counter[str] = Counter()

    def _ask(self, game: Game, kind: str, decide: Decide) -> None:
        if self.seen[kind] < self.limit:
            self.seen[kind] += 1
            self.check(game, kind, decide)

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        def decide(p: SearchPolicy) -> object:
            return [c.uid for c in p.charmers(game, d, list(options), automatic)]

        self._ask(game, "charm", decide)
        if options and not d.major and not d.carrying and _holder(game) is not None:
            self._ask(game, "charm_action", lambda p: _won_charm(p, game, d, options[0]))
        return super().charmers(game, d, options, automatic)

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> str:
        self._ask(game, "charm_action", lambda p: p.charm_action(game, d, c, options))
        return super().charm_action(game, d, c, options)

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        def decide(p: SearchPolicy) -> object:
            return p.retreat(game, d, list(chars), rnd), p._retreat_to

        self._ask(game, "retreat", decide)
        return super().retreat(game, d, chars, rnd)

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        def decide(p: SearchPolicy) -> object:
            plays = p.combat_flash(game, list(fighters), target, short_damage, short_defense)
            return [(x.uid, c.uid) for x, c in plays]

        self._ask(game, "flash", decide)
        return super().combat_flash(game, fighters, target, short_damage, short_defense)


def _holder(game: Game) -> Char | None:
    return next((c for c in game.chars if c.items and c.zone in ("field", "haven")), None)


def _won_charm(p: SearchPolicy, game: Game, d: Dis, c: Char) -> str:
    """The search player's action for a minor disaster that ``c`` has just out-charmed, in a
    state made for it at the start of the charm battles: the disaster carries an item (taken
    for the while from a character) and the combat stands at the won battle's action."""
    f = game.fighting[-1]
    holder = _holder(game)
    assert holder is not None
    item = holder.items.pop()
    d.carrying.append(item)
    f.stage, f.charmer = "charm_action", c
    try:
        return p.charm_action(game, d, c, ["item", "incapacitate"])
    finally:
        f.stage, f.charmer = "charm", None
        d.carrying.remove(item)
        holder.items.append(item)


def _probe_games(
    check: Check,
    deck: str,
    games: int,
    limit: int,
    edition: str = "guidelines1998",
) -> Counter[str]:
    cards = read_deck(ROOT / deck, load_card_db())
    setup = prepare_game(cards, load_edition(edition), GameOptions())
    probe = _Probe(check, limit)
    for i in range(games):
        game = start_game(setup, probe, 11, i)
        finish(game, setup, probe)
    return probe.seen


def _charm_only(check: Check) -> Check:
    """``check`` for the decisions of who charms, none other."""

    def charm(game: Game, kind: str, decide: Decide) -> None:
        if kind == "charm":
            check(game, kind, decide)

    return charm


def test_the_search_player_cannot_peek_in_a_combat() -> None:
    """The same for the decisions in a combat: who charms, what a won charm battle makes a
    minor disaster do, whether to retreat and where to, which flash effects on whom. Taken in
    real games at the moment the rules ask, each decision is the same after the face-down cards
    are permuted, for the same sampling seed; and decisions of each kind were weighed."""
    weighed: Counter[str] = Counter()

    def check(game: Game, kind: str, decide: Decide) -> None:
        policy = SearchPolicy(play_out, rollouts=2, horizon=1)
        first = decide(policy)
        weighed.update(policy.weighed)
        if not policy.weighed:
            return
        state = _layout(game)
        for k in range(2):
            _reshuffle_hidden(game, random.Random(200 + k))
            assert decide(SearchPolicy(play_out, rollouts=2, horizon=1)) == first, kind
        assert _layout(game) != state  # the permutation did move hidden cards

    # Six medium games: since the heuristic player's retreat rules changed (it fights on for a
    # disaster's item) and it stopped scavenging with items in hand, the first four no longer
    # reach a won charm battle's action weighed.
    _probe_games(check, "decks/medium-solo.deck", 6, 4)
    _probe_games(check, "decks/tricky-solo.deck", 2, 4, edition="set0")
    # Since the player holds its hand while a draw could bring a disaster (policy.HOLD_HAND),
    # none of these weighs who charms; easy's games 0-8 do (the 17th charm decision, game 7).
    _probe_games(_charm_only(check), "decks/easy-solo.deck", 9, 20)
    assert set(weighed) == {"charm", "charm_action", "retreat", "flash"}, weighed


def _same_chance(copy: Game, game: Game) -> None:
    """Give ``copy`` a generator in the very state of ``game``'s."""
    assert isinstance(game.chance, SeededChance) and isinstance(copy.chance, SeededChance)
    copy.chance._gen.setstate(game.chance._gen.getstate())


def _after_combat(game: Game) -> object:
    return (
        _zones(game),
        [(c.uid, c.health, c.cur, c.slot) for c in game.chars],
        [(d.uid, d.health, d.pos, sorted(d.ignores)) for d in game.disasters],
        [x.uid for x in game.combat_pile],
        game.chance._gen.getstate(),  # type: ignore[attr-defined]
    )


def test_a_combat_fought_on_from_a_copy_plays_as_the_combat_itself() -> None:
    """The rollouts of a combat decision fight the combat on from the step where the player was
    asked (charm, a round's start, its flash effects). Carried over to an exact copy with the
    same generator, with the heuristic player on both sides, the rest of the combat is the
    very combat the game fights: same result, same account of it, same state after it."""
    fought: Counter[str] = Counter()

    class Twin(HeuristicPolicy):
        def __init__(self) -> None:
            super().__init__()
            self.twins: list[tuple[str, Game, Combat]] = []
            self.marks: list[int] = []  # where the game's trace stood at each copy
            self.on = False  # only in the combats the test starts

        def _twin(self, game: Game) -> None:
            f = game.fighting[-1]
            if not self.on or fought[f.stage] >= 5 or f.stage in [t[0] for t in self.twins]:
                return
            copy = clone(game, random.Random(0))
            _same_chance(copy, game)
            assert game.trace is not None
            copy.trace = Trace()  # what the copy's combat says from here on
            self.marks.append(len(game.trace.events))
            self.twins.append((f.stage, copy, carried(f, copy)))

        def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
            self._twin(game)
            return super().charmers(game, d, options, automatic)

        def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
            if rnd > 1:
                self._twin(game)
            return super().retreat(game, d, chars, rnd)

        def combat_flash(
            self, game: Game, fighters: list[Char], target: Char, sd: int, sf: int
        ) -> list[tuple[Copy, Char]]:
            self._twin(game)
            return super().combat_flash(game, fighters, target, sd, sf)

    cards = read_deck(ROOT / "decks/medium-solo.deck", load_card_db())
    setup = prepare_game(cards, ED, GameOptions())
    policy = Twin()
    for i in range(30):
        game = start_game(setup, policy, 21, i)
        try:
            for _ in range(40):
                play_turn(game, ED, policy)
                d = next((d for d in game.disasters if d.combat and d.zone == "field"), None)
                if d is None or not game.on_field():
                    continue
                slot = game.slot_of(d)
                for c in game.on_field():
                    c.slot = slot  # the party stands with it
                policy.twins, policy.marks, policy.on = [], [], True
                game.trace = Trace()
                result = fight(game, ED, policy, d, slot, "party")
                policy.on = False
                said = [e["text"] for e in game.trace.events]
                game.trace = None
                for (stage, copy, f), mark in zip(policy.twins, policy.marks, strict=True):
                    assert go_on(copy, ED, HeuristicPolicy(), f) == result
                    assert _after_combat(copy) == _after_combat(game)
                    assert copy.trace is not None
                    assert [e["text"] for e in copy.trace.events] == said[mark:]
                    fought[stage] += 1
        except GameOver:
            pass
    assert {"charm", "round", "flash"} <= set(fought), fought


def test_each_combat_decision_is_weighed_and_its_best_candidate_taken() -> None:
    """Each decision in a combat is searched: its candidates are each played forward (from the
    combat, forced on the copy), and the one with the best mean is the decision. With rollouts
    that value the heuristic's own choice 0 and every other 1, the search player leaves the
    heuristic's choice; with rollouts that value all alike, it keeps it."""
    changed: Counter[str] = Counter()

    def check(game: Game, kind: str, decide: Decide) -> None:
        tried: list[object] = []

        def prefer_others(copy: Game, forced: Policy, resume: str, turns: int) -> float:
            assert isinstance(forced, _Forced) and resume == "combat" and copy is not game
            tried.append(forced.choice)
            return 0.0 if forced.choice == tried[0] else 1.0

        same = decide(SearchPolicy(lambda *_: 0.5, rollouts=2, horizon=1))
        policy = SearchPolicy(prefer_others, rollouts=2, horizon=1)
        other = decide(policy)
        if policy.weighed:
            assert len(set(map(repr, tried))) >= 2  # several candidates were played
            assert policy.changed == policy.weighed == {kind: 1}
            assert other != same, kind
            changed[kind] += 1

    _probe_games(check, "decks/medium-solo.deck", 4, 30)
    _probe_games(_charm_only(check), "decks/easy-solo.deck", 9, 20)  # (as above)
    assert set(changed) == {"charm", "charm_action", "retreat", "flash"}, changed


def test_a_copy_keeps_every_attribute_of_the_state() -> None:
    """A determinized copy carries every attribute of the characters, disasters and locations
    (a forgotten one, such as the turn a character last declared a charm battle, would let the
    rollouts play a game the rules forbid)."""
    setup = _setup()
    # Game 0 of seed 1 after three turns has a disaster on the field (since the heuristic player
    # wore disasters down over more rounds, seed 5's had none; before, seed 3's).
    game = _midgame(setup, 1, 3)
    assert game is not None
    for c in game.chars:
        c.charm_turn = game.turn
    copy = clone(game, random.Random(0))
    for cls, olds, news in (
        (Char, game.chars, copy.chars),
        (Dis, game.disasters, copy.disasters),
        (Loc, game.locs, copy.locs),
    ):
        assert olds
        for old, new in zip(olds, news, strict=True):
            # compiled or not (then every class's slots up the line: Counted's cid and cslot)
            names = getattr(cls, "__mypyc_attrs__", None) or [
                n for k in cls.__mro__ for n in getattr(k, "__slots__", ())
            ]
            for name in names:
                a, b = getattr(old, name), getattr(new, name)
                if isinstance(a, (Char, Dis, Copy, Game)):
                    assert type(a) is type(b) and getattr(a, "uid", 0) == getattr(b, "uid", 0)
                elif isinstance(a, list):
                    assert [getattr(x, "uid", x) for x in a] == [getattr(x, "uid", x) for x in b]
                else:
                    assert a == b, (cls.__name__, name)


def _as_data(x: object) -> object:
    """A value of the state with its cards as uids, to compare a game with its copy."""
    if isinstance(x, (Char, Dis, Copy)):
        return (type(x).__name__, x.uid)
    if isinstance(x, Loc):
        return ("Loc", x.slot)
    if isinstance(x, (list, tuple)):
        return [_as_data(y) for y in x]
    if isinstance(x, (set, frozenset)):
        return sorted(map(repr, map(_as_data, x)))
    if isinstance(x, dict):
        return sorted((repr(_as_data(k)), repr(_as_data(v))) for k, v in x.items())
    if hasattr(x, "haven") and hasattr(x, "builders"):  # a Building
        return [_as_data(getattr(x, f)) for f in ("haven", "slot", "builders", "last_turn")]
    return x


def test_a_copy_keeps_every_attribute_of_the_game() -> None:
    """A determinized copy of a game, and a copy of that copy, carry every attribute of the
    game (state.Game's copy constructor and the copier: a forgotten one would let the rollouts
    play another game), but for its chance, its record and trace, and the per-card counters a
    copy does not keep."""
    setup = _setup("decks/medium-solo.deck")
    game = _midgame(setup, 1, 3)
    assert game is not None
    own = {"chance", "_record", "trace", "counts", "counted", "counts_synced", "counts_all"}
    names = getattr(Game, "__mypyc_attrs__", None) or tuple(vars(game))  # compiled or not
    assert {"turn", "fx", "draw_pile", "item_pickup", "dis_timers"} <= set(names)
    copy = clone(game, random.Random(0))
    again = clone(copy, random.Random(0))
    for new in (copy, again):
        assert new.trace is None and not new.counts_all
        assert {stat for _, stat in counted_keys(new)} <= {STAT_DEFEATED, STAT_WAS_BONKED}
        assert all(count(new, cid, s) == count(game, cid, s) for cid, s in counted_keys(new))
        for name in set(names) - own - {"__dict__"}:
            a, b = getattr(game, name), getattr(new, name)
            assert _as_data(a) == _as_data(b), name
            if isinstance(a, (list, set, dict)) and name not in ("fx", "dist"):
                assert a is not b or not a, name  # a container of its own (or empty)
    assert again._record is copy._record  # a copy of a copy shares its blank record


def test_a_copy_keeps_only_the_counters_the_rules_read_and_plays_the_same() -> None:
    """A determinized copy counts a card's defeats and times bonked (the rules read them back:
    interpreter/dispatcher.py, vehicles_and_forms.py) and no other counter (its record is never
    read; asking for another is refused), and plays on as a copy keeping every counter."""
    setup = _setup("decks/medium-solo.deck")
    last: Game | None = None
    for seed in range(4):
        game = _midgame(setup, seed, 2)
        if game is None:
            continue
        lean, full = clone(game, random.Random(1)), clone(game, random.Random(1))
        assert not lean.counts_all and game.counts_all
        full.counts_all = True
        a = play_out(lean, make_policy("heuristic"), "scavenge", 3)
        b = play_out(full, make_policy("heuristic"), "scavenge", 3)
        assert (a, lean.turn, lean.outcome) == (b, full.turn, full.outcome)
        assert _zones(lean) == _zones(full)
        full_keys, lean_keys = counted_keys(full), counted_keys(lean)
        assert {stat for _, stat in full_keys} - {STAT_DEFEATED, STAT_WAS_BONKED}
        assert {stat for _, stat in lean_keys} <= {STAT_DEFEATED, STAT_WAS_BONKED}
        kept = [(cid, s) for cid, s in full_keys if s in (STAT_DEFEATED, STAT_WAS_BONKED)]
        assert lean_keys == kept
        assert all(count(lean, cid, s) == count(full, cid, s) for cid, s in kept)
        last = game
    assert last is not None
    copy = clone(last, random.Random(2))
    bump(copy, "some card", STAT_MET)
    bump(copy, "some card", STAT_DEFEATED)
    assert counted_keys(copy)[-1] == ("some card", STAT_DEFEATED)
    assert ("some card", STAT_MET) not in counted_keys(copy)
    with pytest.raises(ValueError, match="keeps no counter"):
        count(copy, "some card", STAT_MET)


def test_a_copy_goes_on_from_the_game_s_defeats_and_times_bonked() -> None:
    """The counters the rules read back carry over to a copy and a copy of a copy: a form that
    waits for its character's third bonk (vehicles_and_forms.py) comes in a rollout as in the
    game (copies once started from zero, so a rollout never saw Super Saiyan (Goku) come)."""
    game = _midgame(_setup("decks/medium-solo.deck"), 1, 2)
    assert game is not None
    bump(game, "am-goku", STAT_WAS_BONKED, 3)
    bump(game, "am-freeza", STAT_DEFEATED, 2)
    bump(game, "am-freeza", STAT_MET, 4)
    copy = clone(game, random.Random(0))
    again = clone(copy, random.Random(1))
    for c in (copy, again):
        assert count(c, "am-goku", STAT_WAS_BONKED) == 3
        assert count(c, "am-freeza", STAT_DEFEATED) == 2
        bump(c, "am-goku", STAT_WAS_BONKED)
        assert count(c, "am-goku", STAT_WAS_BONKED) == 4
    assert count(game, "am-goku", STAT_WAS_BONKED) == 3  # the game's own row is not shared


def test_a_copy_keeps_the_game_s_rule_option_and_built_havens() -> None:
    """The game-level state a rollout's rules read: the run's item pickup reading and the
    havens built on the field (a copy without them played the default reading and no built
    haven, whatever the game it copied)."""
    setup = _setup()
    game = _midgame(setup, 3, 3)
    assert game is not None
    game.item_pickup = "beneath"
    game.annexed = {game.locs[0].slot: game.havens[0]} if game.havens else {}
    copy = clone(game, random.Random(0))
    assert copy.item_pickup == "beneath"
    assert {k: v.uid for k, v in copy.annexed.items()} == {
        k: v.uid for k, v in game.annexed.items()
    }
    # A haven card has no usage limit: the copy shares it (see the test below).
    assert all(v is game.annexed[k] for k, v in copy.annexed.items())


def _limited(x: Copy) -> bool:
    """A card with a usage limit: the one kind of card whose state (``uses_left``) changes."""
    return x.g.power and x.g.uses is not None


def test_a_copy_shares_only_the_cards_that_cannot_change() -> None:
    """A copy builds anew every card with a usage limit and shares the others (their state,
    ``uses_left``, is None for good), and playing copies out leaves the game's counts of uses
    as they were."""
    setup = _setup()
    game = _midgame(setup, 3, 3)
    assert game is not None
    cards = {x.uid: x for _, x in game.zones_of() if isinstance(x, Copy)}
    limited = [x for x in cards.values() if _limited(x)]
    assert limited and len(limited) < len(cards)
    for x in limited:
        x.uses_left = 1  # one use left: a rollout that uses it resets it
    before = {u: x.uses_left for u, x in cards.items()}
    for seed in range(6):
        copy = determinize(game, random.Random(seed))
        for _, y in copy.zones_of():
            if isinstance(y, Copy):
                assert (y is cards[y.uid]) is not _limited(y), y
        play_out(copy, make_policy("heuristic"), "move", 200)
    assert {u: x.uses_left for u, x in cards.items()} == before


def test_a_game_ended_neither_way_is_worth_a_draw_to_the_search() -> None:
    """An undecided majority (option majority_trigger=combined) or a stall has ended: the
    search values it as a draw, 0.5, whatever item lead the player held when it ended, below a
    win and above a loss (no document scores it either way)."""
    from deckkit.animayhem.engine.rollout import value

    setup = _setup()
    game = _midgame(setup, 1, 2)
    assert game is not None
    in_play = value(game)
    for outcome, worth in (("win", 1.0), ("loss", 0.0), ("undecided", 0.5), ("stall", 0.5)):
        game.outcome = outcome
        assert value(game) == worth
    game.outcome = None
    assert value(game) == in_play
