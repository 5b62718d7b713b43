"""One runner for every match: ``run_match(spec) -> MatchOutcome``.

A :class:`MatchSpec` says everything a match needs and nothing that cannot cross a process:
the game, one player spec a seat, the seed, the limits and fault policy
(:class:`~tricktable.limits.RunnerOptions`), how many hands at most, the substitute, and
optionally the deals to play (:class:`Deal`, for duplicate play) or a record to resume from.
It pickles, so a worker process or another machine can run it. ``run_match`` makes the bots
from their specs, plays the match through the referee (:mod:`tricktable.match`) and closes
every bot it made, whatever happens; it returns a :class:`MatchOutcome`: the typed result,
the faults, and the record.

What cannot be pickled is passed beside the spec: a ``listener`` (the terminal table), ``bots``
the caller made itself (a person at the keyboard, a bot under test wrapped by bot-check), a
:class:`BotPool` that keeps bots between the matches of a series (simulate), and hooks.

Bots alone play in the synchronous loop, the fastest. A match with people — a seat whose
player is a :class:`~tricktable.table.Person`, like the one at the keyboard — is played at a
:class:`~tricktable.table.Table` by its asyncio driver (:func:`tricktable.table.run`): people
act through ``Table.submit`` while the driver asks the bots, within their time limits, without
waiting on them; the match, its faults and its record are the same either way.

A match that something other than its rules stops — a person's quit or end of input, an
engine failure, a substitute that fails in turn — raises :class:`MatchStopped` (Ctrl-C:
:class:`MatchInterrupted`), which carries the outcome so far, so that its record is saved.

>>> outcome = run_match(MatchSpec("setback", ("random",) * 4, seed=7, max_hands=2))
>>> outcome.result.hands, outcome.result.status
(2, 'stopped')
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from tricktable.botcalls import close_bot
from tricktable.bots import is_builtin_player, make_bot, substitute_factory
from tricktable.bots.base import Bot
from tricktable.cards import parse_card
from tricktable.engine.trick import Game, Note, TrickState
from tricktable.errors import NotationError, RecordError, TricktableError, quote
from tricktable.games import shared_game
from tricktable.limits import RunnerOptions
from tricktable.match import (
    Dealer,
    EngineFailure,
    FaultListener,
    Listener,
    Referee,
    end_bots,
    play_on,
    start_bots,
)

if TYPE_CHECKING:
    from tricktable.table import Table

# Records (files, tempfile, shutil and its compressors) and tables (asyncio, ssl, sockets)
# are imported where they are used: a match of bots alone needs neither, and importing them
# was a third of a `simulate` process's start.

#: the player spec of a person: ``run_match`` cannot make one, the caller passes it
HUMAN = "human"
#: how a record labels a bot: ``bot:`` and its spec (``bot:heuristic``, ``bot:cmd:./mybot``)
BOT_LABEL = "bot:"
#: how a match ended: by its rules, cut short (``max_hands``, the deals ran out), by a forfeit
STATUSES = ("finished", "stopped", "forfeited")


class MatchSpecError(TricktableError):
    """A match spec that cannot be played: a wrong number of players, a deal that is not one."""


@dataclass(frozen=True)
class Deal:
    """One hand's deal, to be dealt instead of the seed's: the dealer and each seat's cards.

    ``stock`` is the undealt rest of the deck, top first, for games whose records list it.
    """

    dealer: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...] = ()

    def rotated(self, k: int) -> Deal:
        """The same deal turned ``k`` seats to the left: seat ``s``'s cards go to ``s + k``.

        Rotating by one in a partnership game gives each side the other side's cards.

        >>> Deal(0, ((1,), (2,), (3,), (4,))).rotated(1)
        Deal(dealer=1, hands=((4,), (1,), (2,), (3,)), stock=())
        """
        n = len(self.hands)
        hands = tuple(self.hands[(s - k) % n] for s in range(n))
        return Deal((self.dealer + k) % n, hands, self.stock)

    @classmethod
    def from_record_hand(cls, hand: Mapping[str, Any], game: Game) -> Deal:
        """The deal of one hand of a record (``{"dealer", "deal", ...}``) of ``game``."""
        dealer, lists = hand.get("dealer"), hand.get("deal")
        if not isinstance(dealer, int) or not isinstance(lists, list):
            raise RecordError("a hand needs a dealer and a deal")
        try:
            cards = [tuple(parse_card(str(c)) for c in cards) for cards in lists]
        except (NotationError, TypeError) as exc:
            raise RecordError(f"bad deal: {exc}") from None
        n = game.num_players
        stock = cards[n] if game.records_stock and len(cards) > n else ()
        return cls(dealer, tuple(cards[:n]), stock)


def deals_of(record: Mapping[str, Any]) -> tuple[Deal, ...]:
    """The deals of a record's hands in order, its unfinished hand's last."""
    game = _record_game(record)
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("missing or bad 'hands': expected a list")
    unfinished = record.get("unfinished_hand")
    every = [*hands, *([unfinished] if isinstance(unfinished, dict) else [])]
    return tuple(Deal.from_record_hand(hand, game) for hand in every)


@dataclass(frozen=True)
class MatchSpec:
    """Everything a match needs, picklable: what :func:`run_match` plays.

    ``game`` is a game spec (``"setback(target=11)"``), ``players`` one player spec a seat
    (``"heuristic"``, ``"cmd:./mybot"``, ``"human"`` where the caller brings the person),
    ``seed`` decides the first dealer, the deals and the bots' own seeds (None: a fresh one).
    ``limits`` are the time limits and the fault policy; ``substitute`` is the player spec of
    whoever takes a seat the referee hands on. ``max_hands`` stops a match without a winner
    after that many hands. ``deals`` are dealt in order instead of the seed's (hand ``h`` gets
    ``deals[h]``); the match stops when they run out. ``resume`` is the JSON text of a record
    to play on from (see :meth:`resuming`). ``labels`` name the players in the record
    (default: ``bot:SPEC`` for a bot, ``human`` for a person). ``talk``: whether characters
    (``edna``, ``vinnie``...: :mod:`tricktable.characters`) speak; it never changes a move.
    """

    game: str
    players: tuple[str, ...]
    seed: int | None = None
    limits: RunnerOptions = field(default_factory=RunnerOptions)
    max_hands: int | None = None
    substitute: str = "heuristic"
    deals: tuple[Deal, ...] | None = None
    resume: str | None = None
    labels: tuple[str, ...] | None = None
    talk: bool = True

    def __post_init__(self) -> None:
        # Lists are welcome; a frozen spec keeps tuples.
        if not isinstance(self.players, tuple):
            object.__setattr__(self, "players", tuple(self.players))
        if self.labels is not None and not isinstance(self.labels, tuple):
            object.__setattr__(self, "labels", tuple(self.labels))
        if self.deals is not None and not isinstance(self.deals, tuple):
            object.__setattr__(self, "deals", tuple(self.deals))
        if not all(isinstance(p, str) and p.strip() for p in self.players):
            raise MatchSpecError(f"every player must be a spec, got {self.players!r}")
        if self.max_hands is not None and self.max_hands < 1:
            raise MatchSpecError("max_hands must be at least 1")
        if self.labels is not None and len(self.labels) != len(self.players):
            raise MatchSpecError(
                f"{len(self.labels)} labels for {len(self.players)} players: one a seat"
            )

    @classmethod
    def resuming(
        cls, record: Mapping[str, Any], players: Sequence[str] | None = None, **others: Any
    ) -> MatchSpec:
        """The spec that plays on the match ``record`` holds, from where it stopped.

        The game and seed are the record's. ``players`` replace the record's; without them
        each seat gets the player the record names (``bot:SPEC``: SPEC; anything else was a
        person: ``human``) and the record keeps its labels. ``others`` are further fields.
        """
        game = _record_game(record)
        from tricktable.records import read_seed

        seed = read_seed(record)
        if players is None:
            players = players_of(record)
            others.setdefault("labels", tuple(str(p) for p in record["players"]))
        return cls(
            game=game.spec(),
            players=tuple(players),
            seed=seed,
            resume=json.dumps(record),
            **others,
        )


def players_of(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The player specs of a record's labels: ``bot:SPEC`` is SPEC, any other name a person.

    A record is data: it may name built-in bots, characters and people, never a program, a
    URL or a plug-in (:func:`~tricktable.bots.is_builtin_player`), which a person gives again
    (``--players``). Raises :class:`RecordError` saying which seat named what.
    """
    labels = record.get("players")
    if not isinstance(labels, list) or not all(isinstance(p, str) for p in labels):
        raise RecordError("the record names no players: give them")
    # A seat handed to a substitute stays with it (see run_match): its first player, whatever
    # it was, is never made again, so the substitute stands in its place here too.
    substituted = _substitutes(record)
    specs = tuple(substituted.get(seat) or spec_of(label) for seat, label in enumerate(labels))
    outside = [(seat, spec) for seat, spec in enumerate(specs) if not is_builtin_player(spec)]
    if outside:
        seat, spec = outside[0]
        raise RecordError(
            f"the record's seat {seat} is not a built-in player ({quote(spec, 40)}): a record "
            "never starts a program, URL or plug-in; give the players again with --players"
        )
    return specs


