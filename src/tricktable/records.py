"""Match records: write them from a state, read, replay and resume them.

Replay uses the engine's one path: deal each recorded hand, apply each recorded action.

``tricktable-record/1`` holds deals and actions. A match whose log holds entries that are not
moves — chat, a substitution, a forfeit (:class:`tricktable.engine.trick.Note`) — is written
as ``tricktable-record/2``: the same, plus ``notes`` in each hand (``{"at", "kind", "seat",
"text"}``: ``at`` counts the hand's actions before the entry) and at the top for entries
before the first deal. Both replay; a reader of /1 alone would miss a forfeit, hence the new
number. An unfinished hand (``unfinished_hand``) replays as far as it went, so a state rebuilt
from a record is the match at the moment it was saved, and the next deal comes from the seed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Final, TypeGuard

from tricktable.cards import card_name, parse_card
from tricktable.engine.trick import NOTE_KINDS, Game, HandLog, Note, TrickState, deal_lists
from tricktable.errors import NotationError, RecordError, TricktableError, quote
from tricktable.files import MAX_TEXT_BYTES, FileProblem, read_bytes, shown
from tricktable.games import load_game, shared_game
from tricktable.journal import RecordFile, merged, save
from tricktable.text import codepoint, unshowable

FORMAT = "tricktable-record/1"
#: the format of records whose log holds notes (chat, substitutions, forfeits)
FORMAT_2 = "tricktable-record/2"
FORMATS = (FORMAT, FORMAT_2)
#: the longest card or action text a record may hold (``bid blind-nil``, ``trump H alone``,
#: Hearts' ``pass 10C 10D 10H``): anything longer is refused without being parsed or echoed
LONGEST_NAME: Final = 64
#: the largest seed a record may hold: seeds are 64 bits (:func:`tricktable.seeds.fresh_seed`)
MAX_SEED: Final = (1 << 64) - 1


def to_record(
    state: TrickState,
    players: Sequence[str] | None = None,
    faults: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The record of a match so far (hands in progress included as far as they went)."""
    game = state.game
    fmt = FORMAT_2 if state.notes else FORMAT
    record: dict[str, Any] = {"format": fmt, "game": game.preset, "options": game.options_dict()}
    if players is not None:
        record["players"] = list(players)
    record["seed"] = state.seed
    notes: dict[int, list[dict[str, Any]]] = {}
    for note in state.notes:
        notes.setdefault(note.hand, []).append(note.to_dict())
    if -1 in notes:
        record["notes"] = notes[-1]
    logs = state.history
    partial = None
    # A hand without a result is unfinished: cut short (Ctrl-C), or ended by a forfeit.
    if logs and len(state.results) < len(logs):
        logs, partial = logs[:-1], logs[-1]
    record["hands"] = [_hand_record(state, log, notes.get(h)) for h, log in enumerate(logs)]
    if partial is not None:
        # A record holds complete hands only; a hand cut short (Ctrl-C) is kept beside them.
        record["unfinished_hand"] = _hand_record(state, partial, notes.get(len(logs)))
    if faults:
        # What the referee decided (see tricktable.match.Referee): kept, not replayed.
        record["faults"] = [dict(fault) for fault in faults]
    return record


def _hand_record(
    state: TrickState, log: HandLog, notes: list[dict[str, Any]] | None
) -> dict[str, Any]:
    game = state.game
    hand: dict[str, Any] = {
        "dealer": log.dealer,
        "deal": _deal_names(game, log),
        "actions": [game.action_name(a) for a in log.actions],
    }
    if notes:
        hand["notes"] = notes
    return hand


def _deal_names(game: Game, log: HandLog) -> list[list[str]]:
    """A hand's ``deal`` as a record writes it: each seat's cards, and the stock where kept."""
    return [[card_name(c) for c in hand] for hand in deal_lists(log.deal)] + (
        [[card_name(c) for c in log.stock]] if game.records_stock else []
    )


