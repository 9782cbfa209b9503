"""The one shape every game gives the tools above it (issue 28), as OpenSpiel and RLCard give
every game the same interface.

A game package provides a :class:`Game` (its ``game.py`` module's ``GAME``; the registry in
:mod:`deckkit.games` names it): reading its files, their legality, its rule options, its
automatic players, and playing one seeded game to a :class:`Record`: the outcome from the first
side's view, the end reason's stable code, per-card or per-character counters and, when asked,
a trace. Game ``index`` of a run seeded ``seed`` is the same game in any process, so a
prepared setup is a factory for :mod:`deckkit.core.workers` (picklable, built once per worker).

What a game reads (a deck, a party, a team) stays the game's own type: the tools above pass it
back to the same game and never look inside; what they read is in the shared records below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from deckkit.core.workers import GameFactory, PlayFn


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken construction rule: which, what is wrong, and what to change."""

    rule: str
    message: str
    fix: str = ""


@dataclass(frozen=True, slots=True)
class Legality:
    """The verdict on one file: legal or not, with every broken rule."""

    legal: bool
    problems: tuple[Problem, ...] = ()


EDITION_DEFAULT = "edition"


@dataclass(frozen=True, slots=True)
class RuleChoice:
    """A rule option where the game's texts leave a choice: its name, the values it takes (empty:
    a whole number of at least 1) and the value deckkit plays by default (``edition``: the one
    the file's edition reads)."""

    name: str
    default: str
    values: tuple[str, ...] = ()
    summary: str = ""


@dataclass(frozen=True, slots=True)
class StandIn:
    """What may take one card's or character's place in a file, as the game's rules allow: the
    changed file (a :meth:`Game.read` entry) and how it changed (``replaced by NAME`` or
    ``removed``)."""

    how: str
    entry: Any


@dataclass(frozen=True, slots=True)
class Record:
    """One seeded game, in the shape every game gives.

    ``outcome`` is one of the game's ``outcomes`` from the first side's view; ``end_reason`` a
    stable code (``turn_cap``, ``no_characters``...); ``counters`` maps (card or character,
    counter) to its count in this game, zero counts left out; ``trace`` the game's events in
    order when asked for and the game keeps one, else None."""

    index: int
    outcome: str
    end_reason: str
    turns: int
    counters: Mapping[tuple[str, str], int] = field(default_factory=dict)
    trace: tuple[str, ...] | None = None


class Card(Protocol):
    """A card or character as the tools above its game name it (the game's own type, read
    only for these)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def type(self) -> str: ...


@dataclass(frozen=True)
class SolitaireGame:
    """A deck with everything settled for a solitaire run (Ani-Mayhem's ``play``, ``simulate``
    and every command built on them): edition (rule options applied), variant, layout,
    players, the legality verdict and every rule option's value. The deck, edition and verdict
    are the game's own; ``source`` is the deck file (None for a deck built in memory, which has
    no file to record)."""

    deck: Any
    edition: Any
    variant: str
    layout: str
    players: int
    report: Any
    rules: dict[str, str] = field(default_factory=dict)  # every rule option's value
    source: Path | None = None


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What a report needs to know of a card its counters are keyed by (the card's id): its
    name, its kind, the counters shown for it even when they stayed at zero (a disaster never
    met still shows up), and its place among the kinds in a report's card table (lower first).
    """

    id: str
    name: str
    type: str
    stats: tuple[str, ...] = ()
    rank: int = 0


@runtime_checkable
class CardRuns(Protocol):
    """What the tools above a game need of it to tally, summarize and save runs that count per
    card (Ani-Mayhem's ``simulate``, ``report``, ``impact``): its counters, the cards of a file,
    its end reasons' codes, and the checks on a saved run's settings and card data. The game's
    interface carries it as ``card_runs`` (:func:`deckkit.games.card_runs`)."""

    @property
    def counters(self) -> frozenset[str]:
        """Every per-card counter's name a game record may carry."""
        ...

    @property
    def max_file_bytes(self) -> int:
        """The largest file (a deck) the game reads."""
        ...

    @property
    def took_part(self) -> Mapping[str, tuple[str, str]]:
        """Card type -> the counter that says one of its cards took part in a game, and the
        words for it (``fought``); the key ``""`` for every other type."""
        ...

    @property
    def harm_counters(self) -> tuple[str, ...]:
        """The counters that say how a file loses (what beats it), in the order a report ranks
        them."""
        ...

    def card_catalog(self, entry: Any) -> dict[str, CardInfo]:
        """Card id -> what a report shows of it, for every card of a file :meth:`Game.read`
        returned."""
        ...

    def not_simulated(self, entry: Any) -> list[dict[str, str]]:
        """The cards of a file whose text the game's engine does not play in full (what every
        estimate is printed with): id, name, coverage and a note, by name."""
        ...

    def end_reason_code(self, reason: str) -> str:
        """The stable code of an end reason's words (``other`` for words the game never says)."""
        ...

    def player_gap(
        self, policy: str, players: int, win_rate: float | None, deck_path: str | None = None
    ) -> dict[str, Any] | None:
        """How far a run's rate by ``policy`` may lie below a stronger player's, as measured on
        the game's sample decks (references, whether it is near, the command that measures the
        file's own), or None where the game has no such measure."""
        ...

    def card_db_files(self, path: Path | None = None) -> list[Path]:
        """The files of the card database at ``path`` (default: the one in use), in a fixed
        order: what a saved run's card-data hash covers."""
        ...

    def unknown_setting(self, settings: Mapping[str, Any]) -> str | None:
        """What a saved run's settings (player, layout, edition...) name that this deckkit does
        not know, in words; None when it knows them all."""
        ...

    def replay_command(self, settings: Mapping[str, Any], game: int, *, legal: bool) -> str:
        """The command line that replays game ``game`` of a saved run with these settings."""
        ...


