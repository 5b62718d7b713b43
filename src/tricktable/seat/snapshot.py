"""The snapshot: everything one viewer may see of a match now, as JSON-ready data.

``snapshot(table, viewer)`` and ``snapshot_of(state, viewer, seats, version)`` build it from
the viewer's sealed view (:func:`~tricktable.seat.views.view_for`), its event stream and public
facts (who sits where, how many cards each holds), never from a hidden part of the state, so
it cannot show a card the viewer may not know. ``viewer`` is a seat, ``SPECTATOR`` (someone
watching: what every seat may see) or ``EVERYONE`` (every hand face up: after the match, at a
table where no person plays (:attr:`~tricktable.table.table.Table.open_hands`), or a replay of
a record).

Its words are phrases (:mod:`tricktable.seat.phrases`) written by the game's presenter, so
the terminal, the TUI and the web page say the same things. The shape::

    {version, game {name, spec, title, seats, sides, partners, target, family}, viewer,
     seats [{seat, name, label, kind, side, place, cards_left, tricks, last_call,
             last_call_text, dealer, turn, avatar}],
     hand {number, phase, dealer, turn, trump, contract, info, cards, cards_words, trick,
           leader, winning, last_trick, shown, facts, tally, situation, history},
     scores, score_line, legal [{action, text, label, words}], over, winners, summary}

``seats[].kind`` is one of :data:`SEAT_KINDS`, the web server's words for a seat: ``person``
(at this screen or remote), ``character`` (a character of the roster, who talks), ``bot`` (a
level or any other bot). ``hand.facts`` leaves out a fact that is none (no bid yet: no
``high bidder -1``).

``hand`` is None before the first deal; its ``number`` counts from 1. ``situation`` (what the
seat to act needs to decide) is given on the viewer's own turn only; ``summary`` (the last
hand's result and the scores) between hands and after the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from tricktable.cards import (
    SUITS,
    card_name,
    cards_in,
)
from tricktable.engine import actions as act
from tricktable.engine.events import (
    SPECTATOR,
    Acted,
    CardPlayed,
    Chat,
    Dealt,
    Event,
    Fault,
    Forfeited,
    HandScored,
    HandStarted,
    MatchOver,
    PassReceived,
    Substituted,
    TrickWon,
    TrumpNamed,
)
from tricktable.engine.phases import DEAL, OVER, PHASE_NAMES, PLAY
from tricktable.engine.tables import trick_winner
from tricktable.engine.trick import Game, TrickState, View
from tricktable.errors import TricktableError
from tricktable.seat import phrases as ph
from tricktable.seat.choices import CardChoice, action_label, card_choice, decision
from tricktable.seat.games import Presenter, Seating, line, presenter_for, safely
from tricktable.seat.games.base import SEAT_KEYS
from tricktable.seat.phrases import Phrase
from tricktable.seat.seen import Seen
from tricktable.seat.views import EVERYONE, view_for
from tricktable.seat.words import Words

if TYPE_CHECKING:
    from tricktable.table.table import Table

#: where each seat sits round a table of 2 to 7, seen from the viewer at the bottom (S)
PLACES: Final[dict[int, tuple[str, ...]]] = {
    2: ("S", "N"),
    3: ("S", "W", "E"),
    4: ("S", "W", "N", "E"),
    5: ("S", "W", "NW", "NE", "E"),
    6: ("S", "W", "NW", "N", "NE", "E"),
    7: ("S", "SW", "W", "NW", "NE", "E", "SE"),
}
#: each place's name, as the snapshot writes it
PLACE_WORDS: Final = {
    "S": "south",
    "SW": "southwest",
    "W": "west",
    "NW": "northwest",
    "N": "north",
    "NE": "northeast",
    "E": "east",
    "SE": "southeast",
}
#: the wire's name of each event kind
EVENT_KINDS: Final = {
    "hand_started": "deal",
    "dealt": "dealt",
    "hand_changed": "hand",
    "pass_received": "pass",
    "acted": "bid",
    "card_played": "play",
    "trump_named": "trump",
    "trick_won": "trick",
    "hand_scored": "scored",
    "match_over": "over",
    "chat": "chat",
    "fault": "fault",
    "substituted": "substituted",
    "forfeited": "forfeited",
}


# ----------------------------------------------------------------- made once a game
#
# What a snapshot says that depends on the game alone (its ``game`` block, its presenters, an
# action's words) is made once a game and shared by every snapshot of every table of it. A
# game is immutable (its options a frozen dataclass): two games with equal keys say the same.

#: how many games' words each cache below holds before it starts again
_GAMES_KEPT: Final = 256
#: how many actions' phrases a game's cache holds before it starts again
_ACTIONS_KEPT: Final = 4096


def game_key(game: Game) -> tuple[Any, ...] | None:
    """What ``game`` is, as a key: equal keys, games that say the same (None where an option
    cannot be hashed: nothing of such a game is shared)."""
    key = (
        type(game),
        game.name,
        game.preset,
        game.title,
        game.family,
        game.num_players,
        game.num_scores,
        game.options,
        game.baseline,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


class _Told:
    """A game's presenters and the phrases of its actions, as they were first read."""

    def __init__(self, game: Game) -> None:
        self.presenter: Presenter = presenter_for(game)
        self.generic = Presenter(game)
        #: (action, trumps that matter) -> its phrase, shared: copied when given out
        self.actions: dict[tuple[int, int], Phrase] = {}


