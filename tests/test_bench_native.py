"""The native prototype's benchmark keeps working as the engine changes: it records plain
combats by patching the pure-Python engine (benchmarks/bench_native.py), and its Python kernel
(native/combat_kernel.py) must give the engine's outcome on each. The mypyc and Rust builds are
left to the benchmark itself (they need a compile)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import importlib.util, sys
sys.path.insert(0, sys.argv[1] + "/benchmarks")
import bench_native
spec = importlib.util.spec_from_file_location("kernel", bench_native.NATIVE / "combat_kernel.py")
kernel = importlib.util.module_from_spec(spec); spec.loader.exec_module(kernel)
table, combats, outcomes, seen = bench_native.record(20)
bench_native.check({"python": kernel}, table, combats, outcomes)
print(seen["combats"], seen["plain"], len(combats))
"""


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_the_recorded_combats_match_the_python_kernel() -> None:
    env = dict(os.environ, DECKKIT_PURE="1")
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT)], capture_output=True,
                          text=True, env=env, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    total, plain, recorded = (int(x) for x in done.stdout.split())
    assert recorded == plain > 0.8 * total  # most demo combats involve no card text
