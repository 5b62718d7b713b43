"""Events: what each kind carries, in JSON, and the points of a trick by game."""

from __future__ import annotations

from tricktable.engine.events import Dealt, HandChanged, MatchOver, TrickWon, TrumpNamed
from tricktable.games import load_game
from tricktable.games.pitch_scoring import game_count


def test_events_write_cards_by_name_and_suits_by_letter() -> None:
    assert Dealt(1, 0b111).to_dict() == {"type": "dealt", "seat": 1, "cards": ["2C", "3C", "4C"]}
    assert not isinstance(HandChanged(1, 1), Dealt)
    assert TrickWon(0, 1, (3, 4, 5, 6), 2, 0).to_dict() == {
        "type": "trick_won",
        "number": 0,
        "leader": 1,
        "cards": ["5C", "6C", "7C", "8C"],
        "winner": 2,
        "points": 0,
    }
    assert TrumpNamed(-1, 2).to_dict() == {"type": "trump_named", "seat": -1, "suit": "H"}
    assert MatchOver(None, (1, 2)).to_dict() == {
        "type": "match_over",
        "winner": None,
        "scores": [1, 2],
    }
    assert Dealt(2, 1).audience == 1 << 2


def tricks_of_a_hand(spec: str, seed: int) -> list[TrickWon]:
    state = load_game(spec).new_state(seed)
    log = state.listen()
    state.deal()
    while not state.needs_deal and not state.is_over:
        state.apply(state.legal_actions()[0])
    return [e for e in log.all if isinstance(e, TrickWon)]


def test_a_trick_carries_the_points_of_its_cards() -> None:
    for seed in range(5):
        assert sum(t.points for t in tricks_of_a_hand("hearts", seed)) == 26
        assert sum(t.points for t in tricks_of_a_hand("filippa", seed)) < 0
        setback = tricks_of_a_hand("setback", seed)
        played = 0
        for trick in setback:
            for card in trick.cards:
                played |= 1 << card
        assert sum(t.points for t in setback) == game_count(played)
        assert {t.points for t in tricks_of_a_hand("spades", seed)} == {0}
