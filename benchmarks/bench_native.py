"""The native prototype's benchmark: one plain combat in pure Python, mypyc and Rust (PyO3).

Run: ``.venv/bin/python benchmarks/bench_native.py [--games N] [--repeat R] [--build]``

1. Records the combats of ``--games`` demo-deck games played by the pure-Python engine with the
   heuristic player: for each call of ``engine.combat.fight`` whose combat no card text touches
   (native/combat_kernel.py says what that means), the integer inputs of native/combat_kernel.py,
   the random floats the engine drew during the combat, and the engine's outcome.
2. Checks that the Python kernel, its mypyc build and the Rust build give the engine's outcome on
   every recorded combat (result, rounds fought, floats used, who was bonked or killed, the combat
   piles afterwards); any difference stops the run.
3. Times one call per combat, CPU time: the Python kernel, the same file compiled with mypyc,
   Rust through PyO3 (its lists converted both ways, the piles written back), and Rust on the
   whole batch in one call (the work alone; the difference is the price of crossing into Rust).
4. Times ``fight`` itself inside whole pure-Python games: its share of a game's CPU time, and its
   time per call, for the Amdahl estimate.

``--build`` (or a missing build) compiles native/combat_kernel.py with mypyc into native/build/
and the crate in native/ with ``cargo build --release`` (offline, Debian's packaged crates: see
native/README.md). The figures are written to build/bench-native.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
NATIVE = REPO / "native"
BUILD = NATIVE / "build"
DEMO = REPO / "decks" / "demo-solo.deck"
JSON_OUT = REPO / "build" / "bench-native.json"

Combat = tuple[list[int], list[int], list[int], list[int], int, list[int], list[int], list[float]]
RESULTS = {"defeated": 0, "wiped": 1, "retreat": 2, "none": 3}
KILLS = {"negative_health": 0, "double_health": 1, "triple_damage": 2}
OPS = {"+": 1, "x": 2, "/": 3, "=": 4}


def build() -> None:
    """The mypyc build of the kernel and the Rust extension, into native/build/."""
    BUILD.mkdir(exist_ok=True)
    script = (
        "from mypyc.build import mypycify\n"
        "from setuptools import setup\n"
        "setup(name='combat-kernel', ext_modules=mypycify(['combat_kernel.py'], opt_level='3'),"
        " script_args=['build_ext', '--build-lib', 'build/mypyc', '--build-temp', 'build/tmp',"
        " '-q'])\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=NATIVE, check=True)
    env = dict(os.environ, PYO3_PYTHON=sys.executable)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=NATIVE, env=env, check=True)
    shutil.copy(NATIVE / "target" / "release" / "libdeckkit_native.so", BUILD / "deckkit_native.so")


def load_kernels() -> dict[str, ModuleType]:
    """The three builds of the kernel, each under its own module name."""
    spec = importlib.util.spec_from_file_location("combat_kernel_py", NATIVE / "combat_kernel.py")
    assert spec is not None and spec.loader is not None
    python = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(python)
    sys.path.insert(0, str(BUILD / "mypyc"))
    sys.path.insert(0, str(BUILD))
    import combat_kernel  # the mypyc build
    import deckkit_native  # type: ignore[import-not-found]  # the Rust build

    if not str(getattr(combat_kernel, "__file__", "")).endswith(".so"):
        raise SystemExit("native/build/mypyc holds no compiled kernel: run with --build")
    return {"python": python, "mypyc": combat_kernel, "rust": deckkit_native}


def record(games: int) -> tuple[list[int], list[Combat], list[list[Any]], dict[str, int]]:
    """Play demo games on the pure-Python engine and record every plain combat."""
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.cards import CombatCard, Modifier, Trait
    from deckkit.animayhem.construction.deck import read_deck
    from deckkit.animayhem.construction.editions import load_edition
    from deckkit.animayhem.engine import COMPILED, combat, hooks, movement, phases, scavenge
    from deckkit.animayhem.engine.interpreter.vehicles_and_forms import (
        vehicle_first as real_vehicle_first,
    )
    from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
    from deckkit.animayhem.engine.policy import HeuristicPolicy, make_policy
    from deckkit.animayhem.engine.queries import ally_bonus, horde_bonus
    from deckkit.animayhem.engine.state import DEF, DMG

    assert not COMPILED, "recording patches the pure-Python engine (DECKKIT_PURE=1)"
    deck = read_deck(DEMO, load_card_db())
    setup = prepare_game(deck, load_edition(deck.edition or "guidelines1998"), GameOptions())
    havens = {c.id for c in setup.havens}
    codes: dict[str, int] = {}
    table: list[int] = []

    def mod(m: Modifier | None) -> list[int]:
        return [0, 0] if m is None else [OPS[m.op], m.value]

    def code(card: Any) -> int:
        if card.id not in codes:
            assert isinstance(card, CombatCard)
            h = card.physical
            codes[card.id] = len(codes)
            table.extend(mod(h.damage) + mod(h.defense) + mod(h.opp_damage))
            table.extend([*mod(h.opp_defense), int(h.extra_draw)])
        return codes[card.id]

    combats: list[Combat] = []
    outcomes: list[list[Any]] = []
    seen = {"combats": 0, "plain": 0, "flash": 0}
    real_fight = combat.fight
    rounds = [0]
    retreats: list[int] = []
    real_retreat = HeuristicPolicy.retreat
    flashed = [False]
    real_flash = HeuristicPolicy.combat_flash
    real_finisher = HeuristicPolicy.finisher

    def logging_flash(self: Any, *a: Any) -> Any:
        plays = real_flash(self, *a)
        flashed[0] = flashed[0] or bool(plays)
        return plays

    def logging_finisher(self: Any, *a: Any) -> Any:
        play = real_finisher(self, *a)
        flashed[0] = flashed[0] or play is not None
        return play

    def counting_vehicle_first(game: Any, pool: Any) -> Any:
        rounds[0] += 1  # called once in every round that is fought
        return real_vehicle_first(game, pool)

    def logging_retreat(self: Any, game: Any, d: Any, chars: Any, rnd: int) -> bool:
        decided = real_retreat(self, game, d, chars, rnd)
        if decided and not retreats:
            retreats.append(rnd)
        return decided

    def plain(game: Any, policy: Any, d: Any, slot: int, initiator: str) -> bool:
        if not isinstance(policy, HeuristicPolicy) or d.fx is not None or d.charm > 0:
            return False
        if d.ignores or d.zone != "field" or any(a.ally_of is d for a in game.disasters):
            return False
        if initiator == "disaster" and d.incapacitated_turn == game.turn:
            return False
        if not set(game.fx) <= havens or game.globals_in_play:
            return False  # the only card text in play is a haven's, outside combat
        chars = game.at(slot)
        if not chars:
            return False
        for c in chars:
            if c.pinned or getattr(c.card, "vehicle", False):
                return False
            if any(x.card.energy_cost for x in c.enhancements):
                return False
            if any(x.card.energy_cost for x in c.equipment):
                return False
            for x in c.equipment:
                abilities = [a for a, _ in x.card.modifiers]
                if len(set(abilities)) != len(abilities):
                    return False
        return True

    def recording_fight(game: Any, edition: Any, policy: Any, d: Any, slot: int, who: str) -> str:
        seen["combats"] += 1
        if not plain(game, policy, d, slot, who):
            return real_fight(game, edition, policy, d, slot, who)
        play = edition.play
        chars = [c for c in game.at(slot) if c.uid not in d.ignores]
        cap = 4 if d.major else 3
        cap = min(cap, play.max_party or cap)
        hb = horde_bonus(game, d)
        ad, af = ally_bonus(game, d)
        frenzy = Trait.FRENZY in d.card.traits
        incap = int(d.incapacitated_turn == game.turn)
        rules = [KILLS[play.kill], int(play.combat_cards == "per_attacker"),
                 play.stalemate_rounds, cap]  # fmt: skip
        dis = [d.damage + hb + ad, d.defense + hb + af, d.health_max, int(frenzy), incap]
        flat: list[int] = []
        equip: list[int] = []
        held: list[Any] = []
        for i, c in enumerate(chars):
            flat += [c.cur[DMG], c.cur[DEF], c.health, c.health_max, int(bool(c.items))]
            for x in c.equipment:
                if x.uses_left is not None and x.card.modifiers:
                    mods = dict(x.card.modifiers)
                    equip += [i, x.uses_left, x.card.uses, *mod(mods.get("damage"))]
                    equip += mod(mods.get("defense"))
                    held.append(x)
        pile = [code(x.card) for x in game.combat_pile]
        discard = [code(x.card) for x in game.combat_discard]
        us: list[float] = []
        real_random = game.chance._random

        def drawn() -> float:
            u: float = real_random()
            us.append(u)
            return u

        game.chance._random = drawn
        rounds[0] = 0
        retreats.clear()
        flashed[0] = False
        try:
            result = real_fight(game, edition, policy, d, slot, who)
        finally:
            game.chance._random = real_random
        if flashed[0]:
            seen["flash"] += 1  # the player played a flash effect: outside the kernel
            return result
        seen["plain"] += 1
        states = [2 if c.zone == "discard" else 1 if c.zone == "bonked" else 0 for c in chars]
        rr = retreats[0] if retreats else 0
        combats.append((rules, dis, flat, equip, rr, pile, discard, us))
        outcomes.append([
            [RESULTS[result], rounds[0], len(us), *states, *(x.uses_left for x in held)],
            [code(x.card) for x in game.combat_pile],
            [code(x.card) for x in game.combat_discard],
        ])  # fmt: skip
        return result

    patches: list[tuple[Any, str, Any]] = [
        (m, "fight", recording_fight) for m in (movement, phases, scavenge, hooks)
    ]
    patches += [
        (combat, "vehicle_first", counting_vehicle_first),
        (HeuristicPolicy, "retreat", logging_retreat),
        (HeuristicPolicy, "combat_flash", logging_flash),
        (HeuristicPolicy, "finisher", logging_finisher),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    for owner, name, new in patches:
        setattr(owner, name, new)
    try:
        policy = make_policy("heuristic")
        for i in range(games):
            play_game(setup, policy, 0, i)
    finally:
        for owner, name, old in saved:
            setattr(owner, name, old)
    return table, combats, outcomes, seen


def check(kernels: dict[str, ModuleType], table: list[int], combats: list[Combat],
          outcomes: list[list[Any]]) -> None:  # fmt: skip
    """Every build gives the engine's outcome on every recorded combat, or the run stops."""
    for name, kernel in kernels.items():
        for i, (rules, dis, chars, equip, rr, pile, discard, us) in enumerate(combats):
            p, d = list(pile), list(discard)
            out = kernel.resolve(rules, dis, chars, equip, rr, table, p, d, us)
            got = [[out[0], out[1], out[2], *out[4:]], p, d]
            if got != outcomes[i]:
                raise SystemExit(
                    f"{name} kernel differs from the engine on combat {i}:\n"
                    f"inputs {combats[i]}\nengine {outcomes[i]}\nkernel {got}"
                )


