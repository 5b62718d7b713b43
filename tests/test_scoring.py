"""Tables of cases for Setback's pure scoring functions: Game count, the six points, the score.

``hand_points`` does not care whether a deal could be played so; the cases are chosen to
isolate one rule each (RULES.md "Points of a hand" and "Scoring a hand").
"""

from __future__ import annotations

import pytest

from tricktable.cards import SUITS, mask_of, parse_cards
from tricktable.games.pitch_scoring import score_contract, took_every_point
from tricktable.games.setback import game_count, hand_points, score_hand

#: the six points of RULES.md, in the order results list them
POINT_NAMES = ("high", "low", "jack", "off_jack", "joker", "game")


def mask(text: str) -> int:
    """The mask of cards written as text."""
    return mask_of(parse_cards(text))


@pytest.mark.parametrize(
    ("cards", "count"),
    [
        ("", 0),
        ("JH", 1),
        ("QH", 2),
        ("KH", 3),
        ("AH", 4),
        ("TH", 10),
        ("JK", 0),
        ("2C 3D 4H 5S 6C 7D 8H 9S", 0),
        ("JC JD JH JS", 4),
        ("QC QD QH QS", 8),
        ("KC KD KH KS", 12),
        ("AC AD AH AS", 16),
        ("TC TD TH TS", 40),
        ("TS JS QS KS AS JK", 20),
        ("TD AC 2H JK", 14),
    ],
)
def test_game_count_values(cards: str, count: int) -> None:
    assert game_count(mask(cards)) == count


def points(
    trump: str,
    dealt: tuple[str, str, str, str],
    won: tuple[str, str, str, str],
    low_to: str = "captured",
) -> dict[str, int | None]:
    """hand_points on card text."""
    return hand_points(SUITS.index(trump), [mask(t) for t in dealt], [mask(t) for t in won], low_to)


# Each case: trump, dealt per seat, won per seat, expected (high, low, jack, off_jack, joker, game)
POINT_CASES = [
    pytest.param(
        "S",
        ("AS 2S", "JS TH", "JC JK", "3H 4H"),
        ("AS 2S JS TH", "", "JC JK 3H 4H", ""),
        (0, 0, 0, 0, 0, 0),
        id="team 0 takes everything",
    ),
    pytest.param(
        "S",
        ("AS 2S", "JS TH", "JC JK", "3H 4H"),
        ("", "AS 2S JS TH", "", "JC JK 3H 4H"),
        (1, 1, 1, 1, 1, 1),
        id="team 1 takes everything",
    ),
    pytest.param(
        "H",
        ("9H 2C", "3C 4C", "5C 6C", "7C 8C"),
        ("9H 2C 3C 4C", "5C 6C 7C 8C", "", ""),
        (0, 0, None, None, None, None),
        id="one trump dealt is High and Low; absent cards and a 0-0 Game give null",
    ),
    pytest.param(
        "H",
        ("2S 2H", "JK 3S", "4S 5S", "6S 7S"),
        ("2S 5S 6S 7S", "2H JK 3S 4S", "", ""),
        (1, 1, None, None, 1, None),
        id="the joker is never High or Low",
    ),
    pytest.param(
        "S",
        ("2S 3C", "JK 4C", "5C 6C", "7C 8C"),
        ("JK 4C 5C 6C", "2S 3C 7C 8C", "", ""),
        (1, 1, None, None, 0, None),
        id="the joker apart from High and Low",
    ),
    pytest.param(
        "D",
        ("KD 2D", "QD 9C", "5C 6C", "7C 8C"),
        ("KD 9C 5C 6C", "", "", "QD 2D 7C 8C"),
        (0, 1, None, None, None, 0),
        id="High and Low to different teams",
    ),
    pytest.param(
        "D",
        ("TC 2D", "TH 3D", "5C 6C", "7C 8C"),
        ("TC 2D 5C 6C", "TH 3D 7C 8C", "", ""),
        (1, 0, None, None, None, None),
        id="a Game tie of 10 to 10 awards nobody",
    ),
    pytest.param(
        "D",
        ("TC 2D", "AH KH", "QH 9H", "7C 8C"),
        ("TC 2D 7C 8C", "AH KH QH 9H", "", ""),
        (0, 0, None, None, None, 0),
        id="Game 10 beats 4+3+2",
    ),
    pytest.param(
        "D",
        ("TC 2D", "AH KH", "QH JH", "AC 8C"),
        ("TC 2D 8C", "AH KH QH JH AC", "", ""),
        (0, 0, None, 1, None, 1),
        id="Game 14 beats 10 (and JH is the off-jack of diamonds)",
    ),
    pytest.param(
        "C",
        ("JC 2C", "JS 3H", "5H 6H", "7H 8H"),
        ("JC 2C 5H 6H", "JS 3H 7H 8H", "", ""),
        (0, 0, 0, 1, None, None),
        id="jack and off-jack of clubs: the off-jack is the jack of spades",
    ),
    pytest.param(
        "H",
        ("JH 2H", "JD 3C", "5C 6C", "7C 8C"),
        ("JD 3C 5C 6C", "JH 2H 7C 8C", "", ""),
        (1, 1, 1, 0, None, None),
        id="the off-jack of hearts is the jack of diamonds",
    ),
    pytest.param(
        "S",
        ("AS 2S", "JH 3H", "5H 6H", "7H 8H"),
        ("AS 2S 5H 6H", "JH 3H 7H 8H", "", ""),
        (0, 0, None, None, None, 0),
        id="jack of another suit is no point",
    ),
]


