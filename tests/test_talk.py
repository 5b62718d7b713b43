"""Table talk (tricktable.characters.talk): no leaks over every game, chat in records and
replays, talk never changes a move, varied and measured lines, answers to people."""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from tricktable.cards import JOKER, LITTLE_JOKER, RANKS, SUIT_NAMES, mask_of
from tricktable.characters.roster import CHARACTERS
from tricktable.characters.talk import LINES_PER_STEP, Speaker, display_name, fields_of, fill
from tricktable.chat import named_cards
from tricktable.chat.notation import RANK_WORDS
from tricktable.engine.actions import BID
from tricktable.engine.events import CardPlayed, Chat, Dealt, HandChanged, HandStarted
from tricktable.games import load_game, names
from tricktable.records import replay
from tricktable.runner import MatchSpec, run_match
from tricktable.table import Person, Table

BOTS = Path(__file__).parent / "bots"
#: every game and preset ``tricktable games`` lists
GAMES = sorted(names())
#: the six characters, Ada on the heuristic (her search is slow in pure Python; her talk is
#: the same whatever plays her cards)
CAST = [name if name != "ada" else "ada(base=heuristic)" for name in CHARACTERS]

_RANK_WORDS = list(RANK_WORDS)
_LONG = re.compile(
    r"\b(2|3|4|5|6|7|8|9|10|" + "|".join(_RANK_WORDS) + r")s? of (" + "|".join(SUIT_NAMES) + r")\b",
    re.IGNORECASE,
)
_JOKER = re.compile(r"\bjokers?\b", re.IGNORECASE)


def cards_named(text: str) -> int:
    """Every card ``text`` names, in each notation the presenters use: ``JH``, ``J♥``,
    ``10♦``, ``JK``, ``jack of hearts``, ``10 of diamonds``, ``joker`` (a mask)."""
    mask = mask_of(named_cards(text))
    for rank, suit in _LONG.findall(text):
        r = (
            _RANK_WORDS.index(rank.lower())
            if not rank.isdigit()
            else (RANKS.index("T") if rank == "10" else int(rank) - 2)
        )
        mask |= 1 << (SUIT_NAMES.index(suit.lower()) * 13 + r)
    if _JOKER.search(text):
        mask |= 1 << JOKER | 1 << LITTLE_JOKER
    return mask


def test_the_card_finder_reads_every_notation() -> None:
    assert cards_named("what a J♥, and the 10♦!") == mask_of([9 + 26, 8 + 13])
    assert cards_named("JH then QS") == mask_of([9 + 26, 10 + 39])
    assert cards_named("the Jack of Hearts and a ten of clubs") == mask_of([9 + 26, 8])
    assert cards_named("JK wins") == 1 << JOKER
    assert cards_named("watch the joker") == 1 << JOKER | 1 << LITTLE_JOKER
    assert cards_named("as I said, ah well") == 0


def _leaks(state_record: dict[str, object]) -> list[str]:
    """Each chat line of a record's match that names a card still in some seat's hand (its
    own unplayed cards, another's hidden ones) or not yet face up this hand."""
    state = replay(state_record, listen=True)  # type: ignore[arg-type]
    log = state.events
    assert log is not None
    hands = [0] * state.n
    played = 0
    found = []
    for event in log.all:
        if isinstance(event, HandStarted):
            played = 0
        elif isinstance(event, (Dealt, HandChanged)):
            hands[event.seat] = event.cards
        elif isinstance(event, CardPlayed):
            hands[event.seat] &= ~(1 << event.card)
            played |= 1 << event.card
        elif isinstance(event, Chat):
            named = cards_named(event.text)
            held = 0
            for hand in hands:
                held |= hand
            if named & held or named & ~played:
                found.append(f"seat {event.seat}: {event.text!r}")
    return found


#: tables of other shapes: six seats as three sides of two and two of three, three alone
SHAPES = [
    "setback(partners=3x2,players=6)",
    "setback(players=6)",
    "setback(partners=false,players=3)",
]


@pytest.mark.parametrize("game", GAMES + SHAPES)
def test_no_line_reveals_a_card_in_any_game(game: str) -> None:
    n = load_game(game).num_players
    spoken = 0
    for seed in range(3):
        cast = [CAST[(seed * n + s) % len(CAST)] for s in range(n)]
        outcome = run_match(MatchSpec(game, tuple(cast), seed=seed, max_hands=4))
        record = json.loads(json.dumps(outcome.record))
        assert _leaks(record) == []
        spoken += sum(1 for note in outcome.state.notes if note.kind == "chat")  # type: ignore[union-attr]
    assert spoken > 0  # the characters did talk: the check checked something


