"""The commands every two-sided game gets through its game interface (:mod:`deckkit.core.game`),
reached through :mod:`deckkit.games` when the files are parties or teams: `compare` (files
against one opponent on paired games) and `impact` (what each character is worth to its file,
against the stand-ins the game's rules allow). Same flags, exit codes and JSON shapes as
Ani-Mayhem's: 0 done, 1 an illegal file refused (see --allow-illegal), 2 unreadable input or
bad usage."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Any

import typer

from deckkit import games
from deckkit.api.matchups import (
    build_arms,
    check_rules,
    compare_arms,
    impact_members,
    members_to_measure,
    read_side,
)
from deckkit.cli import options as opt
from deckkit.cli.console import echo, percent
from deckkit.cli.exits import DeckkitTyper
from deckkit.cli.jsonout import emit
from deckkit.cli.steps import Steps
from deckkit.core.game import Game, Legality
from deckkit.errors import EXIT_ILLEGAL, UsageError

app = DeckkitTyper(name="interface", help="Commands every game serves through its interface.")

VsOpt = Annotated[Path, typer.Option("--vs", metavar="FILE", help="The opponent every file plays.")]
PlayerOpt = Annotated[
    str | None,
    typer.Option(
        "--policy",
        "-p",
        show_default="the game's default player",
        help="The automatic player of both sides (Anima Tactics: a plan's name, random or "
        "search; Animus: heuristic or random).",
    ),
]
RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        callback=opt.one_value_per_rule,
        metavar="NAME=VALUE",
        help="A rule option of the game (repeat; docs/interpretations.md).",
    ),
]


def game_of(path: Path) -> Game:
    return games.game_interface(games.game_of_file(path))


def refuse_illegal(verdicts: list[tuple[Path, Legality]], allow_illegal: bool, what: str) -> None:
    """Each illegal file's broken rules on stderr; exit 1 unless ``--allow-illegal``."""
    illegal = [(p, v) for p, v in verdicts if not v.legal]
    for path, verdict in illegal:
        echo(f"ILLEGAL: {path}", err=True)
        for problem in verdict.problems:
            echo(f"  {problem.rule}: {problem.message}", err=True)
            if problem.fix:
                echo(f"    fix: {problem.fix}", err=True)
    if illegal and not allow_illegal:
        echo(f"refusing to {what}; pass --allow-illegal to {what} anyway", err=True)
        raise typer.Exit(EXIT_ILLEGAL)


def print_compare(doc: dict[str, Any]) -> None:
    echo(f"{doc['games']:,} paired games per arm against {doc['vs']['name']}, seed {doc['seed']}")
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
            echo(f"  characters that differ: {diff}")
    echo("")
    echo(f"method: {doc['method']}")


def command_line(verb: str, files: list[Path], options: dict[str, object], rules: list[str]) -> str:
    """The `deckkit VERB` command that plays this run again."""
    args = ["deckkit", verb, *map(str, files)]
    for flag, value in options.items():
        if value is not None:
            args += [flag, str(value)]
    for r in rules:
        args += ["--rule", r]
    return shlex.join(args)


@app.command("compare")
def compare(
    files: Annotated[list[Path], typer.Argument(metavar="FILE_A FILE_B [...]")],
    vs: VsOpt,
    games_: opt.GamesOpt = 2_000,
    seed: opt.SeedOpt = 0,
    workers: opt.WorkersOpt = 1,
    policy: PlayerOpt = None,
    rule: RuleOpt = None,
    fmt: opt.FormatOpt = opt.Format.TEXT,
    allow_illegal: opt.AllowIllegalOpt = False,
    quiet: opt.QuietOpt = False,
) -> None:
    """Compare parties or teams against one opponent (--vs) on the same games: the difference
    in win rate with a 95% interval from the paired outcomes.

    Exit code 0 done, 1 an illegal file refused (see --allow-illegal), 2 bad input.
    """
    game = game_of(files[0])
    rules = check_rules(game, rule or [])
    opponent = read_side(game, vs)
    arms = build_arms(game, files, opponent, player=policy, rules=rules)
    refuse_illegal(
        [(a.side.path, a.side.legality) for a in arms] + [(vs, opponent.legality)],
        allow_illegal,
        "compare",
    )
    with Steps("compare", len(arms), quiet=quiet) as steps:
        doc = compare_arms(
            game, arms, opponent, games=games_, seed=seed, workers=workers, step=steps.step
        )
    doc["command"] = command_line(
        "compare",
        files,
        {"--vs": vs, "--games": games_, "--seed": seed, "--policy": arms[0].player},
        list(rule or ()),
    )
    if fmt is opt.Format.JSON:
        emit(doc, game=game.name)
    else:
        print_compare(doc)


