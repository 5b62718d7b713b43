"""What every pool of worker processes shares (simulate, duel, tournament): how many workers by
default, and Ctrl-C left to the parent."""

from __future__ import annotations

import os
import signal


def default_workers() -> int:
    """Every core this process may use (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ignore_interrupts() -> None:
    """A worker's initializer: Ctrl-C reaches the whole process group, and the parent alone
    handles it (stops, keeps what is done, says one line), so no worker prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
