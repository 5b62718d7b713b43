"""``tricktable play``: real subprocesses with piped input, the person at the table, and the
human's answers in-process."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

import tricktable
from tricktable.cards import card_name, cards_in, mask_of, parse_cards
from tricktable.engine import actions as act
from tricktable.engine.trick import TrickState
from tricktable.errors import IllegalAction, NotationError
from tricktable.games import GAMES, load_game
from tricktable.records import load_record, replay
from tricktable.runner import MatchSpec, run_match
from tricktable.table import Table
from tricktable.ui.answers import read_answer
from tricktable.ui.human import HumanPlayer
from tricktable.ui.terminal import TableDisplay, seat_names

SRC = str(Path(tricktable.__file__).resolve().parents[1])
BOTS = "heuristic,random,heuristic,random"


def child_env() -> dict[str, str]:
    """The environment of a child ``tricktable``: our source tree first, UTF-8, wide lines."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    env["PYTHONIOENCODING"] = "utf-8"
    env["COLUMNS"] = "200"  # Rich wraps at 80 in a pipe; keep each message on one line
    env["USER"] = "tester"
    return env


def source_env() -> dict[str, str]:
    """``child_env`` with the repository's source tree first: plain Python, which the planted
    engine bug can patch (the installed copy is compiled)."""
    env = child_env()
    repo_src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join([repo_src, env["PYTHONPATH"]])
    return env


