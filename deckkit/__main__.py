"""`python -m deckkit` runs the same CLI as the `deckkit` console script."""

from deckkit.cli.launch import run

run()
