"""A saved match's journal: each save appended to a file beside its record, not the whole
record rewritten after every action.

A table saves its record after every action (the TUI, the line terminal), so that a match
killed in the middle plays on with ``--resume``. Rewriting the whole record each time costs a
file the size of the match per action, and a match of N actions N² (issue 27: 100 hands of
random bots took 27 s, most of it saving). Here the record at ``PATH`` is written whole
(atomically, as :func:`tricktable.files.write_atomic` writes) only when that is the only way
to say what changed — the first save, anything that is not an addition, the end of the
match — or when its journal has grown as large as the record itself (compaction: each write
of the whole is paid for by as many bytes appended since the last, so saving a match stays
linear in its length). Each addition in between is one line appended to ``PATH.journal``:

- the journal's first line is its head, ``{"journal": "tricktable-journal/2", "base": SHA}``:
  the SHA-256 of the record's bytes it continues, so that a journal left from before the
  record was last written whole (a crash between the two) is known and ignored;
- each next line is one save, one JSON object of what it added, applied in this order:
  ``format`` (``tricktable-record/2``: the record's first note), ``match_notes`` (before the
  first deal), ``faults``, ``deal`` (``{"dealer", "deal"}``: the unfinished hand begins),
  ``actions`` (``["play AS"]``), ``hand_notes`` (notes of the unfinished hand), ``end``
  (``true``: the unfinished hand is over, the last of ``hands`` now; new in ``/2``). A save
  is one line, so a line cut off takes the whole save, never part of it.

Reading (:func:`merged`) applies the lines to the record in order, and the result is the record
the last save was given. A line is written with one ``write``: a process killed while
writing leaves at most the last line torn (no newline at its end), which is ignored with a
one-line note, and the match resumes at the action before it; whatever was written before
is in the kernel's hands and survives the process. A line is flushed to disk (``fsync``) when
it ends a hand, or when the last flush is :data:`SYNC_EVERY` old: a person's every move is
flushed, and a machine that loses its power loses at most the last moments of bots playing
(flushing every one of their thousands of actions cost 3 ms each, more than playing them).
Tables write the record whole when the match ends or the person leaves, then remove the
journal, so a finished match's record is byte for byte what it was before journals
(``json.dumps(record, indent=1)``) and no journal is left beside it.

Two ways in: :class:`RecordFile` is the pair of files, told what to append or to write whole
(:class:`tricktable.records.RecordSaver` tells it from a match's state, by counting what is new,
never looking at the whole); :func:`save` is given the whole record each time and finds what
it adds (a caller that builds a whole record pays for it anyway; it writes whole at a hand's
end, as it always did).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any, Final

from tricktable.errors import RecordError
from tricktable.files import FileProblem, append_bytes, read_bytes, shown, write_atomic

#: the journal's format, named in its head line
JOURNAL_FORMAT: Final = "tricktable-journal/2"
#: the formats read: /1 is /2 without ``end``
JOURNAL_FORMATS: Final = ("tricktable-journal/1", JOURNAL_FORMAT)
#: seconds between two flushes to disk of lines that end no hand
SYNC_EVERY: Final = 1.0
#: a journal is compacted (the record written whole) once it holds more than this many bytes
#: and more than the record; below it, appending is cheaper than any rewrite
COMPACT_FLOOR: Final = 256 * 1024
#: the keys of a record that a journal line may add to; any other change writes it whole
_GROWING: Final = frozenset({"format", "notes", "hands", "unfinished_hand", "faults"})
#: a record's keys in the order :func:`tricktable.records.to_record` writes them
_ORDER: Final = (
    "format", "game", "options", "players", "seed", "notes", "hands", "unfinished_hand", "faults"
)  # fmt: skip
_HAND_ORDER: Final = ("dealer", "deal", "actions", "notes")


def journal_path(path: str | os.PathLike[str]) -> Path:
    """The journal of the record at ``path``: ``PATH.journal`` beside it."""
    target = Path(path)
    return target.with_name(target.name + ".journal")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _line(entry: dict[str, Any]) -> bytes:
    return (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def whole_bytes(record: dict[str, Any]) -> bytes:
    """A record's bytes as it is written whole: indented JSON, one line a value."""
    return (json.dumps(record, indent=1) + "\n").encode("utf-8")


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def _journal_size(path: Path) -> int | None:
    try:
        return os.lstat(path).st_size
    except FileNotFoundError:
        return 0
    except OSError:
        return None


