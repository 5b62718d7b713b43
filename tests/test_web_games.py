"""A hand of each kind of game in the browser, by a person who acts only by roles and names.

A real ``tricktable serve`` (``--pace 0``, beginner bots) and Debian's Chromium, one each for
the module. The person (``tests/web_play.py``) finds each decision's buttons by their
accessible names — "seven of hearts", "bid 3", "Pass these three" — never by a CSS class or
an engine's code: it reads the names off the accessibility tree, and the server's snapshots
only say when it is its turn, how many cards and calls to expect, and which cards a choice of
several may take. One hand of each
mechanic: Hearts' pass of three, a kitty's discard of four, Cinch's bid, trump, discard and
draw and the dealer's rob, Seven Up's stand or beg, California Jack's stock, Spades' nil,
Euchre's order up and the dealer's discard, Oh Hell's bid, tables of two, three and six
seats; and a hand of Hearts by the keyboard alone.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from web_play import Played, Player, bold, served

#: seconds one hand may take (a hand of 13 tricks takes about 8 on two cores)
HAND = 60.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("web-games") / "tables.db") as base:
        yield base


@pytest.fixture
def person(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Player]:
    who = Player(browser, server, name="Pat", seed=len(request.node.name))
    yield who
    problems = who.problems
    who.close()
    assert problems == [], problems


def hand(
    person: Player, game: str, seats: int, options: dict[str, Any] | None = None, **kw: Any
) -> Played:
    """One hand of ``game`` at a new table, the person in seat 0."""
    person.open(person.create(game, seats, options=options))
    return person.play_hand(time.monotonic() + HAND, **kw)


def test_hearts_the_pass_of_three(person: Player) -> None:
    played = hand(person, "hearts", 4)
    assert played.names("cards") == ["Pass these three"]
    assert played.count("card") == 13


def test_pitch_with_kitty_the_bidder_discards_four(person: Player) -> None:
    # The eldest (left of the dealer) bids first: bidding the most, it takes the kitty.
    person.seated_where("pitch-with-kitty", 4, dealer=lambda d: d == 3)
    played = person.play_hand(time.monotonic() + HAND, choose=bold)
    assert played.names("call")[0].startswith("bid")
    assert "Discard these four" in played.names("cards")


def test_cinch_bid_name_trump_and_the_dealers_rob(person: Player) -> None:
    # The dealer bids last and robs the pack: "Keep these six".
    person.seated_where("cinch", 4, dealer=lambda d: d == 0)
    played = person.play_hand(time.monotonic() + HAND, choose=bold)
    calls, choices = played.names("call"), played.names("cards")
    assert calls and calls[0].startswith(("bid", "pass")), played.decisions
    assert any(c.startswith("Keep these") for c in choices), played.decisions


def test_cinch_a_discard_of_ones_choice_then_the_draw(person: Player) -> None:
    # Five seats, six dealt: discard any of them (none too), draw as many.
    played = hand(person, "five-hand-cinch", 5, choose=bold)
    choices = played.names("cards")
    assert any(c.startswith("Discard") and c.endswith("draw") for c in choices), choices


def test_cinch_for_two_the_bidder_discards_three_or_more_then_draws(person: Player) -> None:
    options = {"players": 2, "partners": False, "discard": "any"}
    person.seated_where("cinch", 2, dealer=lambda d: d == 1, options=options)
    played = person.play_hand(time.monotonic() + HAND, choose=bold)
    choices = played.names("cards")
    assert any(c.startswith("Discard") and c.endswith("draw") for c in choices), choices


def test_seven_up_stand_or_beg(person: Player) -> None:
    person.seated_where("seven-up", 2, dealer=lambda d: d == 1)
    played = person.play_hand(time.monotonic() + HAND)
    assert played.names("call")[0] in ("stand", "beg"), played.decisions


def test_california_jack_the_stock_refills_the_hands(person: Player) -> None:
    played = hand(person, "california-jack", 2)
    # Six dealt: every card past the sixth came from the stock.
    assert played.count("card") > 6, played.decisions


def nil(names: list[str], rng: Any) -> str:
    """Bid nil when it may (not blind)."""
    nils = [n for n in names if re.search(r"\bnil\b", n) and "blind" not in n]
    if nils:
        return nils[0]
    plain = [n for n in names if "blind" not in n]
    return rng.choice(plain or names)


def test_spades_a_bid_of_nil(person: Player) -> None:
    played = hand(person, "spades", 4, choose=nil)
    assert any("nil" in c for c in played.names("call")), played.decisions


def test_euchre_order_up_and_the_dealers_discard(person: Player) -> None:
    # The dealer: whoever orders the card up, the dealer takes it and discards one.
    person.seated_where("euchre", 4, dealer=lambda d: d == 0)
    played = person.play_hand(time.monotonic() + HAND, choose=bold)
    assert "Discard this card" in played.names("cards"), played.decisions


def test_oh_hell_a_bid_then_the_tricks(person: Player) -> None:
    played = hand(person, "oh-hell", 4)
    assert played.names("call")[0].startswith("bid"), played.decisions
    assert played.count("card") >= 1


@pytest.mark.parametrize(
    ("game", "seats"), [("two-hand-pitch", 2), ("three-hand-pitch", 3), ("six-hand-cinch", 6)]
)
def test_a_table_of_two_three_and_six(person: Player, game: str, seats: int) -> None:
    played = hand(person, game, seats)
    assert played.count("card") >= 1, played.decisions
    assert person.page.get_by_role("region", name=f"The table, {seats} seats").count() == 1


def test_a_hand_of_hearts_by_the_keyboard_alone(person: Player) -> None:
    played = hand(person, "hearts", 4, keyboard=True)
    assert played.names("cards") == ["Pass these three"]
    assert played.count("card") == 13


def test_what_arrives_before_the_page_listens_is_drawn(person: Player) -> None:
    """The page draws when its store changes, and listens from an effect that runs after the
    first frame. On a loaded machine the snapshot once came before that effect ran, and the
    page stayed at "Finding the table…" with the hand in memory (twice on CI). Here the page's
    timers are held until every message is in, so that order is certain."""
    table = person.create("hearts", 4)
    person.page.clock.install()
    person.page.clock.pause_at(time.time() * 1000 + 60_000)
    person.page.goto(f"{person.base}/t/{table}")
    end = time.monotonic() + 30
    while person.snapshot is None and time.monotonic() < end:
        person.page.wait_for_timeout(20)  # Playwright's own wait: the page's clock is held
    assert person.snapshot is not None, person.trace
    person.page.clock.resume()
    person.page.get_by_role("region", name=re.compile(r"^The table")).wait_for(timeout=10_000)
    assert person.page.get_by_role("status").first.inner_text() == "connected"
