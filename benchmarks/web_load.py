"""Load on one ``tricktable serve`` process: concurrent tables played over real websockets.

Starts ``tricktable serve`` (``--pace 0``, a new SQLite file) on a free loopback port, then
seats ``--tables`` tables of Setback, every seat a client of this process playing over its
own websocket (``websockets``' asyncio client; the first legal action, at once). It plays for
``--seconds`` and reports: moves a second (confirmed, all tables), the delay from a move's
being sent to its ``confirm`` and its ``events`` having reached every seat (p50, p99), the
server's memory per table (its resident memory after seating, less before, over the
tables), the server's CPU time a move (what a busy machine's share does not hide), and
whether every confirmed move is in the journal exactly once (none lost, none doubled).

Usage: ``python benchmarks/web_load.py [--tables 100,500,1000] [--seconds 20] [--think 0]
[--clients N] [--server-cpus 0,1] [--client-cpus 2-15] [--json FILE] [--profile FILE]
[--full-confirms] [--db URL]``. ``--think`` is a seat's mean seconds before acting (0: at
once, the server saturated; else an offered load of about tables/think moves a second).
The clients share the machine with the server unless ``--server-cpus`` and
``--client-cpus`` pin them (``taskset``). What it measures, the figures and the command for a
larger machine: ``docs/web-load.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def post(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """A POST, tried again where the server dropped a kept-alive connection under load."""
    for attempt in range(5):
        try:
            return await http.post(url, **kwargs)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError):
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


class Seat:
    """One websocket client at one seat."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        self.ws: ClientConnection | None = None
        self.confirmed: list[str] = []
        #: when each act not yet confirmed was sent
        self.acts: dict[str, float] = {}
        self.n = 0
        self.table = ""

    async def open(self, http: httpx.AsyncClient) -> None:
        answer = await post(http, self.base + "/api/guest", json={"name": self.name})
        cookie = "; ".join(f"{k}={v}" for k, v in answer.cookies.items())
        self.csrf = answer.json()["csrf"]
        self.cookie = cookie
        url = self.base.replace("http", "ws") + "/ws"
        self.ws = await connect(url, additional_headers={"Cookie": cookie}, max_size=None)

    #: whether confirms carry a snapshot (``--full-confirms``), or the seat folds its events
    full = False

    async def act(self, action: int) -> None:
        self.n += 1
        act_id = f"{self.name}-{self.n}"
        self.acts[act_id] = time.monotonic()
        data: dict[str, Any] = {"action": action}
        if not self.full:
            data["snapshot"] = False
        await self.send("act", data, id=act_id)

    async def send(self, kind: str, data: dict[str, Any], id: str | None = None) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"type": kind, "table": self.table, "id": id, "data": data}))


async def play(
    seat: Seat,
    stop: float,
    sent: dict[tuple[str, int], float],
    arrived: dict[tuple[str, int], list[float]],
    think: float = 0.0,
) -> None:
    """Read frames; act on a snapshot that is the seat's turn: at once, or after ``think``
    seconds on average (uniform between half and one and a half times it)."""
    assert seat.ws is not None
    version = -1
    tasks: set[asyncio.Task[None]] = set()

    async def later(action: int) -> None:
        await asyncio.sleep(think * (0.5 + random.random()))
        if time.monotonic() < stop:
            await seat.act(action)

    async def act(action: int) -> None:
        if think <= 0:
            await seat.act(action)
            return
        task = asyncio.ensure_future(later(action))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    while time.monotonic() < stop:
        try:
            raw = await asyncio.wait_for(seat.ws.recv(), max(stop - time.monotonic(), 0.01))
        except TimeoutError:
            return
        frame = json.loads(raw)
        kind, data, v = frame["type"], frame["data"], frame.get("v")
        if kind == "events":
            now = time.monotonic()
            for event in data["events"]:
                arrived[(seat.table, event["version"])].append(now)
            version = v
        elif kind == "confirm":
            # an act's confirm comes after its events: the seat has it with the confirm
            sent[(seat.table, v)] = seat.acts.pop(frame["id"], time.monotonic())
            arrived[(seat.table, v)].append(time.monotonic())
            seat.confirmed.append(frame["id"])
            version = v
        elif kind == "snapshot":
            version = v
            if data["legal"] and data["version"] == version and not data.get("over"):
                await act(data["legal"][0]["action"])
        elif kind == "refuse" and data["snapshot"]["legal"]:
            await act(data["snapshot"]["legal"][0]["action"])