def test_the_leak_check_catches_a_line_that_names_a_held_card() -> None:
    outcome = run_match(MatchSpec("setback", ("rosa",) * 4, seed=3, max_hands=1))
    state = outcome.state
    assert state is not None
    record = outcome.record
    # Plant a line naming a card seat 0 was dealt, before any card was played.
    held = state.history[0].deal[0]
    card = (held & -held).bit_length() - 1
    from tricktable.cards import pretty_card

    hand = record["hands"][0]
    hand.setdefault("notes", []).insert(
        0, {"at": 0, "kind": "chat", "seat": 0, "text": f"{pretty_card(card)}?"}
    )
    assert _leaks(record)


def test_talk_is_in_the_record_and_its_replay() -> None:
    outcome = run_match(MatchSpec("setback", ("vinnie", "edna", "rosa", "kit"), seed=11))
    record = json.loads(json.dumps(outcome.record))
    assert record["format"].endswith("/2")
    said = [
        (h, note["seat"], note["text"])
        for h, hand in enumerate(record["hands"])
        for note in hand.get("notes", [])
        if note["kind"] == "chat"
    ]
    assert len(said) >= 10
    again = replay(record, listen=True)
    assert [(n.hand, n.seat, n.text) for n in again.notes if n.kind == "chat"] == said
    assert again.events is not None
    chats = [e.text for e in again.events.stream(2) if isinstance(e, Chat)]
    assert chats == [text for _, _, text in said]  # every seat hears every line


@pytest.mark.parametrize("game", ["setback", "spades", "euchre", "hearts", "oh-hell", "pedro"])
def test_talk_never_changes_a_move(game: str) -> None:
    n = load_game(game).num_players
    cast = tuple(CAST[s % len(CAST)] for s in range(n))
    moves = []
    for talk in (True, False):
        outcome = run_match(MatchSpec(game, cast, seed=21, max_hands=5, talk=talk))
        state = outcome.state
        assert state is not None
        moves.append([(log.deal, log.actions) for log in state.history])
        chat = [note for note in state.notes if note.kind == "chat"]
        assert bool(chat) == talk
    assert moves[0] == moves[1]


def _lines_by_seat(games: list[str], seeds: range) -> tuple[dict[str, list[str]], int]:
    """Every line each character said over seeded matches, and the public events there were."""
    said: dict[str, list[str]] = {}
    events = 0
    for game in games:
        n = load_game(game).num_players
        for seed in seeds:
            cast = [CAST[(seed + s) % len(CAST)] for s in range(n)]
            outcome = run_match(MatchSpec(game, tuple(cast), seed=seed, max_hands=6))
            state = outcome.state
            assert state is not None and state.events is not None
            events += sum(1 for e in state.events.stream(-1) if not isinstance(e, Chat))
            for note in state.notes:
                if note.kind == "chat":
                    said.setdefault(cast[note.seat].partition("(")[0], []).append(note.text)
    return said, events


def test_lines_are_varied_and_not_too_many() -> None:
    said, events = _lines_by_seat(["setback", "spades", "hearts", "euchre"], range(4))
    assert set(said) == set(CHARACTERS)
    for name, lines in said.items():
        assert all(a != b for a, b in itertools.pairwise(lines)), name
        assert len(set(lines)) >= 5, name
    total = sum(len(lines) for lines in said.values())
    distinct = sum(len(set(lines)) for lines in said.values())
    print(
        f"\n{events} public events, {total} lines, {distinct} distinct per character:"
        f" {100 * distinct / events:.1f} distinct lines per hundred events"
    )
    assert total < events  # fewer lines than things that happened


def test_at_most_a_budget_of_lines_a_hand() -> None:
    outcome = run_match(MatchSpec("setback", ("vinnie", "kit", "rosa", "edna"), seed=4))
    state = outcome.state
    assert state is not None
    per: Counter[tuple[int, int]] = Counter()
    per_step: Counter[tuple[int, int]] = Counter()
    for note in state.notes:
        per[note.hand, note.seat] += 1
        per_step[note.hand, note.at] += 1
    names = ["vinnie", "kit", "rosa", "edna"]
    for (_, seat), count in per.items():
        assert count <= CHARACTERS[names[seat]].style.budget + 1  # and the match's last words
    last = (len(state.history) - 1, len(state.history[-1].actions))
    assert all(c <= LINES_PER_STEP for key, c in per_step.items() if key != last)


def test_every_voice_uses_only_the_fields_it_is_given() -> None:
    allowed = {"name", "partner", "me", "card", "bid", "us", "them"}
    for character in CHARACTERS.values():
        for kind, lines in character.voice.items():
            assert lines, kind
            for line in lines:
                assert fields_of(line) <= allowed, (character.name, line)
                assert cards_named(line.format_map(dict.fromkeys(allowed, "x"))) == 0, line


