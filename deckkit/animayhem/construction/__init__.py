"""Deck construction: cards, the card and effect databases, editions, deck files, legality.

Nothing here plays a game: the engine (deckkit.animayhem.engine) imports these modules, never
the other way round.
"""
