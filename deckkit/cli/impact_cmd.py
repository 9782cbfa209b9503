"""`deckkit impact`: what each card is worth to its deck, as the change in win rate when one
copy is taken out, measured on paired games (see :mod:`deckkit.analysis.impact`); plus the
observational view (win rate when the card took part vs not), labelled correlational.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import typer

from deckkit.analysis import impact as im
from deckkit.analysis.results import tally_of_frame
from deckkit.analysis.runner import capped_workers
from deckkit.analysis.summary import card_catalog, summarize
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import AnyCard
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.legality import check_deck
from deckkit.cli import options as opt
from deckkit.cli import simulate_cmd as sim
from deckkit.cli.console import echo, percent
from deckkit.cli.jsonout import emit
from deckkit.cli.solitaire import SolitaireGame, explain_illegal
from deckkit.cli.steps import Steps
from deckkit.errors import EXIT_ILLEGAL, UsageError
from deckkit.report.model import observational

Format = opt.Format


def _find_in_deck(deck: Deck, name: str) -> AnyCard:
    """A card of the deck by name (or id, or "Name #33"), as a deck file would name it."""
    matches = {c.id: c for c in load_card_db().lookup(name)}
    held = [e.card for e in deck.entries if e.card.id in matches]
    if not held:
        raise UsageError(f"{name!r} is not in the deck", path=deck.path)
    return held[0]


def cards_to_measure(deck: Deck, names: list[str]) -> list[AnyCard]:
    """The named cards of the deck, or every distinct card in it."""
    if names:
        return [_find_in_deck(deck, n) for n in names]
    return list({e.card.id: e.card for e in deck.entries}.values())


def _find_card(name: str) -> AnyCard:
    found = load_card_db().lookup(name)
    if not found:
        db = load_card_db()
        raise UsageError(
            f"no card named {name!r}", hint=f"did you mean: {', '.join(db.suggest(name))}"
        )
    if len(found) > 1:
        raise UsageError(
            f"{name!r} names several cards", hint="add the card number: 'Goku #33', or use its id"
        )
    return found[0]


MIN_GAMES_PER_CARD = 100  # a card measured on fewer paired games tells little


def measure(
    game: SolitaireGame,
    args: sim.SimulateArgs,
    cards: list[AnyCard],
    *,
    replacement: AnyCard | None,
    remove: bool,
    target_error: float | None,
    hooks: sim.EngineHooks,
    steps: Steps | None = None,
    budget: int | None = None,
) -> tuple[list[im.CardImpact], im.WinSource]:
    """Every card's paired estimate against the deck itself; returns them and the deck's own
    games (for the observational view). With a ``budget`` (games of the changed decks, all
    cards together) the cards are measured in the order given until it is spent: a card gets
    at most what is left, and none once fewer than :data:`MIN_GAMES_PER_CARD` are."""
    workers = capped_workers(args.workers)

    def source(deck: Deck) -> im.WinSource:
        factory = hooks.factory(deck, game.edition, game.layout, args.turn_cap, args.policy)
        return im.wins_by_index(factory, seed=args.seed, workers=workers)

    def legal(deck: Deck) -> bool:
        return check_deck(deck, game.edition, game.variant, game.players).legal

    catalogue = load_card_db().cards
    base = source(game.deck)
    out: list[im.CardImpact] = []
    left = budget
    for card in cards:
        if left is not None and left < MIN_GAMES_PER_CARD:
            break
        most = args.games if left is None else min(args.games, left)
        if remove:
            swap, how = None, "removed"
        elif replacement is not None:
            swap, how = replacement, f"replaced by {replacement.name} (named)"
        else:
            swap = im.neutral_replacement(game.deck, card, catalogue, legal)
            how = (
                f"replaced by {swap.name} (the most neutral {card.type} that keeps the deck legal)"
                if swap is not None
                else "removed (no card of its type keeps the deck legal)"
            )
        what_if = im.with_one_copy_changed(game.deck, card, swap)
        with steps.step(card.name) if steps is not None else nullcontext():
            result = im.estimate(base, source(what_if), games=most, target_error=target_error)
        out.append(im.CardImpact(card, swap, how, legal(what_if), result))
        if left is not None:
            left -= result.n
    return out, base


def print_text(doc: dict[str, Any]) -> None:
    say = echo
    say(f"{doc['deck']}: win rate change when one copy of a card is taken out (paired games)")
    for c in doc["impact"]["cards"]:
        lo, hi = c["ci"]
        flag = "" if c["legal_after"] else " [deck not legal after]"
        say(
            f"  {c['card']}: {percent(c['difference'], True)} "
            f"(95% CI {percent(lo, True)} to {percent(hi, True)}, {c['games']:,} games) "
            f"{c['change']}{flag}"
        )
    say("")
    say("observational (correlational, not causal): win rate when the card took part vs not")
    for o in doc["observational"]:
        say(
            f"  {o['card']} ({o['when']}): {percent(o['win_rate_active'])} in {o['games_active']:,}"
            f" games vs {percent(o['win_rate_idle'])} in {o['games_idle']:,}"
        )
    say("")
    say(f"method: {doc['impact']['method']}")


def check_target_error(value: float | None, flag: str) -> None:
    """A half-width to stop at: a number strictly between 0 and 1 (``nan`` is not one)."""
    if value is not None and not 0 < value < 1:  # false for nan too
        raise UsageError(f"{flag} must be between 0 and 1, not {value}", hint=f"e.g. {flag} 0.02")


def register(app: typer.Typer) -> None:
    """Add `impact` to the top-level command."""

    @app.command("impact")
    def impact_command(
        deck: opt.DeckArg,
        card_names: list[str] = typer.Option(
            [], "--card", "-c", help="A card to measure (repeat); default every card."
        ),
        replace_with: str | None = typer.Option(
            None, "--replace-with", help="Replace by this card instead of the most neutral one."
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
        games: sim.GamesOption = 2_000,
        seed: sim.SeedOption = 0,
        workers: sim.WorkersOption = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: sim.PolicyOption = opt.Policy.HEURISTIC,
        edition: sim.EditionOption = None,
        variant: sim.VariantOption = None,
        layout: sim.LayoutOption = None,
        turn_cap: sim.TurnCapOption = opt.TURN_CAP,
        fmt: opt.FormatOpt = opt.Format.TEXT,
        allow_illegal: sim.AllowIllegalOption = False,
        rule: sim.RuleOption = None,
        quiet: opt.QuietOpt = False,
    ) -> None:
        """What each card of DECK is worth: the change in win rate, with a 95% interval, when
        one copy is replaced by a neutral card (or removed), on paired games."""
        if remove and replace_with is not None:
            raise UsageError("give --remove or --replace-with, not both")
        check_target_error(target_error, "--target-error")
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
        game = sim.resolve_game(args, hooks, "impact")
        if not game.report.legal:
            explain_illegal(game.report)
            if not allow_illegal:
                echo("refusing to measure; pass --allow-illegal to measure anyway", err=True)
                raise typer.Exit(EXIT_ILLEGAL)
        cards = cards_to_measure(game.deck, card_names)
        replacement = _find_card(replace_with) if replace_with is not None else None
        with Steps("impact", len(cards), quiet=quiet) as steps:
            impacts, base = measure(
                game,
                args,
                cards,
                replacement=replacement,
                remove=remove,
                target_error=target_error,
                hooks=hooks,
                steps=steps,
            )
        rows = base.rows()
        summary = summarize(tally_of_frame(rows), card_catalog(game.deck))
        doc = {
            "deck": game.deck.name,
            "deck_path": str(deck),
            "seed": seed,
            "policy": policy,
            "edition": game.edition.name,
            "rules": game.rules,
            "impact": im.impact_document(impacts, games, target_error),
            "observational": observational(rows, summary),
            "observational_note": "correlational: games where the card took part against "
            "games where it did not; not what the card causes",
        }
        if fmt is Format.JSON:
            emit(doc)
        else:
            print_text(doc)
