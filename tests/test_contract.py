"""The contract every registered game and variant keeps, run through seeded random matches.

Every game and preset is played at every table it allows (:mod:`table_shapes`: its own size,
then the other sizes and partnership shapes of its game that its options permit); its own
table plays more and longer matches, the others a few hands each, so the suite stays fast.

For each game: matches end or stop at a cap with every hand complete; ``legal_actions()`` is
never empty while a seat is to act, and every legal action applies; no view shows a card of
another seat's hand that the viewer has not seen; records replay to identical results; the
game's scoring invariants hold; every built-in bot plays legally.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from helpers import public_holdings
from table_shapes import all_shapes
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine.results import HandResult
from tricktable.engine.trick import TrickState
from tricktable.errors import BotError
from tricktable.games import load_game, names
from tricktable.games.euchre_results import EuchreResult
from tricktable.games.hearts_results import FilippaResult, HeartsResult
from tricktable.games.oh_hell_results import OhHellResult
from tricktable.games.setback_results import SetbackResult
from tricktable.games.spades_results import SpadesResult
from tricktable.games.tricks_results import TricksResult
from tricktable.match import play_match
from tricktable.records import replay, result_of, to_record

MATCHES = 3
MAX_HANDS = 6
#: matches and hands a game plays at a table other than its own
OTHER_MATCHES = 2
OTHER_HANDS = 3
#: every game and preset at every table it allows
SHAPES = all_shapes()
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK|JL)\b")


def _setback_family(state: TrickState, result: HandResult) -> None:
    assert isinstance(result, SetbackResult)
    if result.thrown_in:
        return
    weights = state.game.weights  # type: ignore[attr-defined]
    taken = sum(weights[name] for name, side in result.points.items() if side is not None)
    assert sum(result.taken) == taken
    assert set(result.points) == set(weights)


def _hearts(state: TrickState, result: HandResult) -> None:
    assert isinstance(result, HeartsResult)
    # 26 penalty points a hand (13 hearts and the queen of spades), unless the moon is shot.
    deck = set(state.game.deck)
    queen = 13 if 3 * 13 + 10 in deck else 0  # the queen of spades
    assert sum(result.penalties) == sum(1 for c in deck if 26 <= c < 39) + queen
    before = state.results[-2].scores if len(state.results) > 1 else (0,) * len(result.scores)
    gained = tuple(a - b for a, b in zip(result.scores, before, strict=True))
    if result.moon is None:
        assert gained == result.penalties
    else:
        assert result.penalties[result.moon] == 26
    assert result.queen_of_spades is not None
    assert result.penalties[result.queen_of_spades] >= 13


def _filippa(state: TrickState, result: HandResult) -> None:
    assert isinstance(result, FilippaResult)
    assert sum(result.penalties) == -36 or sum(result.penalties) == 36
    clean = [s for s, p in enumerate(result.penalties) if p == 0]
    assert (result.carried > 0) == (not clean)
    assert sum(result.shares) == (0 if not clean else result.pool)
    assert result.queen_of_spades is not None
    assert result.penalties[result.queen_of_spades] <= -13


def _spades(state: TrickState, result: HandResult) -> None:
    assert isinstance(result, SpadesResult)
    assert sum(result.tricks) == state.hand_size


def _tricks(state: TrickState, result: HandResult) -> None:
    assert isinstance(result, TricksResult)
    if not result.thrown_in and not state.is_over:
        assert sum(result.tricks) == state.hand_size
        assert result.points == result.tricks


def _oh_hell(state: TrickState, result: HandResult) -> None:
    assert isinstance(result, OhHellResult)
    size = result.hand_size
    assert sum(result.tricks) == size
    if state.game.options.hook:
        assert sum(result.bids) != size


def _euchre(state: TrickState, result: HandResult) -> None:
    assert isinstance(result, EuchreResult)
    if result.thrown_in:
        return
    assert sum(result.tricks) == state.hand_size
    assert result.maker is not None
    # The makers score, or else (euchred) the other sides: exactly one side of two.
    makers = state.game.team_of(result.maker)
    scoring = {side for side, p in enumerate(result.points) if p}
    assert scoring in ({makers}, set(range(state.game.num_scores)) - {makers})


def _points_to_sides(state: TrickState, result: HandResult) -> None:
    """All Fours, California Jack, Cinch: each point is a side's or nobody's."""
    if getattr(result, "thrown_in", False):
        return
    points = result.points  # type: ignore[attr-defined]
    sides = state.game.num_scores
    assert all(side is None or 0 <= side < sides for side in points.values())
    assert len(result.scores) == sides


#: per game: a check of one hand's result (the scoring invariants of its written rules)
INVARIANTS: dict[str, Callable[[TrickState, HandResult], None]] = {
    "setback": _setback_family,
    "hearts": _hearts,
    "filippa": _filippa,
    "spades": _spades,
    "tricks": _tricks,
    "oh-hell": _oh_hell,
    "euchre": _euchre,
    "all-fours": _points_to_sides,
    "california-jack": _points_to_sides,
    "cinch": _points_to_sides,
}


def test_every_registered_game_has_its_invariants() -> None:
    from tricktable.games import GAMES

    assert set(GAMES) <= set(INVARIANTS)


def _seen_by(state: TrickState, seat: int) -> int:
    known = state.dealt[seat] | public_holdings(state, seat)  # and what all saw it take
    if state.game.records_stock and state.stock:
        known |= 1 << state.stock[0]  # the turned-up card is public
    return known


def check_views(state: TrickState) -> None:
    """No seat's view names a card another seat holds unless the viewer has seen it."""
    for seat in range(state.n):
        text = json.dumps(state.view(seat).to_dict())
        shown = set(CARD.findall(text))
        known = _seen_by(state, seat)
        for other in range(state.n):
            if other == seat:
                continue
            hidden = state.hands[other] & ~known
            for card in range(64):
                if hidden >> card & 1:
                    name = state.game.action_name(card).split()[-1]
                    assert name not in shown, f"seat {seat} sees {name} of seat {other}"


