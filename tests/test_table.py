"""The table service: whole matches through the asynchronous interface, a person scripted in.

A scripted person waits for its turn, reads its view and events and submits — now and then
first an action out of turn, an illegal one and bad text, each refused with the engine's
reason and changing nothing. A checker watches every change of the table and fails on any
event, view or message that names a card its viewer may not know.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from helpers import card_names, known
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.cards import card_name, cards_in, parse_cards
from tricktable.chat import MAX_CHAT, named_cards
from tricktable.engine.events import (
    SPECTATOR,
    Chat,
    Dealt,
    Fault,
    Forfeited,
    HandChanged,
    MatchOver,
    Substituted,
)
from tricktable.engine.trick import Game, TrickState, View
from tricktable.errors import IllegalAction, NotationError, TricktableError
from tricktable.games import GAMES, load_game
from tricktable.match import Referee, RunnerOptions
from tricktable.records import replay, result_of, to_record
from tricktable.table import Person, Remote, Table, run

#: fixed examples in the engine's messages: they name cards, but the same ones always
EXAMPLES = ("like TD, 10D, QS or JK", "e.g. 'pass 2C 3D 4H'")
PERSON = 0


# ---------------------------------------------------------------------------- helpers


class FirstLegal(Bot):
    """The lowest legal action: a bot whose choices depend on its view alone."""

    name = "first"

    def act(self, view: View) -> int:
        return view.legal_actions()[0]


class Crashing(Bot):
    """Plays its first legal action until its ``after``-th decision, then raises."""

    name = "crashing"

    def __init__(self, after: int = 3) -> None:
        self.after = after
        self.calls = 0
        self.closed = False

    def act(self, view: View) -> int:
        self.calls += 1
        if self.calls >= self.after:
            raise RuntimeError("boom")
        return view.legal_actions()[0]

    def close(self) -> None:
        self.closed = True


class Hanging(Bot):
    """Hangs on its second decision until released (an in-process bot cannot be stopped)."""

    name = "hanging"

    def __init__(self) -> None:
        self.calls = 0
        self.release = threading.Event()

    def act(self, view: View) -> int:
        self.calls += 1
        if self.calls == 2:
            self.release.wait(30)
        return view.legal_actions()[0]


def choose(view: View) -> int:
    """The scripted person's choice: any legal action, decided by the view alone."""
    legal = view.legal_actions()
    return legal[(len(view.actions) * 7 + view.hand_number * 3) % len(legal)]


def viewers(table: Table) -> list[int]:
    return [*range(table.num_seats), SPECTATOR]


class LeakCheck:
    """Called after every change of a table: no viewer is shown a card it may not know."""

    def __init__(self) -> None:
        self.pos: dict[int, int] = {}
        self.changes = 0
        self.kinds: dict[int, set[str]] = {}

    def __call__(self, table: Table) -> None:
        self.changes += 1
        state = table.state
        for viewer in viewers(table):
            new = table.events_since(viewer, self.pos.get(viewer, 0))
            self.pos[viewer] = self.pos.get(viewer, 0) + len(new)
            allowed = known(state, viewer)
            for event in new:
                self.kinds.setdefault(viewer, set()).add(event.kind)
                if isinstance(event, Dealt | HandChanged):
                    assert event.seat == viewer, f"viewer {viewer} got {event!r}"
                if isinstance(event, Fault) and event.detail:
                    assert event.seat == viewer, f"viewer {viewer} got {event!r}"
                text = json.dumps(event.to_dict())
                leaked = card_names(text) & ~allowed
                assert not leaked, f"viewer {viewer} was shown {cards_in(leaked)}: {text}"
            if viewer != SPECTATOR:
                text = json.dumps(table.view(viewer).to_dict())
                leaked = card_names(text) & ~allowed
                assert not leaked, f"seat {viewer}'s view shows {cards_in(leaked)}: {text}"


def snapshot(table: Table) -> tuple[Any, ...]:
    """Everything a refused submission must leave as it was."""
    state = table.state
    return (
        table.version,
        table.moves,
        table.whose_turn,
        len(state.history),
        state.actions[:],
        state.hands[:],
        state.scores[:],
        len(state.notes),
        len(table.referee.faults),
        [len(table.events_since(v)) for v in viewers(table)],
    )


