"""The quick reading of command-line values (deckkit.cli.coercion) gives what typer's own
pydantic-based reading gives, or leaves the value to it: on every parameter of every command."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from typer._click.core import Command, Context
from typer._coercion import build_runtime_param
from typer.core import TyperGroup, _TyperParameter
from typer.main import get_command

from deckkit.cli.coercion import UNSURE, QuickParam, quick_value
from deckkit.cli.main import app
from deckkit.games import GAMES, INTERFACE_COMMANDS

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "decks" / "demo-solo.deck"


def every_parameter() -> list[tuple[Command, _TyperParameter]]:
    """(command, parameter) for every typer parameter of the CLI: Ani-Mayhem's commands, the
    other games' and the commands every game shares."""
    found: list[tuple[Command, _TyperParameter]] = []
    seen: set[int] = set()

    def walk(command: Command) -> None:
        if id(command) in seen:
            return
        seen.add(id(command))
        found.extend((command, p) for p in command.params if isinstance(p, _TyperParameter))
        if isinstance(command, TyperGroup):
            for name in command.list_commands(Context(command)):
                sub = command.get_command(Context(command), name)
                if sub is not None:
                    walk(sub)

    walk(get_command(app))
    modules = {INTERFACE_COMMANDS, *(g.commands for g in GAMES if g.commands is not None)}
    for module in sorted(modules):
        walk(get_command(importlib.import_module(module).app))
    return found


# Texts a user may type, and the values click passes when an option is not given (defaults).
TEXTS = ["0", "1", "5", "05", "+5", " 5", "5 ", "-1", "1_000", "7", "8", "20", "21", "500000000",
         "500000001", "99999999999999999999", "x", "", "1.5", "0.05", "nan", "true",
         "heuristic", "HEURISTIC", "search", "json", "text", "standard", "set0", "-", "./x",
         "a//b", "a/b/", str(DEMO), str(REPO), "no/such/file.deck"]  # fmt: skip


_TYPER_OWN: dict[int, tuple[_TyperParameter, Any]] = {}  # id(param) -> (param, its coercion)


def typer_own_coercion(param: _TyperParameter) -> Any:
    """Typer's own coercion of a parameter, built once per parameter as typer builds it once
    per command (building it, a pydantic adapter, was three quarters of this file's time when
    made again for each of the 15,000 values read below)."""
    if id(param) not in _TYPER_OWN:
        _TYPER_OWN[id(param)] = (param, build_runtime_param(param.type_descriptor))
    return _TYPER_OWN[id(param)][1]


def typer_reading(param: _TyperParameter, command: Command, value: Any) -> Any:
    """What typer's own coercion makes of `value` (an exception is returned, not raised)."""
    ctx = Context(command)
    try:
        return typer_own_coercion(param)._coerce_value(value, param=param, ctx=ctx)
    except Exception as err:  # its BadParameter, or anything else it raises
        return err


@pytest.fixture(scope="module")
def parameters() -> list[tuple[Command, _TyperParameter]]:
    return every_parameter()


def test_the_cli_has_parameters_of_every_kind_the_quick_reading_knows(
    parameters: list[tuple[Command, _TyperParameter]],
) -> None:
    annotations = {repr(p.type_descriptor.annotation) for _, p in parameters}
    for kind in ("<class 'int'>", "<class 'str'>", "<class 'pathlib.Path'>", "list[str]",
                 "list[pathlib.Path]", "<class 'bool'>", "<class 'float'>"):  # fmt: skip
        assert kind in annotations
    assert any(p.type_descriptor.is_choice for _, p in parameters)


def test_the_quick_reading_is_typer_s_or_leaves_it_to_typer(
    parameters: list[tuple[Command, _TyperParameter]],
) -> None:
    """For each parameter and value: the quick value equals typer's (same type too), and where
    typer refuses a value the quick reading never accepts it."""
    checked = 0
    quick_ones = 0
    for command, param in parameters:
        descriptor = param.type_descriptor
        values: list[Any] = [*TEXTS, param.default]
        if descriptor.is_list:
            values = [[v] for v in TEXTS] + [TEXTS[:3], [str(DEMO), str(DEMO)]]
        for value in values:
            if value is None:
                continue
            ctx = Context(command)
            quick = quick_value(descriptor.annotation, descriptor, value, param, ctx)
            typer_own = typer_reading(param, command, value)
            checked += 1
            if quick is UNSURE:
                continue
            quick_ones += 1
            where = (command.name, param.name, value)
            assert not isinstance(typer_own, Exception), (*where, typer_own)
            assert quick == typer_own and type(quick) is type(typer_own), (*where, quick)
    assert checked > 2000 and quick_ones > 300, (checked, quick_ones)


def test_a_refused_value_gets_typer_s_own_message(
    parameters: list[tuple[Command, _TyperParameter]],
) -> None:
    """Through QuickParam, a value the quick reading leaves raises what typer raises."""
    command, games = next(
        (c, p) for c, p in parameters if c.name == "simulate" and p.name == "games"
    )
    descriptor = games.type_descriptor
    quick = QuickParam(descriptor.parameter_info, descriptor.annotation, descriptor)
    ctx = Context(command)
    for text in ("x", "0", "+5"):
        typer_own = typer_reading(games, command, text)
        try:
            got: Any = quick._coerce_value(text, param=games, ctx=ctx)
        except Exception as err:
            got = err
        assert type(got) is type(typer_own)
        if isinstance(typer_own, Exception):
            assert str(got) == str(typer_own)
        else:
            assert got == typer_own
