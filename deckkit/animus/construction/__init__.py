"""Animus construction: cards, card files, rule numbers and options, teams, the draft pyramid.

Nothing here plays a battle: the engine (deckkit.animus.engine) imports these modules, never the
other way round.
"""
