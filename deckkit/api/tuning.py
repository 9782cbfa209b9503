"""Deck tuning from Python (`deckkit tune`): the swaps that raise a deck's win rate most, found
by racing on common random numbers and confirmed on fresh games
(:mod:`deckkit.analysis.tuning`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckkit.analysis import tuning as tn
from deckkit.analysis.paired import METHOD, PairedDifference
from deckkit.analysis.runner import run_games, shared_pool
from deckkit.analysis.summary import wilson_interval
from deckkit.api.deckinput import read_deck_arg
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of
from deckkit.api.solitaire import DeckSource, SolitaireGame, prepare, require_legal
from deckkit.errors import UsageError
from deckkit.games import deck_checks, deck_swaps

# A game's deck, its own type (Ani-Mayhem's Deck), passed back to the game's interface.
Deck = Any
# A collection (deck) file, a deck in memory, or None for the card database.
PoolSource = str | Path | Any | None


def check_budget(budget: int, confirm: int) -> None:
    if not 0 < budget <= tn.MAX_BUDGET:
        raise UsageError(f"--budget must be between 1 and {tn.MAX_BUDGET:,}, not {budget}")
    if confirm < 0:
        raise UsageError(f"--confirm must be 0 or more, not {confirm}")


def pool_of(source: PoolSource, *, approximate: bool = False) -> tn.Pool:
    """The cards a swap may put in. None: every card of the database whose text the engine
    plays in full (``approximate``: also those it plays approximately), as many copies as the
    rules allow. A collection file is any deck file (the cards a player owns, with counts; no
    legality asked): its cards, with those counts."""
    swaps = deck_swaps()
    if source is None:
        return tn.Pool(swaps.playable_cards(approximate=approximate))
    deck = read_deck_arg(Path(source)) if isinstance(source, str | Path) else source
    counts = tn.copies(deck)
    cards = {card.id: card for card, _ in swaps.entries(deck)}
    return tn.Pool(tuple(cards.values()), counts)


def rate_of(won: list[bool]) -> dict[str, Any]:
    n, wins = len(won), sum(won)
    lo, hi = wilson_interval(wins, n) if n else (0.0, 1.0)
    # count, n, rate, ci: the shape every deckkit document gives a rate; games, wins as before
    return {
        "count": wins,
        "n": n,
        "rate": wins / n if n else None,
        "ci": [lo, hi],
        "games": n,
        "wins": wins,
    }


def _difference(d: PairedDifference | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {
        "difference": d.difference,
        "ci": list(d.ci) if d.ci is not None else None,
        "games": d.n,
        "p_value": d.p_value,
    }


@dataclass(frozen=True)
class TuneResult:
    """What `deckkit tune` found: ``outcome`` (steps, ranked swaps, screens), the best deck and
    its text, the start and best rates (``best`` from the confirmation games), and
    ``as_dict()``, the document ``--format json`` prints."""

    game: SolitaireGame
    options: RunOptions
    budget: int
    outcome: tn.TuneOutcome
    start_won: list[bool]
    best_won: list[bool]
    confirmed: bool  # start and best from the confirmation games (else: the selection games)

    @property
    def best(self) -> Deck:
        best: Deck = self.outcome.best  # tuning keeps the game's deck as it was given
        return best

    def best_text(self) -> str:
        o = self.outcome
        notes = [
            f"{o.start.name}, tuned by deckkit tune (seed {self.options.seed}, policy "
            f"{self.options.policy}, budget {self.budget:,} games):",
            *(f"  {s.swap.out.name} -> {s.swap.into.name}" for s in o.steps),
        ]
        if o.interrupted:
            notes.append("interrupted: the best deck so far, not confirmed on fresh games")
        return deck_swaps().deck_text(o.best, notes)

    def as_dict(self) -> dict[str, Any]:
        o = self.outcome
        source = "confirmation" if self.confirmed else "selection"
        return {
            "deck": self.game.deck.name,
            "deck_path": str(self.game.source) if self.game.source is not None else None,
            "seed": self.options.seed,
            "policy": self.options.policy,
            "edition": self.game.edition.name,
            "variant": self.game.variant,
            "budget": self.budget,
            "selection_games": o.selection_games,
            "confirmation_first_game": tn.CONFIRMATION_FIRST,
            "candidates": o.candidates,
            "interrupted": o.interrupted,
            "rates_from": source,
            "start": rate_of(self.start_won),
            "best": rate_of(self.best_won),
            "gain": _difference(o.confirmation),
            "path": [
                {
                    "out": s.swap.out.name,
                    "in": s.swap.into.name,
                    "selection": _difference(s.result),
                    "candidates": s.candidates,
                }
                for s in o.steps
            ],
            "swaps": [r.as_dict() for r in o.ranked],
            "best_deck": self.best_text(),
            "method": (
                "single swaps (one card out, one pool card into the same pile, the deck legal "
                "after) screened and raced by successive halving on common random numbers; "
                "kept while the best swap's paired 95% interval lies above zero; the start and "
                f"best decks then confirmed on fresh games; intervals: {METHOD}"
            ),
        }


def tune_game(
    game: SolitaireGame,
    options: RunOptions,
    *,
    budget: int = tn.DEFAULT_BUDGET,
    confirm: int = tn.DEFAULT_CONFIRM,
    pool: PoolSource = None,
    approximate: bool = False,
    disasters: bool = False,
    hooks: EngineHooks = ENGINE,
    on_games: Callable[[int], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> TuneResult:
    """Tune a prepared deck (see :func:`tune`)."""
    check_budget(budget, confirm)
    games = tn.Games(engine_player(game, options, hooks), on_games)
    with shared_pool(options.runner_kwargs()["workers"]):
        outcome = tn.tune_deck(
            game.deck,
            pool_of(pool, approximate=approximate),
            legality_of(game),
            games,
            budget=budget,
            confirm=confirm,
            piles=tn.ALL_PILES if disasters else tn.OWN_PILES,
            note=note,
        )
    return result_of(game, options, budget, confirm, outcome, games)


def engine_player(game: SolitaireGame, options: RunOptions, hooks: EngineHooks) -> tn.PlayFn:
    """Plays games of any deck under ``game``'s edition and layout and ``options``' seed and
    policy (one engine factory a deck, kept)."""
    runner = options.runner_kwargs()
    factories: dict[Any, Any] = {}

    def play(deck: Deck, first: int, n: int) -> list[bool]:
        key = tn.deck_key(deck)
        factory = factories.get(key)
        if factory is None:
            factory = hooks.factory(
                deck, game.edition, game.layout, options.turn_cap, options.policy
            )
            factories[key] = factory
        result = run_games(
            factory, games=n, seed=options.seed, first=first, keep_rows=True, **runner
        )
        if result.interrupted or result.rows is None:
            raise KeyboardInterrupt
        return [o == "win" for o in result.rows["outcome"].to_list()]

    return play


def legality_of(game: SolitaireGame) -> Callable[[Deck], bool]:
    checks = deck_checks()

    def legal(deck: Deck) -> bool:
        verdict: bool = checks.check(deck, game.edition, game.variant, game.players).legal
        return verdict

    return legal


def result_of(
    game: SolitaireGame,
    options: RunOptions,
    budget: int,
    confirm: int,
    outcome: tn.TuneOutcome,
    games: tn.Games,
) -> TuneResult:
    confirmed = outcome.confirmation is not None
    if confirmed:
        start_won = games.confirmation(outcome.start, confirm)
        best_won = games.confirmation(outcome.best, confirm)
    else:  # interrupted: the selection games both decks played
        start_won, best_won = _selection_pair(games, outcome)
    return TuneResult(game, options, budget, outcome, start_won, best_won, confirmed)


def _selection_pair(games: tn.Games, outcome: tn.TuneOutcome) -> tuple[list[bool], list[bool]]:
    """The start and best decks' selection games, as many of each as both played."""
    start = games.played_of(outcome.start)
    best = games.played_of(outcome.best)
    n = min(len(start), len(best))
    return start[:n], best[:n]


