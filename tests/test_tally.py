"""The hand's running tally (``Presenter.tally_lines``): hands played by bots through the
engine, each line checked against facts computed here from the full state and the hand's
result, and random positions searched for a card the viewer may not know."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from helpers import VARIANTS, known, positions
from tricktable.bots import make_bot
from tricktable.cards import (
    JOKER,
    LITTLE_JOKER,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    mask_of,
    parse_card,
    pretty_card,
)
from tricktable.engine.trick import AUCTION, PLAY, Game, TrickState
from tricktable.games import GAMES, PRESETS, load_game
from tricktable.games.pitch_scoring import game_count
from tricktable.seat.games import Presenter, Seating, presenter_for
from tricktable.ui.terminal import seat_names

#: a card as people read it in the tally (``10♦``, ``Q♠``, ``JK``)
PRETTY = re.compile(rf"10[{SUIT_SYMBOLS}]|[2-9JQKA][{SUIT_SYMBOLS}]|\bJ[KL]\b")
#: card points toward Setback's Game, by rank letter (RULES.md)
GAME_VALUE = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
#: the jack of the same colour, by trump suit letter
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
PITCH_SPECS = ["setback", *sorted(p for p in PRESETS if PRESETS[p].game == "setback")]
#: how the tally names a point, where that is not its name capitalized ("off_jack": Off-jack)
LABELS = {"little_joker": "Little joker"}

# ------------------------------------------------------------------------------ helpers


def tally(game: Game, state: TrickState, viewer: int) -> list[str]:
    """The tally of ``viewer``'s view, with ``viewer`` as the one human ("You")."""
    seating = Seating(game, seat_names([viewer], game.num_players))
    return [t.plain for t in presenter_for(game).tally_lines(seating, state.view(viewer))]


def labelled(lines: list[str]) -> dict[str, str]:
    """The lines as label -> the rest ("High so far: K♥ yours" -> {"High so far": ...})."""
    return dict(ln.split(": ", 1) for ln in lines if ": " in ln)


def word(game: Game, viewer: int, side: int) -> str:
    """How the viewer names a side: us/them with partners, else the seat by where it sits."""
    if game.num_scores < game.num_players:  # partnerships: ours, then the others' seats
        if side == game.team_of(viewer):
            return "us"
        if game.num_scores == 2:
            return "them"
        return Seating(game, seat_names([viewer], game.num_players)).side_name(side)
    name = seat_names([viewer], game.num_players)[side]
    return "you" if name == "You" else name


def played(state: TrickState) -> int:
    """Every card played this hand (taken in tricks or on the table)."""
    out = mask_of(state.trick)  # the state's trick: the cards, in order of play
    for won in state.won:
        out |= won
    return out


def hands(
    spec: str, seed: int, count: int, force: dict[int, str] | None = None
) -> Iterator[tuple[str, TrickState]]:
    """Every state of the first ``count`` hands of a heuristic-bot match: ("turn", state)
    before each decision, ("end", state) once a hand is scored. ``force`` names an action a
    seat takes when it is legal (a nil bid)."""
    game = load_game(spec)
    bots = [make_bot("heuristic") for _ in range(game.num_players)]
    for seat, bot in enumerate(bots):
        bot.start_match(game, seat, seed + seat)
    state = game.new_state(seed)
    for _ in range(count):
        if not state.needs_deal:
            return
        state.deal()
        while state.to_act >= 0:
            yield "turn", state
            seat = state.to_act
            wanted = (force or {}).get(seat)
            action = game.parse_action(wanted) if wanted else -1
            if action not in state.legal_actions():
                action = bots[seat].act(state.view(seat))
            state.apply(action)
        yield "end", state


# --------------------------------------------------------------------------- Setback


def point_card(key: str, trump: int) -> int:
    """The card of a fixed-card point, from the names of the cards (RULES.md and presets)."""
    suit = SUITS[trump]
    other = SAME_COLOUR[suit]
    names = {"jack": "J" + suit, "off_jack": "J" + other, "three": "3" + suit}
    names |= {"five": "5" + suit, "off_five": "5" + other, "ten": "T" + suit}
    if key == "joker":
        return JOKER
    if key == "little_joker":
        return LITTLE_JOKER
    return parse_card(names[key])


def where(state: TrickState, viewer: int, card: int, by_dealt: bool) -> str:
    """Where the tally must say a known card is, read from the full state."""
    game = state.game
    if state.hands[viewer] >> card & 1:
        return "yours"
    if by_dealt:
        seat = next(s for s in range(state.n) if state.dealt[s] >> card & 1)
        return "dealt to " + word(game, viewer, game.team_of(seat))
    if card in state.trick:
        return "in the trick"
    taker = next(s for s in range(state.n) if state.won[s] >> card & 1)
    return "taken by " + word(game, viewer, game.team_of(taker))