def refused(table: Table, seat: int, action: int | str) -> TricktableError:
    """Submit ``action``; assert it is refused, changes nothing and leaks nothing."""
    before = snapshot(table)
    with pytest.raises(TricktableError) as info:
        table.submit(seat, action)
    assert snapshot(table) == before
    message = str(info.value)
    for example in EXAMPLES:
        message = message.replace(example, "")
    own = card_names(action if isinstance(action, str) else _name(table.game, action))
    valid = seat.__class__ is int and 0 <= seat < table.num_seats
    leaked = card_names(message) & ~known(table.state, seat if valid else SPECTATOR) & ~own
    assert not leaked, f"seat {seat} was told {cards_in(leaked)}: {message}"
    return info.value


def _name(game: Game, action: object) -> str:
    if action.__class__ is not int:
        return ""
    assert isinstance(action, int)
    try:
        return game.action_name(action)
    except TricktableError:
        return ""


class Script:
    """A scripted person at one seat; :meth:`play` is the coroutine that plays it."""

    def __init__(self, table: Table, seat: int, probe: bool = True, stop_at: int = -1) -> None:
        self.table = table
        self.seat = seat
        self.probe = probe
        self.stop_at = stop_at
        self.turns = 0
        self.seen = 0
        self.probes: dict[str, int] = {"out-of-turn": 0, "illegal": 0, "text": 0}

    async def play(self) -> int:
        table, seat = self.table, self.seat
        game = table.game
        while await table.wait_for_turn(seat):
            view = table.view(seat)
            events = table.events_since(seat, self.seen)
            assert [e.to_dict() for e in events] == [e.to_dict() for e in view.events[self.seen :]]
            self.seen += len(events)
            assert view.to_act == seat and view.legal_actions()
            if self.turns == self.stop_at:
                return self.turns
            if self.probe and self.turns % 3 == 0:
                self._try_illegal(view)
            action = choose(view)
            # Codes and texts both work; alternate between them.
            code = table.submit(seat, game.action_name(action) if self.turns % 2 else action)
            assert code == action
            self.turns += 1
            if self.probe:
                self._try_out_of_turn(view)
            await asyncio.sleep(0)
        return self.turns

    def _try_illegal(self, view: View) -> None:
        table, seat, state = self.table, self.seat, self.table.state
        legal = set(view.legal_actions())
        hand = view.hand
        candidates = [c for c in cards_in(hand) if c not in legal]  # must follow suit...
        candidates += [c for c in state.game.deck if not hand >> c & 1][:1]  # not held
        candidates += [a for a in (64, 128 + 3) if a not in legal]  # pass, bid 3
        for action in candidates[:3]:
            exc = refused(table, seat, action)
            assert isinstance(exc, IllegalAction)
            if state._may_look(seat):
                # The engine's reason, as it gives it from the real state (this seat's turn).
                assert exc.reason == state.illegal(action).reason
            self.probes["illegal"] += 1
        for text in ("play ZZ", "bid", "x" * 5000, "bid 99"):
            exc = refused(table, seat, text)
            assert isinstance(exc, NotationError | IllegalAction), exc
            assert len(str(exc)) < 200
            self.probes["text"] += 1

    def _try_out_of_turn(self, view: View) -> None:
        table, seat = self.table, self.seat
        other = table.whose_turn
        if other == seat or table.ended:
            return
        action = choose(view)
        exc = refused(table, seat, action)
        assert isinstance(exc, IllegalAction)
        if other >= 0:
            assert exc.reason == f"is not to act (seat {other} is)"
        else:
            assert exc.reason == "cannot act: the next hand is not dealt yet"
        self.probes["out-of-turn"] += 1


def new_table(
    spec: str,
    seed: int,
    bots: Callable[[int], Bot | str] = lambda seat: "heuristic",
    options: RunnerOptions | None = None,
    person: int = PERSON,
) -> Table:
    game = load_game(spec)
    seats: list[Bot | str] = ["person" if s == person else bots(s) for s in range(game.num_players)]
    return Table(game, seats, seed, Referee(options))


async def drive(
    table: Table, script: Script | None = None, **kwargs: Any
) -> tuple[TrickState, int]:
    """Run the table and its scripted person together; the state and the person's turns."""
    tasks: list[Any] = [run(table, **kwargs)]
    if script is not None:
        tasks.append(script.play())
    done = await asyncio.wait_for(asyncio.gather(*tasks), 60)
    return done[0], done[1] if script is not None else 0


