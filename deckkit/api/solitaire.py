"""What a solitaire run (`play`, `simulate` and every command built on it) is asked to play,
resolved once for all of them.

Header values in the deck file are defaults that options override; the straight-line variant
lays its field out as a line; solitaire means one player; and a deck is checked for legality
before any game is played, with the validator's explanation when it fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckkit.animayhem import runs as real_engine
from deckkit.animayhem.construction.carddb import CardDB, load_card_db
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import (
    DEFAULT_EDITION,
    DEFAULT_VARIANT,
    Edition,
    load_edition,
)
from deckkit.animayhem.construction.legality import LegalityReport, check_deck
from deckkit.animayhem.construction.readings import apply_rules, effective, parse_rules
from deckkit.api.deckinput import read_deck_arg
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of
from deckkit.errors import EXIT_ILLEGAL, DeckkitError, UsageError

DeckSource = str | Path | Deck  # a deck file ('-': standard input), or a deck in memory


@dataclass(frozen=True)
class SolitaireGame:
    """A deck with everything settled: edition (rule options applied), variant, layout,
    players, the legality verdict and every rule option's value. ``source`` is the deck file
    (None for a deck built in memory, which has no file to record)."""

    deck: Deck
    edition: Edition
    variant: str
    layout: str
    players: int
    report: LegalityReport
    rules: dict[str, str] = field(default_factory=dict)  # every rule option's value
    source: Path | None = None


class IllegalDeck(DeckkitError):
    """The deck fails the legality check and the caller did not allow illegal decks."""

    exit_code = EXIT_ILLEGAL

    def __init__(self, report: LegalityReport, what: str) -> None:
        super().__init__(
            f"deck is not legal under {report.edition}; refusing to {what}",
            hint="pass allow_illegal=True to play it anyway",
        )
        self.report = report


def check_policy(policy: str, hooks: EngineHooks = ENGINE) -> None:
    """A policy the engine knows (``search:N`` is the search player with N rollouts)."""
    name = policy.partition(":")[0]
    if name not in hooks.policies() or (name != policy and not real_engine.known_policy(policy)):
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
    db: CardDB | None = None,
    rules: Sequence[str] = (),
) -> SolitaireGame:
    """Read the deck (against ``db``, else the default database) and settle edition, variant,
    layout, players and rule options (``rules``: the ``--rule`` flags, over the deck's ``rule:``
    lines, over the defaults); check legality."""
    flags = parse_rules(rules)
    if layout is not None and layout not in layouts:
        raise UsageError(f"unknown layout {layout!r}", hint=f"choose one of: {', '.join(layouts)}")
    if isinstance(deck_path, Deck):
        deck, source = deck_path, None
    else:
        source = Path(deck_path)
        deck = read_deck_arg(source, db if db is not None else load_card_db())
    count = players if players is not None else (deck.players or 1)
    if count != 1:
        # A deck built for more players is not legal for one (fewer locations, other quotas):
        # --players 1 alone would only lead to the legality refusal.
        raise UsageError(
            f"{command} plays solitaire games, so players must be 1, not {count}",
            hint=f"the deck is built for {count} players; pass --players 1 --allow-illegal to "
            "play it as solitaire anyway"
            if players is None
            else None,
        )
    chosen = {**dict(deck.rules), **flags}
    base = load_edition(edition or deck.edition or DEFAULT_EDITION)
    ed = apply_rules(base, chosen)
    variant_name = variant or deck.variant or DEFAULT_VARIANT
    layout_name = layout or ("straight-line" if variant_name == "straight-line" else "compact")
    report = check_deck(deck, ed, variant_name, count)
    return SolitaireGame(
        deck, ed, variant_name, layout_name, count, report, effective(base, chosen), source
    )


def prepare(
    deck: DeckSource,
    options: RunOptions | None = None,
    *,
    command: str = "simulate",
    db: CardDB | None = None,
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
    db: CardDB | None = None,
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


def illegal_explanation(report: LegalityReport) -> list[str]:
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
