"""Players' pages on a real server (uvicorn on 127.0.0.1, a SQLite file) and in Chromium.

An account sits at tables of Setback, Hearts and Spades with bots and a character, leaves its
seat so that a bot plays for it (the whole match in a second or two), and plays a second
Setback match at the same table; a table of bots alone plays Euchre. The account's page
(``GET /api/players/Ann``) is checked against a count made here from the matches' own
records (``/api/tables/{id}/record``): matches, won-lost, bids made and set, points, partners
and rivals, the recent matches' replays. Then: unknown names, a name full of HTML, the page
drawn in Debian's Chromium, and the backfill of matches finished before the tables existed.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from alembic import command
from sqlalchemy import func, select
from websockets.sync.client import connect

from test_profiles import expected, run_tournament
from tricktable.db.migrate import alembic_config
from tricktable.db.models import PlayerMatch, ProfileMatch
from tricktable.db.store import Store
from tricktable.games import load_game
from tricktable.web import profiles
from tricktable.web.store import WebStore
from web_harness import serving

ME = {"kind": "me"}
BEGINNER = {"kind": "bot", "level": "beginner"}
EDNA = {"kind": "character", "name": "edna", "level": "beginner"}
#: Ann's tables: a game, and how many matches she plays there
TABLES = [("setback(target=3)", 2), ("hearts(target=20)", 1), ("spades(target=60)", 1)]


class Person:
    """An account over HTTP (its cookie, its CSRF token) and a websocket to its tables."""

    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=20)
        answer = self.http.post("/api/signup", json={"name": name, "password": "a password"})
        assert answer.status_code == 200, answer.text
        self.csrf = answer.json()["csrf"]
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = connect(base.replace("http", "ws") + "/ws", additional_headers={"Cookie": cookie})
        self.n = 0

    def send(self, kind: str, table: str) -> None:
        self.n += 1
        self.ws.send(json.dumps({"type": kind, "table": table, "id": f"m{self.n}", "data": {}}))

    def table(self, game: str, seats: list[dict[str, Any]]) -> str:
        answer = self.http.post(
            "/api/tables", json={"game": game, "seats": seats}, headers={"X-CSRF-Token": self.csrf}
        )
        assert answer.status_code == 200, answer.text
        return str(answer.json()["table"]["id"])

    def away(self, table: str) -> None:
        """Say hello to ``table`` and leave the seat: a bot plays it from now on."""
        self.send("hello", table)
        self.send("leave_seat", table)

    def wait_over(self, table: str, match: int, seconds: float = 120) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            info = self.http.get(f"/api/tables/{table}").json()
            if info["status"] == "over" and info["match"] == match:
                return dict(info)
            assert time.monotonic() < deadline, f"table {table} did not finish match {match}"
            with contextlib.suppress(TimeoutError):
                self.ws.recv(0.05)  # read what the table says, so that it is never held up

    def close(self) -> None:
        self.ws.close()
        self.http.close()


def seat_key(seat: dict[str, Any], account: str) -> str:
    """A seat's player key, as the server's pages name them (written out here)."""
    if seat["kind"] == "person":
        return f"account:{account.casefold()}"
    if seat["kind"] == "character":
        return "character:edna"
    return "bot:beginner"


def play_tables(base: str, name: str, tables: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """``name`` plays ``tables`` (game, matches) away from the seat; each match's record with
    its table's seats and the match number."""
    ann = Person(base, name)
    played = []
    try:
        for game, matches in tables:
            table = ann.table(game, [ME, BEGINNER, BEGINNER, EDNA])
            for match in range(1, matches + 1):
                if match > 1:
                    ann.send("again", table)
                ann.away(table)
                info = ann.wait_over(table, match)
                record = ann.http.get(f"/api/tables/{table}/record?match={match}").json()
                played.append(
                    {"table": table, "match": match, "seats": info["seats"], "record": record}
                )
    finally:
        ann.close()
    return played


def count(played: list[dict[str, Any]], key: str, account: str) -> dict[str, Any]:
    """``key``'s counts by game, partners and rivals, from the records alone."""
    games: dict[str, Counter[str]] = {}
    partners: Counter[str] = Counter()
    rivals: Counter[str] = Counter()
    for p in played:
        record = p["record"]
        keys = [seat_key(s, account) for s in p["seats"]]
        sides = load_game(record["game"], options=record.get("options")).num_scores
        want = expected(record)
        together: set[tuple[str, bool]] = set()
        for seat, k in enumerate(keys):
            if k != key:
                continue
            c = games.setdefault(record["game"], Counter())
            c[want[seat]["result"]] += 1
            c["hands"] += len(record["hands"])
            c["points"] += want[seat]["points_for"]
            c["made"] += want[seat]["bids_made"] or 0
            c["set"] += want[seat]["bids_set"] or 0
            for other, ok in enumerate(keys):
                if other != seat and ok != key:
                    together.add((ok, other % sides == seat % sides))
        # Matches together: a bot on two seats of one match is met once.
        for ok, partner in together:
            (partners if partner else rivals)[ok] += 1
    return {"games": games, "partners": partners, "rivals": rivals}