class RecordFile:
    """A record's file and its journal, as this process last wrote them.

    :meth:`append` adds a line only while both are as this process left them (another
    process, or a person, may have written either since: the record is then written whole,
    never appended to what this process did not write). Raises
    :class:`~tricktable.files.FileProblem` as :func:`~tricktable.files.write_atomic` does.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.journal = journal_path(path)
        #: the SHA-256 of the record's bytes as last written whole (None: not yet)
        self._digest: str | None = None
        #: the record file's (size, mtime) when written: changed by another, it is written whole
        self._stamp: tuple[int, int] | None = None
        #: the size of the record as last written whole
        self.size = 0
        #: the journal's length in bytes (0: none yet since the record was written whole)
        self.length = 0
        self._synced = 0.0

    def write(self, record: dict[str, Any]) -> None:
        """Write ``record`` whole (atomically) and remove the journal."""
        payload = whole_bytes(record)
        write_atomic(self.path, payload, "record")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.journal)
        self._stamp = _stamp(self.path)
        # Gone at once (None): nothing to continue from, the next save writes whole again.
        self._digest = _digest(payload) if self._stamp is not None else None
        self.size, self.length = len(payload), 0

    def append(self, entry: dict[str, Any], sync: bool = False) -> bool:
        """Append one save (``entry``, a journal line) with one write; False, with nothing
        written, when the files are not as this process left them (the caller writes the
        record whole). Flushed to disk when ``sync`` or :data:`SYNC_EVERY` since the last."""
        if self._digest is None:
            return False
        if _stamp(self.path) != self._stamp or _journal_size(self.journal) != self.length:
            return False
        head = b"" if self.length else _line({"journal": JOURNAL_FORMAT, "base": self._digest})
        payload = head + _line(entry)
        now = time.monotonic()
        sync = sync or now - self._synced >= SYNC_EVERY
        append_bytes(self.journal, payload, "record journal", fresh=not self.length, sync=sync)
        if sync:
            self._synced = now
        self.length += len(payload)
        return True

    @property
    def crowded(self) -> bool:
        """Whether the journal has grown enough to write the record whole instead."""
        return self.length > max(COMPACT_FLOOR, self.size)


class _Saved:
    """What :func:`save` last saved at one path: to tell an addition from a change."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.file = RecordFile(path)
        self.record: Any = None


_saved: dict[str, _Saved] = {}


def save(record: dict[str, Any], path: str | os.PathLike[str], whole: bool = False) -> None:
    """Save ``record`` at ``path``: what it adds to the last save of this process appended to
    the journal, else (or with ``whole``) the record written whole and the journal removed.

    Raises :class:`~tricktable.files.FileProblem` as :func:`~tricktable.files.write_atomic`.
    """
    key = os.path.abspath(path)
    # A copy as JSON reads it back: the caller may change its dict after (tests do), and
    # tuples compare as the lists a file holds.
    now = json.loads(json.dumps(record))
    last = _saved.get(key)
    if last is None:
        last = _saved[key] = _Saved(path)
    elif not whole and last.record is not None:
        line = _additions(last.record, now)
        if line is not None and not line:
            return  # nothing new
        if line is not None and last.file.append(line):
            last.record = now
            if last.file.crowded:
                last.file.write(now)
            return
    last.file.write(now)
    last.record = now


