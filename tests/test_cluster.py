"""Tournaments on a Dask cluster: a real LocalCluster stores exactly the games one local worker
does, through the library and the command line; the executor keeps few batches in flight and
closes its client; a bad address, a worker's or a silent server's is one line, quickly.

The doors: every cluster speaks TLS with certificates on both sides, so a client without the
cluster's key (plain TCP, TLS without a certificate, another key) cannot join it; a remote
scheduler is reached with the certificate files Dask's configuration names, never over plain
TCP; and a worker that sends forged results (tampered by a function that runs on the workers)
has every one of them refused and counted, and only true results stored."""

from __future__ import annotations

import dataclasses
import json
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask.config
import pytest
from distributed import Client
from distributed.security import Security

import tricktable
from conftest import cli_env, run_cli
from forgeries import tampering
from helpers import unused_port
from tricktable.db.store import Store
from tricktable.tournament import run as run_mod
from tricktable.tournament.cluster import (
    IN_FLIGHT,
    ClusterError,
    DaskExecutor,
    ForgedResults,
    code_fingerprint,
    dask_executor,
    local_cluster,
    temporary_security,
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
    seed=1,
)


@pytest.fixture(scope="module")
def keys() -> Security:
    """The TLS key of the module's cluster (a new temporary one, as ``--cluster local`` makes)."""
    return temporary_security()


@pytest.fixture(scope="module")
def scheduler(keys: Security) -> Iterator[str]:
    """The address of one LocalCluster of two worker processes, shared by this module's tests
    (a cluster takes seconds to start; the executors connect to it and leave it running)."""
    cluster = local_cluster(2, keys)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def executor(scheduler: str, keys: Security) -> DaskExecutor:
    """An executor on the module's cluster, as a remote scheduler is reached."""
    with dask.config.set(cluster_files(keys)):
        return dask_executor(scheduler, 2)


def cluster_files(keys: Security, folder: Path | None = None) -> dict[str, str]:
    """Dask's settings naming the client's certificate files (the PEM text itself where no
    ``folder`` is given to write them into), as a person sets them for a remote cluster."""
    texts = {
        "distributed.comm.tls.ca-file": keys.tls_ca_file,
        "distributed.comm.tls.client.cert": keys.tls_client_cert,
        "distributed.comm.tls.client.key": keys.tls_client_key,
    }
    if folder is None:
        return texts
    files = {}
    for name, text in texts.items():
        path = folder / (name.rsplit(".", 2)[-2] + "-" + name.rsplit(".", 1)[-1] + ".pem")
        path.write_text(text, encoding="utf-8")
        files[name] = str(path)
    return files


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


def test_a_cluster_stores_the_games_one_local_worker_does(
    tmp_path: Path, scheduler: str, keys: Security
) -> None:
    with Store.open(str(tmp_path / "local.db")) as store:
        assert run_mod.run(store, run_mod.start(store, SPEC), workers=1) == 60
    with Store.open(str(tmp_path / "cluster.db")) as store:
        started = run_mod.start(store, SPEC)
        on_cluster = executor(scheduler, keys)
        assert run_mod.run(store, started, executor=on_cluster) == 60
        assert on_cluster.client.status == "closed" and on_cluster.refused == 0
        assert store.tournament(started.tid).status == run_mod.FINISHED
    local, cluster = stored(tmp_path / "local.db", "c"), stored(tmp_path / "cluster.db", "c")
    assert len(local) == 60
    assert cluster == local


def test_the_executor_keeps_few_batches_in_flight_and_yields_each_as_it_finishes(
    scheduler: str, keys: Security
) -> None:
    todo = list(units(SPEC))
    drawn = 0
    most_ahead = 0

    def work() -> Iterator[list[Unit]]:
        nonlocal drawn
        for batch in batches(todo, 3):  # 20 batches: all of them at once would show
            drawn += 1
            yield batch

    on_cluster = executor(scheduler, keys)
    played = []
    for batch in on_cluster(work(), play_units):
        played.append(batch)
        most_ahead = max(most_ahead, drawn - len(played))
    # two worker threads: IN_FLIGHT batches each, plus those finished in the same moment
    assert 1 <= most_ahead <= 2 * IN_FLIGHT * 2
    assert on_cluster.client.status == "closed"
    got = {p.key: p for batch in played for p in batch}
    assert got == {p.key: p for p in play_units(todo)}


