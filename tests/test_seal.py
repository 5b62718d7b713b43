"""The in-process seal: everything a bot can reach from its view — its attributes, theirs,
and so on down, underscores included — holds only what its seat may know, and nothing a bot
can change there changes the match or another seat's view.

The graph is walked with ``gc.get_referents``, as a curious bot could: every object
reachable from a view, through every field, is inspected. Classes, modules and functions
are not entered (they lead to every module's globals: the in-process seal does not claim to
stop a bot that goes looking there; docs/writing-bots.md says so).
"""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Iterator

import pytest

from helpers import VARIANTS, known
from table_shapes import other_shapes
from tricktable.engine.events import EventLog
from tricktable.engine.log import HandLog, Note
from tricktable.engine.trick import TrickState
from tricktable.games import load_game, names

#: kinds of objects the walk does not enter: code and namespaces, not data
_OPAQUE = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
    types.FrameType,
)
#: immutable kinds whose contents the walk still enters
_IMMUTABLE = (tuple, frozenset, str, bytes, int, float, complex, bool, type(None), range)
#: the most objects one walk visits (a view holds a few thousand at most)
_LIMIT = 200_000


def reachable(root: object, past: tuple[object, ...] = ()) -> Iterator[object]:
    """Every object reachable from ``root`` (itself first), each once; the objects of
    ``past`` are not entered."""
    seen = {id(root), *map(id, past)}
    todo = [root]
    while todo:
        obj = todo.pop()
        yield obj
        if isinstance(obj, types.MappingProxyType):
            # Its dict is reached only through the proxy, which lends no way to change it.
            inner: list[object] = [*obj.keys(), *obj.values()]
        else:
            inner = gc.get_referents(obj)
        for ref in inner:
            if id(ref) in seen or isinstance(ref, _OPAQUE):
                continue
            seen.add(id(ref))
            assert len(seen) < _LIMIT, "the walk found far more than a view should hold"
            todo.append(ref)


def field_names(obj: object) -> list[str]:
    """The fields of an instance: its slots, along its classes, and its ``__dict__``."""
    out: list[str] = []
    for klass in type(obj).__mro__:
        slots = vars(klass).get("__slots__", ())
        out.extend([slots] if isinstance(slots, str) else slots)
    out.extend(getattr(obj, "__dict__", {}))
    return [n for n in out if n not in ("__weakref__", "__dict__") and hasattr(obj, n)]


def mutable(obj: object) -> bool:
    """Whether a bot holding ``obj`` could change it in place (no tricks: no ``gc``, no
    ``object.__setattr__``)."""
    if isinstance(obj, list | dict | set | bytearray):
        return True
    if isinstance(obj, (*_IMMUTABLE, types.MappingProxyType)):
        return False
    for name in field_names(obj):
        try:
            setattr(obj, name, getattr(obj, name))
        except (AttributeError, TypeError):
            continue
        return True
    return False


def secrets(state: TrickState, seat: int) -> dict[int, str]:
    """What ``seat`` may not know as values a view could hold: every other seat's hand and
    deal (as masks, when they hold a card it does not know), and every action of this hand
    hidden from it.

    A mask under 1024 is left out: it is a number a view holds anyway (a card, a bid, a
    score), and what it would tell is checked by name in test_event_leaks."""
    allowed = known(state, seat)
    out: dict[int, str] = {}
    for other in range(state.n):
        if other == seat:
            continue
        for what, mask in (("hand", state.hands[other]), ("deal", state.dealt[other])):
            if mask & ~allowed and mask.bit_count() > 1 and mask >= 1024:
                out[mask] = f"seat {other}'s {what}"
    for actor, action in zip(state.actors, state.actions, strict=True):
        if actor != seat and not state._public(seat, actor, action):
            out[action] = f"seat {actor}'s hidden {state.game.action_name(action)!r}"
    return out


def positions(spec: str, seed: int, hands: int = 2) -> Iterator[TrickState]:
    """Random points of a seeded random match: about one decision in three of its first
    ``hands`` hands, and the first of each phase."""
    rng = random.Random(seed)
    state = load_game(spec).new_state(seed)
    phase = -1
    while not state.is_over and len(state.history) <= hands:
        if state.needs_deal:
            if len(state.history) == hands:
                return
            state.deal()
            continue
        if state.phase != phase or rng.random() < 0.3:
            phase = state.phase
            yield state
        state.apply(rng.choice(state.legal_actions()))


#: every game and variant, and every game and preset at every other table it allows
GAMES = [*names(), *VARIANTS, *other_shapes()]


@pytest.mark.parametrize("spec", GAMES)
def test_no_part_of_a_view_holds_another_seats_secret(spec: str) -> None:
    hidden_seen = 0
    for seed in (1, 2):
        for state in positions(spec, seed):
            for seat in range(state.n):
                view = state.view(seat)
                forbidden = secrets(state, seat)
                hidden_seen += sum("hidden" in why for why in forbidden.values())
                # The game and its trump tables are the same for every match: their numbers
                # (cards' powers, suits' masks) are no secret, and may equal a small hand's.
                for obj in reachable(view, past=(view.game, view.tables)):
                    assert not isinstance(obj, TrickState | EventLog | HandLog | Note), (
                        f"{spec}: seat {seat}'s view reaches {type(obj).__name__}"
                    )
                    if type(obj) is int and obj in forbidden:
                        raise AssertionError(f"{spec}: seat {seat}'s view holds {forbidden[obj]}")
    if load_game(spec).private_actions:
        assert hidden_seen, f"{spec}: the walk met no hidden action: it proves nothing"