def save_record(record: dict[str, Any], path: str | Path, whole: bool = False) -> None:
    """Save a record as indented JSON to a regular file (see :mod:`tricktable.files`): what it
    adds to this process's last save of ``path`` appended to the journal beside it, else
    written whole, atomically (:mod:`tricktable.journal`; ``whole``: always written whole).

    For a record in hand; building the whole record costs its size, so a table saving after
    every action uses a :class:`RecordSaver` instead. An action is a line appended, and the
    record is written whole when a hand ends. A symlink, a FIFO, a device or a folder at
    ``path`` is refused (:class:`FileProblem`), not replaced; a command checks its ``--save``
    with :func:`tricktable.files.check_writable` before the match, so that this is the second
    check, not the first.
    """
    save(record, path, whole)


class RecordSaver:
    """Saves one match's record at one path after every action, each save costing what it
    adds, not the record's size: a match of N actions is saved in time linear in N.

    :meth:`save` counts what the state holds that the files do not yet (actions, a deal, a
    hand's end, notes, faults) and appends it as one line of the journal
    (:class:`tricktable.journal.RecordFile`); what is no mere addition (another game or
    players, a note of a hand already ended, a file changed by someone else), the first save
    and a journal grown as large as its record write the record whole. Whatever the files
    hold at any moment loads (:func:`load_record`) as the record of the match at its last save.
    """

    def __init__(self, path: str | Path) -> None:
        self.file = RecordFile(path)
        self._mark: _Mark | None = None

    def save(
        self,
        state: TrickState,
        players: Sequence[str] | None = None,
        faults: Sequence[dict[str, Any]] = (),
        whole: bool = False,
    ) -> None:
        """Save the record :func:`to_record` makes of ``state``, ``players`` and ``faults``:
        what is new appended, or (``whole``, or no mere addition) written whole.

        Raises :class:`~tricktable.files.FileProblem` as :func:`save_record` does.
        """
        labels = list(players) if players is not None else None
        mark = self._mark
        if not whole and mark is not None and mark.same_match(state, labels):
            found = mark.additions(state, faults)
            if found is not None:
                line, after = found
                if not line:
                    return  # nothing new
                if self.file.append(line, sync="end" in line):
                    self._mark = after
                    if not self.file.crowded:
                        return
        self.file.write(to_record(state, labels, faults))
        self._mark = _Mark.of(state, labels, faults)


class _Mark:
    """What a record's files hold of a match, counted: to tell what a save adds."""

    __slots__ = (
        "actions", "deal", "dealer", "faults", "fmt", "game", "hands", "labels", "notes", "open",
        "seed",
    )  # fmt: skip

    def __init__(self, state: TrickState, labels: list[str] | None) -> None:
        self.game, self.seed, self.labels = state.game, state.seed, labels
        self.fmt = FORMAT
        #: the hands written in ``hands``
        self.hands = 0
        #: whether an unfinished hand is written: its actions, its dealer and deal (masks)
        self.open = False
        self.actions = 0
        self.dealer = -1
        self.deal: list[int] = []
        #: how many of the state's notes, and of the faults, are written
        self.notes = 0
        self.faults = 0

    @classmethod
    def of(
        cls, state: TrickState, labels: list[str] | None, faults: Sequence[dict[str, Any]]
    ) -> _Mark:
        """What :func:`to_record` of ``state`` writes."""
        mark = cls(state, labels)
        mark.fmt = FORMAT_2 if state.notes else FORMAT
        logs = state.history
        mark.open = bool(logs) and len(state.results) < len(logs)
        mark.hands = len(logs) - mark.open
        if mark.open:
            log = logs[-1]
            mark.actions, mark.dealer, mark.deal = len(log.actions), log.dealer, list(log.deal)
        mark.notes, mark.faults = len(state.notes), len(faults)
        return mark

    def same_match(self, state: TrickState, labels: list[str] | None) -> bool:
        """Whether ``state`` is the match this counts, under the same names."""
        return state.game is self.game and state.seed == self.seed and labels == self.labels

    def additions(
        self, state: TrickState, faults: Sequence[dict[str, Any]]
    ) -> tuple[dict[str, Any], _Mark] | None:
        """The journal line of what ``state`` adds to this (empty: nothing) and what the
        files hold after it; None when it is more than one line can add."""
        game, logs, notes = state.game, state.history, state.notes
        opened = bool(logs) and len(state.results) < len(logs)
        hands = len(logs) - opened
        if len(notes) < self.notes or len(faults) < self.faults or hands < self.hands:
            return None
        after = _Mark(state, self.labels)
        after.fmt = FORMAT_2 if notes else FORMAT
        after.hands, after.open, after.notes, after.faults = hands, opened, len(notes), len(faults)
        line: dict[str, Any] = {}
        if after.fmt != self.fmt:
            if self.fmt != FORMAT:
                return None
            line["format"] = after.fmt
        ended = hands == self.hands + 1 and self.open and not opened
        if hands != self.hands and not ended:
            return None  # a hand dealt and ended between two saves, or a hand gone
        current = self.hands if (opened or ended) else -2  # the hand the line adds to
        new_notes = notes[self.notes :]
        match_notes = [note.to_dict() for note in new_notes if note.hand == -1]
        hand_notes = [note.to_dict() for note in new_notes if note.hand == current]
        if len(match_notes) + len(hand_notes) != len(new_notes):
            return None  # a note of a hand already ended: written whole
        if match_notes:
            line["match_notes"] = match_notes
        if len(faults) > self.faults:
            line["faults"] = [dict(fault) for fault in faults[self.faults :]]
        if current >= 0:
            log = logs[current]
            done = 0
            if self.open:
                if log.dealer != self.dealer or log.deal != self.deal:
                    return None
                done = self.actions
            else:
                line["deal"] = {"dealer": log.dealer, "deal": _deal_names(game, log)}
            if len(log.actions) < done:
                return None
            if len(log.actions) > done:
                line["actions"] = [game.action_name(a) for a in log.actions[done:]]
            if opened:
                after.actions, after.dealer = len(log.actions), log.dealer
                after.deal = list(log.deal)
        elif self.open:
            return None  # the unfinished hand is gone
        if hand_notes:
            line["hand_notes"] = hand_notes
        if ended:
            line["end"] = True
        return line, after