def _substitutes(record: Mapping[str, Any]) -> dict[int, str]:
    """The player each seat a record's notes hand on plays on as, as :func:`_restored` seats
    it: the record's substitute where it is tricktable's own, else the heuristic bot."""
    hands = record.get("hands")
    places = [record, *(hands if isinstance(hands, list) else []), record.get("unfinished_hand")]
    out: dict[int, str] = {}
    for place in places:
        notes = place.get("notes") if isinstance(place, dict) else None
        for note in notes if isinstance(notes, list) else []:
            if not isinstance(note, dict) or note.get("kind") != "substitute":
                continue
            seat, text = note.get("seat"), note.get("text")
            if isinstance(seat, int) and isinstance(text, str):
                player = spec_of(text)
                out[seat] = player if is_builtin_player(player) else "heuristic"
    return out


def spec_of(label: str) -> str:
    """The player spec of a record's label (``bot:heuristic`` -> ``heuristic``; a name: human)."""
    return label[len(BOT_LABEL) :] if label.startswith(BOT_LABEL) else HUMAN


@dataclass(frozen=True)
class MatchResult:
    """How a match came out.

    ``status`` is one of :data:`STATUSES`; ``winner`` the side (index of ``scores``: a
    partnership, or a seat where each plays alone) that won, None when nobody did (stopped,
    shared, or a lone player's forfeit); ``shared`` whether the win was shared (Oh Hell);
    ``hands`` the hands scored, ``dealt`` those dealt (a forfeit leaves one unscored);
    ``forfeited_by`` the seat whose forfeit ended the match.
    """

    status: str
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    dealt: int
    shared: bool = False
    forfeited_by: int | None = None

    @classmethod
    def of(cls, state: TrickState) -> MatchResult:
        """The result of the match ``state`` holds, as it stands."""
        results = state.results
        forfeit = next((n.seat for n in state.notes if n.kind == "forfeit"), None)
        if forfeit is not None:
            status = "forfeited"
        else:
            status = "finished" if state.is_over else "stopped"
        shared = bool(status == "finished" and results and results[-1].shared_win())
        return cls(
            status,
            state.winner,
            tuple(state.scores),
            len(results),
            len(state.history),
            shared,
            forfeit,
        )


