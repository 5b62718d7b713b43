"""Decisions as choices a person can make (:mod:`tricktable.seat.choices`).

Every game's decisions that take several cards — a Hearts pass, a kitty's discard, Cinch's
discard and rob, Euchre's dealer's discard — are one *k cards of these* choice with the right
bounds, made by naming the cards; a refused choice says why and changes nothing; the line
terminal takes a kitty's discard as one answer.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tricktable.cards import card_name, cards_in
from tricktable.engine.trick import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.seat import snapshot_of
from tricktable.seat.choices import action_phrase, actions_for, card_choice, read_cards

#: game: the (verb, least, most) of each choice of cards its first hands bring
EXPECTED = {
    "hearts": {("pass", 3, 3)},
    "hearts-3": {("pass", 3, 3)},
    "filippa": {("pass", 3, 3)},
    "pitch-with-kitty": {("discard", 4, 4)},
    "nine-card-pitch": {("discard", 18, 18)},
    "widow-pitch": {("discard", 6, 6)},
    "smear-with-widow": {("discard", 4, 4)},
    "catch-five": {("discard", 3, 3)},
    "five-hand-cinch": {("discard", 0, 6)},
    "euchre": {("discard", 1, 1)},
}


def _to_choice(name: str, seed: int, rng: random.Random) -> TrickState | None:
    """A state of ``name`` at its first choice of cards (random play), or None."""
    state = load_game(name).new_state(seed)
    for _ in range(3000):
        if state.is_over:
            return None
        if state.to_act < 0:
            state.deal()
            continue
        if card_choice(state.view(state.to_act), state) is not None:
            return state
        state.apply(rng.choice(state.legal_actions()))
    return None


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_choice_of_cards_has_its_bounds_and_is_made_by_naming_them(name: str) -> None:
    rng = random.Random(5)
    met = set()
    for seed in range(12):
        state = _to_choice(name, seed, rng)
        if state is None:
            continue
        seat = state.to_act
        choice = card_choice(state.view(seat), state)
        assert choice is not None
        met.add((choice.verb, choice.least, choice.most))
        cards = cards_in(choice.cards)
        assert not choice.cards & ~state.hands[seat]  # only its own cards
        picked = [card_name(c) for c in rng.sample(cards, choice.most)]
        before = state.hands[seat]
        actions = actions_for(state, seat, picked)
        assert state.hands[seat] == before  # checked on a copy: nothing applied
        for action in actions:
            state.apply(action)
        assert card_choice(state.view(seat), state) is None or state.to_act != seat
        thrown = sum(1 << c for c in map(_code, picked))
        if choice.verb == "discard":
            assert not state.hands[seat] & thrown  # gone from the hand
        elif choice.verb == "keep":
            assert state.hands[seat] == thrown  # the hand is what was kept
    assert met == EXPECTED[name]


def _code(name: str) -> int:
    from tricktable.cards import parse_card

    return parse_card(name)


def test_a_refused_choice_says_why_in_words_and_changes_nothing() -> None:
    state = _to_choice("pitch-with-kitty", 1, random.Random(1))
    assert state is not None
    seat = state.to_act
    choice = card_choice(state.view(seat), state)
    assert choice is not None
    mine = [card_name(c) for c in cards_in(choice.cards)]
    other = next(card_name(c) for c in range(52) if not state.hands[seat] >> c & 1)
    cases = {
        "chosen twice": [mine[0], mine[0], mine[1], mine[2]],
        "may not be chosen now": [other, *mine[:3]],
        "choose four cards, not three": mine[:3],
        "not to pass": mine[:4],
    }
    for why, cards in cases.items():
        with pytest.raises(TricktableError, match=why):
            actions_for(state, seat, cards, "pass" if why == "not to pass" else None)
    with pytest.raises(TricktableError, match="not your turn"):
        actions_for(state, (seat + 1) % state.n, mine[:4])
    assert len(state.actions) == len(state.clone().actions)


def test_a_pass_snapshot_is_one_choice_and_no_bigger_than_a_setback_one() -> None:
    import json

    hearts = _to_choice("hearts", 2, random.Random(2))
    assert hearts is not None
    snap = snapshot_of(hearts, hearts.to_act)
    assert snap["legal"] == [] and snap["decision"]["kind"] == "cards"
    setback = load_game("setback").new_state(2)
    setback.deal()
    big = snapshot_of(setback, setback.to_act)
    assert len(json.dumps(snap)) <= len(json.dumps(big)) * 1.2


def test_typed_choices_and_action_words() -> None:
    game = load_game("pitch-with-kitty")
    assert read_cards(game, "discard 7C 8D, 9H TS") == ("discard", [5, 19, 33, 47])
    assert read_cards(game, "7c 8d") == (None, [5, 19])
    assert read_cards(game, "discard 7C") is None and read_cards(game, "bid 3") is None
    words = action_phrase(load_game("setback"), 9)
    assert words == [{"t": "text", "v": "play"}, {"t": "text", "v": " "}, {"t": "card", "v": "JC"}]


def test_the_line_terminal_discards_the_kitty_in_one_answer(tmp_path: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src")
    answers = "bid 4\ndiscard 2c 4d 5d 9d\nquit\n"
    args = ["play", "--game", "pitch-with-kitty", "--seed", "1", "--save", str(tmp_path / "m")]
    run = subprocess.run(
        [sys.executable, "-m", "tricktable", *args],
        input=answers,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert "You discard 2C · You discard 4D · You discard 5D · You discard 9D" in run.stdout
    assert "several at once" in run.stdout


def test_a_discard_whose_draw_comes_only_after_three_is_made_short_of_all() -> None:
    # Two-seat Cinch, discard=any, nine held: three at least, then the draw is offered
    name = "cinch(players=2,partners=false,discard=any)"
    game = load_game(name)
    for seed in range(4):
        state = load_game(name).new_state(seed)
        rng = random.Random(seed)
        while True:
            if state.to_act < 0:
                state.deal()
                continue
            choice = card_choice(state.view(state.to_act), state)
            if choice is not None and choice.verb == "discard":
                break
            state.apply(rng.choice(state.legal_actions()))
        assert (choice.least, choice.most, game.action_name(choice.finish or 0)) == (3, 9, "draw")
        four = [card_name(c) for c in cards_in(choice.cards)[:4]]
        names = [game.action_name(a) for a in actions_for(state, state.to_act, four)]
        assert names == [f"discard {c}" for c in four] + ["draw"]


def test_every_legal_action_is_labelled_in_words() -> None:
    from tricktable.seat.choices import action_label

    cinch, euchre = load_game("cinch"), load_game("euchre")
    said = [action_label(cinch, cinch.parse_action(t)) for t in ("trump C", "keep 2C", "draw")]
    assert said == ["trump clubs", "keep two of clubs", "draw"]
    assert action_label(euchre, euchre.parse_action("order-up alone")) == "order up alone"
    assert action_label(cinch, cinch.parse_action("QH")) == "queen of hearts"


@pytest.mark.parametrize(
    ("name", "said"), [("setback", "won the hand (+"), ("hearts", "took the fewest points")]
)
def test_a_hands_summary_says_first_who_won_it(name: str, said: str) -> None:
    from tricktable.seat.phrases import to_plain

    names = ["You", "West", "North", "East"]
    for seed in range(6):
        state = load_game(name).new_state(seed)
        state.listen()
        state.deal()
        rng = random.Random(seed)
        while state.to_act >= 0:
            state.apply(rng.choice(state.legal_actions()))
        summary = snapshot_of(state, 0, names=names)["summary"]
        first = to_plain(summary[0], names)
        if said in first:
            return
    pytest.fail(f"no summary of {name} said who won the hand")
