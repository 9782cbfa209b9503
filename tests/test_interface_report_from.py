"""`deckkit report --from ROWS.parquet` for the rows a party's or team's run saved (`simulate
PARTY_OR_TEAM --vs OTHER --out ROWS.parquet`, issue 28 build point 2 and the README's command x
game table): a page that leads with its answer (the first side's win rate with its interval),
who wins how often, the end reasons by code with the game's words, drawn from the rows and
their metadata through the game interface, in the shared page design; a file that is not what
deckkit writes is refused naming it (exit 2)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

from deckkit import games
from deckkit.analysis.matches import RUN_METADATA_KEY
from deckkit.cli.main import app
from deckkit.errors import EXIT_BAD_INPUT
from tests.report_helpers import mismatches, read_page

DECKS = Path(__file__).resolve().parent.parent / "decks"
PAIRS = {
    "anima-tactics": (DECKS / "at-empire-light.party", DECKS / "at-samael-darkness.party"),
    "animus": (DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"),
}
GAMES = 16
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, Any]]]:
    """Each game's saved rows, and the JSON of the run that wrote them."""
    out = tmp_path_factory.mktemp("rows")
    found = {}
    for game, (first, vs) in PAIRS.items():
        rows = out / f"{game}.parquet"
        code, text, err = run(
            "simulate", first, "--vs", vs, "-n", GAMES, "-s", 7, "-o", rows, "-f", "json"
        )
        assert code == 0, err
        found[game] = (rows, json.loads(text))
    return found


def _interface(game: str) -> Any:
    entry = games.find_game(game)
    assert entry is not None
    return games.game_interface(entry)


def _wins(doc: dict[str, Any]) -> int:
    win = doc["win"] if "win" in doc else doc["outcomes"]["win"]
    return int(win["count"])


@pytest.mark.parametrize("game", sorted(PAIRS))
def test_the_page_leads_with_the_runs_answer(
    game: str, saved: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path
) -> None:
    rows, simulated = saved[game]
    page = tmp_path / "page.html"
    code, out, err = run("report", "--from", rows, "-o", page)
    assert code == 0, err
    assert f"report: {page}" in out
    html = page.read_text(encoding="utf-8")
    doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    # the numbers are the run's: the same wins the run reported, every game counted once
    assert doc["game"] == game and doc["games"] == GAMES
    assert doc["outcomes"]["win"]["count"] == _wins(simulated)
    assert sum(o["count"] for o in doc["outcomes"].values()) == GAMES
    assert {"schema_version", "deckkit", "engine"} <= set(doc)
    # end reasons by code with the game's own words, and the outcomes each ended in
    names = _interface(game).end_reasons
    assert doc["end_reasons"] and sum(e["games"] for e in doc["end_reasons"]) == GAMES
    for end in doc["end_reasons"]:
        assert end["reason"] == names[end["code"]]
        assert sum(end["outcomes"].values()) == end["games"]
        assert f"<code>{end['code']}</code>" in html
    # the answer comes first: the headline, before every other section, shows the win rate
    # with its interval
    reader = read_page(html)
    assert reader.sections[0] == "headline"
    head = html[html.index('id="headline"') : html.index("</section>")]
    for path in ("outcomes.win.rate", "outcomes.win.ci.0", "outcomes.win.ci.1", "games"):
        assert f'data-json="{path}"' in head
    assert mismatches(html, doc) == []
    # the side names are read through the game from the kept files
    first, vs = PAIRS[game]
    iface = _interface(game)
    assert [s["name"] for s in doc["sides"]] == [
        iface.entry_name(iface.read(first)),
        iface.entry_name(iface.read(vs)),
    ]
    assert head.count(doc["sides"][0]["name"]) >= 1 and doc["sides"][1]["name"] in head
    # the shared page design: the report's stylesheet, charts drawn by its chart path, no
    # directory of the writer's
    assert "prefers-color-scheme: dark" in html and html.count('<svg role="img"') == 2
    assert str(DECKS) not in html and str(rows.parent) not in html


