"""Playing a tournament on a Dask cluster: ``tricktable tournament ... --cluster ADDRESS``.

:func:`connect` connects to a Dask scheduler (``tls://HOST:8786``), or starts a
:class:`~distributed.LocalCluster` of worker processes on this machine (``local``), and returns
a :class:`ClusterExecutor`: a ``concurrent.futures`` executor over it, the one
:func:`tricktable.workers.executor` gives for a cluster. :func:`dask_executor` wraps it in a
:class:`DaskExecutor`: an :data:`~tricktable.tournament.run.Executor` that sends batches of
units to the workers and yields each batch's results as it finishes. The workers only play;
this process stores every result, so the tournament goes to one database (a SQLite file here,
or PostgreSQL) and resumes as a local run does.

A Dask scheduler runs whatever code its clients send, on every worker, and takes back whatever
its workers send: whoever can join a cluster can run code in it and send forged results. So
every connection is TLS with certificates on both sides: ``local`` makes a temporary key and
certificate that only this process and the workers it starts hold (Dask's
``Security.temporary``), and a remote scheduler is reached at ``tls://`` only, with the
certificate files Dask's configuration names (:func:`remote_security`); plain ``tcp://`` is
refused. And nothing a worker sends is stored unchecked: each result's record is replayed on
the scheduled deals first (:func:`tricktable.tournament.verify.refusal`); a result that fails
is not stored, and the run ends saying how many were refused (:class:`ForgedResults`).

Every worker must run the same tricktable as this process: the same version, installed on every
machine (``pip install tricktable==X`` in each worker's environment). A unit's results depend on
its seed and the code alone, so a worker running other code would store other games; each task
therefore checks the worker's :func:`code_fingerprint` against this process's and fails with a
one-line :class:`ClusterError` where they differ. Player specs that name files or programs
(``path/bot.py:Bot``, ``cmd:./bot``) must resolve on every worker, and HTTP bots must be
reachable from them. See ``docs/cluster.md``.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import signal
import socket
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final, ParamSpec, TypeVar

import tricktable
from tricktable.errors import TricktableError
from tricktable.interrupts import raise_if_lost
from tricktable.tournament.play import Played
from tricktable.tournament.schedule import Unit
from tricktable.tournament.verify import refusal
from tricktable.workers import default_workers

if TYPE_CHECKING:
    from distributed import Client, LocalCluster
    from distributed.security import Security

T = TypeVar("T")
P = ParamSpec("P")

#: seconds to reach a scheduler: a wrong address fails after this long
CONNECT_TIMEOUT: Final = 10.0
#: seconds to wait for a scheduler's first workers (or ``workers`` of them) to join
WORKERS_TIMEOUT: Final = 60.0
#: batches in flight for each worker thread, as in run_local: every worker has its next batch
#: at hand, and a kill loses little
IN_FLIGHT: Final = 2
#: seconds between looks at how many worker threads a remote cluster has (workers may join)
RECOUNT: Final = 5.0

#: refusals kept word for word for the report (the rest are only counted)
REFUSALS_KEPT: Final = 5

_ADDRESS = re.compile(
    r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(?P<port>\d{1,5})"
)
#: the Dask settings that name a client's certificate files (a key may sit in the cert file)
TLS_SETTINGS: Final = (
    "distributed.comm.tls.ca-file",
    "distributed.comm.tls.client.cert",
    "distributed.comm.tls.client.key",
)


class ClusterError(TricktableError):
    """A Dask cluster that cannot be reached, started or used: one line saying which and why."""


class ForgedResults(ClusterError):
    """Results from the cluster that failed their replay: refused, not stored, and counted."""

    def __init__(self, where: str, count: int, first: list[str]) -> None:
        self.count = count
        self.refusals = first
        super().__init__(
            f"{where}: {count} result(s) failed their replay and were not stored "
            f"(first: {first[0]}); every result that replayed is stored: a worker of this "
            "cluster is not running tricktable's code as it should, or is not yours"
        )


def dask_executor(
    address: str,
    workers: int | None = None,
    *,
    timeout: float = CONNECT_TIMEOUT,
    security: Security | None = None,
) -> DaskExecutor:
    """A tournament's executor on the Dask cluster at ``address`` (see :func:`connect`): it
    plays batches of units there and checks every result before it is stored."""
    return DaskExecutor(connect(address, workers, timeout=timeout, security=security))


def connect(
    address: str,
    workers: int | None = None,
    *,
    timeout: float = CONNECT_TIMEOUT,
    security: Security | None = None,
) -> ClusterExecutor:
    """An executor over the Dask cluster at ``address``: ``local``, or ``tls://HOST:PORT``.

    ``local`` starts ``workers`` worker processes on this machine (default: every core), one
    thread each, on the loopback interface, without a dashboard, and with a temporary TLS key
    that only they and this process hold. Otherwise this connects to the scheduler there
    within ``timeout`` seconds, over TLS with ``security`` (default: the certificate files
    Dask's configuration names, :func:`remote_security`), and waits for ``workers`` of its
    workers to join (default: one). Shut the executor down when done.
    """
    from distributed import Client

    if address == "local":
        count = workers or default_workers()
        keys = security if security is not None else temporary_security()
        try:
            with _sigint_ignored():
                cluster = local_cluster(count, keys)
        except (OSError, RuntimeError, TimeoutError) as exc:
            raise ClusterError(f"cannot start a local Dask cluster: {_reason(exc)}") from None
        try:
            client = Client(cluster, security=keys, set_as_default=False)
        except BaseException:
            cluster.close()
            raise
        where = f"a local Dask cluster of {count} workers"
        return ClusterExecutor(client, cluster, cluster.scheduler_address, where)

    match = _ADDRESS.fullmatch(address.strip())
    if match is None or not 0 < int(match["port"]) < 65536 or match["scheme"] not in TLS_OR_NOT:
        raise ClusterError(
            f"--cluster {address!r} is not a Dask scheduler's address: give tls://HOST:PORT "
            "(a scheduler listens on 8786 by default) or 'local'"
        )
    host, port = match["host"], int(match["port"])
    url = f"tls://{host}:{port}"
    if match["scheme"] != "tls":
        raise ClusterError(
            f"--cluster {address!r}: plain TCP lets anyone who reaches the scheduler run code "
            f"on its workers and send forged results; give {url}, with the cluster's "
            "certificates (see docs/cluster.md, Security)"
        )
    keys = security if security is not None else remote_security()
    _check_scheduler(url, host.strip("[]"), port, timeout, keys)
    try:
        client = Client(url, timeout=timeout, security=keys, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(
            f"cannot reach a Dask scheduler at {url} within {timeout:g} s ({_reason(exc)}): "
            f"is `dask scheduler` running there, and the port open to this machine?"
        ) from None
    wanted = workers or 1
    try:
        client.wait_for_workers(wanted, timeout=WORKERS_TIMEOUT)
    except (OSError, TimeoutError):
        have = len(client.nthreads())
        client.close()
        raise ClusterError(
            f"the Dask scheduler at {url} has {have} worker(s), and {wanted} did not join "
            f"within {WORKERS_TIMEOUT:g} s: start them with `dask worker {url}` and the "
            "cluster's certificates on each machine"
        ) from None
    except BaseException:
        client.close()
        raise
    return ClusterExecutor(client, None, url, f"the Dask scheduler at {url}")


class ClusterExecutor(Executor):
    """A ``concurrent.futures`` executor over a Dask client (its own ``get_executor``, every
    task impure: a unit's seed, not its arguments' hash, says what it plays), that closes
    the client, and the cluster it started, when shut down.

    Dask's executor is used as it is for the tasks; what it lacks is added here: its
    ``shutdown`` takes no ``cancel_futures`` (cancelling is ``wait=False``) and leaves the
    client open, and :meth:`threads` counts the workers, who may come and go.
    """

    def __init__(
        self, client: Client, cluster: LocalCluster | None, address: str, where: str
    ) -> None:
        self.client = client
        self.cluster = cluster
        #: the scheduler's address (``tls://HOST:PORT``)
        self.address = address
        #: how messages name the cluster
        self.where = where
        self._tasks = client.get_executor(pure=False)
        self._closed = weakref.finalize(self, _shutdown, client, cluster)

    def __repr__(self) -> str:
        return f"ClusterExecutor({self.where})"

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """``fn(*args, **kwargs)`` on a worker of the cluster."""
        return self._tasks.submit(fn, *args, **kwargs)

    def threads(self) -> int:
        """The worker threads the cluster has now."""
        return sum(self.client.nthreads().values())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Wait for the tasks submitted (``wait``, and ``cancel_futures`` False) or cancel them,
        then close the client, and the cluster if this executor started it (again: nothing)."""
        if self._closed.alive:
            self._tasks.shutdown(wait=wait and not cancel_futures)
        self._closed()


#: the schemes an address may be written with (None: none written; only tls is accepted)
TLS_OR_NOT: Final = (None, "tls", "tcp")


def local_cluster(workers: int, security: Security | None = None) -> LocalCluster:
    """A :class:`~distributed.LocalCluster` of ``workers`` processes, one thread each, on the
    loopback interface and without a dashboard, speaking TLS with ``security`` (default: a
    new temporary key, :func:`temporary_security`)."""
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        security=security if security is not None else temporary_security(),
        protocol="tls://",
        # The scheduler serves a few HTTP routes even without its dashboard: on a free
        # loopback port, not on 8787 (and no warning where 8787 is taken).
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        # Dask logs its own teardown races at ERROR (a worker's heartbeat to a scheduler that
        # is closing, seen on a loaded machine): noise on a run that went well. What can go
        # wrong in a run reaches the user as one ClusterError line from the executor.
        silence_logs=logging.CRITICAL,
    )


