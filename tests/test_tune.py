"""Deck tuning: racing on common random numbers keeps the best of a planted set; every swap
offered and every deck played or written is legal (a property over random decks and pools);
the confirmation games are disjoint from the selection games. A fake player (win chance a
function of the deck, on shared per-game random numbers) keeps these quick; one short run of
the real engine checks the command's outputs."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from deckkit.analysis import tuning as tn
from deckkit.analysis.racing import first_round_games, race
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import Coverage
from deckkit.animayhem.construction.deck import Deck, parse_deck, read_deck
from deckkit.animayhem.construction.deckwrite import deck_text
from deckkit.animayhem.construction.editions import load_edition
from deckkit.animayhem.construction.legality import check_deck
from deckkit.cli.main import app

DECKS = Path(__file__).resolve().parent.parent / "decks"
SOLO_DECKS = sorted(p for p in DECKS.glob("*.deck") if p.name != "trio-3p.deck")


def _unit(*parts: object) -> float:
    """A uniform number in [0, 1) fixed by ``parts`` (the fake's random stream)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def crn_outcomes(p: dict[str, float], seed: int, shared: float = 0.8):
    """Arm ``a`` wins game ``i`` with chance ``p[a]``; with chance ``shared`` the game draws the
    number every arm draws for game ``i`` (common random numbers), else its own."""

    def outcomes(arm: str, n: int) -> list[bool]:
        won = []
        for i in range(n):
            own = _unit(seed, "own?", arm, i) >= shared
            u = _unit(seed, arm, i) if own else _unit(seed, i)
            won.append(u < p[arm])
        return won

    return outcomes


# --- racing -----------------------------------------------------------------------------------


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
@pytest.mark.parametrize("seed", range(40))
def test_racing_never_drops_the_best_of_a_planted_set(seed: int) -> None:
    # The best arm beats every other by 15 points: more than the paired interval's half-width
    # on the first round's games (about 7 points at 200 paired games with 80% of the numbers
    # shared), so neither a bound nor a halving may drop it.
    rng = random.Random(seed)
    arms = [f"arm{i}" for i in range(30)]
    best = rng.choice(arms)
    p = {a: rng.uniform(0.30, 0.45) for a in arms}
    p[best] = 0.60
    result = race(arms, crn_outcomes(p, seed), budget=30_000, keep=1)
    assert result.finalists == [best]
    assert result.best.arm == best and result.best.dropped_in is None
    assert first_round_games(30, 30_000) >= 50


def test_racing_drops_a_clear_loser_by_its_bound_and_keeps_to_the_budget() -> None:
    p = {"good": 0.7, "fair": 0.65, "poor": 0.2}
    result = race(list(p), crn_outcomes(p, 3), budget=900, keep=2, first_round=100)
    by_arm = {s.arm: s for s in result.standings}
    assert by_arm["poor"].dropped_by == "bound" and by_arm["poor"].dropped_in == 1
    assert set(result.finalists) == {"good", "fair"}
    assert result.spent <= 900
    # Every arm played the same games: the first 100 of each are the same indices.
    assert all(s.games >= 100 for s in result.standings)


def test_racing_shares_a_small_budget_rather_than_overspend() -> None:
    p = {f"a{i}": 0.5 for i in range(40)}
    result = race(list(p), crn_outcomes(p, 1), budget=200, keep=4)
    assert result.spent <= 200


# --- a fake player over real decks and legality ------------------------------------------------


def _value(card_id: str) -> float:
    return _unit("value", card_id) - 0.5


class FakePlayer:
    """Plays no game: deck ``d`` wins game ``i`` when the shared number of game ``i`` is below a
    chance set by the cards' (arbitrary, fixed) values. Records every deck and game range asked
    for, and checks each deck is legal before "playing" it."""

    def __init__(self, legal) -> None:
        self.legal = legal
        self.calls: list[tuple[Deck, int, int]] = []

    def chance(self, deck: Deck) -> float:
        score = sum(_value(c.id) for c in deck.cards()) / 8
        return min(0.95, max(0.05, 0.5 + score))

    def __call__(self, deck: Deck, first: int, n: int) -> list[bool]:
        assert self.legal(deck), "a deck that is not legal was played"
        self.calls.append((deck, first, n))
        p = self.chance(deck)
        return [_unit("game", i) < p for i in range(first, first + n)]


def _legal_for(deck: Deck):
    edition = load_edition(deck.edition or "guidelines1998")
    variant = deck.variant or "standard"

    def legal(d: Deck) -> bool:
        return check_deck(d, edition, variant, d.players or 1).legal

    return legal


DB = load_card_db()
FULL = tuple(c for c in DB.cards if c.coverage is Coverage.FULL)


def _random_deck(rng: random.Random, path: Path) -> Deck:
    """A sample deck, walked a few legal swaps away from its file."""
    deck = read_deck(path, DB)
    legal = _legal_for(deck)
    pool = tn.Pool(FULL)
    for _ in range(rng.randrange(4)):
        entries = [e.card for e in deck.entries]
        a = rng.choice(entries)
        same_pile = [c.id for c in FULL if tn.pile_of(c) == tn.pile_of(a)]
        ins = rng.sample(same_pile, min(6, len(same_pile)))  # some piles hold fewer than 6
        swaps = tn.legal_swaps(deck, pool, legal, outs=[a.id], ins=ins)
        if swaps:
            deck = rng.choice(swaps).apply(deck)
    return deck


def _random_pool(rng: random.Random) -> tn.Pool:
    cards = tuple(rng.sample(FULL, rng.randrange(30, 150)))
    counts = {c.id: rng.randrange(1, 4) for c in cards} if rng.random() < 0.5 else None
    return tn.Pool(cards, counts)


# 12 tunings of random decks and pools, 34,000 legality checks (18 CPU-seconds): in make
# test-slow (run by CI).
@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1), st.sampled_from(SOLO_DECKS))
def test_every_candidate_and_every_deck_played_or_written_is_legal(seed: int, path: Path) -> None:
    rng = random.Random(seed)
    deck = _random_deck(rng, path)
    legal = _legal_for(deck)
    assert legal(deck)
    pool = _random_pool(rng)
    swaps = tn.legal_swaps(deck, pool, legal)
    for sw in swaps:
        after = sw.apply(deck)
        assert legal(after) and pool.allows(deck, after)
        assert tn.pile_of(sw.out) == tn.pile_of(sw.into)
        assert sum(1 for _ in after.cards()) == sum(1 for _ in deck.cards())
    player = FakePlayer(legal)
    outcome = tn.tune_deck(
        deck, pool, legal, tn.Games(player), budget=3_000, confirm=100, piles=tn.ALL_PILES
    )
    assert legal(outcome.best) and pool.allows(deck, outcome.best)
    for rs in outcome.ranked:
        assert legal(rs.swap.apply(deck))
    # The written deck reads back as the same legal deck.
    again = parse_deck(deck_text(outcome.best, DB), DB)
    assert tn.copies(again) == tn.copies(outcome.best) and legal(again)


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_the_confirmation_games_are_disjoint_from_the_selection_games() -> None:
    deck = read_deck(DECKS / "medium-solo.deck", DB)
    legal = _legal_for(deck)
    player = FakePlayer(legal)
    games = tn.Games(player)
    outcome = tn.tune_deck(deck, tn.Pool(FULL), legal, games, budget=8_000, confirm=500)
    assert outcome.confirmation is not None and outcome.confirmation.n == 500
    selection = {i for _, first, n in player.calls if first < tn.CONFIRMATION_FIRST
                 for i in range(first, first + n)}  # fmt: skip
    confirmation = [(d, first, n) for d, first, n in player.calls
                    if first >= tn.CONFIRMATION_FIRST]  # fmt: skip
    assert selection and confirmation
    assert {tn.deck_key(d) for d, _, _ in confirmation} == {
        tn.deck_key(deck),
        tn.deck_key(outcome.best),
    }
    for _, first, n in confirmation:
        assert not selection & set(range(first, first + n))
    assert max(selection) < tn.MAX_BUDGET <= tn.CONFIRMATION_FIRST
    assert games.played <= 8_000 * 1.1


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_the_search_finds_planted_losses_of_the_fake_player() -> None:
    # The fake values cards; plant a loss: the deck's two most valuable non-disaster cards
    # swapped for the least valuable legal ones. The search must win most of it back.
    deck = read_deck(DECKS / "medium-solo.deck", DB)
    legal = _legal_for(deck)
    player = FakePlayer(legal)
    pool = tn.Pool(FULL)
    swaps = tn.legal_swaps(deck, pool, legal, piles=tn.OWN_PILES)
    by_out: dict[str, list[tn.Swap]] = {}
    for sw in swaps:
        by_out.setdefault(sw.out.id, []).append(sw)
    worth = sorted(by_out, key=lambda cid: -_value(cid))
    weakened = deck
    for cid in worth[:2]:
        options = [s for s in tn.legal_swaps(weakened, pool, legal, outs=[cid])
                   if tn.pile_of(s.into) != "disasters"]  # fmt: skip
        weakened = min(options, key=lambda s: _value(s.into.id)).apply(weakened)
    loss = player.chance(deck) - player.chance(weakened)
    assert loss > 0.05
    outcome = tn.tune_deck(weakened, pool, legal, tn.Games(player), budget=40_000, confirm=2_000)
    assert outcome.confirmation is not None
    assert outcome.confirmation.difference is not None
    assert outcome.confirmation.difference >= loss - 0.05
    assert outcome.steps and all(s.result.ci and s.result.ci[0] > 0 for s in outcome.steps)


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_an_interrupted_search_returns_the_best_deck_so_far() -> None:
    deck = read_deck(DECKS / "medium-solo.deck", DB)
    legal = _legal_for(deck)
    inner = FakePlayer(legal)
    budget_calls = 40

    def player(d: Deck, first: int, n: int) -> list[bool]:
        if len(inner.calls) >= budget_calls:
            raise KeyboardInterrupt
        return inner(d, first, n)

    outcome = tn.tune_deck(deck, tn.Pool(FULL), legal, tn.Games(player), budget=8_000)
    assert outcome.interrupted and outcome.confirmation is None
    assert legal(outcome.best)


