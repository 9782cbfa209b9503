"""`deckkit compare`: two or more decks (or one deck under two policies or editions), each
played on the same seed and game indices, so game ``i`` of every arm draws from the same random
stream; the win-rate differences come from the paired outcomes (McNemar-style, see
:mod:`deckkit.analysis.paired`). Text, JSON, and an HTML page with ``--html``.
"""

from __future__ import annotations

import shlex
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import typer

from deckkit.analysis.paired import METHOD, independent_difference, paired_difference
from deckkit.analysis.runner import capped_workers, run_games
from deckkit.analysis.summary import card_catalog, summarize
from deckkit.cli import options as opt
from deckkit.cli import simulate_cmd as sim
from deckkit.cli.console import echo, percent
from deckkit.cli.jsonout import emit
from deckkit.cli.solitaire import SolitaireGame, explain_illegal
from deckkit.cli.steps import Steps
from deckkit.errors import EXIT_ILLEGAL, UsageError
from deckkit.report import write

Format = opt.Format


@dataclass(frozen=True)
class Arm:
    """One configuration: a deck under a policy and an edition."""

    label: str
    args: sim.SimulateArgs
    game: SolitaireGame


def _label(args: sim.SimulateArgs, game: SolitaireGame, differs: set[str]) -> str:
    parts = [game.deck.name]
    if "policy" in differs:
        parts.append(f"policy {args.policy}")
    if "edition" in differs:
        parts.append(f"edition {game.edition.name}")
    return ", ".join(parts)


def build_arms(
    decks: list[Path],
    base: sim.SimulateArgs,
    policy_b: str | None,
    edition_b: str | None,
    hooks: sim.EngineHooks,
) -> list[Arm]:
    """The first deck under --policy/--edition; every other arm under --policy-b/--edition-b
    when given. One deck with --policy-b or --edition-b compares it with itself."""
    if len(decks) == 1:
        if policy_b is None and edition_b is None:
            raise UsageError(
                "compare needs two decks, or one deck with --policy-b or --edition-b",
                hint="deckkit compare a.deck b.deck  or  deckkit compare a.deck --policy-b random",
            )
        decks = [decks[0], decks[0]]
    arg_list = [replace_args(base, deck=decks[0])]
    for deck in decks[1:]:
        arg_list.append(
            replace_args(
                base,
                deck=deck,
                policy=policy_b or base.policy,
                edition=edition_b or base.edition,
            )
        )
    for args in arg_list:
        sim.check_args(args, hooks)
    games = [sim.resolve_game(a, hooks, "compare") for a in arg_list]
    differs = set()
    if len({a.policy for a in arg_list}) > 1:
        differs.add("policy")
    if len({g.edition.name for g in games}) > 1:
        differs.add("edition")
    labels = [_label(a, g, differs) for a, g in zip(arg_list, games, strict=True)]
    if len(set(labels)) < len(labels):  # same deck names: fall back to the file names
        labels = [f"{a.deck} ({lab})" for a, lab in zip(arg_list, labels, strict=True)]
    return [Arm(lab, a, g) for lab, a, g in zip(labels, arg_list, games, strict=True)]


def replace_args(args: sim.SimulateArgs, **changes: Any) -> sim.SimulateArgs:
    return replace(args, **changes)


def cards_that_differ(a: SolitaireGame, b: SolitaireGame) -> list[dict[str, Any]]:
    """Card name -> copies in A and in B, where they differ."""
    count_a = Counter(c.name for c in a.deck.cards())
    count_b = Counter(c.name for c in b.deck.cards())
    names = sorted(set(count_a) | set(count_b), key=str.casefold)
    return [
        {"card": n, "a": count_a[n], "b": count_b[n]} for n in names if count_a[n] != count_b[n]
    ]


