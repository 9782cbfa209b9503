"""`deckkit sensitivity`: how far each alternative reading of the rules moves a deck's win rate.

The deck plays the same games under the readings in effect (defaults, the deck's ``rule:`` lines
and ``--rule``) and under each alternative value of each rule option, one at a time; every row
is a paired difference with its 95% interval (:mod:`deckkit.analysis.sensitivity`). The same
table is a section of `deckkit report DECK --sensitivity`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import typer

from deckkit.analysis import sensitivity as sens
from deckkit.analysis.runner import GameFactory, capped_workers
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.readings import BY_NAME
from deckkit.cli import options as opt
from deckkit.cli import simulate_cmd as sim
from deckkit.cli.console import echo, percent
from deckkit.cli.jsonout import emit
from deckkit.cli.solitaire import SolitaireGame, explain_illegal
from deckkit.errors import EXIT_ILLEGAL, UsageError

DEFAULT_GAMES = 1_000


def measure(
    game: SolitaireGame,
    args: sim.SimulateArgs,
    hooks: sim.EngineHooks,
    only: Collection[str] | None = None,
) -> dict[str, Any]:
    """The sensitivity table of ``game`` as a document (text, JSON and the report share it);
    ``only``: the rule options to vary (all whose choice the edition leaves open by default)."""

    def factory_for(edition: Edition) -> GameFactory:
        return hooks.factory(game.deck, edition, game.layout, args.turn_cap, args.policy)

    base, effects = sens.measure(
        game.edition,
        game.rules,
        factory_for,
        games=args.games,
        seed=args.seed,
        workers=capped_workers(args.workers),
        only=only,
    )
    doc = sens.sensitivity_document(effects, base, args.games, game.rules)
    return {
        "deck": game.deck.name,
        "deck_path": str(args.deck),
        "seed": args.seed,
        "policy": args.policy,
        "edition": game.edition.name,
        **doc,
    }


def print_text(doc: dict[str, Any]) -> None:
    echo(
        f"{doc['deck']}: win rate under each alternative rule reading, {doc['edition']} rules, "
        f"{doc['policy']} player, seed {doc['seed']}, {doc['games']:,} paired games each"
    )
    echo(
        "as played: "
        + ", ".join(f"{k}={v}" for k, v in doc["rules"].items())
        + f" (win rate {percent(doc['win_rate'])})"
    )
    width = max((len(r["setting"]) for r in doc["readings"]), default=10)
    echo("")
    echo(f"  {'reading':<{width}}  {'win rate':>8}  {'change':>9}  95% interval")
    for r in doc["readings"]:
        lo, hi = r["ci"] if r["ci"] is not None else (None, None)
        echo(
            f"  {r['setting']:<{width}}  {percent(r['win_rate_b']):>8}  "
            f"{percent(r['difference'], True):>9}  {percent(lo, True)} to {percent(hi, True)}"
        )
    echo("")
    echo(f"method: {doc['method']}")
    echo('the readings and their passages: docs/interpretations.md, "Rule options"')


def register(app: typer.Typer) -> None:
    """Add `sensitivity` to the top-level command."""

    @app.command("sensitivity")
    def sensitivity_command(
        deck: opt.DeckArg,
        games: sim.GamesOption = DEFAULT_GAMES,
        seed: sim.SeedOption = 0,
        workers: sim.WorkersOption = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: sim.PolicyOption = opt.Policy.HEURISTIC,
        edition: sim.EditionOption = None,
        variant: sim.VariantOption = None,
        layout: sim.LayoutOption = None,
        turn_cap: sim.TurnCapOption = opt.TURN_CAP,
        rule: sim.RuleOption = None,
        reading: list[str] | None = typer.Option(
            None,
            "--reading",
            metavar="NAME",
            help="Vary only this rule option (repeatable); default: every option whose choice "
            "the edition leaves open.",
        ),
        fmt: opt.FormatOpt = opt.Format.TEXT,
        allow_illegal: sim.AllowIllegalOption = False,
    ) -> None:
        """How far each alternative reading of the rules (each rule option's other values,
        one at a time) moves DECK's win rate: paired games, 95% intervals."""
        for name in reading or ():
            if name not in BY_NAME:
                raise UsageError(
                    f"--reading: unknown rule option {name!r}",
                    hint=f"choose one of: {', '.join(BY_NAME)} (docs/interpretations.md)",
                )
        hooks = sim.ENGINE
        args = sim.SimulateArgs(
            deck=deck,
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
        sim.check_args(args, hooks)
        game = sim.resolve_game(args, hooks, "sensitivity")
        if not game.report.legal:
            explain_illegal(game.report)
            if not allow_illegal:
                echo("refusing to measure; pass --allow-illegal to measure anyway", err=True)
                raise typer.Exit(EXIT_ILLEGAL)
        doc = measure(game, args, hooks, reading or None)
        if fmt is opt.Format.JSON:
            emit(doc)
        else:
            print_text(doc)