def per_call(resolve: Callable[..., Any], table: list[int] | None, combats: list[Combat],
             repeat: int) -> float:  # fmt: skip
    """CPU nanoseconds per call of ``resolve``, fresh pile copies made outside the timing;
    ``table`` None: the card table is held by the callee (deckkit_native.Cards)."""
    spent = 0.0
    for _ in range(repeat):
        args: list[tuple[Any, ...]]
        if table is None:
            args = [(r, d, c, e, rr, list(p), list(x), u) for r, d, c, e, rr, p, x, u in combats]
        else:
            args = [(r, d, c, e, rr, table, list(p), list(x), u)
                    for r, d, c, e, rr, p, x, u in combats]  # fmt: skip
        t = time.process_time_ns()
        for a in args:
            resolve(*a)
        spent += time.process_time_ns() - t
    return spent / (repeat * len(combats))


def fight_share(games: int) -> dict[str, float]:
    """fight's share of whole pure-Python games and its CPU time per call (a fresh process)."""
    child = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import load_edition
from deckkit.animayhem.engine import COMPILED, hooks, movement, phases, scavenge, combat
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.policy import make_policy
assert not COMPILED
deck = read_deck(Path(sys.argv[2]), load_card_db())
setup = prepare_game(deck, load_edition(deck.edition), GameOptions())
policy = make_policy("heuristic")
real = combat.fight; inside = [0.0, 0]
def timed(*a):
    t = time.process_time(); inside[1] += 1
    try:
        return real(*a)
    finally:
        inside[0] += time.process_time() - t
for m in (movement, phases, scavenge, hooks):
    m.fight = timed
t = time.process_time()
for i in range(int(sys.argv[3])):
    play_game(setup, policy, 0, i)
total = time.process_time() - t
print(total, inside[0], inside[1])
"""
    env = dict(os.environ, DECKKIT_PURE="1")
    out = subprocess.run([sys.executable, "-c", child, str(REPO), str(DEMO), str(games)],
                         capture_output=True, text=True, env=env, check=True, cwd="/")  # fmt: skip
    total, inside, calls = out.stdout.split()
    return {"game_cpu_s": float(total), "fight_cpu_s": float(inside), "fight_calls": int(calls),
            "share": float(inside) / float(total),
            "fight_ns_per_call": float(inside) * 1e9 / int(calls)}  # fmt: skip


PERF_CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import load_edition
from deckkit.animayhem.engine import COMPILED
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.policy import make_policy
assert COMPILED, "run `make fast` first"
deck = read_deck(Path(sys.argv[2]), load_card_db())
setup = prepare_game(deck, load_edition(deck.edition), GameOptions())
policy = make_policy("heuristic")
passes = 0
t = time.process_time()
while time.process_time() - t < float(sys.argv[4]):  # the same games until enough samples
    for i in range(int(sys.argv[3])):
        play_game(setup, policy, 0, i)
    passes += 1
print(time.process_time() - t, time.process_time(), passes)
"""


