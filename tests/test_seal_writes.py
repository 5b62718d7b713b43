"""The in-process seal, for writing: nothing a bot can reach from its view is the state's,
another view's or the game's to change, so that nothing a bot does with its view (short of
``gc`` or ``object.__setattr__``: docs/writing-bots.md) changes the match or what another
seat is told."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

from test_seal import _IMMUTABLE, GAMES, field_names, mutable, positions, reachable
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine.events import SPECTATOR, Event, Window
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, TrickState, View
from tricktable.games import load_game, names
from tricktable.match import play_match


def state_parts(state: TrickState) -> dict[int, object]:
    """Every mutable object the state holds, down to its hand logs' lists, by id (kept
    alive: the state may drop one, and its id be another's)."""
    return {id(o): o for o in reachable(state) if mutable(o) and o is not state.game}


def surface(view: View) -> list[object]:
    """What a bot gets from its view by public names: every field and property, and what
    every method that needs no argument returns."""
    out: list[object] = []
    for name in dir(view):
        if name.startswith("_"):
            continue
        value = getattr(view, name)
        if callable(value):
            try:
                value = value()
            except TypeError:
                continue  # it needs arguments (illegal)
        out.append(value)
    return out


@pytest.mark.parametrize("spec", GAMES)
def test_nothing_a_view_returns_is_the_states_or_another_views_to_change(spec: str) -> None:
    for state in positions(spec, 3):
        state.listen()
        parts = state_parts(state)
        owned: dict[int, int] = {}
        kept: list[object] = []  # alive to the end, so that no id is used again
        for seat in range(state.n):
            view = state.view(seat)
            kept.append(view)
            # The game is the one thing a view shares that a bot could rebind a field of
            # (docs/writing-bots.md); what it holds is checked below.
            for thing in surface(view):
                if thing is view.game:
                    continue
                for obj in reachable(thing, past=(view.game,)):
                    if not mutable(obj):
                        continue
                    kept.append(obj)
                    what = f"{spec}: seat {seat}'s view returns a {type(obj).__name__} {obj!r:.80}"
                    assert id(obj) not in parts, f"{what} of the state's"
                    assert owned.setdefault(id(obj), seat) == seat, f"{what} of another view's"


@pytest.mark.parametrize("spec", GAMES)
def test_a_games_tables_are_read_only(spec: str) -> None:
    game = load_game(spec)
    held = [
        f"{type(o).__name__} {o!r:.60}" for o in reachable(game) if o is not game and mutable(o)
    ]
    assert held == []


def _play(spec: str, seed: int, vandal: bool) -> list[Any] | None:
    """What every seat is shown, and how the match goes on, from mid-play of its second hand
    (a result, finished tricks, facts and a trick in play; events on) — after the seat to
    act has vandalised everything its view returns, if ``vandal``. None if the match ends
    before."""
    rng = random.Random(seed)
    state = load_game(spec).new_state(seed)
    state.listen()
    while not (len(state.history) == 2 and len(state.tricks) >= 2 and state.trick):
        if state.is_over:
            return None
        if state.needs_deal:
            state.deal()
        else:
            state.apply(rng.choice(state.legal_actions()))
    if vandal:
        view = state.view(state.to_act)
        # Not the game: a bot could rebind its fields (docs/writing-bots.md).
        returned = [thing for thing in surface(view) if thing is not view.game]
        for thing in list(returned):
            if isinstance(thing, list | tuple | Window):
                returned.extend(thing)
            elif isinstance(thing, dict):
                returned.extend(thing.values())
        assert any(isinstance(thing, HandResult) for thing in returned)
        assert any(isinstance(thing, Event) for thing in returned)
        for thing in returned:
            vandalise(thing)
    out: list[Any] = [[state.view(seat).to_dict() for seat in range(state.n)]]
    while not state.is_over and len(state.history) < 4:
        if state.needs_deal:
            state.deal()
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert state.events is not None
    out.append([e.to_dict() for e in state.events.all])
    out.append([r.to_dict() for r in state.results])
    out.append(state.scores)
    return out


