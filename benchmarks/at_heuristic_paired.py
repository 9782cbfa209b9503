"""Anima Tactics: this tree's heuristic against an older one, paired on the same seeded games.

Run: ``python benchmarks/at_heuristic_paired.py [--base REV] [--games N] [--seed S]
[--plan P] [--opponent base|new] [--party PATH ...]``

The older heuristic is ``deckkit/animatactics/engine/players.py`` as of git revision ``--base``
(default ``main``), loaded beside this tree's (the rest of the engine is this tree's, so only
the players' module may differ). For every ordered pair of the parties (default: the three legal
sample parties), the first party is the side measured: game ``i`` of the seed is played once
with the measured side on this tree's heuristic and once on the base's, the other side on
``--opponent``'s heuristic (default ``base``) both times. Both games draw their dice from (seed,
``i``) (:func:`.playing.play_game`), so only the measured side's choices differ; the per-game
difference of its scores (win 1, draw 1/2, loss 0) has its mean printed in points with a
Student-t 95% interval, as the player ladder does (:mod:`deckkit.animatactics.analysis.ladder`).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from deckkit.animatactics.analysis.ladder import DECKS, _score, _side
from deckkit.animatactics.engine import playing
from deckkit.animatactics.engine.players import make_policy
from deckkit.animatactics.engine.skirmish import Policy, Side
from deckkit.core.estimates import mean_estimate

REPO = Path(__file__).resolve().parent.parent
PLAYERS = "deckkit/animatactics/engine/players.py"
BASE = "heuristic-base"
DEFAULT_PARTIES = ("at-unaligned.party", "at-samael-darkness.party", "at-empire-light.party")


def load_base(rev: str) -> ModuleType:
    """The players' module as of ``rev``, imported under a name of its own."""
    text = subprocess.run(["git", "show", f"{rev}:{PLAYERS}"], cwd=REPO, check=True,
                          capture_output=True, text=True).stdout  # fmt: skip
    name = "deckkit.animatactics.engine._base_players"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(text, f"{rev}:{PLAYERS}", "exec"), module.__dict__)
    return module


def install(base: ModuleType) -> None:
    """Let :func:`.playing.play_game` name the base heuristic ``heuristic-base``."""

    def make(name: str) -> Policy:
        old: Policy = base.Heuristic()
        return old if name == BASE else make_policy(name)

    setattr(playing, "make_policy", make)  # noqa: B010 (the name is not exported)


def paired(
    measured: Side, other: Side, opponent: str, games: int, seed: int
) -> dict[str, float | list[float] | None]:
    """The measured side on this tree's heuristic minus on the base's, over games 0..N-1."""
    other = replace(other, policy=opponent)
    total = sq = base_total = 0
    changed = [0, 0]
    for i in range(games):
        mine = _score(playing.play_game((replace(measured, policy="heuristic"), other), seed,
                                        i).winner, 0)  # fmt: skip
        ref = _score(playing.play_game((replace(measured, policy=BASE), other), seed, i).winner, 0)
        total += mine - ref
        sq += (mine - ref) ** 2
        base_total += ref
        if mine != ref:
            changed[mine < ref] += 1
    est = mean_estimate(games, total, sq)
    assert est.mean is not None
    return {
        "score": (base_total + total) / (2 * games),
        "base_score": base_total / (2 * games),
        "gap_points": 100 * est.mean / 2,
        "ci95_points": [100 * est.ci[0] / 2, 100 * est.ci[1] / 2] if est.ci else None,
        "games_better": changed[0],
        "games_worse": changed[1],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="git revision of the older heuristic")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plan", default="guarded")
    ap.add_argument("--opponent", choices=("base", "new"), default="base")
    ap.add_argument("--party", type=Path, action="append", default=None)
    args = ap.parse_args()
    install(load_base(args.base))
    paths = args.party or [DECKS / p for p in DEFAULT_PARTIES]
    sides = {p: _side(p, args.plan) for p in paths}
    opponent = BASE if args.opponent == "base" else "heuristic"
    for a in paths:
        for b in paths:
            if a == b:
                continue
            row = paired(sides[a], sides[b], opponent, args.games, args.seed)
            print(json.dumps({"measured": a.name, "against": b.name, **row}), flush=True)


if __name__ == "__main__":
    main()
