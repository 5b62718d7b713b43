"""The players' pages' speed: an account of 10,000 matches, its page and the standings.

Not a test: run it with ``PYTHONPATH=src .venv/bin/python benchmarks/profile_speed.py``.

1. **Fill.** A new SQLite file gets ``--matches`` (10,000) finished web matches of one
   account, ``Bench``, across Setback, Hearts and Spades, with partners and rivals drawn from
   a pool of accounts, bots and characters, plus ``--others`` matches without it (so that the
   tables hold far more than its rows). They are *synthesised summaries* — a
   :class:`~tricktable.analysis.profile.MatchSummary` a match, results and points drawn at
   random — stored by :func:`~tricktable.analysis.profile_store.add_matches` and rated in
   order by ``rate_pending`` (OpenSkill), as the server's backfill stores and rates them, not
   records replayed: replaying 10,000 records would time the engine, not the pages. The web
   tables they name are made closed, so the server loads none of them.
2. **Serve.** ``tricktable serve`` on 127.0.0.1, a process of its own. Its start's backfill
   finds nothing to do (every match is summed up); the script times that no-op in-process too.
3. **Time.** ``--requests`` (50) GETs over loopback of each: ``/api/players/Bench`` (the
   page's data), ``/players/Bench`` (the page's HTML: the name looked up, the file sent),
   ``/api/players?game=setback`` (the standings' data) and ``/players`` (their page), after a
   few of warm-up; median and 95th percentile (nearest rank) of each. A browser showing the
   page asks for its HTML, its static files and the data once.
4. **Plans.** Every statement one ``profile`` and one ``standings`` call run (caught as they
   run), with SQLite's EXPLAIN QUERY PLAN: each reads by an index (``SEARCH ... USING
   INDEX``); a ``SCAN`` of a table would be a line saying so.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event

ROOT = Path(__file__).resolve().parents[1]
GAMES = (("setback", 4, 2, 0.6), ("hearts", 4, 4, 0.2), ("spades", 4, 2, 0.2))


def load_average() -> str:
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def measured_copy() -> str:
    import tricktable
    import tricktable.engine.trick as trick

    compiled = bool(trick.__file__) and not str(trick.__file__).endswith(".py")
    return (
        f"{Path(tricktable.__file__).parent} — {'compiled (mypyc)' if compiled else 'pure Python'}"
    )


def summary(rng: random.Random, game: str, seats: int, sides: int, players: list[str]) -> Any:
    """A finished match drawn at random: results by side, points, bids where the game has them."""
    from tricktable.analysis.profile import MatchSummary, SeatSummary

    hands = rng.randint(3, 12)
    points = [rng.randint(-5, 30) for _ in range(sides)]
    lower = game == "hearts"
    best = (min if lower else max)(points)
    winner = points.index(best)
    rows = []
    for seat in range(seats):
        side = seat % sides
        others = [points[s] for s in range(sides) if s != side]
        made = rng.randint(0, hands // 2) if game != "hearts" else None
        rows.append(
            SeatSummary(
                seat=seat,
                side=side,
                player=players[seat],
                name=players[seat].split(":", 1)[1].title(),
                result="won" if side == winner else "lost",
                points_for=points[side],
                points_against=sum(others) / len(others),
                bids_made=made,
                bids_set=None if made is None else rng.randint(0, 2),
            )
        )
    return MatchSummary(game, hands, True, lower, tuple(rows))


def fill(db: Path, matches: int, others: int, seed: int) -> float:
    """Make the database; the seconds it took."""
    from tricktable.analysis.profile_store import NewMatch, add_matches, rate_pending
    from tricktable.web.store import TableRow, WebStore

    rng = random.Random(seed)
    pool = (
        [f"account:player{i}" for i in range(40)]
        + [f"bot:{b}" for b in ("beginner", "club", "expert")]
        + [f"character:{c}" for c in ("edna", "vinnie", "rosa", "ada", "moe", "kit")]
    )
    store = WebStore.open(str(db))
    started = time.perf_counter()
    try:
        per_table = 100
        total = matches + others
        for t in range(0, total, per_table):
            store.add_table(
                TableRow(
                    f"b{t // per_table}",
                    None,
                    {"spec": "setback"},
                    [],
                    "closed",
                    per_table,
                    1,
                    "",
                    "",
                )
            )
        when = datetime(2026, 1, 1, tzinfo=UTC)
        batch: list[Any] = []
        weights = [g[3] for g in GAMES]
        for i in range(total):
            game, seats, sides, _ = rng.choices(GAMES, weights)[0]
            players = rng.sample(pool, seats)
            if i < matches:
                players[rng.randrange(seats)] = "account:bench"
            when += timedelta(seconds=rng.randint(30, 900))
            batch.append(
                NewMatch(
                    when,
                    summary(rng, game, seats, sides, players),
                    table_id=f"b{i // per_table}",
                    match_no=i % per_table + 1,
                )
            )
            if len(batch) == 500:
                add_matches(store.store, batch, rate=False)
                batch = []
        add_matches(store.store, batch, rate=False)
        rate_pending(store.store)  # in order, as the server's backfill does
    finally:
        store.close()
    return time.perf_counter() - started


def no_op_backfill(db: Path) -> tuple[float, float]:
    """Seconds the start's backfill takes to find nothing to do: web matches, tournament games."""
    from tricktable.analysis.profile_store import fill_games
    from tricktable.web.profiles import web_matches_missing
    from tricktable.web.store import WebStore

    store = WebStore.open(str(db))
    try:
        t = time.perf_counter()
        assert web_matches_missing(store) == []
        web = time.perf_counter() - t
        t = time.perf_counter()
        assert fill_games(store.store) == 0
        return web, time.perf_counter() - t
    finally:
        store.close()


