"""deckkit: deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem."""

__version__ = "0.1.0"
