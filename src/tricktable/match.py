"""Playing a match between bots: the loop every command, tournament and table uses.

Bots fail — a program hangs or crashes, a plug-in raises, an answer is not a legal action. The
match must go on and the other bots must not notice, so the loop hands every failure to a
:class:`Referee`, which records it as a fault and applies the penalty the game declares
(:attr:`Game.fault_penalty <tricktable.engine.trick.Game.fault_penalty>`):

- ``bad-card`` (Tricks, seed 002): the state's bad card — the seat loses ``bad_card_penalty``
  points and the hand is thrown in (the ``bad-card`` action of the log). A bot whose answer was
  merely not a legal card keeps its seat, as the seed says; one that broke its transport (timed
  out, crashed, garbled) has been stopped, and its seat goes as ``on_fault`` says;
- ``forfeit`` (Spades, seed 004): the faulting side loses the match at once;
- none (every other game): :attr:`RunnerOptions.on_fault` — ``substitute`` hands the seat to
  the substitute (the referee's ``substitute`` factory: the ``heuristic`` bot unless the runner
  passes another) for the rest of the match, ``forfeit`` ends it, the faulting side losing.

A seat that faults ``max_faults`` times is handed on whatever the game, so that a bot sending
bad cards for ever cannot stall a match. The faulting bot is closed (a program's process group
killed) unless it keeps its seat. Catching costs nothing until a bot fails: the loop's only
addition is a ``try``.

Only what comes from a bot is its fault: an exception from its ``act`` or ``end_hand``, or an
answer the engine refuses as illegal. Anything else the engine raises while applying an
answer is a bug of the engine, not of the bot: the match stops at once with an
:class:`EngineFailure` saying where.

The referee's rules are written once, here, for both loops that play a match: this module's
(``play``, ``simulate``, tournaments, the line terminal) and the table's asyncio driver
(:mod:`tricktable.table.driver`: the TUI, the web). A failed turn is
:meth:`Referee.turn_failed` (what the bot said meanwhile, then the fault); starting the bots,
a hand's end and the match's end are the referee's rounds (:data:`Round`), generators of the
calls to make into the bots, which this loop makes at once (:func:`make_calls`) and the
driver awaits in each bot's thread; :func:`hand_scored` and :func:`deals_another` say when a
hand's end is told and another dealt; one :class:`~tricktable.botcalls.Clock` times them. What
stays each loop's own: how a call is made, a person (here one at the keyboard, whose quit
stops the match; there one who submits), and here the turn itself, inlined — the hot path of
every random playout.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, Final

from tricktable.botcalls import UNTRUSTED, Clock, crash_of
from tricktable.bots import SubstituteFactory, substitute_factory
from tricktable.bots.base import Bot
from tricktable.chat import checked_say
from tricktable.engine.events import EVERYONE, Fault
from tricktable.engine.trick import Game, TrickState
from tricktable.errors import BotError, BotFault, IllegalAction, TricktableError
from tricktable.interrupts import raise_if_lost
from tricktable.limits import RunnerOptions
from tricktable.seeds import derive_seed

#: called after every action with (state, seat, action)
Listener = Callable[[TrickState, int, int], None]
#: deals the next hand of a state (``state.deal()`` draws it from the match's seed)
Dealer = Callable[[TrickState], None]
#: told each fault as the referee records it (the dict of :attr:`Referee.faults`)
FaultListener = Callable[[dict[str, Any]], None]

#: ``Bot.end_hand``, which does nothing
_QUIET: Final = Bot.end_hand

#: one call into a bot that a :data:`Round` asks its loop to make: ``(seat, bot, limit,
#: function, arguments)`` — ``function(*arguments)`` within ``limit`` seconds
Call = tuple[int, Bot, float, Callable[..., Any], tuple[Any, ...]]
#: the referee's rules for a round of calls into the bots (starting them, a hand's end, the
#: match's), written once for both loops: a generator that yields each :data:`Call` and is
#: sent its value, or has what the bot raised (an ``Exception``) thrown in, which it handles
#: (a fault, a set-up error raised on). The match loop makes the calls at once
#: (:func:`make_calls`), the table's driver awaits each in the bot's thread.
Round = Generator[Call, Any, None]

__all__ = [
    "DEAL",
    "END",
    "HAND_OVER",
    "START",
    "TURNS",
    "Call",
    "EngineFailure",
    "Referee",
    "Round",
    "RunnerOptions",
    "as_fault",
    "checked_say",
    "deals_another",
    "emit_fault",
    "end_bots",
    "engine_failure",
    "hand_scored",
    "make_calls",
    "phases",
    "play_hand",
    "play_match",
    "play_on",
    "play_turns",
    "relay_chat",
    "start_bots",
]


class EngineFailure(Exception):  # not RuntimeError: mypyc compiles Exception subclasses only
    """The engine raised while applying an answer it had accepted: a bug, not a bot's fault.

    The match cannot go on. ``hand`` and ``action`` are the 0-based indices of where it
    failed (the action is in the log), ``seat`` who answered; the cause is chained.
    """

    def __init__(self, hand: int, action: int, seat: int, text: str, cause: BaseException) -> None:
        self.hand = hand
        self.action = action
        self.seat = seat
        super().__init__(
            f"engine error in hand {hand + 1}, action {action + 1} (seat {seat}: {text}): "
            f"{type(cause).__name__}: {cause}"
        )


class Referee:
    """Keeps one match going when bots fail: penalties, substitutes and the list of faults.

    ``faults`` holds one dict per fault: ``hand`` and ``action`` (0-based indices in the
    record; ``action`` is None outside a decision), ``seat``, ``kind``, ``detail`` and
    ``penalty`` (``bad-card``, ``substitute``, ``forfeit``, or ``bad-card+substitute`` ...).
    """

    def __init__(
        self,
        options: RunnerOptions | None = None,
        substitute: SubstituteFactory | None = None,
        on_fault: FaultListener | None = None,
    ) -> None:
        self.options = options if options is not None else RunnerOptions()
        #: makes the bot that takes a seat handed on (the runner passes the match's own)
        self.substitute = (
            substitute if substitute is not None else substitute_factory("heuristic", options)
        )
        #: told each fault as it is recorded (bot-check locates it at once)
        self.on_fault = on_fault
        self.faults: list[dict[str, Any]] = []
        self.replaced: dict[int, Bot] = {}
        self.counts: dict[int, int] = {}
        #: what the bots that failed to start raised, by seat, until the match charges it
        self.unstarted: list[tuple[int, Exception]] = []
        self.seed = 0
        #: times the bots that may hang (every bot at a table, plug-ins in the match loop)
        self.clock = Clock(self.options)
        #: the seats (one bit each) whose bots speak, are plug-ins, and are told a hand's end,
        #: for the bots of ``_bits_for`` (see :meth:`note_seats`)
        self.chatty = 0
        self.guarded = 0
        self.told = 0
        #: whether one of them reads its seat's events (``Bot.wants_events``)
        self.listening = False
        self._bits_for: list[Bot] = []
        self._bits_untrusted = -1

    def start(self, seed: int) -> None:
        """Forget the previous match: a new one begins with every bot in its seat."""
        self.close_substitutes()
        self.clock.reset()
        self.unstarted = []
        self.faults = []
        self.counts = {}
        self.seed = seed
        self._bits_for = []

    def note_seats(self, table: list[Bot]) -> None:
        """Set :attr:`chatty`, :attr:`guarded` and :attr:`told` for the bots of ``table``.

        Read again only when other bots sit there (a substitute) or another plug-in class is
        registered, not at every hand: each is a class attribute, a lookup by name when
        compiled (three for each seat cost about 2% of a random Setback hand).
        """
        known = self._bits_for
        if self._bits_untrusted == len(UNTRUSTED) and len(known) == len(table):
            for seat in range(len(table)):
                if known[seat] is not table[seat]:
                    break
            else:
                return
        self.chatty = _chatty(table)
        # Only plug-ins are called through the clock (a thread and a time limit); the bots
        # the package trusts are called directly.
        self.guarded = _guarded(table)
        told = 0
        for seat in range(len(table)):
            if type(table[seat]).end_hand is not _QUIET:
                told |= 1 << seat  # a bot that does nothing at a hand's end needs no view
        self.told = told
        # getattr, as in _is_person: a bot written in Python may declare it on its class.
        self.listening = any(getattr(bot, "wants_events", False) for bot in table)
        self._bits_for = list(table)
        self._bits_untrusted = len(UNTRUSTED)

    def seated(self, bots: Sequence[Bot]) -> list[Bot]:
        """The bot in each seat now: ``bots`` with substitutes where seats were handed on."""
        table = list(bots)
        for seat, bot in self.replaced.items():
            table[seat] = bot
        return table

    def restore(self, seat: int, bot: Bot) -> None:
        """Mark ``bot`` (started) as the substitute already playing ``seat``: a resumed match.

        The substitution is in the log already; a fault of ``bot`` stops the match as that of
        any substitute does.
        """
        self.replaced[seat] = bot

    def close_substitutes(self) -> None:
        """Close the substitutes of the match (its own bots are the caller's to close) and
        end the threads of its bots."""
        for bot in self.replaced.values():
            with contextlib.suppress(Exception):
                bot.close()
        self.replaced = {}
        self.clock.close()

    def close_bot(self, seat: int, bot: Bot) -> None:
        """Close ``bot``, which faulted: in its thread, within a decision's time, if it
        is a plug-in (its ``close`` may hang as its ``act`` did)."""
        if type(bot) in UNTRUSTED:
            self.clock.close_bot(seat, bot)
        else:
            with contextlib.suppress(Exception):
                bot.close()

    def fault(
        self,
        state: TrickState,
        table: list[Bot],
        seat: int,
        exc: Exception,
        deciding: bool | None = None,
    ) -> int:
        """Record ``exc`` from the bot at ``seat`` and apply the penalty.

        ``deciding``: whether it failed deciding its action (None: if it is its turn).
        Returns the penalty action added to the log (Tricks' bad card), or -1.
        """
        bot = table[seat]
        if seat in self.replaced and self.replaced[seat] is bot:
            raise BotError(f"the substitute bot at seat {seat} failed: {exc}") from exc
        fault = as_fault(seat, exc)
        if deciding is None:
            deciding = state.to_act == seat
        hand = len(state.history) - 1
        index = len(state.actions) if deciding else None
        count = self.counts.get(seat, 0) + 1
        self.counts[seat] = count
        rule = state.game.fault_penalty  # "": the runner's on_fault (see Game.fault_penalty)
        penalty: list[str] = []
        action = -1
        keep = False
        if rule == "bad-card" and deciding:
            action = _bad_card(state, seat, exc)
            if action >= 0:
                penalty.append("bad-card")
                keep = fault.kind == "illegal" and count < self.options.max_faults
        if not keep:
            policy = "forfeit" if rule == "forfeit" else self.options.on_fault
            if state.is_over:
                penalty.append("none")  # the match was already decided
            elif policy == "forfeit":
                state.forfeit(seat)
                penalty.append("forfeit")
            else:
                self._substitute(state, table, seat)
                penalty.append("substitute")
            self.close_bot(seat, bot)
        record = self._record(state, seat, fault, hand, index, "+".join(penalty))
        self._notify(table, seat, record, getattr(exc, "answer", None))
        return action

    def _notify(
        self, table: Sequence[Bot], seat: int, record: dict[str, Any], answer: object
    ) -> None:
        """Tell the bots with ``fault_notice`` of the fault ``record`` of ``seat``.

        Only the seat at fault (and the record) hear the detail, which may name that seat's
        cards or voids ("must follow suit C") while its hand goes on; the others hear who
        faulted, the kind and the penalty. Tricks' bad card adds what was sent, to everyone:
        seed 002 tells every player ``bad card`` with the answer, as its log does.
        """
        public = {key: record[key] for key in ("hand", "action", "seat", "kind", "penalty")}
        own = dict(record)
        if isinstance(answer, str):
            own["answer"] = answer
            if "bad-card" in record["penalty"]:
                public["answer"] = answer
        clock = self.clock
        for place, other in enumerate(table):
            tell = getattr(other, "fault_notice", None)
            if tell is None:
                continue
            notice = own if place == seat else dict(public)
            if clock.runs(other) or type(other) in UNTRUSTED:
                clock.tell(place, other, tell, notice)  # in its thread, never waited for
            else:
                with contextlib.suppress(Exception):
                    tell(notice)

    def charge_unstarted(self, state: TrickState, table: list[Bot]) -> None:
        """Charge the bots that failed to start (:func:`start_bots`): each a fault outside any
        decision, its seat handed on as any fault's."""
        unstarted, self.unstarted = self.unstarted, []
        for seat, exc in unstarted:
            self.fault(state, table, seat, exc, deciding=False)

    # ------------------------------------------------ the rules both loops follow

    def answer(
        self,
        state: TrickState,
        table: list[Bot],
        seat: int,
        action: Any,
        listener: Listener | None = None,
        say: Callable[[int, str], Any] | None = None,
    ) -> bool:
        """The rule for a bot's answer at its turn, written once for both loops: what it said
        while deciding goes to the table first (``say``: the table's ``Table.chat``, if any),
        then the answer is applied and shown to ``listener``. An action the engine refuses is
        the bot's fault (its penalty action, if any, shown to ``listener``); a person's is
        raised on (the line terminal asks again). Anything else the engine raises is its own
        bug: an :class:`EngineFailure`. Returns whether it was a fault (the seat's bot may
        have changed: :attr:`chatty` and :attr:`guarded` are read again).
        """
        if self.chatty >> seat & 1:
            relay_chat(state, table, seat, self, say)  # said before its answer: logged before it
        try:
            state.apply(action)
        except IllegalAction as exc:
            if _is_person(table[seat]):
                raise
            penalty = self.fault(state, table, seat, exc)
            if penalty >= 0 and listener is not None:
                listener(state, seat, penalty)
            self.note_seats(table)
            return True
        except Exception as exc:
            failure = engine_failure(state, seat, action, exc)
            failure.__cause__ = exc  # said outright: compiled, "raise ... from" may drop it
            raise failure from exc
        if listener is not None:
            listener(state, seat, action)
        return False

    def turn_failed(
        self,
        state: TrickState,
        table: list[Bot],
        seat: int,
        exc: BaseException,
        say: Callable[[int, str], Any] | None = None,
    ) -> int:
        """The bot at ``seat`` failed deciding its turn (raised, timed out): put at the table
        what it said meanwhile (``say``: the table's ``Table.chat``, if any), then charge the
        fault. Returns the penalty action logged (Tricks' bad card), or -1.

        A person's failure is the loop's own business (the match loop raises it; people at a
        table never reach here): call this for a bot.
        """
        relay_chat(state, table, seat, self, say)
        action = self.fault(state, table, seat, _as_error(seat, exc))
        self.note_seats(table)  # a substitute may sit there now
        return action

    def starting(self, game: Game, bots: Sequence[Bot], seed: int, seats: int = -1) -> Round:
        """The round that tells the bots of ``seats`` (one bit a seat; -1: all) their seat and
        own seed, each within its first decision's time.

        A bot that fails to start is its fault, kept in :attr:`unstarted` until the match
        charges it (:meth:`charge_unstarted`); a program that cannot be run at all (a
        :class:`BotError` that is no :class:`BotFault`) is a mistake in the set-up: raised.
        """
        options = self.options
        limit = options.startup_time + options.decision_time
        for seat, bot in enumerate(bots):
            if not seats >> seat & 1:
                continue
            own = derive_seed(seed, "seat", seat)
            try:
                yield (seat, bot, limit, bot.start_match, (game, seat, own))
            except Exception as exc:
                if isinstance(exc, BotError) and not isinstance(exc, BotFault):
                    raise
                self.unstarted.append((seat, exc))

    def hand_ended(
        self,
        state: TrickState,
        table: list[Bot],
        seats: int,
        fault: Callable[[int, Exception], object] | None = None,
    ) -> Round:
        """The round that tells the bots of ``seats`` (one bit a seat: :attr:`told`, those
        that do something at a hand's end) the hand's result; a bot failing to listen faults
        (``fault(seat, exc)``: the table's ``Table.fault``; default :meth:`fault`)."""
        result = state.results[-1]
        limit = self.options.decision_time
        for seat in range(len(table)):
            if not seats >> seat & 1:
                continue
            bot = table[seat]
            try:
                yield (seat, bot, limit, bot.end_hand, (state.view(seat), result))
            except Exception as exc:
                if fault is None:
                    self.fault(state, table, seat, exc)
                else:
                    fault(seat, exc)

    def match_ended(self, state: TrickState, table: Sequence[Bot], seats: int = -1) -> Round:
        """The round that tells the bots of ``seats`` (one bit a seat; -1: all) the match is
        over, then closes the referee's substitutes. A bot failing to say goodbye changes
        nothing (the match is decided): it is closed, within a decision's time."""
        limit = self.options.decision_time
        for seat, bot in enumerate(table):
            if not seats >> seat & 1:
                continue
            try:
                yield (seat, bot, limit, bot.end_match, (state.view(seat),))
            except Exception:
                with contextlib.suppress(Exception):
                    yield (seat, bot, limit, bot.close, ())
        self.close_substitutes()

    def note(self, state: TrickState, fault: BotFault) -> None:
        """Record a fault of ``fault.seat`` that costs nothing (penalty ``none``): a chat line
        refused or throttled. It counts toward no substitution, and the bot plays on."""
        self._record(state, fault.seat, fault, len(state.history) - 1, None, "none")

    def _record(
        self,
        state: TrickState,
        seat: int,
        fault: BotFault,
        hand: int,
        index: int | None,
        penalty: str,
    ) -> dict[str, Any]:
        """Keep the fault of ``seat`` (in hand ``hand``, at action ``index`` or None) and what
        it cost in :attr:`faults`, tell ``on_fault``, and put it in the events; the record."""
        record: dict[str, Any] = {
            "hand": hand,
            "action": index,
            "seat": seat,
            "kind": fault.kind,
            "detail": fault.detail,
            "penalty": penalty,
        }
        self.faults.append(record)
        if self.on_fault is not None:
            self.on_fault(record)
        emit_fault(state, record)
        return record

    def _substitute(self, state: TrickState, table: list[Bot], seat: int) -> None:
        sub = self.substitute(state.game, seat, derive_seed(self.seed, "seat", seat))
        self.replaced[seat] = sub
        table[seat] = sub
        state.substitute(seat, f"bot:{getattr(sub, 'name', 'bot')}")


def emit_fault(state: TrickState, record: dict[str, Any]) -> None:
    """Tell the state's events (if on) the fault ``record`` (:attr:`Referee.faults`' form):
    the seat at fault hears its detail, which may name its own cards (the card it sent);
    everyone else the same fault without it. The referee and a replayed journal alike."""
    events = state.events
    if events is not None:
        seat, kind, penalty = record["seat"], record["kind"], record["penalty"]
        events.emit(Fault(seat, kind, penalty, record["detail"], 1 << seat))
        events.emit(Fault(seat, kind, penalty, "", EVERYONE & ~(1 << seat)))


def as_fault(seat: int, exc: Exception) -> BotFault:
    """The fault an exception from a bot amounts to (an in-process bot raising: ``crash``)."""
    if isinstance(exc, BotFault):
        return exc
    if isinstance(exc, IllegalAction):
        return BotFault(seat, "illegal", str(exc))
    return BotFault(seat, "crash", f"raised {type(exc).__name__}: {exc}")


def _bad_card(state: TrickState, seat: int, exc: Exception) -> int:
    """Charge Tricks' bad card through the game's hook; the action logged, or -1."""
    penalize = getattr(state, "penalize_bad_card", None)
    if penalize is None:
        return -1
    card = getattr(exc, "action", None)
    if not (isinstance(card, int) and 0 <= card < 64):
        card = None
    try:
        penalize(seat, card)
    except IllegalAction:
        penalize(seat, None)
    return state.actions[-1]


def _is_person(bot: Bot) -> bool:
    # A person's quit or end of input is not a fault: it stops the match.
    # getattr, not bot.name: compiled code would read the base class's slot and miss the
    # name a bot written in Python declares on its class.
    return bool(bot.interactive) or getattr(bot, "name", "") == "human"


def start_bots(game: Game, bots: Sequence[Bot], seed: int, referee: Referee | None = None) -> None:
    """Tell each bot its seat and its own seed for a new match.

    With a ``referee``, a bot that fails to start is its fault, charged when the match
    begins (:meth:`Referee.charge_unstarted`), as the table's driver charges it — except a
    program that cannot be run at all (a :class:`BotError` that is no :class:`BotFault`): a
    mistake in the match's set-up, raised here.
    """
    if len(bots) != game.num_players:
        raise BotError(f"{game.name} needs {game.num_players} players, got {len(bots)}")
    if referee is None:
        for seat, bot in enumerate(bots):
            bot.start_match(game, seat, derive_seed(seed, "seat", seat))
        return
    referee.start(seed)
    make_calls(referee.starting(game, bots, seed), referee)


def make_calls(calls: Round, referee: Referee) -> None:
    """Make the calls of a round of the referee's (:data:`Round`) in the match loop: a plug-in's
    in its thread, timed by the referee's clock; the bots the package trusts directly.

    A person's exception (a quit, the end of input) is raised on, not handed to the round: it
    stops the match. A real Ctrl-C too.
    """
    value: Any = None
    error: Exception | None = None
    while True:
        try:
            call = calls.send(value) if error is None else calls.throw(error)
        except StopIteration:
            return
        seat, bot, limit, fn, args = call
        try:
            if type(bot) in UNTRUSTED:
                value = referee.clock.call(seat, bot, limit, fn, *args)
            else:
                value = fn(*args)
            error = None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit from a bot is a fault, not ours to obey
            if _is_person(bot):
                raise
            value, error = None, _as_error(seat, exc)


#: the phases of a match, in the order :func:`phases` (the referee loop) runs them
START, DEAL, TURNS, HAND_OVER, END = 0, 1, 2, 3, 4


def phases(
    state: TrickState,
    max_hands: int | None = None,
    whole: bool = True,
    halted: Callable[[], bool] | None = None,
    cap: Callable[[], bool] | None = None,
) -> Iterator[int]:
    """The referee loop: what a match does next, in order — the one schedule every match
    follows, whichever loop makes its calls (this module's, the table's driver).

    ``START`` (the bots told their seats), then a hand in progress (a resumed match's) played
    on, then hand after hand — ``DEAL``, ``TURNS`` (everyone asked in turn until the hand
    ends), ``HAND_OVER`` (the bots told its result, when it has one: a forfeit has none) —
    while :func:`deals_another` says so, then ``END``. ``whole`` False leaves out ``START``
    and ``END`` (the caller starts and ends the bots: ``play_on``). ``halted`` says the loop
    was stopped from outside (a table's driver stopped mid-hand): the match ends there.
    ``cap`` is asked before each deal and may end the match (the table's cap of hands).
    """
    if whole:
        yield START
    dealt = not state.needs_deal and not state.is_over  # resumed in the middle of a hand
    while True:
        if not dealt:
            if not deals_another(state, max_hands) or (halted is not None and halted()):
                break
            if cap is not None and cap():
                break
            yield DEAL
        dealt = False
        yield TURNS
        if halted is not None and halted() and not state.is_over:
            break  # stopped from outside, in the middle of a hand
        if not (state.needs_deal or state.is_over):
            raise TricktableError(f"the engine stopped mid-hand with nobody to act: {state!r}")
        if hand_scored(state):  # not ended by a forfeit
            yield HAND_OVER
    if whole:
        yield END


def play_hand(
    state: TrickState,
    bots: Sequence[Bot],
    listener: Listener | None = None,
    referee: Referee | None = None,
    deal: Dealer | None = None,
) -> None:
    """Deal and play one hand to its end (or to a forfeit).

    ``deal`` deals it (default: ``state.deal()``, from the match's seed). Without a
    ``referee`` faults are still handled, with the default options, but a substitute lasts
    only for this hand and the faults are not kept.
    """
    ref = referee if referee is not None else Referee()
    if ref.unstarted:
        ref.charge_unstarted(state, ref.seated(bots))
    _deal(state, bots, ref, deal)
    play_turns(state, bots, listener, ref)


def _deal(state: TrickState, bots: Sequence[Bot], ref: Referee, deal: Dealer | None) -> None:
    """The ``DEAL`` phase: the hand's first events on if a bot reads them, then the deal."""
    _listen_for(state, ref.seated(bots), ref)  # before the deal: the hand's first events
    if deal is None:
        state.deal()
    else:
        deal(state)


def play_turns(
    state: TrickState, bots: Sequence[Bot], listener: Listener | None, referee: Referee
) -> None:
    """Play the hand in progress to its end (or to a forfeit), from wherever it stands, and
    tell the bots its result (the ``TURNS`` and ``HAND_OVER`` phases).

    A bot's exception or illegal answer is its fault (the referee's business); anything else
    the engine raises while applying an answer stops the match: :class:`EngineFailure`.
    """
    _turns(state, bots, listener, referee)
    if hand_scored(state):
        _hand_over(state, bots, referee)


def _turns(
    state: TrickState, bots: Sequence[Bot], listener: Listener | None, referee: Referee
) -> None:
    """The ``TURNS`` phase in this loop: each bot called at once, its answer the referee's
    (:meth:`Referee.answer`), until nobody is to act. The hot path of every playout: the
    seats that are plug-ins are bits read once, and again after a fault."""
    ref = referee
    table = ref.seated(bots)
    ref.note_seats(table)
    guarded = ref.guarded
    clock = ref.clock
    while state.to_act >= 0:
        seat = state.to_act
        bot = table[seat]
        # The engine's work, outside the bot's try. Called on the state, not through bound
        # methods kept in locals: compiled, those are Python calls, these native ones.
        seen = state.view(seat)
        try:
            if guarded >> seat & 1:
                action = clock.decide(seat, bot, seen)
            else:
                action = bot.act(seen)
        except KeyboardInterrupt:
            # A real Ctrl-C: a plug-in's own KeyboardInterrupt is raised in its thread, where
            # the clock turns it into a crash.
            raise
        except BaseException as exc:  # SystemExit from a bot is a fault, not ours to obey
            if _is_person(bot):
                raise
            penalty = ref.turn_failed(state, table, seat, exc)
            if penalty >= 0 and listener is not None:
                listener(state, seat, penalty)
            guarded = ref.guarded
            continue
        if ref.answer(state, table, seat, action, listener):
            guarded = ref.guarded


def _hand_over(state: TrickState, bots: Sequence[Bot], ref: Referee) -> None:
    """The ``HAND_OVER`` phase in this loop: the bots that listen told the hand's result."""
    table = ref.seated(bots)
    ref.note_seats(table)
    told = ref.told  # a bot that does nothing at a hand's end needs no view for it
    if told:
        make_calls(ref.hand_ended(state, table, told), ref)


def _chatty(table: Sequence[Bot]) -> int:
    """The seats of ``table`` whose bots speak (:attr:`Bot.chats`), one bit a seat."""
    bits = 0
    for seat, bot in enumerate(table):
        if bot.chats:
            bits |= 1 << seat
    return bits


def _guarded(table: Sequence[Bot]) -> int:
    """The seats of ``table`` whose bots are plug-ins (``botcalls.untrusted``), one bit a
    seat; nothing to look at in a match of the package's own bots."""
    if not UNTRUSTED:
        return 0
    bits = 0
    for seat, bot in enumerate(table):
        if type(bot) in UNTRUSTED:
            bits |= 1 << seat
    return bits


def _as_error(seat: int, exc: BaseException) -> Exception:
    """What a bot raised, as the referee takes it: ``SystemExit`` and its kind as a crash."""
    return exc if isinstance(exc, Exception) else crash_of(seat, exc)


def relay_chat(
    state: TrickState,
    table: Sequence[Bot],
    seat: int,
    referee: Referee,
    say: Callable[[int, str], Any] | None = None,
) -> None:
    """Put at the table what the bot at ``seat`` said while deciding (``take_chat``: the
    lines of a program or HTTP bot, already throttled, and a note if some were dropped).

    ``say`` is the table's ``Table.chat`` where there is a table; without one the same
    checks apply (:func:`tricktable.chat.checked_say`). A refused line is dropped
    and recorded as a fault of kind ``chat``, a throttled bot once as ``flood``; neither
    costs the bot anything.
    """
    bot = table[seat]
    if not bot.chats:
        return
    if type(bot) in UNTRUSTED:
        try:
            lines, dropped = referee.clock.call(
                seat, bot, referee.options.decision_time, bot.take_chat
            )
        except Exception as exc:
            referee.note(state, BotFault(seat, "chat", f"could not be heard: {exc}"))
            return
    else:
        lines, dropped = bot.take_chat()
    speak = say if say is not None else checked_say(state)
    for text in lines:
        try:
            speak(seat, text)
        except TricktableError as exc:
            referee.note(state, BotFault(seat, "chat", f"{exc}: {text[:80]!r}"))
    if dropped:
        referee.note(state, BotFault(seat, "flood", dropped))


def _listen_for(state: TrickState, table: list[Bot], referee: Referee) -> None:
    """Turn the state's events on if a bot at the table reads them (see ``Bot.wants_events``;
    the referee notes it once while the same bots sit)."""
    if state.events is None:
        referee.note_seats(table)
        if referee.listening:
            state.listen()


def engine_failure(state: TrickState, seat: int, action: object, exc: Exception) -> EngineFailure:
    """The error that stops a match whose engine failed applying ``action`` by ``seat``."""
    try:
        text = state.game.action_name(action) if isinstance(action, int) else repr(action)
    except Exception:
        text = repr(action)
    # apply() logs an action before carrying it out: the failed one is the last logged.
    index = len(state.actions) - 1 if state.actions else 0
    return EngineFailure(len(state.history) - 1, index, seat, text, exc)


def play_on(
    state: TrickState,
    bots: Sequence[Bot],
    listener: Listener | None = None,
    max_hands: int | None = None,
    referee: Referee | None = None,
    deal: Dealer | None = None,
) -> TrickState:
    """Play a match on from wherever ``state`` stands (a state rebuilt from a record: resume).

    A hand in progress is finished first; then hands are dealt (by ``deal``, default
    ``state.deal()``) until the match ends or ``max_hands`` hands (counted from the match's
    start) have been played: the :func:`phases` of the match, less its start and end (the
    caller's: :func:`start_bots`, :func:`end_bots`).
    """
    ref = referee if referee is not None else Referee()
    if ref.unstarted:
        ref.charge_unstarted(state, ref.seated(bots))
    if not state.needs_deal and not state.is_over:
        _listen_for(state, ref.seated(bots), ref)
    for phase in phases(state, max_hands, whole=False):
        if phase == TURNS:
            _turns(state, bots, listener, ref)
        elif phase == DEAL:
            if ref.unstarted:
                ref.charge_unstarted(state, ref.seated(bots))
            _deal(state, bots, ref, deal)
        else:  # HAND_OVER
            _hand_over(state, bots, ref)
            raise_if_lost()  # a Ctrl-C Python lost (tricktable.interrupts): between hands
    return state


def hand_scored(state: TrickState) -> bool:
    """Whether the hand last dealt has a result (it was played out, not ended by a forfeit):
    only then are the bots told its end."""
    return len(state.results) == len(state.history)


def deals_another(state: TrickState, max_hands: int | None) -> bool:
    """Whether a match whose hand has ended goes on to another: it is not over, and fewer than
    ``max_hands`` (if given) have been dealt."""
    return not state.is_over and (max_hands is None or len(state.history) < max_hands)


def end_bots(state: TrickState, bots: Sequence[Bot], referee: Referee | None = None) -> None:
    """Tell the bot in each seat that the match is over; close the referee's substitutes."""
    ref = referee if referee is not None else Referee()
    make_calls(ref.match_ended(state, ref.seated(bots)), ref)


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    listener: Listener | None = None,
    max_hands: int | None = None,
    referee: Referee | None = None,
) -> TrickState:
    """Play a match (or its first ``max_hands`` hands) and return the final state.

    Faults are handled by ``referee`` (a fresh one with the default options if None); its
    ``faults`` list them after the match.
    """
    ref = referee if referee is not None else Referee()
    start_bots(game, bots, seed, ref)
    state = play_on(game.new_state(seed), bots, listener, max_hands, ref)
    end_bots(state, bots, ref)
    return state
