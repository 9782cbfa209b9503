"""Animus's commands, reached through :mod:`deckkit.games` when a file says ``game: animus``
(or ``--game animus``): ``validate`` team files and card files, ``simulate`` a team against
another (``--vs``), ``report`` the same as a page with its JSON sidecar.

Exit codes are the shared ones (deckkit.errors): 0 legal, 1 illegal, 2 unreadable team file or
bad usage, 3 a broken card file, 4 a worker died.
"""

from __future__ import annotations

import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from deckkit import __version__
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.exits import DeckkitTyper
from deckkit.cli.jsonout import emit
from deckkit.errors import EXIT_ILLEGAL, EXIT_OK, DeckFileError, DeckkitError, UsageError

app = DeckkitTyper(name="animus", help="Animus teams: draft legality and head-to-head win rates.")

RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        callback=opt.one_value_per_rule,
        help="A rule option where the v3.5 text is silent (docs/interpretations.md, Animus); "
        "repeatable. Overrides the team files' rule.NAME lines.",
    ),
]
VsOpt = Annotated[Path, typer.Option("--vs", help="The opposing team file.", metavar="TEAM")]
PolicyOpt = Annotated[
    str,
    typer.Option(
        "--policy",
        help="The automatic player of both teams: heuristic, random or search (search plays "
        "ahead on imagined deals of the cards it cannot see).",
    ),
]
VsPolicyOpt = Annotated[
    str | None, typer.Option("--vs-policy", help="The opposing team's player (default: --policy).")
]
RolloutsOpt = Annotated[
    int | None,
    typer.Option(
        "--rollouts",
        min=1,
        show_default="8",
        help="The search player's imagined battles per candidate of a choice.",
    ),
]


def _players(policy: str, vs_policy: str | None, rollouts: int | None) -> tuple[str, str | None]:
    """--policy and --vs-policy as the engine names them: ``search:N`` for a search player
    with --rollouts N."""
    if rollouts is None:
        return policy, vs_policy
    if "search" not in (policy, vs_policy):
        raise UsageError("--rollouts is the search player's budget: add --policy search")
    budget = f"search:{rollouts}"
    return (
        budget if policy == "search" else policy,
        budget if vs_policy == "search" else vs_policy,
    )


def _is_card_file(path: Path) -> bool:
    return path.suffix.lower() == ".csv"


def _validate_one(path: Path, rules: list[str]) -> tuple[int, dict[str, Any], str | None]:
    from deckkit.animus.construction.carddb import read_cards, types_path_for
    from deckkit.animus.construction.legality import check_team
    from deckkit.animus.construction.rules import load_types
    from deckkit.animus.construction.team import read_team

    if _is_card_file(path):
        cards = read_cards(path, load_types(types_path_for(path)))
        made_up = sum(1 for c in cards.cards if c.made_up)
        body = {
            "file": str(path),
            "card_file": True,
            "characters": len(cards.characters),
            "entities": len(cards.entities),
            "made_up": made_up,
            "types": list(cards.types.types),
        }
        from deckkit.animus.construction.notices import type_order_notice

        guessed = type_order_notice(cards)
        body["notices"] = [guessed] if guessed else []
        text = (
            f"[bold green]OK[/]: {escape(str(path))}: {len(cards.characters)} characters, "
            f"{len(cards.entities)} Entities ({made_up} rows marked made up); "
            f"types {', '.join(cards.types.types)}"
        ) + (f"\nnotice: {escape(guessed)}" if guessed else "")
        return EXIT_OK, body, text
    team = read_team(path, rules)
    if team.draft_policy is not None:
        from deckkit.animus.engine.draft import DRAFT_POLICIES

        if team.draft_policy not in DRAFT_POLICIES:
            raise DeckFileError(
                f"unknown drafting policy {team.draft_policy!r}",
                path=path,
                hint=f"policies: {', '.join(DRAFT_POLICIES)}",
            )
    report = check_team(team)
    notices = _notices([team])
    body = {
        "file": str(path),
        "draft_policy": team.draft_policy,
        **report.as_dict(),
        "notices": notices,
    }
    verdict = "[bold green]LEGAL[/]" if report.legal else "[bold red]ILLEGAL[/]"
    what = (
        f"Animus draft seat, drafting with {team.draft_policy}"
        if team.draft_policy
        else f"Animus team, {team.levels} levels"
        + (", draft replayed" if report.draft_checked else "")
    )
    lines = [
        f"{verdict}: {escape(team.name)} ({escape(what)})",
        "  " + ", ".join(f"{k}: {v}" for k, v in report.counts.items()),
    ]
    for v in report.violations:
        lines.append(f"[red]✗[/] [bold]{v.rule}[/]: {escape(v.message)}")
        lines.append(f"    fix: {escape(v.fix)} ({escape(v.cite)})")
    lines.extend(f"warning: {escape(w)}" for w in report.warnings)
    lines.extend(f"notice: {escape(n)}" for n in notices)
    return (EXIT_OK if report.legal else EXIT_ILLEGAL), body, "\n".join(lines)