def play(
    *args: str, stdin: str = "", cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``tricktable play ARGS`` with ``stdin`` piped in."""
    return subprocess.run(
        [sys.executable, "-m", "tricktable", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        env=child_env(),
        cwd=cwd,
    )


def saved_path(output: str, cwd: Path) -> Path:
    """The record path the game says it saved to."""
    match = re.search(r"record saved to (\S+)", output)
    assert match, output[-2000:]
    path = Path(match.group(1))
    return path if path.is_absolute() else cwd / path


def seed_with_first_dealer(seat: int) -> int:
    """A seed whose first dealer is ``seat`` (so the seat after it bids first)."""
    game = load_game("setback")
    return next(s for s in range(1000) if game.new_state(s).dealer == seat)


# ----------------------------------------------------------------------------- unattended


def test_unattended_match_plays_to_the_end_and_saves_the_same_record_twice(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    run = play("--players", BOTS, "--seed", "7", "--save", str(first))
    assert run.returncode == 0, run.stderr
    assert "win the match" in run.stdout
    assert f"record saved to {first}" in run.stdout
    assert re.search(r"^Hand +1: ", run.stdout, re.M)  # one compact line per hand
    state = replay(load_record(first))
    assert state.is_over and state.winner is not None
    record = load_record(first)
    assert record["seed"] == 7
    assert record["players"] == ["bot:heuristic", "bot:random", "bot:heuristic", "bot:random"]
    assert "unfinished_hand" not in record

    again = play("--players", BOTS, "--seed", "7", "--save", str(second))
    assert again.returncode == 0, again.stderr
    assert load_record(second) == record
    assert again.stdout.replace(str(second), str(first)) == run.stdout


def test_unattended_match_saves_nothing_without_save(tmp_path: Path) -> None:
    run = play("--players", BOTS, "--seed", "11", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "win the match" in run.stdout
    assert "record saved" not in run.stdout
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------- bad setup


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("human,nobody,random,random", "unknown player 'nobody'"),
        (",".join(["human"] + ["random"] * 7), "setback is played by 2 to 7 players, not 8"),
        ("human,,random,random", "--players needs 4 comma-separated players"),
    ],
)
def test_bad_players_are_one_line_and_exit_2(tmp_path: Path, players: str, message: str) -> None:
    run = play("--players", players, "--seed", "1", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith("error: ") and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "records").exists()


def test_bad_game_is_one_line_and_exit_2() -> None:
    run = play("--game", "setback(target=zero)", "--players", BOTS)
    assert run.returncode == 2
    assert run.stderr.startswith("error: ") and len(run.stderr.strip().splitlines()) == 1


def test_a_save_path_that_cannot_be_written_fails_before_playing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    run = play("--players", BOTS, "--seed", "1", "--save", str(blocker / "m.json"))
    assert run.returncode == 2
    assert run.stderr.startswith("error: cannot write record") and "Hand" not in run.stdout
    # a folder that does not exist is not made: a typo in --save fails before the match
    run = play("--players", BOTS, "--seed", "1", "--save", str(tmp_path / "typo" / "m.json"))
    assert run.returncode == 2 and "no folder" in run.stderr and "Hand" not in run.stdout
    assert not (tmp_path / "typo").exists()


# ------------------------------------------------------------------------------- a human


def test_bad_answers_get_a_clear_line_and_a_new_prompt(tmp_path: Path) -> None:
    # The dealer is East (seat 3), so the human (seat 0) bids first, before any bot acts.
    seed = seed_with_first_dealer(3)
    answers = ["xyz", "bid 99", "play ZZ", "bid 1", "?", "hand", "pass", "1", "1"]
    run = play("--players", BOTS.replace("heuristic", "human", 1), "--seed", str(seed),
               stdin="\n".join(answers) + "\n", cwd=tmp_path)  # fmt: skip
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert f"seed {seed}" in out
    assert "✗ unknown action 'xyz': write pass, bid N or play CARD" in out
    assert "✗ 'bid 99' is not legal: you must bid from 2 to 6" in out
    assert "✗ unknown card 'zz'" in out
    assert "✗ 'bid 1' is not legal: you must bid from 2 to 6" in out
    assert "The rules in brief" in out  # "?"
    assert out.count("Your hand: ") >= 3  # the first turn, "hand", and a play after the auction
    assert out.count("You > ") == len(answers) + 1  # a new prompt after every answer
    assert "Auction: You pass" in out  # "pass" was taken, and the game went on
    assert "End of input: stopped." in out
    path = saved_path(out, tmp_path)
    assert path.parent == tmp_path / "records" and path.name.startswith(f"match-{seed}-")
    record = load_record(path)
    assert record["players"][0] == "tester"
    assert record["unfinished_hand"]["actions"][0] == "pass"
    assert replay(record).results == []  # no hand finished: the record replays to nothing yet


def test_a_long_answer_is_clipped_where_it_is_repeated(tmp_path: Path) -> None:
    seed = seed_with_first_dealer(3)  # the human bids first
    answers = ["x" * 5000, "7" * 5000, "bid " + "9" * 5000, "play " + "z" * 5000, "pass"]
    run = play("--players", BOTS.replace("heuristic", "human", 1), "--seed", str(seed),
               stdin="\n".join(answers) + "\n", cwd=tmp_path)  # fmt: skip
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and run.stderr == ""
    assert "x" * 41 not in out and "7" * 41 not in out and "9" * 41 not in out
    assert "z" * 41 not in out
    assert f"✗ unknown action '{'x' * 39}…': write pass, bid N or play CARD" in out
    assert f"✗ '{'7' * 39}…' is not legal: you must bid from 2 to 6" in out
    assert f"✗ unknown card '{'z' * 39}…'" in out
    assert f"You > {'x' * 39}…\n" in out  # the echo of piped input is clipped the same way
    assert "Auction: You pass" in out


def test_in_the_auction_a_bare_number_is_a_bid_and_hash_n_a_choice(tmp_path: Path) -> None:
    seed = seed_with_first_dealer(3)  # the human bids first
    answers = ["1", "?", "#1"]
    run = play("--players", BOTS.replace("heuristic", "human", 1), "--seed", str(seed),
               stdin="\n".join(answers) + "\n", cwd=tmp_path)  # fmt: skip
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert "✗ '1' is not legal: you must bid from 2 to 6" in out  # 1 is a bid, not choice 1
    assert "here a number is always a bid" in out  # "?" says so
    assert "#N: choice N of the list" in out
    assert "Auction: You pass" in out  # "#1" is the first choice: pass


def test_quit_stops_and_saves_where_asked(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "game.json"
    target.parent.mkdir()
    run = play("--seed", "4", "--players", "human,random,random,random", "--save", str(target),
               stdin="quit\n")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Stopped." in run.stdout and f"record saved to {target}" in run.stdout
    assert "unfinished_hand" in load_record(target)


def test_a_whole_match_answering_the_first_choice_every_time(tmp_path: Path) -> None:
    target = tmp_path / "full.json"
    run = play("--seed", "5", "--save", str(target), stdin="#1\n" * 4000)  # human v 3 heuristic
    assert run.returncode == 0, run.stderr
    assert re.search(r"You (win!|lose\.) .* win the match", run.stdout)
    assert f"record saved to {target}" in run.stdout
    assert "High" in run.stdout and "Game" in run.stdout and "Scores: You & North" in run.stdout
    state = replay(load_record(target))
    assert state.is_over and state.winner is not None
    final = state.scores
    assert f"{final[state.winner]} to {final[1 - state.winner]}" in run.stdout


def _signal_masks(pid: int) -> list[str]:
    """The Sig* lines of a process's /proc status, and each thread's SigBlk ([] off Linux)."""
    try:
        lines = [ln for ln in Path(f"/proc/{pid}/status").read_text().splitlines() if "Sig" in ln]
        for task in sorted(Path(f"/proc/{pid}/task").iterdir()):
            status = (task / "status").read_text().splitlines()
            lines += [f"{task.name}: {ln}" for ln in status if ln.startswith(("Name", "SigBlk"))]
        return lines
    except OSError:
        return []


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
def test_ctrl_c_at_the_prompt_saves_and_exits_130(tmp_path: Path) -> None:
    target = tmp_path / "cut.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tricktable", "play", "--seed", "2", "--save", str(target),
         "--players", "human,random,random,random"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(),
        # Ctrl-C as a terminal has it: a suite run in the background (a shell's "&") inherits
        # SIGINT ignored, and so would the child, which then never sees it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + 30
    while b"You > " not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
    assert b"You > " in seen, seen.decode(errors="replace")
    signals = _signal_masks(proc.pid)  # what the child blocks, ignores and catches, if it fails
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    out = (seen + rest).decode()
    assert proc.returncode == 130, (err.decode(), signals, out[-400:])
    assert "Interrupted." in out and f"record saved to {target}" in out
    assert b"Traceback" not in err
    assert "unfinished_hand" in load_record(target)


# ------------------------------------------------------------------------ at the table

#: a bot that answers once, then never again (an in-process bot: only a driver can time it out)
HANGING_BOT = """
import time

from tricktable.bots.base import Bot


class Hanging(Bot):
    name = "hanging"
    calls = 0

    def act(self, view):
        self.calls += 1
        if self.calls > 1:
            time.sleep(600)
        return view.legal_actions()[0]
"""


def test_a_person_plays_at_a_table_whose_bots_keep_their_time_limits(tmp_path: Path) -> None:
    # With a person the match runs at a table, whose driver asks each bot in a thread of its
    # own within its time: the bot that hangs is timed out and replaced, the person plays on.
    # (The loop of bots alone calls an in-process bot directly: it would wait for ever.)
    bot = tmp_path / "hang.py"
    bot.write_text(HANGING_BOT, encoding="utf-8")
    target = tmp_path / "m.json"
    run = play("--players", f"human,{bot}:Hanging,random,random", "--seed", "3",
               "--max-hands", "2", "--decision-time", "0.3", "--save", str(target),
               stdin="#1\n" * 200)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "West's bot failed (timeout): the heuristic bot plays for West from now on" in run.stdout
    record = load_record(target)
    faults = [(f["seat"], f["kind"], f["penalty"]) for f in record["faults"]]
    assert faults == [(1, "timeout", "substitute")]
    assert len(record["hands"]) == 2 and "unfinished_hand" not in record


def test_refused_answers_change_nothing_the_match_is_the_good_answers_one(
    tmp_path: Path,
) -> None:
    # "bid 1" reads as an action, so it goes to the table, which refuses it with the engine's
    # reason (in the auction and in the play): the match is the one "#1" alone plays.
    players = "human,heuristic,random,heuristic"
    plain, tried = tmp_path / "plain.json", tmp_path / "tried.json"
    first = play("--players", players, "--seed", "4", "--max-hands", "3", "--save", str(plain),
                 stdin="#1\n" * 400)  # fmt: skip
    second = play("--players", players, "--seed", "4", "--max-hands", "3", "--save", str(tried),
                  stdin="bid 1\n#1\n" * 400)  # fmt: skip
    assert first.returncode == second.returncode == 0, second.stderr
    out = second.stdout
    assert "✗ 'bid 1' is not legal: you must bid from 2 to 6" in out
    assert "✗ 'bid 1' is not legal: you must play a card, the auction is over" in out
    assert load_record(tried) == load_record(plain)


def test_the_person_acts_through_the_table_and_a_refusal_changes_nothing() -> None:
    game = load_game("setback")
    spec = MatchSpec(game.spec(), ("human", "heuristic", "random", "heuristic"), 4, max_hands=2)
    refused: list[str] = []

    class Watched(HumanPlayer):
        """The person ``play`` seats, its submissions checked on their way to the table."""

        async def attend(self, table: Table, seat: int) -> None:
            submit = table.submit

            def checked(seat: int, action: int | str) -> int:
                before = (table.version, table.state.actions[:], table.events_since(seat))
                try:
                    return submit(seat, action)
                except IllegalAction as exc:
                    assert (table.version, table.state.actions, table.events_since(seat)) == before
                    refused.append(exc.reason)
                    raise

            table.submit = checked  # type: ignore[method-assign]
            await super().attend(table, seat)

    def person(answers: Iterator[str], cls: type[HumanPlayer] = HumanPlayer) -> HumanPlayer:
        display = TableDisplay(Console(file=io.StringIO(), width=200), game, seat_names([0]))
        display.humans = [0]
        return cls(display, read=lambda prompt: next(answers), echo=False)

    watched = person(itertools.cycle(["bid 1", "#1"]), Watched)
    outcome = run_match(spec, bots={0: watched})
    assert "must bid from 2 to 6" in refused and "must play a card, the auction is over" in refused
    text = watched.display.console.file.getvalue()  # type: ignore[attr-defined]
    assert "✗ 'bid 1' is not legal: you must bid from 2 to 6" in text
    assert outcome.record == run_match(spec, bots={0: person(itertools.repeat("#1"))}).record


# ------------------------------------------------------------------ the answers, in-process


def auction_state() -> tuple[object, int]:
    """A Setback hand dealt by East, so seat 0 bids first; seat 0 holds 10♦ Q♦ 7♣ J♣ A♥ JK."""
    game = load_game("setback")
    state = game.new_state(1)
    hands = [
        "TD QD 7C JC AH JK",
        "2C 3C 4C 5C 6C 8C",
        "2D 3D 4D 5D 6D 7D",
        "2S 3S 4S 5S 6S 7S",
    ]
    state.deal([mask_of(parse_cards(h)) for h in hands], dealer=3)
    return state, 0


def answer(text: str, state: TrickState) -> int:
    """What the human player reads ``text`` as, through the seat-to-act's view."""
    return read_answer(text, state.view(state.to_act))


def test_answers_in_the_auction() -> None:
    state, _ = auction_state()
    assert answer("pass", state) == act.PASS
    assert answer("  P ", state) == act.PASS
    assert answer("#1", state) == act.PASS  # #N: the Nth choice listed
    assert answer("# 2", state) == act.bid(2)
    assert answer("3", state) == act.bid(3)  # a bare number is a bid
    with pytest.raises(IllegalAction, match="must bid from 2 to 6"):
        answer("1", state)  # a bid too, 1 included, though Setback has no bid of 1
    with pytest.raises(NotationError, match="there is no choice #7: pick #1 to #6"):
        answer("#7", state)
    assert answer("bid 6", state) == act.bid(6)
    with pytest.raises(IllegalAction, match="must bid from 2 to 6"):
        answer("bid 7", state)
    with pytest.raises(IllegalAction, match="must bid from 2 to 6"):
        answer("bid -4", state)
    with pytest.raises(IllegalAction, match="must bid or pass"):
        answer("TD", state)
    with pytest.raises(IllegalAction, match="must bid from 2 to 6"):
        answer("9", state)
    with pytest.raises(IllegalAction, match="must bid from 2 to 6"):
        answer("0", state)
    with pytest.raises(NotationError, match="unknown action"):
        answer("²", state)
    state.apply(act.bid(4))
    with pytest.raises(IllegalAction, match="more than the high bid of 4"):
        answer("3", state)


def test_answers_in_play() -> None:
    state, _ = auction_state()
    state.apply(act.bid(6))  # six ends the auction: seat 0 declares and leads
    ten = parse_cards("TD")[0]
    for text in ("play TD", "TD", "td", "10d", "10D", "t♦", "10♦", "play 10d"):
        assert read_answer(text, state) == ten, text
    legal = state.legal_actions()
    assert answer("1", state) == legal[0] == answer("#1", state)
    assert read_answer(str(len(legal)), state) == legal[-1] == answer(f"#{len(legal)}", state)
    with pytest.raises(IllegalAction, match="may not lead the joker"):
        answer("JK", state)
    with pytest.raises(IllegalAction, match="does not hold 2S"):
        answer("2s", state)
    with pytest.raises(IllegalAction, match="must play a card"):
        answer("pass", state)
    with pytest.raises(NotationError, match="unknown card"):
        answer("play ZZ", state)
    with pytest.raises(NotationError, match="no choice 0"):
        answer("0", state)
    with pytest.raises(NotationError, match="there is no choice 7: pick 1 to 5"):
        answer("7", state)


def test_huge_numbers_are_refused_with_the_rules_reason() -> None:
    """A number of thousands of digits is a bad answer, not a crash of int()."""
    state, _ = auction_state()
    huge = "9" * 5000
    for text in (huge, f"bid {huge}", f"bid -{huge}"):
        with pytest.raises(IllegalAction, match="must bid from 2 to 6"):
            answer(text, state)
    with pytest.raises(NotationError, match=r"no choice #9{39}…: pick #1 to #6"):
        answer("#" + huge, state)
    state.apply(act.bid(6))
    with pytest.raises(NotationError, match=r"no choice 9{39}…: pick 1 to 5"):
        answer(huge, state)
    hearts = dealt("hearts")
    with pytest.raises(NotationError, match=r"no card 9{39}… in your hand"):
        answer(f"1 2 {huge}", hearts)


# --------------------------------------------------------------------------- every game

#: every registered base game (presets share their base game's table)
EVERY_GAME = sorted(GAMES)
#: what each game's table says about its bidding (or passing) and its hand results
TABLE_WORDS = {
    "setback": ("Auction: ", "Scores: You & North"),
    "euchre": ("Making trump", "Scores: You & North"),
    "hearts": ("Pass three cards left, to West", "Penalty points: You "),
    "filippa": ("Pass three cards left, to West", "Penalties: You "),
    "spades": ("Bids: ", "Bid/took: You "),
    "tricks": ("Trick 1 of 13", "Tricks: You "),
    "oh-hell": ("Bids: ", "Bid/took: You "),
    "all-fours": ("Turned up: ", "Scores: You & North"),
    "california-jack": ("Trump: ", "Scores: You "),
    "cinch": ("Bidding: ", "Scores: You & North"),
}
#: answers that are legal at some point of every prompt of every game: three cards to pass,
#: and the first choice (#1), whatever it is
EVERY_PROMPT = "1 2 3\n#1\n" * 2000


def test_every_game_has_table_words() -> None:
    assert set(EVERY_GAME) <= set(TABLE_WORDS)


@pytest.mark.parametrize("name", EVERY_GAME)
def test_unattended_play_of_every_game_saves_a_record_that_replays(
    tmp_path: Path, name: str
) -> None:
    target = tmp_path / f"{name}.json"
    players = ",".join(["random"] * load_game(name).num_players)
    run = play("--game", name, "--players", players, "--seed", "3",
               "--max-hands", "3", "--save", str(target))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    state = replay(load_record(target))
    lines = re.findall(r"^Hand +(\d+): .* scores ", run.stdout, re.M)
    assert lines == [str(i) for i in range(1, len(state.results) + 1)]  # one line a hand
    assert 1 <= len(state.results) <= 3


@pytest.mark.parametrize("name", EVERY_GAME)
def test_a_human_plays_every_game_from_piped_answers(tmp_path: Path, name: str) -> None:
    target = tmp_path / f"{name}.json"
    game = load_game(name)
    players = ",".join(["human"] + ["random"] * (game.num_players - 1))
    run = play("--game", name, "--players", players, "--seed", "3",
               "--max-hands", "2", "--save", str(target), stdin=EVERY_PROMPT)  # fmt: skip
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert "Your hand: " in out and "Choices: " in out and "You > " in out
    bidding, result = TABLE_WORDS[name]
    assert bidding in out and result in out
    if game.num_scores >= game.num_players:  # each for themselves: seats, no teams
        assert "Teams" not in out and "Scores: You " in out
    elif game.num_players == 4:
        assert "Teams: You & North vs West & East" in out
    else:
        assert "Teams: You & " in out
    assert f"record saved to {target}" in out
    state = replay(load_record(target))
    assert len(state.results) >= 1


def dealt(name: str, seed: int = 3) -> TrickState:
    """A fresh hand of ``name``."""
    state = load_game(name).new_state(seed)
    state.deal()
    return state


def test_answers_passing_cards() -> None:
    state = dealt("hearts")
    hand = cards_in(state.hands[state.to_act])
    three = [card_name(c) for c in hand[:3]]
    action = act.pass_cards(mask_of(hand[:3]))
    assert answer(" ".join(reversed(three)).lower(), state) == action  # any order, any case
    assert answer("pass " + " ".join(three), state) == action
    assert answer("3 1 2", state) == action  # numbers of the hand
    assert answer(f"1, {three[1]}, 3", state) == action  # mixed, with commas
    with pytest.raises(NotationError, match="pass 3 cards"):
        answer("1", state)
    with pytest.raises(NotationError, match="named twice"):
        answer("1 1 2", state)
    with pytest.raises(NotationError, match="no card 14 in your hand"):
        answer("1 2 14", state)
    other = next(c for c in range(52) if not state.hands[state.to_act] >> c & 1)
    with pytest.raises(IllegalAction, match=f"does not hold {card_name(other)}"):
        answer(f"1 2 {card_name(other)}", state)


def test_answers_in_euchre() -> None:
    from tricktable.games.euchre import DISCARD, ORDER_UP, ORDER_UP_ALONE, TRUMP

    state = dealt("euchre")
    assert answer("1", state) == act.PASS  # numbered choices: pass, order-up, order-up alone
    assert answer("3", state) == ORDER_UP_ALONE
    assert answer("order-up alone", state) == ORDER_UP_ALONE
    assert answer("order up", state) == ORDER_UP
    with pytest.raises(NotationError, match="one choice at a time"):
        answer("1 2", state)
    with pytest.raises(IllegalAction, match="may not name trump in the first round"):
        answer("trump S", state)
    for _ in range(4):
        state.apply(act.PASS)
    up = state.stock[0] // 13
    other = (up + 1) % 4
    letter = "CDHS"[other]
    assert answer(letter, state) == TRUMP + other  # the last word of one choice: trump S
    assert answer(f"trump {letter}", state) == TRUMP + other
    state = dealt("euchre")
    state.apply(ORDER_UP)  # the dealer picks the up-card up, then discards
    while state.to_act != state.dealer or state.phase != 11:
        state.apply(state.legal_actions()[0])
    card = cards_in(state.hands[state.dealer])[0]
    assert answer(card_name(card), state) == DISCARD + card  # a bare card for "discard 9C"
    assert answer("1", state) == DISCARD + card


def test_answers_in_spades() -> None:
    from tricktable.games.spades import BLIND_NIL, LOOK

    state = load_game("spades").new_state(3)
    state.scores = [-150, 0]  # South & North behind by 150: blind nil is open to them
    state.deal()
    while state.to_act % 2:
        state.apply(state.legal_actions()[0])
    assert answer("1", state) == LOOK
    assert answer("blind nil", state) == BLIND_NIL
    assert answer("bid blind-nil", state) == BLIND_NIL
    with pytest.raises(IllegalAction, match="must bid blind nil or look"):
        answer("bid 4", state)
    state.apply(LOOK)
    assert answer("4", state) == act.bid(4)  # a bare number is a bid, 1 included
    assert answer("1", state) == act.bid(1)
    assert answer("nil", state) == act.bid(0) == answer("0", state)
    with pytest.raises(IllegalAction, match="must bid from 0 to 13"):
        answer("14", state)


def test_answers_in_oh_hell_name_the_hook() -> None:
    state = load_game("oh-hell(max_cards=1)").new_state(1)
    state.deal()
    for _ in range(3):
        state.apply(act.bid(0))
    assert state.to_act == state.dealer
    with pytest.raises(IllegalAction, match="hook rule"):
        answer("1", state)
    assert answer("0", state) == act.bid(0)


# ------------------------------------------------------------------------------ resuming

ENGINE_BUG = Path(__file__).parent / "engine_bug.py"
EXAMPLE_BOT = Path(__file__).parents[1] / "examples/bots/python/bot.py"


def cut_record(record: dict[str, object], hand: int, actions: int | None) -> dict[str, object]:
    """The record of the match stopped after ``hand`` whole hands (and ``actions`` more)."""
    out = json.loads(json.dumps(record))
    hands = out["hands"]
    out.pop("unfinished_hand", None)
    if actions is not None:
        partial = dict(hands[hand])
        partial["actions"] = partial["actions"][:actions]
        out["unfinished_hand"] = partial
    out["hands"] = hands[:hand]
    return out


def test_resume_plays_a_saved_match_on_to_the_uninterrupted_record(tmp_path: Path) -> None:
    whole_path = tmp_path / "whole.json"
    run = play("--players", BOTS, "--seed", "7", "--save", str(whole_path))
    assert run.returncode == 0, run.stderr
    whole = load_record(whole_path)
    assert len(whole["hands"]) > 4
    for hand, actions in ((3, None), (3, 0), (3, 7), (len(whole["hands"]) - 1, 5)):
        cut = tmp_path / f"cut-{hand}-{actions}.json"
        cut.write_text(json.dumps(cut_record(whole, hand, actions)), encoding="utf-8")
        again = play("--resume", str(cut))
        assert again.returncode == 0, again.stderr
        said = f"Resumed after hand {hand}." if actions is None else f"Resumed in hand {hand + 1}"
        assert said in again.stdout
        assert f"record saved to {cut}" in again.stdout  # the match goes on in its own file
        assert load_record(cut) == whole, (hand, actions)


def test_resume_with_other_players_and_another_save(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    assert play("--players", BOTS, "--seed", "3", "--save", str(first), "--max-hands", "2")
    other = tmp_path / "other.json"
    run = play("--resume", str(first), "--players", "random,random,random,random",
               "--save", str(other), "--max-hands", "4")  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = load_record(other)
    assert record["players"] == ["bot:random"] * 4
    assert record["hands"][:2] == load_record(first)["hands"]
    assert len(record["hands"]) == 4 and replay(record).seed == 3


def test_a_person_resumes_the_match_they_quit(tmp_path: Path) -> None:
    target = tmp_path / "mine.json"
    run = play("--seed", "5", "--players", "human,random,random,random", "--save", str(target),
               stdin="#1\n" * 12 + "quit\n")  # fmt: skip
    assert run.returncode == 0 and "Stopped." in run.stdout
    record = load_record(target)
    assert record["players"][0] == "tester" and "unfinished_hand" in record
    again = play("--resume", str(target), stdin="#1\n" * 4000)
    assert again.returncode == 0, again.stderr
    assert re.search(r"You (win!|lose\.)", again.stdout)
    final = load_record(target)
    assert final["hands"][: len(record["hands"])] == record["hands"]
    assert replay(final).is_over


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--seed", "4"), "--resume plays the record's game and seed"),
        (("--game", "hearts"), "--resume plays the record's game and seed"),
        (("--players", "random,random"), "--players needs 4"),
    ],
)
def test_resume_refuses_what_contradicts_the_record(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    saved = tmp_path / "m.json"
    assert play("--players", BOTS, "--seed", "3", "--save", str(saved), "--max-hands", "1")
    run = play("--resume", str(saved), *args)
    assert run.returncode == 2 and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_resume_of_a_record_whose_player_cannot_be_rebuilt_asks_for_players(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "m.json"
    assert play("--players", BOTS, "--seed", "3", "--save", str(saved), "--max-hands", "1")
    record = load_record(saved)
    record["players"][1] = "bot:nobody"
    saved.write_text(json.dumps(record), encoding="utf-8")
    run = play("--resume", str(saved))
    assert run.returncode == 2
    assert "seat 1 is not a built-in player ('nobody')" in run.stderr
    assert "--players" in run.stderr and len(run.stderr.splitlines()) == 1


# -------------------------------------------------------------------------- engine errors


def test_an_engine_error_stops_the_match_loudly_and_saves_the_record(tmp_path: Path) -> None:
    # A real program in seat 0: the old catch-all blamed the bot to act for the engine's error.
    players = f"cmd:{sys.executable} {EXAMPLE_BOT},heuristic,random,heuristic"
    run = subprocess.run(
        [sys.executable, str(ENGINE_BUG), "play", "--players", players, "--seed", "3"],
        capture_output=True, text=True, encoding="utf-8", timeout=60, env=source_env(),
        cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 3, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: engine error in hand 3, action ")
    assert "ZeroDivisionError: boom" in lines[0] and "Traceback" not in run.stderr
    record = load_record(saved_path(run.stdout, tmp_path))  # saved even without --save
    assert "faults" not in record and len(record["hands"]) == 2
    assert "unfinished_hand" in record
    assert len(replay(record).history) == 3  # the record so far replays


def test_a_resumed_match_keeps_the_substitute_the_record_names(tmp_path: Path) -> None:
    crash = f"cmd:{sys.executable} {Path(__file__).parent / 'bots' / 'crash.py'} --after 15"
    whole_path = tmp_path / "whole.json"
    run = play("--players", f'"{crash}",random,heuristic,random', "--seed", "2",
               "--save", str(whole_path), "--max-hands", "8")  # fmt: skip
    assert run.returncode == 0, run.stderr
    whole = load_record(whole_path)
    fault = whole["faults"][0]
    assert (fault["seat"], fault["penalty"]) == (0, "substitute")
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(cut_record(whole, fault["hand"] + 1, 3)), encoding="utf-8")
    again = play("--resume", str(cut), "--max-hands", "8")
    assert again.returncode == 0, again.stderr
    # The program that crashed is not started again: the substitute plays on, as it did.
    assert load_record(cut) == whole


@pytest.mark.parametrize(
    ("spec", "teams"),
    [
        ("setback(partners=3x2,players=6)", "Teams: You & North vs West & Northeast vs "),
        ("setback(players=6)", "Teams: You & "),
        ("setback(partners=false,players=3)", None),
    ],
)
def test_a_person_plays_any_table_size_with_the_default_players(
    tmp_path: Path, spec: str, teams: str | None
) -> None:
    target = tmp_path / "six.json"
    run = play("--game", spec, "--seed", "3", "--max-hands", "1", "--save", str(target),
               stdin=EVERY_PROMPT)  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout
    game = load_game(spec)
    seats = out.splitlines()[1]
    assert seats.startswith("Seats: You: ") and seats.count(": heuristic") == game.num_players - 1
    if teams is None:
        assert "Teams" not in out and "Scores: You " in out
    else:
        assert teams in out
    record = load_record(target)
    assert len(record["players"]) == game.num_players
    assert replay(record).game.num_players == game.num_players