def load_record(source: str | Path | IO[str], notes: list[str] | None = None) -> dict[str, Any]:
    """Read a record's JSON from a path, ``-`` (standard input) or an open file.

    A path is read as :func:`tricktable.files.read_text` reads one: a regular file, at most
    :data:`~tricktable.files.MAX_TEXT_BYTES`, never waiting on a FIFO; standard input is
    read to the same limit. Anything wrong is one :class:`RecordError` line. A path's journal
    (``PATH.journal``, :mod:`tricktable.journal`) is applied: the record is the one last
    saved. What is worth a note (a journal's last line cut off while written, and ignored)
    is added to ``notes``, or, without that list, written to standard error, one line each.
    """
    data: bytes | None = None
    try:
        if not isinstance(source, str | Path):
            text = source.read(MAX_TEXT_BYTES + 1)
        elif str(source) == "-":
            import sys

            text = sys.stdin.read(MAX_TEXT_BYTES + 1)
        else:
            data = read_bytes(source, "record")
            text = _utf8(data, source)
    except FileProblem as exc:
        raise RecordError(str(exc)) from None
    except OSError as exc:
        raise RecordError(f"cannot read the record: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError("the record is not UTF-8 text") from None
    if len(text) > MAX_TEXT_BYTES:
        raise RecordError(f"the record is larger than {MAX_TEXT_BYTES // (1 << 20)} MiB; refused")
    try:
        record = strict_json(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise RecordError("malformed JSON: nested too deeply") from None
    except RecordError:  # a key given twice (a ValueError too: said as it is)
        raise
    except ValueError:  # json reads no integer of more than 4,300 digits (int_max_str_digits)
        raise RecordError("malformed JSON: a number of thousands of digits") from None
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if data is not None:
        assert isinstance(source, str | Path)
        try:
            record, said = merged(record, data, source)
        except FileProblem as exc:
            raise RecordError(str(exc)) from None
        if notes is not None:
            notes += said
        else:
            import sys

            for line in said:
                print(f"note: {line}", file=sys.stderr)
    return record


class _Twice(dict[str, Any]):
    """A JSON object that gave a key twice (``twice``): marked while parsing, refused after."""

    __slots__ = ("twice",)
    twice: str


def strict_json(text: str | bytes) -> Any:
    """The JSON value of ``text``, refusing an object that gives a key twice.

    Python's ``json`` keeps the last of two values of one key without a word, so a record
    with ``"seed"`` twice would mean one thing here and maybe the other elsewhere. The key
    and where its object is (``hands[2]``) are named in a :class:`RecordError`; bad JSON
    raises as ``json.loads`` does.
    """
    marked: list[_Twice] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) == len(items):
            return out
        found = _Twice(out)
        seen: set[str] = set()
        for key, _value in items:
            if key in seen:
                found.twice = key
                break
            seen.add(key)
        marked.append(found)
        return found

    value = json.loads(text, object_pairs_hook=pairs)
    if marked:
        where = shown(_path_to(value, marked[0])) or "the record"
        raise RecordError(f"duplicate key {quote(marked[0].twice, 40)} in {where}")
    return value


def _path_to(value: Any, target: object) -> str:
    """Where ``target`` is inside ``value``: ``hands[2].notes[0]`` ('' for ``value`` itself)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:  # a walk of its own, not recursion: JSON may nest deeper than Python calls
        path, inner = stack.pop()
        if inner is target:
            return path
        if isinstance(inner, dict):
            stack.extend((f"{path}.{key}" if path else key, v) for key, v in inner.items())
        elif isinstance(inner, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(inner))
    return ""


def _utf8(data: bytes, path: str | Path) -> str:
    """A record file's text (as :func:`tricktable.files.read_text` says it is not UTF-8)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileProblem(f"record {shown(path)} is not UTF-8 text") from None


def read_seed(record: Mapping[str, Any]) -> int | None:
    """A record's ``seed``, checked: a whole number 0..2**64-1, or None where it has none.

    The seed decides the deals a resumed match plays next; anything else in its place (text,
    a fraction, ``NaN``, ``true``, a negative or longer number) is a damaged record, not a
    seed to be guessed at.
    """
    if "seed" not in record:  # optional (RECORD-FORMAT.md); null is no seed but damage
        return None
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise RecordError(f"bad 'seed' {quote(seed, 40)}: expected a whole number 0..2**64-1")
    return seed


def replay(
    record: dict[str, Any], game_spec: str | None = None, listen: bool = False
) -> TrickState:
    """Rebuild the state a record describes, checking every action; raises RecordError.

    ``game_spec`` replays the deals and actions under another game or other options than the
    record names (``--game``: is this match legal under these rules, and how does it score?).
    An unfinished hand is replayed as far as it went, so the state is the match where it
    stopped: playing on from it (``deal()`` and ``apply``) continues the match exactly.
    ``listen`` turns the state's events on first, so that they tell the whole match.
    """
    if game_spec is not None:
        try:
            other = load_game(game_spec)
        except TricktableError as exc:
            raise RecordError(str(exc)) from None
        record = {**record, "game": other.preset, "options": other.options_dict()}
    fmt = record.get("format")
    if fmt not in FORMATS:
        raise RecordError(f"unknown format {quote(fmt, 40)}; expected {FORMAT!r} or {FORMAT_2!r}")
    game_name = record.get("game")
    if not isinstance(game_name, str):
        raise RecordError("missing or bad 'game': expected a game name")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"bad 'options': expected an object, got {quote(options, 40)}")
    try:
        game = shared_game(game_name, options)
    except TricktableError as exc:
        raise RecordError(str(exc)) from None
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("missing or bad 'hands': expected a list")
    read_labels(record, game.num_players)
    read_faults(record, game.num_players)
    state = game.new_state(read_seed(record))
    if listen:
        state.listen()
    _replay_notes(state, _read_notes(record.get("notes"), game.num_players, -1), None)
    for h, hand in enumerate(hands):
        _replay_hand(state, h, hand)
    unfinished = record.get("unfinished_hand")
    if unfinished is not None:
        _replay_hand(state, len(hands), unfinished, finished=False)
    if fmt == FORMAT:
        # A /1 record tells a forfeit only in its faults (kept, not replayed, in /1).
        seat = _forfeit_seat(record, game.num_players)
        if seat is not None and not state.is_over:
            state.forfeit(seat)  # the match ended there: the forfeiting side lost
    return state


