"""Vehicles and forms: whom a disaster may strike beside a combat vehicle, form cards that
replace a character (REPLACE) and their return, and a location's STOPS effects."""

from __future__ import annotations

from collections.abc import Sequence

from deckkit.animayhem.engine.abilities import carries_effects_for, refresh
from deckkit.animayhem.engine.cardrules import met
from deckkit.animayhem.engine.codes import (
    ACT_GUARD,
    ACT_REPLACE,
    STAT_WAS_BONKED,
    TRIGGER_ENTERS,
    TRIGGER_STOPS,
)
from deckkit.animayhem.engine.interpreter.common import _credit, _say, _until
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.interpreter.piles import _own_rule
from deckkit.animayhem.engine.queries import fits
from deckkit.animayhem.engine.state import Char, Game, count

# --- vehicles and forms (field2 additions) ---------------------------------------------------


def vehicle_first(game: Game, pool: list[Char]) -> list[Char]:
    """Whom a disaster may strike of ``pool`` when one of them is a combat vehicle: "An attacker
    must attack the combat vehicle first before being able to attack the character aboard it"
    (set0 rulebook, "Vehicles"). GUARD: a character that carries up to ``n`` of its group while
    it meets ``filter`` (Ryo-Ohki in ship form); those beyond ``n`` may still be struck."""
    if ACT_GUARD not in game.acts:
        return pool
    for c in pool:
        e = _own_rule(c, ACT_GUARD)
        if e is None or not fits(e, c):
            continue
        aboard = [o for o in pool if o is not c][: e.n]
        if not aboard:
            return pool
        _credit(game, c.card)
        _say(game, c, f"carries {', '.join(o.name for o in aboard)} out of the disaster's reach")
        return [o for o in pool if o not in aboard]
    return pool


def _swap_form(game: Game, c: Char, other: Char) -> None:
    """Exchange what the two cards print (abilities, skills, categories, health, effects); who
    the character is in play (its name, place, carried cards, what others did to it) stays."""
    c.card, other.card = other.card, c.card
    c.base, other.base = other.base, c.base
    c.base_skills, other.base_skills = other.base_skills, c.base_skills
    c.categories, other.categories = other.categories, c.categories
    c.gender, other.gender = other.gender, c.gender
    c.health_base, other.health_base = other.health_base, c.health_base
    c.fx, other.fx = other.fx, c.fx
    for x in (c, other):
        x.skill_counts = x.base_skills
        x.health_max = x.health_base
        x.health = x.health_max
        refresh(game, x)


def waits_to_replace(c: Char) -> bool:
    """A form card that only ever enters by replacing a character (REPLACE): the player keeps
    it in the hand instead of bringing it into play."""
    return _own_rule(c, ACT_REPLACE) is not None


def change_forms(game: Game) -> None:
    """Maintenance: a form card waiting in the hand replaces the character it names for
    ``turns`` turns, once its conditions hold and at most once every ``every`` turns (REPLACE:
    "If Goku is bonked but not killed 3 times, he can be replaced by this card every 3rd turn
    for a turn at a time"). The player always takes the stronger form."""
    if ACT_REPLACE not in game.acts:
        return
    busy = {b.uid for b, _, _ in game.forms}
    for form in [x for x in game.hand if isinstance(x, Char)]:
        e = _own_rule(form, ACT_REPLACE)
        key = (form.uid, -2)  # the turn it last replaced someone
        if e is None or (key in game.fired and game.turn < game.fired[key] + e.every):
            continue
        for b in game.chars:
            if b.zone not in ("field", "haven") or b.uid in busy or not fits(e, b):
                continue
            if e.when_req is not None and not met(e.when_req, [b]):
                continue
            if e.n and count(game, b.cid, STAT_WAS_BONKED) < e.n:
                continue
            game.fired[key] = game.turn
            game.hand.remove(form)
            form.zone = "aside"
            _swap_form(game, b, form)
            game.forms.append((b, form, _until(game, e)))
            busy.add(b.uid)
            _credit(game, b.card)
            _say(game, b, f"is replaced by {b.g.name} for {max(1, e.turns)} turn(s)")
            break


def restore_forms(game: Game) -> None:
    """The form's time is up: the character takes its own card back, and the form card returns
    to the hand (wherever the character is now: in play, bonked or discarded)."""
    keep = []
    for b, form, last in game.forms:
        if last >= game.turn:
            keep.append((b, form, last))
            continue
        _swap_form(game, b, form)
        form.zone = "hand"
        game.hand.append(form)
        _say(game, b, f"changes back from {form.g.name}")
    game.forms = keep


def entered(game: Game, slot: int) -> None:
    """A party moved onto this location in the Move phase, passing over it or stopping there
    (1998 guidelines, glossary: "Move": "To go from one Location or Haven to another Haven or
    Location"; "Pass over": "To Move onto a Location without ending your Movement"): fire the
    location's ENTERS effects, with the characters there "here" (Capsule Corporation: "A
    Player who enters this Location")."""
    fx = game.fx.get(game.locs[slot].cid)
    if fx is not None and TRIGGER_ENTERS in fx:
        fire(game, game.locs[slot].copy, TRIGGER_ENTERS, slot)


def stopped_at(game: Game, slot: int, party: Sequence[Char] = ()) -> None:
    """A party ended its move on this location: fire the location's STOPS effects (Crystal
    Tunnels holds a party that cannot attempt it), then those of the cards carried there."""
    loc = game.locs[slot]
    fx = game.fx.get(loc.cid)
    if fx is not None and TRIGGER_STOPS in fx:
        fire(game, loc.copy, TRIGGER_STOPS, slot)
    # The cards the party carries act there too (Dream Mirror looks at what lies beneath).
    for c in party:
        if not carries_effects_for(game, c, TRIGGER_STOPS):
            continue
        for x in (*c.items, *c.equipment, *c.enhancements):
            cfx = game.fx.get(x.cid)
            if cfx is not None and TRIGGER_STOPS in cfx:
                fire(game, x, TRIGGER_STOPS, slot, holder=c)