_TOLD: dict[tuple[Any, ...], _Told] = {}
_GAME_BLOCKS: dict[tuple[Any, ...], dict[str, Any]] = {}


def _told(game: Game) -> _Told:
    """``game``'s presenters and action phrases, made once a game."""
    key = game_key(game)
    told = _TOLD.get(key) if key is not None else None
    if told is None:
        told = _Told(game)
        if key is not None:
            _remember(_TOLD, key, told)
    return told


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _GAMES_KEPT:
        cache.clear()  # a server of many variants: start again rather than grow
    cache[key] = value


def forget() -> None:
    """Drop what is made once a game (a test compares a snapshot made afresh with one made
    from what was remembered)."""
    _TOLD.clear()
    _GAME_BLOCKS.clear()
    ph.forget()


class Voice:
    """A game's presenter called with seat markers for names: its texts read as phrases.

    ``names`` are the real names (``You`` kept as words: the presenter conjugates for it).
    """

    def __init__(self, game: Game, names: Sequence[str]) -> None:
        told = _told(game)
        self.presenter: Presenter = told.presenter
        self.generic = told.generic
        self.names = list(names)
        self.seating = Seating(game, ph.seat_markers(self.names))
        self._actions = told.actions

    def phrase(self, text: Words | str) -> Phrase:
        """One presenter text as a phrase."""
        return ph.phrase_of(text)

    def action(self, action: int, trumps: int = 0) -> Phrase:
        """An action's words (the presenter's ``action_words``) as a phrase; a card's is its
        token, as :func:`~tricktable.seat.games.card_text` draws it."""
        key = (action, trumps >> action & 1 if act.is_play(action) else trumps)
        out = self._actions.get(key)
        if out is None:
            if act.is_play(action):
                trump = bool(trumps >> action & 1)
                out = [ph.card(action, ph.card_style(action, trump), trump and action < 52)]
            else:
                out = ph.phrase_of(self.presenter.action_words(action, trumps))
            if len(self._actions) >= _ACTIONS_KEPT:
                self._actions.clear()  # a pass of three cards is one of 22,100 actions
            self._actions[key] = out
        return [dict(t) for t in out]

    def lines(self, make: Any, fallback: Any = None) -> list[Phrase]:
        """``make(presenter)``'s lines as phrases (the generic presenter's if it fails)."""
        back = fallback or make
        texts = safely(lambda: make(self.presenter), lambda: back(self.generic))
        return [ph.phrase_of(t) for t in texts]


def snapshot(table: Table, viewer: int, names: Sequence[str] | None = None) -> dict[str, Any]:
    """What ``viewer`` (a seat, ``SPECTATOR`` or ``EVERYONE``: after the match, or at a table
    where no person plays) may see at ``table`` now, as JSON-ready data (see the module).
    ``names``: what the words call each seat (a screen's own: ``You``, ``West``), the labels'
    display names if None."""
    if viewer == EVERYONE and not (table.is_over or table.open_hands):
        raise TricktableError(
            "every hand is shown face up only after the match, or where no person plays"
        )
    kinds = [_kind(p) for p in table.players]
    return snapshot_of(table.state, viewer, table.labels, table.version, kinds=kinds, names=names)