def compare(
    arms: list[Arm],
    *,
    games: int,
    seed: int,
    workers: int,
    hooks: sim.EngineHooks,
    steps: Steps | None = None,
) -> dict[str, Any]:
    """Play every arm on the same games and compare each with the first."""
    won: list[list[bool]] = []
    docs: list[dict[str, Any]] = []
    for arm in arms:
        factory = hooks.factory(
            arm.game.deck, arm.game.edition, arm.game.layout, arm.args.turn_cap, arm.args.policy
        )
        with steps.step(arm.label) if steps is not None else nullcontext() as progress:
            result = run_games(
                factory,
                games=games,
                seed=seed,
                workers=workers,
                keep_rows=True,
                progress=progress,
            )
        if result.interrupted or result.rows is None:
            raise KeyboardInterrupt
        won.append([o == "win" for o in result.rows["outcome"].to_list()])
        summary = summarize(result.tally, card_catalog(arm.game.deck))
        docs.append(
            {
                "label": arm.label,
                "deck": arm.game.deck.name,
                "deck_path": str(arm.args.deck),
                "policy": arm.args.policy,
                "edition": arm.game.edition.name,
                "rules": arm.game.rules,
                "variant": arm.game.variant,
                "legal": arm.game.report.legal,
                "games": summary.games,
                "outcomes": {
                    name: {
                        "count": r.count,
                        "rate": r.rate,
                        "ci": list(r.ci) if r.ci else None,
                    }
                    for name, r in (
                        ("win", summary.wins),
                        ("loss", summary.losses),
                        ("stall", summary.stalls),
                    )
                },
                "mean_turns": summary.turns.mean,
                "not_simulated": sorted(set(hooks.not_simulated(arm.game.deck)), key=str.casefold),
            }
        )
    differences = []
    for arm, arm_won in zip(arms[1:], won[1:], strict=True):
        paired = paired_difference(won[0], arm_won)
        _, independent = independent_difference(paired.wins_a, paired.n, paired.wins_b, paired.n)
        differences.append(
            {
                "arm": arm.label,
                "against": arms[0].label,
                **paired.as_dict(),
                "independent_ci": list(independent),
                "cards_that_differ": cards_that_differ(arms[0].game, arm.game),
            }
        )
    return {
        "method": METHOD,
        "seed": seed,
        "games": games,
        "arms": docs,
        "differences": differences,
        "command": None,
    }


def print_text(doc: dict[str, Any]) -> None:
    say = echo
    say(f"{doc['games']:,} paired games per arm, seed {doc['seed']}")
    for arm in doc["arms"]:
        win = arm["outcomes"]["win"]
        ci = win["ci"] or [None, None]
        say(
            f"  {arm['label']}: win {percent(win['rate'])} "
            f"(95% CI {percent(ci[0])} - {percent(ci[1])}){'' if arm['legal'] else ' [not legal]'}"
        )
    for d in doc["differences"]:
        lo, hi = d["ci"]
        ilo, ihi = d["independent_ci"]
        say("")
        say(f"{d['arm']} minus {d['against']}: {percent(d['difference'], True)}")
        say(
            f"  95% CI {percent(lo, True)} to {percent(hi, True)} "
            f"(paired; McNemar p = {d['p_value']:.3g})"
        )
        say(
            f"  won by one only: {d['only_a_won']:,} by the first, {d['only_b_won']:,} by this; "
            f"two independent runs of this size: about {percent(ilo, True)} to {percent(ihi, True)}"
        )
        if d["cards_that_differ"]:
            diff = ", ".join(f"{c['card']} {c['a']}->{c['b']}" for c in d["cards_that_differ"])
            say(f"  cards that differ: {diff}")
    say("")
    say(f"method: {doc['method']}")


