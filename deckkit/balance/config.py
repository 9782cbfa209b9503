"""The balance file: which decks to check, and what each must satisfy.

A TOML file (default ``reports/balance.toml``) with optional top-level defaults and one
``[[check]]`` table per check::

    seed = 1                 # every check's games are seeded from this (game i: (seed, i))
    baselines = "baselines"  # where `deckkit balance baseline` writes, beside this file

    [[check]]
    name = "demo band"
    deck = "../decks/demo-solo.deck"  # relative to this file
    edition = "guidelines1998"        # optional: the deck header's, else the default
    players = 1                       # solitaire only, like `deckkit simulate`
    policy = "heuristic"
    band = [0.80, 0.95]               # win rate within [lo, hi] ...
    margin = 0.05                     # ... failing a deck this far outside it
    alpha = 0.05                      # chance of passing a deck that should fail
    beta = 0.05                       # chance of failing a deck that should pass
    budget = 4000                     # games at most; undecided by then is inconclusive

    [[check]]
    name = "demo drift"
    deck = "../decks/demo-solo.deck"
    max_drop = 0.03                   # no more than 3 points worse than the baseline
    rules = { charm = "every" }       # optional rule options (`--rule`); merged over the
                                      # top-level table and the deck's `rule:` lines

A party's or team's check (Anima Tactics, Animus) plays its file against an opponent named by
``vs = "path"`` (relative to this file, of the same game), through the game interface; its
``policy`` is one of the game's players.

A check has either ``band`` or ``max_drop``. Every key except ``name`` and ``deck`` may be set at
the top level as a default for all checks. Every problem is a :class:`UsageError` naming the
file, the check (and its line) and what to write instead, so the CLI exits 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit import games
from deckkit.errors import NotServed, UsageError
from deckkit.untrusted import parse_toml, read_text

if TYPE_CHECKING:  # numpy, which the tests need, is imported when a check runs
    from deckkit.analysis.sprt import BandTest, DriftTest

DEFAULT_FILE = Path("reports/balance.toml")
DEFAULT_BASELINES = "baselines"
DEFAULTS: dict[str, Any] = {
    "players": 1,
    "policy": "heuristic",
    "alpha": 0.05,
    "beta": 0.05,
    "budget": 20_000,
    "margin": 0.05,
    "baseline_games": 2_000,
    "seed": 1,
    "turn_cap": 150,
}
CHECK_KEYS = frozenset(DEFAULTS) | {"name", "deck", "vs", "edition", "band", "max_drop", "rules"}
TOP_KEYS = (frozenset(DEFAULTS) | {"edition", "baselines", "check", "rules"}) - {"name", "deck"}
_CHECK_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*check[ \t]*\]\]", re.MULTILINE)
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Check:
    """One check of the balance file, with defaults applied and values validated."""

    name: str
    deck: Path  # resolved against the balance file's directory
    deck_as_written: str
    edition: str | None
    players: int
    policy: str
    band: tuple[float, float] | None
    max_drop: float | None
    margin: float
    alpha: float
    beta: float
    budget: int
    baseline_games: int
    seed: int
    turn_cap: int
    line: int | None
    rules: tuple[tuple[str, str], ...] = ()  # rule options, as NAME, VALUE
    # A party or team (a game other than Ani-Mayhem's solitaire) plays an opponent: its file,
    # resolved and as written, and the game both belong to (deckkit.games' name).
    vs: Path | None = None
    vs_as_written: str | None = None
    game: str = games.DEFAULT_GAME

    @property
    def rule_args(self) -> tuple[str, ...]:
        """The rule options as ``--rule`` would give them."""
        return tuple(f"{k}={v}" for k, v in self.rules)

    @property
    def kind(self) -> str:
        return "band" if self.band is not None else "drift"

    @property
    def slug(self) -> str:
        """The baseline's file name stem: the name in lower case, runs of other characters
        made one hyphen."""
        return _SLUG.sub("-", self.name.casefold()).strip("-") or "check"

    def band_test(self) -> BandTest:
        from deckkit.analysis.sprt import BandTest

        assert self.band is not None
        return BandTest(self.band[0], self.band[1], self.margin, self.alpha, self.beta)

    def drift_test(self) -> DriftTest:
        from deckkit.analysis.sprt import DriftTest

        assert self.max_drop is not None
        return DriftTest(self.max_drop, self.alpha, self.beta)


@dataclass(frozen=True, slots=True)
class BalanceFile:
    path: Path
    checks: tuple[Check, ...]
    baselines: Path  # the directory of baseline records

    def baseline_path(self, check: Check) -> Path:
        return self.baselines / f"{check.slug}.json"


class _Where:
    def __init__(self, path: Path, name: str | None, line: int | None) -> None:
        self.path, self.name, self.line = path, name, line

    def fail(self, message: str, hint: str | None = None) -> UsageError:
        prefix = f"check {self.name!r}: " if self.name else ""
        return UsageError(prefix + message, path=self.path, line=self.line, hint=hint)


def _number(where: _Where, key: str, value: object, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise where.fail(f"{key} must be a number, not {value!r}")
    if not lo < value < hi:
        raise where.fail(f"{key} must lie strictly between {lo:g} and {hi:g}, not {value!r}")
    return float(value)


def _integer(where: _Where, key: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise where.fail(f"{key} must be a whole number of at least {minimum}, not {value!r}")
    return value


def _text(where: _Where, key: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise where.fail(f"{key} must be a non-empty string, not {value!r}")
    return value.strip()


def _band(where: _Where, value: object) -> tuple[float, float]:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )
    if not ok:
        raise where.fail(f"band must be two win rates [lo, hi], not {value!r}", "band = [0.3, 0.6]")
    lo, hi = float(value[0]), float(value[1])  # type: ignore[index]
    if not 0 <= lo < hi <= 1:
        raise where.fail(
            f"band {value!r} needs 0 <= lo < hi <= 1 (win rates, not percentages)",
            "band = [0.3, 0.6]",
        )
    return lo, hi


def _rules(where: _Where, game: games.Game, *tables: object) -> tuple[tuple[str, str], ...]:
    """``rules = { NAME = "VALUE" }`` tables, later ones over earlier ones, each checked by the
    deck's game (its interface's ``parse_rule``, loaded when a table sets something)."""
    out: dict[str, str] = {}
    for table in tables:
        if not isinstance(table, dict):
            raise where.fail(f"rules must be a table, not {table!r}", 'rules = { charm = "every" }')
        for name, value in table.items():
            try:
                key, text = games.game_interface(game).parse_rule(f"{name}={value}", "rules")
            except UsageError as err:
                raise where.fail(err.message, err.hint) from None
            out[key] = text
    return tuple(out.items())


def _check(
    raw: object, defaults: dict[str, Any], base: Path, path: Path, index: int, line: int | None
) -> Check:
    where = _Where(path, None, line)
    if not isinstance(raw, dict):
        raise where.fail(f"check number {index + 1} must be a table ([[check]])")
    name = _text(where, "name", raw.get("name", "")) if "name" in raw else None
    if name is None:
        raise where.fail(f"check number {index + 1} has no name", 'add name = "my deck band"')
    where = _Where(path, name, line)
    unknown = sorted(set(raw) - CHECK_KEYS)
    if unknown:
        raise where.fail(
            f"unknown key(s) {', '.join(unknown)}", f"allowed: {', '.join(sorted(CHECK_KEYS))}"
        )
    if "deck" not in raw:
        raise where.fail("no deck", 'add deck = "path/to.deck" (relative to the balance file)')
    deck_text = _text(where, "deck", raw["deck"])
    deck = (base / deck_text) if not Path(deck_text).is_absolute() else Path(deck_text)
    if not deck.is_file():
        raise where.fail(f"deck file {deck} does not exist", "deck paths are relative to this file")
    game = games.game_of_file(deck)
    refused = games.refusal("balance check", game)
    if refused is not None:  # the README's command x game table
        raise NotServed(f"check {name!r}: {deck_text} is for {game.title}: {refused.message}")
    vs, vs_text = _opponent(where, raw, game, base)
    v = {**defaults, **raw}
    has_band, has_drift = "band" in v, "max_drop" in v
    if has_band == has_drift:
        raise where.fail(
            "needs exactly one of band (a win-rate range) or max_drop (a drift limit)",
            "band = [0.3, 0.6]  or  max_drop = 0.03",
        )
    band = _band(where, v["band"]) if has_band else None
    max_drop = _number(where, "max_drop", v["max_drop"], 0, 1) if has_drift else None
    edition = _text(where, "edition", v["edition"]) if v.get("edition") is not None else None
    rules = _rules(where, game, defaults.get("rules", {}), raw.get("rules", {}))
    players = _integer(where, "players", v["players"], 1)
    if players != 1:
        raise where.fail(
            f"players = {players}: balance checks play solitaire games", "set players = 1"
        )
    check = Check(
        name=name,
        deck=deck,
        deck_as_written=deck_text,
        edition=edition,
        players=players,
        policy=_text(where, "policy", v["policy"]).casefold(),  # as --policy: any case
        band=band,
        max_drop=max_drop,
        margin=_number(where, "margin", v["margin"], 0, 1),
        alpha=_number(where, "alpha", v["alpha"], 0, 0.5),
        beta=_number(where, "beta", v["beta"], 0, 0.5),
        budget=_integer(where, "budget", v["budget"], 1),
        baseline_games=_integer(where, "baseline_games", v["baseline_games"], 1),
        seed=_integer(where, "seed", v["seed"], 0),
        turn_cap=_integer(where, "turn_cap", v["turn_cap"], 1),
        line=line,
        rules=rules,
        vs=vs,
        vs_as_written=vs_text,
        game=game.name,
    )
    try:  # the statistics' own limits (e.g. lo - margin must stay above 0)
        check.band_test() if band is not None else check.drift_test()
    except ValueError as err:
        raise where.fail(str(err), "narrow the margin or move the band") from None
    return check


def _opponent(
    where: _Where, raw: dict[str, Any], game: games.Game, base: Path
) -> tuple[Path | None, str | None]:
    """A party's or team's opponent (``vs``, relative to the balance file): required for a
    two-sided game, of the same game; refused for an Ani-Mayhem deck, which plays solitaire."""
    if game.name == games.DEFAULT_GAME:
        if "vs" in raw:
            raise where.fail(
                "vs: an Ani-Mayhem deck plays solitaire, against no opponent", "remove vs"
            )
        return None, None
    if "vs" not in raw:
        raise where.fail(
            f"no vs: a {game.title} check plays its file against an opponent",
            'add vs = "path/to/opponent" (relative to the balance file)',
        )
    text = _text(where, "vs", raw["vs"])
    vs = (base / text) if not Path(text).is_absolute() else Path(text)
    if not vs.is_file():
        raise where.fail(f"vs file {vs} does not exist", "vs paths are relative to this file")
    other = games.game_of_file(vs)
    if other != game:
        raise where.fail(f"vs: {text} is a {other.title} file, the check's a {game.title} file")
    return vs, text


def load_balance_file(path: Path) -> BalanceFile:
    """Read and validate a balance file; see the module for the format."""
    if not path.exists() and not path.is_symlink():
        raise UsageError(
            "balance file not found", path=path, hint="create it (see README: balance checks)"
        )
    text = read_text(path, what="balance file")
    data = parse_toml(text, path, what="balance file", error=UsageError)
    where = _Where(path, None, None)
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise where.fail(
            f"unknown top-level key(s) {', '.join(unknown)}",
            f"allowed: {', '.join(sorted(TOP_KEYS))} (name and deck belong in a [[check]])",
        )
    raw_checks = data.get("check", [])
    if not isinstance(raw_checks, list) or not raw_checks:
        raise where.fail("no checks", "add at least one [[check]] table")
    defaults = {**DEFAULTS, **{k: v for k, v in data.items() if k not in ("check", "baselines")}}
    lines = [text.count("\n", 0, m.start()) + 1 for m in _CHECK_HEADER.finditer(text)]
    base = path.parent
    checks: list[Check] = []
    seen: dict[str, int | None] = {}
    slugs: dict[str, str] = {}
    for i, raw in enumerate(raw_checks):
        check = _check(raw, defaults, base, path, i, lines[i] if i < len(lines) else None)
        if check.name in seen:
            raise _Where(path, check.name, check.line).fail(
                f"the name is used twice (first on line {seen[check.name]})",
                "give every check its own name",
            )
        if check.slug in slugs:
            raise _Where(path, check.name, check.line).fail(
                f"its baseline file {check.slug}.json would be {slugs[check.slug]!r}'s too",
                "rename one of the two checks",
            )
        seen[check.name] = check.line
        slugs[check.slug] = check.name
        checks.append(check)
    baselines = data.get("baselines", DEFAULT_BASELINES)
    if not isinstance(baselines, str) or not baselines.strip():
        raise where.fail("baselines must be a directory name", f'baselines = "{DEFAULT_BASELINES}"')
    return BalanceFile(path, tuple(checks), base / baselines)
