"""Small helpers shared by the tests: playing actions, positions, what a seat may know, a
planted engine bug."""

from __future__ import annotations

import os
import random
import re
import socket
from collections.abc import Iterator

from hypothesis import HealthCheck, settings

from tricktable.cards import mask_of, parse_cards
from tricktable.engine.events import SPECTATOR, Event, EventLog
from tricktable.engine.trick import TrickState
from tricktable.games import load_game
from tricktable.games.cinch import DISCARD as CINCH_DISCARD
from tricktable.games.cinch import KEEP as CINCH_KEEP
from tricktable.games.cinch import CinchState

#: a canonical card name standing alone (the names events, views and messages write)
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|J[KL])\b")
#: variants beside the registered games and presets, for the rules their options change
#: (what a seat knows, and the worlds sampled from it)
VARIANTS = [
    "hearts(queen_breaks=true,first_trick_points=true,passing=a)",
    "spades(first_lead=2c,blind_nil_behind=0)",
    "spades(break_spades=false)",
    "euchre(alone=false,stick_the_dealer=true)",
    "oh-hell(max_cards=5)",
    "setback(jokers=2,hand_size=13,joker_lead=any)",
]
#: TRICKTABLE_FUZZ=N runs the fuzz tests' examples N times over, freshly drawn (a deep local
#: run); the suite's own run is derandomized, so that it is the same on every machine
FUZZ_DEPTH = int(os.environ.get("TRICKTABLE_FUZZ", "0") or 0)


def fuzz_settings(examples: int) -> settings:
    """The fuzz tests' Hypothesis settings: ``examples`` examples a run (times TRICKTABLE_FUZZ)."""
    return settings(
        max_examples=examples * max(FUZZ_DEPTH, 1),
        deadline=None,
        database=None,
        derandomize=not FUZZ_DEPTH,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


def run(state: TrickState, actions: str) -> TrickState:
    """Apply action texts separated by commas (``"pass, bid 2, play TD"``)."""
    for text in actions.split(","):
        if text.strip():
            state.apply(state.game.parse_action(text))
    return state


def play_out(state: TrickState) -> TrickState:
    """Finish the hand with the lowest legal action each time."""
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])
    return state


def positions(spec: str, seed: int, hands: int) -> Iterator[TrickState]:
    """Every decision of the first ``hands`` hands of a seeded random match."""
    state = load_game(spec).new_state(seed)
    rng = random.Random(seed)
    dealt = 0
    while not state.is_over:
        if state.needs_deal:
            if dealt == hands:
                return
            state.deal()
            dealt += 1
            continue
        yield state
        state.apply(rng.choice(state.legal_actions()))


def known(state: TrickState, viewer: int) -> int:
    """The cards ``viewer`` may know now: its own (once it may look), the played, the up-card,
    those the game says all know are in a hand (``known_held``: California Jack's face-up
    draws) and those thrown face up (:func:`thrown_face_up`)."""
    cards = mask_of(state.trick)
    for won in state.won:
        cards |= won
    if state.game.records_stock and state.stock:
        cards |= 1 << state.stock[0]
    if viewer != SPECTATOR and state._may_look(viewer):
        cards |= state.dealt[viewer] | state.hands[viewer]
    return cards | public_holdings(state, viewer) | thrown_face_up(state)


def thrown_face_up(state: TrickState) -> int:
    """The cards thrown face up this hand, which every seat sees: Cinch's trumps beyond the
    hand's size under ``discard=non-trumps`` (every discard action there; the non-trumps go
    face down without one). Other games: none."""
    if not isinstance(state, CinchState) or state.hidden_discard or not state.history:
        return 0
    log = state.history[-1]
    return mask_of(a - CINCH_DISCARD for a in log.actions if CINCH_DISCARD <= a < CINCH_KEEP)


def public_holdings(state: TrickState, viewer: int) -> int:
    """The cards in other seats' hands that ``viewer`` knows are there, where the game tells
    (a state's ``known_held(viewer)``; a game without one: none)."""
    hook = getattr(state, "known_held", None)
    return int(hook(viewer)) if hook is not None else 0


def card_names(text: str) -> int:
    """The mask of the canonical card names in ``text``."""
    return mask_of(parse_cards(CARD.findall(text)))


class BrokenLog(EventLog):
    """An event log that raises on the second trick of the third hand: an engine bug."""

    __slots__ = ()

    def emit(self, event: Event) -> None:
        super().emit(event)
        hands = sum(1 for e in self.all if e.kind == "hand_started")
        if event.kind == "trick_won" and hands == 3 and getattr(event, "number", -1) == 1:
            raise ZeroDivisionError("boom")


def unused_port() -> int:
    """A loopback port nothing listens on (bound and released at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port
