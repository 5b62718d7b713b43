"""Bots as programs on stdin/stdout: the messages, seed 002's exact protocol, the example bots.

The conversation is tested without a process (its lines are plain strings), then through real
programs: the example bots in Python, JavaScript (Node) and C play full matches of Setback
and Tricks through the command line, and a recording bot in every seat of every registered
game shows that no program is ever told a card it may not know.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tricktable.bots import make_bot, split_players
from tricktable.cards import format_cards, mask_of, parse_cards
from tricktable.engine.trick import Game, TrickState
from tricktable.errors import BotError, BotFault, TricktableError
from tricktable.games import GAMES, load_game, register
from tricktable.match import Referee, RunnerOptions, play_match
from tricktable.protocols.messages import BadAnswer, Conversation, split_line
from tricktable.protocols.stdio import SubprocessBot
from tricktable.records import replay, to_record

ROOT = Path(__file__).parents[1]
BOTS = Path(__file__).parent / "bots"
EXAMPLES = ROOT / "examples" / "bots"
PY = sys.executable
Cli = Callable[..., subprocess.CompletedProcess[str]]
#: the game modules besides setback (the lead lists them in games.GAME_MODULES)
GAME_MODULES = ("tricks", "hearts", "spades", "euchre", "oh_hell", "filippa")


def game_named(module: str, spec: str | None = None) -> Game:
    """A game loaded from its module, registered first if the registry lacks it yet."""
    if module != "setback":
        try:
            game_class = importlib.import_module(f"tricktable.games.{module}").GAME
        except ImportError as exc:
            pytest.skip(f"tricktable.games.{module} is missing: {exc}")
        if game_class.name not in GAMES:
            register(game_class)
        name = game_class.name
    else:
        name = "setback"
    try:
        return load_game(spec or name)
    except TricktableError as exc:
        pytest.skip(f"{spec or name} does not load: {exc}")


def cli_env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def tricks_state(dealer: int = 3) -> TrickState:
    """A Tricks state with a known deal: seat 0 holds the clubs, seat 1 the diamonds..."""
    game = game_named("tricks")
    state = game.new_state(0)
    state.listen()  # conversations tell the seat's events
    suits = "CDHS"
    hands = [mask_of(parse_cards([r + s for r in "23456789TJQKA"])) for s in suits]
    state.deal(hands, dealer=dealer)
    return state


# ---------------------------------------------------------------------------- seed 002


def test_tricks_conversation_is_seed_002_word_for_word() -> None:
    state = tricks_state()
    talk = Conversation(state.game, 1)
    assert talk.start() == ["|INFO|start game|player1|player2|player3|player4|END|\n"]
    state.apply(state.game.parse_action("play AC"))  # seat 0 leads
    lines, key, legal = talk.query(state.view(1))
    assert lines == [
        "|INFO|start hand|0|END|\n",
        "|INFO|cards|2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD|END|\n",
        "|INFO|start trick|0|player1|player2|player3|player4|END|\n",
        "|INFO|played|player1|AC|END|\n",
        "|QUERY|card|END|\n",
    ]
    assert key == "card" and len(legal) == 13  # no club: any diamond
    assert (
        talk.answer(["RESPONSE", "card", "2D"], key, legal, state.view(1)) == parse_cards("2D")[0]
    )
    for text in ("play 2D", "play 2H", "play 2S"):
        state.apply(state.game.parse_action(text))
    # seat 0 won with the ace and leads again; seat 1 is asked once seat 0 has led.
    state.apply(state.game.parse_action("play KC"))
    lines, _, _ = talk.query(state.view(1))
    assert lines == [
        "|INFO|played|player2|2D|END|\n",
        "|INFO|played|player3|2H|END|\n",
        "|INFO|played|player4|2S|END|\n",
        "|INFO|end trick|0|player1|1|END|\n",
        "|INFO|start trick|1|player1|player2|player3|player4|END|\n",
        "|INFO|played|player1|KC|END|\n",
        "|QUERY|card|END|\n",
    ]
    # A bad card throws the hand in: every seat hears of it, with the answer as it was sent.
    talk.notice({"hand": 0, "action": 5, "seat": 1, "kind": "illegal", "answer": "floober"})
    state.penalize_bad_card(1)  # type: ignore[attr-defined]
    end = talk.end_hand(state.view(1), state.results[-1])
    assert end == ["|INFO|bad card|player2|floober|END|\n", "|INFO|end hand|0|END|\n"]
    assert talk.end_match(state.view(1)) == [
        "|INFO|end game|player1 1|player2 -100|player3 0|player4 0|END|\n"
    ]


def test_a_pass_received_is_told_once_the_cards_move_in_passing_order() -> None:
    game = game_named("hearts")
    state = game.new_state(0)
    state.listen()
    hands = [mask_of(parse_cards([r + s for r in "23456789TJQKA"])) for s in "CDHS"]
    state.deal(hands, dealer=3)  # the first hand passes left; seat 0 passes first
    talks = [Conversation(game, seat) for seat in range(4)]
    for seat in range(4):
        lines, key, _ = talks[seat].query(state.view(seat))
        assert key == "pass" and not any("|INFO|pass|" in text for text in lines)
        suit = "CDHS"[seat]
        state.apply(game.parse_action(f"pass 2{suit} 3{suit} 4{suit}"))
    told = [talk.sync(state.view(seat)) for seat, talk in enumerate(talks)]
    # Each seat hears of its own pass and the one it received, in the order they were made
    # (player2 passed to player3 before player3 passed), and of no other pass.
    assert told[2] == [
        "|INFO|pass|player2|2D 3D 4D|END|\n",
        "|INFO|pass|player3|2H 3H 4H|END|\n",
        "|INFO|cards|2D 3D 4D 5H 6H 7H 8H 9H TH JH QH KH AH|END|\n",
    ]
    assert told[0] == [
        "|INFO|pass|player1|2C 3C 4C|END|\n",
        "|INFO|pass|player4|2S 3S 4S|END|\n",  # the last pass, once only
        "|INFO|cards|5C 6C 7C 8C 9C TC JC QC KC AC 2S 3S 4S|END|\n",
    ]


def test_tricks_bad_card_names_the_card_when_nobody_noted_the_answer() -> None:
    state = tricks_state()
    talk = Conversation(state.game, 2)
    state.apply(state.game.parse_action("play AC"))
    state.penalize_bad_card(1, parse_cards("2C")[0])  # type: ignore[attr-defined]
    lines = talk.end_hand(state.view(2), state.results[-1])
    assert "|INFO|bad card|player2|2C|END|\n" in lines
    assert lines[-1] == "|INFO|end hand|0|END|\n"


#: every line seed 002 allows, server to client
SEED_002 = [
    r"\|INFO\|start game(\|player[1-4]){4}\|END\|",
    r"\|INFO\|end game(\|player[1-4] -?\d+){4}\|END\|",
    r"\|INFO\|cards\|([2-9TJQKA][CDHS] ){12}[2-9TJQKA][CDHS]\|END\|",
    r"\|INFO\|start hand\|\d+\|END\|",
    r"\|INFO\|end hand\|\d+\|END\|",
    r"\|INFO\|start trick\|\d+(\|player[1-4]){4}\|END\|",
    r"\|INFO\|end trick\|\d+\|player[1-4]\|-?\d+\|END\|",
    r"\|INFO\|played\|player[1-4]\|[2-9TJQKA][CDHS]\|END\|",
    r"\|INFO\|bad card\|player[1-4]\|[^|\n]*\|END\|",
    r"\|QUERY\|card\|END\|",
    r"\|RESPONSE\|card\|[2-9TJQKA][CDHS]\|END\|",  # the recording bot's own answers
]


def test_a_tricks_match_sends_only_seed_002_lines(tmp_path: Path) -> None:
    record = tmp_path / "seat0.txt"
    bots = [
        make_bot(f"cmd:{PY} {BOTS / 'record.py'} --record {record}"),
        make_bot(f"cmd:{PY} {BOTS / 'illegal.py'} --after 4"),
        make_bot("random"),
        make_bot("random"),
    ]
    referee = Referee()
    state = play_match(game_named("tricks", "tricks(target=25)"), bots, 5, referee=referee)
    assert state.is_over
    assert [f["kind"] for f in referee.faults] == ["illegal"]
    pattern = re.compile("|".join(f"(?:{p})" for p in SEED_002))
    lines = record.read_text(encoding="utf-8").splitlines()
    strays = [text for text in lines if not pattern.fullmatch(text)]
    assert strays == []
    assert lines[0] == "|INFO|start game|player1|player2|player3|player4|END|"
    assert lines[-1].startswith("|INFO|end game|")
    assert any(text.startswith("|INFO|bad card|player2|") for text in lines)
    # The hand is thrown in: it ends, and the next one starts from the same leader.
    scores = state.scores
    assert scores[1] < 0


# ------------------------------------------------------------------ answers and framing


def test_answers_are_read_strictly() -> None:
    state = load_game("setback").new_state(3)
    state.deal()
    seat = state.to_act
    view = state.view(seat)
    talk = Conversation(state.game, seat)
    lines, key, legal = talk.query(view)
    assert key == "bid" and lines[-1].startswith("|QUERY|bid|pass|")
    assert json.loads(lines[-2][len("|INFO|view|") : -len("|END|\n")])["seat"] == seat
    assert talk.answer(["RESPONSE", "bid", "pass"], key, legal, view) == 64
    with pytest.raises(BotFault) as bad:
        talk.answer(["RESPONSE", "card", "pass"], key, legal, view)
    assert bad.value.kind == "malformed" and "expected |RESPONSE|bid|" in bad.value.detail
    with pytest.raises(BadAnswer) as unknown:
        talk.answer(["RESPONSE", "bid", "bid lots"], key, legal, view)
    assert unknown.value.kind == "illegal" and unknown.value.answer == "bid lots"
    with pytest.raises(BadAnswer) as illegal:
        talk.answer(["RESPONSE", "bid", "bid 1"], key, legal, view)
    assert "must bid from 2 to 6" in illegal.value.detail


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("|RESPONSE|card|TD|END|", ["RESPONSE", "card", "TD"]),
        ("|RESPONSE|card|TD|END|\r", ["RESPONSE", "card", "TD"]),
        ("|QUERY|card|END|", ["QUERY", "card"]),
        ("RESPONSE|card|TD|END|", None),
        ("|RESPONSE|card|TD|", None),
        ("||card|END|", None),
        ("I play TD", None),
    ],
)
def test_lines_are_framed(text: str, fields: list[str] | None) -> None:
    assert split_line(text) == fields


def test_bot_specs() -> None:
    bot = make_bot(f"cmd:{PY} {EXAMPLES / 'python' / 'bot.py'}", RunnerOptions(decision_time=0.5))
    assert isinstance(bot, SubprocessBot) and bot.decision_time == 0.5
    assert bot.pid is None  # no process before the match
    bot.close()
    with pytest.raises(BotError, match="no such program"):
        make_bot("cmd:no-such-program-anywhere --flag")
    with pytest.raises(BotError, match="empty bot command"):
        make_bot("cmd:  ")
    with pytest.raises(BotError, match="unknown player"):
        make_bot("nobody")


def test_a_chat_line_with_bars_is_kept_whole(tmp_path: Path) -> None:
    script = tmp_path / "chatty.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('|QUERY|'):\n"
        "        key, data = line.split('|')[2], line.split('|')[3]\n"
        "        print('|CHAT|say|hello|there|END|')\n"
        "        print(f'|RESPONSE|{key}|{data.split()[0] if key == \"card\" else data}|END|',"
        " flush=True)\n",
        encoding="utf-8",
    )
    bots = [make_bot(f"cmd:{PY} {script}"), *(make_bot("heuristic") for _ in range(3))]
    referee = Referee()
    play_match(load_game("setback"), bots, 2, max_hands=2, referee=referee)
    assert referee.faults == []
    chat = bots[0].chat  # type: ignore[attr-defined]
    assert chat and chat[0] == "hello|there"


# -------------------------------------------------------------------- hidden cards


CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS]|JK|JL)(?![A-Za-z0-9])")


def _snapshots(record: dict, seat: int) -> list[tuple[str, int]]:
    """For each moment ``seat`` was told something: ("query"|"end", cards it may not know).

    Rebuilt from the record: before each of the seat's decisions, and at each hand's end.
    """
    game = load_game(record["game"], options=record["options"])
    state = game.new_state(record.get("seed"))
    out: list[tuple[str, int]] = []
    for hand in record["hands"]:
        cards = [parse_cards(d) for d in hand["deal"]]
        masks, stock = state.check_deal(cards)
        state.deal(masks, dealer=hand["dealer"], stock=stock)
        for text in hand["actions"]:
            if state.to_act == seat:
                out.append(("query", _unknown(state, seat)))
            state.apply(game.parse_action(text))
        out.append(("end", _unknown(state, seat)))
    return out


def _unknown(state: TrickState, seat: int) -> int:
    """The cards ``seat`` may not know now: every card not its own, not played, not shown."""
    known = state.dealt[seat] | state.hands[seat] | mask_of(state.trick)
    for won in state.won:
        known |= won
    if state.game.records_stock and state.stock:
        known |= 1 << state.stock[0]  # the up-card, face up for everyone
    return mask_of(state.game.deck) & ~known


def _segments(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The transcript cut where each batch of lines was sent: at each QUERY, each end hand."""
    out: list[tuple[str, list[str]]] = []
    batch: list[str] = []
    for text in lines:
        if text.startswith("|RESPONSE|"):
            continue
        batch.append(text)
        if text.startswith("|QUERY|"):
            out.append(("query", batch))
            batch = []
        elif text.startswith("|INFO|end hand|"):
            out.append(("end", batch))
            batch = []
    return out


