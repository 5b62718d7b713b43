"""Typed hand results (``tricktable.engine.results``): every game's class, and its ``to_dict()``.

Every registered game and variant plays seeded random matches: each hand's result is its game's
own class, and ``to_dict()`` is JSON-ready, round-trips through JSON and replays identically.
The golden transcripts pin ``to_dict()`` down to the key order: records and
``tricktable replay --json`` are the same, byte for byte, as before results were typed.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.cards import parse_card
from tricktable.engine.results import HandResult, sealed_class
from tricktable.engine.trick import Game, TrickState, View
from tricktable.games import GAMES, load_game, names
from tricktable.games.all_fours_results import AllFoursResult
from tricktable.games.california_jack_results import CaliforniaJackResult
from tricktable.games.cinch_results import CinchResult
from tricktable.games.euchre_results import EuchreResult
from tricktable.games.hearts_results import FilippaResult, HeartsResult
from tricktable.games.oh_hell_results import OhHellResult
from tricktable.games.setback_results import SetbackResult
from tricktable.games.spades_results import Nil, SpadesResult
from tricktable.games.tricks_results import TricksResult
from tricktable.match import play_match
from tricktable.records import replay, result_of, to_record
from tricktable.stats import UNREAD, stats_for

GOLDEN = Path(__file__).parent / "golden"
QUEEN_OF_SPADES = parse_card("QS")

#: base game name -> the class of its hand results
RESULT_CLASSES: dict[str, type[HandResult]] = {
    "setback": SetbackResult,
    "hearts": HeartsResult,
    "filippa": FilippaResult,
    "spades": SpadesResult,
    "tricks": TricksResult,
    "oh-hell": OhHellResult,
    "euchre": EuchreResult,
    "all-fours": AllFoursResult,
    "california-jack": CaliforniaJackResult,
    "cinch": CinchResult,
}


def random_hands(spec: str, seed: int, hands: int) -> TrickState:
    """A seeded match of uniformly random legal actions, stopped after ``hands`` hands."""
    state = load_game(spec).new_state(seed)
    rng = random.Random(seed)
    while not state.is_over and len(state.history) < hands:
        state.deal()
        while state.to_act >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
    return state


def test_every_registered_game_has_a_result_class() -> None:
    assert set(GAMES) == set(RESULT_CLASSES)
    for cls in RESULT_CLASSES.values():
        assert issubclass(cls, HandResult) and dataclasses.is_dataclass(cls)
        assert "__slots__" in cls.__dict__


@pytest.mark.parametrize("name", names())
def test_every_result_is_typed_and_its_dict_round_trips(name: str) -> None:
    game = load_game(name)
    cls = RESULT_CLASSES[game.name]
    for seed in range(3):
        state = random_hands(name, seed, 6)
        assert state.results, name
        before: tuple[int, ...] = (0,) * game.num_scores
        for result in state.results:
            assert type(result) is sealed_class(cls), name  # sealed: read-only
            assert isinstance(result.scores, tuple) and len(result.scores) == game.num_scores
            assert all(type(s) is int for s in result.scores)
            data = result.to_dict()
            text = json.dumps(data)
            assert json.loads(text) == data, "to_dict() is plain JSON"
            assert json.dumps(result.to_dict()) == text, "to_dict() is a fresh, stable dict"
            assert data["scores"] == list(result.scores)
            assert list(data)[-1] in ("scores", "negative", "winners")
            assert result.shared_win() == () or type(result) is OhHellResult
            before = result.scores
        assert list(before) == state.scores
        # A record replays to equal typed results, and to the same JSON.
        record = json.loads(json.dumps(to_record(state)))
        again = replay(record)
        assert again.results == state.results
        assert json.dumps(result_of(again)) == json.dumps(result_of(state))
        assert result_of(state)["hands"] == [r.to_dict() for r in state.results]
        # A view hands out the same typed results.
        view = state.view(0)
        assert view.results == state.results


def _golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", _golden_files(), ids=lambda p: p.stem)
def test_golden_results_are_the_same_json_key_for_key(path: Path) -> None:
    # Key order included: this is what `tricktable replay --json` prints for the record.
    golden = json.loads(path.read_text(encoding="utf-8"))
    state = replay(golden["record"])
    assert json.dumps(result_of(state)) == json.dumps(golden["result"])


def test_results_hold_no_mutable_sequences() -> None:
    # Read-only by convention: every sequence field is a tuple (Setback's points a mapping).
    for spec in sorted(RESULT_CLASSES):
        for result in random_hands(spec, 1, 2).results:
            assert not hasattr(result, "__dict__")
            for field in dataclasses.fields(result):
                assert not isinstance(getattr(result, field.name), list), (spec, field.name)


@pytest.mark.parametrize("spec", ["hearts", "hearts(passing=none,moon=none)", "filippa"])
def test_the_queen_of_spades_taker_is_the_winner_of_her_trick(spec: str) -> None:
    state = load_game(spec).new_state(5)
    rng = random.Random(5)
    for _ in range(20):
        if state.is_over:
            break
        state.deal()
        while state.to_act >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
        result = state.results[-1]
        assert isinstance(result, (HeartsResult, FilippaResult))
        taker = next(w for _, cards, w in state.tricks if QUEEN_OF_SPADES in cards)
        assert result.queen_of_spades == taker
        assert state.won[taker] >> QUEEN_OF_SPADES & 1
        assert "queen_of_spades" not in result.to_dict()


# -------------------------------------------------------------------- the dicts, exactly


def test_a_setback_hand_thrown_in() -> None:
    state = load_game("setback(all_pass=redeal)").new_state(2)
    state.deal()
    for _ in range(4):
        state.apply(state.game.parse_action("pass"))
    result = state.results[-1]
    assert result == SetbackResult(
        declarer=None,
        bid=None,
        trump=None,
        points={},
        taken=(0, 0),
        scores=(0, 0),
        thrown_in=True,
    )
    assert json.dumps(result.to_dict()) == json.dumps(
        {
            "declarer": None,
            "bid": None,
            "trump": None,
            "thrown_in": True,
            "points": {},
            "taken": [0, 0],
            "scores": [0, 0],
        }
    )


def test_a_setback_hand_played_out() -> None:
    result = SetbackResult(
        declarer=1,
        bid=3,
        trump=2,
        points={"high": 1, "low": 0, "jack": None, "off_jack": 1, "joker": None, "game": 1},
        taken=(1, 3),
        scores=(1, 3),
    )
    expected = {
        "declarer": 1,
        "bid": 3,
        "trump": "H",
        "points": {"high": 1, "low": 0, "jack": None, "off_jack": 1, "joker": None, "game": 1},
        "taken": [1, 3],
        "scores": [1, 3],
    }
    assert json.dumps(result.to_dict()) == json.dumps(expected)


def test_spades_nils_come_from_bids_blind_and_tricks() -> None:
    result = SpadesResult(
        bids=(0, 4, 0, 3),
        blind=(True, False, False, False),
        tricks=(1, 5, 0, 7),
        contracts=(3, 4),
        made=(True, True),
        points=(-170, 41),
        bag_penalties=(0, 0),
        bags=(5, 1),
        scores=(-170, 41),
    )
    assert result.nils == (Nil(0, True, False), Nil(2, False, True))
    assert result.bid_texts() == ["blind-nil", 4, "nil", 3]
    assert list(result.to_dict()) == [
        "bids",
        "tricks",
        "contracts",
        "made",
        "nils",
        "points",
        "bag_penalties",
        "bags",
        "scores",
    ]


def test_oh_hell_names_its_winners_only_at_the_end() -> None:
    state = random_hands("oh-hell(max_cards=2,sequence=down)", 4, 10)
    assert state.is_over
    *middle, last = state.results
    assert isinstance(last, OhHellResult) and last.winners is not None
    assert list(last.to_dict())[-1] == "winners"
    for result in middle:
        assert isinstance(result, OhHellResult)
        assert result.winners is None and "winners" not in result.to_dict()


# ------------------------------------------------------------------------- the consumers


class Recorder(Bot):
    """A random bot that keeps the results it is told at the end of each hand."""

    name = "recorder"

    def __init__(self) -> None:
        self.inner = make_bot("random")
        self.told: list[HandResult] = []

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        return self.inner.act(view)

    def end_hand(self, view: View, result: HandResult) -> None:
        self.told.append(result)


def test_bots_are_told_the_typed_result() -> None:
    bots = [Recorder() for _ in range(4)]
    state = play_match(load_game("spades"), list(bots), 3, max_hands=3)
    for bot in bots:
        assert bot.told == state.results
        assert all(isinstance(r, SpadesResult) for r in bot.told)


def test_a_statistics_hook_counts_a_result_of_another_game_apart() -> None:
    other = random_hands("setback", 1, 1).results[-1]
    with pytest.raises(TypeError):
        stats_for(load_game("hearts")).key(other, (0, 0, 0, 0))
    assert UNREAD == ("unread",)
    hearts = random_hands("hearts", 1, 1).results[-1]
    key: Any = stats_for(load_game("hearts")).key(hearts, (0, 0, 0, 0))
    assert isinstance(hearts, HeartsResult)
    assert key == (hearts.penalties, hearts.moon, hearts.queen_of_spades)
