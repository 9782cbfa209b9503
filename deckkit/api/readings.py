"""Sensitivity to the rule readings: how far each alternative reading of the rules (each rule
option's other values, one at a time) moves a deck's win rate, on paired games with 95%
intervals (:mod:`deckkit.analysis.sensitivity`)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from deckkit.analysis import sensitivity as sens
from deckkit.analysis.runner import GameFactory, shared_pool
from deckkit.animayhem.construction.editions import Edition
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of
from deckkit.api.solitaire import DeckSource, SolitaireGame, prepare, require_legal

DEFAULT_GAMES = 1_000


def sensitivity_of(
    game: SolitaireGame,
    options: RunOptions,
    hooks: EngineHooks = ENGINE,
    only: Collection[str] | None = None,
) -> dict[str, Any]:
    """The sensitivity table of a prepared deck as a document (the command's text and JSON
    and the report's section share it); ``only``: the rule options to vary (by default every
    option whose choice the edition leaves open)."""

    def factory_for(edition: Edition) -> GameFactory:
        return hooks.factory(game.deck, edition, game.layout, options.turn_cap, options.policy)

    runner = options.runner_kwargs()
    with shared_pool(runner["workers"]):  # one pool for every reading's batches
        base, effects = sens.measure(
            game.edition,
            game.rules,
            factory_for,
            games=options.games,
            seed=options.seed,
            only=only,
            **runner,
        )
    doc = sens.sensitivity_document(effects, base, options.games, game.rules)
    return {
        "deck": game.deck.name,
        "deck_path": str(game.source) if game.source is not None else None,
        "seed": options.seed,
        "policy": options.policy,
        "edition": game.edition.name,
        **doc,
    }


@dataclass(frozen=True)
class SensitivityResult:
    """The deck as played and the document `deckkit sensitivity --format json` prints."""

    game: SolitaireGame
    document: dict[str, Any]

    @property
    def readings(self) -> list[dict[str, Any]]:
        """One row per alternative reading: ``setting``, its win rate (``win_rate_b``), the
        paired ``difference`` from the readings as played and its 95% interval (``ci``)."""
        return list(self.document["readings"])

    def as_dict(self) -> dict[str, Any]:
        return self.document


def sensitivity(
    deck: DeckSource,
    options: RunOptions | None = None,
    *,
    allow_illegal: bool = False,
    readings: Collection[str] | None = None,
    hooks: EngineHooks = ENGINE,
    **changes: Any,
) -> SensitivityResult:
    """The win rate under each alternative rule reading of ``deck`` (``readings``: one row per
    reading with its paired difference and interval), as `deckkit sensitivity --format json`.
    ``options.games`` paired games per reading (default here 1,000, as the command);
    ``readings``: the rule options to vary (``--reading``), by default every open one."""
    if options is None:
        changes.setdefault("games", DEFAULT_GAMES)
    opts = options_of(options, changes)
    game = prepare(deck, opts, hooks=hooks, command="sensitivity")
    require_legal(game, "measure", allow_illegal=allow_illegal)
    return SensitivityResult(game, sensitivity_of(game, opts, hooks, readings))