#: tables of other sizes and shapes: Setback's six seats as three sides of two (partners
#: opposite) and two of three (alternating), three each for themselves; Tricks at three, where
#: seed 002's four-seat protocol gives way to the extended one
SHAPES = [
    ("setback", "setback(partners=3x2,players=6)"),
    ("setback", "setback(players=6)"),
    ("setback", "setback(partners=false,players=3)"),
    ("tricks", "tricks(players=3)"),
]


@pytest.mark.parametrize(("module", "spec"), SHAPES)
def test_any_table_size_plays_over_stdio(module: str, spec: str, tmp_path: Path) -> None:
    game = game_named(module, spec)
    n = game.num_players
    files = [tmp_path / f"seat{s}.txt" for s in range(n)]
    bots = [make_bot(f"cmd:{PY} {BOTS / 'record.py'} --record {f}") for f in files]
    referee = Referee()
    state = play_match(game, bots, 4, max_hands=2, referee=referee)
    assert referee.faults == [] and state.history
    names = "|".join(f"player{s + 1}" for s in range(n))
    for seat in range(n):
        lines = files[seat].read_text(encoding="utf-8").splitlines()
        assert lines[0] == f"|INFO|start game|{names}|END|"
        assert lines[1] == f"|INFO|game|{game.spec()}|END|"  # the extended protocol
        assert lines[2] == f"|INFO|seat|{seat}|END|"
        end = lines[-1].removeprefix("|INFO|end game|").removesuffix("|END|").split("|")
        # Each player's score is its side's: partners (seat s and s + sides) share one.
        scores = [int(field.split()[1]) for field in end]
        assert scores == [state.scores[game.team_of(s)] for s in range(n)]


