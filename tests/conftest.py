"""Fixtures every test shares."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so `make test` fails only on a change in
# the code, never on a new random draw. `pytest --hypothesis-profile=explore` draws fresh ones.
settings.register_profile("gate", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("gate")

# A run started in the background (`nohup make test &`, a CI runner's detached job) inherits
# SIGINT ignored, and a Python process that starts with it ignored installs no Ctrl-C handler,
# nor do the commands it starts. The tests of how a run stops expect the terminal's Ctrl-C, so
# this process (each xdist worker imports this file too) takes Python's own handler back; a
# handler, unlike an ignored signal, is reset by exec, so the commands the tests start get it
# as well.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests' card-database cache (deckkit.core.diskcache) is their own, never the user's:
    set before the first test, it is part of the environment every test restores, and the
    commands the tests start inherit it."""
    os.environ["DECKKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("deckkit-cache"))


@pytest.fixture(autouse=True, scope="session")
def _charts_drawn_once() -> Iterator[None]:
    """vl-convert draws each chart specification once per pytest process: the same
    specification gives the same bytes (deckkit.report.charts), and the suite's pages repeat
    many (the same sample deck, seed and games in several tests; a page and the page of its
    saved rows), about two charts in five drawn here, at some 35 ms each. A specification
    not seen before is drawn by vl-convert as always; a test that patches vl-convert replaces
    this for its own duration."""
    import vl_convert

    real = vl_convert.vegalite_to_svg
    drawn: dict[str, str] = {}

    def once(spec: Any, *args: Any, **kwargs: Any) -> str:
        try:
            key = json.dumps([spec, args, kwargs], sort_keys=True)
        except (TypeError, ValueError):
            return str(real(spec, *args, **kwargs))
        if key not in drawn:
            drawn[key] = real(spec, *args, **kwargs)
        return drawn[key]

    vl_convert.vegalite_to_svg = once
    yield
    vl_convert.vegalite_to_svg = real


@pytest.fixture(autouse=True, scope="session")
def _commands_built_once() -> Iterator[None]:
    """Typer turns an app into its click commands once per pytest process, as the console
    script does once per run: CliRunner otherwise builds the whole tree again for every
    invocation (the command's signature read and its annotations evaluated, the other games'
    commands too), 4 to 17 ms each, some 2,300 times in the fast suite. The commands are
    the same objects a fresh build makes (click keeps no state in a command between
    invocations; each gets a new context), and the functions they call are looked up when
    called, so a test's monkeypatch of a module's name still reaches them."""
    import typer.main
    import typer.testing

    real = typer.main.get_command
    built: dict[int, tuple[Any, Any]] = {}  # id(app) -> (app, its command); the app kept alive

    def once(app: Any) -> Any:
        if id(app) not in built:
            built[id(app)] = (app, real(app))
        return built[id(app)][1]

    typer.main.get_command = once
    typer.testing._get_command = once  # type: ignore[attr-defined]
    yield
    typer.main.get_command = real
    typer.testing._get_command = real  # type: ignore[attr-defined]


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
