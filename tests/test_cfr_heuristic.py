"""Tests of the CFR trainer's schemes (issue 21): the auction learnt against the heuristic's
card play, checked by hand on a deal whose every outcome is known; the card play learnt
against heuristic opponents; Linear CFR's weights; a real pool and SQLite file trained phase
after phase, compacted and played; and the command's options and one-line refusals."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from tricktable.bots.base import Bot
from tricktable.bots.cfr_bot import CfrBot
from tricktable.bots.pitch_heuristic import PitchHeuristic
from tricktable.cards import mask_of, parse_cards
from tricktable.cfr.store import Store, StrategyError, compact, normalise
from tricktable.cfr.train import Scheme, Trainer, key_kind, train
from tricktable.engine.trick import Game, TrickState, View
from tricktable.games import load_game
from tricktable.match import Referee, play_match

SRC = str(Path(__file__).resolve().parents[1] / "src")

AUCTION = Scheme("auction", "heuristic")
PLAY = Scheme("play", "heuristic", "heuristic")

# Seat 3 deals and holds six trumps to be (spades and the joker); nobody else holds a spade or
# the off-jack (JC). Whatever anyone plays, seat 3 wins all six tricks: High (AS), Low (TS, the
# lowest trump dealt), Jack (JS), Joker and Game are its side's, five points, the other side's
# none.
STRONG = [
    "AH 4H 9C KD 2D 3C",
    "3H 7C TC QD 5D 6D",
    "JH 8C 2H 3D 9D KH",
    "AS KS QS JS TS JK",
]


def _stuck_dealer() -> TrickState:
    game = load_game("setback")
    state = game.new_state(1)
    state.deal([mask_of(parse_cards(h)) for h in STRONG], dealer=3)
    for _ in range(3):
        state.apply(game.parse_action("pass"))
    return state


def test_the_auction_is_valued_by_the_heuristics_card_play_checked_by_hand() -> None:
    state = _stuck_dealer()
    trainer = Trainer(state.game, scheme=AUCTION)
    value = trainer.traverse(state.clone(), 3, random.Random(1))
    # The dealer's side makes five points with any contract: a pass (stuck at 2) and bids of
    # 2 to 5 score the bid; 6 is set (-6). The other side scores nothing. Regret matching
    # starts uniform, so the node's value is the mean of the six.
    values = [2.0, 2.0, 3.0, 4.0, 5.0, -6.0]
    expected = sum(values) / 6
    assert value == pytest.approx(expected)
    regret, total = trainer.table["SAKQJ*T"]
    assert regret == pytest.approx([v - expected for v in values])
    assert total == [0.0] * 6  # the traverser's own node gains no strategy sum
    # The regrets move the right way: the next strategy bids 5 most, never 6.
    nxt = normalise(regret)
    assert max(range(6), key=nxt.__getitem__) == 4 and nxt[5] == 0.0
    # The first lead (ace or ten of spades) is explored too, and is worth the same either way.
    for bid in "23456":
        regret, _ = trainer.table["E" + bid + "AKQJ*T"]
        assert regret == pytest.approx([0.0, 0.0])
    # Only the auction and the first lead are learnt: the heuristic played every card after.
    assert {key_kind(k) for k in trainer.table} == {0, 1}


def test_under_the_first_scheme_the_same_node_is_valued_by_the_abstract_play() -> None:
    # Abstract play is sampled, so a value need not equal the heuristic's: the scheme matters.
    trainer = Trainer(load_game("setback"))
    trainer.traverse(_stuck_dealer(), 3, random.Random(1))
    assert any(key_kind(k) == 2 for k in trainer.table)  # the card play is learnt too


class _Checked(Bot):
    """The heuristic, checked at every decision against a fresh one: the trainer walks many
    branches of a deal through one bot per seat, and the bot must read each view afresh.
    (It holds the heuristic rather than inheriting it: the compiled build's classes cannot
    be subclassed by a test's.)"""

    calls = 0

    def __init__(self) -> None:
        self.inner = PitchHeuristic()

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        fresh = PitchHeuristic()
        fresh.start_match(view.game, view.seat, 0)
        choice = self.inner.act(view)
        assert choice == fresh.act(view)
        _Checked.calls += 1
        return choice


@pytest.mark.parametrize("scheme", [AUCTION, PLAY, Scheme("all", "abstract", "heuristic")])
def test_each_scheme_learns_its_keys_and_the_heuristic_plays_the_rest(scheme: Scheme) -> None:
    game = load_game("setback")
    trainer = Trainer(game, scheme=scheme)
    trainer.bots = [_Checked() for _ in range(4)]
    for seat, bot in enumerate(trainer.bots):
        bot.start_match(game, seat, 0)
    _Checked.calls = 0
    rng = random.Random(5)
    for _ in range(1 if scheme.phase == "all" else 3):  # "all" walks every card: slower
        trainer.iteration(rng)
    kinds = {key_kind(k) for k in trainer.table}
    wanted = {"auction": {0, 1}, "play": {2}, "all": {0, 1, 2}}[scheme.phase]
    assert kinds and kinds <= wanted
    assert _Checked.calls > 0
    assert any(r != [0.0] * len(r) for r, _ in trainer.table.values())
    if scheme.against == "heuristic":
        # Only the traverser's partner samples the strategy: its sums grow, none else's do.
        assert any(sum(t) > 0 for _, t in trainer.table.values())


def test_linear_cfr_weighs_iteration_t_by_t() -> None:
    state = _stuck_dealer()
    plain = Trainer(state.game, scheme=AUCTION)
    plain.traverse(state.clone(), 3, random.Random(1))
    linear = Trainer(state.game, scheme=AUCTION, linear=True, base=9, stride=4)
    linear.iterations = 2  # its third iteration: about the 9 + 2 * 4 + 1 = 18th of all
    linear._weight = 18.0
    linear.traverse(state.clone(), 3, random.Random(1))
    assert linear.table["SAKQJ*T"][0] == pytest.approx([18 * r for r in plain.table["SAKQJ*T"][0]])
    rng = random.Random(2)
    linear.iteration(rng)  # sets the weight of the iteration it runs
    assert linear._weight == 18.0 and linear.iterations == 3


def test_phase_after_phase_on_a_pool_then_compacted_and_played(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    first = train(db, iterations=4, workers=2, seed=1, scheme=AUCTION)
    assert first.iterations == 4
    second = train(db, iterations=2, workers=1, seed=2, scheme=PLAY)
    assert second.total_iterations == 6
    store = Store.open(db, readonly=True)
    assert store.meta["weighting"] == "linear"
    assert (store.meta["iterations_auction"], store.meta["iterations_play"]) == ("4", "2")
    assert store.meta["schemes"] == (
        "phase=auction payoff=heuristic against=self iterations=4; "
        "phase=play payoff=heuristic against=heuristic iterations=2"
    )
    sums = store.load_sums()
    assert {key_kind(k) for k in sums} == {0, 1, 2}
    small = str(tmp_path / "small.db")
    kept = compact(store, small, min_weight=0.5)
    # Linear weights: a key's sum over the iterations counts its visits, the late ones most.
    assert 0 < kept < len(sums)
    store.close()
    shipped = Store.open(small, readonly=True)
    assert shipped.kind == "average" and shipped.count() == kept
    shipped.close()
    game = load_game("setback(target=11)")
    bots = [CfrBot(small), PitchHeuristic(), CfrBot(small), PitchHeuristic()]
    referee = Referee()
    play_match(game, bots, 3, max_hands=12, referee=referee)
    assert referee.faults == []
    assert sum(b.seen + b.unseen for b in bots if isinstance(b, CfrBot)) > 0


def test_a_scheme_refuses_what_it_cannot_train_in_one_line() -> None:
    with pytest.raises(StrategyError, match="unknown CFR phase 'bids'"):
        Scheme("bids")
    with pytest.raises(StrategyError, match="payoff 'heuristic'"):
        Scheme("auction", "abstract")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tricktable.cli.train", *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


def test_the_command_trains_a_phase_and_refuses_a_bad_scheme(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    args = ["--iterations", "2", "--db", db, "--workers", "1", "--phase", "auction"]
    done = _cli(*args, "--payoff", "heuristic", "--compact", str(tmp_path / "out.db"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("trained 2 iterations") and "phase=auction" in lines[0]
    assert lines[1].startswith("wrote the average strategy of")
    refused = _cli(*args)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "error: phase 'auction' learns only some keys: the others need a player"
        " (payoff 'heuristic')"
    ]


@pytest.mark.parametrize(
    ("strategy", "probs"),
    [("average", [0.25, 0.75, 0.0]), ("current", [0.0, 0.0, 1.0]), ("best", [0.0, 1.0, 0.0])],
)
def test_compact_writes_the_strategy_asked_for(
    strategy: str, probs: list[float], tmp_path: Path
) -> None:
    db = str(tmp_path / "s.db")
    store = Store.open(db, create=True)
    store.write_sums([("0Ax", [[-1.0, -2.0, 4.0], [1.0, 3.0, 0.0]])], {"iterations": "1"})
    out = str(tmp_path / f"{strategy}.db")
    assert compact(store, out, strategy=strategy) == 1
    store.close()
    small = Store.open(out, readonly=True)
    assert small.average("0Ax") == pytest.approx(probs, abs=1 / 255)
    assert small.meta["strategy"] == strategy
    small.close()


def test_compact_keeps_the_most_visited_keys_within_a_budget(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    store = Store.open(db, create=True)
    nodes = [("0Ax", [[0.0, 0.0], [1.0, 1.0]]), ("0Kx", [[0.0, 0.0], [5.0, 0.0]])]
    store.write_sums(nodes, {"iterations": "1"})
    out = str(tmp_path / "small.db")
    assert compact(store, out, max_keys=1) == 1
    store.close()
    small = Store.open(out, readonly=True)
    assert small.average("0Kx") == [1.0, 0.0] and small.average("0Ax") is None
    small.close()


def test_compact_keeps_one_phases_keys(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    store = Store.open(db, create=True)
    nodes = [(k, [[0.0, 0.0], [1.0, 1.0]]) for k in ("0Ax", "E2Ax", "H31+0.......S.T4")]
    store.write_sums(nodes, {"iterations": "1"})
    for phase, kept in (("auction", {"0Ax", "E2Ax"}), ("play", {"H31+0.......S.T4"})):
        out = str(tmp_path / f"{phase}.db")
        assert compact(store, out, phase=phase) == len(kept)
        small = Store.open(out, readonly=True)
        assert {k for k, _ in small.averages()} == kept
        small.close()
    with pytest.raises(StrategyError, match="unknown phase"):
        compact(store, str(tmp_path / "x.db"), phase="bids")
    store.close()
