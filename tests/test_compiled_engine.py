"""The optional mypyc build of the engine: used only when fresh, never shadowing edited code.

The build is one group with deckkit.core's compiled modules (tools/build_fast.py's
CORE_COMPILED: the seeded chance every die roll and shuffle of a game goes through), found the
same way (deckkit/core/builds.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILT = ROOT / "build" / "fast" / "deckkit"
# The chance first: imported by the compiled engine, the group's chance is the compiled one
# whatever deckkit.core's __path__ says; imported alone (Animus), it is the one deckkit.core finds.
PROBE = (
    "import deckkit.core.chance as ch, deckkit.animayhem.engine as a; "
    "import deckkit.animayhem.engine.combat as c; "
    "import deckkit.animayhem.engine.interpreter.dispatcher as d; "
    "print(a.COMPILED, c.__file__, d.__file__, ch.__file__)"
)


def _probe(
    env: dict[str, str] | None = None, tree: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Import the engine in a fresh interpreter, from ``tree`` (a copy of the checkout) if given."""
    extra = {"PYTHONPATH": str(tree)} if tree is not None else {}
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=tree,
        env={
            **{
                k: v
                for k, v in os.environ.items()
                if k not in ("DECKKIT_STALE_NOTED", "DECKKIT_PURE", "PYTHONPATH")
            },
            **extra,
            **(env or {}),
        },
        check=True,
    )


def _copy_of_checkout(tmp_path: Path) -> Path:
    """The package copied with its files' times, beside the checkout's compiled build: a test
    that edits a source edits the copy, never the tree the other tests run from at the time."""
    tree = tmp_path / "checkout"
    shutil.copytree(ROOT / "deckkit", tree / "deckkit", copy_function=shutil.copy2)
    (tree / "build").mkdir()
    if (ROOT / "build" / "fast").is_dir():
        (tree / "build" / "fast").symlink_to(ROOT / "build" / "fast", target_is_directory=True)
    return tree


def test_pure_switch_forces_python_modules() -> None:
    """DECKKIT_PURE=1 always runs the pure-Python engine, the reference build."""
    out = _probe({"DECKKIT_PURE": "1"})
    assert out.stdout.startswith("False") and out.stdout.split()[1:] == [
        str(ROOT / "deckkit/animayhem/engine/combat.py"),
        str(ROOT / "deckkit/animayhem/engine/interpreter/dispatcher.py"),
        str(ROOT / "deckkit/core/chance.py"),
    ]


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
@pytest.mark.parametrize(
    "edited",
    ["animayhem/engine/chance.py", "animayhem/engine/interpreter/dispatcher.py", "core/chance.py"],
)
def test_stale_build_is_not_used(edited: str, tmp_path: Path) -> None:
    """A compiled module older than its source is ignored, with a note on stderr; a fresh build
    is used, the effect interpreter's package and the core's chance included (compiled too). The
    engine runs compiled only with the compiled chance: an edited core/chance.py turns both off."""
    tree = _copy_of_checkout(tmp_path)
    package = tree / "deckkit"
    source = package / edited
    libs = list(BUILT.rglob("*.so"))
    if not libs:
        assert _probe(tree=tree).stdout.startswith("False")  # nothing built: pure engine
        return
    sources = [
        package / lib.parent.relative_to(BUILT) / f"{lib.name.split('.')[0]}.py" for lib in libs
    ]
    if any(
        src.stat().st_mtime > lib.stat().st_mtime for src, lib in zip(sources, libs, strict=True)
    ):
        out = _probe(tree=tree)  # edited since the last `make fast`: already stale
        assert out.stdout.startswith("False") and "using the pure-Python engine" in out.stderr
        return
    fresh = _probe(tree=tree).stdout.split()
    assert fresh[0] == "True" and all(f.endswith(".so") for f in fresh[1:]), fresh
    before = source.stat()
    newest_lib = max(lib.stat().st_mtime for lib in libs)
    os.utime(source, (before.st_atime, newest_lib + 10))  # edited after the last build
    out = _probe(tree=tree)
    assert out.stdout.startswith("False")
    assert f"older than {source.name}" in out.stderr
    if edited.startswith("core/"):
        assert out.stdout.split()[-1] == str(source)  # the pure chance, with the pure engine


# Two interpreters each playing 150 games: end to end (make test-slow, run by CI). make test
# holds both builds to the same games through the golden tests, run once on each.
@pytest.mark.slow
def test_compiled_and_pure_engines_agree() -> None:
    """Both builds play the same games: identical summaries for the same seed (timing aside)."""
    import json

    def summary(env: dict[str, str]) -> dict[str, object]:
        out = subprocess.run(
            [sys.executable, "-m", "deckkit", "simulate", str(ROOT / "tests/data/wild-solo.deck"),
             "--games", "150", "--seed", "9", "--allow-illegal", "--quiet", "--format", "json"],
            capture_output=True, text=True, check=True,
            env={**{k: v for k, v in os.environ.items() if k != "DECKKIT_PURE"}, **env},
        )  # fmt: skip
        doc: dict[str, object] = json.loads(out.stdout)
        return doc

    compiled, pure = summary({}), summary({"DECKKIT_PURE": "1"})
    # Each document names the build that played it (deckkit/schema.py); the rest is the same.
    built = _probe().stdout.startswith("True")
    assert (compiled.pop("engine"), pure.pop("engine")) == ("compiled" if built else "pure", "pure")
    assert compiled == pure