def plans(db: Path) -> list[str]:
    """Each statement a page and the standings run, with SQLite's plan for it."""
    from tricktable.web import profile_queries
    from tricktable.web.store import WebStore

    store = WebStore.open(str(db))
    caught: list[tuple[str, Any]] = []

    def catch(
        conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool
    ) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            caught.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", catch)
    lines: list[str] = []
    try:
        profile_queries.profile(store.store, "account:bench")
        profile_queries.standings(store.store, "setback")
        event.remove(store.engine, "before_cursor_execute", catch)
        raw = store.engine.raw_connection()
        try:
            for statement, parameters in caught:
                first = " ".join(statement.split())[:110]
                lines.append(f"  {first}…")
                rows = (
                    raw.cursor().execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
                )
                for row in rows:
                    detail = row[-1]
                    flag = "   <-- a table scanned" if _scans(detail) else ""
                    lines.append(f"      {detail}{flag}")
        finally:
            raw.close()
    finally:
        store.close()
    return lines


def _scans(detail: str) -> bool:
    """Whether a plan line reads a whole table (a SCAN not through an index)."""
    words = detail.split()
    return bool(words) and words[0] == "SCAN" and "INDEX" not in detail and "CONSTANT" not in detail


def serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--pace", "0"]
    proc = subprocess.Popen([sys.executable, "-m", "tricktable", *args], env=env)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/me", timeout=1)
            return proc
        except httpx.HTTPError:
            if proc.poll() is not None:
                raise SystemExit(f"tricktable serve stopped (exit {proc.returncode})") from None
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("tricktable serve did not answer in 30 s")


def timed(client: httpx.Client, path: str, n: int, warm: int = 5) -> list[float]:
    for _ in range(warm):
        client.get(path).raise_for_status()
    out = []
    for _ in range(n):
        t = time.perf_counter()
        answer = client.get(path)
        out.append(time.perf_counter() - t)
        answer.raise_for_status()
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000, help="the account's matches")
    parser.add_argument("--others", type=int, default=20_000, help="matches without it")
    parser.add_argument("--requests", type=int, default=50, help="timed GETs of each page")
    parser.add_argument("--db", type=Path, default=None, help="the SQLite file (a new one)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="profile-speed-")
    db = args.db or Path(folder) / "profiles.db"
    if db.exists():
        raise SystemExit(f"{db} exists: give a new file")
    print(f"# {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"# tricktable: {measured_copy()}")
    print(f"# load {load_average()} before")
    seconds = fill(db, args.matches, args.others, args.seed)
    size = db.stat().st_size / 2**20
    print(
        f"filled {args.matches} matches of Bench and {args.others} others "
        f"(synthesised summaries, add_matches and rate_pending) in {seconds:.1f} s; {size:.1f} MiB"
    )
    web, games = no_op_backfill(db)
    print(
        f"the start's backfill with nothing to do: web {web * 1000:.1f} ms, "
        f"tournaments {games * 1000:.1f} ms"
    )
    print("plans of one page and one standings:")
    for line in plans(db):
        print(line)
    proc = serve(db, args.port)
    try:
        base = f"http://127.0.0.1:{args.port}"
        with httpx.Client(base_url=base, timeout=30) as client:
            page = client.get("/api/players/Bench").json()
            print(
                f"Bench: {page['record']['matches']} matches, {len(page['games'])} games, "
                f"{sum(len(g['history']) for g in page['games'])} points of rating history, "
                f"{len(page['recent'])} recent"
            )
            print(f"{'GET':34} {'median ms':>10} {'p95 ms':>8} {'n':>4}")
            for path in (
                "/api/players/Bench",
                "/players/Bench",
                "/api/players?game=setback",
                "/players",
            ):
                times = timed(client, path, args.requests)
                print(
                    f"{path:34} {statistics.median(times) * 1000:10.1f} "
                    f"{p95(times) * 1000:8.1f} {len(times):4}"
                )
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"# load {load_average()} after")


if __name__ == "__main__":
    main()