def tune(
    deck: DeckSource,
    options: RunOptions | None = None,
    *,
    budget: int = tn.DEFAULT_BUDGET,
    confirm: int = tn.DEFAULT_CONFIRM,
    pool: PoolSource = None,
    approximate: bool = False,
    disasters: bool = False,
    **changes: Any,
) -> TuneResult:
    """The swaps that raise ``deck``'s win rate most (one card out, one card of ``pool`` in the
    same pile, the deck legal after), searched within ``budget`` selection games by racing on
    common random numbers, then the start and best decks confirmed on ``confirm`` fresh games
    each (game indices from :data:`deckkit.analysis.tuning.CONFIRMATION_FIRST`). ``pool``: a
    collection file or deck (the cards owned, with counts), or None for the card database.
    The disasters are left as they are unless ``disasters`` (in a solitaire game they are the
    opposition: a weaker one makes the test easier, not the deck better).
    The same options give the same result for any ``workers``. Ctrl-C returns the best deck so
    far, unconfirmed (``outcome.interrupted``)."""
    opts = options_of(options, changes)
    game = prepare(deck, opts, command="tune")
    require_legal(game, "tune", allow_illegal=False)
    return tune_game(
        game,
        opts,
        budget=budget,
        confirm=confirm,
        pool=pool,
        approximate=approximate,
        disasters=disasters,
        hooks=ENGINE,
    )
