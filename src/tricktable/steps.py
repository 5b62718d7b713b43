"""A match's journal as steps: what every table journals, and what replays it.

A match is its seed and the changes made to it, in order. Each change is a *step*, a short
JSON list; a journal is their sequence, and replaying it from the seed (:func:`apply_step`)
rebuilds the match — its state, its events and its faults — exactly as it was played:

- ``["begin", match_no, seed, nonce, commitment]``: a match begins (the seed as text); it
  changes nothing of a state, and tells a reader the seed to deal from;
- ``["deal"]``: the next hand dealt from the match's seed; ``["deal", dealer, hands,
  stock]``: dealt as given (duplicate play, an uploaded record) — each seat's cards and
  the stock by name (masks as numbers would pass 2**53, past what JSON keeps exactly);
  ``["deal", masks, dealer, stock_masks]``, the first journals' form, is still read;
- ``["act", seat, code]`` (``["act", seat, code, id]``: a person's act and its id, which
  the server keeps to apply a retried act once);
- ``["chat", seat, text]``, ``["substitute", seat, label]``, ``["forfeit", seat]``: the
  state's notes;
- ``["fault", {hand, action, seat, kind, detail, penalty}]``: the referee's record of a bot's
  fault (:class:`tricktable.match.Referee`); its penalty — a bad card, a substitute, a
  forfeit — is in the steps beside it, so replaying a fault only keeps it and tells the
  match's events, as the referee told them.

:class:`StepMark` makes the steps of whatever changed since it last looked — from the state
and the referee's faults, never from a copy of the match — so that every table journals the
same way: a web table's rows (:mod:`tricktable.web.room`), and a record turned into steps
(:func:`record_steps`: uploads, the replay page).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktable.cards import card_name, parse_card
from tricktable.engine.log import deal_lists
from tricktable.engine.trick import TrickState
from tricktable.errors import TricktableError
from tricktable.match import emit_fault

__all__ = ["StepMark", "apply_step", "deal_step", "record_steps"]


def apply_step(
    state: TrickState, step: Sequence[Any], faults: list[dict[str, Any]] | None = None
) -> None:
    """Replay one step on ``state`` (see the module); a ``fault`` is added to ``faults`` (if
    given) and told to the state's events. A step that does not apply raises the engine's
    error (an illegal action, a deal out of turn) or :class:`TricktableError`."""
    what = step[0]
    if what == "act":
        state.apply(step[2])
    elif what == "deal":
        if len(step) == 1:
            state.deal()
        elif isinstance(step[1], int):
            hands = [_mask(cards) for cards in step[2]]
            state.deal(hands, dealer=step[1], stock=[parse_card(c) for c in step[3]])
        else:
            state.deal(list(step[1]), dealer=step[2], stock=list(step[3]))
    elif what == "chat":
        state.chat(step[1], step[2])
    elif what == "substitute":
        state.substitute(step[1], step[2])
    elif what == "forfeit":
        state.forfeit(step[1])
    elif what == "fault":
        record = dict(step[1])
        if faults is not None:
            faults.append(record)
        emit_fault(state, record)
    elif what != "begin":
        raise TricktableError(f"unknown journal step {str(what)[:40]!r}")


def deal_step(state: TrickState, h: int) -> list[Any]:
    """The step that deals hand ``h`` of ``state`` as it was dealt (its cards by name)."""
    log = state.history[h]
    hands = [[card_name(c) for c in cards] for cards in deal_lists(log.deal)]
    return ["deal", log.dealer, hands, [card_name(c) for c in log.stock]]


class StepMark:
    """What a journal holds of one match so far, counted: :meth:`steps` makes the steps of
    what changed since (``explicit`` deals write each hand's cards, :func:`deal_step`;
    otherwise a deal is the seed's next, ``["deal"]``)."""

    __slots__ = ("acts", "explicit", "faults", "hands", "notes")

    def __init__(self, state: TrickState | None, faults: int = 0, explicit: bool = False) -> None:
        self.explicit = explicit
        history = state.history if state is not None else []
        self.hands = len(history)
        self.acts = len(history[-1].actions) if history else 0
        self.notes = len(state.notes) if state is not None else 0
        self.faults = faults

    def steps(self, state: TrickState, faults: Sequence[dict[str, Any]] = ()) -> list[list[Any]]:
        """The steps of what ``state`` (and the referee's ``faults``) hold beyond what this
        counted, in the order they happened; the count moves on to them.

        Notes fall where they were made (a chat line before the action it preceded); the
        faults come last, as the referee records a fault after applying its penalty.
        """
        history = state.history
        hands, acts = self.hands, self.acts
        items: list[tuple[tuple[int, int, int, int], list[Any]]] = []
        for h in range(max(hands - 1, 0), len(history)):
            log = history[h]
            start = acts if h == hands - 1 else 0
            if h >= hands:
                items.append(((h, -1, 0, 0), deal_step(state, h) if self.explicit else ["deal"]))
            for i in range(start, len(log.actions)):
                items.append(((h, i, 1, 0), ["act", log.actors[i], log.actions[i]]))
        notes = state.notes
        for k in range(self.notes, len(notes)):
            note = notes[k]
            if note.kind == "chat":
                step: list[Any] = ["chat", note.seat, note.text]
            elif note.kind == "substitute":
                step = ["substitute", note.seat, note.text]
            elif note.kind == "forfeit":
                step = ["forfeit", note.seat]
            else:
                continue
            items.append(((note.hand, note.at, 0, k), step))
        items.sort(key=lambda item: item[0])
        out = [step for _, step in items]
        out += [["fault", dict(fault)] for fault in faults[self.faults :]]
        self.hands = len(history)
        self.acts = len(history[-1].actions) if history else 0
        self.notes = len(notes)
        self.faults = max(self.faults, len(faults))
        return out


def record_steps(state: TrickState, faults: Sequence[dict[str, Any]] = ()) -> list[list[Any]]:
    """Every step of a match (``state``, replayed from its record), each hand dealt as
    given (:func:`deal_step`): what a record journals as."""
    mark = StepMark(state.game.new_state(state.seed), explicit=True)
    return mark.steps(state, faults)


def _mask(names: Sequence[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask
