"""Ctrl-C and SIGTERM seen as they arrive, so that an interruption Python lost is not lost.

Python runs a signal's handler in the main thread between two bytecodes, wherever that thread
is. Where it is inside a callback whose exceptions Python only prints ("Exception ignored in"):
a weakref's callback, a ``__del__``, a fork's ``os.register_at_fork`` hooks, the handler's
``KeyboardInterrupt`` is printed there and dropped, and the command runs on as though no
Ctrl-C had come. A loaded CI run's tournament played on so: under load it was reproduced here
once in 13 runs with SQLAlchemy's weakref callback ``_collection_gced`` swallowing it, and
once in 3 with logging's fork hook, as a pool's workers were forked.

A :class:`SignalWatch` wraps each handler Python runs for SIGINT and SIGTERM so that it notes
the signal first, then does what it did. The command line holds one for the whole command
(``cli.main``), and a pool holds one for its life. A loop that runs long calls
:func:`raise_if_lost` between two steps (every hand of a match played in this process, every
batch or chunk of a tournament, a duel, a simulation, a training run, in a pool or not): a
signal seen whose interruption never came out is raised there as one.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType
from typing import Any, Self

#: the watches open now, innermost last (the main thread's only: no other receives signals)
_OPEN: list[SignalWatch] = []


class SignalWatch:
    """Within: whether SIGINT or SIGTERM arrived (:attr:`seen`). Each handler Python runs
    for them is wrapped, then given back on the way out, whatever was set meanwhile.

    Handlers not Python's (``SIG_DFL``, ``SIG_IGN``, one set outside Python) are left as
    they are: such a signal either ends the process or is not an interruption. Outside the
    main thread the watch sees nothing, as no signal reaches a Python handler there.
    """

    NAMES = ("SIGINT", "SIGTERM")

    def __init__(self) -> None:
        #: whether one of the signals arrived
        self.seen = False
        self._kept: list[tuple[int, Any]] = []

    def __enter__(self) -> Self:
        if threading.current_thread() is not threading.main_thread():
            return self
        for name in self.NAMES:
            number = getattr(signal, name, None)
            if number is None:
                continue
            handler = signal.getsignal(number)
            if callable(handler):
                signal.signal(number, self._watch(handler))
                self._kept.append((number, handler))
        _OPEN.append(self)
        return self

    def _watch(self, handler: Any) -> Any:
        def watch(number: int, frame: FrameType | None) -> Any:
            self.seen = True
            return handler(number, frame)

        return watch

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for number, handler in self._kept:
            signal.signal(number, handler)
        self._kept = []
        if self in _OPEN:
            _OPEN.remove(self)


def forget_watches() -> None:
    """Drop the watches a forked worker copied from its parent: it leaves Ctrl-C to the
    parent, so a signal its parent saw before the fork is not its to raise."""
    _OPEN.clear()


def raise_if_lost() -> None:
    """Raise ``KeyboardInterrupt`` if a watch open now saw SIGINT or SIGTERM: the
    interruption its handler raised was lost (see the module), or is about to come out."""
    if any(watch.seen for watch in _OPEN):
        raise KeyboardInterrupt


__all__ = ["SignalWatch", "forget_watches", "raise_if_lost"]