@pytest.mark.parametrize(
    ("module", "spec"), [(m, None) for m in ("setback", *GAME_MODULES)] + SHAPES
)
def test_no_bot_is_told_a_hidden_card(module: str, spec: str | None, tmp_path: Path) -> None:
    game = game_named(module, spec)
    n = game.num_players
    files = [tmp_path / f"seat{s}.txt" for s in range(n)]
    bots = [make_bot(f"cmd:{PY} {BOTS / 'record.py'} --record {f}") for f in files]
    referee = Referee()
    state = play_match(game, bots, 11, max_hands=3, referee=referee)
    assert referee.faults == []
    record = to_record(state)
    replay(record)
    for seat in range(n):
        lines = files[seat].read_text(encoding="utf-8").splitlines()
        segments = _segments(lines)
        moments = _snapshots(record, seat)
        assert [kind for kind, _ in segments] == [kind for kind, _ in moments]
        for (_, batch), (_, hidden) in zip(segments, moments, strict=True):
            for text in batch:
                named = mask_of(parse_cards(CARD.findall(text)))
                leaked = named & hidden
                assert not leaked, f"seat {seat} was told {format_cards(leaked)}: {text}"


# ------------------------------------------------------------------ example bots


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The example C bot, built with the C compiler into a temporary folder."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler (gcc or cc) to build examples/bots/c/bot.c")
    out = tmp_path_factory.mktemp("cbot") / "bot"
    source = EXAMPLES / "c" / "bot.c"
    flags = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"]
    subprocess.run([cc, *flags, "-o", str(out), str(source)], check=True, capture_output=True)
    return str(out)


