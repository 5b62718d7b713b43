"""A web table's match as a record (``tricktable-record/1``), with its fair-deal proof.

Made from the journal alone: the match's ``begin`` row holds its seed, nonce and
commitment; its other rows replay the match (the engine's deals from that seed, the actions,
the chat). The record carries ``"fair": {"commitment", "nonce"}`` beside its ``seed``, so
that ``tricktable verify`` can check both the digest and every deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricktable.records import to_record
from tricktable.web.store import WebStore

if TYPE_CHECKING:
    from tricktable.web.room import Room


def match_record(store: WebStore, room: Room, match_no: int) -> dict[str, Any]:
    """The record of match ``match_no`` of ``room`` (finished, or as far as it went)."""
    rows = store.journal(room.id, match_no)
    seed, nonce, commitment = room.seed, room.nonce, room.commitment
    for row in rows:
        for step in row.steps:
            if step[0] == "begin":
                seed, nonce, commitment = int(step[2]), step[3], step[4]
    state = room.game.new_state(seed)
    for row in rows:
        for step in row.steps:
            apply_step(state, step)
    record = to_record(state, room.names)
    record["fair"] = {"commitment": commitment, "nonce": nonce}
    return record


def apply_step(state: Any, step: list[Any]) -> None:
    """Replay one journal step on ``state``: ``["deal"]``, ``["act", seat, code, id?]``,
    ``["chat", seat, text]``, ``["substitute", seat, label]``, ``["forfeit", seat]``;
    ``["begin", ...]`` (a match's seed) changes nothing."""
    what = step[0]
    if what == "deal":
        state.deal()
    elif what == "act":
        state.apply(step[2])
    elif what == "chat":
        state.chat(step[1], step[2])
    elif what == "substitute":
        state.substitute(step[1], step[2])
    elif what == "forfeit":
        state.forfeit(step[1])