#: the longest label a record's ``players`` may give a seat (characters)
MAX_LABEL: Final = 500


def read_labels(record: Mapping[str, Any], players: int) -> list[str] | None:
    """A record's ``players`` (one label a seat), checked; None where it names none.

    Labels are printed (replay, analyze, the tables' seats), so each is text of at most
    :data:`MAX_LABEL` characters with no control character (:mod:`tricktable.text`): a record
    that would print an escape sequence on a terminal is refused, not shown.
    """
    labels = record.get("players")
    if labels is None:
        return None
    if not isinstance(labels, list) or len(labels) != players:
        raise RecordError(f"bad 'players': expected a list of {players} labels")
    for seat, label in enumerate(labels):
        if not isinstance(label, str) or len(label) > MAX_LABEL:
            raise RecordError(
                f"bad label of seat {seat}: expected text of at most {MAX_LABEL} characters"
            )
        bad = unshowable(label)
        if bad is not None:
            raise RecordError(
                f"the label of seat {seat} holds a control character ({codepoint(bad)})"
            )
    return labels


#: a fault's keys that hold text (the referee writes them all: :class:`tricktable.match.Referee`)
_FAULT_TEXT: Final = ("kind", "detail", "penalty")


def read_faults(record: Mapping[str, Any], players: int) -> list[dict[str, Any]]:
    """A record's ``faults`` (none where it has none), checked: a list of objects, each with
    its ``seat`` (0..players-1) and its ``kind``, ``detail`` and ``penalty`` as text, its
    ``hand`` (-1 before the first deal) and ``action`` (or null) whole numbers when given.

    Faults are kept, not replayed, but they are read: a resumed match carries them on and
    prints them, and a /1 record's forfeit is in them. Anything else in their place is a
    :class:`RecordError` naming it (``bad 'faults[2].seat': expected a seat 0..3, got 'x'``).
    """
    if "faults" not in record:
        return []
    faults = record["faults"]
    if not isinstance(faults, list):
        raise RecordError(f"bad 'faults': expected a list, got {quote(faults, 40)}")
    for i, fault in enumerate(faults):
        where = f"faults[{i}]"
        if not isinstance(fault, dict):
            raise RecordError(f"bad '{where}': expected an object, got {quote(fault, 40)}")
        seat = fault.get("seat")
        if not _whole(seat) or not 0 <= seat < players:
            raise RecordError(
                f"bad '{where}.seat': expected a seat 0..{players - 1}, got {quote(seat, 40)}"
            )
        for key in _FAULT_TEXT:
            if not isinstance(fault.get(key), str):
                got = quote(fault.get(key), 40) if key in fault else "nothing"
                raise RecordError(f"bad '{where}.{key}': expected text, got {got}")
        hand, action = fault.get("hand", -1), fault.get("action")
        if not _whole(hand) or hand < -1:
            raise RecordError(f"bad '{where}.hand': expected a hand number, got {quote(hand, 40)}")
        if action is not None and (not _whole(action) or action < 0):
            raise RecordError(
                f"bad '{where}.action': expected an action number or null, got {quote(action, 40)}"
            )
    return faults