def _additions(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """The journal line that turns ``before`` into ``after`` (empty: nothing new), or None
    when ``after`` is no mere addition (a hand that ended, a changed header: the record is
    then written whole)."""
    if {k: v for k, v in before.items() if k not in _GROWING} != {
        k: v for k, v in after.items() if k not in _GROWING
    }:
        return None
    if before.get("hands") != after.get("hands"):
        return None
    line: dict[str, Any] = {}
    if before.get("format") != after.get("format"):
        line["format"] = after.get("format")
    for key, kind in (("notes", "match_notes"), ("faults", "faults")):
        added = _grown(before.get(key), after.get(key))
        if added is None:
            return None
        if added:
            line[kind] = added
    was, now = before.get("unfinished_hand"), after.get("unfinished_hand")
    if now is None:
        return line if was is None else None
    if not isinstance(now, dict) or set(now) - set(_HAND_ORDER):
        return None
    if was is None:
        line["deal"] = {"dealer": now.get("dealer"), "deal": now.get("deal")}
        was = {}
    elif was.get("dealer") != now.get("dealer") or was.get("deal") != now.get("deal"):
        return None
    actions = _grown(was.get("actions"), now.get("actions"))
    notes = _grown(was.get("notes"), now.get("notes"))
    if actions is None or notes is None:
        return None
    if actions:
        line["actions"] = actions
    if notes:
        line["hand_notes"] = notes
    return line


def _grown(before: Any, after: Any) -> list[Any] | None:
    """What ``after`` (a list, or absent) adds at the end of ``before``; None if not that."""
    before = [] if before is None else before
    after = [] if after is None else after
    if not isinstance(before, list) or not isinstance(after, list):
        return None
    if after[: len(before)] != before:
        return None
    return after[len(before) :]


def merged(
    record: dict[str, Any], data: bytes, path: str | os.PathLike[str]
) -> tuple[dict[str, Any], list[str]]:
    """The record read from ``data`` (the bytes of the record at ``path``) with its journal
    applied, and the notes to show (a torn last line ignored, an old journal ignored).

    No journal: the record as it is. A line that is whole but wrong is a :class:`RecordError`
    naming it: a journal is written by tricktable only, so a damaged one is not guessed at.
    """
    journal = journal_path(path)
    try:
        text = read_bytes(journal, "record journal")
    except FileProblem:
        if not os.path.lexists(journal):
            return record, []
        raise
    notes: list[str] = []
    lines = text.split(b"\n")
    torn = lines.pop()  # after the last newline: empty unless the last write was cut
    if torn:
        notes.append(
            f"{shown(journal)}: its last line was cut off while being written "
            f"({len(torn)} bytes); ignored: the match resumes before it"
        )
    if not lines:
        return record, notes
    try:
        head = json.loads(lines[0])
    except (json.JSONDecodeError, UnicodeDecodeError):
        head = None
    if not isinstance(head, dict) or head.get("journal") not in JOURNAL_FORMATS:
        raise RecordError(f"{shown(journal)} line 1: not the head of a record journal")
    if head.get("base") != _digest(data):
        notes.append(f"{shown(journal)}: older than its record (written whole since); ignored")
        return record, notes
    out = json.loads(json.dumps(record))
    for number, raw in enumerate(lines[1:], 2):
        try:
            entry = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise RecordError(f"{shown(journal)} line {number}: not JSON") from None
        why = _apply(out, entry)
        if why:
            raise RecordError(f"{shown(journal)} line {number}: {why}")
    return _ordered(out), notes


#: a journal line's keys, in the order they are applied
_PARTS: Final = ("format", "match_notes", "faults", "deal", "actions", "hand_notes", "end")


def _apply(record: dict[str, Any], entry: Any) -> str:
    """Apply one journal line to ``record``; what is wrong with it, or ''."""
    if not isinstance(entry, dict) or not entry:
        return "expected an object of what a save added"
    unknown = set(entry) - set(_PARTS)
    if unknown:
        return f"unknown entry {min(unknown)[:40]!r}"
    for kind in ("match_notes", "faults", "actions", "hand_notes"):
        if kind in entry and not isinstance(entry[kind], list):
            return f"{kind.replace('_', ' ')} must be a list"
    if "format" in entry:
        record["format"] = entry["format"]
    if "match_notes" in entry:
        record.setdefault("notes", []).extend(entry["match_notes"])
    if "faults" in entry:
        record.setdefault("faults", []).extend(entry["faults"])
    hand = record.get("unfinished_hand")
    if "deal" in entry:
        deal = entry["deal"]
        if hand is not None:
            return "a deal while a hand is unfinished"
        if not isinstance(deal, dict):
            return "a deal must be an object"
        hand = record["unfinished_hand"] = {
            "dealer": deal.get("dealer"), "deal": deal.get("deal"), "actions": []
        }  # fmt: skip
    if "actions" in entry or "hand_notes" in entry:
        if not isinstance(hand, dict) or not isinstance(hand.get("actions"), list):
            return "actions or notes with no hand dealt"
        hand["actions"].extend(entry.get("actions", ()))
        if entry.get("hand_notes"):
            hand.setdefault("notes", []).extend(entry["hand_notes"])
    if "end" in entry:
        if entry["end"] is not True:
            return "end must be true"
        if not isinstance(hand, dict) or not isinstance(record.get("hands"), list):
            return "the end of a hand with no hand dealt"
        record["hands"].append(_ordered_hand(record.pop("unfinished_hand")))
    return ""


def _ordered(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its keys in the order a record is written (its hand's too)."""
    out: dict[str, Any] = {k: record[k] for k in _ORDER if k in record}
    out.update((k, v) for k, v in record.items() if k not in out)
    hand = out.get("unfinished_hand")
    if isinstance(hand, dict):
        out["unfinished_hand"] = _ordered_hand(hand)
    return out


def _ordered_hand(hand: dict[str, Any]) -> dict[str, Any]:
    """A hand with its keys in the order a record's hand is written."""
    ordered: dict[str, Any] = {k: hand[k] for k in _HAND_ORDER if k in hand}
    ordered.update((k, v) for k, v in hand.items() if k not in ordered)
    return ordered


def forget(path: str | os.PathLike[str]) -> None:
    """Forget what this process saved at ``path`` (its next save is written whole)."""
    _saved.pop(os.path.abspath(path), None)


__all__ = [
    "JOURNAL_FORMAT",
    "RecordFile",
    "forget",
    "journal_path",
    "merged",
    "save",
    "whole_bytes",
]
