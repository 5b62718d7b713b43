"""Standings and ratings of a stored tournament, and ``tricktable standings``.

Each tournament is written by hand into a real SQLite store (``Store.create_tournament`` and
``add_games``), with scores chosen so that every margin, interval, rate and head-to-head cell
can be worked out here by hand, from the formulas rather than from the code under test.
"""

from __future__ import annotations

import doctest
import json
import math
import random
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from tricktable.analysis import ratings as ratings_module
from tricktable.analysis.ratings import RatedGame, rate_games
from tricktable.analysis.standings import Standings, StandingsError, read_standings
from tricktable.cli.standings import run_standings
from tricktable.db import GameRow, Store

Cli = Callable[..., subprocess.CompletedProcess[str]]

#: Student's t (two-sided 95%) for 2 and 3 degrees of freedom, from a printed table
T2, T3 = 4.302653, 3.182446
Z = 1.959964

PARTNERS = {"side_of_seat": [0, 1, 0, 1], "num_sides": 2, "lower_wins": False}
ALONE = {"side_of_seat": [0, 1, 2, 3], "num_sides": 4, "lower_wins": True}


def spec(entrants: Sequence[str], **fields: Any) -> dict[str, Any]:
    base = {
        "game": "setback",
        "format": "duplicate",
        "deals": 4,
        "matches": None,
        "seed": 1,
        "partnerships": "self",
        # As the tournament runner stores it: the fault policy among the limits.
        "limits": {"decision_time": 2.0, "on_fault": fields.pop("on_fault", "substitute")},
        "substitute": "heuristic",
        "entrants": [[name, "heuristic"] for name in entrants],
        **PARTNERS,
    }
    return {**base, **fields}


