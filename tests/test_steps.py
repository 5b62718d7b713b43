"""One journal for every match (:mod:`tricktable.steps`) and one schedule for both loops
(:func:`tricktable.match.phases`).

A table journals its match as steps while it is played; replaying the steps from the seed gives
the same match — its record, faults included, and every viewer's events — whichever game, and
whether a bot failed to start, raised, sent an illegal card or broke its seat. A record turned
into steps (each deal given by name) replays to the same record. Both loops follow the same
phases, so the same bots make the same record either way (tests/test_referee.py compares the
faults; here the whole record, after a journal's replay too).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from test_referee import HANDS, Failing, First, _bots, _by_loop
from tricktable.engine.events import SPECTATOR
from tricktable.engine.trick import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.match import DEAL, END, HAND_OVER, START, TURNS, phases
from tricktable.records import replay, to_record
from tricktable.steps import StepMark, apply_step, deal_step, record_steps
from tricktable.table import Table, run


def _journaled(spec: str, where: str) -> tuple[Table, list[list[Any]]]:
    """A table's match with a failing bot at seat 1, journaled as a web room journals it:
    the steps of every change, as the table reports it."""
    game = load_game(spec)
    table = Table(game, _bots(game, where), seed=7)
    mark = StepMark(table.state)
    journal: list[list[Any]] = []
    table.watch(lambda t: journal.extend(mark.steps(t.state, t.referee.faults)))
    asyncio.run(run(table, max_hands=HANDS, grace=5.0))
    return table, journal


def _replayed(spec: str, journal: list[list[Any]]) -> tuple[TrickState, list[dict[str, Any]]]:
    state = load_game(spec).new_state(7)
    state.listen()
    faults: list[dict[str, Any]] = []
    for step in journal:
        apply_step(state, step, faults)
    return state, faults


@pytest.mark.parametrize("where", ["start", "act", "illegal", "end_hand", "none"])
@pytest.mark.parametrize("spec", ["setback", "tricks", "spades", "hearts", "euchre"])
def test_a_journal_replays_to_the_same_match_faults_and_events(spec: str, where: str) -> None:
    table, journal = _journaled(spec, where)
    state, faults = _replayed(spec, journal)
    assert faults == table.referee.faults
    assert (where == "none") == (not faults)
    assert to_record(state, table.labels, faults=faults) == table.record()
    live, again = table.state.events, state.events
    assert live is not None and again is not None
    for viewer in [*range(state.n), SPECTATOR]:
        assert [e.to_dict() for e in again.since(viewer, 0)] == [
            e.to_dict() for e in live.since(viewer, 0)
        ]


@pytest.mark.parametrize("spec", ["setback", "spades", "hearts", "euchre", "cinch", "oh-hell"])
def test_a_record_as_steps_deals_each_hand_by_name_and_replays_to_itself(spec: str) -> None:
    game = load_game(spec)
    table = Table(game, [First() for _ in range(game.num_players)], seed=11)
    asyncio.run(run(table, max_hands=2, grace=5.0))
    state = replay(table.record())
    steps = record_steps(state)
    deals = [s for s in steps if s[0] == "deal"]
    assert len(deals) == len(state.history)
    assert all(isinstance(s[1], int) and isinstance(s[2][0][0], str) for s in deals)
    # dealt as given, not from the seed: a state of another seed replays it the same
    other = game.new_state(12345)
    for step in steps:
        apply_step(other, step)
    assert [h.deal for h in other.history] == [h.deal for h in state.history]
    assert other.actions == state.actions
    assert deal_step(state, 0) == deals[0]


def test_the_first_journals_explicit_deal_by_masks_is_still_read() -> None:
    game = load_game("setback")
    state = game.new_state(3)
    state.deal()
    log = state.history[0]
    old = game.new_state(99)
    apply_step(old, ["deal", list(log.deal), log.dealer, list(log.stock)])
    assert old.history[0].deal == log.deal


def test_an_unknown_step_is_one_clear_error() -> None:
    state = load_game("setback").new_state(1)
    with pytest.raises(TricktableError, match="unknown journal step 'launch'"):
        apply_step(state, ["launch", "rockets"])


@pytest.mark.parametrize("spec", ["setback", "tricks", "spades"])
@pytest.mark.parametrize("where", ["start", "act", "illegal"])
def test_both_loops_make_the_same_whole_record(spec: str, where: str) -> None:
    table, _ = _journaled(spec, where)
    assert table.record() == _by_loop(spec, where)


def test_the_phases_of_a_match_from_its_start_and_from_the_middle_of_a_hand() -> None:
    game = load_game("setback")
    state = game.new_state(5)
    order: list[int] = []
    bot = First()
    for phase in phases(state, max_hands=2):
        order.append(phase)
        if phase == DEAL:
            state.deal()
        elif phase == TURNS:
            while state.to_act >= 0:
                state.apply(bot.act(state.view(state.to_act)))
    assert order == [START, DEAL, TURNS, HAND_OVER, DEAL, TURNS, HAND_OVER, END]
    # resumed in the middle of a hand: that hand is played on first, with no start or end
    middle = game.new_state(5)
    middle.deal()
    middle.apply(bot.act(middle.view(middle.to_act)))
    seen = []
    for phase in phases(middle, max_hands=1, whole=False):
        seen.append(phase)
        while phase == TURNS and middle.to_act >= 0:
            middle.apply(bot.act(middle.view(middle.to_act)))
    assert seen == [TURNS, HAND_OVER]


def test_a_halted_loop_ends_the_match_in_the_middle_of_a_hand() -> None:
    state = load_game("setback").new_state(5)
    order = []
    for phase in phases(state, halted=lambda: bool(state.history)):
        order.append(phase)
        if phase == DEAL:
            state.deal()
    assert order == [START, DEAL, TURNS, END]


def test_a_failing_bot_closes_once_whichever_loop() -> None:
    game = load_game("setback")
    bots = [Failing("act") if seat == 1 else First() for seat in range(4)]
    table = Table(game, bots, seed=7)
    asyncio.run(run(table, max_hands=1, grace=5.0))
    failing = bots[1]
    assert isinstance(failing, Failing) and failing.closed == 1
