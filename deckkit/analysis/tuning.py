"""Deck tuning: the single swaps (one card out, one card of a pool in) that raise a deck's win
rate most, then a local search over sequences of swaps, by racing on common random numbers.

Candidates. A swap takes one copy of a deck card out and puts one card of the pool in its place
(the same pile: a character for a character, a power card for a power card...), so the piles
keep their sizes and the games of the two decks stay paired; the deck after the swap must be
legal under its edition and variant, and hold no more copies of a card than the pool offers
(the starting deck's own cards count as offered). By default the pool is the card database's
cards whose text the engine plays in full: a gain measured with a card played approximately
would be the approximation's.

Search, all on the same selection games (game ``i`` of every deck draws from the same stream):

1. *Out-screen*: each distinct card of the deck is replaced by its most neutral stand-in
   (:func:`deckkit.animayhem.construction.standins.neutral_replacement`), every one on the
   same games: ``r(a)``, the change in win rate, says how little the deck loses without ``a``.
2. *In-screen*: in each pile, the weakest card (highest ``r``) is replaced by every card of the
   pool that may take its place, raced by successive halving (:mod:`deckkit.analysis.racing`):
   ``g(b)``, the change in win rate, says how much ``b`` brings.
3. *Local search*: the swaps whose predicted gain ``g(b) - r(w) + r(a)`` (``w`` the pile's
   weakest card) is highest are raced against each other on the current deck; the winner is kept
   if its paired 95% interval against the current deck lies above zero, and the search goes on
   from the new deck while the budget lasts and a swap helps. A card put in is never taken out
   again, nor one taken out put back.

Confirmation: the starting deck and the best deck then play fresh games, whose indices start at
:data:`CONFIRMATION_FIRST`, beyond any selection game, so the reported gain is not the
selection's optimism (the winner's curse).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from deckkit.analysis.paired import PairedDifference, paired_difference
from deckkit.analysis.racing import RaceResult, race
from deckkit.core.game import Card, DeckSwaps
from deckkit.games import deck_swaps

# A game's deck, its own type: changed only through the game's DeckSwaps, never looked inside.
Deck = Any

CONFIRMATION_FIRST = 1_000_000_000  # first game index of the confirmation games
MAX_BUDGET = CONFIRMATION_FIRST // 2  # selection games (all decks) stay below this index
DEFAULT_BUDGET = 100_000
DEFAULT_CONFIRM = 4_000
OUT_SHARE = 0.15  # of the budget: the out-screen
IN_SHARE = 0.40  # of the budget: the in-screen
STEP_SHARE = 0.15  # of the budget: each step of the local search
IN_KEEP = 12  # in-cards the in-screen keeps
STEP_CANDIDATES = 24  # swaps raced in each step
MAX_STEPS = 6
# The piles a swap changes by default: the player's own cards. In a solitaire game the deck's
# disasters are the opposition the party plays against, so a weaker disaster raises the win
# rate by making the test easier, not the deck better; they are tuned only when asked.
ALL_PILES: frozenset[str] = frozenset(
    {"characters", "havens", "locations", "items", "power", "disasters", "combat"}
)
OWN_PILES: frozenset[str] = ALL_PILES - {"disasters"}


@cache
def _decks() -> DeckSwaps:
    """The decks tuned: Ani-Mayhem's (the one game whose decks are tuned by swaps), through its
    interface."""
    return deck_swaps()


def pile_of(card: Card) -> str:
    """The deck file section a card belongs to (its pile)."""
    return _decks().pile_of(card)


def deck_key(deck: Deck) -> tuple[tuple[str, int], ...]:
    """A deck's cards in order: decks with equal keys play the same games."""
    return tuple((card.id, n) for card, n in _decks().entries(deck))


def copies(deck: Deck) -> dict[str, int]:
    held: dict[str, int] = {}
    for card, n in _decks().entries(deck):
        held[card.id] = held.get(card.id, 0) + n
    return held


@dataclass(frozen=True)
class Pool:
    """The cards a swap may put in: ``cards``, and ``counts`` (copies owned by id) or None for
    as many as the rules allow (the card database)."""

    cards: tuple[Card, ...]
    counts: dict[str, int] | None = None

    def allows(self, start: Deck, deck: Deck) -> bool:
        """Whether ``deck`` holds no more copies of any card than the pool and ``start`` (the
        deck being tuned, whose cards the player has) offer together."""
        if self.counts is None:
            return True
        owned = copies(start)
        return all(
            n <= max(owned.get(cid, 0), self.counts.get(cid, 0)) for cid, n in copies(deck).items()
        )


