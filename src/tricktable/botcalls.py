"""Calls into a bot that may hang or raise anything: a thread a bot, and the match's time limits.

Both ways a match is played — the match loop (:mod:`tricktable.match`, used by ``play``,
``simulate``, ``duel`` and tournaments) and the table's asyncio driver
(:mod:`tricktable.table.driver`) — time a bot with one :class:`Clock`, the referee's: the same
limits (:class:`~tricktable.limits.RunnerOptions`: ``decision_time`` a call, plus
``startup_time`` for a bot's first decision, ``match_time`` in all, each plus :data:`GRACE`),
the same fault kinds (``timeout``, ``match-time``, ``crash``) and, through the referee, the
same penalty.

Which bots pay for a thread: the driver runs every bot in one (the event loop must never block:
many tables share it). The match loop calls the bots it trusts directly, so that ``make
bench`` pays nothing: the built-in bots, and programs and web services, whose transports keep
the limits themselves. Every in-process bot loaded from outside the package — a plug-in
(``path/to/bot.py:Class``, ``package.module:Class``, an installed entry point) — is
:func:`untrusted` and runs in its thread there too.

In its thread anything a bot raises is its fault: ``SystemExit``, ``KeyboardInterrupt``,
``GeneratorExit``... become a ``crash`` (a real Ctrl-C is delivered to the main thread, never
to a bot's). A thread that hangs cannot be killed in Python. It is abandoned with its bot,
which the referee closes and replaces: the thread is a daemon (the process still exits at the
end), and it is asked to raise :class:`Abandoned` (CPython's ``PyThreadState_SetAsyncExc``),
which ends a loop of Python code at once and a blocking call when it returns, so that a bot
spinning for ever does not slow the rest of the match down.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from tricktable.errors import BotFault
from tricktable.limits import RunnerOptions

#: seconds a bot gets beyond each limit before the clock calls it late (the driver's default)
GRACE: Final = 1.0

#: seconds a plug-in's ``close`` may take outside a match (letting go of what it holds)
CLOSE_TIME: Final = 1.0

#: the classes of the in-process bots loaded from outside the package (see :func:`untrusted`)
UNTRUSTED: Final[set[type]] = set()

#: what a call's outcome is handed to: (value, None) or (None, the exception)
Reply = Callable[[Any, "BaseException | None"], None]


class Abandoned(BaseException):
    """Raised in the thread of a bot given up on, to end what it is still running."""


def mark_untrusted(cls: type) -> None:
    """Count the bots of ``cls`` as loaded from outside: the match loop times them.

    Classes of the package itself (``tricktable.*``) stay trusted, whatever spec named them.
    """
    module = getattr(cls, "__module__", "") or ""
    if module != "tricktable" and not module.startswith("tricktable."):
        UNTRUSTED.add(cls)


def untrusted(bot: object) -> bool:
    """Whether ``bot`` is an in-process bot loaded from outside (a plug-in): timed everywhere."""
    return type(bot) in UNTRUSTED


def crash_of(seat: int, exc: BaseException) -> BotFault:
    """The ``crash`` a bot's ``SystemExit``, ``KeyboardInterrupt``... amounts to."""
    said = str(exc)
    return BotFault(seat, "crash", f"raised {type(exc).__name__}" + (f": {said}" if said else ""))


class BotThread:
    """A daemon thread that runs one bot's calls in order (a bot keeping state per thread — a
    database connection — keeps working)."""

    def __init__(self, name: str) -> None:
        self.jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        #: whether a call is running (only then is it worth interrupting)
        self.busy = False
        self.thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self.thread.start()

    def submit(
        self, seat: int, fn: Callable[..., Any], args: tuple[Any, ...], reply: Reply | None
    ) -> None:
        """Run ``fn(*args)`` after the calls queued before; hand its outcome to ``reply``."""
        self.jobs.put((seat, fn, args, reply))

    def stop(self) -> None:
        """End the thread once the calls queued have run."""
        self.jobs.put(None)

    def abandon(self) -> None:
        """Give the thread up: it is stopped, and what it runs now is asked to raise."""
        thread = self.thread
        if self.busy and thread.is_alive() and thread.ident is not None:
            import ctypes  # here: a match of well-behaved bots never loads it

            with contextlib.suppress(Exception):
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(thread.ident), ctypes.py_object(Abandoned)
                )
        self.stop()

    def _serve(self) -> None:
        try:
            while (job := self.jobs.get()) is not None:
                seat, fn, args, reply = job
                self.busy = True
                try:
                    outcome: tuple[Any, BaseException | None] = (fn(*args), None)
                except Exception as exc:
                    outcome = (None, exc)
                except BaseException as exc:  # SystemExit in a bot: a crash, not ours to obey
                    outcome = (None, crash_of(seat, exc))
                finally:
                    self.busy = False
                if reply is not None:
                    with contextlib.suppress(Exception):
                        reply(*outcome)
            _checkpoint()
        except Abandoned:
            pass  # raised after the bot's call returned: the thread ends all the same


def _checkpoint() -> None:
    """A call: an :class:`Abandoned` still pending is raised here, inside ``_serve``'s try."""