def _whole(value: Any) -> TypeGuard[int]:
    """Whether ``value`` is a whole number as JSON gives one (not ``true``, not ``1.0``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _forfeit_seat(record: dict[str, Any], players: int) -> int | None:
    """The seat whose fault forfeited the match, if the record's faults say one did."""
    faults = record.get("faults")
    if not isinstance(faults, list):
        return None
    for fault in faults:
        if not isinstance(fault, dict) or "forfeit" not in str(fault.get("penalty", "")):
            continue
        seat = fault.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
            return seat
    return None


def _read_notes(notes: Any, players: int, h: int) -> list[Note]:
    """The notes of hand ``h`` (-1: before the first deal), checked."""
    if notes is None:
        return []
    if not isinstance(notes, list):
        raise RecordError("bad 'notes': expected a list", h if h >= 0 else None)
    return [_check_note(note, players, h) for note in notes]


def _replay_notes(state: TrickState, notes: list[Note], at: int | None) -> None:
    """Replay the notes logged after ``at`` actions of their hand (all of them for None)."""
    for checked in notes:
        if at is not None and checked.at != at:
            continue
        if checked.kind == "chat":
            state.chat(checked.seat, checked.text)
        elif checked.kind == "substitute":
            state.substitute(checked.seat, checked.text)
        elif state.is_over:
            where = checked.hand if checked.hand >= 0 else None
            raise RecordError("a forfeit after the end of the match", where)
        else:
            state.forfeit(checked.seat)


