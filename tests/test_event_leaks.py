"""No event in a seat's stream and no view of it names a card that seat may not know."""

from __future__ import annotations

import json

import pytest

from helpers import card_names, known
from table_shapes import other_shapes
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine.events import Dealt, Fault, HandChanged, PassReceived
from tricktable.engine.results import HandResult
from tricktable.engine.trick import TrickState, View
from tricktable.games import load_game, names
from tricktable.match import play_match


class Listening(Bot):
    """A random bot that asks for the events, so the match loop turns them on."""

    wants_events = True

    def __init__(self) -> None:
        self.inner = make_bot("random")

    def start_match(self, game, seat, seed):  # type: ignore[no-untyped-def]
        super().start_match(game, seat, seed)
        self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        return self.inner.act(view)

    def end_hand(self, view: View, result: HandResult) -> None:
        pass


@pytest.mark.parametrize("name", names() + other_shapes())
def test_no_event_or_view_names_a_hidden_card(name: str) -> None:
    game = load_game(name)
    told = [0] * game.num_players
    kinds: set[str] = set()

    def check(state: TrickState, actor: int, action: int) -> None:
        assert state.events is not None
        for seat in range(state.n):
            allowed = known(state, seat)
            stream = state.events.stream(seat)
            for event in stream[told[seat] :]:
                kinds.add(event.kind)
                if isinstance(event, Dealt | HandChanged):
                    assert event.seat == seat, f"seat {seat} got {event!r}"
                if isinstance(event, PassReceived):
                    assert event.receiver == seat, f"seat {seat} got {event!r}"
                if isinstance(event, Fault) and event.detail:
                    assert event.seat == seat, f"seat {seat} got {event!r}"
                leaked = card_names(json.dumps(event.to_dict())) & ~allowed
                assert not leaked, f"{name}: seat {seat} told {event!r}"
            told[seat] = len(stream)
            leaked = card_names(json.dumps(state.view(seat).to_dict())) & ~allowed
            assert not leaked, f"{name}: seat {seat}'s view names a hidden card: {leaked:#x}"

    for seed in range(3 if name in names() else 1):  # other tables: one match each
        told[:] = [0] * game.num_players
        bots = [Listening() for _ in range(game.num_players)]
        state = play_match(game, bots, seed, listener=check, max_hands=4)
        assert state.events is not None
    assert {"hand_started", "card_played", "trick_won", "hand_scored"} <= kinds
