"""How each game is shown at the table (``tricktable.seat.games``): real matches, in-process.

The table shows a match from its events; where a test needs a result of a given shape, it
gives the display that result's event.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from rich.console import Console

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.cards import SPADES, parse_card, pretty_card
from tricktable.engine import actions as act
from tricktable.engine.events import HandScored, HandStarted
from tricktable.engine.results import HandResult
from tricktable.engine.trick import PLAY, TrickState, View
from tricktable.games import GAMES, load_game, register
from tricktable.games.euchre_results import EuchreResult
from tricktable.games.hearts_results import HeartsResult
from tricktable.games.spades_results import SpadesResult
from tricktable.games.tricks import Tricks
from tricktable.match import play_match
from tricktable.runner import MatchSpec, run_match
from tricktable.seat.games import Presenter, presenter_for
from tricktable.stats import stats_for
from tricktable.table import Table as MatchTable
from tricktable.table import run
from tricktable.ui.account import render_account
from tricktable.ui.human import HumanPlayer
from tricktable.ui.terminal import TableDisplay, seat_names

EVERY_GAME = sorted(GAMES)
RANDOM = ("random",) * 4


class Table:
    """A table printing to a string: ``display`` to use, ``text()`` to read."""

    def __init__(
        self,
        spec: str,
        humans: Sequence[int] = (),
        reveal: Sequence[int] = (),
        compact: bool = False,
    ) -> None:
        self.game = load_game(spec)
        self.out = io.StringIO()
        console = Console(file=self.out, width=200, soft_wrap=True)
        names = seat_names(list(humans), self.game.num_players)
        self.display = TableDisplay(console, self.game, names, reveal=reveal, compact=compact)
        self.display.humans = list(humans)

    def play(self, seed: int = 3, hands: int = 2, players: Sequence[str] = RANDOM) -> TrickState:
        """Play a match (or its first ``hands``) with this table as the listener (the random
        bots fill a table of any size)."""
        if players == RANDOM:
            players = ("random",) * self.game.num_players
        spec = MatchSpec(self.game.spec(), tuple(players), seed, max_hands=hands)
        outcome = run_match(spec, listener=self.display, on_start=self.display.follow_state)
        self.display.catch_up()
        self.display.show_match_end()
        assert outcome.state is not None
        return outcome.state

    def follow(self, state: TrickState) -> TrickState:
        """Show ``state``'s match from now on (:meth:`act` applies and shows an action)."""
        self.display.follow_state(state)
        return state

    def act(self, state: TrickState, action: int) -> None:
        """Apply ``action`` to a followed state and show what it did."""
        state.apply(action)
        self.display.catch_up()

    def text(self) -> str:
        """What the table printed so far (and forget it)."""
        value = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        return value


# ------------------------------------------------------------------------ every game


def test_every_game_has_its_own_presenter_and_statistics() -> None:
    for name in EVERY_GAME:
        game = load_game(name)
        shown = type(presenter_for(game))
        assert f"{shown.__module__}:{shown.__name__}" == game.presenter, name
        assert stats_for(game).family == name


#: what a full table shows of each game: the deal, the bidding, a hand's result
SHOWN = {
    "setback": ("trump is ", "Auction: ", "High "),
    "euchre": ("Up-card: ", "Making trump: ", " tricks: "),
    "hearts": ("Passing left · no trump", "Passing left: ", "Penalty points: South "),
    "filippa": ("Passing left · no trump · pool 36", "Passing left: ", "Penalties: South "),
    "spades": ("Spades are trump.", "Contracts: South & North ", "Bid/took: South "),
    "tricks": ("No trump · South leads", "  1. ", "Tricks: South "),
    "oh-hell": ("13 cards each · no trump card: no trump", "Bids: ", "Exact: "),
    # games new at this stop, shown by what any presenter of theirs shows (sharpen at will)
    "all-fours": ("Hand 1 · ", "Bidding: ", "Scores: South & North "),
    "california-jack": ("Trump: ", "  26. ", "Scores: South "),
    "cinch": ("Hand 1 · ", "Bidding: ", "Scores: South & North "),
}


