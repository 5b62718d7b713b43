"""Bots as programs: one process per match, one protocol line at a time on stdin/stdout.

``SubprocessBot("node bot.js")`` starts ``node bot.js player2`` (the player's name is the last
argument, as seed 002 says) in a process group of its own, writes it the lines a
:class:`~tricktable.protocols.messages.Conversation` builds, and reads its answers without ever
blocking: every read and write waits in ``poll`` for at most what is left of the decision's time.

Whatever the program does, the match goes on: each way to fail is a
:class:`~tricktable.errors.BotFault` of one kind — ``timeout`` and ``match-time`` (too slow),
``crash`` (the process died), ``closed`` (it closed a pipe but lives on), ``flood`` (a line
longer than ``max_line`` bytes, or endless chat), ``encoding`` (not UTF-8), ``malformed`` (not
an answer to the question asked) and ``illegal`` (an answer that is no legal action). The match
runner decides the penalty; :meth:`SubprocessBot.close` kills every process the program
started — its group, and what left it: a new session, a double-forked daemon
(:mod:`tricktable.processes`) — and reaps them, so that nothing outlives the match.

Chat: outside seed 002's ``tricks`` the bot's ``|CHAT|say|...|END|`` lines are held for the
table, throttled (:class:`~tricktable.chat.rules.ChatThrottle`), and taken by the
match loop after each decision (:meth:`SubprocessBot.take_chat`, ``match.relay_chat``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import shlex
import shutil
import signal
import subprocess
import time
from typing import Any

from tricktable.bots.base import Bot
from tricktable.chat.rules import ChatThrottle
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError, BotFault
from tricktable.processes import bot_setup, end_tree, ended, started, tree_of
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

_READ = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR
_CHUNK = 65536


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
        #: the last lines the bot wrote to standard error
        self.stderr_tail = b""
        self.proc: subprocess.Popen[bytes] | None = None
        self.talk: Conversation | None = None
        self._out = bytearray()
        self._in = bytearray()
        self._poll: Any = None
        self._fds = (-1, -1, -1)
        self._pidfd = -1
        self._mark = ""
        self._first = True
        self._broken: BotFault | None = None

    # ------------------------------------------------------------------ the Bot interface

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        """Start the program for a new match and tell it the match has begun."""
        super().start_match(game, seat, seed)
        self.close()
        self.talk = Conversation(game, seat)
        self._spawn(seat_name(seat))
        self.used = 0.0
        self._first = True
        self._broken = None
        self.throttle = ChatThrottle()
        self._queue(self.talk.start())

    def act(self, view: View) -> int:
        """Ask the program for its action; a :class:`BotFault` says why it gave none."""
        talk = self._talk()
        if self._broken is not None:
            raise self._broken
        lines, key, legal = talk.query(view)
        self._out += "".join(lines).encode()
        query = lines[-1].rstrip("\n")
        self.throttle.decision(view.hand_number)
        fields = self._answer(query)
        return talk.answer(fields, key, legal, view)

    def end_hand(self, view: View, result: HandResult) -> None:
        """Tell the program how the hand ended (never waits for it)."""
        if self.talk is not None and self.proc is not None:
            self._queue(self.talk.end_hand(view, result))

    def end_match(self, view: View) -> None:
        """Tell the program the match is over, let it exit, then end its process group."""
        if self.talk is not None and self.proc is not None:
            self._out += "".join(self.talk.end_match(view)).encode()
            with contextlib.suppress(BotFault):
                self._flush(time.monotonic() + min(self.decision_time, 1.0))
        self.close(graceful=True)

    def take_chat(self) -> tuple[list[str], str]:
        """The lines said for the table since last asked, and why some were dropped ("" if
        none were, or if that was said already this match); both are then forgotten."""
        return self.throttle.take()

    def fault_notice(self, fault: dict[str, Any]) -> None:
        """A bot at the table faulted: the conversation may have to mention it."""
        if self.talk is not None and self.proc is not None:
            self.talk.notice(fault)

    def close(self, graceful: bool = False) -> None:
        """End the program: SIGTERM then SIGKILL to its whole process group, and reap it.

        With ``graceful`` its input is closed first and it gets a moment to exit by itself.
        """
        proc = self.proc
        if proc is None:
            return
        self.proc = None
        stdin_fd, stdout_fd, stderr_fd = self._fds
        # Its processes now: one that it leaves behind as it exits is adopted by us with
        # nothing of the bot's about it but its pid.
        seen = tree_of(proc.pid, self._mark) if graceful else frozenset()
        with contextlib.suppress(OSError):
            os.close(stdin_fd)
        pgid = proc.pid  # start_new_session: the program leads its own group
        if not (graceful and _wait_exit(proc.pid, EXIT_GRACE)):
            _signal_group(pgid, signal.SIGTERM)
            _wait_exit(proc.pid, TERM_GRACE)
        # Everything it started too — its group, and what left it (a new session, a daemon) —
        # even when the leader has exited: it is not reaped yet, so its pid (the id of its
        # group and session) cannot have been reused.
        end_tree(proc.pid, self._mark, seen)
        proc.wait()
        ended(proc.pid)
        for fd in (stdout_fd, stderr_fd, self._pidfd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._fds = (-1, -1, -1)
        self._pidfd = -1
        self._poll = None
        self._out.clear()
        self._in.clear()

    @property
    def pid(self) -> int | None:
        """The program's process id (also its process group's), while it runs."""
        return self.proc.pid if self.proc is not None else None

    # --------------------------------------------------------------------------- process

    def _talk(self) -> Conversation:
        if self.talk is None or self.proc is None:
            raise BotFault(getattr(self, "seat", -1), "closed", "the program is not running")
        return self.talk

    def _spawn(self, player: str) -> None:
        mark, env, adopt = bot_setup()
        try:
            proc = subprocess.Popen(
                [*self.argv, player],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                start_new_session=True,
                env=env,
                preexec_fn=adopt,  # one libc call, looked up before the fork
            )
        except OSError as exc:
            raise BotError(f"cannot start bot {self.command!r}: {exc.strerror or exc}") from None
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        # Raw descriptors, non-blocking: the file objects would buffer and block.
        fds = (
            os.dup(proc.stdin.fileno()),
            os.dup(proc.stdout.fileno()),
            os.dup(proc.stderr.fileno()),
        )
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
        for fd in fds:
            os.set_blocking(fd, False)
        self.proc = proc
        self._mark = mark
        started(proc.pid, mark)
        self._fds = fds
        poll = select.poll()
        poll.register(fds[1], _READ)
        poll.register(fds[2], _READ)
        # A descriptor that becomes readable when the program exits: a child it leaves behind
        # may hold its output open, so the end of output alone would not say it died.
        self._pidfd = -1
        with contextlib.suppress(AttributeError, OSError):
            self._pidfd = os.pidfd_open(proc.pid)
            poll.register(self._pidfd, select.POLLIN)
        self._poll = poll
        self._out.clear()
        self._in.clear()
        self.stderr_tail = b""

    def _queue(self, lines: list[str]) -> None:
        """Send lines without waiting: what the pipe cannot take now goes with the next query."""
        if self.proc is None:
            return
        self._out += "".join(lines).encode()
        if self._broken is None:
            try:
                self._write()
            except BotFault as fault:
                self._broken = fault

    def _write(self) -> None:
        try:
            n = os.write(self._fds[0], self._out)
        except BlockingIOError:
            return
        except (BrokenPipeError, ConnectionResetError):
            raise self._gone("stopped reading its input (broken pipe)") from None
        except OSError as exc:
            if exc.errno == errno.EAGAIN:
                return
            raise self._gone(f"cannot be written to: {exc.strerror}") from None
        del self._out[:n]

    def _flush(self, deadline: float) -> None:
        """Write everything queued, waiting at most until ``deadline``."""
        while self._out:
            self._write()
            if not self._out:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFault(self.seat, "timeout", "does not read its input")
            poll = select.poll()
            poll.register(self._fds[0], select.POLLOUT)
            poll.poll(left * 1000)

    def _answer(self, query: str) -> list[str]:
        """The fields of the next answer line (chat lines are kept and skipped)."""
        start = time.monotonic()
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
                text = self._next_line(deadline, query, limit, kind)
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
            self.used += time.monotonic() - start

    def _next_line(self, deadline: float, query: str, limit: float, kind: str) -> str:
        """The next complete line from the program, decoded; waits until ``deadline``."""
        stdin_fd, stdout_fd, stderr_fd = self._fds
        buf = self._in
        poll = self._poll
        writing = False
        try:
            while True:
                end = buf.find(b"\n")
                if end >= 0:
                    return self._decode(end, query)
                if len(buf) > self.max_line:
                    raise BotFault(
                        self.seat,
                        "flood",
                        f"sent a line longer than {self.max_line} bytes "
                        f"(starting {_show(bytes(buf[:40]))}) in answer to {query}",
                    )
                if self._out:
                    self._write()
                    if self._out and not writing:
                        poll.register(stdin_fd, select.POLLOUT)
                        writing = True
                    elif not self._out and writing:
                        poll.unregister(stdin_fd)
                        writing = False
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._late(query, limit, kind)
                died = False
                for fd, event in poll.poll(left * 1000):
                    if fd == self._pidfd:
                        died = True
                    elif fd == stdout_fd:
                        data = _read(stdout_fd)
                        if data is None:
                            continue
                        if not data:
                            raise self._gone(f"closed its output before answering {query}")
                        buf += data
                    elif fd == stderr_fd:
                        data = _read(stderr_fd)
                        if data:
                            self.stderr_tail = (self.stderr_tail + data)[-STDERR_KEPT:]
                        elif data is not None:
                            poll.unregister(stderr_fd)
                    elif fd == stdin_fd and event & (select.POLLERR | select.POLLHUP):
                        raise self._gone(f"stopped reading its input before {query}")
                if died:
                    # What it wrote before exiting still counts.
                    data = _read(stdout_fd)
                    if data:
                        buf += data
                    if buf.find(b"\n") < 0:
                        raise self._gone(f"exited before answering {query}")
        finally:
            if writing:
                poll.unregister(stdin_fd)

    def _decode(self, end: int, query: str) -> str:
        buf = self._in
        raw = bytes(buf[:end])
        del buf[: end + 1]
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

    def _late(self, query: str, limit: float, kind: str) -> BotFault:
        what = "decision" if kind == "timeout" else "match"
        partial = f"; it had sent only {_show(bytes(self._in[:60]))}" if self._in else ""
        if self._out:
            partial += "; it had not read all its input"
        detail = f"no answer to {query} within the {what} limit of {limit:.3g} s{partial}"
        return BotFault(self.seat, kind, detail)

    def _gone(self, what: str) -> BotFault:
        """The fault of a program whose pipe closed: ``crash`` if it died, else ``closed``."""
        status = _exit_status(self.proc.pid, 0.1) if self.proc is not None else None
        if status is None:
            return BotFault(self.seat, "closed", what)
        tail = self.stderr_tail.decode("utf-8", "replace").strip().splitlines()
        said = f"; its last error output: {tail[-1][:200]!r}" if tail else ""
        return BotFault(self.seat, "crash", f"{status} ({what}){said}")


def _read(fd: int) -> bytes | None:
    """What a non-blocking descriptor holds (b"" at its end), or None if nothing yet."""
    try:
        return os.read(fd, _CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _show(data: bytes | str, limit: int = 80) -> str:
    """Data quoted for an error message, cut to ``limit`` characters."""
    text = repr(data[:limit])
    return text + ("..." if len(data) > limit else "")


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _exited(pid: int) -> os.waitid_result | None:
    """The exit of ``pid`` if it has exited, without reaping it (the pid stays reserved)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return None


def _wait_exit(pid: int, timeout: float) -> bool:
    """Whether ``pid`` exits within ``timeout`` seconds (it is not reaped)."""
    deadline = time.monotonic() + timeout
    delay = 0.0005
    while True:
        if _exited(pid) is not None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(delay)
        delay = min(delay * 2, 0.01)


def _exit_status(pid: int, timeout: float) -> str | None:
    """How ``pid`` ended (``exited with status 3``, ``killed by SIGSEGV``), None if alive."""
    if not _wait_exit(pid, timeout):
        return None
    info = _exited(pid)
    if info is None:
        return "exited"
    if info.si_code == os.CLD_EXITED:
        return f"exited with status {info.si_status}"
    try:
        name = signal.Signals(info.si_status).name
    except ValueError:
        name = f"signal {info.si_status}"
    return f"killed by {name}"
