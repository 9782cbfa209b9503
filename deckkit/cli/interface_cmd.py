"""The commands every two-sided game gets through its game interface (:mod:`deckkit.core.game`),
reached through :mod:`deckkit.games` when the files are parties or teams: `compare` (files
against one opponent on paired games) and `impact` (what each character is worth to its file,
against the stand-ins the game's rules allow). Same flags, exit codes and JSON shapes as
Ani-Mayhem's (the shared parts in :mod:`deckkit.cli.compare_out`): 0 done, 1 an illegal file
refused (see --allow-illegal), 2 unreadable input or bad usage, an Ani-Mayhem flag with no
meaning for the game among them. ``--scheduler`` plays the games on a Dask cluster, as for
Ani-Mayhem (the runner hands any game's chunks to it: :mod:`deckkit.core.workers`)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Any

import typer

from deckkit import games
from deckkit.api.matchups import (
    REMOVED,
    Side,
    build_arms,
    check_rules,
    check_target_error,
    compare_arms,
    impact_members,
    members_to_measure,
    named_stand_in,
    read_side,
)
from deckkit.cli import compare_out as out
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
        "search; Animus: heuristic, random or search).",
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


# Ani-Mayhem's flags that a party or team has no use for, refused in one line (exit 2) rather
# than left to "no such option".
NO_MEANING = {
    "--edition": "no meaning: editions and their rules are Ani-Mayhem's; give this game's rule "
    "options with --rule NAME=VALUE (docs/interpretations.md)",
    "--edition-b": "no meaning: editions and their rules are Ani-Mayhem's; give this game's rule "
    "options with --rule NAME=VALUE (docs/interpretations.md)",
    "--variant": "no meaning: field variants are Ani-Mayhem's",
    "--layout": "no meaning: location layouts are Ani-Mayhem's",
    "--turn-cap": "no meaning: a game ends by its own rules (the engine's safety stop is no "
    "option)",
}


def _refused(help_name: str) -> Any:
    """A hidden option taking any value, only so that giving it is refused by name."""
    return typer.Option(help_name, hidden=True, metavar="VALUE")


EditionOpt = Annotated[str | None, _refused("--edition")]
EditionBOpt = Annotated[str | None, _refused("--edition-b")]
VariantOpt = Annotated[str | None, _refused("--variant")]
LayoutOpt = Annotated[str | None, _refused("--layout")]
TurnCapOpt = Annotated[str | None, _refused("--turn-cap")]


def refuse_ani_mayhem_flags(game: Game, **given: object) -> None:
    """Refuse each Ani-Mayhem flag given (keyword = flag without dashes, underscores for
    dashes) in one line: exit 2, as it has no meaning for the game."""
    whys = NO_MEANING
    out.refuse_flags(
        game.title,
        {
            flag: (given.get(flag[2:].replace("-", "_")) is not None, why)
            for flag, why in whys.items()
            if flag[2:].replace("-", "_") in given
        },
    )


@app.command("compare")
def compare(
    files: Annotated[list[Path], typer.Argument(metavar="FILE_A [FILE_B ...]")],
    vs: VsOpt,
    policy_b: Annotated[
        str | None, typer.Option("--policy-b", metavar="PLAYER", help=out.POLICY_B_HELP)
    ] = None,
    games_: opt.GamesOpt = 2_000,
    seed: opt.SeedOpt = 0,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    policy: PlayerOpt = None,
    edition: EditionOpt = None,
    edition_b: EditionBOpt = None,
    variant: VariantOpt = None,
    layout: LayoutOpt = None,
    turn_cap: TurnCapOpt = None,
    html: out.HtmlOpt = None,
    force: out.HtmlForceOpt = False,
    fmt: opt.FormatOpt = opt.Format.TEXT,
    allow_illegal: opt.AllowIllegalOpt = False,
    rule: RuleOpt = None,
    quiet: opt.QuietOpt = False,
) -> None:
    """Compare parties or teams against one opponent (--vs) on the same games (or one file
    under two players, --policy-b, the opponent keeping --policy): the difference in win rate
    with a 95% interval from the paired outcomes.

    Exit code 0 done, 1 an illegal file refused (see --allow-illegal), 2 bad input
    (and a flag with no meaning for the game), 6 no Dask, 7 no Dask scheduler.
    """
    game = game_of(files[0])
    refuse_ani_mayhem_flags(
        game,
        edition=edition,
        edition_b=edition_b,
        variant=variant,
        layout=layout,
        turn_cap=turn_cap,
    )
    rules = check_rules(game, rule or [])
    if html is not None:
        from deckkit.report import write

        write.check_output(html, force=force)
    opponent = read_side(game, vs)
    arms = build_arms(game, files, opponent, player=policy, rules=rules, player_b=policy_b)
    refuse_illegal(
        [(a.side.path, a.side.legality) for a in arms] + [(vs, opponent.legality)],
        allow_illegal,
        "compare",
    )
    with Steps("compare", len(arms), quiet=quiet) as steps:
        doc = compare_arms(
            game, arms, opponent, games=games_, seed=seed, workers=workers, step=steps.step
        )
    doc["command"] = out.command_line(
        "compare",
        files,
        {
            "--vs": vs,
            "--policy-b": policy_b,
            "--games": games_,
            "--seed": seed,
            "--policy": arms[0].player,
        },
        list(rule or ()),
    )
    if fmt is opt.Format.JSON:
        emit(doc, game=game.name)
    else:
        out.print_comparison(doc, members="characters")
    if html is not None:
        out.write_page(doc, html, force=force, game=game.name)
        if not quiet:
            echo(f"report: {html}", err=fmt is opt.Format.JSON)


def print_impact(doc: dict[str, Any]) -> None:
    imp = doc["impact"]
    target = doc.get("target_error")
    most = "" if target is None else "at most "
    stop = "" if target is None else f", each stopped at a half-width of {target * 100:.1f} points"
    echo(
        f"{doc['file']['name']} against {doc['vs']['name']}: {most}{doc['games']:,} paired games "
        f"per change{stop}, seed {doc['seed']}"
    )
    for c in imp["cards"]:
        lo, hi = c["ci"] or (None, None)
        mark = "" if c["supported"] else "  (not supported)"
        played = "" if target is None else f", {c['games']:,} games"
        echo(
            f"  {c['card']}: {percent(c['difference'], True)} "
            f"(95% CI {percent(lo, True)} to {percent(hi, True)}{played}){mark}"
        )
        echo(f"    {c['change']}")
        if len(c["stand_ins"]) > 1:
            low, high = c["spread"]
            echo(f"    spread over the stand-ins: {percent(low, True)} to {percent(high, True)}")
    for c in imp["not_measured"]:
        echo(f"  {c['card']}: not measured ({c['why']})")
    echo("")
    echo(f"method: {imp['method']}")


def refuse_remove_where_size_is_fixed(game: Game, side: Side, members: list[str]) -> None:
    """``--remove`` has no meaning where the game's rules never let the file shrink (every
    stand-in a replacement, as an Animus team of exactly nine): exit 2 before any game."""
    hows = [s.how for m in members for s in game.stand_ins(side.entry, m)]
    if hows and REMOVED not in hows:
        raise UsageError(
            f"--remove has no meaning for {game.title}: its rules fix the file's size, so a "
            "character is measured against the stand-ins that replace it"
        )


def refuse_illegal_replacements(
    game: Game, side: Side, members: list[str], name: str, allow_illegal: bool
) -> None:
    """``--replace-with``: each changed file checked before any game (an unknown or unfit name
    is a usage error, exit 2); the rules each breaks on stderr, and exit 1 unless
    ``--allow-illegal``, as for an illegal file given."""
    broken = []
    for member in members:
        verdict = game.legality(named_stand_in(game, side.entry, member, name).entry)
        if not verdict.legal:
            broken.append((member, verdict))
    for member, verdict in broken:
        echo(f"ILLEGAL: {side.path} with {member} replaced by {name}", err=True)
        for problem in verdict.problems:
            echo(f"  {problem.rule}: {problem.message}", err=True)
            if problem.fix:
                echo(f"    fix: {problem.fix}", err=True)
    if broken and not allow_illegal:
        echo(
            f"refusing to measure: {name} in {len(broken)} of the {len(members)} places breaks "
            f"the rules of {game.title}; choose the characters with --card, or pass "
            "--allow-illegal to measure anyway",
            err=True,
        )
        raise typer.Exit(EXIT_ILLEGAL)


@app.command("impact")
def impact(
    file: Annotated[Path, typer.Argument(metavar="FILE")],
    vs: VsOpt,
    card_names: Annotated[
        list[str] | None,
        typer.Option("--card", "-c", help="A character to measure (repeat); default every one."),
    ] = None,
    replace_with: Annotated[
        str | None,
        typer.Option(
            "--replace-with",
            help="Replace each character by this one (of the card data; Animus: of the "
            "team's card file) instead of the stand-ins the rules give; an illegal file then "
            "is refused (see --allow-illegal).",
        ),
    ] = None,
    remove: Annotated[
        bool,
        typer.Option(
            "--remove",
            help="Remove the copy instead of replacing it (where the rules let the file "
            "shrink; a usage error where its size is fixed).",
        ),
    ] = False,
    target_error: Annotated[
        float | None,
        typer.Option(
            "--target-error",
            help="Stop a card's estimate once its 95% interval's half-width is at most this "
            "(e.g. 0.02 = 2 points); --games is then the most games per card.",
        ),
    ] = None,
    games_: opt.GamesOpt = 2_000,
    seed: opt.SeedOpt = 0,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    policy: PlayerOpt = None,
    edition: EditionOpt = None,
    variant: VariantOpt = None,
    layout: LayoutOpt = None,
    turn_cap: TurnCapOpt = None,
    rule: RuleOpt = None,
    fmt: opt.FormatOpt = opt.Format.TEXT,
    allow_illegal: opt.AllowIllegalOpt = False,
    quiet: opt.QuietOpt = False,
) -> None:
    """What each character of a party or team is worth against --vs: the change in win rate,
    with a 95% interval, when it is taken out (replaced by the median of legal stand-ins of
    the card set where the file's size is fixed, as in Animus; removed where the rules let the
    file shrink, as in Anima Tactics; or replaced by the one --replace-with names, each changed
    file checked against the rules first), on paired games.

    Exit code 0 done, 1 an illegal file refused (see --allow-illegal), 2 bad input
    (and a flag with no meaning for the game), 6 no Dask, 7 no Dask scheduler.
    """
    game = game_of(file)
    if remove and replace_with is not None:
        raise UsageError("give --remove or --replace-with, not both")
    refuse_ani_mayhem_flags(
        game,
        edition=edition,
        variant=variant,
        layout=layout,
        turn_cap=turn_cap,
    )
    check_target_error(target_error)
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
    if remove:
        refuse_remove_where_size_is_fixed(game, side, members)
    if replace_with is not None:
        refuse_illegal_replacements(game, side, members, replace_with, allow_illegal)
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
            removal_only=remove,
            target_error=target_error,
            replace_with=replace_with,
        )
    doc["command"] = out.command_line(
        "impact",
        [file],
        {"--vs": vs, "--games": games_, "--seed": seed, "--policy": doc["policy"]},
        list(rule or ()),
    ) + "".join(f" --card {shlex.quote(n)}" for n in card_names or [])
    if remove:
        doc["command"] += " --remove"
    if replace_with is not None:
        doc["command"] += f" --replace-with {shlex.quote(replace_with)}"
    if target_error is not None:
        doc["command"] += f" --target-error {target_error}"
    if fmt is opt.Format.JSON:
        emit(doc, game=game.name)
    else:
        print_impact(doc)