@app.command("validate")
def validate(
    files: Annotated[
        list[Path],
        typer.Argument(metavar="FILE...", help="Animus team files or card files (.csv)."),
    ],
    rule: RuleOpt = None,
    output: opt.FormatOpt = opt.Format.TEXT,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing.")] = False,
) -> None:
    """Check Animus team files (9 unique characters, the recorded draft replayed pick by pick)
    and card files (every row, with file, line and column of the first problem).

    Exit code 0 when all are legal, 1 when a team is illegal, 2 when a team file cannot be read,
    3 when a card file is broken."""
    worst = EXIT_OK
    results: list[dict[str, Any]] = []
    for path in files:
        try:
            code, body, text = _validate_one(path, list(rule or []))
        except DeckkitError as err:
            worst = max(worst, err.exit_code)
            results.append({"file": str(path), **err.as_dict()})
            if output is opt.Format.TEXT and not quiet:
                echo(f"error: {err.render()}", err=True)
            continue
        worst = max(worst, code)
        results.append(body)
        if output is opt.Format.TEXT and not quiet and text:
            stdout_console(min_width=72, soft_wrap=True).print(text, highlight=False)
    if output is opt.Format.JSON and not quiet:
        emit(results[0] if len(results) == 1 else {"files": results}, game="animus")
    raise typer.Exit(worst)


def _run(
    team: Path,
    vs: Path,
    *,
    games: int,
    seed: int,
    workers: int,
    policy: str,
    vs_policy: str | None,
    rule: list[str] | None,
    allow_illegal: bool,
    quiet: bool,
) -> dict[str, Any]:
    from deckkit.analysis.runner import capped_workers
    from deckkit.animus import montecarlo
    from deckkit.animus.summary import summarize

    match, teams = _match(team, vs, policy, vs_policy, rule, allow_illegal)
    result = montecarlo.run(match, games=games, seed=seed, workers=capped_workers(workers))
    if not quiet:
        echo(
            f"{_battles(result.games)} in {result.seconds:.1f} s "
            f"({_pace(result.games, result.seconds)}, "
            f"{result.workers} worker{'' if result.workers == 1 else 's'})",
            err=True,
        )
    from deckkit.animus.ladder import player_gap

    doc = summarize(result, match, teams)
    doc["made_up_cards"] = sum(1 for t in teams for c in t.cards if c.made_up)
    doc["notices"] = _notices(teams)
    doc["player_gap"] = player_gap(match.policies, (str(team), str(vs)))
    return doc


def _match(
    team: Path,
    vs: Path,
    policy: str,
    vs_policy: str | None,
    rule: list[str] | None,
    allow_illegal: bool,
) -> tuple[Any, Any]:
    """The battle setup of TEAM against --vs TEAM (both legal unless allowed) and the teams."""
    from deckkit.animus import montecarlo
    from deckkit.animus.construction.legality import check_team

    rules = list(rule or [])
    for path in (team, vs):
        if _is_card_file(path):
            raise UsageError(f"{path} is a card file; simulate takes two team files")
    montecarlo.check_policy(policy)
    montecarlo.check_policy(vs_policy or policy)
    first = _read(team, rules)
    match = montecarlo.Match(
        team, vs, first.options, (policy, vs_policy or policy), tuple(rules)
    ).carried()
    teams = match.teams()
    if teams[0].options != teams[1].options:
        raise UsageError(
            "the two team files set different rule options "
            f"({teams[0].options.non_default()} and {teams[1].options.non_default()})",
            hint="give both files the same rule.NAME lines, or set them with --rule",
        )
    for t in teams:
        report = check_team(t)
        if not report.legal and not allow_illegal:
            v = report.violations[0]
            raise DeckFileError(
                f"the team is not legal: {v.rule}: {v.message}",
                path=t.path,
                hint="fix it (see `deckkit validate`), or pass --allow-illegal",
            ) from None
    return match, teams


def _notices(teams: Any) -> list[str]:
    """What a reader must know beside the figures (deckkit.animus.construction.notices)."""
    from deckkit.animus.construction.notices import (
        made_up_notice,
        shared_cards_notice,
        type_order_notice,
    )

    # A draft seat has no fixed cards: it drafts from its whole card set before every battle.
    cards = [c for t in teams for c in (t.cards or t.card_set.cards)]
    cards += [t.entity for t in teams if t.entity]
    found = [made_up_notice(cards)]
    if len(teams) == 2:
        found.append(shared_cards_notice(teams[0], teams[1]))
    sets = {t.card_set.path: t.card_set for t in teams}
    found.extend(type_order_notice(card_set) for card_set in sets.values())
    return [n for n in found if n]


