"""What a decision of an outside bot costs, two source trees side by side (issue 28, item 1).

Not a test: run it with two trees, the one before and the one after a change, e.g.

    git worktree add --detach /tmp/before <commit>     # and /tmp/after at another, or src
    .venv/bin/python benchmarks/outside_bots.py --before /tmp/before/src --after src

Each measurement runs in a process of its own with ``PYTHONPATH`` set to the tree's ``src``,
the trees taking turns round after round (so both see the same load), against the same
servers and programs:

- ``stdio decision``: ``SubprocessBot.act`` of examples/bots/python/bot.py in seat 0 of Setback
  against three heuristic bots, hand after hand (the program's own thought included: a few
  microseconds of Python);
- ``http decision``: ``HttpBot.act`` in seat 0 of Setback against a server (its own process)
  answering the first legal action at once — the news a decision sends first (deal, trick)
  count in its time;
- ``http request``: one POST and its JSON answer, ``HttpBot.post``, to that server.

For each it prints the median and 90th percentile of the wall time, and the CPU time of the
measuring process (every thread of it: the outside bots' loop included) a decision, with the
ratio after/before. The load average is printed before and after: on a busy machine compare
the ratios of one run, not figures across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "examples/bots/python/bot.py"
KINDS = ("stdio decision", "http decision", "http request")


class Instant(BaseHTTPRequestHandler):
    """A generic-scheme bot answering at once: the first legal action, or {} to news."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        legal = body.get("legal") if isinstance(body, dict) else None
        data = json.dumps({"action": legal[0]} if legal else {}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve() -> None:
    """Run the instant server on a free port of 127.0.0.1 and print its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Instant)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


def timed(bot: Any, wall: list[float], cpu: list[float]) -> Any:
    """``bot`` with its ``act`` timed: the wall and process CPU time of each decision (the
    match loop reads the bot's class, so the bot itself stays in its seat)."""
    act = bot.act

    def timed_act(view: Any) -> int:
        c, t = time.process_time(), time.perf_counter()
        action: int = act(view)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        return action

    bot.act = timed_act
    return bot


def decisions(spec: str, hands: int) -> dict[str, list[float]]:
    """Per-decision times of the bot ``spec`` in seat 0 of Setback, over ``hands`` hands."""
    from tricktable.bots import make_bot
    from tricktable.games import load_game
    from tricktable.match import Referee, play_match

    game = load_game("setback")
    wall: list[float] = []
    cpu: list[float] = []
    played, seed = 0, 0
    while played < hands:
        bot = make_bot(spec)
        bots: list[Any] = [timed(bot, wall, cpu)] + [make_bot("heuristic") for _ in range(3)]
        referee = Referee()
        state = play_match(game, bots, seed, referee=referee, max_hands=hands - played)
        bot.close()
        if referee.faults:
            raise SystemExit(f"the bot faulted: {referee.faults[0]}")
        played += len(state.history)
        seed += 1
    return {"wall": wall, "cpu": cpu}


def requests(url: str, count: int) -> dict[str, list[float]]:
    """Round trips of ``count`` small POSTs."""
    from tricktable.games import load_game
    from tricktable.protocols.http import HttpBot

    bot = HttpBot(url)
    bot.start_match(load_game("setback"), 0, 0)
    payload = {"legal": ["pass", "bid 2"], "hand": ["AS", "TD", "2C", "JK", "5H", "9S"]}
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(count):
        c, t = time.process_time(), time.perf_counter()
        bot.post("bid", payload, "an action")
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    bot.close()
    return {"wall": wall, "cpu": cpu}


def measure(url: str, hands: int, count: int) -> None:
    """One tree's round: every measurement, as JSON on standard output."""
    import tricktable

    out = {
        "tricktable": str(Path(tricktable.__file__).parent),
        "stdio decision": decisions(f"cmd:{sys.executable} {EXAMPLE}", hands),
        "http decision": decisions(url, hands),
    }
    requests(url, 50)  # a warm-up
    out["http request"] = requests(url, count)
    print(json.dumps(out))


def run_tree(src: str, url: str, hands: int, count: int, extra: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (src, extra) if p))
    args = ["--measure", "--url", url, "--hands", str(hands), "--requests", str(count)]
    done = subprocess.run(
        [sys.executable, __file__, *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"the run with {src} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def figures(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.9)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the src folder of the tree before")
    parser.add_argument("--after", default=str(ROOT / "src"), help="the src folder after")
    parser.add_argument("--rounds", type=int, default=3, help="turns of each tree")
    parser.add_argument("--hands", type=int, default=150, help="Setback hands a round")
    parser.add_argument("--requests", type=int, default=1000, help="POSTs a round")
    parser.add_argument(
        "--extra-path", default="", help="a folder of packages both trees import from too"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    if args.measure:
        measure(args.url, args.hands, args.requests)
        return
    if not args.before:
        parser.error("--before SRC is required (a worktree of the commit before)")
    trees = {"before": str(Path(args.before).resolve()), "after": str(Path(args.after).resolve())}
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    url = server.stdout.readline().split()[-1]
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {platform.system()}, {os.cpu_count()} CPUs; "
        f"load {os.getloadavg()[0]:.2f} before"
    )
    samples: dict[str, dict[str, dict[str, list[float]]]] = {
        name: {kind: {"wall": [], "cpu": []} for kind in KINDS} for name in trees
    }
    try:
        for turn in range(args.rounds):
            order = list(trees) if turn % 2 == 0 else list(reversed(trees))
            for name in order:
                result = run_tree(trees[name], url, args.hands, args.requests, args.extra_path)
                for kind in KINDS:
                    for clock in ("wall", "cpu"):
                        samples[name][kind][clock] += result[kind][clock]
    finally:
        server.terminate()
        server.wait()
    for name, src in trees.items():
        print(f"{name:>6}: {src}")
    if args.extra_path:
        print(f" extra: {args.extra_path}")
    print(f"{'':16} {'':6} {'median':>9} {'p90':>9} {'cpu mean':>9}   (ms a decision/request)")
    for kind in KINDS:
        rows = {}
        for name in trees:
            median, p90 = figures(samples[name][kind]["wall"])
            cpu = statistics.fmean(samples[name][kind]["cpu"])
            rows[name] = (median, p90, cpu)
            count = len(samples[name][kind]["wall"])
            print(
                f"{kind:16} {name:6} {median * 1e3:9.3f} {p90 * 1e3:9.3f} {cpu * 1e3:9.3f}"
                f"   ({count} samples)"
            )
        ratios = [rows["after"][i] / rows["before"][i] for i in range(3)]
        print(f"{'':16} {'ratio':6} {ratios[0]:8.2f}x {ratios[1]:8.2f}x {ratios[2]:8.2f}x")
    print(f"load {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
