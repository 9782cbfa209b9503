"""The steps the Ani-Mayhem commands share (deckkit.cli.runsetup): the run's settings read from
the shared options by name, the refusal of an illegal deck, the deck written by ``--out``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from deckkit.api.options import RunOptions
from deckkit.cli import options as opt
from deckkit.cli import runsetup
from deckkit.errors import EXIT_ILLEGAL, DeckkitError


def test_every_field_read_by_name_is_a_field_of_run_options() -> None:
    fields = {f.name for f in dataclasses.fields(RunOptions)}
    assert set(runsetup.RUN_FIELDS) <= fields
    # Every field but `rules` (from --rule) has its option of the same name.
    assert fields - set(runsetup.RUN_FIELDS) == {"rules"}


def _command(seen: list[RunOptions], **fixed: object) -> typer.Typer:
    app = typer.Typer()

    @app.command()
    def run(
        ctx: typer.Context,
        games: opt.GamesOpt = 7,
        seed: opt.SeedOpt = 0,
        policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
        edition: opt.EditionOpt = None,
        turn_cap: opt.TurnCapOpt = opt.TURN_CAP,
        rule: opt.RuleOpt = None,
    ) -> None:
        seen.append(runsetup.run_options(ctx, **fixed))

    @app.command()
    def other() -> None:  # two commands, so that `run` is named on the command line
        pass

    return app


def test_run_options_takes_the_declared_options_and_defaults_the_rest() -> None:
    seen: list[RunOptions] = []
    args = ["run", "-n", "12", "-s", "5", "-p", "RANDOM", "-e", "set0", "-r", "charm=every"]
    result = CliRunner().invoke(_command(seen), args)
    assert result.exit_code == 0, result.output
    assert seen == [
        RunOptions(
            games=12,
            seed=5,
            policy=opt.Policy.RANDOM,
            edition=opt.Edition.SET0,
            rules=("charm=every",),
        )
    ]
    assert seen[0].workers == RunOptions().workers  # no --workers declared: the default
    assert seen[0].policy is opt.Policy.RANDOM  # the parsed choice, as the command sees it


def test_run_options_fixed_fields_win_over_the_command_line() -> None:
    seen: list[RunOptions] = []
    result = CliRunner().invoke(_command(seen, games=1), ["run", "-n", "12"])
    assert result.exit_code == 0, result.output
    assert seen[0].games == 1
    assert seen[0].rules == ()  # no --rule: an empty tuple, not None


class _Report:
    def __init__(self, legal: bool) -> None:
        self.legal = legal


def test_refuse_illegal_explains_each_illegal_deck_then_exits_illegal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    explained: list[object] = []
    monkeypatch.setattr(runsetup, "explain_illegal", explained.append)
    good, bad, worse = _Report(True), _Report(False), _Report(False)
    with pytest.raises(typer.Exit) as stop:
        runsetup.refuse_illegal(good, bad, worse, allow=False, refusal="refusing to X")  # type: ignore[arg-type]
    assert stop.value.exit_code == EXIT_ILLEGAL
    assert explained == [bad, worse]
    assert capsys.readouterr().err.strip().endswith("refusing to X")


def test_refuse_illegal_lets_allowed_and_legal_decks_through(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    explained: list[object] = []
    monkeypatch.setattr(runsetup, "explain_illegal", explained.append)
    bad = _Report(False)
    runsetup.refuse_illegal(bad, allow=True, refusal="refusing to X")  # type: ignore[arg-type]
    runsetup.refuse_illegal(_Report(True), allow=False, refusal="refusing to X")  # type: ignore[arg-type]
    assert explained == [bad]  # explained even when allowed
    assert "refusing" not in capsys.readouterr().err


def test_write_deck_writes_the_text_and_replaces_a_file_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "best.deck"
    runsetup.write_deck(out, "deck: Best\n", force=False)
    assert out.read_text() == "deck: Best\n"
    with pytest.raises(DeckkitError):
        runsetup.write_deck(out, "deck: Better\n", force=False)
    assert out.read_text() == "deck: Best\n"
    runsetup.write_deck(out, "deck: Better\n", force=True)
    assert out.read_text() == "deck: Better\n"
