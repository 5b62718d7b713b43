"""tricktable beside OpenSpiel: random-play hands per second of four games, as whole processes.

Not a test: run it by hand with the Python of a virtual environment that has the optional
``open_spiel`` package (OpenSpiel's C++ games driven from Python), e.g.

    python3 -m venv /tmp/osvenv && /tmp/osvenv/bin/pip install open_spiel
    .venv/bin/python benchmarks/openspiel_compare.py --openspiel-python /tmp/osvenv/bin/python

For each game both sides play the same number of hands with uniformly random players, one
process each, timed from start to exit (best of ``--runs``, the two sides' runs interleaved so
that a busy machine slows both alike):

- tricktable: ``tricktable simulate --game GAME --players random,random,random,random
  --hands N --seed 1 --workers 1 --json`` (the command of ``family_speed.py``);
- OpenSpiel: ``pyspiel.load_game(NAME)``, then per hand ``state = game.new_initial_state()``
  and, until ``state.is_terminal()``, a chance outcome drawn by its probability from
  ``state.chance_outcomes()`` with :mod:`random`, or ``random.choice(state.legal_actions())``
  (``--chance uniform``: chance outcomes drawn that way too; see :data:`DRIVER`).

One OpenSpiel episode is one hand in all four games: hearts, euchre and spades end after one
deal (OpenSpiel's spades keeps match scores outside the state; its ``win_threshold`` and
mercy rule do not make an episode longer). OpenSpiel's oh_hell defaults to three players and a
random hand size, and allows at most 12 cards each with four players (a card must remain to
turn up for trump), so the comparison plays four players on both sides with the same hand
sizes in the same order: tricktable's ``oh-hell(max_cards=12)`` (12 down to 1 and back up to
12) against ``oh_hell(players=4,num_tricks_fixed=K)`` with K following that sequence exactly
as ``simulate --hands`` does (a new match, from the top, at the start of every chunk).

If the given Python cannot import ``pyspiel`` the script says so and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from family_speed import (  # this folder is on the path now
    RunError,
    base_command,
    load_average,
    machine_line,
    measured_copy,
    play_rate,
    register_modules,
    show_command,
    simulate_command,
    time_run,
)

#: a run that takes longer than this is stopped and reported as an error
TIMEOUT = 600.0
#: the largest Oh Hell hand OpenSpiel allows four players
OH_HELL_MAX = 12

#: (tricktable game, OpenSpiel game, default hands); Oh Hell's OpenSpiel games are built below
GAMES: list[tuple[str, str, int]] = [
    ("hearts", "hearts", 2000),
    ("spades", "spades", 2000),
    ("euchre", "euchre", 5000),
    (f"oh-hell(max_cards={OH_HELL_MAX})", "oh_hell", 3000),
]

#: the OpenSpiel process: its argument is a JSON object {seed, games, chunk, hands, chance};
#: hand i is played in games[(i % chunk) % len(games)]; it prints {hands, play_seconds}.
#: With chance "uniform" a chance node's outcome is drawn like a player's action, from
#: legal_actions(): the same distribution in these four games, whose every chance node (the
#: deal, the dealer, the passing direction, the trump card) is uniform over its outcomes.
DRIVER = """\
import json, random, sys, time
import pyspiel
spec = json.loads(sys.argv[1])
rng = random.Random(spec["seed"])
games = [pyspiel.load_game(name) for name in spec["games"]]
chunk, count = spec["chunk"], len(games)
weighted = spec["chance"] == "weighted"
began = time.perf_counter()
for i in range(spec["hands"]):
    state = games[(i % chunk) % count].new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node() and weighted:
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
elapsed = time.perf_counter() - began
print(json.dumps({"hands": spec["hands"], "play_seconds": elapsed}))
"""

CHECK = (
    "import importlib.metadata as m, pyspiel\n"
    "try:\n"
    "    print(m.version('open_spiel'))\n"
    "except m.PackageNotFoundError:\n"
    "    print('unknown version')\n"
)


def openspiel_version(python: str) -> str:
    """The open_spiel version ``python`` imports; exits with a clear message if it cannot."""
    hint = (
        "install it in a separate environment: python3 -m venv /tmp/osvenv && "
        "/tmp/osvenv/bin/pip install open_spiel, then pass "
        "--openspiel-python /tmp/osvenv/bin/python"
    )
    if not (Path(python).is_file() and os.access(python, os.X_OK)):
        sys.exit(f"open_spiel unavailable: {python} is not an executable Python; {hint}")
    try:
        done = subprocess.run(
            [python, "-c", CHECK], capture_output=True, text=True, check=False, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        sys.exit(f"open_spiel unavailable: cannot run {python}: {exc}; {hint}")
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        reason = lines[-1] if lines else f"exit {done.returncode}"
        sys.exit(f"open_spiel unavailable: {python} cannot import pyspiel ({reason}); {hint}")
    return done.stdout.strip()


def hands_per_chunk() -> int:
    """How many hands ``simulate --hands`` plays per chunk (each chunk starts a new match)."""
    try:
        from tricktable.simulate import HANDS_PER_CHUNK
    except ImportError:
        return 1000
    return HANDS_PER_CHUNK


def oh_hell_sizes() -> list[int]:
    """The hand sizes of one ``oh-hell(max_cards=12)`` match, in order."""
    try:
        from tricktable.games.oh_hell import hand_sizes
    except ImportError:
        # The default sequence, down-up, when the module is not there to ask.
        return [*range(OH_HELL_MAX, 0, -1), *range(2, OH_HELL_MAX + 1)]
    return list(hand_sizes("down-up", OH_HELL_MAX))


def openspiel_games(name: str) -> list[str]:
    """The OpenSpiel game strings hand after hand cycles through, for one compared game."""
    if name == "oh_hell":
        return [f"oh_hell(players=4,num_tricks_fixed={k})" for k in oh_hell_sizes()]
    return [name]


def openspiel_command(python: str, games: list[str], hands: int, chance: str) -> list[str]:
    """The OpenSpiel process for ``hands`` hands."""
    spec = {"seed": 1, "games": games, "chunk": hands_per_chunk(), "hands": hands, "chance": chance}
    return [python, "-c", DRIVER, json.dumps(spec, separators=(",", ":"))]


def show_openspiel(cmd: list[str]) -> str:
    """The OpenSpiel command as one would type it, with ``"$DRIVER"`` for the loop's source."""
    return " ".join(shlex.quote(part) if part != DRIVER else '"$DRIVER"' for part in cmd)


