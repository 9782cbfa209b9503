"""A stand-in game engine for the analysis-layer tests.

It has the shape the runner expects of the real engine (a picklable factory, called once per
process, returning ``play(seed, index) -> GameRecord``) and draws every choice from
``SeededChance.for_game(seed, index)``, so it is deterministic in ``(seed, index)`` exactly as the
engine must be. It lives only in tests: nothing in ``deckkit`` imports it.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deckkit.analysis.runner import PlayFn
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.record import CardStat, GameRecord, Outcome

FAKE_DISASTERS = ("am900", "am901")
FAKE_CHARACTERS = ("am100", "am101")
FAKE_LOCATIONS = ("am500",)


@dataclass(frozen=True)
class FakeEngine:
    """Factory of the fake engine.

    ``prepare_log``: a file each ``__call__`` (one per process) appends its pid to, so tests can
    check the per-worker setup runs once. ``fail_at``: a game index whose play raises.
    ``interrupt_at``: a game index whose play raises KeyboardInterrupt (a Ctrl-C landing there).
    ``delay``: seconds of sleep per game, for tests that need a run to still be going.
    The card ids are those the fake counts events for.
    """

    disasters: tuple[str, ...] = FAKE_DISASTERS
    characters: tuple[str, ...] = FAKE_CHARACTERS
    locations: tuple[str, ...] = FAKE_LOCATIONS
    win_weight: int = 4
    loss_weight: int = 4
    stall_weight: int = 2
    prepare_log: str | None = None
    fail_at: int | None = None
    interrupt_at: int | None = None
    delay: float = 0.0

    def __call__(self) -> PlayFn:
        if self.prepare_log is not None:
            with Path(self.prepare_log).open("a") as log:
                log.write(f"{os.getpid()}\n")
        return partial(fake_play, self)


def fake_play(engine: FakeEngine, seed: int, index: int) -> GameRecord:
    """One fake game: outcome, turns, items and per-card counters all drawn from the game's
    own stream."""
    if engine.fail_at == index:
        raise ValueError(f"fake engine failure at game {index}")
    if engine.interrupt_at == index:
        raise KeyboardInterrupt
    if engine.delay:
        time.sleep(engine.delay)
    chance = SeededChance.for_game(seed, index)
    outcomes: list[Outcome] = (
        ["win"] * engine.win_weight
        + ["loss"] * engine.loss_weight
        + ["stall"] * engine.stall_weight
    )
    outcome = chance.pick(outcomes)
    turns = 150 if outcome == "stall" else 5 + chance.below(60)
    in_play = 6 + chance.below(6)
    retrieved = chance.below(in_play + 1)
    lost = chance.below(in_play - retrieved + 1)
    record = GameRecord(
        index=index,
        outcome=outcome,
        turns=turns,
        items_in_play=in_play,
        items_retrieved=retrieved,
        items_lost=lost,
        end_reason={"win": "items retrieved", "loss": "party killed", "stall": "turn cap"}[outcome],
    )
    for card in engine.disasters:
        met = chance.below(4)
        if met:
            record.bump(card, CardStat.MET, met)
            record.bump(card, CardStat.DEFEATED, chance.below(met + 1))
            record.bump(card, CardStat.BONKED, chance.below(3))
    for card in engine.characters:
        record.bump(card, CardStat.COMBATS, chance.below(5))
        record.bump(card, CardStat.ITEMS_RETRIEVED, chance.below(2))
    for card in engine.locations:
        attempts = chance.below(5)
        record.bump(card, CardStat.SCAVENGE_ATTEMPTS, attempts)
        record.bump(card, CardStat.SCAVENGE_SUCCESSES, chance.below(attempts + 1))
    return record


class Dice(random.Random):
    """Loaded dice for the Anima Tactics rules tests: each ``randint`` gives the next of the
    given results, in order (and fails when asked for more); ``rolled`` counts the rolls."""

    def __init__(self, rolls: Sequence[int]) -> None:
        super().__init__(0)
        self.rolls = list(rolls)
        self.rolled = 0

    def randint(self, a: int, b: int) -> int:
        self.rolled += 1
        return self.rolls.pop(0)