def game(
    unit: str,
    seats: Sequence[int],
    scores: Sequence[int],
    *,
    winner: int | None = None,
    shared: bool = False,
    forfeited_by: int | None = None,
    faults: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    return {
        "unit": unit,
        "seats": list(seats),
        "scores": list(scores),
        "winner": winner,
        "shared": shared,
        "forfeited_by": forfeited_by,
        "faults": list(faults),
    }


def store_tournament(
    store: Store, name: str, entrants: Sequence[str], games: Sequence[dict[str, Any]], **fields: Any
) -> dict[str, int]:
    """Write a tournament and its games; the entrants' ids by name. A game's seats name
    entrants by their index in ``entrants``."""
    tid = store.create_tournament(
        name, spec(entrants, **fields), [(n, "heuristic") for n in entrants]
    )
    ids = {e.name: e.id for e in store.entrants(tid)}
    rows = []
    for g in games:
        group, deal, table = (int(part[1:]) for part in g["unit"].split("/"))
        status = "forfeited" if g["forfeited_by"] is not None else "finished"
        result = {
            "status": status,
            "scores": g["scores"],
            "winner": g["winner"],
            "shared": g["shared"],
            "hands": 1,
            "group": group,
            "forfeited_by": g["forfeited_by"],
        }
        seats = [ids[entrants[i]] for i in g["seats"]]
        rows.append(
            GameRow(tid, g["unit"], deal, table, seats, deal, {"x": 1}, result, g["faults"])
        )
    assert store.add_games(rows) == len(rows)
    return ids


def fault(seat: int, kind: str, penalty: str) -> dict[str, Any]:
    return {"hand": 0, "action": 3, "seat": seat, "kind": kind, "detail": "x", "penalty": penalty}


def t_interval(values: Sequence[float], t: float) -> tuple[float, float, float]:
    """The mean and the 95% interval of ``values``, the textbook way."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, mean - t * sd / math.sqrt(n), mean + t * sd / math.sqrt(n)


def wilson_interval(k: float, n: int) -> tuple[float, float]:
    p = k / n
    center = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, center - half), min(1.0, center + half)


def row(standings: Standings, name: str) -> Any:
    return next(r for r in standings.rows if r.name == name)


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store.open(tmp_path / "tricktable.db") as opened:
        yield opened


# A and B, self partnerships (A at seats 0 and 2 on table 0, at 1 and 3 on table 1): three
# whole deals and a fourth whose second table is not stored yet. B faults three times.
DUPLICATE = [
    game(
        "g0/d0/t0",
        [0, 1, 0, 1],
        [3, 1],
        faults=[fault(1, "timeout", "substitute"), fault(3, "crash", "substitute")],
    ),
    game("g0/d0/t1", [1, 0, 1, 0], [2, 2]),
    game("g0/d1/t0", [0, 1, 0, 1], [4, 0]),
    game("g0/d1/t1", [1, 0, 1, 0], [1, 3], faults=[fault(2, "illegal", "substitute")]),
    game("g0/d2/t0", [0, 1, 0, 1], [0, 2]),
    game("g0/d2/t1", [1, 0, 1, 0], [3, 1]),
    game("g0/d3/t0", [0, 1, 0, 1], [1, 0]),
]
# A's margins table by table: +2, 0 | +4, +2 | -2, -2 | +1; its duplicate scores 1, 3, -2.
A_MARGINS = [2, 0, 4, 2, -2, -2, 1]
A_DUPLICATE = [1, 3, -2]


def test_duplicate_standings_pair_each_deal_over_its_tables(store: Store) -> None:
    store_tournament(store, "dup", ["A", "B"], DUPLICATE)
    standings = read_standings(store, "dup")
    assert [r.name for r in standings.rows] == ["A", "B"]
    assert standings.ranked_by == "duplicate score"
    assert (standings.games, standings.deals, standings.complete_deals) == (7, 4, 3)
    a, b = row(standings, "A"), row(standings, "B")
    assert a.games == b.games == 7

    # The margin per deal: every table, the unfinished deal's too.
    mean, low, high = t_interval(A_MARGINS, 2.446912)  # t with 6 degrees of freedom
    assert a.margin.n == 7
    assert a.margin.mean == pytest.approx(mean)
    assert (a.margin.low, a.margin.high) == (pytest.approx(low), pytest.approx(high))
    assert b.margin.mean == pytest.approx(-mean)

    # The duplicate score: whole deals only, each the mean of its two tables.
    mean, low, high = t_interval(A_DUPLICATE, T2)
    assert a.duplicate.n == 3
    assert a.duplicate.mean == pytest.approx(2 / 3) == pytest.approx(mean)
    assert (a.duplicate.low, a.duplicate.high) == (pytest.approx(low), pytest.approx(high))
    assert b.duplicate.mean == pytest.approx(-2 / 3)

    # Fixed deals: a deal is won when its duplicate score is above 0.
    assert (a.won, a.lost, a.shared, b.won, b.lost) == (2, 1, 0, 1, 2)
    assert a.win_rate.rate == pytest.approx(2 / 3)
    assert (a.win_rate.low, a.win_rate.high) == pytest.approx(wilson_interval(2, 3))

    # Head to head: with two sides, A's margin over B is its duplicate score.
    assert standings.head_to_head.get("A", "B").n == 3
    assert standings.head_to_head.get("A", "B").mean == pytest.approx(2 / 3)
    assert standings.head_to_head.get("B", "A").mean == pytest.approx(-2 / 3)
    assert standings.head_to_head.get("A", "A") is None


def test_faults_are_counted_by_kind_and_game_for_the_entrant_in_the_seat(store: Store) -> None:
    store_tournament(store, "dup", ["A", "B"], DUPLICATE)
    standings = read_standings(store, "dup")
    b = row(standings, "B")
    # Seats 1 and 3 of table 0 are B's; seat 2 of table 1 is B's too.
    assert dict(b.faults.kinds) == {"crash": 1, "illegal": 1, "timeout": 1}
    assert (b.faults.total, b.faults.games, b.faults.substituted, b.faults.forfeited) == (
        3,
        2,
        3,
        0,
    )
    assert row(standings, "A").faults.total == 0
    data = standings.to_dict()["tournament"]
    assert data["on_fault"] == "substitute" and data["faults"] == 3
    assert "substitute" in data["fault_policy"] and "counts for the entrant" in data["fault_policy"]


# Hearts-like: four entrants alone at the table, lower wins, one deal at every rotation of the
# seats. Each entrant takes the same points wherever it sits: A 0, B 6, C 8, D 12.
POINTS = {0: 0, 1: 6, 2: 8, 3: 12}
ROTATIONS = [
    game(f"g0/d0/t{r}", seats, [POINTS[e] for e in seats])
    for r in range(4)
    for seats in [[(s + r) % 4 for s in range(4)]]
]


def test_individual_games_margin_against_the_mean_of_the_others_turned_when_lower_wins(
    store: Store,
) -> None:
    store_tournament(
        store,
        "hearts",
        ["A", "B", "C", "D"],
        ROTATIONS,
        game="hearts",
        partnerships="none",
        **ALONE,
    )
    standings = read_standings(store)
    assert standings.complete_deals == 1
    assert [r.name for r in standings.rows] == ["A", "B", "C", "D"]
    # Own points minus the others' mean, turned: A -(0 - 26/3), B -(6 - 20/3)...
    expected = {"A": 26 / 3, "B": 2 / 3, "C": -2.0, "D": -22 / 3}
    for name, margin in expected.items():
        r = row(standings, name)
        assert r.games == 4
        assert r.margin.mean == pytest.approx(margin)
        assert r.margin.sd == pytest.approx(0, abs=1e-12)
        assert r.duplicate.n == 1 and r.duplicate.mean == pytest.approx(margin)
    assert [(row(standings, n).won, row(standings, n).lost) for n in "ABCD"] == [
        (1, 0),
        (1, 0),
        (0, 1),
        (0, 1),
    ]
    h2h = standings.head_to_head
    # Pairwise: the row's points minus the column's, turned.
    assert h2h.get("A", "B").mean == pytest.approx(6)
    assert h2h.get("B", "D").mean == pytest.approx(6)
    assert h2h.get("D", "A").mean == pytest.approx(-12)
    assert h2h.get("C", "B").n == 1
    # The entrant with the fewest points every time rates highest, the most lowest.
    assert standings.ratings.order() == ["A", "B", "C", "D"]


# Whole matches, round robin, mixed partnerships: A's side wins every match 11 to 5. Group 0
# pairs A+C against B+D, group 1 A+B against C+D, group 2 A+D against B+C; each is played
# with both seatings. D times out in g0/t0 and B crashes in g2/t1: each forfeits for its side.
PAIRINGS = [([0, 2], [1, 3]), ([0, 1], [2, 3]), ([0, 3], [1, 2])]


def mixed_games() -> list[dict[str, Any]]:
    games = []
    for g, (ours, theirs) in enumerate(PAIRINGS):
        for t, (first, second) in enumerate([(ours, theirs), (theirs, ours)]):
            seats = [first[0], second[0], first[1], second[1]]
            a_side = 0 if first is ours else 1
            scores = [11, 5] if a_side == 0 else [5, 11]
            games.append(game(f"g{g}/d0/t{t}", seats, scores, winner=a_side))
    games[0].update(forfeited_by=3, faults=[fault(3, "timeout", "forfeit")])  # seat 3: D
    games[5].update(forfeited_by=0, faults=[fault(0, "crash", "forfeit")])  # seat 0: B
    return games


def test_whole_matches_count_wins_forfeits_and_mixed_partners(store: Store) -> None:
    store_tournament(
        store,
        "mixed",
        ["A", "B", "C", "D"],
        mixed_games(),
        format="round-robin",
        deals=None,
        matches=1,
        partnerships="mixed",
        on_fault="forfeit",
    )
    standings = read_standings(store, "mixed")
    assert standings.rules.unit == "match" and standings.ranked_by == "win rate"
    a = standings.rows[0]
    assert a.name == "A" and (a.games, a.won, a.lost) == (6, 6, 0)
    assert a.win_rate.rate == 1.0
    assert (a.win_rate.low, a.win_rate.high) == pytest.approx(wilson_interval(6, 6))
    assert a.margin.mean == 6 and a.duplicate is None  # round robin: nothing to pair
    for name in "BCD":
        r = row(standings, name)
        assert (r.games, r.won, r.lost, r.shared) == (6, 2, 4, 0)
        assert r.win_rate.rate == pytest.approx(1 / 3)
    assert (row(standings, "B").faults.forfeited, row(standings, "D").faults.forfeited) == (1, 1)
    assert dict(row(standings, "D").faults.kinds) == {"timeout": 1}
    assert row(standings, "C").faults.total == 0
    h2h = standings.head_to_head
    assert (h2h.get("A", "B").mean, h2h.get("A", "B").n) == (6, 4)
    # B and D: partners in group 0, opponents in groups 1 (B won) and 2 (B lost).
    assert (h2h.get("B", "D").mean, h2h.get("B", "D").n) == (0, 4)
    assert "forfeited the game" in standings.rules.fault_policy()
    assert standings.ratings.order()[0] == "A"


def test_the_fault_policy_stated_is_the_tournaments_or_the_games_own() -> None:
    from tricktable.analysis.standings import Rules

    rules = Rules.of_spec(spec(["A", "B"], on_fault="forfeit"), "t")
    assert rules.fault_rule == "on_fault=forfeit" and "forfeited the game" in rules.fault_policy()
    # A spec written with on_fault at the top says the same.
    top = {**spec(["A", "B"]), "limits": {}, "on_fault": "forfeit"}
    assert Rules.of_spec(top, "t").fault_policy() == rules.fault_policy()
    # Spades forfeits whatever on_fault says; Tricks plays a bad card first.
    spades = Rules.of_spec(spec(["A", "B"], game="spades"), "t")
    assert spades.fault_rule == "the rules of spades (forfeit)"
    assert "forfeited the game" in spades.fault_policy()
    tricks = Rules.of_spec(spec(list("ABCD"), game="tricks", **ALONE), "t")
    assert tricks.fault_policy().startswith("an illegal card was first played as a bad card")
    assert "substitute (heuristic)" in tricks.fault_policy()
    with pytest.raises(StandingsError, match="side_of_seat should list a side"):
        Rules.of_spec({"game": "setback"}, "tournament 'x'")


def test_a_shared_match_counts_a_half() -> None:
    from datetime import UTC, datetime

    from tricktable.analysis.standings import standings_of
    from tricktable.db import EntrantInfo, StoredGame, TournamentInfo

    info = TournamentInfo(1, "t", datetime.now(UTC), spec(["A", "B"], matches=1), "finished")
    entrants = [EntrantInfo(1, "A", "x"), EntrantInfo(2, "B", "y")]
    now = datetime.now(UTC)
    result = {"status": "finished", "scores": [11, 11], "winner": None, "shared": True}
    games = [
        StoredGame(t, 1, f"g0/d0/t{t}", 0, t, seats, 0, None, result, [], now)
        for t, seats in enumerate([(1, 2, 1, 2), (2, 1, 2, 1)])
    ]
    a = row(standings_of(info, entrants, games), "A")
    assert (a.won, a.lost, a.shared) == (0, 0, 2)
    assert a.win_rate.rate == 0.5 and a.duplicate.mean == 0


def test_ratings_are_deterministic_whatever_the_order_games_were_stored(tmp_path: Path) -> None:
    shuffled = list(ROTATIONS) + [
        game(f"g0/d1/t{r}", g["seats"], g["scores"]) for r, g in enumerate(ROTATIONS)
    ]
    results = []
    for seed in (1, 2):
        random.Random(seed).shuffle(shuffled)
        with Store.open(tmp_path / f"{seed}.db") as store:
            store_tournament(
                store, "h", ["A", "B", "C", "D"], shuffled, partnerships="none", **ALONE
            )
            results.append(read_standings(store, snapshots=4).ratings.to_dict())
    assert results[0] == results[1]
    history = results[0]["history"]
    assert [s["games"] for s in history] == [0, 2, 4, 6, 8]
    assert history[0]["ordinals"]["A"] == pytest.approx(0)
    ordinals = [history[-1]["ordinals"][n] for n in "ABCD"]
    assert ordinals == sorted(ordinals, reverse=True)


def test_the_entrant_that_wins_everything_rates_highest() -> None:
    games = [RatedGame.of_sides([[1, 3], [2, 4]], [11, 3])] * 20
    ratings = rate_games({1: "a", 2: "b", 3: "c", 4: "d"}, games)
    # Partners share every result: a and c end equal, above b and d.
    assert ratings.ratings["a"] == ratings.ratings["c"]
    assert ratings.ratings["a"].ordinal > ratings.ratings["b"].ordinal
    assert ratings.ratings["a"].sigma < 25 / 3
    assert len(ratings.history) == 21


def test_rated_games_merge_sides_rank_ties_and_forfeits() -> None:
    # One entrant on two sides is one team, scoring the mean of its sides.
    rated = RatedGame.of_sides([[1], [2], [1], [3]], [10, 4, 2, 6])
    assert rated == RatedGame(((1,), (2,), (3,)), (0, 2, 0))
    # Lower wins; a forfeiting side ranks last whatever its score.
    rated = RatedGame.of_sides([[1], [2], [3]], [0, 5, 9], lower_wins=True, forfeited=[0])
    assert rated == RatedGame(((1,), (2,), (3,)), (2, 0, 1))
    assert RatedGame.of_sides([[1], [1]], [3, 4]) is None
    failed, tried = doctest.testmod(ratings_module)
    assert tried > 0 and failed == 0


def test_cli_json(store: Store, cli: Cli) -> None:
    store_tournament(store, "dup", ["A", "B"], DUPLICATE)
    store_tournament(store, "hearts", list("ABCD"), ROTATIONS, partnerships="none", **ALONE)
    where = str(Path(store.engine.url.database or ""))
    done = cli("standings", "--db", where, "--name", "dup", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["tournament"]["name"] == "dup" and data["ranked_by"] == "duplicate score"
    first = data["standings"][0]
    assert (first["rank"], first["name"], first["won"], first["lost"]) == (1, "A", 2, 1)
    assert first["duplicate"]["mean"] == pytest.approx(2 / 3)
    assert data["standings"][1]["faults"]["kinds"] == {"crash": 1, "illegal": 1, "timeout": 1}
    assert data["head_to_head"]["matrix"]["A"]["B"]["n"] == 3
    assert data["head_to_head"]["matrix"]["A"]["A"] is None
    assert set(data["ratings"]["ratings"]) == {"A", "B"}
    # Without --name: the newest tournament.
    newest = json.loads(cli("standings", "--db", where, "--json").stdout)
    assert newest["tournament"]["name"] == "hearts"


def test_tables_name_every_entrant_and_state_how_faults_count(
    store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store_tournament(store, "dup", ["Alpha", "Beta"], DUPLICATE)
    monkeypatch.chdir(Path(store.engine.url.database or "").parent)  # the default: ./tricktable.db
    monkeypatch.setenv("COLUMNS", "160")
    assert run_standings("tricktable.db", None, False) == 0
    out = capsys.readouterr().out
    for text in (
        "Standings, ranked by duplicate score",
        "Ratings",
        "Head to head",
        "faults count by on_fault=substitute",
        "crash 1, illegal 1, timeout 1",
        "+0.67 ± ",
    ):
        assert text in out
    assert out.index("Alpha") < out.index("Beta")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--name", "nope"], "no tournament named 'nope' (the newest: 'dup')"),
        (["--db", "missing.db"], "no such file"),
        (["--db", "mysql://x@y/z"], "unsupported kind"),
    ],
)
def test_cli_errors_are_one_line_and_exit_2(
    store: Store, cli: Cli, args: list[str], message: str
) -> None:
    store_tournament(store, "dup", ["A", "B"], DUPLICATE)
    where = str(Path(store.engine.url.database or ""))
    done = cli("standings", "--db", where, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert not (Path(where).parent / "missing.db").exists()


def test_an_empty_database_a_foreign_file_and_damaged_games_are_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(tmp_path / "empty.db"):
        pass
    assert run_standings(str(tmp_path / "empty.db"), None, True) == 2
    assert "holds no tournament" in capsys.readouterr().err
    (tmp_path / "foreign.db").write_text("not a database\n" * 100)
    assert run_standings(str(tmp_path / "foreign.db"), None, True) == 2
    assert "error: " in capsys.readouterr().err
    with Store.open(tmp_path / "bad.db") as store:
        store_tournament(store, "bad", ["A", "B"], [game("g0/d0/t0", [0, 1, 0, 1], [1, 2, 3])])
        with pytest.raises(StandingsError, match=r"game 'g0/d0/t0': its scores should be 2"):
            read_standings(store)
    assert run_standings(str(tmp_path / "bad.db"), "bad", False) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "its scores" in err
