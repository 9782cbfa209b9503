"""The play trace says "(card text not simulated)" only of a card the engine does not play
(coverage none): a card without effects may be played in full by its printed columns alone
(card_db/animayhem/README.md: "A card without an entry has no text beyond its columns and is
played in full"), and a discarded card's text never acts at all."""

from __future__ import annotations

from deckkit.animayhem.engine.phases import discard_phase
from deckkit.animayhem.engine.policy import Policy
from deckkit.animayhem.engine.state import Char, Copy, Game
from tests.engine_helpers import NINE, bare_game, copy_of, edition


class _PlaysEverything(Policy):
    """Gives up the whole hand at the Discard phase."""

    def discards(self, game: Game) -> list[Copy | Char]:
        return list(game.hand)


def _discard_lines(names: list[str]) -> list[str]:
    game = bare_game(NINE)
    game.hand = [copy_of(game, n) for n in names]
    discard_phase(game, edition("set0"), _PlaysEverything())
    assert game.trace is not None
    return [str(e["text"]) for e in game.trace.events if e["kind"] == "discard"]


def test_discard_phase_labels_only_cards_the_engine_does_not_play() -> None:
    """Big Sucker Gas Slash (a flash effect whose text is its +2 damage column: full) is played
    out of the hand with no label; Armitage's Gun, discarded, has no text acting; Possession
    (coverage none: it needs another player) is the one labelled."""
    assert _discard_lines(["Big Sucker Gas Slash", "Armitage's Gun", "Possession"]) == [
        "plays Big Sucker Gas Slash",
        "discards Armitage's Gun",
        "plays Possession (card text not simulated)",
    ]
