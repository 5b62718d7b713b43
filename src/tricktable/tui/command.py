"""``tricktable tui``: check the options, play full-screen, save the record like ``play``."""

from __future__ import annotations

from pathlib import Path

from tricktable.bots import split_players
from tricktable.cli import fail
from tricktable.cli.play import default_record_path, prepare_folder, user_name
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.records import save_record
from tricktable.runner import check_players
from tricktable.seeds import fresh_seed
from tricktable.tui.app import TableApp

#: the players without ``--players``: you against three characters
DEFAULT_PLAYERS = "you,edna,vinnie,rosa"
#: what ``--players`` may call the person at seat 0
PERSON_WORDS = ("you", "human", "me")


def parse_tui_players(text: str) -> list[str]:
    """The three bots of ``--players`` (``you,edna,vinnie,rosa``: you first, then three
    bots or characters); a clear error for anything else."""
    names = [n.lower() if ":" not in n else n for n in split_players(text)]
    if len(names) != 4 or not all(names):
        raise TricktableError(f"--players needs four comma-separated players, got {text!r}")
    if names[0] not in PERSON_WORDS:
        raise TricktableError(f"--players names you first (you,edna,...), not {names[0]!r}")
    if any(n in PERSON_WORDS for n in names[1:]):
        raise TricktableError("the table screen seats one person: the other three are bots")
    return names[1:]


def make_app(game_spec: str, players: str | None, seed: int | None) -> TableApp:
    """The table screen for the options given (checked: bad ones raise one clear error)."""
    game = load_game(game_spec)
    bots = parse_tui_players(players or DEFAULT_PLAYERS)
    check_players(bots)
    return TableApp(game, bots, seed if seed is not None else fresh_seed(), label=user_name())


def run_tui(game_spec: str, players: str | None, seed: int | None, save_path: str | None) -> int:
    """Play one match full-screen; the exit status (0 done or quit, 2 bad input, 3 the
    engine failed). The record is saved when the app closes, finished or not."""
    try:
        app = make_app(game_spec, players, seed)
        path = Path(save_path) if save_path else default_record_path(app.seed)
        prepare_folder(path)
    except TricktableError as exc:
        return fail(exc)
    try:
        app.run()
    finally:
        app.table.stop()
        app.table.close()
    try:
        save_record(app.table.record(), path)
    except OSError as exc:
        return fail(f"cannot save the record to {path}: {exc.strerror or exc}")
    print(f"record saved to {path}")
    if app.failure is not None:
        return fail(f"the match stopped: {app.failure}", 3)
    return 0
