"""What every part of the effect interpreter shares: the sources of effects, their lasting
turns, the round-local modifiers combat reads back (``Sides``), and the trace line and statistic
each action writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from deckkit.animayhem.construction.cards import AnyCard
from deckkit.animayhem.construction.vocabulary import (
    CardEffects,
    Coverage,
    Trigger,
)
from deckkit.animayhem.engine.cardrules import GameEffect, apply_mod
from deckkit.animayhem.engine.codes import (
    STAT_EFFECTS,
)
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game, bump

if TYPE_CHECKING:
    from deckkit.animayhem.engine.state import Mods

Source = Dis | Char | Copy
FOREVER: Final = 1 << 30


def by_trigger(
    entry: CardEffects | None,
) -> dict[Trigger, tuple[tuple[int, GameEffect], ...]] | None:
    """A card's effects grouped by trigger (with their index, for ``every`` and
    ``max_times``), each in its game-time form; None when it has none, so the rules skip it at
    the cost of one test."""
    if entry is None or not entry.effects:
        return None
    out: dict[Trigger, list[tuple[int, GameEffect]]] = {}
    for i, e in enumerate(entry.effects):
        out.setdefault(e.when, []).append((i, GameEffect(e)))
    return {k: tuple(v) for k, v in out.items()}


def unplayed_label(card: AnyCard) -> str:
    """What the trace adds where a card's text acts (a flash effect played, a disaster taking
    effect): " (card text not simulated)" only for a card the engine does not play (coverage
    ``none``). A card with no effects may be played in full by its columns alone (a flash
    effect's round bonus, Big Sucker Gas Slash), so lacking effects says nothing."""
    return " (card text not simulated)" if card.coverage is Coverage.NONE else ""


def _until(game: Game, e: GameEffect) -> int:
    """The last turn an effect lasts: ``turns`` counts the current one (Lexicon "Duration")."""
    return game.turn + max(1, e.turns) - 1


def _knock(game: Game, c: Char, how: str, by: Dis | None) -> None:
    game.hooks.knock_out(game, c, how, by)


def _say(game: Game, src: Source, text: str) -> None:
    if game.trace is not None:
        game.say("effect", f"{_name(src)} {text}", src)


def _name(src: Source) -> str:
    if isinstance(src, (Char, Dis)):  # a tuple: no union object built per call
        return src.name
    return src.g.name


# Shared empty containers of :class:`Sides`, never added to (only its methods add, to
# containers of its own).
NO_CHAR_MODS: Final[dict[int, list[Mods]]] = {}
NO_MODS: Final[list[Mods]] = []


# A combat's sides are held by its ``combat.Combat`` (itself outside the cycle collector) and
# hold only what that combat holds (its disaster and characters) and modifier tuples: nothing
# leads back to them, so they stay outside the cycle collector too (``acyclic``), and one freed
# is kept for the next combat (``free_list_len``).
@mypyc_attr(acyclic=True, free_list_len=1)
class Sides:
    """Round-local modifiers the combat code reads back: per character and for the disaster,
    for this round or for the rest of the combat."""

    __slots__ = (
        "_chars",
        "_fighters",
        "combat_chars",
        "combat_dis",
        "dis",
        "dis_round",
        "first",
        "lone",
        "loss_times",
        "round_chars",
    )

    def __init__(self, dis: Dis, chars: list[Char]) -> None:
        self.dis = dis
        # The characters as the combat began (a copy: the caller's list may change), and the
        # set of their uids (``chars``), made when first asked for: most combats never ask.
        self._fighters = chars[:]
        self._chars: set[int] | None = None
        # The shared empty NO_CHAR_MODS and NO_MODS until a card adds one (``char_mod``,
        # ``dis_mod``): most combats get none, and build none of these four.
        self.round_chars: dict[int, list[Mods]] = NO_CHAR_MODS
        self.combat_chars: dict[int, list[Mods]] = NO_CHAR_MODS
        self.dis_round: list[Mods] = NO_MODS
        self.combat_dis: list[Mods] = NO_MODS
        self.first = False  # the characters strike first this combat (FIRST_STRIKE)
        # This round only (flash additions): the disaster's health loss is multiplied by
        # loss_times (0: any loss defeats it: FRAIL); only the character ``lone`` deals damage
        # (CHARGE with everyone's energy); -1: no such card was played.
        self.loss_times = 1
        self.lone = -1

    @property
    def chars(self) -> set[int]:
        """The uids of the characters in the combat as it began."""
        if self._chars is None:
            self._chars = {c.uid for c in self._fighters}
        return self._chars

    @chars.setter
    def chars(self, uids: set[int]) -> None:
        self._chars = uids

    def char_mod(self, uid: int, mods: Mods, whole: bool) -> None:
        if whole:
            if self.combat_chars is NO_CHAR_MODS:
                self.combat_chars = {}
            self.combat_chars.setdefault(uid, []).append(mods)
        else:
            if self.round_chars is NO_CHAR_MODS:
                self.round_chars = {}
            self.round_chars.setdefault(uid, []).append(mods)

    def dis_mod(self, mods: Mods, whole: bool) -> None:
        if whole:
            if self.combat_dis is NO_MODS:
                self.combat_dis = []
            self.combat_dis.append(mods)
        else:
            if self.dis_round is NO_MODS:
                self.dis_round = []
            self.dis_round.append(mods)

    def new_round(self) -> None:
        # Most rounds add no modifier: the shared empty container is kept, none made anew.
        if self.round_chars:
            self.round_chars = NO_CHAR_MODS
        if self.dis_round:
            self.dis_round = NO_MODS
        self.loss_times = 1
        self.lone = -1

    def disaster_loss(self, loss: int, health: int) -> int:
        """The health the disaster loses this round after a FRAIL card: ``loss`` times its
        multiplier, or all of ``health`` when any loss defeats it."""
        if loss < 1 or self.loss_times == 1:
            return loss
        return max(loss, health) if self.loss_times == 0 else loss * self.loss_times


def apply_mods(mods: list[Mods], damage: int, defense: int) -> tuple[int, int]:
    for group in mods:
        for ability, mod in group:
            if ability == "damage":
                damage = apply_mod(mod, damage)
            elif ability == "defense":
                defense = apply_mod(mod, defense)
    return damage, defense


def _credit(game: Game, card: AnyCard) -> None:
    """Count that one of the card's effects acted (the per-card statistic ``effects``)."""
    bump(game, card.id, STAT_EFFECTS)
