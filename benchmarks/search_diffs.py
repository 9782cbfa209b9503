"""Where the search player leaves the heuristic player's choice, and what its rollouts say it gains.

Run: ``.venv/bin/python benchmarks/search_diffs.py DECK [--games N] [--seed S] [--workers W]
[--out FILE.jsonl]``

Plays games ``0..N-1`` of the seed with the search player (default rollouts) and, for every
decision it weighs, records the kind, the heuristic's choice (the first candidate), the search's
pick, each candidate's mean rollout value and the situation (turn, the party, the disaster, where
a move plan goes: the haven, staying put, the goal's distance, risk and face-down disasters). It
prints the decisions weighed and changed by kind and by situation, each with the summed gain the
rollouts saw (pick's mean value - heuristic's), and writes each changed decision (every one
with ``--all``) as a JSON line to ``--out`` for a closer look. The search player's own random
numbers come from the game's seed, so the games are those ``deckkit simulate --policy search``
plays.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.animayhem.construction.carddb import load_card_db  # noqa: E402
from deckkit.animayhem.construction.deck import read_deck  # noqa: E402
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition  # noqa: E402
from deckkit.animayhem.engine.play import GameOptions, GameSetup, play_game, prepare_game  # noqa: E402
from deckkit.animayhem.engine.policy import HeuristicPolicy, _danger  # noqa: E402
from deckkit.animayhem.engine.queries import HAVEN  # noqa: E402
from deckkit.animayhem.engine.rollout import play_out  # noqa: E402
from deckkit.animayhem.engine.search import SearchPolicy  # noqa: E402
from deckkit.animayhem.engine.state import DEF, DMG, Char, Dis, Game  # noqa: E402

KINDS = {
    "moves": "moves",
    "attack": "attack",
    "scavenge": "scavenge",
    "charmers": "charm",
    "charm_action": "charm_action",
    "retreat": "retreat",
    "combat_flash": "flash",
}


class _Recorder:
    """The simulator handed to the search player: plays out as ``play_out`` and keeps each
    candidate's values, in the order the search asks (every candidate of one sample in turn)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, float]] = []

    def __call__(self, game: Game, policy: Any, resume: str, turns: int) -> float:
        choice = policy.choice
        v = play_out(game, policy, resume, turns)
        self.calls.append((choice, v))
        return v


def _means(calls: list[tuple[Any, float]]) -> list[tuple[Any, float]]:
    order: list[Any] = []
    sums: dict[str, list[float]] = {}
    for choice, v in calls:
        key = repr(choice)
        if key not in sums:
            order.append(choice)
            sums[key] = []
        sums[key].append(v)
    return [(c, sum(sums[repr(c)]) / len(sums[repr(c)])) for c in order]


def _party(chars: list[Char]) -> dict[str, Any]:
    return {
        "n": len(chars),
        "health": sum(c.health for c in chars),
        "health_max": sum(c.health_max for c in chars),
        "carrying": sum(len(c.items) for c in chars),
        "hurt": sum(1 for c in chars if c.health < c.health_max),
        "dmg": sum(c.cur[DMG] for c in chars),
    }


def _plan(game: Game, plan: Any) -> dict[str, Any]:
    """A move plan as (party uids, route) pairs, summed up."""
    if not plan:
        return {"type": "stay"}
    danger = _danger(game)
    ends = []
    for uids, route in plan:
        end = route[-1] if route else None
        if end == HAVEN:
            ends.append({"n": len(uids), "to": "haven", "steps": len(route)})
        elif end is not None:
            loc = game.locs[end]
            ends.append({
                "n": len(uids), "to": end, "steps": len(route), "risk": danger.get(end, 0),
                "facedown": len(loc.hidden_disasters), "items": len(loc.hidden_cards),
                "disasters_here": sum(1 for d in game.disasters if d.pos >= 0
                                      and game.field.path[d.pos] == end),
                # Face-up disasters whose next movement passes or ends there, and the fewest
                # steps from there to one.
                "passing": sum(1 for d in game.disasters if d.pos >= 0 and end in
                               game.field.path[d.pos + 1:d.pos + 1 + max(d.movement, 0)]),
                "near": min((game.dist[end][game.field.path[d.pos]] for d in game.disasters
                             if d.pos >= 0), default=-1),
            })  # fmt: skip
    kinds = sorted({"haven" if e["to"] == "haven" else "field" for e in ends})
    return {"type": "+".join(kinds) or "stay", "ends": ends}


