"""The best deck from a collection (`deckkit build`): every legal start deck tuned with the
collection as its pool, the winner chosen on the selection games and confirmed on fresh ones
(:func:`deckkit.analysis.tuning.build_decks`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckkit.analysis import tuning as tn
from deckkit.analysis.runner import shared_pool
from deckkit.api.deckinput import read_deck_arg
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of
from deckkit.api.samples import samples_root
from deckkit.api.solitaire import SolitaireGame, prepare_with
from deckkit.api.tuning import (
    TuneResult,
    check_budget,
    engine_player,
    legality_of,
    pool_of,
    result_of,
)
from deckkit.errors import UsageError
from deckkit.games import deck_swaps

# A game's deck, its own type (Ani-Mayhem's Deck), passed back to the game's interface.
Deck = Any
CollectionSource = str | Path | Any  # a collection (deck) file, or a deck in memory


def collection_of(sources: Sequence[CollectionSource]) -> tuple[tn.Pool, list[Deck]]:
    """The collection several deck files make together (their counts added up: a player can
    pool several decks), and the decks themselves (the start decks)."""
    decks = [read_deck_arg(Path(s)) if isinstance(s, str | Path) else s for s in sources]
    swaps = deck_swaps()
    counts: dict[str, int] = {}
    cards: dict[str, Any] = {}
    for deck in decks:
        for cid, n in tn.copies(deck).items():
            counts[cid] = counts.get(cid, 0) + n
        for card, _ in swaps.entries(deck):
            cards.setdefault(card.id, card)
    return tn.Pool(tuple(cards.values()), counts), decks


@dataclass(frozen=True)
class BuildResult:
    """Each start deck's tuning (``tunings``, as `deckkit tune` reports it) and the winner's
    index; ``as_dict()`` is `deckkit build --format json`."""

    tunings: list[TuneResult]
    winner: int | None
    collection: str
    skipped: list[str]  # start decks left out, with why

    @property
    def best(self) -> TuneResult | None:
        return None if self.winner is None else self.tunings[self.winner]

    def as_dict(self) -> dict[str, Any]:
        best = self.best
        doc: dict[str, Any] = {
            "collection": self.collection,
            "starts": [
                {
                    "deck": t.game.deck.name,
                    "start": t.as_dict()["start"],
                    "best": t.as_dict()["best"],
                    "gain": t.as_dict()["gain"],
                    "path": t.as_dict()["path"],
                    "best_selection_rate": (
                        sum(t.outcome.best_selection) / len(t.outcome.best_selection)
                        if t.outcome.best_selection
                        else None
                    ),
                }
                for t in self.tunings
            ],
            "skipped": self.skipped,
            "winner": None if best is None else best.game.deck.name,
            "interrupted": any(t.outcome.interrupted for t in self.tunings),
            "method": (
                "every legal start deck tuned with the collection as its pool (the budget "
                "shared equally); the winner is the best deck with the highest win rate on the "
                "selection games (the same game indices for all), then reported from its own "
                "confirmation games, which the choice did not see"
            ),
        }
        if best is not None:
            doc.update({k: v for k, v in best.as_dict().items() if k not in ("deck", "deck_path")})
        return doc


def _starts(
    decks: Sequence[Deck], options: RunOptions, hooks: EngineHooks
) -> tuple[list[SolitaireGame], list[str]]:
    games: list[SolitaireGame] = []
    skipped: list[str] = []
    for deck in decks:
        try:
            game = prepare_with(hooks, deck, options, command="build")
        except UsageError as err:
            skipped.append(f"{deck.name}: {err}")
            continue
        if not game.report.legal:
            skipped.append(f"{deck.name}: not legal under {game.edition.name} ({game.variant})")
        elif game.players != 1:
            skipped.append(f"{deck.name}: a {game.players}-player deck (build plays solitaire)")
        elif games and (game.edition.name, game.variant) != (
            games[0].edition.name,
            games[0].variant,
        ):
            skipped.append(f"{deck.name}: {game.edition.name} ({game.variant}), not the first's")
        else:
            games.append(game)
    return games, skipped


def build_game(
    pools: Sequence[CollectionSource],
    options: RunOptions,
    *,
    budget: int = tn.DEFAULT_BUDGET,
    confirm: int = tn.DEFAULT_CONFIRM,
    approximate: bool = False,
    disasters: bool = False,
    hooks: EngineHooks = ENGINE,
    on_games: Callable[[int], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> BuildResult:
    """See :func:`build`."""
    check_budget(budget, confirm)
    if pools:
        pool, decks = collection_of(pools)
        collection = ", ".join(d.name for d in decks)
    else:
        pool = pool_of(None, approximate=approximate)
        decks = [read_deck_arg(p) for p in sorted((samples_root() / "decks").glob("*.deck"))]
        collection = "the card database (start decks: the sample decks)"
    starts, skipped = _starts(decks, options, hooks)
    if not starts:
        raise UsageError(
            "no legal solitaire deck to start from",
            hint="give a legal deck of the edition among the --pool files: "
            + "; ".join(skipped[:3]),
        )
    first = starts[0]
    by_deck = {id(g.deck): g for g in starts}
    games_of: dict[int, tn.Games] = {}

    def games_for(deck: Deck) -> tn.Games:
        g = tn.Games(engine_player(by_deck[id(deck)], options, hooks), on_games)
        games_of[id(deck)] = g
        return g

    with shared_pool(options.runner_kwargs()["workers"]):
        outcome = tn.build_decks(
            [g.deck for g in starts],
            pool,
            legality_of(first),
            games_for,
            budget=budget,
            confirm=confirm,
            piles=tn.ALL_PILES if disasters else tn.OWN_PILES,
            note=note,
        )
    tunings = [
        result_of(
            by_deck[id(t.start)],
            options,
            max(1, budget // len(starts)),
            confirm,
            t,
            games_of[id(t.start)],
        )
        for t in outcome.tunings
    ]
    return BuildResult(tunings, outcome.winner, collection, skipped)


def build(
    pools: Sequence[CollectionSource] = (),
    options: RunOptions | None = None,
    *,
    budget: int = tn.DEFAULT_BUDGET,
    confirm: int = tn.DEFAULT_CONFIRM,
    approximate: bool = False,
    disasters: bool = False,
    **changes: Any,
) -> BuildResult:
    """The best legal deck from a collection: ``pools`` are deck files (or decks), the cards a
    player owns with their counts, added up; every one of them that is a legal solitaire deck
    under the edition and variant (``options``, else the first deck's header) is a start deck,
    tuned with the whole collection as its pool (see :func:`deckkit.tune`; the budget is
    shared among the starts). With no pool, the card database's fully played cards are the
    collection and the sample decks the starts. The winner is chosen on the selection games
    and reported from its fresh confirmation games."""
    opts = options_of(options, changes)
    return build_game(
        pools,
        opts,
        budget=budget,
        confirm=confirm,
        approximate=approximate,
        disasters=disasters,
        hooks=ENGINE,
    )
