"""Cinch (Double Pedro) and its relatives: the auction, trump, the discard, draw and rob, each
point and weight, the score, and every version played, replayed and resumed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpers import known
from tricktable.bots import make_bot
from tricktable.cards import mask_of, parse_card, parse_cards
from tricktable.engine.actions import BID, PASS
from tricktable.engine.events import SPECTATOR
from tricktable.engine.trick import AUCTION, DEAL, PLAY
from tricktable.errors import OptionError
from tricktable.games import PRESETS, load_game
from tricktable.games.cinch import DISCARD, DISCARDING, DRAW, KEEP, NAMING, ROBBING, TRUMP
from tricktable.games.cinch_options import CinchOptions
from tricktable.games.cinch_results import CinchResult
from tricktable.games.cinch_scoring import hand_points, high_low, score_hand
from tricktable.games.cinch_text import rules_text
from tricktable.match import end_bots, play_match, play_on, start_bots
from tricktable.records import replay, result_of, to_record
from tricktable.seat.snapshot import snapshot_of

VERSIONS = ["cinch", *sorted(n for n, p in PRESETS.items() if p.game == "cinch")]

HANDS = [
    "AH KH QH JH TH 5H 2C 3C 4C",  # seat 0: six trumps
    "5D 9H 2S 3S 4S 6S 7S 8S 9S",  # seat 1: the left Pedro and the nine
    "2D 3D 4D 6D 7D 8D 9D TD JD",  # seat 2: no trump
    "QD KD AD 2H 3H 4H 6H 7H 8H",  # seat 3, the dealer: six trumps
]
STOCK = "5S TS JS QS KS AS 5C 6C 7C 8C 9C TC JC QC KC AC"


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def dealt(
    spec: str = "cinch", hands: list[str] = HANDS, stock: str = STOCK, dealer: int = 3
) -> Any:
    state = load_game(spec).new_state(1)
    state.deal([cards(h) for h in hands], dealer=dealer, stock=parse_cards(stock))
    return state


def act(state: Any, *texts: str) -> None:
    for text in texts:
        state.apply(state.game.parse_action(text))


# ------------------------------------------------------------------------------ the auction


def test_one_round_of_bids_from_the_dealers_left_each_higher() -> None:
    state = dealt()
    assert state.phase == AUCTION and state.to_act == 0
    assert state.legal_actions() == [PASS, *(BID + n for n in range(6, 15))]
    act(state, "bid 8")
    assert state.to_act == 1
    assert state.legal_actions() == [PASS, *(BID + n for n in range(9, 15))]
    assert "more than the high bid of 8" in state.illegal(BID + 8).reason
    act(state, "pass", "bid 9")
    assert state.legal_actions() == [PASS, *(BID + n for n in range(10, 15))]  # the dealer
    act(state, "pass")
    assert state.phase == NAMING and state.to_act == 2 and state.bid == 9


def test_the_dealers_privilege_takes_the_bid_at_the_same_level() -> None:
    state = dealt("cinch(dealer_takes=true)")
    act(state, "bid 7", "pass", "pass")
    assert BID + 7 in state.legal_actions() and BID + 6 not in state.legal_actions()
    act(state, "bid 7")
    assert state.bidder == 3 and state.bid == 7
    plain = dealt()
    act(plain, "bid 7", "pass", "pass")
    assert BID + 7 not in plain.legal_actions()


def test_the_top_bid_ends_the_auction_unless_the_dealer_may_take_it() -> None:
    state = dealt()
    act(state, "pass", "bid 14")
    assert state.phase == NAMING and state.bidder == 1
    taking = dealt("cinch(dealer_takes=true)")
    act(taking, "pass", "bid 14")
    assert taking.phase == AUCTION and taking.to_act == 3
    assert taking.legal_actions() == [PASS, BID + 14]


def test_all_pass_throws_the_deal_in_or_the_dealer_must_bid() -> None:
    state = dealt()
    act(state, "pass", "pass", "pass", "pass")
    result = state.results[-1]
    assert isinstance(result, CinchResult) and result.thrown_in and state.phase == DEAL
    assert result.to_dict()["thrown_in"] is True
    forced = dealt("cinch(all_pass=dealer-bids)")
    act(forced, "pass", "pass", "pass")
    assert PASS not in forced.legal_actions()
    assert "may not pass" in forced.illegal(PASS).reason


# ---------------------------------------------------------------- trump, discard, draw, rob


def test_the_bidder_names_trump_before_the_play() -> None:
    state = dealt()
    act(state, "bid 10", "pass", "pass", "pass")
    assert state.phase == NAMING and state.to_act == 0
    assert state.legal_actions() == [TRUMP + s for s in range(4)]
    assert state.game.action_name(TRUMP + 2) == "trump H"
    assert state.game.parse_action("trump hearts") == TRUMP + 2
    act(state, "trump H")
    assert state.trump == 2
    # The left Pedro (5D) is a trump, just below the five.
    power = state.tables.power
    five, left, four = parse_card("5H"), parse_card("5D"), parse_card("4H")
    assert power[five] > power[left] > power[four] >= 100


def test_non_trumps_go_the_pack_fills_each_hand_and_the_dealer_robs() -> None:
    state = dealt()
    act(state, "bid 10", "pass", "pass", "pass", "trump H")
    # Nobody had a choice: every non-trump went; the draw came from the top of the pack.
    assert state.hands[0] == cards("AH KH QH JH TH 5H")
    assert state.hands[1] == cards("5D 9H 5S TS JS QS")
    assert state.hands[2] == cards("KS AS 5C 6C 7C 8C")
    assert state.discarded[2] == cards(HANDS[2])
    # The dealer robs: his nine and the rest of the pack, of which he keeps six.
    assert state.phase == ROBBING and state.to_act == 3
    pool = cards(HANDS[3]) | cards("9C TC JC QC KC AC")
    assert state.hands[3] == pool
    assert state.legal_actions() == sorted(
        KEEP + c for c in parse_cards(HANDS[3] + " 9C TC JC QC KC AC")
    )
    for text in ("2H", "3H", "4H", "6H", "7H"):
        act(state, f"keep {text}")
        assert state.phase == ROBBING
    assert KEEP + parse_card("2H") not in state.legal_actions()  # kept already
    act(state, "keep AC")
    assert state.hands[3] == cards("2H 3H 4H 6H 7H AC")
    assert state.phase == PLAY and state.to_act == 0  # the bidder leads
    assert all(h.bit_count() == 6 for h in state.hands) and state.hand_size == 6


def test_the_robbed_cards_are_the_dealers_alone() -> None:
    state = dealt()
    act(state, "bid 10", "pass", "pass", "pass", "trump H", "keep 2H")
    assert state.game.private_actions
    mine = state.view(3)
    assert (3, KEEP + parse_card("2H")) in mine.actions
    assert mine.info()["kept"] == ["2H"]
    for seat in (0, 1, 2):
        view = state.view(seat)
        assert all(a < KEEP for _s, a in view.actions)
        assert "2H" not in json.dumps(view.to_dict()) or seat == 3
        # A drawn card is its receiver's: seat 2 drew KS, which no other view names.
        if seat != 2:
            assert "KS" not in json.dumps(view.to_dict())


def test_more_trumps_than_six_throws_the_excess_plain_trumps_first() -> None:
    hands = [
        "AH KH QH JH TH 5H 9H 2C 3C",  # seven trumps
        "5D 8H 2S 3S 4S 6S 7S 8S 9S",
        "2D 3D 4D 6D 7D 8D 9D TD JD",
        "QD KD AD 2H 3H 4H 6H 7H 5S",
    ]
    stock = "8C TS JS QS KS AS 5C 6C 7C 9C TC JC QC KC AC 4C"
    state = dealt(hands=hands, stock=stock)
    act(state, "bid 10", "pass", "pass", "pass", "trump H")
    assert state.phase == DISCARDING and state.to_act == 0
    assert state.hands[0] == cards("AH KH QH JH TH 5H 9H")
    # The jack, the ten (Game) and the Pedro are point cards: plain trumps go first.
    assert state.legal_actions() == sorted(DISCARD + c for c in parse_cards("AH KH QH 9H"))
    assert "point trumps" in state.illegal(DISCARD + parse_card("JH")).reason
    act(state, "discard 9H")
    assert state.hands[0] == cards("AH KH QH JH TH 5H")
    # The excess is shown (the sources have it face up): every view sees it.
    assert (0, DISCARD + parse_card("9H")) in state.view(1).actions
    # So the seat model names it to every other seat and a watcher, and the leak tests'
    # oracle counts it as known to them (the web's leak test once read it as a leak).
    for viewer in (1, 2, 3, SPECTATOR):
        assert '"9H"' in json.dumps(snapshot_of(state, viewer))
        assert known(state, viewer) & cards("9H")
    # The non-trumps went face down without an action: named to their seat alone.
    assert '"2C"' in json.dumps(snapshot_of(state, 0))
    for viewer in (1, 2, 3, SPECTATOR):
        assert '"2C"' not in json.dumps(snapshot_of(state, viewer))
        assert not known(state, viewer) & cards("2C")


def test_a_short_pack_gives_back_the_seats_own_discards() -> None:
    # Every card dealt (13 each): the pack is empty, so a seat with fewer than six trumps
    # takes back its own discards, highest first.
    hands = [
        "AH KH QH JH TH 9H 8H 7H 6H 4H 3H 2H 5H",
        "2C 3C 4C 6C 7C 8C 9C TC JC QC KC AC 5C",
        "2S 3S 4S 6S 7S 8S 9S TS JS QS KS AS 5S",
        "2D 3D 4D 6D 7D 8D 9D TD JD QD KD AD 5D",
    ]
    state = load_game("cinch(hand_size=13,dealer_robs=false)").new_state(1)
    state.deal([cards(h) for h in hands], dealer=3, stock=[])
    act(state, "bid 10", "pass", "pass", "pass", "trump C")
    assert state.phase == DISCARDING and state.to_act == 1  # thirteen trumps: seven go
    while state.phase == DISCARDING:
        state.apply(state.legal_actions()[0])
    assert state.phase == PLAY
    assert state.hands[0] == cards("AH KH QH JH TH 9H")
    assert state.hands[2] == cards("5S AS KS QS JS TS")  # the left Pedro kept, then the top
    assert all(h.bit_count() == 6 for h in state.hands)


def test_discard_any_keeps_what_it_likes_and_draws_as_many() -> None:
    state = dealt("cinch(discard=any,dealer_robs=false)")
    act(state, "bid 10", "pass", "pass", "pass", "trump H")
    assert state.phase == DISCARDING and state.to_act == 0
    assert DRAW not in state.legal_actions()  # nine cards: at least three must go
    act(state, "discard 2C", "discard 3C", "discard 4C")
    assert DRAW in state.legal_actions()
    act(state, "draw")
    assert state.to_act == 1
    assert all(not DISCARD <= a < KEEP for _s, a in state.view(2).actions)  # face down
    assert (0, DISCARD + parse_card("2C")) in state.view(0).actions
    act(state, "discard 2S", "discard 3S", "discard 4S", "draw")
    while state.phase == DISCARDING:
        legal = state.legal_actions()
        state.apply(DRAW if DRAW in legal else legal[0])
    assert state.phase == PLAY
    assert state.hands[0] == cards("AH KH QH JH TH 5H")
    assert state.hands[1] == cards("5D 9H 6S 7S 8S 9S")
    assert all(h.bit_count() == 6 for h in state.hands)


def test_discard_down_draws_nothing() -> None:
    state = dealt("catch-five")
    act(state, "bid 5", "pass", "pass", "pass", "trump H")
    assert state.phase == DISCARDING and state.to_act == 0
    assert DRAW not in state.legal_actions()
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.hands[0].bit_count() == 6 and state.to_act == 1
    assert state.game.private_actions
    assert all(not DISCARD <= a < KEEP for _s, a in state.view(2).actions)  # face down


# ------------------------------------------------------------------------- points and score

TABLES = load_game("cinch").trumps  # type: ignore[attr-defined]


def test_each_point_goes_to_the_side_winning_its_card() -> None:
    t = TABLES[2]  # hearts
    won = [cards("AH JH 5H 2H"), cards("TH 5D 3H")]
    points = hand_points(
        ["high", "low", "jack", "game", "pedro", "left_pedro", "three", "nine"],
        2,
        won,
        won,
        t.mask,
        t.power,
    )
    assert points == {
        "high": 0,
        "low": 0,
        "jack": 0,
        "game": 1,
        "pedro": 0,
        "left_pedro": 1,
        "three": 1,
        "nine": None,
    }


def test_low_is_the_lowest_trump_in_play_and_may_go_to_its_holder() -> None:
    t = TABLES[2]
    won = [cards("AH 4H"), cards("3H")]
    held = [cards("3H"), cards("AH 4H")]
    assert hand_points(["low"], 2, won, held, t.mask, t.power)["low"] == 1
    assert hand_points(["low"], 2, won, held, t.mask, t.power, "held")["low"] == 0
    assert high_low(cards("5D 4H KH"), t.mask, t.power) == (parse_card("KH"), parse_card("4H"))


def test_the_joker_is_the_lowest_trump_but_never_high_or_low() -> None:
    t = load_game("dom-pedro").trumps[0]  # type: ignore[attr-defined]
    joker = parse_card("JK")
    assert t.mask >> joker & 1 and t.power[joker] < t.power[parse_card("2C")]
    assert high_low(cards("JK 7C"), t.mask, t.power) == (parse_card("7C"), parse_card("7C"))
    assert high_low(cards("JK AH"), t.mask, t.power) == (-1, -1)


def test_weights_count_and_a_failed_bid_is_set_back() -> None:
    weights = {"high": 1, "low": 1, "jack": 1, "game": 1, "pedro": 5, "left_pedro": 5}
    points = {"high": 0, "low": 1, "jack": 0, "game": 1, "pedro": 0, "left_pedro": 1}
    taken, delta, made = score_hand(points, weights, 0, 7, 2)
    assert taken == [7, 7] and delta == [7, 7] and made
    taken, delta, made = score_hand(points, weights, 0, 8, 2)
    assert delta == [-8, 7] and not made
    # Foster's difference: a made bid scores the difference, a failed one the others' and the bid.
    assert score_hand(points, weights, 0, 7, 2, "difference")[1] == [0, 0]
    assert score_hand(points, weights, 1, 6, 2, "difference")[1] == [0, 0]
    points["low"] = 0
    assert score_hand(points, weights, 0, 8, 2, "difference")[1] == [2, 0]
    assert score_hand(points, weights, 1, 8, 2, "difference")[1] == [8 + 8, 0]
    nine = {"pedro": 5, "nine": 9, "three": 3, "joker": 15}
    assert score_hand({"pedro": 2, "nine": 2, "three": 1, "joker": 0}, nine, 2, 14, 3)[0] == [
        15,
        3,
        14,
    ]


def test_a_whole_hand_scores_the_bidders_and_the_others() -> None:
    state = dealt()
    act(state, "bid 6", "pass", "pass", "pass", "trump H")
    for _ in range(6):
        state.apply(state.legal_actions()[-1])
    while state.phase == PLAY:
        state.apply(state.legal_actions()[0])
    result = state.results[-1]
    assert isinstance(result, CinchResult) and not result.thrown_in
    assert sum(result.taken) == sum(
        state.game.weights[n] for n, side in result.points.items() if side is not None
    )
    expected = [result.taken[0] if result.made else -6, result.taken[1]]
    assert list(result.scores) == expected and result.made == (result.taken[0] >= 6)
    assert set(result.to_dict()) == {"bidder", "bid", "trump", "points", "taken", "made", "scores"}


def test_the_bidders_go_out_first() -> None:
    from tricktable.games.pitch_scoring import match_winner

    assert match_winner([52, 55], 0, 51, "first") == 0
    assert match_winner([52, 55], 0, 51, "top") == 1


def test_bad_options_say_why() -> None:
    with pytest.raises(OptionError, match="count a joker"):
        CinchOptions(points="high,joker=15", min_bid=1, max_bid=5)
    with pytest.raises(OptionError, match="more than the 14 points"):
        CinchOptions(max_bid=15)
    with pytest.raises(OptionError, match="need 54 cards"):
        CinchOptions(players=6)
    with pytest.raises(OptionError, match="two sides"):
        CinchOptions(partners=False, scoring="difference")
    with pytest.raises(OptionError, match="play_size"):
        CinchOptions(discard="none")


# --------------------------------------------------------------------------- every version


def test_there_are_eight_sourced_versions() -> None:
    assert len(VERSIONS) >= 8
    for name in VERSIONS[1:]:
        assert PRESETS[name].summary and PRESETS[name].source
    assert load_game("six-hand-cinch").num_players == 6
    assert load_game("six-hand-cinch(partners=3x2)").num_scores == 3


@pytest.mark.parametrize("name", VERSIONS)
def test_every_version_plays_replays_and_resumes(name: str) -> None:
    game = load_game(name)
    players = ["heuristic" if s % 2 else "random" for s in range(game.num_players)]
    state = play_match(game, [make_bot(p) for p in players], 11, max_hands=60)
    assert state.history
    record = json.loads(json.dumps(to_record(state, players)))
    assert result_of(replay(record)) == result_of(state)
    # Cut in the middle of the second hand (after its discards, mid-play) and played on.
    hands = record["hands"]
    if len(hands) > 1:
        cut = json.loads(json.dumps(record))
        partial = dict(hands[1])
        partial["actions"] = partial["actions"][: len(partial["actions"]) // 2 + 3]
        partial.pop("notes", None)
        cut["hands"] = hands[:1]
        cut.pop("unfinished_hand", None)
        cut["unfinished_hand"] = partial
        again = replay(cut)
        bots = [make_bot(p) for p in players]
        start_bots(again.game, bots, 11)
        play_on(again, bots, max_hands=60)
        end_bots(again, bots)
        assert to_record(again, players) == to_record(state, players)


def test_rules_text_is_written_from_the_options() -> None:
    text = rules_text(load_game("dom-pedro").options, "dom-pedro")
    assert "53 cards" in text and "Snoozer" in text and "up to 36" in text
    cinch = rules_text(CinchOptions())
    assert "robs the pack" in cinch and "Left Pedro" in cinch and "up to 14" in cinch


def test_the_heuristic_beats_random_clearly() -> None:
    game = load_game("cinch")
    wins = played = 0
    for seed in range(200):
        bots = [make_bot("heuristic" if s % 2 == 0 else "random") for s in range(4)]
        state = play_match(game, bots, seed, max_hands=200)
        if state.winner is not None:
            played += 1
            wins += state.winner == 0
    assert played >= 190 and wins >= 0.8 * played


def test_a_view_explains_a_refusal_as_the_state_does() -> None:
    state = dealt()
    act(state, "bid 10")
    assert state.view(1).illegal(BID + 9).reason == state.illegal(BID + 9).reason
    act(state, "pass", "pass", "pass", "trump H")
    for _ in range(6):
        state.apply(state.legal_actions()[-1])  # the dealer's rob
    act(state, "play AH")
    bad = parse_card("TS")  # seat 1 holds 5D and 9H: trump was led
    reason = state.illegal(bad).reason
    assert reason == "must follow suit H"
    assert state.view(1).illegal(bad).reason == reason
    assert state.view(1).illegal(parse_card("2C")).reason == "does not hold 2C"


def _shapes() -> list[str]:
    from table_shapes import shapes

    return [spec for name in VERSIONS for spec in shapes(name)]


@pytest.mark.parametrize("spec", _shapes())
def test_every_hand_keeps_the_cinch_invariants(spec: str) -> None:
    """At every table a version allows: hands of play_size at the first lead, play_size tricks,
    the points taken are the weights of the points awarded, and the score follows the rule."""
    game = load_game(spec)
    opts = game.options
    weights = game.weights  # type: ignore[attr-defined]

    def check(state: Any, seat: int, action: int) -> None:
        if state.phase == PLAY and not state.trick and not state.tricks:
            assert {h.bit_count() for h in state.hands} == {opts.play_size}
        if state.to_act >= 0 or not state.results:
            return
        result = state.results[-1]
        assert isinstance(result, CinchResult)
        if result.thrown_in:
            return
        assert len(state.tricks) == opts.play_size
        awarded = sum(weights[n] for n, side in result.points.items() if side is not None)
        assert sum(result.taken) == awarded and list(result.points) == list(weights)
        assert result.made == (result.taken[game.team_of(result.bidder)] >= result.bid)

    for seed in range(2):
        bots = [make_bot(("random", "heuristic")[s % 2]) for s in range(game.num_players)]
        play_match(game, bots, seed, listener=check, max_hands=8)


def test_a_won_trick_tells_the_points_its_cards_carry() -> None:
    state = dealt()
    events = state.listen()
    act(state, "bid 10", "pass", "pass", "pass", "trump H")
    for text in ("2H", "3H", "4H", "6H", "7H", "8H"):
        act(state, f"keep {text}")
    act(state, "play 5H", "play 5D", "play KS", "play 2H")  # both Pedros fall
    won = [e for e in events.all if e.kind == "trick_won"]
    assert won and won[-1].to_dict()["points"] == 10