@runtime_checkable
class EngineRuns(Protocol):
    """What the API's runs of one deck under its edition need of a game's engine (Ani-Mayhem's
    ``simulate``, ``report``, ``impact``, ``tune``): the policies and field layouts a run may
    choose, a picklable factory of its games for :mod:`deckkit.core.workers`, and the names
    of the deck's cards whose text the engine ignores. The game's interface carries it as
    ``engine_runs`` (:func:`deckkit.games.engine_runs`)."""

    @property
    def layouts(self) -> tuple[str, ...]: ...

    def policies(self) -> tuple[str, ...]: ...

    def factory(
        self, deck: Any, edition: Any, layout: str, turn_cap: int, policy: str
    ) -> GameFactory: ...

    def not_simulated(self, deck: Any) -> list[str]: ...

    def known_policy(self, name: str) -> bool:
        """Whether ``name`` is a player a run may choose, with its settings (``search:N``)."""
        ...

    def check_policy(self, name: str) -> str:
        """``name`` when :meth:`known_policy`, else a :class:`deckkit.errors.UsageError` listing
        the choices."""
        ...

    def play_traced(
        self,
        deck: Any,
        edition: Any,
        layout: str,
        turn_cap: int,
        policy: str,
        seed: int,
        index: int,
    ) -> tuple[Any, Any, Any]:
        """Game ``index`` of the run seeded ``seed`` played with its trace: the prepared setup
        (its ``not_simulated`` cards), the record and the trace (its ``events``)."""
        ...

    def trace_text(self, trace: Any) -> str:
        """A trace :meth:`play_traced` gave, turn by turn, as ``deckkit play`` prints it."""
        ...

    def typical_traces(
        self,
        picks: Mapping[str, Mapping[str, Any]],
        deck: Any,
        edition: Any,
        *,
        layout: str,
        turn_cap: int,
        policy: str,
        seed: int,
    ) -> dict[str, str]:
        """Outcome -> the trace, as ``deckkit play`` prints it, of each picked game of a run
        (``picks``: outcome -> ``{"game": index, ...}``, the run's typical win and loss)."""
        ...

    def with_rules(self, edition: Any, rules: Mapping[str, str]) -> Any:
        """The edition played with these rule options' values (the rest as it reads)."""
        ...

    def alternatives(
        self, edition: Any, rules: Mapping[str, str], only: Iterable[str] | None = None
    ) -> list[tuple[str, str]]:
        """Every (rule option, value) other than the one in effect under ``edition`` with
        ``rules``: the readings ``sensitivity`` plays (only the options in ``only``, if given)."""
        ...


