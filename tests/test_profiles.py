"""The players' pages' summaries and their tables: analysis/profile.py and profile_store.py.

Real matches played by the runner (Setback, Hearts, Spades, Euchre, Oh Hell: with and
without partners and bids) are summed up, and each seat's row is checked against a count made
here independently, from the record's replay result (``tricktable replay --json``'s
shape): who won, the points, and each contract made or set hand by hand. The tables are a
real SQLite file: a real tournament stores its games and the hook sums them up; ratings
stored out of order come out as those stored in order.
"""

from __future__ import annotations

import doctest
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, func, select

from tricktable.analysis import profile as profile_module
from tricktable.analysis import profile_store
from tricktable.analysis.profile import (
    key_of_label,
    rated_match,
    record_line,
    summarize_record,
)
from tricktable.analysis.profile_store import NewMatch, add_matches, fill_games, rate_pending
from tricktable.analysis.ratings import RatedGame, rate_game, rate_games
from tricktable.db.models import Game, PlayerMatch, PlayerRating, ProfileMatch
from tricktable.db.store import Store
from tricktable.games import load_game
from tricktable.records import replay, result_of
from tricktable.runner import MatchSpec, run_match
from tricktable.tournament import run as run_mod
from tricktable.tournament.spec import TournamentSpec
from tricktable.web import profile_queries

#: short matches of games with and without partners and bids
GAMES = [
    "setback(target=5)",
    "hearts(target=30)",
    "spades(target=100)",
    "euchre(target=3)",
    "oh-hell",
]


