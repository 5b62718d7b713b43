"""The one executor every pool is made by (tricktable.workers.executor): local processes and a
real Dask LocalCluster answer the same concurrent.futures calls, a tournament stores the same
games through either, and Ctrl-C to a real command leaves no worker process behind."""

from __future__ import annotations

import operator
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import as_completed
from pathlib import Path
from typing import Any

import pytest

from conftest import cli_env
from tricktable.db.store import Store
from tricktable.tournament import run as run_mod
from tricktable.tournament.cluster import dask_executor
from tricktable.tournament.spec import TournamentSpec
from tricktable.workers import LocalExecutor, executor

#: 12 deals at two tables: 24 units, whole batches of two per task on two workers
SPEC = TournamentSpec(
    name="x",
    game="setback",
    entrants=(("r", "random"), ("h", "heuristic")),
    format="duplicate",
    deals=12,
    seed=7,
)


def _worker_pid(_: object) -> int:
    return os.getpid()


@pytest.mark.parametrize("cluster", [None, "local"])
def test_local_processes_and_a_cluster_answer_the_same_calls(cluster: str | None) -> None:
    with executor(2, cluster) as pool:
        assert pool.submit(operator.add, 20, 22).result() == 42
        assert pool.submit(int, "ff", base=16).result() == 255
        assert list(pool.map(operator.mul, range(5), range(5))) == [0, 1, 4, 9, 16]
        futures = [pool.submit(operator.neg, n) for n in range(6)]
        assert sorted(f.result() for f in as_completed(futures)) == [-5, -4, -3, -2, -1, 0]
        with pytest.raises(ZeroDivisionError):
            pool.submit(operator.truediv, 1, 0).result()
    if cluster is None:
        assert isinstance(pool, LocalExecutor)
    else:
        assert pool.client.status == "closed"  # type: ignore[attr-defined]


def test_leaving_on_an_error_stops_the_local_workers_at_once() -> None:
    with pytest.raises(KeyError), executor(2) as pool:
        pids = set(pool.map(_worker_pid, range(8)))
        slow = pool.submit(time.sleep, 600)  # nobody waits for it
        raise KeyError("stop")
    assert slow.cancelled() or slow.exception() is not None
    assert pids and not any(_alive(pid) for pid in pids)


def test_a_cluster_runs_no_initializer() -> None:
    with pytest.raises(ValueError, match="no initializer"), executor(1, "local", initializer=print):
        pass


def stored(path: Path) -> dict[str, tuple[Any, ...]]:
    with Store.open(str(path)) as store:
        found = store.find_tournament(SPEC.name)
        assert found is not None
        return {g.unit: (tuple(g.seats), g.seed, g.result, g.record) for g in store.games(found.id)}


def test_a_tournament_stores_the_same_games_locally_and_on_a_cluster(tmp_path: Path) -> None:
    with Store.open(str(tmp_path / "local.db")) as store:
        assert run_mod.run(store, run_mod.start(store, SPEC), workers=2) == 24
    with Store.open(str(tmp_path / "cluster.db")) as store:
        on_cluster = dask_executor("local", 2)
        assert run_mod.run(store, run_mod.start(store, SPEC), executor=on_cluster) == 24
        assert on_cluster.refused == 0  # every result replayed before it was stored
    local = stored(tmp_path / "local.db")
    assert len(local) == 24 and stored(tmp_path / "cluster.db") == local


# -------------------------------------------------------------------------------- Ctrl-C


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--hands", "5000000", "--workers", "2", "--json"],
        ["tournament", "random", "heuristic", "--deals", "50000", "--workers", "2", "--json"],
    ],
    ids=["simulate", "tournament"],
)
def test_ctrl_c_leaves_no_worker_behind(args: list[str], tmp_path: Path) -> None:
    if args[0] == "tournament":
        args = [*args, "--db", str(tmp_path / "t.db")]
    child = subprocess.Popen(
        [sys.executable, "-m", "tricktable", *args],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60  # the command and its two workers, started
        while time.monotonic() < deadline and len(_session(child.pid)) < 3:
            time.sleep(0.1)
        workers = set(_session(child.pid)) - {child.pid}
        assert len(workers) >= 2
        time.sleep(0.5)  # into the work, past the workers' start
        os.killpg(child.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the command and its workers
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert child.returncode == 130
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]
    assert _session(child.pid) == []
