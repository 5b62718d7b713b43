"""Strategy insights: the counts against the records read another way, the variants' own bids
and points, the filter by entrant, and the weighted running mean."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from tricktable.analysis import insights as insights_module
from tricktable.analysis.insights import (
    BidKey,
    InsightsReader,
    Tally,
    length_bucket,
    read_insights,
)
from tricktable.analysis.intervals import Accumulator
from tricktable.db.store import Store, StoredGame
from tricktable.games import load_game
from tricktable.records import replay
from tricktable.runner import MatchSpec, run_match
from tricktable.tournament import run as run_mod
from tricktable.tournament.spec import TournamentSpec

DEALS = 15


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[int, str], list[StoredGame]]:
    """A small duplicate tournament of heuristic against random: its entrants and games."""
    path = tmp_path_factory.mktemp("insights") / "t.db"
    spec = TournamentSpec(
        name="t",
        game="setback",
        entrants=(("heuristic", "heuristic"), ("random", "random")),
        deals=DEALS,
        seed=1,  # the same cards at every run: a spec given no seed draws one
    )
    with Store.open(str(path)) as store:
        run_mod.run(store, run_mod.start(store, spec), workers=1)
        found = store.find_tournament("t")
        assert found is not None
        names = {e.id: e.name for e in store.entrants(found.id)}
        return names, list(store.games(found.id))


def stored(record: dict[str, Any], seats: tuple[int, ...] = (1, 1, 1, 1)) -> StoredGame:
    return StoredGame(1, 1, "u", 0, 0, seats, 0, record, {}, [], datetime.now(UTC))


def test_the_doctests_pass() -> None:
    failed, tried = doctest.testmod(insights_module)
    assert tried > 0 and failed == 0


def test_tally_counts_a_value_many_times_as_adding_it_one_at_a_time() -> None:
    rng = random.Random(7)
    values = [rng.choice([-6, -3, -2, 0, 1, 2, 4.5]) for _ in range(2000)]
    one_by_one = Accumulator()
    for value in values:
        one_by_one.add(value)
    counted = Tally()
    for value, n in Counter(values).items():
        counted.add_many(value, n)
    a, b = one_by_one.summary(), counted.summary()
    assert (a.n, a.method) == (b.n, b.method)
    for x, y in ((a.mean, b.mean), (a.sd, b.sd), (a.low, b.low), (a.high, b.high)):
        assert x == pytest.approx(y, rel=1e-12, abs=1e-12)


def test_the_trump_lengths_match_the_deals_read_as_text(
    games: tuple[dict[int, str], list[StoredGame]],
) -> None:
    names, stored_games = games
    expected: Counter[tuple[str, int]] = Counter()
    for game in stored_games:
        assert game.record is not None
        result = replay(game.record).results[0].to_dict()
        trump = result["trump"]
        hand = game.record["hands"][0]["deal"][result["declarer"]]
        # Setback: the trump suit's cards and the joker (the off-jack stays in its suit).
        length = sum(1 for card in hand if card == "JK" or card[1] == trump)
        expected[length_bucket(length), result["bid"]] += 1
    ins = read_insights("setback", names, stored_games)
    shown = Counter(
        {(value, key.bid): cell.n for (value, key), cell in ins.cells("trump length").items()}
    )
    assert shown == expected
    assert sum(shown.values()) == ins.declared == 2 * DEALS


def test_the_features_split_the_same_hands(
    games: tuple[dict[int, str], list[StoredGame]],
) -> None:
    names, stored_games = games
    ins = read_insights("setback", names, stored_games)
    by_bid = {key: cell.n for (_, key), cell in ins.cells("all").items()}
    for feature in ("trump length", "joker", "jack", "ace", "ten", "score"):
        split: Counter[BidKey] = Counter()
        for (_, key), cell in ins.cells(feature).items():
            split[key] += cell.n
        assert dict(split) == by_bid, feature
    assert sum(c.n for c in ins.by_entrant.values()) == ins.declared
    assert sum(ins.declared_from) == ins.declared
    # Every seat that acted in an auction is in the guide once per hand.
    assert sum(cell.n for cell in ins.guide.values()) <= 4 * ins.hands


def test_insights_from_one_entrant_count_its_decisions_only(
    games: tuple[dict[int, str], list[StoredGame]],
) -> None:
    names, stored_games = games
    ins = read_insights("setback", names, stored_games, only=["heuristic"])
    assert ins.only == ("heuristic",)
    assert set(ins.by_entrant) == {"heuristic"}
    assert ins.hands == 2 * DEALS  # the points and the edges still count every hand
    assert sum(c.n for c in ins.cells("all").values()) == ins.by_entrant["heuristic"].n
    with pytest.raises(Exception, match="no entrant named 'nobody'"):
        InsightsReader("setback", names, only=["nobody"])


def test_a_variant_reads_its_own_bids_and_points() -> None:
    # The bid range, the joker and the points come from the variant, not from Setback's.
    outcome = run_match(MatchSpec(game="auction-pitch", players=("heuristic",) * 4, seed=3))
    reader = InsightsReader("auction-pitch", {1: "h"})
    reader.add(stored(outcome.record))
    ins = reader.result()
    assert ins.bids == (2, 3, 4) and not ins.jokers
    assert ins.hands == len(outcome.record["hands"]) > 1
    assert list(ins.points) == ["high", "low", "jack", "game"]
    assert "joker" not in ins.features


def test_a_record_that_does_not_replay_is_counted_and_skipped() -> None:
    outcome = run_match(MatchSpec(game="setback", players=("random",) * 4, seed=5, max_hands=1))
    bad = {**outcome.record, "hands": [{**outcome.record["hands"][0], "actions": ["bid 9"]}]}
    reader = InsightsReader("setback", {1: "r"})
    reader.add(stored(bad))
    reader.add(stored(outcome.record))
    ins = reader.result()
    assert (ins.games, ins.unreadable, ins.hands) == (2, 1, 1)


def test_a_game_outside_the_pitch_family_is_unsupported() -> None:
    outcome = run_match(MatchSpec(game="hearts", players=("random",) * 4, seed=2, max_hands=1))
    reader = InsightsReader("hearts", {1: "r"})
    reader.add(stored(outcome.record))
    ins = reader.result()
    assert not ins.supported and "Setback and the Pitch family" in ins.note


@pytest.mark.parametrize(
    "spec",
    ["setback(partners=3x2,players=6)", "setback(players=6)", "setback(partners=false,players=3)"],
)
def test_any_table_size_reads_its_hands_and_sides(spec: str) -> None:
    n = load_game(spec).num_players
    seats = tuple(1 + s % 2 for s in range(n))  # entrant 1 (h) and 2 (r) alternate
    players = tuple(("heuristic", "random")[s % 2] for s in range(n))
    outcome = run_match(MatchSpec(game=spec, players=players, seed=3, max_hands=6))
    reader = InsightsReader(spec, {1: "h", 2: "r"})
    reader.add(stored(outcome.record, seats))
    ins = reader.result()
    assert ins.supported and ins.unreadable == 0
    assert ins.hands == len(outcome.record["hands"]) >= 1
    assert len(ins.declared_from) == n  # each place after the dealer
    assert sum(ins.declared_from) + ins.thrown_in == ins.hands
    assert set(ins.by_entrant) <= {"h", "r"} and ins.points
