"""Ani-Mayhem's chance: the shared seeded chance of every game (:mod:`deckkit.core.chance`),
under the name the engine's modules import it by."""

from __future__ import annotations

from deckkit.core.chance import Chance, ScriptedChance, SeededChance, game_seed, sampling_seed

__all__ = ["Chance", "ScriptedChance", "SeededChance", "game_seed", "sampling_seed"]
