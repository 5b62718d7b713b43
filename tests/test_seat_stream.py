"""The seat's stream reader (tricktable.seat.stream): over real matches of several games its
tallies are what the seat's view and the state say — the seat's cards at each turn, the
tricks, trump, the scores — whether it reads at every turn or seldom (the latest-hand cut),
from the match's start or from the middle of one (a resumed match)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import chain

import pytest

from tricktable.engine.actions import PASS_CARDS
from tricktable.engine.events import SPECTATOR, CardPlayed, HandStarted
from tricktable.engine.phases import DEAL, OVER, PLAY
from tricktable.engine.trick import TrickState, View
from tricktable.games import load_game
from tricktable.seat.stream import SeatStream, hand_start

#: a game of each kind: Pitch, Hearts with its pass, Spades' bids, Euchre's up-card, Oh Hell
GAMES = ("setback", "hearts", "spades", "euchre", "oh-hell")


def turns(state: TrickState, seed: int, hands: int) -> Iterator[View]:
    """Play ``hands`` hands at random from ``state``, each turn's view handed out before the
    action is taken (the state deals when a hand is over)."""
    rng = random.Random(seed)
    while state.phase != OVER:
        if state.phase == DEAL:
            if len(state.history) >= hands:
                return
            state.deal()
            continue
        view = state.view(state.to_act)
        yield view
        state.apply(rng.choice(view.legal_actions()))


def played(view: View) -> int:
    """How many cards the view's hand has seen played."""
    return sum(len(cards) for _, cards, _ in view.tricks) + len(view.trick)


def assert_reads(stream: SeatStream, view: View) -> None:
    """The reader's tallies are what ``view`` (of a hand it read from its start) holds."""
    assert (stream.hand, stream.dealer, stream.hand_open) == (view.hand_number, view.dealer, True)
    assert stream.known == view.hand
    assert stream.trump == view.trump
    assert stream.tricks == len(view.tricks)
    assert stream.tricks_won == view.tricks_won
    assert stream.trick == view.trick
    assert stream.leader == (view.trick[0][0] if view.trick else -1)
    assert stream.plays == played(view)
    # In the order the seat learnt them: a pass received comes when the cards move.
    assert sorted(stream.actions) == sorted(view.actions)


@pytest.mark.parametrize("spec", GAMES)
def test_each_seat_reads_what_its_view_holds_at_every_turn(spec: str) -> None:
    game = load_game(spec)
    for seed in range(3):
        state = game.new_state(seed)
        state.listen()
        streams = [SeatStream(game, seat) for seat in range(game.num_players)]
        for view in turns(state, seed, hands=3):
            stream = streams[view.seat]
            for _ in stream.news(view):
                pass
            assert_reads(stream, view)
            assert list(stream.scores) == view.scores  # these games score at a hand's end
            assert stream.position == len(view.events)


@pytest.mark.parametrize("spec", GAMES)
def test_the_spectators_reader_keeps_up_with_the_state_after_every_action(spec: str) -> None:
    game = load_game(spec)
    state = game.new_state(7)
    log = state.listen()
    stream = SeatStream(game, SPECTATOR)
    before = stream.scores
    for _ in chain(turns(state, 7, hands=4), [None]):  # and once after the last action
        for event in stream.read(log.stream(SPECTATOR)):
            if event.kind == "hand_scored":
                # What each side gained is the hand's change in the match scores.
                assert stream.gained == tuple(
                    a - b for a, b in zip(stream.scores, before, strict=True)
                )
                before = stream.scores
        assert stream.known == 0 and not stream.received  # a spectator holds nothing
        assert (stream.hand, stream.dealer) == (len(state.history) - 1, state.dealer)
        assert stream.trump == state.tables.suit
        assert stream.tricks_won == state.tricks_won
        assert stream.trick == [(s, c) for s, c in state.view(0).trick]
    assert stream.scores == tuple(state.scores) and not stream.hand_open


def test_a_tally_is_counted_when_its_event_is_handed_out() -> None:
    game = load_game("euchre")
    state = game.new_state(3)
    log = state.listen()
    stream = SeatStream(game, 0)
    plays = 0
    for _ in turns(state, 3, hands=1):
        for event in stream.read(log.stream(0)):
            if isinstance(event, CardPlayed):
                plays += 1
                assert stream.plays == plays and stream.trick[-1] == (event.seat, event.card)
            elif isinstance(event, HandStarted):
                assert (stream.hand, stream.tricks, stream.plays) == (event.hand, 0, 0)


