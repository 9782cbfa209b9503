"""Ani-Mayhem (1996): card model, card database, editions, legality and the solitaire engine."""
