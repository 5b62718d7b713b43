"""Every game and version played through a hand in the browser, by roles and names alone.

    PYTHONPATH=src .venv/bin/python benchmarks/web_every_game.py [GAME ...]
        [--per-game 90] [--total 3600] [--level beginner] [--seed 1] [--calls bold]

Starts a real ``tricktable serve`` (127.0.0.1, a temporary SQLite file, ``--pace 0``) and
Debian's Chromium; for each game (every one ``/api/games`` lists, or those named) it creates
a table at the game's default size with the person in seat 0 and bots elsewhere, opens
``/t/ID`` and plays until the first hand's summary (or the match's end) is shown, acting
only through ARIA roles and accessible names (``tests/web_play.py``). One line a game:

    hearts                   4 seats  ok  17 decisions: 13 cards played, 1 multi-card (...)
    cinch                    4 seats  FAILED: no confirm button named ... (/tmp/...png)

and at the end ``N passed, M failed``. Exit status 1 when any failed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from web_play import (
    Played,
    Player,
    bold,
    free_port,
    game_sizes,
    launch,
    start_server,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game names (default: every one)")
    parser.add_argument("--per-game", type=float, default=90.0, help="seconds a game may take")
    parser.add_argument("--total", type=float, default=3600.0, help="seconds in all")
    parser.add_argument("--level", default="beginner", help="the bots' level")
    parser.add_argument("--seed", type=int, default=1, help="the person's choices' seed")
    parser.add_argument(
        "--calls",
        choices=("bold", "random"),
        default="bold",
        help="bold: bid the most, order up, name trump (the decisions after an auction come "
        "to the person); random: any call",
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="web-every-game-") as tmp:
        port = free_port()
        log = (Path(tmp) / "server.log").open("wb")
        server = start_server(Path(tmp) / "tables.db", port, log=log)
        base = f"http://127.0.0.1:{port}"
        try:
            sizes = game_sizes(base)
            names = args.games or list(sizes)
            with sync_playwright() as p:
                browser = launch(p)
                for i, name in enumerate(names):
                    if time.monotonic() - started > args.total:
                        print(f"{name:26s} -        FAILED: the whole run's time is spent")
                        failed += 1
                        continue
                    seats = sizes.get(name)
                    if seats is None:
                        print(f"{name:26s} -        FAILED: no such game at /api/games")
                        failed += 1
                        continue
                    t0 = time.monotonic()
                    ok, said = play_one(browser, base, name, seats, args, i)
                    took = time.monotonic() - t0
                    head = f"{name:26s} {seats} seats"
                    print(f"{head}  {'ok  ' if ok else ''}{said}  [{took:.1f} s]", flush=True)
                    passed += ok
                    failed += not ok
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()
    print(f"{passed} passed, {failed} failed  [{time.monotonic() - started:.0f} s]")
    return 1 if failed else 0


def play_one(
    browser: object, base: str, name: str, seats: int, args: argparse.Namespace, i: int
) -> tuple[bool, str]:
    """Play ``name``'s first hand; (ok, the line's words)."""
    person = Player(browser, base, name="Pat", seed=args.seed + i)
    played = Played()
    try:
        table = person.create(name, seats, level=args.level)
        person.open(table)
        choose = bold if args.calls == "bold" else None
        person.play_hand(time.monotonic() + args.per_game, played=played, choose=choose)
        if person.problems:
            raise RuntimeError("the page logged errors: " + " | ".join(person.problems[:3]))
        end = ", the match over" if played.over else ""
        return True, played.line() + end
    except Exception as e:  # every failure is one line, with a picture of the page
        shot = person.screenshot(f"/tmp/web-every-game-{name}.png")
        why = " ".join(str(e).split())[:300]
        done = f" after {played.line()}" if played.decisions else ""
        return False, f"FAILED: {why}{done} ({shot})"
    finally:
        person.close()


if __name__ == "__main__":
    sys.exit(main())
