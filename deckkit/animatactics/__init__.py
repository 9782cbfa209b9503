"""Anima Tactics (Saga I): party construction and legality, exact combat odds and duels.

Same shape as :mod:`deckkit.animayhem`: ``construction`` (characters, advantage cards, party
files, legality) below ``engine`` (combat, duels) below ``analysis`` (the duel matrix, the cost
study). Rules cite ``anima-tactics-rulebook.txt`` by section heading.
"""