def _read(path: Path, rules: list[str]) -> Any:
    from deckkit.animus.construction.team import read_team

    return read_team(path, rules)


def _command_line() -> str:
    return "deckkit " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _print(doc: dict[str, Any]) -> None:
    out = stdout_console(min_width=80, soft_wrap=True)
    a, b = doc["teams"][0]["name"], doc["teams"][1]["name"]
    out.print(
        f"[bold]{escape(a)}[/] vs [bold]{escape(b)}[/]: "
        f"{_battles(doc['run']['games'])}, seed {doc['run']['seed']}"
    )
    for notice in doc.get("notices", []):
        out.print(f"[yellow]notice[/]: {escape(notice)}")
    table = Table(box=None, header_style="bold", pad_edge=False)
    for col in ("outcome", "battles", "rate", "95% interval"):
        table.add_column(col, justify="left" if col == "outcome" else "right")
    for key, label in (("team", f"{a} wins"), ("vs", f"{b} wins"), ("draw", "draw")):
        r = doc["outcomes"][key]
        table.add_row(
            escape(label),
            str(r["count"]),
            _pct(r["rate"]),
            f"{_pct(r['ci'][0])} – {_pct(r['ci'][1])}" if r["ci"] else "–",
        )
    out.print(table)
    t = doc["turns"]
    ci = t["ci"] or [None, None]
    out.print(
        f"turns: mean {_num(t['mean'])} (95% {_num(ci[0])}–{_num(ci[1])}), "
        f"min {t['min']}, max {t['max']}; ends: "
        + ", ".join(f"{r['code']} {r['games']}" for r in doc["end_reasons"])
    )
    top = [c for c in doc["cards"] if c["lift"] is not None][:5]
    if top:
        out.print("cards whose side wins most more often when they reach play (correlational):")
        for c in top:
            out.print(f"  {escape(c['name'])} ({escape(c['team'])}): {c['lift'] * 100:+.1f} pp")
    if doc.get("player_gap"):
        from deckkit.api.gap_text import match_sentence

        out.print(escape(match_sentence(doc["player_gap"])))


def _pace(games: int, seconds: float) -> str:
    """Battles per second, or seconds per battle when a battle takes more than one (a search
    player's: never "0 per second")."""
    per_second = games / max(seconds, 1e-9)
    return (
        f"{per_second:.0f} per second" if per_second >= 1 else f"{seconds / games:.1f} s a battle"
    )


def _battles(n: int) -> str:
    return f"{n} battle" if n == 1 else f"{n} battles"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:.1f}"


TeamArg = Annotated[Path, typer.Argument(metavar="TEAM", help="The team file.")]
GamesOpt = Annotated[int, typer.Option("--games", "-n", min=1, help="Battles to play.")]


@app.command("simulate")
def simulate(
    team: TeamArg,
    vs: VsOpt,
    games: GamesOpt = 2000,
    seed: opt.SeedOpt = 1,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    policy: PolicyOpt = "heuristic",
    vs_policy: VsPolicyOpt = None,
    rollouts: RolloutsOpt = None,
    rule: RuleOpt = None,
    allow_illegal: opt.AllowIllegalOpt = False,
    output: opt.FormatOpt = opt.Format.TEXT,
    quiet: opt.QuietOpt = False,
    out: opt.OutOpt = None,
    force: opt.ForceOpt = False,
) -> None:
    """Play TEAM against --vs TEAM by Monte Carlo: win rates with 95% intervals, battle length,
    cards and type matchups. The same seed gives the same numbers for any --workers."""
    if out is not None:
        from deckkit.analysis.output import check_destination

        check_destination(out, force=force)
    doc = _run(
        team,
        vs,
        games=games,
        seed=seed,
        workers=workers,
        policy=_players(policy, vs_policy, rollouts)[0],
        vs_policy=_players(policy, vs_policy, rollouts)[1],
        rule=rule,
        allow_illegal=allow_illegal,
        quiet=quiet or output is opt.Format.JSON,
    )
    if out is not None:
        # The run's battles again, through the game interface, one row each (game i of the
        # seed is the same battle).
        from deckkit.animus.game import GAME
        from deckkit.api.matchups import save_run

        match, _ = _match(team, vs, policy, vs_policy, rule, allow_illegal)
        save_run(
            GAME,
            match,
            out,
            games=games,
            seed=seed,
            workers=workers,
            force=force,
            files=[team, vs],
            about={"policy": policy, "vs_policy": vs_policy or policy, "rules": list(rule or [])},
        )
        doc["out"] = str(out)
    if output is opt.Format.JSON:
        emit(doc, game="animus")
    else:
        _print(doc)
        if out is not None:
            echo(f"rows: {out}")