def test_every_member_and_counter_is_the_rows_mean(
    saved: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path
) -> None:
    rows, _ = saved["animus"]
    page = tmp_path / "team.html"
    assert run("report", "--from", rows, "-o", page)[0] == 0
    doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    frame = pl.read_parquet(rows)
    seen = 0
    for member in doc["members"]:
        for counter, value in member["counters"].items():
            column = f"{member['side']}:{member['name']}|{counter}"
            assert value["mean"] == pytest.approx(frame[column].mean())
            assert value["games"] == (frame[column] != 0).sum()
            seen += 1
    assert seen == frame.width - 4


def test_without_out_the_page_goes_beside_deckkits_other_pages(
    saved: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows, _ = saved["anima-tactics"]
    monkeypatch.chdir(tmp_path)
    code, _, err = run("report", "--from", rows)
    assert code == 0, err
    assert (tmp_path / "reports" / "at-empire-light-vs-at-samael-darkness.report.html").exists()
    code, _, err = run("report", "--from", rows)  # deckkit's own page is replaced
    assert code == 0, err


def test_the_game_named_on_the_command_line_takes_the_same_command(
    saved: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path
) -> None:
    rows, _ = saved["animus"]
    code, _, err = run("report", "--from", rows, "--game", "animus", "-o", tmp_path / "p.html")
    assert code == 0, err


def test_the_python_api_draws_the_same_page(
    saved: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path
) -> None:
    import deckkit

    rows, simulated = saved["anima-tactics"]
    done = deckkit.write_report_from_saved(rows, tmp_path / "api.html")
    assert done.exit_code == 0 and done.page.exists() and done.sidecar is not None
    assert done.document["kind"] == "match"
    assert done.document["outcomes"]["win"]["count"] == _wins(simulated)


def test_the_deck_reader_names_the_game_of_a_partys_rows(
    saved: dict[str, tuple[Path, dict[str, Any]]],
) -> None:
    from deckkit.analysis.results import read_results
    from deckkit.errors import UsageError

    with pytest.raises(UsageError, match="Anima Tactics run") as err:
        read_results(saved["anima-tactics"][0])
    assert "report --from" in (err.value.hint or "")


def _rewrite(target: Path, frame: pl.DataFrame, meta: dict[str, Any]) -> Path:
    frame.write_parquet(target, metadata={RUN_METADATA_KEY: json.dumps(meta)})
    return target


def _meta(path: Path) -> dict[str, Any]:
    meta: dict[str, Any] = json.loads(pl.read_parquet_metadata(path)[RUN_METADATA_KEY])
    return meta


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda f, m: (f.with_columns(pl.lit("triumph").alias("outcome")), m), "'triumph'"),
        (lambda f, m: (f.with_columns(pl.lit("nap").alias("end_reason")), m), "'nap'"),
        (lambda f, m: (f, {**m, "games_requested": 3}), "more than its run asked"),
        (lambda f, m: (f, {**m, "game": "chess"}), "no game deckkit plays"),
        (lambda f, m: (f, {**m, "files": m["files"][:1]}), "not two files"),
        (lambda f, m: (f, {k: v for k, v in m.items() if k != "seed"}), "'seed'"),
        (lambda f, m: (f.with_columns(pl.lit(-1).alias("turns")), m), "'turns'"),
        (lambda f, m: (f.with_columns(pl.lit(0).alias("hidden")), m), "unexpected column"),
        (lambda f, m: (f.with_columns(pl.lit(2, pl.Int64).alias("game")), m), "'game' repeats"),
        (lambda f, m: (f.head(0), m), "no games"),
    ],
)
def test_a_file_deckkit_did_not_write_is_refused_naming_it(
    change: Any, says: str, saved: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path
) -> None:
    rows, _ = saved["anima-tactics"]
    frame, meta = change(pl.read_parquet(rows), _meta(rows))
    bad = _rewrite(tmp_path / "bad.parquet", frame, meta)
    code, _, err = run("report", "--from", bad, "-o", tmp_path / "bad.html")
    assert code == EXIT_BAD_INPUT, err
    assert says in err and "bad.parquet" in err, err
    assert not (tmp_path / "bad.html").exists()