@pytest.mark.parametrize("spec", GAMES)
def test_what_a_view_returns_cannot_change_the_match(spec: str) -> None:
    seed = next(s for s in range(9, 30) if _play(spec, s, vandal=False) is not None)
    before = _play(spec, seed, vandal=False)
    assert _play(spec, seed, vandal=True) == before
    # Nothing every match of the game shares (its tables, the engine's constants) changed.
    assert _play(spec, seed, vandal=False) == before


def vandalise(thing: object) -> None:
    """Change ``thing`` every way a bot could without tricks: clear a list or dict, set every
    field to something else; what refuses is left."""
    if isinstance(thing, list):
        thing.reverse()
        thing.append(99)
        return
    if isinstance(thing, dict):
        for key in list(thing):
            thing[key] = "changed"
        thing["added"] = 1
        return
    if isinstance(thing, _IMMUTABLE):
        return
    for name in field_names(thing):
        value = getattr(thing, name)
        if isinstance(value, list | dict):
            vandalise(value)
        for junk in (None, 7, (1, 2)):
            with contextlib.suppress(AttributeError, TypeError):
                setattr(thing, name, junk)
        with contextlib.suppress(AttributeError, TypeError):
            delattr(thing, name)


class Told(Bot):
    """A random player that reads its events: what the stdio and HTTP adapters send is made
    from them. A vandal also changes every event it is given, and the result of each hand,
    every way it can (a plug-in bot could)."""

    wants_events = True

    def __init__(self, vandal: bool) -> None:
        self.vandal = vandal
        self.inner = make_bot("random")

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        if self.vandal:
            for event in view.events:
                vandalise(event)
                for name in field_names(event):
                    vandalise(getattr(event, name))
        return self.inner.act(view)

    def end_hand(self, view: View, result: HandResult) -> None:
        if self.vandal:
            vandalise(result)
            for name in field_names(result):
                vandalise(getattr(result, name))


@pytest.mark.parametrize("spec", names())
def test_a_plug_in_that_changes_its_events_changes_no_other_seats(spec: str) -> None:
    game = load_game(spec)
    told = []
    for vandal in (False, True):
        bots = [Told(vandal and seat == 0) for seat in range(game.num_players)]
        state = play_match(game, bots, 5, max_hands=3)
        assert state.events is not None
        told.append(
            [
                [json.dumps(e.to_dict(), sort_keys=True) for e in state.events.stream(viewer)]
                for viewer in [*range(1, game.num_players), SPECTATOR]
            ]
        )
    assert told[1] == told[0]


@pytest.mark.parametrize("spec", GAMES)
def test_what_two_seats_views_share_no_bot_can_change(spec: str) -> None:
    """Underscores included: what seat 0's view and another seat's hold alike (the facts,
    the finished tricks, the scores each view reaches through what views share) is
    read-only, so a bot that writes to its view's private parts — ``view._shared.scores =
    ...``, ``view._info["declarer"] = 3`` — changes nothing the next seat's bot sees. (The
    game is shared and documented as such: docs/writing-bots.md.)"""
    for state in positions(spec, 5):
        state.listen()
        views = [state.view(seat) for seat in range(state.n)]
        past = (state.game, state.events)
        mine = {id(o): o for o in reachable(views[0], past)}
        for other in views[1:]:
            shared = [o for o in reachable(other, past) if id(o) in mine and o is not other]
            changeable = [type(o).__name__ for o in shared if mutable(o)]
            assert not changeable, f"{spec}: views share changeable {changeable}"


def test_a_bot_that_writes_to_its_views_private_parts_changes_no_other_seat() -> None:
    state = load_game("setback").new_state(3)
    state.deal()
    rng = random.Random(3)
    for _ in range(2):  # two bids: the facts hold some
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.to_act)
    before = [json.dumps(state.view(s).to_dict(), sort_keys=True) for s in range(state.n)]
    for attempt in (
        lambda: setattr(view._shared, "scores", (999, 999)),
        lambda: view._shared.facts.__setitem__("x", 1),  # type: ignore[attr-defined]
        lambda: view._info.__setitem__("declarer", 3),  # type: ignore[attr-defined]
    ):
        with pytest.raises((AttributeError, TypeError)):
            attempt()
    info = view.info()
    for value in info.values():
        if isinstance(value, list):
            value.append(999)  # the bot's own copy
    after = [json.dumps(state.view(s).to_dict(), sort_keys=True) for s in range(state.n)]
    assert after == before
