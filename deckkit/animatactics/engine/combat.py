"""One attack, resolved exactly: the distribution of damage a single attack deals.

Rules (anima-tactics-rulebook.txt, "COMBAT", "Hand-to-hand Combat"):

- "Attacking and hitting an enemy character": the attacker rolls a d10 and adds its Attack; the
  attack hits when the sum is equal to or greater than the defender's Defense; the amount by
  which it exceeds the Defense is the Level of Success. "A result of 10 on an attack roll is
  automatically a success, even if the Defense value is still higher" (Level of Success 0 then).
- "Defending and Counterattacks": a defender who Dodges or Counterattacks rolls a d10 and adds
  it to its Defense, declared before the attacker rolls.
- "Calculating Damage": damage = Damage + Level of Success - Armor, never below 0 (the
  defender "loses" that many Life Points).
- "Charge" adds +2 to the attack roll; the Counterattack's own attack applies -2 (rulebook,
  "Basic abilities").

Everything here is exact: probabilities are :class:`fractions.Fraction`, no sampling.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

DIE = range(1, 11)  # a ten-sided die
NATURAL_SUCCESS = 10
CHARGE_BONUS = 2  # "Charge": "adding +2 to the roll"
COUNTER_PENALTY = -2  # "Counterattack": "applying -2 to his roll"


@dataclass(frozen=True)
class Fighter:
    """The four numbers an attack reads (a character's printed base values)."""

    attack: int
    damage: int
    defense: int
    armor: int


@dataclass(frozen=True)
class Blow:
    """One resolved attack roll: did it hit, its Level of Success and the Life Points lost."""

    hit: bool
    level_of_success: int
    damage: int


def resolve(
    attacker: Fighter, defender: Fighter, attack_roll: int, defense_roll: int | None, mod: int = 0
) -> Blow:
    """One attack with the dice already rolled (``defense_roll`` None: no defensive action)."""
    total = attacker.attack + attack_roll + mod
    defense = defender.defense + (defense_roll or 0)
    hit = total >= defense or attack_roll == NATURAL_SUCCESS
    if not hit:
        return Blow(False, 0, 0)
    success = max(total - defense, 0)
    return Blow(True, success, max(attacker.damage + success - defender.armor, 0))


def _outcomes(defends: bool) -> Iterator[tuple[int, int | None, Fraction]]:
    weight = Fraction(1, 100 if defends else 10)
    for a in DIE:
        for d in DIE if defends else (None,):
            yield a, d, weight


@dataclass(frozen=True)
class AttackOdds:
    """The exact distribution of one attack: P(miss) and P(hit dealing k Life Points)."""

    miss: Fraction
    damage: dict[int, Fraction]  # hits only, by Life Points lost (0 when Armor absorbs all)

    @property
    def hit(self) -> Fraction:
        return 1 - self.miss

    def expected_damage(self) -> Fraction:
        return sum((k * p for k, p in self.damage.items()), Fraction(0))

    def as_dict(self) -> dict[str, object]:
        return {
            "p_miss": float(self.miss),
            "p_hit": float(self.hit),
            "expected_damage": float(self.expected_damage()),
            "damage": {str(k): float(p) for k, p in sorted(self.damage.items())},
            "exact": {
                "p_miss": str(self.miss),
                "damage": {str(k): str(p) for k, p in sorted(self.damage.items())},
            },
        }


def attack_odds(attacker: Fighter, defender: Fighter, *, defends: bool, mod: int = 0) -> AttackOdds:
    """Every roll of one attack (and the defender's d10 when it Dodges or Counterattacks)."""
    miss = Fraction(0)
    damage: dict[int, Fraction] = {}
    for a, d, p in _outcomes(defends):
        blow = resolve(attacker, defender, a, d, mod)
        if blow.hit:
            damage[blow.damage] = damage.get(blow.damage, Fraction(0)) + p
        else:
            miss += p
    return AttackOdds(miss, damage)


def expected_attacks_to_defeat(odds: AttackOdds, life: int) -> Fraction | None:
    """The exact expected number of such attacks until the defender's Life Points reach 0
    (rulebook, "Damage and Death"); None when an attack can never deal damage."""
    p_nothing = odds.miss + odds.damage.get(0, Fraction(0))
    if p_nothing == 1:
        return None
    expected: list[Fraction] = [Fraction(0)] * (life + 1)  # expected[l]: l Life Points left
    for left in range(1, life + 1):
        rest = sum(
            (p * expected[max(left - k, 0)] for k, p in odds.damage.items() if k > 0), Fraction(0)
        )
        expected[left] = (1 + rest) / (1 - p_nothing)
    return expected[life]