@app.command("sensitivity")
def sensitivity(
    team: TeamArg,
    vs: VsOpt,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Paired battles per reading.")
    ] = 1000,
    seed: opt.SeedOpt = 1,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    policy: PolicyOpt = "heuristic",
    rule: RuleOpt = None,
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading",
            metavar="NAME",
            help="Vary only this rule option (repeatable); default: every one.",
        ),
    ] = None,
    allow_illegal: opt.AllowIllegalOpt = False,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """How far each alternative reading of the v3.5 text (each rule option's other values, one
    at a time) moves TEAM's win rate against --vs TEAM: paired battles, 95% intervals."""
    from deckkit.analysis.game_sensitivity import measure
    from deckkit.animus.construction.options import CHOICES
    from deckkit.animus.game import GAME
    from deckkit.cli.sensitivity_text import print_two_sided

    opt.check_readings(reading, CHOICES, "docs/interpretations.md, Animus")
    _, teams = _match(team, vs, policy, None, rule, allow_illegal)
    # As played: the team files' rule.NAME lines, overridden by --rule (both checked above).
    played = {k: str(v) for k, v in teams[0].options.as_dict().items() if k in CHOICES}
    notices = _notices(teams)
    doc: dict[str, Any] = {
        "deck": teams[0].name,
        "deck_path": str(team),
        "vs": teams[1].name,
        "vs_path": str(vs),
        "seed": seed,
        "policy": policy,
        **measure(
            GAME,
            list(teams),
            options=list(reading or CHOICES),
            rules=played,
            player=policy,
            games=games,
            seed=seed,
            workers=workers,
        ),
        "notices": notices,
        "made_up_cards": sum(1 for t in teams for c in t.cards if c.made_up),
    }
    if output is opt.Format.JSON:
        emit(doc, game="animus")
    else:
        print_two_sided(doc, "team", notices)