def test_stopping_early_closes_the_client(scheduler: str, keys: Security) -> None:
    on_cluster = executor(scheduler, keys)
    results = on_cluster(batches(units(SPEC), 3), play_units)
    assert len(next(results)) == 3
    results.close()  # what a KeyboardInterrupt or a failed store does to the generator
    assert on_cluster.client.status == "closed"
    on_cluster.close()  # again: nothing


def test_a_worker_running_other_code_is_refused(scheduler: str, keys: Security) -> None:
    assert code_fingerprint().startswith(f"{tricktable.__version__}+")
    on_cluster = executor(scheduler, keys)
    on_cluster._fingerprint = "0.0.0+000000000000"  # as if this machine ran other code
    with pytest.raises(ClusterError, match=r"worker tls://127\.0\.0\.1:\d+ runs tricktable .*"):
        list(on_cluster(batches(units(SPEC), 3), play_units))
    assert on_cluster.client.status == "closed"


# ------------------------------------------------------------------------------ bad addresses


def test_bad_addresses_are_one_line_and_quick(scheduler: str, keys: Security) -> None:
    with Client(scheduler, security=keys, set_as_default=False) as client:
        worker = next(iter(client.nthreads()))
    cases = {
        "nonsense": "is not a Dask scheduler's address",
        "http://127.0.0.1:8786": "is not a Dask scheduler's address",
        "tls://127.0.0.1:99999": "is not a Dask scheduler's address",
        f"tls://127.0.0.1:{unused_port()}": "the connection was refused",
        worker: "is a Dask Worker, not a scheduler",
    }
    for address, words in cases.items():
        began = time.perf_counter()
        with pytest.raises(ClusterError, match=words) as caught:
            dask_executor(address, None, timeout=5, security=keys)
        assert time.perf_counter() - began < 4, address
        assert "\n" not in str(caught.value)


def test_a_server_that_is_not_dask_fails_within_the_timeout(keys: Security) -> None:
    # A socket listening but never answering: Dask's own client would wait for ever.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tls://127.0.0.1:{silent.getsockname()[1]}"
        began = time.perf_counter()
        with pytest.raises(ClusterError, match=r"no Dask scheduler answered .* within 1 s"):
            dask_executor(address, None, timeout=1, security=keys)
        assert time.perf_counter() - began < 3


# ---------------------------------------------------------------------------------- the doors


def test_only_a_holder_of_the_clusters_key_can_join(scheduler: str, keys: Security) -> None:
    port = int(scheduler.rsplit(":", 1)[1])
    # Plain TCP, as `Client("tcp://...")` from any local process connected before.
    with pytest.raises((OSError, TimeoutError)):
        Client(f"tcp://127.0.0.1:{port}", timeout=2, set_as_default=False)
    # TLS with a key and certificate of its own, not the cluster's.
    with pytest.raises((OSError, TimeoutError)):
        Client(scheduler, security=temporary_security(), timeout=2, set_as_default=False)
    # TLS trusting the scheduler but with no certificate to show: refused in the handshake.
    context = ssl.create_default_context(cadata=keys.tls_ca_file)
    context.check_hostname = False
    with (
        socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
        pytest.raises((ssl.SSLError, ConnectionError)),
        context.wrap_socket(raw) as tls,
    ):
        tls.sendall(b"\0" * 8)
        if not tls.recv(1):  # TLS 1.3 says the refusal after the handshake
            raise ConnectionError("closed")
    # The cluster's own key: in.
    with Client(scheduler, security=keys, timeout=10, set_as_default=False) as client:
        assert client.submit(sum, [20, 22], pure=False).result() == 42


