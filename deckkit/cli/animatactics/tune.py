"""`deckkit tune PARTY --vs PARTY` for Anima Tactics: the swaps that raise a party's win rate
most, raced on paired games (:mod:`deckkit.animatactics.analysis.party_tune`)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.markup import escape

from deckkit.animatactics.analysis.caveats import caveat
from deckkit.animatactics.analysis.parties import check_policy, plan_of
from deckkit.animatactics.analysis.party_tune import (
    confirm,
    party_text,
    race,
    scorer,
    swaps,
)
from deckkit.animatactics.analysis.readings import rule_set, rules_dict
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.construction.rules import parse_settings
from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import (
    EditionOpt,
    LevelsOpt,
    PlanOpt,
    RuleOpt,
    VsPolicyOpt,
    checked_parties,
    load_party,
    policy_name,
)
from deckkit.cli.console import stdout_console
from deckkit.cli.jsonout import emit
from deckkit.cli.tuneout import Bar
from deckkit.errors import UsageError


def tune(
    party: Annotated[Path, typer.Argument(metavar="PARTY", help="The party file to tune.")],
    vs: Annotated[
        list[Path],
        typer.Option(
            "--vs", metavar="PARTY", help="A field party (repeat for a field of several)."
        ),
    ],
    pool: Annotated[
        list[Path],
        typer.Option(
            "--pool",
            metavar="PARTY",
            help="Party files whose characters may come in (the miniatures a player owns); "
            "repeat for several. Default: every character with stats in the card data.",
        ),
    ] = [],  # noqa: B006 - typer reads the default, never mutates it
    budget: Annotated[
        int, typer.Option("--budget", min=1, help="Selection games of every step's race, in all.")
    ] = 20_000,
    confirm_games: Annotated[
        int,
        typer.Option("--confirm", min=0, help="Fresh games of the start and the best party each."),
    ] = 2_000,
    steps: Annotated[
        int, typer.Option("--steps", min=1, max=9, help="Swaps taken one after another, at most.")
    ] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every die.")] = 0,
    plan: PlanOpt = "guarded",
    policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
    vs_policy: VsPolicyOpt = None,
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    rule: RuleOpt = None,
    allow_illegal: opt.AllowIllegalOpt = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", metavar="FILE.party", help="Write the best party there."),
    ] = None,
    force: opt.ForceOpt = False,
    output: opt.FormatOpt = opt.Format.TEXT,
    quiet: opt.QuietOpt = False,
) -> None:
    """Anima Tactics: the swaps (one character out, one of the pool in, the party legal after)
    that raise PARTY's win rate against --vs most, raced on paired games, then the start and the
    best party confirmed on fresh games.

    Exit code 0 done, 1 an illegal party refused (see --allow-illegal), 2 bad input."""
    from deckkit.analysis.output import check_writable, write_atomic

    if out is not None:
        check_writable(out, force=force, what="--out")
    rules = rule_set(parse_settings(rule))
    chosen = plan_of(plan)
    player = check_policy(policy_name(str(policy), None))
    vs_player = check_policy(vs_policy) if vs_policy is not None else player
    if "search" in (player.split(":")[0], vs_player.split(":")[0]):
        raise UsageError("a tune races many games: choose the heuristic or random player")
    checked = checked_parties(party, None, levels, edition, allow_illegal)[0]
    field = [c.party for c in (checked_parties(v, None, levels, edition, allow_illegal)[0]
                               for v in vs)]  # fmt: skip
    db = load_card_db()
    pool_chars = (
        [m.character for p in pool for m in load_party(p).members]
        if pool
        else [c for c in db.characters if c.complete]
    )
    pool_chars = list({c.name: c for c in pool_chars}.values())  # each character once
    score = scorer(chosen, player, vs_player, rules)
    current, path, steps_doc = checked.party, [], []
    # The bar's total is a bound: a search may take fewer steps, halving rounds play fewer.
    bar = Bar(steps * budget + 2 * confirm_games, quiet=quiet or output is opt.Format.JSON)
    with bar:
        for step in range(steps):
            found = swaps(current, pool_chars, checked.edition, checked.levels)
            if not found:
                break
            bar.note(f"step {step + 1}: {len(found)} swaps")
            ranked = race(current, found, field, score, games=budget, seed=seed,
                          offset=step * budget, on_games=bar.advance)  # fmt: skip
            top = ranked[0]
            steps_doc.append(
                {
                    "swaps": len(found),
                    "raced": [
                        {
                            "out": r.swap.out,
                            "in": r.swap.into,
                            "games": len(r.diffs),
                            "diff": round(r.mean, 4),
                        }
                        for r in ranked
                    ],
                }
            )
            if top.mean <= 0:
                break
            current = top.swap.party
            path.append(f"{top.swap.out} out, {top.swap.into} in")
    doc: dict[str, Any] = {
        "game": "anima-tactics",
        "party": checked.party.name,
        "field": [p.name for p in field],
        "seed": seed,
        "budget": budget,
        "plan": chosen.name,
        "policy": player,
        "vs_policy": vs_player,
        "rules": rules_dict(rules),
        "edition": checked.edition.name,
        "levels": checked.levels,
        "pool": [str(p) for p in pool] or "the card data's roster",
        "steps": steps_doc,
        "path": path,
        "best_members": [m.character.name for m in current.members],
        "confirmation": None,
        "caveat": caveat(),
    }
    if confirm_games and path:
        with bar:
            bar.note("confirming")
            doc["confirmation"] = confirm(checked.party, current, field, score,
                                          games=confirm_games, seed=seed,
                                          on_games=bar.advance)  # fmt: skip
    text = party_text(current, f"{checked.party.name} (tuned)", checked.levels,
                      checked.edition.name, path)  # fmt: skip
    doc["best_party"] = text
    if out is not None:
        data = text.encode()

        def fill(handle: IO[bytes]) -> None:
            handle.write(data)

        write_atomic(out, fill, force=force)
        doc["out"] = str(out)
    if output is opt.Format.JSON:
        emit(doc, game="anima-tactics")
        return
    console = stdout_console(min_width=72, soft_wrap=True)
    console.print(
        f"[bold]{escape(doc['party'])}[/] against {escape(', '.join(doc['field']))}: "
        + (escape("; ".join(path)) if path else "no swap beat the party on the race's games"),
        highlight=False,
    )
    for m in doc["best_members"]:
        console.print(f"  {escape(m)}", highlight=False)
    c = doc["confirmation"]
    if c:
        g = c["gain"]
        ci = g["ci"] or [g["diff"], g["diff"]]
        console.print(
            f"confirmed on {c['games']:,} fresh paired games (seed {c['seed']}): "
            f"{100 * c['start']:.1f}% -> {100 * c['best']:.1f}%, gain "
            f"{100 * g['diff']:+.1f} points [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]",
            highlight=False,
        )
    if out is not None:
        console.print(f"written to {escape(str(out))}", highlight=False)
    console.print(f"notice: {escape(doc['caveat'])}", highlight=False)
