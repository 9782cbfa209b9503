"""The options commands share, declared once so that a flag means the same thing everywhere.

Short flags: ``-n`` games, ``-s`` seed, ``-w`` workers, ``-p`` policy, ``-e`` edition, ``-l``
layout, ``-f`` format, ``-o`` out, ``-q`` quiet, ``-v`` verbose. Choices (editions, variants,
layouts, policies, formats) are real choices: listed in ``--help``, matched case-insensitively and
completed by the shell. Defaults that depend on the deck file are shown as such.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from deckkit.animayhem.construction.editions import DEFAULT_EDITION, DEFAULT_VARIANT
from deckkit.errors import UsageError
from deckkit.textsafe import clipped

# The choices, spelled as the engine and the edition files spell them (a test keeps them equal).


class Edition(StrEnum):
    SET0 = "set0"
    GENERAL1996 = "general1996"
    GUIDELINES1998 = "guidelines1998"
    FIFTH2018 = "fifth2018"


class Variant(StrEnum):
    STANDARD = "standard"
    STRAIGHT_LINE = "straight-line"
    BIG_SQUARE = "big-square"
    SKIRMISH = "skirmish"


class Layout(StrEnum):
    COMPACT = "compact"
    RANDOM = "random"
    STRAIGHT_LINE = "straight-line"


class Policy(StrEnum):
    HEURISTIC = "heuristic"
    RANDOM = "random"
    SEARCH = "search"


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"


class ListFormat(StrEnum):
    """The formats of every game's `cards list`: a table for people, rows for other tools."""

    TEXT = "text"
    CSV = "csv"
    TSV = "tsv"
    JSON = "json"


DEFAULT_GAMES = 10_000
# The engine's default turn cap (engine.prepared.DEFAULT_TURN_CAP) and the Dask backend's
# variable (analysis.dask_backend.SCHEDULER_ENV), spelled here so that a command's options do
# not import the engine or the runner before the command runs (a test keeps them equal).
TURN_CAP = 150
SCHEDULER_ENV = "DECKKIT_SCHEDULER"

DeckArg = Annotated[
    Path, typer.Argument(metavar="DECK", help="The deck file; '-' reads it from stdin.")
]
GamesOpt = Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games to play.")]
SeedOpt = Annotated[
    int,
    typer.Option("--seed", "-s", min=0, help="Seed of the run: the same seed, the same results."),
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        min=0,
        help="Worker processes (0 = all cores; capped at the cores available). "
        "Never changes results.",
    ),
]
PolicyOpt = Annotated[
    Policy,
    typer.Option(
        "--policy",
        "-p",
        case_sensitive=False,
        help="Player: heuristic (sensible), random, or search (plans by simulating; slow).",
    ),
]
EditionOpt = Annotated[
    Edition | None,
    typer.Option(
        "--edition",
        "-e",
        case_sensitive=False,
        show_default=f"the deck's header, else {DEFAULT_EDITION}",
        help="Rule edition.",
    ),
]
VariantOpt = Annotated[
    Variant | None,
    typer.Option(
        "--variant",
        case_sensitive=False,
        show_default=f"the deck's header, else {DEFAULT_VARIANT}",
        help="Field variant.",
    ),
]
PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", min=1, show_default="the deck's header, else 1", help="Players."),
]
LayoutOpt = Annotated[
    Layout | None,
    typer.Option(
        "--layout",
        "-l",
        case_sensitive=False,
        show_default="straight-line for the straight-line variant, else compact",
        help="How the locations are laid out.",
    ),
]
TurnCapOpt = Annotated[
    int, typer.Option("--turn-cap", min=1, help="Turns before a game counts as a stall.")
]
FormatOpt = Annotated[
    Format,
    typer.Option("--format", "-f", case_sensitive=False, help="text for people, json for tools."),
]
ListFormatOpt = Annotated[
    ListFormat | None,
    typer.Option(
        "--format",
        "-f",
        case_sensitive=False,
        show_default="text on a terminal, tsv in a pipe",
        help="text (a table), csv, tsv or json.",
    ),
]


