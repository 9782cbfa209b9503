"""Hostile files fed to every reader of every game (issue 31, build point 6): random bytes and
real files with bytes changed, cut or repeated. Each reader either reads the file or raises a
:class:`deckkit.errors.DeckkitError` (one clear line and an exit code); never another exception.

Ani-Mayhem deck and card database, Anima Tactics party and card database, Animus team, card
and types files, balance files and saved runs."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckkit.errors import DeckkitError

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
CARD_DB = REPO / "card_db"


def _ani_mayhem_deck(path: Path) -> object:
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.deck import read_deck

    return read_deck(path, load_card_db())


def _ani_mayhem_cards(path: Path) -> object:
    from deckkit.animayhem.construction.carddb import read_card_db

    return read_card_db(path)


def _anima_tactics_party(path: Path) -> object:
    from deckkit.animatactics.construction.carddb import load_card_db
    from deckkit.animatactics.construction.party import read_party

    return read_party(path, load_card_db())


def _anima_tactics_cards(path: Path) -> object:
    from deckkit.animatactics.construction.carddb import read_card_db

    return read_card_db(path)


def _animus_team(path: Path) -> object:
    from deckkit.animus.construction.team import read_team

    return read_team(path)


def _animus_cards(path: Path) -> object:
    from deckkit.animus.construction.carddb import read_cards, sample_path, types_path_for
    from deckkit.animus.construction.rules import load_types

    return read_cards(path, load_types(types_path_for(sample_path())))


def _animus_types(path: Path) -> object:
    from deckkit.animus.construction.rules import load_types

    return load_types(path)


def _balance_file(path: Path) -> object:
    from deckkit.balance.config import load_balance_file

    return load_balance_file(path)


def _saved_run(path: Path) -> object:
    from deckkit.analysis.results import open_results

    return open_results(path)


# reader, the file name it is given, a real file to change
READERS: dict[str, tuple[Callable[[Path], object], str, Path]] = {
    "ani-mayhem deck": (_ani_mayhem_deck, "x.deck", DECKS / "demo-solo.deck"),
    "ani-mayhem cards": (_ani_mayhem_cards, "cards.csv", CARD_DB / "animayhem" / "cards.csv"),
    "anima tactics party": (_anima_tactics_party, "x.party", DECKS / "at-empire-light.party"),
    "anima tactics cards": (
        _anima_tactics_cards, "cards.csv", CARD_DB / "animatactics" / "cards.csv",
    ),
    "animus team": (_animus_team, "x.team", DECKS / "animus-vanguard.team"),
    "animus cards": (_animus_cards, "cards.csv", CARD_DB / "animus" / "sample-cards.csv"),
    "animus types": (_animus_types, "types.toml", CARD_DB / "animus" / "types.toml"),
    "balance file": (_balance_file, "balance.toml", REPO / "reports" / "balance.toml"),
    "saved run": (_saved_run, "run.parquet", Path()),
}  # fmt: skip


def _real(name: str) -> bytes:
    source = READERS[name][2]
    if name == "saved run":
        return _small_saved_run()
    return source.read_bytes()[:200_000]


_saved: list[bytes] = []


def _small_saved_run() -> bytes:
    """A genuine saved run of a few games (made once)."""
    if not _saved:
        from typer.testing import CliRunner

        from deckkit.cli.main import app

        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "run.parquet"
            result = CliRunner().invoke(
                app, ["simulate", str(DECKS / "demo-solo.deck"), "-n", "5", "-q", "--out", str(out)]
            )
            assert result.exit_code == 0, result.output
            _saved.append(out.read_bytes())
    return _saved[0]


@st.composite
def hostile(draw: st.DrawFn, name: str) -> bytes:
    """Random bytes, or the real file with some bytes changed, cut, repeated or inserted."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=2000))
    data = bytearray(_real(name))
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        how = draw(st.sampled_from(["change", "cut", "repeat", "insert"]))
        if how == "change":
            data[at] = draw(st.integers(0, 255))
        elif how == "cut":
            data = data[:at]
        elif how == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 400))]
        else:
            data[at:at] = draw(
                st.sampled_from([b"\x00", b"\xef\xbb\xbf", b"\x1b[31m", b"\n", b"=", b"\xff\xfe",
                                 b"[[", b"9" * 30, b"-1", "\u202e".encode(), b"\t"])
            )  # fmt: skip
    return bytes(data)


def _reads_or_refuses(name: str, data: bytes) -> None:
    reader, file_name, _ = READERS[name]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / file_name
        path.write_bytes(data)
        try:
            reader(path)
        except DeckkitError as err:
            assert err.render().strip(), name  # a message to show


# Derandomized: `make test` feeds the same 40 files to each reader on every run, so a failure
# is a change in the readers, never the luck of a draw (a random run once found the bare CR of
# test_hostile_inputs_3's Animus card test; derandomize=False explores others).
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
    derandomize=True,
)


def _fuzz(name: str) -> Callable[[], None]:
    @FUZZ
    @given(data=hostile(name))
    def fuzzed(data: bytes) -> None:
        _reads_or_refuses(name, data)

    def run() -> None:
        _real(name)  # a saved run is played before the fuzzing starts, not inside a strategy
        fuzzed()

    return run


test_fuzz_ani_mayhem_deck = _fuzz("ani-mayhem deck")
test_fuzz_ani_mayhem_cards = _fuzz("ani-mayhem cards")
test_fuzz_anima_tactics_party = _fuzz("anima tactics party")
test_fuzz_anima_tactics_cards = _fuzz("anima tactics cards")
test_fuzz_animus_team = _fuzz("animus team")
test_fuzz_animus_cards = _fuzz("animus cards")
test_fuzz_animus_types = _fuzz("animus types")
test_fuzz_balance_file = _fuzz("balance file")
test_fuzz_saved_run = _fuzz("saved run")


def test_the_real_files_are_read() -> None:
    """The files the fuzzing starts from are read as they are (the changes are what fails)."""
    for name in READERS:
        _reads_or_refuses(name, _real(name))
        reader, file_name, _ = READERS[name]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / file_name
            path.write_bytes(_real(name))
            if name not in ("ani-mayhem cards", "balance file"):  # these name files beside them
                reader(path)
