"""ismcts's playouts: the greedy Hearts rules on set deals, whole hands played legally in
every game of the Hearts family, and the names a bot takes (one clear line for a playout a
game has none of)."""

from __future__ import annotations

import json
import random

import pytest

from tricktable.bots import make_bot
from tricktable.bots.ismcts import IsmctsBot
from tricktable.cards import card_name, mask_of, parse_card, parse_cards
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.records import to_record
from tricktable.search.playouts import hearts_card, hearts_playout, playout_for, random_playout

# Deals of Hearts without passing, north (seat 0) to lead the 2♣, east, south, west after it.
DUCK = (
    "2C 6C 7C 8C 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "AC JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S",
    "5C 9C KC TS JS QS KS AS 2H 3H 4H 5H 6H",
    "3C 4C QC TC JC 7H 8H 9H TH JH QH KH AH",
)
WIN = (
    "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3C AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS 2H",
    "4C 9C QS KS AS 3H 4H 5H 6H 7H 8H 9H TH",
    "5C 6C 7C 8C TC JC QC KC AC JH QH KH AH",
)
SPADES = (
    "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3C AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    "4C 5C 6C 7C 8C 9C TC JC QC KC QS KS AH",
    "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS AS KH",
)
QUEEN = (
    "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AH AS",
    "AC AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS",
)


def _position(hands: tuple[str, ...], played: str = "") -> TrickState:
    """``hands`` dealt, with the cards ``played`` (in turn, from the 2♣) already down."""
    state = load_game("hearts(passing=h)").new_state(seed=1)
    state.deal(hands=[mask_of(parse_cards(hand)) for hand in hands])
    assert state.phase == PLAY and state.to_act == 0
    for card in played.split():
        state.apply(parse_card(card))
    return state


def _greedy(state: TrickState) -> str:
    mask = state.legal_mask()
    assert mask & (mask - 1), "a rule is only asked where there is a choice"
    return card_name(hearts_card(state, mask, random.Random(0)))


def _c(text: str) -> str:
    return card_name(parse_card(text))


def test_a_follower_ducks_with_its_highest_card_under_the_trick() -> None:
    assert _greedy(_position(DUCK, "2C AC")) == _c("KC")
    assert _greedy(_position(DUCK, "2C AC KC")) == _c("QC")


def test_where_every_card_wins_the_lowest_goes_and_the_last_seat_sheds_its_highest() -> None:
    assert _greedy(_position(WIN, "2C 3C")) == _c("4C")  # south is not last: 4♣ of 4♣ 9♣
    assert _greedy(_position(WIN, "2C 3C 4C")) == _c("AC")  # west takes it anyway


def test_a_lead_is_low_a_discard_high_and_the_last_seat_keeps_the_queen() -> None:
    # West won the first trick with its only club; hearts unbroken, it holds spades to lead.
    state = _position(SPADES, "2C 3C 4C AC")
    assert state.to_act == 3 and _greedy(state) == _c("2S")
    assert _greedy(_position(SPADES, "2C 3C 4C AC 2S")) == _c("KD")  # no heart: the highest
    assert _greedy(_position(SPADES, "2C 3C 4C AC 2S KD")) == _c("QH")  # the highest heart
    assert _greedy(_position(SPADES, "2C 3C 4C AC 2S KD QH")) == _c("KS")  # not the Q♠


def test_a_discard_drops_the_queen_of_spades_first() -> None:
    # East holds only points, so even the first trick lets it discard them.
    assert _greedy(_position(QUEEN, "2C")) == _c("QS")


@pytest.mark.parametrize("spec", ["hearts", "hearts-3", "hearts(players=5)", "hearts(players=6)",
                                  "filippa"])  # fmt: skip
def test_a_greedy_playout_finishes_every_hand_of_the_family_legally(spec: str) -> None:
    game = load_game(spec)
    for seed in range(30):
        state = game.new_state(seed=seed)
        state.deal()
        rng = random.Random(seed)
        while state.phase != PLAY:  # the pass, as the random bot would
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(rng.randrange(3 * game.num_players)):  # from anywhere in the hand
            state.apply(rng.choice(state.legal_actions()))
        cards_left = sum(h.bit_count() for h in state.hands)
        world = state.clone()
        hearts_playout(world, rng)  # an illegal card would raise here
        assert world.phase != PLAY and len(world.actions) == len(state.actions) + cards_left


def test_the_playouts_a_game_has_and_one_line_for_those_it_has_not() -> None:
    assert playout_for("random", load_game("spades")) is random_playout
    assert playout_for("greedy", load_game("filippa")) is hearts_playout
    with pytest.raises(BotError, match="greedy playout is written for Hearts, not spades"):
        IsmctsBot(playout="greedy").start_match(load_game("spades"), 0, 1)
    with pytest.raises(BotError, match="has no playout 'smart'; its playouts: random, greedy"):
        make_bot("ismcts(playout=smart)")


def test_greedy_ismcts_plays_a_seeded_hearts_match_the_same_twice() -> None:
    game = load_game("hearts")

    def record() -> str:
        bots = [IsmctsBot(iterations=24, max_seconds=None, playout="greedy") for _ in range(2)]
        referee = Referee()
        state = play_match(game, [bots[0], make_bot("heuristic"), bots[1], make_bot("random")],
                           7, max_hands=1, referee=referee)  # fmt: skip
        assert referee.faults == []
        return json.dumps(to_record(state))

    assert record() == record()
