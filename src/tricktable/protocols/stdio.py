"""Bots as programs: one process per match, one protocol line at a time on stdin/stdout.

``SubprocessBot("node bot.js")`` starts ``node bot.js player2`` (the player's name is the last
argument, as seed 002 says) in a process group of its own, writes it the lines a
:class:`~tricktable.protocols.messages.Conversation` builds, and reads its answers, each within
what is left of the decision's time. The program runs under asyncio's subprocess support, on
the one loop every outside bot shares (:mod:`tricktable.protocols.aio`): its pipes are read as
data arrives and written as they drain, and its exit is told as it happens — even while a child
it left behind holds its output open. The synchronous methods wait for that loop; each has an
``async`` twin (:meth:`SubprocessBot.act_async`...) that an asyncio caller awaits instead.

Whatever the program does, the match goes on: each way to fail is a
:class:`~tricktable.errors.BotFault` of one kind — ``timeout`` and ``match-time`` (too slow),
``crash`` (the process died), ``closed`` (it closed a pipe but lives on), ``flood`` (a line
longer than ``max_line`` bytes, or endless chat), ``encoding`` (not UTF-8), ``malformed`` (not
an answer to the question asked) and ``illegal`` (an answer that is no legal action). The match
runner decides the penalty; :meth:`SubprocessBot.close` kills every process the program
started — its group, and what left it: a new session, a double-forked daemon
(:mod:`tricktable.processes`) — and reaps them, so that nothing outlives the match.

Reaping: asyncio's child watcher reaps the program itself as it exits (its exit status comes
from there, never from a ``waitpid`` of ours); :func:`~tricktable.processes.end_tree` reaps the
rest of its tree, which asyncio does not watch.

Chat: outside seed 002's ``tricks`` the bot's ``|CHAT|say|...|END|`` lines are held for the
table, throttled (:class:`~tricktable.chat.rules.ChatThrottle`), and taken by the
match loop after each decision (:meth:`SubprocessBot.take_chat`, ``match.relay_chat``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import shutil
import signal
from typing import Any, cast

from tricktable.bots.base import Bot
from tricktable.chat.rules import ChatThrottle
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError, BotFault
from tricktable.processes import bot_setup, end_tree, ended, started, tree_of
from tricktable.protocols import aio
from tricktable.protocols.messages import Conversation, seat_name, split_line

#: the longest line a bot may send, newline excluded
MAX_LINE = 64 * 1024
#: chat lines a bot may send while one question waits for its answer
MAX_CHAT = 1000
#: chat lines kept per bot (each cut to CHAT_CHARS characters)
CHAT_KEPT = 100
CHAT_CHARS = 200
#: bytes of a bot's standard error kept for the report of a crash
STDERR_KEPT = 4096
#: how long a bot may take to exit by itself at the end of a match, then after SIGTERM
EXIT_GRACE = 0.2
TERM_GRACE = 0.1
#: how long a program killed with its tree may take to be reaped (a process stuck in the
#: kernel); how long a program whose pipe closed may take to exit, to be called a crash
REAP_GRACE = 2.0
GONE_GRACE = 0.1


class _Program(asyncio.SubprocessProtocol):
    """One running program as its pipes and exit tell it, on the bots' loop.

    What arrives is kept here (its output, the tail of its standard error, which pipes closed,
    its exit status) and wakes the bot's call waiting in :meth:`wait`.
    """

    def __init__(self, max_line: int) -> None:
        self.max_line = max_line
        self.transport: asyncio.SubprocessTransport | None = None
        self.stdin: asyncio.WriteTransport | None = None
        self.stdout: asyncio.ReadTransport | None = None
        #: its output not yet read as lines
        self.inbox = bytearray()
        self.stderr_tail = b""
        self.eof = False  # it closed its output (or died)
        self.stdin_lost = False  # its input is closed: nothing more reaches it
        self.stdin_broken = False  # ...with lines it had not read
        self.exit_code: int | None = None
        self.paused = False
        self._waiter: asyncio.Future[None] | None = None

    # The protocol: asyncio calls these as things happen.

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.SubprocessTransport, transport)

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        raw = data.encode() if isinstance(data, str) else data  # pipes carry bytes
        if fd == 2:
            self.stderr_tail = (self.stderr_tail + raw)[-STDERR_KEPT:]
            return
        self.inbox += raw
        if len(self.inbox) > self.max_line and not self.paused and self.stdout is not None:
            # Too much unread (a flood between questions): the rest waits in the pipe, and the
            # program blocks on it, as it would with nobody reading.
            self.stdout.pause_reading()
            self.paused = True
        self._wake()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 0:
            self.stdin_lost = True
            self.stdin_broken = exc is not None
        elif fd == 1:
            self.eof = True
        self._wake()

    def process_exited(self) -> None:
        assert self.transport is not None
        self.exit_code = self.transport.get_returncode()
        self._wake()

    def resume_writing(self) -> None:
        self._wake()  # its input drained

    # The bot's side.

    @property
    def pid(self) -> int:
        assert self.transport is not None
        return self.transport.get_pid()

    @property
    def unsent(self) -> int:
        """Bytes written to the program that it has not read yet."""
        stdin = self.stdin
        return 0 if stdin is None or self.stdin_lost else stdin.get_write_buffer_size()

    def take(self, end: int) -> bytes:
        """The first ``end`` bytes of the output and the newline after them, consumed."""
        raw = bytes(self.inbox[:end])
        del self.inbox[: end + 1]
        if self.paused and len(self.inbox) <= self.max_line and self.stdout is not None:
            self.stdout.resume_reading()
            self.paused = False
        return raw

    async def wait(self, deadline: float) -> None:
        """Wait until something happens to the program, or the loop's clock reaches
        ``deadline``."""
        here = asyncio.get_running_loop()
        waiter = self._waiter = here.create_future()
        timer = here.call_at(deadline, _settle, waiter)
        try:
            await waiter
        finally:
            timer.cancel()
            self._waiter = None

    async def exited(self, within: float) -> bool:
        """Whether the program exits (and is reaped) within ``within`` seconds."""
        deadline = asyncio.get_running_loop().time() + within
        while self.exit_code is None:
            if asyncio.get_running_loop().time() >= deadline:
                return False
            await self.wait(deadline)
        return True

    def _wake(self) -> None:
        if self._waiter is not None:
            _settle(self._waiter)


def _settle(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class SubprocessBot(Bot):
    """A bot that is a program speaking the line protocol on its standard input and output.

    ``decision_time`` bounds each answer (seconds); ``match_time`` bounds the total time the
    bot spends answering in a match; ``startup_time`` is added to its first answer, which
    includes starting the program.
    """

    wants_events = True  # its conversation reads the seat's event stream
    chats = True  # what it says goes to the table (take_chat)

    def __init__(
        self,
        command: str,
        decision_time: float = 2.0,
        match_time: float = 60.0,
        startup_time: float = 3.0,
        max_line: int = MAX_LINE,
    ) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise BotError(f"bad bot command {command!r}: {exc}") from None
        if not argv:
            raise BotError("empty bot command: write cmd:PROGRAM [ARGS]")
        program = argv[0]
        if shutil.which(program) is None:
            raise BotError(f"bot command {command!r}: cannot run {program!r}: no such program")
        self.command = command
        self.argv = argv
        self.name = f"cmd:{command}"
        self.decision_time = decision_time
        self.match_time = match_time
        self.startup_time = startup_time
        self.max_line = max_line
        #: chat lines the bot sent (``|CHAT|say|text|END|``), kept (the first CHAT_KEPT)
        self.chat: list[str] = []
        #: lines to pass on to the table (``take_chat``; never in seed 002's ``tricks``)
        self.throttle = ChatThrottle()
        #: seconds spent waiting for this match's answers
        self.used = 0.0
        self.talk: Conversation | None = None
        self._program: _Program | None = None
        #: the last program's standard error, once it is closed
        self._stderr_after = b""
        self._mark = ""
        self._owner = 0  # the process that started the program (a fork's child did not)
        self._first = True
        self._broken: BotFault | None = None
        self._serial = aio.Serial()

    # ------------------------------------------------------------------ the Bot interface

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        """Start the program for a new match and tell it the match has begun."""
        super().start_match(game, seat, seed)
        aio.run(self._start(game, seat))

    def act(self, view: View) -> int:
        """Ask the program for its action; a :class:`BotFault` says why it gave none."""
        return aio.run(self._act(view))

    def end_hand(self, view: View, result: HandResult) -> None:
        """Tell the program how the hand ended (never waits for it to read)."""
        if self._running() is not None:
            aio.run(self._end_hand(view, result))

    def end_match(self, view: View) -> None:
        """Tell the program the match is over, let it exit, then end its process group."""
        if self._running() is not None:
            aio.run(self._end_match(view), cancel=False)

    def take_chat(self) -> tuple[list[str], str]:
        """The lines said for the table since last asked, and why some were dropped ("" if
        none were, or if that was said already this match); both are then forgotten."""
        return self.throttle.take()

    def fault_notice(self, fault: dict[str, Any]) -> None:
        """A bot at the table faulted: the conversation may have to mention it."""
        if self.talk is not None and self._running() is not None:
            self.talk.notice(fault)

    def close(self, graceful: bool = False) -> None:
        """End the program: SIGTERM then SIGKILL to its whole process group, and reap it.

        With ``graceful`` its input is closed first and it gets a moment to exit by itself.
        """
        if self._running() is not None:
            aio.run(self._close(graceful), cancel=False)

    # ------------------------------------------------------------ the same, for asyncio

    async def start_match_async(self, game: Game, seat: int, seed: int) -> None:
        """:meth:`start_match`, awaited from any event loop."""
        Bot.start_match(self, game, seat, seed)
        await aio.call(self._start(game, seat))

    async def act_async(self, view: View) -> int:
        """:meth:`act`, awaited from any event loop."""
        return await aio.call(self._act(view))

    async def end_hand_async(self, view: View, result: HandResult) -> None:
        """:meth:`end_hand`, awaited from any event loop."""
        if self._running() is not None:
            await aio.call(self._end_hand(view, result))

    async def end_match_async(self, view: View) -> None:
        """:meth:`end_match`, awaited from any event loop."""
        if self._running() is not None:
            await aio.call(self._end_match(view))

    async def close_async(self, graceful: bool = False) -> None:
        """:meth:`close`, awaited from any event loop."""
        if self._running() is not None:
            await aio.call(self._close(graceful))

    @property
    def pid(self) -> int | None:
        """The program's process id (also its process group's), while it runs."""
        program = self._running()
        return program.pid if program is not None else None

    @property
    def stderr_tail(self) -> bytes:
        """The last bytes the program wrote to its standard error."""
        program = self._running()
        return program.stderr_tail if program is not None else self._stderr_after

    # ------------------------------------------------ the coroutines, on the bots' loop

    async def _start(self, game: Game, seat: int) -> None:
        async with self._serial.held():
            await self._end(graceful=False)
            self.talk = Conversation(game, seat)
            await self._spawn(seat_name(seat))
            self.used = 0.0
            self._first = True
            self._broken = None
            self.throttle = ChatThrottle()
            await self._queue(self.talk.start())

    async def _act(self, view: View) -> int:
        async with self._serial.held():
            program = self._running()
            if self.talk is None or program is None:
                raise BotFault(getattr(self, "seat", -1), "closed", "the program is not running")
            talk = self.talk
            if self._broken is not None:
                raise self._broken
            lines, key, legal = talk.query(view)
            await self._send(program, "".join(lines).encode())
            query = lines[-1].rstrip("\n")
            self.throttle.decision(view.hand_number)
            fields = await self._answer(program, query)
            return talk.answer(fields, key, legal, view)

    async def _end_hand(self, view: View, result: HandResult) -> None:
        async with self._serial.held():
            if self.talk is not None and self._running() is not None:
                await self._queue(self.talk.end_hand(view, result))

    async def _end_match(self, view: View) -> None:
        async with self._serial.held():
            program = self._running()
            if self.talk is not None and program is not None:
                deadline = asyncio.get_running_loop().time() + min(self.decision_time, 1.0)
                with contextlib.suppress(BotFault):
                    await self._send(program, "".join(self.talk.end_match(view)).encode())
                    await self._flush(program, deadline)
            await self._end(graceful=True)

    async def _close(self, graceful: bool) -> None:
        async with self._serial.held():
            await self._end(graceful)

    # --------------------------------------------------------------------------- process

    def _running(self) -> _Program | None:
        """The program, if this process started it and it has not been closed."""
        if self._program is not None and self._owner != os.getpid():
            # A fork's child: the program, its pipes and the loop that served them are the
            # parent's.
            self._program = None
        return self._program

    async def _spawn(self, player: str) -> None:
        mark, env, adopt = bot_setup()
        _quiet_reaps()
        here = asyncio.get_running_loop()
        program = _Program(self.max_line)
        try:
            transport, _ = await here.subprocess_exec(
                lambda: program,
                *self.argv,
                player,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                close_fds=True,
                start_new_session=True,
                env=env,
                preexec_fn=adopt,  # one libc call, looked up before the fork
            )
        except OSError as exc:
            raise BotError(f"cannot start bot {self.command!r}: {exc.strerror or exc}") from None
        program.transport = transport
        program.stdin = cast(asyncio.WriteTransport, transport.get_pipe_transport(0))
        program.stdout = cast(asyncio.ReadTransport, transport.get_pipe_transport(1))
        # Told when its input has drained completely, not merely below a high-water mark.
        program.stdin.set_write_buffer_limits(high=0)
        self._program = program
        self._mark = mark
        self._owner = os.getpid()
        started(program.pid, mark)
        _SPAWNED.add(program.pid)
        aio.track(self)

    async def _end(self, graceful: bool) -> None:
        """End the running program, if any, with all it started (see :meth:`close`)."""
        program = self._running()
        if program is None:
            return
        self._program = None
        pid = program.pid
        # Its processes now: one that it leaves behind as it exits is adopted by us with
        # nothing of the bot's about it but its pid.
        seen = tree_of(pid, self._mark) if graceful else frozenset()
        if program.stdin is not None and not program.stdin.is_closing():
            program.stdin.abort()  # its input ends now, whatever it had not read
        if not (graceful and await program.exited(EXIT_GRACE)) and program.exit_code is None:
            # Only while it lives: reaped, its pid is reserved no more unless a process is
            # still in its group, which end_tree finds and kills all the same.
            _signal_group(pid, signal.SIGTERM)
            await program.exited(TERM_GRACE)
        # Everything it started too — its group, and what left it (a new session, a daemon),
        # even when the program has exited: a process still in its group or session keeps
        # its pid (the group's and session's id) from being reused.
        await aio.in_thread(end_tree, pid, self._mark, seen)
        await program.exited(REAP_GRACE)
        if program.transport is not None:
            program.transport.close()
        self._stderr_after = program.stderr_tail
        ended(pid)
        _SPAWNED.discard(pid)
        aio.untrack(self)

    async def _queue(self, lines: list[str]) -> None:
        """Send lines without waiting: what the pipe cannot take now drains meanwhile."""
        program = self._running()
        if program is None or self._broken is not None:
            return
        try:
            await self._send(program, "".join(lines).encode())
        except BotFault as fault:
            self._broken = fault

    async def _send(self, program: _Program, data: bytes) -> None:
        if program.stdin_lost or program.stdin is None:
            raise await self._gone(program, "stopped reading its input (broken pipe)")
        program.stdin.write(data)

    async def _flush(self, program: _Program, deadline: float) -> None:
        """Wait until the program has read everything sent, at most until ``deadline``."""
        here = asyncio.get_running_loop()
        while program.unsent:
            if here.time() >= deadline:
                raise BotFault(self.seat, "timeout", "does not read its input")
            await program.wait(deadline)
        if program.stdin_broken:
            raise await self._gone(program, "stopped reading its input (broken pipe)")

    async def _answer(self, program: _Program, query: str) -> list[str]:
        """The fields of the next answer line (chat lines are kept and skipped)."""
        here = asyncio.get_running_loop()
        start = here.time()
        limit = self.decision_time + (self.startup_time if self._first else 0.0)
        self._first = False
        left_in_match = self.match_time - self.used
        kind = "timeout"
        if left_in_match < limit:
            limit, kind = max(left_in_match, 0.0), "match-time"
        deadline = start + limit
        chats = 0
        # Seed 002's ``tricks`` passes no chat on: its lines are kept only.
        talk_plain = self.talk is None or self.talk.plain
        try:
            while True:
                text = await self._next_line(program, deadline, query, limit, kind)
                fields = split_line(text)
                if fields is None:
                    raise BotFault(
                        self.seat,
                        "malformed",
                        f"answered {_show(text)} to {query}; expected |RESPONSE|...|END|",
                    )
                if fields[0] != "CHAT":
                    return fields
                chats += 1
                if chats > MAX_CHAT:
                    self.throttle.said_elsewhere()  # this fault says it
                    raise BotFault(
                        self.seat, "flood", f"sent over {MAX_CHAT} chat lines before answering"
                    )
                text = "|".join(fields[2:])[:CHAT_CHARS]
                if len(self.chat) < CHAT_KEPT:
                    self.chat.append(text)
                if not talk_plain:
                    self.throttle.hear(text)
        finally:
            self.used += here.time() - start

    async def _next_line(
        self, program: _Program, deadline: float, query: str, limit: float, kind: str
    ) -> str:
        """The next complete line from the program, decoded; waits until ``deadline``."""
        here = asyncio.get_running_loop()
        while True:
            # What it wrote before closing its output, or exiting, still counts: asyncio
            # delivers a pipe's data before it tells of the pipe's end or the exit.
            end = program.inbox.find(b"\n")
            if end >= 0:
                return self._decode(program, end, query)
            if len(program.inbox) > self.max_line:
                raise BotFault(
                    self.seat,
                    "flood",
                    f"sent a line longer than {self.max_line} bytes "
                    f"(starting {_show(bytes(program.inbox[:40]))}) in answer to {query}",
                )
            if program.eof:
                raise await self._gone(program, f"closed its output before answering {query}")
            if program.exit_code is not None:
                # A child it left behind may hold its output open: the exit says it died.
                raise await self._gone(program, f"exited before answering {query}")
            if program.stdin_broken:
                raise await self._gone(program, f"stopped reading its input before {query}")
            if here.time() >= deadline:
                raise self._late(program, query, limit, kind)
            await program.wait(deadline)

    def _decode(self, program: _Program, end: int, query: str) -> str:
        raw = program.take(end)
        if len(raw) > self.max_line:
            raise BotFault(
                self.seat,
                "flood",
                f"sent a line of {len(raw)} bytes (the limit is {self.max_line}) "
                f"in answer to {query}",
            )
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BotFault(
                self.seat,
                "encoding",
                f"sent bytes that are not UTF-8 ({exc.reason} at byte {exc.start}: "
                f"{_show(raw[:60])}) in answer to {query}",
            ) from None

    def _late(self, program: _Program, query: str, limit: float, kind: str) -> BotFault:
        what = "decision" if kind == "timeout" else "match"
        inbox = program.inbox
        partial = f"; it had sent only {_show(bytes(inbox[:60]))}" if inbox else ""
        if program.unsent:
            partial += "; it had not read all its input"
        detail = f"no answer to {query} within the {what} limit of {limit:.3g} s{partial}"
        return BotFault(self.seat, kind, detail)

    async def _gone(self, program: _Program, what: str) -> BotFault:
        """The fault of a program whose pipe closed: ``crash`` if it died, else ``closed``."""
        if not await program.exited(GONE_GRACE):
            return BotFault(self.seat, "closed", what)
        assert program.exit_code is not None
        tail = program.stderr_tail.decode("utf-8", "replace").strip().splitlines()
        said = f"; its last error output: {tail[-1][:200]!r}" if tail else ""
        return BotFault(self.seat, "crash", f"{_status(program.exit_code)} ({what}){said}")


def _show(data: bytes | str, limit: int = 80) -> str:
    """Data quoted for an error message, cut to ``limit`` characters."""
    text = repr(data[:limit])
    return text + ("..." if len(data) > limit else "")


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _status(code: int) -> str:
    """How a program ended, from asyncio's return code (``-N``: killed by signal N)."""
    if code >= 0:
        return f"exited with status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"killed by {name}"


#: the programs this process has started and not yet closed, by pid
_SPAWNED: set[int] = set()


class _ReapedElsewhere(logging.Filter):
    """Drops asyncio's warning that one of our programs was reaped before its watcher could:
    a worker told to stop ends and reaps them itself (``processes.end_all``), then exits."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if "Unknown child process pid" in message or "exit status already read" in message:
            args = record.args
            return not (isinstance(args, tuple) and args and args[0] in _SPAWNED)
        return True


_filter_on = False


def _quiet_reaps() -> None:
    global _filter_on
    if not _filter_on:
        logging.getLogger("asyncio").addFilter(_ReapedElsewhere())
        _filter_on = True
