"""The readable account of a match (``tricktable replay PATH`` without ``--json``)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import tricktable
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine import actions as act
from tricktable.engine.trick import TrickState, View
from tricktable.games import GAMES, load_game, names
from tricktable.match import Referee, play_match
from tricktable.records import load_record, replay, save_record, to_record
from tricktable.ui.account import render_account

VECTORS = Path(__file__).parents[2] / "shared/vectors/setback"
SUIT_WORDS = {"C": "clubs ♣", "D": "diamonds ♦", "H": "hearts ♥", "S": "spades ♠"}

needs_vectors = pytest.mark.skipif(
    not VECTORS.is_dir(), reason=f"the shared test vectors are not at {VECTORS}"
)


def account(state: TrickState, players: object = None) -> str:
    """The account as plain text, as a pipe would get it."""
    out = io.StringIO()
    render_account(state, players, console=Console(file=out, width=120, soft_wrap=True))
    return out.getvalue()


def short_vectors() -> list[Path]:
    """The vectors of at most 20 hands (the long ones add time, not cases)."""
    if not VECTORS.is_dir():
        return []
    paths = sorted(VECTORS.glob("match-*.record.json"))
    return [p for p in paths if len(load_record(p)["hands"]) <= 20]


@needs_vectors
def test_account_of_a_vector_shows_every_hand_trick_and_score() -> None:
    record = load_record(VECTORS / "match-00.record.json")
    expected = json.loads((VECTORS / "match-00.result.json").read_text(encoding="utf-8"))
    text = account(replay(record))
    hands = expected["hands"]
    banners = re.findall(r"Hand (\d+) · ", text)
    assert banners == [str(i) for i in range(1, len(hands) + 1)]
    assert len(re.findall(r"^  [1-6]\. ", text, re.M)) == 6 * len(hands)  # every trick
    sections = re.split(r"Hand \d+ · ", text)[1:]
    for hand, section in zip(hands, sections, strict=True):
        assert f"trump is {SUIT_WORDS[hand['trump']]}" in section
        scores = hand["scores"]
        assert f"Scores: South & North {scores[0]} · West & East {scores[1]}" in section
        for point in ("High", "Low", "Jack", "Off-jack", "Joker", "Game"):
            assert re.search(rf"^ {point} ", section, re.M), point
    if expected["winner"] is not None:
        team = ("South & North", "West & East")[expected["winner"]]
        assert f"{team} win the match" in text


@needs_vectors
@pytest.mark.parametrize("path", short_vectors(), ids=lambda p: p.name)
def test_every_vector_has_an_account_that_ends_with_its_result(path: Path) -> None:
    state = replay(load_record(path))
    text = account(state)
    assert len(re.findall(r"Hand \d+ · ", text)) == len(state.results)
    if state.winner is None:
        assert "No winner yet" in text
    else:
        assert "win the match" in text


def replay_command(path: Path, encoding: str) -> subprocess.CompletedProcess[str]:
    """``tricktable replay PATH`` writing its standard output in ``encoding``."""
    env = dict(os.environ)
    src = str(Path(tricktable.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    env["PYTHONIOENCODING"] = encoding
    return subprocess.run(
        [sys.executable, "-m", "tricktable", "replay", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env=env,
    )


@needs_vectors
def test_replay_command_prints_the_account() -> None:
    run = replay_command(VECTORS / "match-06.record.json", "utf-8")
    assert run.returncode == 0, run.stderr
    assert "Hand 1 · " in run.stdout and "Scores: " in run.stdout
    assert re.search(r"trump is \w+ [♣♦♥♠]", run.stdout)
    assert run.stderr == ""
    # The vectors name no seed: the one replay drew to rebuild it is not shown as the match's.
    assert "seed" not in run.stdout.splitlines()[0]


@needs_vectors
def test_an_ascii_terminal_gets_letters_for_suits() -> None:
    run = replay_command(VECTORS / "match-06.record.json", "ascii")
    assert run.returncode == 0, run.stderr
    assert "Hand 1 | " in run.stdout
    assert re.search(r"trump is \w+ [CDHS]$", run.stdout, re.M)
    assert "?" not in run.stdout


def test_players_are_named_beside_their_seats() -> None:
    state = load_game("setback").new_state(3)
    text = account(state, ["ann", "bot:random", "bob", "bot:heuristic"])
    assert "South: seat 0, ann" in text and "East: seat 3, bot:heuristic" in text
    assert "No winner yet after 0 hands" in text
    for malformed in (7, "abcd", ["one"]):  # a record's players are not checked by replay
        assert "South: seat 0 · West: seat 1 · " in account(state, malformed)


def test_an_unfinished_hand_is_shown_as_far_as_it_went() -> None:
    state = load_game("setback").new_state(9)
    state.deal()
    for _ in range(6):  # the auction and the first plays
        state.apply(state.legal_actions()[-1])
    text = account(state)
    assert "Auction: " in text
    assert "The hand stops here, unfinished." in text
    assert "No winner yet after 0 hands" in text


def test_a_hand_thrown_in_says_so() -> None:
    state = load_game("setback-classic").new_state(4)
    state.deal()
    for _ in range(4):
        state.apply(act.PASS)
    text = account(state)
    assert "the deal is thrown in; nobody scores" in text


@pytest.mark.parametrize("name", names())
def test_every_variant_has_an_account(name: str) -> None:
    game = load_game(name)
    bots = [make_bot("random") for _ in range(game.num_players)]
    state = play_match(game, bots, seed=21, max_hands=3)
    text = account(state)
    # Random bidders may end a match early (Spades falls to -200): every hand played is shown.
    assert len(re.findall(r"Hand \d+ · ", text)) == len(state.history) >= 1
    assert text.count("Scores: ") == len(state.results)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replay_command_gives_an_account_of_every_game(tmp_path: Path, name: str) -> None:
    game = load_game(name)
    n = game.num_players
    state = play_match(game, [make_bot("random") for _ in range(n)], seed=8, max_hands=2)
    path = tmp_path / f"{name}.json"
    labels = [("ann", "bot:random", "bob", "bot:random")[s % 4] for s in range(n)]
    save_record(to_record(state, labels), path)
    run = replay_command(path, "utf-8")
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert "South: seat 0, ann" in text
    banners = re.findall(r"Hand (\d+) · ([A-Z][a-z]+) deals", text)
    assert [int(n) for n, _ in banners] == list(range(1, len(state.history) + 1))
    assert text.count("Scores: ") == len(state.results)
    assert len(re.findall(r"^  \d+\. ", text, re.M)) == sum(len(r) for r in _tricks(state))
    assert ("No winner yet" in text) != state.is_over


def _tricks(state: TrickState) -> list[list[int]]:
    """The tricks of every hand, replayed (the state keeps only the last hand's)."""
    replayed = state.game.new_state(state.seed)
    out = []
    for log in state.history:
        replayed.deal(log.deal, dealer=log.dealer, stock=log.stock)
        for action in log.actions:
            replayed.apply(action)
        out.append([w for _, _, w in replayed.tricks])
    return out


class Crasher(Bot):
    """A bot that fails at its first decision."""

    name = "crasher"

    def act(self, view: View) -> int:
        raise RuntimeError("boom")


def test_a_forfeit_ends_the_account() -> None:
    # In Spades a bot's fault forfeits the match (seed 004): the record keeps the fault.
    referee = Referee()
    bots = [make_bot("random"), Crasher(), make_bot("random"), make_bot("random")]
    live = play_match(load_game("spades"), bots, seed=1, referee=referee)
    assert live.is_over and live.winner == 0
    for state in (live, replay(to_record(live, faults=referee.faults))):
        text = account(state)
        assert "South & North win the match by forfeit, 0 to 0, after 0 hands." in text