def test_every_game_has_table_words() -> None:
    assert set(SHOWN) == set(EVERY_GAME)


@pytest.mark.parametrize("name", EVERY_GAME)
def test_every_game_at_a_full_table(name: str) -> None:
    table = Table(name, reveal=range(load_game(name).num_players))
    state = table.play(seed=3, hands=2)
    text = table.text()
    banners = re.findall(r"Hand (\d+) · \w+ deals?", text)
    assert banners == [str(i) for i in range(1, len(state.history) + 1)]
    for words in SHOWN[name]:
        assert words in text, words
    assert len(re.findall(r"^  \d+\. .* → \w+ takes? it", text, re.M)) >= len(state.results)
    assert text.count("Scores: ") == len(state.results)
    if state.is_over:
        assert "the match" in text or "share the win" in text


@pytest.mark.parametrize("name", EVERY_GAME)
def test_every_game_unattended_is_one_line_a_hand(name: str) -> None:
    table = Table(name, compact=True)
    state = table.play(seed=5, hands=3)
    lines = re.findall(r"^Hand +(\d+): (.*) scores ", table.text(), re.M)
    assert [n for n, _ in lines] == [str(i) for i in range(1, len(state.results) + 1)]
    assert all(body.strip() for _, body in lines)


# ------------------------------------------------------------------- private actions


@pytest.mark.parametrize(
    ("passing", "giver"), [("left", "East"), ("right", "West"), ("across", "North")]
)
def test_a_human_sees_only_its_own_pass_and_the_one_it_received(passing: str, giver: str) -> None:
    table = Table(f"hearts(passing={passing})", humans=[0])
    state = table.follow(table.game.new_state(3))
    state.deal()
    while state.phase != PLAY:
        table.act(state, state.legal_actions()[0])
    line = next(t for t in table.text().splitlines() if t.startswith(f"Passing {passing}: "))
    passed = state.view(0).info()["passed"]
    assert "You pass " + " ".join(pretty_card(parse_card(c)) for c in passed) in line
    # The giver passed to South: once the passing is over, South has seen those cards (the
    # giver need not have passed last); the others' passes are counted, not shown.
    assert re.search(rf"{giver} pass \S+ \S+ \S+", line) and f"{giver} pass 3 cards" not in line
    others = {"West", "North", "East"} - {giver}
    assert all(f"{name} pass 3 cards" in line for name in others), line


def test_the_account_shows_every_pass() -> None:
    state = play_match(load_game("hearts"), [make_bot("random") for _ in range(4)], 3, max_hands=1)
    out = io.StringIO()
    render_account(state, console=Console(file=out, width=200))
    line = next(t for t in out.getvalue().splitlines() if t.startswith("Passing left: "))
    assert "pass 3 cards" not in line
    assert len(re.findall(r"\w+ pass \S+ \S+ \S+", line)) == 4


def euchre_picked_up(seed: int, table: Table | None = None) -> TrickState:
    """A Euchre hand in which the dealer picked the up-card up and discarded (shown at
    ``table`` if given)."""
    state = load_game("euchre").new_state(seed)
    if table is not None:
        table.follow(state)

    def apply(action: int) -> None:
        if table is None:
            state.apply(action)
        else:
            table.act(state, action)

    state.deal()
    while state.to_act != state.dealer:
        apply(act.PASS)
    apply(256)  # the dealer: pick up
    apply(state.legal_actions()[0])  # and discard
    return state


def test_the_dealers_discard_is_private() -> None:
    dealer = load_game("euchre").new_state(4).dealer
    for humans, hidden in (([(dealer + 1) % 4], True), ([dealer], False)):
        table = Table("euchre", humans=humans)
        euchre_picked_up(4, table)
        text = table.text()
        assert ("discard a card" in text) is hidden, text  # others: that it happened
        assert re.search(r"picks? up \S+ \(dealer\): trump is ", text), text
        if not hidden:
            assert re.search(r"You discard (10|[2-9JQKA])[♣♦♥♠]", text), text


