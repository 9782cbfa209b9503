"""Animus (rules v3.5, 2018), in two layers that import only downward, as Ani-Mayhem's package.

- ``construction``: the card model, card files and the type-advantage order, the rule numbers
  and named rule options, team files, the draft pyramid and legality (team and draft).
- ``engine``: the battle between two drafted teams (state, positions, combat, abilities, phases,
  end of game), the automatic players for battles and drafts, and ``play`` which runs one battle.

``montecarlo`` plays many seeded battles over worker processes and ``report`` lays the result
out as a page; ``commands`` is what the ``deckkit`` command calls for a ``game: animus`` file.
"""
