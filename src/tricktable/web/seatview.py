"""What the server sends a viewer of a table: its snapshot and its events as JSON.

The one seat model is :mod:`tricktable.seat` (``snapshot``, ``event_json``); this module
calls it, and stands in for it (a smaller snapshot, built from the seat's sealed ``View`` or
public facts only) until it is there. Either way, the server adds the wire's version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tricktable.engine.events import SPECTATOR, Event
from tricktable.table.table import Table

_seat_snapshot: Callable[..., dict[str, Any]] | None = None
_seat_event_json: Callable[..., dict[str, Any]] | None = None
try:  # the seat model (issue 20, item 1)
    from tricktable.seat import event_json as _event_json
    from tricktable.seat import snapshot as _snapshot

    _seat_snapshot, _seat_event_json = _snapshot, _event_json
except ImportError:  # not there yet: the stand-in below
    pass

#: the viewer that sees every hand face up (after the match)
EVERYONE = -1


def snapshot(table: Table, viewer: int, version: int, names: list[str]) -> dict[str, Any]:
    """``viewer``'s snapshot of ``table`` (a seat or ``SPECTATOR``) at wire ``version``."""
    if _seat_snapshot is not None:
        out: dict[str, Any] = dict(_seat_snapshot(table, viewer))
    else:
        out = _stand_in(table, viewer, names)
    out["version"] = version
    return out


def event_json(event: Event, table: Table, viewer: int, version: int) -> dict[str, Any]:
    """One event of ``viewer``'s stream as the wire carries it, with its wire ``version``."""
    if _seat_event_json is not None:
        out: dict[str, Any] = dict(_seat_event_json(event, table, viewer))
    else:
        data = event.to_dict()
        kind = data.pop("type")
        seat = data.get("seat")
        card = data.get("card")
        out = {
            "kind": kind,
            "seat": seat if isinstance(seat, int) else None,
            "card": card if isinstance(card, str) else None,
            "words": [{"t": "text", "v": _words(kind, data)}],
            **data,
        }
    out["version"] = version
    return out


def _words(kind: str, data: dict[str, Any]) -> str:
    if kind == "chat":
        return str(data.get("text", ""))
    rest = " ".join(f"{k}={v}" for k, v in data.items() if k != "seat")
    return f"{kind} {rest}".strip()


def _stand_in(table: Table, viewer: int, names: list[str]) -> dict[str, Any]:
    """A small snapshot from what ``viewer`` may see: its sealed view, or public facts."""
    state = table.state
    game = table.game
    n = state.n
    seated = viewer != SPECTATOR and 0 <= viewer < n
    view = state.view(viewer if seated else 0) if state.history else None
    public = view.to_dict() if view is not None else {}
    hand: dict[str, Any] = {
        "number": len(state.history),
        "phase": public.get("phase", "deal"),
        "dealer": state.dealer,
        "turn": state.to_act,
        "trump": public.get("trump"),
        "cards": public.get("hand", []) if seated else [],
        "trick": public.get("trick", []),
        "tricks": public.get("tricks", []),
    }
    if state.is_over or (viewer == EVERYONE):
        hand["shown"] = {}
    legal: list[dict[str, Any]] = []
    if seated and view is not None and state.to_act == viewer:
        for code in view.legal_actions():
            text = game.action_name(code)
            legal.append(
                {"action": code, "text": text, "label": text, "words": [{"t": "text", "v": text}]}
            )
    return {
        "game": {
            "name": game.preset,
            "title": game.preset.title(),
            "seats": n,
            "sides": game.num_scores,
        },
        "viewer": viewer,
        "seats": [
            {
                "seat": s,
                "name": names[s] if s < len(names) else f"seat {s}",
                "side": s % game.num_scores,
                "dealer": state.dealer == s and bool(state.history),
                "turn": state.to_act == s,
                "cards_left": state.hands[s].bit_count() if state.history else 0,
                "tricks": state.tricks_won[s] if state.history else 0,
            }
            for s in range(n)
        ],
        "hand": hand,
        "scores": list(state.scores),
        "legal": legal,
        "over": state.is_over,
        "summary": None,
    }


__all__ = ["EVERYONE", "event_json", "snapshot"]