# ------------------------------------------------------------------- a human's turn


def situation(spec: str, state: TrickState, seat: int | None = None) -> str:
    """What a human at the seat to act is shown."""
    seat = state.to_act if seat is None else seat
    table = Table(spec, humans=[seat])
    table.display.show_situation(state.view(seat))
    return table.text()


def test_passing_shows_the_hand_numbered_not_every_choice() -> None:
    state = load_game("hearts").new_state(3)
    state.deal()
    assert len(state.legal_actions()) == 286
    text = situation("hearts", state)
    assert "Pass three cards left, to " in text
    assert re.search(r"Your hand: 1\) \S+  2\) .* 13\) \S+", text)
    assert "pass 3 cards: type them, like " in text
    assert len(text.splitlines()) < 8


def test_a_blind_nil_seat_has_not_seen_its_cards() -> None:
    state = load_game("spades").new_state(3)
    state.scores = [-150, 0]  # South & North behind: blind nil is open to them
    state.deal()
    while state.to_act % 2:
        state.apply(state.legal_actions()[0])
    text = situation("spades", state)
    assert "Blind nil?" in text
    assert "Your hand: not looked at yet" in text
    assert "1) look  2) bid blind-nil" in text


def test_euchre_turns_show_the_up_card_and_the_round() -> None:
    state = load_game("euchre").new_state(3)
    state.deal()
    text = situation("euchre", state)
    assert "Making trump, round 1" in text and "up-card " in text
    assert "1) pass  2) order-up  3) order-up alone" in text
    state = euchre_picked_up(4)
    text = situation("euchre", state)
    assert re.search(r"Trick 1 of 5 · trump [♣♦♥♠]", text)
    assert "made trump" in text


def test_oh_hell_turns_show_the_bids_so_far() -> None:
    state = load_game("oh-hell").new_state(3)
    state.deal()
    state.apply(act.bid(2))
    text = situation("oh-hell", state)
    assert "Bidding: exactly the tricks you will take" in text
    assert "bid 2" in text and "bids so far total 2" in text
    assert "(a number: the bid, like " in text


# --------------------------------------------------------------------------- results


def with_result(spec: str, result: HandResult) -> str:
    """What a full table, then an unattended one, print for a hand scored ``result``."""
    events = [HandStarted(0, 3), HandScored(0, result, result.scores)]
    table = Table(spec, reveal=range(4))
    table.display.show(events)
    compact = Table(spec, compact=True)
    compact.display.show(events)
    return table.text() + compact.text()


def test_hearts_moon() -> None:
    result = HeartsResult(
        pass_offset=1,
        penalties=(0, 26, 0, 0),
        moon=1,
        scores=(26, 0, 26, 26),
        queen_of_spades=1,
    )
    text = with_result("hearts", result)
    assert "Penalty points: South 0 · West 26 · North 0 · East 0" in text
    assert "West shoots the moon: everyone else scores 26!" in text
    assert "Scores: South 26 · West 0 · North 26 · East 26 (lowest wins)" in text
    assert "moon: West" in text


def test_spades_nils_and_bags() -> None:
    result = SpadesResult(
        bids=(4, 0, 3, 0),
        blind=(False, False, False, True),
        tricks=(5, 0, 4, 4),
        contracts=(7, 0),
        made=(True, None),
        points=(72, -96),
        bag_penalties=(0, 0),
        bags=(2, 4),
        scores=(72, -96),
    )
    assert result.to_dict()["nils"] == [
        {"seat": 1, "blind": False, "made": True},
        {"seat": 3, "blind": True, "made": False},
    ]
    text = with_result("spades", result)
    assert "Bid/took: South 4/5 · West nil/0 · North 3/4 · East blind nil/4" in text
    assert "South & North: bid 7, took 9: made; +72." in text
    assert "West & East: no contract; West's nil made; East's blind nil failed; -96." in text
    assert "Bags: South & North 2 · West & East 4" in text
    assert re.search(r"bid/took +4/5 +n/0 +3/4 +bn/4 +points +\+72 +-96 +bags 2 4", text)


