"""Which characters are over- or under-costed for what they do in combat?

Fit each character's level cost against its combat strength (its mean duel value against the
whole roster, from :mod:`.matrix`) by least squares (``scipy.stats.linregress``), then rank the
characters by how far their real cost sits from the cost the fit predicts for their strength.
Each gets the fit's 95% prediction interval: a cost outside it is more than the roster's own
scatter explains. Positive residual = pays more levels than its duelling earns (over-costed);
negative = under-costed. Duels play the characters' attacks (Attack, Ranged Attack and Charge
special abilities, Critical Mastery, Damage Resistance, Initiative) but leave out powers, effect
specials, states, equipment and movement, so a character whose worth lies there will look
over-costed: the study says how each fights, not what each is worth in a full game.

Left out of the fit: the dual-character card's two profiles (their level cost is for the pair).

Scored with ``time_limit=draw``, whatever the run's rule options (:data:`STUDY_TIME_LIMIT`):
under the default ``time_limit=levels`` ("the player with the most levels on the table at the
end of 10 turns is the winner", rulebook "Winning") a duel still standing after turn 10 goes to
the character worth more levels, so a strength measured that way would contain the very cost it
is regressed against (circular). :func:`cost_study` replays a matrix played under any other
``time_limit`` with that one changed; every other option stays the run's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from deckkit.animatactics.analysis.matrix import Matrix
from deckkit.animatactics.analysis.readings import rules_dict
from deckkit.animatactics.engine.options import DRAW, RuleSet

CONFIDENCE = 0.95
STUDY_TIME_LIMIT = DRAW
SCORING = (
    "duels scored with time_limit=draw whatever rule options the run sets: under time_limit=levels "
    "a duel still standing after turn 10 goes to the character worth more levels, so duel "
    "strength would contain the level cost it is regressed against (circular)"
)


def study_rules(rules: RuleSet) -> RuleSet:
    """The rule options the cost study's duels are played under: ``rules`` with
    ``time_limit=draw`` (see the module's text)."""
    return replace(rules, time_limit=STUDY_TIME_LIMIT)


def study_matrix(matrix: Matrix) -> Matrix:
    """``matrix`` when its duels were scored with ``time_limit=draw``, else the same roster's
    matrix computed again under :func:`study_rules` (the same cells, samples and seed)."""
    from deckkit.animatactics.analysis.matrix import compute_matrix

    if matrix.rules.time_limit == STUDY_TIME_LIMIT:
        return matrix
    return compute_matrix(
        matrix.entrants, max_cells=matrix.max_cells, samples=matrix.samples, seed=matrix.seed,
        rules=study_rules(matrix.rules),
    )  # fmt: skip


@dataclass(frozen=True)
class CostPoint:
    name: str
    strength: float
    levels: int
    predicted: float
    residual: float
    interval: tuple[float, float]  # 95% prediction interval of the cost at this strength

    @property
    def outside(self) -> bool:
        return not self.interval[0] <= self.levels <= self.interval[1]


@dataclass(frozen=True)
class CostStudy:
    slope: float
    slope_ci: tuple[float, float]
    intercept: float
    r_squared: float
    p_value: float
    residual_sd: float
    points: list[CostPoint]
    excluded: list[str]
    rules: RuleSet  # what its duels were played under (time_limit=draw)

    def furthest(self, n: int = 5) -> tuple[list[CostPoint], list[CostPoint]]:
        """(most over-costed, most under-costed), n each."""
        ranked = sorted(self.points, key=lambda p: p.residual)
        return ranked[::-1][:n], ranked[:n]

    def as_dict(self) -> dict[str, Any]:
        over, under = self.furthest()

        def point(p: CostPoint) -> dict[str, Any]:
            return {
                "name": p.name,
                "strength": round(p.strength, 6),
                "levels": p.levels,
                "predicted_levels": round(p.predicted, 3),
                "residual": round(p.residual, 3),
                "interval95": [round(p.interval[0], 3), round(p.interval[1], 3)],
                "outside_interval": p.outside,
            }

        return {
            "fit": "levels = intercept + slope x strength (least squares, scipy.stats.linregress)",
            "slope": self.slope,
            "slope_ci95": list(self.slope_ci),
            "intercept": self.intercept,
            "r_squared": self.r_squared,
            "p_value": self.p_value,
            "residual_sd": self.residual_sd,
            "over_costed": [point(p) for p in over],
            "under_costed": [point(p) for p in under],
            "points": [point(p) for p in self.points],
            "excluded": self.excluded,
            "rules": rules_dict(self.rules),
            "scoring": SCORING,
        }


def cost_study(matrix: Matrix) -> CostStudy:
    """The fit on ``matrix``'s roster, its duels scored with ``time_limit=draw`` (replayed
    so when ``matrix`` was played under ``time_limit=levels``)."""
    from scipy import stats

    matrix = study_matrix(matrix)
    names, xs, ys, excluded = [], [], [], []
    for i, e in enumerate(matrix.entrants):
        if "dual-character" in e.character.notes:
            excluded.append(f"{e.name}: {e.character.notes}")
            continue
        names.append(e.name)
        xs.append(matrix.strength(i))
        ys.append(float(e.levels))
    n = len(xs)
    fit = stats.linregress(xs, ys)
    t = float(stats.t.ppf(0.5 + CONFIDENCE / 2, n - 2))
    mean_x = sum(xs) / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    predicted = [fit.intercept + fit.slope * x for x in xs]
    sse = sum((y - p) ** 2 for y, p in zip(ys, predicted, strict=True))
    s = math.sqrt(sse / (n - 2))
    points = []
    for name, x, y, p in zip(names, xs, ys, predicted, strict=True):
        half = t * s * math.sqrt(1 + 1 / n + (x - mean_x) ** 2 / sxx)
        points.append(CostPoint(name, x, int(y), p, y - p, (float(p - half), float(p + half))))
    return CostStudy(
        slope=float(fit.slope),
        slope_ci=(float(fit.slope - t * fit.stderr), float(fit.slope + t * fit.stderr)),
        intercept=float(fit.intercept),
        r_squared=float(fit.rvalue**2),
        p_value=float(fit.pvalue),
        residual_sd=s,
        points=points,
        excluded=excluded,
        rules=matrix.rules,
    )