def test_hearts_a_pass_received_is_one_action_and_the_cards_follow() -> None:
    game = load_game("hearts")
    state = game.new_state(1)
    state.listen()
    streams = [SeatStream(game, seat) for seat in range(4)]
    for view in turns(state, 1, hands=1):
        stream = streams[view.seat]
        for _ in stream.news(view):
            pass
        if view.phase == PLAY and played(view) == 0:
            # The first card's turn: the passing is over; each seat was given three cards.
            (giver, cards), *_ = stream.received.items()
            assert len(stream.received) == 1 and cards.bit_count() == 3
            assert cards & ~view.hand == 0  # received, and held now
            passes = [a for s, a in stream.actions if a >= PASS_CARDS]
            assert len(passes) == 2 and (giver, PASS_CARDS | cards) in stream.actions
        assert_reads(stream, view)


@pytest.mark.parametrize("spec", GAMES)
def test_a_reader_that_reads_seldom_starts_at_the_latest_hand(spec: str) -> None:
    game = load_game(spec)
    state = game.new_state(5)
    state.listen()
    seat = 1
    stream = SeatStream(game, seat)
    for view in turns(state, 5, hands=3):
        if view.seat != seat or view.hand_number == 0:
            continue  # hand 0 is never read: hand 1's first turn reads what came since
        was = stream.hand
        news = list(stream.news(view))
        if was != view.hand_number:
            assert isinstance(news[0], HandStarted) and news[0].hand == view.hand_number
            assert sum(isinstance(e, HandStarted) for e in news) == 1
        assert_reads(stream, view)
        # The hands passed over still count for the scores.
        assert list(stream.scores) == view.scores


def test_hand_start_finds_the_last_hand() -> None:
    game = load_game("setback")
    state = game.new_state(2)
    log = state.listen()
    for _ in turns(state, 2, hands=2):
        pass
    events = log.stream(0)
    start = hand_start(events)
    began = events[start]
    assert isinstance(began, HandStarted) and began.hand == 1
    assert hand_start(events[1:start]) == -1  # only hand 0's rest


@pytest.mark.parametrize("spec", GAMES)
def test_a_reader_joins_a_hand_its_stream_began_in(spec: str) -> None:
    game = load_game(spec)
    rng = random.Random(9)
    state = game.new_state(9)
    state.deal()
    for _ in range(2 * game.num_players + 3):  # into the play, in most games
        state.apply(rng.choice(state.view(state.to_act).legal_actions()))
    state.listen()  # a resumed match listens from where its record stops
    tricks, won = len(state.tricks), list(state.tricks_won)
    streams = [SeatStream(game, seat) for seat in range(game.num_players)]
    for view in turns(state, 9, hands=2):
        stream = streams[view.seat]
        was = stream.hand
        news = stream.news(view)
        if was == -1:  # joined at once, before any event is handed out
            assert stream.hand == view.hand_number == 0
            assert stream.joined and stream.known == view.hand
            assert (stream.dealer, stream.trump) == (view.dealer, view.trump)
        if view.hand_number == 0:
            for _ in news:
                pass
            # What it counts is what its stream told it: what came after the listening began.
            assert stream.known == view.hand
            assert stream.tricks == len(view.tricks) - tricks
            assert stream.tricks_won == [a - b for a, b in zip(view.tricks_won, won, strict=True)]
        else:
            for _ in news:
                pass
            assert not stream.joined
            assert_reads(stream, view)


def test_a_reader_that_comes_late_leaves_the_past_alone() -> None:
    game = load_game("euchre")
    state = game.new_state(4)
    log = state.listen()
    for _ in turns(state, 4, hands=2):
        pass
    # The talk's way: from the stream's end now, with the scores as they stand.
    now = len(log.stream(SPECTATOR))
    stream = SeatStream(game, SPECTATOR, start=now, scores=state.scores)
    assert list(stream.read(log.stream(SPECTATOR))) == []
    for _ in chain(turns(state, 4, hands=3), [None]):
        for _ in stream.read(log.stream(SPECTATOR)):
            pass
    assert stream.hand == 2 and stream.tricks_won == state.tricks_won
    assert stream.scores == tuple(state.scores)


def test_tricks_a_hand_thrown_in_leaves_no_trick_in_play() -> None:
    game = load_game("tricks")
    state = game.new_state(0)
    log = state.listen()
    state.deal()
    rng = random.Random(0)
    for _ in range(6):
        state.apply(rng.choice(state.view(state.to_act).legal_actions()))
    state.penalize_bad_card(state.to_act)  # type: ignore[attr-defined]
    stream = SeatStream(game, 0)
    for _ in stream.read(log.stream(0)):
        pass
    assert not stream.hand_open and stream.trick == [] and stream.leader == -1
    assert stream.scores == tuple(state.scores) and min(stream.gained) < 0
