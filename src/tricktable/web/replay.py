"""A web table's finished match as the seat model's snapshots, every hand face up, by step.

The replay page draws what the server gives it and rebuilds nothing: :class:`MatchSteps` cuts
the match's journal (the same rows :func:`~tricktable.web.records.match_record` makes the
record of) into *steps* — each deal, each action, each forfeit or substitution, the state after
it — with an index of where each hand and each trick begins; :meth:`MatchSteps.snapshot`
replays the journal to one step, with the engine's event log listening, and returns
``snapshot_of(state, EVERYONE, ...)`` there: contract, trump, bids, tally, scores and every
hand, as the table showed them, plus the result of each hand and the winners at the end.

One step a request: a snapshot of a 4-seat game is a few KiB, and a 13-card Hearts match has
well over a thousand steps (megabytes at once); the index (a few bytes a step) comes once.
Building one step replays the match up to it (engine steps are microseconds; the snapshot is
made once), so the server keeps no snapshots, only each finished match's cut journal, a
few (:data:`KEPT`) at a time.

A journal row is data: replaying one deals from the match's seed and applies actions by code,
as the table did; nothing in it names a program. An uploaded record (:mod:`tricktable.web.
uploads`) is cut the same way from the rows :func:`record_journal` makes of it: its deals are
the record's own (``["deal", cards, dealer, stock]``), not the seed's.

Each action's step is kept by (hand, action in the hand) — :attr:`MatchSteps.acts` — so that
the analysis of a decision (:mod:`tricktable.web.analysis`) names the step that shows it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from tricktable.engine.phases import PLAY
from tricktable.engine.trick import Game, TrickState
from tricktable.errors import TricktableError
from tricktable.records import replay
from tricktable.seat import EVERYONE, snapshot_of
from tricktable.seat.choices import action_label
from tricktable.steps import apply_step, record_steps
from tricktable.web.store import JournalRow, WebStore

if TYPE_CHECKING:
    from tricktable.web.room import Room

#: the finished matches kept cut into steps (by table and match), the latest used last
KEPT: Final = 16
#: the journal steps that change the match (a chat changes nothing a snapshot draws)
MOVES: Final = frozenset({"deal", "act", "forfeit", "substitute"})


class MatchSteps:
    """The steps of one finished match: its journal ``rows``, dealt from the seed its
    ``begin`` step names (``seed`` if none), the seats called ``names`` and of ``kinds``.

    A journal that does not replay raises :class:`TricktableError` here, not later.
    """

    def __init__(
        self,
        game: Game,
        rows: Sequence[JournalRow],
        seed: int,
        names: Sequence[str],
        kinds: Sequence[str],
    ) -> None:
        self.game = game
        self.names = list(names)
        self.kinds = list(kinds)
        self.seed = seed
        #: every journal step of the match, in order (its ``begin`` left out)
        self.journal: list[list[Any]] = []
        for row in rows:
            for step in row.steps:
                if step and step[0] == "begin":
                    self.seed = int(step[2])
                elif step:
                    self.journal.append(list(step))
        #: per step: how many journal steps make it (the state after the last of them)
        self.ends: list[int] = []
        #: per step: {"step", "hand", "trick", "label"} (hand and trick count from 1;
        #: trick 0 is before the play)
        self.index: list[dict[str, Any]] = []
        #: the steps a hand step stops at (each deal) and a trick step stops at (each deal,
        #: the end of the bidding, each trick taken, the last step)
        self.hand_stops: list[int] = []
        self.trick_stops: list[int] = []
        #: the step of each action, by (hand, from 0; the action's place in the hand, from 0)
        self.acts: dict[tuple[int, int], int] = {}
        state = game.new_state(self.seed)
        for j, step in enumerate(self.journal):
            tricks, playing = len(state.tricks), state.phase == PLAY
            try:
                apply_step(state, step)
            except (TricktableError, IndexError, TypeError, ValueError) as exc:
                raise TricktableError(f"the match's journal does not replay at {j}: {exc}") from exc
            if step[0] not in MOVES:
                continue
            k = len(self.ends)
            self.ends.append(j + 1)
            if step[0] == "deal":
                self.hand_stops.append(k)
                self.trick_stops.append(k)
            elif len(state.tricks) > tricks or (state.phase == PLAY and not playing):
                self.trick_stops.append(k)
            if step[0] == "act" and state.history:
                self.acts[(len(state.history) - 1, len(state.history[-1].actions) - 1)] = k
            self.index.append(
                {
                    "step": k,
                    "hand": len(state.history),
                    "trick": _trick_number(state),
                    "label": self._label(step, state),
                }
            )
        if not self.ends:
            raise TricktableError("the match has no deal to replay")
        self.last = len(self.ends) - 1
        if self.trick_stops[-1] != self.last:
            self.trick_stops.append(self.last)
        #: whether the journal plays the match to its end
        self.over = bool(state.is_over)

    def _label(self, step: list[Any], state: TrickState) -> str:
        """What step ``step`` did, in a few words (the page's position line)."""
        what = step[0]
        if what == "deal":
            return f"hand {len(state.history)} dealt by {self._name(state.dealer)}"
        who = self._name(step[1])
        if what == "act":
            return f"{who}: {_said(self.game, step[2])}"
        if what == "forfeit":
            return f"{who} forfeits"
        return f"{who} is replaced by a bot"

    def _name(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "the table"

    def to_json(self) -> dict[str, Any]:
        """The index the page reads once: every step's hand, trick and label, and the stops."""
        return {
            "last": self.last,
            "steps": self.index,
            "hand_stops": self.hand_stops,
            "trick_stops": self.trick_stops,
            "names": self.names,
            "over": self.over,
        }

    def snapshot(self, k: int) -> dict[str, Any]:
        """Everyone's snapshot after step ``k`` (0 ≤ k ≤ :attr:`last`)."""
        if not 0 <= k <= self.last:
            raise TricktableError(f"no step {k}: this match has steps 0 to {self.last}")
        state = self.game.new_state(self.seed)
        state.listen()
        for step in self.journal[: self.ends[k]]:
            apply_step(state, step)
        snap = snapshot_of(state, EVERYONE, self.names, k, kinds=self.kinds, names=self.names)
        snap["everyone"] = True
        return snap


def _trick_number(state: TrickState) -> int:
    """The trick being played in the hand now, counting from 1 (0: before the play); the
    last trick's number once the hand is over."""
    if state.phase == PLAY:
        return len(state.tricks) + 1
    return len(state.tricks)


class Replays:
    """The finished matches cut into steps, by (table, match): the last :data:`KEPT` used."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, int], MatchSteps] = OrderedDict()

    def get(self, key: tuple[str, int]) -> MatchSteps | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: tuple[str, int], steps: MatchSteps) -> None:
        self._kept[key] = steps
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)


def seat_kinds(seats: Sequence[dict[str, Any]]) -> list[str]:
    """Each seat's kind in a snapshot's words (an open seat played by nobody: a person)."""
    known = ("person", "bot", "character")
    return [str(s["kind"]) if s.get("kind") in known else "person" for s in seats]


async def replay_answer(
    store: WebStore, room: Room, replays: Replays, query: Mapping[str, str]
) -> tuple[int, dict[str, Any]]:
    """The replay route's answer for ``room`` (``GET /api/tables/{id}/replay``): its HTTP
    status and JSON body. ``?match=N`` (the current match if none): the match's index of
    steps; with ``&step=K``, step ``K``'s snapshot with its index entry. A match not over is
    409, as its record: no snapshot of a match being played leaves the server here."""
    raw = query.get("match")
    match_no = room.match_no
    if raw is not None:
        if not _whole(raw) or not 1 <= int(raw) <= room.match_no:
            return 404, {"error": f"no match {raw[:10]!r} at this table"}
        match_no = int(raw)
    if match_no == room.match_no and room.status != "over":
        return 409, {"error": "the match is being played: its replay comes when it is over"}
    key = (room.id, match_no)
    steps = replays.get(key)
    if steps is None:
        rows = store.journal(room.id, match_no)
        steps = MatchSteps(room.game, rows, room.seed, room.names, seat_kinds(room.seats))
        if not steps.over:
            return 409, {"error": "that match did not end: it has no replay"}
        replays.put(key, steps)
    head: dict[str, Any] = {"table": room.id, "match": match_no, "last": steps.last}
    from tricktable.web.analysis import service_of  # it cuts matches with this module

    if service_of(store) is not None:
        # The page asks for an analysis only where the server has its routes.
        head["analysis"] = f"/api/tables/{room.id}/analysis?match={match_no}"
    return await steps_answer(steps, head, room.info()["title"], query)


async def steps_answer(
    steps: MatchSteps, head: dict[str, Any], title: str, query: Mapping[str, str]
) -> tuple[int, dict[str, Any]]:
    """A replay's answer from its ``steps``: the index (with ``title``) without ``?step=``,
    else that step's snapshot; ``head`` leads either (which match of what this is)."""
    raw_step = query.get("step")
    if raw_step is None:
        return 200, {**head, "title": title, **steps.to_json()}
    if not _whole(raw_step) or not 0 <= int(raw_step) <= steps.last:
        return 404, {"error": f"no step {raw_step[:10]!r}: the steps are 0 to {steps.last}"}
    k = int(raw_step)
    # A fresh state replayed off the loop: a long match's last step takes a few tens of ms.
    snap = await asyncio.to_thread(steps.snapshot, k)
    return 200, {**head, **steps.index[k], "snapshot": snap}


def record_journal(record: dict[str, Any]) -> tuple[Game, list[JournalRow], int, list[str]]:
    """A match record as one journal row for :class:`MatchSteps`: its game, the row, its
    seed and its players' names. The record is checked whole first
    (:func:`~tricktable.records.replay`: a :class:`~tricktable.errors.RecordError` saying
    the first thing wrong); each hand is dealt as the record says, its notes (chat, a
    substitution, a forfeit) where they came (:func:`~tricktable.steps.record_steps`)."""
    final = replay(record)
    game = final.game
    steps = record_steps(final)
    names = record.get("players")
    if not (isinstance(names, list) and len(names) == game.num_players):
        names = [f"seat {s}" for s in range(game.num_players)]
    seed = final.seed if isinstance(final.seed, int) else 0
    return game, [JournalRow(1, 1, steps)], seed, [str(n) for n in names]


def _said(game: Game, action: int) -> str:
    """An action in words: "play eight of clubs", "bid 3", "pass queen of spades, ..."."""
    label = action_label(game, action)
    return f"play {label}" if 0 <= action < 64 else label


def _whole(text: str) -> bool:
    """Whether a query's ``text`` is a whole number ``int`` reads: ASCII digits, not too many
    (``"²".isdigit()`` is true and ``int`` refuses it; so it does 5,000 digits)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


__all__ = [
    "KEPT",
    "MatchSteps",
    "Replays",
    "record_journal",
    "replay_answer",
    "seat_kinds",
    "steps_answer",
]
