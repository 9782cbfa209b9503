"""`make bench`: this tree's engine against base commits, compiled and pure, on three decks.

Run: ``.venv/bin/python benchmarks/bench_engine.py [--rounds R] [--games-scale X]
[--min-cpu S] [--base COMMIT ...] [--builds compiled,pure] [--json PATH]``

Three bases by default:
- 1138d9a, the engine after the rule fixes and the player's later rules, before the speed work
  that followed them: the same rules and the same games as this tree (the fingerprint and each
  run's hash say so), so its ratio is that speed work's gain alone;
- 83ef061, the commit before the speed-and-scale work: the base its target names. Its rules are
  older (its disasters take items still buried under face-down disasters), so its games are
  shorter and its games/s is not a like-for-like figure;
- 1b040a5, the last commit before the speed work with the rules of its day (the fidelity fixes
  had landed, the engine was not yet restructured for speed): the same games as the tree the
  speed work ended on, so its games/s ratio measured the speed work alone then. The heuristic
  player's later rules (HUNT_PASS_ON, FIGHT_FOR_ITEMS, RETREAT_AWAY_FROM_RISK) changed today's
  games: 200 demo games of seed 0 last 9.2 turns on 1b040a5 against 6.0 on f9aac0c, medium 15.6
  against 8.7, so against today's tree it too is a different-games figure.

Each run hashes its first pass's game records (as benchmarks/fingerprint.py does); the table
says for each base whether it played the same games as this tree. When it did not, the ratios
compare different work: read the turn ratio, and neither as the speed work's gain.

Each base is extracted from git with ``git archive`` into build/bench-base/<commit>/ and its
compiled engine built there with its own tools/build_fast.py; both are cached (a stamp file names
the commit). Each round runs, for every deck and build, one fresh interpreter per tree
(benchmarks/bench_paired.py), in rotating order, so a change in the machine's load falls on all.
Speeds are complete games (and turns) per CPU second of that one process: what one core does,
whatever else the machine runs.

The table gives, per deck, build and base, each tree's median games/CPU s with its range over the
rounds, the median of the per-round ratios (this / base) with their range, the same ratio for
turns per CPU second, and the mean game length on each tree: two engines whose rules differ
play games of different lengths, and the turn ratio is then the fairer figure. The figures are
written to build/bench.json as well (whole or not at all).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_paired import REPO, Run, run_once

# The commit before the speed work that followed the rule fixes (same rules and games as this
# tree), the commit before the first speed work (older rules), and the last one before it with
# the rules of its day.
BASE_COMMITS = ("1138d9a", "83ef061", "1b040a5")
BASES_DIR = REPO / "build" / "bench-base"
JSON_OUT = REPO / "build" / "bench.json"
# Decks, with the games a run plays at scale 1 per build (repeated until --min-cpu is reached).
DECKS: dict[str, tuple[Path, dict[str, int]]] = {
    "demo-solo": (REPO / "decks" / "demo-solo.deck", {"compiled": 600, "pure": 200}),
    "medium-solo": (REPO / "decks" / "medium-solo.deck", {"compiled": 300, "pure": 100}),
    "long-solo": (REPO / "benchmarks" / "decks" / "long-solo.deck", {"compiled": 60, "pure": 20}),
}
EXIT_GIT = 2  # the base commit cannot be extracted
EXIT_BUILD = 3  # a compiled engine was asked for and is missing


def _commit(commit: str) -> str | None:
    """The full name of ``commit`` in this clone, or None when the clone lacks it."""
    done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                          cwd=REPO, capture_output=True, text=True, check=False)  # fmt: skip
    return done.stdout.strip() if done.returncode == 0 else None


def base_tree(commit: str, compiled: bool) -> Path:
    """build/bench-base/<commit>/: a base commit's files and (if asked) its compiled engine,
    made once."""
    full = _commit(commit)
    if full is None:
        print(
            f"error: commit {commit} is not in this clone's history; fetch it (a shallow clone "
            "needs `git fetch --unshallow`) or pass --base with a commit it has",
            file=sys.stderr,
        )
        raise SystemExit(EXIT_GIT)
    base_dir = BASES_DIR / full[:12]
    stamp = base_dir / ".bench-commit"
    built = base_dir / "build" / "fast"
    fresh = stamp.is_file() and stamp.read_text().strip() == full
    if fresh and (not compiled or (built.is_dir() and any(built.rglob("*.so")))):
        return base_dir
    print(f"preparing the base tree {full[:12]} in {base_dir.relative_to(REPO)} ...", flush=True)
    staging = base_dir.with_name(base_dir.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", full], cwd=REPO,
                             capture_output=True, check=True).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(staging, filter="data")
    now = time.time()  # sources older than the build that follows, whatever the archive said
    for p in staging.rglob("*.py"):
        os.utime(p, (now - 60, now - 60))
    if compiled:
        log = staging / "build-fast.log"
        with log.open("w") as out:
            done = subprocess.run([sys.executable, "tools/build_fast.py"], cwd=staging,
                                  stdout=out, stderr=subprocess.STDOUT, check=False)  # fmt: skip
        if done.returncode != 0 or not any((staging / "build" / "fast").rglob("*.so")):
            print(f"error: the base's compiled engine did not build; see {log}", file=sys.stderr)
            raise SystemExit(EXIT_BUILD)
    (staging / ".bench-commit").write_text(full + "\n")
    shutil.rmtree(base_dir, ignore_errors=True)
    staging.rename(base_dir)
    return base_dir


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def measure(args: argparse.Namespace, bases: dict[str, Path]) -> list[dict[str, Any]]:
    trees = {**bases, "this": REPO}
    names = list(trees)
    configs = [(deck, build) for deck in args.decks for build in args.builds]
    runs: dict[tuple[str, str, str], list[Run]] = {}
    for r in range(args.rounds):
        order = names[r % len(names) :] + names[: r % len(names)]  # rotating, round by round
        for deck, build in configs:
            path, games = DECKS[deck]
            n = max(1, round(games[build] * args.games_scale))
            for name in order:
                run = run_once(trees[name], path, n, args.policy, build == "pure", args.min_cpu)
                if run.compiled != (build == "compiled"):
                    print(f"error: the {name} tree did not load its {build} engine "
                          "(run `make fast`)", file=sys.stderr)  # fmt: skip
                    raise SystemExit(EXIT_BUILD)
                runs.setdefault((deck, build, name), []).append(run)
        done = ", ".join(
            f"{d}/{b} vs {base} {runs[d, b, 'this'][-1].rate / runs[d, b, base][-1].rate:.2f}x"
            for d, b in configs
            for base in bases
        )
        print(f"round {r + 1}/{args.rounds}: {done}", flush=True)
    rows = []
    for deck, build in configs:
        this_runs = runs[deck, build, "this"]
        for base in bases:
            base_runs = runs[deck, build, base]
            pairs = list(zip(base_runs, this_runs, strict=True))
            rows.append({
                "deck": deck,
                "build": build,
                "base": base,
                "base_games_per_cpu_s": _spread([x.rate for x in base_runs]),
                "this_games_per_cpu_s": _spread([x.rate for x in this_runs]),
                "ratio_games": _spread([t.rate / b.rate for b, t in pairs]),
                "ratio_turns": _spread([t.turn_rate / b.turn_rate for b, t in pairs]),
                "base_mean_turns": base_runs[0].mean_turns,
                "this_mean_turns": this_runs[0].mean_turns,
                "same_games": base_runs[0].games_hash == this_runs[0].games_hash,
                "base_rounds": [x.rate for x in base_runs],
                "this_rounds": [x.rate for x in this_runs],
            })  # fmt: skip
    return rows


def _range(s: dict[str, float], fmt: str) -> str:
    return f"{s['median']:{fmt}} [{s['min']:{fmt}}-{s['max']:{fmt}}]"


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'deck':<13}{'build':<10}{'base':<9}{'base games/CPU s':>22}{'this games/CPU s':>22}"
            f"{'this/base games':>21}{'this/base turns':>21}{'mean turns b/t':>17}"
            f"{'same games':>12}")  # fmt: skip
    lines = [head, "-" * len(head)]
    for row in rows:
        lines.append(
            f"{row['deck']:<13}{row['build']:<10}{row['base']:<9}"
            f"{_range(row['base_games_per_cpu_s'], '.0f'):>22}"
            f"{_range(row['this_games_per_cpu_s'], '.0f'):>22}"
            f"{_range(row['ratio_games'], '.2f'):>21}"
            f"{_range(row['ratio_turns'], '.2f'):>21}"
            f"{row['base_mean_turns']:>8.1f}/{row['this_mean_turns']:<8.1f}"
            f"{'yes' if row['same_games'] else 'no':>12}"
        )
    lines.append("median [min-max] over the rounds; ratios are paired per round (this / base).")
    if not all(row["same_games"] for row in rows):
        lines.append("same games no: that base plays other games than this tree (other rules), "
                     "so its ratios are not the speed work's gain.")  # fmt: skip
    return "\n".join(lines)


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = " and ".join(BASE_COMMITS)
    p.add_argument("--base", action="append", dest="bases", metavar="COMMIT",
                   help=f"a base commit, repeatable (default {default})")  # fmt: skip
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    p.add_argument("--games-scale", type=float, default=1.0,
                   help="multiply each run's game set (default 1)")  # fmt: skip
    p.add_argument("--min-cpu", type=float, default=1.0,
                   help="replay a run's games for this many CPU seconds (default 1)")  # fmt: skip
    p.add_argument("--builds", default="compiled,pure", help="compiled, pure or both")
    p.add_argument("--decks", default=",".join(DECKS), help=f"of {', '.join(DECKS)}")
    p.add_argument("--policy", default="heuristic")
    p.add_argument("--json", type=Path, default=JSON_OUT, help="where the figures go")
    args = p.parse_args(argv)
    args.bases = args.bases or list(BASE_COMMITS)
    args.builds = [b for b in args.builds.split(",") if b]
    args.decks = [d for d in args.decks.split(",") if d]
    if set(args.builds) - {"compiled", "pure"} or set(args.decks) - set(DECKS) or args.rounds < 1:
        p.error("--builds takes compiled and/or pure, --decks names from the list, --rounds >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    bases = {b: base_tree(b, "compiled" in args.builds) for b in args.bases}
    load = os.getloadavg()[0]
    started = time.perf_counter()
    print(f"engine benchmark: this tree against {', '.join(bases)}; {args.rounds} rounds; "
          f"1-minute load {load:.2f}", flush=True)  # fmt: skip
    rows = measure(args, bases)
    seconds = time.perf_counter() - started
    print()
    print(table(rows))
    print(f"{seconds:.0f} s; 1-minute load {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    result = {
        "bases": args.bases, "rounds": args.rounds, "min_cpu": args.min_cpu,
        "games_scale": args.games_scale, "policy": args.policy, "seconds": seconds,
        "load_before": load, "load_after": os.getloadavg()[0], "rows": rows,
    }  # fmt: skip
    args.json.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.json.with_name(args.json.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(args.json)
    print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