def _check_note(note: Any, players: int, h: int) -> Note:
    where = h if h >= 0 else None
    if not isinstance(note, dict):
        raise RecordError("a note must be an object", where)
    at, kind, seat, text = note.get("at", 0), note.get("kind"), note.get("seat"), note.get("text")
    if kind not in NOTE_KINDS:
        raise RecordError(
            f"unknown note kind {quote(kind, 40)}; valid: {', '.join(NOTE_KINDS)}", where
        )
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise RecordError(f"bad note 'at' {quote(at, 40)}: expected a count of actions", where)
    if not isinstance(seat, int) or isinstance(seat, bool) or not -1 <= seat < players:
        raise RecordError(f"bad note seat {quote(seat, 40)}: expected -1..{players - 1}", where)
    if text is not None and not isinstance(text, str):
        raise RecordError("bad note 'text': expected a string", where)
    bad = unshowable(text) if text else None
    if bad is not None:
        raise RecordError(f"a note's text holds a control character ({codepoint(bad)})", where)
    return Note(h, at, kind, seat, text or "")


def _replay_hand(state: TrickState, h: int, hand: Any, finished: bool = True) -> None:
    game = state.game
    if state.is_over:
        raise RecordError("the match was already over; no hand may follow", h)
    if not isinstance(hand, dict):
        raise RecordError("a hand must be an object", h)
    dealer, deal, actions = hand.get("dealer"), hand.get("deal"), hand.get("actions")
    if (
        not isinstance(dealer, int)
        or isinstance(dealer, bool)
        or not 0 <= dealer < game.num_players
    ):
        raise RecordError(
            f"bad dealer {quote(dealer, 40)}: expected a seat 0..{game.num_players - 1}", h
        )
    if not isinstance(deal, list) or not all(isinstance(x, list) for x in deal):
        raise RecordError("bad 'deal': expected a list of card lists", h)
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("bad 'actions': expected a list of strings", h)
    try:
        cards = [[_card(c) for c in d] for d in deal]
        masks, stock = state.check_deal(cards)
    except RecordError as exc:
        raise RecordError(str(exc), h) from None
    except NotationError as exc:
        raise RecordError(str(exc), h) from None
    notes = _read_notes(hand.get("notes"), game.num_players, h)
    if any(note.at > len(actions) for note in notes):
        raise RecordError("a note comes after the hand's last action", h)
    if state.history:  # the first hand's dealer is the seed's: verify's to check, not ours
        check_dealer(state, dealer, h)
    state.deal(masks, dealer=dealer, stock=stock)
    for a, text in enumerate(actions):
        _replay_notes(state, notes, a)
        if state.needs_deal or state.is_over:
            raise RecordError(f"the hand is over; {quote(text, 40)} is one action too many", h, a)
        if len(text) > LONGEST_NAME:  # no action is written so long: never echoed in full
            raise RecordError(f"unknown action {quote(text, 40)}", h, a)
        try:
            state.apply(game.parse_action(text))
        except TricktableError as exc:
            raise RecordError(str(exc), h, a) from None
    _replay_notes(state, notes, len(actions))
    if finished and not (state.needs_deal or state.is_over):
        raise RecordError(
            f"the hand stops before its end; seat {state.to_act} is still to act", h, len(actions)
        )


def check_dealer(state: TrickState, dealer: int, h: int) -> None:
    """Check that ``dealer`` deals hand ``h``, the next hand of ``state``; else RecordError.

    The deal passes as the game's rules pass it (to the left; the same dealer again after a
    hand thrown in), which ``state.next_dealer`` knows: a hand dealt by anyone else scores
    to other seats than it should. Before the first hand that is the dealer the state's seed
    chose. Replay checks every hand after the first; ``verify`` every hand, on a state dealt
    from the seed.
    """
    expected = state.next_dealer
    if dealer != expected:
        rule = f"the deal passes to seat {expected}"
        if not state.history:
            rule = f"the seed has seat {expected} deal first"
        raise RecordError(f"dealt by seat {dealer}; {rule}", h)


def _card(value: object) -> int:
    """The card a record's deal names, or a NotationError quoting at most 40 characters."""
    if isinstance(value, str) and len(value) <= LONGEST_NAME:
        return parse_card(value)
    raise NotationError(f"unknown card {quote(value, 40)}")


def result_of(state: TrickState) -> dict[str, Any]:
    """The replay result: each hand's result and the winner (None if unfinished)."""
    return {"hands": [result.to_dict() for result in state.results], "winner": state.winner}