def list_format(fmt: ListFormat | None) -> ListFormat:
    """``--format`` of `cards list` as given, else a table on a terminal and tsv in a pipe: a
    list piped to another tool is read by the tool, one card a line."""
    if fmt is not None:
        return fmt
    return ListFormat.TEXT if sys.stdout.isatty() else ListFormat.TSV


QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or notes.")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Say more.")]
AllowIllegalOpt = Annotated[
    bool, typer.Option("--allow-illegal", help="Play a deck that fails the legality check.")
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="Write one row per game to FILE.parquet or FILE.csv.", metavar="FILE"
    ),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Let --out replace an existing file.")]


def one_value_per_rule(values: list[str] | None) -> list[str] | None:
    """``--rule`` repeated for one option with two values is a mistake to point out (exit 2),
    not a choice of the last one; the same value twice is harmless."""
    seen: dict[str, tuple[str, str]] = {}
    for text in values or []:
        name, sep, value = text.partition("=")
        if not sep:
            continue  # the option's own parser says what is wrong with it
        key = name.strip()
        earlier = seen.setdefault(key, (value.strip(), text))
        if earlier[0] != value.strip():
            raise typer.BadParameter(
                f"{clipped(earlier[1], 80)!r} and {clipped(text, 80)!r} set the same rule "
                "option; give it once"
            )
    return values


def check_readings(readings: list[str] | None, known: Collection[str], passages: str) -> None:
    """Each ``--reading`` of a sensitivity command a rule option of its game: an unknown name
    is a usage error (exit 2) listing the game's options and ``passages`` where they are
    explained, never a table quietly missing the reading asked for."""
    for name in readings or ():
        if name not in known:
            raise UsageError(
                f"--reading: unknown rule option {name!r}",
                hint=f"choose one of: {', '.join(known)} ({passages})",
            )


RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        callback=one_value_per_rule,
        metavar="NAME=VALUE",
        show_default="the deck's `rule:` lines, else each option's default",
        help="A rule option: how to read the rules where they leave a choice (repeat; "
        "options and defaults in docs/interpretations.md, e.g. charm=every).",
    ),
]


def _games_on_scheduler(ctx: typer.Context, address: str | None) -> str | None:
    """Route every run of the command to the Dask cluster at ``address`` until the command
    ends (the context closes): the commands play through the runner as they always do, and
    the runner hands its chunks to the cluster. Connects on the first run, so a missing Dask
    or an unreachable scheduler is reported as the command's error, with its exit code."""
    if address is not None and not address.strip():
        # Given, but empty (an unset shell variable, `--scheduler "$ADDR"`): saying so beats
        # quietly playing on this machine instead of the cluster the user meant.
        raise typer.BadParameter(
            "the address is empty; give tcp://HOST:PORT, or leave --scheduler out to play "
            "on this machine"
        )
    if not ctx.resilient_parsing:  # shell completion parses without running anything
        from deckkit.analysis import dask_backend

        ctx.with_resource(dask_backend.games_on(address))
    return address


SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        envvar=SCHEDULER_ENV,
        metavar="ADDRESS",
        callback=_games_on_scheduler,
        show_default="this machine's processes",
        help="Play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:PORT; needs pip install 'deckkit[dask]'); --workers is then ignored. "
        "Never changes results.",
    ),
]


# `--turns` of `deckkit stats`, every game's: the turns whose draw chances are shown.
MAX_TURN = 200


def parse_turns(text: str) -> tuple[int, ...]:
    """``0,1,3,5`` -> (0, 1, 3, 5): the turns to show, 0 being the opening hand."""
    try:
        turns = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise UsageError(
            f"--turns takes whole numbers separated by commas, not {text!r}", hint="e.g. 0,1,3,5"
        ) from None
    if not turns or turns[0] < 0 or turns[-1] > MAX_TURN:
        raise UsageError(f"--turns must be between 0 and {MAX_TURN}, not {text!r}")
    return turns
