"""``tricktable bot-check``: the bot author's tool — quick matches, every protocol error shown.

The bot under test (``cmd:PROGRAM``, an ``http(s)://`` URL, a ``path/to/bot.py:Class`` or
``package.module:Class`` spec, or an installed bot's name) plays ``matches`` matches against
reference bots, taking each seat in turn. Matches run through the runner every command uses
(:func:`tricktable.runner.run_match`), with the bot under test a player spec like any other:
the runner makes its bot and the match loop talks to it exactly as under ``play`` — the same
messages, events, time limits and penalties. bot-check only listens beside the loop; it adds
where each fault happened (match, hand, trick, action, rebuilt from the match's record), what
the bot sent and what was expected, and times every answer.

Exit status: 0 when the bot made no fault, 1 when it made any, 2 for bad usage (an unknown
game, a target that cannot be built), 3 when the engine failed (a bug, not the bot's fault).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from typing import Any, TextIO

from tricktable.bots import make_bot
from tricktable.cli import fail
from tricktable.engine.trick import PLAY, Game, TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.records import replay
from tricktable.runner import MatchSpec, MatchStopped, run_match
from tricktable.seeds import derive_seed


class EngineBroke(RuntimeError):
    """The engine failed during a check (a bug, not the bot's): the check stops."""


class Watch:
    """What bot-check sees of the bot under test in one match, from beside it: the match
    loop's listener (every action, timed), fault listener and start hook.

    Nothing stands between the loop and the bot: it is made from its spec by the runner, as
    ``play`` makes it, so it is sent exactly what ``play`` sends. An answer's time is the time
    from the action before it to the bot's own action: the loop asks the next seat as soon as
    it has told the listener, so that is the bot's answer plus the engine's checking of it.
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        #: seconds each answer took (a legal one, or one a bad card penalised)
        self.times: list[float] = []
        #: decisions asked of the bot that logged no action: a fault handed the seat on
        self.unanswered = 0
        #: the seat was handed on (substitute, forfeit): what acts there now is not the bot
        self.gone = False
        self._since = 0.0

    def start(self, state: TrickState) -> None:
        """The match begins (``run_match``'s ``on_start``)."""
        self._since = time.perf_counter()

    def action(self, state: TrickState, seat: int, action: int) -> None:
        """An action was taken (the match loop's listener)."""
        now = time.perf_counter()
        if seat == self.seat and not self.gone:
            self.times.append(now - self._since)
        self._since = now

    def fault(self, fault: dict[str, Any]) -> None:
        """The referee recorded a fault (``on_fault``)."""
        if fault["seat"] != self.seat or self.gone:
            return
        penalty = str(fault["penalty"])
        if fault["action"] is not None and "bad-card" not in penalty:
            self.unanswered += 1  # no action was logged for it: the listener never saw it
        if "substitute" in penalty or "forfeit" in penalty:
            self.gone = True

    @property
    def decisions(self) -> int:
        """Decisions asked of the bot, answered or not."""
        return len(self.times) + self.unanswered


def run_bot_check(
    target: str,
    game_spec: str,
    matches: int | None,
    seed: int,
    *,
    opponents: str = "heuristic",
    all_seats: bool = True,
    decision_time: float = 2.0,
    match_time: float = 60.0,
    max_hands: int = 30,
    as_json: bool = False,
    out: TextIO | None = None,
) -> int:
    """Check a bot over ``matches`` quick matches (None: one a seat of the table); 0 clean,
    1 any fault, 2 bad usage.

    The bot sits in seat 0, or (``all_seats``) in seat ``m % players`` in match ``m``; the
    other seats are ``opponents`` bots. A match stops after ``max_hands`` hands.
    """
    stream = out if out is not None else sys.stdout
    try:
        game = load_game(game_spec)
        if matches is None:
            matches = game.num_players  # each seat in turn, once
        if matches < 1 or max_hands < 1:
            raise TricktableError("--matches and --max-hands must be at least 1")
        options = RunnerOptions(decision_time=decision_time, match_time=match_time)
        # A bad target or --against fails now, before any match, as play checks its players.
        for spec in (target, opponents):
            make_bot(spec.strip(), options).close()
    except TricktableError as exc:
        return fail(exc)
    try:
        report = check(target, game, matches, seed, options, opponents, all_seats, max_hands)
    except EngineBroke as exc:
        return fail(exc, 3)
    except TricktableError as exc:  # a match that could not begin (its spec refused)
        return fail(exc)
    if as_json:
        print(json.dumps(report), file=stream)
    else:
        render(report, stream)
    return 1 if report["faults"] else 0


def check(
    target: str,
    game: Game,
    matches: int,
    seed: int,
    options: RunnerOptions,
    opponents: str,
    all_seats: bool,
    max_hands: int,
) -> dict[str, Any]:
    """Play the matches and return the report (a JSON-ready dict)."""
    n = game.num_players
    times: list[float] = []
    faults: list[dict[str, Any]] = []
    hands = 0
    wins = 0
    decisions = 0
    for m in range(matches):
        seat = m % n if all_seats else 0
        match_seed = derive_seed(seed, "bot-check", m)
        watch = Watch(seat)
        spec = MatchSpec(
            game.spec(),
            tuple(target.strip() if s == seat else opponents for s in range(n)),
            match_seed,
            options,
            max_hands,
        )
        stopped: dict[str, Any] | None = None
        try:
            outcome = run_match(
                spec, listener=watch.action, on_start=watch.start, on_fault=watch.fault
            )
        except MatchStopped as stop:
            exc, outcome = stop.cause, stop.outcome
            if not isinstance(exc, TricktableError):
                raise EngineBroke(f"match {m + 1} (seed {match_seed}): {exc}") from exc
            # Raised outside a decision (starting the match), or by a failing substitute.
            dealt = outcome.result.dealt
            stopped = {
                "hand": max(dealt - 1, 0),
                "action": None,
                "seat": seat,
                "kind": "crash",
                "detail": f"{type(exc).__name__}: {exc}",
                "penalty": "match stopped",
                "where": f"hand {dealt}" if watch.decisions else "before its first decision",
            }
        hands += outcome.result.dealt
        if stopped is None and outcome.result.winner == game.team_of(seat):
            wins += 1
        times.extend(watch.times)
        decisions += watch.decisions
        for fault in [*outcome.faults, *([stopped] if stopped else [])]:
            entry = {"match": m + 1, "seed": match_seed, **fault}
            if fault["seat"] != seat:
                entry["detail"] = f"(a reference bot failed) {fault['detail']}"
            elif "where" not in entry:
                entry.update(locate(outcome.record, fault, game))
            faults.append(entry)
    kinds = Counter(f["kind"] for f in faults)
    return {
        "target": target,
        "game": game.spec(),
        "matches": matches,
        "seats": "each seat in turn" if all_seats else "seat 0",
        "opponents": opponents,
        "hands": hands,
        "wins": wins,
        "decisions": decisions,
        "median_ms": round(statistics.median(times) * 1000, 3) if times else None,
        "max_ms": round(max(times) * 1000, 3) if times else None,
        "faults": faults,
        "faults_by_kind": dict(sorted(kinds.items())),
    }


def locate(record: dict[str, Any], fault: dict[str, Any], game: Game) -> dict[str, str]:
    """Where a fault of the bot under test happened, rebuilt from the match's record: its
    ``where`` (hand, trick, the bot's decision in the hand and its phase, the record's action)
    and, for an illegal answer, what was ``expected``."""
    hand, index, seat = fault.get("hand"), fault.get("action"), fault["seat"]
    if not isinstance(hand, int) or hand < 0:
        return {"where": "before its first decision"}
    if not isinstance(index, int):
        # Outside a decision: at a hand's end, or a chat line refused between answers.
        if fault["kind"] in ("chat", "flood"):
            return {"where": f"hand {hand + 1}"}
        return {"where": f"hand {hand + 1}, after its last trick"}
    state = _position(record, hand, index)
    view = state.view(seat)
    parts = [f"hand {hand + 1}"]
    if view.phase == PLAY:
        parts.append(f"trick {len(view.tricks) + 1}")
    asked = sum(1 for actor in state.actors if actor == seat) + 1
    parts.append(f"decision {asked} ({view.to_dict()['phase']})")
    parts.append(f"record action {index}")
    found = {"where": ", ".join(parts)}
    if fault["kind"] == "illegal" and state.to_act == seat:
        names = [game.action_name(a) for a in view.legal_actions()]
        shown = ", ".join(names[:13]) + (" ..." if len(names) > 13 else "")
        found["expected"] = f"one of: {shown}"
    return found


def _position(record: dict[str, Any], hand: int, index: int) -> TrickState:
    """The state of the match ``record`` holds just before action ``index`` of hand ``hand``
    (the record is the truth of the match: nothing is kept beside it to say where it was)."""
    every = list(record["hands"])
    if isinstance(record.get("unfinished_hand"), dict):
        every.append(record["unfinished_hand"])
    cut = dict(every[hand])
    cut["actions"] = cut["actions"][:index]
    cut["notes"] = [note for note in cut.get("notes", []) if note.get("at", 0) < index]
    partial = {**record, "hands": every[:hand], "unfinished_hand": cut}
    partial.pop("faults", None)
    return replay(partial)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "es" if noun.endswith("ch") else "s")


def render(report: dict[str, Any], out: TextIO) -> None:
    """The report as text: every fault precisely, then the summary."""
    print(
        f"bot-check {report['target']}: {report['game']}, {_count(report['matches'], 'match')} "
        f"({report['seats']}) against {report['opponents']}",
        file=out,
    )
    for f in report["faults"]:
        print(
            f"FAULT match {f['match']} (seed {f['seed']}, seat {f['seat']}), "
            f"{f.get('where', 'hand ' + str(f.get('hand', 0) + 1))}: {f['kind']}",
            file=out,
        )
        print(f"  {f['detail']}", file=out)
        if "expected" in f:
            print(f"  expected {f['expected']}", file=out)
        print(f"  penalty: {f['penalty']}", file=out)
    median = "-" if report["median_ms"] is None else f"{report['median_ms']:.2f} ms"
    top = "-" if report["max_ms"] is None else f"{report['max_ms']:.2f} ms"
    print(
        f"matches {report['matches']}, hands {report['hands']}, decisions {report['decisions']}"
        f", won {report['wins']}; answer time median {median}, max {top}",
        file=out,
    )
    kinds = report["faults_by_kind"]
    if kinds:
        listed = ", ".join(f"{kind} {count}" for kind, count in kinds.items())
        print(f"faults: {len(report['faults'])} ({listed})", file=out)
        print("result: FAULTY", file=out)
    else:
        print("faults: none", file=out)
        print("result: OK", file=out)