@dataclass(frozen=True, eq=False)
class MatchOutcome:
    """What :func:`run_match` returns: the result, the faults, and the record.

    ``faults`` are the referee's (see :class:`tricktable.match.Referee`), those a resumed
    record held first. ``state`` is the final state, in the process that played the match
    only: an outcome pickles with its :attr:`record` instead.
    """

    spec: MatchSpec
    result: MatchResult
    faults: tuple[dict[str, Any], ...]
    labels: tuple[str, ...]
    substitutions: tuple[tuple[int, int, str], ...] = ()
    state: TrickState | None = field(default=None, repr=False)

    @cached_property
    def record(self) -> dict[str, Any]:
        """The match record (``tricktable-record/1`` or ``/2``), built when first asked for."""
        if self.state is None:
            raise MatchSpecError("this outcome has neither its record nor its state")
        from tricktable.records import to_record

        return to_record(self.state, self.labels, faults=self.faults)

    @cached_property
    def players(self) -> tuple[str, ...]:
        """Who played each seat: its spec, and the substitute that took it over, if any
        (``cmd:./bot (substituted by heuristic in hand 4)``)."""
        out = list(self.spec.players)
        for seat, hand, player in self.substitutions:
            # A resumed seat's first player is its label's: the spec is who stands in for it.
            label = self.labels[seat]
            first = spec_of(label) if label.startswith(BOT_LABEL) else out[seat]
            out[seat] = f"{first} (substituted by {player} in hand {hand + 1})"
        return tuple(out)

    def __getstate__(self) -> dict[str, Any]:
        # The state does not cross processes; the record it makes does.
        fields = dict(self.__dict__)
        fields["record"] = self.record
        fields["state"] = None
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)