def test_euchre_lone_march() -> None:
    result = EuchreResult(
        maker=2,
        trump=SPADES,
        alone=True,
        bidding_round=2,
        up_card=parse_card("9H"),
        euchred=False,
        tricks=(5, 0),
        points=(4, 0),
        scores=(4, 0),
    )
    text = with_result("euchre", result)
    assert "South & North (North made it alone) took 5 tricks: a march, +4." in text
    assert re.search(r"North +named +♠ alone: march", text)


def test_a_thrown_in_euchre_hand() -> None:
    table = Table("euchre(stick_the_dealer=false)", reveal=range(4))
    state = table.follow(table.game.new_state(3))
    state.deal()
    for _ in range(8):
        table.act(state, act.PASS)
    text = table.text()
    assert "Making trump: " in text and "the deal is thrown in; nobody scores" in text


def test_a_bad_card_in_tricks() -> None:
    table = Table("tricks", reveal=range(4))
    state = table.follow(load_game("tricks").new_state(1))
    state.deal()
    state.penalize_bad_card(state.to_act, None)
    table.display.catch_up()
    text = table.text()
    assert "South plays a bad card: -100; the hand is thrown in and dealt again." in text
    assert "Scores: South -100 · West 0" in text


@pytest.mark.parametrize(
    ("spec", "seed", "why"),
    [
        # Seed 1: West & East win 5 to 11, declaring; South & North's 11 came defending.
        ("setback(target=5)", 1, "Only the declaring team can win, by reaching 5"),
        # Seed 8: both sides reach 5 in one hand; the declarers, with 5 to 6, go out.
        ("setback(target=5,win=first)", 8, "the declarers win: the bidder goes out first"),
    ],
)
def test_a_win_with_fewer_points_says_the_rule_that_gave_it(spec: str, seed: int, why: str) -> None:
    table = Table(spec)
    state = table.play(seed=seed, hands=200, players=("heuristic",) * 4)
    assert state.is_over and state.winner is not None
    won, lost = state.scores[state.winner], state.scores[1 - state.winner]
    assert won <= lost  # the surprising case this explains
    line = next(x for x in table.text().splitlines() if "the match" in x)
    winners = table.display.side_name(state.winner)
    assert line.startswith(f"{winners} win the match, {won} to {lost}, after ")
    assert why in line


def test_a_win_with_the_top_score_needs_no_reason() -> None:
    table = Table("setback(target=5)")
    state = table.play(seed=2, hands=200, players=("heuristic",) * 4)
    assert state.is_over and state.winner is not None
    assert state.scores[state.winner] > state.scores[1 - state.winner]
    line = next(x for x in table.text().splitlines() if "the match" in x)
    assert line.endswith(" hands.") and "declaring" not in line


def test_following_a_match_mid_hand_shows_that_hand_so_far() -> None:
    """What a resumed match shows (``play --resume``, the TUI's log): the hand in play from
    its deal, its bidding and its tricks; the hands before it not again."""
    game = load_game("setback")
    state = game.new_state(8)
    state.listen()
    played = Table("setback")
    played.follow(state)
    while len(state.history) < 2 or state.needs_deal or len(state.tricks) < 2:  # hand 2
        if state.needs_deal:
            state.deal()
        played.act(state, state.legal_actions()[0])
    resumed = Table("setback")
    resumed.follow(state)  # the same state, followed from now on
    text, live = resumed.text(), played.text()
    banner = live.rindex("\n", 0, live.index("Hand 2 · "))  # the start of hand 2's rule
    assert text.strip() == live[banner:].strip()
    assert "Hand 2 · " in text and "Hand 1 · " not in text
    assert "Auction: " in text and "  1. " in text and "  2. " in text