def _dis(game: Game, d: Dis) -> dict[str, Any]:
    return {"name": d.name, "major": d.major, "combat": d.combat, "carrying": len(d.carrying),
            "health": d.health, "health_max": d.health_max, "damage": d.damage,
            "defense": d.defense}  # fmt: skip


class Logger(HeuristicPolicy):
    """The search player as a delegate (the compiled one admits no Python subclass), noting each
    decision it weighs."""

    def __init__(self) -> None:
        super().__init__()
        self.rec = _Recorder()
        self.search = SearchPolicy(self.rec)
        self.rows: list[dict[str, Any]] = []

    def _ask(self, method: str, game: Game, ctx: Callable[[], dict[str, Any]], *args: Any) -> Any:
        self.rec.calls = []
        before = dict(self.search.changed)
        pre = ctx()  # the situation before the choice is played
        out = getattr(self.search, method)(*args)
        if not self.rec.calls:
            return out
        means = _means(self.rec.calls)
        kind = KINDS[method]
        changed = self.search.changed.get(kind, 0) > before.get(kind, 0)
        if kind == "retreat" and not changed:
            changed = self.search.changed.get("retreat", 0) > before.get("retreat", 0)
        pick = max(range(len(means)), key=lambda i: means[i][1]) if changed else 0
        row = {
            "kind": kind, "turn": game.turn, "changed": changed,
            "heur": means[0][0], "pick": means[pick][0],
            "values": [m for _, m in means], "gain": means[pick][1] - means[0][1],
            "items_player": game.items_player(tally=True),
            "items_disasters": game.items_disasters(tally=True),
            "in_play": game.tally_in_play(), **pre,
        }  # fmt: skip
        if kind == "moves":
            row["heur_plan"] = _plan(game, means[0][0])
            row["pick_plan"] = _plan(game, means[pick][0])
            row["plans"] = [_plan(game, m) for m, _ in means]  # every candidate, in order
        self.rows.append(row)
        return out

    def moves(self, game: Game, edition: Any) -> Any:
        ctx = lambda: {  # noqa: E731
            "party": _party(game.on_field()), "haven": len(game.in_haven()),
            "bonked": sum(1 for c in game.chars if c.zone == "bonked"),
            "in_hand": sum(1 for c in game.chars if c.zone == "hand"),
            "dis_field": sum(1 for d in game.disasters if d.pos >= 0),
        }  # fmt: skip
        return self._ask("moves", game, ctx, game, edition)

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        ctx = lambda: {"party": _party(chars), "dis": _dis(game, d)}  # noqa: E731
        return bool(self._ask("attack", game, ctx, game, d, chars))

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        loc = game.locs[slot]
        ctx = lambda: {"party": _party(party), "facedown": len(loc.hidden_disasters),  # noqa: E731
                       "items": len(loc.hidden_cards), "health": sum(c.health for c in party),
                       "home_dist": game.dist[slot][game.field.haven_slot],
                       "on_field": len(game.on_field()), "haven": len(game.in_haven()),
                       "dis_field": sum(1 for d in game.disasters if d.pos >= 0),
                       "phase_turn_moved": game.phase}  # fmt: skip
        return bool(self._ask("scavenge", game, ctx, game, party, slot))

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> Any:
        ctx = lambda: {"party": _party(options), "dis": _dis(game, d)}  # noqa: E731
        return self._ask("charmers", game, ctx, game, d, options, automatic)

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> Any:
        ctx = lambda: {"dis": _dis(game, d)}  # noqa: E731
        return self._ask("charm_action", game, ctx, game, d, c, options)

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        def ctx() -> dict[str, Any]:
            hit = d.damage
            ko = sum(1 for c in chars if hit - c.cur[DEF] >= c.health)
            return {
                "party": _party(chars),
                "dis": _dis(game, d),
                "round": rnd,
                "ko_next": ko,
                "slot": chars[0].slot if chars else -1,
                "home_dist": game.dist[chars[0].slot][game.field.haven_slot] if chars else -1,
            }

        return bool(self._ask("retreat", game, ctx, game, d, chars, rnd))

    def retreat_to(self, game: Game, chars: list[Char], slot: int) -> int:
        return self.search.retreat_to(game, chars, slot)

    def combat_flash(self, game: Game, fighters: list[Char], target: Char, sd: int, sf: int) -> Any:
        ctx = lambda: {"party": _party(fighters)}  # noqa: E731
        return self._ask("combat_flash", game, ctx, game, fighters, target, sd, sf)


