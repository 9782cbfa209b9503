"""When a solitaire game ends and who won.

Set0 rulebook, "Object of the Game": the game ends at once when more than half the items are
retrieved or removed; the player wins with more than half. 1996 rules: the disasters win with
more than half, the players with "half or more". 1998 guidelines 4.1: checked at the beginning of
the Discard phase; also 7 Dragon Balls at one location with Kami, Guru or Guardian of the Earth in
play (win), and all locations scavenged (the disasters win unless the player holds more items than
they do). 4.3: the disasters control discarded and destroyed items.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from deckkit.animayhem.construction.cards import ItemCard
from deckkit.animayhem.engine.combat import GameOver
from deckkit.animayhem.engine.interpreter.piles import credit_edge, edge
from deckkit.animayhem.engine.state import Game, Loc

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition, PlayRules

# "Dragon Ball", "Gohan's Dragon Ball" count 1; "2 Dragon Balls" counts 2 (the card names).
_DRAGON_BALLS: Final = re.compile(r"(?:^(\d+) )?Dragon Balls?$")
# 4.1 "with Kami, Guru, or Guardian of the Earth in Play": in the card data Kami is a character,
# Guru and Guardian of the Earth are global effects. Names are matched whole, not as substrings.
_DRAGON_KEEPER_CHARACTER: Final = "Kami"  # (one name: compared, not looked up in a set)
_DRAGON_KEEPER_GLOBALS: Final = frozenset({"Guru", "Guardian of the Earth"})


# Each way a game ends, by a stable code (what tools key on) and the words a report shows.
END_REASONS: dict[str, str] = {
    "disasters_majority": "the disasters control more than half the items",
    "player_majority": "the player controls a majority of the items",
    "dragon_balls": "7 Dragon Balls at one location",
    "scavenged_player_most": "all locations scavenged; the player holds the most items",
    "scavenged": "all locations scavenged",
    "majority_undecided": "more than half the items retrieved or removed; neither side holds more",
    "turn_cap": "turn cap of N reached",
}
_CODE_OF: Final = {text: code for code, text in END_REASONS.items()}


def end_reason_code(reason: str) -> str:
    """The stable code of an end reason's words ("" when the game has not ended)."""
    if reason.startswith("turn cap of "):
        return "turn_cap"
    return _CODE_OF.get(reason, "other")


def end(game: Game, outcome: str, reason: str) -> None:
    """End the game now: its outcome set, then GameOver raised."""
    _over(game, outcome, reason)
    raise GameOver(reason)


def _over(game: Game, outcome: str, reason: str) -> bool:
    """Set the game's outcome and end reason (the trace says so); True, for
    :func:`game_over` to return."""
    game.outcome = outcome
    game.ended = reason
    if game.trace is not None:
        game.say("end", f"game over: {outcome} ({reason})")
    return True


def _dragon_balls(cards: list[ItemCard]) -> int:
    n = 0
    for card in cards:
        m = _DRAGON_BALLS.search(card.name)
        if m:
            n += int(m.group(1)) if m.group(1) else 1
    return n


class _EndRules:
    """The rule options :func:`check_end` reads, settled once per edition's play rules (read
    from the compiled engine, each option is a lookup on an interpreted dataclass)."""

    __slots__ = ("combined", "guidelines", "more_than_half", "play", "strict")

    def __init__(self, play: PlayRules) -> None:
        self.play = play  # held, so its id is not reused while this record lives
        self.guidelines = play.end_conditions == "guidelines1998"
        self.more_than_half = play.majority_needs_more_than_half
        self.combined = play.majority_trigger == "combined"
        self.strict = play.all_scavenged == "scavenged"


_END_RULES: Final[dict[int, _EndRules]] = {}


class _Latest:
    """The edition :func:`check_end` was last called with and the record of its play rules: a
    game calls it dozens of times with the same edition, and an identity test is cheaper than
    reading the edition's rules (an interpreted dataclass's attribute) and looking them up. An
    edition is frozen: the same edition has the same play rules."""

    __slots__ = ("edition", "rules")

    def __init__(self) -> None:
        self.edition: Edition | None = None  # held, so its id is not reused meanwhile
        self.rules: _EndRules | None = None