def test_hearts_is_won_low() -> None:
    table = Table("hearts(target=40)", compact=True)
    state = table.play(seed=2, hands=50)
    assert state.is_over and state.winner is not None
    winner = table.display.names[state.winner]
    assert state.scores[state.winner] == min(state.scores)
    assert f"{winner} wins the match with the lowest score, " in table.text()


def test_oh_hell_may_end_in_a_shared_win() -> None:
    table = Table("oh-hell(max_cards=2)", reveal=range(4))
    state = table.follow(load_game("oh-hell(max_cards=2)").new_state(12))
    while not state.is_over:
        state.deal()
        while state.to_act >= 0:
            table.act(state, state.legal_actions()[-1])
    assert table.display.show_match_end()
    assert "West and North share the win, South 0 · West 12 · North 12 · East 11" in table.text()


# ------------------------------------------------------------------ the generic game


class PlainTricks(Tricks):
    """Tricks under another name: a game with no presenter or statistics of its own."""

    name = "plain-tricks"
    title = "Plain tricks"
    presenter = ""  # not Tricks' own: the generic one
    statistics = ""


@pytest.fixture
def plain_game() -> Iterator[str]:
    """The spec of a registered game that only the generic presenter knows."""
    register(PlainTricks)
    try:
        yield "plain-tricks(target=30)"
    finally:
        GAMES.pop(PlainTricks.name, None)


def test_a_new_game_is_shown_without_code(plain_game: str) -> None:
    assert type(presenter_for(load_game(plain_game))) is Presenter
    table = Table(plain_game, reveal=range(4))
    state = table.play(seed=4, hands=2)
    text = table.text()
    assert len(re.findall(r"Hand \d+ · ", text)) == 2
    assert "Tricks: South " in text and "Leader: South" in text and "Thrown in: no" in text
    assert "Scores: South " in text
    compact = Table(plain_game, compact=True)
    compact.play(seed=4, hands=2)
    assert re.search(
        r"^Hand +1: leader South +tricks \d+ \d+ \d+ \d+ .* scores ", compact.text(), re.M
    )
    state = load_game(plain_game).new_state(4)
    state.deal()
    state.apply(state.legal_actions()[0])
    text = situation(plain_game, state)
    assert "Trick 1 of 13 · no trump" in text and "leader East · target 30" in text


# Frozen as HandResult is (a dataclass must match its base's frozenness).
@dataclass(slots=True, kw_only=True, frozen=HandResult.__dataclass_params__.frozen)  # type: ignore[attr-defined]
class OddResult(HandResult):
    """A result of another class than the game's own."""

    odd: int

    def to_dict(self) -> dict[str, Any]:
        return {"odd": self.odd, "scores": list(self.scores)}


def test_a_result_of_an_unexpected_shape_is_shown_generically() -> None:
    text = with_result("spades", OddResult(odd=3, scores=(0, 0)))
    assert "Odd: 3" in text and "Scores: South & North 0" in text


class Crasher(Bot):
    """A bot that fails at its first decision."""

    name = "crasher"

    def act(self, view: View) -> int:
        raise RuntimeError("boom")


def test_a_human_is_told_when_a_bot_fails() -> None:
    table = Table("euchre", humans=[0])
    answers = iter(["1"] * 50)
    human = HumanPlayer(table.display, read=lambda prompt: next(answers), echo=False)
    players = [human, make_bot("random"), Crasher(), make_bot("random")]  # North acts first
    match = MatchTable(table.game, players, 3)
    asyncio.run(run(match, max_hands=1))
    match.close()
    text = table.text()
    # What went wrong is North's to know (a bot's error may name its cards): the kind is told.
    assert "North's bot failed (crash): the heuristic bot plays for North from now on" in text
    assert "RuntimeError" not in text
    assert text.count("Scores: ") == 1


# ------------------------------------------------------------------ any table size