def play(game: str, seed: int, players: tuple[str, ...] | None = None) -> dict[str, Any]:
    """A whole match's record, played by the runner."""
    n = load_game(game).num_players
    spec = MatchSpec(
        game=game,
        players=players or ("beginner", "random") * (n // 2) + ("random",) * (n % 2),
        seed=seed,
    )
    return dict(run_match(spec).record)


# --------------------------------------------------------------- the count made independently


def expected(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's result, points and contracts, from the replay's JSON result alone."""
    state = replay(record)
    game = state.game
    n, sides = game.num_players, game.num_scores
    result = result_of(state)
    hands = result["hands"]
    final = hands[-1]["scores"] if hands else [0] * sides
    winner = result["winner"]
    shared = hands[-1].get("winners") if hands else None
    made, set_ = [0] * n, [0] * n
    bids = False
    before = [0] * sides
    for hand in hands:
        for seat, ok in contracts(game.preset, hand, before, sides):
            bids = True
            (made if ok else set_)[seat] += 1
        before = hand["scores"]
    out = []
    for seat in range(n):
        side = seat % sides
        if shared and len(shared) > 1:
            outcome = "drawn" if side in shared else "lost"
        else:
            outcome = "won" if side == winner else "lost"
        others = [final[s] for s in range(sides) if s != side]
        out.append(
            {
                "result": outcome,
                "points_for": final[side],
                "points_against": sum(others) / len(others),
                "bids_made": made[seat] if bids else None,
                "bids_set": set_[seat] if bids else None,
            }
        )
    return out


def contracts(
    game: str, hand: dict[str, Any], before: list[int], sides: int
) -> list[tuple[int, bool]]:
    """A hand's contracts as its JSON result tells them: (seat, made)."""
    if game == "setback":
        if hand.get("declarer") is None:
            return []
        side = hand["declarer"] % sides
        if hand.get("moon"):
            awarded = [v for v in hand["points"].values() if v is not None]
            return [(hand["declarer"], bool(awarded) and all(v == side for v in awarded))]
        return [(hand["declarer"], hand["taken"][side] >= hand["bid"])]
    if game == "euchre":
        return [] if hand.get("maker") is None else [(hand["maker"], not hand["euchred"])]
    if game == "spades":
        out = []
        for seat, bid in enumerate(hand["bids"]):
            if bid in ("nil", "blind-nil"):
                out.append((seat, hand["tricks"][seat] == 0))
            elif hand["made"][seat % sides] is not None:
                out.append((seat, hand["made"][seat % sides]))
        return out
    if game == "oh-hell":
        return [(s, hand["tricks"][s] == b) for s, b in enumerate(hand["bids"])]
    return []


@pytest.mark.parametrize("game", GAMES)
def test_a_summary_equals_the_count_from_the_record(game: str) -> None:
    for seed in range(4):
        record = play(game, seed)
        summary = summarize_record(record)
        want = expected(record)
        assert summary.over and summary.hands == len(record["hands"])
        for seat, row in enumerate(summary.seats):
            got = {k: getattr(row, k) for k in want[seat]}
            assert got == pytest.approx(want[seat]), (game, seed, seat)
            assert row.player == key_of_label(record["players"][seat])
        # A won-lost match has one winning side (a shared win: drawn sides and no winner).
        assert {r.result for r in summary.seats} in ({"won", "lost"}, {"drawn", "lost"})


def test_games_without_bids_have_no_bids_and_with_bids_every_hand_counts() -> None:
    hearts = summarize_record(play("hearts(target=30)", 3))
    assert all(s.bids_made is None and s.bids_set is None for s in hearts.seats)
    spades = summarize_record(play("spades(target=100)", 3))
    # Every seat bids every hand in Spades (a side's zero contract aside).
    assert sum((s.bids_made or 0) + (s.bids_set or 0) for s in spades.seats) >= spades.hands


def test_a_cut_tournament_unit_is_decided_by_the_scores() -> None:
    spec = MatchSpec(game="setback", players=("heuristic", "random") * 2, seed=5, max_hands=1)
    record = dict(run_match(spec).record)
    summary = summarize_record(record)
    assert not summary.over and summary.hands == 1
    scores = {s.side: s.points_for for s in summary.seats}
    best = max(scores.values())
    for s in summary.seats:
        if list(scores.values()).count(best) > 1:
            assert s.result == ("drawn" if scores[s.side] == best else "lost")
        else:
            assert s.result == ("won" if scores[s.side] == best else "lost")


def test_labels_are_keys() -> None:
    assert key_of_label("bot:club") == "bot:club"
    assert key_of_label("bot:edna(base=ismcts)") == "character:edna"
    assert key_of_label("Ann") == "name:Ann"
    failed, tried = doctest.testmod(profile_module)
    assert tried and not failed


def test_the_win_rate_interval_holds_the_rate() -> None:
    line = record_line(3, 1, 2)
    assert line["matches"] == 6 and line["rate"] == pytest.approx(4 / 6)
    assert 0 <= line["low"] < line["rate"] < line["high"] <= 1
    assert record_line(0, 0, 0)["rate"] is None


def test_rating_a_match_at_a_time_is_rating_them_all() -> None:
    rng = random.Random(3)
    games = []
    for _ in range(30):
        a, b = rng.sample([1, 2, 3], 2)
        games.append(RatedGame(((a,), (b,)), (0, 1)))
    whole = rate_games({1: "x", 2: "y", 3: "z"}, games)
    current: dict[int, Any] = {}
    for g in games:
        current.update(rate_game(g, current))
    for eid, name in {1: "x", 2: "y", 3: "z"}.items():
        assert current[eid].mu == pytest.approx(whole.ratings[name].mu)
        assert current[eid].sigma == pytest.approx(whole.ratings[name].sigma)


def test_a_bot_against_itself_is_not_rated_by_that_match() -> None:
    m = rated_match(
        [
            ("bot:x", 0, "won", 3),
            ("ann", 0, "won", 3),
            ("bot:x", 1, "lost", 1),
            ("bob", 1, "lost", 1),
        ],
        lower_wins=False,
    )
    assert m is not None and m.fixed == {"bot:x"}
    only_bots = [("bot:x", 0, "won", 3), ("bot:x", 1, "lost", 1)]
    assert rated_match(only_bots, lower_wins=False) is None


# ------------------------------------------------------------------------------ the tables


@pytest.fixture(params=["sqlite", "postgresql"])
def new_db(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A maker of new, empty databases: SQLite files, then PostgreSQL databases."""
    if request.param == "sqlite":
        return lambda name: str(tmp_path / f"{name}.db")
    server = request.getfixturevalue("postgres")
    return lambda name: str(server.url(server.new_database()))


@pytest.fixture
def store(new_db: Any) -> Any:
    with Store.open(new_db("profiles")) as s:
        yield s


def run_tournament(
    store: Store, name: str, game: str = "setback(target=5)", matches: int = 2
) -> int:
    spec = TournamentSpec(
        name=name,
        game=game,
        entrants=(("h", "heuristic"), ("r", "random")),
        matches=matches,
        seed=11,
    )
    started = run_mod.start(store, spec)
    run_mod.run(store, started)
    return started.tid


def rows_of(store: Store) -> list[Any]:
    with store.engine.connect() as c:
        return list(c.execute(select(PlayerMatch).order_by(PlayerMatch.match_id, PlayerMatch.seat)))


def test_a_tournament_stores_its_games_summed_up(store: Store) -> None:
    tid = run_tournament(store, "t1")
    games = list(store.games(tid))
    rows = rows_of(store)
    assert len(rows) == 4 * len(games) > 0
    # The profile's counts equal the records' own, counted here.
    counts: dict[str, dict[str, int]] = {}
    for g in games:
        record = json.loads(g.record) if isinstance(g.record, str) else g.record
        for seat, want in enumerate(expected(record)):
            key = key_of_label(record["players"][seat])
            c = counts.setdefault(key, {"won": 0, "lost": 0, "drawn": 0, "made": 0, "set": 0})
            c[want["result"]] += 1
            c["made"] += want["bids_made"] or 0
            c["set"] += want["bids_set"] or 0
    for key, c in counts.items():
        page = profile_queries.profile(store, key)
        assert page is not None
        (setback,) = page["games"]
        assert {k: setback["record"][k] for k in ("won", "lost", "drawn")} == {
            k: c[k] for k in ("won", "lost", "drawn")
        }
        assert (setback["bids"]["made"], setback["bids"]["set"]) == (c["made"], c["set"])
        assert setback["rating"]["matches"] == sum(c[k] for k in ("won", "lost", "drawn"))
        assert page["recent"][0]["tournament"]["name"] == "t1"
    # Stored once: filling again, or adding the same games again, adds nothing.
    assert fill_games(store) == 0
    again = [profile_store._game_match(g.id, json.dumps(g.record), g.finished_at) for g in games]
    assert add_matches(store, again) == 0
    assert len(rows_of(store)) == len(rows)


def test_the_backfill_fills_what_the_hook_missed(store: Store) -> None:
    tid = run_tournament(store, "t2")
    before = [(r.player, r.result, r.mu, r.sigma) for r in rows_of(store)]
    with store.engine.begin() as c:
        c.execute(delete(PlayerRating))
        c.execute(delete(PlayerMatch))
        c.execute(delete(ProfileMatch))
    assert fill_games(store, tid) == len(list(store.games(tid)))
    after = [(r.player, r.result, r.mu, r.sigma) for r in rows_of(store)]
    assert after == before
    with store.engine.connect() as c:
        assert c.scalar(select(func.count()).select_from(Game)) == len(before) // 4


def test_ratings_stored_out_of_order_are_the_ratings_in_order(new_db: Any) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    summaries = [
        summarize_record(
            play("setback(target=5)", seed, ("heuristic", "random", "beginner", "random"))
        )
        for seed in range(12)
    ]

    def fill(
        path: str, order: list[int], batch: int, rate: bool = True
    ) -> dict[tuple[str, int], tuple[float, float]]:
        with Store.open(path) as s:
            tid = s.create_tournament("x", {}, [("a", "heuristic")])
            from tricktable.db.store import GameRow

            s.add_games(
                GameRow(tid, f"u{i}", i, 0, [1, 1, 1, 1], i, {"format": "x"}, {}, finished_at=start)
                for i in range(12)
            )
            with s.engine.connect() as c:
                ids = {u: gid for gid, u in c.execute(select(Game.id, Game.unit))}
            for k in range(0, len(order), batch):
                add_matches(
                    s,
                    [
                        NewMatch(start + timedelta(minutes=i), summaries[i], game_id=ids[f"u{i}"])
                        for i in order[k : k + batch]
                    ],
                    rate=rate,
                )
            if not rate:
                # The backfill's way: all stored, then rated a few a transaction — stopped
                # after the first (as a process killed there), then taken up again.
                chunks = iter(range(2))
                assert rate_pending(s, stop=lambda: next(chunks) > 0, most=5)
                with s.engine.connect() as c:
                    pending = ProfileMatch.status == "pending"
                    left = c.scalar(select(func.count()).select_from(ProfileMatch).where(pending))
                assert left == len(order) - 5
                assert not rate_pending(s, most=5)
            with s.engine.connect() as c:
                units = dict(
                    c.execute(
                        select(ProfileMatch.id, Game.unit).join(
                            Game, Game.id == ProfileMatch.game_id
                        )
                    ).all()
                )
                return {
                    (units[r.match_id], r.seat): (r.mu, r.sigma)
                    for r in c.execute(select(PlayerMatch))
                }

    in_order = fill(new_db("a"), list(range(12)), 1)
    shuffled = list(range(12))
    random.Random(5).shuffle(shuffled)
    out_of_order = fill(new_db("b"), shuffled, 3)
    backfilled = fill(new_db("c"), shuffled, 4, rate=False)
    for other in (out_of_order, backfilled):
        assert in_order.keys() == other.keys()
        for key, (mu, sigma) in in_order.items():
            assert other[key] == (pytest.approx(mu), pytest.approx(sigma)), key


def test_partners_and_rivals_count_matches_not_seats() -> None:
    from tricktable.analysis.profile import MatchSummary, SeatSummary
    from tricktable.analysis.profile_store import pairs, shown_name

    def seat(i: int, player: str, name: str, result: str) -> SeatSummary:
        return SeatSummary(i, i % 2, player, name, result, 3, 1.0, 0, 0)

    # Ann with a beginner against a beginner and Edna: the bot is her partner and her rival.
    match = MatchSummary(
        "setback",
        2,
        True,
        False,
        (
            seat(0, "account:ann", "Ann", "won"),
            seat(1, "bot:beginner", "Beginner bot", "lost"),
            seat(2, "bot:beginner", "Beginner bot 2", "won"),
            seat(3, "character:edna", "Edna", "lost"),
        ),
    )
    met = pairs([match, match])
    assert met[("account:ann", "bot:beginner", 1)] == ["Beginner bot", 2, 2, 0, 0]
    assert met[("account:ann", "bot:beginner", 0)] == ["Beginner bot", 2, 2, 0, 0]
    assert met[("account:ann", "character:edna", 0)] == ["Edna", 2, 2, 0, 0]
    # The bot meets Ann once a match on each side, with its seat's result on that side.
    assert met[("bot:beginner", "account:ann", 0)][1:] == [2, 0, 2, 0]
    assert met[("bot:beginner", "account:ann", 1)][1:] == [2, 2, 0, 0]
    assert ("bot:beginner", "bot:beginner", 0) not in met
    assert shown_name("account:x", "Bo 2") == "Bo 2" and shown_name("bot:club", "Club 2") == "Club"
