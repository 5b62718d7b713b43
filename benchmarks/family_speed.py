"""The trick-taking family speed benchmark: random play of every game, timed as a process.

Not a test, and not part of ``make bench``: run it by hand, e.g.
``.venv/bin/python benchmarks/family_speed.py`` (the installed, compiled copy) or
``PYTHONPATH=src .venv/bin/python benchmarks/family_speed.py`` (the source tree).

For every registered game and preset (``tricktable.games.GAMES`` and ``PRESETS``), and with
``--sizes`` every base game at each other table size it allows, it runs

    tricktable simulate --game NAME --players random,random,... (one a seat)
        --hands N --seed 1 --workers 1 --json

as a subprocess and times the whole process (start-up, imports, play, report), best of
``--runs``. Hands differ in length (six cards a seat in Setback, thirteen in Hearts, a stock
drawn in California Jack), so the figure compared is *cards played per second*: the hands'
rate times the cards a hand plays on average (counted in this process over 200 random hands),
and its ratio to Setback's. N is picked per game from a short probe run so that one run plays
for about ``--seconds`` (default 1.5 s), rounded to 1, 2 or 5 times a power of ten, unless
``--hands`` fixes it. A game that ``simulate`` cannot run gets its error in its row instead
of a rate. It prints a Markdown table and, with
``--json PATH``, writes the figures as JSON.

``--clock cpu`` times each process by the CPU seconds it used (user and system, from the
kernel's account of the finished child) instead of the wall clock: on a shared machine, where
other work makes the wall time of one run two or three times another's, a process's CPU time
moves far less, and the ratios to Setback stay comparable. N is then not timed at all (a
probe on a loaded machine picked 10,000 hands for one game and 200,000 for its like): every
game plays about ``CARDS_AIM`` cards a second of ``--seconds`` (N = that over its cards a
hand, to two figures), so each run's start-up weighs about as much as in Setback's.

The command is the ``tricktable`` script beside this Python when there is one, else
``python -m tricktable``; ``PYTHONPATH`` reaches the child, so ``PYTHONPATH=src`` measures the
source tree. ``--register MODULE,...`` first registers game modules that are written but not
yet listed in ``GAME_MODULES`` (the child is then ``python -c`` with a small wrapper).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import resource
import shlex
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from setback_speed import cpu_model  # this folder is on the path now

#: hands played in this process to count a game's cards a hand
COUNT_HANDS = 200
#: hands of the probe run that picks N (it also warms the caches)
PROBE_HANDS = 200
#: a run that takes longer than this is stopped and reported as an error
TIMEOUT = 600.0
#: cards a run plays per second of ``--seconds`` under ``--clock cpu`` (about Setback's
#: rate, compiled, on the machine of docs/family-speed.md)
CARDS_AIM = 1_000_000
#: the bounds of the N picked by the probe
MIN_HANDS, MAX_HANDS = 100, 200_000

#: the child when ``--register`` is given: register the modules, then run the command line
WRAPPER = (
    "import importlib, sys\n"
    "from tricktable.games import register\n"
    "for m in filter(None, sys.argv.pop(1).split(',')):\n"
    "    register(importlib.import_module('tricktable.games.' + m).GAME)\n"
    "from tricktable.cli.main import main\n"
    "sys.argv[0] = 'tricktable'\n"
    "main()\n"
)


def register_modules(modules: list[str]) -> None:
    """Register game modules not yet in ``GAME_MODULES`` in this process too."""
    import importlib

    from tricktable.games import register

    for module in modules:
        register(importlib.import_module(f"tricktable.games.{module}").GAME)


def base_command(modules: list[str]) -> list[str]:
    """The command that runs ``tricktable``: its script, ``python -m`` or the wrapper."""
    if modules:
        return [sys.executable, "-c", WRAPPER, ",".join(modules)]
    script = Path(sys.executable).with_name("tricktable")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "tricktable"]


def players_of(game: str) -> str:
    """A random bot in every seat of ``game``."""
    from tricktable.games import load_game

    return ",".join(["random"] * load_game(game).num_players)


def cards_per_hand(game: str, hands: int = COUNT_HANDS) -> float:
    """Cards played to tricks per hand of random play, on average."""
    import random

    from tricktable.engine.trick import DEAL, OVER, PLAY
    from tricktable.games import load_game

    rules = load_game(game)
    rng = random.Random(1)
    state = rules.new_state(1)
    cards = done = 0
    while done < hands:
        if state.phase == OVER:
            state = rules.new_state(rng.randrange(1 << 30))
        if state.phase == DEAL:
            state.deal()
            continue
        action = rng.choice(state.legal_actions())
        if state.phase == PLAY and action < 64:
            cards += 1
        before = len(state.results)
        state.apply(action)
        done += len(state.results) - before
    return cards / hands


def simulate_command(base: list[str], game: str, hands: int) -> list[str]:
    """The full ``simulate`` command for one game."""
    return [
        *base,
        "simulate",
        "--game",
        game,
        "--players",
        players_of(game),
        "--hands",
        str(hands),
        "--seed",
        "1",
        "--workers",
        "1",
        "--json",
    ]


def show_command(cmd: list[str]) -> str:
    """The command as one would type it, paths relative to here, the wrapper abbreviated."""
    parts = []
    for part in cmd:
        if part == WRAPPER:
            parts.append("'<register wrapper>'")
            continue
        path = Path(part)
        if path.is_absolute():
            with contextlib.suppress(ValueError):
                part = str(path.relative_to(Path.cwd()))
        parts.append(shlex.quote(part))
    return " ".join(parts)


class RunError(Exception):
    """A timed command that failed: its one-line reason."""


def child_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_run(cmd: list[str], hands: int) -> tuple[float, dict[str, Any]]:
    """Run a ``simulate --json`` command once: (wall seconds of the process, its report)."""
    wall, _cpu, report = time_run_cpu(cmd, hands)
    return wall, report


def time_run_cpu(cmd: list[str], hands: int) -> tuple[float, float, dict[str, Any]]:
    """Run a ``simulate --json`` command once: (wall seconds of the process, its CPU seconds,
    its report)."""
    began = time.perf_counter()
    cpu_began = child_cpu()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RunError(f"no answer within {TIMEOUT:.0f} s") from None
    elapsed = time.perf_counter() - began
    cpu = child_cpu() - cpu_began
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        # A traceback's last line says what went wrong; a clean error is one line anyway.
        reason = lines[-1].strip() if lines else "no message"
        raise RunError(f"exit {done.returncode}: {reason}")
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        raise RunError("the output is not one JSON object") from None
    if not isinstance(report, dict) or report.get("hands") != hands:
        played = report.get("hands") if isinstance(report, dict) else None
        raise RunError(f"played {played} hands, not {hands}")
    return elapsed, cpu, report


def play_rate(report: dict[str, Any]) -> float | None:
    """The report's own hands per second (the play alone, without the process start)."""
    timing = report.get("timing")
    rate = timing.get("hands_per_second") if isinstance(timing, dict) else None
    return float(rate) if isinstance(rate, int | float) else None


