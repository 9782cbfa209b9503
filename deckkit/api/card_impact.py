"""Card impact: what each card is worth to its deck, as the change in win rate when one copy is
taken out, on paired games (:mod:`deckkit.analysis.impact`); plus the observational view (win
rate when the card took part vs not), labelled correlational."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckkit.analysis import impact as im
from deckkit.analysis.paired import PairedDifference
from deckkit.analysis.results import tally_of_frame
from deckkit.analysis.runner import ProgressFn, shared_pool
from deckkit.analysis.summary import card_catalog, summarize
from deckkit.api.display import Shown, Table, frame, interval, pct, pts
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of, renamed
from deckkit.api.solitaire import DeckSource, SolitaireGame, prepare, require_legal
from deckkit.errors import UsageError
from deckkit.games import deck_checks, deck_swaps

if TYPE_CHECKING:
    import polars as pl

# A game's deck and card, its own types (Ani-Mayhem's Deck and cards), passed back to the
# game's interface; a card is read only for its id and name.
Deck = Any
AnyCard = Any

MIN_GAMES_PER_CARD = 100  # a card measured on fewer paired games tells little
DEFAULT_GAMES = 2_000

# One step of a measurement (a card): ``with step(name) as progress:`` where ``progress``
# reports the games played within the step (the CLI's bar); none by default.
StepFn = Callable[[str], AbstractContextManager[ProgressFn | None]]


def find_in_deck(deck: Deck, name: str) -> AnyCard:
    """A card of the deck by name (or id, or "Name #33"), as a deck file would name it."""
    return deck_swaps().find_in_deck(deck, name)


def cards_to_measure(deck: Deck, names: Sequence[str]) -> list[AnyCard]:
    """The named cards of the deck, or every distinct card in it."""
    if names:
        return [find_in_deck(deck, n) for n in names]
    return list({card.id: card for card, _ in deck_swaps().entries(deck)}.values())


def find_card(name: str) -> AnyCard:
    """One card of the database by name, id or "Name #33" (a replacement need not be in the
    deck)."""
    return deck_swaps().find_card(name)


def check_target_error(value: float | None, flag: str) -> None:
    """A half-width to stop at: a number strictly between 0 and 1 (``nan`` is not one)."""
    if value is not None and not 0 < value < 1:  # false for nan too
        raise UsageError(f"{flag} must be between 0 and 1, not {value}", hint=f"e.g. {flag} 0.02")


def measure(
    game: SolitaireGame,
    options: RunOptions,
    cards: list[AnyCard],
    *,
    replacement: AnyCard | None,
    remove: bool,
    target_error: float | None,
    hooks: EngineHooks = ENGINE,
    step: StepFn | None = None,
    budget: int | None = None,
) -> tuple[list[im.CardImpact], im.WinSource]:
    """Every card's paired estimate against the deck itself; returns them and the deck's own
    games (for the observational view). The replacement level is ``replacement`` (one named
    card), removal (``remove``), or by default the median over the card's stand-ins
    (the game's :meth:`~deckkit.core.game.DeckSwaps.stand_in_cards`, each measured on the same
    games). With a ``budget`` (games of the changed decks, all cards and stand-ins together)
    the cards are measured in the order given until it is spent: a card gets at most what is
    left, shared among its stand-ins, and none once fewer than :data:`MIN_GAMES_PER_CARD` a
    stand-in are."""
    runner = options.runner_kwargs()

    def source(deck: Deck) -> im.WinSource:
        factory = hooks.factory(deck, game.edition, game.layout, options.turn_cap, options.policy)
        return im.wins_by_index(factory, seed=options.seed, **runner)

    checks, swaps = deck_checks(), deck_swaps()

    def legal(deck: Deck) -> bool:
        verdict: bool = checks.check(deck, game.edition, game.variant, game.players).legal
        return verdict

    base = source(game.deck)
    out: list[im.CardImpact] = []
    left = budget
    # One pool of workers for the deck and every changed deck (each plays in batches).
    with shared_pool(runner["workers"]):
        for card in cards:
            if left is not None and left < MIN_GAMES_PER_CARD:
                break
            if remove or replacement is not None:
                swap = None if remove else replacement
                how, level = (
                    ("removed", im.LEVEL_REMOVAL)
                    if swap is None
                    else (f"replaced by {swap.name} (named)", im.LEVEL_NAMED)
                )
                most = options.games if left is None else min(options.games, left)
                what_if = swaps.changed(game.deck, card, swap)
                with step(card.name) if step is not None else nullcontext():
                    result = im.estimate(
                        base, source(what_if), games=most, target_error=target_error
                    )
                out.append(im.CardImpact(card, swap, how, legal(what_if), result, level))
                if left is not None:
                    left -= result.n
                continue
            stands = swaps.stand_in_cards(game.deck, card, legal)
            if not stands:
                what_if = swaps.changed(game.deck, card, None)
                most = options.games if left is None else min(options.games, left)
                with step(card.name) if step is not None else nullcontext():
                    result = im.estimate(
                        base, source(what_if), games=most, target_error=target_error
                    )
                how = "removed (no card of its kind keeps the deck legal)"
                out.append(im.CardImpact(card, None, how, legal(what_if), result, im.LEVEL_REMOVAL))
                if left is not None:
                    left -= result.n
                continue
            if left is not None and left < MIN_GAMES_PER_CARD * len(stands):
                break
            measured: list[tuple[AnyCard, PairedDifference]] = []
            with step(card.name) if step is not None else nullcontext():
                for stand in stands:
                    most = options.games
                    if left is not None:
                        most = min(most, left // (len(stands) - len(measured)))
                    what_if = swaps.changed(game.deck, card, stand)
                    result = im.estimate(
                        base, source(what_if), games=most, target_error=target_error
                    )
                    measured.append((stand, result))
                    if left is not None:
                        left -= result.n
            median, median_result = measured[im.median_stand_in(measured)]
            how = (
                f"median of {len(measured)} stand-ins ("
                + ", ".join(f"{c.name} {100 * (r.difference or 0.0):+.1f} pp" for c, r in measured)
                + f"): {median.name}"
            )
            what_if = swaps.changed(game.deck, card, median)
            out.append(
                im.CardImpact(
                    card,
                    median,
                    how,
                    legal(what_if),
                    median_result,
                    im.LEVEL_STAND_INS,
                    tuple(measured),
                )
            )
    return out, base


@dataclass(frozen=True, repr=False)
class ImpactResult(Shown):
    """Each card's paired estimate (``impacts``, best first as in the document) and the
    document `deckkit impact --format json` prints (``as_dict()``). Printed, it is a short
    summary (a table in a notebook); ``to_frame()`` gives one row per card."""

    game: SolitaireGame
    impacts: list[im.CardImpact]
    document: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return self.document

    def to_frame(self) -> pl.DataFrame:
        """One row per card measured, in the document's order: the change made, the win rates
        with and without it, the paired ``difference`` with ``ci_low``/``ci_high`` and
        ``p_value``."""
        return frame(self.document["impact"]["cards"])

    def _title(self) -> str:
        doc = self.document
        return (
            f"{doc['deck']}, {len(doc['impact']['cards'])} card(s), at most "
            f"{doc['impact']['max_games']:,} paired games each, seed {doc['seed']}"
        )

    def _table(self) -> Table:
        rows = [
            [
                c["card"],
                c["replacement"] or "(removed)",
                f"{c['games']:,}",
                pct(c["win_rate_with"]),
                pts(c["difference"]),
                interval(c["ci"], signed=True),
            ]
            for c in self.document["impact"]["cards"]
        ]
        return ["card", "one copy replaced by", "games", "win rate", "without it", "95% CI"], rows

    def _notes(self) -> list[str]:
        return [".to_frame(): one row per card; .as_dict(): the command's JSON"]


def impact_of(
    game: SolitaireGame,
    options: RunOptions,
    *,
    cards: Sequence[str] = (),
    replace_with: str | None = None,
    remove: bool = False,
    target_error: float | None = None,
    hooks: EngineHooks = ENGINE,
    step: StepFn | None = None,
) -> ImpactResult:
    """Card impact of a prepared deck (see :func:`impact`)."""
    from deckkit.report.model import observational

    if remove and replace_with is not None:
        raise UsageError("give --remove or --replace-with, not both")
    check_target_error(target_error, "--target-error")
    chosen = cards_to_measure(game.deck, cards)
    replacement = find_card(replace_with) if replace_with is not None else None
    impacts, base = measure(
        game,
        options,
        chosen,
        replacement=replacement,
        remove=remove,
        target_error=target_error,
        hooks=hooks,
        step=step,
    )
    rows = base.rows()
    summary = summarize(tally_of_frame(rows), card_catalog(game.deck))
    doc = {
        "deck": game.deck.name,
        "deck_path": str(game.source) if game.source is not None else None,
        "seed": options.seed,
        "policy": options.policy,
        "edition": game.edition.name,
        "rules": game.rules,
        "impact": im.impact_document(
            impacts,
            options.games,
            target_error,
            level=(
                im.LEVEL_REMOVAL
                if remove
                else im.LEVEL_NAMED
                if replacement is not None
                else im.LEVEL_STAND_INS
            ),
            replacement=replacement,
            cards_in_deck=len(cards_to_measure(game.deck, ())),
            stand_ins=deck_swaps().stand_ins_per_card,
        ),
        "observational": observational(rows, summary),
        "observational_note": "correlational: games where the card took part against "
        "games where it did not; not what the card causes",
    }
    return ImpactResult(game, impacts, doc)


def impact(
    deck: DeckSource,
    options: RunOptions | None = None,
    *,
    card: Sequence[str] = (),
    replace_with: str | None = None,
    remove: bool = False,
    target_error: float | None = None,
    allow_illegal: bool = False,
    **changes: Any,
) -> ImpactResult:
    """What each card of ``deck`` (or each named in ``card``, as ``--card``) is worth: the
    change in win rate, with a 95% interval, when one copy is replaced by the most neutral
    card that keeps the deck legal (or ``replace_with``, or removed), on paired games: game
    ``i`` of both decks draws from the same random stream, so the difference is measured, not
    two noises subtracted.
    ``options.games`` is the most games per card (default here 2,000, as the command)."""
    card = renamed(changes, "cards", "card", card, ())
    if isinstance(card, str):
        card = (card,)
    if options is None:
        changes.setdefault("games", DEFAULT_GAMES)
    opts = options_of(options, changes)
    game = prepare(deck, opts, command="impact")
    require_legal(game, "measure", allow_illegal=allow_illegal)
    return impact_of(
        game,
        opts,
        cards=card,
        replace_with=replace_with,
        remove=remove,
        target_error=target_error,
    )
