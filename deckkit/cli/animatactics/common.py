"""What Anima Tactics' commands share (the command modules import this, never each other):
their options, reading a party with its settings, and refusing an illegal one."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from deckkit.animatactics.analysis.parties import PLAN_NAMES
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.editions import DEFAULT_EDITION, Edition, load_edition
from deckkit.animatactics.construction.legality import LegalityReport, check_party
from deckkit.animatactics.construction.party import (
    MAX_PARTY_BYTES,
    Party,
    parse_party_bytes,
    read_party,
)
from deckkit.cli import options as opt
from deckkit.cli.console import echo
from deckkit.errors import EXIT_ILLEGAL, UsageError


class AtEdition(StrEnum):
    SAGA1 = "saga1"
    LATER = "later"


LevelsOpt = Annotated[
    int | None,
    typer.Option(
        "--levels",
        min=1,
        show_default="the party's header, else 250",
        help="The game's agreed level total (Saga I suggests 150-200 for beginners, 250 "
        "standard, 500 or more for pitched battles).",
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


VsOpt = Annotated[
    Path | None,
    typer.Option("--vs", metavar="PARTY", help="A second party: play the two against each other."),
]
PlanOpt = Annotated[
    str,
    typer.Option(
        "--plan", help=f"How every character spends its actions: {', '.join(PLAN_NAMES)}."
    ),
]
GamesOpt = Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play with --vs.")]
VsPolicyOpt = Annotated[
    str | None,
    typer.Option(
        "--vs-policy",
        help="The --vs party's player: heuristic, random or search (default: --policy).",
    ),
]
RolloutsOpt = Annotated[
    int | None,
    typer.Option(
        "--rollouts",
        min=1,
        show_default="8",
        help="The search player's sampled games per candidate of a choice.",
    ),
]


RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        callback=opt.one_value_per_rule,
        metavar="NAME=VALUE",
        show_default="each option's default",
        help="A rule option where the rulebook leaves a choice (repeat): time_limit, "
        "counter_dodge, opening_charge, initiative, board (docs/interpretations.md, Anima "
        "Tactics; e.g. time_limit=draw).",
    ),
]


def policy_name(policy: str, rollouts: int | None) -> str:
    """The player's name as the engine takes it: ``search:N`` for a search with --rollouts N."""
    if rollouts is None:
        return policy
    if policy != "search":
        raise UsageError("--rollouts is the search player's budget: add --policy search")
    return f"search:{rollouts}"


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


def checked_parties(
    party: Path, vs: Path | None, levels: int | None, edition: Any, allow_illegal: bool
) -> list[CheckedParty]:
    """The party (and the --vs party) read and judged; an illegal one is refused (exit 1) with
    its violations on stderr unless ``allow_illegal``."""
    parties = [check(party, levels, edition)] + ([check(vs, levels, edition)] if vs else [])
    for c in parties:
        if not c.report.legal and not allow_illegal:
            for v in c.report.violations:
                echo(f"✗ {c.party.name}: {v.rule}: {v.message} (fix: {v.fix})", err=True)
            raise typer.Exit(EXIT_ILLEGAL)
    return parties