def test_plain_tcp_and_a_remote_cluster_without_certificates_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in list(__import__("os").environ):
        if name.startswith("DASK_"):
            monkeypatch.delenv(name)
    with pytest.raises(ClusterError, match="plain TCP lets anyone who reaches the scheduler"):
        dask_executor("tcp://127.0.0.1:8786", None, timeout=1)
    with pytest.raises(ClusterError, match=r"give tls://127\.0\.0\.1:8786"):
        dask_executor("127.0.0.1:8786", None, timeout=1)
    with pytest.raises(ClusterError, match="a remote cluster needs its TLS certificates"):
        dask_executor("tls://127.0.0.1:8786", None, timeout=1)
    missing = {"distributed.comm.tls.ca-file": str(tmp_path / "nowhere.pem"),
               "distributed.comm.tls.client.cert": str(tmp_path / "nowhere.pem")}  # fmt: skip
    with dask.config.set(missing), pytest.raises(ClusterError, match="which is not a file"):
        dask_executor("tls://127.0.0.1:8786", None, timeout=1)


def test_the_temporary_key_needs_no_package_beyond_dask() -> None:
    # Security.temporary() wants the cryptography package; without it the openssl program
    # makes the key. Either way: a key and certificate for every role, in memory only.
    if shutil.which("openssl") is None:
        pytest.skip("no openssl program here")
    made = temporary_security()
    assert made.require_encryption
    assert "PRIVATE KEY" in made.tls_client_key and made.tls_client_cert == made.tls_ca_file
    assert made.tls_worker_key == made.tls_scheduler_key == made.tls_client_key
    assert temporary_security().tls_client_key != made.tls_client_key


# ----------------------------------------------------------------------------- forged results


def test_forged_results_are_refused_counted_and_never_stored(
    tmp_path: Path, scheduler: str, keys: Security
) -> None:
    with Store.open(str(tmp_path / "local.db")) as store:
        run_mod.run(store, run_mod.start(store, SPEC), workers=1)
    with Store.open(str(tmp_path / "cluster.db")) as store:
        started = run_mod.start(store, SPEC)
        forged = executor(scheduler, keys)
        with pytest.raises(ForgedResults) as caught:
            run_mod.run(store, started, executor=lambda work, _: forged(work, tampering))
        assert store.tournament(started.tid).status != run_mod.FINISHED
    refused = caught.value
    assert refused.count == forged.refused == 30
    assert "30 result(s) failed their replay and were not stored" in str(refused)
    assert "\n" not in str(refused)
    reasons = " | ".join(refused.refusals)
    assert "its result says scores" in reasons
    assert "is not the deal its seed gives" in reasons
    assert "its record does not replay" in reasons
    assert "its match stops after 0 finished hand(s) of 1 dealt" in reasons
    local = stored(tmp_path / "local.db", "c")
    kept = stored(tmp_path / "cluster.db", "c")
    assert len(kept) == 30
    assert all(kept[unit] == local[unit] for unit in kept)  # only true results were stored
    # Run again on honest workers: the refused units are played, and all is as locally.
    with Store.open(str(tmp_path / "cluster.db")) as store:
        assert (
            run_mod.run(store, run_mod.start(store, SPEC), executor=executor(scheduler, keys)) == 30
        )
    assert stored(tmp_path / "cluster.db", "c") == local


def test_results_that_do_not_match_their_batch_are_refused(keys: Security) -> None:
    # The executor's check, without a cluster: missing, foreign and repeated results.
    batch = list(units(SPEC))[:4]
    played = play_units(batch)
    check = DaskExecutor.__new__(DaskExecutor)
    check.refused, check.refusals = 0, []
    assert check.checked(batch, played) == played and check.refused == 0
    foreign = dataclasses.replace(played[1], key="g9/d9/t9")
    assert check.checked(batch, [played[0], played[0], foreign]) == [played[0]]
    assert check.refused == 2 + 3  # the repeat, the foreign one, and three units with none
    assert check.checked(batch, "not a list") == [] and check.refused == 5 + 1 + 4


# ---------------------------------------------------------------------------- the command line


def cli_with(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m tricktable ARGS`` with ``env`` added to the tests' environment."""
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args],
        capture_output=True, text=True, env={**cli_env(), **env}, timeout=120, check=False,
    )  # fmt: skip


def remote_env(keys: Security, folder: Path) -> dict[str, str]:
    """The environment variables that name the certificate files, written into ``folder``
    (``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``...), as docs/cluster.md shows."""
    return {
        "DASK_" + name.upper().replace(".", "__").replace("-", "_"): path
        for name, path in cluster_files(keys, folder).items()
    }


