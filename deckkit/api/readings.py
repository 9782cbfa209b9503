"""Sensitivity to the rule readings: how far each alternative reading of the rules (each rule
option's other values, one at a time) moves a deck's win rate, on paired games with 95%
intervals (:mod:`deckkit.analysis.sensitivity`)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckkit.analysis import sensitivity as sens
from deckkit.analysis.runner import GameFactory, shared_pool
from deckkit.api.display import Shown, Table, frame, interval, pct, pts
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of, renamed
from deckkit.api.solitaire import DeckSource, SolitaireGame, prepare, require_legal
from deckkit.games import GAMES, engine_runs, game_interface

if TYPE_CHECKING:
    import polars as pl

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

    engine = engine_runs()

    def factory_for(edition: Any) -> GameFactory:
        return hooks.factory(game.deck, edition, game.layout, options.turn_cap, options.policy)

    def reading(name: str, value: str) -> GameFactory:
        return factory_for(engine.with_rules(game.edition, {**game.rules, name: value}))

    runner = options.runner_kwargs()
    with shared_pool(runner["workers"]):  # one pool for every reading's batches
        base, effects = sens.measure(
            factory_for(game.edition),
            reading,
            engine.alternatives(game.edition, game.rules, only),
            game.rules,
            games=options.games,
            seed=options.seed,
            **runner,
        )
    summaries = {o.name: o.summary for o in game_interface(GAMES[0]).rule_options()}
    doc = sens.sensitivity_document(effects, base, options.games, game.rules, summaries)
    return {
        "deck": game.deck.name,
        "deck_path": str(game.source) if game.source is not None else None,
        "seed": options.seed,
        "policy": options.policy,
        "edition": game.edition.name,
        **doc,
    }


@dataclass(frozen=True, repr=False)
class SensitivityResult(Shown):
    """The deck as played and the document `deckkit sensitivity --format json` prints.
    Printed, it is a short summary (a table in a notebook); ``to_frame()`` gives one row per
    reading."""

    game: SolitaireGame
    document: dict[str, Any]

    @property
    def readings(self) -> list[dict[str, Any]]:
        """One row per alternative reading: ``setting``, its win rate (``win_rate_b``), the
        paired ``difference`` from the readings as played and its 95% interval (``ci``)."""
        return list(self.document["readings"])

    def as_dict(self) -> dict[str, Any]:
        return self.document

    def to_frame(self) -> pl.DataFrame:
        """One row per alternative reading: its ``setting``, the win rates as played
        (``win_rate_a``) and under it (``win_rate_b``), the paired ``difference`` with
        ``ci_low``/``ci_high`` and ``p_value``."""
        return frame(self.document["readings"])

    def _title(self) -> str:
        doc = self.document
        return (
            f"{doc['deck']}, {len(doc['readings'])} reading(s), {doc['games']:,} paired games "
            f"each, seed {doc['seed']}"
        )

    def _table(self) -> Table:
        rows = [
            [
                r["setting"],
                pct(r["win_rate_b"]),
                pts(r["difference"]),
                interval(r["ci"], signed=True),
            ]
            for r in self.document["readings"]
        ]
        return ["reading", "win rate", "vs as played", "95% CI"], rows

    def _notes(self) -> list[str]:
        return [".to_frame(): one row per reading; .as_dict(): the command's JSON"]


def sensitivity(
    deck: DeckSource,
    options: RunOptions | None = None,
    *,
    allow_illegal: bool = False,
    reading: Collection[str] | None = None,
    **changes: Any,
) -> SensitivityResult:
    """The win rate under each alternative rule reading of ``deck`` (``readings``: one row per
    reading with its paired difference and interval), as `deckkit sensitivity --format json`.
    ``options.games`` paired games per reading (default here 1,000, as the command);
    ``reading``: the rule options to vary (as ``--reading``), by default every open one."""
    reading = renamed(changes, "readings", "reading", reading, None)
    if isinstance(reading, str):
        reading = (reading,)
    if options is None:
        changes.setdefault("games", DEFAULT_GAMES)
    opts = options_of(options, changes)
    game = prepare(deck, opts, command="sensitivity")
    require_legal(game, "measure", allow_illegal=allow_illegal)
    return SensitivityResult(game, sensitivity_of(game, opts, only=reading))