def check_pitch_turn(game: Game, state: TrickState, viewer: int) -> None:
    lines = tally(game, state, viewer)
    if state.tables.suit < 0:
        assert lines[0] == "Trump not named yet"
        if state.phase == AUCTION:
            assert lines[1] == "No bid yet" or lines[1].startswith("High bid: ")
        else:
            name = seat_names([viewer], game.num_players)[state.declarer]
            assert lines[1] == f"Contract: {name} bid {state.bid}"
        return
    got = labelled(lines)
    tables, trump = state.tables, state.tables.suit
    seen = played(state) | state.hands[viewer]
    deck = mask_of(game.deck)
    opts = game.options
    assert len(got) == len(game.weights), lines
    for key, weight in game.weights.items():
        label = LABELS.get(key, key.replace("_", "-").capitalize())
        label += f" ({weight})" if weight != 1 else ""
        if key == "game":
            sides = [0] * game.num_scores
            for seat in range(state.n):
                for card in range(52):
                    if state.won[seat] >> card & 1:
                        sides[game.team_of(seat)] += GAME_VALUE.get(RANKS[card % 13], 0)
            first = game.team_of(viewer)  # the viewer's side first, then round the table
            order = [(first + i) % game.num_scores for i in range(game.num_scores)]
            full = " · ".join(f"{word(game, viewer, t)} {sides[t]}" for t in order)
            if len(label) + 2 + len(full) <= 42:
                assert got[label] == full
            else:  # too many sides for the panel: the viewer's count and the most
                tie = " (tied)" if sides.count(max(sides)) > 1 else ""
                want = f"{word(game, viewer, first)} {sides[first]} · most {max(sides)}{tie}"
                assert got[label] == want
        elif key in ("high", "low"):
            trumps = [c for c in range(52) if (seen & tables.mask) >> c & 1]
            line = got.get(label) or got[f"{label} so far"]
            if not trumps:
                assert line == "no trump seen yet"
                continue
            rank = tables.power.__getitem__
            card = max(trumps, key=rank) if key == "high" else min(trumps, key=rank)
            others = [c for c in range(52) if (deck & tables.mask & ~seen) >> c & 1]
            beaten = any((rank(c) > rank(card)) == (key == "high") for c in others)
            assert (label in got) == (not beaten), (label, lines)
            by_dealt = key == "low" and opts.low_to == "dealt"
            assert line == f"{pretty_card(card)} {where(state, viewer, card, by_dealt)}"
        else:
            card = point_card(key, trump)
            if seen >> card & 1:
                assert got[label] == f"{pretty_card(card)} {where(state, viewer, card, False)}"
            else:
                assert got[label] == "not seen yet"


def check_pitch_end(game: Game, state: TrickState) -> None:
    """After the last card: every line agrees with the engine's scoring of the hand."""
    result = state.results[-1]
    if result.thrown_in:
        return
    for viewer in range(state.n):
        got = labelled(tally(game, state, viewer))
        for key, weight in game.weights.items():
            label = LABELS.get(key, key.replace("_", "-").capitalize())
            label += f" ({weight})" if weight != 1 else ""
            side = result.points[key]
            text = got[label]  # no "so far" once the hand is over
            if key == "game" and " · most " in text:  # too many sides for the panel
                mine, most = text.split(" · most ")
                sides = [0] * game.num_scores
                for seat in range(state.n):
                    sides[game.team_of(seat)] += game_count(state.won[seat])
                ours = game.team_of(viewer)
                assert int(mine.rsplit(" ", 1)[1]) == sides[ours]
                assert int(most.split()[0]) == max(sides)
                assert (side == ours) == (sides[ours] == max(sides) and "tied" not in most)
            elif key == "game":
                counts = [int(part.rsplit(" ", 1)[1]) for part in text.split(" · ")]
                best = max(counts)
                top = counts.index(best) if counts.count(best) == 1 else None
                # listed from the viewer's side round the table
                first = game.team_of(viewer)
                winner = None if top is None else (first + top) % game.num_scores
                assert winner == side, (text, result)
            elif side is None:
                assert text == "not dealt"
            else:
                how = "dealt to" if key == "low" and game.options.low_to == "dealt" else "taken by"
                assert text.endswith(f" {how} {word(game, viewer, side)}"), (text, result)


@pytest.mark.parametrize("spec", PITCH_SPECS)
def test_pitch_tally_follows_the_hand(spec: str) -> None:
    game = load_game(spec)
    turns = ends = 0
    for kind, state in hands(spec, seed=11, count=3):
        if kind == "end":
            check_pitch_end(game, state)
            ends += 1
            continue
        turns += 1
        for viewer in range(state.n):
            check_pitch_turn(game, state, viewer)
    assert ends == 3 and turns > 30


