"""Fuzz the command line, records and rules files (issue 18, item 6): whatever is given, every
command ends with exit status 0, 1 (a bot faulted: documented) or 2 and at most one short
``error:`` line — never a traceback, never status 3 (a bug), never a hang.

The commands run in this process, through the real entry point (``tricktable.cli.main.main``,
with its root error printer), for speed; a few run as real children at the end. Hostile
values come from a list of known troublemakers (an unclosed IPv6 bracket, 5,000 digits, NaN,
FIFOs, devices, symlinks, deep nesting, control characters, a megabyte) mixed with
Hypothesis' text, so that a new command option gets hostile values for free.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import event, given
from hypothesis import strategies as st

from helpers import fuzz_settings
from tricktable.cli import ERROR_LINE
from tricktable.cli.main import main
from tricktable.errors import TricktableError
from tricktable.games import load_game, rules_file_spec
from tricktable.records import load_record, replay, to_record
from tricktable.runner import MatchSpec, run_match

FUZZ = fuzz_settings(12)
#: how long one command may take before the fuzz calls it a hang (seconds)
HANG = 20
#: the exit statuses a command may end with: done, a bot faulted, bad input
ALLOWED = {0, 1, 2}
SRC = str(Path(__file__).resolve().parents[1] / "src")


class Hung(BaseException):
    """A command that ran past :data:`HANG` seconds (raised by an alarm)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hung