def snapshot_of(
    state: TrickState,
    viewer: int,
    seats: Sequence[str] | None = None,
    version: int = 0,
    kinds: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The snapshot of ``state`` for ``viewer`` (see the module), for a screen that holds a
    state but no table: ``seats`` are the seats' labels (``bot:heuristic``, a person's name;
    ``seat N`` if None), ``version`` the screen's count of changes, ``kinds`` each seat's kind
    (``person``, ``bot``, ...; read from its label if None) and ``names`` what the presenters
    call each seat (``You``, ``West``; the labels' display names if None).

    ``EVERYONE`` sees every hand face up: the caller vouches that the match is over, that no
    person plays it, or that this is a replay of a record, public after the fact.
    """
    n = state.n
    if not (viewer in (SPECTATOR, EVERYONE) or (viewer.__class__ is int and 0 <= viewer < n)):
        raise TricktableError(f"no viewer {viewer!r}: a seat 0..{n - 1}, spectator or everyone")
    view = view_for(state, viewer)
    public = Public(
        view,
        sizes=[hand_size(state, s) for s in range(n)],
        stream=_stream(state, viewer),
        hands=list(state.hands) if viewer == EVERYONE else None,
        state=state if 0 <= viewer < n else None,
    )
    return _snapshot(public, viewer, seats, version, kinds, names)


def snapshot_of_view(
    view: View,
    seats: Sequence[str] | None = None,
    version: int = 0,
    kinds: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The snapshot of a seat's own ``view`` alone (a screen given a view, no state): as
    :func:`snapshot_of` for that seat, but each other seat's ``cards_left`` is None."""
    n = len(view.won)
    sizes: list[int | None] = [None] * n
    sizes[view.seat] = view.hand.bit_count()
    public = Public(view, sizes=sizes, stream=view.events, hands=None)
    return _snapshot(public, view.seat, seats, version, kinds, names)


class Public:
    """What a snapshot reads beside the viewer's view: facts every seat may know (how many
    cards each holds), the viewer's event stream, and every hand (everyone's view only)."""

    def __init__(
        self,
        view: View,
        sizes: Sequence[int | None],
        stream: Sequence[Event],
        hands: Sequence[int] | None,
        state: TrickState | None = None,
    ) -> None:
        self.view = view
        #: the match's state, for the seat's own decision's bounds only (see choices)
        self.state = state
        self.game: Game = view.game
        self.n: int = len(view.won)
        self.sizes = list(sizes)
        self.stream = stream
        self.hands = hands
        #: whether the match is over
        self.over = view.phase == OVER
        #: whether a hand has been dealt (the match has begun)
        self.dealt = view.phase != DEAL or bool(view.results)
        #: whether the last hand is over and the next not dealt (or the match over)
        self.between = self.dealt and view.phase in (DEAL, OVER)


def _snapshot(
    public: Public,
    viewer: int,
    seats: Sequence[str] | None,
    version: int,
    kinds: Sequence[str] | None,
    names: Sequence[str] | None,
) -> dict[str, Any]:
    view, game, n = public.view, public.game, public.n
    labels = list(seats) if seats is not None else [f"seat {s}" for s in range(n)]
    if len(labels) != n:
        raise TricktableError(f"{n} seats need {n} labels, got {len(labels)}")
    shown_names = list(names) if names is not None else [_display(label) for label in labels]
    words = Voice(game, shown_names)
    seating = words.seating
    seen = Seen(n, game.num_scores).take_all(public.stream)
    hand_seen = seen.hand
    if hand_seen is not None and view.hand_number == hand_seen.number:
        hand_seen.facts = view.info()
        hand_seen.opening = hand_seen.opening or hand_seen.facts
        hand_seen.tables = view.tables
    seat_me = viewer if 0 <= viewer < n else -1
    # the seat's decision as a choice of cards, found once (a Hearts pass reads 286 codes)
    choice = card_choice(view, public.state) if seat_me >= 0 and view.to_act == seat_me else None
    return {
        "version": version,
        "game": _game_block(game, n, seating.partners),
        "viewer": viewer,
        "seats": _seats(public, words, labels, kinds, seat_me),
        "hand": _hand(public, words, seen, viewer),
        "scores": list(view.scores),
        "score_line": [ph.phrase_of(seating.scores_text(view.scores))],
        "legal": _legal(view, words, choice) if seat_me >= 0 else [],
        "decision": decision(view, shown_names, public.state, choice) if seat_me >= 0 else None,
        "over": public.over,
        "winners": _winners(public, words, seen),
        "summary": _summary(words, seen) if public.between else None,
    }


# ------------------------------------------------------------------------------ parts


def _game_block(game: Game, n: int, partners: bool) -> dict[str, Any]:
    """The snapshot's ``game``: the same at every snapshot of a game, so made once a game
    (its ``spec()`` was a tenth of a snapshot's time)."""
    kind = game_key(game)
    key = (kind, n, partners) if kind is not None else None
    block = _GAME_BLOCKS.get(key) if key is not None else None
    if block is None:
        target = getattr(game.options, "target", None)
        block = {
            "name": game.name,
            "spec": game.spec(),
            "title": game.title or game.name,
            "seats": n,
            "sides": game.num_scores,
            "partners": partners,
            "target": target if isinstance(target, int) else None,
            "family": game.family,
        }
        if key is not None:
            _remember(_GAME_BLOCKS, key, block)
    return dict(block)  # its values are immutable: a shallow copy is the caller's own


def _seats(
    public: Public,
    words: Voice,
    labels: Sequence[str],
    kinds: Sequence[str] | None,
    me: int,
) -> list[dict[str, Any]]:
    view, n = public.view, public.n
    places = PLACES.get(n)
    bottom = max(me, 0)
    trumps = view.tables.mask
    calls: dict[int, int] = {}
    for actor, action in view.actions:
        if not act.is_play(action):  # a bid, a pass, trump named, cards passed
            calls[actor] = action
    out = []
    for s in range(n):
        place = places[(s - bottom) % n] if places is not None else ""
        kind = kinds[s] if kinds is not None else _kind_of_label(labels[s])
        out.append(
            {
                "seat": s,
                "name": words.names[s],
                "label": labels[s],
                "kind": kind,
                "side": public.game.team_of(s),
                "place": PLACE_WORDS.get(place, ""),
                "cards_left": public.sizes[s],
                "tricks": view.tricks_won[s],
                "last_call": words.action(calls[s], trumps) if s in calls else None,
                "last_call_text": public.game.action_name(calls[s]) if s in calls else None,
                "dealer": s == view.dealer and public.dealt,
                "turn": s == view.to_act,
                "avatar": _display(labels[s]),
            }
        )
    return out


def hand_size(state: TrickState, seat: int) -> int:
    """How many cards ``seat`` holds: public (everyone at a table sees a hand's size)."""
    return int(state.hands[seat].bit_count())


def _hand(public: Public, words: Voice, seen: Seen, viewer: int) -> dict[str, Any] | None:
    if not public.dealt:
        return None  # nothing dealt yet
    view, n = public.view, public.n
    seating = words.seating
    phase_name = PHASE_NAMES.get(view.phase) or view.to_dict()["phase"]
    trumps = view.tables.mask
    info = view.info()
    trick = view.trick
    played_by = {c: s for s, c in view.actions if act.is_play(c)}
    winning = trick_winner(view.tables, [c for _, c in trick]) if trick else -1
    last = view.tricks[-1] if view.tricks else None
    hand_seen = seen.hand
    between = public.between
    out: dict[str, Any] = {
        "number": view.hand_number + 1,
        "phase": str(phase_name),
        "dealer": view.dealer,
        "turn": view.to_act,
        "trump": SUITS[view.trump] if 0 <= view.trump < 4 else None,
        "contract": _contract(info, n),
        "info": info,
        "cards": [card_name(c) for c in cards_in(view.hand)],
        "cards_words": _cards_words(view.hand, trumps),
        "trick": [_play(s, c, trumps) for s, c in trick],
        "leader": trick[0][0] if trick else None,
        "winning": trick[winning][0] if trick else None,
        "last_trick": None,
        "shown": {},
        "facts": [],
        "tally": [],
        "situation": [],
        "history": [],
    }
    if last is not None:
        leader, cards, winner = last
        step = public.game.step
        out["last_trick"] = {
            "leader": leader,
            "cards": [
                _play(played_by.get(c, (leader + i * step) % n), c, trumps)
                for i, c in enumerate(cards)
            ],
            "winner": winner,
        }
    if public.hands is not None:
        out["shown"] = {
            str(s): [card_name(c) for c in cards_in(h)] for s, h in enumerate(public.hands)
        }
    elif between:
        taken: dict[int, list[str]] = {}
        for s, c in view.actions:
            if act.is_play(c):
                taken.setdefault(s, []).append(card_name(c))
        out["shown"] = {str(s): cs for s, cs in sorted(taken.items())}
    if hand_seen is not None and hand_seen.number == view.hand_number:
        out["history"] = [
            {"seat": s, "words": words.action(a, hand_seen.trumps)} for s, a in hand_seen.acted
        ]
    # The tally stays the last hand's between hands (what a player counted, still there).
    out["tally"] = words.lines(lambda p: p.tally_lines(seating, view))
    if between:
        return out
    if view.phase == PLAY:
        out["facts"] = words.lines(lambda p: p.play_facts(seating, view))
    else:
        out["facts"] = words.lines(lambda p: _bidding_facts(p, seating, view))
    if 0 <= viewer < n and view.to_act == viewer:
        out["situation"] = words.lines(lambda p: p.situation_lines(seating, view))
    return out


def _bidding_facts(presenter: Presenter, seating: Seating, view: View) -> list[Words]:
    """The facts before the play: a game's own, or the generic ones (every fact of the
    view's info) with the facts that are none left out — no value, a seat that is no seat
    (``high_bidder`` -1), a high bid nobody made — and ``no bid yet`` said instead."""
    kind = type(presenter)
    if kind.bidding_facts is not Presenter.bidding_facts or (
        kind.info_facts is not Presenter.info_facts
    ):
        return presenter.bidding_facts(seating, view)
    info = view.info()
    n = len(seating.names)

    def none(key: str, value: object) -> bool:
        if value is None:
            return True
        seatlike = key in SEAT_KEYS or key.endswith("bidder")
        return seatlike and isinstance(value, int) and not 0 <= value < n

    bidder = info.get("high_bidder")
    nobody = "high_bidder" in info and none("high_bidder", bidder)
    out: list[Words] = []
    for key, value in info.items():
        if none(key, value) or (nobody and key == "high_bid"):
            continue
        named = "seat" if key.endswith("bidder") else key  # a bidder is named as a seat
        out.append(line(f"{key.replace('_', ' ')} ", presenter.value_text(seating, named, value)))
    if nobody:
        out.insert(0, Words("no bid yet"))
    return out


def _play(seat: int, code: int, trumps: int) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "card": card_name(code)}
    if trumps >> code & 1:
        out["trump"] = True
    return out


