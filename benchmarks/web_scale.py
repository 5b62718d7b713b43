"""Many ``tricktable serve`` processes on one Redis and one PostgreSQL (issue 29): tables and
moves a second for 1, 2, 3... processes, the delay from a move to every seat, and how long a
killed owner's tables take to play on.

For each count of processes (0: one process alone, without Redis, for comparison) it starts
a throw-away PostgreSQL database and an empty Redis (the tests' own:
``tests/local_postgres.py``, ``tests/local_redis.py``), then that many ``tricktable serve
--redis URL --db postgresql://...`` processes, and seats ``--tables`` tables of Setback to
500 points (no table ends). Table k is made at process k mod N and its four seats connect to
processes k, k+1, ... mod N: no sticky sessions, most seats reach their table through another
process, as behind a load balancer. Each seat is a guest on its own websocket (from
``--clients`` processes) acting at once on its turn (``--think 0``: saturated) or after
``--think`` seconds on average. Over ``--seconds`` it reports moves a second, the delay from
an act's being sent to its confirm and its events at all four seats (p50, p99), the servers' CPU
a move (all processes together), and every confirmed act looked up in the journal (none lost,
none twice).

``--kill`` (two processes or more): halfway through, the last process is killed with SIGKILL.
Its seats reconnect to another process and say ``hello`` with the version they had; the tables
it played are taken up by the others. Reported: for each of its tables, the time from the kill
to the next event any seat of it receives (median, max).

Usage: ``python benchmarks/web_scale.py [--processes 0,1,2,3] [--tables 60] [--seconds 15]
[--think 0] [--clients 2] [--kill] [--json FILE]``. Figures: docs/web-scale.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "benchmarks")]

import web_load  # noqa: E402
from web_load import cpu_seconds, free_port, journal_ids, post, raise_file_limit  # noqa: E402

MANY = "100000"


class Seat:
    """One guest at one seat, on a websocket to one of the processes (another if it dies)."""

    def __init__(self, bases: list[str], first: int, name: str) -> None:
        self.bases = bases
        self.at = first
        self.name = name
        self.ws: Any = None
        self.table = ""
        self.version = -1
        self.n = 0
        self.acts: dict[str, float] = {}
        self.confirmed: list[str] = []

    @property
    def base(self) -> str:
        return self.bases[self.at]

    async def open(self, http: httpx.AsyncClient) -> None:
        answer = await post(http, self.base + "/api/guest", json={"name": self.name})
        self.cookie = "; ".join(f"{k}={v}" for k, v in answer.cookies.items())
        self.csrf = answer.json()["csrf"]
        await self.connect()

    async def connect(self) -> None:
        url = self.base.replace("http", "ws") + "/ws"
        self.ws = await connect(url, additional_headers={"Cookie": self.cookie}, max_size=None)

    async def send(self, kind: str, data: dict[str, Any], id: str | None = None) -> None:
        await self.ws.send(json.dumps({"type": kind, "table": self.table, "id": id, "data": data}))

    async def act(self, action: str) -> None:
        self.n += 1
        act_id = f"{self.name}-{self.n}"
        self.acts[act_id] = time.monotonic()
        await self.send("act", {"action": action, "snapshot": False}, id=act_id)

    async def rejoin(self, dead: set[int]) -> None:
        """The process died: connect to the next live one and say hello with the version."""
        for step in range(1, len(self.bases) + 1):
            self.at = (self.at + step) % len(self.bases)
            if self.at not in dead:
                break
        await self.connect()
        await self.send("hello", {"since": self.version if self.version >= 0 else None})


async def seat_table(bases: list[str], http: httpx.AsyncClient, k: int) -> list[Seat]:
    """Table k: made at process k mod N, its seat s connected to process k + s mod N."""
    n = len(bases)
    seats = [Seat(bases, (k + s) % n, f"t{k}s{s}") for s in range(4)]
    return await web_load.seat_table(seats[0].base, http, k, seats)


async def play(
    seat: Seat,
    stop: float,
    sent: dict[tuple[str, int], float],
    arrived: dict[tuple[str, int], list[float]],
    dead: Any,
    think: float,
) -> None:
    """Read frames; act on the seat's turn; reconnect elsewhere if its process dies."""

    waiting: set[asyncio.Future[None]] = set()

    async def later(action: str) -> None:
        await asyncio.sleep(think * (0.5 + random.random()))
        if time.monotonic() < stop:
            await seat.act(action)

    while time.monotonic() < stop:
        try:
            raw = await asyncio.wait_for(seat.ws.recv(), max(stop - time.monotonic(), 0.01))
        except TimeoutError:
            return
        except (ConnectionClosed, OSError):
            await asyncio.sleep(0.2)
            await seat.rejoin({i for i, gone in enumerate(dead) if gone})
            continue
        frame = json.loads(raw)
        kind, data, v = frame["type"], frame["data"], frame.get("v")
        now = time.monotonic()
        if kind == "events":
            for event in data["events"]:
                arrived[(seat.table, event["version"])].append(now)
            seat.version = v
        elif kind == "confirm":
            sent[(seat.table, v)] = seat.acts.pop(frame["id"], now)
            arrived[(seat.table, v)].append(now)
            seat.confirmed.append(frame["id"])
            seat.version = v
        elif kind == "snapshot":
            seat.version = v
            if data["legal"] and data["version"] == v and not data.get("over"):
                action = data["legal"][0]["action"]
                if think > 0:
                    waiting.add(asyncio.ensure_future(later(action)))
                else:
                    await seat.act(action)


