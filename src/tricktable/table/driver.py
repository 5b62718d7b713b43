"""The asyncio driver of a :class:`~tricktable.table.table.Table`: it plays the match.

:func:`run` deals each hand, asks the bots for their actions and waits for people (who act
through ``Table.submit``), hand after hand until the match ends; a person who plays from this
process (``Person.attend``: the keyboard, a script) runs beside it. Bot failures go to the
table's referee exactly as :func:`tricktable.match.play_hand` sends them: an exception from
``act``, an action the engine refuses, a timeout — each is a fault, with the game's penalty,
a substitute where the seat is handed on, and an entry in the faults and events.

A bot's calls run in a daemon thread of its own (one a bot, so a bot that keeps state per
thread — a database connection — keeps working), never in the event loop: many tables share
one loop. Why not ``asyncio.to_thread``: an in-process bot that hangs cannot be stopped, and a
thread of the default executor would hold ``asyncio.run`` (and the interpreter) at exit; a
daemon thread is simply abandoned with the bot. Program and web bots keep the
``RunnerOptions`` limits inside ``act`` themselves; the driver's own limit, ``decision_time``
plus ``grace`` (plus ``startup_time`` for a bot's first call), is what bounds the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from tricktable.bots.base import Bot
from tricktable.engine.trick import TrickState
from tricktable.errors import BotFault, IllegalAction, TricktableError
from tricktable.match import RunnerOptions, relay_chat
from tricktable.seeds import derive_seed
from tricktable.table.table import Person, Table

#: deals the next hand at a table (``Table.deal_next`` with the hand's cards)
TableDealer = Callable[[Table], None]
#: awaited after each action at a table: a screen's pause to show it (see :func:`run`)
Pacer = Callable[[Table], Awaitable[None]]


async def run(
    table: Table,
    max_hands: int | None = None,
    grace: float = 1.0,
    person_time: float | None = None,
    deal: TableDealer | None = None,
    pace: Pacer | None = None,
) -> TrickState:
    """Play the table's match to its end (or until it has ``max_hands`` hands); its state.

    ``grace`` is the time a bot gets beyond its ``decision_time`` before the driver calls it
    a timeout; ``person_time``, if given, is the longest a person (or a remote connection)
    may take over one action — past it the seat faults like a bot and is handed on. ``deal``
    deals each hand (default: ``Table.deal_next()``, from the match's seed). ``pace``, if
    given, is awaited after every action before the next is asked for: a screen's pause to
    let a trick be seen before it is collected, or to hold the next deal while a hand's
    summary is read (the state is not touched meanwhile). The bots are
    started here (once a table) and told when each hand and the match end. Each person's
    :meth:`~tricktable.table.table.Person.attend` runs beside the driver from the start; one
    that raises stops the match and this raises it. The table is stopped
    (:meth:`Table.stop`) when this returns, raises or is cancelled. Closing the table's bots
    is the caller's: :meth:`Table.close`.
    """
    if grace < 0:
        raise TricktableError("grace must not be negative")
    if person_time is not None and not person_time > 0:
        raise TricktableError("person_time must be a positive number of seconds")
    calls = _Calls(table.referee.options, grace)
    table.resume()
    # Started before the driver moves: a person's display follows the match from its start.
    attending = [
        asyncio.ensure_future(player.attend(table, seat))
        for seat, player in enumerate(table.players)
        if isinstance(player, Person)
    ]
    try:
        driving = _drive(table, calls, max_hands, person_time, deal, pace)
        await _beside(driving, attending)
    finally:
        table.stop()
        calls.close()
        for task in attending:
            task.cancel()
        # Let them unwind (a keyboard's wait is dropped); what they raised was dealt with.
        await asyncio.gather(*attending, return_exceptions=True)
    return table.state


async def _beside(
    driving: Coroutine[Any, Any, None], attending: Sequence[asyncio.Future[None]]
) -> None:
    """Run ``driving`` to its end while ``attending`` run; the first of them to raise stops it."""
    driver = asyncio.ensure_future(driving)
    pending: set[asyncio.Future[None]] = {driver, *attending}
    try:
        while driver in pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is not driver and not task.cancelled() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        driver.result()
    finally:
        if not driver.done():
            driver.cancel()
            await asyncio.gather(driver, return_exceptions=True)


async def _drive(
    table: Table,
    calls: _Calls,
    max_hands: int | None,
    person_time: float | None,
    deal: TableDealer | None,
    pace: Pacer | None = None,
) -> None:
    """Deal and play hand after hand until the match ends (or ``max_hands``, or a stop)."""
    state = table.state
    await _start(table, calls)
    while not table.ended:
        if state.needs_deal:
            if max_hands is not None and len(state.history) >= max_hands:
                break
            if deal is None:
                table.deal_next()
            else:
                deal(table)
        await _play_out(table, calls, person_time, pace)
        if table.ended and not state.is_over:
            break  # stopped from outside, in the middle of a hand
        if not (state.needs_deal or state.is_over):
            raise TricktableError(f"the engine stopped mid-hand with nobody to act: {state!r}")
        if len(state.results) == len(state.history):  # not ended by a forfeit
            await _end_hand(table, calls)
    await _end_match(table, calls)


async def _start(table: Table, calls: _Calls) -> None:
    """Give each bot its seat and seed (once a table: a driver started again skips this)."""
    if table.started:
        return
    table.started = True
    table.referee.start(table.seed)
    table.referee.faults = list(table.earlier_faults)  # a resumed match's, kept
    for seat in table.substituted:  # a resumed match's substitutes play on as such
        table.referee.restore(seat, table.players[seat])
    options = table.referee.options
    limit = options.startup_time + options.decision_time
    for seat, bot in enumerate(table.players):
        if table.is_person(seat):
            continue
        seed = derive_seed(table.seed, "seat", seat)
        # A bot that cannot start is a mistake in the table's set-up, not a fault in play.
        await calls.call(seat, bot, limit, bot.start_match, table.game, seat, seed)


async def _play_out(
    table: Table, calls: _Calls, person_time: float | None, pace: Pacer | None = None
) -> None:
    """Ask whoever is to act until the hand ends (or the match, or the table stops)."""
    state = table.state
    while state.to_act >= 0 and not table.ended:
        moves = table.moves
        await _act(table, calls, person_time)
        if pace is not None and table.moves != moves:
            await pace(table)


async def _act(table: Table, calls: _Calls, person_time: float | None) -> None:
    """One action of whoever is to act (a person's, a bot's, or a fault)."""
    seat = table.state.to_act
    if table.is_person(seat):
        await _wait_for_person(table, seat, person_time)
        return
    bot = table.players[seat]
    moves = table.moves
    try:
        action = await calls.decide(seat, bot, table.view(seat))
    except Exception as exc:
        relay_chat(table.state, table.players, seat, table.referee, say=table.chat)
        table.fault(seat, exc)
        return
    # What a program or HTTP bot said while deciding goes to the table before its move.
    relay_chat(table.state, table.players, seat, table.referee, say=table.chat)
    if table.moves != moves or table.ended:
        return  # the table moved on while the bot thought: its answer is stale
    try:
        table.play_for(seat, action)
    except IllegalAction as exc:
        table.fault(seat, exc)


async def _wait_for_person(table: Table, seat: int, person_time: float | None) -> None:
    """Wait until ``seat`` has submitted its action (or its time is up: a fault)."""
    state = table.state
    loop = asyncio.get_running_loop()
    deadline = None if person_time is None else loop.time() + person_time
    moves = table.moves
    while state.to_act == seat and table.moves == moves and not table.ended:
        since = table.version
        if deadline is None:
            await table.changed(since)
            continue
        left = deadline - loop.time()
        if left <= 0:
            detail = f"no action within {person_time:g} s"
            table.fault(seat, BotFault(seat, "timeout", detail))
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(table.changed(since), left)


async def _end_hand(table: Table, calls: _Calls) -> None:
    """Tell each bot the hand's result; a bot failing to listen faults, as in ``play_hand``."""
    result = table.state.results[-1]
    limit = calls.options.decision_time
    for seat in range(table.num_seats):
        bot = table.players[seat]
        if table.is_person(seat):
            continue
        try:
            await calls.call(seat, bot, limit, bot.end_hand, table.view(seat), result)
        except Exception as exc:
            table.fault(seat, exc)


async def _end_match(table: Table, calls: _Calls) -> None:
    """Tell each bot the match is over; close the referee's substitutes (as ``end_bots``)."""
    limit = calls.options.decision_time
    for seat in range(table.num_seats):
        bot = table.players[seat]
        if table.is_person(seat):
            continue
        try:
            await calls.call(seat, bot, limit, bot.end_match, table.view(seat))
        except Exception:
            # The match is decided: a bot failing to say goodbye changes nothing.
            with contextlib.suppress(Exception):
                bot.close()
    table.referee.close_substitutes()


class _Calls:
    """Calls into the bots of one run: a worker thread a bot, time limits, time used."""

    def __init__(self, options: RunnerOptions, grace: float) -> None:
        self.options = options
        self.grace = grace
        self.workers: dict[int, _Worker] = {}
        self.used: dict[int, float] = {}

    async def decide(self, seat: int, bot: Bot, view: Any) -> Any:
        """The bot's answer to ``act``; a :class:`BotFault` past its decision or match time."""
        options = self.options
        key = id(bot)
        limit = options.decision_time
        if key not in self.used:
            limit += options.startup_time
            self.used[key] = 0.0
        loop = asyncio.get_running_loop()
        start = loop.time()
        try:
            action = await self.call(seat, bot, limit, bot.act, view)
        finally:
            self.used[key] += loop.time() - start
        if self.used[key] > options.match_time + self.grace:
            raise BotFault(seat, "match-time", f"took over {options.match_time:g} s in this match")
        return action

    async def call(
        self, seat: int, bot: Bot, limit: float, fn: Callable[..., Any], *args: Any
    ) -> Any:
        """``fn(*args)`` in the bot's thread, within ``limit`` seconds (plus the grace)."""
        key = id(bot)
        worker = self.workers.get(key)
        if worker is None:
            worker = self.workers[key] = _Worker(f"tricktable-seat-{seat}")
        total = limit + self.grace
        try:
            return await asyncio.wait_for(worker.call(seat, fn, *args), total)
        except TimeoutError:
            # The thread cannot be stopped: it is abandoned, with the bot the referee closes.
            del self.workers[key]
            worker.stop()
            raise BotFault(seat, "timeout", f"no answer within {total:g} s") from None

    def close(self) -> None:
        for worker in self.workers.values():
            worker.stop()
        self.workers = {}


class _Worker:
    """A daemon thread that runs one bot's calls in order."""

    def __init__(self, name: str) -> None:
        self.jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name=name, daemon=True).start()

    def call(self, seat: int, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self.jobs.put((loop, future, seat, fn, args))
        return future

    def stop(self) -> None:
        self.jobs.put(None)

    def _serve(self) -> None:
        while (job := self.jobs.get()) is not None:
            loop, future, seat, fn, args = job
            try:
                outcome: tuple[Any, BaseException | None] = (fn(*args), None)
            except Exception as exc:
                outcome = (None, exc)
            except BaseException as exc:  # SystemExit in a bot: a crash, not ours to obey
                outcome = (None, BotFault(seat, "crash", f"raised {type(exc).__name__}"))
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, *outcome)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # given up on (a timeout, a cancellation)
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)