def play_through(table: Table, probe: bool = True, **kwargs: Any) -> tuple[TrickState, Script]:
    script = Script(table, PERSON, probe=probe)
    try:
        state, _ = asyncio.run(drive(table, script, **kwargs))
    finally:
        table.close()
    return state, script


# ------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("spec", ["setback", "hearts", "spades"])
def test_a_scripted_person_plays_a_whole_match(spec: str) -> None:
    table = new_table(spec, 7)
    check = LeakCheck()
    table.watch(check)
    state, script = play_through(table)

    assert state.is_over and table.ended and table.referee.faults == []
    assert script.turns >= 20
    assert min(script.probes.values()) > 0, script.probes
    # The stream of each seat and of the spectators told the whole match.
    for viewer in viewers(table):
        kinds = {e.kind for e in table.events_since(viewer)}
        assert {"hand_started", "card_played", "trick_won", "hand_scored", "match_over"} <= kinds
        assert ("dealt" in kinds) == (viewer != SPECTATOR)
    assert check.changes == table.version
    # After the match: every submission is refused, with the reason.
    exc = refused(table, PERSON, "pass")
    assert isinstance(exc, IllegalAction) and exc.reason == "cannot act: the match is over"

    # The record replays to the same match.
    record = table.record()
    again = replay(record, listen=True)
    assert result_of(again) == result_of(state)
    assert again.scores == state.scores and again.winner == state.winner
    assert to_record(again, table.labels, table.referee.faults) == record
    assert record["players"] == ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_viewer_is_shown_a_hidden_card_in_any_game(name: str) -> None:
    table = new_table(name, 3)
    check = LeakCheck()
    table.watch(check)
    state, script = play_through(table, max_hands=3)
    assert script.turns > 0 and len(state.history) >= 1
    assert check.changes == table.version
    assert replay(table.record()).scores == state.scores


def test_a_whole_match_is_the_same_as_play_match_would_play_it() -> None:
    # All bots: the driver plays exactly the match the synchronous loop plays.
    from tricktable.match import play_match

    game = load_game("setback")
    table = Table(game, ["heuristic", "random", "heuristic", "random"], 11)
    try:
        state = asyncio.run(run(table))
    finally:
        table.close()
    bots = [make_bot(s) for s in ("heuristic", "random", "heuristic", "random")]
    expected = play_match(game, bots, 11)
    assert to_record(state) == to_record(expected)


# ------------------------------------------------------------------- refusals


def test_submit_refuses_what_is_not_a_persons_action() -> None:
    table = new_table("setback", 5)
    table.deal_next()
    while table.whose_turn != PERSON:
        table.play_for(table.whose_turn, table.view(table.whose_turn).legal_actions()[0])
    bot_seat = 1
    for seat, action, message in [
        (bot_seat, "pass", "seat 1 is played by bot:heuristic"),
        (7, "pass", "no seat 7 at this table"),
        (True, "pass", "no seat True"),
        (PERSON, True, "an action is its code"),
        (PERSON, 2.0, "an action is its code"),
        (PERSON, None, "an action is its code"),
        (PERSON, "", "empty action"),
        (PERSON, "y" * 101, "too long"),
        (PERSON, -3, "not an action"),
        (PERSON, 10**30, "is not legal"),
    ]:
        exc = refused(table, seat, action)  # type: ignore[arg-type]
        assert message in str(exc), (action, str(exc))
    # The spectators have a stream but no seat.
    with pytest.raises(TricktableError, match="no seat 8"):
        table.view(SPECTATOR)
    with pytest.raises(TricktableError, match="no seat 5"):
        table.events_since(5)
    assert table.events_since(SPECTATOR) == table.events_since(SPECTATOR, -4)
    assert table.events_since(PERSON, 10**6) == []
    # A legal action, as text, is taken.
    legal = table.view(PERSON).legal_actions()
    assert table.submit(PERSON, table.game.action_name(legal[-1])) == legal[-1]
    table.close()


def test_a_refused_action_names_only_the_seats_own_cards() -> None:
    # Off its turn the reason is only whose turn it is — not why the actor could not play it.
    table = new_table("hearts", 2)
    table.deal_next()
    actor = table.whose_turn
    other = (actor + 1) % 4
    table.players[other] = Person()  # two people for this test
    hidden = table.state.hands[actor] & ~known(table.state, other)
    card = cards_in(hidden)[0]
    exc = refused(table, other, card)
    assert isinstance(exc, IllegalAction)
    assert exc.reason == f"is not to act (seat {actor} is)"
    table.close()


