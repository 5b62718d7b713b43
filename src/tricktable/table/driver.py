"""The asyncio driver of a :class:`~tricktable.table.table.Table`: it plays the match.

:func:`run` deals each hand, asks the bots for their actions and waits for people (who act
through ``Table.submit``), hand after hand until the match ends; a person who plays from this
process (``Person.attend``: the keyboard, a script) runs beside it. Bot failures go to the
table's referee, whose rules both loops follow (:mod:`tricktable.match`): a failed turn is
:meth:`Referee.turn_failed <tricktable.match.Referee.turn_failed>` (what the bot said, then the
fault), an action the engine refuses a fault, and the rounds of calls that start the bots and
end a hand and the match are the referee's (:data:`tricktable.match.Round`), the same
generators the match loop runs — each fault with the game's penalty, a substitute where the
seat is handed on, and an entry in the faults and events. What is the driver's own: awaiting
each call in the bot's thread, and people, who act through ``Table.submit``.

A bot's calls run in a daemon thread of its own, never in the event loop (many tables share
one loop), timed by the referee's :class:`~tricktable.botcalls.Clock` — the one the match
loop times its plug-ins with: the same limits, faults and penalty (``decision_time`` plus
``grace``, plus ``startup_time`` for a bot's first call; ``match_time`` in all). Why not
``asyncio.to_thread``: an in-process bot that hangs cannot be stopped, and a thread of the
default executor would hold ``asyncio.run`` (and the interpreter) at exit; a daemon thread is
abandoned with the bot. Program and web bots keep the limits inside ``act`` themselves too.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from tricktable.botcalls import Clock
from tricktable.bots.base import Bot
from tricktable.engine.trick import TrickState
from tricktable.errors import BotFault, TricktableError
from tricktable.match import (
    DEAL,
    HAND_OVER,
    START,
    TURNS,
    Round,
    phases,
    relay_chat,
)
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
    tempo: float | None = None,
    hand_cap: int | None = None,
) -> TrickState:
    """Play the table's match to its end (or until it has ``max_hands`` hands); its state.

    ``grace`` is the time a bot gets beyond its ``decision_time`` before the driver calls it
    a timeout; ``person_time``, if given, is the longest a person (or a remote connection)
    may take over one action — past it the seat faults like a bot and is handed on. ``deal``
    deals each hand (default: ``Table.deal_next()``, from the match's seed). ``pace``, if
    given, is awaited after every action before the next is asked for: a screen's pause to
    let a trick be seen before it is collected, or to hold the next deal while a hand's
    summary is read (the state is not touched meanwhile). ``tempo``, if given, scales the
    characters' pauses before they act (``CharacterBot.tempo_scale``): 0 where the table
    shows every move at once (a server at ``--pace 0``, a test). ``hand_cap``, if given,
    ends a match that has played that many hands (:func:`capped`: the leader wins; a forfeit
    in the record) where ``max_hands`` only stops playing it. The bots are
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
    if hand_cap is not None and not (isinstance(hand_cap, int) and hand_cap >= 1):
        raise TricktableError(f"hand_cap is a number of hands (1 or more), not {hand_cap!r}")
    if tempo is not None:
        if not tempo >= 0:
            raise TricktableError("tempo must be a scale of 0 or more")
        for player in table.players:
            if hasattr(player, "tempo_scale"):  # a character (CharacterBot)
                player.tempo_scale = tempo
    clock = table.referee.clock
    clock.grace = grace
    table.resume()
    # Started before the driver moves: a person's display follows the match from its start.
    attending = [
        asyncio.ensure_future(player.attend(table, seat))
        for seat, player in enumerate(table.players)
        if isinstance(player, Person)
    ]
    try:
        driving = _drive(table, clock, max_hands, person_time, deal, pace, hand_cap)
        await _beside(driving, attending)
    finally:
        table.stop()
        clock.close()
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
    clock: Clock,
    max_hands: int | None,
    person_time: float | None,
    deal: TableDealer | None,
    pace: Pacer | None = None,
    hand_cap: int | None = None,
) -> None:
    """Play the match's :func:`~tricktable.match.phases` — the referee loop the match loop
    follows too — each phase's calls awaited (a bot's in its thread, a person's submission)."""

    def halted() -> bool:
        return table.ended

    cap = None if hand_cap is None else (lambda: capped(table, hand_cap))
    for phase in phases(table.state, max_hands, halted=halted, cap=cap):
        if phase == TURNS:
            await _play_out(table, clock, person_time, pace)
        elif phase == DEAL:
            if deal is None:
                table.deal_next()
            else:
                deal(table)
        elif phase == HAND_OVER:
            await _end_hand(table, clock)
        elif phase == START:
            await _start(table, clock)
        else:  # END
            await _end_match(table, clock)


def capped(table: Table, cap: int) -> bool:
    """End ``table``'s match if it has played ``cap`` hands (between hands); whether it did.

    The leader wins: the side (or lone seat) furthest behind forfeits, after a line at the
    table says why — the only ending a record can express besides the game's own (a
    ``forfeit`` note), so the record replays to it. Where the game has two sides the forfeit
    makes the other the winner; with more sides a forfeit names no winner (``winner`` null),
    and the line's scores say who led. Two sides level at the cap play on, hand by hand, until one
    leads; still level at twice the cap, the side that dealt the last hand concedes (the
    match must end, and that side is known to every seat).
    """
    state = table.state
    hands = len(state.history)
    if state.is_over or hands < cap:
        return False
    loser = trailing(state)
    if loser is None:
        if hands < 2 * cap:
            return False  # two sides level: the next hand decides
        loser = state.game.team_of(state.dealer)
    scores = (" to " if len(state.scores) == 2 else ", ").join(str(s) for s in state.scores)
    table.end_match(
        loser,
        f"This table ends a match after {cap} hands: it ends here, the scores as they "
        f"stand ({scores}).",
    )
    return True


