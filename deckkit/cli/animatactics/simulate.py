"""`deckkit simulate PARTY [--vs PARTY]` for Anima Tactics.

Alone, a party's characters get their exact duel odds against the whole roster (no sampling).
With ``--vs``, the two parties play ``--games`` seeded games against each other (the same
results for any ``--workers``), reported with Wilson 95% intervals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.engine.duel import PLANS
from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import CheckedParty, EditionOpt, LevelsOpt, check
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.jsonout import emit
from deckkit.errors import EXIT_ILLEGAL, UsageError

PLAN_NAMES = tuple(p.name for p in PLANS)
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


def checked_parties(
    party: Path, vs: Path | None, levels: int | None, edition: Any, allow_illegal: bool
) -> list[CheckedParty]:
    parties = [check(party, levels, edition)] + ([check(vs, levels, edition)] if vs else [])
    for c in parties:
        if not c.report.legal and not allow_illegal:
            for v in c.report.violations:
                echo(f"✗ {c.party.name}: {v.rule}: {v.message} (fix: {v.fix})", err=True)
            raise typer.Exit(EXIT_ILLEGAL)
    return parties


def fighters(c: CheckedParty) -> list[Any]:
    from deckkit.animatactics.analysis.matrix import party_entrants

    return party_entrants([(m.character, m.pilot) for m in c.party.members], load_card_db())


def plan_of(name: str) -> Any:
    for p in PLANS:
        if p.name == name:
            return p
    raise UsageError(f"unknown plan {name!r}", hint=f"plans: {', '.join(PLAN_NAMES)}")


def versus(
    a: CheckedParty, b: CheckedParty, games: int, seed: int, workers: int, plan: Any
) -> dict[str, Any]:
    from deckkit.animatactics.analysis.party_games import play_games, summarize
    from deckkit.animatactics.engine.skirmish import Side

    sides = tuple(
        Side(tuple(e.duellist for e in fs), tuple(e.levels for e in fs), plan)
        for fs in (fighters(a), fighters(b))
    )
    if not sides[0].fighters or not sides[1].fighters:
        raise UsageError("a party has no character with stats in the card data")
    results = play_games((sides[0], sides[1]), games, seed, workers)
    return {
        "party": a.party.name,
        "vs": b.party.name,
        "seed": seed,
        "plan": plan.name,
        **summarize(results).as_dict(),
    }


def alone(c: CheckedParty) -> dict[str, Any]:
    from deckkit.animatactics.analysis.matrix import roster

    mine = fighters(c)
    others = roster(load_card_db())
    from deckkit.animatactics.analysis.matrix import odds_against_roster

    rows = odds_against_roster(mine, others)
    strength = [sum(r["members"][i] for r in rows) / len(rows) for i in range(len(mine))]
    return {
        "party": c.party.name,
        "method": "exact duels against every character of the roster",
        "members": [
            {"name": e.name, "levels": e.levels, "strength": round(s, 6), "note": e.note}
            for e, s in zip(mine, strength, strict=True)
        ],
        "odds": rows,
    }


def simulate(
    party: Annotated[Path, typer.Argument(metavar="PARTY", help="The party file.")],
    vs: VsOpt = None,
    games: GamesOpt = 10_000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every die.")] = 0,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="Processes (the results do not change).")
    ] = 1,
    plan: PlanOpt = "guarded",
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    output: opt.FormatOpt = opt.Format.TEXT,
    allow_illegal: opt.AllowIllegalOpt = False,
) -> None:
    """Anima Tactics: a party's exact duel odds, or --vs another party, sampled and seeded.

    Exit code 0 done, 1 an illegal party refused (see --allow-illegal), 2 bad input.
    """
    chosen = plan_of(plan)
    parties = checked_parties(party, vs, levels, edition, allow_illegal)
    if vs is None:
        doc = alone(parties[0])
        if output is opt.Format.JSON:
            emit(doc)
            return
        out = stdout_console(min_width=72)
        out.print(f"{doc['party']}: exact duel odds against all {len(doc['odds'])} characters")
        for m in doc["members"]:
            out.print(
                f"  {m['name']:<28} {m['levels']:>4} levels  mean duel value {m['strength']:.3f}"
            )
        best = sorted(doc["odds"], key=lambda r: r["party_mean"])
        out.print(
            "hardest opponents: "
            + ", ".join(f"{r['opponent']} ({r['party_mean']:.2f})" for r in best[:5])
        )
        return
    doc = versus(parties[0], parties[1], games, seed, workers, chosen)
    if output is opt.Format.JSON:
        emit(doc)
        return

    def pct(r: dict[str, Any]) -> str:
        lo, hi = r["ci95"]
        return f"{100 * r['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"

    out = stdout_console(min_width=72)
    out.print(f"{doc['party']} vs {doc['vs']}: {doc['games']:,} games, seed {seed}, plan {plan}")
    out.print(f"  win   {pct(doc['win'])}   (by knock-out {pct(doc['win_by_ko'])})")
    out.print(f"  loss  {pct(doc['loss'])}   (by knock-out {pct(doc['loss_by_ko'])})")
    out.print(f"  draw  {pct(doc['draw'])}   mean turns {doc['mean_turns']:.2f}")
    out.print("  95% Wilson intervals; after 10 turns the most levels on the table wins")
