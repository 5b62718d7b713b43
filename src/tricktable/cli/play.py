"""``tricktable play``: a match at the terminal — people against bots, or bots alone.

With a ``human`` seat the table is drawn as the match is played and the record is saved (by
default under ``records/``) when the match ends, when input ends, on ``quit`` and on Ctrl-C.
Without one the match runs unattended, one line per hand, and is saved only with ``--save``.
``--resume PATH`` plays a saved match on from where it stopped, and saves it back to PATH
(or to ``--save``).

The match is played by :func:`tricktable.runner.run_match`. With people it is played at a
table (:mod:`tricktable.table`) by the asyncio driver: each person at the keyboard is a
:class:`~tricktable.ui.human.HumanPlayer` acting through ``Table.submit``, and the terminal
table shows the match from the people's event streams. Bots alone play in the runner's loop,
the terminal table its listener. An engine failure (a bug, not a bot's fault) stops the match
with one line, exit status 3, and the record so far saved.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from tricktable.bots import PEOPLE, split_players
from tricktable.bots.base import Bot
from tricktable.cli import fail
from tricktable.engine.trick import TrickState
from tricktable.errors import TricktableError, quote
from tricktable.files import check_writable, shown
from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.match import EngineFailure, Listener
from tricktable.records import RecordSaver, load_record, replay, save_record
from tricktable.runner import (
    BOT_LABEL,
    MatchInterrupted,
    MatchOutcome,
    MatchSpec,
    MatchSpecError,
    MatchStopped,
    check_players,
    players_of,
    run_match,
)
from tricktable.seeds import fresh_seed
from tricktable.ui.human import HumanPlayer, QuitGame
from tricktable.ui.terminal import TableDisplay, make_console, seat_names

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
            f"--players needs {count} comma-separated players (human or a bot), got {quote(text)}"
        )
    # "you" is what the TUI calls the person; both commands take either word.
    return [HUMAN if name in PEOPLE else name for name in names]


def default_record_path(seed: int) -> Path:
    """Where a human game is saved when no ``--save`` is given."""
    return Path("records") / f"match-{seed}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def prepare_folder(path: Path) -> None:
    """Create the default record's folder (``records/``) now and check that the record can
    be written there, so that a bad place fails before the match, not after it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = exc.strerror or exc
        raise TricktableError(f"cannot create {shown(path.parent)}: {reason}") from None
    check_writable(path, "record")


def user_name() -> str:
    """Who sits at seat 0, for the record: the login name, or "you"."""
    return os.environ.get("USER") or "you"


#: the players of ``play`` without ``--players`` at four seats: you against three heuristic bots
DEFAULT_PLAYERS = "human,heuristic,heuristic,heuristic"


def default_players(seats: int) -> str:
    """The players of a table of ``seats`` when none are given: a person and heuristic bots.

    >>> default_players(3)
    'human,heuristic,heuristic'
    """
    return ",".join(["human"] + ["heuristic"] * (seats - 1))


#: the exit status of a match the engine could not play on
ENGINE_FAILED = 3


def run_play(
    game_spec: str | None,
    players: str | None,
    seed: int | None,
    save_path: str | None,
    max_hands: int = 1000,
    options: RunnerOptions | None = None,
    resume: str | None = None,
) -> int:
    """Play one match; the exit status (0 done or input ended, 2 bad input, 3 engine
    failure, 130 Ctrl-C).

    A match stops unfinished after ``max_hands`` hands (counted from its start): random
    bidders can drift away from the target for ever, and an unattended run must end.
    ``resume`` is the path of a saved match to play on; its game and seed are the record's,
    its players too unless ``players`` are given.
    """
    console = make_console()
    limits = options if options is not None else RunnerOptions()
    try:
        if resume is not None:
            if game_spec is not None or seed is not None:
                raise TricktableError("--resume plays the record's game and seed: give neither")
            record = load_record(resume)
            game = replay(record).game  # the whole record checked before anything is shown
            specs = parse_players(players, game.num_players) if players else None
            names = list(specs if specs is not None else players_of(record))
        else:
            record = None
            seats = len(split_players(players)) if players else None  # the size --players gives
            game = load_game(game_spec or "setback", players=seats)
            names = parse_players(players or default_players(game.num_players), game.num_players)
            specs = names
        humans = [seat for seat, spec in enumerate(names) if spec == HUMAN]
        names_of_seats = seat_names(humans, game.num_players)
        display = TableDisplay(console, game, names_of_seats, compact=not humans)
        display.humans = humans
        people: dict[int, Bot] = {seat: HumanPlayer(display) for seat in humans}
        if record is not None:
            spec = MatchSpec.resuming(record, specs, limits=limits, max_hands=max_hands)
            if specs is not None:  # new players: new names in the record
                spec = replace(spec, labels=_labels(specs, humans))
        else:
            spec = MatchSpec(
                game.spec(),
                tuple(names),
                seed if seed is not None else fresh_seed(),
                limits,
                max_hands,
                labels=_labels(names, humans),
            )
        # Where the record goes is checked now: a place it cannot go (a symlink, a FIFO, a
        # device, a folder, a missing folder) fails before the match, with nothing played.
        default: Path | None = None
        if save_path is not None:  # --save "" is a path not given: check_writable says so
            path: Path | None = check_writable(save_path, "record")
        elif resume is not None and resume != "-":
            path = check_writable(resume, "record")  # the match goes on in its own file
        else:
            path = default = default_record_path(spec.seed or 0) if humans else None
        # Where a restored substitute plays, its spec is checked when the match starts.
        check_players(spec.players, limits)
        if default is not None:
            prepare_folder(default)  # records/ is made only for a match that will be played
    except TricktableError as exc:
        rebuilt = resume is not None and not players and isinstance(exc, MatchSpecError)
        hint = "; give the players with --players" if rebuilt else ""
        return fail(f"{exc}{hint}")

    def start(state: TrickState) -> None:
        if not humans:  # people's display follows the table they sit at, from their seats
            display.follow_state(state)
        console.print(f"{display.title()} · seed {state.seed}", style="bold")
        shown = ["you" if s == HUMAN else s for s in spec.players]
        # The avatars are drawn from labels, as the TUI's are: "you", bot:SPEC.
        display.show_seats(shown, ["you" if s == HUMAN else BOT_LABEL + s for s in spec.players])
        if record is not None:
            console.print(_resumed_at(state), style="dim")
        if humans:
            console.print(
                f"Replay these deals with --seed {state.seed}. Type ? for help, quit to stop.",
                style="dim",
            )

    status = 0
    played = False
    saving = _Saving(path, spec.labels, record)
    try:
        outcome = run_match(
            spec,
            listener=saving.listener(None if humans else display),
            bots=people,
            on_start=start,
            on_fault=saving.faults.append,
        )
        played = True
    except MatchInterrupted as stop:
        console.print("\nInterrupted.")
        outcome, status = stop.outcome, 130
    except MatchStopped as stop:
        outcome, status = stop.outcome, _stopped(stop.cause, console)
    except TricktableError as exc:  # the spec could not be played: nothing began
        return fail(exc)
    finally:
        _close(list(people.values()))
    state = outcome.state
    assert state is not None  # an outcome of this process
    if played:
        _show_end(outcome, state, display, console)
    if path is None and status == ENGINE_FAILED:
        path = default_record_path(state.seed)  # a bug's record is worth keeping
        with contextlib.suppress(TricktableError):
            prepare_folder(path)
    if path is not None:
        try:
            save_record(outcome.record, path, whole=True)  # no journal left beside it
        except TricktableError as exc:  # the place changed during the match
            return fail(exc)
        console.print(f"record saved to {path}", markup=False, highlight=False)
    return status


