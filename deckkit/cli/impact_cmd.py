"""`deckkit impact`: what each card is worth to its deck, as the change in win rate when one
copy is taken out, measured on paired games (see :mod:`deckkit.analysis.impact`); plus the
observational view (win rate when the card took part vs not), labelled correlational.
"""

from __future__ import annotations

from typing import Any

import typer

from deckkit.api.card_impact import cards_to_measure, check_target_error, impact_of
from deckkit.api.solitaire import prepare
from deckkit.cli import options as opt
from deckkit.cli.console import echo, percent
from deckkit.cli.jsonout import emit
from deckkit.cli.runsetup import refuse_illegal, run_options
from deckkit.cli.steps import Steps
from deckkit.errors import UsageError

Format = opt.Format


def print_text(doc: dict[str, Any]) -> None:
    say = echo
    imp = doc["impact"]
    say(f"{doc['deck']}: win rate change when one copy of a card is taken out (paired games)")
    say(f"replacement level: {imp['replacement_level_text']}")
    measured, total = imp["cards_measured"], imp["cards_in_deck"]
    say(f"{measured} of {total} distinct cards measured" if total else f"{measured} measured")
    for c in imp["cards"]:
        lo, hi = c["ci"]
        flag = "" if c["legal_after"] else " [deck not legal after]"
        mark = "" if c["supported"] else " [not supported]"
        change = "" if c["stand_ins"] else f" {c['change']}"
        say(
            f"  {c['card']}: {percent(c['difference'], True)} "
            f"(95% CI {percent(lo, True)} to {percent(hi, True)}, {c['games']:,} games)"
            f"{mark}{change}{flag}"
        )
        if c["stand_ins"]:
            s_lo, s_hi = c["spread"]
            say(
                f"    spread over {len(c['stand_ins'])} stand-ins {percent(s_lo, True)} to "
                f"{percent(s_hi, True)}; median: {c['replacement']}"
            )
            for si in c["stand_ins"]:
                a, b = si["ci"]
                say(
                    f"      {si['card']}: {percent(si['difference'], True)} "
                    f"({percent(a, True)} to {percent(b, True)}, {si['games']:,} games)"
                )
    say(f"supported: {imp['supported_means']}")
    say("")
    say("observational (correlational, not causal): win rate when the card took part vs not")
    for o in doc["observational"]:
        say(
            f"  {o['card']} ({o['when']}): {percent(o['win_rate_active'])} in {o['games_active']:,}"
            f" games vs {percent(o['win_rate_idle'])} in {o['games_idle']:,}"
        )
    say("")
    say(f"method: {imp['method']}")


def register(app: typer.Typer) -> None:
    """Add `impact` to the top-level command."""

    @app.command("impact")
    def impact_command(
        ctx: typer.Context,
        deck: opt.DeckArg,
        card_names: list[str] = typer.Option(
            [], "--card", "-c", help="A card to measure (repeat); default every card."
        ),
        replace_with: str | None = typer.Option(
            None,
            "--replace-with",
            help="Replace by this one card instead of the median of legal stand-ins.",
        ),
        remove: bool = typer.Option(
            False, "--remove", help="Remove the copy instead of replacing it."
        ),
        target_error: float | None = typer.Option(
            None,
            "--target-error",
            help="Stop a card's estimate once its 95% interval's half-width is at most this "
            "(e.g. 0.02 = 2 points); --games is then the most games per card.",
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
        fmt: opt.FormatOpt = opt.Format.TEXT,
        allow_illegal: opt.AllowIllegalOpt = False,
        rule: opt.RuleOpt = None,
        quiet: opt.QuietOpt = False,
    ) -> None:
        """What each card of DECK is worth: the change in win rate, with a 95% interval, when
        one copy is replaced (by default the median over several legal stand-ins of its kind,
        each named, with their spread; or --replace-with one card) or removed, on paired
        games."""
        if remove and replace_with is not None:
            raise UsageError("give --remove or --replace-with, not both")
        check_target_error(target_error, "--target-error")
        options = run_options(ctx)
        game = prepare(deck, options, command="impact")
        refuse_illegal(
            game.report,
            allow=allow_illegal,
            refusal="refusing to measure; pass --allow-illegal to measure anyway",
        )
        count = len(cards_to_measure(game.deck, card_names))
        with Steps("impact", count, quiet=quiet) as steps:
            doc = impact_of(
                game,
                options,
                cards=card_names,
                replace_with=replace_with,
                remove=remove,
                target_error=target_error,
                step=steps.step,
            ).as_dict()
        if fmt is Format.JSON:
            emit(doc)
        else:
            print_text(doc)
