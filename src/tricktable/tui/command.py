"""``tricktable tui``: check the options, open the full-screen app, report where it saved.

Without ``--play``, ``--resume`` or ``--replay`` the app opens on the start screen, filled in
from the options given; ``--play`` sits down at the table at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from tricktable.bots import PEOPLE, split_players
from tricktable.cli import fail
from tricktable.cli.play import user_name
from tricktable.errors import TricktableError
from tricktable.files import check_writable
from tricktable.games import load_game
from tricktable.records import load_record, replay
from tricktable.runner import check_players
from tricktable.tui.app import TricktableApp
from tricktable.tui.model import DEFAULT_BOTS, MatchSetup, Settings
from tricktable.tui.skins import wants_ascii
from tricktable.tui.table import record_seats

#: the players without ``--players``: you against three characters (a game of another size
#: seats the characters in order: :func:`~tricktable.tui.model.default_bots`)
DEFAULT_PLAYERS = "you," + ",".join(DEFAULT_BOTS)


def parse_tui_players(text: str) -> list[str]:
    """The bots of ``--players`` (``you,edna,vinnie,rosa``: you first, then a bot or
    character for each other seat, 2 to 7 players in all); a clear error for anything else
    (the game checks the number: :func:`make_app`)."""
    names = [n.lower() if ":" not in n else n for n in split_players(text)]
    if not 2 <= len(names) <= 7 or not all(names):
        raise TricktableError(
            f"--players needs 2 to 7 comma-separated players (four for a game of four), "
            f"got {text!r}"
        )
    # The person's words are play's (``tricktable.bots.PEOPLE``): one spelling list for both.
    if names[0] not in PEOPLE:
        raise TricktableError(f"--players names you first (you,edna,...), not {names[0]!r}")
    if any(n in PEOPLE for n in names[1:]):
        raise TricktableError("the table screen seats one person: the others are bots")
    return names[1:]


@dataclass(frozen=True)
class TuiOptions:
    """The command line of ``tricktable tui`` (see ``tricktable tui --help``)."""

    game: str = "setback"
    players: str | None = None
    seed: int | None = None
    save: str | None = None
    play: bool = False
    resume: str | None = None
    replay: str | None = None
    skin: str = "felt"
    ascii: bool = False
    animate: bool = True


def make_app(options: TuiOptions) -> TricktableApp:
    """The app for the options given (checked: bad ones raise one clear error)."""
    if options.resume and options.replay:
        raise TricktableError("give --resume or --replay, not both")
    bots = tuple(parse_tui_players(options.players or DEFAULT_PLAYERS))
    setup = MatchSetup(game=options.game, players=bots, seed=options.seed)
    settings = Settings(
        skin=options.skin, ascii=options.ascii or wants_ascii(), animate=options.animate
    )
    save = Path(options.save) if options.save else None
    if save is not None:
        # As play --save: a missing folder is refused, not made (records/ alone is made).
        check_writable(save, "record")
    path = options.resume or options.replay
    if path is not None:
        record = load_record(path)
        replay(record)  # a record that does not replay fails here, in one line
        if options.replay:
            return TricktableApp(setup, settings, "replay", Path(path), user_name(), save)
        # The record's players, or those given again: never a program the record names.
        again = bots if options.players else None
        record_seats(record, again)
        if again is not None:
            check_players(list(again))
        return TricktableApp(setup, settings, "resume", Path(path), user_name(), save, again)
    # the game and its options checked before the screen opens; the players given say the
    # table's size (you and two bots: a game of three, each for itself where it must be)
    if options.players:
        setup = replace(setup, game=load_game(options.game, players=len(bots) + 1).spec())
    seats = setup.load().num_players
    if options.players and len(bots) != seats - 1:
        raise TricktableError(
            f"--players names {len(bots) + 1} players; {options.game} seats {seats}"
        )
    setup = setup.fitted(seats)
    check_players(list(setup.players))
    start = "play" if options.play else "setup"
    return TricktableApp(setup, settings, start, None, user_name(), save)


def run_tui(options: TuiOptions) -> int:
    """Run the app; the exit status (0 done or quit, 2 bad input, 3 the engine failed)."""
    try:
        app = make_app(options)
    except TricktableError as exc:
        return fail(exc)
    return run_app(app, tell_saved=True)


def run_app(app: TricktableApp, tell_saved: bool) -> int:
    """Run ``app`` to its end, save the table it leaves, and give ``tricktable tui``'s status."""
    app.run()
    screen = app.table_screen
    if screen is not None:
        screen.table.stop()
        screen.table.close()
        screen.save()
        if screen.save_error:
            return fail(screen.save_error)
        if tell_saved:
            print(f"record saved to {screen.path}")
    if app.failure is not None:
        status = 2 if isinstance(app.failure, TricktableError) and screen is None else 3
        return fail(f"{app.failure}", status)
    return 0