def compare(
    tt_base: list[str],
    python: str,
    tt_game: str,
    os_game: str,
    hands: int,
    runs: int,
    chance: str,
) -> dict[str, Any]:
    """Time both sides of one game, interleaved; the best (shortest) run of each counts."""
    games = openspiel_games(os_game)
    tt_cmd = simulate_command(tt_base, tt_game, hands)
    os_cmd = openspiel_command(python, games, hands, chance)
    row: dict[str, Any] = {
        "tricktable_game": tt_game,
        "openspiel_game": games[0] if len(games) == 1 else f"oh_hell(players=4) × {len(games)}",
        "hands": hands,
        "tricktable_command": show_command(tt_cmd),
        "openspiel_command": show_openspiel(os_cmd),
        "tricktable_runs": [],
        "openspiel_runs": [],
        "tricktable_error": None,
        "openspiel_error": None,
    }
    warm = min(hands, 200)
    tt_ok, os_ok = True, True
    # Warm-up of both: bytecode caches and the OS page cache.
    try:
        time_run(simulate_command(tt_base, tt_game, warm), warm)
    except RunError as exc:
        row["tricktable_error"], tt_ok = str(exc), False
    try:
        time_run(openspiel_command(python, games, warm, chance), warm)
    except RunError as exc:
        row["openspiel_error"], os_ok = str(exc), False
    tt_best: tuple[float, dict[str, Any]] | None = None
    os_best: tuple[float, dict[str, Any]] | None = None
    for _ in range(runs):
        if tt_ok:
            try:
                elapsed, report = time_run(tt_cmd, hands)
                row["tricktable_runs"].append(round(elapsed, 4))
                if tt_best is None or elapsed < tt_best[0]:
                    tt_best = (elapsed, report)
            except RunError as exc:
                row["tricktable_error"], tt_ok = str(exc), False
        if os_ok:
            try:
                elapsed, report = time_run(os_cmd, hands)
                row["openspiel_runs"].append(round(elapsed, 4))
                if os_best is None or elapsed < os_best[0]:
                    os_best = (elapsed, report)
            except RunError as exc:
                row["openspiel_error"], os_ok = str(exc), False
    row["tricktable_hands_per_second"] = round(hands / tt_best[0], 1) if tt_best else None
    row["tricktable_play_hands_per_second"] = play_rate(tt_best[1]) if tt_best else None
    row["openspiel_hands_per_second"] = round(hands / os_best[0], 1) if os_best else None
    row["openspiel_play_hands_per_second"] = (
        round(hands / os_best[1]["play_seconds"], 1) if os_best else None
    )
    tt_rate, os_rate = row["tricktable_hands_per_second"], row["openspiel_hands_per_second"]
    row["ratio"] = round(tt_rate / os_rate, 3) if tt_rate and os_rate else None
    return row


