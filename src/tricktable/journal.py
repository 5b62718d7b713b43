"""A saved match's journal: each action appended to a file beside its record, not the whole
record rewritten after every action.

A table saves its record after every action (the TUI, the line terminal), so that a match
killed in the middle plays on with ``--resume``. Rewriting the whole record each time costs a
file the size of the match per action; here the record at ``PATH`` is written whole (atomically,
as :func:`tricktable.files.write_atomic` writes) only when that is the only way to say what
changed — the first save, a hand that ends, anything that is not an addition — and each
addition in between is one line appended to ``PATH.journal``:

- the journal's first line is its head, ``{"journal": "tricktable-journal/1", "base": SHA}``:
  the SHA-256 of the record's bytes it continues, so that a journal left from before the
  record was last written whole (a crash between the two) is known and ignored;
- each next line is one save, one JSON object of what it added: ``deal`` (``{"dealer",
  "deal"}``: the unfinished hand begins), ``actions`` (``["play AS"]``), ``hand_notes`` (notes
  of the unfinished hand), ``match_notes`` (before the first deal), ``faults``, ``format``
  (``tricktable-record/2``: the record's first note). A save is one line, so a line cut off
  takes the whole save, never part of it.

Reading (:func:`merged`) applies the lines to the record in order, and the result is the record
the last save was given. A line is written with one ``write`` and flushed to disk; a
process killed while writing leaves at most the last line torn (no newline at its end), which
is ignored with a one-line note: the match resumes at the action before it. When a hand ends
the record is written whole, then the journal removed, so a finished match's record is
byte for byte what it was before journals (``json.dumps(record, indent=1)``) and no journal
is left beside it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Final

from tricktable.errors import RecordError
from tricktable.files import FileProblem, append_bytes, read_bytes, shown, write_atomic

#: the journal's format, named in its head line
JOURNAL_FORMAT: Final = "tricktable-journal/1"
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


class _Saved:
    """What this process last saved at one path: to tell an addition from a change."""

    def __init__(self, record: Any, digest: str, stamp: tuple[int, int]) -> None:
        self.record = record
        self.digest = digest
        #: the record file's (size, mtime) when written: changed by another, it is written whole
        self.stamp = stamp
        #: the journal's length in bytes (0: none yet since the record was written whole)
        self.journal = 0


_saved: dict[str, _Saved] = {}


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


def save(record: dict[str, Any], path: str | os.PathLike[str], whole: bool = False) -> None:
    """Save ``record`` at ``path``: what it adds to the last save of this process appended to
    the journal, else (or with ``whole``) the record written whole and the journal removed.

    Raises :class:`~tricktable.files.FileProblem` as :func:`~tricktable.files.write_atomic`.
    """
    target = Path(path)
    key = os.path.abspath(target)
    # A copy as JSON reads it back: the caller may change its dict after (tests do), and
    # tuples compare as the lists a file holds.
    data = json.dumps(record, indent=1) + "\n"
    now = json.loads(data)
    last = _saved.get(key)
    line = None if whole or last is None else _additions(last.record, now)
    journal = journal_path(target)
    if line is not None and last is not None:
        if not line:
            return  # nothing new
        if _stamp(target) == last.stamp and _journal_size(journal) == last.journal:
            head = b"" if last.journal else _line({"journal": JOURNAL_FORMAT, "base": last.digest})
            payload = head + _line(line)
            append_bytes(journal, payload, "record journal", fresh=not last.journal)
            last.journal += len(payload)
            last.record = now
            return
    payload = data.encode("utf-8")
    write_atomic(target, payload, "record")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal)
    stamp = _stamp(target)
    if stamp is None:  # gone at once: nothing to continue from
        _saved.pop(key, None)
        return
    _saved[key] = _Saved(now, _digest(payload), stamp)


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
    if not isinstance(head, dict) or head.get("journal") != JOURNAL_FORMAT:
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
_PARTS: Final = ("format", "match_notes", "faults", "deal", "actions", "hand_notes")


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
    return ""


def _ordered(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its keys in the order a record is written (its hand's too)."""
    out: dict[str, Any] = {k: record[k] for k in _ORDER if k in record}
    out.update((k, v) for k, v in record.items() if k not in out)
    hand = out.get("unfinished_hand")
    if isinstance(hand, dict):
        ordered: dict[str, Any] = {k: hand[k] for k in _HAND_ORDER if k in hand}
        ordered.update((k, v) for k, v in hand.items() if k not in ordered)
        out["unfinished_hand"] = ordered
    return out


def forget(path: str | os.PathLike[str]) -> None:
    """Forget what this process saved at ``path`` (its next save is written whole)."""
    _saved.pop(os.path.abspath(path), None)


__all__ = ["JOURNAL_FORMAT", "forget", "journal_path", "merged", "save"]
