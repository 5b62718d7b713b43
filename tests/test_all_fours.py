"""All Fours (Seven Up, Old Sledge, Trinidad): the turn-up and the kick, standing and begging,
the gift, running the cards (a new suit, the same suit again, a stock run dry), who sees the
cards a run deals, the play rule, each point (High, Low, Jack and hang jack, Game and its tie),
counting out, the turn going right; every preset through whole matches, records and resumes;
the search's samples; the heuristic against random play; the rules text."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from helpers import card_names
from tricktable.bots import make_bot
from tricktable.bots.all_fours_heuristic import AllFoursHeuristic, hand_count
from tricktable.bots.random_bot import RandomBot
from tricktable.cards import card_name, mask_of, parse_card, parse_cards
from tricktable.engine.events import HandChanged
from tricktable.engine.trick import AUCTION, DEAL, OVER, PLAY, TrickState
from tricktable.errors import IllegalAction, OptionError
from tricktable.games import PRESETS, load_game
from tricktable.games.all_fours import BEG, GIVE, GIVING, RUN, STAND, AllFoursState
from tricktable.games.all_fours_results import AllFoursResult
from tricktable.games.all_fours_text import rules_text
from tricktable.match import end_bots, play_match, play_on, start_bots
from tricktable.records import replay, result_of, to_record
from tricktable.search.determinize import Determinizer

SPECS = [
    "all-fours",
    *sorted(p for p in PRESETS if PRESETS[p].game == "all-fours"),
    "all-fours(players=6,partners=3x2)",
    "all-fours(players=5,partners=false,direction=right)",
    "all-fours(run_cards=once,gift=2,gift_wins=false)",
    "all-fours(count_out=false,low_to=captured,may_trump=false)",
]


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def dealt(spec: str, hands: list[str], top: str, dealer: int = 0, seed: int = 1) -> AllFoursState:
    """A state of ``spec`` dealt ``hands`` by ``dealer``; the stock is ``top`` (top card first:
    the turn-up, then what runs deal) and the rest of the deck, lowest first."""
    used = cards(top)
    for hand in hands:
        used |= cards(hand)
    stock = parse_cards(top) + [c for c in range(52) if not used >> c & 1]
    state = load_game(spec).new_state(seed)
    state.deal([cards(h) for h in hands], dealer=dealer, stock=stock)
    assert isinstance(state, AllFoursState)
    return state


def play(state: TrickState, *names: str) -> None:
    for name in names:
        state.apply(parse_card(name))


def result(state: TrickState) -> AllFoursResult:
    got = state.results[-1]
    assert isinstance(got, AllFoursResult)
    return got


# Two hands of six for Seven Up; seat 0 deals, seat 1 is the eldest hand.
DEALER = "AS KS 2H 3H 4H 5H"
ELDEST = "QS JS 6H 7H 8H 9H"


# ------------------------------------------------------------------- turn-up and begging


def test_the_turn_up_proposes_trump_and_the_eldest_stands() -> None:
    state = dealt("seven-up", [DEALER, ELDEST], "7S")
    assert state.phase == AUCTION and state.to_act == 1 and state.trump == -1
    assert state.legal_actions() == [STAND, BEG]
    assert state.view(0).info()["up_card"] == "7S"
    state.apply(STAND)
    assert state.phase == PLAY and state.trump == 3 and state.to_act == 1
    assert state.scores == [0, 0]


def test_begged_the_dealer_gives_a_point_and_the_suit_stays() -> None:
    state = dealt("seven-up", [DEALER, ELDEST], "7S")
    state.apply(BEG)
    assert state.phase == GIVING and state.to_act == 0
    assert state.legal_actions() == [GIVE, RUN]
    state.apply(GIVE)
    assert state.scores == [0, 1] and state.trump == 3 and state.to_act == 1


def test_running_the_cards_deals_three_more_and_turns_a_new_suit() -> None:
    # Each run deals three to each seat from the eldest; then the next card is turned.
    state = dealt("seven-up", [DEALER, ELDEST], "7S 2C 3C 4C 5C 6C 7C 8D")
    state.apply(BEG)
    state.apply(RUN)
    assert state.trump == 1 and state.runs == 1 and state.hand_size == 9
    assert state.hands[1] & cards("2C 3C 4C") == cards("2C 3C 4C")
    assert state.hands[0] & cards("5C 6C 7C") == cards("5C 6C 7C")
    assert state.dealt[0].bit_count() == state.dealt[1].bit_count() == 9
    assert state.stock[0] == parse_card("8D") and state.view(0).info()["up_card"] == "8D"
    # Nine tricks are played, and the hand is scored.
    while state.phase == PLAY:
        state.apply(state.legal_actions()[0])
    assert len(state.tricks) == 9 and result(state).runs == 1


def test_the_same_suit_turned_again_runs_the_cards_again() -> None:
    top = "7S 2C 3C 4C 5C 6C 7C 9S 8C 9C TC JC QC KC 8D"
    state = dealt("seven-up", [DEALER, ELDEST], top)
    state.apply(BEG)
    state.apply(RUN)
    assert state.runs == 2 and state.trump == 1 and state.hand_size == 12
    assert state.hands[1] & cards("8C 9C TC") and state.hands[0] & cards("JC QC KC")
    assert state.view(1).info()["up_card"] == "8D"


def test_run_once_keeps_the_refused_suit_when_it_turns_again() -> None:
    top = "7S 2C 3C 4C 5C 6C 7C 9S"
    state = dealt("all-fours(players=2,partners=false,run_cards=once)", [DEALER, ELDEST], top)
    state.apply(BEG)
    state.apply(RUN)
    assert state.runs == 1 and state.trump == 3 and state.phase == PLAY


def test_a_stock_run_dry_throws_the_deal_in_and_the_same_dealer_deals() -> None:
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "8C 9C TC JC QC KC", "8D 9D TD JD QD KD"]
    # Every spade turned: the stock (28 cards) runs twice and has too few for a third run.
    spades = parse_cards("2S 3S 4S")
    used = 0
    for hand in hands:
        used |= cards(hand)
    rest = [c for c in range(52) if not used >> c & 1 and c // 13 != 3]
    others = [c for c in range(39, 52) if c not in spades]
    stock = [spades[0], *rest[:12], spades[1], *rest[12:24], spades[2], *others, *rest[24:]]
    state = load_game("all-fours").new_state(2)
    state.deal([cards(h) for h in hands], dealer=3, stock=stock)
    state.apply(BEG)
    state.apply(RUN)
    got = result(state)
    assert got.thrown_in and got.trump is None and got.runs == 2
    assert state.phase == DEAL and state.scores == [0, 0]
    state.deal()
    assert state.dealer == 3


# ------------------------------------------------------------------------------ the kick


def test_a_turned_jack_kicks_a_point_to_the_dealer() -> None:
    state = dealt("seven-up", [DEALER, ELDEST], "JD")
    assert state.scores == [1, 0] and state.gained == [1, 0]
    state = dealt("seven-up", [DEALER, ELDEST], "JD", dealer=1)
    assert state.scores == [0, 1]


def test_only_a_card_that_names_trump_kicks() -> None:
    # 7S refused; JS (the same suit) names nothing; 8D names diamonds.
    top = "7S 2C 3C 4C 5C 6C 7C JS 8C 9C TC JC QC KC 8D"
    hands = [DEALER.replace("KS", "KD"), ELDEST.replace("JS", "AD")]
    state = dealt("seven-up", hands, top)
    state.apply(BEG)
    state.apply(RUN)
    assert state.runs == 2 and state.scores == [0, 0]
    # A jack of the new suit turned by a run kicks.
    state = dealt("seven-up", hands, "7S 2C 3C 4C 5C 6C 7C JD")
    state.apply(BEG)
    state.apply(RUN)
    assert state.trump == 1 and state.scores == [1, 0]


def test_trinidad_kicks_ace_six_and_jack() -> None:
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "8C 9C TC JC QC KC", "8D 9D TD JD QD KD"]
    for top, points in (("AS", 1), ("6S", 2), ("JS", 3), ("KS", 0)):
        state = dealt("trinidad-all-fours", hands, top, dealer=1)
        assert state.scores == [0, points], top


def test_a_kick_that_reaches_the_target_ends_the_match_before_the_play() -> None:
    state = load_game("seven-up").new_state(3)
    state.scores = [6, 0]
    used = cards(DEALER) | cards(ELDEST) | cards("JD")
    stock = [parse_card("JD")] + [c for c in range(52) if not used >> c & 1]
    events = state.listen()
    state.deal([cards(DEALER), cards(ELDEST)], dealer=0, stock=stock)
    assert state.is_over and state.winner == 0 and state.scores == [7, 0]
    assert not result(state).thrown_in and result(state).trump == 1
    assert [e.kind for e in events.all][-2:] == ["hand_scored", "match_over"]


def test_a_gift_that_reaches_the_target_wins_or_may_be_refused() -> None:
    state = dealt("seven-up", [DEALER, ELDEST], "7S")
    state.scores = [0, 6]
    state.apply(BEG)
    state.apply(GIVE)
    assert state.phase == OVER and state.winner == 1
    state = dealt("all-fours(players=2,partners=false,gift_wins=false)", [DEALER, ELDEST], "7S")
    state.scores = [0, 6]
    state.apply(BEG)
    assert state.legal_actions() == [RUN]
    with pytest.raises(IllegalAction, match="gift_wins=false"):
        state.apply(GIVE)


def test_in_three_hand_the_gift_goes_to_each_other_player() -> None:
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "8C 9C TC JC QC KC"]
    state = dealt("three-hand-all-fours", hands, "7S", dealer=2)
    assert state.to_act == 0  # the eldest hand, left of the dealer
    state.apply(BEG)
    assert state.to_act == 2
    state.apply(GIVE)
    assert state.scores == [1, 1, 0]


# ------------------------------------------------------------------------------ the play


def test_a_trump_is_always_allowed_and_following_otherwise_required() -> None:
    state = dealt("seven-up", [DEALER, ELDEST], "7S")
    state.apply(STAND)
    play(state, "6H")  # the eldest leads a heart
    assert state.legal_actions() == parse_cards("2H 3H 4H 5H KS AS")  # hearts or a trump
    strict = dealt("all-fours(players=2,partners=false,may_trump=false)", [DEALER, ELDEST], "7S")
    strict.apply(STAND)
    play(strict, "6H")
    assert strict.legal_actions() == parse_cards("2H 3H 4H 5H")
    with pytest.raises(IllegalAction, match="must follow suit H"):
        strict.apply(parse_card("AS"))


def test_trinidad_plays_counter_clockwise() -> None:
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "8C 9C TC JC QC KC", "8D 9D TD JD QD KD"]
    state = dealt("trinidad-all-fours", hands, "7S", dealer=1)
    assert state.to_act == 0  # the dealer's right
    state.apply(STAND)
    seats = []
    for _ in range(4):
        seats.append(state.to_act)
        state.apply(state.legal_actions()[0])
    assert seats == [0, 3, 2, 1]
    finish(state)
    state.deal()
    assert state.dealer == 0  # the deal passes to the right


# ------------------------------------------------------------------------------ the points


def finish(state: TrickState) -> AllFoursResult:
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])
    return result(state)


def test_high_and_low_go_to_the_players_dealt_them() -> None:
    # Spades trump: AS (High) with the dealer, 2S (Low) with the eldest hand.
    state = dealt("seven-up", ["AS 3H 4H 5H 6H 7H", "2S 8D 9D TD QD KD"], "7S")
    state.apply(STAND)
    got = finish(state)
    assert got.points["high"] == 0 and got.points["low"] == 1
    assert got.points["jack"] is None  # the jack of spades was not dealt


def test_low_to_its_captor_when_the_option_says() -> None:
    spec = "all-fours(players=2,partners=false,low_to=captured)"
    state = dealt(spec, ["AS 3H 4H 5H 6H 7H", "2S 8D 9D TD QD KD"], "7S")
    state.apply(STAND)
    play(state, "2S", "AS")  # the eldest leads its Low; the dealer takes it
    got = finish(state)
    assert got.points["low"] == 0


def test_jack_to_its_captor_and_hang_jack() -> None:
    hands = ["AS 2H 3H 4H 5H 6H", "JS 2D 3D 4D 5D 6D"]
    state = dealt("seven-up", hands, "7S", dealer=1)  # seat 0 is the eldest hand
    state.apply(STAND)
    play(state, "2H", "JS")  # the eldest leads; the dealer trumps with the jack and wins it
    got = finish(state)
    assert got.points["jack"] == 1 and not got.hanged
    # Captured by the other side: hanged, worth hang_jack.
    spec = "all-fours(players=2,partners=false,hang_jack=3)"
    state = dealt(spec, hands, "7S", dealer=1)
    state.apply(STAND)
    play(state, "AS", "JS")
    got = finish(state)
    assert got.points["jack"] == 0 and got.hanged
    assert got.gained[0] >= 3 + 1  # hang jack and High (the ace, dealt to seat 0)


def test_game_to_the_higher_count_and_a_tie_by_the_option() -> None:
    # No counting card dealt: a tie at 0.
    hands = ["2S 3H 4H 5H 6H 7H", "3S 8D 9D 2D 4D 5D"]
    for spec, side in (("seven-up", None), ("old-sledge", 1)):
        state = dealt(spec, hands, "7S")
        state.apply(STAND)
        got = finish(state)
        assert got.points["game"] == side, spec
    state = dealt("seven-up", ["2S 3H 4H 5H 6H TH", "3S 8D 9D 2D 4D 5D"], "7S")
    state.apply(STAND)
    got = finish(state)
    taker = next(s for s in range(2) if state.won[s] & cards("TH"))
    assert got.points["game"] == taker  # the ten is the only counting card


def test_points_count_out_in_order_high_low_jack_game() -> None:
    # The dealer at 6 takes High: the match ends there, before Low (the eldest's) counts.
    state = dealt("seven-up", ["AS 3H 4H 5H 6H 7H", "2S 8D 9D TD QD KD"], "7S")
    state.scores = [6, 6]
    state.apply(STAND)
    got = finish(state)
    assert state.winner == 0 and state.scores == [7, 6] and got.gained == (1, 0)
    # Counting every point, then the one top score at the target wins (a tie plays on).
    spec = "all-fours(players=2,partners=false,count_out=false)"
    state = dealt(spec, ["AS 3H 4H 5H 6H 7H", "2S 8D 9D TD QD KD"], "7S")
    state.scores = [6, 6]
    state.apply(STAND)
    finish(state)
    top = max(state.scores)
    assert top >= 7 and state.scores[1] >= 7  # Low, the eldest's, counted too
    assert state.winner == (state.scores.index(top) if state.scores.count(top) == 1 else None)


# ----------------------------------------------------------------- what each seat sees


def test_a_run_shows_each_seat_its_own_new_cards_alone() -> None:
    state = dealt("seven-up", [DEALER, ELDEST], "7S 2C 3C 4C 5C 6C 7C 8D")
    events = state.listen()
    state.apply(BEG)
    state.apply(RUN)
    changed = [e for e in events.all if isinstance(e, HandChanged)]
    assert {e.seat for e in changed} == {0, 1}
    for seat, other in ((0, "2C"), (1, "5C")):
        assert not card_names(json.dumps(state.view(seat).to_dict())) & cards(other)
        stream = json.dumps([e.to_dict() for e in events.stream(seat)])
        assert other not in stream
    assert state.view(1).hand & cards("2C 3C 4C") == cards("2C 3C 4C")


def test_a_sample_of_the_search_agrees_with_a_view_after_runs() -> None:
    top = "7S 2C 3C 4C 5C 6C 7C 9S 8C 9C TC JC QC KC 8D"
    state = dealt("seven-up", [DEALER, ELDEST], top)
    state.apply(BEG)
    state.apply(RUN)
    play(state, "8C")
    rng = random.Random(4)
    view = state.view(0)
    det = Determinizer(view)
    for _ in range(5):
        world = det.sample(rng)
        assert world.hands[0] == state.hands[0]
        assert world.hands[1].bit_count() == state.hands[1].bit_count()
        assert world.trump == 1 and world.to_act == 0 and world.scores == state.scores
    assert "must follow suit C or trump" in str(view.illegal(parse_card("2H")))


# ------------------------------------------------------------- whole matches, every preset


def test_every_all_fours_preset_is_listed() -> None:
    want = {
        "seven-up",
        "old-sledge",
        "all-fours-partnership",
        "three-hand-all-fours",
        "trinidad-all-fours",
        "all-fours-no-begging",
    }
    assert want <= set(SPECS)
    for name in want:
        assert len(PRESETS[name].source) > 20


@pytest.mark.parametrize("spec", SPECS)
def test_every_version_plays_whole_matches_that_replay(spec: str) -> None:
    game = load_game(spec)
    for seed in range(3):
        bots = [make_bot("random") for _ in range(game.num_players)]
        state = play_match(game, bots, seed, max_hands=300)
        assert state.is_over and state.winner is not None
        assert max(state.scores) >= game.options.target
        assert len(state.results) == len(state.history)
        assert all(isinstance(got, AllFoursResult) for got in state.results)
        record = json.loads(json.dumps(to_record(state, ["random"] * game.num_players)))
        again = replay(record)
        assert result_of(again) == result_of(state) and again.scores == state.scores


def _players(n: int) -> list[Any]:
    return [make_bot(("random", "heuristic")[s % 2]) for s in range(n)]


@pytest.mark.parametrize("spec", ["seven-up", "trinidad-all-fours", "three-hand-all-fours"])
def test_a_match_resumed_mid_hand_plays_on_exactly(spec: str) -> None:
    game = load_game(spec)
    n = game.num_players
    state = play_match(game, _players(n), 77, max_hands=6)
    whole = json.loads(json.dumps(to_record(state, ["p"] * n)))
    for h in range(len(whole["hands"])):
        size = len(whole["hands"][h]["actions"])
        for cut in (0, 1, size // 2):
            record = json.loads(json.dumps(whole))
            partial = dict(record["hands"][h])
            partial["actions"] = partial["actions"][:cut]
            partial.pop("notes", None)
            record["hands"] = record["hands"][:h]
            record["unfinished_hand"] = partial
            resumed = replay(record)
            players = _players(n)
            start_bots(game, players, 77)
            play_on(resumed, players, max_hands=6)
            end_bots(resumed, players)
            assert to_record(resumed, ["p"] * n) == to_record(state, ["p"] * n), (h, cut)


def test_a_match_the_kick_ends_replays_and_resumes() -> None:
    # Seed 138: the last hand is counted out by a kicked jack when dealt, before any action.
    game = load_game("seven-up")
    state = play_match(game, [make_bot("random"), make_bot("random")], 138)
    assert state.is_over and not state.history[-1].actions
    last = result(state)
    assert last.up_card % 13 == 9 and not last.thrown_in and sum(last.gained) == 1
    whole = json.loads(json.dumps(to_record(state, ["r", "r"])))
    assert result_of(replay(whole)) == result_of(state)
    record = json.loads(json.dumps(whole))
    record["hands"] = record["hands"][:-1]  # stopped before the last deal
    resumed = replay(record)
    players = [make_bot("random"), make_bot("random")]
    start_bots(game, players, 138)
    play_on(resumed, players)
    assert to_record(resumed, ["r", "r"]) == to_record(state, ["r", "r"])


# ---------------------------------------------------------------------------- the bot


def test_the_heuristic_counts_a_hand() -> None:
    assert hand_count(cards("AS JS 2S 4H 5D 6C"), 3) > 2 > hand_count(cards("9S 4H 5D 6C 7C 8C"), 3)


def test_the_heuristic_beats_random_players_clearly() -> None:
    for spec, matches, need in (("seven-up", 200, 125), ("all-fours", 200, 135)):
        game = load_game(spec)
        wins = 0
        for seed in range(matches):
            side = seed % 2  # each side in turn, so the deals favour neither
            bots = [
                AllFoursHeuristic() if game.team_of(s) == side else RandomBot()
                for s in range(game.num_players)
            ]
            wins += play_match(game, bots, 9000 + seed).winner == side
        assert wins >= need, (spec, wins)


# ---------------------------------------------------------------------- text and options


def test_actions_read_and_write() -> None:
    game = load_game("seven-up")
    for word, code in (("stand", STAND), ("beg", BEG), ("give", GIVE), ("run", RUN)):
        assert game.parse_action(word) == code and game.action_name(code) == word
    assert game.parse_action("Take one") == GIVE
    assert game.parse_action("play TD") == parse_card("TD")


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("all-fours(kick=X=1)", "bad kick"),
        ("all-fours(kick=J=x)", "whole number"),
        ("all-fours(players=5,partners=true)", "cannot sit as two sides"),
    ],
)
def test_bad_options_are_one_line_errors(spec: str, why: str) -> None:
    with pytest.raises(OptionError, match=why):
        load_game(spec)


def test_the_rules_text_follows_the_options() -> None:
    def text(name: str) -> str:
        return " ".join(rules_text(load_game(name).options, name).split())

    trinidad = text("trinidad-all-fours")
    assert "counter-clockwise" in trinidad and "hang jack" in trinidad
    assert "a six (2 points)" in trinidad and "reach 14" in trinidad
    plain = text("all-fours-no-begging")
    assert "There is no begging" in plain and "hang jack" not in plain
    tie = text("old-sledge")
    assert "nearest the eldest hand" in tie and "reach 10" in tie
    assert card_name(parse_card("TD")) == "TD"
