"""``tricktable bot-check``: quick matches against reference bots, every fault located."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tricktable.cli.botcheck import run_bot_check
from tricktable.games import GAMES as registered_games
from tricktable.games import load_game, register
from tricktable.games.spades import GAME as SPADES
from tricktable.seeds import derive_seed

register(SPADES)

EXAMPLES = Path(__file__).parents[1] / "examples/bots"

BROKEN = """
from tricktable.bots.base import Bot
from tricktable.engine.actions import is_play

class Reneger(Bot):
    '''Plays its highest card whatever was led: sooner or later it fails to follow suit.'''
    def act(self, view):
        legal = view.legal_actions()
        if not is_play(legal[0]):
            return legal[0]
        hand = [c for c in range(53) if view.hand >> c & 1]
        return max(hand, key=lambda c: c % 13)

class Crasher(Bot):
    def act(self, view):
        if view.hand_number == 1:
            raise ValueError("no idea what to do")
        return view.legal_actions()[0]
"""


def check(target: str, game: str = "setback", matches: int = 2, **kw: object) -> tuple[int, str]:
    out = io.StringIO()
    code = run_bot_check(target, game, matches, 1, out=out, max_hands=6, **kw)  # type: ignore[arg-type]
    return code, out.getvalue()


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken_bots.py"
    path.write_text(textwrap.dedent(BROKEN), encoding="utf-8")
    return path


def test_a_good_plugin_bot_is_clean() -> None:
    code, text = check(f"{EXAMPLES}/plugin_bot.py:CautiousBot", matches=4)
    assert code == 0, text
    assert "faults: none" in text and "result: OK" in text
    assert "matches 4" in text and "answer time median" in text


def test_an_illegal_card_is_located(broken: Path) -> None:
    code, text = check(f"{broken}:Reneger")
    assert code == 1
    lines = text.splitlines()
    fault = next(i for i, line in enumerate(lines) if line.startswith("FAULT"))
    assert "hand 1, trick" in lines[fault] and "(play)" in lines[fault]
    assert lines[fault].endswith(": illegal")
    assert "must follow suit" in lines[fault + 1]
    assert lines[fault + 2].startswith("  expected one of: play ")
    assert lines[fault + 3] == "  penalty: substitute"
    assert "result: FAULTY" in text and "faults: 2 (illegal 2)" in text


def test_an_exception_is_a_crash(broken: Path) -> None:
    code, text = check(f"{broken}:Crasher", as_json=True)
    assert code == 1
    report = json.loads(text)
    assert report["faults_by_kind"] == {"crash": 2}
    first = report["faults"][0]
    assert first["detail"] == "raised ValueError: no idea what to do"
    assert first["where"].startswith("hand 2, decision")
    assert first["seat"] == 0 and report["faults"][1]["seat"] == 1


@pytest.mark.parametrize(
    ("target", "game", "matches"),
    [
        (f"{EXAMPLES}/plugin_bot.py:CautiousBot", "no-such-game", 1),
        ("no/such/file.py:Bot", "setback", 1),
        ("nonsense-bot", "setback", 1),
        ("ftp://x/", "setback", 1),
        (f"{EXAMPLES}/plugin_bot.py:CautiousBot", "setback", 0),
    ],
)
def test_bad_usage_is_2(
    target: str, game: str, matches: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = check(target, game, matches)
    assert code == 2 and text == ""
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


@pytest.fixture(scope="module")
def seed_bot() -> Iterator[str]:
    proc = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "http_spades_bot.py"), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().split()[-1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_http_seed_bot_on_spades_is_clean(seed_bot: str) -> None:
    code, text = check(seed_bot, "spades", matches=4)
    assert code == 0, text
    assert "decisions" in text and "result: OK" in text


def test_http_bot_for_the_wrong_game(seed_bot: str) -> None:
    # The seed-004 bot knows only Spades' endpoints: Setback's first event gets a 404.
    code, text = check(seed_bot, "setback", matches=1)
    assert code == 1
    assert "/1/start: HTTP 404" in text and "crash" in text


def test_nothing_at_the_url() -> None:
    code, text = check("http://127.0.0.1:9/", "spades", matches=1)
    assert code == 1 and "connection refused" in text and "penalty: forfeit" in text


def test_command_line(seed_bot: str, cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    from tricktable.cli.main import cli as group

    if "bot-check" not in group.commands:
        pytest.skip("the bot-check command is not registered in cli/main.py yet")
    run = cli("bot-check", seed_bot, "--game", "spades", "--matches", "1")
    assert run.returncode == 0, run.stderr
    assert "result: OK" in run.stdout
    bad = cli("bot-check", seed_bot, "--game", "no-such-game")
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")


def test_an_engine_error_is_not_the_bots_fault(tmp_path: Path) -> None:
    engine_bug = Path(__file__).parent / "engine_bug.py"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    target = f"cmd:{sys.executable} {EXAMPLES / 'python' / 'bot.py'}"
    done = subprocess.run(
        [sys.executable, str(engine_bug), "bot-check", target, "--matches", "1"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 3, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: match 1 (seed ")
    assert "engine error in hand 3" in lines[0] and "FAULT" not in done.stdout


# ------------------------------------------------- the bot under test is told what play tells


GAMES = sorted(load_game(name).spec() for name in registered_games)
BOTS = Path(__file__).parent / "bots"


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The example C bot, built with the C compiler as its Makefile builds it."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build examples/bots/c/bot.c")
    out = tmp_path_factory.mktemp("cbot") / "bot"
    flags = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"]
    subprocess.run([cc, *flags, "-o", str(out), str(EXAMPLES / "c/bot.c")], check=True)
    return f"cmd:{out}"


def example_target(kind: str, c_bot: str) -> str:
    """The bot-check target of one example bot, as the examples' README writes it."""
    if kind == "js":
        if shutil.which("node") is None:
            pytest.skip("node is not installed (make tools installs it)")
        return f"cmd:node {EXAMPLES / 'js/bot.js'}"
    if kind == "c":
        return c_bot
    if kind == "python":
        return f"cmd:{sys.executable} {EXAMPLES / 'python/bot.py'}"
    return f"{EXAMPLES}/plugin_bot.py:CautiousBot"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["python", "js", "c", "plugin"])