_SETUP: GameSetup | None = None


def _init(deck: str) -> None:
    global _SETUP
    cards = read_deck(Path(deck), load_card_db())
    _SETUP = prepare_game(cards, load_edition(cards.edition or DEFAULT_EDITION), GameOptions())


def _game(job: tuple[int, int]) -> tuple[int, bool, list[dict[str, Any]]]:
    seed, index = job
    assert _SETUP is not None
    player = Logger()
    won = play_game(_SETUP, player, seed, index).outcome == "win"
    return index, won, player.rows


def _label(r: dict[str, Any]) -> str:
    """A decision's situation, coarse enough to count."""
    k = r["kind"]
    if k == "moves":
        h, p = r["heur_plan"], r["pick_plan"]
        return f"moves {h['type']} -> {p['type']} carrying={min(r['party']['carrying'], 1)}"
    if k == "retreat":
        d = r["dis"]
        stay = r["heur"] == -2
        full = d["health"] >= d["health_max"]
        return (f"retreat heur={'stay' if stay else 'retreat'} "
                f"pick={'stay' if r['pick'] == -2 else 'go'} major={d['major']} "
                f"dis_carry={min(d['carrying'], 1)} we_carry={min(r['party']['carrying'], 1)} "
                f"full={full} ko_next={min(r['ko_next'], 1)}")  # fmt: skip
    if k == "scavenge":
        return (
            f"scavenge heur={r['heur']} facedown={min(r['facedown'], 2)} "
            f"items={min(r['items'], 1)} n={r['party']['n']}"
        )
    if k == "attack":
        return f"attack heur={r['heur']} major={r['dis']['major']}"
    return str(k)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--all", action="store_true", help="write every decision weighed")
    args = parser.parse_args()
    jobs = [(args.seed, i) for i in range(args.first, args.first + args.games)]
    rows: list[dict[str, Any]] = []
    wins = 0
    with ProcessPoolExecutor(args.workers, initializer=_init, initargs=(args.deck,)) as pool:
        for index, won, got in pool.map(_game, jobs):
            wins += won
            for r in got:
                r["game"], r["won"] = index, won
            rows += got
    weighed: dict[str, int] = defaultdict(int)
    changed: dict[str, int] = defaultdict(int)
    gain: dict[str, float] = defaultdict(float)
    for r in rows:
        weighed[r["kind"]] += 1
        if r["changed"]:
            lab = _label(r)
            changed[r["kind"]] += 1
            changed[lab] += 1
            gain[r["kind"]] += r["gain"]
            gain[lab] += r["gain"]
    print(f"{Path(args.deck).stem}: {args.games} games, seed {args.seed}, search won {wins}")
    for k in sorted(weighed):
        print(f"  {k:12s} weighed {weighed[k]:5d} changed {changed[k]:4d} gain {gain[k]:6.2f}")
    print("  by situation (changed, summed gain):")
    for lab in sorted((x for x in changed if x not in weighed), key=lambda x: -gain[x]):
        print(f"    {changed[lab]:4d} {gain[lab]:6.2f}  {lab}")
    if args.out:
        with args.out.open("w") as f:
            for r in rows:
                if r["changed"] or args.all:
                    f.write(json.dumps(r, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
