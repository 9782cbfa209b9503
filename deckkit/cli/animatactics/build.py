"""`deckkit build` for Anima Tactics: the best legal party for a level budget against a field
(:mod:`deckkit.animatactics.analysis.party_build`)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.markup import escape

from deckkit.animatactics.analysis.caveats import caveat
from deckkit.animatactics.analysis.parties import check_policy, plan_of, versus
from deckkit.animatactics.analysis.party_build import (
    Candidate,
    candidates,
    confirm,
    field_of,
    pool_of,
    race,
)
from deckkit.animatactics.analysis.readings import rule_set, rules_dict
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animatactics.construction.party import Party
from deckkit.animatactics.construction.rules import parse_settings
from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import (
    EditionOpt,
    LevelsOpt,
    PlanOpt,
    RuleOpt,
    VsPolicyOpt,
    load_party,
    policy_name,
)
from deckkit.cli.console import stdout_console
from deckkit.cli.jsonout import emit
from deckkit.errors import UsageError


def _parties(paths: list[Path]) -> list[Party]:
    return [load_party(p) for p in paths]


def _member_rows(c: Candidate) -> list[dict[str, Any]]:
    return [
        {"name": m.name, "levels": m.levels, "pilot": m.pilot.name if m.pilot else None}
        for m in c.members
    ]


def _candidate_row(c: Candidate) -> dict[str, Any]:
    return {
        "members": _member_rows(c),
        "levels": c.levels,
        "grouping": c.grouping,
        "worth": round(c.worth, 4),
    }


def build(
    pool: Annotated[
        list[Path],
        typer.Option(
            "--pool",
            metavar="PARTY",
            help="Party files whose characters may be used (the miniatures a player owns); "
            "repeat for several. Default: every character with stats in the card data.",
        ),
    ] = [],  # noqa: B006 - typer reads the default, never mutates it
    vs: Annotated[
        list[Path],
        typer.Option(
            "--vs",
            metavar="PARTY",
            help="A field party to build against (repeat for a field of several); the "
            "candidates play seeded party games against each. Default: the whole roster, by "
            "exact duel values alone.",
        ),
    ] = [],  # noqa: B006
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Selection games of the race, in all.")
    ] = 4_000,
    confirm_games: Annotated[
        int,
        typer.Option("--confirm", min=0, help="Fresh games that confirm the winner's rate."),
    ] = 2_000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every die.")] = 0,
    workers: opt.WorkersOpt = 1,
    plan: PlanOpt = "guarded",
    policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
    vs_policy: VsPolicyOpt = None,
    rule: RuleOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", metavar="FILE.party", help="Write the best party there."),
    ] = None,
    force: opt.ForceOpt = False,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """Anima Tactics: the best legal party for a level budget against a field of parties (or
    the whole roster), screened by exact duel values and raced in seeded party games.

    Exit code 0 done, 2 bad input (an unwritable or existing --out without --force)."""
    from deckkit.analysis.output import check_writable, write_atomic

    if out is not None:
        check_writable(out, force=force, what="--out")
    rules = rule_set(parse_settings(rule))
    ed = load_edition(edition.value if edition else DEFAULT_EDITION)
    total = levels if levels is not None else ed.levels_default
    db = load_card_db()
    pool_parties, field_parties = _parties(pool), _parties(vs)
    chosen_plan = plan_of(plan)
    player = check_policy(policy_name(str(policy), None))
    vs_player = check_policy(vs_policy) if vs_policy is not None else player
    found = candidates(pool_of(db, pool_parties), field_of(db, field_parties), ed, total, rules)
    if not found:
        raise UsageError(
            f"no legal party of at most {total} levels can be drawn from the pool",
            hint="add characters with --pool, or raise --levels",
        )

    def play(a: Party, b: Party, n: int, s: int) -> dict[str, Any]:
        return versus(a, b, n, s, workers, chosen_plan, player, vs_player, rules)

    doc: dict[str, Any] = {
        "game": "anima-tactics",
        "edition": ed.name,
        "levels": total,
        "seed": seed,
        "plan": chosen_plan.name,
        "policy": player,
        "vs_policy": vs_player,
        "rules": rules_dict(rules),
        "pool": [str(p) for p in pool] or "the card data's roster",
        "field": [p.name for p in field_parties] or "the whole roster",
        "screen": "expected levels standing: level cost x level-weighted mean exact duel value",
        "caveat": caveat(),
        "candidates": [_candidate_row(c) for c in found[:20]],
    }
    best = found[0]
    if field_parties:
        ranked = race(found, field_parties, play, games=games, seed=seed)
        best = ranked[0].candidate
        doc["race"] = [
            {**_candidate_row(r.candidate), "games": r.games, "score": round(r.rate, 4)}
            for r in ranked
        ]
        doc["confirmation"] = (
            confirm(best, field_parties, play, games=confirm_games, seed=seed)
            if confirm_games
            else None
        )
    name = "Built party"
    text = best.text(name, total, ed.name)
    doc["best"] = {
        "members": _member_rows(best),
        "levels": best.levels,
        "grouping": best.grouping,
        "worth": round(best.worth, 4),
        "party_file": text,
    }
    if out is not None:
        data = text.encode()

        def fill(handle: IO[bytes]) -> None:
            handle.write(data)

        write_atomic(out, fill, force=force)
    if output is opt.Format.JSON:
        emit(doc, game="anima-tactics")
        return
    _print(doc, out)


def _print(doc: dict[str, Any], out: Path | None) -> None:
    console = stdout_console(min_width=72, soft_wrap=True)
    b = doc["best"]
    field = doc["field"] if isinstance(doc["field"], str) else ", ".join(doc["field"])
    console.print(
        f"[bold]Best party[/] of {b['levels']}/{doc['levels']} levels ({doc['edition']}, "
        f"{escape(b['grouping'])}) against {escape(field)}:"
    )
    for m in b["members"]:
        pilot = f" with {m['pilot']}" if m["pilot"] else ""
        console.print(f"  {escape(m['name'] + pilot):<36} {m['levels']:>4} levels")
    console.print(f"screen: expected levels standing {b['worth']:.1f}")
    c = doc.get("confirmation")
    if c:
        lo, hi = c["win"]["ci"]
        console.print(
            f"confirmed on {c['games']:,} fresh games (seed {c['seed']}): wins "
            f"{100 * c['win']['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
        )
    if out is not None:
        console.print(f"written to {escape(str(out))}")
    console.print(f"notice: {doc['caveat']}")
