"""Match records (``tricktable-record/1``): write them from a state, read and replay them.

Replay uses the engine's one path: deal each recorded hand, apply each recorded action.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from tricktable.cards import card_name, parse_card
from tricktable.engine.trick import HandLog, TrickState, deal_lists
from tricktable.errors import NotationError, RecordError, TricktableError
from tricktable.games import load_game

FORMAT = "tricktable-record/1"


def to_record(
    state: TrickState,
    players: Sequence[str] | None = None,
    faults: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The record of a match so far (hands in progress included as far as they went)."""
    game = state.game
    record: dict[str, Any] = {"format": FORMAT, "game": game.preset, "options": game.options_dict()}
    if players is not None:
        record["players"] = list(players)
    if state.seed is not None:
        record["seed"] = state.seed
    logs = state.history
    partial = None
    # A hand without a result is unfinished: cut short (Ctrl-C), or ended by a forfeit.
    if logs and len(state.results) < len(logs):
        logs, partial = logs[:-1], logs[-1]
    record["hands"] = [_hand_record(state, log) for log in logs]
    if partial is not None:
        # A record holds complete hands only; a hand cut short (Ctrl-C) is kept beside them.
        record["unfinished_hand"] = _hand_record(state, partial)
    if faults:
        # What the referee decided (see tricktable.match.Referee): kept, not replayed.
        record["faults"] = [dict(fault) for fault in faults]
    return record


def _hand_record(state: TrickState, log: HandLog) -> dict[str, Any]:
    game = state.game
    return {
        "dealer": log.dealer,
        "deal": [[card_name(c) for c in hand] for hand in deal_lists(log.deal)]
        + ([[card_name(c) for c in log.stock]] if game.records_stock else []),
        "actions": [game.action_name(a) for a in log.actions],
    }


def save_record(record: dict[str, Any], path: str | Path) -> None:
    """Write a record as indented JSON (atomically, so a crash never leaves half a file)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    tmp.replace(target)


def load_record(source: str | Path | IO[str]) -> dict[str, Any]:
    """Read a record's JSON from a path, ``-`` (standard input) or an open file."""
    try:
        if hasattr(source, "read"):
            text = source.read()
        elif str(source) == "-":
            import sys

            text = sys.stdin.read()
        else:
            text = Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {source}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{source} is not UTF-8 text") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise RecordError("malformed JSON: nested too deeply") from None
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    return record


def replay(record: dict[str, Any], game_spec: str | None = None) -> TrickState:
    """Rebuild the state a record describes, checking every action; raises RecordError.

    ``game_spec`` replays the deals and actions under another game or other options than the
    record names (``--game``: is this match legal under these rules, and how does it score?).
    """
    if game_spec is not None:
        try:
            other = load_game(game_spec)
        except TricktableError as exc:
            raise RecordError(str(exc)) from None
        record = {**record, "game": other.preset, "options": other.options_dict()}
    fmt = record.get("format")
    if fmt != FORMAT:
        raise RecordError(f"unknown format {fmt!r}; expected {FORMAT!r}")
    game_name = record.get("game")
    if not isinstance(game_name, str):
        raise RecordError("missing or bad 'game': expected a game name")
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("bad 'options': expected an object")
    try:
        game = load_game(game_name, options=options)
    except TricktableError as exc:
        raise RecordError(str(exc)) from None
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("missing or bad 'hands': expected a list")
    seed = record.get("seed")
    state = game.new_state(seed if isinstance(seed, int) else None)
    for h, hand in enumerate(hands):
        _replay_hand(state, h, hand)
    seat = _forfeit_seat(record, game.num_players)
    if seat is not None and not state.is_over:
        from tricktable.match import forfeit

        forfeit(state, seat)  # the match ended there: the forfeiting side lost
    return state


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


def _replay_hand(state: TrickState, h: int, hand: Any) -> None:
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
        raise RecordError(f"bad dealer {dealer!r}: expected a seat 0..{game.num_players - 1}", h)
    if not isinstance(deal, list) or not all(isinstance(x, list) for x in deal):
        raise RecordError("bad 'deal': expected a list of card lists", h)
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("bad 'actions': expected a list of strings", h)
    try:
        cards = [[parse_card(c) if isinstance(c, str) else _bad_card(c) for c in d] for d in deal]
        masks, stock = state.check_deal(cards)
    except RecordError as exc:
        raise RecordError(str(exc), h) from None
    except NotationError as exc:
        raise RecordError(str(exc), h) from None
    state.deal(masks, dealer=dealer, stock=stock)
    for a, text in enumerate(actions):
        if state.needs_deal or state.is_over:
            raise RecordError(f"the hand is over; {text!r} is one action too many", h, a)
        try:
            state.apply(game.parse_action(text))
        except TricktableError as exc:
            raise RecordError(str(exc), h, a) from None
    if not (state.needs_deal or state.is_over):
        raise RecordError(
            f"the hand stops before its end; seat {state.to_act} is still to act", h, len(actions)
        )


def _bad_card(value: object) -> int:
    raise NotationError(f"unknown card {value!r}")


def result_of(state: TrickState) -> dict[str, Any]:
    """The replay result: each hand's result and the winner (None if unfinished)."""
    return {"hands": list(state.results), "winner": state.winner}
