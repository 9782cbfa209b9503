"""`deckkit sensitivity PARTY --vs PARTY` for Anima Tactics: how far each alternative reading
of the rulebook (each rule option of rules.toml, its other values one at a time) moves the first
party's win rate, on paired games with 95% intervals, through the game interface
(:mod:`deckkit.analysis.game_sensitivity`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from deckkit.animatactics.analysis.caveats import caveat
from deckkit.animatactics.analysis.parties import check_policy, plan_of
from deckkit.animatactics.construction.rules import by_name, parse_settings
from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import (
    EditionOpt,
    LevelsOpt,
    PlanOpt,
    RuleOpt,
    checked_parties,
    shown_path,
)
from deckkit.cli.jsonout import emit
from deckkit.cli.sensitivity_text import DEFAULT_GAMES, print_two_sided
from deckkit.errors import UsageError


def sensitivity(
    party: Annotated[Path, typer.Argument(metavar="PARTY", help="The party file.")],
    vs: Annotated[
        Path, typer.Option("--vs", metavar="PARTY", help="The party it meets (required).")
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Paired games per reading.")
    ] = DEFAULT_GAMES,
    seed: opt.SeedOpt = 0,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    plan: PlanOpt = "guarded",
    policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    rule: RuleOpt = None,
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading",
            metavar="NAME",
            help="Vary only this rule option (repeatable); default: every one.",
        ),
    ] = None,
    output: opt.FormatOpt = opt.Format.TEXT,
    allow_illegal: opt.AllowIllegalOpt = False,
) -> None:
    """Anima Tactics: how far each alternative reading of the rulebook moves PARTY's win rate
    against --vs PARTY (paired games, 95% intervals).

    Exit code 0 done, 1 an illegal party refused (see --allow-illegal), 2 bad input.
    """
    from deckkit.analysis.game_sensitivity import measure
    from deckkit.animatactics.game import GAME

    known = by_name()
    opt.check_readings(reading, known, "docs/interpretations.md")
    settings = parse_settings(rule)
    plan_of(plan)
    name = str(policy)
    if name == "heuristic":
        player = plan
    else:
        check_policy(name)
        if plan != "guarded":
            raise UsageError("--plan is the heuristic player's: drop it or use --policy heuristic")
        player = name
    parties = checked_parties(party, vs, levels, edition, allow_illegal)
    doc: dict[str, Any] = {
        "deck": parties[0].party.name,
        "deck_path": shown_path(party),
        "vs": parties[1].party.name,
        "vs_path": shown_path(vs),
        "seed": seed,
        "policy": name,
        "plan": plan,
        **measure(
            GAME,
            [parties[0].party, parties[1].party],
            options=list(reading or known),
            rules={o: settings.get(o, known[o].default) for o in known},
            player=player,
            games=games,
            seed=seed,
            workers=workers,
        ),
        "caveat": caveat(),
    }
    if output is opt.Format.JSON:
        emit(doc, game="anima-tactics")
    else:
        print_two_sided(doc, "party", [doc["caveat"]])