@pytest.mark.parametrize(("trump", "dealt", "won", "expected"), POINT_CASES)
def test_hand_points(
    trump: str,
    dealt: tuple[str, str, str, str],
    won: tuple[str, str, str, str],
    expected: tuple[int | None, ...],
) -> None:
    result = points(trump, dealt, won)
    assert tuple(result[name] for name in POINT_NAMES) == expected
    assert list(result) == list(POINT_NAMES)


@pytest.mark.parametrize(
    ("dealt", "won", "captured", "by_dealt"),
    [
        # 2S dealt to team 0 (seat 0), captured by team 1 (seat 3)
        (("2S 3C", "AS 4C", "5C 6C", "7C 8C"), ("", "", "", "2S 3C AS 4C 5C 6C 7C 8C"), 1, 0),
        # 2S dealt to team 1 (seat 1), captured by team 0 (seat 2)
        (("AS 3C", "2S 4C", "5C 6C", "7C 8C"), ("", "", "2S 3C AS 4C 5C 6C 7C 8C", ""), 0, 1),
        # dealt and captured by the same team
        (("2S 3C", "AS 4C", "5C 6C", "7C 8C"), ("2S 3C AS 4C 5C 6C 7C 8C", "", "", ""), 0, 0),
    ],
)
def test_low_to_captured_or_dealt(
    dealt: tuple[str, str, str, str], won: tuple[str, str, str, str], captured: int, by_dealt: int
) -> None:
    assert points("S", dealt, won)["low"] == captured
    assert points("S", dealt, won, "captured")["low"] == captured
    assert points("S", dealt, won, "dealt")["low"] == by_dealt
    # High always goes to the capturing team
    assert points("S", dealt, won, "dealt")["high"] == points("S", dealt, won)["high"]


def full(
    high: int | None = None,
    low: int | None = None,
    jack: int | None = None,
    off_jack: int | None = None,
    joker: int | None = None,
    game: int | None = None,
) -> dict[str, int | None]:
    """A points dict."""
    return {
        "high": high,
        "low": low,
        "jack": jack,
        "off_jack": off_jack,
        "joker": joker,
        "game": game,
    }


