"""A web table's match as a record (``tricktable-record/1``), with its fair-deal proof.

Made from the journal alone (:mod:`tricktable.steps`): the match's ``begin`` row holds its
seed, nonce and commitment; its other rows replay the match (the engine's deals from that
seed, the actions, the chat) and hold the referee's faults, which the record lists. The
record carries ``"fair": {"commitment", "nonce"}`` beside its ``seed``, so that ``tricktable
verify`` can check both the digest and every deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricktable.records import to_record
from tricktable.steps import apply_step
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
    faults: list[dict[str, Any]] = []
    for row in rows:
        for step in row.steps:
            apply_step(state, step, faults)
    record = to_record(state, room.names, faults=faults)
    record["fair"] = {"commitment": commitment, "nonce": nonce}
    return record
