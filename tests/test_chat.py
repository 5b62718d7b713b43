"""Chat everywhere: the terminal's ``say``, chat through the stdio and HTTP protocols, and the
throttle. Real parts throughout: the CLI as a child process, bots as programs and a loopback
HTTP server; each line said lands in the record (a note of the log) and replays."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from conftest import cli_env
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.characters.talk import match_talker
from tricktable.chat import named_cards
from tricktable.chat.rules import SAY_PER_DECISION, SAY_PER_HAND
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.protocols.http import HttpBot
from tricktable.records import load_record, replay
from tricktable.runner import MatchSpec, run_match

BOTS = Path(__file__).parent / "bots"
PY = sys.executable


def tricktable_cli(*args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**cli_env(), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [PY, "-m", "tricktable", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env=env,
        cwd=cwd,
    )


def chats(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every chat note of a record, in order."""
    hands = [*record.get("hands", []), record.get("unfinished_hand") or {}]
    notes = [*record.get("notes", []), *(n for h in hands for n in h.get("notes", []))]
    return [n for n in notes if n["kind"] == "chat"]


# ------------------------------------------------------------------------- the terminal


def test_say_at_the_prompt_goes_to_the_table_and_the_record(tmp_path: Path) -> None:
    target = tmp_path / "talk.json"
    stdin = "say hi vinnie\nsay I hold the AS\n?\n#1\nquit\n"
    run = tricktable_cli("play", "--seed", "4", "--players", "human,vinnie,edna,rosa",
                         "--save", str(target), stdin=stdin, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout
    said = out.index("You say: hi vinnie")
    # Vinnie (West) answers the greeting that names him, right after it.
    assert re.search(r"West says: \S", out[said:].split("You >")[0]), out[said : said + 400]
    # A line naming a card not face up is refused in one line, and nothing is lost:
    refused = [ln for ln in out.splitlines() if "not said:" in ln]
    assert len(refused) == 1 and "may name only cards face up" in refused[0]
    assert "AS" not in "".join(n["text"] for n in chats(load_record(target)))
    assert "say TEXT" in out  # the help lists it
    assert "You pass" in out  # the answer after the refused line is taken as ever
    record = load_record(target)
    mine = [n for n in chats(record) if n["seat"] == 0]
    assert [n["text"] for n in mine] == ["hi vinnie"]
    assert any(n["seat"] == 1 for n in chats(record))  # the characters talk too
    state = replay(record)
    assert ("chat", 0, "hi vinnie") in [(n.kind, n.seat, n.text) for n in state.notes]
    again = tricktable_cli("replay", str(target), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "says: hi vinnie" in again.stdout  # the replay shows the talk in its place


# --------------------------------------------------------------------------- stdio bots


def chat_bot(*options: str) -> str:
    return f"cmd:{PY} {BOTS / 'chat.py'} " + " ".join(options)


def test_a_program_chats_and_hears_the_table(tmp_path: Path) -> None:
    heard = tmp_path / "seat1.txt"
    spec = MatchSpec(
        game="setback",
        players=(chat_bot(), chat_bot("--record", str(heard)), "vinnie", "heuristic"),
        seed=3,
        max_hands=2,
    )
    outcome = run_match(spec)
    record = outcome.record
    assert record.get("faults", []) == []
    said = chats(record)
    texts0 = [n["text"] for n in said if n["seat"] == 0]
    assert texts0 and all(t.startswith("player1 thinks about") for t in texts0)
    lines = heard.read_text(encoding="utf-8").splitlines()
    told = [ln for ln in lines if ln.startswith("|INFO|chat|")]
    # Told what the others said (the program and the character), never its own lines.
    assert f"|INFO|chat|player1|{texts0[0]}|END|" in told
    assert any(ln.startswith("|INFO|chat|player3|") for ln in told)
    assert not any(ln.startswith("|INFO|chat|player2|") for ln in told)
    # The record replays with the talk in place.
    assert [n.text for n in replay(record).notes if n.kind == "chat"] == [n["text"] for n in said]


def test_a_flooding_program_is_throttled_once_and_plays_on() -> None:
    bots = [make_bot(chat_bot("--lines", "5")), *(make_bot("heuristic") for _ in range(3))]
    referee = Referee()
    state = play_match(load_game("setback"), bots, 2, max_hands=3, referee=referee)
    kept = [n for n in state.notes if n.kind == "chat"]
    assert [(f["kind"], f["penalty"]) for f in referee.faults] == [("flood", "none")]
    assert "throttled" in referee.faults[0]["detail"]
    assert not any(n.kind == "substitute" for n in state.notes)  # it plays on
    for hand in range(len(state.history)):
        assert 0 < sum(n.hand == hand for n in kept) <= SAY_PER_HAND
    # Each kept line of a decision is among its first SAY_PER_DECISION.
    assert all(int(n.text.rsplit(".", 1)[1]) < SAY_PER_DECISION for n in kept)


def test_a_line_naming_a_hidden_card_is_dropped_as_a_chat_fault() -> None:
    bots = [make_bot(chat_bot("--hidden")), *(make_bot("heuristic") for _ in range(3))]
    referee = Referee()
    state = play_match(load_game("setback"), bots, 2, max_hands=1, referee=referee)
    assert referee.faults and {(f["kind"], f["penalty"]) for f in referee.faults} == {
        ("chat", "none")
    }
    assert "may name only cards face up" in referee.faults[0]["detail"]
    assert not [n for n in state.notes if n.kind == "chat" and named_cards(n.text)]
    assert not any(n.kind == "substitute" for n in state.notes)
    assert len(state.results) == 1  # the hand was played out by the same bot


@pytest.mark.parametrize("spelling", ["mixed", "lower", "spaced", "invisible", "words"])
def test_a_card_named_in_any_spelling_is_never_heard(tmp_path: Path, spelling: str) -> None:
    # A program says "I hold Kc" (its first card, in the spelling given) before each answer;
    # another program records every line it is told: it never hears one of them.
    heard = tmp_path / "heard.txt"
    bots = [make_bot(chat_bot("--hidden", "--spelling", spelling)),
            make_bot(chat_bot("--record", str(heard))), make_bot(chat_bot()),
            make_bot("heuristic")]  # fmt: skip
    referee = Referee()
    try:
        state = play_match(load_game("setback"), bots, 6, max_hands=2, referee=referee)
    finally:
        for bot in bots:
            bot.close()
    refused = [f for f in referee.faults if f["seat"] == 0]
    assert refused and {f["kind"] for f in refused} == {"chat"}
    assert all("may name only cards face up" in f["detail"] for f in refused)
    assert not [n for n in state.notes if n.kind == "chat" and n.seat == 0]
    told = heard.read_text(encoding="utf-8").splitlines()
    assert any(ln.startswith("|INFO|chat|player3|") for ln in told)  # it hears the table
    assert not [ln for ln in told if ln.startswith("|INFO|chat|player1|")]
    assert not [ln for ln in told if "I hold" in ln]


def test_tricks_passes_no_chat_on(tmp_path: Path) -> None:
    heard = tmp_path / "tricks.txt"
    bots = [make_bot(chat_bot()), make_bot(chat_bot("--record", str(heard))),
            make_bot("random"), make_bot("random")]  # fmt: skip
    referee = Referee()
    state = play_match(load_game("tricks(target=25)"), bots, 5, referee=referee, max_hands=2)
    assert referee.faults == []
    assert not [n for n in state.notes if n.kind == "chat"]
    assert "chat" not in heard.read_text(encoding="utf-8")
    assert bots[0].chat  # type: ignore[attr-defined]  # kept, as seed 002 allows, not passed on


# ---------------------------------------------------------------------------- HTTP bots


class Talking(BaseHTTPRequestHandler):
    """A generic-scheme bot that plays the first legal action, says a line with each answer
    and records every request."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length))
        self.server.requests.append((self.path, body))  # type: ignore[attr-defined]
        event = self.path.partition("?")[0].rsplit("/", 1)[1]
        legal = body.get("legal")
        answer: dict[str, Any] = {}
        if legal:
            answer = {"action": legal[0], "say": f"my {event}, {body.get('hand_number')}"}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Talking)
    httpd.daemon_threads = True
    httpd.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_an_http_bot_says_and_hears(server: ThreadingHTTPServer) -> None:
    host, port = server.server_address[:2]
    url = f"http://{host}:{port}/"
    bots: list[Bot] = [HttpBot(url), make_bot(chat_bot()), make_bot("heuristic"), HttpBot(url)]
    referee = Referee()
    try:
        state = play_match(load_game("setback"), bots, 4, referee=referee, max_hands=2)
    finally:
        for bot in bots:
            bot.close()
    assert referee.faults == []
    said = [n for n in state.notes if n.kind == "chat"]
    assert any(n.seat == 0 and n.text.startswith("my bid") for n in said)
    assert any(n.seat == 3 and n.text.startswith("my play") for n in said)
    heard = [
        (path.split("/")[2], body)
        for path, body in server.requests  # type: ignore[attr-defined]
        if path.endswith("/chat")
    ]
    # Player 1 hears the program at seat 1 and its fellow HTTP seat, never itself.
    assert {body["seat"] for player, body in heard if player == "1"} == {1, 3}
    assert all(set(body) == {"hand_number", "seat", "text"} for _, body in heard)


def test_spades_sends_seed_004_events_only_whoever_talks() -> None:
    path = Path(__file__).parents[1] / "examples/bots/http_spades_bot.py"
    spec = importlib.util.spec_from_file_location("http_spades_bot_chat", path)
    assert spec is not None and spec.loader is not None
    seed_bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(seed_bot)
    paths: list[str] = []

    class Counting(seed_bot.Handler):  # type: ignore[name-defined, misc]
        def do_POST(self) -> None:
            paths.append(self.path)
            super().do_POST()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    host, port = httpd.server_address[:2]
    bots: list[Bot] = [HttpBot(f"http://{host}:{port}/"), make_bot(chat_bot()),
                       make_bot("heuristic"), make_bot(chat_bot())]  # fmt: skip
    referee = Referee()
    try:
        state = play_match(load_game("spades"), bots, 5, referee=referee, max_hands=1)
    finally:
        for bot in bots:
            bot.close()
        httpd.shutdown()
        httpd.server_close()
        thread.join()
    # 14 decisions a hand, a line each: throttled past 10, which costs no forfeit here.
    assert [(f["seat"], f["kind"], f["penalty"]) for f in referee.faults] == [
        (1, "flood", "none"),
        (3, "flood", "none"),
    ]
    assert len(state.results) == 1 and not any(n.kind == "forfeit" for n in state.notes)
    assert any(n.kind == "chat" for n in state.notes)  # the programs talked
    events = {p.rsplit("/", 1)[1] for p in paths}
    assert events <= {"blind", "deal", "bid", "play", "book"}  # seed 004's, no chat


# ------------------------------------------------------------------ labels are not names


def test_bots_hear_names_never_labels(tmp_path: Path, server: ThreadingHTTPServer) -> None:
    # A program's command line and a web service's URL hold secrets; characters talk about
    # every seat; every line the other bots are told (a program's stdin, an HTTP bot's
    # posts) and every line of the record holds neither secret.
    host, port = server.server_address[:2]
    web = f"http://{host}:{port}/?token=WEBSECRET"
    heard = tmp_path / "heard.txt"
    program = chat_bot("--api-key=CMDSECRET", "--record", str(heard))
    said: list[str] = []
    for seed in range(3):
        spec = MatchSpec("setback", (program, "vinnie", web, "kit"), seed=seed, max_hands=4)
        outcome = run_match(spec)
        assert [f for f in outcome.record.get("faults", []) if f["kind"] != "flood"] == []
        said += [n["text"] for n in chats(outcome.record)]
        assert "CMDSECRET" in json.dumps(outcome.record["players"])  # the record keeps labels
    assert not [t for t in said if "SECRET" in t or "cmd:" in t or "http" in t]
    told = heard.read_text(encoding="utf-8")
    assert "|INFO|chat|player2|" in told and "Web bot" in told  # it heard the talk
    assert "SECRET" not in told and "http" not in told
    requests = server.requests  # type: ignore[attr-defined]
    bodies = json.dumps([body for _, body in requests])
    assert any(path.endswith("/chat?token=WEBSECRET") for path, _ in requests)
    assert "SECRET" not in bodies and "cmd:" not in bodies
    assert "CMDSECRET" not in json.dumps([path for path, _ in requests])
    # The characters spoke of these seats by the names they show, and know no others.
    assert any("Program" in text or "Web bot" in text for text in said)
    state = outcome.state
    assert state is not None
    talker = match_talker(state, [make_bot(p) for p in ("heuristic", "vinnie", "random", "kit")],
                          outcome.labels)  # fmt: skip
    assert talker is not None
    assert {tuple(s.names) for s in talker.speakers.values()} == {
        ("Program", "Vinnie", "Web bot", "Kit")
    }
