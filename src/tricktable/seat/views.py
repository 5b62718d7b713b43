"""The sealed view of a viewer who holds no seat: a spectator, or everyone after the match.

The engine seals a view for a seat (:class:`~tricktable.engine.view.View`). Someone watching
sees what every seat may see and nothing more: the same view with no hand, no legal actions,
only the actions every seat was shown (the spectators' part of the log, as the engine's own
``_public(-1, ...)`` says) and only the facts every seat's view holds alike.
"""

from __future__ import annotations

from typing import Any, Final

from tricktable.engine.events import SPECTATOR
from tricktable.engine.trick import TrickState, View
from tricktable.engine.view import frozen

#: the viewer who sees everything: every hand face up (after the match, or a replay)
EVERYONE: Final = -1


def view_for(state: TrickState, viewer: int) -> View:
    """``viewer``'s sealed view: a seat's own, or the public one (spectators, everyone)."""
    if 0 <= viewer < state.n:
        return state.view(viewer)
    return public_view(state, everyone=viewer == EVERYONE)


def public_view(state: TrickState, everyone: bool = False) -> View:
    """What every seat may see of ``state``, as a view for no seat (``seat`` is SPECTATOR).

    ``everyone``: the view of a finished match (or a replay), whose actions are all face up
    (a Hearts pass, a discard): every action of the hand, not only the public ones."""
    # Seat 0's view with its hand, its legal actions, its own facts and its private part of
    # the log taken out: a view made by the engine's own constructor (the compiled View
    # cannot be made any other way), then narrowed to what every seat may see.
    view = state.view(0)
    view.seat = SPECTATOR
    view.hand = 0
    view.dealt = 0
    view._legal = []
    view._legal_mask = 0
    view._info = frozen(common_facts(state))
    private = state._private_at
    if private:
        last = private[-1]
        view._before = (
            tuple(zip(state.actors[: last + 1], state.actions[: last + 1], strict=True))
            if everyone
            else _public_before(state, last)
        )
    events = state.events
    view.events = () if events is None else events.window(SPECTATOR)
    return view


def common_facts(state: TrickState) -> dict[str, Any]:
    """The game's facts that every seat's view holds alike (a fact one seat alone may know —
    its own pass, its discard — is left out)."""
    infos = [state.view(s).info() for s in range(state.n)]
    first = infos[0]
    return {k: v for k, v in first.items() if all(k in i and i[k] == v for i in infos[1:])}


def _public_before(state: TrickState, last_private: int) -> tuple[tuple[int, int], ...]:
    """The hand's actions up to its last private one that spectators may see, in order."""
    private = set(state._private_at)
    out = []
    for i in range(last_private + 1):
        actor, action = state.actors[i], state.actions[i]
        if i in private and not state._public(-1, actor, action):
            continue
        out.append((actor, action))
    return tuple(out)
