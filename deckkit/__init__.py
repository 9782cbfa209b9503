"""deckkit: deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem.

The Python API (:mod:`deckkit.api`, see docs/api.md) is re-exported here::

    import deckkit

    run = deckkit.simulate("decks/demo-solo.deck", games=2_000, seed=1)
    run                      # a short summary (a table in a notebook)
    run.win.rate, run.win.ci # the win rate and its Wilson 95% interval
    run.to_frame()           # one row per game, a polars DataFrame

``__all__`` lists the API; ``dir(deckkit)``, tab completion and ``help(deckkit)`` show it. Its
names load on first use, so ``import deckkit`` (and the command line's start-up) pays for none
of them, nor even for :mod:`typing`.
"""

from __future__ import annotations

from deckkit.version import __version__ as __version__

# The API's names (deckkit.api.__all__; a test keeps the two equal). Each is loaded from
# deckkit.api on first use (``__getattr__`` below).
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
]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # the same names, explicitly, for type checkers and editors
    from typing import Any

    from deckkit.api import (  # exported: each is in __all__
        BalanceResult,
        BuildResult,
        CompareResult,
        DeckSource,
        IllegalDeck,
        ImpactRequest,
        ImpactResult,
        MatchResult,
        PlayedGame,
        ReportResult,
        RunOptions,
        SensitivityResult,
        SimulateResult,
        SolitaireGame,
        TuneResult,
        ValidationResult,
        balance_check,
        baselines,
        build,
        compare,
        games_on,
        impact,
        load_deck,
        play_one,
        prepare,
        save_chart,
        sensitivity,
        simulate,
        stats,
        tune,
        validate,
        win_rate_chart,
        with_card,
        write_report,
        write_report_from_saved,
    )


def __getattr__(name: str) -> Any:
    # importlib, not `from deckkit import api`: a from-import asks this function for "api"
    # again. The import machinery asks it for every submodule not yet imported, too
    # (`from deckkit import errors`): only the API's names load deckkit.api.
    if name not in __all__:
        raise AttributeError(f"module 'deckkit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module("deckkit.api"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    """The module's own names and the API's (tab completion, ``help(deckkit)``)."""
    return sorted({*globals(), *__all__})
