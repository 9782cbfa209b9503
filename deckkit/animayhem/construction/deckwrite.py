"""A deck as deck-file text (the format :func:`deckkit.animayhem.construction.deck.parse_deck`
reads): the header, then one section per pile, one ``N Name`` line per card. Every line has its
count, so a name that starts with a number is never read as one; a name several cards share is
written with the card's number ("Goku #33")."""

from __future__ import annotations

from deckkit.animayhem.construction.cards import POWER_TYPES, AnyCard, CardType
from deckkit.animayhem.construction.deck import CardLookup, Deck

SECTION_ORDER: tuple[tuple[str, frozenset[CardType]], ...] = (
    ("characters", frozenset({CardType.CHARACTER})),
    ("havens", frozenset({CardType.HAVEN})),
    ("locations", frozenset({CardType.LOCATION})),
    ("items", frozenset({CardType.ITEM})),
    ("power", POWER_TYPES),
    ("disasters", frozenset({CardType.DISASTER})),
    ("combat", frozenset({CardType.COMBAT})),
)


def _name(card: AnyCard, db: CardLookup) -> str:
    if len(db.lookup(card.name)) == 1:
        return card.name
    digits = card.id[2:] if card.id.startswith("am") else ""
    return f"{card.name} #{int(digits)}" if digits.isdigit() else card.id


def deck_text(deck: Deck, db: CardLookup, comments: tuple[str, ...] = ()) -> str:
    """``deck`` as a deck file: ``comments`` first (as ``#`` lines), then the header and the
    piles; repeated entries of one card are added up."""
    lines = [f"# {c}".rstrip() for c in comments]
    lines.append(f"name: {deck.name}")
    if deck.players is not None:
        lines.append(f"players: {deck.players}")
    if deck.edition is not None:
        lines.append(f"edition: {deck.edition}")
    if deck.variant is not None:
        lines.append(f"variant: {deck.variant}")
    lines.extend(f"rule: {name}={value}" for name, value in deck.rules)
    counts: dict[str, int] = {}
    cards: dict[str, AnyCard] = {}
    for e in deck.entries:
        counts[e.card.id] = counts.get(e.card.id, 0) + e.count
        cards.setdefault(e.card.id, e.card)
    for section, types in SECTION_ORDER:
        ids = [cid for cid in cards if cards[cid].type in types]
        if not ids:
            continue
        lines.extend(["", f"[{section}]"])
        for cid in ids:
            lines.append(f"{counts[cid]} {_name(cards[cid], db)}")
    return "\n".join(lines) + "\n"
