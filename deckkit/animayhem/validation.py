"""Ani-Mayhem's decks read and checked (:class:`deckkit.core.game.DeckChecks`, reached through
:func:`deckkit.games.deck_checks`): a deck file or its bytes read against a card database, and
``deckkit validate``: a deck file, standard input or a deck in memory, checked under an
edition, a variant and a player count, the deck's header values the defaults that the
arguments override."""

from __future__ import annotations

import sys
from pathlib import Path

from deckkit.animayhem.construction.carddb import CardDB, load_card_db
from deckkit.animayhem.construction.deck import MAX_DECK_BYTES, Deck, parse_deck_bytes, read_deck
from deckkit.animayhem.construction.editions import (
    DEFAULT_EDITION,
    DEFAULT_VARIANT,
    EDITIONS,
    VARIANTS,
    load_edition,
    load_variant,
)
from deckkit.animayhem.construction.legality import LegalityReport, check_deck
from deckkit.errors import UsageError


def validate_deck(
    deck: str | Path | Deck,
    *,
    players: int | None = None,
    edition: str | None = None,
    variant: str | None = None,
) -> tuple[str, LegalityReport]:
    """The deck's name and its legality report. An unknown edition or variant is a usage
    error; an unreadable deck raises a :class:`~deckkit.errors.DeckkitError` naming the file and
    line."""
    if edition is not None and edition not in EDITIONS:
        raise UsageError(f"unknown edition {edition!r}", hint=f"editions: {', '.join(EDITIONS)}")
    if variant is not None and variant not in VARIANTS:
        raise UsageError(f"unknown variant {variant!r}", hint=f"variants: {', '.join(VARIANTS)}")
    if isinstance(deck, Deck):
        parsed = deck
    elif str(deck) == "-":
        data = sys.stdin.buffer.read(MAX_DECK_BYTES + 1)
        parsed = parse_deck_bytes(data, load_card_db(), Path("<stdin>"))
    else:
        parsed = read_deck(Path(deck), load_card_db())
    ed = load_edition(edition or parsed.edition or DEFAULT_EDITION)
    var = load_variant(variant or parsed.variant or DEFAULT_VARIANT)
    n = players if players is not None else (parsed.players or 1)
    return parsed.name, check_deck(parsed, ed, var, n)


class AniMayhemDeckChecks:
    """:class:`deckkit.core.game.DeckChecks` for Ani-Mayhem's decks."""

    def validate(
        self,
        deck: str | Path | Deck,
        *,
        players: int | None = None,
        edition: str | None = None,
        variant: str | None = None,
    ) -> tuple[str, LegalityReport]:
        return validate_deck(deck, players=players, edition=edition, variant=variant)

    def read_deck(self, path: Path, db: CardDB | None = None) -> Deck:
        return read_deck(path, db if db is not None else load_card_db())

    def parse_deck(self, data: bytes, path: Path, db: CardDB | None = None) -> Deck:
        return parse_deck_bytes(data, db if db is not None else load_card_db(), path)


DECK_CHECKS = AniMayhemDeckChecks()