def _contract(info: dict[str, Any], n: int) -> Phrase | None:
    """Who made the contract and what, from the public facts (``declarer``/``maker``, ``bid``)."""
    for key in ("declarer", "maker", "bidder"):
        who = info.get(key)
        if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < n:
            bid = info.get("bid", info.get("contract"))
            if isinstance(bid, int) and not isinstance(bid, bool):
                return [ph.seat(who), ph.text(f" bid {bid}")]
            return [ph.seat(who), ph.text(" made trump" if key == "maker" else " declares")]
    return None


def _legal(view: View, words: Voice, choice: CardChoice | None) -> list[dict[str, Any]]:
    """The viewer's legal actions, each named by its text (``action`` and ``text`` alike:
    a code may pass 2**53, which a JSON number cannot hold) — but not the cards of a choice
    whose one action names them all (a Hearts pass: the decision's, not 286 entries)."""
    game = view.game
    trumps = view.tables.mask
    legal = view.legal_actions()
    if choice is not None and choice.combined:
        legal = [a for a in legal if a < act.PASS_CARDS]
    out = []
    for action in legal:
        text = game.action_name(action)
        out.append(
            {
                "action": text,
                "text": text,
                "label": action_label(game, action),
                "words": words.action(action, trumps),
            }
        )
    return out