@pytest.mark.parametrize(
    ("pts", "team", "bid", "mode", "taken", "delta"),
    [
        (full(0, 0, 1, None, None, 0), 0, 2, "bid", [3, 1], [2, 1]),  # made: scores the bid
        (full(0, 0, 1, None, None, 0), 0, 2, "taken", [3, 1], [3, 1]),  # made: scores taken
        (full(0, 0, 1, None, None, 0), 0, 3, "bid", [3, 1], [3, 1]),  # exactly the bid
        (full(0, 0, 1, None, None, 0), 0, 4, "bid", [3, 1], [-4, 1]),  # set
        (full(0, 0, 1, None, None, 0), 0, 4, "taken", [3, 1], [-4, 1]),  # set either way
        (full(0, 1, 1, 1, 1, 1), 1, 5, "bid", [1, 5], [1, 5]),
        (full(0, 1, 1, 1, 1, 1), 1, 6, "bid", [1, 5], [1, -6]),
        (full(1, 1, 1, 1, 1, 1), 1, 6, "bid", [0, 6], [0, 6]),
        (full(1, 1, 1, 1, 1, 1), 0, 2, "bid", [0, 6], [-2, 6]),  # defenders score what they took
        (full(0, 0), 1, 2, "bid", [2, 0], [2, -2]),
        (full(0, 0), 1, 2, "taken", [2, 0], [2, -2]),
        (full(1, 1), 1, 2, "taken", [0, 2], [0, 2]),
    ],
)
def test_score_hand(
    pts: dict[str, int | None],
    team: int,
    bid: int,
    mode: str,
    taken: list[int],
    delta: list[int],
) -> None:
    assert score_hand(pts, team, bid, mode) == (taken, delta)


def test_score_hand_default_is_bid() -> None:
    assert score_hand(full(0, 0, 0, 0, 0, 0), 0, 2) == ([6, 0], [2, 0])


def test_between_three_and_six_points_in_a_played_hand() -> None:
    # High, Low and Game are always... except Game on a tie; with Game tied only High and Low
    # remain, which is why RULES.md says "between 3 and 6" for the usual case.
    result = points("H", ("9H 2C", "3C 4C", "5C 6C", "7C 8C"), ("9H 2C 3C 4C", "", "", ""))
    assert sum(v is not None for v in result.values()) == 2  # High and Low only


# ------------------------------------------------------------ bids of every point: moon, smudge


@pytest.mark.parametrize(
    ("pts", "side", "swept"),
    [
        (full(0, 0, 0, 0, 0, 0), 0, True),
        (full(0, 0, None, None, None, 0), 0, True),  # points nobody earned do not spoil it
        (full(0, 0, 0, None, None, None), 0, True),  # Game tied
        (full(0, 1, 0, 0, 0, 0), 0, False),
        (full(None, None, None, None, None, None), 0, False),  # nothing awarded: no sweep
        (full(2, 2, 2), 2, True),
    ],
)
def test_took_every_point(pts: dict[str, int | None], side: int, swept: bool) -> None:
    assert took_every_point(pts, side) is swept


@pytest.mark.parametrize(
    ("pts", "value", "delta", "outright"),
    [
        (full(0, 0, 0, 0, 0, 0), 0, [6, 0], True),  # made: wins the match, scores what it took
        (full(0, 0, 0, None, None, 0), 0, [4, 0], True),
        (full(0, 1, 0, 0, 0, 0), 0, [-6, 1], False),  # failed: loses the hand's points
        (full(0, 0, 0, 0, 0, 0), 10, [10, 0], False),  # a moon worth 10
        (full(0, 0, 1, 0, 0, 0), 10, [-10, 1], False),
    ],
)
def test_score_contract_moon(
    pts: dict[str, int | None], value: int, delta: list[int], outright: bool
) -> None:
    _taken, change, won = score_contract(pts, 0, 7, moon=True, moon_value=value, total=6)
    assert (change, won) == (delta, outright)


@pytest.mark.parametrize(
    ("pts", "bid", "smudge", "in_hole", "outright"),
    [
        (full(0, 0, 0, 0, 0, 0), 6, True, False, True),
        (full(0, 0, 0, 0, 0, 0), 6, True, True, False),  # in the hole: an ordinary bid
        (full(0, 0, 0, 0, 0, 0), 6, False, False, False),  # not a smudge game
        (full(0, 0, 0, None, None, 0), 6, True, False, False),  # all taken, but short of 6
        (full(0, 0, 0, 0, 0, 1), 6, True, False, False),
    ],
)
def test_score_contract_smudge(
    pts: dict[str, int | None], bid: int, smudge: bool, in_hole: bool, outright: bool
) -> None:
    taken, change, won = score_contract(pts, 0, bid, smudge=smudge, in_hole=in_hole)
    assert won is outright
    assert (taken, change) == score_hand(pts, 0, bid)  # the score is the bid's, as ever