@runtime_checkable
class DeckChecks(Protocol):
    """A game's deck files read against a card database, and a deck's construction verdict
    with its counts (Ani-Mayhem's ``deckkit validate``): a
    file, ``-`` for standard input, or a deck in memory, under an edition, a variant and a
    player count (None: the deck's header, else the defaults). The game's interface carries it
    as ``deck_checks`` (:func:`deckkit.games.deck_checks`)."""

    def validate(
        self,
        deck: Any,
        *,
        players: int | None = None,
        edition: str | None = None,
        variant: str | None = None,
    ) -> tuple[str, Any]:
        """The deck's name and the game's legality report of it."""
        ...

    def read_deck(self, path: Path, db: Any | None = None) -> Any:
        """The deck file at ``path`` read against the card database ``db`` (None: the one in
        use); unreadable input raises a :class:`deckkit.errors.DeckkitError` naming the line."""
        ...

    def parse_deck(self, data: bytes, path: Path, db: Any | None = None) -> Any:
        """A deck file's bytes (standard input: ``path`` names it) read as :meth:`read_deck`."""
        ...

    @property
    def default_edition(self) -> str:
        """The edition a deck whose header names none is played under."""
        ...

    def saved_deck(
        self,
        text: str,
        path: Path,
        *,
        edition: str,
        variant: str,
        players: int,
        rules: Mapping[str, str],
        source: Path,
    ) -> tuple[Any, Any, Any]:
        """The deck a saved run keeps (its text, read against today's card database), its
        legality report under the run's edition, variant and players, and the edition with the
        run's rule options applied; a deck no game of which can have been played raises a
        :class:`deckkit.errors.UsageError` naming ``source``, the saved run."""
        ...

    def check(self, deck: Any, edition: Any, variant: str, players: int) -> Any:
        """The legality report (its ``legal`` the verdict) of a deck under an edition
        :meth:`settle` gave, a variant and a player count."""
        ...

    def parse_deck_text(self, text: str, path: Path, db: Any | None = None) -> Any:
        """A deck file's text (a saved copy: a balance baseline's) read as :meth:`read_deck`."""
        ...

    def card_db(self, path: Path | None = None) -> Any:
        """The card database at ``path`` (a cards file or a directory holding one; None: the
        one in use, ``DECKKIT_CARD_DB``'s else the shipped one)."""
        ...

    def card_db_file(self, path: Path | None = None) -> Path:
        """The cards file :meth:`card_db` reads for ``path`` (what a balance baseline's
        snapshot of the cards is taken from)."""
        ...

    def parse_rules(self, flags: Sequence[str]) -> dict[str, str]:
        """Repeated ``--rule NAME=VALUE`` flags checked, a later one replacing an earlier one."""
        ...

    def settle(
        self,
        deck: Any,
        *,
        edition: str | None,
        variant: str | None,
        layout: str | None,
        players: int | None,
        rules: Mapping[str, str],
        command: str,
        source: Path | None = None,
    ) -> SolitaireGame:
        """A deck read (or built in memory) settled for a solitaire run: edition with the rule
        options (``rules``: the flags, over the deck's own rule lines, over the defaults),
        variant, layout, one player, and the legality verdict. ``command`` names the command in
        a usage error."""
        ...


@runtime_checkable
class DeckStats(Protocol):
    """What a deck is before any game is played (Ani-Mayhem's ``deckkit stats``): the chance of
    having drawn each card or kind by each turn, and sample opening hands. The game's interface
    carries it as ``deck_stats`` (:func:`deckkit.games.deck_stats`)."""

    @property
    def default_turns(self) -> tuple[int, ...]:
        """The turns the chances are given for when none are asked (0: the opening hand)."""
        ...

    def stats(
        self,
        deck: Any,
        edition: str | None = None,
        *,
        turns: tuple[int, ...] = ...,
        draws_per_turn: int = 1,
        hands: int = 3,
        seed: int = 0,
    ) -> dict[str, Any]:
        """The document of ``deckkit stats --format json`` for a deck under ``edition`` (None:
        the deck's own)."""
        ...

    def under(self, deck: Any, edition: Any, *, seed: int = 0) -> dict[str, Any]:
        """The same document under an edition :meth:`DeckChecks.settle` gave (its rule options
        applied): a report's section."""
        ...


@runtime_checkable
class DeckSwaps(Protocol):
    """The changes the tools above make to a game's decks (Ani-Mayhem's ``tune`` and
    ``build``, and ``deckkit.with_card``): a card's pile (a swap keeps a card's pile), a deck's
    cards with their copies in the deck's order, the deck with one copy swapped for another
    card in its place, the most neutral card of the game's stand-in rule, and the deck with
    one card's printed numbers changed. The game's interface carries it as ``deck_swaps``
    (:func:`deckkit.games.deck_swaps`); the decks and cards are the game's own."""

    def pile_of(self, card: Any) -> str: ...

    def entries(self, deck: Any) -> tuple[tuple[Any, int], ...]: ...

    def swapped(self, deck: Any, out: Any, into: Any) -> Any: ...

    def neutral_replacement(
        self, deck: Any, card: Any, pool: Sequence[Any], fits: Callable[[Any], bool]
    ) -> Any | None: ...

    def with_card(self, deck: Any, name: str, **changes: Any) -> Any:
        """The deck with every copy of one card (by name or id) changed in memory: ``changes``
        are fields of the card (its printed numbers); the card keeps its id."""
        ...

    def playable_cards(self, *, approximate: bool = False) -> tuple[Any, ...]:
        """The card database's cards whose text the engine plays in full (``approximate``:
        also those it plays approximately): the pool a swap draws from when none is given."""
        ...

    def deck_text(self, deck: Any, comments: Sequence[str] = ()) -> str:
        """``deck`` as the game's deck file, ``comments`` first as comment lines."""
        ...

    @property
    def stand_ins_per_card(self) -> int:
        """How many stand-ins a card's median replacement level is measured against."""
        ...

    def changed(self, deck: Any, card: Any, replacement: Any | None) -> Any:
        """The deck with one copy of ``card`` replaced by ``replacement`` in its place, or
        removed (None): a card's impact measures the deck changed so, entries kept apart."""
        ...

    def stand_in_cards(self, deck: Any, card: Any, fits: Callable[[Any], bool]) -> list[Any]:
        """The card database's most neutral cards that each may take one copy of ``card``'s
        place with the deck still fitting ``fits`` (legal), most neutral first, at most
        :attr:`stand_ins_per_card`."""
        ...

    def find_in_deck(self, deck: Any, name: str) -> Any:
        """A card of the deck by name, id or another name a deck file may use; a
        :class:`deckkit.errors.UsageError` when the deck holds none."""
        ...

    def find_card(self, name: str) -> Any:
        """One card of the card database by any name a deck file may use; a
        :class:`deckkit.errors.UsageError` when none or several match."""
        ...