@dataclass(frozen=True)
class Swap:
    """One copy of ``out`` taken out, one of ``into`` put in its place."""

    out: Card
    into: Card

    @property
    def key(self) -> tuple[str, str]:
        return (self.out.id, self.into.id)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swap) and self.key == other.key

    def apply(self, deck: Deck) -> Deck:
        """One copy of ``out`` replaced by ``into`` in its place (entries of a card merged)."""
        return _decks().swapped(deck, self.out, self.into)


def legal_swaps(
    deck: Deck,
    pool: Pool,
    legal: Callable[[Deck], bool],
    *,
    start: Deck | None = None,
    outs: Iterable[str] | None = None,
    ins: Iterable[str] | None = None,
    never_out: Iterable[str] = (),
    never_in: Iterable[str] = (),
    piles: frozenset[str] = ALL_PILES,
) -> list[Swap]:
    """Every swap of ``deck`` in ``piles`` that keeps it legal and within the pool
    (``outs``/``ins``: only those card ids)."""
    start = start if start is not None else deck
    out_ids = set(outs) if outs is not None else None
    in_ids = set(ins) if ins is not None else None
    barred_out, barred_in = set(never_out), set(never_in)
    found: list[Swap] = []
    seen: set[str] = set()
    for a, _ in _decks().entries(deck):
        if a.id in seen or a.id in barred_out or (out_ids is not None and a.id not in out_ids):
            continue
        if pile_of(a) not in piles:
            continue
        seen.add(a.id)
        for b in pool.cards:
            if b.id == a.id or b.id in barred_in or (in_ids is not None and b.id not in in_ids):
                continue
            if pile_of(b) != pile_of(a):
                continue
            swap = Swap(a, b)
            after = swap.apply(deck)
            if pool.allows(start, after) and legal(after):
                found.append(swap)
    return found


class PlayFn(Protocol):
    """Whether each of games ``first..first+n-1`` of ``deck`` was won."""

    def __call__(self, deck: Deck, first: int, n: int) -> list[bool]: ...


class Games:
    """Every deck's games, played on demand and kept: the selection games from index 0, the
    confirmation games from :data:`CONFIRMATION_FIRST`. ``played`` counts the selection games
    played (the budget); ``on_play`` hears of every batch."""

    def __init__(self, play: PlayFn, on_play: Callable[[int], None] | None = None) -> None:
        self._play = play
        self._won: dict[tuple[tuple[str, int], ...], list[bool]] = {}
        self._confirm: dict[tuple[tuple[str, int], ...], list[bool]] = {}
        self.played = 0
        self.on_play = on_play

    def _extend(self, store: dict[Any, list[bool]], deck: Deck, n: int, first: int) -> list[bool]:
        won = store.setdefault(deck_key(deck), [])
        if n > len(won):
            more = self._play(deck, first + len(won), n - len(won))
            if len(more) != n - len(won):
                raise ValueError("the player returned the wrong number of games")
            won.extend(more)
            if self.on_play is not None:
                self.on_play(len(more))
            return won[:n]
        return won[:n]

    def selection(self, deck: Deck, n: int) -> list[bool]:
        if n > MAX_BUDGET:
            raise ValueError("too many selection games")
        before = len(self._won.get(deck_key(deck), []))
        won = self._extend(self._won, deck, n, 0)
        self.played += max(0, n - before)
        return won

    def played_of(self, deck: Deck) -> list[bool]:
        """The selection games ``deck`` has played so far."""
        return list(self._won.get(deck_key(deck), []))

    def confirmation(self, deck: Deck, n: int) -> list[bool]:
        return self._extend(self._confirm, deck, n, CONFIRMATION_FIRST)


@dataclass
class RankedSwap:
    """A swap with its paired difference from the deck it was made on."""

    swap: Swap
    result: PairedDifference
    step: int  # 0: a swap of the starting deck

    def as_dict(self) -> dict[str, Any]:
        r = self.result
        return {
            "out": self.swap.out.name,
            "out_id": self.swap.out.id,
            "in": self.swap.into.name,
            "in_id": self.swap.into.id,
            "step": self.step,
            "games": r.n,
            "difference": r.difference,
            "ci": list(r.ci) if r.ci is not None else None,
            "p_value": r.p_value,
        }


@dataclass
class Step:
    """One kept swap of the local search: the deck before, the swap, its paired result on the
    selection games and the candidates raced."""

    swap: Swap
    result: PairedDifference
    candidates: int


