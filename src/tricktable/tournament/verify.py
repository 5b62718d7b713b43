"""Checking a unit's result before it is stored: its record replayed on the scheduled deals.

A worker that is not ours — a process that joined a cluster, a tampered or buggy worker —
could send back any :class:`~tricktable.tournament.play.Played`. The storing process trusts
none of it: :func:`refusal` replays the record (every action checked by the engine), deals
each hand again from the unit's seed and compares it with the record's, and computes the
result from the replayed match; a result that differs in anything is refused, with the reason.

What replay cannot tell is whether each seat's actions are what its bot would have chosen: a
worker that runs code of its own can play other legal cards. Keeping strangers out of the
workers is the cluster's TLS (:mod:`tricktable.tournament.cluster`); this check is what stops
a result that is not a legal match of the scheduled deals, or not the one its result claims.
"""

from __future__ import annotations

import json
from typing import Any

from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.records import replay
from tricktable.runner import BOT_LABEL, MatchResult
from tricktable.tournament.play import Played
from tricktable.tournament.schedule import Unit

#: the fields of a stored result that the replayed match decides
RESULT_FIELDS = ("status", "scores", "winner", "shared", "hands", "forfeited_by")


def refusal(unit: Unit, played: Played) -> str | None:
    """Why ``played`` is not a true result of ``unit`` (one line), or None when it is."""
    try:
        return _refusal(unit, played)
    except (TricktableError, ValueError, TypeError, KeyError, AttributeError) as exc:
        return f"its record does not replay ({_short(exc)})"


def _refusal(unit: Unit, played: Played) -> str | None:
    if not isinstance(played, Played):
        return f"it is a {type(played).__name__}, not a unit's result"
    mine = (unit.key, unit.group, unit.deal, unit.table, unit.entrants, unit.seed)
    theirs = (played.key, played.group, played.deal, played.table, played.entrants, played.seed)
    if mine != theirs:
        return "it names another unit, seating or seed than the one scheduled"
    if not isinstance(played.record, str) or not isinstance(played.result, dict):
        return "its record or its result is not what a worker sends"
    record = json.loads(played.record)
    if not isinstance(record, dict):
        return "its record is not a JSON object"
    if record.get("players") != [BOT_LABEL + p for p in unit.players]:
        return "its record names other players than the unit's"
    if record.get("seed") != unit.seed:
        return "its record has another seed than the unit's"
    state = replay({k: v for k, v in record.items() if k != "faults"})
    game = load_game(unit.game)
    if state.game.spec() != game.spec():
        return f"its record plays {state.game.spec()}, the unit {game.spec()}"
    wrong = _other_deal(state, game, unit.seed)
    if wrong is not None:
        return wrong
    replayed = MatchResult.of(state)
    # A match is stopped by its hand limit only, and then with every hand dealt scored: one
    # cut short anywhere else (as an engine failure would) could be cut where it suits.
    if replayed.status == "stopped" and not replayed.hands == replayed.dealt == unit.max_hands:
        return (
            f"its match stops after {replayed.hands} finished hand(s) of {replayed.dealt} "
            f"dealt, not at its end nor after its {unit.max_hands} hand(s)"
        )
    claimed = played.result
    computed: dict[str, Any] = {
        "status": replayed.status,
        "scores": list(replayed.scores),
        "winner": replayed.winner,
        "shared": replayed.shared,
        "hands": replayed.hands,
        "forfeited_by": replayed.forfeited_by,
    }
    for name in RESULT_FIELDS:
        if claimed.get(name) != computed[name]:
            return (
                f"its result says {name} {_short(claimed.get(name))}, "
                f"its record {_short(computed[name])}"
            )
    if claimed.get("group") != unit.group:
        return "its result names another group than the unit's"
    return None


def _other_deal(state: Any, game: Any, seed: int) -> str | None:
    """The first hand of ``state`` (a replayed record) not dealt as the seed deals it, in words,
    or None: each hand is dealt again from ``seed`` and played on with the record's actions."""
    scheduled = game.new_state(seed)
    hands = state.history
    for h, log in enumerate(hands):
        scheduled.deal()
        dealt = scheduled.history[h]
        if (dealt.dealer, list(dealt.deal), list(dealt.stock)) != (
            log.dealer,
            list(log.deal),
            list(log.stock),
        ):
            return f"hand {h + 1} of its record is not the deal its seed gives"
        if h + 1 < len(hands):
            for action in log.actions:
                scheduled.apply(action)
    return None


def _short(value: object, limit: int = 80) -> str:
    """A value or an error on one short line."""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
