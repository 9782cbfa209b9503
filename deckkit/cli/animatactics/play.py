"""`deckkit play PARTY --vs PARTY` for Anima Tactics: one skirmish, event by event.

Game ``--game i`` with ``--seed S`` is exactly game i of `deckkit simulate PARTY --vs PARTY
--seed S` with the same plan, players and rule options: the traced game draws the same dice and
the players make the same choices (deckkit.animatactics.engine.skirmish, Trace).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from deckkit.animatactics.analysis.caveats import caveat
from deckkit.animatactics.analysis.parties import check_policy, plan_of, versus_sides
from deckkit.animatactics.analysis.party_games import END_REASONS, PartyGames
from deckkit.animatactics.analysis.readings import rule_set, rules_dict
from deckkit.animatactics.construction.rules import parse_settings, rules_line
from deckkit.animatactics.game import record_of
from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import (
    EditionOpt,
    LevelsOpt,
    PlanOpt,
    RolloutsOpt,
    RuleOpt,
    VsPolicyOpt,
    checked_parties,
    policy_name,
)
from deckkit.cli.console import stdout_console
from deckkit.cli.jsonout import emit


def play(
    party: Annotated[Path, typer.Argument(metavar="PARTY", help="The party file.")],
    vs: Annotated[Path, typer.Option("--vs", metavar="PARTY", help="The opposing party.")],
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the run.")] = 0,
    game: Annotated[
        int, typer.Option("--game", "-g", min=0, help="Game index within the run.")
    ] = 0,
    plan: PlanOpt = "guarded",
    policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
    vs_policy: VsPolicyOpt = None,
    rollouts: RolloutsOpt = None,
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    rule: RuleOpt = None,
    allow_illegal: opt.AllowIllegalOpt = False,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """Game --game of `deckkit simulate PARTY --vs PARTY --seed S`, event by event: each
    player's choice as it makes it (which character acts, what it does, how the defender
    reacts) and what the dice make of it.

    Exit code 0 done, 1 an illegal party refused (see --allow-illegal), 2 bad input.
    """
    chosen = plan_of(plan)
    rules = rule_set(parse_settings(rule))
    player = check_policy(policy_name(str(policy), rollouts))
    vs_player = check_policy(vs_policy) if vs_policy is not None else player
    parties = checked_parties(party, vs, levels, edition, allow_illegal)
    a, b = parties[0].party, parties[1].party
    sides = versus_sides(a, b, chosen, player, vs_player)
    setup = PartyGames(sides, rules, (a.name, b.name))
    result, lines = setup.traced(seed, game)
    record = record_of(result, game, sides)
    life = [
        {"party": (a.name, b.name)[side], "character": f.name, "life": left}
        for side in (0, 1)
        for f, left in zip(sides[side].fighters, result.life[side], strict=True)
    ]
    doc: dict[str, Any] = {
        "game": "anima-tactics",
        "seed": seed,
        "index": game,
        "parties": [a.name, b.name],
        "plan": chosen.name,
        "policies": [sides[0].policy, sides[1].policy],
        "rules": rules_dict(rules),
        "first": (a.name, b.name)[0 if result.a_first else 1],
        "outcome": record.outcome,
        "end_reason": {"code": record.end_reason, "reason": END_REASONS[record.end_reason]},
        "turns": record.turns,
        "charges": result.charges,
        "attacks": result.attacks,
        "life_left": life,
        "caveat": caveat(),
        "events": [{"text": line} for line in lines],
    }
    if output is opt.Format.JSON:
        emit(doc, game="anima-tactics")
        return
    out = stdout_console(min_width=80, soft_wrap=True)
    out.print(
        f"[bold]{escape(a.name)}[/] vs [bold]{escape(b.name)}[/]: game {game} of seed {seed}, "
        f"plan {escape(chosen.name)}, players {escape(sides[0].policy)} against "
        f"{escape(sides[1].policy)}",
        highlight=False,
    )
    out.print(f"rules: {escape(rules_line(doc['rules']))}", highlight=False)
    for line in lines:
        out.print(escape(line), highlight=False)
    out.print(
        f"{record.outcome} for {escape(a.name)} after {record.turns} "
        f"turn{'' if record.turns == 1 else 's'}: "
        f"{escape(doc['end_reason']['reason'])} ({record.end_reason})",
        highlight=False,
    )
    out.print(f"notice: {escape(doc['caveat'])}", highlight=False)
