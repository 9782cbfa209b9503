"""`deckkit simulate PARTY [--vs PARTY]` for Anima Tactics.

Alone, a party's characters get their exact duel odds against the whole roster (no sampling).
With ``--vs``, the two parties play ``--games`` seeded games against each other (the same
results for any ``--workers``), reported with Wilson 95% intervals; ``--policy`` picks the player
of PARTY (heuristic, random, or search with ``--rollouts``), ``--vs-policy`` the other's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from typer._click.core import ParameterSource

from deckkit.analysis.output import check_destination
from deckkit.animatactics.analysis.caveats import caveat, player_gap
from deckkit.animatactics.analysis.parties import alone, check_policy, plan_of, versus
from deckkit.animatactics.analysis.readings import duel_rules, rule_set
from deckkit.animatactics.construction.rules import parse_settings, rules_line
from deckkit.api.gap_text import match_sentence
from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import (
    EditionOpt,
    GamesOpt,
    LevelsOpt,
    PlanOpt,
    RolloutsOpt,
    RuleOpt,
    VsOpt,
    VsPolicyOpt,
    checked_parties,
    policy_name,
)
from deckkit.cli.console import stdout_console
from deckkit.cli.jsonout import emit
from deckkit.errors import UsageError


def _save(
    parties: Any,
    files: list[Path],
    plan: Any,
    player: str,
    vs_player: str,
    out: Path,
    games: int,
    seed: int,
    workers: int,
    force: bool,
    doc: dict[str, Any],
) -> None:
    """The run's games again, through the game interface, one row each to --out (the same
    games: game i of the seed)."""
    from deckkit import games as registry
    from deckkit.animatactics.analysis.parties import versus_sides
    from deckkit.animatactics.analysis.party_games import PartyGames
    from deckkit.api.matchups import save_run

    found = registry.find_game("anima-tactics")
    assert found is not None
    setup = PartyGames(versus_sides(parties[0].party, parties[1].party, plan, player, vs_player))
    save_run(
        registry.game_interface(found),
        setup,
        out,
        games=games,
        seed=seed,
        workers=workers,
        force=force,
        files=files,
        about={"plan": plan.name, "policy": player, "vs_policy": vs_player},
    )
    doc["out"] = str(out)


# The flags that only play games: alone, a party gets exact odds and plays none, so one of them
# given on the command line means the user expected games (the environment's scheduler, set for
# every command, is not counted).
GAME_FLAGS = {
    "games": "--games",
    "seed": "--seed",
    "workers": "--workers",
    "scheduler": "--scheduler",
    "plan": "--plan",
    "policy": "--policy",
    "vs_policy": "--vs-policy",
    "rollouts": "--rollouts",
}


def refuse_game_flags_alone(ctx: typer.Context) -> None:
    """Exit 2 naming the game-playing flags given without --vs, instead of ignoring them."""
    given = [
        flag
        for name, flag in GAME_FLAGS.items()
        if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    ]
    if given:
        raise UsageError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for playing games, and a "
            "party alone plays none: its duel odds against the roster are exact",
            hint="give --vs PARTY to play games against another party, or leave "
            f"{'it' if len(given) == 1 else 'them'} out",
        )


def simulate(
    ctx: typer.Context,
    party: Annotated[Path, typer.Argument(metavar="PARTY", help="The party file.")],
    vs: VsOpt = None,
    games: GamesOpt = 10_000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every die.")] = 0,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    plan: PlanOpt = "guarded",
    policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
    vs_policy: VsPolicyOpt = None,
    rollouts: RolloutsOpt = None,
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    rule: RuleOpt = None,
    output: opt.FormatOpt = opt.Format.TEXT,
    allow_illegal: opt.AllowIllegalOpt = False,
    rows_out: opt.OutOpt = None,
    force: opt.ForceOpt = False,
) -> None:
    """Anima Tactics: a party's exact duel odds, or --vs another party, sampled and seeded.

    Exit code 0 done, 1 an illegal party refused (see --allow-illegal), 2 bad input.
    """
    if vs is None:
        refuse_game_flags_alone(ctx)
    chosen = plan_of(plan)
    settings = parse_settings(rule)
    rules = rule_set(settings) if vs is not None else duel_rules(settings)
    player = check_policy(policy_name(str(policy), rollouts))
    vs_player = check_policy(vs_policy) if vs_policy is not None else player
    parties = checked_parties(party, vs, levels, edition, allow_illegal)
    if rows_out is not None:
        if vs is None:
            raise UsageError("--out saves the games of a run: give --vs PARTY")
        check_destination(rows_out, force=force)
    if vs is None:
        doc = {**alone(parties[0].party, rules), "caveat": caveat()}
        if output is opt.Format.JSON:
            emit(doc, game="anima-tactics")
            return
        out = stdout_console(min_width=72)
        out.print(f"{doc['party']}: exact duel odds against all {len(doc['odds'])} characters")
        for m in doc["members"]:
            out.print(
                f"  {m['name']:<28} {m['levels']:>4} levels  mean duel value {m['strength']:.3f}"
            )
        out.print(f"rules: {rules_line(doc['rules'])}")
        best = sorted(doc["odds"], key=lambda r: r["party_mean"])
        out.print(
            "hardest opponents: "
            + ", ".join(f"{r['opponent']} ({r['party_mean']:.2f})" for r in best[:5])
        )
        out.print(f"notice: {doc['caveat']}")
        return
    doc = {
        **versus(
            parties[0].party,
            parties[1].party,
            games,
            seed,
            workers,
            chosen,
            player,
            vs_player,
            rules,
        ),
        "caveat": caveat(),
    }
    doc["player_gap"] = player_gap((doc["policy"], doc["vs_policy"]), (str(party), str(vs)))
    if rows_out is not None:
        assert vs is not None
        _save(
            parties,
            [party, vs],
            chosen,
            player,
            vs_player,
            rows_out,
            games,
            seed,
            workers,
            force,
            doc,
        )
    if output is opt.Format.JSON:
        emit(doc, game="anima-tactics")
        return

    def pct(r: dict[str, Any]) -> str:
        lo, hi = r["ci95"]
        return f"{100 * r['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"

    out = stdout_console(min_width=72)
    out.print(f"{doc['party']} vs {doc['vs']}: {doc['games']:,} games, seed {seed}, plan {plan}")
    out.print(f"  players: {doc['policy']} against {doc['vs_policy']}")
    out.print(f"  win   {pct(doc['win'])}   (by knock-out {pct(doc['win_by_ko'])})")
    out.print(f"  loss  {pct(doc['loss'])}   (by knock-out {pct(doc['loss_by_ko'])})")
    out.print(f"  draw  {pct(doc['draw'])}   mean turns {doc['mean_turns']:.2f}")
    out.print(f"  per game: {doc['mean_charges']:.1f} Charges, {doc['mean_attacks']:.1f} Attacks")
    out.print(f"  rules: {rules_line(doc['rules'])}")
    ending = (
        "the most levels on the table wins"
        if doc["rules"]["time_limit"] == "levels"
        else "a game still standing is a draw"
    )
    out.print(f"  95% Wilson intervals; after 10 turns {ending}")
    out.print(f"notice: {doc['caveat']}")
    if doc["player_gap"] is not None:
        out.print(match_sentence(doc["player_gap"]), markup=False)
    if "out" in doc:
        out.print(f"rows: {doc['out']}")
