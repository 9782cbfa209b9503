"""What a solitaire run (`play`, `simulate` and every command built on it) is asked to play,
resolved once for all of them.

Header values in the deck file are defaults that options override; the straight-line variant
lays its field out as a line; solitaire means one player; and a deck is checked for legality
before any game is played, with the validator's explanation when it fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckkit.api.deckinput import read_deck_arg
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of
from deckkit.core.game import SolitaireGame
from deckkit.errors import EXIT_ILLEGAL, DeckkitError, UsageError
from deckkit.games import deck_checks, engine_runs

# A deck file ('-': standard input), or a deck in memory (the game's own, e.g. Ani-Mayhem's
# Deck: what deckkit.read_deck returns).
DeckSource = str | Path | Any

__all__ = [
    "DeckSource",
    "IllegalDeck",
    "SolitaireGame",
    "check_options",
    "check_policy",
    "illegal_explanation",
    "prepare",
    "prepare_with",
    "require_legal",
    "resolve",
]


class IllegalDeck(DeckkitError):
    """The deck fails the legality check and the caller did not allow illegal decks."""

    exit_code = EXIT_ILLEGAL

    def __init__(self, report: Any, what: str) -> None:
        super().__init__(
            f"deck is not legal under {report.edition}; refusing to {what}",
            hint="pass allow_illegal=True to play it anyway",
        )
        self.report = report


def check_policy(policy: str, hooks: EngineHooks = ENGINE) -> None:
    """A policy the engine knows (``search:N`` is the search player with N rollouts)."""
    name = policy.partition(":")[0]
    if name not in hooks.policies() or (name != policy and not engine_runs().known_policy(policy)):
        raise UsageError(
            f"unknown policy {policy!r}", hint=f"choose one of: {', '.join(hooks.policies())}"
        )


def check_options(options: RunOptions, hooks: EngineHooks = ENGINE) -> None:
    """Numbers in range and a known policy, before anything is read or played."""
    options.check_numbers()
    check_policy(options.policy, hooks)


def resolve(
    deck_path: DeckSource,
    *,
    edition: str | None,
    variant: str | None,
    layout: str | None,
    players: int | None,
    layouts: Sequence[str],
    command: str,
    db: Any | None = None,
    rules: Sequence[str] = (),
) -> SolitaireGame:
    """Read the deck (against ``db``, else the default database) and settle edition, variant,
    layout, players and rule options (``rules``: the ``--rule`` flags, over the deck's ``rule:``
    lines, over the defaults); check legality."""
    checks = deck_checks()
    flags = checks.parse_rules(rules)
    if layout is not None and layout not in layouts:
        raise UsageError(f"unknown layout {layout!r}", hint=f"choose one of: {', '.join(layouts)}")
    if isinstance(deck_path, str | Path):
        source: Path | None = Path(deck_path)
        deck = read_deck_arg(Path(deck_path), db)
    else:
        deck, source = deck_path, None
    return checks.settle(
        deck,
        edition=edition,
        variant=variant,
        layout=layout,
        players=players,
        rules=flags,
        command=command,
        source=source,
    )


def prepare(
    deck: DeckSource,
    options: RunOptions | None = None,
    *,
    command: str = "simulate",
    db: Any | None = None,
    **changes: Any,
) -> SolitaireGame:
    """Check the options, read the deck (against ``db``, else the card database in use) and
    settle what to play: edition with its rule options, variant, layout, players and the
    legality verdict (each caller decides what an illegal deck means). ``command`` names the
    command in error messages; keywords override fields of ``options``."""
    return prepare_with(ENGINE, deck, options_of(options, changes), command=command, db=db)


def prepare_with(
    hooks: EngineHooks,
    deck: DeckSource,
    options: RunOptions,
    *,
    command: str = "simulate",
    db: Any | None = None,
) -> SolitaireGame:
    """:func:`prepare` against the engine ``hooks`` (a fake one, in tests of the commands)."""
    check_options(options, hooks)
    return resolve(
        deck,
        edition=options.edition,
        variant=options.variant,
        layout=options.layout,
        players=options.players,
        layouts=hooks.layouts,
        command=command,
        db=db,
        rules=options.rules,
    )


def require_legal(game: SolitaireGame, what: str, *, allow_illegal: bool) -> None:
    """Refuse an illegal deck unless allowed (:class:`IllegalDeck`, exit code 1)."""
    if not game.report.legal and not allow_illegal:
        raise IllegalDeck(game.report, what)


def illegal_explanation(report: Any) -> list[str]:
    """The validator's explanation: each violation with its arithmetic and fix, as lines."""
    plural = "s" if report.players != 1 else ""
    lines = [
        f"deck is not legal under {report.edition} ({report.variant}, "
        f"{report.players} player{plural}):"
    ]
    for v in report.violations:
        lines.append(f"  - [{v.rule}] {v.message}")
        if v.fix:
            lines.append(f"      fix: {v.fix}")
    return lines
