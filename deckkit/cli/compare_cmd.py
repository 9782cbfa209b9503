"""`deckkit compare`: two or more decks (or one deck under two policies or editions), each
played on the same seed and game indices, so game ``i`` of every arm draws from the same random
stream; the win-rate differences come from the paired outcomes (McNemar-style, see
:mod:`deckkit.analysis.paired`). Text, JSON, and an HTML page with ``--html``.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import typer

from deckkit.api.comparison import build_arms, compare_arms
from deckkit.api.options import RunOptions
from deckkit.cli import options as opt
from deckkit.cli.console import echo, explain_illegal, percent
from deckkit.cli.jsonout import emit
from deckkit.cli.steps import Steps
from deckkit.errors import EXIT_ILLEGAL
from deckkit.report import write

Format = opt.Format


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
        games: opt.GamesOpt = 2_000,
        seed: opt.SeedOpt = 0,
        workers: opt.WorkersOpt = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
        edition: opt.EditionOpt = None,
        variant: opt.VariantOpt = None,
        layout: opt.LayoutOpt = None,
        turn_cap: opt.TurnCapOpt = opt.TURN_CAP,
        html: Path | None = typer.Option(
            None, "--html", help="Also write an HTML page (and its JSON sidecar)."
        ),
        force: bool = typer.Option(False, "--force", help="Let --html replace existing files."),
        fmt: opt.FormatOpt = opt.Format.TEXT,
        allow_illegal: opt.AllowIllegalOpt = False,
        rule: opt.RuleOpt = None,
        quiet: opt.QuietOpt = False,
    ) -> None:
        """Compare decks (or a deck under two policies or editions) on the same games: the
        difference in win rate with a 95% interval from the paired outcomes."""
        base = RunOptions(
            games=games,
            seed=seed,
            workers=workers,
            policy=policy,
            edition=edition,
            variant=variant,
            layout=layout,
            turn_cap=turn_cap,
            rules=tuple(rule or ()),
        )
        if html is not None:
            write.check_output(html, force=force)
        arms = build_arms(decks, base, policy_b, edition_b)
        illegal = [a for a in arms if not a.game.report.legal]
        for arm in illegal:
            explain_illegal(arm.game.report)
        if illegal and not allow_illegal:
            echo("refusing to compare; pass --allow-illegal to compare anyway", err=True)
            raise typer.Exit(EXIT_ILLEGAL)
        with Steps("compare", len(arms), quiet=quiet) as steps:
            doc = compare_arms(arms, base, step=steps.step)
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