@app.command("play")
def play(
    team: TeamArg,
    vs: VsOpt,
    seed: opt.SeedOpt = 1,
    game: Annotated[
        int, typer.Option("--game", "-g", min=0, help="Battle index within the run.")
    ] = 0,
    policy: PolicyOpt = "heuristic",
    vs_policy: VsPolicyOpt = None,
    rollouts: RolloutsOpt = None,
    rule: RuleOpt = None,
    allow_illegal: opt.AllowIllegalOpt = False,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """Battle --game of `deckkit simulate TEAM --vs TEAM --seed S`, event by event: the same
    battle the run played (through the game interface, deckkit.core.game)."""
    from deckkit.animus.game import GAME
    from deckkit.animus.summary import END_REASONS

    match, teams = _match(team, vs, *_players(policy, vs_policy, rollouts), rule, allow_illegal)
    if match.drafting(teams):
        raise UsageError(
            "a drafting battle keeps no trace yet; play a team file's fixed roster",
            hint="give team files that list their cards",
        )
    record = GAME.play(match, seed, game, trace=True)
    notices = _notices(teams)
    end = {
        "code": record.end_reason,
        "reason": END_REASONS.get(record.end_reason, record.end_reason),
    }
    doc = {
        "game": "animus",
        "seed": seed,
        "index": game,
        "teams": [t.name for t in teams],
        "policies": list(match.policies),
        "rules": match.options.as_dict(),
        "outcome": record.outcome,
        "end_reason": end,
        "turns": record.turns,
        "notices": notices,
        "events": [{"text": line} for line in record.trace or ()],
    }
    if output is opt.Format.JSON:
        emit(doc, game="animus")
        return
    out = stdout_console(min_width=80, soft_wrap=True)
    out.print(
        f"[bold]{escape(teams[0].name)}[/] vs [bold]{escape(teams[1].name)}[/]: battle {game} "
        f"of seed {seed}",
        highlight=False,
    )
    for notice in notices:
        out.print(f"[yellow]notice[/]: {escape(notice)}", highlight=False)
    for line in record.trace or ():
        out.print(escape(line), highlight=False)
    out.print(
        f"{record.outcome} for {escape(teams[0].name)} after {record.turns} "
        f"turn{'' if record.turns == 1 else 's'}: "
        f"{escape(end['reason'])} ({end['code']})",
        highlight=False,
    )


@app.command("report")
def report(
    team: TeamArg,
    vs: VsOpt,
    out: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="PAGE.html", help="Where to write the page."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing -o file.")] = False,
    games: GamesOpt = 2000,
    seed: opt.SeedOpt = 1,
    workers: opt.WorkersOpt = 1,
    scheduler: opt.SchedulerOpt = None,
    policy: PolicyOpt = "heuristic",
    vs_policy: VsPolicyOpt = None,
    rollouts: RolloutsOpt = None,
    rule: RuleOpt = None,
    allow_illegal: opt.AllowIllegalOpt = False,
    quiet: opt.QuietOpt = False,
) -> None:
    """Simulate TEAM against --vs TEAM and write a self-contained page with a JSON sidecar
    (default reports/TEAM-vs-OTHER.report.html, which deckkit replaces; a page named with -o is
    never replaced without --force)."""
    from deckkit.report.animus import render
    from deckkit.report.write import REPORTS_DIR, check_output, default_path, write_report

    if out is None:
        REPORTS_DIR.mkdir(exist_ok=True)
        target, replace = default_path(team, f"vs-{vs.stem}"), True
    else:
        target, replace = out, force
    check_output(target, force=replace)
    doc = _run(
        team,
        vs,
        games=games,
        seed=seed,
        workers=workers,
        policy=_players(policy, vs_policy, rollouts)[0],
        vs_policy=_players(policy, vs_policy, rollouts)[1],
        rule=rule,
        allow_illegal=allow_illegal,
        quiet=quiet,
    )
    doc = {
        **doc,
        "deckkit_version": __version__,
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": _command_line(),
    }
    sidecar = write_report(render(doc), doc, target, force=replace, game="animus")
    if not quiet:
        echo(f"report: {target}\ndata:   {sidecar}", err=True)


def _card_row(c: Any) -> dict[str, Any]:
    """One card as `cards list` and `cards show` give it."""
    from deckkit.animus.construction.cards import Kind

    character = c.kind is Kind.CHARACTER
    return {
        "id": c.id,
        "name": c.name,
        "kind": str(c.kind),
        # An Entity has no level, type or values ("Entity Cards"): none is shown.
        "level": c.level if character else None,
        "type": c.type,
        "advantage": c.advantage,
        "melee": c.melee if character else None,
        "range": c.range if character else None,
        "abilities": "; ".join(a.text() for a in c.abilities),
        "made_up": c.made_up,
    }


CardFileOpt = Annotated[
    Path | None,
    typer.Option("--cards", metavar="FILE.csv", help="A card file (default: the sample set)."),
]

cards_app = DeckkitTyper(name="cards", help="The cards of an Animus card file.")
app.add_typer(cards_app, name="cards")


@cards_app.command("list")
def list_cards(
    card_file: Annotated[
        Path | None,
        typer.Option("--cards", metavar="FILE.csv", help="A card file (default: the sample set)."),
    ] = None,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """List the characters and Entities of a card file, with their gems, values and abilities."""
    from deckkit.animus.construction.carddb import load_cards

    cards = load_cards(card_file.resolve() if card_file else None)
    rows = [_card_row(c) for c in cards.cards]
    from deckkit.animus.construction.notices import type_order_notice

    guessed = type_order_notice(cards)
    if output is opt.Format.JSON:
        emit(
            {"card_file": str(cards.path), "cards": rows, "notices": [guessed] if guessed else []},
            game="animus",
        )
        return
    table = Table(box=None, header_style="bold", pad_edge=False)
    for col in ("name", "kind", "level", "type", "beats", "melee", "range", "abilities"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(
            escape(str(r["name"])) + (" *" if r["made_up"] else ""),
            str(r["kind"]),
            str(r["level"] or ""),
            str(r["type"]),
            str(r["advantage"]),
            str(r["melee"] if r["kind"] == "character" else ""),
            str(r["range"] if r["kind"] == "character" else ""),
            escape(str(r["abilities"])),
        )
    out = stdout_console(min_width=100, soft_wrap=True)
    out.print(table)
    if any(r["made_up"] for r in rows):
        out.print("* made up (a sample card, not a real one)")
    if guessed:
        out.print(f"notice: {escape(guessed)}")


@cards_app.command("show")
def show_card(
    name: Annotated[list[str], typer.Argument(help="Card name or id.")],
    card_file: CardFileOpt = None,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """Show one card of a card file (name or id, any case); an unknown name exits 2 with the
    nearest names."""
    import difflib

    from deckkit.animus.construction.carddb import load_cards

    cards = load_cards(card_file.resolve() if card_file else None)
    wanted = " ".join(name)
    key = wanted.strip().casefold()
    found = next((c for c in cards.cards if key in (c.id.casefold(), c.name.casefold())), None)
    if found is None:
        names = [c.name for c in cards.cards]
        near = [n for n in names if key and key in n.casefold()][:3] or difflib.get_close_matches(
            wanted, names, n=3
        )
        raise DeckFileError(
            f"no Animus card named {wanted!r} in {cards.path.name}",
            hint=f"did you mean {' or '.join(repr(n) for n in near)}?" if near else None,
        )
    row = _card_row(found)
    from deckkit.animus.construction.notices import made_up_notice, type_order_notice

    notices = [n for n in (made_up_notice([found]), type_order_notice(cards)) if n]
    if output is opt.Format.JSON:
        emit({"card_file": str(cards.path), **row, "notices": notices}, game="animus")
        return
    out = stdout_console(min_width=80, soft_wrap=True)
    out.print(f"{escape(found.name)}  ({found.id}, {row['kind']})", highlight=False)
    for field_name, value in row.items():
        if field_name in ("id", "name", "kind") or value in ("", None):
            continue
        shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        out.print(f"  {field_name:<10} {escape(shown)}", highlight=False)
    for notice in notices:
        out.print(f"notice: {escape(notice)}")


@cards_app.command("coverage")
def coverage_cmd(
    file: Annotated[
        Path | None,
        typer.Argument(
            metavar="[FILE]",
            help="A team file (its cards and Entity) or a card file (.csv); default: the "
            "sample card set.",
        ),
    ] = None,
    output: opt.FormatOpt = opt.Format.TEXT,
    cards: Annotated[
        bool,
        typer.Option(
            "--cards", help="Also list every ability line not played in full, with its note."
        ),
    ] = False,
) -> None:
    """Which ability lines of a team's cards (or of a card file) the battle engine plays: in
    full, in part or not at all, by keyword and per card (each line put through the engine on a
    probe battle, deckkit.animus.engine.coverage)."""
    from deckkit.animus.construction.carddb import load_cards, read_cards, types_path_for
    from deckkit.animus.construction.rules import load_types
    from deckkit.animus.engine.coverage import card_lines

    team_name: str | None = None
    if file is None:
        card_set = load_cards(None)
        chosen = list(card_set.cards)
    elif _is_card_file(file):
        card_set = read_cards(file, load_types(types_path_for(file)))
        chosen = list(card_set.cards)
    else:
        team = _read(file, [])
        card_set, team_name = team.card_set, team.name
        # a draft seat has no fixed cards: it drafts from its whole card set
        chosen = list(team.cards or team.card_set.cards)
        if team.cards and team.entity is not None:
            chosen.append(team.entity)
    doc = coverage_doc(card_lines(chosen), with_lines=cards)
    doc = {"game": "animus", "card_file": str(card_set.path), "team": team_name, **doc}
    if output is opt.Format.JSON:
        emit(doc, game="animus")
        return
    out = stdout_console(min_width=90, soft_wrap=True)
    what = f"{team_name}'s cards" if team_name else f"the cards of {card_set.path.name}"
    table = Table(title=f"Animus ability lines played by the battle engine: {what}")
    for col in ("keyword", "lines", "in full", "in part", "not at all", "covered"):
        table.add_column(col, justify="left" if col == "keyword" else "right")
    for g in doc["groups"]:
        table.add_row(
            g["group"], str(g["abilities"]), str(g["full"]), str(g["approximate"]),
            str(g["none"]), f"{g['covered']:.1%}",
        )  # fmt: skip
    out.print(table)
    counts = {"full": 0, "approximate": 0, "none": 0}
    for c in doc["cards"]:
        counts[c["coverage"]] += 1
    out.print(
        f"cards with ability lines: {counts['full']} in full, {counts['approximate']} in part, "
        f"{counts['none']} not at all (in full: every line played in full)",
        highlight=False,
    )
    for line in doc.get("abilities", []):
        if line["coverage"] != "full":
            words = "in part" if line["coverage"] == "approximate" else "not at all"
            out.print(
                f"{words:<10}  {escape(line['card'])}: {escape(line['ability'])}: "
                f"{escape(line['note'])}",
                highlight=False,
            )


def coverage_doc(lines: list[Any], *, with_lines: bool) -> dict[str, Any]:
    """The coverage document: lines by keyword (then all), per card, and (``with_lines``)
    every line not played in full."""
    from deckkit.animus.construction.cards import Keyword

    def counts(found: list[Any]) -> dict[str, Any]:
        full = sum(p.level == "full" for _, _, p in found)
        part = sum(p.level == "approximate" for _, _, p in found)
        return {
            "abilities": len(found),
            "full": full,
            "approximate": part,
            "none": len(found) - full - part,
            "covered": round((full + part) / len(found), 4) if found else 1.0,
        }

    groups = [{"group": str(k), **counts([x for x in lines if x[1].keyword is k])} for k in Keyword]
    groups = [g for g in groups if g["abilities"]]
    groups.append({"group": "all", **counts(lines)})
    per_card: dict[str, list[Any]] = {}
    kinds: dict[str, str] = {}
    for card, ability, level in lines:
        per_card.setdefault(card.name, []).append((card, ability, level))
        kinds[card.name] = str(card.kind)
    cards = []
    for name, found in per_card.items():
        c = counts(found)
        level = (
            "full"
            if c["full"] == c["abilities"]
            else "none"
            if c["none"] == c["abilities"]
            else "approximate"
        )
        c.pop("covered")
        cards.append({"card": name, "kind": kinds[name], "coverage": level, **c})
    doc: dict[str, Any] = {"groups": groups, "cards": cards}
    if with_lines:
        doc["abilities"] = [
            {
                "card": card.name,
                "kind": str(card.kind),
                "ability": ability.text(),
                "keyword": str(ability.keyword),
                "coverage": level.level,
                "note": level.note,
            }
            for card, ability, level in lines
        ]
    return doc


@app.command("stats")
def stats(
    team: TeamArg,
    turns: Annotated[
        str,
        typer.Option(
            "--turns",
            metavar="N,N,...",
            help="The turns to give chances for; 0 is the opening hand.",
        ),
    ] = "0,1,2,3,4,6",
    draws_per_turn: Annotated[
        int,
        typer.Option(
            "--draws-per-turn",
            min=1,
            max=3,
            help="Cards that leave the hand in a turn (played or put back), which the Reset "
            "Phase draws again.",
        ),
    ] = 1,
    hands: Annotated[
        int, typer.Option("--hands", min=0, max=20, help="Sample opening hands to show.")
    ] = 3,
    seed: opt.SeedOpt = 1,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """Show TEAM's composition, the chance of having drawn each character or kind by turn N
    (exact, under the v3.5 draw) and sample opening hands, without playing a battle."""
    from deckkit.animus.deckstats import team_stats
    from deckkit.cli.options import parse_turns

    if _is_card_file(team):
        raise UsageError(f"{team} is a card file; stats takes a team file")
    found = _read(team, [])
    if not found.cards:
        raise UsageError(
            f"{team} is a draft seat: it drafts a new team before every battle, so it has no "
            "deck to give chances for",
            hint="give a team file that lists its cards",
        )
    doc = team_stats(
        found,
        turns=parse_turns(turns),
        draws_per_turn=draws_per_turn,
        hands=hands,
        seed=seed,
    )
    doc["notices"] = _notices([found])
    if output is opt.Format.JSON:
        emit(doc, game="animus")
        return
    out = stdout_console(min_width=90, soft_wrap=True)
    out.print(f"{escape(doc['deck'])}: Animus team, v3.5 draw", highlight=False)
    for notice in doc["notices"]:
        out.print(f"[yellow]notice[/]: {escape(notice)}", highlight=False)
    table = Table(title="Composition", title_justify="left", show_edge=False, box=None)
    table.add_column("cards")
    table.add_column("count", justify="right")
    for row in doc["composition"]:
        table.add_row(("  " * row["level"]) + escape(row["label"]), str(row["count"]))
    out.print(table)
    chances = Table(
        title="Chance to have drawn at least one", title_justify="left", show_edge=False, box=None
    )
    chances.add_column("card or kind")
    chances.add_column("cards", justify="right")
    for t, n in zip(doc["turns"], doc["drawn"], strict=True):
        chances.add_column("hand" if t == 0 else f"turn {t} ({n})", justify="right")
    for row in doc["draw_chances"]:
        cells = [f"{100 * c:.1f}%" for c in row["chances"]]
        chances.add_row(escape(row["label"]), str(row["copies"]), *cells)
    out.print(chances)
    out.print(escape(doc["note"]), highlight=False)
    if doc["sample_hands"]:
        out.print("sample opening hands (battles 0, 1, ... of `deckkit play TEAM --seed S`):")
        for i, hand in enumerate(doc["sample_hands"]):
            out.print(f"  {i}: {escape(', '.join(hand))}", highlight=False)


@app.command("build")
def build(
    vs: Annotated[
        list[Path],
        typer.Option(
            "--vs",
            metavar="TEAM",
            help="A field team to build against (repeat for a field of several); the "
            "candidates play seeded battles against each.",
        ),
    ],
    pool: Annotated[
        Path | None,
        typer.Option(
            "--pool",
            metavar="TEAM|CARDS.csv",
            help="Where the drafts' characters come from: a team file's card set (and its "
            "Entity, which the built team keeps) or a card file. Default: the sample set.",
        ),
    ] = None,
    drafts: Annotated[
        int,
        typer.Option("--drafts", min=1, max=200, help="Seeded drafts the candidates come from."),
    ] = 4,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Selection battles of the race, in all.")
    ] = 4_000,
    confirm_games: Annotated[
        int,
        typer.Option("--confirm", min=0, help="Fresh battles that confirm the winner's rate."),
    ] = 2_000,
    seed: opt.SeedOpt = 1,
    policy: PolicyOpt = "heuristic",
    vs_policy: VsPolicyOpt = None,
    rule: RuleOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", metavar="FILE.team", help="Write the best team there."),
    ] = None,
    force: opt.ForceOpt = False,
    output: opt.FormatOpt = opt.Format.TEXT,
) -> None:
    """Animus: the best team seeded drafts give against a field of teams: every seat of
    --drafts drafts under every pair of drafting policies, raced in seeded battles (successive
    halving) and the winner confirmed on fresh battles (deckkit.animus.build).

    Exit code 0 done, 1 an illegal field team, 2 bad input (an existing --out without
    --force)."""
    import os

    from deckkit.analysis.output import check_writable, write_atomic
    from deckkit.animus import montecarlo
    from deckkit.animus.build import battles, candidates, confirm, race
    from deckkit.animus.construction.carddb import load_cards, read_cards, types_path_for
    from deckkit.animus.construction.legality import check_team
    from deckkit.animus.construction.options import parse_options
    from deckkit.animus.construction.rules import load_types

    if out is not None:
        check_writable(out, force=force, what="--out")
    rules = list(rule or [])
    for name in (policy, vs_policy or policy):
        montecarlo.check_policy(name)
        if name.startswith("search"):
            raise UsageError("a build races many battles: choose the heuristic or random player")
    entity = None
    if pool is None:
        card_set = load_cards(None)
    elif _is_card_file(pool):
        card_set = read_cards(pool, load_types(types_path_for(pool)))
    else:
        pool_team = _read(pool, rules)
        card_set, entity = pool_team.card_set, pool_team.entity
    field = [_read(path, rules) for path in vs]
    for t in field:
        if not t.cards:
            raise UsageError(
                f"{t.path} is a draft seat: the field plays teams that list their cards"
            )
        report = check_team(t)
        if not report.legal:
            v = report.violations[0]
            raise DeckFileError(
                f"the team is not legal: {v.rule}: {v.message}",
                path=t.path,
                hint="fix it (see `deckkit validate`)",
            )
    options = field[0].options if field else parse_options({})
    found = candidates(card_set, drafts, seed, options)
    play = battles(entity, options, policy, vs_policy or policy)
    ranked = race(found, field, play, games=games, seed=seed)
    best = ranked[0].candidate
    cards_line = "sample"
    if card_set.path != load_cards(None).path:
        where = out.parent if out is not None else Path.cwd()
        relative = Path(os.path.relpath(card_set.path, where.resolve()))
        if ".." in relative.parts:
            raise UsageError(
                f"the card file {card_set.path} is outside --out's folder",
                hint="write the team next to its card file (a team names its card file "
                "relative to its own folder)",
            )
        cards_line = relative.as_posix()
    text = best.text("Built team", cards_line, entity)

    def row(c: Any) -> dict[str, Any]:
        return {
            "cards": [x.name for x in c.cards],
            "levels": c.levels,
            "draft": c.draft,
            "drafters": list(c.drafters),
            "seat": "first" if c.seat == 0 else "second",
        }

    doc: dict[str, Any] = {
        "game": "animus",
        "seed": seed,
        "policy": policy,
        "vs_policy": vs_policy or policy,
        "rules": options.as_dict(),
        "card_file": str(card_set.path),
        "entity": entity.name if entity is not None else None,
        "field": [t.name for t in field],
        "drafts": drafts,
        "candidates": [row(c) for c in found[:20]],
        "race": [{**row(r.candidate), "games": r.games, "score": round(r.rate, 4)} for r in ranked],
        "confirmation": (
            confirm(best, field, play, games=confirm_games, seed=seed) if confirm_games else None
        ),
        "best": {**row(best), "team_file": text},
        "notices": _notices(field),
    }
    if out is not None:
        data = text.encode()

        def fill(handle: Any) -> None:
            handle.write(data)

        write_atomic(out, fill, force=force)
        doc["out"] = str(out)
    if output is opt.Format.JSON:
        emit(doc, game="animus")
        return
    console = stdout_console(min_width=72, soft_wrap=True)
    b = doc["best"]
    console.print(
        f"[bold]Best drafted team[/] ({b['levels']} levels; draft {b['draft']}, "
        f"{escape(b['drafters'][0])} first, {escape(b['drafters'][1])} second, the {b['seat']} "
        f"seat) of {len(found)} candidates against {escape(', '.join(doc['field']))}:"
    )
    for name in b["cards"]:
        console.print(f"  {escape(name)}", highlight=False)
    c = doc["confirmation"]
    if c:
        lo, hi = c["win"]["ci"] or (0.0, 0.0)
        console.print(
            f"confirmed on {c['games']:,} fresh battles (seed {c['seed']}): wins "
            f"{100 * c['win']['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]",
            highlight=False,
        )
    for notice in doc["notices"]:
        console.print(f"notice: {escape(notice)}", highlight=False)
    if out is not None:
        console.print(f"written to {escape(str(out))}", highlight=False)
