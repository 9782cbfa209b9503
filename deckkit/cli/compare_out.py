"""What every game's `deckkit compare` shares: the options both commands declare alike, the
text of the arms and their paired differences, the comparison page and the command line that
plays a comparison again. Ani-Mayhem's command (:mod:`deckkit.cli.compare_cmd`) and the one every
two-sided game gets through its interface (:mod:`deckkit.cli.interface_cmd`) both use these, so
a flag means the same and a difference prints the same in every game. Imports no game."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from deckkit.api.gap_text import comparison_sentence
from deckkit.cli.console import echo, percent
from deckkit.errors import NotServed, UsageError

POLICY_B_HELP = "Policy of every arm after the first (same deck: A vs A)."
HtmlOpt = Annotated[
    Path | None,
    typer.Option("--html", help="Also write an HTML page (and its JSON sidecar)."),
]
HtmlForceOpt = Annotated[bool, typer.Option("--force", help="Let --html replace existing files.")]


def print_comparison(doc: dict[str, Any], *, members: str = "cards") -> None:
    """Each arm's win rate, then every later arm's paired difference from the first;
    ``members`` names what a file is made of (cards, characters)."""
    against = f" against {doc['vs']['name']}" if "vs" in doc else ""
    echo(f"{doc['games']:,} paired games per arm{against}, seed {doc['seed']}")
    for arm in doc["arms"]:
        win = arm["outcomes"]["win"]
        ci = win["ci"] or [None, None]
        echo(
            f"  {arm['label']}: win {percent(win['rate'])} "
            f"(95% CI {percent(ci[0])} - {percent(ci[1])}){'' if arm['legal'] else ' [not legal]'}"
        )
    for d in doc["differences"]:
        lo, hi = d["ci"]
        ilo, ihi = d["independent_ci"]
        echo("")
        echo(f"{d['arm']} minus {d['against']}: {percent(d['difference'], True)}")
        echo(
            f"  95% CI {percent(lo, True)} to {percent(hi, True)} "
            f"(paired; McNemar p = {d['p_value']:.3g})"
        )
        echo(
            f"  won by one only: {d['only_a_won']:,} by the first, {d['only_b_won']:,} by this; "
            f"two independent runs of this size: about {percent(ilo, True)} to {percent(ihi, True)}"
        )
        if d["cards_that_differ"]:
            diff = ", ".join(f"{c['card']} {c['a']}->{c['b']}" for c in d["cards_that_differ"])
            echo(f"  {members} that differ: {diff}")
    line = comparison_sentence(doc["arms"])
    if line:
        echo("")
        echo(line)
    echo("")
    echo(f"method: {doc['method']}")


def write_page(doc: dict[str, Any], path: Path, *, force: bool, game: str | None = None) -> None:
    """The comparison page: each arm's outcomes side by side, then the differences; its JSON
    sidecar names ``game`` (Ani-Mayhem when None)."""
    from deckkit.report import charts, render, write

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
    if game is None:
        write.write_report(page, doc, path, force=force)
    else:
        write.write_report(page, doc, path, force=force, game=game)


def command_line(
    verb: str, files: Sequence[Path], options: Mapping[str, object], rules: Sequence[str]
) -> str:
    """The `deckkit VERB` command that plays this run again (options left None are left out)."""
    args = ["deckkit", verb, *map(str, files)]
    for flag, value in options.items():
        if value is not None:
            args += [flag, str(value)]
    for r in rules:
        args += ["--rule", r]
    return shlex.join(args)


def refuse_flags(title: str, given: Mapping[str, tuple[bool, str]]) -> None:
    """Refuse, in one line, the first flag given that has no meaning for the game (a usage
    error, exit 2: ``why`` starts "no meaning") or that deckkit does not serve for it yet
    (exit 9). ``given`` maps each flag to (whether it was given, why it is refused)."""
    for flag, (was_given, why) in given.items():
        if not was_given:
            continue
        kind, _, reason = why.partition(": ")
        if kind == "not yet":
            raise NotServed(f"{flag} is not served for {title} yet: {reason}")
        raise UsageError(f"{flag} has no meaning for {title}: {reason}")
