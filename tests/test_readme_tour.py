"""The README's tour shows `stats` and the balance summary page, and everything it writes lands
where git ignores it, so that running it leaves no untracked file in the checkout."""

from __future__ import annotations

import itertools
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from deckkit.api.pages import default_page

ROOT = Path(__file__).resolve().parent.parent
WRITES = {"--out", "-o", "--output", "--html", "--junit", "--report", "--results"}


def tour() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A tour of the CLI", 1)[1].split("```", 2)[1]
    return [shlex.split(line, comments=True) for line in block.splitlines() if line.strip()]


def written(command: list[str]) -> list[str]:
    """The files a tour line writes: those its options name (a page with its JSON sidecar, a
    --report directory's summary page), or a report's default page."""
    out: list[str] = []
    for option, path in itertools.pairwise(command):
        if option == "--report":
            out += [f"{path}/balance.html", f"{path}/balance.json", f"{path}/x.report.html"]
        elif option in WRITES:
            out.append(path)
    if command[:2] == ["deckkit", "report"] and not WRITES & set(command):
        deck = command[2] if command[2] != "--from" else "decks/medium-solo.deck"
        policy = "random" if command[2] == "--from" else "heuristic"  # the saved run is random
        out.append(str(default_page(deck, policy, "guidelines1998")))
    return out + [p.removesuffix(".html") + ".json" for p in out if p.endswith(".html")]


def test_the_tour_shows_stats_and_the_balance_summary_page() -> None:
    lines = tour()
    assert any(c[:2] == ["deckkit", "stats"] for c in lines)
    assert any(c[:3] == ["deckkit", "balance", "check"] and "--report" in c for c in lines)


def test_everything_the_tour_writes_is_ignored_by_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    monkeypatch.chdir(tmp_path)  # default_page creates reports/: not in the checkout
    paths = [p for c in tour() for p in written(c)]
    assert len(paths) >= 8
    for path in paths:
        ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "--no-index", path])
        assert ignored.returncode == 0, f"{path} would be left untracked"
