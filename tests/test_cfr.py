"""Tests of Setback's CFR: exact keys of built positions, regret matching, the trainer (a real
pool and a real SQLite file, continued), the ``cfr`` bot (legal, seeded, counting unseen keys)
and the command line's one-line errors."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tricktable.bots import make_bot
from tricktable.bots.cfr_bot import CfrBot, shipped_db
from tricktable.cards import mask_of, parse_cards
from tricktable.cfr.keys import decision, table_refused
from tricktable.cfr.store import Store, StrategyError, compact, normalise
from tricktable.cfr.train import Trainer, train
from tricktable.engine.trick import AUCTION, PLAY, TrickState
from tricktable.errors import BotError, TricktableError
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.records import to_record

SRC = str(Path(__file__).resolve().parents[1] / "src")

# Four hands of a built deal: hearts will be trump (seat 0 leads the ace).
HANDS = [
    "AH 4H 9C KD 2S JK",
    "3H 7C TC QD 5S 6S",
    "JH 8C 2D 3D 9S KS",
    "5H 6D TD AC 4S JD",
]


def _position(actions: list[str], hands: list[str] = HANDS, dealer: int = 3) -> TrickState:
    game = load_game("setback")
    state = game.new_state(1)
    state.deal([mask_of(parse_cards(h)) for h in hands], dealer=dealer)
    for text in actions:
        state.apply(game.parse_action(text))
    return state


def _decide(state: TrickState) -> tuple[str | None, dict[str, str]]:
    found = decision(state.view(state.to_act))
    assert found is not None
    pairs = zip(found.actions, found.concrete, strict=True)
    names = {a: state.game.action_name(c) for a, c in pairs}
    return found.key, names


AUCTION_PASSES = ["bid 3", "pass", "pass", "pass"]
TRICK_1 = ["play AH", "play 3H", "play JH", "play 5H"]


# ------------------------------------------------------------------------------ the keys


def test_auction_key_of_the_strongest_suit_with_the_joker() -> None:
    key, names = _decide(_position([]))
    # Hearts A(13) + 4(3) = 16 leads diamonds' K (12) by more than 2: hearts alone; the joker
    # sits between the J and the T of the suit.
    assert key == "0A*4"
    assert list(names.values()) == ["pass", "bid 2", "bid 3", "bid 4", "bid 5", "bid 6"]


def test_auction_key_with_a_second_suit_and_the_high_bid() -> None:
    hands = ["AC 2C KD 3D 5S 7S", *HANDS[1:]]
    hands[1] = "3H 7C TC QD JK 6S"
    # Seat 0 is dealer; seat 1 bids 4 first, then seats 2 and 3 pass.
    state = _position(["bid 4", "pass", "pass"], hands, dealer=0)
    key, names = _decide(state)
    # Clubs A2 (14) ties diamonds K3 (14): the suit with the higher ranks comes first.
    assert key == "4A2....K3"
    assert list(names.values()) == ["pass", "bid 5", "bid 6"]


def test_auction_key_of_the_stuck_dealer() -> None:
    state = _position(["pass", "pass", "pass"])
    assert state.to_act == 3 == state.dealer
    key, _ = _decide(state)
    # 5H 6D TD AC 4S JD: diamonds T J 6 (9 + 10 + 5 = 24) leads clubs' A (13).
    assert key == "SJTx"


def test_establish_trump_key_and_its_leads() -> None:
    key, names = _decide(_position(AUCTION_PASSES))
    assert key == "E3A*4"
    assert names == {"1H": "play AH", "1L": "play 4H"}


def test_playout_key_of_a_lead_after_the_first_trick() -> None:
    key, names = _decide(_position(AUCTION_PASSES + TRICK_1))
    # H: the ace of trump led; Low 3 captured (4H is no lower); the jack captured; Game ahead.
    assert key == "H31+0.......S.T4W."
    assert names == {"S.": "play KD", "T4": "play 4H", "W.": "play 2S"}


def test_playout_key_following_suit_with_game_values() -> None:
    state = _position(AUCTION_PASSES + TRICK_1 + ["play KD", "play QD"])
    key, names = _decide(state)
    assert key is None and names == {"l0": "play 2D"}  # 2D and 3D: one abstract action
    state.apply(state.game.parse_action("play 2D"))
    key, names = _decide(state)
    assert key == "H31-0KxQxxx0l0l1lT"
    assert names == {"l0": "play 6D", "l1": "play JD", "lT": "play TD"}


def test_playout_keys_of_discards_and_trump_voids() -> None:
    trick_2 = ["play KD", "play QD", "play 2D", "play 6D"]
    state = _position(AUCTION_PASSES + TRICK_1 + trick_2 + ["play 4H"])
    key, names = _decide(state)
    assert key == "H31-04t....0D.T."
    assert names == {"D.": "play 5S", "T.": "play TC"}
    state.apply(state.game.parse_action("play 5S"))
    key, names = _decide(state)
    # Seat 1, to seat 2's right, showed it has no trump: bit 4.
    assert key == "H31+44txx..0D.G."
    assert names == {"D.": "play 3D", "G.": "play KS"}
    state.apply(state.game.parse_action("play 3D"))
    key, names = _decide(state)
    # Seats 1 and 2 are void in trump (bits 2 and 4); the off-jack is given last of G.
    assert key == "H31-64txxxx0D.G.T."
    assert names == {"D.": "play 4S", "G.": "play AC", "T.": "play TD"}


def test_every_decision_maps_to_legal_actions_and_covers_them() -> None:
    game = load_game("setback")
    rng = random.Random(5)
    for seed in range(30):
        state = game.new_state(seed)
        state.deal()
        while state.phase in (AUCTION, PLAY):
            view = state.view(state.to_act)
            found = decision(view)
            assert found is not None
            legal = view.legal_actions()
            assert set(found.concrete) <= set(legal)
            assert len(set(found.actions)) == len(found.actions) == len(found.concrete)
            assert (found.key is None) == (len(found.actions) == 1)
            if state.phase == PLAY and state.trump >= 0:
                assert all(len(a) == 2 for a in found.actions)
            state.apply(rng.choice(legal))


# ---------------------------------------------------------------------- regret matching


def test_regret_matching() -> None:
    # The trainer's current strategy is normalise of a node's regrets.
    assert normalise([1.0, -2.0, 3.0]) == [0.25, 0.0, 0.75]
    assert normalise([0.0, -1.0]) == [0.5, 0.5]
    assert normalise([-1.0, -1.0, -5.0]) == pytest.approx([1 / 3] * 3)


def test_a_trainer_iteration_updates_regrets_and_strategy_sums() -> None:
    trainer = Trainer(load_game("setback"))
    rng = random.Random(1)
    for _ in range(2):
        trainer.iteration(rng)
    table = trainer.table
    assert table and all(len(r) == len(t) >= 2 for r, t in table.values())
    assert any(r != [0.0] * len(r) for r, _ in table.values())  # traversers' regrets
    assert any(sum(t) > 0 for _, t in table.values())  # the others' strategy sums
    assert set(trainer.take_deltas()) == set(table)  # every change since the start
    assert trainer.take_deltas() == {}


# ------------------------------------------------------------------------- the trainer


def test_training_on_two_workers_then_continuing(tmp_path: Path) -> None:
    db = str(tmp_path / "strategy.db")
    first = train(db, iterations=4, workers=2, seed=1)
    assert first.iterations == 4 and first.keys > 0
    store = Store.open(db)
    keys, iterations = store.count(), store.iterations
    assert keys == first.keys and iterations == 4
    sums = store.load_sums()
    store.close()
    second = train(db, iterations=2, workers=2, seed=2)
    assert second.total_iterations == 6
    store = Store.open(db)
    assert store.iterations == 6 and store.count() >= keys
    again = store.load_sums()
    store.close()
    # Sums only grow: every earlier node's strategy sum is kept and added to.
    for key, (_, total) in sums.items():
        assert sum(again[key][1]) >= sum(total) - 1e-9


def test_compact_keeps_the_average_strategy(tmp_path: Path) -> None:
    db = str(tmp_path / "full.db")
    train(db, iterations=2, workers=1, seed=3)
    full = Store.open(db, readonly=True)
    out = str(tmp_path / "small.db")
    kept = compact(full, out, min_weight=1.0)
    small = Store.open(out, readonly=True)
    assert small.kind == "average" and small.count() == kept > 0
    for key, probs in small.averages():
        exact = full.average(key)
        assert exact is not None
        assert probs == pytest.approx(exact, abs=2 / 255)
    with pytest.raises(StrategyError, match="cannot be trained further"):
        small.load_sums()
    full.close()
    small.close()


# ----------------------------------------------------------------------------- the bot


def _match(db: str | None, seed: int) -> tuple[str, list[CfrBot]]:
    game = load_game("setback(target=11)")
    cfr = [CfrBot(db), CfrBot(db)]
    bots = [cfr[0], make_bot("heuristic"), cfr[1], make_bot("random")]
    referee = Referee()
    state = play_match(game, bots, seed, max_hands=30, referee=referee)
    assert referee.faults == [], referee.faults
    return str(to_record(state)), cfr


@pytest.mark.parametrize("which", ["shipped", "tmp"])
def test_the_bot_plays_whole_matches_legally_and_by_its_seed(which: str, tmp_path: Path) -> None:
    db = None
    if which == "tmp":
        db = str(tmp_path / "s.db")
        train(db, iterations=3, workers=1, seed=4)
    else:
        assert Path(shipped_db()).is_file()
    record, bots = _match(db, 11)
    again, _ = _match(db, 11)
    assert record == again
    assert sum(b.seen + b.unseen for b in bots) > 0
    if which == "shipped":
        assert sum(b.seen for b in bots) > 0  # the shipped strategy knows some keys


def test_unseen_keys_are_counted_and_seen_ones_follow_the_strategy(tmp_path: Path) -> None:
    db = str(tmp_path / "one.db")
    state = _position(AUCTION_PASSES + TRICK_1)  # key H31+0.......S.T4W.
    store = Store.open(db, create=True)
    # Only "W." (the third action) is ever played at this key.
    store.write_sums([("H31+0.......S.T4W.", [[0.0, 0.0, 0.0], [0.0, 0.0, 5.0]])], {})
    store.close()
    bot = CfrBot(db)
    bot.start_match(state.game, 0, 1)
    for _ in range(3):
        assert bot.act(state.view(0)) == parse_cards("2S")[0]
    assert (bot.seen, bot.unseen) == (3, 0)
    auction = _position([])
    assert bot.act(auction.view(0)) in auction.legal_actions()  # the heuristic's bid
    assert (bot.seen, bot.unseen) == (3, 1)


def test_the_bot_refuses_other_games_and_bad_databases(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="plays only Setback"):
        CfrBot().start_match(load_game("hearts"), 0, 1)
    for name, why in (("ten-point-pitch", "jokers"), ("setback-jick", "off_jack_trump")):
        with pytest.raises(BotError, match=f"{name} differs in .*{why}"):
            CfrBot().start_match(load_game(name), 0, 1)
    CfrBot().start_match(load_game("setback-11"), 0, 1)  # only the target differs
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(BotError, match="cannot load its strategy"):
        CfrBot(str(bad)).start_match(load_game("setback"), 0, 1)
    assert make_bot("cfr").name == "cfr"
    assert isinstance(make_bot(f"cfr(db={bad})"), CfrBot)
    assert make_bot(f"cfr(db={bad})").db == str(bad)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("setback(partners=3x2,players=6)", "partners, players"),
        ("setback(players=6)", "players"),
        ("setback(partners=false,players=3)", "partners, players"),
        ("setback(partners=false)", "partners"),
        ("setback(direction=right)", "direction"),
    ],
)
def test_cfr_refuses_any_table_but_four_seat_partnership_setback_in_one_line(
    spec: str, why: str
) -> None:
    game = load_game(spec)
    with pytest.raises(BotError, match=f"differs in {why}$") as refused:
        CfrBot().start_match(game, 0, 1)
    assert "\n" not in str(refused.value)
    # The keys themselves refuse a table they cannot describe.
    state = game.new_state(1)
    state.deal()
    with pytest.raises(TricktableError, match="CFR keys describe four-seat") as keys:
        decision(state.view(state.to_act))
    assert "\n" not in str(keys.value)
    assert table_refused(load_game("setback")) == ""


# -------------------------------------------------------------------- the command line


def _train_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tricktable", "train", "cfr", *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


def test_cli_one_line_errors_for_bad_databases(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"\x00garbage" * 500)
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE games (id INTEGER)")
    conn.commit()
    conn.close()
    cases = {
        str(corrupt): "not a database",
        str(foreign): "not a tricktable CFR strategy",
        str(tmp_path): "is a folder",
        str(tmp_path / "missing" / "x.db"): "no folder",
    }
    for path, why in cases.items():
        done = _train_cli("--iterations", "1", "--db", path, "--workers", "1")
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and why in lines[0], lines
        assert "Traceback" not in done.stderr


def test_cli_trains_and_reports(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    done = _train_cli("--iterations", "2", "--db", db, "--workers", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("trained 2 iterations") and "iterations/s" in last and "keys" in last