# ----------------------------------------------------------------------- chat


def test_chat_is_checked_clipped_and_logged() -> None:
    table = new_table("setback", 9)
    table.deal_next()
    state = table.state
    for text, message in [
        ("   ", "empty chat line"),
        ("hi\x07", "control characters (found U+0007)"),
        ("one\ntwo", "control characters (found U+000A)"),
        ("\u202eevil", "control characters (found U+202E)"),
        (3, "must be text"),
    ]:
        before = snapshot(table)
        with pytest.raises(TricktableError, match=re.escape(message)):
            table.chat(PERSON, text)  # type: ignore[arg-type]
        assert snapshot(table) == before
    with pytest.raises(TricktableError, match="no seat 8"):
        table.chat(SPECTATOR, "hello")

    # A card in someone's hand may not be named; the words that merely look like cards may.
    mine = cards_in(state.hands[PERSON])[0]
    for form in (card_name(mine), card_name(mine).lower() if card_name(mine)[0].isdigit() else ""):
        if form:
            before = snapshot(table)
            with pytest.raises(TricktableError, match="only cards face up"):
                table.chat(PERSON, f"I hold {form} you know")
            assert snapshot(table) == before
    assert table.chat(PERSON, "  as   good as  gold  ") == "as good as gold"
    said = table.chat(2, "z" * 1000)
    assert len(said) == MAX_CHAT and said.endswith("…")
    assert table.chat(-1, "the table speaks") == "the table speaks"

    # Once a card is face up it may be named.
    while not state.trick:
        seat = table.whose_turn
        table.play_for(seat, table.view(seat).legal_actions()[0])
    led = state.trick[0]
    assert table.chat(1, f"nice {card_name(led)}") == f"nice {card_name(led)}"

    for viewer in viewers(table):
        chats = [e for e in table.events_since(viewer) if isinstance(e, Chat)]
        assert [c.seat for c in chats] == [PERSON, 2, -1, 1]
    again = replay(table.record(), listen=True)
    assert [n.text for n in again.notes] == [n.text for n in state.notes]
    table.close()


def test_named_cards_reads_card_notation_only() -> None:
    assert named_cards("AS 10d q♠ JK") == parse_cards("AS TD QS JK")
    assert named_cards("as ah, as good as gold") == []  # words (tests/test_chat.py: the rest)
    assert named_cards("the qs is mine") == parse_cards("QS")
    assert named_cards("2c!") == parse_cards("2C")


# ---------------------------------------------------------------------- faults


def test_a_crashing_bot_is_substituted_and_everyone_sees_it() -> None:
    crasher = Crashing(after=3)
    table = new_table("setback", 4, bots=lambda s: crasher if s == 2 else "heuristic")
    table.watch(LeakCheck())
    state, _ = play_through(table)

    assert state.is_over
    (fault,) = table.referee.faults
    assert (fault["seat"], fault["kind"], fault["penalty"]) == (2, "crash", "substitute")
    assert "boom" in fault["detail"] and crasher.closed
    for viewer in viewers(table):
        events = table.events_since(viewer)
        (seen,) = [e for e in events if isinstance(e, Fault)]
        assert seen.seat == 2 and seen.penalty == "substitute"
        assert ("boom" in seen.detail) == (viewer == 2)
        (sub,) = [e for e in events if isinstance(e, Substituted)]
        assert (sub.seat, sub.player) == (2, "bot:heuristic")
    record = table.record()
    assert record["faults"] == table.referee.faults
    again = replay(record)
    assert result_of(again) == result_of(state)
    assert [(n.kind, n.seat) for n in again.notes] == [("substitute", 2)]


def test_a_crashing_bot_forfeits_spades_and_the_person_is_released() -> None:
    table = new_table("spades", 4, bots=lambda s: Crashing(after=2) if s == 1 else "heuristic")
    state, script = play_through(table)
    assert state.is_over and state.winner == 0  # seat 1's side lost
    (fault,) = table.referee.faults
    assert (fault["seat"], fault["penalty"]) == (1, "forfeit")
    kinds = [e.kind for e in table.events_since(SPECTATOR)]
    # (The referee applies the penalty before it tells of the fault: the order may change.)
    assert sorted(kinds[-3:]) == ["fault", "forfeited", "match_over"]
    assert any(isinstance(e, Forfeited) for e in table.events_since(PERSON))
    assert any(isinstance(e, MatchOver) for e in table.events_since(PERSON)[-3:])
    assert script.turns > 0
    assert replay(table.record()).winner == 0


