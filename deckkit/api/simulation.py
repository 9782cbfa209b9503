"""Simulate a solitaire deck: its win, loss and stall rates with Wilson 95% intervals, per-card
statistics, and (when asked) one row per game as a polars DataFrame.

:func:`simulate` is the whole run in one call; :func:`deckkit.api.solitaire.prepare` and
:func:`play` are its two halves, for a caller (the `simulate` command) that has something to
do between settling what to play and playing it (refuse an illegal deck, check an output file).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit import __version__
from deckkit.analysis.output import write_frame
from deckkit.analysis.results import METADATA_KEY, RunMetadata, card_db_hash, deck_hash
from deckkit.analysis.runner import ProgressFn, RowSink, RunResult, run_games
from deckkit.analysis.summary import Rate, Summary, card_catalog, summarize
from deckkit.api.deckinput import deck_bytes
from deckkit.api.display import Shown, Table, interval, pct
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.gap_text import run_sentence
from deckkit.api.options import RunOptions, options_of
from deckkit.api.solitaire import DeckSource, SolitaireGame, prepare, require_legal
from deckkit.errors import CannotWrite, UsageError
from deckkit.games import card_runs

if TYPE_CHECKING:
    import polars as pl

    from deckkit.analysis.rowspool import RowSpool
    from deckkit.api.matchups import MatchResult

Notify = Callable[[str], None]  # where a function's notes go (the CLI: stderr)


def _silent(message: str) -> None:
    """The default for notes: an API caller reads the result, not the notes."""


@dataclass(frozen=True, repr=False)
class SimulateResult(Shown):
    """A finished run with what every command reports around it.

    ``summary`` holds the rates and per-card statistics; ``rows`` the per-game rows (None when
    the run was asked not to keep them, as the command does without ``--out``); ``metadata``
    how the run was played, for a saved file (None for a deck built in memory, which has no
    file to record). Printed, it is a short summary (a table in a notebook); ``to_frame()``
    gives the per-game rows."""

    game: SolitaireGame
    options: RunOptions
    result: RunResult
    summary: Summary
    not_simulated: list[str]
    metadata: RunMetadata | None

    @property
    def rows(self) -> pl.DataFrame | None:
        return self.result.rows

    @property
    def win(self) -> Rate:
        """The win rate with its Wilson 95% interval (``.rate``, ``.ci``, ``.count``)."""
        return self.summary.wins

    @property
    def interrupted(self) -> bool:
        return self.result.interrupted

    def to_frame(self) -> pl.DataFrame:
        """One row per game (index, outcome, end reason, turns, items, per-card counters)."""
        if self.rows is None:
            raise ValueError("this run kept no per-game rows (it was played with keep_rows=False)")
        return self.rows

    def _title(self) -> str:
        game, options = self.game, self.options
        played = f"{self.summary.games:,} games"
        if self.result.interrupted:
            played += f" of {self.result.games_requested:,} (interrupted)"
        return (
            f"{game.deck.name}, {played}, seed {options.seed}, {options.policy} player, "
            f"{game.edition.name}"
        )

    def _table(self) -> Table:
        s = self.summary
        rows = [
            [name, f"{rate.count:,}", pct(rate.rate), interval(rate.ci)]
            for name, rate in (
                ("win", s.wins),
                ("loss", s.losses),
                ("stall", s.stalls),
                ("undecided", s.undecided),
            )
            if name != "undecided" or rate.count
        ]
        turns = s.turns
        if turns.mean is not None:
            span = "-" if turns.ci is None else f"{turns.ci[0]:.2f} – {turns.ci[1]:.2f}"
            rows.append(["mean turns", "", f"{turns.mean:.2f}", span])
        return ["outcome", "games", "rate", "95% CI"], rows

    def _notes(self) -> list[str]:
        kept = ".to_frame(): the per-game rows; " if self.rows is not None else ""
        notes = [f"{kept}.summary: per-card statistics; .as_dict(): the command's JSON"]
        gap = self.player_gap()
        if gap is not None:
            notes.append(run_sentence(gap))
        return notes

    def player_gap(self) -> dict[str, Any] | None:
        """How far this run's player may lie below a stronger one, measured on the sample decks
        whose rates lie nearest (:meth:`deckkit.core.game.CardRuns.player_gap`)."""
        source = str(self.game.source) if self.game.source is not None else None
        return card_runs().player_gap(
            self.options.policy, self.game.players, self.summary.wins.rate, source
        )

    def as_dict(self) -> dict[str, Any]:
        """The stable JSON document of `deckkit simulate --format json` (without the schema
        envelope). Everything in it depends only on the deck, the options and the seed, never
        on ``workers``."""
        game = self.game
        stats = self.summary.as_dict()
        return {
            "games": stats.pop("games"),
            "games_requested": self.result.games_requested,
            "deck": game.deck.name,
            "seed": self.options.seed,
            "policy": self.options.policy,
            "edition": game.edition.name,
            "variant": game.variant,
            "players": game.players,
            "layout": game.layout,
            "turn_cap": self.options.turn_cap,
            "rules": dict(game.rules),
            "legal": game.report.legal,
            **stats,
            "not_simulated": not_simulated_cards(game.deck),
            "player_gap": self.player_gap(),
            "violations": [
                {"rule": v.rule, "message": v.message, "fix": v.fix} for v in game.report.violations
            ],
            "interrupted": self.result.interrupted,
        }


def run_metadata(game: SolitaireGame, options: RunOptions, *, interrupted: bool) -> RunMetadata:
    """How this run was played, for the per-game file and reports (the deck file is read again:
    its text is part of the record)."""
    if game.source is None:
        raise UsageError("a deck built in memory has no file to record with its run")
    try:
        text = deck_bytes(game.source).decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:  # read once already: changed meanwhile
        raise UsageError(f"cannot read the deck file again: {err}", path=game.source) from err
    return RunMetadata(
        deckkit_version=__version__,
        seed=options.seed,
        policy=options.policy,
        edition=game.edition.name,
        variant=game.variant,
        layout=game.layout,
        players=game.players,
        turn_cap=options.turn_cap,
        games_requested=options.games,
        interrupted=interrupted,
        deck_name=game.deck.name,
        deck_path=str(game.source),
        deck_sha256=deck_hash(text),
        deck_text=text,
        rules=dict(game.rules),
        card_db_sha256=card_db_hash(),
    )


def play(
    game: SolitaireGame,
    options: RunOptions,
    *,
    hooks: EngineHooks = ENGINE,
    keep_rows: bool = True,
    rows: RowSink | None = None,
    progress: ProgressFn | None = None,
    notify: Notify = _silent,
) -> SimulateResult:
    """Play the games of a prepared deck and summarize them. Each game's row goes to ``rows``
    (a spool on disk) as its chunk finishes when given, else into the result when
    ``keep_rows``."""
    runner = options.runner_kwargs()
    if options.workers > runner["workers"]:
        notify(f"--workers {options.workers} capped to {runner['workers']}, the cores available")
    factory = hooks.factory(game.deck, game.edition, game.layout, options.turn_cap, options.policy)
    not_simulated = sorted(set(hooks.not_simulated(game.deck)), key=str.casefold)
    result = run_games(
        factory,
        games=options.games,
        seed=options.seed,
        keep_rows=keep_rows,
        row_sink=rows,
        progress=progress,
        **runner,
    )
    summary = summarize(result.tally, card_catalog(game.deck))
    metadata = (
        run_metadata(game, options, interrupted=result.interrupted)
        if game.source is not None
        else None
    )
    return SimulateResult(game, options, result, summary, not_simulated, metadata)


def simulate(
    deck: DeckSource,
    options: RunOptions | None = None,
    *,
    vs: str | Path | None = None,
    allow_illegal: bool = False,
    progress: ProgressFn | None = None,
    **changes: Any,
) -> SimulateResult | MatchResult:
    """Play ``options.games`` solitaire games of ``deck`` (a deck file, or a
    :class:`~deckkit.animayhem.construction.deck.Deck` built in memory) and summarize them,
    keeping the per-game rows. Keywords override fields of ``options``
    (``simulate("my.deck", games=500, seed=3)``). An illegal deck raises
    :class:`~deckkit.api.solitaire.IllegalDeck` unless ``allow_illegal``.

    A file of another game (its ``game:`` header: a party, a team) plays against ``vs``, the
    opponent's file, through the game interface, and gives a
    :class:`~deckkit.api.matchups.MatchResult` (``simulate("a.party", vs="b.party")``)."""
    opts = options_of(options, changes)
    if isinstance(deck, str | Path):
        from deckkit import games

        if games.game_of_file(Path(deck)).commands is not None:
            from deckkit.api.matchups import simulate_match

            return simulate_match(deck, vs, opts, allow_illegal=allow_illegal, progress=progress)
    if vs is not None:
        raise UsageError(
            "an Ani-Mayhem deck plays solitaire: vs= names a party's or team's opponent"
        )
    game = prepare(deck, opts)
    require_legal(game, "simulate", allow_illegal=allow_illegal)
    return play(game, opts, progress=progress)


def write_rows(run: SimulateResult, rows: RowSpool, path: Path, *, force: bool) -> bool:
    """The per-game rows, streamed from the spool, with the run's metadata when the file is
    Parquet. An interrupted run's rows are partial: they never replace a file the user has
    (returns False, nothing written)."""
    if run.result.interrupted and (path.exists() or path.is_symlink()):
        return False
    metadata = {METADATA_KEY: run.metadata.to_json()} if run.metadata is not None else None
    try:
        write_frame(rows.frame(), path, force=force, metadata=metadata)
    except CannotWrite as err:  # disk full, a size limit: the file is left as it was
        raise CannotWrite(
            f"cannot write --out: {err.message.removeprefix('cannot write: ')}; "
            "nothing was written",
            path=path,
        ) from None
    return True


def not_simulated_cards(deck: Any) -> list[dict[str, str]]:
    """The deck's cards whose text is not played in full, by id, with name, coverage and note
    (the game's :meth:`~deckkit.core.game.CardRuns.not_simulated`)."""
    return card_runs().not_simulated(deck)