class _Saving:
    """Saves the match after every action, so that a match killed in the middle plays on
    with ``--resume``: each action a line appended to the record's journal
    (:class:`tricktable.records.RecordSaver`: a save costs what it adds, so a match of
    thousands of actions saves in time linear in them), the record written whole at the end.

    A save that fails is not the match's end: the save at the end says why, once.
    """

    def __init__(
        self, path: Path | None, labels: tuple[str, ...] | None, record: dict[str, Any] | None
    ) -> None:
        self.path = path if labels is not None else None
        self.labels = labels
        earlier = record.get("faults") if record is not None else None
        #: the faults of the record played on, then those the referee records
        self.faults: list[dict[str, Any]] = list(earlier) if isinstance(earlier, list) else []
        self.failed = False
        self.saver = RecordSaver(self.path) if self.path is not None else None

    def listener(self, then: Listener | None) -> Listener | None:
        """The match loop's listener: ``then`` (the terminal's table), then the save."""
        if self.path is None:
            return then

        def listen(state: TrickState, seat: int, action: int) -> None:
            if then is not None:
                then(state, seat, action)
            self.save(state)

        return listen

    def save(self, state: TrickState) -> None:
        if self.saver is None or self.failed:
            return
        try:
            self.saver.save(state, self.labels, self.faults)
        except TricktableError:
            self.failed = True


def _labels(specs: list[str] | tuple[str, ...], humans: list[int]) -> tuple[str, ...]:
    """The record's names of the players: the user for a person, ``bot:SPEC`` for a bot."""
    user = user_name()
    return tuple(
        (user if len(humans) == 1 else f"{user}#{seat}") if spec == HUMAN else BOT_LABEL + spec
        for seat, spec in enumerate(specs)
    )


def _resumed_at(state: TrickState) -> str:
    hand = len(state.history)
    if state.is_over:
        return "Resumed: the match was already over."
    if state.needs_deal:
        return f"Resumed after hand {hand}."
    return f"Resumed in hand {hand}, after {len(state.actions)} actions."


def _stopped(cause: BaseException, console: Any) -> int:
    """Say why a match stopped before its end; its exit status."""
    if isinstance(cause, QuitGame):
        console.print("\nStopped.")
        return 0
    if isinstance(cause, EOFError):
        console.print("\nEnd of input: stopped.")
        return 0
    console.print()
    if isinstance(cause, TricktableError):
        return fail(cause)
    if isinstance(cause, EngineFailure):
        return fail(cause, ENGINE_FAILED)
    return fail(f"internal error: {type(cause).__name__}: {cause}", ENGINE_FAILED)


def _show_end(
    outcome: MatchOutcome, state: TrickState, display: TableDisplay, console: Any
) -> None:
    display.catch_up()  # what came after the last action (a forfeit)
    labels = outcome.labels
    for fault in outcome.faults:
        console.print(
            f"fault: {labels[fault['seat']]} (seat {fault['seat']}), hand {fault['hand']}: "
            f"{fault['kind']}: {fault['detail']} -> {fault['penalty']}",
            style="yellow",
            markup=False,
        )
    if state.is_over:
        display.show_match_end()
    else:
        console.print(
            f"Stopped after {outcome.spec.max_hands} hands without a winner; scores {state.scores}."
        )


def _close(bots: list[Bot]) -> None:
    for bot in bots:
        # One bot failing to close must not keep the others open.
        with contextlib.suppress(Exception):
            bot.close()