def node_bot() -> str:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the JavaScript example bot cannot run")
    return f"cmd:node {EXAMPLES / 'js' / 'bot.js'}"


@pytest.mark.parametrize("game_spec", ["setback", "tricks(target=60)"])
def test_three_languages_play_a_match_through_the_command_line(
    game_spec: str, c_bot: str, tmp_path: Path
) -> None:
    players = [
        node_bot(),
        f"cmd:{c_bot}",
        "heuristic",
        f"cmd:python3 {EXAMPLES / 'python' / 'bot.py'}",
    ]
    saved = tmp_path / "match.json"
    done = subprocess.run(
        [
            PY,
            "-m",
            "tricktable",
            "play",
            "--players",
            ",".join(players),
            "--game",
            game_spec,
            "--seed",
            "1",
            "--save",
            str(saved),
        ],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=120,
        check=False,
    )
    if "unknown game" in done.stderr:
        pytest.skip(f"{game_spec} is not registered in games.GAME_MODULES yet")
    assert done.returncode == 0, done.stderr
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record.get("faults", []) == []
    state = replay(record)
    assert state.is_over  # a full match, to its end
    assert "bot:cmd:node" in record["players"][0]


def test_a_command_holding_a_comma_goes_in_quotes(cli: Cli, tmp_path: Path) -> None:
    # The Python example ignores every argument but its name (the last): "--note=a,b" only
    # has to reach it whole for the bot to start and play.
    bot = f'"cmd:{PY} {EXAMPLES / "python" / "bot.py"} --note=a,b"'
    saved = tmp_path / "match.json"
    done = cli(
        "play",
        *("--game", "tricks(target=20)", "--seed", "2", "--save", str(saved)),
        *("--players", f"{bot},random,random,random"),
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record.get("faults", []) == []
    assert "--note=a,b" in record["players"][0]


def test_split_players() -> None:
    assert split_players('"cmd:p --x a,b", random ,heuristic') == [
        "cmd:p --x a,b",
        "random",
        "heuristic",
    ]
    with pytest.raises(TricktableError, match="cannot read the players"):
        split_players('"cmd:p,random,random,random')


def test_split_players_keeps_a_bots_options_together() -> None:
    assert split_players('pimc(worlds=20, max_seconds=0.2),heuristic, "cmd:p ""x"",y"') == [
        "pimc(worlds=20, max_seconds=0.2)",
        "heuristic",
        'cmd:p "x",y',
    ]