@runtime_checkable
class NamedStandIns(Protocol):
    """A game whose member may be measured against one named card or character in its place
    (``impact --replace-with NAME``) rather than the stand-ins its rules give."""

    def replaced(self, entry: Any, member: str, name: str) -> StandIn:
        """The file with ``member`` (a name :meth:`Game.members` gives) replaced by the card
        or character ``name`` of the game's card data, in its place: the changed file, legal or
        not (the caller checks :meth:`Game.legality`). An unknown ``member`` or ``name``, or a
        ``name`` of a kind that cannot take its place, raises a
        :class:`deckkit.errors.UsageError`."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game deckkit plays. ``name`` is what a file's ``game:`` header says."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Every outcome a :class:`Record` may carry, the first side's win first."""
        ...

    @property
    def end_reasons(self) -> Mapping[str, str]:
        """Every end reason code a :class:`Record` may carry, with the words a reader sees
        beside it (the rule that ended the game)."""
        ...

    def read(self, path: Path) -> Any:
        """The game's file at ``path`` (a deck, party or team); unreadable input raises a
        :class:`deckkit.errors.DeckkitError` naming the file and line."""
        ...

    def entry_name(self, entry: Any) -> str:
        """The name a file :meth:`read` returned goes by (its ``name:`` header, else the file's)."""
        ...

    def members(self, entry: Any) -> tuple[str, ...]:
        """The cards or characters the file lists, by name, a copy per line (what two files'
        comparison says differs); empty where the file fixes none (an Animus draft seat)."""
        ...

    def stand_ins(self, entry: Any, member: str) -> tuple[StandIn, ...]:
        """What may take one copy of ``member`` (a name :meth:`members` gives) out of the file,
        as the game's rules allow, for measuring its worth: legal replacements of the same
        kind, most neutral first, or its removal where the rules let the file shrink. Empty
        when the rules allow neither; an unknown ``member`` raises a
        :class:`deckkit.errors.UsageError`."""
        ...

    def legality(self, entry: Any) -> Legality:
        """The construction rules' verdict on a file :meth:`read` returned."""
        ...

    def rule_options(self) -> tuple[RuleChoice, ...]:
        """The rule options a run may set (``--rule NAME=VALUE``)."""
        ...

    def parse_rule(self, text: str, where: str = "--rule") -> tuple[str, str]:
        """A ``NAME=VALUE`` rule option setting checked against :meth:`rule_options` (an unknown
        option or value raises a :class:`deckkit.errors.UsageError` naming ``where``)."""
        ...

    def players(self) -> tuple[str, ...]:
        """The automatic players' names, the default first."""
        ...

    def prepare(
        self,
        entries: Sequence[Any],
        *,
        player: str | Sequence[str] | None = None,
        rules: Mapping[str, str] | None = None,
    ) -> Any:
        """A run's setup for the files :meth:`read` returned (one side, or two that meet): a
        picklable factory of a :class:`PlayFn` for :mod:`deckkit.core.workers`. ``player`` is
        one of :meth:`players` for every side, or one per side in the order of ``entries`` (a
        comparison of players keeps the opponent's); None: the default."""
        ...

    def play(self, setup: Any, seed: int, index: int, *, trace: bool = False) -> Record:
        """Game ``index`` of the run seeded ``seed`` on a :meth:`prepare` setup."""
        ...


__all__ = [
    "EDITION_DEFAULT",
    "Card",
    "CardInfo",
    "CardRuns",
    "DeckChecks",
    "DeckStats",
    "DeckSwaps",
    "EngineRuns",
    "Game",
    "Legality",
    "NamedStandIns",
    "PlayFn",
    "Problem",
    "Record",
    "RuleChoice",
    "SolitaireGame",
    "StandIn",
]
