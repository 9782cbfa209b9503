"""The Animus battle engine (rules v3.5): state, positions, combat, abilities, phases, the end
of the game, the automatic players for battles and drafts, and ``play`` which runs one battle.

It builds on deckkit.animus.construction and never imports analysis or presentation code. Every
random choice goes through a chance object (deckkit.core.chance: the same seeded
stream per game as Ani-Mayhem's engine, and scripted dice in golden tests).
"""
