"""``tricktable play``: a match at the terminal — people against bots, or bots alone.

With a ``human`` seat the table is drawn as the match is played and the record is saved (by
default under ``records/``) when the match ends, when input ends, on ``quit`` and on Ctrl-C.
Without one the match runs unattended, one line per hand, and is saved only with ``--save``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

from tricktable.bots import make_bot, split_players
from tricktable.bots.base import Bot
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.match import Referee, RunnerOptions, end_bots, play_hand, start_bots
from tricktable.records import save_record, to_record
from tricktable.seeds import fresh_seed
from tricktable.ui.terminal import HumanPlayer, QuitGame, TableDisplay, make_console, seat_names

HUMAN = "human"


def parse_players(text: str, count: int) -> list[str]:
    """The player specs of ``--players``: exactly ``count``, each "human" or a bot spec.

    Names are case-insensitive; programs, paths and URLs (``cmd:./MyBot``) keep their case.
    A spec holding a comma goes in double quotes (see :func:`tricktable.bots.split_players`).
    """
    names = split_players(text)
    names = [name.lower() if ":" not in name else name for name in names]
    if len(names) != count or not all(names):
        raise TricktableError(
            f"--players needs {count} comma-separated players (human or a bot), got {text!r}"
        )
    return names


def default_record_path(seed: int) -> Path:
    """Where a human game is saved when no ``--save`` is given."""
    return Path("records") / f"match-{seed}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def _prepare_folder(path: Path) -> None:
    """Create the record's folder now, so a bad path fails before the match, not after it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TricktableError(f"cannot create {path.parent}: {exc.strerror or exc}") from None
    if path.is_dir():
        raise TricktableError(f"cannot save the record to {path}: it is a folder")


def _user_name() -> str:
    return os.environ.get("USER") or "you"


def run_play(
    game_spec: str,
    players: str,
    seed: int | None,
    save_path: str | None,
    max_hands: int = 1000,
    options: RunnerOptions | None = None,
) -> int:
    """Play one match; the exit status (0 done or input ended, 2 bad input, 130 Ctrl-C).

    A match stops unfinished after ``max_hands`` hands: random bidders can drift away from the
    target for ever, and an unattended run must end.
    """
    console = make_console()
    bots: list[Bot] = []
    try:
        game = load_game(game_spec)
        specs = parse_players(players, game.num_players)
        humans = [seat for seat, spec in enumerate(specs) if spec == HUMAN]
        if seed is None:
            seed = fresh_seed()
        names = seat_names(humans, game.num_players)
        display = TableDisplay(console, game, names, compact=not humans)
        display.humans = humans
        for spec in specs:
            bots.append(HumanPlayer(display) if spec == HUMAN else make_bot(spec, options))
        path = Path(save_path) if save_path else (default_record_path(seed) if humans else None)
        if path is not None:
            _prepare_folder(path)
    except TricktableError as exc:
        _close(bots)
        print(f"error: {exc}", file=sys.stderr)
        return 2

    user = _user_name()
    labels = [
        (user if len(humans) == 1 else f"{user}#{seat}") if spec == HUMAN else f"bot:{bot.name}"
        for seat, (spec, bot) in enumerate(zip(specs, bots, strict=True))
    ]
    state = game.new_state(seed)
    display.start(state)
    console.print(f"{display.title()} · seed {seed}", style="bold")
    display.show_seats(["you" if s == HUMAN else s for s in specs])
    if humans:
        console.print(
            f"Replay these deals with --seed {seed}. Type ? for help, quit to stop.", style="dim"
        )

    status = 0
    referee = Referee(options)
    try:
        start_bots(game, bots, seed, referee)
        while not state.is_over and len(state.history) < max_hands:
            play_hand(state, bots, display, referee)
        end_bots(state, bots, referee)
        for fault in referee.faults:
            console.print(
                f"fault: {labels[fault['seat']]} (seat {fault['seat']}), hand {fault['hand']}: "
                f"{fault['kind']}: {fault['detail']} -> {fault['penalty']}",
                style="yellow",
                markup=False,
            )
        if state.is_over:
            display.show_match_end(state)
        else:
            console.print(
                f"Stopped after {max_hands} hands without a winner; scores {state.scores}."
            )
    except QuitGame:
        console.print("\nStopped.")
    except EOFError:
        console.print("\nEnd of input: stopped.")
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        status = 130
    except TricktableError as exc:
        console.print()
        print(f"error: {exc}", file=sys.stderr)
        status = 2
    finally:
        _close(bots)

    if path is not None:
        try:
            save_record(to_record(state, labels, faults=referee.faults), path)
        except OSError as exc:
            reason = exc.strerror or exc
            print(f"error: cannot save the record to {path}: {reason}", file=sys.stderr)
            return 2
        console.print(f"record saved to {path}")
    return status


def _close(bots: list[Bot]) -> None:
    for bot in bots:
        # One bot failing to close must not keep the others open.
        with contextlib.suppress(Exception):
            bot.close()
