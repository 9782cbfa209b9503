"""Ani-Mayhem's bridge from the runner (:mod:`deckkit.core.workers`, through
:mod:`deckkit.analysis.runner`) to its engine (``animayhem.engine.play`` and ``.policy``).

:class:`EngineGames` is the picklable factory the runner sends to each worker: it carries the
deck, edition, options and policy *name* (a policy object need not be picklable), and in the
worker prepares the game and builds the policy once, then plays
``play_game(setup, policy, seed, index)`` for every index it is handed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.readings import alternatives, apply_rules
from deckkit.animayhem.engine import play
from deckkit.animayhem.engine.field import LAYOUTS as ENGINE_LAYOUTS
from deckkit.animayhem.engine.field import Layout
from deckkit.animayhem.engine.players import PLAYERS, is_player, make_player
from deckkit.animayhem.engine.record import GameRecord
from deckkit.animayhem.engine.state import Trace
from deckkit.core.workers import PlayFn
from deckkit.errors import UsageError

LAYOUTS: tuple[str, ...] = tuple(ENGINE_LAYOUTS)


def policies() -> tuple[str, ...]:
    """The policy names ``make_player`` accepts (and "search:N": a search player's budget)."""
    return PLAYERS


def known_policy(name: str) -> bool:
    """A player's name, or "search:N" (the search player with N rollouts per choice)."""
    return is_player(name)


def check_policy(name: str) -> str:
    """A known policy name, or a usage error listing the choices (exit 2)."""
    if not is_player(name):
        raise UsageError(
            f"unknown policy {name!r}",
            hint=f"choose one of: {', '.join(PLAYERS)} (search:N for N rollouts per choice)",
        )
    return name


def check_layout(name: str) -> str:
    """A known field layout, or a usage error listing the choices (exit 2)."""
    if name not in LAYOUTS:
        raise UsageError(f"unknown layout {name!r}", hint=f"choose one of: {', '.join(LAYOUTS)}")
    return name


def game_options(layout: str, turn_cap: int) -> play.GameOptions:
    """The engine's options; an unknown layout or a turn cap below 1 is a usage error."""
    check_layout(layout)
    if turn_cap < 1:
        raise UsageError(f"the turn cap must be at least 1, not {turn_cap}")
    return play.GameOptions(layout=cast(Layout, layout), turn_cap=turn_cap)


def check_playable(deck: Deck) -> Deck:
    """What every game needs whatever the rules say of the deck, checked before a game is
    played (``--allow-illegal`` plays an illegal deck, not an unplayable one): locations to lay
    out the field ("Field Layouts", every edition's rulebook)."""
    if deck.count(CardType.LOCATION) == 0:
        raise UsageError(
            "the deck has no locations: no game can be played without a field to lay out",
            path=deck.path,
            hint="add at least one location (see `deckkit validate` for what the rules ask)",
        )
    return deck


def not_simulated(deck: Deck) -> list[str]:
    """Names of the deck's cards whose text the engine ignores (printed with every estimate)."""
    return play.not_simulated(deck)


@dataclass(frozen=True)
class EngineGames:
    """Factory of the real engine for :func:`deckkit.analysis.runner.run_games`: picklable, so
    it can be sent to spawned workers; calling it does the once-per-process preparation."""

    deck: Deck
    edition: Edition
    options: play.GameOptions
    policy: str

    def __post_init__(self) -> None:  # in the parent, before any worker starts
        check_playable(self.deck)

    def __call__(self) -> PlayFn:
        setup = play.prepare_game(self.deck, self.edition, self.options)
        policy = make_player(self.policy)
        fn: PlayFn = partial(play.play_game, setup, policy)
        return fn


class AniMayhemEngineRuns:
    """:class:`deckkit.core.game.EngineRuns` for Ani-Mayhem: the policies and layouts a run
    may choose, the picklable factory of its games and the cards played approximately."""

    layouts: tuple[str, ...] = LAYOUTS

    def policies(self) -> tuple[str, ...]:
        return policies()

    def factory(
        self, deck: Deck, edition: Edition, layout: str, turn_cap: int, policy: str
    ) -> EngineGames:
        return EngineGames(deck, edition, game_options(layout, turn_cap), policy)

    def not_simulated(self, deck: Deck) -> list[str]:
        return not_simulated(deck)

    def known_policy(self, name: str) -> bool:
        return known_policy(name)

    def check_policy(self, name: str) -> str:
        return check_policy(name)

    def play_traced(
        self,
        deck: Deck,
        edition: Edition,
        layout: str,
        turn_cap: int,
        policy: str,
        seed: int,
        index: int,
    ) -> tuple[play.GameSetup, GameRecord, Trace]:
        """Game ``index`` of the run seeded ``seed`` with its trace (``deckkit play``): the
        prepared setup, the record and the events."""
        check_playable(deck)
        setup = play.prepare_game(
            deck, edition, play.GameOptions(layout=cast(Layout, layout), turn_cap=turn_cap)
        )
        trace = Trace()
        record = play.play_game(setup, make_player(policy), seed, index, trace=trace)
        return setup, record, trace

    def trace_text(self, trace: Trace) -> str:
        from deckkit.animayhem.traces import render_text

        return render_text(trace)

    def typical_traces(
        self,
        picks: Mapping[str, Mapping[str, Any]],
        deck: Deck,
        edition: Edition,
        *,
        layout: str,
        turn_cap: int,
        policy: str,
        seed: int,
    ) -> dict[str, str]:
        from deckkit.animayhem.traces import typical_traces

        return typical_traces(
            picks, deck, edition, layout=layout, turn_cap=turn_cap, policy=policy, seed=seed
        )

    def with_rules(self, edition: Edition, rules: Mapping[str, str]) -> Edition:
        return apply_rules(edition, rules)

    def alternatives(
        self, edition: Edition, rules: Mapping[str, str], only: Iterable[str] | None = None
    ) -> list[tuple[str, str]]:
        return alternatives(edition, rules, only)


ENGINE_RUNS = AniMayhemEngineRuns()
