"""Ani-Mayhem in the shape every game gives (:class:`deckkit.core.game.Game`): a deck file, its
legality under its edition, the rule readings, the automatic players and one seeded solitaire
game to a :class:`~deckkit.core.game.Record`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import Deck, read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, Edition, load_edition
from deckkit.animayhem.construction.legality import check_deck
from deckkit.animayhem.construction.readings import RULE_OPTIONS, apply_rules, parse_rule
from deckkit.animayhem.construction.standins import stand_ins, with_one_copy_changed
from deckkit.core.game import Legality, PlayFn, Problem, Record, RuleChoice, StandIn
from deckkit.errors import UsageError

# The engine and the tools' terms load on first use: reading and checking a deck (`validate`)
# through this interface plays no game, so it does not load the engine.
if TYPE_CHECKING:
    from deckkit.animayhem.cardruns import AniMayhemCardRuns
    from deckkit.animayhem.deckstats import AniMayhemDeckStats
    from deckkit.animayhem.deckswaps import AniMayhemDeckSwaps
    from deckkit.animayhem.engine.play import GameOptions
    from deckkit.animayhem.engine.policy import Policy
    from deckkit.animayhem.engine.prepared import GameSetup
    from deckkit.animayhem.engine.record import GameRecord
    from deckkit.animayhem.runs import AniMayhemEngineRuns
    from deckkit.animayhem.validation import AniMayhemDeckChecks

DEFAULT_PLAYER = "heuristic"


def _engine_options() -> GameOptions:
    from deckkit.animayhem.engine.play import GameOptions

    return GameOptions()


@dataclass
class Solitaire:
    """A prepared run: the deck under its edition with the chosen readings, and the player's
    name (a player object need not be picklable). The engine's setup and the player are built
    once per process, on first use."""

    deck: Deck
    edition: Edition
    player: str = DEFAULT_PLAYER
    options: GameOptions = field(default_factory=lambda: _engine_options())
    _built: tuple[GameSetup, Policy] | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, object]:
        return {
            "deck": self.deck,
            "edition": self.edition,
            "player": self.player,
            "options": self.options,
            "_built": None,
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)

    def built(self) -> tuple[GameSetup, Policy]:
        if self._built is None:
            from deckkit.animayhem.engine.play import prepare_game
            from deckkit.animayhem.engine.players import make_player

            self._built = (
                prepare_game(self.deck, self.edition, self.options),
                make_player(self.player),
            )
        return self._built

    def __call__(self) -> PlayFn:
        """The factory of a run (:mod:`deckkit.core.workers`): games to the engine's records."""
        return self.play_one

    def play_one(self, seed: int, index: int) -> GameRecord:
        from deckkit.animayhem.engine.play import play_game

        setup, policy = self.built()
        return play_game(setup, policy, seed, index)


