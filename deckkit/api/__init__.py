"""deckkit from Python: every command of the ``deckkit`` CLI is a thin shell over these
functions (parse the options, call, render), so a notebook or a script gets the very numbers
the command prints for the same options and seed.

    import deckkit

    run = deckkit.simulate("decks/demo-solo.deck", games=2_000, seed=1)
    run                               # a short summary (a table in a notebook)
    run.win.rate, run.win.ci          # the win rate and its Wilson 95% interval
    run.to_frame()                    # one row per game, a polars DataFrame

A run is described by :class:`RunOptions` (games, seed, policy, edition, rule options,
workers...); every function takes one and/or its fields as keywords. Decks are deck files or
:class:`~deckkit.animayhem.construction.deck.Deck` objects built in memory (a card's numbers
changed, say; see docs/api.md). Errors are :class:`deckkit.errors.DeckkitError` subclasses
carrying the command's exit code. Keywords are named as the commands' flags (``card=`` for
``--card``, ``game=`` for ``--game``, ``check=`` for ``--check``). Every result prints as a short
summary and shows as a table in a notebook; ``to_frame()`` gives the rows of those that hold
rows (:mod:`deckkit.api.display`).

The names load lazily (``import deckkit`` stays cheap for the command line's start-up).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# name -> the module of deckkit.api defining it
EXPORTS: dict[str, str] = {
    "RunOptions": "options",
    "DeckSource": "solitaire",
    "SolitaireGame": "solitaire",
    "IllegalDeck": "solitaire",
    "prepare": "solitaire",
    "load_deck": "legality",
    "validate": "legality",
    "ValidationResult": "legality",
    "simulate": "simulation",
    "SimulateResult": "simulation",
    "MatchResult": "matchups",
    "play_one": "play",
    "PlayedGame": "play",
    "stats": "composition",
    "compare": "comparison",
    "CompareResult": "comparison",
    "impact": "card_impact",
    "ImpactResult": "card_impact",
    "tune": "tuning",
    "build": "building",
    "BuildResult": "building",
    "TuneResult": "tuning",
    "sensitivity": "readings",
    "SensitivityResult": "readings",
    "write_report": "pages",
    "write_report_from_saved": "pages",
    "ReportResult": "display",
    "ImpactRequest": "pages",
    "balance_check": "balance",
    "BalanceResult": "balance",
    "baselines": "balance",
    "with_card": "decks",
    "win_rate_chart": "charts",
    "save_chart": "charts",
    "games_on": "cluster",
}
__all__ = [
    "BalanceResult",
    "BuildResult",
    "CompareResult",
    "DeckSource",
    "IllegalDeck",
    "ImpactRequest",
    "ImpactResult",
    "MatchResult",
    "PlayedGame",
    "ReportResult",
    "RunOptions",
    "SensitivityResult",
    "SimulateResult",
    "SolitaireGame",
    "TuneResult",
    "ValidationResult",
    "balance_check",
    "baselines",
    "build",
    "compare",
    "games_on",
    "impact",
    "load_deck",
    "play_one",
    "prepare",
    "save_chart",
    "sensitivity",
    "simulate",
    "stats",
    "tune",
    "validate",
    "win_rate_chart",
    "with_card",
    "write_report",
    "write_report_from_saved",
]  # the names of EXPORTS (a test keeps them equal)

if TYPE_CHECKING:
    from deckkit.api.balance import BalanceResult, balance_check, baselines
    from deckkit.api.building import BuildResult, build
    from deckkit.api.card_impact import ImpactResult, impact
    from deckkit.api.charts import save_chart, win_rate_chart
    from deckkit.api.comparison import CompareResult, compare
    from deckkit.api.composition import stats
    from deckkit.api.decks import with_card
    from deckkit.api.display import ReportResult
    from deckkit.api.legality import ValidationResult, load_deck, validate
    from deckkit.api.matchups import MatchResult
    from deckkit.api.options import RunOptions
    from deckkit.api.pages import ImpactRequest, write_report, write_report_from_saved
    from deckkit.api.play import PlayedGame, play_one
    from deckkit.api.readings import SensitivityResult, sensitivity
    from deckkit.api.simulation import SimulateResult, simulate
    from deckkit.api.solitaire import DeckSource, IllegalDeck, SolitaireGame, prepare
    from deckkit.api.tuning import TuneResult, tune


def __getattr__(name: str) -> Any:
    module = EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deckkit.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"deckkit.api.{module}"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *EXPORTS])
