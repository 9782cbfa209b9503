"""Exact chances of a deal, shared by every game's `stats`: the hypergeometric probabilities of
drawing cards from a shuffled pile, in rational arithmetic (never a simulation)."""

from __future__ import annotations

from fractions import Fraction
from math import comb


def none_drawn(population: int, copies: int, drawn: int) -> Fraction:
    """P(no copy among ``drawn`` cards dealt from ``population`` holding ``copies``): the
    hypergeometric probability of zero successes, exactly."""
    drawn = max(0, min(drawn, population))
    if copies <= 0 or drawn == 0:
        return Fraction(1)
    if population - copies < drawn:  # too few other cards to fill the draw
        return Fraction(0)
    return Fraction(comb(population - copies, drawn), comb(population, drawn))


def hypergeom_pmf(population: int, copies: int, drawn: int, k: int) -> Fraction:
    """P(exactly ``k`` copies among ``drawn`` cards): the hypergeometric probability."""
    if k < 0 or k > copies or drawn - k > population - copies or k > drawn:
        return Fraction(0)
    return Fraction(comb(copies, k) * comb(population - copies, drawn - k), comb(population, drawn))
