"""Fixtures every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so `make test` fails only on a change in
# the code, never on a new random draw. `pytest --hypothesis-profile=explore` draws fresh ones.
settings.register_profile("gate", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("gate")


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests' card-database cache (deckkit.core.diskcache) is their own, never the user's:
    set before the first test, it is part of the environment every test restores, and the
    commands the tests start inherit it."""
    os.environ["DECKKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("deckkit-cache"))


@pytest.fixture(autouse=True)
def _environment_restored() -> Iterator[None]:
    """Each test leaves the process environment as it found it.

    Commands run in-process may set variables (``--card-db`` exports DECKKIT_CARD_DB for its
    worker processes); monkeypatch restores only what a test set through it, so a variable the
    command set would otherwise leak into every later test of that pytest worker.
    """
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def _stdin_forgotten() -> Iterator[None]:
    """A command reading a deck from ``-`` keeps standard input's bytes for the rest of its
    process (deckkit.api.deckinput); a later test's ``-`` must read its own input, not those."""
    yield
    from deckkit.api import deckinput

    deckinput.forget_stdin()
