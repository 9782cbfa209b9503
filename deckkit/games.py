"""Which game a file belongs to, and where each game's commands live.

deckkit serves several card and miniatures games. Ani-Mayhem is the default and its commands are
the ones registered on the top-level ``deckkit`` app; every other game plugs in here.

How a game plugs in
-------------------
1. Add one :class:`Game` line to :data:`GAMES`: its name (what a file's header says in
   ``game: NAME``), a title, and the dotted path of a module of its commands.
2. That module defines ``app``, a :class:`deckkit.cli.exits.DeckkitTyper` carrying whichever of
   these commands the game has: ``validate FILE...``, ``simulate FILE [--vs FILE]``,
   ``report FILE [--vs FILE]``, and a ``cards`` sub-app with ``list`` and ``show``. Each command
   declares its own options (game-specific ones included) and raises
   :class:`deckkit.errors.DeckkitError` subclasses for the shared exit codes (1 illegal,
   2 unreadable input naming the line, 3 broken card data).
3. Its package provides the game interface (:class:`deckkit.core.game.Game`) as ``GAME`` in a
   module named by ``interface`` (reading its files, legality, rule options, players, one seeded
   game to a record); :func:`game_interface` loads it.
4. Nothing else: the modules are imported only when needed, so a game adds nothing to
   Ani-Mayhem's start-up.

How a command line finds its game (:func:`command_for`)
-------------------------------------------------------
For every command: ``--game NAME`` when given (and then removed from the arguments; a whole
number stays, ``play``'s game index), else the first file among the arguments whose header, the
``key: value`` lines at its top before anything else, holds ``game: NAME``. Files without that line
do not vote (an Ani-Mayhem deck, an ``--out`` file). When no game is named the command is
Ani-Mayhem's own, untouched. ``validate``, ``stats``, ``simulate``, ``report``, ``cards``,
``play``, ``build``, ``tune`` and ``sensitivity`` go to the game's own commands (``report --from``
excepted: one command reads every game's saved rows, the file's metadata naming its game);
``compare`` and
``impact`` of a game with its own commands (parties, teams) to the commands every game gets
through its interface
(:data:`INTERFACE_COMMANDS`); a command that does not serve the game (:data:`SERVES`) is refused
in one line with exit 9. Names match case-insensitively, ignoring spaces and punctuation
(``Anima Tactics`` = ``anima-tactics``).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from deckkit.errors import DeckFileError, NotServed, UsageError
from deckkit.untrusted import read_head

if TYPE_CHECKING:  # click loads with the CLI; this module stays importable without it
    from typer import _click

    from deckkit.core import game as interface


@dataclass(frozen=True)
class Game:
    """A game deckkit knows. ``commands`` is None for the built-in (Ani-Mayhem) commands;
    ``interface`` names the module whose ``GAME`` is the game's :class:`deckkit.core.game.Game`."""

    name: str
    title: str
    commands: str | None
    interface: str = ""


DEFAULT_GAME = "ani-mayhem"

GAMES: tuple[Game, ...] = (
    Game("ani-mayhem", "Ani-Mayhem", None, "deckkit.animayhem.game"),
    Game("anima-tactics", "Anima Tactics", "deckkit.cli.animatactics", "deckkit.animatactics.game"),
    Game("animus", "Animus", "deckkit.cli.animus", "deckkit.animus.game"),
)

# The top-level commands a game may take over, and the one option that names a game.
VERBS = (
    "validate",
    "stats",
    "simulate",
    "report",
    "cards",
    "play",
    "build",
    "tune",
    "sensitivity",
)
# The commands a game with its own commands module (a two-sided game: parties, teams) gets
# through its game interface (deckkit.core.game), from this module's ``app``.
INTERFACE_VERBS = ("compare", "impact")
INTERFACE_COMMANDS = "deckkit.cli.interface_cmd"

