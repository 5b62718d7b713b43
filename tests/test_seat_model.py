"""The seat model (:mod:`tricktable.seat`): snapshots and events of every game at every table.

Whole random matches of every game and preset at every table size it allows
(:mod:`table_shapes`) are snapshotted at every decision, for the seat to act and, in turn,
every other seat and a spectator: each snapshot is JSON, names no card its viewer may not know
(:func:`helpers.known`), shows a spectator no hand, lists exactly the viewer's legal actions,
and carries a version that only grows; after the match everyone sees every hand.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from rich.text import Text

from helpers import card_names, known, thrown_face_up
from table_shapes import all_shapes
from tricktable.bots import make_bot
from tricktable.cards import card_name, cards_in, mask_of, parse_cards
from tricktable.engine.events import SPECTATOR
from tricktable.engine.trick import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game, names
from tricktable.seat import EVERYONE, event_json, snapshot, snapshot_of, snapshot_of_view
from tricktable.seat import phrases as ph
from tricktable.seat.games import card_text, join, line, suit_text
from tricktable.table.table import Table
from tricktable.ui.render import lines_to_rich, rich_text, to_rich

SHAPES = all_shapes()
#: hands a match is played to: more at a preset's own table
OWN_HANDS = 2
OTHER_HANDS = 1
#: at another table, the decisions snapshotted: one in this many
OTHER_EVERY = 3


def _labels(n: int) -> list[str]:
    return ["alice", *(f"bot:random{s}" for s in range(1, n))]


def _exact_numbers(data: Any) -> bool:
    """Whether every number in ``data`` is one a JSON reader holds exactly (below 2**53)."""
    if isinstance(data, dict):
        return all(_exact_numbers(v) for v in data.values())
    if isinstance(data, list):
        return all(_exact_numbers(v) for v in data)
    return not isinstance(data, int) or abs(data) < 2**53


def _check(state: TrickState, viewer: int, snap: dict[str, Any], version: int) -> None:
    text = json.dumps(snap)
    assert json.loads(text) == snap
    assert _exact_numbers(snap), "a number a JSON reader cannot hold exactly"
    named = card_names(text)
    allowed = known(state, viewer)
    assert named & ~allowed == 0, (viewer, cards_in(named & ~allowed))
    assert snap["version"] == version and snap["viewer"] == viewer
    assert len(snap["seats"]) == state.n
    hand = snap["hand"]
    if viewer == SPECTATOR:
        assert hand is None or hand["cards"] == []
        assert snap["legal"] == []
    else:
        view = state.view(viewer)
        legal = view.legal_actions()
        names = [state.game.action_name(a) for a in legal]
        decision = snap["decision"]
        if decision is not None and decision["kind"] == "cards" and snap["legal"] == []:
            # one action names all the cards (a pass): the choice, not one entry a subset
            chosen = {w for n in names for w in n.split()[1:]}
            assert set(decision["cards"]) == chosen
            assert all(len(n.split()) - 1 == decision["min"] for n in names)
        else:
            assert [a["action"] for a in snap["legal"]] == names
        assert (decision is None) == (not legal)
        if hand is not None:
            assert hand["cards"] == [card_name(c) for c in cards_in(view.hand)]
    if hand is not None and state.to_act >= 0:
        assert hand["shown"] == {}
        assert hand["turn"] == state.to_act
    for seat in snap["seats"]:
        assert seat["turn"] == (seat["seat"] == state.to_act)


def _play(spec: str, seed: int, hands: int, every: int = 1) -> None:
    game = load_game(spec)
    state = game.new_state(seed)
    state.listen()
    rng = random.Random(seed)
    n = state.n
    labels = _labels(n)
    version = 0
    dealt = 0
    while not state.is_over:
        if state.needs_deal:
            if dealt == hands:
                break
            state.deal()
            dealt += 1
        version += 1
        seat = state.to_act
        if version % every and seat >= 0:
            state.apply(rng.choice(state.legal_actions()))
            continue
        if seat >= 0:
            snap = snapshot_of(state, seat, labels, version)
            _check(state, seat, snap, version)
            alone = snapshot_of_view(state.view(seat), labels, version)
            assert alone["hand"] == snap["hand"] and alone["legal"] == snap["legal"]
        other = SPECTATOR if version % (n + 1) == n else version % (n + 1)
        _check(state, other, snapshot_of(state, other, labels, version), version)
        if seat < 0:
            continue
        state.apply(rng.choice(state.legal_actions()))
    # Between hands, or after the match: the last hand's summary; its cards are public.
    snap = snapshot_of(state, SPECTATOR, labels, version + 1)
    assert json.loads(json.dumps(snap)) == snap
    if state.history and state.results:
        assert snap["summary"]
    final = snapshot_of(state, EVERYONE, labels, version + 2)
    shown = final["hand"]["shown"] if final["hand"] else {}
    assert set(shown) == {str(s) for s in range(n)} or not state.history
    for s, cards in shown.items():
        assert mask_of(parse_cards(cards)) == state.hands[int(s)]


@pytest.mark.parametrize("spec", SHAPES)
def test_snapshots_of_every_game_at_every_table(spec: str) -> None:
    if spec in names():
        _play(spec, seed=7, hands=OWN_HANDS)
    else:
        _play(spec, seed=7, hands=OTHER_HANDS, every=OTHER_EVERY)


def test_every_table_size_is_snapshotted() -> None:
    assert {load_game(s).num_players for s in SHAPES} == set(range(2, 8))


# ------------------------------------------------------------------------------- a table


def _table(spec: str = "setback(target=5)", seed: int = 3) -> Table:
    game = load_game(spec)
    return Table(game, ["person", *["random"] * (game.num_players - 1)], seed=seed, talk=False)


def _bots_play(table: Table) -> None:
    """Play the table to its end, every seat as the heuristic bot would (the person's too)."""
    bots = [make_bot("heuristic") for _ in range(table.num_seats)]
    for seat, bot in enumerate(bots):
        bot.start_match(table.game, seat, seat)
    while not table.is_over:
        state = table.state
        if state.needs_deal:
            assert len(state.history) < 40, "a match that does not end"
            table.deal_next()
            continue
        seat = state.to_act
        action = bots[seat].act(table.view(seat))
        if seat == 0:
            table.submit(0, action)
        else:
            table.play_for(seat, action)


def test_a_tables_snapshots_version_and_end() -> None:
    table = _table()
    versions = []
    seen: list[dict[str, Any]] = []

    def look(t: Table) -> None:
        snap = snapshot(t, SPECTATOR)
        versions.append(snap["version"])
        if t.whose_turn == 0:
            seen.append(snapshot(t, 0))

    table.watch(look)
    with pytest.raises(TricktableError, match="after the match"):
        snapshot(table, EVERYONE)
    _bots_play(table)
    assert versions == sorted(set(versions)) and len(versions) > 10
    assert seen and all(s["legal"] for s in seen)
    assert seen[0]["seats"][0]["kind"] == "person"
    assert seen[0]["seats"][1]["kind"] == "bot"
    end = snapshot(table, EVERYONE)
    assert end["over"] and end["winners"]
    spectator = snapshot(table, SPECTATOR)
    assert spectator["hand"]["cards"] == []
    table.close()


@pytest.mark.parametrize(
    "spec", ["setback(target=5)", "hearts(target=40)", "spades(target=120)", "euchre(target=4)"]
)
def test_a_hands_score_carries_the_snapshots_summary(spec: str) -> None:
    """The ``scored`` event says the hand's summary in the seat model's words, the same as
    the snapshot between hands: a page shows it without rebuilding it from the result."""
    table = _table(spec, seed=4)
    checked = {0: 0, SPECTATOR: 0}
    read = {0: 0, SPECTATOR: 0}

    def look(t: Table) -> None:
        for viewer in checked:
            events = t.events_since(viewer)
            fresh, read[viewer] = events[read[viewer] :], len(events)
            for event in fresh:
                if event.kind != "hand_scored":
                    continue
                said = event_json(event, t, viewer)["summary"]
                assert said and said == snapshot(t, viewer)["summary"]
                checked[viewer] += 1

    table.watch(look)
    _bots_play(table)
    assert checked[0] == checked[SPECTATOR] == len(table.state.results) > 0
    table.close()


def test_event_json_speaks_only_of_the_viewers_stream() -> None:
    table = _table()
    _bots_play(table)
    for viewer in (0, 1, SPECTATOR):
        events = table.events_since(viewer)
        out = [event_json(e, table, viewer) for e in events]
        text = json.dumps(out)
        assert json.loads(text) == out
        kinds = {e["kind"] for e in out}
        assert {"play", "bid", "trick", "scored", "over"} <= kinds
        if viewer == SPECTATOR:
            assert "dealt" not in kinds
        assert all(isinstance(e["words"], list) and e["words"] for e in out)
    dealt = next(e for e in table.events_since(0) if e.kind == "dealt")
    with pytest.raises(TricktableError):
        event_json(dealt, table, 1)
    table.close()


def test_a_person_at_a_table_gets_a_snapshot_on_its_turn() -> None:
    async def main() -> dict[str, Any]:
        table = _table("hearts")
        table.deal_next()
        while table.whose_turn != 0:
            seat = table.whose_turn
            table.play_for(seat, table.state.legal_actions()[0])
        snap = snapshot(table, 0)
        table.close()
        return snap

    snap = asyncio.run(main())
    # Hearts' first decision is its pass: one choice of three cards, not 286 entries
    decision = snap["decision"]
    assert decision["kind"] == "cards" and decision["verb"] == "pass" and snap["legal"] == []
    assert decision["min"] == decision["max"] == 3 and len(decision["cards"]) == 13
    assert decision["confirm"] == {"3": "Pass these three"}
    assert decision["prompt"][0]["v"].startswith("Pass three cards left, to")
    assert snap["hand"]["situation"]
    assert snap["game"]["seats"] == 4 and snap["seats"][0]["place"] == "south"


# ------------------------------------------------------------------------------- phrases


def test_phrases_read_back_a_presenters_text_exactly() -> None:
    names = ["You", "West", "North", "East"]
    marks = ph.seat_markers(names)
    text = line(
        f"{marks[1]} ", card_text(9 + 13, trumps=1 << 22), " · ", suit_text(2), " ", card_text(52)
    )
    text.append(f" {marks[3]:<8}|", style="bold")
    phrase = ph.phrase_of(text)
    kinds = [t["t"] for t in phrase]
    assert kinds[:3] == ["seat", "text", "card"]
    assert {"t": "seat", "v": 1} in phrase and {"t": "seat", "v": 3, "s": "bold"} in phrase
    assert {"t": "card", "v": "JD", "trump": True, "s": "bold red"} in phrase
    assert {"t": "card", "v": "JK", "s": "bold magenta"} in phrase
    rendered = to_rich(phrase, names)
    expected = line(
        "West ", card_text(9 + 13, trumps=1 << 22), " · ", suit_text(2), " ", card_text(52)
    )
    expected.append(" East    |", style="bold")
    assert rendered.plain == expected.plain
    assert _styles(rendered) == _styles(rich_text(expected))
    assert ph.to_plain(phrase, names) == expected.plain
    assert ph.from_json(json.loads(json.dumps(ph.to_json(phrase)))) == phrase


def _styles(text: Text) -> list[str]:
    """The style of each character (what a renderer draws)."""
    out = []
    for i in range(len(text.plain)):
        style = text.get_style_at_offset(_console(), i)
        out.append(str(style))
    return out


def _console() -> Any:
    from rich.console import Console

    return Console()


def test_a_bad_token_is_refused() -> None:
    for bad in (
        [{"t": "card", "v": "ZZ"}],
        [{"t": "blink", "v": "x"}],
        [{"t": "seat", "v": "1"}],
        "text",
    ):
        with pytest.raises(TricktableError):
            ph.from_json(bad)
    assert join([]).plain == ""


@pytest.mark.parametrize(
    "spec", ["setback", "hearts", "spades", "euchre", "oh-hell", "pitch-with-kitty", "tricks"]
)
def test_the_snapshots_words_draw_as_the_presenters_wrote_them(spec: str) -> None:
    """Each phrase drawn by ``to_rich`` is the presenter's own text: the same characters in
    the same styles (what the terminal and the TUI print from the snapshot)."""
    from tricktable.seat.games import Seating, presenter_for
    from tricktable.ui.terminal import seat_names

    state = load_game(spec).new_state(5)
    state.listen()
    state.deal()
    rng = random.Random(5)
    presenter = presenter_for(state.game)
    while state.to_act >= 0:
        seat = state.to_act
        names = seat_names([seat], state.n)
        seating = Seating(state.game, names)
        view = state.view(seat)
        hand = snapshot_of(state, seat, names, names=names)["hand"]
        for phrases, texts in (
            (hand["situation"], presenter.situation_lines(seating, view)),
            (hand["tally"], presenter.tally_lines(seating, view)),
        ):
            drawn = lines_to_rich(phrases, names)
            assert [t.plain for t in drawn] == [t.plain for t in texts]
            assert [_styles(t) for t in drawn] == [_styles(rich_text(t)) for t in texts]
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", ["setback", "euchre", "hearts", "oh-hell", "spades"])
def test_a_spectators_tally_names_the_sides(spec: str) -> None:
    """Someone watching is on no side: the tally says whose, never "us", "them" or "yours"."""
    state = load_game(spec).new_state(2)
    state.listen()
    state.deal()
    rng = random.Random(2)
    words: set[str] = set()
    while state.to_act >= 0:
        tally = snapshot_of(state, SPECTATOR, _labels(state.n))["hand"]["tally"]
        words |= {t["v"] for line in tally for t in line if t["t"] == "text"}
        state.apply(rng.choice(state.legal_actions()))
    text = " ".join(words).lower()
    assert not {"us", "them", "yours", "you"} & set(text.replace(":", " ").split()), text


# ------------------------------------------------------------------- seat kinds and facts


def test_seat_kinds_are_the_servers_words() -> None:
    """A person (here or remote) is a person, a character of the roster a character, a level
    (the beginner's, the club's) a bot: the words of the web server's TABLE_INFO."""
    from tricktable.seat.snapshot import SEAT_KINDS
    from tricktable.table.table import Remote

    game = load_game("setback")
    table = Table(game, [Remote("ann"), "edna", "beginner", "club"], seed=1, talk=False)
    kinds = [s["kind"] for s in snapshot(table, SPECTATOR)["seats"]]
    assert kinds == ["person", "character", "bot", "bot"]
    assert set(kinds) <= set(SEAT_KINDS)
    # A state and its labels alone: the record's labels say the same.
    labels = ["ann", "bot:edna", "bot:beginner", "bot:heuristic"]
    seen = snapshot_of(table.state, SPECTATOR, seats=labels, version=0)
    assert [s["kind"] for s in seen["seats"]] == ["person", "character", "bot", "bot"]
    table.close()


def test_no_fact_of_a_bid_nobody_made() -> None:
    table = _table("setback")
    table.deal_next()
    facts = snapshot(table, SPECTATOR)["hand"]["facts"]
    said = [ph.to_plain(f, ["a", "b", "c", "d"]) for f in facts]
    assert said == ["no bid yet"]
    bid = next(a for a in table.state.legal_actions() if table.game.action_name(a) == "bid 2")
    table.play_for(table.whose_turn, bid)
    facts = snapshot(table, SPECTATOR)["hand"]["facts"]
    said = [ph.to_plain(f, ["a", "b", "c", "d"]) for f in facts]
    assert "high bid 2" in said and not any("-1" in s or "none" in s for s in said)
    assert any(s.startswith("high bidder ") and s[-1] in "abcd" for s in said)
    table.close()


def test_a_trump_thrown_face_up_is_named_to_all_and_nothing_hidden_is() -> None:
    """Cinch as the web's leak test seats it (people at the first and last seats playing their
    first legal action, heuristic bots between), on the seed whose match had the web test's
    one false alarm: a seat holding seven trumps throws one face up, as the rules show it.
    Every snapshot and event of the match names only what its viewer may know (what it once
    knew stays known), and the throw was there to be seen."""
    game = load_game("cinch(target=11)")
    table = Table(game, ["remote", "heuristic", "heuristic", "remote"], seed=15, talk=False)
    for seat in (1, 2):
        table.players[seat].start_match(game, seat, 15)
    state = table.state
    viewers = [0, 3, SPECTATOR]
    may = dict.fromkeys(viewers, 0)
    seen = dict.fromkeys(viewers, 0)
    shown = 0
    while not table.is_over:
        if state.needs_deal:
            table.deal_next()
        elif state.to_act in (0, 3):
            table.submit(state.to_act, state.legal_actions()[0])
        else:
            seat = state.to_act
            table.play_for(seat, table.players[seat].act(table.view(seat)))
        shown |= thrown_face_up(state)
        for v in viewers:
            may[v] |= known(state, v)
            events = table.events_since(v, seen[v])
            seen[v] += len(events)
            words = json.dumps([snapshot(table, v), [event_json(e, table, v) for e in events]])
            assert not card_names(words) & ~may[v], (v, table.version)
    assert shown, "no trump was thrown face up: the seed no longer tests it"