def _winners(public: Public, words: Voice, seen: Seen) -> list[int]:
    over = seen.over
    if not public.over or over is None:
        return []
    try:
        return words.presenter.winners(seen.last, over.winner)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, TricktableError):
        return Presenter(public.game).winners(None, over.winner)


def _summary(words: Voice, seen: Seen) -> list[Phrase] | None:
    hand = seen.hand
    if hand is None or hand.result is None:
        return None
    seating = words.seating
    lines = _hand_won(words, hand.before, hand.scores)
    lines += words.lines(lambda p: p.result_lines(seating, hand))
    lines += words.lines(lambda p: p.score_lines(seating, hand))
    return lines


def _hand_won(words: Voice, before: Sequence[int], after: Sequence[int]) -> list[Phrase]:
    """Who won the hand, first in its summary: the side that gained most (took the fewest
    points where the lowest score wins), with what; nothing when every side did the same."""
    gains = [a - b for a, b in zip(after, before, strict=False)]
    if len(gains) < 2 or len(set(gains)) == 1:
        return []
    lowest = bool(words.presenter.win_note())  # " with the lowest score": Hearts' family
    best = min(gains) if lowest else max(gains)
    sides = [s for s, g in enumerate(gains) if g == best]
    seating = words.seating
    names = " and ".join(seating.side_name(s) for s in sides)
    if lowest:
        how = f" took the fewest points this hand ({best})"
    elif best > 0:
        how = f" won the hand ({best:+d})"
    else:
        how = f" lost the least this hand ({best:+d})"
    return [words.phrase(Words(names + how))]