# Every command line a game may meet, and whom it serves: None where it serves the game (the
# Ani-Mayhem command, or the game's own in its commands module), else why not, as the README's
# command x game table says it ("no meaning here: ..." where the command has none for the game,
# "not yet: ..." where it has one that deckkit does not serve yet). A command line that names a
# game its command does not serve is refused in one line, exit 9 (:func:`refusal`).
NOT_YET = "not yet"
NO_MEANING = "no meaning here"
SERVES: dict[str, dict[str, str | None]] = {
    "validate": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "stats": {
        "ani-mayhem": None,
        "anima-tactics": f"{NO_MEANING}: a party deals no cards (every character is on the table "
        "from the start), so there is no draw to give chances for; `validate` counts its levels",
        "animus": None,
    },
    "simulate": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "play": {
        "ani-mayhem": None,
        "anima-tactics": None,
        "animus": None,
    },
    "report": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "cards list": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "cards show": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "cards coverage": {
        "ani-mayhem": None,
        "anima-tactics": None,
        "animus": None,
    },
    "samples": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "compare": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "impact": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    # Two parties or two teams under each rule option's readings (cli/animatactics/
    # sensitivity.py, cli/animus), through the game interface (analysis/game_sensitivity.py).
    "sensitivity": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "balance baseline": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    "balance check": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    # A saved run names its game in its metadata: the one `report --from` reads it
    # (deckkit.api.pages.write_report_from_saved; a party's or team's rows get their page).
    "report --from": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
    # A party's swaps (cli/animatactics/tune.py); a team is drafted, not assembled card by card.
    "tune": {
        "ani-mayhem": None,
        "anima-tactics": None,
        "animus": f"{NO_MEANING}: a team is drafted from 18 cards dealt face down (Animus "
        "rules v3.5, 'Draft Characters'), not assembled card by card, so no swap is a team a "
        "player could field; `deckkit build` races the teams seeded drafts give",
    },
    # Anima Tactics builds a party (cli/animatactics/build.py), Animus a team from seeded
    # drafts (deckkit/animus/build.py).
    "build": {"ani-mayhem": None, "anima-tactics": None, "animus": None},
}
GAME_OPTION = "--game"
HEADER_BYTES = 64 * 1024  # the header is at the top; a long file is not read whole to find it

_HEADER_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_ -]*?)\s*:\s*(.*?)\s*$")


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def find_game(name: str) -> Game | None:
    """The registered game of this name (spelling-tolerant), or None."""
    wanted = _key(name)
    return next((g for g in GAMES if _key(g.name) == wanted), None)


def game_interface(game: Game) -> interface.Game:
    """The game's interface (its package's ``GAME``), imported on first use."""
    if not game.interface:
        raise UsageError(f"{game.title} provides no game interface")
    found: interface.Game = importlib.import_module(game.interface).GAME
    return found


def _carried(game: Game | None, attribute: str, lacking: str) -> object:
    """What the game's interface (the default game's when None) carries as ``attribute``,
    imported on first use; a usage error saying ``lacking`` when it carries none."""
    chosen = game or GAMES[0]
    found = getattr(game_interface(chosen), attribute, None)
    if found is None:
        raise UsageError(lacking.format(title=chosen.title))
    return found


def card_runs(game: Game | None = None) -> interface.CardRuns:
    """What the tools above the games need to tally and save ``game``'s per-card runs."""
    return cast("interface.CardRuns", _carried(game, "card_runs", "{title} keeps no per-card runs"))


def deck_swaps(game: Game | None = None) -> interface.DeckSwaps:
    """What deck tuning needs of ``game``'s decks."""
    return cast(
        "interface.DeckSwaps",
        _carried(game, "deck_swaps", "deckkit does not tune {title} decks by swaps"),
    )


def deck_checks(game: Game | None = None) -> interface.DeckChecks:
    """``game``'s construction verdict on a deck with its counts."""
    return cast(
        "interface.DeckChecks",
        _carried(game, "deck_checks", "{title} checks no decks of cards"),
    )


def deck_stats(game: Game | None = None) -> interface.DeckStats:
    """What ``game``'s decks are before any game is played."""
    return cast(
        "interface.DeckStats",
        _carried(game, "deck_stats", "{title} gives no draw chances of a deck"),
    )


def engine_runs(game: Game | None = None) -> interface.EngineRuns:
    """What the API's runs of one deck need of ``game``'s engine."""
    return cast(
        "interface.EngineRuns",
        _carried(game, "engine_runs", "{title} plays no runs of one deck under its edition"),
    )


def game_names() -> tuple[str, ...]:
    return tuple(g.name for g in GAMES)


def header_game(path: Path) -> tuple[str, int] | None:
    """``(NAME, line)`` when the file's header says ``game: NAME``; None when it names no game
    or cannot be read as text (the game's own reader then reports what is wrong). Only a
    regular file is looked at (a FIFO would block, a device never end); a UTF-8 byte-order mark
    before the header is not part of its first line."""
    data = read_head(path, HEADER_BYTES)
    if data is None:
        return None
    text = data.decode("utf-8-sig", errors="replace")
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _HEADER_RE.match(line)
        if m is None:
            return None  # the first line that is no header ends the header
        if m.group(1).strip().lower() == "game":
            return m.group(2).split("#", 1)[0].strip(), lineno
    return None