def test_seats_are_named_where_they_sit_at_every_size() -> None:
    assert seat_names([0], 2) == ["You", "North"]
    assert seat_names([], 3) == ["South", "West", "East"]
    assert seat_names([0], 4) == ["You", "West", "North", "East"]
    assert seat_names([], 5) == ["South", "West", "Northwest", "Northeast", "East"]
    assert seat_names([0], 6) == ["You", "West", "Northwest", "North", "Northeast", "East"]
    seven = ["South", "Southwest", "West", "Northwest", "Northeast", "East", "Southeast"]
    assert seat_names([], 7) == seven
    # the person at another seat: the others named from where the person sits
    assert seat_names([2], 6) == ["Northeast", "East", "You", "West", "Northwest", "North"]
    assert seat_names([1, 2], 6)[0] == "South"  # several people: from seat 0
    assert seat_names([], 8)[7] == "Seat 7"


@pytest.mark.parametrize(
    ("spec", "sides"),
    [
        (
            "setback(players=6,partners=3x2)",
            ["You & North", "West & Northeast", "Northwest & East"],
        ),
        ("setback(players=6,partners=2x3)", ["You & Northwest & Northeast", "West & North & East"]),
        ("setback(players=6)", ["You & Northwest & Northeast", "West & North & East"]),
        ("setback(players=5,partners=false)", ["You", "West", "Northwest", "Northeast", "East"]),
    ],
)
def test_a_side_is_named_by_all_its_seats(spec: str, sides: list[str]) -> None:
    display = Table(spec, humans=[0]).display
    assert [display.side_name(t) for t in range(display.game.num_scores)] == sides
    assert display.partners == (len(sides) < 5)


def test_a_six_player_partnership_match_at_the_terminal() -> None:
    """A person at a table of six in three sides of two, answering at the keyboard: the
    seats by name, the sides, every trick of six cards, the points and scores by side."""
    table = Table("setback(players=6,partners=3x2)", humans=[0])
    answers = iter(["#1"] * 200)
    human = HumanPlayer(table.display, read=lambda prompt: next(answers), echo=False)
    players = [human, *(make_bot("heuristic") for _ in range(5))]
    table.display.show_seats(["you", *["heuristic"] * 5])
    match = MatchTable(table.game, players, 3)
    asyncio.run(run(match, max_hands=2))
    match.close()
    text = table.text()
    names = ["You", "West", "Northwest", "North", "Northeast", "East"]
    assert "Seats: You: you · West: heuristic · Northwest: heuristic · North: heuristic" in text
    assert "Teams: You & North vs West & Northeast vs Northwest & East" in text
    assert "Your hand: " in text and "Choices: " in text
    tricks = re.findall(r"^  \d\. (.*)  → (\w+) takes? it", text, re.M)
    assert len(tricks) == 12  # two hands of six tricks
    step = table.game.step
    for plays, _winner in tricks:
        seats = [names.index(p.split()[0]) for p in plays.split(" · ")]
        assert len(seats) == 6
        assert all((b - a) % 6 == step for a, b in itertools.pairwise(seats))
    scores = re.findall(
        r"^Scores: You & North -?\d+ · West & Northeast -?\d+ · Northwest & East -?\d+$",
        text,
        re.M,
    )
    assert len(scores) == 2
    assert re.search(r"took \d+: (made|set), [+-]\d+\. \w+ & \w+ took \d+", text)


def test_the_turn_to_the_right_at_six() -> None:
    """``direction=right``: each trick goes round the other way (seat - 1)."""
    table = Table("setback(players=6,partners=3x2,direction=right)", reveal=range(6))
    table.play(seed=4, hands=1, players=("heuristic",) * 6)
    text = table.text()
    names = seat_names([], 6)
    tricks = re.findall(r"^  \d\. (.*)  → ", text, re.M)
    assert len(tricks) == 6
    for plays in tricks:
        seats = [names.index(p.split()[0]) for p in plays.split(" · ")]
        assert all((b - a) % 6 == 5 for a, b in itertools.pairwise(seats))