def _stream(state: TrickState, viewer: int) -> Sequence[Event]:
    """The events ``viewer`` may see (everyone: the whole log)."""
    log = state.events
    if log is None:
        return ()
    if viewer == EVERYONE:
        return log.all
    return log.stream(viewer)


#: the seat kinds of the snapshot, the web server's TABLE_INFO words (an open seat is the
#: server's alone: a snapshot's seat is always someone's)
SEAT_KINDS: Final = ("person", "bot", "character", "open")


def _kind(player: Any) -> str:
    """A seat's kind: ``person`` (here or remote), ``character`` (a bot with a voice: a
    character of the roster), else ``bot`` (a level, the beginner's included)."""
    if getattr(player, "interactive", False):
        return "person"
    character = getattr(player, "character", None)
    if getattr(player, "talks", False) and getattr(character, "voice", None):
        return "character"
    return "bot"


def _kind_of_label(label: str) -> str:
    """A record label's kind: ``bot:edna`` a character of the roster, ``bot:x`` a bot."""
    if not label.startswith("bot:"):
        return "person"
    return "character" if _is_character(label[4:]) else "bot"


@lru_cache(maxsize=256)
def _is_character(name: str) -> bool:
    from tricktable.characters.roster import CHARACTERS

    return name.lower() in CHARACTERS


@lru_cache(maxsize=4096)
def _display(label: str) -> str:
    from tricktable.avatars import avatar_name

    try:
        return avatar_name(label)
    except TricktableError:
        return label


# ----------------------------------------------------------------------------- events