def compiled_share(games: int, least: float) -> dict[str, float] | None:
    """fight's inclusive share of compiled games, from perf's call graphs (mypyc's calls between
    engine modules are C calls no Python wrapper can time); None without a usable perf."""
    if shutil.which("perf") is None:
        return None
    data = REPO / "build" / "perf-fight.data"
    env = {k: v for k, v in os.environ.items() if k != "DECKKIT_PURE"}
    run = subprocess.run(
        ["perf", "record", "-q", "-F", "499", "--call-graph", "dwarf,16384", "-o", str(data),
         sys.executable, "-c", PERF_CHILD, str(REPO), str(DEMO), str(games), str(least)],
        capture_output=True, text=True, env=env, cwd="/", check=False,
    )  # fmt: skip
    if run.returncode != 0:
        return None
    loop, process, passes = (float(x) for x in run.stdout.split()[-3:])
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--children", "--stdio", "--no-demangle",
         "--sort", "symbol", "-g", "none"], capture_output=True, text=True, check=False,
    ).stdout  # fmt: skip
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+[\d.]+%\s+\[\.\]\s+CPyDef_combat___fight\s", line)
        if m:
            children = float(m.group(1))
            return {"loop_cpu_s": loop, "process_cpu_s": process, "passes": passes,
                    "share": children / 100 * process / loop}  # fmt: skip
    return None


