"""The effect interpreter: plays the effects of ``card_db/animayhem/effects`` in a game.

One function per action of the vocabulary (:mod:`deckkit.animayhem.construction.vocabulary`),
one resolver per target, and the queries the rules ask in combat and movement (who a disaster
prefers or spares, bonuses that last, blocked locations). The rules of combat and movement call
in here at each trigger; what the interpreter needs of them back (knock a character out, defeat
a disaster, start a combat) it asks through ``game.hooks``, so this package imports neither and
the engine's import graph stays acyclic.

Where the rule documents define a term, the code follows them: "Duration" counts the turn an
effect starts in (set0 rulebook, Lexicon); a targeted ("explicit") card with no valid target
fizzles (Lexicon "Fizzle"; "Reload Phase"); "all X" means all X at a location unless it says
otherwise (1998 guidelines 3.7, encoded in each entry's target); discarded and destroyed items
count for the disasters (1998 guidelines 4.3).

Its modules, from the bottom of the import graph up (each imports only modules listed before
it; the rules modules import the ones they call):

- ``common``: sources, lasting turns, ``Sides`` (round-local modifiers), the trace and statistics.
- ``standing``: standing rules read by combat, movement and the phases (PREFER, SPARE, SHIELD,
  SAFEGUARD, IMMUNE, PRESERVE, STORE, HIDE, AMPLIFY, LEAP, WEAR...) and ``record_uses``.
- ``targets``: the ``Context`` an effect fires in and whom it reaches.
- ``on_characters``, ``on_abilities``, ``on_cards``, ``on_disasters_and_locations``: the actions
  on each (SEND, CAPTURE, TRANSFORM; MODIFY; DESTROY, TAKE; MOVE, PULL, BLOCK, pay...).
- ``events``: RECYCLE and FIRST_STRIKE as one-off events.
- ``combat_cards``: the text of a card drawn in a combat round or a charm battle.
- ``piles``: draw and discard piles, captives, blocks, disasters' places, card uses, spare lives.
- ``under_locations``: REVEAL and the cards under locations (CLEAR, UNEARTH, BURY, SUPPLY).
- ``dispatcher``: ``fire`` and ``run``, the entry points that fire effects in combat, REMATCH.
- ``vehicles_and_forms``: combat vehicles, form cards (REPLACE), a location's STOPS effects.
- ``turns``: turn bookkeeping and a non-combat disaster taking effect.
"""

from __future__ import annotations

from deckkit.animayhem.engine import COMPILED_DIR

if COMPILED_DIR is not None:
    __path__.insert(0, str(COMPILED_DIR / "interpreter"))  # compiled modules first, as the engine's
