"""Ani-Mayhem (1996), in two layers that import only downward.

- ``construction``: the card model, the card and effect databases, editions and variants, deck
  files and the legality check: what a deck is made of and whether it may be played.
- ``engine``: the solitaire game that plays a legal deck (state, phases, combat, the effect
  interpreter) and the automatic players, which read the game through ``engine.queries``.
"""