def checking_listener(name: str) -> Callable[[TrickState, int, int], None]:
    def listen(state: TrickState, seat: int, action: int) -> None:
        if state.to_act >= 0:
            legal = state.legal_actions()
            assert legal, f"{name}: no legal action for seat {state.to_act}"
            assert state.view(state.to_act).legal_actions() == legal
        else:
            result = state.results[-1]
            if not state.is_over and not getattr(result, "thrown_in", False):
                assert len(state.tricks) == state.hand_size, f"{name}: a hand ended early"
            base = state.game.name
            if base in INVARIANTS:
                INVARIANTS[base](state, result)
        if len(state.actions) % 5 == 1:
            check_views(state)

    return listen


def _size(name: str) -> tuple[int, int]:
    """Matches and hands to play of ``name``: more at a preset's own table."""
    return (MATCHES, MAX_HANDS) if name in names() else (OTHER_MATCHES, OTHER_HANDS)


def test_every_table_shape_is_listed() -> None:
    # Setback at each size it allows, with each partnership shape six seats can hold.
    assert {load_game(s).num_players for s in SHAPES if s.startswith("setback(")} == set(
        range(2, 8)
    )
    for shape in ("setback(players=6)", "setback(partners=3x2,players=6)"):
        assert shape in SHAPES
    assert set(names()) <= set(SHAPES)


@pytest.mark.parametrize("name", SHAPES)
def test_random_matches_keep_the_contract(name: str) -> None:
    game = load_game(name)
    matches, hands = _size(name)
    for seed in range(matches):
        bots = [make_bot("random") for _ in range(game.num_players)]
        state = play_match(game, bots, seed, listener=checking_listener(name), max_hands=hands)
        assert state.history, name
        assert len(state.scores) == game.num_scores
        record = json.loads(json.dumps(to_record(state)))
        again = replay(record)
        assert again.game.num_players == game.num_players
        assert result_of(again) == result_of(state)
        assert again.scores == state.scores
        # The same seed plays the same match.
        bots = [make_bot("random") for _ in range(game.num_players)]
        assert to_record(play_match(game, bots, seed, max_hands=hands)) == to_record(state)


@pytest.mark.parametrize("name", SHAPES)
def test_every_bot_plays_every_game_legally(name: str) -> None:
    game = load_game(name)
    bots = [make_bot(("heuristic", "random")[s % 2]) for s in range(game.num_players)]
    hands = _size(name)[1]
    state = play_match(game, bots, 7, listener=checking_listener(name), max_hands=hands)
    assert result_of(replay(json.loads(json.dumps(to_record(state))))) == result_of(state)


@pytest.mark.parametrize("name", SHAPES)
def test_search_bots_play_every_table_legally(name: str) -> None:
    """ismcts and pimc (tiny budgets) play a hand without fault, or pimc refuses the game in
    one line: their worlds are sampled from a view at any table size."""
    from tricktable.bots.ismcts import IsmctsBot
    from tricktable.bots.pimc import PimcBot, plays
    from tricktable.match import Referee
    from tricktable.search.rules import unsupported

    game = load_game(name)
    search: list[Callable[[], Bot]] = [lambda: IsmctsBot(iterations=8, max_seconds=None)]
    if unsupported(game):  # a stock or hidden actions the search cannot sample yet
        with pytest.raises(BotError, match=f"ismcts bot cannot play {game.name}: "):
            search.pop()().start_match(game, 0, 1)
    if plays(game):
        search.append(lambda: PimcBot(worlds=2, max_seconds=0.01, bid_worlds=2))
    else:
        with pytest.raises(BotError, match=f"cannot play {game.name}") as refused:
            PimcBot().start_match(game, 0, 1)
        assert "\n" not in str(refused.value)
    for make in search:
        bots = [make() if s % 2 == 0 else make_bot("heuristic") for s in range(game.num_players)]
        referee = Referee()
        state = play_match(game, bots, 5, max_hands=1, referee=referee)
        assert state.history and referee.faults == [], referee.faults


@pytest.mark.parametrize("name", SHAPES)
def test_clone_replays_the_same_future(name: str) -> None:
    game = load_game(name)
    state = game.new_state(3)
    state.deal()
    for _ in range(5):
        if state.to_act < 0:
            break
        state.apply(state.legal_actions()[0])
    copy = state.clone()
    while state.to_act >= 0:
        action = state.legal_actions()[-1]
        state.apply(action)
        copy.apply(action)
    assert copy.results == state.results and copy.scores == state.scores