async def part(
    bases: list[str], tables: range, seconds: float, ready: Any, dead: Any, think: float
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        seats: list[Seat] = []
        for start in range(tables.start, tables.stop, 25):
            batch = await asyncio.gather(
                *(seat_table(bases, http, k) for k in range(start, min(start + 25, tables.stop)))
            )
            seats += [s for table in batch for s in table]
        await asyncio.sleep(1.0)
        await asyncio.get_running_loop().run_in_executor(None, ready.wait)
        sent: dict[tuple[str, int], float] = {}
        arrived: dict[tuple[str, int], list[float]] = defaultdict(list)
        stop = time.monotonic() + seconds
        began = time.monotonic()
        await asyncio.gather(*(play(s, stop, sent, arrived, dead, think) for s in seats))
        spent = time.monotonic() - began
        for seat in seats:
            with contextlib.suppress(Exception):  # a socket to a killed process
                await seat.ws.close()
    delays = [max(arrived[key]) - t0 for key, t0 in sent.items() if len(arrived[key]) >= 4]
    # Each table's event times (every seat's), for the resume time after a kill.
    times: dict[str, list[float]] = defaultdict(list)
    for (table, _v), ts in arrived.items():
        times[table].append(min(ts))
    # table k was made at process k mod N (its first owner)
    made_at = {
        s.table: bases[int(s.name[1:].split("s")[0]) % len(bases)]
        for s in seats
        if s.name.endswith("s0")
    }
    return {
        "confirmed": [i for s in seats for i in s.confirmed],
        "delays": delays,
        "spent": spent,
        "times": {t: sorted(ts) for t, ts in times.items()},
        "made_at": made_at,
    }


def client(
    bases: list[str], tables: range, seconds: float, ready: Any, out: Any, dead: Any, think: float
) -> None:
    out.put(asyncio.run(part(bases, tables, seconds, ready, dead, think)))


def serve_command(port: int, db: str, redis_url: str | None) -> list[str]:
    shared = ["--redis", redis_url] if redis_url is not None else []
    return [
        *(sys.executable, "-m", "tricktable", "serve", "--port", str(port), "--db", db),
        *("--pace", "0", *shared, "--new-people", MANY, "--max-sockets", MANY),
        *("--max-sockets-per-address", MANY, "--max-sockets-per-account", MANY),
    ]


def measure(
    processes: int,
    tables: int,
    seconds: float,
    clients: int,
    think: float,
    kill: bool,
    postgres: Any,
    redis_server: Any,
) -> dict[str, Any]:
    """One run: ``processes`` servers, ``tables`` tables; the figures. ``processes`` 0: one
    process alone, without Redis (the default deployment, for comparison)."""
    import multiprocessing

    alone = processes == 0
    processes = max(processes, 1)
    db = postgres.url(postgres.new_database())
    redis_server.restart()  # empty
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    servers, bases = [], []
    with ExitStack() as stack:
        for _ in range(processes):
            port = free_port()
            proc = subprocess.Popen(
                serve_command(port, db, None if alone else redis_server.url),
                env=env,
                stdout=subprocess.DEVNULL,
            )
            stack.callback(proc.kill)
            servers.append(proc)
            bases.append(f"http://127.0.0.1:{port}")
        for base in bases:
            for _ in range(300):
                try:
                    httpx.get(base + "/api/me", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
        context = multiprocessing.get_context("spawn")
        ready = context.Barrier(clients + 1)
        out = context.Queue()
        dead = context.Array("b", processes)
        shares = [range(k * tables // clients, (k + 1) * tables // clients) for k in range(clients)]
        workers = [
            context.Process(target=client, args=(bases, s, seconds, ready, out, dead, think))
            for s in shares
        ]
        for worker in workers:
            worker.start()
        ready.wait()
        cpu = sum(cpu_seconds(p.pid) for p in servers)
        killed_at = None
        if kill and processes > 1:
            time.sleep(seconds / 2)
            victim = servers[-1]
            cpu -= cpu_seconds(victim.pid)  # its CPU until now is not counted in the total
            dead[processes - 1] = 1
            killed_at = time.monotonic()
            victim.send_signal(signal.SIGKILL)
            victim.wait(10)
        results = [out.get() for _ in workers]
        cpu = sum(cpu_seconds(p.pid) for p in servers if p.poll() is None) - cpu
        for worker in workers:
            worker.join()
        for proc in servers:
            proc.terminate()
        for proc in servers:
            proc.wait(20)
    confirmed = [i for r in results for i in r["confirmed"]]
    delays = sorted(d for r in results for d in r["delays"])
    spent = max(r["spent"] for r in results)
    journal = journal_ids(db)
    figures: dict[str, Any] = {
        "processes": "alone" if alone else processes,
        "tables": tables,
        "think": think,
        "moves_per_s": len(confirmed) / spent,
        "p50_ms": 1000 * delays[len(delays) // 2] if delays else None,
        "p99_ms": 1000 * delays[int(len(delays) * 0.99)] if delays else None,
        "cpu_ms_per_move": 1000 * cpu / max(len(confirmed), 1),
        "lost": len(set(confirmed) - set(journal)),
        "doubled": len(journal) - len(set(journal)),
    }
    if killed_at is not None:
        victim_base = bases[-1]
        gaps = []
        for r in results:
            for table, made_at in r["made_at"].items():
                if made_at != victim_base:
                    continue
                after = [t for t in r["times"].get(table, []) if t > killed_at]
                gaps.append(after[0] - killed_at if after else float("inf"))
        gaps.sort()
        figures["killed_tables"] = len(gaps)
        figures["resume_median_s"] = gaps[len(gaps) // 2] if gaps else None
        figures["resume_max_s"] = gaps[-1] if gaps else None
    return figures


def main() -> None:
    raise_file_limit()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--processes", default="0,1,2,3", help="counts of server processes (0: alone, no Redis)"
    )
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--think", type=float, default=0.0, help="a seat's mean seconds to act")
    parser.add_argument("--kill", action="store_true", help="kill the last process halfway")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    args = parser.parse_args()
    from local_postgres import LocalPostgres
    from local_redis import LocalRedis

    rows = []
    with LocalPostgres.running() as postgres, LocalRedis.running() as redis_server:
        for n in (int(x) for x in args.processes.split(",")):
            figures = measure(
                n,
                args.tables,
                args.seconds,
                args.clients,
                args.think,
                args.kill,
                postgres,
                redis_server,
            )
            rows.append(figures)
            print(
                json.dumps(
                    {k: round(v, 2) if isinstance(v, float) else v for k, v in figures.items()}
                ),
                flush=True,
            )
    base = rows[0]["moves_per_s"]
    for row in rows:
        print(
            f"{row['processes']} process(es): {row['moves_per_s']:.0f} moves/s, "
            f"{row['moves_per_s'] / base:.2f}x one process",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
