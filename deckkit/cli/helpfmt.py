"""The command line as the README writes it. `--help`: ``deckkit report [OPTIONS] [DECK]``,
``--games N``, ``--policy heuristic|random``, flags without a value, and never the type names
the parser uses inside (``<bool>``, ``<int range>``, ``<list[Path]>``) nor ``{DECK}``.

Typer builds its parameters from the commands' annotations; :class:`HelpGroup` gives each one a
plain metavar once, before the first command line is parsed. Help is printed without rich's
panels (see :mod:`deckkit.cli.main`), so long choices are never split mid-word. The parser's
own messages (typer words them as pydantic does: "Input should be a valid integer, unable to
parse string as an integer") are reworded in deckkit's terms, and ``--card-db DIR`` works after
the command's name as well as before it. Help written to a closed pipe exits 141, as every
command's output does.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

from typer import _click
from typer._click.utils import PacifyFlushWrapper
from typer.core import TyperArgument, TyperOption

from deckkit.cli import coercion
from deckkit.cli.exits import DeckkitGroup, silence_stdout
from deckkit.errors import EXIT_BROKEN_PIPE

LABELS: dict[type, str] = {int: "N", float: "NUMBER", str: "TEXT", Path: "FILE"}


def _element(annotation: Any) -> Any:
    """``list[X]`` or ``X | None`` -> X."""
    while get_origin(annotation) is not None:
        args = [a for a in get_args(annotation) if a is not type(None)]
        if not args:
            break
        annotation = args[0]
    return annotation


def value_label(param: _click.Parameter) -> str:
    """The word that stands for a parameter's value: its choices, or N, NUMBER, TEXT, FILE."""
    desc = getattr(param, "type_descriptor", None)
    if desc is not None and getattr(desc, "is_choice", False):
        return "|".join(str(c.value if isinstance(c, Enum) else c) for c in desc.choices or ())
    annotation = _element(getattr(desc, "annotation", None))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "|".join(str(m.value) for m in annotation)
    return LABELS.get(annotation, "VALUE") if isinstance(annotation, type) else "VALUE"


def _argument_name(param: _click.Parameter) -> str:
    name = (param.metavar or param.name or "value").strip("[]{}").removesuffix("...")
    return name.upper()


def tidy(param: _click.Parameter) -> None:
    """Give one parameter a plain metavar (instance attributes: typer's own classes stay as
    they are)."""
    if isinstance(param, TyperArgument):
        if param.metavar and " " in param.metavar:  # written out whole: "DECK_A [DECK_B ...]"
            shown = usage = param.metavar
        else:
            name = _argument_name(param)
            shown = f"{name}..." if param.nargs != 1 else name
            usage = shown if param.required else f"[{shown}]"
        param.metavar = shown
        vars(param).update(  # instance attributes shadow typer's methods for this parameter
            _usage_display_name=lambda: usage,
            _rich_display_name=lambda: shown,
            display_type_rich=lambda ctx: None,
        )
    elif isinstance(param, TyperOption) and not param.is_flag and param.metavar is None:
        param.metavar = value_label(param)


def tidy_all(command: _click.Command) -> None:
    for param in command.params:
        tidy(param)
    for sub in getattr(command, "commands", {}).values():
        tidy_all(sub)


# The parser's messages, reworded: (pattern, replacement), the first match wins.
PLAIN_WORDS: tuple[tuple[str, str], ...] = (
    (r"^Input should be a valid integer.*$", "expected a whole number"),
    (r"^Input should be a valid number.*$", "expected a number"),
    (r"^Input should be a valid boolean.*$", "expected true or false"),
    (r"^Input should be greater than or equal to (\S+?)\.?$", r"must be at least \1"),
    (r"^Input should be less than or equal to (\S+?)\.?$", r"must be at most \1"),
    (r"^Input should be greater than (\S+?)\.?$", r"must be more than \1"),
    (r"^Input should be less than (\S+?)\.?$", r"must be less than \1"),
    (r"^Value error, (.*)$", r"\1"),
    (r"^Input should be (.*)$", r"should be \1"),
)
CARD_DB = "--card-db"


def plain_words(message: str) -> str:
    """A parser message in deckkit's words (choices listed without quotes)."""
    for pattern, replacement in PLAIN_WORDS:
        if re.match(pattern, message):
            message = re.sub(pattern, replacement, message)
            break
    choices = re.match(r"^'(.*)' is not one of (.*?)\.?$", message)
    if choices:
        listed = ", ".join(c.strip().strip("'") for c in choices.group(2).split(","))
        message = f"{choices.group(1)!r} is not one of: {listed}"
    return message


def hoist_card_db(args: list[str]) -> list[str]:
    """``deckkit COMMAND ... --card-db DIR ...`` -> ``deckkit --card-db DIR COMMAND ...``: the
    option belongs to the top-level command, and people put it after the command's name too.
    Nothing after ``--`` moves."""
    end = args.index("--") if "--" in args else len(args)
    moved: list[str] = []
    rest: list[str] = []
    i = 0
    while i < end:
        arg = args[i]
        if arg == CARD_DB and i + 1 < end:
            moved += args[i : i + 2]
            i += 2
            continue
        if arg.startswith(CARD_DB + "="):
            moved.append(arg)
        else:
            rest.append(arg)
        i += 1
    return [*moved, *rest, *args[end:]]


class HelpGroup(DeckkitGroup):
    """The top-level command: its parameters' help made plain before the first parse, the
    parser's messages in deckkit's words, and ``--card-db`` accepted after the command."""

    _tidied = False

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        coercion.install()  # values read without pydantic where that is certain
        if not self._tidied:
            tidy_all(self)
            self._tidied = True
        given = list(sys.argv[1:] if args is None else args)
        if not self._own_card_db(given):
            given = hoist_card_db(given)
        try:
            return super().main(given, *rest, **kwargs)
        except SystemExit as done:
            # typer ends help or --version written to a closed pipe with exit 1, having put
            # this wrapper on stdout; every other command ends such a write with 141.
            if done.code == 1 and isinstance(sys.stdout, PacifyFlushWrapper):
                silence_stdout()
                sys.exit(EXIT_BROKEN_PIPE)
            raise

    def _own_card_db(self, args: list[str]) -> bool:
        """Whether the command named in ``args`` declares --card-db itself (balance does)."""
        command: _click.Command = self
        for word in args:
            if word.startswith("-"):
                continue
            if command is self:
                sub = self.command_named(word)
            else:
                sub = getattr(command, "commands", {}).get(word)
            if sub is None:
                break
            command = sub
        return (
            any(CARD_DB in getattr(p, "opts", ()) for p in command.params) and command is not self
        )

    def command_named(self, name: str) -> _click.Command | None:
        """The subcommand of this name (a group that builds its commands on demand builds it)."""
        return self.commands.get(name)

    def invoke(self, ctx: _click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except _click.exceptions.BadParameter as err:
            err.message = plain_words(err.message)
            raise
