"""The rules of chat (tricktable.chat.rules): text, length, cards, rate and who hears whom."""

from __future__ import annotations

import pytest

import tricktable.chat as chat
from tricktable.bots import make_bot
from tricktable.cards import card_name as format_card
from tricktable.characters.talk import match_talker
from tricktable.chat import rules
from tricktable.chat.rules import (
    MAX_CHAT,
    SAY_PER_DECISION,
    SAY_PER_HAND,
    ChatThrottle,
    checked_line,
    checked_say,
    hand_on,
    hears,
    tidied,
)
from tricktable.engine.trick import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game


def dealt(game_name: str = "setback", seed: int = 3) -> TrickState:
    state = load_game(game_name).new_state(seed)
    state.deal()
    return state


def test_the_package_keeps_its_names_for_its_callers() -> None:
    assert chat.checked_line is rules.checked_line
    assert chat.public_cards is rules.public_cards
    assert chat.MAX_CHAT == MAX_CHAT == 200
    assert chat.named_cards("the JC") == [chat.named_cards("jack of clubs")[0]]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (None, "must be text"),
        (3, "must be text"),
        ("   ", "nothing to say"),
        ("", "nothing to say"),
        ("hi\x07", "control characters"),
        ("a\x1b[31mred", "control characters"),
    ],
)
def test_a_line_that_is_no_line_is_refused(text: object, why: str) -> None:
    with pytest.raises(TricktableError, match=why):
        tidied(text)
    with pytest.raises(TricktableError, match=why):
        checked_line(dealt(), text)


def test_spaces_are_tidied_and_a_long_line_clipped() -> None:
    assert tidied(" good    game ") == "good game"
    long = tidied("w" * (MAX_CHAT + 50))
    assert len(long) == MAX_CHAT and long.endswith("…")
    assert len(tidied("w" * MAX_CHAT)) == MAX_CHAT  # at the limit: kept whole


def test_a_hidden_card_is_refused_a_face_up_one_is_not() -> None:
    state = dealt()
    while not state.trick:
        state.apply(state.legal_actions()[0])
    played = state.trick[0]
    hidden = (state.hands[0] & -state.hands[0]).bit_length() - 1
    assert checked_line(state, f"nice {format_card(played)}")
    with pytest.raises(TricktableError, match=f"{format_card(hidden)} is not"):
        checked_line(state, f"I hold {format_card(hidden)}")


def test_checked_say_puts_a_checked_line_in_the_log() -> None:
    state = dealt()
    say = checked_say(state)
    say(1, "  well   played ")
    assert [(n.kind, n.seat, n.text) for n in state.notes][-1] == ("chat", 1, "well played")
    with pytest.raises(TricktableError):
        say(1, "")


def test_a_bot_is_throttled_per_decision_and_per_hand_once() -> None:
    throttle = ChatThrottle()
    throttle.decision(0)
    for i in range(SAY_PER_DECISION + 2):
        throttle.hear(f"line {i}")
    said, note = throttle.take()
    assert len(said) == SAY_PER_DECISION and "throttled" in note
    for _decision in range(10):
        throttle.decision(0)
        for _ in range(SAY_PER_DECISION):
            throttle.hear("more")
    said, note = throttle.take()
    assert len(said) == SAY_PER_HAND - SAY_PER_DECISION and note == ""  # said once a match
    throttle.decision(1)  # a new hand
    throttle.hear("again")
    assert throttle.take() == (["again"], "")


def test_the_protocols_throttle_keeps_the_same_rate() -> None:
    from tricktable.protocols import http, stdio

    # One throttle for every protocol: the chat rules' own, at their rate.
    assert http.ChatThrottle is stdio.ChatThrottle is ChatThrottle


def test_spectators_chat_reaches_players_only_between_hands() -> None:
    for during in (False, True):
        assert hears(listener_watches=False, speaker_watches=False, during_hand=during)
        assert hears(listener_watches=True, speaker_watches=False, during_hand=during)
        assert hears(listener_watches=True, speaker_watches=True, during_hand=during)
    assert not hears(listener_watches=False, speaker_watches=True, during_hand=True)
    assert hears(listener_watches=False, speaker_watches=True, during_hand=False)
    assert hand_on(is_over=False, to_act=2)
    assert not hand_on(is_over=True, to_act=2)
    assert not hand_on(is_over=False, to_act=-1)


def test_a_match_talker_speaks_through_the_checks() -> None:
    state = dealt()
    players = [make_bot(name) for name in ("edna", "random", "vinnie", "random")]
    talker = match_talker(state, players, ["bot:edna", "bot:random", "bot:vinnie", "bot:random"])
    assert talker is not None
    hidden = (state.hands[0] & -state.hands[0]).bit_length() - 1
    talker.say(0, f"I hold {format_card(hidden)}")  # refused: not said
    talker.say(0, "good luck, all")
    assert [(n.seat, n.text) for n in state.notes if n.kind == "chat"] == [(0, "good luck, all")]
