"""``tricktable replay``: check a record, print its result as JSON or as a readable account."""

from __future__ import annotations

import json

from tricktable.cli import fail
from tricktable.errors import TricktableError
from tricktable.records import load_record, replay, result_of


def run_replay(path: str, as_json: bool, game_spec: str | None = None) -> int:
    """Replay the record at ``path``; 0 if valid, 2 (one line on stderr) if not.

    ``game_spec`` replays it under another game or other options than the record names.
    """
    try:
        record = load_record(path)
        state = replay(record, game_spec)
    except TricktableError as exc:
        return fail(exc)
    if as_json:
        print(json.dumps(result_of(state)))
        return 0
    from tricktable.ui.account import render_account

    render_account(state, record.get("players"), seeded="seed" in record)
    return 0
