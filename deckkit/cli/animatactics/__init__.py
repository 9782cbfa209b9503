"""Anima Tactics' commands, reached through :mod:`deckkit.games` when a file says
``game: anima-tactics`` (or ``--game anima-tactics`` is given)."""

from __future__ import annotations

from deckkit.cli.animatactics import (
    build,
    cards,
    play,
    report,
    sensitivity,
    simulate,
    tune,
    validate,
)
from deckkit.cli.exits import DeckkitTyper

app = DeckkitTyper(name="anima-tactics", help="Anima Tactics parties: legality and combat odds.")
app.command("validate")(validate.validate)
app.command("simulate")(simulate.simulate)
app.command("report")(report.report)
app.command("play")(play.play)
app.command("build")(build.build)
app.command("sensitivity")(sensitivity.sensitivity)
app.command("tune")(tune.tune)
app.add_typer(cards.cards_app, name="cards")