def test_a_hanging_bot_times_out_without_blocking_the_loop() -> None:
    hanging = Hanging()
    options = RunnerOptions(decision_time=0.2, startup_time=0.0)
    table = new_table(
        "setback", 6, bots=lambda s: hanging if s == 3 else FirstLegal(), options=options
    )
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while not table.ended:
            ticks += 1
            await asyncio.sleep(0.01)

    async def main() -> None:
        await asyncio.gather(drive(table, Script(table, PERSON, probe=False), grace=0.1), ticker())

    start = time.monotonic()
    try:
        asyncio.run(main())
    finally:
        hanging.release.set()
        table.close()
    assert time.monotonic() - start < 5
    assert ticks >= 20  # the loop kept turning while the bot hung
    (fault,) = table.referee.faults
    assert (fault["seat"], fault["kind"], fault["penalty"]) == (3, "timeout", "substitute")
    assert table.is_over


def test_a_person_who_does_not_act_in_time_is_handed_on() -> None:
    table = new_table("setback", 8, bots=lambda s: FirstLegal())

    async def main() -> TrickState:
        return await run(table, max_hands=1, person_time=0.1)

    state = asyncio.run(main())
    table.close()
    (fault,) = table.referee.faults
    assert (fault["seat"], fault["kind"], fault["penalty"]) == (PERSON, "timeout", "substitute")
    assert not table.is_person(PERSON)
    assert len(state.results) == 1
    with pytest.raises(TricktableError, match="played by bot:heuristic"):
        table.submit(PERSON, "pass")
    assert asyncio.run(table.wait_for_turn(PERSON)) is False


def test_a_bot_answering_an_illegal_action_faults_like_in_play_hand() -> None:
    class Cheat(Bot):
        name = "cheat"

        def act(self, view: View) -> int:
            return 64 + 128  # never a legal action

    table = new_table("hearts", 1, bots=lambda s: Cheat() if s == 3 else "heuristic")
    table.watch(LeakCheck())
    state, _ = play_through(table, max_hands=1)
    (fault,) = table.referee.faults
    assert (fault["seat"], fault["kind"], fault["penalty"]) == (3, "illegal", "substitute")
    assert len(state.results) == 1


# --------------------------------------------------------------- many tables, resume


def test_two_tables_play_at_once_in_one_loop() -> None:
    tables = [new_table("setback", 21), new_table("hearts", 22)]
    order: list[int] = []

    def note(i: int) -> Callable[[Table], None]:
        return lambda table: order.append(i)

    for i, table in enumerate(tables):
        table.watch(note(i))

    async def both() -> None:
        scripts = [Script(t, PERSON) for t in tables]
        await asyncio.gather(*(drive(t, s) for t, s in zip(tables, scripts, strict=True)))

    try:
        asyncio.run(both())
    finally:
        for table in tables:
            table.close()
    assert all(t.is_over for t in tables)
    switches = sum(1 for a, b in itertools.pairwise(order) if a != b)
    assert switches > 20, "the tables took turns, not one after the other"
    # Playing at once changed nothing: each table alone plays the same match.
    for table, (spec, seed) in zip(tables, [("setback", 21), ("hearts", 22)], strict=True):
        alone = new_table(spec, seed)
        play_through(alone)
        assert alone.record() == table.record()


