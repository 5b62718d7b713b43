"""One event loop for every outside bot's I/O: programs' pipes and web services' connections.

The outside bots (:mod:`tricktable.protocols.stdio`, :mod:`tricktable.protocols.http`) are
asyncio code. Their coroutines run on one event loop of the process, in a daemon thread started
when a bot first needs it and shared by every outside bot: a thousand programs at a hundred
tables wait on one selector, not in a thousand threads. Their callers wait in one of two ways:

- :func:`run` — a synchronous caller (the match loop, the table driver's thread of a bot)
  blocks until the coroutine ends;
- :func:`call` — a coroutine on another loop (an asyncio driver) awaits it without blocking
  that loop (``asyncio.wrap_future``); on the bots' loop itself it is simply awaited.

Either way a caller that gives up (an interrupt, a timeout, a task cancelled) cancels the
coroutine, so a bot is never left half way through a call that nobody waits for.

A thread does not survive ``fork``: a forked child (a tournament's worker) that uses an outside
bot starts a loop of its own, and forgets the parent's loop and bots (they are the parent's to
close). At interpreter exit the bots still open are closed — every process they started ended
— and the loop is stopped; a process that ends with ``os._exit`` (a pool's worker) has ended
its bots' processes itself (:func:`tricktable.processes.end_all`).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import signal
import threading
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: seconds the outside bots still open at interpreter exit get, all together, to close
EXIT_TIME = 5.0


class Closing(Protocol):
    """An outside bot that may still hold a process or a connection (closed at exit)."""

    async def close_async(self) -> None: ...


class _Runner:
    """The bots' loop and its thread, in the process that started them."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self._serve, name="tricktable-outside-bots", daemon=True
        )
        self.thread.start()

    def _serve(self) -> None:
        # Programs are started from this thread and inherit its signal mask: none blocked, as
        # a shell starts them, whatever the thread that first used a bot had blocked (a pool's
        # start blocks SIGTERM: workers.forking).
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            with contextlib.suppress(Exception):
                self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()


_runner: _Runner | None = None
_start_lock = threading.Lock()
#: the outside bots of this process that may hold a process or a connection
_open: weakref.WeakSet[Any] = weakref.WeakSet()


def loop() -> asyncio.AbstractEventLoop:
    """The outside bots' event loop, started (in its thread) at the first call."""
    global _runner
    runner = _runner
    if runner is None or runner.pid != os.getpid() or not runner.thread.is_alive():
        with _start_lock:
            runner = _runner
            # A new one too where the thread has ended (stopped at exit, and used after).
            if runner is None or runner.pid != os.getpid() or not runner.thread.is_alive():
                runner = _runner = _Runner()
    return runner.loop


def started() -> bool:
    """Whether this process has started the bots' loop (closing an idle bot starts nothing)."""
    runner = _runner
    return runner is not None and runner.pid == os.getpid()


def on_loop() -> bool:
    """Whether the caller runs on the bots' loop thread."""
    runner = _runner
    return (
        runner is not None
        and runner.pid == os.getpid()
        and threading.current_thread() is runner.thread
    )


def run(coro: Coroutine[Any, Any, T], timeout: float | None = None, *, cancel: bool = True) -> T:
    """Run ``coro`` on the bots' loop and wait for its outcome, from a synchronous caller.

    What it raises is raised here. Past ``timeout`` seconds (None: no limit) it is cancelled
    and :class:`TimeoutError` raised; so is it when the wait is interrupted (Ctrl-C, a driver
    abandoning the thread), unless ``cancel`` is False (a close is let finish).
    """
    bots = loop()
    if on_loop():
        coro.close()
        raise RuntimeError("a bot's blocking call was made on the outside bots' own loop")
    future = asyncio.run_coroutine_threadsafe(coro, bots)
    try:
        return future.result(timeout)
    except BaseException:
        if cancel and not future.done():
            future.cancel()
        raise


async def call(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro``, run on the bots' loop, from a coroutine on any loop (never blocking it).

    Cancelling the awaiting task cancels ``coro`` too.
    """
    bots = loop()
    if asyncio.get_running_loop() is bots:
        return await coro
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, bots))


async def in_thread(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, blocking work (ending a process tree), in a daemon thread of its own.

    Not the loop's default executor: at interpreter exit it refuses new work, and its threads
    are waited for; a daemon thread is neither.
    """
    here = asyncio.get_running_loop()
    done: asyncio.Future[T] = here.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(value)

    def work() -> None:
        try:
            outcome: tuple[Any, BaseException | None] = (fn(*args), None)
        except BaseException as exc:
            outcome = (None, exc)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            here.call_soon_threadsafe(settle, *outcome)

    try:
        threading.Thread(target=work, name="tricktable-blocking", daemon=True).start()
    except RuntimeError:  # no new thread at interpreter shutdown: block the loop instead
        return fn(*args)
    return await done


class Serial:
    """One call at a time, of one bot, on the bots' loop: a close waits for the call before it
    to stop. Its lock is made on the loop that first needs it, and again on a new one (a
    forked child's)."""

    def __init__(self) -> None:
        self._lock: asyncio.Lock | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        here = asyncio.get_running_loop()
        if self._lock is None or self._loop is not here:
            self._lock, self._loop = asyncio.Lock(), here
        async with self._lock:
            yield


def track(bot: Closing) -> None:
    """Note an outside bot that holds a process or a connection (closed at exit)."""
    _open.add(bot)


def untrack(bot: Closing) -> None:
    """Forget a bot noted by :func:`track`: it holds nothing any more."""
    _open.discard(bot)


async def _shutdown() -> None:
    """Close every bot still open, then end whatever else runs on the loop."""
    bots = list(_open)
    await asyncio.gather(*(bot.close_async() for bot in bots), return_exceptions=True)
    me = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not me]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


def _at_exit() -> None:
    runner = _runner
    if runner is None or runner.pid != os.getpid() or not runner.thread.is_alive():
        return
    with contextlib.suppress(BaseException):
        run(_shutdown(), EXIT_TIME)
    with contextlib.suppress(RuntimeError):
        runner.loop.call_soon_threadsafe(runner.loop.stop)
    runner.thread.join(1.0)


def _forget() -> None:
    """In a forked child: the parent's loop thread is not here; its bots are not ours."""
    global _runner, _start_lock, _open
    _runner = None
    _start_lock = threading.Lock()  # it may have been held by another thread at the fork
    _open = weakref.WeakSet()


atexit.register(_at_exit)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)
