"""Per-decision round trip of a program bot over stdin/stdout: median and 90th percentile.

Four copies of an example bot play hands of a game; every ``act`` call (build the messages,
write them, wait for the answer, read and check it) is timed. The C example bot answers at
once, so its figure is the protocol's own overhead; the Python one adds that interpreter's
reading and writing. Usage: ``python benchmarks/bot_overhead.py [--hands N] [--bot c|python|js]``
(the C bot is compiled with cc into a temporary folder).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tricktable.engine.trick import Game, View
from tricktable.games import load_game, register
from tricktable.match import Referee, end_bots, play_hand, start_bots
from tricktable.protocols.messages import Conversation
from tricktable.protocols.stdio import SubprocessBot

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples" / "bots"


class Timed(SubprocessBot):
    """A program's bot that times each of its decisions."""

    def __init__(self, command: str) -> None:
        super().__init__(command)
        self.times: list[float] = []

    def act(self, view: View) -> int:
        began = time.perf_counter()
        action = super().act(view)
        self.times.append(time.perf_counter() - began)
        return action


def command(bot: str, folder: Path) -> str:
    """The command that runs an example bot (building the C one first)."""
    if bot == "c":
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc is None:
            sys.exit("no C compiler: try --bot python")
        out = folder / "bot"
        subprocess.run(
            [cc, "-std=c99", "-O2", "-o", str(out), str(EXAMPLES / "c" / "bot.c")], check=True
        )
        return str(out)
    if bot == "js":
        return f"node {EXAMPLES / 'js' / 'bot.js'}"
    return f"{sys.executable} {EXAMPLES / 'python' / 'bot.py'}"


def measure(game: Game, cmd: str, hands: int) -> list[float]:
    """The time of every decision but each bot's first (which includes its start)."""
    bots = [Timed(cmd) for _ in range(game.num_players)]
    referee = Referee()
    times: list[float] = []
    seed = 1
    played = 0
    try:
        while played < hands:
            start_bots(game, bots, seed, referee)
            state = game.new_state(seed)
            while not state.is_over and played < hands:
                play_hand(state, bots, None, referee)
                played += 1
            end_bots(state, bots, referee)
            assert not referee.faults, referee.faults
            for bot in bots:
                times.extend(bot.times[1:])
                bot.times.clear()
            seed += 1
    finally:
        for bot in bots:
            bot.close()
    return times


def message_cost(game: Game, rounds: int = 2000) -> float:
    """Microseconds to build the lines of one question, without any process."""
    state = game.new_state(3)
    state.deal()
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    seat = state.to_act
    view = state.view(seat)
    talk = Conversation(game, seat)
    talk.query(view)
    began = time.perf_counter()
    for _ in range(rounds):
        talk.query(view)
    return (time.perf_counter() - began) / rounds * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--bot", choices=("c", "python", "js"), default="c")
    args = parser.parse_args()
    from tricktable.games.tricks import GAME

    register(GAME)
    with tempfile.TemporaryDirectory() as folder:
        cmd = command(args.bot, Path(folder))
        for spec in ("setback", "tricks"):
            game = load_game(spec)
            times = sorted(measure(game, cmd, args.hands))
            median = statistics.median(times) * 1e6
            p90 = times[int(len(times) * 0.9)] * 1e6
            print(
                f"{spec:8} {args.bot:6} decisions {len(times):6}  median {median:6.0f} µs"
                f"  p90 {p90:6.0f} µs  (building the lines: {message_cost(game):4.0f} µs)"
            )


if __name__ == "__main__":
    main()
