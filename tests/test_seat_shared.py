"""What snapshots share (:mod:`tricktable.seat.snapshot`'s words made once a game, the phrases'
remembered readings): a snapshot made from what was remembered is the one made afresh.

Whole hands of several games (Setback, Hearts and its pass, Spades, a game with a kitty, Cinch's
discards, Euchre) are played with seeded random actions at tables of remote seats, as the web
server holds them, while another table of a variant of the same game is snapshotted in between
(the caches hold both). At every version every seat's, a spectator's and everyone's snapshot is
made twice, from warm caches and after :func:`~tricktable.seat.snapshot.forget`: the two are
the same JSON text, byte for byte, and name no card the viewer may not know.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from helpers import card_names, known
from tricktable.cards import cards_in
from tricktable.engine.events import SPECTATOR
from tricktable.games import load_game
from tricktable.seat import EVERYONE, snapshot_of
from tricktable.seat import phrases as ph
from tricktable.seat.snapshot import forget
from tricktable.table.table import Remote, Table
from tricktable.web import seatview

#: (the game played, a variant of it snapshotted in between)
GAMES = [
    ("setback", "setback-11"),
    ("hearts", "hearts(target=50)"),
    ("spades", "cutthroat-spades"),
    ("pitch-with-kitty", "setback"),
    ("cinch", "cinch-cutthroat"),
    ("euchre", "cutthroat-euchre"),
]


def _text(snap: dict[str, Any]) -> str:
    return json.dumps(snap, ensure_ascii=False)


def _table(spec: str, seed: int) -> tuple[Table, list[str]]:
    game = load_game(spec)
    names = [f"Guest {seed}-{s}" for s in range(game.num_players)]
    return Table(game, [Remote(n) for n in names], seed=seed, talk=False), names


def _step(table: Table, rng: random.Random) -> bool:
    """One change at ``table``: a deal or a seat's random action; False once it is over."""
    if table.is_over:
        return False
    if table.state.needs_deal:
        table.deal_next()
    else:
        table.submit(table.whose_turn, rng.choice(table.state.legal_actions()))
    return True


@pytest.mark.parametrize(("spec", "other"), GAMES)
def test_a_remembered_snapshot_is_the_fresh_one(spec: str, other: str) -> None:
    table, names = _table(spec, seed=7)
    beside, beside_names = _table(other, seed=8)
    rng = random.Random(spec)
    viewers = [*range(table.num_seats), SPECTATOR]
    version = 0
    while len(table.state.results) < 2 and _step(table, rng):
        version += 1
        _step(beside, rng)
        state = table.state
        for viewer in viewers:
            seatview.snapshot(beside, SPECTATOR, version, beside_names)
            warm = _text(seatview.snapshot(table, viewer, version, names))
            forget()
            fresh = _text(seatview.snapshot(table, viewer, version, names))
            assert warm == fresh, (spec, version, viewer)
            leaked = card_names(warm) & ~known(state, viewer)
            assert leaked == 0, (spec, version, viewer, cards_in(leaked))
        # Everyone's (a replay's, after the match), and a screen's own names: "You" stays words.
        screen = ["You", *(f"Seat {s}" for s in range(1, table.num_seats))]
        for viewer, shown in ((EVERYONE, None), (0, screen)):
            warm = _text(snapshot_of(state, viewer, table.labels, version, names=shown))
            forget()
            assert warm == _text(snapshot_of(state, viewer, table.labels, version, names=shown))
    assert version > 20, "the hands were played"


def test_a_snapshot_changed_by_its_caller_changes_no_other() -> None:
    """What is shared is handed out as copies: a door that writes on its snapshot (the server
    puts in its version and avatars) changes no later one."""
    table, names = _table("setback", seed=3)
    rng = random.Random(3)
    for _ in range(8):  # the bids and the first plays: last calls, the history, a trick
        _step(table, rng)
    viewer = table.whose_turn
    before = _text(seatview.snapshot(table, viewer, 1, names))
    snap = seatview.snapshot(table, viewer, 1, names)
    snap["game"]["spec"] = "scribbled"
    for seat in snap["seats"]:
        for token in seat["last_call"] or []:
            token["v"] = "scribbled"
    for item in snap["hand"]["history"]:
        item["words"].append(ph.text("scribbled"))
    for line in [*snap["hand"]["tally"], *snap["hand"]["facts"], *snap["score_line"]]:
        for token in line:
            token["v"] = "scribbled"
    for legal in snap["legal"]:
        legal["words"][0]["v"] = "scribbled"
    assert _text(seatview.snapshot(table, viewer, 1, names)) == before