class MatchStopped(Exception):
    """A match stopped by something other than its rules: ``outcome`` is the match so far.

    The cause (chained, and ``cause``): a person's quit or end of input, an
    :class:`~tricktable.match.EngineFailure`, a substitute that failed in turn.
    """

    def __init__(self, outcome: MatchOutcome, cause: BaseException) -> None:
        self.outcome = outcome
        self.cause = cause
        super().__init__(str(cause))

    def as_error(
        self,
        where: str,
        error: Callable[[str], Exception],
        failure: Callable[[str], Exception],
    ) -> Exception:
        """The one-line error that stops a run of bots-only matches (simulate, duel) here.

        ``error`` (a :class:`TricktableError`: bad input) for a substitute that failed in
        turn; ``failure`` (a bug) for the engine's failure or anything unexpected. The message
        starts with ``where`` (which match, its seed), to replay it.
        """
        cause = self.cause
        if isinstance(cause, TricktableError):
            return error(f"{where}: {cause}")
        if isinstance(cause, EngineFailure):
            return failure(f"{where}: {cause}")
        return failure(f"{where}: {type(cause).__name__}: {cause}")


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a match: still a ``KeyboardInterrupt``, carrying the outcome so far."""

    def __init__(self, outcome: MatchOutcome) -> None:
        self.outcome = outcome
        super().__init__()


class BotPool:
    """The bots of a series of matches: made from their specs when first asked for, then kept.

    A program restarts for each match anyway (``start_match``), so keeping a bot between
    matches saves making it again; a bot that faulted is made anew. :meth:`close` ends them.
    """

    def __init__(self) -> None:
        self._bots: dict[tuple[int, str, RunnerOptions], Bot] = {}

    def bot(self, seat: int, spec: str, limits: RunnerOptions) -> Bot:
        """The bot for ``spec`` in ``seat``: the one kept, or a new one."""
        key = (seat, spec, limits)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = make_bot(spec, limits)
        return bot

    def discard(self, seats: Iterable[int]) -> None:
        """Close and forget the bots of ``seats`` (they faulted: the next match makes new ones)."""
        drop = set(seats)
        for key in [key for key in self._bots if key[0] in drop]:
            _close(self._bots.pop(key))

    def close(self) -> None:
        """Close every bot kept."""
        bots, self._bots = list(self._bots.values()), {}
        for bot in bots:
            _close(bot)


def check_players(players: Sequence[str], limits: RunnerOptions | None = None) -> None:
    """Make each bot of ``players`` once and close it: a bad spec fails now, not mid-way.

    Raises :class:`MatchSpecError` naming the seat; people (``human``) are not checked.
    """
    for seat, player in enumerate(players):
        if player == HUMAN:
            continue
        try:
            bot = make_bot(player, limits)
        except TricktableError as exc:
            raise MatchSpecError(f"seat {seat}: {exc}") from None
        _close(bot)


def run_match(
    spec: MatchSpec,
    *,
    listener: Listener | None = None,
    bots: Mapping[int, Bot] | None = None,
    pool: BotPool | None = None,
    on_start: Callable[[TrickState], None] | None = None,
    on_fault: FaultListener | None = None,
) -> MatchOutcome:
    """Play the match ``spec`` describes and return its outcome.

    ``listener`` is called after every action; ``bots`` are players the caller made for some
    seats (a person, a wrapped bot: the caller closes them; with a
    :class:`~tricktable.table.Person` among them the match is played at a table, see the
    module, and must not be started from a running event loop); ``pool`` keeps the other bots
    between matches (the caller closes it; without one the bots are made here and closed at
    the end); ``on_start`` sees the state before the first action; ``on_fault`` each fault
    as the referee records it.

    Raises :class:`MatchSpecError` (or another :class:`TricktableError`) before the match
    for a spec that cannot be played, :class:`MatchStopped` or :class:`MatchInterrupted`
    for a match stopped on the way.
    """
    state, carried = _begin(spec)
    game = state.game
    players = spec.players
    if len(players) != game.num_players:
        raise MatchSpecError(
            f"{game.name} needs {game.num_players} players, got {len(players)}: "
            + ",".join(players)
        )
    labels = spec.labels if spec.labels is not None else tuple(map(_label, players))
    given = bots if bots is not None else {}
    restored = _restored(spec, state)
    kept = pool if pool is not None else BotPool()
    limits = spec.limits
    referee = Referee(limits, substitute_factory(spec.substitute, limits), on_fault)
    max_hands = spec.max_hands
    deals = spec.deals
    if deals is not None:
        cap = len(deals)
        max_hands = cap if max_hands is None else min(max_hands, cap)
    try:
        seated = [
            _player(seat, restored.get(seat, player), given, kept, limits, seat in restored)
            for seat, player in enumerate(players)
        ]
        if on_start is not None:
            on_start(state)
        try:
            if _has_person(seated):
                from tricktable.table import Table

                table = Table(
                    game, seated, state.seed, referee, state, substituted=restored, talk=spec.talk
                )
                _play_at(table, listener, max_hands, deals)
            else:
                start_bots(game, seated, state.seed, referee)
                for seat in restored:
                    referee.restore(seat, seated[seat])
                deal = None if deals is None else _dealer(deals)
                heard = _talking(spec, state, seated, labels, listener)
                play_on(state, seated, heard, max_hands, referee, deal)
                end_bots(state, seated, referee)
        except KeyboardInterrupt as exc:
            raise MatchInterrupted(_outcome(spec, state, carried, referee, labels)) from exc
        except Exception as exc:
            raise MatchStopped(_outcome(spec, state, carried, referee, labels), exc) from exc
    finally:
        referee.close_substitutes()
        if pool is None:
            kept.close()
        elif referee.faults:
            kept.discard(f["seat"] for f in referee.faults)
    return _outcome(spec, state, carried, referee, labels)


def _play_at(
    table: Table, listener: Listener | None, max_hands: int | None, deals: tuple[Deal, ...] | None
) -> None:
    """Play the match on at ``table``, its people beside the asyncio driver (Ctrl-C raises
    ``KeyboardInterrupt`` here once the driver has stopped)."""
    if listener is not None:
        table.watch(_listening(listener))

    def deal(table: Table) -> None:
        assert deals is not None
        table.deal_next(*_next_deal(deals, table.state))

    import asyncio

    from tricktable.table import run

    asyncio.run(run(table, max_hands, deal=None if deals is None else deal))


def _has_person(seated: Sequence[Bot]) -> bool:
    """Whether a :class:`~tricktable.table.Person` is among ``seated``: none can be where the
    module that defines the class was never imported (a match of bots alone)."""
    module = sys.modules.get("tricktable.table.table")
    if module is None:
        return False
    person = module.Person
    return any(isinstance(player, person) for player in seated)


def _talking(
    spec: MatchSpec,
    state: TrickState,
    seated: Sequence[Bot],
    labels: Sequence[str],
    listener: Listener | None,
) -> Listener | None:
    """The listener, with the characters' table talk before it where a character sits."""
    if not spec.talk or not any(bot.talks for bot in seated):
        return listener  # no character: the loop stays as it was, with no cost
    from tricktable.characters.talk import match_talker

    talker = match_talker(state, seated, labels)
    return listener if talker is None else talker.listener(listener)


