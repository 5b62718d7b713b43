"""Resuming: a match cut after any hand, or in the middle of one, and rebuilt from its record,
plays on exactly as the uninterrupted match did — for every game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from table_shapes import shapes
from tricktable.bots import make_bot
from tricktable.games import GAMES, PRESETS, load_game
from tricktable.match import end_bots, play_match, play_on, start_bots
from tricktable.records import FORMAT, FORMAT_2, replay, to_record

#: deterministic players: the random bot draws from (seed, hand, step), the heuristics choose
#: by rule, so fresh bots given the same seeds play a resumed match as they played it
PLAYERS = ["random", "heuristic", "random", "heuristic"]
MAX_HANDS = 8


def bots(n: int = 4) -> list[Any]:
    return [make_bot(PLAYERS[s % 4]) for s in range(n)]


def cut(record: dict[str, Any], hand: int, actions: int | None) -> dict[str, Any]:
    """The record of the match stopped after ``hand`` whole hands (and ``actions`` more)."""
    out = json.loads(json.dumps(record))
    hands = out["hands"]
    out.pop("unfinished_hand", None)
    if actions is not None and hand < len(hands):
        partial = dict(hands[hand])
        partial["actions"] = partial["actions"][:actions]
        partial.pop("notes", None)
        out["unfinished_hand"] = partial
    out["hands"] = hands[:hand]
    return out


def resume(record: dict[str, Any], seed: int, max_hands: int = MAX_HANDS) -> dict[str, Any]:
    state = replay(record)
    players = bots(state.game.num_players)
    start_bots(state.game, players, seed)
    play_on(state, players, max_hands=max_hands)
    end_bots(state, players)
    return to_record(state, record.get("players"))


@pytest.mark.parametrize("spec", [*sorted(GAMES), "smear", "setback-classic"])
def test_a_match_resumed_from_its_record_plays_on_exactly(spec: str) -> None:
    assert spec in GAMES or spec in PRESETS
    seed = 4242
    game = load_game(spec)
    n = game.num_players
    state = play_match(game, bots(n), seed, max_hands=MAX_HANDS)
    whole = json.loads(json.dumps(to_record(state, [PLAYERS[s % 4] for s in range(n)])))
    assert whole["format"] == FORMAT
    hands = whole["hands"]
    for h in range(len(hands)):
        size = len(hands[h]["actions"])
        for actions in (None, 0, 1, size // 2, size - 1):
            again = json.loads(json.dumps(resume(cut(whole, h, actions), seed)))
            where = f"cut at hand {h}, action {actions}"
            for k, (new, old) in enumerate(zip(again["hands"], hands, strict=False)):
                assert new == old, f"{where}: hand {k} differs"
            assert again == whole, where


def test_the_next_deal_does_not_depend_on_the_hands_before() -> None:
    game = load_game("setback")
    one, two = game.new_state(9), game.new_state(9)
    one.deal()
    two.deal(one.hands[::-1], dealer=one.dealer)  # an injected deal: no draw from the seed
    assert one.hands != two.hands
    while not one.needs_deal:
        one.apply(one.legal_actions()[0])
    while not two.needs_deal:
        two.apply(two.legal_actions()[0])
    one.deal()
    two.deal()
    assert one.hands == two.hands and one.dealer == two.dealer


def test_chat_substitution_and_forfeit_are_entries_of_the_log_and_replay() -> None:
    game = load_game("setback")
    state = game.new_state(3)
    state.chat(-1, "welcome")
    state.deal()
    state.chat(0, "good luck")
    state.apply(state.legal_actions()[0])
    state.substitute(1, "bot:heuristic")
    state.apply(state.legal_actions()[0])
    state.forfeit(2)
    record = json.loads(json.dumps(to_record(state, PLAYERS)))
    assert record["format"] == FORMAT_2
    assert record["notes"] == [{"at": 0, "kind": "chat", "seat": -1, "text": "welcome"}]
    assert record["unfinished_hand"]["notes"] == [
        {"at": 0, "kind": "chat", "seat": 0, "text": "good luck"},
        {"at": 1, "kind": "substitute", "seat": 1, "text": "bot:heuristic"},
        {"at": 2, "kind": "forfeit", "seat": 2},
    ]
    again = replay(record, listen=True)
    assert again.is_over and again.winner == 1
    assert to_record(again, PLAYERS) == record
    assert again.events is not None
    kinds = [e.kind for e in again.events.all]
    assert kinds.count("chat") == 2 and "substituted" in kinds
    assert kinds[-2:] == ["forfeited", "match_over"]


def _five_and_six() -> list[str]:
    """Every base game at five and six seats, in each shape its options allow."""
    return [
        spec
        for name in sorted(GAMES)
        for spec in shapes(name)
        if load_game(spec).num_players in (5, 6)
    ]


@pytest.mark.parametrize("spec", _five_and_six())
def test_a_five_or_six_seat_match_replays_and_resumes_exactly(spec: str) -> None:
    game = load_game(spec)
    n, seed, hands = game.num_players, 77, 3
    state = play_match(game, bots(n), seed, max_hands=hands)
    players = [PLAYERS[s % 4] for s in range(n)]
    whole = json.loads(json.dumps(to_record(state, players)))
    again = replay(whole)
    assert again.game.num_players == n and again.scores == state.scores
    assert json.loads(json.dumps(to_record(again, players))) == whole
    for h in range(len(whole["hands"])):
        size = len(whole["hands"][h]["actions"])
        for actions in (None, 1, size // 2):
            resumed = json.loads(json.dumps(resume(cut(whole, h, actions), seed, hands)))
            assert resumed == whole, f"cut at hand {h}, action {actions}"