# ------------------------------------------------------------------- answering people


def _table(players: list[str]) -> Table:
    seats: list[object] = [Person("Sam") if p == "person" else p for p in players]
    return Table(load_game("setback"), seats, seed=5)  # type: ignore[arg-type]


def _answers(table: Table, since: int) -> list[tuple[int, str]]:
    return [(n.seat, n.text) for n in table.state.notes[since:] if n.kind == "chat"]


def test_characters_answer_a_person_at_the_table() -> None:
    table = _table(["person", "vinnie", "edna", "rosa"])
    try:
        table.chat(0, "Hello everyone!")
        answers = _answers(table, 1)
        assert len(answers) == 1 and answers[0][0] != 0
        assert "Sam" in answers[0][1]  # by the person's name

        table.chat(0, "Edna, well played")
        answers = _answers(table, 3)
        assert len(answers) == 1 and answers[0][0] == 2  # the one named answers

        table.chat(0, "what's the score?")
        (_seat, text), *_ = _answers(table, 5)
        assert re.search(r"\b0\b", text)  # 0 to 0: the score as it stands

        table.chat(0, "you are all going down, losers")
        assert _answers(table, 7)  # a taunt gets a retort
    finally:
        table.close()


def test_characters_answer_with_the_score_as_it_stands() -> None:
    outcome = run_match(MatchSpec("setback", ("heuristic",) * 4, seed=8, max_hands=3))
    state = replay(outcome.record, listen=True)
    table = Table(
        load_game("setback"), [Person("Sam"), "kit", "moe", "ada(base=heuristic)"], state=state
    )
    try:
        us, them = state.scores[1], state.scores[0]
        table.chat(0, "Kit, what's the score?")
        ((seat, text),) = _answers(table, len(state.notes) - 1)
        assert seat == 1
        assert str(us) in text and str(them) in text
    finally:
        table.close()


def test_no_answer_to_bots_and_no_flood() -> None:
    table = _table(["person", "vinnie", "edna", "rosa"])
    try:
        table.chat(1, "hello")  # a character's own line is never answered
        assert _answers(table, 1) == []
        for _ in range(30):
            table.chat(0, "hi vinnie")
        said = [s for s, _ in _answers(table, 0) if s != 0]
        assert 0 < len(said) <= 4 * 3  # each character's answers a hand are limited
    finally:
        table.close()


def test_a_table_without_characters_has_no_talker() -> None:
    table = _table(["person", "heuristic", "heuristic", "heuristic"])
    try:
        assert table.talker is None
        table.chat(0, "hello")
        assert _answers(table, 1) == []
    finally:
        table.close()


# ------------------------------------------------------------- names, never labels


def test_a_seat_shows_a_name_never_its_label() -> None:
    shown = {
        "bot:cmd:python bot.py --api-key=SECRET": "Program",
        "bot:CMD:./bot --token SECRET": "Program",
        "bot: cmd:./bot": "Program",
        "bot:http://127.0.0.1:8000/?token=SECRET": "Web bot",
        "bot:HTTPS://user:SECRET@example.org/bot": "Web bot",
        "bot:path/to/SECRET/bot.py:MyBot": "MyBot",
        "bot:package.module:Player": "Player",
        "bot:path/x.py:not a name SECRET": "Bot",
        "bot:edna(base=ismcts)": "Edna",
        "bot:heuristic": "Heuristic",
        "bot:pimc(worlds=20)": "Pimc",
        "human": "you",
        "": "you",
        "you": "you",
        "Sam": "Sam",
    }
    for label, name in shown.items():
        assert display_name(label) == name, label
        assert display_name(name) == name  # a name shown is its own name


def test_a_table_names_its_seats_not_their_labels() -> None:
    secret = f"cmd:{sys.executable} {BOTS / 'chat.py'} --api-key=SECRET"
    table = Table(load_game("setback"), [Person(), "vinnie", secret, "kit"], seed=2)
    try:
        assert "SECRET" in table.labels[2]  # the record keeps the label
        assert table.talker is not None
        for speaker in table.talker.speakers.values():
            assert speaker.names == ["", "Vinnie", "Program", "Kit"]  # "": no name given
    finally:
        table.close()


# ---------------------------------------------------- talking to a person without a name

#: the fields of a line with a person without a name (""), as the name and as the partner
UNNAMED_FIELDS = {"name": "", "partner": "", "me": "Edna", "card": "J♥", "bid": "3",
                  "us": "5", "them": "7"}  # fmt: skip