@dataclass
class TuneOutcome:
    start: Deck
    best: Deck
    steps: list[Step]
    ranked: list[RankedSwap]  # the first step's swaps, best first
    screened_out: dict[str, PairedDifference]  # r(a) by card id
    screened_in: dict[str, PairedDifference]  # g(b) by card id
    candidates: int  # legal single swaps of the starting deck
    selection_games: int
    confirmation: PairedDifference | None  # best minus start on the confirmation games
    interrupted: bool = False
    log: list[str] = field(default_factory=list)
    best_selection: list[bool] = field(default_factory=list)  # the best deck's selection games


def _diff(games: Games, base: Deck, deck: Deck, n: int) -> PairedDifference:
    return paired_difference(games.selection(base, n), games.selection(deck, n))


def tune_deck(
    deck: Deck,
    pool: Pool,
    legal: Callable[[Deck], bool],
    games: Games,
    *,
    budget: int = DEFAULT_BUDGET,
    confirm: int = DEFAULT_CONFIRM,
    max_steps: int = MAX_STEPS,
    piles: frozenset[str] = OWN_PILES,
    note: Callable[[str], None] | None = None,
) -> TuneOutcome:
    """Tune ``deck`` (see the module's rules) within ``budget`` selection games; the best deck is
    then confirmed on ``confirm`` fresh games of it and of ``deck``. A KeyboardInterrupt ends the
    search: the best deck so far is returned, flagged ``interrupted`` and unconfirmed."""
    if not 0 < budget <= MAX_BUDGET:
        raise ValueError(f"budget must be between 1 and {MAX_BUDGET:,}")
    log: list[str] = []

    def say(text: str) -> None:
        log.append(text)
        if note is not None:
            note(text)

    outcome = TuneOutcome(deck, deck, [], [], {}, {}, 0, 0, None, log=log)
    try:
        _search(deck, pool, legal, games, budget, max_steps, piles, outcome, say)
    except KeyboardInterrupt:
        outcome.interrupted = True
        outcome.selection_games = games.played
        outcome.best_selection = games.played_of(outcome.best)
        say("interrupted: the best deck so far, not confirmed")
        return outcome
    outcome.selection_games = games.played
    outcome.best_selection = games.played_of(outcome.best)
    if confirm > 0:
        say(f"confirming on {confirm:,} fresh games")
        try:
            outcome.confirmation = paired_difference(
                games.confirmation(deck, confirm), games.confirmation(outcome.best, confirm)
            )
        except KeyboardInterrupt:
            outcome.interrupted = True
    return outcome


