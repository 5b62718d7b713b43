"""What one seat may know: the sealed :class:`View` a bot gets at each decision, and the
:class:`Shared` parts every view of a state shares until the state changes them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from tricktable.cards import SUITS, card_name, cards_in, format_cards
from tricktable.engine import actions as act
from tricktable.engine.game import Game, _action_text, _refused_now
from tricktable.engine.phases import PHASE_NAMES, PLAY
from tricktable.engine.results import HandResult
from tricktable.engine.tables import TrumpTables
from tricktable.errors import IllegalAction

if TYPE_CHECKING:
    from tricktable.engine.state import TrickState


# One instance kept for reuse when freed (mypyc's free list): a trick's Shared is freed as
# the next is made, a view as soon as its bot has answered.
@mypyc_attr(free_list_len=1)
class Shared:
    """What every view of a state shares until the state changes it: the finished tricks,
    cards won and scores as tuples, the results as the state's immutable chain (a tuple of
    them cost a copy of the whole match's at every hand), and the hand's fixed facts.

    Made at most once between a trick's end and the next, or a hand's (neither a card in
    mid-trick nor a bid changes any of it), so a view costs a reference, not copies.
    Read-only, to the depth of its facts: every seat's view holds this one object, so a bot
    that could write to it would change what the next seat's bot sees.
    """

    __slots__ = (
        "dealer",
        "facts",
        "hand_number",
        "nresults",
        "results",
        "scores",
        "tricks",
        "tricks_won",
        "won",
    )

    def __init__(self, state: TrickState, results: tuple[Any, ...] | None) -> None:
        # Final: compiled, each is a plain store and the class has no setter for it (a write
        # from outside is refused at no cost to the engine); run as Python, _refuse_writes
        # below guards them.
        self.tricks: Final[tuple[tuple[int, tuple[int, ...], int], ...]] = tuple(state.tricks)
        self.won: Final[tuple[int, ...]] = tuple(state.won)
        self.tricks_won: Final[tuple[int, ...]] = tuple(state.tricks_won)
        self.scores: Final[tuple[int, ...]] = tuple(state.scores)
        #: the results as the state's chain of ``(before, result)`` nodes, and how many
        self.results: Final[tuple[Any, ...] | None] = results
        self.nresults: Final[int] = len(state.results)
        self.dealer: Final[int] = state.dealer
        self.hand_number: Final[int] = max(len(state.history) - 1, 0)
        facts = state._trick_facts()
        self.facts: Final[Facts] = facts if isinstance(facts, tuple) else frozen(facts)


def _refuse_writes(self: Shared, name: str, value: object) -> None:
    """What views share refuses a second write of a field (the first is ``__init__``'s)."""
    if hasattr(self, name):
        raise FrozenInstanceError(f"cannot assign to {name!r}: what views share is read-only")
    object.__setattr__(self, name, value)


# Compiled, Shared's Final fields have no setter already (and a class of mypyc's takes no new
# method); as plain Python the guard is set on the class.
if not __file__.endswith((".so", ".pyd")):
    setattr(Shared, "__setattr__", _refuse_writes)  # noqa: B010


#: a game's facts as every view of a state shares them: ``(name, value)`` pairs, the values
#: read-only (see :func:`frozen`)
Facts = tuple[tuple[str, Any], ...]


def frozen(facts: dict[str, Any]) -> Facts:
    """``facts`` as every view of a state may share them: ``(name, value)`` pairs, each list
    in a value (at any depth) made a tuple and each dict read-only. :meth:`View.info` gives a
    bot a dict of its own again, with lists and dicts.

    This runs after every trick in some games (the facts a trick changes) and after every
    bid, so it costs what the game's dict cost, no more: pairs, not a ``MappingProxyType``
    (whose constructor parses its arguments by keyword: 1,500 instructions a call), and a
    fact that is no container costs one type test (``isinstance`` with builtin types is a C
    macro when compiled; with a union, or as ``type(x) is list``, the names were looked up at
    every call). Measured by callgrind's instruction counts, random play side by side.
    """
    if not facts:
        return ()
    return tuple(
        [
            (key, _frozen(value)) if isinstance(value, (list, tuple, dict)) else (key, value)
            for key, value in facts.items()
        ]
    )


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (list, tuple, dict)):
                return tuple([_frozen(item) for item in value])
        return value if isinstance(value, tuple) else tuple(value)
    return value


