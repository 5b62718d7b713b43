"""A pool worker between tasks dies of SIGTERM at once; only while it works does a handler
end its bots' processes first; and it never runs its parent's handler, being forked with
SIGTERM blocked (tricktable.workers explains the hangs this prevents). A Ctrl-C during the
fork waits for its end, and one Python lost in a callback still stops a pool's loop."""

from __future__ import annotations

import multiprocessing
import signal
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from tricktable.bots.base import Bot
from tricktable.bots.random_bot import RandomBot
from tricktable.games import load_game
from tricktable.interrupts import SignalWatch, raise_if_lost
from tricktable.match import play_match
from tricktable.tournament.play import run_local
from tricktable.workers import _stop, executor, forking, ignore_interrupts, working

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


def _both_masks() -> tuple[set[int], set[int]]:
    return set(_FORKED_MASK), set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


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


def test_a_ctrl_c_during_the_fork_waits_for_its_end_and_the_worker_takes_neither() -> None:
    # A KeyboardInterrupt raised in a fork's callbacks (logging's lock) is printed and lost.
    with forking():
        assert {signal.SIGINT, signal.SIGTERM} <= signal.pthread_sigmask(signal.SIG_BLOCK, [])
        pool = multiprocessing.Pool(1, initializer=_init)
    with pool:
        forked, now = pool.apply(_both_masks)
    assert {signal.SIGINT, signal.SIGTERM} <= forked
    assert signal.SIGINT not in now and signal.SIGTERM not in now  # nor the bots it starts
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


class _Swallows:
    """An object whose finalizer takes a Ctrl-C: Python prints its KeyboardInterrupt ("Exception
    ignored in") and goes on, as it did in SQLAlchemy's weakref callback on a CI run.

    The finalizer runs SIGINT's handler as Python runs it on a signal, rather than raise a
    real one: a real signal left pending (the mask, another thread) would interrupt whatever
    test the worker runs next."""

    def __del__(self) -> None:
        handler = signal.getsignal(signal.SIGINT)
        assert callable(handler)
        handler(signal.SIGINT, None)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_ctrl_c_python_lost_is_raised_at_the_next_step() -> None:
    with SignalWatch() as watch:
        raise_if_lost()  # nothing seen: nothing raised
        _Swallows()  # collected at once: its KeyboardInterrupt is lost
        assert watch.seen
        with pytest.raises(KeyboardInterrupt):
            raise_if_lost()
    raise_if_lost()  # the watch closed: nothing left to raise
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back


def _double(batch: list[int]) -> list[int]:
    return [2 * n for n in batch]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_pools_loop_stops_on_a_ctrl_c_python_lost() -> None:
    # The tournament's loop over its batches: the Ctrl-C comes while a batch is stored and
    # is lost; the loop stops at its next step rather than play the other 198 batches.
    work = ([n] for n in range(200))
    stored: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        for played in run_local(work, 2, _double):
            stored += played
            if len(stored) == 2:
                _Swallows()
    assert 2 <= len(stored) < 10


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_one_worker_loop_stops_on_a_ctrl_c_python_lost() -> None:
    # One worker plays in this process: the command line's watch (cli.main) is the one open.
    work = ([n] for n in range(200))
    stored: list[int] = []
    with SignalWatch(), pytest.raises(KeyboardInterrupt):
        for played in run_local(work, 1, _double):
            stored += played
            if len(stored) == 2:
                _Swallows()
    assert stored == [0, 2]


class _LosesACtrlC(Bot):
    """A bot at whose first turn a Ctrl-C comes and is lost (a finalizer takes it). It
    derives from the base class: a compiled bot (RandomBot, under mypyc) takes no subclass."""

    name = "loses-a-ctrl-c"

    def __init__(self) -> None:
        self.lost = False

    def act(self, view: Any) -> int:
        if not self.lost:
            self.lost = True
            _Swallows()
        return int(view.legal_actions()[0])


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_match_in_this_process_stops_after_the_hand_a_ctrl_c_was_lost_in() -> None:
    game = load_game("setback")
    bots = [_LosesACtrlC(), RandomBot(), RandomBot(), RandomBot()]
    hands: list[int] = []

    def listen(state: Any, seat: int, action: int) -> None:
        hands.append(len(state.history) - 1)

    with SignalWatch(), pytest.raises(KeyboardInterrupt):
        play_match(game, bots, seed=5, listener=listen, max_hands=50)
    assert set(hands) == {0}  # the first hand finished, no second dealt


def _clear() -> str:
    try:
        raise_if_lost()
    except KeyboardInterrupt:  # returned, not raised: raised, it would stop the test run
        return "raised"
    return "clear"


def test_a_worker_forgets_the_watch_its_parent_saw_a_signal_in() -> None:
    # Forked from a parent whose watch saw a Ctrl-C, a worker (which leaves Ctrl-C to the
    # parent) must not raise it in its own loops.
    with SignalWatch() as watch:
        watch.seen = True
        with executor(1) as pool:
            assert pool.submit(_clear).result(timeout=60) == "clear"
        watch.seen = False