def _listening(listener: Listener) -> Callable[[Table], None]:
    """A table observer calling a match loop's ``listener`` after each action, as the loop does."""
    moves = 0

    def observe(table: Table) -> None:
        nonlocal moves
        state = table.state
        if table.moves != moves and state.actions:  # an action, not a deal or a chat line
            moves = table.moves
            listener(state, state.actors[-1], state.actions[-1])

    return observe


def _begin(spec: MatchSpec) -> tuple[TrickState, list[dict[str, Any]]]:
    """The state the match starts from (new, or rebuilt from its record) and earlier faults.

    A rebuilt state's events are on from the record's start: a display or a client reads the
    whole match from them, as if it had been there.
    """
    if spec.resume is None:
        return _game(spec.game).new_state(spec.seed), []
    try:
        record = json.loads(spec.resume)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record to resume is not JSON: {exc.msg}") from None
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    from tricktable.records import replay

    state = replay(record, listen=True)
    if spec.game and _game(spec.game).spec() != state.game.spec():
        raise MatchSpecError(
            f"the spec plays {spec.game}, the record to resume {state.game.spec()}"
        )
    if spec.seed is not None and spec.seed != state.seed:
        raise MatchSpecError(f"the spec's seed {spec.seed} is not the record's {state.seed}")
    return state, _earlier_faults(record)