def rate(value: float | None, error: str | None) -> str:
    """A rate for the table, or the error that stopped it."""
    if value is not None:
        return f"{value:,.0f}"
    text = error or "—"
    text = text if len(text) <= 80 else text[:79] + "…"
    return "error: " + text.replace("|", "\\|")


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| tricktable game | OpenSpiel game | hands | tricktable hands/s | OpenSpiel hands/s "
        "| ratio tt/OS | tricktable play hands/s | OpenSpiel play hands/s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ratio = f"{r['ratio']:.2f}×" if r["ratio"] else "—"
        tt_play, os_play = (
            r["tricktable_play_hands_per_second"],
            r["openspiel_play_hands_per_second"],
        )
        lines.append(
            f"| {r['tricktable_game']} | {r['openspiel_game']} | {r['hands']:,} | "
            f"{rate(r['tricktable_hands_per_second'], r['tricktable_error'])} | "
            f"{rate(r['openspiel_hands_per_second'], r['openspiel_error'])} | {ratio} | "
            f"{f'{tt_play:,.0f}' if tt_play else '—'} | {f'{os_play:,.0f}' if os_play else '—'} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Compare the four games and print the table and the commands."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--openspiel-python",
        default=sys.executable,
        metavar="PATH",
        help="the Python of an environment with open_spiel (default: this Python)",
    )
    parser.add_argument("--runs", type=int, default=3, help="timed runs per side (default 3)")
    parser.add_argument(
        "--hands", type=int, help="hands per run for every game (default: per game)"
    )
    parser.add_argument("--games", help="only these tricktable games, comma-separated")
    parser.add_argument(
        "--chance",
        choices=("weighted", "uniform"),
        default="weighted",
        help="OpenSpiel chance outcomes: drawn from chance_outcomes() by probability "
        "(default), or with random.choice(legal_actions()) (the same draw here, faster)",
    )
    parser.add_argument(
        "--register", default="", help="tricktable game modules to register first, e.g. spades"
    )
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args()
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    python = args.openspiel_python
    version = openspiel_version(python)
    modules = [m.strip() for m in args.register.split(",") if m.strip()]
    try:
        register_modules(modules)
    except Exception as exc:  # an unknown or broken module: say which, no traceback
        sys.exit(f"cannot register {modules}: {type(exc).__name__}: {exc}")
    chosen = GAMES
    if args.games:
        wanted = {g.strip() for g in args.games.split(",") if g.strip()}
        chosen = [g for g in GAMES if g[0] in wanted or g[0].split("(")[0] in wanted]
        if not chosen:
            names = ", ".join(g[0].split("(")[0] for g in GAMES)
            sys.exit(f"no such game to compare: {args.games}; valid: {names}")

    tt_base = base_command(modules)
    load_before = load_average()
    print(f"machine: {machine_line()}")
    print(f"tricktable: {measured_copy()}")
    if os.environ.get("PYTHONPATH"):
        print(f"PYTHONPATH: {os.environ['PYTHONPATH']}")
    print(f"OpenSpiel: open_spiel {version} via {python}")
    print(f"load average before: {load_before}")
    print(f"runs per side: {args.runs} (best counts), interleaved, after one warm-up run each")
    print(f"OpenSpiel chance outcomes: {args.chance}")
    print(flush=True)
    rows = []
    for tt_game, os_game, default_hands in chosen:
        hands = args.hands or default_hands
        row = compare(tt_base, python, tt_game, os_game, hands, max(1, args.runs), args.chance)
        print(f"  {tt_game}: ratio {row['ratio']}", file=sys.stderr, flush=True)
        rows.append(row)
    load_after = load_average()
    print(table(rows))
    print()
    print("Commands ($DRIVER is the source of DRIVER, the OpenSpiel loop, in this script):")
    print()
    for r in rows:
        print(f"- `{r['tricktable_command']}`")
        print(f"- `{r['openspiel_command']}`")
    print()
    print(f"load average after: {load_after}")
    if args.json:
        data = {
            "benchmark": "openspiel_compare",
            "machine": machine_line(),
            "tricktable": measured_copy(),
            "pythonpath": os.environ.get("PYTHONPATH"),
            "openspiel": {"version": version, "python": python, "chance": args.chance},
            "load_average_before": load_before,
            "load_average_after": load_after,
            "runs": args.runs,
            "rows": rows,
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
