"""What a finished hand came to: the typed result a game's ``_score_hand()`` returns.

Each game declares a subclass of :class:`HandResult` beside it (``games/<game>_results.py``)
with typed fields — seats, counts, suits and cards as ints — that the statistics, the table
and the bots read. ``to_dict()`` is the result as records, ``tricktable replay --json``, the
stdio and HTTP protocols and the events carry it: the JSON shape written before the results
were typed, key for key and in the same order, so that no record or transcript changes.

Results are frozen dataclasses with slots, made once per hand and then only read, their
sequences tuples and their maps read-only: the state keeps them, and bots get the same
objects (``view.results``, ``end_hand``, the ``hand_scored`` event), so that nothing a bot
does to one changes the match or what another seat is told. Frozen costs a few hundred
nanoseconds a hand (``__init__`` sets each field through ``object.__setattr__``). They are
plain Python on purpose: the compiled game modules only build one per hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True, kw_only=True, frozen=True)
class HandResult:
    """The result of one finished hand; this base holds what every game's result has.

    ``scores`` are the match scores after the hand, by side (a partnership, or a seat in games
    without partners), in the order of ``state.scores``.
    """

    scores: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The result as records and protocols carry it (JSON-ready; a new dict each call)."""
        return {"scores": list(self.scores)}

    def shared_win(self) -> tuple[int, ...]:
        """The sides sharing the match's win if this hand ended it shared (Oh Hell), else ``()``."""
        return ()