def nice(n: float) -> int:
    """The 1-2-5 number (100, 200, 500, 1000, ...) nearest ``n`` on a log scale, within bounds.

    A coarse grid keeps N the same from run to run of the benchmark although the probe's rate
    moves with the machine's load.
    """
    n = max(MIN_HANDS, min(MAX_HANDS, n))
    grid: list[int] = [m * 10**e for e in range(2, 7) for m in (1, 2, 5)]
    best = min(grid, key=lambda g: abs(math.log(g / n)))
    return max(MIN_HANDS, min(MAX_HANDS, best))


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` shows them."""
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def measured_copy() -> str:
    """Which tricktable this Python imports, and whether its engine is compiled."""
    import tricktable
    import tricktable.engine.trick as trick

    compiled = not trick.__file__.endswith(".py") if trick.__file__ else False
    kind = "compiled (mypyc)" if compiled else "pure Python"
    return f"{Path(tricktable.__file__).parent} — {kind}"


def machine_line() -> str:
    """One line naming the machine and the Python."""
    return f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"


@dataclass
class Row:
    """One game's figures (or its error)."""

    game: str
    kind: str
    hands: int = 0
    runs: list[float] = field(default_factory=list)
    best_seconds: float | None = None
    hands_per_second: float | None = None
    play_hands_per_second: float | None = None
    cards_per_hand: float | None = None
    cards_per_second: float | None = None
    #: cards per second over Setback's, in the same run
    ratio: float | None = None
    command: str = ""
    error: str | None = None


def measure(
    base: list[str],
    game: str,
    kind: str,
    hands: int | None,
    seconds: float,
    runs: int,
    clock: str = "wall",
) -> Row:
    """Probe, then time ``runs`` runs of one game; the best (shortest) run counts, by the
    wall clock or (``clock="cpu"``) by the process's CPU time."""
    row = Row(game=game, kind=kind)
    try:
        probe = simulate_command(base, game, PROBE_HANDS)
        row.command = show_command(probe)
        _, _, report = time_run_cpu(probe, PROBE_HANDS)  # it also warms the caches
        if clock == "cpu":
            row.cards_per_hand = round(cards_per_hand(game), 2)
        if hands is None and clock == "cpu":
            want = seconds * CARDS_AIM / max(row.cards_per_hand or 1.0, 1.0)
            hands = max(MIN_HANDS, min(MAX_HANDS, int(float(f"{want:.2g}"))))
        elif hands is None:
            rate = play_rate(report) or 1000.0
            hands = nice(rate * seconds)
        row.hands = hands
        cmd = simulate_command(base, game, hands)
        row.command = show_command(cmd)
        best_play = None
        for _ in range(runs):
            wall, cpu, report = time_run_cpu(cmd, hands)
            elapsed = cpu if clock == "cpu" else wall
            row.runs.append(round(elapsed, 4))
            if row.best_seconds is None or elapsed < row.best_seconds:
                row.best_seconds = elapsed
                best_play = play_rate(report)
        assert row.best_seconds is not None
        row.best_seconds = round(row.best_seconds, 4)
        row.hands_per_second = round(hands / row.best_seconds, 1)
        row.play_hands_per_second = best_play
        if row.cards_per_hand is None:
            row.cards_per_hand = round(cards_per_hand(game), 2)
        row.cards_per_second = round(row.hands_per_second * row.cards_per_hand, 1)
    except RunError as exc:
        row.error = str(exc)
    except Exception as exc:  # a game the counting loop cannot play: its row says why
        row.error = f"{type(exc).__name__}: {exc}"
    return row


def cell(text: str, limit: int = 0) -> str:
    """Text safe inside a Markdown table cell, cut to ``limit`` characters if given."""
    if limit and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("|", "\\|").replace("\n", " ")


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| game | kind | hands | best s | hands/s (process) | cards/hand | cards/s (process) "
        "| × setback | hands/s (play) | command |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if r.error is not None:
            lines.append(
                f"| {r.game} | {r.kind} | — | — | error: {cell(r.error, 90)} | — | — | — | — | "
                f"`{cell(r.command)}` |"
            )
            continue
        play = f"{r.play_hands_per_second:,.0f}" if r.play_hands_per_second else "—"
        ratio = f"{r.ratio:.2f}" if r.ratio is not None else "—"
        lines.append(
            f"| {r.game} | {r.kind} | {r.hands:,} | {r.best_seconds:.3f} | "
            f"{r.hands_per_second:,.0f} | {r.cards_per_hand:.1f} | {r.cards_per_second:,.0f} | "
            f"{ratio} | {play} | `{cell(r.command)}` |"
        )
    return "\n".join(lines)


def split_specs(text: str) -> list[str]:
    """Comma-separated game specs, a comma inside a spec's parentheses kept in it:
    ``seven-up,all-fours(players=2,partners=false)`` is two specs."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def sized_games() -> list[tuple[str, str]]:
    """Every base game at each table size it allows besides its default: ``players=N``, and
    each for itself where the default partnerships cannot seat N."""
    from tricktable.errors import TricktableError
    from tricktable.games import GAMES, load_game

    out = []
    for name, cls in GAMES.items():
        default = load_game(name).num_players
        for n in cls.seat_counts:
            if n == default:
                continue
            for spec in (f"{name}(players={n})", f"{name}(players={n},partners=false)"):
                try:
                    load_game(spec)
                except TricktableError:
                    continue
                out.append((spec, f"{name} at {n} seats"))
                break
    return out


def main() -> None:
    """Time every registered game and preset and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per game (default 3)")
    parser.add_argument("--hands", type=int, help="hands per run for every game (default: picked)")
    parser.add_argument(
        "--seconds", type=float, default=1.5, help="play time one run aims at (default 1.5)"
    )
    parser.add_argument(
        "--games",
        help="only these games or presets, comma-separated (a spec's own commas, inside its "
        "parentheses, stay in it)",
    )
    parser.add_argument(
        "--sizes", action="store_true", help="also every base game at each other table size"
    )
    parser.add_argument(
        "--register", default="", help="game modules to register first, e.g. spades,oh_hell"
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time a process by the wall clock (default) or by its CPU time (a shared machine)",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args()
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    modules = [m.strip() for m in args.register.split(",") if m.strip()]
    try:
        register_modules(modules)
    except Exception as exc:  # an unknown or broken module: say which, no traceback
        sys.exit(f"cannot register {modules}: {type(exc).__name__}: {exc}")
    from tricktable.games import GAMES, PRESETS

    names = [(g, "game") for g in GAMES] + [(p, f"preset of {PRESETS[p].game}") for p in PRESETS]
    if args.sizes:
        names += sized_games()
    if args.games:
        wanted = [g.strip() for g in split_specs(args.games) if g.strip()]
        known = dict(names)
        # An unregistered name still gets a row: its error is the point of asking for it.
        names = [(g, known.get(g, "not registered")) for g in wanted]

    base = base_command(modules)
    load_before = load_average()
    print(f"machine: {machine_line()}")
    print(f"tricktable: {measured_copy()}")
    if os.environ.get("PYTHONPATH"):
        print(f"PYTHONPATH: {os.environ['PYTHONPATH']}")
    print(f"load average before: {load_before}")
    print(f"clock: {'CPU time of each process (user + system)' if args.clock == 'cpu' else 'wall'}")
    if args.hands:
        picked = str(args.hands)
    elif args.clock == "cpu":
        picked = f"about {args.seconds * CARDS_AIM:,.0f} cards played over the cards a hand"
    else:
        picked = f"picked for about {args.seconds} s of play"
    print(f"runs per game: {args.runs} (best counts), hands per run: {picked}")
    print(flush=True)
    rows = []
    for game, kind in names:
        row = measure(base, game, kind, args.hands, args.seconds, max(1, args.runs), args.clock)
        status = row.error or f"{row.hands_per_second:,.0f} hands/s"
        print(f"  {game}: {status}", file=sys.stderr, flush=True)
        rows.append(row)
    setback = next((r for r in rows if r.game == "setback" and r.cards_per_second), None)
    for row in rows:
        if setback is not None and setback.cards_per_second and row.cards_per_second:
            row.ratio = round(row.cards_per_second / setback.cards_per_second, 3)
    load_after = load_average()
    print(table(rows))
    print()
    print(f"load average after: {load_after}")
    if args.json:
        data = {
            "benchmark": "family_speed",
            "machine": machine_line(),
            "tricktable": measured_copy(),
            "pythonpath": os.environ.get("PYTHONPATH"),
            "load_average_before": load_before,
            "load_average_after": load_after,
            "runs": args.runs,
            "clock": args.clock,
            "rows": [asdict(r) for r in rows],
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