def temporary_security() -> Security:
    """Dask TLS settings with a new key and self-signed certificate for every role, held in
    memory only (``Security.temporary()``, made with ``cryptography``, a dependency)."""
    from distributed.security import Security

    return Security.temporary()


def remote_security() -> Security:
    """The TLS settings to reach a remote scheduler: the certificate files Dask's
    configuration names (``distributed.comm.tls.ca-file``, ``.client.cert``, ``.client.key``:
    a YAML file in ``~/.config/dask/`` or ``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``...), as
    ``dask scheduler`` and ``dask worker`` read them; a one-line error where they are missing."""
    import dask.config
    from distributed.security import Security

    ca, cert, key = (dask.config.get(name, None) for name in TLS_SETTINGS)
    if not ca or not cert:
        raise ClusterError(
            "a remote cluster needs its TLS certificates: set distributed.comm.tls.ca-file, "
            "distributed.comm.tls.client.cert and .client.key in Dask's configuration (or "
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE, ..._CLIENT__CERT, ..._CLIENT__KEY); see "
            "docs/cluster.md, Security"
        )
    for name, path in zip(TLS_SETTINGS, (ca, cert, key), strict=True):
        if path and "\n" not in str(path) and not Path(str(path)).is_file():
            raise ClusterError(f"{name} names {str(path)[:80]!r}, which is not a file")
    return Security(require_encryption=True, tls_ca_file=ca, tls_client_cert=cert,
                    tls_client_key=key)  # fmt: skip


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while worker processes start, so that they inherit it ignored.

    Ctrl-C reaches every process of the terminal's group; this one stops the run and closes
    the cluster, and workers that took it too would only print tracebacks meanwhile.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _check_scheduler(url: str, host: str, port: int, timeout: float, security: Security) -> None:
    """Fail within ``timeout`` unless a Dask scheduler answers at ``url``.

    Dask's client would retry a refused connection until its time-out, and waits for ever on
    a server that is not Dask's: this asks the server who it is first, with a deadline.
    """
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except socket.gaierror as exc:
        raise ClusterError(
            f"cannot reach a Dask scheduler at {url}: unknown host ({exc})"
        ) from None
    except ConnectionRefusedError:
        raise ClusterError(
            f"cannot reach a Dask scheduler at {url}: the connection was refused (nothing "
            "listens there: is `dask scheduler` running on that machine?)"
        ) from None
    except OSError as exc:  # a time-out, or no route
        raise ClusterError(
            f"cannot reach a Dask scheduler at {url} within {timeout:g} s ({_reason(exc)}): "
            "is `dask scheduler` running there, and the port open to this machine?"
        ) from None
    try:
        identity = asyncio.run(asyncio.wait_for(_identity(url, timeout, security), timeout))
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        why = "" if isinstance(exc, TimeoutError) and not str(exc) else f" ({_reason(exc)})"
        raise ClusterError(
            f"no Dask scheduler answered at {url} within {timeout:g} s{why}: is that the "
            "address `dask scheduler` printed?"
        ) from None
    kind = identity.get("type") if isinstance(identity, dict) else None
    if kind != "Scheduler":
        raise ClusterError(
            f"{url} is a Dask {kind or 'server'}, not a scheduler: give the scheduler's "
            "address (`dask scheduler` prints it; port 8786 by default)"
        )


