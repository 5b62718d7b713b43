"""What every pool of worker processes shares (simulate, duel, tournament, training): how many
workers by default, and how a worker stops.

Ctrl-C reaches the whole process group: the parent alone handles it (stops, keeps what is
done, says one line), so a worker ignores it and prints no traceback. A worker ends when it is
sent SIGTERM: by its parent's pool when it is terminated, or by the kernel when its parent dies
(``PR_SET_PDEATHSIG``), so that a parent killed or stopped by SIGTERM leaves no worker waiting
for work for ever.

While it runs a task (:func:`working`) a worker may have bot programs, so SIGTERM runs a
handler that ends them, and every process they started, before the worker exits. Between tasks
it has none, and SIGTERM keeps its default action: the kernel ends the worker at once. A Python
handler cannot be trusted there: it runs between two bytecodes, and a signal that comes just
before the worker blocks on the task queue's lock (``sem_wait``, which that signal already
delivered does not wake) is never acted on — the pool's ``terminate`` then waits for that
worker for ever (about one run in 300 hung so, before). Nor may a worker run its parent's
handler, which it holds from the fork until its initializer has run: a pool's workers are
forked with SIGTERM blocked (:func:`forking`), and each takes it only once it would die of it.

SIGINT is blocked in the parent for the fork too. Python runs a signal's handler between two
bytecodes, and a fork runs Python callbacks in the parent (``os.register_at_fork``: logging's
releases its lock there); a ``KeyboardInterrupt`` raised inside one is printed as "Exception
ignored" and lost, and the command played on as though no Ctrl-C had come (a loaded CI run's
tournament, reproduced here 1 run in 3 with the Ctrl-C sent as the pool started). Blocked, it
waits until the fork is over and interrupts the parent then.

Every pool is made by :func:`executor`, a ``concurrent.futures.Executor`` whatever runs the work:
a :class:`LocalExecutor` of processes on this machine, which does all the above by itself
(each ``submit`` forks with SIGTERM blocked and runs the task in :func:`working`), or, given a
cluster's address, an executor over a Dask cluster
(:class:`~tricktable.tournament.cluster.ClusterExecutor`, imported only then: Dask is the
``cluster`` extra). Callers use ``submit``, ``map``, ``wait`` and ``as_completed``, and call
:func:`~tricktable.interrupts.raise_if_lost` between two results; leaving the block on an
error or Ctrl-C stops the workers at once (:func:`stop_executor`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, ParamSpec, TypeVar

from tricktable.interrupts import SignalWatch, forget_watches
from tricktable.processes import die_with_parent, end_all

T = TypeVar("T")
P = ParamSpec("P")


#: the signals a pool's fork blocks in the parent and its worker takes again (:func:`forking`)
_FORK_BLOCKED = {signal.SIGTERM, signal.SIGINT}


def default_workers() -> int:
    """Every core this process may use (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ignore_interrupts() -> None:
    """A worker's initializer: Ctrl-C left to the parent; SIGTERM, or its parent's death, ends
    the worker (see the module)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    forget_watches()
    die_with_parent(signal.SIGTERM)
    if hasattr(signal, "pthread_sigmask"):  # forked with them blocked (forking): SIGTERM
        # kills from now on, SIGINT is ignored, and the bots it starts inherit neither blocked
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORK_BLOCKED)


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Around the start of a pool's workers (``multiprocessing.Pool(...)``, the first
    ``submit`` of a ``ProcessPoolExecutor``): SIGTERM and SIGINT blocked in this thread
    meanwhile.

    A forked worker holds its parent's SIGTERM handler until its initializer sets the default:
    a parent's handler that does not end the process (the command line's, or a test
    runner's) would swallow a pool's terminate there, and the worker then wait on the task
    queue for ever. Forked with it blocked, the worker takes it only after
    :func:`ignore_interrupts`; here, one that came meanwhile is taken as the block ends.
    A Ctrl-C during the fork would be lost in the parent's fork callbacks (see the module):
    blocked, it interrupts once the block ends.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _FORK_BLOCKED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def working(task: Callable[..., T], *args: Any) -> T:
    """Run ``task(*args)`` as a worker's task: meanwhile SIGTERM ends the bots' processes
    before the worker exits; after it, the worker dies at once again (see the module)."""
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        return task(*args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop(signum: int, frame: Any) -> None:
    """End this worker now: its bot programs first, then the process, with nothing to say (a
    traceback would reach the terminal of a parent that has gone)."""
    with contextlib.suppress(BaseException):
        end_all()
    os._exit(128 + signum)


def stop_executor(executor: Any) -> None:
    """Stop an executor at once: a local pool's workers terminated (each ends its bots), the
    work not begun cancelled; a cluster's tasks cancelled and its client closed. A
    ``shutdown`` alone would wait for the work running."""
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


class LocalExecutor(ProcessPoolExecutor):
    """A pool of ``workers`` processes on this machine, as every pool here must be (see the
    module): each worker ignores Ctrl-C and dies with its parent (then runs ``initializer``),
    is forked with SIGTERM blocked, and runs every task in :func:`working`.

    Forked on Linux, as ``multiprocessing``'s default was there (fast, and ``python -m
    tricktable`` has no ``__main__`` guard that spawn's re-import would need); elsewhere the
    platform's default.
    """

    def __init__(
        self,
        workers: int,
        initializer: Callable[..., object] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork") if sys.platform == "linux" else None
        super().__init__(
            workers, context, initializer=_initialise, initargs=(initializer, initargs)
        )

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """``fn(*args, **kwargs)`` on a worker, in :func:`working`."""
        task: Callable[..., T] = functools.partial(fn, *args, **kwargs) if kwargs else fn
        with forking():  # the first submit forks the workers
            return super().submit(working, task, *(() if kwargs else args))


def _initialise(initializer: Callable[..., object] | None, initargs: tuple[Any, ...]) -> None:
    ignore_interrupts()
    if initializer is not None:
        initializer(*initargs)


@contextlib.contextmanager
def executor(
    workers: int,
    cluster: str | None = None,
    *,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[Executor]:
    """The pool every batch of work here runs on: ``workers`` local processes
    (:class:`LocalExecutor`, ``cluster`` None), or the Dask cluster at ``cluster`` (``local``
    or ``tls://HOST:PORT``: :func:`~tricktable.tournament.cluster.connect`, which waits for
    ``workers`` of its workers).

    Leaving the block normally waits for the work submitted; leaving it on an error, Ctrl-C
    or a generator closed stops the workers at once (:func:`stop_executor`). An
    ``initializer`` runs in each local worker; a cluster's workers have none to run (a
    :class:`ValueError`).
    """
    pool: Executor
    if cluster is None:
        pool = LocalExecutor(workers, initializer, initargs)
    else:
        if initializer is not None:
            raise ValueError("a Dask cluster's workers run no initializer")
        from tricktable.tournament.cluster import connect

        pool = connect(cluster, workers)
    # Within, a Ctrl-C whose KeyboardInterrupt Python lost still stops the work: the loops
    # over its results call raise_if_lost between batches (tricktable.interrupts).
    with SignalWatch():
        try:
            yield pool
        except BaseException:
            stop_executor(pool)
            raise
        pool.shutdown(wait=True)
