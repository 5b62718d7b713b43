"""A match loop and an asyncio loop using outside bots at once (protocols/aio): the test of
each transport plays the same two loops, with its own bots."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

from tricktable.bots.base import Bot
from tricktable.engine.trick import Game
from tricktable.match import Referee, play_match


def both_loops_at_once(
    game: Game, sync_bots: Sequence[Bot], async_bots: Sequence[Any], referee: Referee
) -> tuple[dict[str, object], int, int]:
    """A two-hand match of ``sync_bots`` in a thread (the match loop, blocking calls) while a
    coroutine on another loop plays one hand with ``async_bots``, awaiting every call (their
    ``*_async`` twins); every bot closed at the end. The match's faults and hands, the hand's
    decisions, and how many times a ticker of the coroutine's loop ran meanwhile (it never
    stops running: no call blocks the loop)."""
    outcome: dict[str, object] = {}

    def sync_match() -> None:
        try:
            state = play_match(game, list(sync_bots), 3, max_hands=2, referee=referee)
            outcome["faults"] = referee.faults
            outcome["hands"] = len(state.results)
        finally:
            for bot in sync_bots:
                bot.close()

    async def async_hand() -> tuple[int, int]:
        ticks = 0
        done = False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0)

        ticking = asyncio.ensure_future(ticker())
        state = game.new_state(5)
        state.listen()
        decisions = 0
        try:
            for seat, bot in enumerate(async_bots):
                await bot.start_match_async(game, seat, seat)
            state.deal()
            while not state.needs_deal:
                seat = state.to_act
                state.apply(await async_bots[seat].act_async(state.view(seat)))
                decisions += 1
            for seat, bot in enumerate(async_bots):
                await bot.end_hand_async(state.view(seat), state.results[-1])
                await bot.end_match_async(state.view(seat))
        finally:
            done = True
            await ticking
            for bot in async_bots:
                await bot.close_async()
        return decisions, ticks

    thread = threading.Thread(target=sync_match)
    thread.start()
    try:
        decisions, ticks = asyncio.run(async_hand())
    finally:
        thread.join(120)
    return outcome, decisions, ticks
