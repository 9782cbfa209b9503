"""Compile the engine's hot modules with mypyc into build/fast/ (optional, about 2x faster).

The pure-Python modules stay the reference: deckkit uses the compiled ones only when every one
of them is newer than its source (see deckkit/animayhem/engine/__init__.py), and
DECKKIT_PURE=1 turns them off. Run `make fast` (done by `make demo`, `make test` and `make bench`).

Cards, requirements and records stay interpreted: they cross process boundaries by pickling.
Policies are compiled but stay open to subclasses written in Python.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "deckkit" / "animayhem" / "engine"
TARGET = ROOT / "build" / "fast"
COMPILED = (
    "state",
    "abilities",
    "combat",
    "movement",
    "phases",
    "scavenge",
    "setup",
    "endgame",
    "chance",
    "policy",
    "queries",
    "hooks",
    "codes",
    "cardrules",
    "havens",
    # The effect interpreter's package (its __init__ stays interpreted: it only finds the build).
    "interpreter/common",
    "interpreter/standing",
    "interpreter/targets",
    "interpreter/on_characters",
    "interpreter/on_abilities",
    "interpreter/on_cards",
    "interpreter/on_disasters_and_locations",
    "interpreter/events",
    "interpreter/combat_cards",
    "interpreter/piles",
    "interpreter/under_locations",
    "interpreter/dispatcher",
    "interpreter/vehicles_and_forms",
    "interpreter/turns",
)


def main() -> int:
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as err:  # pragma: no cover - the dev extras provide both
        print(f"build_fast: {err}; the engine stays pure Python", file=sys.stderr)
        return 0
    os.chdir(ROOT)
    staging = TARGET.with_name("fast-new")
    shutil.rmtree(staging, ignore_errors=True)
    sources = [str((PACKAGE / f"{name}.py").relative_to(ROOT)) for name in COMPILED]
    extensions = mypycify(sources, opt_level="3", group_name="deckkit_engine")
    setup(
        name="deckkit-engine-fast",
        ext_modules=extensions,
        packages=[],
        py_modules=[],
        script_args=[
            "build_ext",
            "--build-lib",
            str(staging),
            "--build-temp",
            "build/fast-tmp",
            "-q",
        ],
    )
    # Swap the finished build in whole: a half-built group would fail at import.
    shutil.rmtree(TARGET, ignore_errors=True)
    staging.rename(TARGET)
    built = sorted(p.name for p in (TARGET / "deckkit" / "animayhem" / "engine").rglob("*.so"))
    print(f"build_fast: compiled {len(built)} engine modules into {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