def print_impact(doc: dict[str, Any]) -> None:
    imp = doc["impact"]
    echo(
        f"{doc['file']['name']} against {doc['vs']['name']}: {doc['games']:,} paired games per "
        f"change, seed {doc['seed']}"
    )
    for c in imp["cards"]:
        lo, hi = c["ci"] or (None, None)
        mark = "" if c["supported"] else "  (not supported)"
        echo(
            f"  {c['card']}: {percent(c['difference'], True)} "
            f"(95% CI {percent(lo, True)} to {percent(hi, True)}){mark}"
        )
        echo(f"    {c['change']}")
        if len(c["stand_ins"]) > 1:
            low, high = c["spread"]
            echo(f"    spread over the stand-ins: {percent(low, True)} to {percent(high, True)}")
    for c in imp["not_measured"]:
        echo(f"  {c['card']}: not measured ({c['why']})")
    echo("")
    echo(f"method: {imp['method']}")


@app.command("impact")
def impact(
    file: Annotated[Path, typer.Argument(metavar="FILE")],
    vs: VsOpt,
    card_names: Annotated[
        list[str] | None,
        typer.Option("--card", "-c", help="A character to measure (repeat); default every one."),
    ] = None,
    games_: opt.GamesOpt = 2_000,
    seed: opt.SeedOpt = 0,
    workers: opt.WorkersOpt = 1,
    policy: PlayerOpt = None,
    rule: RuleOpt = None,
    fmt: opt.FormatOpt = opt.Format.TEXT,
    allow_illegal: opt.AllowIllegalOpt = False,
    quiet: opt.QuietOpt = False,
) -> None:
    """What each character of a party or team is worth against --vs: the change in win rate,
    with a 95% interval, when it is taken out (replaced by the median of legal stand-ins of
    the card set where the file's size is fixed, as in Animus; removed where the rules let the
    file shrink, as in Anima Tactics), on paired games.

    Exit code 0 done, 1 an illegal file refused (see --allow-illegal), 2 bad input.
    """
    game = game_of(file)
    rules = check_rules(game, rule or [])
    side = read_side(game, file)
    opponent = read_side(game, vs)
    if policy is not None and policy not in game.players():
        raise UsageError(
            f"unknown player {policy!r} for {game.title}",
            hint=f"players: {', '.join(game.players())}",
        )
    refuse_illegal([(file, side.legality), (vs, opponent.legality)], allow_illegal, "measure")
    members = members_to_measure(game, side.entry, card_names or [])
    with Steps("impact", len(members), quiet=quiet) as steps:
        doc = impact_members(
            game,
            side,
            opponent,
            members,
            games=games_,
            seed=seed,
            workers=workers,
            player=policy,
            rules=rules,
            step=steps.step,
        )
    doc["command"] = command_line(
        "impact",
        [file],
        {"--vs": vs, "--games": games_, "--seed": seed, "--policy": doc["policy"]},
        list(rule or ()),
    ) + "".join(f" --card {shlex.quote(n)}" for n in card_names or [])
    if fmt is opt.Format.JSON:
        emit(doc, game=game.name)
    else:
        print_impact(doc)
