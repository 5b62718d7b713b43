"""A table: one match, its seats, and what each seat may see of it.

A :class:`Table` holds a state with its events on, one occupant a seat — a :class:`Bot`, a
:class:`Person` or a :class:`Remote` connection — and the referee that keeps the match going
when a bot fails. People and remote connections act only through :meth:`Table.submit`; bots
are asked by the driver (:func:`tricktable.table.driver.run`), which uses the same table.

Everything a seat gets from a table goes through one visibility rule, the engine's: events
come from the seat's own stream (``EventLog``), views are the seat's sealed ``View``, an error
for a refused action is the one ``View.illegal`` gives (it speaks only of that seat's own
cards), and a chat line may name only cards face up on the table.

The table is not thread-safe: call it from the thread of its event loop. Every change bumps
:attr:`Table.version` and wakes whoever awaits :meth:`Table.changed`, so a server can push a
seat's new events as they happen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from tricktable.botcalls import close_bot
from tricktable.bots.base import Bot
from tricktable.chat import checked_line
from tricktable.engine.events import SPECTATOR, Event
from tricktable.engine.trick import Game, TrickState, View
from tricktable.errors import IllegalAction, NotationError, TricktableError
from tricktable.match import Referee, engine_failure
from tricktable.seat.choices import actions_for, read_cards
from tricktable.seeds import fresh_seed

#: the longest action text :meth:`Table.submit` reads (the longest real one is a few words)
MAX_ACTION_TEXT: Final = 100
#: the seat kinds that act through :meth:`Table.submit`
PERSON_KINDS: Final = ("person", "human", "remote")


Observer = Callable[["Table"], None]


class Person(Bot):
    """A seat played by someone at the table: its actions come only through ``submit``.

    ``label`` is the name written into the record (``human`` if empty). A person who plays
    from this process (at its keyboard, or a test's script) does so in :meth:`attend`, which
    the driver runs beside itself; a remote one's actions come from its connection.
    """

    name = "human"
    interactive = True
    #: what kind of seat this is (``person`` or ``remote``)
    kind = "person"

    def __init__(self, label: str = "") -> None:
        self.label = label

    def act(self, view: View) -> int:
        """Never called by the driver: a person's action is submitted to the table."""
        raise TricktableError(f"seat {view.seat} is a person's: it acts through Table.submit")

    async def attend(self, table: Table, seat: int) -> None:
        """Play ``seat`` at ``table`` until the match ends for it (``Table.wait_for_turn``,
        then ``Table.submit``); the driver runs it from its start.

        The base does nothing: someone else submits. An exception raised here (a person who
        quits) stops the driver, which raises it.
        """


class Remote(Person):
    """A seat played over a connection (a websocket later): for the table, a person."""

    name = "remote"
    kind = "remote"


class Table:
    """One match: a state with its events, a seat's occupant each, and the referee's policy.

    ``seats`` holds one entry a seat: a :class:`Bot`, a :class:`Person` or :class:`Remote`,
    or the text ``person``/``human``/``remote`` or a bot spec (``heuristic``,
    ``cmd:./bot``: see :func:`tricktable.bots.make_bot`). The table owns its bots:
    :meth:`close` closes them. ``state`` resumes a match (a state rebuilt from its record by
    ``records.replay(record, listen=True)``); its events are turned on if they are not.
    ``seed`` is the match's (``state.seed`` when resuming, if None): it seeds the bots.
    ``faults`` are those of the match so far (a resumed record's ``faults``): the referee
    keeps them, so that the table's record lists every fault of the match. ``substituted``
    are the seats a resumed match had handed to a substitute (its log says so), whose
    occupant given here is that substitute: a fault of theirs stops the match, as a
    substitute's does. Characters at the table (:mod:`tricktable.characters`) pause before
    acting where a person sits, and speak after each change unless ``talk`` is False.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | str],
        seed: int | None = None,
        referee: Referee | None = None,
        state: TrickState | None = None,
        faults: Sequence[dict[str, Any]] = (),
        substituted: Iterable[int] = (),
        talk: bool = True,
    ) -> None:
        if state is not None and state.game.spec() != game.spec():
            raise TricktableError(
                f"the state is a match of {state.game.spec()}, not of {game.spec()}"
            )
        if len(seats) != game.num_players:
            raise TricktableError(f"{game.name} needs {game.num_players} seats, got {len(seats)}")
        self.game = game
        self.referee = referee if referee is not None else Referee()
        if seed is None:
            seed = state.seed if state is not None else fresh_seed()
        self.seed: int = seed
        self.state: TrickState = state if state is not None else game.new_state(seed)
        self.state.listen()
        #: the occupant of each seat now (the referee puts substitutes in)
        self.players: list[Bot] = _occupants(seats, self.referee)
        #: each seat's name in the record (the first occupant's)
        self.labels: list[str] = [_label(p) for p in self.players]
        self._own: list[Bot] = list(self.players)
        #: bumped by every change: an action, a deal, a chat line, a fault, the end
        self.version = 0
        #: actions applied at this table (by anyone)
        self.moves = 0
        #: whether the bots have been started (by a driver: once a table)
        self.started = False
        #: the faults of the match before this table took it over (see ``faults``)
        self.earlier_faults: list[dict[str, Any]] = [dict(f) for f in faults]
        self.referee.faults = [*self.earlier_faults, *self.referee.faults]
        #: the seats whose occupant is a resumed match's substitute (see ``substituted``)
        self.substituted: tuple[int, ...] = tuple(substituted)
        self._stopped = False
        self._signal = asyncio.Event()
        self._observers: list[Observer] = []
        #: the characters' table talk, an observer (None where no character speaks)
        self.talker: Any = _seat_characters(self, talk)

    # ------------------------------------------------------------------------ the state

    @property
    def whose_turn(self) -> int:
        """The seat to act, or -1 (between hands, after the match)."""
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (won, or forfeited)."""
        return self.state.is_over

    @property
    def ended(self) -> bool:
        """Whether no more actions will come: the match is over or its driver has stopped."""
        return self._stopped or self.state.is_over

    @property
    def num_seats(self) -> int:
        """How many seats the table has."""
        return self.state.n

    @property
    def open_hands(self) -> bool:
        """Whether no person plays here (every seat, now and at the start, a bot): nothing is
        hidden from anyone, so watchers may see every hand face up while it is played.

        A :class:`Remote` (a websocket bot too) is a person: it learns only its seat's view.
        The first occupants count as well, so a person's seat handed to a substitute never
        opens the hands of the match that person played.
        """
        return not any(isinstance(p, Person) for p in (*self.players, *self._own))

    def is_person(self, seat: int) -> bool:
        """Whether ``seat`` is played by a person or a remote connection (it submits)."""
        return isinstance(self.players[seat], Person)

    def view(self, seat: int) -> View:
        """What ``seat`` may know now (a sealed snapshot, with its events so far)."""
        self._check_seat(seat)
        return self.state.view(seat)

    def events_since(self, viewer: int, n: int = 0) -> list[Event]:
        """The events ``viewer`` (a seat or ``SPECTATOR``) may see, from position ``n`` on.

        Positions count the viewer's own stream: a client that has ``n`` events asks for
        what came after them.
        """
        if viewer != SPECTATOR:
            self._check_seat(viewer)
        if n.__class__ is not int:
            raise TricktableError(f"events_since needs a position (an int), got {n!r}")
        log = self.state.events
        assert log is not None  # the table turned them on
        return log.since(viewer, n)

    def record(self) -> dict[str, Any]:
        """The match's record so far, with its players and the referee's faults."""
        from tricktable.records import to_record

        return to_record(self.state, self.labels, faults=self.referee.faults)

    # --------------------------------------------------------------------------- acting

    def submit(self, seat: int, action: int | str) -> int:
        """Take ``action`` (a code, or its text: ``bid 3``, ``play TD``) for ``seat``.

        Returns the action's code. Anything refused — a seat that is not a person's, text
        that is not an action, not this seat's turn, an action the rules forbid — raises a
        :class:`TricktableError` (an :class:`IllegalAction` with the engine's ``reason`` for
        the last two) and changes nothing.
        """
        self._check_seat(seat)
        if not self.is_person(seat):
            raise TricktableError(
                f"seat {seat} is played by {_label(self.players[seat])}: it takes no submissions"
            )
        if isinstance(action, str) and len(action) <= MAX_ACTION_TEXT:
            several = read_cards(self.game, action)
            if several is not None:  # "discard 7C 8D 9H TS", "6C 9C TC": a choice of cards
                return self.submit_cards(seat, several[1], several[0])[-1]
        code = self._read_action(action)
        state = self.state
        if self._stopped and not state.is_over:
            raise IllegalAction(seat, _text(self.game, code), "cannot act: the table has stopped")
        if state.to_act != seat:
            raise state.view(seat).illegal(code)
        try:
            self._apply(seat, code)
        except IllegalAction:
            # The engine's own message names the acting seat's cards, which on its turn are
            # this seat's; the view's says the same from what the seat may know (a seat of
            # Spades still deciding on blind nil may not know even its own cards).
            raise state.view(seat).illegal(code) from None
        self.moves += 1
        self._touch()
        return code

    def submit_cards(
        self, seat: int, cards: Sequence[int | str], verb: str | None = None
    ) -> list[int]:
        """Make ``seat``'s choice of several ``cards`` (names or codes: a pass of three, a
        discard of four): the engine's actions it takes (:func:`~tricktable.seat.choices.
        actions_for`), each submitted in turn. A choice the rules refuse raises a
        :class:`TricktableError` saying why, and changes nothing. ``verb``: the word the
        person typed (``discard``), checked against the decision's."""
        self._check_seat(seat)
        if not self.is_person(seat):
            raise TricktableError(f"seat {seat} is played by {_label(self.players[seat])}")
        if not isinstance(cards, list | tuple):
            raise TricktableError("a choice of cards is a list of their names: ['7C', 'QH']")
        if self._stopped and not self.state.is_over:
            raise TricktableError("cannot act: the table has stopped")
        actions = actions_for(self.state, seat, list(cards), verb)
        for action in actions:
            self.submit(seat, action)
        return actions

    def play_for(self, seat: int, action: int) -> None:
        """Apply ``action`` from the bot at ``seat`` (the driver's call).

        Raises the engine's :class:`IllegalAction` (which the referee turns into a fault)
        and changes nothing when it is not that seat's legal action.
        """
        state = self.state
        if state.to_act != seat:
            raise state.view(seat).illegal(action)
        self._apply(seat, action)
        self.moves += 1
        self._touch()

    def answer(self, seat: int, action: Any) -> None:
        """Take the answer of the bot at ``seat`` at its turn (the driver's call): the
        referee's rule for an answer, as the match loop follows it (:meth:`Referee.answer
        <tricktable.match.Referee.answer>`) — what it said first, then the action, or a fault
        where the engine refuses it."""
        state = self.state
        if state.to_act != seat:
            self.fault(seat, state.view(seat).illegal(action))
            return
        players = self.players
        referee = self.referee
        referee.note_seats(players)
        before = self._logged()
        if referee.answer(state, players, seat, action, say=self.chat):
            self._charged(before)
        else:
            self.moves += 1
            self._touch()

    def fault(self, seat: int, exc: Exception, deciding: bool | None = None) -> int:
        """Hand a failure of the occupant of ``seat`` to the referee (penalty, substitute).

        The driver's call for a bot that failed; a server's for a person who left (a
        ``BotFault(seat, "closed", ...)``: the seat is handed on as the referee's policy says).
        ``deciding`` False: not while deciding, even on its turn (a bot that failed to start).
        Returns the penalty action the referee logged (Tricks' bad card), or -1.
        """
        before = self._logged()
        action = self.referee.fault(self.state, self.players, seat, exc, deciding)
        self._charged(before)
        return action

    def turn_failed(self, seat: int, exc: Exception) -> int:
        """The bot at ``seat`` failed deciding its turn (the driver's call): what it said
        meanwhile is put at the table, then the fault charged — the referee's rules, as in
        the match loop (:meth:`Referee.turn_failed <tricktable.match.Referee.turn_failed>`).
        Returns the penalty action logged (Tricks' bad card), or -1."""
        before = self._logged()
        action = self.referee.turn_failed(self.state, self.players, seat, exc, say=self.chat)
        self._charged(before)
        return action

    def end_match(self, loser: int, line: str) -> None:
        """End the match now: ``line`` said at the table (by the table itself), then the
        forfeit of ``loser``'s side — one change, so a journal keeps the two in one row.

        The record keeps it as it keeps any forfeit (a ``chat`` and a ``forfeit`` note) and
        replays to the same end: the driver's cap of hands ends a match so. A line that
        chat's rules refuse is not said (the forfeit is enough)."""
        self._check_seat(loser)
        if self.state.is_over:
            raise TricktableError("cannot end the match: it is over")
        with contextlib.suppress(TricktableError):
            self.state.chat(-1, checked_line(self.state, line))
        self.state.forfeit(loser)
        self.moves += 1
        self._touch()

    def deal_next(
        self,
        hands: Sequence[int] | None = None,
        dealer: int | None = None,
        stock: Sequence[int] | None = None,
    ) -> None:
        """Deal the next hand (from the match's seed, or the deal given: see ``state.deal``)."""
        if self.ended:
            raise TricktableError("cannot deal: the match is over")
        if not self.state.needs_deal:
            raise TricktableError("cannot deal now: a hand is in play")
        self.state.deal(hands, dealer=dealer, stock=stock)
        self._touch()

    def chat(self, seat: int, text: str) -> str:
        """Say ``text`` at the table from ``seat`` (-1: the table itself); returns what was said.

        Text over :data:`~tricktable.chat.MAX_CHAT` characters is clipped. Refused, with a
        clear error: an empty line, control characters, and a card that is not face up on the
        table (every seat and spectator reads chat, so it may name only what they all may
        know): :func:`tricktable.chat.checked_line`.
        """
        if seat != -1:
            self._check_seat(seat)
        line = checked_line(self.state, text)
        self.state.chat(seat, line)
        self._touch()
        return line

    # ---------------------------------------------------------------------------- waiting

    async def changed(self, since: int | None = None) -> int:
        """Wait until :attr:`version` passes ``since`` (now, if None); the new version.

        Pass the version you last saw, so that a change made in between is not missed.
        """
        if since is None:
            since = self.version
        while self.version <= since:
            await self._signal.wait()
        return self.version

    async def wait_for_turn(self, seat: int) -> bool:
        """Wait until ``seat`` is to act and may submit (True), or never will (False).

        Never: the match is over, the driver has stopped, or the seat is (or has been handed
        to) a bot.
        """
        self._check_seat(seat)
        while True:
            if self.ended or not self.is_person(seat):
                return False
            if self.state.to_act == seat:
                return True
            await self.changed(self.version)

    def watch(self, observer: Observer) -> None:
        """Call ``observer(table)`` after every change, at once (a display, a test's check)."""
        self._observers.append(observer)

    def stop(self) -> None:
        """Say that no more actions will be taken here (the driver has finished or stopped).

        Waiters wake and :meth:`submit` refuses actions, until a driver starts again.
        """
        if not self._stopped:
            self._stopped = True
            self._touch()

    def resume(self) -> None:
        """Take actions again after :meth:`stop` (a driver starting on this table)."""
        if self._stopped:
            self._stopped = False
            self._touch()

    def close(self) -> None:
        """Close every bot the table has held (programs' processes are killed)."""
        seen: set[int] = set()
        for bot in [*self._own, *self.players]:
            if id(bot) not in seen:
                seen.add(id(bot))
                close_bot(bot)  # a plug-in's close may hang or raise SystemExit

    # ---------------------------------------------------------------------------- inside

    def _apply(self, seat: int, action: int) -> None:
        """Apply a checked action. Anything but :class:`IllegalAction` that the engine raises
        is its own bug, not the actor's: an :class:`EngineFailure` saying where."""
        state = self.state
        try:
            state.apply(action)
        except IllegalAction:
            raise
        except Exception as exc:
            raise engine_failure(state, seat, action, exc) from exc

    def _logged(self) -> tuple[int, int]:
        """How long the log is: a fault that adds to it (a bad card, a forfeit) is a move."""
        return len(self.state.actions), len(self.state.history)

    def _charged(self, before: tuple[int, int]) -> None:
        """After a fault was charged: a move if the log grew since ``before``; a change."""
        if self._logged() != before:
            self.moves += 1
        self._touch()

    def _touch(self) -> None:
        self.version += 1
        # A fresh event for the next change: whoever waited on this one wakes.
        signal, self._signal = self._signal, asyncio.Event()
        signal.set()
        for observer in self._observers:
            observer(self)

    def _check_seat(self, seat: object) -> None:
        # exactly an int: True is not seat 1
        if not (seat.__class__ is int and isinstance(seat, int) and 0 <= seat < self.state.n):
            last = self.state.n - 1
            raise TricktableError(f"no seat {seat!r} at this table; seats are 0..{last}")

    def _read_action(self, action: object) -> int:
        if isinstance(action, str):
            if len(action) > MAX_ACTION_TEXT:
                raise NotationError(
                    f"an action of {len(action)} characters is too long to be one"
                    f" ({MAX_ACTION_TEXT} at most)"
                )
            return self.game.parse_action(action)
        if action.__class__ is int:
            assert isinstance(action, int)
            return action
        kind = type(action).__name__
        raise TricktableError(f"an action is its code (an int) or its text ('bid 3'), not {kind}")


def _seat_characters(table: Table, talk: bool) -> Any:
    """The characters' talker of ``table`` (their tempo set where people sit), or None."""
    if not any(p.talks for p in table.players):
        return None  # no character: nothing imported, nothing watching
    from tricktable.characters.talk import seat_table

    return seat_table(table, talk)


def _occupants(seats: Sequence[Bot | str], referee: Referee) -> list[Bot]:
    from tricktable.bots import make_bot

    out: list[Bot] = []
    try:
        for seat in seats:
            if isinstance(seat, Bot):
                out.append(seat)
            elif not isinstance(seat, str):
                raise TricktableError(f"a seat is a bot, a person or a spec; got {seat!r}")
            elif seat.strip().lower() in PERSON_KINDS:
                out.append(Remote() if seat.strip().lower() == "remote" else Person())
            else:
                out.append(make_bot(seat, referee.options))
    except BaseException:
        for bot in out:
            with contextlib.suppress(Exception):
                bot.close()
        raise
    return out


def _text(game: Game, action: int) -> str:
    try:
        return game.action_name(action)
    except TricktableError:
        return f"action {action}"


def _label(player: Bot) -> str:
    if isinstance(player, Person):
        return player.label or player.name
    return f"bot:{getattr(player, 'name', 'bot')}"