def test_every_example_bot_is_clean_in_every_seat_of_every_game(
    kind: str, game: str, c_bot: str
) -> None:
    # The README's own check: under the old bot-check each program bot made 40 illegal
    # plays in tricks, never told the cards played (seed 002's INFO played) that play sends.
    seats = load_game(game).num_players
    code, text = check(example_target(kind, c_bot), game, matches=seats)
    assert code == 0, text
    assert "faults: none" in text and f"matches {seats}," in text


def test_the_http_example_is_clean_on_its_game(seed_bot: str) -> None:
    # examples/bots/http_spades_bot.py speaks seed 004, Spades' protocol, and nothing else.
    code, text = check(seed_bot, "spades", matches=4, as_json=True)
    report = json.loads(text)
    assert code == 0 and report["faults"] == [] and report["decisions"] > 4 * 6


def played_by_play(cli: Callable[..., subprocess.CompletedProcess[str]], *args: str) -> None:
    run = cli("play", *args)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("game", GAMES)
def test_a_program_is_sent_exactly_what_play_sends_it(
    game: str, tmp_path: Path, cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    seats = load_game(game).num_players
    heard: dict[str, str] = {}
    for command in ("bot-check", "play"):
        log = tmp_path / f"{command}.log"
        bot = f"cmd:{sys.executable} {BOTS / 'record.py'} --record {log}"
        if command == "bot-check":
            out = io.StringIO()
            code = run_bot_check(bot, game, 1, 5, all_seats=False, max_hands=3, out=out)
            assert code == 0, out.getvalue()
        else:
            seed = derive_seed(5, "bot-check", 0)  # bot-check's first match's seed
            players = ",".join([f'"{bot}"', *["heuristic"] * (seats - 1)])
            played_by_play(cli, "--game", game, "--seed", str(seed), "--players", players,
                           "--max-hands", "3")  # fmt: skip
        heard[command] = log.read_text(encoding="utf-8")
    assert heard["bot-check"] == heard["play"]
    assert "|QUERY|" in heard["play"] and "|INFO|end game|" in heard["play"]


class Recorder(BaseHTTPRequestHandler):
    """A generic-scheme web bot: the first legal action; every request kept, without the
    match's random game id."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        _, _, player, event = self.path.split("/")
        self.server.heard.append((player, event, body))  # type: ignore[attr-defined]
        legal = body.get("legal")
        data = json.dumps({"action": legal[0]} if legal else {}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.parametrize("game", ["setback", "hearts", "euchre"])
def test_a_web_bot_is_sent_exactly_what_play_sends_it(
    game: str, cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    server.daemon_threads = True
    server.heard = []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    heard = {}
    try:
        out = io.StringIO()
        code = run_bot_check(url, game, 1, 5, all_seats=False, max_hands=2, out=out)
        assert code == 0, out.getvalue()
        heard["bot-check"], server.heard = server.heard, []  # type: ignore[attr-defined]
        players = ",".join([url, *["heuristic"] * (load_game(game).num_players - 1)])
        seed = str(derive_seed(5, "bot-check", 0))
        played_by_play(cli, "--game", game, "--seed", seed, "--players", players,
                       "--max-hands", "2")  # fmt: skip
        heard["play"] = server.heard  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()
    assert heard["bot-check"] == heard["play"]
    assert {"start", "deal", "end"} <= {event for _, event, _ in heard["play"]}


def test_a_bad_card_in_tricks_is_located_where_it_was_played(broken: Path) -> None:
    # Tricks throws the hand in at a bad card: where it was is rebuilt from the record.
    code, text = check(f"{broken}:Reneger", "tricks", matches=1, as_json=True)
    report = json.loads(text)
    assert code == 1 and report["faults"]
    for fault in report["faults"]:
        assert fault["kind"] == "illegal" and fault["penalty"].startswith("bad-card")
        assert re.fullmatch(r"hand \d+, trick \d+, decision \d+ \(play\), record action \d+",
                            fault["where"])  # fmt: skip
        assert fault["expected"].startswith("one of: play ")
        # The card it sent is not among those it was told were legal.
        sent = re.search(r"'play (\w\w)' is not legal", fault["detail"])
        assert sent is not None and f"play {sent[1]}" not in fault["expected"]