def _restored(spec: MatchSpec, state: TrickState) -> dict[int, str]:
    """The player of each seat handed on before a resumed match stopped: its substitute.

    The substitute a record names is data like its players: one that is not tricktable's
    own (a program, a URL: :func:`~tricktable.bots.is_builtin_player`) is never started from
    the record; this run's substitute takes that seat instead.
    """
    restored: dict[int, str] = {}
    for note in state.notes:
        if note.kind == "substitute":
            player = spec_of(note.text)
            restored[note.seat] = player if is_builtin_player(player) else spec.substitute
    return restored


def _game(game_spec: str) -> Game:
    return shared_game(game_spec)  # a series of matches (simulate) loads its spec once


def _record_game(record: Mapping[str, Any]) -> Game:
    name, options = record.get("game"), record.get("options") or {}
    if not isinstance(name, str) or not isinstance(options, dict):
        raise RecordError("missing or bad 'game' or 'options'")
    return shared_game(name, options)


def _label(player: str) -> str:
    return HUMAN if player == HUMAN else BOT_LABEL + player


def _player(
    seat: int,
    player: str,
    given: Mapping[int, Bot],
    pool: BotPool,
    limits: RunnerOptions,
    restored: bool,
) -> Bot:
    """The bot that plays ``seat``: the caller's, or one made from its spec."""
    if not restored:
        bot = given.get(seat)
        if bot is not None:
            return bot
    if player == HUMAN:
        raise MatchSpecError(f"seat {seat} is a person's: pass the person's player for it")
    try:
        return pool.bot(seat, player, limits)
    except TricktableError as exc:
        raise MatchSpecError(f"seat {seat}: {exc}") from None


def _dealer(deals: tuple[Deal, ...]) -> Dealer:
    """A dealer that deals ``deals[h]`` as hand ``h``."""

    def deal(state: TrickState) -> None:
        masks, dealer, stock = _next_deal(deals, state)
        state.deal(masks, dealer=dealer, stock=stock)

    return deal


def _next_deal(
    deals: tuple[Deal, ...], state: TrickState
) -> tuple[list[int], int, Sequence[int] | None]:
    """The next hand's deal from ``deals``, checked: the masks, the dealer and the stock."""
    h = len(state.history)
    given = deals[h]
    n = state.game.num_players
    if len(given.hands) != n or not 0 <= given.dealer < n:
        raise MatchSpecError(f"deal {h + 1}: {n} hands and a dealer 0..{n - 1} needed")
    lists: list[Sequence[int]] = list(given.hands)
    if state.game.records_stock:
        lists.append(given.stock)
    try:
        masks, stock = state.check_deal(lists)
    except TricktableError as exc:
        raise MatchSpecError(f"deal {h + 1}: {exc}") from None
    return list(masks), given.dealer, stock


def _earlier_faults(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The faults of a resumed record that happened in the part of the match it holds."""
    faults = record.get("faults")
    if not isinstance(faults, list):
        return []
    done = len(record.get("hands") or [])
    partial = record.get("unfinished_hand")
    logged = len(partial.get("actions") or []) if isinstance(partial, dict) else -1
    noted = {
        (note.get("seat"), note.get("at"))
        for note in (partial.get("notes") or [] if isinstance(partial, dict) else [])
        if isinstance(note, dict)
    }
    kept = []
    for fault in faults:
        if not isinstance(fault, dict):
            continue
        hand, action = fault.get("hand"), fault.get("action")
        if not isinstance(hand, int):
            continue
        if hand < done or (
            hand == done
            and isinstance(action, int)
            and (action < logged or (fault.get("seat"), action) in noted)
        ):
            kept.append(dict(fault))
    return kept


def _outcome(
    spec: MatchSpec,
    state: TrickState,
    carried: list[dict[str, Any]],
    referee: Referee,
    labels: tuple[str, ...],
) -> MatchOutcome:
    faults = tuple(carried + referee.faults) if carried else tuple(referee.faults)
    notes: list[Note] = state.notes
    subs = tuple((n.seat, n.hand, spec_of(n.text)) for n in notes if n.kind == "substitute")
    return MatchOutcome(spec, MatchResult.of(state), faults, labels, subs, state)


def _close(bot: Bot) -> None:
    # One bot failing to close must not keep the others open (nor a plug-in's hang or
    # sys.exit in close() end the command: botcalls).
    close_bot(bot)
