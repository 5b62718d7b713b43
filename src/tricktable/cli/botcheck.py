"""``tricktable bot-check``: the bot author's tool — quick matches, every protocol error shown.

The bot under test (``cmd:PROGRAM``, an ``http(s)://`` URL, a ``path/to/bot.py:Class`` or
``package.module:Class`` spec, or an installed bot's name) plays ``matches`` matches against
reference bots, taking each seat in turn. Matches run through the runner every command uses
(:func:`tricktable.runner.run_match`), so a fault is penalized as in a real game; bot-check
adds where it happened (match, hand, trick, action), what the bot sent and what was expected,
and times every answer.

Exit status: 0 when the bot made no fault, 1 when it made any, 2 for bad usage (an unknown
game, a target that cannot be built), 3 when the engine failed (a bug, not the bot's fault).
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, TextIO

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.cli import fail
from tricktable.engine.results import HandResult
from tricktable.engine.trick import PLAY, Game, View
from tricktable.errors import BotError, TricktableError
from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.runner import MatchSpec, MatchStopped, run_match
from tricktable.seeds import derive_seed


class EngineBroke(RuntimeError):
    """The engine failed during a check (a bug, not the bot's): the check stops."""


@dataclass
class Where:
    """Where the bot under test last was: the hand, trick and decision of the match."""

    hand: int = 0
    trick: int | None = None
    decision: int = 0
    phase: str = ""
    during: str = "act"
    #: the legal actions of the decision, for the report of an illegal answer
    legal: tuple[int, ...] = ()


class Probe(Bot):
    """The bot under test, wrapped: it times each answer and says where each fault happened.

    The referee reports a fault (:meth:`locate`) as soon as the bot's call fails, before the
    bot is called again: it happened where the bot last was.
    """

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []
        #: decisions asked of the bot (answered or not)
        self.decisions = 0
        self.where = Where(during="start")

    def locate(self, fault: dict[str, Any]) -> None:
        """Mark a fault of this seat with where it happened (the referee's ``on_fault``)."""
        if fault["seat"] != getattr(self, "seat", None):
            return
        fault["where"] = _where(self.where, fault)
        if fault["kind"] == "illegal" and self.where.legal:
            names = [self.game.action_name(a) for a in self.where.legal]
            shown = ", ".join(names[:13]) + (" ..." if len(names) > 13 else "")
            fault["expected"] = f"one of: {shown}"

    def _mark(self, view: View, during: str) -> None:
        w = self.where
        w.hand = view.hand_number
        w.during = during
        w.trick = len(view.tricks) + 1 if view.phase == PLAY else None
        w.phase = str(view.to_dict()["phase"]) if during == "act" else ""
        w.legal = tuple(view.legal_actions()) if during == "act" else ()

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.where = Where(during="start")
        self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        self._mark(view, "act")
        self.where.decision += 1
        self.decisions += 1
        start = time.perf_counter()
        action = self.inner.act(view)
        self.times.append(time.perf_counter() - start)
        return action

    def end_hand(self, view: View, result: HandResult) -> None:
        self._mark(view, "end of hand")
        self.inner.end_hand(view, result)

    def end_match(self, view: View) -> None:
        self.inner.end_match(view)

    def fault_notice(self, fault: dict[str, Any]) -> None:
        tell = getattr(self.inner, "fault_notice", None)
        if tell is not None:
            tell(fault)

    def close(self) -> None:
        self.inner.close()


def build_target(target: str, options: RunnerOptions) -> Bot:
    """The bot a bot-check target names (the time limits apply to programs and URLs)."""
    spec = target.strip()
    if spec.lower().startswith(("http://", "https://")):
        from tricktable.protocols.http import HttpBot

        return HttpBot(spec, decision_time=options.decision_time, match_time=options.match_time)
    try:
        return make_bot(spec, options)
    except BotError:
        if ":" in spec:
            raise
        from tricktable.protocols.plugins import find_entry_point_bot

        bot = find_entry_point_bot(spec)
        if bot is None:
            raise
        return bot


def run_bot_check(
    target: str,
    game_spec: str,
    matches: int,
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
    """Check a bot over ``matches`` quick matches; 0 clean, 1 any fault, 2 bad usage.

    The bot sits in seat 0, or (``all_seats``) in seat ``m % players`` in match ``m``; the
    other seats are ``opponents`` bots. A match stops after ``max_hands`` hands.
    """
    stream = out if out is not None else sys.stdout
    try:
        if matches < 1 or max_hands < 1:
            raise TricktableError("--matches and --max-hands must be at least 1")
        options = RunnerOptions(decision_time=decision_time, match_time=match_time)
        game = load_game(game_spec)
        make_bot(opponents).close()  # a bad --against fails now, before any match
        build_target(target, options).close()
    except TricktableError as exc:
        return fail(exc)
    try:
        report = check(target, game, matches, seed, options, opponents, all_seats, max_hands)
    except EngineBroke as exc:
        return fail(exc, 3)
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
        probe = Probe(build_target(target, options))
        spec = MatchSpec(
            game.spec(),
            tuple(target if s == seat else opponents for s in range(n)),
            match_seed,
            options,
            max_hands,
        )
        stopped: dict[str, Any] | None = None
        try:
            outcome = run_match(spec, bots={seat: probe}, on_fault=probe.locate)
        except MatchStopped as stop:
            exc, outcome = stop.cause, stop.outcome
            if not isinstance(exc, TricktableError):
                raise EngineBroke(f"match {m + 1} (seed {match_seed}): {exc}") from exc
            # Raised outside a decision (starting the match), or by a failing substitute.
            stopped = {
                "hand": probe.where.hand,
                "action": None,
                "seat": seat,
                "kind": "crash",
                "detail": f"{type(exc).__name__}: {exc}",
                "penalty": "match stopped",
                "where": _where(probe.where),
            }
        finally:
            with contextlib.suppress(Exception):
                probe.close()
        hands += outcome.result.dealt
        if stopped is None and outcome.result.winner == game.team_of(seat):
            wins += 1
        times.extend(probe.times)
        decisions += probe.decisions
        for fault in [*outcome.faults, *([stopped] if stopped else [])]:
            entry = {"match": m + 1, "seed": match_seed, **fault}
            if fault["seat"] != seat:
                entry["detail"] = f"(a reference bot failed) {fault['detail']}"
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


def _where(where: Where, fault: dict[str, Any] | None = None) -> str:
    hand = fault["hand"] if fault and fault.get("hand") is not None else where.hand
    parts = [f"hand {hand + 1}"]
    if where.during == "end of hand":
        parts.append("after its last trick")
    elif where.during == "start":
        parts = ["before its first decision"]
    else:
        if where.trick is not None:
            parts.append(f"trick {where.trick}")
        parts.append(f"decision {where.decision} ({where.phase})")
    if fault and fault.get("action") is not None:
        parts.append(f"record action {fault['action']}")
    return ", ".join(parts)


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
