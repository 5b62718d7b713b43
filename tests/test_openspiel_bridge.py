"""Tests of the OpenSpiel bridge (``openspiel-ismcts``, ``openspiel-random``), with real pyspiel.

- The rules agree: over seeded Hearts hands of several variants, at every decision the mirror
  of the seat to act gives OpenSpiel's Hearts that seat to act and exactly our legal cards, and
  OpenSpiel's scores of the finished hand (the whole truth mirrored) are ours, moons included.
- The mirror holds no hidden card as known: OpenSpiel's information state for the seat, built
  from a world our determinizer drew, equals the one built from the real state; and a bot's
  decision is the same whatever the real hidden hands are, for one view and seed.
- Both bots play whole matches without a fault; options and missing pyspiel fail in one line.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator

import pytest

from tricktable.bots import make_bot
from tricktable.bridges.openspiel import (
    HandStory,
    from_openspiel,
    legal_cards,
    load_openspiel_hearts,
    mirror,
    openspiel_parameters,
    story_of_view,
    to_openspiel,
)
from tricktable.cards import cards_in
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.games.passing import PASSING
from tricktable.runner import MatchSpec, run_match
from tricktable.search import Determinizer

#: our variants and the OpenSpiel rule each one moves (the first is OpenSpiel's default game)
VARIANTS = [
    "hearts(queen_breaks=true)",
    "hearts",
    "hearts(first_trick_points=true,breaking=false)",
    "hearts(passing=h)",
    "hearts(passing=ra,queen_breaks=true,first_trick_points=true)",
]

Policy = Callable[[TrickState, random.Random], int]


def random_policy(state: TrickState, rng: random.Random) -> int:
    return rng.choice(state.legal_actions())


def shooter_policy(state: TrickState, rng: random.Random) -> int:
    """Seat 0 keeps and plays its highest cards, the others their lowest: seat 0 takes most
    tricks and often all the points, so moons are scored too."""
    high = state.to_act == 0

    def rank(action: int) -> int:  # a card's rank, or a pass's ranks summed
        return (
            sum(c % 13 for c in cards_in(action & ((1 << 52) - 1))) if action >= 52 else action % 13
        )

    legal = state.legal_actions()
    if state.phase == PASSING:
        return min(legal, key=rank) if high else max(legal, key=rank)
    return max(legal, key=rank) if high else min(legal, key=rank)


def hands_played(
    spec: str, seed: int, hands: int, policy: Policy
) -> Iterator[tuple[TrickState, list[int] | None]]:
    """Each decision's state with None, then each finished hand's state with the hand's
    change of every seat's score."""
    state = load_game(spec).new_state(seed)
    rng = random.Random(seed)
    for _ in range(hands):
        if state.is_over:
            return
        before = list(state.scores)
        state.deal()
        while state.to_act >= 0:
            yield state, None
            state.apply(policy(state, rng))
        yield state, [after - b for after, b in zip(state.scores, before, strict=True)]


def check_decision(os_game: object, state: TrickState, rng: random.Random) -> None:
    """The mirror of the seat to act agrees with our engine and knows only what it may."""
    seat = state.to_act
    view = state.view(seat)
    story = story_of_view(view, rng)
    guess = mirror(os_game, story)
    truth = mirror(os_game, HandStory.of_state(state, first=seat))
    assert guess.current_player() == truth.current_player() == 0  # the seat is player 0
    if view.phase == PASSING:
        assert legal_cards(guess) == view.hand
    else:
        assert view.phase == PLAY
        assert legal_cards(guess) == legal_cards(truth) == view.legal_mask()
    assert guess.information_state_string(0) == truth.information_state_string(0)
    # The other seats' cards in the mirror are the determinizer's, not the real ones.
    assert story.dealt[seat] == view.dealt


@pytest.mark.parametrize("spec", VARIANTS)
def test_the_mirror_agrees_with_our_rules_at_every_decision(spec: str) -> None:
    game = load_game(spec)
    os_game = load_openspiel_hearts(game)
    rng = random.Random(7)
    decisions = hands = 0
    for seed in range(3):
        # Four hands: every pass direction of the cycle.
        for state, delta in hands_played(spec, seed, 4, random_policy):
            if delta is None:
                check_decision(os_game, state, rng)
                decisions += 1
            else:
                check_scores(os_game, state, delta)
                hands += 1
    assert hands == 12 and decisions >= 12 * 52


def check_scores(os_game: object, state: TrickState, delta: list[int]) -> None:
    """OpenSpiel's returns of the mirrored whole hand are 26 minus our score change."""
    for first in (0, 3):
        story = HandStory.of_state(state, first=first)
        done = mirror(os_game, story)
        assert done.is_terminal()
        returns = done.returns()
        assert [26 - delta[story.seat(p)] for p in range(4)] == [round(r) for r in returns]


def test_scores_agree_when_the_moon_is_shot() -> None:
    spec = "hearts(queen_breaks=true)"
    os_game = load_openspiel_hearts(load_game(spec))
    moons = 0
    for seed in range(80):  # about one hand in 30 is a moon
        for state, delta in hands_played(spec, seed, 1, shooter_policy):
            if delta is not None:
                check_scores(os_game, state, delta)
                moons += sorted(delta) == [0, 26, 26, 26]
    assert moons >= 2  # the moon's scoring was compared, not only plain hands


