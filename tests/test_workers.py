"""A pool worker between tasks dies of SIGTERM at once; only while it works does a handler
end its bots' processes first (tricktable.workers explains the hang this prevents)."""

from __future__ import annotations

import multiprocessing
import signal

from tricktable.workers import _stop, ignore_interrupts, working


def _disposition() -> object:
    return signal.getsignal(signal.SIGTERM)


def _dispositions() -> tuple[object, object]:
    return working(_disposition), _disposition()


def test_an_idle_worker_keeps_sigterms_default_action() -> None:
    with multiprocessing.Pool(1, initializer=ignore_interrupts) as pool:
        during, after = pool.apply(_dispositions)
    assert during is _stop
    assert after == signal.SIG_DFL


def test_pools_terminated_at_once_end_every_time() -> None:
    # Terminated while its workers wait for work (the race was about 1 in 300 before).
    for _ in range(40):
        with multiprocessing.Pool(2, initializer=ignore_interrupts) as pool:
            assert pool.apply(working, (sum, (1, 2))) == 3