async def _identity(url: str, timeout: float, security: Security) -> object:
    """What the Dask server at ``url`` says it is (its ``identity``), asked over TLS."""
    from distributed.comm import connect

    comm = await connect(url, timeout=timeout, **security.get_connection_args("client"))
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


class DaskExecutor:
    """Plays batches of units on a Dask cluster, yielding each batch's results as it finishes.

    At most :data:`IN_FLIGHT` batches per worker thread are submitted at a time, so a kill loses
    little and memory stays flat however long the tournament. Calling it runs the work and
    closes the client (and the cluster it started) at the end, also on an error or Ctrl-C; an
    executor never called is closed by :meth:`close`, on garbage collection or at exit.

    Each result is checked against the unit it was sent for before it is yielded (its record
    replayed: :func:`~tricktable.tournament.verify.refusal`); one that fails is dropped and
    counted in :attr:`refused`, and a run that refused any ends with :class:`ForgedResults`
    once every other result is yielded (the units refused stay to play: a run again plays them).
    """

    def __init__(self, pool: ClusterExecutor) -> None:
        self.pool = pool
        self.client = pool.client
        #: the scheduler's address (``tls://HOST:PORT``)
        self.address = pool.address
        #: how messages name the cluster
        self.where = pool.where
        self._fingerprint = code_fingerprint()
        #: results refused since this executor was made (each failed its replay)
        self.refused = 0
        #: why, for the first :data:`REFUSALS_KEPT` of them
        self.refusals: list[str] = []

    def __repr__(self) -> str:
        return f"DaskExecutor({self.where})"

    def __call__(
        self, work: Iterator[list[Unit]], play: Callable[[Sequence[Unit]], list[Played]]
    ) -> Iterator[list[Played]]:
        """Play every batch of ``work`` with ``play`` on the workers; each result as it comes."""
        try:
            yield from self._run(work, play)
        finally:
            self.close()
        if self.refused:
            raise ForgedResults(self.where, self.refused, self.refusals)

    def checked(self, batch: Sequence[Unit], results: object) -> list[Played]:
        """The results of ``batch`` that are true results of its units (see
        :func:`~tricktable.tournament.verify.refusal`); the others are counted in
        :attr:`refused`, and so is each unit of the batch with no result at all."""
        units = {unit.key: unit for unit in batch}
        kept: list[Played] = []
        if not isinstance(results, list):
            self._refuse(f"a batch's results are a {type(results).__name__}, not a list")
            results = []
        for played in results:
            key = getattr(played, "key", None)
            unit = units.pop(key, None) if isinstance(key, str) else None  # once, at most
            why = "it is no unit of its batch, or one sent twice" if unit is None else None
            if unit is not None:
                why = refusal(unit, played)
            if why is None:
                kept.append(played)
            else:
                self._refuse(f"unit {str(getattr(played, 'key', '?'))[:40]}: {why}")
        for key in units:
            self._refuse(f"unit {key}: no result came back for it")
        return kept

    def _refuse(self, why: str) -> None:
        self.refused += 1
        if len(self.refusals) < REFUSALS_KEPT:
            self.refusals.append(why)

    def _run(
        self, work: Iterator[list[Unit]], play: Callable[[Sequence[Unit]], list[Played]]
    ) -> Iterator[list[Played]]:
        pool = self.pool
        source = iter(work)
        pending: dict[Future[list[Played]], list[Unit]] = {}  # each pending future's batch
        limit, counted = self._limit(), time.monotonic()
        idle_since: float | None = None
        failed: Future[list[Played]] | None = None

        def submit() -> None:
            nonlocal limit, counted
            if time.monotonic() - counted > RECOUNT:
                limit, counted = self._limit(), time.monotonic()
            while len(pending) < limit and (batch := next(source, None)) is not None:
                pending[pool.submit(_play_checked, play, self._fingerprint, batch)] = batch

        # Errors of the cluster and of the connection to it are caught here; a task's own
        # error (``failed``) is raised below, where they cannot be mistaken for one another.
        try:
            submit()
            while pending:
                done, _ = wait(pending, timeout=RECOUNT, return_when=FIRST_COMPLETED)
                raise_if_lost()  # a Ctrl-C Python lost (tricktable.interrupts)
                if not done:
                    # Nothing finished for a while: fine while workers play, not when none is left
                    # (a worker that cannot import tricktable leaves at its first task).
                    threads, counted = pool.threads(), time.monotonic()
                    limit = IN_FLIGHT * max(1, threads)
                    if threads:
                        idle_since = None
                        continue
                    idle_since = idle_since or time.monotonic()
                    if time.monotonic() - idle_since < WORKERS_TIMEOUT:
                        continue
                    raise ClusterError(
                        f"{self.where} has had no worker for {WORKERS_TIMEOUT:g} s: start them "
                        f"with `dask worker {self.address}` (a worker that cannot import "
                        "tricktable leaves at once: see its log); what is stored is kept"
                    )
                failed = next(
                    (f for f in done if not f.cancelled() and f.exception() is not None), None
                )
                if failed is not None:
                    break
                results = [(pending.pop(future), future.result()) for future in done]
                submit()  # before the results are stored, so that no worker waits meanwhile
                for batch, played in results:
                    kept = self.checked(batch, played)
                    if kept:
                        yield kept
        except CancelledError:
            raise ClusterError(
                f"{self.where}: the work was cancelled (the scheduler went away, or the "
                "connection to it): what is stored is kept; run the same command again to resume"
            ) from None
        except OSError as exc:
            raise ClusterError(
                f"{self.where}: lost the connection ({_reason(exc)}): what is stored is kept; "
                "run the same command again to resume"
            ) from None
        if failed is not None:
            raise self._failure(failed.exception())

    def _failure(self, error: BaseException | None) -> BaseException:
        """What to raise for a batch that failed with ``error``: the error itself (a bug, or
        the check of :func:`_play_checked`) or, where the cluster is at fault, one line."""
        from distributed import KilledWorker

        again = "what is stored is kept; run the same command again to resume"
        if isinstance(error, KilledWorker):
            return ClusterError(
                f"{self.where}: a batch of units killed every worker that ran it ({error}): "
                + again
            )
        if isinstance(error, RuntimeError) and isinstance(error.__cause__, ImportError):
            # Dask's scheduler unpickles each task, so it needs tricktable too.
            return ClusterError(
                f"{self.where}: its scheduler cannot read the tasks ({error.__cause__}): "
                f"install the same tricktable as here ({tricktable.__version__}) on the "
                "scheduler's machine and on every worker's"
            )
        if isinstance(error, ImportError):
            return ClusterError(
                f"{self.where}: a worker cannot import tricktable ({error}): install the same "
                f"tricktable as here ({tricktable.__version__}) on every worker machine"
            )
        return error if error is not None else ClusterError(f"{self.where}: a batch failed")

    def _limit(self) -> int:
        """Batches to keep in flight: :data:`IN_FLIGHT` for each worker thread (at least one)."""
        return IN_FLIGHT * max(1, self.pool.threads())

    def close(self) -> None:
        """Cancel what is in flight and close the client, and the cluster if this executor
        started it (again: nothing)."""
        self.pool.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _shutdown(client: Client, cluster: LocalCluster | None) -> None:
    # Closing the client cancels the batches still in flight; a cluster we started goes too.
    try:
        client.close()
    finally:
        if cluster is not None:
            cluster.close()


@functools.cache
def code_fingerprint() -> str:
    """The tricktable this process runs: its version and a digest of its modules and data.

    Only the files a built package holds count (``.py`` and ``.toml`` files of its packages),
    so a source checkout and a wheel built from it agree; compiled modules do not count, since
    mypyc's build of a module plays as its source does.
    """
    root = Path(tricktable.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".toml") and (path.parent / "__init__.py").is_file():
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return f"{tricktable.__version__}+{digest.hexdigest()[:12]}"


def _play_checked(
    play: Callable[[Sequence[Unit]], list[Played]], fingerprint: str, batch: Sequence[Unit]
) -> list[Played]:
    """``play(batch)`` on a worker, after checking that it runs the code the tournament does."""
    here = code_fingerprint()
    if here != fingerprint:
        from distributed import get_worker

        raise ClusterError(
            f"worker {get_worker().address} runs tricktable {here}, the tournament "
            f"{fingerprint}: install the same tricktable on every machine"
        )
    return play(batch)


def _reason(exc: BaseException, limit: int = 200) -> str:
    """An exception's message on one line, of at most ``limit`` characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
