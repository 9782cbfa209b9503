"""`deckkit report PARTY [--vs PARTY]` for Anima Tactics: one self-contained page and its JSON
sidecar with the duel matrix (heat map), the cost study (scatter and fit), the party's odds
against every character and, with ``--vs``, its games against the other party. An illegal party
gets a page that opens with its violations, and exit code 1 unless ``--allow-illegal``.
"""

from __future__ import annotations

import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from deckkit import __version__
from deckkit.animatactics.analysis.caveats import caveat, player_gap
from deckkit.animatactics.analysis.parties import alone, plan_of, versus
from deckkit.animatactics.analysis.readings import duel_rules, rule_set
from deckkit.animatactics.construction.rules import parse_settings
from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import (
    EditionOpt,
    GamesOpt,
    LevelsOpt,
    PlanOpt,
    RuleOpt,
    VsOpt,
    checked_parties,
)
from deckkit.cli.console import echo
from deckkit.errors import EXIT_ILLEGAL

MODEL = (
    "Duels follow the Saga I rulebook without a map: Recovery + 1 actions in the first turn, "
    "Charge, Attack, Dodge and Counterattack, 10 turns; each side picks how to spend its actions "
    "among three plans (all-out, guarded, counter) knowing the other's options; Attack, Ranged "
    "Attack and Charge special abilities and the innate Critical Mastery, Initiative, Damage "
    "Resistance and Ranged Attack are played (card_db/animatactics/abilities.csv); powers, "
    "effect specials, equipment, movement and states are not."
)


def build_document(
    party: Path,
    vs: Path | None,
    *,
    games: int,
    seed: int,
    workers: int,
    plan: str,
    levels: int | None,
    edition: Any,
    rule: list[str] | None = None,
) -> tuple[dict[str, Any], bool]:
    """The report's document and whether the party is legal (``rule``: ``NAME=VALUE`` rule
    options, played by the matrix's and the party's exact duels and by the --vs games)."""
    settings = parse_settings(rule)
    duel_set, party_set = duel_rules(settings), rule_set(settings)
    from deckkit.animatactics.analysis.cost_study import cost_study
    from deckkit.animatactics.analysis.matrix import compute_matrix, roster
    from deckkit.animatactics.construction.carddb import load_card_db

    parties = checked_parties(party, vs, levels, edition, allow_illegal=True)
    me = parties[0]
    legal = all(p.report.legal for p in parties)
    # The games first: they start the workers (and show progress) at once, and the exact
    # matrix, tens of CPU-seconds, follows without a run waiting on it.
    played = None
    if vs is not None and legal:
        played = versus(
            parties[0].party, parties[1].party, games, seed, workers, plan_of(plan),
            rules=party_set,
        )  # fmt: skip
    matrix = compute_matrix(roster(load_card_db()), rules=duel_set)
    mine = alone(me.party, duel_set)
    doc: dict[str, Any] = {
        "game": "anima-tactics",
        "party": me.party.name,
        "file": str(party),
        "legality": me.report.as_dict(),
        "members": mine["members"],
        "rules": mine["rules"],
        "odds": mine["odds"],
        "matrix": matrix.as_dict(),
        "cost_study": cost_study(matrix).as_dict(),
        "model": MODEL,
        "caveat": caveat(),
        "versus": played,
        "player_gap": (
            player_gap((played["policy"], played["vs_policy"]), (str(party), str(vs)))
            if played is not None
            else None
        ),
        "deckkit_version": __version__,
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "deckkit " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
    }
    return doc, me.report.legal


def report(
    party: Annotated[Path, typer.Argument(metavar="PARTY", help="The party file.")],
    vs: VsOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE.html",
            show_default="reports/<party>.report.html",
            help="Where to write the page (its JSON sidecar goes beside it).",
        ),
    ] = None,
    force: opt.ForceOpt = False,
    games: GamesOpt = 10_000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every die.")] = 0,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    plan: PlanOpt = "guarded",
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    rule: RuleOpt = None,
    allow_illegal: opt.AllowIllegalOpt = False,
) -> None:
    """Anima Tactics: a page with the duel matrix, the cost study and the party's odds.

    Exit code 0 done, 1 an illegal party (the page still says why), 2 bad input.
    """
    from deckkit.report import write
    from deckkit.report.animatactics import render_page

    plan_of(plan)
    target = out if out is not None else write.default_target(party)
    write.check_output(target, force=force or out is None)
    doc, legal = build_document(
        party, vs, games=games, seed=seed, workers=workers, plan=plan, levels=levels,
        edition=edition, rule=rule,
    )  # fmt: skip
    sidecar = write.write_report(
        render_page(doc), doc, target, force=force or out is None, game="anima-tactics"
    )
    echo(f"wrote {target} and {sidecar}", err=True)
    if not legal and not allow_illegal:
        raise typer.Exit(EXIT_ILLEGAL)