#: what a line must not read like when it speaks to or of a person without a name
BAD_WORDING = re.compile(
    r"\{|\}|[,:;]\s*[.!?,:;]|\s[.!?,:;]|\s\s|^\s|\s$|^[,.!?:;]|^[a-z]"  # no name left a gap
    r"|(?i:,\s*(you|human|friend)\s*([.!?,]|$))"  # "Thank you, you."
    r"|(?i:\bmy (you|human|friend)\b)"  # "That's my you!"
    r"|(^|[.!?] )(?i:(you|human|friend)[,!.?])"  # "You! Pull up a chair"
    r"|(?i:\b(you|human|friend) (bids|says|has|holds|gets|goes|eats|makes|collects|is)\b)"
    r"|(?i:\bfriend\b)"
)


def test_every_line_reads_right_to_a_person_without_a_name() -> None:
    kept = Counter[tuple[str, str]]()
    for character in CHARACTERS.values():
        for kind, lines in character.voice.items():
            for line in lines:
                named = fill(line, {**UNNAMED_FIELDS, "name": "Sam", "partner": "Sam"})
                assert named == line.format_map({**UNNAMED_FIELDS, "name": "Sam", "partner": "Sam"})
                for fields in (
                    UNNAMED_FIELDS,
                    {**UNNAMED_FIELDS, "partner": "Rosa"},
                    {**UNNAMED_FIELDS, "name": "Rosa"},
                ):
                    said = fill(line, fields)
                    if said is None:
                        assert "{name}" in line and fields["name"] == ""  # about them: unsaid
                        continue
                    assert not BAD_WORDING.search(said), (line, said)
                    assert said[0].isupper() or said[0].isdigit() or said[0] in "'J", (line, said)
                    if fields is UNNAMED_FIELDS:
                        kept[character.name, kind] += 1
    # Every character still answers a person without a name, whatever was said to it.
    for character in CHARACTERS.values():
        for kind in ("greet", "thanks", "retort", "score", "named"):
            if character.style.talk.get(kind, 0.0) > 0:
                assert kept[character.name, kind] > 0, (character.name, kind)
    assert fill("That's my {partner}!", UNNAMED_FIELDS) == "That's my partner!"
    assert fill("Thank you, {name}.", UNNAMED_FIELDS) == "Thank you."
    assert fill("{name}! Pull up a chair.", UNNAMED_FIELDS) == "Pull up a chair."
    assert fill("{partner} bids {bid}!", UNNAMED_FIELDS) == "My partner bids 3!"
    assert fill("{name} bids {bid}.", UNNAMED_FIELDS) is None


@pytest.mark.parametrize("label", ["", "you", "human"])
def test_characters_never_call_a_person_you_or_friend(label: str) -> None:
    # A whole match at a table, the person's partner a character (Vinnie: "That's my
    # {partner}!"), the person chatting: nothing the characters say calls them by a label.
    said: list[str] = []
    for seed in range(3):
        table = Table(load_game("setback"), [Person(label), "kit", "vinnie", "rosa"], seed=seed)
        try:
            for text in ("hello all", "thanks, well played", "lol you lose", "what's the score?"):
                table.chat(0, text)
            state = table.state
            while not table.ended:
                if state.needs_deal:
                    table.deal_next()
                    continue
                seat = state.to_act
                action = table.view(seat).legal_actions()[0]
                if seat == 0:
                    table.submit(0, action)
                else:
                    table.play_for(seat, action)
            said += [n.text for n in state.notes if n.kind == "chat" and n.seat != 0]
        finally:
            table.close()
    assert len(said) > 20
    assert any("partner" in line for line in said)  # Vinnie and Rosa spoke to their partner
    bad = [line for line in said if BAD_WORDING.search(line)]
    assert bad == []


@pytest.mark.parametrize(
    ("spec", "seat", "partners"),
    [
        ("setback", 0, (2,)),
        ("setback(partners=3x2,players=6)", 1, (4,)),  # partners sit opposite
        ("setback(players=6)", 0, (2, 4)),  # two sides of three, alternating
        ("setback(partners=false,players=3)", 0, ()),
    ],
)
def test_a_speaker_knows_its_partners_at_any_table(
    spec: str, seat: int, partners: tuple[int, ...]
) -> None:
    from tricktable.engine.events import Acted

    game = load_game(spec)
    names = [f"P{s}" for s in range(game.num_players)]
    speaker = Speaker(CHARACTERS["edna"], seat, game, names, 1)
    assert speaker.partners == partners
    for other in range(game.num_players):
        if other == seat:
            continue
        heard = speaker.hear(Acted(other, BID + 3, "bid 3"))
        assert heard is not None
        kind, fields = heard
        if other in partners:  # the line names the partner who bid
            assert (kind, fields.get("partner")) == ("bid_partner", names[other])
        else:
            assert kind == "bid_opponent"
