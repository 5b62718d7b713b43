"""Play the first hand of every game and version in the full-screen table, by keys alone.

For each game of ``tricktable games`` (or those named), the TUI's table runs headless
(Textual's ``run_test``) in a window of ``--size`` (100x30 by default), the person in seat 0 and
the heuristic in the others, and the person plays one hand with the keys a person would
press: the arrows to a card or a call and Enter; in a choice of several cards (a pass, a
discard, a keep) Space on as many as the choice takes, then Enter. Prints a line a game and
"N passed, M failed"; ``--shots DIR`` saves each game's screen at its first choice of several
cards (or its first card) as SVG.

Usage: ``PYTHONPATH=src python benchmarks/tui_every_game.py [GAME ...] [--size 100x30]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tricktable.cards import card_name
from tricktable.engine.events import HandScored
from tricktable.games import PRESETS, load_game
from tricktable.tui.app import TricktableApp
from tricktable.tui.model import MatchSetup, Settings
from tricktable.tui.table import ME, TableScreen


def names() -> list[str]:
    from tricktable.games import GAMES

    return sorted(GAMES) + sorted(PRESETS)


async def _until(pilot: Any, ok: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not ok():
        if time.monotonic() > deadline:
            raise TimeoutError("nothing happened in 30 s")
        await pilot.pause(0.02)


async def _to(pilot: Any, screen: TableScreen, index: int) -> None:
    for _ in range(40):
        if screen.cursor == index:
            return
        await pilot.press("right")
    raise RuntimeError(f"the cursor never reached {index}")


async def _hand(screen: TableScreen, pilot: Any, shots: Path | None, game: str) -> list[str]:
    """One hand by keys; what kinds of decision the person met."""
    met: list[str] = []
    shot = False

    def scored() -> bool:
        return any(isinstance(e, HandScored) for e in screen.table.events_since(ME))

    while not scored() and not screen.table.is_over:
        await _until(pilot, lambda: screen.table.whose_turn == ME or scored())
        if scored():
            break
        await pilot.pause(0.05)  # the screen redrawn for this decision
        before = screen.table.moves
        choice = screen.card_choice
        if shots is not None and not shot and (choice is not None or not screen.choices):
            screen.app.save_screenshot(str(shots / f"{game}.svg"))
            shot = True
        if choice is not None:
            met.append(f"{choice['verb']} {choice['min']}-{choice['max']}")
            marked = 0
            for i, card in enumerate(screen.hand):
                if marked >= choice["min"]:
                    break
                if card_name(card) in choice["cards"]:
                    await _to(pilot, screen, i)
                    await pilot.press("space")
                    marked += 1
        elif screen.choices:
            met.append("call")
            await _to(pilot, screen, len(screen.choices) - 1)  # the boldest call
        else:
            legal = screen.view().legal_actions()
            await _to(pilot, screen, next(i for i, c in enumerate(screen.hand) if c in legal))
        await pilot.press("enter")
        await _until(pilot, lambda b=before: screen.table.moves > b or scored(), 10)
    return met


def play(game: str, size: tuple[int, int], shots: Path | None) -> str:
    n = load_game(game).num_players
    folder = Path(tempfile.mkdtemp(prefix="tui-every-"))
    settings = Settings(animate=False, paced=False, hint_budget=0.1, records=folder)
    app = TricktableApp(MatchSetup(game, ("heuristic",) * (n - 1), 7), settings, start="play")
    met: list[str] = []

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            screen = app.table_screen
            assert screen is not None
            met.extend(await _hand(screen, pilot, shots, game))
            screen.table.close()

    asyncio.run(main())
    calls = met.count("call")
    several = sorted({m for m in met if m != "call"})
    return f"{calls} calls" + (f", {', '.join(several)}" if several else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--size", default="100x30")
    parser.add_argument("--shots", type=Path)
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    passed = failed = 0
    for game in args.games or names():
        start = time.monotonic()
        try:
            said = play(game, (width, height), args.shots)
        except Exception as exc:  # a game that cannot be played: said, and the next one
            failed += 1
            print(f"{game:26} FAILED: {type(exc).__name__}: {str(exc)[:160]}", flush=True)
            continue
        passed += 1
        print(f"{game:26} ok  {said}  [{time.monotonic() - start:.1f} s]", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
