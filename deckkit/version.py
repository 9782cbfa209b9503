"""deckkit's version: one constant in a module of its own, so that every layer (the games' card
database cache included) can read it without importing the package's API."""

__version__ = "0.1.0"