def run_main(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``tricktable ARGS`` through the real entry point, in this process: status, out, err."""
    runner = CliRunner()
    old_argv = sys.argv
    previous = signal.signal(signal.SIGALRM, _alarm)
    term = signal.getsignal(signal.SIGTERM)  # main() makes SIGTERM Ctrl-C: not for pytest
    with runner.isolation(input=stdin) as (out, err, _):
        sys.argv = ["tricktable", *args]
        signal.alarm(HANG)
        try:
            main()
            code: Any = 0
        except SystemExit as stop:
            code = stop.code
        except Hung:
            code = "hung"
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
            signal.signal(signal.SIGTERM, term)
            sys.argv = old_argv
        sys.stdout.flush()
        sys.stderr.flush()
        stdout = out.getvalue().decode("utf-8", "replace")
        stderr = err.getvalue().decode("utf-8", "replace")
    if code is None:
        code = 0
    elif isinstance(code, str) and code != "hung":
        code = 1  # sys.exit("text") prints it and exits 1
    return code, stdout, stderr


def check(args: list[str], code: Any, stdout: str, stderr: str, fuzzed: bool = True) -> None:
    """The promise: an allowed status, no traceback, error lines short and single."""
    shown = " ".join(repr(a)[:60] for a in args)
    if fuzzed:
        event(f"exit {code}")  # --hypothesis-show-statistics: how many runs got how far
    assert code != "hung", f"hung: {shown}"
    assert code in ALLOWED, f"exit {code}: {shown}\n{stderr[-3000:]}"
    assert "Traceback" not in stdout + stderr, f"{shown}\n{stderr[-3000:]}"
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) <= 1, f"{shown}\n{stderr[-3000:]}"
    for line in stderr.splitlines():
        assert len(line) <= ERROR_LINE, f"{shown}: {line[:300]}"
    if code == 2:
        assert stderr.strip(), f"{shown}: exit 2 without a word"


# --------------------------------------------------------------------------- the places


def _record(seed: int, hands: int, spec: str = "setback") -> dict[str, Any]:
    outcome = run_match(MatchSpec(spec, ("random",) * 4, seed=seed, max_hands=hands))
    record: dict[str, Any] = json.loads(json.dumps(outcome.record))
    return record


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Files of every kind a command may be pointed at, made once."""
    root = tmp_path_factory.mktemp("fuzz")
    good = _record(5, 2)
    (root / "good.json").write_text(json.dumps(good), encoding="utf-8")
    (root / "one.json").write_text(json.dumps(_record(6, 1)), encoding="utf-8")
    (root / "empty").write_bytes(b"")
    (root / "garbage").write_bytes(bytes(range(256)) * 4)
    (root / "latin.json").write_bytes(b"\xff\xfe{}")
    (root / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (root / "digits.json").write_text(json.dumps(dict(good, seed=0)).replace(
        '"seed": 0', '"seed": ' + "9" * 5000), encoding="utf-8")  # fmt: skip
    (root / "rules.toml").write_text('game = "smear"\n[options]\ntarget = 7\n', encoding="utf-8")
    (root / "nogame.toml").write_text("[options]\ntarget = 7\n", encoding="utf-8")
    (root / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    (root / "bigint.toml").write_text("game = " + "9" * 5000 + "\n", encoding="utf-8")
    (root / "date.toml").write_text('game = "setback"\n[options]\ntarget = 1979-05-27\n')
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    (root / "link").symlink_to(root / "good.json")
    (root / "devlink").symlink_to("/dev/zero")
    (root / "evil.py").write_text("raise SystemExit('from a plug-in')\n", encoding="utf-8")
    (root / "zero.db").write_bytes(b"")
    (root / "junk.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    return {p.name: str(p) for p in root.iterdir()} | {"root": str(root)}


@pytest.fixture
def cwd(tmp_path: Path) -> Iterator[Path]:
    """Each command runs in a folder of its own (play saves to records/ there)."""
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


# ------------------------------------------------------------------------ hostile values

NASTY = [
    "", " ", "-", "--", "-1", "0", "1e999", "nan", "inf", "-inf", "9" * 5000, "x" * 100_000,
    "http://[::1/", "http://[::1]:99999/", "https://", "cmd:", "cmd:/nonexistent/bot", ":",
    "a:b:c", "x.py:Bot", "setback(", "setback(target=5,target=7)",
    "setback(target=" + "9" * 5000 + ")", "\x1b[2J\x1b[31mred", "line\nbreak", "☃♠️‮",
    "\udcff\udcfe", "human", "you", "random", "heuristic", "edna", "--help", "-h",
    '"unclosed', "((((", "pimc(worlds=-1)", "cfr(db=/dev/zero)", "edna(base=nope)",
]  # fmt: skip
TEXT = st.text(
    # no NUL and no surrogates: argv holds neither, but bytes that are not UTF-8, which
    # Python reads as \udc80-\udcff (NASTY has some)
    alphabet=st.characters(exclude_characters="\x00", exclude_categories=("Cs",)),
    max_size=30,
) | st.sampled_from(NASTY)
SEEDS = st.sampled_from(["0", "1", "-1", str(1 << 64), str((1 << 64) - 1), "x", "9" * 5000])
#: counts of work (hands, deals, matches): bounded, since a valid huge one is a long run
COUNTS = st.sampled_from(["1", "2", "0", "-1", "x", "", "1.5", "2" * 30 + "x"])
#: caps (the most hands): a huge valid one is a whole match of random bots, which may drift
#: for ever (``play`` stops at its cap for that reason): a long run, not a finding
CAPS = st.sampled_from(["1", "2", "0", "-5", "x", "9" * 30 + "x", "1" * 5000])
FLOATS = st.sampled_from(["0.5", "0", "-1", "nan", "inf", "-inf", "1e-300", "x", "1e309", "1"])
PLAYERS = st.lists(
    st.sampled_from(["random", "heuristic", "edna", "human", "you", "nobody", "http://[::1/",
                     "x.py:Bot", "cmd:/nonexistent/bot", '"a,b"', "random(x=1)"]),
    min_size=0, max_size=6,
).map(",".join) | TEXT  # fmt: skip
GAMES = st.sampled_from(
    ["setback", "hearts", "euchre", "spades", "tricks", "oh-hell", "filippa", "smear",
     "setback(target=3)", "hearts(target=20)", "setback(target=5,target=7)", "bridge"]
) | TEXT  # fmt: skip


def paths(places: dict[str, str], *names: str) -> st.SearchStrategy[str]:
    """One of the prepared places (by name), or a name that does not exist, or junk."""
    chosen = [places.get(n, n) for n in names]
    return st.sampled_from(chosen) | TEXT


READS = ("good.json", "one.json", "empty", "garbage", "latin.json", "deep.json",
         "digits.json", "folder", "fifo", "link", "devlink", "/dev/zero", "/dev/null",
         "nope.json", "-")  # fmt: skip
WRITES = ("out.json", "folder", "fifo", "link", "/dev/full", "/dev/null", "no/such/x.json",
          "/sys/x.json")  # fmt: skip
RULES = ("rules.toml", "nogame.toml", "deep.toml", "bigint.toml", "date.toml", "garbage",
         "fifo", "/dev/zero", "folder", "missing.toml")  # fmt: skip
DBS = ("new.db", "zero.db", "junk.db", "folder", "fifo", "/dev/zero", "garbage")


def options(*pairs: tuple[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    """Some of the options ``pairs`` (name, values), each at most once, in any order."""
    picked = st.lists(st.sampled_from(range(len(pairs))), unique=True, max_size=len(pairs))

    @st.composite
    def build(draw: Callable[..., Any]) -> list[str]:
        args: list[str] = []
        for i in draw(picked):
            name, values = pairs[i]
            args += [name] if values is FLAG else [name, draw(values)]
        return args

    return build()


FLAG: st.SearchStrategy[str] = st.just("")


def fuzz(
    places: dict[str, str],
    command: list[str],
    safe: list[str],
    args: list[str],
    stdin: str = "",
) -> None:
    """Run ``command`` with the ``safe`` options first (the fuzzed ones override them)."""
    full = [*command, *safe, *args]
    check(full, *run_main(full, stdin))


# ---------------------------------------------------------------------------- commands


@FUZZ
@given(data=st.data())
def test_play(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    args = data.draw(options(
        ("--game", GAMES), ("--rules", paths(places, *RULES)), ("--players", PLAYERS),
        ("--seed", SEEDS), ("--save", paths(places, *WRITES)), ("--max-hands", CAPS),
        ("--decision-time", FLOATS), ("--match-time", FLOATS), ("--on-fault", TEXT),
    ))  # fmt: skip
    fuzz(places, ["play"], ["--max-hands", "2", "--players", "random,random,random,random"], args)


@FUZZ
@given(data=st.data())
def test_play_resume(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    args = data.draw(options(
        ("--players", PLAYERS), ("--save", paths(places, *WRITES)), ("--max-hands", CAPS),
        ("--seed", SEEDS), ("--game", GAMES),
    ))  # fmt: skip
    resume = data.draw(paths(places, *READS))
    fuzz(places, ["play", "--resume", resume], ["--max-hands", "3"], args)


@FUZZ
@given(data=st.data())
def test_simulate(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    args = data.draw(options(
        ("--game", GAMES), ("--rules", paths(places, *RULES)), ("--players", PLAYERS),
        ("--hands", COUNTS), ("--seed", SEEDS), ("--json", FLAG),
        ("--decision-time", FLOATS), ("--on-fault", TEXT),
    ))  # fmt: skip
    fuzz(places, ["simulate"], ["--workers", "1", "--players", "random,random,random,random"], args)


@FUZZ
@given(data=st.data())
def test_duel(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    a, b = data.draw(PLAYERS), data.draw(PLAYERS)
    args = data.draw(options(
        ("--game", GAMES), ("--deals", COUNTS), ("--d0", FLOATS), ("--d1", FLOATS),
        ("--alpha", FLOATS), ("--beta", FLOATS), ("--no-sprt", FLAG), ("--seed", SEEDS),
        ("--json", FLAG),
    ))  # fmt: skip
    fuzz(places, ["duel", a, b], ["--workers", "1", "--deals", "2"], args)


@FUZZ
@given(data=st.data())
def test_bot_check(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    target = data.draw(
        st.sampled_from(["random", "heuristic", "http://[::1/", "cmd:/nonexistent/bot",
                         places["evil.py"] + ":Bot", "x.py:Bot"]) | TEXT
    )  # fmt: skip
    args = data.draw(options(
        ("--game", GAMES), ("--matches", COUNTS), ("--seed", SEEDS), ("--against", PLAYERS),
        ("--seat0", FLAG), ("--max-hands", COUNTS), ("--decision-time", FLOATS),
        ("--json", FLAG),
    ))  # fmt: skip
    fuzz(places, ["bot-check", target], ["--matches", "1", "--max-hands", "2", "--seat0"], args)


@FUZZ
@given(data=st.data())
def test_replay(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    path = data.draw(paths(places, *READS))
    args = data.draw(options(("--json", FLAG), ("--game", GAMES)))
    fuzz(places, ["replay", path], [], args, stdin=data.draw(st.sampled_from(["", "{", "[]"])))


@FUZZ
@given(data=st.data())
def test_catalog(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    fuzz(places, ["rules", data.draw(GAMES)], [], [])
    fuzz(places, ["games"], [], data.draw(st.lists(TEXT, max_size=2)))


@FUZZ
@given(data=st.data())
def test_analyze(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    path = data.draw(paths(places, *READS))
    hands = st.sampled_from(["1", "1,2", "2-1", "0", "-", "1-", "9" * 40, "x", ""]) | TEXT
    args = data.draw(options(
        ("--seat", st.sampled_from(["0", "3", "4", "-1", "9" * 30, "x"])), ("--hands", hands),
        ("--seed", SEEDS), ("--threshold", FLOATS), ("--json", FLAG),
    ))  # fmt: skip
    safe = ["--no-sampling", "--solve-time", "0.05", "--budget", "0.01", "--hands", "1"]
    fuzz(places, ["analyze", path], safe, args)


@FUZZ
@given(data=st.data())
def test_tournament(data: st.DataObject, places: dict[str, str], cwd: Path) -> None:
    entrants = data.draw(st.lists(
        st.sampled_from(["random", "heuristic", "a=random", "=random", "nobody",
                         "http://[::1/", "x.py:Bot"]) | TEXT, max_size=3))  # fmt: skip
    args = data.draw(options(
        ("--name", TEXT), ("--game", GAMES), ("--rules", paths(places, *RULES)),
        ("--format", TEXT | st.sampled_from(["duplicate", "round-robin"])),
        ("--deals", COUNTS), ("--max-hands", COUNTS), ("--seed", SEEDS),
        ("--partnerships", TEXT | st.sampled_from(["auto", "self", "mixed"])),
        ("--db", paths(places, *DBS)), ("--config", paths(places, *RULES)), ("--json", FLAG),
    ))  # fmt: skip
    safe = ["--workers", "1", "--deals", "1", "--max-hands", "2", "--db", "t.db"]
    fuzz(places, ["tournament", *entrants], safe, args)


@pytest.fixture(scope="module")
def stored(places: dict[str, str]) -> str:
    """A database holding one small finished tournament."""
    db = str(Path(places["root"]) / "stored.db")
    code, _, err = run_main(["tournament", "random", "heuristic", "--deals", "1", "--workers",
                             "1", "--db", db, "--name", "cup"])  # fmt: skip
    assert code == 0, err
    return db


@FUZZ
@given(data=st.data())
def test_standings_and_report(
    data: st.DataObject, places: dict[str, str], stored: str, cwd: Path
) -> None:
    db = data.draw(st.just(stored) | paths(places, *DBS))
    name = data.draw(st.none() | TEXT | st.just("cup"))
    named = [] if name is None else ["--name", name]
    fuzz(places, ["standings", "--db", db, *named], [], data.draw(options(("--json", FLAG))))
    out = data.draw(paths(places, "report", *WRITES))
    more = data.draw(options(("--insights-from", TEXT)))
    fuzz(places, ["report", "--db", db, *named, "--out", out], [], more)


@FUZZ
@given(args=st.lists(TEXT | st.sampled_from(["play", "replay", "tournament", "--seed"]),
                     max_size=4))  # fmt: skip
def test_any_words(args: list[str], places: dict[str, str], cwd: Path) -> None:
    if args and args[0] in ("tui", "train"):
        args = args[1:]  # the full-screen app and training are not one-shot commands
    if args and args[0] in ("play", "simulate", "duel", "tournament", "bot-check"):
        args = [*args, "--max-hands", "1", "--workers", "1"]  # bounded, whatever else
    fuzz(places, [], [], args)


# ----------------------------------------------------------------------------- records


def _mutations() -> st.SearchStrategy[Any]:
    junk = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                    max_size=3),
        max_leaves=8,
    )  # fmt: skip
    huge = st.sampled_from([1 << 64, -(1 << 70), 10**4000, float("nan"), float("inf"), "9" * 5000])
    return junk | huge


#: where a record is mutated: a top-level key, or a key of its first hand
RECORD_KEYS = ["format", "game", "options", "players", "seed", "hands", "unfinished_hand",
               "faults", "notes"]  # fmt: skip
HAND_KEYS = ["dealer", "deal", "actions", "notes"]


def mutate(record: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """``record`` with one to three of its fields replaced, removed or nested in garbage."""
    out = json.loads(json.dumps(record))
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(["top", "hand", "card", "action", "option", "note"]))
        value = data.draw(_mutations())
        hands = out.get("hands")
        hand = hands[0] if isinstance(hands, list) and hands and isinstance(hands[0], dict) else {}
        if where == "top":
            key = data.draw(st.sampled_from(RECORD_KEYS))
            if data.draw(st.booleans()):
                out.pop(key, None)
            else:
                out[key] = value
        elif where == "hand":
            hand[data.draw(st.sampled_from(HAND_KEYS))] = value
        elif where == "card" and isinstance(hand.get("deal"), list) and hand["deal"]:
            seat = hand["deal"][0]
            if isinstance(seat, list) and seat:
                seat[0] = value
        elif where == "action" and isinstance(hand.get("actions"), list) and hand["actions"]:
            hand["actions"][data.draw(st.integers(0, len(hand["actions"]) - 1))] = value
        elif where == "option" and isinstance(out.get("options"), dict):
            out["options"][data.draw(st.sampled_from(["target", "low_to", "zzz"]))] = value
        elif where == "note":
            out["format"] = "tricktable-record/2"
            hand["notes"] = [{"at": data.draw(st.integers(-1, 3)), "kind": "substitute",
                              "seat": data.draw(st.integers(-2, 5)), "text": value}]  # fmt: skip
    return out


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    """A finished-hands record of each of three games, and one cut mid-hand."""
    made = [_record(3, 2), _record(4, 1, "hearts"), _record(9, 1, "euchre")]
    state = load_game("setback").new_state(11)
    state.deal()
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    made.append(json.loads(json.dumps(to_record(state, ["bot:random"] * 4))))
    return made


@fuzz_settings(60)
@given(data=st.data())
def test_mutated_records_replay_or_fail_in_one_line(
    data: st.DataObject, records: list[dict[str, Any]]
) -> None:
    record = mutate(data.draw(st.sampled_from(records)), data)
    try:
        text = json.dumps(record, allow_nan=True)
    except ValueError:
        return  # json refuses to write it: no record file can hold it
    try:
        replay(load_record(_text_io(text)))
    except TricktableError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) <= 300, message[:400]


def _text_io(text: str) -> Any:
    import io

    return io.StringIO(text)


@fuzz_settings(15)
@given(data=st.data())
def test_mutated_records_through_replay_and_resume(
    data: st.DataObject, records: list[dict[str, Any]], cwd: Path
) -> None:
    record = mutate(data.draw(st.sampled_from(records)), data)
    try:
        text = json.dumps(record, allow_nan=True)
    except ValueError:
        return
    (cwd / "m.json").write_text(text, encoding="utf-8")
    fuzz({}, ["replay", "m.json"], [], data.draw(options(("--json", FLAG))))
    resume = ["play", "--resume", "m.json", "--max-hands", "4"]
    fuzz({}, resume, [], data.draw(st.sampled_from([[], ["--players", "random," * 3 + "random"]])))


# ---------------------------------------------------------------------------- rules files


@st.composite
def rules_files(draw: Callable[..., Any]) -> str:
    """TOML text: a game (or none, or junk) and options of every TOML type, some nested."""
    scalar = (
        st.integers(-(10**30), 10**30) | st.booleans() | st.floats() | st.text(max_size=12)
        | st.sampled_from(["1979-05-27", "07:32:00", "1979-05-27T07:32:00Z"]).map(_Raw)
    )  # fmt: skip
    value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=3), max_leaves=6)
    lines = []
    game = draw(st.none() | st.sampled_from(["setback", "hearts", "smear", "nope"]) | st.text(
        max_size=10))  # fmt: skip
    if game is not None:
        lines.append(f"game = {_toml(game)}")
    if draw(st.booleans()):
        lines.append(f"{draw(st.sampled_from(['name', 'junk', 'description']))} = {_toml('x')}")
    keys = st.sampled_from(["target", "low_to", "jokers", "passing", "zz", "min_bid", "moon"])
    opts = draw(st.dictionaries(keys, value, max_size=3))
    lines.append("[options]")
    lines += [f"{k} = {_toml(v)}" for k, v in opts.items()]
    if draw(st.booleans()):
        lines.insert(0, draw(st.sampled_from(["x = [", "a = " + "[" * 3000, "= 1", "[[o]]"])))
    return "\n".join(lines) + "\n"


class _Raw(str):
    """A TOML literal written as is (a date or a time)."""


def _toml(value: Any) -> str:
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(value), repr(value))
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=True) if isinstance(value, str) else str(value)


@fuzz_settings(60)
@given(text=rules_files(), game=st.none() | st.sampled_from(["setback", "hearts"]))
def test_rules_files_load_or_fail_in_one_line(
    text: str, game: str | None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("rules") / "house.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_game(rules_file_spec(str(path), game))
    except TricktableError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) <= 300, message[:400]


@fuzz_settings(8)
@given(text=rules_files())
def test_rules_files_through_the_command_line(text: str, cwd: Path) -> None:
    (cwd / "house.toml").write_text(text, encoding="utf-8")
    args = ["simulate", "--rules", "house.toml", "--hands", "1", "--workers", "1", "--json"]
    check(args, *run_main(args))


# ---------------------------------------------------------------------- real children


def test_real_children_with_hostile_arguments(tmp_path: Path) -> None:
    """The real entry point in real processes: argv bytes that are not UTF-8, a megabyte of
    arguments, a FIFO with nobody writing, /dev/zero — every one ends in time, in one line."""
    os.mkfifo(tmp_path / "fifo")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    rng = random.Random(18)
    made = subprocess.run(
        [sys.executable, "-m", "tricktable", "tournament", "random", "heuristic", "--deals",
         "1", "--workers", "1", "--db", "t.db", "--name", "cup"],
        capture_output=True, timeout=120, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    cases: list[list[str | bytes]] = [
        [b"standings", b"--db", b"t.db", b"--name", b"\xff"],  # argv that is not UTF-8
        [b"report", b"--db", b"t.db", b"--name", b"cup\xfe", b"--out", b"r"],
        [b"replay", b"\xff\xfe.json"],
        [b"play", b"--players", b"\xff,random,random,random"],
        ["play", "--players", "x" * 100_000],
        ["replay", str(tmp_path / "fifo")],
        ["play", "--rules", "/dev/zero"],
        ["play", "--resume", "/dev/zero"],
        ["simulate", "--players", "http://[::1/,random,random,random", "--hands", "1"],
        ["play", "--seed", "9" * 5000],
        ["rules", "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(500))],
        [],
    ]
    for args in cases:
        run = subprocess.run(
            [sys.executable, "-m", "tricktable", *args],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
            env=env,
            cwd=tmp_path,
            check=False,
        )
        out = run.stdout.decode("utf-8", "replace")
        err = run.stderr.decode("utf-8", "replace")
        check([str(a)[:40] for a in args], run.returncode, out, err, fuzzed=False)
        assert run.returncode == 2, (args, err)
