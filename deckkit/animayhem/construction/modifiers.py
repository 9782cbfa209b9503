"""The abilities a card prints and the modifiers its text applies to them (set0 rulebook,
"Enhancement"): shared by the card model (:mod:`.cards`) and the effect vocabulary
(:mod:`.vocabulary`), below both in the import graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Ability = Literal["damage", "defense", "movement", "charm", "energy"]
ABILITIES: tuple[Ability, ...] = ("damage", "defense", "movement", "charm", "energy")
# What a card effect may modify: the five abilities and a character's health (King Yemma's Fruit
# doubles it, Tail Steak adds 1).
Stat = Ability | Literal["health"]
STATS: tuple[Stat, ...] = (*ABILITIES, "health")


@dataclass(frozen=True, slots=True)
class Modifier:
    """A printed ability modifier (set0 rulebook, "Enhancement": a sign modifies, a bare number
    replaces). ``-2`` is stored as ``op="+", value=-2``."""

    op: Literal["+", "x", "/", "="]
    value: int

    def apply(self, current: int) -> int:
        if self.op == "+":
            return current + self.value
        if self.op == "x":
            return current * self.value
        if self.op == "/":
            return current // self.value
        return self.value

    def __str__(self) -> str:
        if self.op == "+":
            return f"{self.value:+d}"
        if self.op == "=":
            return f"={self.value}"
        return f"{self.op}{self.value}"

    @classmethod
    def parse(cls, text: str) -> Modifier:
        """Read ``+2``, ``-1``, ``x2``, ``/3``, ``=0`` or a bare ``3`` (a replacement)."""
        t = text.strip().replace("×", "x")
        if not t:
            raise ValueError("empty modifier")
        if t[0] in "+-":
            mod = cls("+", int(t))
        elif t[0] in "xX*":
            mod = cls("x", int(t[1:]))
        elif t[0] == "/":
            mod = cls("/", int(t[1:]))
        elif t[0] == "=":
            mod = cls("=", int(t[1:]))
        else:
            mod = cls("=", int(t))
        if abs(mod.value) > 99:
            raise ValueError(f"{text!r} is out of range (at most 99)")
        if mod.op in "x/" and mod.value < 1:
            raise ValueError(f"{text!r} multiplies or divides by less than 1")
        return mod