def game_of_file(path: Path) -> Game:
    """The game a file belongs to (Ani-Mayhem when its header names none); an unknown name is
    an unreadable file (exit 2) naming the line."""
    found = header_game(path)
    if found is None:
        return GAMES[0]
    name, lineno = found
    game = find_game(name)
    if game is None:
        raise DeckFileError(
            f"unknown game {name!r}",
            path=path,
            line=lineno,
            hint=f"games: {', '.join(game_names())} (no 'game:' line means {DEFAULT_GAME})",
        )
    return game


def _split_game_option(args: list[str]) -> tuple[str | None, list[str]]:
    """``--game NAME`` (or ``--game=NAME``) taken out of the arguments. A whole number is no
    game's name but ``play``'s game index (``play DECK --game 41``), and stays."""
    rest: list[str] = []
    named: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == GAME_OPTION and i + 1 < len(args) and not args[i + 1].isdigit():
            named, i = args[i + 1], i + 2
            continue
        if arg.startswith(GAME_OPTION + "=") and not arg.split("=", 1)[1].isdigit():
            named = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    return named, rest


def choose_game(args: list[str]) -> tuple[Game, list[str]]:
    """The game a command line is about, and its arguments without ``--game``."""
    named, rest = _split_game_option(args)
    if named is not None:
        game = find_game(named)
        if game is None:
            raise UsageError(f"unknown game {named!r}", hint=f"games: {', '.join(game_names())}")
        return game, rest
    chosen: Game | None = None
    chosen_from: Path | None = None
    for arg in rest:
        if arg.startswith("-") or "\0" in arg:
            continue
        path = Path(arg)
        try:
            if not path.is_file():
                continue
        except OSError:
            continue
        if header_game(path) is None:
            continue
        game = game_of_file(path)
        if chosen is None:
            chosen, chosen_from = game, path
        elif game != chosen:
            raise UsageError(
                f"{arg} is a {game.title} file but {chosen_from} is a {chosen.title} file",
                hint="give files of one game per command",
            )
    return (chosen or GAMES[0]), rest


def command_line_name(verb: str, args: list[str]) -> str:
    """The row of :data:`SERVES` a command line belongs to: ``cards show``, ``report --from``,
    or the command's name."""
    if verb in ("cards", "balance"):
        sub = next((a for a in args if not a.startswith("-")), None)
        return f"{verb} {sub}" if f"{verb} {sub}" in SERVES else verb
    if verb == "report" and any(a == "--from" or a.startswith("--from=") for a in args):
        return "report --from"
    return verb


def refusal(name: str, game: Game) -> NotServed | None:
    """The one-line refusal of command line ``name`` (a row of :data:`SERVES`) for ``game``,
    or None when the command serves the game."""
    why = SERVES.get(name, {}).get(game.name)
    if why is None:
        return None
    kind, _, reason = why.partition(": ")
    if kind == NO_MEANING:
        text = f"`deckkit {name}` has no meaning for {game.title}: {reason}"
    else:
        text = f"`deckkit {name}` does not serve {game.title} yet ({reason})"
    return NotServed(text)


def command_for(verb: str, args: list[str]) -> tuple[_click.Command | None, list[str]]:
    """The click command that should run ``deckkit VERB ARGS`` (None: the built-in Ani-Mayhem
    command) and the arguments to give it (``--game`` removed). A command that does not serve
    the game of the files (or of ``--game``) raises :class:`NotServed` (exit 9)."""
    from typer import _click

    if verb not in SERVES and verb not in VERBS and verb != "balance":
        return None, args
    try:
        game, rest = choose_game(args)
    except (UsageError, DeckFileError) as err:
        raise _click.exceptions.UsageError(err.render()) from err
    name = command_line_name(verb, rest)
    refused = refusal(name, game)
    if refused is not None:
        raise refused
    if game.commands is None or name == "report --from":
        # `report --from` is one command for every game: the saved run's metadata names its game
        return None, rest
    if verb in INTERFACE_VERBS:
        source = INTERFACE_COMMANDS
    elif verb in VERBS:
        source = game.commands
    else:
        return None, rest
    from typer.main import get_command

    module = importlib.import_module(source)
    group = get_command(module.app)
    commands = getattr(group, "commands", None)
    # Typer makes an app of one command that command itself.
    command = (
        commands.get(verb) if commands is not None else (group if group.name == verb else None)
    )
    if command is None:
        raise _click.exceptions.UsageError(f"{game.title} has no `{verb}` command")
    return command, rest