async def seat_table(
    base: str, http: httpx.AsyncClient, k: int, seats: list[Any] | None = None
) -> list[Any]:
    """Table k's four guests (``seats``, made here unless given: web_scale.py gives its own),
    its table made by the first at its server, the others seated."""
    seats = seats or [Seat(base, f"t{k}s{s}") for s in range(4)]
    await asyncio.gather(*(s.open(http) for s in seats))
    body = {"game": "setback(target=500)", "seats": [{"kind": "me"}] + [{"kind": "open"}] * 3}
    first = seats[0]
    answer = await post(
        http,
        first.base + "/api/tables",
        json=body,
        headers={"X-CSRF-Token": first.csrf, "Cookie": first.cookie},
    )
    table = answer.json()["table"]["id"]
    for i, seat in enumerate(seats):
        seat.table = table
        await seat.send("hello", {})
        if i:
            await seat.send("take_seat", {"seat": i})
    return seats


async def part(
    base: str, tables: range, seconds: float, ready: Any, think: float = 0.0
) -> tuple[list[str], list[float], float]:
    """One client process's share: seat ``tables``, wait for every process (``ready``, a
    barrier), play ``seconds``; its confirmed ids, its delays and the time it played."""
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        all_seats: list[Seat] = []
        for start in range(tables.start, tables.stop, 50):
            batch = await asyncio.gather(
                *(seat_table(base, http, k) for k in range(start, min(start + 50, tables.stop)))
            )
            for seats in batch:
                all_seats.extend(seats)
        await asyncio.sleep(1.0)
        await asyncio.get_running_loop().run_in_executor(None, ready.wait)
        sent: dict[tuple[str, int], float] = {}
        arrived: dict[tuple[str, int], list[float]] = defaultdict(list)
        stop = time.monotonic() + seconds
        began = time.monotonic()
        await asyncio.gather(*(play(s, stop, sent, arrived, think) for s in all_seats))
        spent = time.monotonic() - began
        for seat in all_seats:
            assert seat.ws is not None
            await seat.ws.close()
    delays = []
    for key, t0 in sent.items():
        times = arrived.get(key, [])
        if len(times) >= 4:  # the three other seats' events and the actor's confirm
            delays.append(max(times) - t0)
    return [i for s in all_seats for i in s.confirmed], delays, spent


def client(
    base: str,
    tables: range,
    seconds: float,
    ready: Any,
    out: Any,
    cpus: set[int] | None,
    think: float,
    full: bool = False,
) -> None:
    """A client process (on ``cpus``, if given): :func:`part`, its result put on ``out``."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    Seat.full = full
    out.put(asyncio.run(part(base, tables, seconds, ready, think)))


def cpu_list(text: str | None) -> set[int] | None:
    """taskset's list (``2-15``, ``0,1``) as a set of cores."""
    if not text:
        return None
    cpus: set[int] = set()
    for piece in text.split(","):
        low, _, high = piece.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def run(
    base: str,
    pid: int,
    tables: int,
    seconds: float,
    clients: int,
    cpus: set[int] | None = None,
    think: float = 0.0,
    full: bool = False,
) -> dict[str, Any]:
    """Seat and play ``tables`` from ``clients`` processes; the figures."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(clients + 1)
    out = context.Queue()
    before = rss_kib(pid)
    shares = [range(k * tables // clients, (k + 1) * tables // clients) for k in range(clients)]
    workers = [
        context.Process(target=client, args=(base, share, seconds, ready, out, cpus, think, full))
        for share in shares
    ]
    for worker in workers:
        worker.start()
    ready.wait()
    seated = rss_kib(pid)
    cpu = cpu_seconds(pid)
    results = [out.get() for _ in workers]
    cpu = cpu_seconds(pid) - cpu
    for worker in workers:
        worker.join()
    confirmed = [i for ids, _, _ in results for i in ids]
    delays = sorted(d for _, ds, _ in results for d in ds)
    spent = max(t for _, _, t in results)
    return {
        "tables": tables,
        "seconds": spent,
        "moves_per_s": len(confirmed) / spent,
        "p50_ms": 1000 * delays[len(delays) // 2] if delays else None,
        "p90_ms": 1000 * delays[int(len(delays) * 0.90)] if delays else None,
        "p99_ms": 1000 * delays[int(len(delays) * 0.99)] if delays else None,
        "max_ms": 1000 * delays[-1] if delays else None,
        "kib_per_table": (seated - before) / tables,
        "server_rss_mib": seated / 1024,
        "cpu_ms_per_move": 1000 * cpu / max(len(confirmed), 1),
        "server_cpu_share": cpu / spent,
        "confirmed": confirmed,
    }


def journal_ids(db: str) -> list[str]:
    """Every act id in the journal of database ``db`` (a SQLite file or a URL)."""
    if "://" not in db:
        with sqlite3.connect(db) as connection:
            rows = connection.execute("SELECT steps FROM web_journal").fetchall()
    else:
        from sqlalchemy import create_engine, text

        engine = create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.connect() as connection:
            rows = list(connection.execute(text("SELECT steps FROM web_journal")).fetchall())
        engine.dispose()
    return [s[3] for (steps,) in rows for s in json.loads(steps) if s[0] == "act" and len(s) > 3]


#: runs ``tricktable serve`` under cProfile (the event loop's thread), dumping at its end
PROFILED = """
import cProfile, signal, sys
from tricktable.cli.serve import ServeOptions, run_serve
# uvicorn raises the SIGTERM it caught again once it has stopped: exit, dumping the profile
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
profile = cProfile.Profile()
profile.enable()
many = 100000  # every client is on loopback: the per-address and per-account caps are lifted
try:
    run_serve(ServeOptions(port=int(sys.argv[1]), db=sys.argv[2], pace=0.0, new_people=many,
                           max_sockets=many, max_sockets_per_address=many,
                           max_sockets_per_account=many))