def _thawed(value: Any) -> Any:
    """A fact as a bot may keep it: its sequences lists and its mappings dicts, new."""
    if isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (list, tuple, MappingProxyType)):
                return [_thawed(item) for item in value]
        return list(value)
    if isinstance(value, MappingProxyType):
        return {key: _thawed(item) for key, item in value.items()}
    return value


@mypyc_attr(free_list_len=1)
class View:
    """What one seat may know about a state, taken when the view is made: a sealed snapshot.

    It holds copies of what the seat may see and no reference to the state, so nothing a
    bot does with its view reaches another seat's cards; ``state.view(seat)`` makes a new one
    for each decision. ``to_dict()`` is what travels to bots in other processes, and
    ``events`` the seat's own event stream when the match has one (else empty).
    """

    __slots__ = (
        "_before",
        "_info",
        "_legal",
        "_legal_mask",
        "_log",
        "_n",
        "_ntrick",
        "_phase_name",
        "_shared",
        "dealt",
        "events",
        "game",
        "hand",
        "phase",
        "seat",
        "tables",
        "to_act",
    )

    def __init__(self, state: TrickState, seat: int) -> None:
        self.game: Game = state.game
        self.seat = seat
        if state._may_look(seat):
            self.hand: int = state.hands[seat]
            self.dealt: int = state.dealt[seat]
        else:
            self.hand = 0
            self.dealt = 0
        to_act = state.to_act
        self.to_act: int = to_act
        phase = state.phase
        self.phase: int = phase
        # A game's own phase is named now (only the state knows); shared ones in to_dict().
        self._phase_name = state._phase_name() if phase >= 10 else ""
        self.tables: TrumpTables = state.tables
        # The state's caches are read here first, their makers called only when they miss:
        # a view is made at every decision, and a call each cost as much as the read.
        snap = state._snap
        if snap is None or snap.nresults != len(state.results):
            snap = state._shared()
        self._shared: Shared = snap
        # The hand's log is an immutable chain (see TrickState._log_chain): a view keeps its
        # last node and how many it covers, and lists them only when asked. The cards of the
        # trick in play are its last nodes (only cards are played in a trick). In a game
        # with private actions the chain starts after the last of them, and what comes
        # before is the seat's own tuple of the actions it may see: a hidden action is in
        # no part of the view, under no name.
        n = len(state.actions)
        self._log: tuple[Any, ...] | None = (
            state._chain if state._chain_n == n else state._log_chain()
        )
        private = state._private_at
        if private:
            before = None
            if state._seen_key == len(private) * 64 + phase:  # see _seen_before
                before = state._befores[seat]
            self._before: tuple[tuple[int, int], ...] = (
                before if before is not None else state._seen_before(seat)
            )
            self._n: int = n - private[-1] - 1
        else:
            self._before = ()
            self._n = n
        self._ntrick: int = len(state.trick)
        # typed for both: compiled, a variable takes the type of its first assignment
        info: dict[str, Any] | Facts | None
        if state._facts_public:
            info = state._public_info
        else:
            infos = state._infos
            info = None if infos is None else infos[seat]
        self._info: dict[str, Any] | Facts = info if info is not None else state._info_of(seat)
        # The list of legal actions is made when a bot asks for it (legal_actions): a bot may
        # choose from the mask alone. Only a phase whose actions are listed, not masked, lists
        # them now (only the state can).
        self._legal: list[int] | None = None
        self._legal_mask = 0
        if to_act == seat:
            mask = state.legal_mask()
            self._legal_mask = mask
            if mask < 0:
                self._legal = state._other_actions()
        events = state.events
        self.events: Sequence[Any] = () if events is None else events.window(seat)

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand."""
        return self._shared.dealer

    @property
    def hand_number(self) -> int:
        """0-based index of the current hand."""
        return self._shared.hand_number

    @property
    def trump(self) -> int:
        """The trump suit (0..3), or -1 while there is none."""
        return self.tables.suit

    @property
    def trick(self) -> list[tuple[int, int]]:
        """The current trick as (seat, card) pairs, in play order."""
        out: list[tuple[int, int]] = []
        node = self._log
        for _ in range(self._ntrick):
            assert node is not None
            out.append((node[1], node[2]))
            node = node[0]
        out.reverse()
        return out

    @property
    def tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """The finished tricks of this hand: (leader, cards in play order, winner)."""
        return list(self._shared.tricks)

    @property
    def played(self) -> int:
        """Every card played this hand so far, as a mask."""
        played = _or_all(self._shared.won)
        node = self._log
        for _ in range(self._ntrick):
            assert node is not None
            played |= 1 << node[2]
            node = node[0]
        return played

    @property
    def won(self) -> list[int]:
        """The cards each seat has captured this hand (public: they were played face up)."""
        return list(self._shared.won)

    @property
    def tricks_won(self) -> list[int]:
        """How many tricks each seat has won this hand."""
        return list(self._shared.tricks_won)

    @property
    def scores(self) -> list[int]:
        """The match scores, by team (or by seat in games without partnerships)."""
        return list(self._shared.scores)

    @property
    def results(self) -> list[HandResult]:
        """The results of the finished hands."""
        shared = self._shared
        out: list[HandResult] = []
        node = shared.results
        for _ in range(shared.nresults):
            assert node is not None
            out.append(node[1])
            node = node[0]
        out.reverse()
        return out

    @property
    def actions(self) -> list[tuple[int, int]]:
        """This hand's actions that this seat may see, as (seat, action) pairs."""
        out: list[tuple[int, int]] = []
        node = self._log
        for _ in range(self._n):
            assert node is not None
            out.append((node[1], node[2]))
            node = node[0]
        out.reverse()
        return [*self._before, *out]

    @property
    def step(self) -> int:
        """How many of this hand's actions this seat has seen (with ``hand_number``, it
        names a decision: a bot that draws from both is the same after a resume)."""
        return len(self._before) + self._n

    def info(self) -> dict[str, Any]:
        """Game-specific public facts (declarer, bids, ...): a dict of this call's own, its
        sequences new lists and its mappings new dicts, at any depth (every view of the state
        shares the read-only facts it is made from: see :func:`frozen`)."""
        # dict() takes the seat's own dict and the pairs every seat shares alike
        out = dict(self._info)
        for key, value in self._shared.facts:
            out[key] = value
        for key, value in out.items():
            if isinstance(value, (list, tuple, MappingProxyType)):
                out[key] = _thawed(value)
        return out

    def legal_actions(self) -> list[int]:
        """This seat's legal actions: empty unless it is this seat's turn (the view's own
        list, made for it: a bot may keep or change it)."""
        legal = self._legal
        if legal is None:
            mask = self._legal_mask
            legal = cards_in(mask) if self.phase == PLAY else act.listed(mask)
            self._legal = legal
        return legal

    def legal_mask(self) -> int:
        """This seat's legal actions as a mask: 0 unless it is this seat's turn.

        ``SPECIAL`` (negative) in a phase whose actions are listed, not masked.
        """
        return self._legal_mask

    def illegal(self, action: object) -> IllegalAction:
        """The engine's error for ``action`` by this seat: why the rules refuse it now.

        It speaks only of what this seat may know: off its turn, that it is not its turn;
        on its turn, the reason the game gives from this seat's own cards and the public
        state (see :meth:`Game.explain`).
        """
        seat = self.seat
        refused = _refused_now(self.game, seat, self.phase, action)
        if refused is not None:
            return refused
        assert isinstance(action, int)
        text = _action_text(self.game, action)
        if self.to_act != seat:
            return IllegalAction(seat, text, f"is not to act (seat {self.to_act} is)")
        return IllegalAction(seat, text, self.game.explain(self, action))

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat may know, as JSON-ready data with canonical names."""
        game = self.game
        return {
            "game": game.preset,
            "seat": self.seat,
            "hand_number": self.hand_number,
            "phase": PHASE_NAMES.get(self.phase) or self._phase_name,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "hand": format_cards(self.hand).split(),
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "actions": [{"seat": s, "action": game.action_name(a)} for s, a in self.actions],
            "trick": [{"seat": s, "card": card_name(c)} for s, c in self.trick],
            "tricks": [
                {"leader": ld, "cards": [card_name(c) for c in cs], "winner": w}
                for ld, cs, w in self._shared.tricks
            ],
            "scores": list(self._shared.scores),
            "legal": [game.action_name(a) for a in self.legal_actions()],
            **self.info(),
        }


def _or_all(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out