@pytest.mark.parametrize("path", SOLO_DECKS, ids=lambda p: p.name)
def test_a_deck_written_as_text_reads_back_the_same(path: Path) -> None:
    deck = read_deck(path, DB)
    again = parse_deck(deck_text(deck, DB, ("a comment",)), DB)
    assert tn.copies(again) == tn.copies(deck)
    assert (again.name, again.players, again.edition, again.variant, again.rules) == (
        deck.name, deck.players, deck.edition, deck.variant, deck.rules
    )  # fmt: skip


# --- the command, on the real engine -----------------------------------------------------------


def test_tune_refuses_to_replace_an_existing_out_file(tmp_path: Path) -> None:
    out = tmp_path / "best.deck"
    out.write_text("kept")
    result = CliRunner().invoke(
        app, ["tune", str(DECKS / "easy-solo.deck"), "--budget", "100", "--out", str(out)]
    )
    assert result.exit_code != 0
    assert "refusing to overwrite" in result.stderr
    assert out.read_text() == "kept"


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_tune_command_writes_a_legal_deck_and_its_json(tmp_path: Path) -> None:
    out = tmp_path / "best.deck"
    result = CliRunner().invoke(
        app,
        ["tune", str(DECKS / "easy-solo.deck"), "--budget", "100", "--confirm", "20",
         "--seed", "3", "--out", str(out), "--format", "json", "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    for key in ("start", "best"):
        rate = doc[key]
        assert rate["games"] == 20 and rate["ci"][0] <= rate["rate"] <= rate["ci"][1]
    assert doc["rates_from"] == "confirmation"
    assert doc["swaps"] and {"out", "in", "difference", "ci"} <= set(doc["swaps"][0])
    written = read_deck(out, DB)
    assert _legal_for(written)(written)
    assert out.read_text() == doc["best_deck"]


@pytest.mark.slow  # two real tunes, one on a pool of worker processes: end to end
def test_the_same_result_for_any_workers() -> None:
    import deckkit

    runs = [
        deckkit.tune(DECKS / "easy-solo.deck", budget=300, confirm=40, seed=4, workers=w)
        for w in (1, 2)
    ]
    one, two = (r.as_dict() for r in runs)
    assert one == two
    assert one["start"]["games"] == 40 and one["selection_games"] > 0


def test_a_collection_is_any_deck_file_with_its_counts() -> None:
    from deckkit.api.tuning import pool_of

    pool = pool_of(DECKS / "medium-solo.deck")
    deck = read_deck(DECKS / "medium-solo.deck", DB)
    assert pool.counts == tn.copies(deck)
    gun = next(c for c in pool.cards if c.name == "Armitage's Gun")
    kiss = next(c for c in pool.cards if c.name == "A Goddess' Kiss")
    start = read_deck(DECKS / "easy-solo.deck", DB)
    assert pool.counts[gun.id] == 3
    four_guns = tn.Swap(kiss, gun).apply(deck)  # a fourth Armitage's Gun: not owned
    assert not pool.allows(start, four_guns) and pool.allows(deck, deck)
    database = pool_of(None)
    assert database.counts is None and all(c.coverage is Coverage.FULL for c in database.cards)


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_ctrl_c_reports_the_best_deck_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}
    real = tn.Games.selection

    def selection(self: tn.Games, deck: Deck, n: int) -> list[bool]:
        calls["n"] += 1
        if calls["n"] > 30:  # Ctrl-C during the out-screen
            raise KeyboardInterrupt
        # At most 20 real games a deck (the rest lost), to keep the test quick.
        return real(self, deck, min(n, 20)) + [False] * max(0, n - 20)

    monkeypatch.setattr(tn.Games, "selection", selection)
    out = tmp_path / "best.deck"
    result = CliRunner().invoke(
        app,
        ["tune", str(DECKS / "easy-solo.deck"), "--out", str(out), "--format", "json", "-q"],
    )
    assert result.exit_code == 130, result.stderr
    doc = json.loads(result.stdout)
    assert doc["interrupted"] and doc["rates_from"] == "selection" and doc["gain"] is None
    assert "not confirmed" in out.read_text()
    written = read_deck(out, DB)
    assert _legal_for(written)(written)


# --- build: the best deck from a collection ----------------------------------------------------


def test_build_tunes_every_start_within_the_collection_and_picks_on_selection_games() -> None:
    from deckkit.api.building import collection_of

    paths = [DECKS / "easy-solo.deck", DECKS / "medium-solo.deck"]
    pool, decks = collection_of(paths)
    assert pool.counts is not None
    for cid, n in pool.counts.items():  # the counts of the files added up
        assert n == sum(tn.copies(d).get(cid, 0) for d in decks)
    legal = _legal_for(decks[0])
    players: list[FakePlayer] = []

    def games_for(deck: Deck) -> tn.Games:
        players.append(FakePlayer(legal))
        return tn.Games(players[-1])

    outcome = tn.build_decks(decks, pool, legal, games_for, budget=6_000, confirm=200)
    assert outcome.winner is not None and len(outcome.tunings) == 2
    for t, start in zip(outcome.tunings, decks, strict=True):
        assert t.start is start and legal(t.best) and pool.allows(start, t.best)
        assert t.confirmation is not None and t.confirmation.n == 200
    n = min(len(t.best_selection) for t in outcome.tunings)
    rates = [sum(t.best_selection[:n]) for t in outcome.tunings]
    assert rates[outcome.winner] == max(rates)


def test_build_needs_a_legal_start_deck(tmp_path: Path) -> None:
    party = DECKS / "trio-3p.deck"
    result = CliRunner().invoke(app, ["build", "--pool", str(party), "--budget", "100"])
    assert result.exit_code == 2
    assert "no legal solitaire deck to start from" in result.stderr


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_build_command_on_two_decks(tmp_path: Path) -> None:
    out = tmp_path / "built.deck"
    result = CliRunner().invoke(
        app,
        ["build", "--pool", str(DECKS / "easy-solo.deck"), "--pool",
         str(DECKS / "medium-solo.deck"), "--budget", "600", "--confirm", "40", "--seed", "2",
         "--out", str(out), "--format", "json", "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [s["deck"] for s in doc["starts"]] == ["Easy solo", "Medium solo"]
    assert doc["winner"] in {"Easy solo", "Medium solo"}
    assert doc["best"]["games"] == 40 and doc["rates_from"] == "confirmation"
    written = read_deck(out, DB)
    assert _legal_for(written)(written)
