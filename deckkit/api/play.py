"""One solitaire game, with its trace: game ``index`` of a run seeded ``seed`` is exactly game
``index`` of :func:`deckkit.api.simulation.simulate` with that seed, so any game of a simulation
can be replayed and read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from deckkit.analysis.summary import Played
from deckkit.api.display import Shown, Table, frame
from deckkit.api.options import RunOptions, options_of, renamed
from deckkit.api.simulation import not_simulated_cards
from deckkit.api.solitaire import DeckSource, SolitaireGame, require_legal, resolve
from deckkit.games import card_runs, engine_runs

if TYPE_CHECKING:
    import polars as pl


class Setup(Protocol):
    """A game's prepared setup, as a played game shows it: the cards played approximately."""

    @property
    def not_simulated(self) -> Sequence[str]: ...


class Traced(Protocol):
    """A game's events in order, each a document with its ``turn``, ``phase`` and ``text``."""

    @property
    def events(self) -> list[dict[str, Any]]: ...


@dataclass(frozen=True, repr=False)
class PlayedGame(Shown):
    """A game played with its trace: ``record`` (outcome, turns, items), ``trace.events``
    (what happened, turn by turn) and the settled deck (``game``). Printed, it is the outcome
    (a table in a notebook); ``text()`` is the game turn by turn and ``to_frame()`` its
    events."""

    game: SolitaireGame
    options: RunOptions
    index: int
    setup: Setup
    record: Played
    trace: Traced

    def text(self) -> str:
        """The game turn by turn, as `deckkit play` prints it."""
        return engine_runs().trace_text(self.trace)

    def to_frame(self) -> pl.DataFrame:
        """One row per event of the game: ``turn``, ``phase`` and ``text``."""
        events = [{k: e.get(k) for k in ("turn", "phase", "text")} for e in self.trace.events]
        return frame(events, empty=("turn", "phase", "text"))

    def _title(self) -> str:
        return (
            f"{self.game.deck.name}, game {self.index} of seed {self.options.seed}, "
            f"{self.options.policy} player, {self.game.edition.name}"
        )

    def _table(self) -> Table:
        r = self.record
        rows = [
            ["outcome", f"{r.outcome} ({r.end_reason})"],
            ["turns", str(r.turns)],
            ["items retrieved", f"{r.items_retrieved} of {r.items_in_play}"],
            ["items lost", str(r.items_lost)],
        ]
        return ["", ""], rows

    def _notes(self) -> list[str]:
        return [f".text(): the game turn by turn; .to_frame(): its {len(self.trace.events)} events"]

    def as_dict(self) -> dict[str, Any]:
        """The document of `deckkit play --format json`."""
        record = self.record
        return {
            "deck": self.game.deck.name,
            "seed": self.options.seed,
            "game": self.index,
            "policy": self.options.policy,
            "edition": self.game.edition.name,
            "layout": self.game.layout,
            "rules": self.game.rules,
            "outcome": record.outcome,
            # the same shape as simulate's end_reasons and not_simulated
            "end_reason": {
                "code": card_runs().end_reason_code(record.end_reason),
                "reason": record.end_reason,
            },
            "turns": record.turns,
            "items_in_play": record.items_in_play,
            "items_retrieved": record.items_retrieved,
            "items_lost": record.items_lost,
            "not_simulated": not_simulated_cards(self.game.deck),
            "events": self.trace.events,
        }


def settle(deck: DeckSource, options: RunOptions) -> SolitaireGame:
    """Read the deck and settle what `play` plays (legality verdict included)."""
    return resolve(
        deck,
        edition=options.edition,
        variant=options.variant,
        layout=options.layout,
        players=None,
        layouts=engine_runs().layouts,
        command="play",
        rules=options.rules,
    )


def play_settled(game: SolitaireGame, options: RunOptions, index: int = 0) -> PlayedGame:
    """Play game ``index`` of a settled deck with its trace (the game's engine runs)."""
    setup, record, trace = engine_runs().play_traced(
        game.deck,
        game.edition,
        game.layout,
        options.turn_cap,
        options.policy,
        options.seed,
        index,
    )
    return PlayedGame(game, options, index, setup, record, trace)


def play_one(
    deck: DeckSource,
    game: int = 0,
    options: RunOptions | None = None,
    *,
    allow_illegal: bool = False,
    **changes: Any,
) -> PlayedGame:
    """Play game ``game`` (as ``--game``) of the run seeded ``options.seed`` and keep its
    trace: exactly game ``game`` of :func:`~deckkit.api.simulation.simulate` with that seed."""
    game = renamed(changes, "index", "game", game, 0)
    opts = options_of(options, changes)
    settled = settle(deck, opts)
    require_legal(settled, "play", allow_illegal=allow_illegal)
    return play_settled(settled, opts, game)
