"""docs/api.md cannot rot: its walkthrough runs as written (with a few games per value), and the
README links the page."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "api.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_the_walkthrough_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = python_blocks(PAGE.read_text())
    assert len(blocks) >= 3
    code = "\n".join(blocks)
    assert "GAMES = 2_000" in code
    code = code.replace("GAMES = 2_000", "GAMES = 30", 1)
    (tmp_path / "decks").mkdir()
    for name in ("tough-solo.deck", "at-empire-light.party", "at-samael-darkness.party",
                 "animus-vanguard.team", "animus-counterpoint.team"):  # fmt: skip
        shutil.copy(REPO / "decks" / name, tmp_path / "decks")
    monkeypatch.chdir(tmp_path)  # as a notebook started in a checkout
    names: dict[str, object] = {}
    exec(compile(code, str(PAGE), "exec"), names)
    runs = names["runs"]
    assert isinstance(runs, dict) and sorted(runs) == [3, 4, 5, 6, 7, 8]
    assert all(run.summary.games == 30 for run in runs.values())
    svg = (tmp_path / "krillin-damage.svg").read_text()
    assert svg.startswith("<svg") and "Krillin" in svg
    assert names["change"]["games"] == 30  # type: ignore[index]
    worth = names["worth"]  # the impact walkthrough: one row per card named, as a DataFrame
    assert worth.columns == ["card", "replacement", "difference", "ci_low", "ci_high"]  # type: ignore[attr-defined]
    assert sorted(worth["card"].to_list()) == ["Goten", "Krillin", "Priss Asagiri"]  # type: ignore[index]
    # parties and teams: the file's game found from its header, against vs=
    party, team = names["party"], names["team"]
    assert party.document["game"] == "anima-tactics" and party.win.n == 30  # type: ignore[attr-defined]
    assert names["lives"].height == 30  # type: ignore[attr-defined]
    assert team.document["game"] == "animus" and team.to_frame().height == 30  # type: ignore[attr-defined]


def test_the_readme_links_the_page() -> None:
    assert "(docs/api.md)" in (REPO / "README.md").read_text()