def amdahl(share: float, speedup: float) -> float:
    return 1 / ((1 - share) + share / speedup)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300, help="demo games to record (default 300)")
    p.add_argument("--repeat", type=int, default=5, help="timed passes over them (default 5)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds (default 3)")
    p.add_argument("--perf-cpu", type=float, default=2.0,
                   help="CPU seconds of compiled games profiled with perf (default 2)")  # fmt: skip
    p.add_argument("--build", action="store_true", help="rebuild the mypyc and Rust kernels")
    args = p.parse_args(argv)
    if args.build or not (BUILD / "deckkit_native.so").exists():
        build()
    os.environ["DECKKIT_PURE"] = "1"
    sys.path.insert(0, str(REPO))
    kernels = load_kernels()
    table, combats, outcomes, seen = record(args.games)
    check(kernels, table, combats, outcomes)
    print(f"{args.games} demo games: {seen['combats']} combats, {seen['plain']} within the "
          f"kernel ({seen['plain'] / seen['combats']:.0%}; {seen['flash']} more had a flash "
          "effect played); all three kernels give the engine's outcome on every one")  # fmt: skip
    rust: Any = kernels["rust"]
    batch = list(combats)
    times: dict[str, list[float]] = {
        "python": [], "mypyc": [], "rust": [], "rust_table": [], "rust_inner": []
    }  # fmt: skip
    held = rust.Cards(table)
    shares: list[dict[str, float]] = []
    for _ in range(args.rounds):
        for name in ("python", "mypyc", "rust"):
            times[name].append(per_call(kernels[name].resolve, table, combats, args.repeat))
        times["rust_table"].append(per_call(held.resolve, None, combats, args.repeat))
        _, ns = rust.resolve_batch(table, batch, args.repeat)
        times["rust_inner"].append(ns / (args.repeat * len(combats)))
        shares.append(fight_share(args.games))
    med = {k: statistics.median(v) for k, v in times.items()}
    share = statistics.median(s["share"] for s in shares)
    fight_ns = statistics.median(s["fight_ns_per_call"] for s in shares)
    print()
    print(f"{'one plain combat, CPU ns a call':<40}{'median':>10}{'min-max':>18}{'vs python':>11}")
    for name, label in (("python", "Python kernel"), ("mypyc", "same file, mypyc"),
                        ("rust", "Rust via PyO3, one call each"),
                        ("rust_table", "Rust, card table held in Rust"),
                        ("rust_inner", "Rust alone (batch, no crossing)")):  # fmt: skip
        v = times[name]
        print(f"{label:<40}{med[name]:>10.0f}{f'{min(v):.0f}-{max(v):.0f}':>18}"
              f"{med['python'] / med[name]:>10.1f}x")  # fmt: skip
    crossing = med["rust"] - med["rust_inner"]
    print(f"crossing into Rust and back (lists converted, piles written back): {crossing:.0f} ns")
    print()
    calls = statistics.median(s["fight_calls"] for s in shares)
    loop_pure = statistics.median(s["game_cpu_s"] for s in shares)
    print(f"engine.combat.fight in pure-Python demo games: {share:.1%} of the games' CPU time, "
          f"{fight_ns / 1000:.1f} us per call (all combats, card text included)")  # fmt: skip
    profiled = (compiled_share(args.games, args.perf_cpu) for _ in range(args.rounds))
    shares_c = [x for x in profiled if x]
    rows = [("pure", share, fight_ns, loop_pure / args.games)]
    if shares_c:
        share_c = statistics.median(x["share"] for x in shares_c)
        game_c = statistics.median(x["loop_cpu_s"] / x["passes"] / args.games for x in shares_c)
        fight_c = share_c * game_c * args.games * 1e9 / calls
        print(f"engine.combat.fight in compiled demo games (perf call graphs): {share_c:.1%} of "
              f"the games' CPU time, {fight_c / 1000:.1f} us per call")  # fmt: skip
        rows.append(("compiled", share_c, fight_c, game_c))
    else:
        print("perf is not usable here: no figure for the compiled engine's share")
    print()
    print("Amdahl: whole games if fight cost what the Rust kernel costs per call (one call each,")
    print("card table held in Rust), and the limit if fight cost nothing:")
    for build_name, f, t_fight, per_game in rows:
        s_part = t_fight / med["rust_table"]
        print(f"  {build_name:<9} fight {f:.1%} of {per_game * 1e6:.0f} us a game: that part "
              f"{s_part:.0f}x faster -> games {amdahl(f, s_part):.2f}x; limit "
              f"{1 / (1 - f):.2f}x")  # fmt: skip
    result = {"games": args.games, "combats": seen, "ns_per_call": times, "median": med,
              "crossing_ns": crossing, "fight_share_pure": shares,
              "fight_share_compiled": shares_c, "fight_calls": calls,
              "load": os.getloadavg()}  # fmt: skip
    JSON_OUT.parent.mkdir(exist_ok=True)
    tmp = JSON_OUT.with_name(JSON_OUT.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(JSON_OUT)
    print(f"figures written to {JSON_OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
