"""Playing a match between bots: the loop every command, tournament and table uses.

Bots fail — a program hangs or crashes, a plug-in raises, an answer is not a legal action. The
match must go on and the other bots must not notice, so the loop hands every failure to a
:class:`Referee`, which records it as a fault and applies the game's penalty:

- ``tricks``: seed 002's bad card — the seat loses ``bad_card_penalty`` points and the hand is
  thrown in (the ``bad-card`` action of the log). A bot whose answer was merely not a legal
  card keeps its seat, as the seed says; one that broke its transport (timed out, crashed,
  garbled) has been stopped, and its seat goes as ``on_fault`` says;
- ``spades``: seed 004's forfeit — the faulting side loses the match at once;
- every other game: :attr:`RunnerOptions.on_fault` — ``substitute`` hands the seat to the
  ``heuristic`` bot for the rest of the match, ``forfeit`` ends it, the faulting side losing.

A seat that faults ``max_faults`` times is handed on whatever the game, so that a bot sending
bad cards for ever cannot stall a match. The faulting bot is closed (a program's process group
killed) unless it keeps its seat. Catching costs nothing until a bot fails: the loop's only
addition is a ``try``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tricktable.bots.base import Bot
from tricktable.engine.trick import OVER, Game, TrickState
from tricktable.errors import BotError, BotFault, IllegalAction, OptionError, TricktableError
from tricktable.seeds import derive_seed

#: called after every action with (state, seat, action)
Listener = Callable[[TrickState, int, int], None]

#: the penalty rule of games that have their own; the others follow ``on_fault``
FAULT_RULES: dict[str, str] = {"tricks": "bad-card", "spades": "forfeit"}
ON_FAULT: Final = ("substitute", "forfeit")


@dataclass(frozen=True)
class RunnerOptions:
    """How a match treats its bots: time limits (seconds) and the penalty for a fault."""

    #: the longest a program may take over one decision
    decision_time: float = 2.0
    #: the longest a program may spend on its decisions in one match
    match_time: float = 60.0
    #: what a fault costs in games without a rule of their own: substitute or forfeit
    on_fault: str = "substitute"
    #: faults after which a seat is handed on even where the game lets it play on
    max_faults: int = 10
    #: extra time for a program's first decision, which includes starting it
    startup_time: float = 3.0

    def __post_init__(self) -> None:
        if self.on_fault not in ON_FAULT:
            raise OptionError(f"unknown on_fault {self.on_fault!r}; valid: {', '.join(ON_FAULT)}")
        for name in ("decision_time", "match_time"):
            if not getattr(self, name) > 0:
                raise OptionError(f"{name} must be a positive number of seconds")
        if self.startup_time < 0:
            raise OptionError("startup_time must not be negative")
        if self.max_faults < 1:
            raise OptionError("max_faults must be at least 1")


class Referee:
    """Keeps one match going when bots fail: penalties, substitutes and the list of faults.

    ``faults`` holds one dict per fault: ``hand`` and ``action`` (0-based indices in the
    record; ``action`` is None outside a decision), ``seat``, ``kind``, ``detail`` and
    ``penalty`` (``bad-card``, ``substitute``, ``forfeit``, or ``bad-card+substitute`` ...).
    """

    def __init__(self, options: RunnerOptions | None = None) -> None:
        self.options = options if options is not None else RunnerOptions()
        self.faults: list[dict[str, Any]] = []
        self.replaced: dict[int, Bot] = {}
        self.counts: dict[int, int] = {}
        self.seed = 0

    def start(self, seed: int) -> None:
        """Forget the previous match: a new one begins with every bot in its seat."""
        self.close_substitutes()
        self.faults = []
        self.counts = {}
        self.seed = seed

    def seated(self, bots: Sequence[Bot]) -> list[Bot]:
        """The bot in each seat now: ``bots`` with substitutes where seats were handed on."""
        table = list(bots)
        for seat, bot in self.replaced.items():
            table[seat] = bot
        return table

    def close_substitutes(self) -> None:
        """Close the substitutes of the match (its own bots are the caller's to close)."""
        for bot in self.replaced.values():
            with contextlib.suppress(Exception):
                bot.close()
        self.replaced = {}

    def fault(self, state: TrickState, table: list[Bot], seat: int, exc: Exception) -> int:
        """Record ``exc`` from the bot at ``seat`` and apply the penalty.

        Returns the penalty action added to the log (Tricks' bad card), or -1.
        """
        bot = table[seat]
        if seat in self.replaced and self.replaced[seat] is bot:
            raise BotError(f"the substitute bot at seat {seat} failed: {exc}") from exc
        fault = as_fault(seat, exc)
        deciding = state.to_act == seat
        hand = len(state.history) - 1
        index = len(state.actions) if deciding else None
        count = self.counts.get(seat, 0) + 1
        self.counts[seat] = count
        rule = FAULT_RULES.get(state.game.name, "")
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
                forfeit(state, seat)
                penalty.append("forfeit")
            else:
                self._substitute(state, table, seat)
                penalty.append("substitute")
            with contextlib.suppress(Exception):
                bot.close()
        record: dict[str, Any] = {
            "hand": hand,
            "action": index,
            "seat": seat,
            "kind": fault.kind,
            "detail": fault.detail,
            "penalty": "+".join(penalty),
        }
        self.faults.append(record)
        notice = dict(record)
        answer = getattr(exc, "answer", None)
        if isinstance(answer, str):
            notice["answer"] = answer
        for other in table:
            tell = getattr(other, "fault_notice", None)
            if tell is not None:
                with contextlib.suppress(Exception):
                    tell(notice)
        return action

    def _substitute(self, state: TrickState, table: list[Bot], seat: int) -> None:
        from tricktable.bots import make_bot

        seed = derive_seed(self.seed, "seat", seat)
        try:
            sub = make_bot("heuristic")
            sub.start_match(state.game, seat, seed)
        except TricktableError:
            sub = make_bot("random")
            sub.start_match(state.game, seat, seed)
        self.replaced[seat] = sub
        table[seat] = sub


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


def forfeit(state: TrickState, seat: int) -> None:
    """End the match now, the side of ``seat`` losing (no winner among individual players)."""
    game = state.game
    side = game.team_of(seat)
    state.winner = 1 - side if game.num_scores == 2 else None
    state.phase = OVER
    state.to_act = -1
    state._legal = -1


def _is_person(bot: Bot) -> bool:
    # A person's quit or end of input is not a fault: it stops the match.
    # getattr, not bot.name: compiled code would read the base class's slot and miss the
    # name a bot written in Python declares on its class.
    return bool(bot.interactive) or getattr(bot, "name", "") == "human"


def start_bots(game: Game, bots: Sequence[Bot], seed: int, referee: Referee | None = None) -> None:
    """Tell each bot its seat and its own seed for a new match."""
    if len(bots) != game.num_players:
        raise BotError(f"{game.name} needs {game.num_players} players, got {len(bots)}")
    if referee is not None:
        referee.start(seed)
    for seat, bot in enumerate(bots):
        bot.start_match(game, seat, derive_seed(seed, "seat", seat))


def play_hand(
    state: TrickState,
    bots: Sequence[Bot],
    listener: Listener | None = None,
    referee: Referee | None = None,
) -> None:
    """Deal and play one hand to its end (or to a forfeit).

    Without a ``referee`` faults are still handled, with the default options, but a
    substitute lasts only for this hand and the faults are not kept.
    """
    ref = referee if referee is not None else Referee()
    state.deal()
    table = ref.seated(bots)
    views = [state.view(s) for s in range(len(table))]
    apply = state.apply
    while state.to_act >= 0:
        seat = state.to_act
        bot = table[seat]
        try:
            action = bot.act(views[seat])
            apply(action)
        except Exception as exc:
            if _is_person(bot):
                raise
            action = ref.fault(state, table, seat, exc)
            if action >= 0 and listener is not None:
                listener(state, seat, action)
            continue
        if listener is not None:
            listener(state, seat, action)
    if len(state.results) < len(state.history):
        return  # forfeited: the hand has no result
    result = state.results[-1]
    for seat in range(len(table)):
        bot = table[seat]
        try:
            bot.end_hand(views[seat], result)
        except Exception as exc:
            if _is_person(bot):
                raise
            ref.fault(state, table, seat, exc)


def end_bots(state: TrickState, bots: Sequence[Bot], referee: Referee | None = None) -> None:
    """Tell the bot in each seat that the match is over; close the referee's substitutes."""
    table = referee.seated(bots) if referee is not None else list(bots)
    for seat, bot in enumerate(table):
        try:
            bot.end_match(state.view(seat))
        except Exception:
            if _is_person(bot):
                raise
            # The match is decided: a bot failing to say goodbye changes nothing.
            with contextlib.suppress(Exception):
                bot.close()
    if referee is not None:
        referee.close_substitutes()


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
    state = game.new_state(seed)
    while not state.is_over and (max_hands is None or len(state.history) < max_hands):
        play_hand(state, bots, listener, ref)
    end_bots(state, bots, ref)
    return state
