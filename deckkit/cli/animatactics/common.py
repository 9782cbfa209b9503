"""What Anima Tactics' commands share: their options and reading a party with its settings."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.editions import DEFAULT_EDITION, Edition, load_edition
from deckkit.animatactics.construction.legality import LegalityReport, check_party
from deckkit.animatactics.construction.party import (
    MAX_PARTY_BYTES,
    Party,
    parse_party_bytes,
    read_party,
)
from deckkit.errors import UsageError


class AtEdition(StrEnum):
    SAGA1 = "saga1"
    LATER = "later"


LevelsOpt = Annotated[
    int | None,
    typer.Option(
        "--levels",
        min=1,
        show_default="the party's header, else 250",
        help="The game's level total (Saga I: 150-500).",
    ),
]
EditionOpt = Annotated[
    AtEdition | None,
    typer.Option(
        "--edition",
        "-e",
        case_sensitive=False,
        show_default=f"the party's header, else {DEFAULT_EDITION}",
        help="saga1: the rulebook, advantages paid in levels; later: the card data's "
        "advantage-point budget.",
    ),
]


@dataclass(frozen=True)
class CheckedParty:
    party: Party
    edition: Edition
    levels: int
    report: LegalityReport


def load_party(path: Path) -> Party:
    db = load_card_db()
    if str(path) == "-":
        return parse_party_bytes(sys.stdin.buffer.read(MAX_PARTY_BYTES + 1), db, Path("<stdin>"))
    return read_party(path, db)


def check(path: Path, levels: int | None, edition: AtEdition | None) -> CheckedParty:
    """Read a party and judge it; flags override the file's header."""
    party = load_party(path)
    ed = load_edition(edition.value if edition else party.edition or DEFAULT_EDITION)
    total = levels if levels is not None else party.levels or ed.levels_default
    if total < 1:
        raise UsageError(f"--levels must be at least 1, not {total}")
    return CheckedParty(party, ed, total, check_party(party, ed, total))


def shown_path(path: Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)
