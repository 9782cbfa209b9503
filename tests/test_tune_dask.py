"""Deck building on a Dask cluster (issue 29, point 5): `deckkit tune` and `deckkit build` give
the same result with --scheduler as with one or two local workers, since every game of the race
is the same seeded game wherever it is played."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app

distributed = pytest.importorskip("distributed")  # the dask extra; the dev extra installs it

REPO = Path(__file__).resolve().parent.parent
MEDIUM = REPO / "decks" / "medium-solo.deck"


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", processes=True, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


def _doc(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*args, "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    doc.pop("seconds", None)
    doc.pop("elapsed", None)
    return doc


@pytest.mark.slow
def test_tune_on_the_cluster_equals_a_local_run(scheduler: str) -> None:
    run = ["tune", str(MEDIUM), "--budget", "1500", "--confirm", "100", "--seed", "4"]
    remote = _doc(*run, "--scheduler", scheduler)
    one = _doc(*run, "--workers", "1")
    two = _doc(*run, "--workers", "2")
    assert remote == one == two
    assert remote["start"] and remote["best"]
