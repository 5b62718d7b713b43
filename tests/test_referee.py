"""One referee for both loops: the match loop and the table's driver judge bots alike.

The same bots, seed and failure give the same record in :func:`tricktable.match.play_match`
and at a :class:`~tricktable.table.Table` driven by :func:`tricktable.table.run`: the same
actions, faults, penalties and substitutes — whether a bot fails to start, raises or answers
an illegal action deciding, or fails at a hand's or the match's end. And the referee's rounds
of calls (:data:`tricktable.match.Round`) run the same through either loop's way of calling.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tricktable.bots.base import Bot
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError, BotFault
from tricktable.games import load_game
from tricktable.match import Referee, make_calls, play_match
from tricktable.records import to_record
from tricktable.table import Table, run
from tricktable.table.driver import _make_calls

HANDS = 3


class First(Bot):
    """The lowest legal action: its choices depend on its view alone."""

    name = "first"

    def act(self, view: View) -> int:
        return view.legal_actions()[0]


class Failing(First):
    """Fails in one place (``where``): ``start``, ``act`` (its second decision), ``illegal``
    (answers an action that is never legal), ``end_hand`` or ``end_match``."""

    name = "failing"

    def __init__(self, where: str) -> None:
        self.where = where
        self.calls = 0
        self.closed = 0

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        if self.where == "start":
            raise RuntimeError("will not start")

    def act(self, view: View) -> int:
        self.calls += 1
        if self.calls == 2 and self.where == "act":
            raise ValueError("boom")
        if self.calls == 2 and self.where == "illegal":
            return 10_000
        return super().act(view)

    def end_hand(self, view: View, result: Any) -> None:
        if self.where == "end_hand":
            raise RuntimeError("not listening")

    def end_match(self, view: View) -> None:
        if self.where == "end_match":
            raise RuntimeError("no goodbye")

    def close(self) -> None:
        self.closed += 1


def _bots(game: Game, where: str) -> list[Bot]:
    return [Failing(where) if seat == 1 else First() for seat in range(game.num_players)]


def _by_loop(spec: str, where: str) -> dict[str, Any]:
    game = load_game(spec)
    bots = _bots(game, where)
    referee = Referee()
    state = play_match(game, bots, 7, max_hands=HANDS, referee=referee)
    return to_record(state, [f"bot:{getattr(b, 'name', 'bot')}" for b in bots], referee.faults)


def _by_table(spec: str, where: str) -> dict[str, Any]:
    game = load_game(spec)
    table = Table(game, _bots(game, where), seed=7)
    asyncio.run(run(table, max_hands=HANDS, grace=5.0))
    return table.record()


@pytest.mark.parametrize("where", ["start", "act", "illegal", "end_hand", "end_match"])
@pytest.mark.parametrize("spec", ["setback", "tricks", "spades"])
def test_a_failing_bot_is_judged_alike_by_the_match_loop_and_the_driver(
    spec: str, where: str
) -> None:
    by_loop = _by_loop(spec, where)
    by_table = _by_table(spec, where)
    assert by_table.get("faults") == by_loop.get("faults")
    assert by_table == by_loop
    if where != "end_match":
        assert by_loop["faults"][0]["seat"] == 1


def _calls_of(run_round: Callable[[Referee, Bot], None]) -> list[tuple[str, object]]:
    """What a round saw, run by ``run_round``: each call's value or what it raised."""
    seen: list[tuple[str, object]] = []

    class Asked(First):
        def start_match(self, game: Game, seat: int, seed: int) -> None:
            seen.append(("start", seat))
            if seat == 1:
                raise BotFault(seat, "crash", "no")

    referee = Referee()
    run_round(referee, Asked())
    seen += [("unstarted", seat) for seat, _ in referee.unstarted]
    return seen


def test_a_round_runs_alike_called_at_once_or_awaited_in_a_thread() -> None:
    game = load_game("setback")

    def at_once(referee: Referee, bot: Bot) -> None:
        make_calls(referee.starting(game, [bot] * game.num_players, 7), referee)

    def awaited(referee: Referee, bot: Bot) -> None:
        async def go() -> None:
            calls = referee.starting(game, [bot] * game.num_players, 7)
            await _make_calls(calls, referee.clock)
            referee.clock.close()

        asyncio.run(go())

    expected = [*(("start", s) for s in range(game.num_players)), ("unstarted", 1)]
    assert _calls_of(at_once) == expected
    assert _calls_of(awaited) == expected


def test_a_program_that_cannot_run_is_a_set_up_error_in_either_loop() -> None:
    game = load_game("setback")

    class Unrunnable(First):
        def start_match(self, game: Game, seat: int, seed: int) -> None:
            raise BotError("no such program")

    bots: list[Bot] = [Unrunnable(), *(First() for _ in range(game.num_players - 1))]
    with pytest.raises(BotError, match="no such program"):
        play_match(game, bots, 7, max_hands=1, referee=Referee())
    table = Table(game, bots, seed=7)
    with pytest.raises(BotError, match="no such program"):
        asyncio.run(run(table, max_hands=1))
