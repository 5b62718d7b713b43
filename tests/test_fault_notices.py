"""A fault's detail goes only to the seat at fault and to the record.

The detail of an illegal card ("must follow suit C") names the faulting seat's cards or voids
while its hand goes on. Every other seat may hear that the seat faulted, the kind and the
penalty — and in Tricks the bad card it sent, as seed 002 says — never the detail: not a
program on its standard input, not an in-process bot's ``fault_notice``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine.trick import View
from tricktable.games import load_game
from tricktable.match import Referee, RunnerOptions, play_match
from tricktable.protocols.stdio import SubprocessBot

BOTS = Path(__file__).parent / "bots"
OPTIONS = RunnerOptions(decision_time=5.0, max_faults=3)


class Reneges(Bot):
    """Plays legally, except that once in each hand, given the chance, it does not follow suit."""

    name = "reneges"

    def __init__(self) -> None:
        self.notices: list[dict[str, Any]] = []
        self.hand = -1

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if self.hand != view.hand_number and len(view.trick) > 0:
            held = [a for a in range(64) if view.hand >> a & 1]
            off = [a for a in held if a not in legal]
            if off:  # it holds cards it may not play: it must follow suit
                self.hand = view.hand_number
                return off[0]
        return legal[0]

    def fault_notice(self, fault: dict[str, Any]) -> None:
        self.notices.append(fault)


class Listens(Bot):
    """A legal bot that keeps every fault notice it is sent."""

    name = "listens"

    def __init__(self) -> None:
        self.notices: list[dict[str, Any]] = []

    def act(self, view: View) -> int:
        return view.legal_actions()[0]

    def fault_notice(self, fault: dict[str, Any]) -> None:
        self.notices.append(fault)


@pytest.mark.parametrize("game_spec", ["setback", "tricks(target=30)", "hearts(target=30)"])
def test_no_other_seat_hears_a_faults_detail(game_spec: str, tmp_path: Path) -> None:
    game = load_game(game_spec)
    logs = [tmp_path / f"seat{seat}.log" for seat in range(game.num_players)]
    renegade, listener = Reneges(), Listens()
    bots: list[Bot] = [
        SubprocessBot(f"{sys.executable} {BOTS / 'record.py'} --record {logs[0]}"),
        renegade,
        listener,
    ]
    bots += [make_bot("heuristic") for _ in range(game.num_players - len(bots))]
    referee = Referee(OPTIONS)
    try:
        play_match(game, bots, 11, max_hands=4, referee=referee)
    finally:
        for bot in bots:
            bot.close()
    faults = [f for f in referee.faults if f["seat"] == 1]
    assert faults and all(f["kind"] == "illegal" for f in faults), referee.faults
    details = {f["detail"] for f in faults}
    assert all("follow" in d for d in details), details
    # The program at seat 0 heard something of the fault, never its detail.
    heard = logs[0].read_text(encoding="utf-8")
    assert "|INFO|" in heard
    for detail in details:
        assert detail not in heard
        assert "follow" not in heard
    # An in-process bot elsewhere: who, the kind, the penalty; no detail.
    assert len(listener.notices) == len(faults)
    for notice, fault in zip(listener.notices, faults, strict=True):
        assert "detail" not in notice
        assert {k: notice[k] for k in ("seat", "kind", "penalty")} == {
            k: fault[k] for k in ("seat", "kind", "penalty")
        }
        assert "follow" not in repr(notice)
        assert "answer" not in notice or "bad-card" in fault["penalty"]
    # The seat at fault (while it keeps its seat) hears its own detail.
    for notice in renegade.notices:
        assert notice["detail"] in details