def test_cards_and_rules_map_both_ways() -> None:
    assert sorted(to_openspiel(c) for c in range(52)) == list(range(52))
    assert all(from_openspiel(to_openspiel(c)) == c for c in range(52))
    assert to_openspiel(0) == 0 and to_openspiel(10 + 3 * 13) == 43  # 2C; QS is rank 10 * 4 + 3
    default = openspiel_parameters(load_game("hearts(queen_breaks=true)").options)
    import pyspiel

    assert default == pyspiel.load_game("hearts").get_parameters()
    with pytest.raises(BotError, match="moon=add"):
        openspiel_parameters(load_game("hearts(moon=subtract)").options)
    assert not openspiel_parameters(load_game("hearts(passing=none)").options)["pass_cards"]


# ----------------------------------------------------------------- what a bot may know


def choice_points(spec: str, seed: int) -> Iterator[TrickState]:
    """A few decisions with a choice: the pass, an early trick, a late one."""
    picks = {0, 1, 9, 30}
    for i, (state, delta) in enumerate(hands_played(spec, seed, 1, random_policy)):
        if delta is None and i in picks and len(state.legal_actions()) > 1:
            yield state


def test_a_decision_does_not_depend_on_the_real_hidden_hands() -> None:
    spec = "hearts(queen_breaks=true)"
    game = load_game(spec)
    os_game = load_openspiel_hearts(game)
    checked = 0
    for seed in range(3):
        for state in choice_points(spec, seed):
            seat = state.to_act
            view = state.view(seat)
            # Another real state that shows this seat the same view: other hidden hands.
            other = Determinizer(view).sample(random.Random(seed + 100))
            assert other.hands != state.hands
            other_view = other.view(seat)
            assert other_view.to_dict() == view.to_dict()
            # What OpenSpiel is given is the same state, move for move...
            given = [
                mirror(os_game, story_of_view(v, random.Random(seed))).history()
                for v in (view, other_view)
            ]
            assert given[0] == given[1]
            # ... so a seeded bot chooses the same; OpenSpiel's ISMCTS, not reproducible
            # even for one seed (see the bridge), chooses a legal card either way.
            for bot_spec in ("openspiel-random", "openspiel-ismcts(simulations=25)"):
                chosen = []
                for v in (view, other_view):
                    bot = make_bot(bot_spec)
                    bot.start_match(game, seat, 41)
                    chosen.append(bot.act(v))
                assert set(chosen) <= set(view.legal_actions())
                if bot_spec == "openspiel-random":
                    assert chosen[0] == chosen[1]
            checked += 1
    assert checked >= 8


def test_the_hidden_hands_given_to_openspiel_are_drawn_not_real() -> None:
    state = load_game("hearts").new_state(3)
    state.deal()
    for _ in range(4 + 9):  # the passes, then into the second trick
        state.apply(state.legal_actions()[0])
    seat = state.to_act
    view = state.view(seat)
    stories = [story_of_view(view, random.Random(i)) for i in range(6)]
    others = {tuple(m for s, m in enumerate(st.dealt) if s != seat) for st in stories}
    assert len(others) == 6  # a new draw each time, not a copy of the real hands
    assert {st.dealt[seat] for st in stories} == {view.dealt}
    assert {st.plays for st in stories} == {tuple(a for _, a in view.actions if a < 52)}


# --------------------------------------------------------------------- whole matches


@pytest.mark.parametrize(
    "players",
    [
        ("openspiel-random", "random", "openspiel-random", "heuristic"),
        ("openspiel-ismcts(simulations=15)", "heuristic", "openspiel-random", "random"),
    ],
)
def test_the_bots_play_whole_matches_legally(players: tuple[str, ...]) -> None:
    outcome = run_match(MatchSpec("hearts(queen_breaks=true)", players, seed=5))
    assert outcome.result.status == "finished"
    assert outcome.faults == () and outcome.substitutions == ()
    if "openspiel-ismcts" not in players[0]:  # OpenSpiel's ISMCTS is not reproducible
        again = run_match(MatchSpec("hearts(queen_breaks=true)", players, seed=5))
        assert again.result.scores == outcome.result.scores  # seeded: the same match


def test_our_default_hearts_is_played_too() -> None:
    players = ("openspiel-ismcts(simulations=10,final_policy=max_value)",) + ("random",) * 3
    outcome = run_match(MatchSpec("hearts", players, seed=2, max_hands=3))
    assert outcome.faults == () and outcome.result.hands == 3


# --------------------------------------------------------------------- errors, one line


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openspiel-ismcts(simulations=0)", "at least one simulation"),
        ("openspiel-ismcts(max_seconds=-1)", "max_seconds above 0"),
        ("openspiel-ismcts(final_policy=best)", "no final_policy 'best'"),
        ("openspiel-ismcts(depth=3)", "no option 'depth'"),
    ],
)
def test_bad_options_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message) as info:
        make_bot(spec)
    assert "\n" not in str(info.value)


def test_other_games_and_rules_are_refused_at_the_start() -> None:
    bot = make_bot("openspiel-random")
    with pytest.raises(BotError, match="hearts only, not spades"):
        bot.start_match(load_game("spades"), 0, 1)
    with pytest.raises(BotError, match="moon=add"):
        bot.start_match(load_game("hearts(moon=none)"), 0, 1)


def test_without_pyspiel_the_bots_say_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # what an import of a missing module does
    for name in ("openspiel-ismcts", "openspiel-random"):
        bot = make_bot(name)  # made without pyspiel: it is needed at the start
        with pytest.raises(BotError, match=r"pip install 'tricktable\[openspiel\]'") as info:
            bot.start_match(load_game("hearts"), 0, 1)
        assert "\n" not in str(info.value)