def event_json(
    event: Event,
    table: Table | None,
    viewer: int,
    version: int | None = None,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """``event`` for the wire, as ``viewer`` may see it: ``{version, kind, seat, card, words,
    data}`` (``data`` the event's own JSON), and a hand's score its ``summary`` (see
    :func:`hand_summary`; ``names`` as :func:`snapshot`'s). Refused for an event not in the
    viewer's stream."""
    if viewer != EVERYONE and not (
        viewer.__class__ is int and 0 <= viewer <= SPECTATOR and event.visible_to(viewer)
    ):
        raise TricktableError(f"viewer {viewer} may not see a {event.kind} event")
    if version is None:
        version = table.version if table is not None else 0
    seat = getattr(event, "seat", None)
    if isinstance(event, TrickWon):
        seat = event.winner
    elif isinstance(event, PassReceived):
        seat = event.giver
    card = getattr(event, "card", None)
    game = table.game if table is not None else None
    out = {
        "version": version,
        "kind": EVENT_KINDS.get(event.kind, event.kind),
        "seat": seat if isinstance(seat, int) and seat >= 0 else None,
        "card": card_name(card) if isinstance(card, int) else None,
        "words": event_words(event, game),
        "data": event.to_dict(),
    }
    if isinstance(event, HandScored) and table is not None:
        out["summary"] = hand_summary(table.state, viewer, event, table.labels, names)
    return out


def hand_summary(
    state: TrickState,
    viewer: int,
    event: HandScored,
    seats: Sequence[str],
    names: Sequence[str] | None = None,
) -> list[Phrase] | None:
    """The summary of the hand ``event`` scored, as ``viewer``'s snapshot says it between
    hands (who won it, its result, the scores): what a screen shows when the hand ends, so
    no door rebuilds it from the event's data. None if ``event`` is not in the viewer's
    stream (a door that holds events of another state)."""
    stream = _stream(state, viewer)
    at = next((i for i in range(len(stream) - 1, -1, -1) if stream[i] is event), -1)
    if at < 0:
        return None
    game, n = state.game, state.n
    seen = Seen(n, game.num_scores).take_all(stream[: at + 1])
    hand = seen.hand
    if hand is None or hand.result is None:
        return None
    view = view_for(state, viewer)
    if view.hand_number == hand.number:  # the facts of the hand, as its snapshot reads them
        hand.facts = view.info()
        hand.opening = hand.opening or hand.facts
        hand.tables = view.tables
    shown = list(names) if names is not None else [_display(label) for label in seats]
    return _summary(Voice(game, shown), seen)


def event_words(event: Event, game: Any = None) -> Phrase:
    """What ``event`` says, as a phrase (seats as tokens)."""
    if isinstance(event, CardPlayed):
        return [ph.seat(event.seat), ph.text(" plays "), ph.card(event.card)]
    if isinstance(event, Acted):
        words = _action_phrase(event.action, event.text, game)
        return [ph.seat(event.seat), ph.text(" "), *words]
    if isinstance(event, TrickWon):
        return [ph.seat(event.winner), ph.text(f" takes trick {event.number + 1}")]
    if isinstance(event, TrumpNamed):
        out: Phrase = [ph.text("Trump: "), ph.suit(event.suit)]
        return out if event.seat < 0 else [ph.seat(event.seat), ph.text(" names trump "), *out[1:]]
    if isinstance(event, HandStarted):
        return [ph.text(f"Hand {event.hand + 1}: "), ph.seat(event.dealer), ph.text(" deals")]
    if isinstance(event, Dealt):
        return [ph.text("Your cards: "), *_cards_phrase(event.cards)]
    if isinstance(event, PassReceived):
        return [ph.seat(event.giver), ph.text(" passes you "), *_cards_phrase(event.cards)]
    if isinstance(event, HandScored):
        scores = " · ".join(map(str, event.scores))
        return [ph.text(f"Hand {event.hand + 1} scored: {scores}")]
    if isinstance(event, MatchOver):
        scores = " · ".join(map(str, event.scores))
        return [ph.text(f"The match is over: {scores}")]
    if isinstance(event, Chat):
        if event.seat < 0:
            return [ph.text(event.text)]
        return [ph.seat(event.seat), ph.text(f": {event.text}")]
    if isinstance(event, Fault):
        return [ph.seat(event.seat), ph.text(f" {event.fault}: {event.penalty}")]
    if isinstance(event, Substituted):
        return [ph.seat(event.seat), ph.text(f" is played by {event.player} now")]
    if isinstance(event, Forfeited):
        return [ph.seat(event.seat), ph.text("'s side forfeits the match")]
    return [ph.text(event.kind.replace("_", " "))]


def _action_phrase(action: int, text: str, game: Any) -> Phrase:
    if game is not None:
        # a presenter holds no state of a match: one a game (see _told)
        return ph.phrase_of(_told(game).presenter.action_words(action))
    return [ph.text(text)]


def _cards_words(mask: int, trumps: int) -> Phrase:
    """Cards as the table draws them, one token each (trumps marked), no separators."""
    out: Phrase = []
    for c in cards_in(mask):
        trump = bool(trumps >> c & 1)
        out.append(ph.card(c, ph.card_style(c, trump), trump and c < 52))
    return out


def _cards_phrase(mask: int) -> Phrase:
    out: Phrase = []
    for i, c in enumerate(cards_in(mask)):
        if i:
            out.append(ph.text(" "))
        out.append(ph.card(c))
    return out
