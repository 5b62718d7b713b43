"""California Jack's face-up draws are public: every view names the cards each seat took in
sight of all (and Shasta Sam's, face down, only the trump card turned); the search places them
with their takers; the table shows them; the leak tests allow exactly these."""

from __future__ import annotations

import random

import pytest

from helpers import CARD, known, positions, public_holdings
from tricktable.bots import make_bot
from tricktable.cards import mask_of, parse_card, parse_cards
from tricktable.engine.trick import TrickState
from tricktable.games import load_game
from tricktable.search import Determinizer, Knowledge

SPECS = ["california-jack", "shasta-sam", "california-jack-foster", "california-jack-four"]

HAND0 = "AS KS 2H 3H 4H 5H"
HAND1 = "QC 6D 7D 8D 9D TD"  # no heart, no spade


def dealt(spec: str, top: str = "2S 6H") -> TrickState:
    """Two hands of ``spec`` dealt HAND0 and HAND1 by seat 1, the stock ``top`` first."""
    used = mask_of(parse_cards(f"{HAND0} {HAND1} {top}"))
    rest = [c for c in range(52) if not used >> c & 1]
    state = load_game(spec).new_state(1)
    hands = [mask_of(parse_cards(HAND0)), mask_of(parse_cards(HAND1))]
    state.deal(hands, dealer=1, stock=[*parse_cards(top), *rest])
    return state


def play(state: TrickState, *names: str) -> None:
    for name in names:
        state.apply(parse_card(name))


def test_the_views_name_the_cards_each_seat_took_face_up() -> None:
    state = dealt("california-jack")
    assert state.view(0).info()["taken"] == [[], []]
    play(state, "3H", "6D")  # seat 0 wins: it takes 2S, seat 1 the 6H, both seen
    for seat in (0, 1):
        assert state.view(seat).info()["taken"] == [["2S"], ["6H"]]
    assert public_holdings(state, 0) == 1 << parse_card("6H")
    assert public_holdings(state, 1) == 1 << parse_card("2S")
    play(state, "2S")  # played: in the trick, no longer a holding to tell
    assert public_holdings(state, 1) == 0
    assert state.view(1).info()["taken"][0] == ["2S"]  # what it took, in draw order


def test_shasta_sam_tells_only_the_trump_card_turned() -> None:
    state = dealt("shasta-sam")
    play(state, "3H", "6D")
    for seat in (0, 1):
        # All saw the trump card turned and taken by the trick's winner; not the 6H drawn.
        assert state.view(seat).info()["taken"] == [["2S"], []]
    assert public_holdings(state, 0) == 0
    assert public_holdings(state, 1) == 1 << parse_card("2S")


def test_the_search_knows_who_holds_a_face_up_card() -> None:
    state = dealt("california-jack")
    play(state, "3H", "6D")
    k = Knowledge(state.view(0))
    six = 1 << parse_card("6H")
    assert k.known[1] & six and not k.unseen & six
    # Every card seat 1 drew is known: no other heart or spade came to it since its void.
    hearts_spades = mask_of(parse_cards("2H 7H 8H 9H TH JH QH KH AH 3S 4S 5S 6S 7S"))
    assert k.cannot[1] & hearts_spades == hearts_spades
    rng = random.Random(3)
    det = Determinizer(state.view(0), k)
    for _ in range(20):
        world = det.sample(rng)
        assert world.hands[1] & six and not world.hands[1] & hearts_spades


def test_undo_takes_back_what_was_taken() -> None:
    state = dealt("california-jack")
    play(state, "3H")
    before = state.view(1).info()["taken"]
    state.push(parse_card("6D"))
    assert state.view(1).info()["taken"] == [["2S"], ["6H"]]
    state.undo()
    assert state.view(1).info()["taken"] == before


def test_the_table_shows_what_the_others_took() -> None:
    from tricktable.seat.games import presenter_for
    from tricktable.seat.games.base import Seating

    state = dealt("california-jack")
    play(state, "3H", "6D")
    shown = presenter_for(state.game)
    lines = [
        t.plain for t in shown.play_facts(Seating(state.game, ["You", "North"]), state.view(0))
    ]
    assert any("North took 6♥" in text for text in lines), lines
    assert not any("You took" in text for text in lines)
    face_down = dealt("shasta-sam")
    play(face_down, "3H", "6D")
    seating = Seating(face_down.game, ["You", "North"])
    lines = [t.plain for t in shown.play_facts(seating, face_down.view(1))]
    assert not any("took 6" in text for text in lines)


def _seen(state: TrickState, seat: int) -> int:
    """The cards ``seat`` has seen: its own, the played, the top card where all see it, and
    those all saw taken."""
    view = state.view(seat)
    top = view.info()["stock_top"]
    cards = view.dealt | view.hand | view.played | public_holdings(state, seat)
    return cards | (1 << parse_card(top) if isinstance(top, str) else 0)


@pytest.mark.parametrize("spec", SPECS)
def test_samples_hold_what_all_saw_taken(spec: str) -> None:
    """Every sampled world gives each face-up card to the seat that took it and still holds
    it, and no card the viewer saw elsewhere goes to another hand."""
    rng = random.Random(7)
    samples = 0
    for state in positions(spec, 4, 1):
        if len(state.tricks) % 3 or state.trick:
            continue
        for seat in range(state.n):
            view = state.view(seat)
            det = Determinizer(view)
            world = det.sample(rng)
            for other in range(state.n):
                if other != seat:
                    held = public_holdings(state, seat) & state.hands[other]
                    assert world.hands[other] & held == held
                    seen = _seen(state, seat) & ~state.hands[other]
                    assert not world.hands[other] & seen
            samples += 1
    assert samples >= 8


@pytest.mark.parametrize("spec", SPECS)
def test_views_name_no_hidden_card(spec: str) -> None:
    """A view's text names no card of another hand but those the viewer may know."""
    game = load_game(spec)
    state = game.new_state(5)
    bots = [make_bot("random") for _ in range(game.num_players)]
    for s, bot in enumerate(bots):
        bot.start_match(game, s, s)
    state.deal()
    public = 0
    while not state.is_over and len(state.history) < 2:
        if state.needs_deal:
            state.deal()
            continue
        for seat in range(state.n):
            text = str(state.view(seat).to_dict())
            named = mask_of(parse_cards(CARD.findall(text)))
            for other in range(state.n):
                if other != seat:
                    assert not named & state.hands[other] & ~known(state, seat)
            public |= public_holdings(state, seat)
        state.apply(bots[state.to_act].act(state.view(state.to_act)))
    assert public  # some card was known to be in a hand not its viewer's