def trailing(state: TrickState) -> int | None:
    """The seat that forfeits for the side furthest behind (side s's first seat is seat s),
    or None where two sides are level; with more sides, a tie for last goes to the later.

    The better score is the game's (``lower_wins``: Hearts' lowest)."""
    scores = list(state.scores)
    if state.game.lower_wins:
        scores = [-s for s in scores]
    if len(scores) == 2 and scores[0] == scores[1]:
        return None
    worst = min(scores)
    return max(side for side, s in enumerate(scores) if s == worst)


async def _start(table: Table, clock: Clock) -> None:
    """Give each bot its seat and seed (once a table: a driver started again skips this)."""
    if table.started:
        return
    table.started = True
    referee = table.referee
    referee.start(table.seed)
    referee.faults = list(table.earlier_faults)  # a resumed match's, kept
    for seat in table.substituted:  # a resumed match's substitutes play on as such
        referee.restore(seat, table.players[seat])
    await _make_calls(referee.starting(table.game, table.players, table.seed, _bots(table)), clock)
    unstarted, referee.unstarted = referee.unstarted, []
    for seat, exc in unstarted:
        table.fault(seat, exc, deciding=False)  # as the match loop charges it


async def _play_out(
    table: Table, clock: Clock, person_time: float | None, pace: Pacer | None = None
) -> None:
    """Ask whoever is to act until the hand ends (or the match, or the table stops)."""
    state = table.state
    while state.to_act >= 0 and not table.ended:
        moves = table.moves
        await _act(table, clock, person_time)
        if pace is not None and table.moves != moves:
            await pace(table)


async def _act(table: Table, clock: Clock, person_time: float | None) -> None:
    """One action of whoever is to act (a person's, a bot's, or a fault)."""
    seat = table.state.to_act
    if table.is_person(seat):
        await _wait_for_person(table, seat, person_time)
        return
    bot = table.players[seat]
    moves = table.moves
    try:
        action = await _decide(clock, seat, bot, table.view(seat))
    except Exception as exc:
        table.turn_failed(seat, exc)
        return
    if table.moves != moves or table.ended:
        # The table moved on while the bot thought: its answer is stale, but what it said
        # meanwhile is still said.
        relay_chat(table.state, table.players, seat, table.referee, say=table.chat)
        return
    table.answer(seat, action)  # the referee's rule for an answer, as in the match loop


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


async def _end_hand(table: Table, clock: Clock) -> None:
    """Tell the bots the hand's result (the referee's round, as in ``play_hand``)."""
    referee = table.referee
    referee.note_seats(table.players)
    told = referee.told & _bots(table)  # those that do something at a hand's end
    if told:
        await _make_calls(referee.hand_ended(table.state, table.players, told, table.fault), clock)


async def _end_match(table: Table, clock: Clock) -> None:
    """Tell each bot the match is over; close the referee's substitutes (as ``end_bots``)."""
    await _make_calls(table.referee.match_ended(table.state, table.players, _bots(table)), clock)


def _bots(table: Table) -> int:
    """The seats played by bots (not people, who submit), one bit a seat."""
    bits = 0
    for seat in range(table.num_seats):
        if not table.is_person(seat):
            bits |= 1 << seat
    return bits


async def _make_calls(calls: Round, clock: Clock) -> None:
    """Make the calls of a round of the referee's (as :func:`tricktable.match.make_calls`
    does), each awaited in the bot's thread."""
    value: Any = None
    error: Exception | None = None
    while True:
        try:
            call = calls.send(value) if error is None else calls.throw(error)
        except StopIteration:
            return
        seat, bot, limit, fn, args = call
        try:
            value, error = await _call(clock, seat, bot, limit, fn, *args), None
        except Exception as exc:
            value, error = None, exc


async def _call(
    clock: Clock, seat: int, bot: Bot, limit: float, fn: Callable[..., Any], *args: Any
) -> Any:
    """``fn(*args)`` in the bot's thread, awaited ``limit`` seconds plus the clock's grace; a
    ``timeout`` :class:`BotFault` past it (the thread abandoned, as the match loop does)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def reply(value: Any, error: BaseException | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
            loop.call_soon_threadsafe(_settle, future, value, error)

    clock.submit(seat, bot, fn, args, reply)
    total = limit + clock.grace
    try:
        return await asyncio.wait_for(future, total)
    except TimeoutError:
        raise clock.give_up(seat, bot, total) from None


async def _decide(clock: Clock, seat: int, bot: Bot, view: Any) -> Any:
    """The bot's answer to ``act``; a :class:`BotFault` past its decision or match time."""
    limit = clock.decision_limit(bot)
    start = time.monotonic()
    try:
        action = await _call(clock, seat, bot, limit, bot.act, view)
    finally:
        late = clock.spent(seat, bot, time.monotonic() - start)
    if late is not None:
        raise late
    return action


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # given up on (a timeout, a cancellation)
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)