# ----------------------------------------------------------------------- Hearts group


def hearts_points(won: int) -> int:
    return sum(1 for c in range(52) if won >> c & 1 and c // 13 == SUITS.index("H")) + (
        13 if won >> parse_card("QS") & 1 else 0
    )


def filippa_penalty(won: int) -> int:
    hearts = {"J": 2, "Q": 3, "K": 4, "A": 5}
    total = 13 if won >> parse_card("QS") & 1 else 0
    for c in range(52):
        if won >> c & 1 and c // 13 == SUITS.index("H"):
            total += hearts.get(RANKS[c % 13], 1)
    return -total


def per_seat(game: Game, viewer: int, lines: list[str], unit: str) -> dict[int, str]:
    """Lines that start with a seat's name, by seat."""
    names = seat_names([viewer])
    out = {}
    for ln in lines:
        name, _, rest = ln.partition(": ")
        if name in names:
            out[names.index(name)] = rest
    assert len(out) == 4, lines
    return out


def test_hearts_tally_counts_points_broken_and_the_moon() -> None:
    game = load_game("hearts")
    moons = 0
    for kind, state in hands("hearts", seed=5, count=3):
        points = [hearts_points(w) for w in state.won]
        for viewer in range(4):
            lines = tally(game, state, viewer)
            seats = per_seat(game, viewer, lines, "points")
            for seat, text in seats.items():
                want = f"{points[seat]} point{'s' * (points[seat] != 1)}"
                if state.won[seat] >> parse_card("QS") & 1:
                    want += " with Q♠"
                assert text == want
            broken = "broken" if state.broken else "not broken"
            assert f"Hearts {broken} · {26 - sum(points)} points left" in lines
            takers = [s for s in range(4) if points[s]]
            watch = [ln for ln in lines if ln.startswith("Moon watch: ")]
            assert len(watch) == (len(takers) == 1)
            moons += bool(watch)
        if kind == "end":
            assert tuple(points) == state.results[-1].penalties
    assert moons  # the branch was seen


def test_filippa_tally_counts_penalties_and_the_clean() -> None:
    game = load_game("filippa")
    for kind, state in hands("filippa", seed=5, count=2):
        penalties = [filippa_penalty(w) for w in state.won]
        if kind == "end":
            assert tuple(penalties) == state.results[-1].penalties
        for viewer in range(4):
            lines = tally(game, state, viewer)
            seats = per_seat(game, viewer, lines, "")
            assert {s: int(t) for s, t in seats.items()} == dict(enumerate(penalties))
            names = seat_names([viewer])
            clean = labelled(lines)["Clean so far"]
            assert {n for n in clean.split(", ") if n != "nobody"} == {
                names[s] for s in range(4) if not penalties[s]
            }


# ---------------------------------------------------------------------- bids and tricks


def test_spades_tally_bids_tricks_nils_and_bags() -> None:
    game = load_game("spades")
    nils = 0
    for kind, state in hands("spades", seed=3, count=3, force={2: "bid nil"}):
        if state.phase != PLAY and kind == "turn":
            continue
        for viewer in range(4):
            got = labelled(tally(game, state, viewer))
            bags = list(state.bags)
            for side in range(2):
                seats = (side, side + 2)
                numbers = [state.bids[s] for s in seats if state.bids[s] > 0]
                took = sum(state.tricks_won[s] for s in seats if state.bids[s] > 0)
                text = got[word(game, viewer, side).title()]
                if numbers:
                    assert text == f"bid {sum(numbers)}, took {took}"
                    bags[side] += max(took - sum(numbers), 0)
                else:
                    assert text == "no contract (nil)"
                for s in seats:
                    if state.bids[s] == 0:
                        nils += 1
                        bags[side] += state.tricks_won[s]
                        blind = state.blind >> s & 1
                        name = seat_names([viewer])[s]
                        whose = "Your" if name == "You" else f"{name}'s"
                        key = f"{whose} {'blind nil' if blind else 'nil'}"
                        n = state.tricks_won[s]
                        assert got[key] == ("safe so far" if not n else f"failed ({n} taken)")
            if kind == "end":  # scored: the bags are the engine's own count after the hand
                bags = list(state.results[-1].bags)
            first = viewer & 1
            want = f"{word(game, viewer, first)} {bags[first]}"
            want += f" · {word(game, viewer, 1 - first)} {bags[1 - first]}"
            assert got["Bags so far"] == want
    assert nils