class AniMayhem:
    """The solitaire card game (docs/rules, the 1998 guidelines and their editions)."""

    name = "ani-mayhem"
    title = "Ani-Mayhem"
    outcomes: tuple[str, ...] = ("win", "loss", "stall", "undecided")

    @property
    def end_reasons(self) -> Mapping[str, str]:
        from deckkit.animayhem.engine.endgame import END_REASONS

        return END_REASONS

    # What the tools above need beyond the shape every game gives (deckkit.core.game), each
    # reached through deckkit.games and loaded on first use.
    @property
    def card_runs(self) -> AniMayhemCardRuns:
        """Per-card tallies, summaries and saved runs."""
        from deckkit.animayhem.cardruns import CARD_RUNS

        return CARD_RUNS

    @property
    def deck_swaps(self) -> AniMayhemDeckSwaps:
        """Deck tuning's swaps, and a card's numbers changed in memory."""
        from deckkit.animayhem.deckswaps import DECK_SWAPS

        return DECK_SWAPS

    @property
    def engine_runs(self) -> AniMayhemEngineRuns:
        """The API's runs of one deck under its edition."""
        from deckkit.animayhem.runs import ENGINE_RUNS

        return ENGINE_RUNS

    @property
    def deck_stats(self) -> AniMayhemDeckStats:
        """A deck before any game is played (`deckkit stats`)."""
        from deckkit.animayhem.deckstats import DECK_STATS

        return DECK_STATS

    @property
    def deck_checks(self) -> AniMayhemDeckChecks:
        """Deck files read, and `deckkit validate`."""
        from deckkit.animayhem.validation import DECK_CHECKS

        return DECK_CHECKS

    def read(self, path: Path) -> Deck:
        return read_deck(path, load_card_db())

    def entry_name(self, entry: Deck) -> str:
        return entry.name

    def members(self, entry: Deck) -> tuple[str, ...]:
        return tuple(c.name for c in entry.cards())

    def stand_ins(self, entry: Deck, member: str) -> tuple[StandIn, ...]:
        """The deck's stand-in rule (construction.standins): legal cards of the same kind in
        one copy's place, most neutral first."""
        card = next(
            (e.card for e in entry.entries if e.card.name.casefold() == member.casefold()), None
        )
        if card is None:
            raise UsageError(f"{member!r} is not in the deck {entry.name!r}")

        def legal(deck: Deck) -> bool:
            return self.legality(deck).legal

        return tuple(
            StandIn(f"replaced by {c.name}", with_one_copy_changed(entry, card, c))
            for c in stand_ins(entry, card, load_card_db().cards, legal)
        )

    def legality(self, entry: Deck) -> Legality:
        report = check_deck(
            entry, entry.edition or DEFAULT_EDITION, entry.variant or "standard", entry.players or 1
        )
        return Legality(
            report.legal, tuple(Problem(v.rule, v.message, v.fix) for v in report.violations)
        )

    def rule_options(self) -> tuple[RuleChoice, ...]:
        return tuple(RuleChoice(o.name, o.default, o.values, o.summary) for o in RULE_OPTIONS)

    def parse_rule(self, text: str, where: str = "--rule") -> tuple[str, str]:
        return parse_rule(text, where)

    def players(self) -> tuple[str, ...]:
        from deckkit.animayhem.engine.players import PLAYERS

        return (DEFAULT_PLAYER, *(p for p in PLAYERS if p != DEFAULT_PLAYER))

    def prepare(
        self,
        entries: Sequence[Deck],
        *,
        player: str | None = None,
        rules: Mapping[str, str] | None = None,
    ) -> Solitaire:
        if len(entries) != 1:
            raise UsageError("an Ani-Mayhem game is played by one deck (solitaire)")
        from deckkit.animayhem.engine.players import PLAYERS, is_player

        deck = entries[0]
        chosen = player or DEFAULT_PLAYER
        if not is_player(chosen):
            raise UsageError(
                f"unknown policy {chosen!r}", hint=f"choose one of: {', '.join(PLAYERS)}"
            )
        edition = load_edition(deck.edition or DEFAULT_EDITION)
        return Solitaire(deck, apply_rules(edition, {**dict(deck.rules), **(rules or {})}), chosen)

    def play(self, setup: Solitaire, seed: int, index: int, *, trace: bool = False) -> Record:
        from deckkit.animayhem.engine.endgame import end_reason_code
        from deckkit.animayhem.engine.play import play_game
        from deckkit.animayhem.engine.state import Trace

        built, policy = setup.built()
        events = Trace() if trace else None
        record = play_game(built, policy, seed, index, events)
        return Record(
            index=record.index,
            outcome=record.outcome,
            end_reason=end_reason_code(record.end_reason),
            turns=record.turns,
            counters={(card, str(stat)): n for (card, stat), n in record.counters.items() if n},
            trace=None if events is None else tuple(str(e["text"]) for e in events.events),
        )


GAME = AniMayhem()