def write_html(doc: dict[str, Any], path: Path, *, force: bool) -> None:
    """The comparison page: each arm's outcomes side by side, then the differences."""
    from deckkit.report import charts, render

    svgs = {
        f"outcomes-{i}": charts.to_svg(charts.outcome_chart(arm["outcomes"]), f"outcomes-{i}")
        for i, arm in enumerate(doc["arms"])
    }
    entries = [(d["arm"], d["difference"], d["ci"][0], d["ci"][1]) for d in doc["differences"]]
    svgs["differences"] = charts.to_svg(
        charts.interval_chart(entries, "Win rate minus the first arm's", "difference"),
        "differences",
    )
    page = render.render(doc, svgs, template="compare.html.j2")
    write.write_report(page, doc, path, force=force)


def command_line(decks: list[Path], options: dict[str, object]) -> str:
    """The `deckkit compare` command that plays this comparison again."""
    args = ["deckkit", "compare", *map(str, decks)]
    for flag, value in options.items():
        if value is not None:
            args += [flag, str(value)]
    return shlex.join(args)


def register(app: typer.Typer) -> None:
    """Add `compare` to the top-level command."""

    @app.command("compare")
    def compare_command(
        decks: list[Path] = typer.Argument(..., metavar="DECK_A [DECK_B ...]"),
        policy_b: opt.Policy | None = typer.Option(
            None,
            "--policy-b",
            case_sensitive=False,
            help="Policy of every arm after the first (same deck: A vs A).",
        ),
        edition_b: opt.Edition | None = typer.Option(
            None, "--edition-b", case_sensitive=False, help="Edition of every arm after the first."
        ),
        games: sim.GamesOption = 2_000,
        seed: sim.SeedOption = 0,
        workers: sim.WorkersOption = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: sim.PolicyOption = opt.Policy.HEURISTIC,
        edition: sim.EditionOption = None,
        variant: sim.VariantOption = None,
        layout: sim.LayoutOption = None,
        turn_cap: sim.TurnCapOption = opt.TURN_CAP,
        html: Path | None = typer.Option(
            None, "--html", help="Also write an HTML page (and its JSON sidecar)."
        ),
        force: bool = typer.Option(False, "--force", help="Let --html replace existing files."),
        fmt: opt.FormatOpt = opt.Format.TEXT,
        allow_illegal: sim.AllowIllegalOption = False,
        rule: sim.RuleOption = None,
        quiet: opt.QuietOpt = False,
    ) -> None:
        """Compare decks (or a deck under two policies or editions) on the same games: the
        difference in win rate with a 95% interval from the paired outcomes."""
        hooks = sim.ENGINE
        base = sim.SimulateArgs(
            deck=decks[0],
            games=games,
            seed=seed,
            workers=workers,
            policy=policy,
            edition=edition,
            variant=variant,
            layout=layout,
            turn_cap=turn_cap,
            quiet=True,
            rules=tuple(rule or ()),
        )
        if html is not None:
            write.check_output(html, force=force)
        arms = build_arms(decks, base, policy_b, edition_b, hooks)
        illegal = [a for a in arms if not a.game.report.legal]
        for arm in illegal:
            explain_illegal(arm.game.report)
        if illegal and not allow_illegal:
            echo("refusing to compare; pass --allow-illegal to compare anyway", err=True)
            raise typer.Exit(EXIT_ILLEGAL)
        with Steps("compare", len(arms), quiet=quiet) as steps:
            doc = compare(
                arms,
                games=games,
                seed=seed,
                workers=capped_workers(workers),
                hooks=hooks,
                steps=steps,
            )
        doc["command"] = command_line(
            decks,
            {
                "--policy-b": policy_b,
                "--edition-b": edition_b,
                "--games": games,
                "--seed": seed,
                "--policy": policy,
                "--edition": edition,
                "--variant": variant,
                "--layout": layout,
                "--turn-cap": turn_cap,
            },
        ) + "".join(f" --rule {shlex.quote(r)}" for r in rule or ())
        if fmt is Format.JSON:
            emit(doc)
        else:
            print_text(doc)
        if html is not None:
            write_html(doc, html, force=force)
            if not quiet:
                echo(f"report: {html}", err=fmt is Format.JSON)
