"""Fixtures every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


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
