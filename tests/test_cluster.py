"""Tournaments on a Dask cluster: a real LocalCluster stores exactly the games one local worker
does, through the library and the command line; the executor keeps few batches in flight and
closes its client; a bad address, a worker's or a silent server's is one line, quickly."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tricktable
from conftest import run_cli
from helpers import unused_port
from tricktable.db.store import Store
from tricktable.tournament import run as run_mod
from tricktable.tournament.cluster import (
    IN_FLIGHT,
    ClusterError,
    code_fingerprint,
    dask_executor,
    local_cluster,
)
from tricktable.tournament.play import batches, play_units
from tricktable.tournament.schedule import Unit, units
from tricktable.tournament.spec import TournamentSpec

#: 30 deals at two tables: 60 units, three batches of the runner's size
SPEC = TournamentSpec(
    name="c",
    game="setback",
    entrants=(("r", "random"), ("h", "heuristic")),
    format="duplicate",
    deals=30,
)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of one LocalCluster of two worker processes, shared by this module's tests
    (a cluster takes seconds to start; the executors connect to it and leave it running)."""
    cluster = local_cluster(2)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def stored(path: Path, name: str) -> dict[str, tuple[Any, ...]]:
    """Every stored game of a tournament: unit -> (entrant names at the seats, result, record)."""
    with Store.open(str(path)) as store:
        found = store.find_tournament(name)
        assert found is not None
        names = {e.id: e.name for e in store.entrants(found.id)}
        return {
            g.unit: (tuple(names[s] for s in g.seats), g.seed, g.result, g.record)
            for g in store.games(found.id)
        }


# ---------------------------------------------------------------------------- the same games


def test_a_cluster_stores_the_games_one_local_worker_does(tmp_path: Path, scheduler: str) -> None:
    with Store.open(str(tmp_path / "local.db")) as store:
        assert run_mod.run(store, run_mod.start(store, SPEC), workers=1) == 60
    with Store.open(str(tmp_path / "cluster.db")) as store:
        started = run_mod.start(store, SPEC)
        executor = dask_executor(scheduler, 2)
        assert run_mod.run(store, started, executor=executor) == 60
        assert executor.client.status == "closed"
        assert store.tournament(started.tid).status == run_mod.FINISHED
    local, cluster = stored(tmp_path / "local.db", "c"), stored(tmp_path / "cluster.db", "c")
    assert len(local) == 60
    assert cluster == local


def test_the_executor_keeps_few_batches_in_flight_and_yields_each_as_it_finishes(
    scheduler: str,
) -> None:
    todo = list(units(SPEC))
    drawn = 0
    most_ahead = 0

    def work() -> Iterator[list[Unit]]:
        nonlocal drawn
        for batch in batches(todo, 3):  # 20 batches: all of them at once would show
            drawn += 1
            yield batch

    executor = dask_executor(scheduler, 2)
    played = []
    for batch in executor(work(), play_units):
        played.append(batch)
        most_ahead = max(most_ahead, drawn - len(played))
    # two worker threads: IN_FLIGHT batches each, plus those finished in the same moment
    assert 1 <= most_ahead <= 2 * IN_FLIGHT * 2
    assert executor.client.status == "closed"
    got = {p.key: p for batch in played for p in batch}
    assert got == {p.key: p for p in play_units(todo)}


def test_stopping_early_closes_the_client(scheduler: str) -> None:
    executor = dask_executor(scheduler, 2)
    results = executor(batches(units(SPEC), 3), play_units)
    assert len(next(results)) == 3
    results.close()  # what a KeyboardInterrupt or a failed store does to the generator
    assert executor.client.status == "closed"
    executor.close()  # again: nothing


def test_a_worker_running_other_code_is_refused(scheduler: str) -> None:
    assert code_fingerprint().startswith(f"{tricktable.__version__}+")
    executor = dask_executor(scheduler, 2)
    executor._fingerprint = "0.0.0+000000000000"  # as if this machine ran other code
    with pytest.raises(ClusterError, match=r"worker tcp://127\.0\.0\.1:\d+ runs tricktable .*"):
        list(executor(batches(units(SPEC), 3), play_units))
    assert executor.client.status == "closed"


# ------------------------------------------------------------------------------ bad addresses


def test_bad_addresses_are_one_line_and_quick(scheduler: str) -> None:
    from distributed import Client

    with Client(scheduler, set_as_default=False) as client:
        worker = next(iter(client.nthreads()))
    cases = {
        "nonsense": "is not a Dask scheduler's address",
        "http://127.0.0.1:8786": "is not a Dask scheduler's address",
        "tcp://127.0.0.1:99999": "is not a Dask scheduler's address",
        f"tcp://127.0.0.1:{unused_port()}": "the connection was refused",
        worker: "is a Dask Worker, not a scheduler",
    }
    for address, words in cases.items():
        began = time.perf_counter()
        with pytest.raises(ClusterError, match=words) as caught:
            dask_executor(address, None, timeout=5)
        assert time.perf_counter() - began < 4, address
        assert "\n" not in str(caught.value)


def test_a_server_that_is_not_dask_fails_within_the_timeout() -> None:
    # A socket listening but never answering: Dask's own client would wait for ever.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        began = time.perf_counter()
        with pytest.raises(ClusterError, match=r"no Dask scheduler answered .* within 1 s"):
            dask_executor(address, None, timeout=1)
        assert time.perf_counter() - began < 3


# ---------------------------------------------------------------------------- the command line


def test_the_command_plays_on_a_local_cluster_as_on_one_worker(tmp_path: Path) -> None:
    args = ("tournament", "random", "heuristic", "--deals", "4", "--name", "cli", "--json")
    on_cluster = run_cli(*args, "--cluster", "local", "--workers", "2", "--db", str(tmp_path / "c"))
    assert on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stderr == ""  # no log line of Dask's
    summary = json.loads(on_cluster.stdout)
    assert (summary["units"], summary["stored_now"]) == (8, 8)
    local = run_cli(*args, "--workers", "1", "--db", str(tmp_path / "l"))
    assert local.returncode == 0, local.stderr
    assert stored(tmp_path / "c", "cli") == stored(tmp_path / "l", "cli")


def test_the_command_with_a_bad_address_exits_2_with_one_line(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{unused_port()}"
    began = time.perf_counter()
    args = ("tournament", "random", "heuristic", "--deals", "2", "--cluster", address)
    done = run_cli(*args, "--db", str(tmp_path / "t.db"))
    assert time.perf_counter() - began < 15
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(
        f"tricktable tournament: cannot reach a Dask scheduler at {address}"
    )