def test_metadata_that_is_no_json_object_is_refused(tmp_path: Path) -> None:
    odd = tmp_path / "odd.parquet"
    pl.DataFrame({"x": [1]}).write_parquet(odd, metadata={RUN_METADATA_KEY: "[1, 2"})
    code, _, err = run("report", "--from", odd, "-o", tmp_path / "o.html")
    assert code == EXIT_BAD_INPUT and "not valid JSON" in err, err


def test_a_changed_file_is_noted_on_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page is the run as played, from the text it kept; a file that changed since is
    said (on stderr and on the page)."""
    first, vs = PAIRS["animus"]
    mine = tmp_path / "mine.team"
    mine.write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    rows = tmp_path / "rows.parquet"
    monkeypatch.chdir(tmp_path)
    assert run("simulate", "mine.team", "--vs", vs, "-n", 4, "-o", rows)[0] == 0
    mine.write_text(first.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    code, _, err = run("report", "--from", rows, "-o", tmp_path / "p.html")
    assert code == 0 and "mine.team has changed since this run" in err, err
    html = (tmp_path / "p.html").read_text(encoding="utf-8")
    assert re.search(r'id="headline-notice-1">.*mine\.team has changed', html)


@pytest.mark.parametrize("game", sorted(PAIRS))
def test_the_rows_tally_is_the_runs_tally(game: str) -> None:
    """What the page counts from the saved rows is what the run counted as it played: the
    same outcomes, end reasons, turn sums and every counter's total."""
    from deckkit.analysis import matches
    from deckkit.analysis.saved_matches import tally_of

    iface = _interface(game)
    setup = iface.prepare([iface.read(p) for p in PAIRS[game]])
    played = matches.run(game, setup, games=12, seed=3, keep_rows=True)
    assert played.rows is not None
    assert tally_of(matches.rows_frame(played.rows)) == played.tally


def test_a_run_too_large_for_a_page_is_refused_before_its_rows_are_read(
    saved: dict[str, tuple[Path, dict[str, Any]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As for a deck's saved run (deckkit.errors.MAX_REPORT_ROW_BYTES): exit 8, naming how
    many games would fit."""
    from deckkit.analysis import saved_matches
    from deckkit.errors import EXIT_TOO_LARGE

    rows, _ = saved["animus"]
    width = len(pl.read_parquet_schema(rows))
    monkeypatch.setattr(saved_matches, "MAX_REPORT_ROW_BYTES", (GAMES - 1) * 8 * width)
    code, _, err = run("report", "--from", rows, "-o", tmp_path / "big.html")
    assert code == EXIT_TOO_LARGE and "too large for a report" in err, err
    assert f"about {GAMES - 1:,} games" in err


@pytest.mark.parametrize("kept", ["..", "../../x.party", "", "a\x00b", "/"])
def test_a_kept_files_name_never_leaves_the_scratch_folder(
    kept: str, saved: dict[str, tuple[Path, dict[str, Any]]], tmp_path: Path
) -> None:
    """The name the metadata gives a kept file is the copy's name only when it is a plain file
    name; else the copy is "file" in its scratch folder, and the page is drawn."""
    rows, _ = saved["anima-tactics"]
    meta = _meta(rows)
    meta["files"][0]["path"] = kept
    odd = _rewrite(tmp_path / "odd.parquet", pl.read_parquet(rows), meta)
    code, _, err = run("report", "--from", odd, "-o", tmp_path / "odd.html")
    assert code == 0, err
    assert not (tmp_path / "x.party").exists()
