"""deckkit: deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem.

The Python API (:mod:`deckkit.api`) is re-exported here: ``deckkit.simulate(...)``,
``deckkit.RunOptions``... Its names load on first use, so ``import deckkit`` (and the
command line's start-up) pays for none of them, nor even for :mod:`typing`.
"""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any

    from deckkit.api import *  # noqa: F403  (the API's names, for type checkers)


def __getattr__(name: str) -> Any:
    # importlib, not `from deckkit import api`: a from-import asks this function for "api"
    # again. The import machinery asks it for every submodule not yet imported, too
    # (`from deckkit import errors`): deckkit.api's own module is small and loads no name.
    import importlib

    api = importlib.import_module("deckkit.api")
    if name in api.EXPORTS:
        return getattr(api, name)
    raise AttributeError(f"module 'deckkit' has no attribute {name!r}")
