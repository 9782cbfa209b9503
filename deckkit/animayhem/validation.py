"""Ani-Mayhem's decks read and checked (:class:`deckkit.core.game.DeckChecks`, reached through
:func:`deckkit.games.deck_checks`): a deck file or its bytes read against a card database, and
``deckkit validate``: a deck file, standard input or a deck in memory, checked under an
edition, a variant and a player count, the deck's header values the defaults that the
arguments override."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from deckkit.animayhem.construction.carddb import CardDB, card_db_csv, load_card_db
from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.construction.deck import (
    MAX_DECK_BYTES,
    Deck,
    parse_deck,
    parse_deck_bytes,
    read_deck,
)
from deckkit.animayhem.construction.editions import (
    DEFAULT_EDITION,
    DEFAULT_VARIANT,
    EDITIONS,
    VARIANTS,
    Edition,
    load_edition,
    load_variant,
)
from deckkit.animayhem.construction.legality import LegalityReport, check_deck
from deckkit.animayhem.construction.readings import apply_rules, effective, parse_rules
from deckkit.core.game import SolitaireGame
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


def settle_solitaire(
    deck: Deck,
    *,
    edition: str | None,
    variant: str | None,
    layout: str | None,
    players: int | None,
    rules: Mapping[str, str],
    command: str,
    source: Path | None = None,
) -> SolitaireGame:
    """The deck settled for a solitaire run: the header's values are defaults the arguments
    override, the straight-line variant lays its field out as a line, solitaire means one
    player, and the legality verdict under the edition with its rule options applied."""
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
    chosen = {**dict(deck.rules), **rules}
    base = load_edition(edition or deck.edition or DEFAULT_EDITION)
    ed = apply_rules(base, chosen)
    variant_name = variant or deck.variant or DEFAULT_VARIANT
    layout_name = layout or ("straight-line" if variant_name == "straight-line" else "compact")
    report = check_deck(deck, ed, variant_name, count)
    return SolitaireGame(
        deck, ed, variant_name, layout_name, count, report, effective(base, chosen), source
    )


def saved_deck(
    text: str,
    path: Path,
    *,
    edition: str,
    variant: str,
    players: int,
    rules: Mapping[str, str],
    source: Path,
) -> tuple[Deck, LegalityReport, Edition]:
    """The deck a saved run keeps, read against today's cards, its legality under the run's
    edition, variant and players, and the edition with the run's rule options applied."""
    deck = parse_deck(text, load_card_db(), path)
    if not deck.count(CardType.LOCATION):  # check_playable refuses to play such a deck
        raise UsageError(
            "the deck kept in this run has no locations: no game of it can have been played",
            path=source,
            hint="write the run again with `deckkit simulate DECK --out FILE.parquet`",
        )
    legality = check_deck(deck, load_edition(edition), variant, players)
    return deck, legality, apply_rules(load_edition(edition), rules)


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

    default_edition: str = DEFAULT_EDITION

    def saved_deck(
        self,
        text: str,
        path: Path,
        *,
        edition: str,
        variant: str,
        players: int,
        rules: Mapping[str, str],
        source: Path,
    ) -> tuple[Deck, LegalityReport, Edition]:
        return saved_deck(
            text,
            path,
            edition=edition,
            variant=variant,
            players=players,
            rules=rules,
            source=source,
        )

    def check(self, deck: Deck, edition: Edition, variant: str, players: int) -> LegalityReport:
        return check_deck(deck, edition, variant, players)

    def parse_deck_text(self, text: str, path: Path, db: CardDB | None = None) -> Deck:
        return parse_deck(text, db if db is not None else load_card_db(), path)

    def card_db(self, path: Path | None = None) -> CardDB:
        return load_card_db(path)

    def card_db_file(self, path: Path | None = None) -> Path:
        return card_db_csv(path)

    def parse_rules(self, flags: Sequence[str]) -> dict[str, str]:
        return parse_rules(flags)

    def settle(
        self,
        deck: Deck,
        *,
        edition: str | None,
        variant: str | None,
        layout: str | None,
        players: int | None,
        rules: Mapping[str, str],
        command: str,
        source: Path | None = None,
    ) -> SolitaireGame:
        return settle_solitaire(
            deck,
            edition=edition,
            variant=variant,
            layout=layout,
            players=players,
            rules=rules,
            command=command,
            source=source,
        )


DECK_CHECKS = AniMayhemDeckChecks()
