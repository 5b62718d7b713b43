"""The HTTP bot overhead benchmark: what one decision costs over loopback, bot time aside.

Not a test: run it with ``PYTHONPATH=src .venv/bin/python benchmarks/http_overhead.py``.
Each server runs as its own process, as a bot author's would, on 127.0.0.1:

- ``request``: one POST and its JSON answer, to a server that answers at once;
- ``setback decision``: ``HttpBot.act`` in whole Setback matches (generic events) against
  that same server, which answers the first legal action — every news event (deal, trick)
  the bot is sent before a decision counts in the decision's time;
- ``spades decision``: ``HttpBot.act`` in whole Spades matches against the seed-004 example
  bot (examples/bots/http_spades_bot.py), which thinks for a few microseconds.

It prints the median and 90th percentile of each, with the machine it ran on.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[1]


class Instant(BaseHTTPRequestHandler):
    """A generic-scheme bot answering at once: the first legal action, or {} to news."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        event = self.path.rsplit("/", 1)[-1]
        legal = body.get("legal") if isinstance(body, dict) else None
        answer = {"action": legal[0]} if event in ("bid", "play") and legal else {}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve() -> None:
    """Run the instant server on a free port and print its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Instant)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


def start(argv: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().split()[-1]


class Timed:
    """Wraps a bot's ``act`` to time each decision."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def act(self, view: Any) -> int:
        t = time.perf_counter()
        action: int = self.bot.act(view)
        self.times.append(time.perf_counter() - t)
        return action


def decisions(url: str, game_spec: str, matches: int) -> list[float]:
    """Per-decision times of an HttpBot in seat 0 over whole matches against heuristic bots."""
    from tricktable.bots import make_bot
    from tricktable.bots.base import Bot
    from tricktable.games import load_game
    from tricktable.match import Referee, play_match
    from tricktable.protocols.http import HttpBot

    game = load_game(game_spec)
    times: list[float] = []
    for seed in range(matches):
        http = HttpBot(url)
        timed: Any = Timed(http, times)
        bots: list[Bot] = [timed] + [make_bot("heuristic") for _ in range(3)]
        referee = Referee()
        play_match(game, bots, seed, referee=referee, max_hands=30)
        http.close()
        if referee.faults:
            raise SystemExit(f"the bot faulted: {referee.faults[0]}")
    return times


def requests(url: str, count: int) -> list[float]:
    """Round-trip times of ``count`` small POSTs."""
    from tricktable.games import load_game
    from tricktable.protocols.http import HttpBot

    bot = HttpBot(url)
    bot.start_match(load_game("setback"), 0, 0)
    payload = {"legal": ["pass", "bid 2"], "hand": ["AS", "TD", "2C", "JK", "5H", "9S"]}
    times = []
    for _ in range(count):
        t = time.perf_counter()
        bot.post("bid", payload, "an action")
        times.append(time.perf_counter() - t)
    bot.close()
    return times


def line(name: str, times: list[float]) -> str:
    times = sorted(times)
    p90 = times[int(len(times) * 0.9)]
    return (
        f"{name:<18} median {statistics.median(times) * 1000:6.3f} ms   "
        f"p90 {p90 * 1000:6.3f} ms   ({len(times)} samples)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    from tricktable.games import GAMES, register

    if "spades" not in GAMES:
        from tricktable.games.spades import GAME

        register(GAME)
    instant, instant_url = start([sys.executable, __file__, "--serve"])
    seed_bot, seed_url = start(
        [sys.executable, str(ROOT / "examples/bots/http_spades_bot.py"), "--port", "0"]
    )
    try:
        print(
            f"{platform.python_implementation()} {platform.python_version()}, "
            f"{platform.machine()}, {platform.system()}"
        )
        requests(instant_url, 200)  # warm up
        print(line("request", requests(instant_url, 2000)))
        print(line("setback decision", decisions(instant_url, "setback", args.matches)))
        print(line("spades decision", decisions(seed_url, "spades", args.matches)))
    finally:
        for proc in (instant, seed_bot):
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
