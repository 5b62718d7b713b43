"""Events: what each kind carries, in JSON, the points of a trick by game, passes received."""

from __future__ import annotations

import pytest

from tricktable.engine.events import (
    SPECTATOR,
    CardPlayed,
    Dealt,
    HandChanged,
    MatchOver,
    PassReceived,
    TrickWon,
    TrumpNamed,
)
from tricktable.games import load_game
from tricktable.games.hearts import PASSING
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
    received = PassReceived(3, 0, 0b111, (1, 2, 3, 0))
    assert received.to_dict() == {
        "type": "pass_received",
        "giver": 3,
        "receiver": 0,
        "cards": ["2C", "3C", "4C"],
        "order": [1, 2, 3, 0],
    }
    assert received.audience == 1  # the receiver's alone


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


@pytest.mark.parametrize("spec", ["hearts", "filippa"])
def test_a_pass_reaches_its_receiver_alone_when_the_cards_move(spec: str) -> None:
    for seed in range(3):
        state = load_game(spec).new_state(seed)
        log = state.listen()
        for _ in range(4):  # Hearts: left, right, across, then a hand without passing
            state.deal()
            start = [len(log.stream(v)) for v in range(4)]
            first = len(log.all)
            offset = state.pass_offset
            while state.phase == PASSING:
                # Until the last pass, every pass is its giver's secret: nobody is told one.
                assert not any(isinstance(e, PassReceived) for e in log.all[first:])
                state.apply(state.legal_actions()[0])
            got = [e for e in log.all[first:] if isinstance(e, PassReceived)]
            if offset == 0:
                assert got == []
                for _ in range(52):
                    state.apply(state.legal_actions()[0])
                continue
            assert [e.giver for e in got] == [(state.dealer + 1 + i) % 4 for i in range(4)]
            for event in got:
                seat = event.receiver
                assert seat == (event.giver + offset) % 4
                assert event.audience == 1 << seat
                assert event.cards == state.passed[event.giver] == state.received[seat]
                assert event.order == tuple(e.giver for e in got)
                for viewer in range(4):
                    stream = log.stream(viewer)[start[viewer] :]
                    assert (event in stream) == (viewer == seat)
                assert event not in log.stream(SPECTATOR)
                # It comes with the cards: the receiver's next news is its new hand, before
                # any card is played.
                stream = log.stream(seat)
                after = stream[stream.index(event) + 1 :]
                changed = next(e for e in after if isinstance(e, HandChanged | CardPlayed))
                assert isinstance(changed, HandChanged) and changed.seat == seat
                assert changed.cards & event.cards == event.cards
            for _ in range(52):
                state.apply(state.legal_actions()[0])
            if state.is_over:
                break


def test_a_window_is_its_stream_as_it_was_read_like_a_list() -> None:
    state = load_game("hearts").new_state(3)
    log = state.listen()
    state.deal()
    for _ in range(9):
        state.apply(state.legal_actions()[0])
    for viewer in (0, 2, SPECTATOR):
        stream = list(log.stream(viewer))
        window = log.window(viewer)
        state.apply(state.legal_actions()[0])  # the stream grows; the window does not
        assert len(window) == len(stream) and list(window) == stream
        for i in (0, 1, len(stream) - 1, -1, -len(stream)):
            assert window[i] is stream[i]
        for cut in (slice(None), slice(2), slice(-3, None), slice(1, -1, 2), slice(5, 1, -1)):
            assert window[cut] == stream[cut]
        with pytest.raises(IndexError):
            window[len(stream)]


def test_an_event_refuses_every_change() -> None:
    event = TrickWon(0, 1, (3, 4, 5, 6), 2, 0)
    for name in ("number", "cards", "audience", "new"):
        with pytest.raises(AttributeError):
            setattr(event, name, 9)
        with pytest.raises(AttributeError):
            delattr(event, name)
    assert event.to_dict()["cards"] == ["5C", "6C", "7C", "8C"]