def test_euchre_tally_makers_tricks_and_outcome() -> None:
    game = load_game("euchre")
    ends = 0
    for kind, state in hands("euchre", seed=8, count=4):
        for viewer in range(4):
            lines = tally(game, state, viewer)
            if state.maker < 0:
                assert lines[0] == "Trump not made yet"
                continue
            got = labelled(lines)
            makers = state.maker & 1
            alone = ", alone" if state.alone else ""
            name = seat_names([viewer])[state.maker]
            assert got["Makers"] == f"{word(game, viewer, makers)} ({name}{alone})"
            won = [
                state.tricks_won[0] + state.tricks_won[2],
                state.tricks_won[1] + state.tricks_won[3],
            ]
            first = viewer & 1
            assert got["Tricks"] == (
                f"{word(game, viewer, first)} {won[first]} · "
                f"{word(game, viewer, 1 - first)} {won[1 - first]}"
            )
            took, against = won[makers], won[1 - makers]
            if took == 5:
                assert lines[-1] == "A march: all five tricks"
            elif took >= 3:
                assert lines[-1] == ("Made" if against else "Made, a march still open")
            elif against >= 3:
                assert lines[-1] == "Euchred!"
            else:
                assert lines[-1] == f"Makers need {3 - took} more of {5 - took - against}"
            if kind == "end":
                result = state.results[-1]
                assert ("Euchred!" in lines) == result.euchred
                assert ("A march: all five tricks" in lines) == (won[makers] == 5)
        ends += kind == "end"
    assert ends == 4


def test_oh_hell_tally_bids_against_tricks() -> None:
    game = load_game("oh-hell")
    for kind, state in hands("oh-hell", seed=4, count=3):
        for viewer in range(4):
            seats = per_seat(game, viewer, tally(game, state, viewer), "")
            for seat, text in seats.items():
                bid, took = state.bids[seat], state.tricks_won[seat]
                if bid < 0:
                    assert text == "no bid yet"
                    continue
                mark = " (over)" if took > bid else " (exact)" if took == bid else ""
                assert text == f"bid {bid}, took {took}{mark}"
        if kind == "end":
            result = state.results[-1]
            lines = tally(game, state, 0)
            exact = sum(ln.endswith("(exact)") for ln in lines)
            assert exact == sum(b == t for b, t in zip(result.bids, result.tricks, strict=True))


@pytest.mark.parametrize("spec", ["tricks", "spades"])
def test_generic_tally_is_tricks_per_side(spec: str) -> None:
    game = load_game(spec)
    presenter = Presenter(game)  # the generic presenter, whatever the game declares
    for kind, state in hands(spec, seed=2, count=1):
        if state.phase != PLAY:
            continue
        seating = Seating(game, seat_names([1]))
        lines = [t.plain for t in presenter.tally_lines(seating, state.view(1))]
        won = list(state.tricks_won)
        if game.num_scores == 2:
            won = [won[1] + won[3], won[0] + won[2]]  # us (seat 1's side) first
            names = ["Us", "Them"]
        else:
            won = won[1:] + won[:1]
            names = ["You", "West", "North", "East"]
        for name, n, ln in zip(names, won, lines, strict=False):
            assert ln == f"{name}: {n} trick{'s' * (n != 1)}"
        if kind == "turn":
            assert lines[-1].endswith("to play")


# ------------------------------------------------------------------------ what leaks


LEAK_SPECS = [*sorted(GAMES), *sorted(PRESETS), *VARIANTS]


@pytest.mark.parametrize("spec", LEAK_SPECS)
def test_tally_names_only_cards_the_viewer_may_know(spec: str) -> None:
    """At every decision of random hands, for every seat: each card the tally names is
    public or the seat's own, and the lines are short enough for a side panel."""
    game = load_game(spec)
    named = 0
    for state in positions(spec, seed=21, hands=2):
        for viewer in range(state.n):
            lines = tally(game, state, viewer)
            assert 1 <= len(lines) <= 8, lines
            assert all(len(ln) <= 42 for ln in lines), lines
            cards = mask_of(parse_card(c) for c in PRETTY.findall(" ".join(lines)))
            leaked = cards & ~known(state, viewer)
            assert not leaked, (viewer, lines)
            named += bool(cards)
    if game.name == "setback":
        assert named  # the check had something to look at


def test_pitch_tally_says_yours_only_for_the_viewers_cards() -> None:
    """The point cards said to be "yours" are exactly those of them in the viewer's hand."""
    game = load_game("setback")
    for state in positions("setback", seed=9, hands=3):
        if state.tables.suit < 0:
            continue
        for viewer in range(4):
            got = labelled(tally(game, state, viewer))
            for key, label in (("jack", "Jack"), ("off_jack", "Off-jack"), ("joker", "Joker")):
                card = point_card(key, state.tables.suit)
                assert got[label].endswith("yours") == bool(state.hands[viewer] >> card & 1)
