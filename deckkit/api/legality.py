"""Deck legality: is this deck legal under an edition, a variant and a player count? Header
values in the deck file are defaults that the arguments override."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit.animayhem.construction.carddb import load_card_db
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
from deckkit.api.display import Shown, Table, frame
from deckkit.errors import UsageError

if TYPE_CHECKING:
    import polars as pl


@dataclass(frozen=True, repr=False)
class ValidationResult(Shown):
    """The deck's name and the legality report: ``legal``, each violation with its rule,
    arithmetic and fix, and the counts against the edition's requirements. Printed, it is the
    verdict and the counts (a table in a notebook); ``to_frame()`` gives the violations."""

    deck: str
    report: LegalityReport

    @property
    def legal(self) -> bool:
        return self.report.legal

    def as_dict(self) -> dict[str, Any]:
        """A deck's entry in `deckkit validate --format json` (without its ``file``)."""
        return {"deck": self.deck, **self.report.as_dict()}

    def to_frame(self) -> pl.DataFrame:
        """One row per violation: ``rule``, ``message`` (with its arithmetic) and ``fix``."""
        return frame(self.as_dict()["violations"], empty=("rule", "message", "fix"))

    def _title(self) -> str:
        r = self.report
        verdict = "LEGAL" if r.legal else f"NOT LEGAL ({len(r.violations)} violation(s))"
        plural = "s" if r.players != 1 else ""
        return f"{verdict}: {self.deck} under {r.edition} ({r.variant}, {r.players} player{plural})"

    def _table(self) -> Table:
        r = self.report
        rows = []
        for key, need in r.required.items():  # the counts the edition sets a number for
            count = r.counts.get(key, 0)
            rows.append([key.replace("_", " "), str(count), "-" if need is None else str(need)])
        return ["cards", "in deck", "required"], rows

    def _notes(self) -> list[str]:
        return [f"[{v.rule}] {v.message}" for v in self.report.violations]


def validate(
    deck: str | Path | Deck,
    *,
    players: int | None = None,
    edition: str | None = None,
    variant: str | None = None,
) -> ValidationResult:
    """Check a deck's construction (a deck file, ``-`` for standard input, or a deck in memory):
    counts against the edition's formulas, copy limits, quotas. An unreadable deck raises a
    :class:`~deckkit.errors.DeckkitError` naming the file and line."""
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
    return ValidationResult(parsed.name, check_deck(parsed, ed, var, n))


def load_deck(path: str | Path) -> Deck:
    """A deck file read against the card database in use (``--card-db`` /
    ``DECKKIT_CARD_DB``, else the shipped one); ``-`` reads standard input once."""
    from deckkit.api.deckinput import read_deck_arg

    return read_deck_arg(Path(path), load_card_db())
