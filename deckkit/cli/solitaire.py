"""What a solitaire command (`play`, `simulate`) is asked to play, resolved once for both.

Header values in the deck file are defaults that flags override; the straight-line variant lays
its field out as a line; solitaire means one player; and a deck is checked for legality before
any game is played, with the validator's explanation when it fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

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
from deckkit.cli.console import echo
from deckkit.cli.deckinput import read_deck_arg
from deckkit.errors import UsageError


@dataclass(frozen=True)
class SolitaireGame:
    deck: Deck
    edition: Edition
    variant: str
    layout: str
    players: int
    report: LegalityReport
    rules: dict[str, str] = field(default_factory=dict)  # every rule option's value


def resolve(
    deck_path: Path,
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
    deck = read_deck_arg(deck_path, db if db is not None else load_card_db())
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
        deck, ed, variant_name, layout_name, count, report, effective(base, chosen)
    )


def explain_illegal(report: LegalityReport) -> None:
    """The validator's explanation on stderr: each violation with its arithmetic and fix."""
    plural = "s" if report.players != 1 else ""
    echo(
        f"deck is not legal under {report.edition} ({report.variant}, "
        f"{report.players} player{plural}):",
        err=True,
    )
    for v in report.violations:
        echo(f"  - [{v.rule}] {v.message}", err=True)
        if v.fix:
            echo(f"      fix: {v.fix}", err=True)
