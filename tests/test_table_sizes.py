"""The Whist and Hearts families at every table size their rules allow: Hearts 3-6, Oh Hell
and Tricks 3-7, cut-throat Spades and Euchre at three.

Each size plays whole matches (random and heuristic players), replays and resumes from its
record, and its heuristic beats random players; the rules that change with the size (the cards
taken out, the first lead, the passes, three-hand scoring) have tests of their own. Four seats
stay exactly as they were: ``players`` is recorded only when it is not 4.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.cards import card_name, cards_in, parse_card
from tricktable.engine.actions import BID, PASS, PASS_CARDS
from tricktable.engine.trick import PLAY, Game, TrickState
from tricktable.errors import OptionError
from tricktable.games import load_game
from tricktable.games.euchre import (
    ORDER_UP,
    ORDER_UP_ALONE,
    TRUMP,
    TRUMP_ALONE,
    cutthroat_points,
)
from tricktable.games.euchre_results import EuchreResult
from tricktable.games.hearts import REMOVED, HeartsState, direction_name, hearts_deck, pass_cycle
from tricktable.games.oh_hell import OhHell, OhHellState
from tricktable.games.spades import SpadesState, match_winner, score_team
from tricktable.games.spades_options import SpadesOptions
from tricktable.match import Referee, end_bots, play_match, play_on, start_bots
from tricktable.records import replay, to_record

#: every game of these families at every size but four, as a spec that ends a match soon
SIZED = [
    *(f"hearts(players={n})" for n in (3, 5, 6)),
    *(f"oh-hell(players={n})" for n in (3, 5, 6, 7)),
    *(f"tricks(players={n},target=60)" for n in (3, 5, 6, 7)),
    "spades(players=3)",
    "euchre(players=3)",
]


def bots(kind: str | list[str], n: int) -> list[Any]:
    kinds = [kind] * n if isinstance(kind, str) else kind
    return [make_bot(k) for k in kinds]


def whole_match(spec: str, kind: str, seed: int) -> TrickState:
    game = load_game(spec)
    referee = Referee()
    state = play_match(game, bots(kind, game.num_players), seed, referee=referee)
    assert referee.faults == [], referee.faults
    return state


# -------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("spec", SIZED)
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_a_whole_match_at_every_size(spec: str, kind: str) -> None:
    state = whole_match(spec, kind, 11)
    game = state.game
    assert state.is_over and state.results
    assert len(state.scores) == game.num_scores
    for log in state.history:
        assert len(log.deal) == game.num_players
        dealt = 0
        for mask in log.deal:
            assert not dealt & mask
            dealt |= mask
        deck = 0
        for card in game.deck:
            deck |= 1 << card
        assert not dealt & ~deck


@pytest.mark.parametrize("spec", SIZED)
def test_a_record_replays_and_resumes_at_every_size(spec: str) -> None:
    game = load_game(spec)
    n = game.num_players
    players = ["random", "heuristic"] * 4
    players = players[:n]
    state = play_match(game, bots(players, n), 99, max_hands=3)
    record = json.loads(json.dumps(to_record(state, players)))
    assert record["options"]["players"] == n
    again = json.loads(json.dumps(to_record(replay(record), players)))
    assert again == record
    # Cut in the middle of the second hand, resumed by fresh bots: the same match.
    cut = json.loads(json.dumps(record))
    second = cut["hands"][1]
    cut["unfinished_hand"] = {**second, "actions": second["actions"][: len(second["actions"]) // 2]}
    cut["unfinished_hand"].pop("notes", None)
    cut["hands"] = cut["hands"][:1]
    resumed = replay(cut)
    table = bots(players, n)
    start_bots(resumed.game, table, 99)
    play_on(resumed, table, max_hands=3)
    end_bots(resumed, table)
    assert json.loads(json.dumps(to_record(resumed, players))) == record


@pytest.mark.parametrize("name", ["hearts", "oh-hell", "tricks", "spades", "euchre"])
def test_four_seats_record_no_players_option(name: str) -> None:
    game = load_game(name)
    assert "players" not in game.options_dict()
    assert load_game(f"{name}(players=4)").spec() == name


# ------------------------------------------------------------ the heuristic at each size


def _per_hand(spec: str, hands: int, seeds: range) -> tuple[float, float]:
    """The heuristic's mean score change a hand, and the random seats' mean, over ``seeds``
    (the heuristic sits at each seat in turn)."""
    game = load_game(spec)
    n = game.num_players
    mine = others = 0.0
    count = 0
    for seed in seeds:
        seat = seed % n
        kinds = ["random"] * n
        kinds[seat] = "heuristic"
        state = play_match(game, bots(kinds, n), seed, max_hands=hands)
        side = game.team_of(seat)
        mine += state.scores[side] / len(state.results)
        rest = [state.scores[t] for t in range(game.num_scores) if t != side]
        others += sum(rest) / len(rest) / len(state.results)
        count += 1
    return mine / count, others / count


@pytest.mark.parametrize(
    ("spec", "hands", "margin"),
    [
        ("hearts(players=3)", 3, 3.0),
        ("hearts(players=5)", 3, 2.0),
        ("hearts(players=6)", 3, 1.5),
        ("oh-hell(players=3,max_cards=6)", 6, 1.5),
        ("oh-hell(players=5,max_cards=6)", 6, 1.5),
        ("oh-hell(players=7,max_cards=6)", 6, 1.5),
        ("tricks(players=3)", 2, 1.0),
        ("tricks(players=5)", 2, 0.5),
        ("tricks(players=7)", 2, 0.3),
        ("spades(players=3)", 2, 40.0),
        ("euchre(players=3)", 6, 0.3),
    ],
)
def test_the_heuristic_beats_random_players_at_every_size(
    spec: str, hands: int, margin: float
) -> None:
    mine, others = _per_hand(spec, hands, range(12))
    if load_game(spec).lower_wins:
        mine, others = -mine, -others
    assert mine > others + margin, (mine, others)


# ------------------------------------------------------------------------------ Hearts


def test_hearts_takes_out_the_usual_cards_and_deals_evenly() -> None:
    for n, size in ((3, 17), (4, 13), (5, 10), (6, 8)):
        game = load_game(f"hearts(players={n})")
        out = {parse_card(c) for c in REMOVED[n]}
        assert game.deck == hearts_deck(n) == tuple(c for c in range(52) if c not in out)
        assert game.hand_size == size and len(game.deck) == n * size
        assert game.num_scores == n and game.seat_counts == (3, 4, 5, 6)
    assert REMOVED[3] == ("2C",) and REMOVED[5] == ("2C", "2D")
    assert REMOVED[6] == ("2C", "2D", "3C", "2S")


@pytest.mark.parametrize(("n", "lead"), [(3, "3C"), (4, "2C"), (5, "3C"), (6, "4C")])
def test_hearts_the_lowest_club_dealt_leads(n: int, lead: str) -> None:
    game = load_game(f"hearts(players={n},passing=none)")
    state = game.new_state(5)
    state.deal()
    holder = next(s for s in range(n) if state.hands[s] >> parse_card(lead) & 1)
    assert state.phase == PLAY and state.to_act == holder
    assert state.legal_actions() == [parse_card(lead)]
    other = next(c for c in cards_in(state.hands[holder]) if card_name(c) != lead)
    assert state.illegal(other).reason == f"must lead {lead} to the first trick"


def test_hearts_passes_at_other_tables() -> None:
    assert pass_cycle("lrah", 6) == (1, 5, 3, 0)
    assert pass_cycle("lrh", 3) == (1, 2, 0)
    assert [direction_name(o, 3) for o in pass_cycle("lrh", 3)] == ["left", "right", "hold"]
    assert direction_name(3, 6) == "across" and direction_name(5, 6) == "right"
    # The default cycle has no across at an odd table: left, right, hold.
    assert load_game("hearts(players=5)").options.passing == "lrh"
    assert load_game("hearts(players=6)").options.passing == "lrah"
    with pytest.raises(OptionError, match="no seat across") as err:
        load_game("hearts(players=3,passing=across)")
    assert "\n" not in str(err.value)
    with pytest.raises(OptionError):
        load_game("hearts(players=7)")


def test_hearts_a_pass_right_at_three_goes_two_seats_left() -> None:
    game = load_game("hearts(players=3)")
    state = game.new_state(8)
    assert isinstance(state, HeartsState)
    state.deal()
    assert state.pass_offset == 1  # the first hand passes left
    while not state.needs_deal:
        state.apply(state.legal_actions()[0])
    state.deal()
    assert state.pass_offset == 2  # right, at three seats
    first = state.to_act
    passes = {}
    for i in range(3):
        seat = state.to_act
        action = state.legal_actions()[i]
        passes[seat] = action ^ PASS_CARDS
        state.apply(action)
    for giver, cards in passes.items():
        receiver = (giver + 2) % 3
        assert state.hands[receiver] & cards == cards
        assert state.received[receiver] == cards
    assert first == (state.dealer + 1) % 3
    info = state.view(first).info()
    assert info["pass_direction"] == "right"


# ------------------------------------------------------------------------------ Spades


def test_cutthroat_spades_deals_seventeen_without_the_two_of_clubs() -> None:
    game = load_game("spades(players=3)")
    assert game.num_players == game.num_scores == 3
    assert game.hand_size == 17 and len(game.deck) == 51 and 0 not in game.deck
    state = game.new_state(3)
    state.deal()
    state.apply(state.legal_actions()[-1] if state.phase != PLAY else 0)  # look, if offered
    bids = [a - BID for a in state.legal_actions() if BID <= a < BID + 64]
    assert bids == list(range(18))
    with pytest.raises(OptionError):
        load_game("spades(players=5)")


def test_cutthroat_spades_the_three_of_clubs_leads_with_first_lead_2c() -> None:
    game = load_game("spades(players=3,first_lead=2c,blind_nil=false)")
    state = game.new_state(4)
    state.deal()
    while state.phase != PLAY:
        state.apply(BID + 3)
    holder = next(s for s in range(3) if state.hands[s] >> parse_card("3C") & 1)
    assert state.to_act == holder and state.legal_actions() == [parse_card("3C")]


def test_cutthroat_spades_scores_each_seat_alone() -> None:
    opts = SpadesOptions(players=3)
    assert score_team((4,), (False,), (6,), 0, opts).points == 42
    assert score_team((5,), (False,), (4,), 0, opts).points == -50
    assert score_team((0,), (True,), (0,), 0, opts).points == 200
    assert score_team((3,), (False,), (5,), 9, opts).points == 32 - 100
    assert match_winner([510, 300, 490], 500, -200) == 0
    assert match_winner([100, -210, 90], 500, -200) == 0
    assert match_winner([510, 510, 0], 500, -200) is None
    assert match_winner([520, 510], 500, -200) == 0  # partnerships, as before


def test_cutthroat_spades_blind_nil_goes_by_the_best_other_score() -> None:
    game = load_game("spades(players=3)")
    state = game.new_state(1)
    assert isinstance(state, SpadesState)
    state.scores = [0, 150, 60]
    assert state.blind_nil_allowed(0) and not state.blind_nil_allowed(2)
    assert not state.blind_nil_allowed(1)


# ------------------------------------------------------------------------------ Euchre


def test_cutthroat_euchre_points() -> None:
    assert [cutthroat_points(t) for t in range(6)] == [
        (False, 2),
        (False, 2),
        (False, 2),
        (True, 1),
        (True, 1),
        (True, 3),
    ]


def _euchre_hand(state: TrickState, maker_plays: int) -> int:
    """Order up for the seat left of the dealer; return the maker."""
    state.deal()
    maker = state.to_act
    state.apply(ORDER_UP)
    state.apply(state.legal_actions()[0])  # the dealer's discard
    return maker


@pytest.mark.parametrize("seed", range(8))
def test_cutthroat_euchre_the_maker_alone_against_two(seed: int) -> None:
    game = load_game("euchre(players=3)")
    assert game.num_scores == 3 and game.hand_size == 5
    state = game.new_state(seed)
    state.deal()
    assert len(state.stock) == 9
    legal = state.legal_actions()
    assert PASS in legal and ORDER_UP in legal and ORDER_UP_ALONE not in legal
    assert "always plays alone" in state.illegal(ORDER_UP_ALONE).reason
    maker = state.to_act
    state.apply(ORDER_UP)
    state.apply(state.legal_actions()[0])  # the dealer's discard
    assert state.phase == PLAY and state.trick_size == 3 and state.skip == -1
    before = list(state.scores)
    while not state.needs_deal and not state.is_over:
        state.apply(state.legal_actions()[0])
    result = state.results[-1]
    assert isinstance(result, EuchreResult)
    took = state.tricks_won[maker]
    made, points = cutthroat_points(took)
    gained = [a - b for a, b in zip(state.scores, before, strict=True)]
    assert result.tricks == tuple(state.tricks_won) and result.points == tuple(gained)
    assert result.euchred == (not made)
    for s in range(3):
        assert gained[s] == (points if (s == maker) == made else 0)


def test_cutthroat_euchre_round_two_offers_no_lone_hand() -> None:
    game = load_game("euchre(players=3)")
    state = game.new_state(2)
    state.deal()
    for _ in range(3):
        state.apply(PASS)
    legal = state.legal_actions()
    assert any(TRUMP <= a < TRUMP + 4 for a in legal)
    assert not any(TRUMP_ALONE <= a < TRUMP_ALONE + 4 for a in legal)
    with pytest.raises(OptionError):
        load_game("euchre(players=2)")


# ----------------------------------------------------------------------------- Oh Hell


def test_oh_hell_hand_sizes_follow_the_table() -> None:
    for n, most in ((3, 13), (4, 13), (5, 10), (6, 8), (7, 7)):
        game = load_game(f"oh-hell(players={n})")
        assert isinstance(game, OhHell)
        assert game.options.max_cards == most and max(game.sizes) == most
        assert game.num_scores == n
    assert load_game("oh-hell(players=5,max_cards=6)").options.max_cards == 6
    with pytest.raises(OptionError, match="the deck has 52") as err:
        load_game("oh-hell(players=6,max_cards=9)")
    assert "\n" not in str(err.value)
    with pytest.raises(OptionError):
        load_game("oh-hell(players=8)")


def test_oh_hell_a_full_deal_at_seven_seats_turns_up_a_card() -> None:
    game = load_game("oh-hell(players=7)")
    state = game.new_state(1)
    assert isinstance(state, OhHellState)
    state.deal()
    assert state.hand_size == 7 and len(state.stock) == 3 and state.up_card == state.stock[0]


# ------------------------------------------------------------------------------ Tricks


def test_tricks_at_three_to_seven_leaves_the_rest_undealt() -> None:
    for n, size in ((3, 17), (5, 10), (6, 8), (7, 7)):
        game: Game = load_game(f"tricks(players={n})")
        assert game.hand_size == size and game.num_scores == n
        state = game.new_state(2)
        state.deal()
        assert state.to_act == (state.dealer + 1) % n
        assert sum(h.bit_count() for h in state.hands) == n * size
    with pytest.raises(OptionError):
        load_game("tricks(players=2)")


# ------------------------------------------------------------------------------ solver


@pytest.mark.parametrize("spec", ["hearts", "spades", *SIZED[:3], "spades(players=3)"])
def test_the_solver_takes_four_seat_hearts_and_spades_only(spec: str) -> None:
    from tricktable.search.solver import supports

    game = load_game(spec)
    assert supports(game) == (game.num_players == 4)