def test_the_command_plays_on_a_local_cluster_as_on_one_worker(tmp_path: Path) -> None:
    args = ("tournament", "random", "heuristic", "--deals", "4", "--name", "cli", "--json")
    args += ("--seed", "1")
    on_cluster = run_cli(*args, "--cluster", "local", "--workers", "2", "--db", str(tmp_path / "c"))
    assert on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stderr == ""  # no log line of Dask's
    summary = json.loads(on_cluster.stdout)
    assert (summary["units"], summary["stored_now"]) == (8, 8)
    local = run_cli(*args, "--workers", "1", "--db", str(tmp_path / "l"))
    assert local.returncode == 0, local.stderr
    assert stored(tmp_path / "c", "cli") == stored(tmp_path / "l", "cli")


def test_the_command_reaches_a_remote_cluster_with_its_certificate_files(
    tmp_path: Path, scheduler: str, keys: Security
) -> None:
    env = remote_env(keys, tmp_path)
    args = ("tournament", "random", "heuristic", "--deals", "4", "--name", "r", "--json")
    args += ("--seed", "1", "--cluster", scheduler, "--db", str(tmp_path / "r.db"))
    done = cli_with(env, *args)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stored_now"] == 8
    without = cli_with({}, *args[:-1], str(tmp_path / "none.db"))
    assert without.returncode == 2 and without.stdout == ""
    assert "a remote cluster needs its TLS certificates" in without.stderr
    assert without.stderr.count("\n") == 1


def test_the_command_with_a_bad_address_exits_2_with_one_line(
    tmp_path: Path, keys: Security
) -> None:
    address = f"tls://127.0.0.1:{unused_port()}"
    env = remote_env(keys, tmp_path)
    began = time.perf_counter()
    args = ("tournament", "random", "heuristic", "--deals", "2", "--cluster", address)
    done = cli_with(env, *args, "--db", str(tmp_path / "t.db"))
    assert time.perf_counter() - began < 15
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"error: cannot reach a Dask scheduler at {address}")


def test_the_documented_remote_setup_works_and_keeps_strangers_out(tmp_path: Path) -> None:
    # docs/cluster.md's steps word for word, on loopback: a CA of one's own, a certificate it
    # signs, `dask scheduler` and `dask worker` with them, and the command with the files
    # named in the environment.
    openssl, dask = shutil.which("openssl"), Path(sys.executable).with_name("dask")
    if openssl is None or not dask.is_file():
        pytest.skip("the openssl program and the dask command are needed")
    for step in (
        "req -x509 -newkey rsa:3072 -nodes -days 365 -subj /CN=tricktable-ca"
        " -keyout ca.key -out ca.pem",
        "req -newkey rsa:3072 -nodes -subj /CN=tricktable-cluster"
        " -keyout cluster.key -out cluster.csr",
        "x509 -req -in cluster.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 365"
        " -out cluster.pem",
    ):
        subprocess.run([openssl, *step.split()], cwd=tmp_path, capture_output=True, check=True)
    tls = ["--tls-ca-file", "ca.pem", "--tls-cert", "cluster.pem", "--tls-key", "cluster.key"]
    port = unused_port()
    address = f"tls://127.0.0.1:{port}"
    quiet = ["--host", "127.0.0.1", "--no-dashboard"]
    env = cli_env()
    started = [
        subprocess.Popen([str(dask), "scheduler", "--protocol", "tls", "--port", str(port),
                          *quiet, *tls], cwd=tmp_path, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        subprocess.Popen([str(dask), "worker", address, "--nworkers", "1", "--nthreads", "1",
                          *quiet, *tls], cwd=tmp_path, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ]  # fmt: skip
    try:
        files = {
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(tmp_path / "ca.pem"),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(tmp_path / "cluster.pem"),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(tmp_path / "cluster.key"),
        }
        args = ("tournament", "random", "heuristic", "--deals", "2", "--name", "d", "--json")
        done = cli_with(files, *args, "--seed", "1", "--cluster", address,
                        "--db", str(tmp_path / "d.db"))  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["stored_now"] == 4
        # A key of another authority (as any other process could make) is refused.
        stranger = temporary_security()
        with pytest.raises((OSError, TimeoutError)):
            Client(address, security=stranger, timeout=2, set_as_default=False)
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.wait(timeout=30)