def _search(
    start: Deck,
    pool: Pool,
    legal: Callable[[Deck], bool],
    games: Games,
    budget: int,
    max_steps: int,
    piles: frozenset[str],
    out: TuneOutcome,
    say: Callable[[str], None],
) -> None:
    swaps = legal_swaps(start, pool, legal, piles=piles)
    out.candidates = len(swaps)
    say(f"{len(swaps):,} legal single swaps")
    if not swaps:
        return
    # 1. out-screen: each card with a swap, replaced by its most neutral stand-in.
    out_ids = list(dict.fromkeys(s.out.id for s in swaps))
    cards = {card.id: card for card, _ in _decks().entries(start)}
    stand_ins: dict[str, Swap] = {}
    for cid in out_ids:
        a = cards[cid]

        def fits(d: Deck) -> bool:
            return pool.allows(start, d) and legal(d)

        s = _decks().neutral_replacement(start, a, pool.cards, fits)
        if s is not None:
            stand_ins[cid] = Swap(a, s)
    n_out = max(10, int(budget * OUT_SHARE) // max(1, len(stand_ins) + 1))
    say(f"out-screen: {len(stand_ins)} cards, {n_out:,} games each")
    for cid, sw in stand_ins.items():
        out.screened_out[cid] = _diff(games, start, sw.apply(start), n_out)

    def r(cid: str) -> float:
        d = out.screened_out.get(cid)
        return d.difference if d is not None and d.difference is not None else 0.0

    # 2. in-screen: each pile's weakest card replaced by every card that may take its place.
    weakest: dict[str, str] = {}
    for cid in out_ids:
        p = pile_of(cards[cid])
        if p not in weakest or r(cid) > r(weakest[p]):
            weakest[p] = cid
    in_arms = [s for s in swaps if weakest.get(pile_of(s.out)) == s.out.id]
    say(f"in-screen: {len(in_arms):,} cards raced in place of each pile's weakest")

    def outcomes_on(base: Deck) -> Callable[[Swap, int], Sequence[bool]]:
        def outcomes(sw: Swap, n: int) -> Sequence[bool]:
            return games.selection(sw.apply(base), n)

        return outcomes

    screen = race(in_arms, outcomes_on(start), budget=int(budget * IN_SHARE), keep=IN_KEEP)
    for st in screen.standings:
        out.screened_in[st.arm.into.id] = screen.versus(games.selection(start, st.games), st)

    def g(cid: str) -> float:
        d = out.screened_in.get(cid)
        return d.difference if d is not None and d.difference is not None else 0.0

    finalists = {s.into.id for s in screen.finalists}
    in_order = sorted(out.screened_in, key=lambda cid: (cid not in finalists, -g(cid)))
    # 3. local search.
    current = start
    added: set[str] = set()
    removed: set[str] = set()
    step_budget = int(budget * STEP_SHARE)
    for step in range(max_steps):
        pairs = legal_swaps(
            current,
            pool,
            legal,
            start=start,
            ins=in_order[: IN_KEEP * 2],
            never_out=added,
            never_in=removed,
            piles=piles,
        )

        def predicted(sw: Swap) -> float:
            w = weakest.get(pile_of(sw.out))
            return g(sw.into.id) - (r(w) if w is not None else 0.0) + r(sw.out.id)

        pairs.sort(key=lambda sw: (-predicted(sw), sw.key))
        pairs = pairs[:STEP_CANDIDATES]
        if not pairs:
            break
        remaining = budget - games.played
        if remaining < step_budget // 4 and step > 0:
            break
        spend = remaining if remaining < 2 * step_budget else step_budget
        result: RaceResult[Swap] = race(
            pairs, outcomes_on(current), budget=max(spend, step_budget // 4), keep=1
        )
        # Standings: the race's last arm first, then the others (still in, then dropped).
        ranked = [
            RankedSwap(st.arm, result.versus(games.selection(current, st.games), st), step)
            for st in result.standings
        ]
        if step == 0:
            out.ranked = ranked
        best = ranked[0]
        ci = best.result.ci
        say(
            f"step {step + 1}: {best.swap.out.name} -> {best.swap.into.name} "
            f"{best.result.difference or 0.0:+.3f} ({best.result.n:,} games)"
        )
        if ci is None or ci[0] <= 0:
            say("no swap helps on these games: the search stops")
            break
        current = best.swap.apply(current)
        added.add(best.swap.into.id)
        removed.add(best.swap.out.id)
        out.steps.append(Step(best.swap, best.result, len(pairs)))
        out.best = current
        if games.played >= budget:
            break


@dataclass
class BuildOutcome:
    """Every start deck's tuning, and which one's best deck won (by its selection games, so
    that its confirmation games stay fresh)."""

    tunings: list[TuneOutcome]
    winner: int | None  # index into ``tunings``; None when interrupted before any finished

    @property
    def interrupted(self) -> bool:
        return any(t.interrupted for t in self.tunings)


def build_decks(
    starts: Sequence[Deck],
    pool: Pool,
    legal: Callable[[Deck], bool],
    games_for: Callable[[Deck], Games],
    *,
    budget: int = DEFAULT_BUDGET,
    confirm: int = DEFAULT_CONFIRM,
    piles: frozenset[str] = OWN_PILES,
    note: Callable[[str], None] | None = None,
) -> BuildOutcome:
    """The best deck from a collection: each legal start deck tuned with the collection as its
    pool (the budget shared equally), each best deck confirmed against its start on fresh
    games; the winner is the best deck with the highest win rate on the selection games, all
    played on the same game indices (so the choice among starts does not touch the
    confirmation games it is reported from). ``games_for`` gives each start its games (the
    same seed for all)."""
    if not starts:
        raise ValueError("no start deck")
    share = max(1, budget // len(starts))
    tunings: list[TuneOutcome] = []
    for i, start in enumerate(starts, start=1):
        if note is not None:
            note(f"start deck {i} of {len(starts)}: {start.name}")
        outcome = tune_deck(
            start,
            pool,
            legal,
            games_for(start),
            budget=share,
            confirm=confirm,
            piles=piles,
            note=note,
        )
        tunings.append(outcome)
        if outcome.interrupted:
            break
    finished = [i for i, t in enumerate(tunings) if t.best_selection]
    if not finished:
        return BuildOutcome(tunings, None)
    n = min(len(tunings[i].best_selection) for i in finished)
    winner = max(finished, key=lambda i: (sum(tunings[i].best_selection[:n]), -i))
    return BuildOutcome(tunings, winner)