finally:
    profile.disable()
    profile.dump_stats(sys.argv[3])
"""


def server_command(port: int, db: str, profile: str | None) -> list[str]:
    """The server's command line (under cProfile when ``profile`` names its output)."""
    if profile:
        return [sys.executable, "-c", PROFILED, str(port), db, profile]
    return [
        sys.executable,
        "-m",
        "tricktable",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--pace",
        "0",
        "--new-people",
        "100000",
        # every client is on loopback: the per-address and per-account caps are lifted
        "--max-sockets",
        "100000",
        "--max-sockets-per-address",
        "100000",
        "--max-sockets-per-account",
        "100000",
    ]


def table_counts(values: list[str]) -> list[int]:
    """``--tables``: counts given apart or as one list (``100,500,1000``)."""
    return [int(x) for v in values for x in v.split(",") if x.strip()]


def raise_file_limit() -> None:
    """Allow as many open files as the system lets (each seat is a socket on both sides);
    the server, started after, inherits it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard > 0 else soft, hard))


def main() -> None:
    raise_file_limit()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", nargs="+", default=["100,500,1000"], help="100,500,1000")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--server-cpus", default=None, help="pin the server: taskset's list")
    parser.add_argument("--client-cpus", default=None, help="pin the clients: taskset's list")
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument(
        "--think", type=float, default=0.0, help="a seat's mean seconds before acting (0: at once)"
    )
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: a new SQLite file)")
    parser.add_argument(
        "--full-confirms", action="store_true", help="confirms with a snapshot (the default's)"
    )
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    parser.add_argument("--profile", default=None, help="cProfile the server: its stats file")
    args = parser.parse_args()
    results = []
    for tables in table_counts(args.tables):
        with tempfile.TemporaryDirectory() as folder:
            db = args.db or str(Path(folder) / "load.db")
            port = free_port()
            paths = [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
            pin = ["taskset", "-c", args.server_cpus] if args.server_cpus else []
            command = [*pin, *server_command(port, db, args.profile)]
            server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
            base = f"http://127.0.0.1:{port}"
            try:
                for _ in range(300):
                    try:
                        httpx.get(base + "/api/me", timeout=1)
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                cpus = cpu_list(args.client_cpus)
                result = run(
                    base,
                    server.pid,
                    tables,
                    args.seconds,
                    args.clients,
                    cpus,
                    args.think,
                    args.full_confirms,
                )
            finally:
                server.terminate()
                server.wait(60)
            ids = journal_ids(db)
            confirmed = result.pop("confirmed")
            lost = set(confirmed) - set(ids)
            doubled = len(ids) - len(set(ids))
            result.update(confirmed=len(confirmed), lost=len(lost), doubled=doubled)
            result.update(
                server_cpus=args.server_cpus,
                client_cpus=args.client_cpus,
                think=args.think,
                full_confirms=args.full_confirms,
            )
            results.append(result)
            p50, p99 = result["p50_ms"], result["p99_ms"]
            print(
                f"{tables:5d} tables: {result['moves_per_s']:8.1f} moves/s, act to every "
                f"seat p50 {p50 if p50 is None else round(p50, 1)} ms, p99 "
                f"{p99 if p99 is None else round(p99, 1)} ms, "
                f"{result['kib_per_table']:.0f} KiB a table, server CPU "
                f"{result['cpu_ms_per_move']:.2f} ms a move; {len(confirmed)} confirmed, "
                f"{len(lost)} lost, {doubled} doubled",
                flush=True,
            )
            if args.json:
                machine = {"cpus": os.cpu_count(), "load": os.getloadavg()}
                Path(args.json).write_text(
                    json.dumps({"machine": machine, "results": results}, indent=2) + "\n"
                )


if __name__ == "__main__":
    main()
