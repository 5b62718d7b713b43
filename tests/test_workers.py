"""A pool worker between tasks dies of SIGTERM at once; only while it works does a handler
end its bots' processes first; and it never runs its parent's handler, being forked with
SIGTERM blocked (tricktable.workers explains the hangs this prevents)."""

from __future__ import annotations

import multiprocessing
import signal
import subprocess
import sys
import textwrap

from tricktable.workers import _stop, forking, ignore_interrupts, working

#: the mask a worker was forked with, before its initializer
_FORKED_MASK: set[int] = set()


def _disposition() -> object:
    return signal.getsignal(signal.SIGTERM)


def _dispositions() -> tuple[object, object]:
    return working(_disposition), _disposition()


def _init() -> None:
    _FORKED_MASK.update(signal.pthread_sigmask(signal.SIG_BLOCK, []))
    ignore_interrupts()


def _masks() -> tuple[bool, bool]:
    now = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return signal.SIGTERM in _FORKED_MASK, signal.SIGTERM in now


def test_an_idle_worker_keeps_sigterms_default_action() -> None:
    with forking():
        pool = multiprocessing.Pool(1, initializer=ignore_interrupts)
    with pool:
        during, after = pool.apply(_dispositions)
    assert during is _stop
    assert after == signal.SIG_DFL


def test_a_worker_is_forked_with_sigterm_blocked_until_it_would_die_of_it() -> None:
    with forking():
        pool = multiprocessing.Pool(1, initializer=_init)
    with pool:
        forked_blocked, blocked_now = pool.apply(_masks)
    assert forked_blocked and not blocked_now
    assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # here again


def test_pools_terminated_at_once_end_every_time_whatever_the_parents_handler() -> None:
    # The parent's SIGTERM handler swallows the signal (as a test runner's or a server's
    # may): a worker that ran it before its initializer waited on the task queue for ever.
    script = textwrap.dedent(
        """
        import multiprocessing, signal
        from tricktable.workers import forking, ignore_interrupts, working
        signal.signal(signal.SIGTERM, lambda signum, frame: None)
        for _ in range(60):
            with forking():
                pool = multiprocessing.Pool(2, initializer=ignore_interrupts)
            with pool:
                assert pool.apply(working, (sum, (1, 2))) == 3
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