def page_of(base: str, name: str, matches: int, seconds: float = 60) -> dict[str, Any]:
    """``GET /api/players/NAME`` once it holds ``matches`` (the summaries' thread writes them
    a moment after each match ends)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = httpx.get(f"{base}/api/players/{quote(name, safe='')}", timeout=20)
        if answer.status_code == 200 and answer.json()["record"]["matches"] >= matches:
            return dict(answer.json())
        assert time.monotonic() < deadline, (
            f"{name}'s page: {answer.status_code} {answer.text[:200]}"
        )
        time.sleep(0.1)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("profiles") / "web.db"


@pytest.fixture(scope="module")
def base(db: Path) -> Iterator[str]:
    with serving(db) as url:
        yield url


@pytest.fixture(scope="module")
def played(base: str) -> list[dict[str, Any]]:
    out = play_tables(base, "Ann", TABLES)
    # A table of bots alone, one more game.
    bots = Person(base, "Cy")
    try:
        table = bots.table("euchre(target=3)", [BEGINNER, BEGINNER, EDNA, BEGINNER])
        info = bots.wait_over(table, 1)
        record = bots.http.get(f"/api/tables/{table}/record").json()
        out.append({"table": table, "match": 1, "seats": info["seats"], "record": record})
    finally:
        bots.close()
    return out


# ----------------------------------------------------------------------------------- JSON


def test_the_page_counts_what_the_records_say(base: str, played: list[dict[str, Any]]) -> None:
    ann = sum(1 for p in played if any(s["kind"] == "person" for s in p["seats"]))
    page = page_of(base, "Ann", ann)
    assert page["player"] == "account:ann" and page["name"] == "Ann" and page["kind"] == "account"
    want = count(played, "account:ann", "Ann")
    assert (
        {g["game"] for g in page["games"]} == set(want["games"]) == {"setback", "hearts", "spades"}
    )
    for g in page["games"]:
        c = want["games"][g["game"]]
        assert (g["record"]["won"], g["record"]["lost"], g["record"]["drawn"]) == (
            c["won"],
            c["lost"],
            c["drawn"],
        )
        assert g["record"]["low"] <= g["record"]["rate"] <= g["record"]["high"]
        assert g["hands"] == c["hands"]
        assert g["points_per_hand"] == pytest.approx(c["points"] / c["hands"])
        if g["game"] == "hearts":
            assert g["bids"] is None and g["lower_wins"] is True
        else:
            assert (g["bids"]["made"], g["bids"]["set"]) == (c["made"], c["set"])
        # Ann sits with bots and Edna: Edna is a rival everywhere, so Ann is rated.
        assert g["rating"]["matches"] == g["record"]["matches"]
        assert len(g["history"]) == g["record"]["matches"]
    shown = {p["player"]: p["matches"] for p in page["partners"]}
    assert shown == dict(want["partners"])
    assert {p["player"]: p["matches"] for p in page["rivals"]} == dict(want["rivals"])
    assert page["record"]["matches"] == ann == len(page["recent"])


def test_every_recent_match_links_to_its_replay(base: str, played: list[dict[str, Any]]) -> None:
    page = page_of(base, "Ann", 4)
    links = {m["replay"] for m in page["recent"]}
    assert links == {f"/t/{p['table']}?replay=1&match={p['match']}" for p in played[:4]}
    for m in page["recent"]:
        table, _, match = m["replay"].removeprefix("/t/").partition("?replay=1&match=")
        answer = httpx.get(f"{base}/api/tables/{table}/replay?match={match}", timeout=20)
        assert answer.status_code == 200 and answer.json()["last"] > 0
        assert {r["player"] for r in m["rivals"]} >= {"character:edna"}


def test_bots_and_characters_have_pages_and_standings(
    base: str, played: list[dict[str, Any]]
) -> None:
    edna = page_of(base, "Edna", len(played))
    assert edna["player"] == "character:edna" and edna["name"] == "Edna"
    assert {g["game"] for g in edna["games"]} == {"setback", "hearts", "spades", "euchre"}
    want = count(played, "character:edna", "Ann")
    for g in edna["games"]:
        c = want["games"][g["game"]]
        assert (g["record"]["won"], g["record"]["lost"]) == (c["won"], c["lost"])
    bot = page_of(base, "bot:beginner", 1)
    # Two beginners at every table: one bot's seats, counted each.
    assert bot["record"]["matches"] == sum(
        sum(1 for s in p["seats"] if s["kind"] == "bot") for p in played
    )
    standings = httpx.get(f"{base}/api/players?game=setback", timeout=20).json()
    assert "setback" in standings["games"]
    ranked = [p["player"] for p in standings["players"]]
    assert "account:ann" in ranked and "character:edna" in ranked
    ordinals = [p["ordinal"] for p in standings["players"]]
    assert ordinals == sorted(ordinals, reverse=True)


@pytest.mark.parametrize(
    "name", ["nobody", "account:nobody", "bot:", "<script>alert(1)</script>", "x" * 500]
)
def test_an_unknown_name_is_a_404_of_one_line(base: str, name: str) -> None:
    answer = httpx.get(f"{base}/api/players/{quote(name, safe='')}", timeout=20)
    assert answer.status_code == 404
    assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]
    page = httpx.get(f"{base}/players/{quote(name, safe='')}", timeout=20)
    assert page.status_code == 404 and "<script>" not in page.text
    assert page.text.count('role="alert"') == 1


# ----------------------------------------------------------------------------- the page


def _page(browser: Any, problems: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return page


def test_the_page_draws_the_counts_and_the_rating(
    base: str, played: list[dict[str, Any]], browser: Any
) -> None:
    data = page_of(base, "Ann", 4)
    problems: list[str] = []
    page = _page(browser, problems)
    page.goto(f"{base}/players/Ann")
    page.get_by_role("heading", name="Ann").wait_for()
    r = data["record"]
    totals = page.locator(".totals").inner_text()
    assert f"{r['matches']} matches: {r['won']} won, {r['lost']} lost" in totals
    games = page.get_by_role("table", name="Games")
    for g in data["games"]:
        row = games.locator(f"tr[data-game='{g['game']}']")
        cells = row.locator("td").all_inner_texts()
        assert cells[1] == str(g["record"]["matches"])
        assert cells[2].startswith(f"{g['record']['won']}–{g['record']['lost']}")
        if g["bids"] is not None:
            assert cells[5].startswith(f"{g['bids']['made']} made, {g['bids']['set']} set")
    plot = page.get_by_role("img", name="Rating history", exact=False)
    assert plot.evaluate("e => e.tagName.toLowerCase()") == "svg"
    assert plot.locator("polyline").count() == len(data["games"])
    assert page.get_by_role("table", name="Recent matches").locator("tbody tr").count() == 4
    assert page.get_by_role("link", name="replay").count() == 4
    # A rival's name opens their page.
    page.get_by_role("table", name="Rivals").get_by_role("link", name="Edna").click()
    page.get_by_role("heading", name="Edna").wait_for()
    assert page.url.endswith("/players/character%3Aedna")
    page.goto(f"{base}/players?game=setback")
    page.get_by_role("table", name="Standings").get_by_role("link", name="Ann").wait_for()
    assert problems == []


def test_a_name_of_html_is_text(tmp_path: Path, browser: Any) -> None:
    name = '<img src=x onerror="window.hit=1">&amp;'
    with serving(tmp_path / "html.db") as base:
        play_tables(base, name, [("setback(target=3)", 1)])
        data = page_of(base, name, 1)
        assert data["name"] == name
        problems: list[str] = []
        page = _page(browser, problems)
        page.goto(f"{base}/players/{quote(name, safe='')}")
        heading = page.locator("h1")
        heading.wait_for()
        assert heading.inner_text().startswith(name)
        assert page.locator("main img").count() == 0
        assert page.evaluate("window.hit") is None
        assert problems == []


# -------------------------------------------------------------------------- the backfill


def test_matches_finished_before_the_tables_existed_are_backfilled(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with serving(db) as url:
        played = play_tables(url, "Dee", [("setback(target=3)", 2)])
        page_of(url, "Dee", 2)
    with Store.open(db) as store:
        run_tournament(store, "cup")
        with store.engine.connect() as c:
            tournament_rows = c.scalar(
                select(func.count())
                .select_from(ProfileMatch)
                .where(ProfileMatch.game_id.is_not(None))
            )
        assert tournament_rows
        # Back to the schema before the players' pages: their tables are gone.
        config = alembic_config()
        with store.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0002")
    with serving(db) as url:  # upgraded again, the tables empty: the backfill fills them
        page = page_of(url, "Dee", 2)
        want = count(played, "account:dee", "Dee")["games"]["setback"]
        (g,) = page["games"]
        assert (g["record"]["won"], g["record"]["lost"]) == (want["won"], want["lost"])
        assert (g["bids"]["made"], g["bids"]["set"]) == (want["made"], want["set"])
        bot = page_of(url, "bot:heuristic", 1)
        assert bot["recent"][0]["tournament"]["name"] == "cup"
        with Store.open(db) as store, store.engine.connect() as c:
            stored = c.scalar(select(func.count()).select_from(PlayerMatch))
            matches = c.scalar(select(func.count()).select_from(ProfileMatch))
        assert matches == 2 + tournament_rows
    # Again (as at the next start): nothing new, nothing twice.
    web = WebStore.open(str(db))
    try:
        profiles.backfill(web)
        assert profiles.summaries(web).wait()
        with web.engine.connect() as c:
            assert c.scalar(select(func.count()).select_from(PlayerMatch)) == stored
            assert c.scalar(select(func.count()).select_from(ProfileMatch)) == matches
    finally:
        web.close()