class _Waiter:
    """The outcome of one call, waited for by the thread that asked."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None

    def __call__(self, value: Any, error: BaseException | None) -> None:
        self.value = value
        self.error = error
        self.done.set()


def close_bot(bot: Any, limit: float = CLOSE_TIME) -> None:
    """Close ``bot`` whatever its ``close`` does: raise anything, ``SystemExit`` included (it
    is dropped), or hang — a plug-in's runs in a thread of its own, given up after ``limit``
    seconds."""
    if type(bot) not in UNTRUSTED:
        with contextlib.suppress(Exception):
            bot.close()
        return
    waiter = _Waiter()
    worker = BotThread("tricktable-close")
    worker.submit(-1, bot.close, (), waiter)
    if waiter.done.wait(limit):
        worker.stop()
    else:
        worker.abandon()


class Clock:
    """The time the bots of one match get: a thread a bot, the limits, the time each used.

    Calls are made from one thread (the match loop's, or the event loop's). :meth:`call` and
    :meth:`decide` wait here; the driver waits in its event loop instead, with
    :meth:`submit`, :meth:`decision_limit`, :meth:`spent` and :meth:`give_up` — the same
    limits and faults.
    """

    def __init__(self, options: RunnerOptions, grace: float = GRACE) -> None:
        self.options = options
        #: seconds beyond each limit before a call is late
        self.grace = grace
        self.threads: dict[int, BotThread] = {}
        self.used: dict[int, float] = {}

    def reset(self) -> None:
        """A new match: no thread, no time used."""
        self.close()
        self.used = {}

    def close(self) -> None:
        """End every bot's thread (once its calls have run; a hung one is left behind)."""
        threads, self.threads = self.threads, {}
        for worker in threads.values():
            worker.stop()

    def runs(self, bot: object) -> bool:
        """Whether ``bot`` has a thread here (its calls must all go through it, in order)."""
        return id(bot) in self.threads

    # ------------------------------------------------------------------- the limits

    def decision_limit(self, bot: object) -> float:
        """The seconds ``bot`` has for its next decision (``startup_time`` more the first)."""
        options = self.options
        if id(bot) in self.used:
            return options.decision_time
        self.used[id(bot)] = 0.0
        return options.startup_time + options.decision_time

    def spent(self, seat: int, bot: object, seconds: float) -> BotFault | None:
        """Count ``seconds`` of thought by ``bot``; the ``match-time`` fault once it has used
        more than the match allows."""
        used = self.used.get(id(bot), 0.0) + seconds
        self.used[id(bot)] = used
        limit = self.options.match_time
        if used > limit + self.grace:
            return BotFault(seat, "match-time", f"took over {limit:g} s in this match")
        return None

    def give_up(self, seat: int, bot: object, waited: float) -> BotFault:
        """The ``timeout`` of ``bot`` after ``waited`` seconds; its thread is abandoned."""
        worker = self.threads.pop(id(bot), None)
        if worker is not None:
            worker.abandon()
        return BotFault(seat, "timeout", f"no answer within {waited:g} s")

    # --------------------------------------------------------------------- calling

    def submit(
        self, seat: int, bot: object, fn: Callable[..., Any], args: tuple[Any, ...], reply: Reply
    ) -> None:
        """Queue ``fn(*args)`` in the thread of ``bot`` (made if it has none)."""
        self._thread(seat, bot).submit(seat, fn, args, reply)

    def tell(self, seat: int, bot: object, fn: Callable[..., Any], *args: Any) -> None:
        """Queue ``fn(*args)`` in the thread of ``bot`` without waiting: what it raises is
        dropped, and a call that hangs holds up only the bot's next one (which times out)."""
        self._thread(seat, bot).submit(seat, fn, args, None)

    def call(self, seat: int, bot: object, limit: float, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the thread of ``bot``, waited for ``limit`` seconds plus the grace;
        a :class:`BotFault` past it. What ``fn`` raises is raised here."""
        waiter = _Waiter()
        self._thread(seat, bot).submit(seat, fn, args, waiter)
        total = limit + self.grace
        if not waiter.done.wait(total):
            raise self.give_up(seat, bot, total)
        if waiter.error is not None:
            raise waiter.error
        return waiter.value

    def decide(self, seat: int, bot: Any, view: Any) -> Any:
        """The answer of ``bot.act(view)``; a :class:`BotFault` past the decision's or the
        match's time."""
        limit = self.decision_limit(bot)
        start = time.monotonic()
        try:
            action = self.call(seat, bot, limit, bot.act, view)
        finally:
            late = self.spent(seat, bot, time.monotonic() - start)
        if late is not None:
            raise late
        return action

    def close_bot(self, seat: int, bot: Any) -> None:
        """Close ``bot`` within a decision's time (a plug-in's ``close`` may hang too)."""
        with contextlib.suppress(Exception):
            self.call(seat, bot, self.options.decision_time, bot.close)
        worker = self.threads.pop(id(bot), None)
        if worker is not None:
            worker.stop()

    def _thread(self, seat: int, bot: object) -> BotThread:
        worker = self.threads.get(id(bot))
        if worker is None:
            worker = self.threads[id(bot)] = BotThread(f"tricktable-seat-{seat}")
        return worker