def test_a_table_resumes_from_its_record_mid_hand() -> None:
    def seats(s: int) -> Bot:
        return FirstLegal()

    whole = new_table("setback", 31, bots=seats)
    play_through(whole, max_hands=4)

    # The same match, stopped on the person's 9th turn (mid-hand) and saved.
    cut = new_table("setback", 31, bots=seats)

    async def until_cut() -> None:
        task = asyncio.ensure_future(run(cut, max_hands=4))
        await Script(cut, PERSON, stop_at=8).play()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(until_cut())
    cut.close()
    assert cut.ended and not cut.is_over
    record = cut.record()
    assert "unfinished_hand" in record
    with pytest.raises(IllegalAction, match="the table has stopped"):
        cut.submit(PERSON, choose(cut.view(PERSON)))

    # Rebuilt from the record, it goes on exactly as the uninterrupted match went.
    state = replay(record, listen=True)
    resumed = Table(
        load_game("setback"), [Remote("alice"), *(seats(s) for s in range(1, 4))], state=state
    )
    assert resumed.seed == 31 and resumed.whose_turn == PERSON
    assert resumed.events_since(PERSON)[0].kind == "hand_started"  # the whole match's events
    script = Script(resumed, PERSON)
    script.turns = 8
    asyncio.run(drive(resumed, script, max_hands=4))
    resumed.close()
    assert resumed.record()["hands"] == whole.record()["hands"]
    assert resumed.record()["players"][0] == "alice"


# ------------------------------------------------------------------ waiting, seats


def test_waiting_and_versions() -> None:
    table = new_table("setback", 12, bots=lambda s: Person() if s == 1 else FirstLegal())

    async def main() -> None:
        v = table.version
        waiter = asyncio.ensure_future(table.changed(v))
        await asyncio.sleep(0)
        assert not waiter.done()
        table.deal_next()
        assert await waiter == v + 1
        # changed(since) returns at once when the version has already passed it
        assert await asyncio.wait_for(table.changed(v), 1) == table.version
        turn = asyncio.ensure_future(table.wait_for_turn(1))
        while table.whose_turn != 1:
            await asyncio.sleep(0)
            seat = table.whose_turn
            if table.is_person(seat):
                table.submit(seat, choose(table.view(seat)))
            else:
                table.play_for(seat, table.view(seat).legal_actions()[0])
        assert await asyncio.wait_for(turn, 1) is True
        stopped = asyncio.ensure_future(table.wait_for_turn(0))
        await asyncio.sleep(0)
        table.stop()
        assert await asyncio.wait_for(stopped, 1) is False

    asyncio.run(main())
    table.close()


def test_seats_are_given_as_bots_people_or_specs() -> None:
    game = load_game("setback")
    with pytest.raises(TricktableError, match="needs 4 seats"):
        Table(game, ["person", "random"], 1)
    with pytest.raises(TricktableError, match="unknown player"):
        Table(game, ["person", "random", "no-such-bot", "random"], 1)
    with pytest.raises(TricktableError, match="not of hearts"):
        Table(load_game("hearts"), ["random"] * 4, 1, state=game.new_state(1))
    table = Table(game, [Person("bo"), "remote", "human", FirstLegal()], 1)
    assert [table.is_person(s) for s in range(4)] == [True, True, True, False]
    assert table.labels == ["bo", "remote", "human", "bot:first"]
    with pytest.raises(TricktableError, match=r"Table\.submit"):
        table.players[0].act(table.view(0))
    with pytest.raises(TricktableError, match="a hand is in play"):
        table.deal_next()
        table.deal_next()
    table.close()


def test_a_resumed_table_keeps_the_faults_of_its_record() -> None:
    table = new_table("setback", 14, bots=lambda s: Crashing(after=2) if s == 1 else FirstLegal())
    play_through(table, probe=False, max_hands=1)
    record = table.record()
    assert [f["seat"] for f in record["faults"]] == [1]

    state = replay(record, listen=True)
    seats: list[Bot | str] = ["person", "heuristic", FirstLegal(), FirstLegal()]
    resumed = Table(load_game("setback"), seats, state=state, faults=record["faults"])
    play_through(resumed, probe=False, max_hands=2)
    again = resumed.record()
    assert again["faults"] == record["faults"]
    assert again["hands"][:1] == record["hands"]
    assert [(n["kind"], n["seat"]) for n in again["hands"][0]["notes"]] == [("substitute", 1)]


def test_pace_is_awaited_after_every_action_and_holds_the_table() -> None:
    table = Table(load_game("setback"), ["heuristic"] * 4, 21)
    seen: list[int] = []

    async def pace(at: Table) -> None:
        moves = at.moves
        seen.append(moves)
        await asyncio.sleep(0)  # the driver must not act while its pace is awaited
        assert at.moves == moves

    state = asyncio.run(run(table, max_hands=2, pace=pace))
    table.close()
    assert seen == list(range(1, table.moves + 1))  # once after each action, in order
    assert len(state.history) == 2