_LATEST: Final = _Latest()


def _end_rules(play: PlayRules) -> _EndRules:
    r = _END_RULES.get(id(play))
    if r is None:
        r = _EndRules(play)
        _END_RULES[id(play)] = r
    return r


def check_end(game: Game, edition: Edition, at_discard: bool = False) -> None:
    """Raise GameOver when the edition's end conditions hold now."""
    if game_over(game, edition, at_discard):
        raise GameOver(game.ended or "")


def game_over(game: Game, edition: Edition, at_discard: bool = False) -> bool:
    """:func:`check_end` without the exception: True, with the game's outcome set, when the
    edition's end conditions hold now. The turn's own end checks ask this (phases.turn): a
    raised GameOver builds a traceback entry for every compiled frame it leaves, a few
    hundredths of a short game's time."""
    rules = _LATEST.rules
    if rules is None or _LATEST.edition is not edition:
        rules = _end_rules(edition.play)
        _LATEST.edition = edition
        _LATEST.rules = rules
    if rules.guidelines and not at_discard:
        return False
    # C-ko Kotobuki's card: she "counts as 2 items" in the final item tally (card text beats
    # every edition); the majority and the all-scavenged comparison decide the game's result,
    # so both count the tally.
    total = game.tally_in_play()
    if total <= 0:
        return False
    mine = game.items_player(tally=True)
    theirs = game.items_disasters(tally=True)
    player_wins = mine * 2 > total if rules.more_than_half else mine * 2 >= total
    if theirs * 2 > total:
        if _edged(game, theirs - mine):
            return _over(game, "win", "the disasters' lead is small enough for the player's edge")
        return _over(game, "loss", "the disasters control more than half the items")
    if player_wins:
        return _over(game, "win", "the player controls a majority of the items")
    if not rules.guidelines:
        if rules.combined and (mine + theirs) * 2 > total:
            # Rule option majority_trigger=combined: set0 "Object of the Game", "When more than
            # half the item cards are retrieved or removed from play, the game immediately
            # ends", read as both sides together; neither side holding more than half, nobody
            # wins ("If the players retrieve more than half ...", "If the disasters ..."), and
            # no document scores such a game: it is undecided, neither a win nor a loss.
            return _over(game, "undecided", END_REASONS["majority_undecided"])
        return False
    keepers_in_play = any(
        c.name == _DRAGON_KEEPER_CHARACTER for c in game.chars if c.zone in ("field", "haven")
    ) or any(g.g.name in _DRAGON_KEEPER_GLOBALS for g, _ in game.globals_in_play)
    if keepers_in_play:
        for slot in {c.slot for c in game.on_field()}:
            balls = [x.card for c in game.at(slot) for x in c.items if isinstance(x.card, ItemCard)]
            if _dragon_balls(balls) >= 7:
                return _over(game, "win", "7 Dragon Balls at one location")
    strict = rules.strict
    if all(_scavenged_or_empty(game, loc, strict) for loc in game.locs):
        if mine > theirs:
            return _over(game, "win", "all locations scavenged; the player holds the most items")
        if _edged(game, theirs - mine):
            return _over(game, "win", "all locations scavenged; the player's edge decides")
        return _over(game, "loss", "all locations scavenged")
    return False


def _scavenged_or_empty(game: Game, loc: Loc, strict: bool = False) -> bool:
    """1998 guidelines 4.1, "all Locations have been Scavenged": a location counts once it has
    been scavenged, or once nothing lies beneath it to scavenge (a disaster took its item, a
    card cleared or destroyed what was there): an emptied location is never scavenged, and
    counting only scavenging would keep the game from ever ending this way. ``strict`` (rule
    option all_scavenged=scavenged): only a location a party scavenged counts."""
    if strict:
        return loc.slot in game.scavenged
    return loc.slot in game.scavenged or not (loc.hidden_cards or loc.hidden_disasters)


def _edged(game: Game, lead: int) -> bool:
    """A card in play lets the player win ties and small losses (Happy Ending: "wins any ties";
    a game the disasters win by one item is the player's)."""
    if not game.fx or edge(game) < lead:
        return False
    credit_edge(game)
    return True
