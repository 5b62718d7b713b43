"""The HTTP routes of ``tricktable serve`` against a real uvicorn on 127.0.0.1 and a real
SQLite file, then a real PostgreSQL database: guests, accounts, sessions, CSRF, the login
limit, games, tables, records and their fair-deal proof (``tricktable verify``)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from tricktable.cli.verify import check_fair, run_verify
from tricktable.errors import RecordError
from tricktable.records import replay
from web_harness import Client, serving

#: each server's database (a SQLite file or a URL), by its base URL
DATABASES: dict[str, str] = {}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server for the module's tests: on a SQLite file, then on PostgreSQL."""
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("api") / "web.db")
    else:
        server = request.getfixturevalue("postgres")
        db = server.url(server.new_database())
    with serving(db) as url:
        DATABASES[url] = db
        yield url


def test_a_guest_in_one_click(base: str) -> None:
    ann = Client(base, "  Ann   Lee ")
    assert ann.user["name"] == "Ann Lee" and ann.user["kind"] == "guest"
    me = ann.http.get("/api/me").json()
    assert me["user"] == ann.user and me["csrf"] == ann.csrf
    with httpx.Client(base_url=base) as nobody:
        assert nobody.get("/api/me").json() == {"user": None, "csrf": None}
        for name in ("", "x" * 41, "bell\x07", 7):
            answer = nobody.post("/api/guest", json={"name": name})
            assert answer.status_code == 400 and "name" in answer.json()["error"]
        assert nobody.post("/api/guest", content=b"{nope").status_code == 400
        wrong = nobody.post("/api/guest", json={"name": "Eve"}, headers={"Origin": "http://x.y"})
        assert wrong.status_code == 403


def test_posts_need_the_csrf_token(base: str) -> None:
    ann = Client(base, "Ann")
    body = {"game": "setback", "seats": [{"kind": "me"}]}
    assert ann.http.post("/api/tables", json=body).status_code == 403
    bad = ann.http.post("/api/tables", json=body, headers={"X-CSRF-Token": "guess"})
    assert bad.status_code == 403
    assert ann.post("/api/tables", body).status_code == 200
    with httpx.Client(base_url=base) as nobody:
        assert nobody.post("/api/tables", json=body).status_code == 401


def test_accounts_sign_up_log_in_out_and_logins_are_limited(base: str) -> None:
    with httpx.Client(base_url=base) as web:
        made = web.post("/api/signup", json={"name": "Carol", "password": "correct horse"})
        assert made.status_code == 200 and made.json()["user"]["kind"] == "account"
        again = web.post("/api/signup", json={"name": "carol", "password": "another one"})
        assert again.status_code == 409
        short = web.post("/api/signup", json={"name": "Dan", "password": "short"})
        assert short.status_code == 400
        csrf = made.json()["csrf"]
        assert web.post("/api/logout", json={}, headers={"X-CSRF-Token": csrf}).json()["ok"]
        assert web.get("/api/me").json()["user"] is None
    with httpx.Client(base_url=base) as web:
        ok = web.post("/api/login", json={"name": "CAROL", "password": "correct horse"})
        assert ok.status_code == 200 and ok.json()["user"]["name"] == "Carol"
        cookie = dict(web.cookies)
        csrf = ok.json()["csrf"]
        web.post("/api/logout", json={}, headers={"X-CSRF-Token": csrf})
    with httpx.Client(base_url=base, cookies=cookie) as stale:
        assert stale.get("/api/me").json()["user"] is None  # the session ended with logout
    with httpx.Client(base_url=base) as web:
        codes = [
            web.post("/api/login", json={"name": "Carol", "password": f"wrong {k}"}).status_code
            for k in range(6)
        ]
        assert codes[:5] == [401] * 5 and codes[5] == 429
        right = web.post("/api/login", json={"name": "Carol", "password": "correct horse"})
        assert right.status_code == 429  # limited for a minute, even with the right one


def test_a_guest_may_not_take_an_accounts_name(base: str) -> None:
    with httpx.Client(base_url=base) as web:
        made = web.post("/api/signup", json={"name": "Mabel Rowe", "password": "long enough"})
        assert made.status_code == 200
    with httpx.Client(base_url=base) as web:
        for name in ("Mabel Rowe", "mabel rowe", "  MABEL   ROWE "):
            refused = web.post("/api/guest", json={"name": name})
            assert refused.status_code == 409, name
            line = refused.json()["error"]
            assert "account" in line and "\n" not in line
        assert web.get("/api/me").json()["user"] is None
        assert web.post("/api/guest", json={"name": "Mabel"}).status_code == 200


def test_a_forged_cookie_is_no_session(base: str) -> None:
    with httpx.Client(base_url=base) as web:
        web.cookies.set("tricktable_session", "eyJzaWQiOiAiYWRtaW4ifQ==.forged.sig")
        assert web.get("/api/me").json()["user"] is None


def test_games_avatars_and_unknown_tables(base: str) -> None:
    with httpx.Client(base_url=base) as web:
        games = web.get("/api/games").json()["games"]
        setback = next(g for g in games if g["name"] == "setback")
        assert setback["players"] == 4 and 2 in setback["seats"]
        svg = web.get("/api/avatar/Ann.svg")
        assert svg.headers["content-type"].startswith("image/svg+xml") and "<svg" in svg.text
        assert web.get("/api/tables/nope").status_code == 404
        assert web.get("/api/tables/nope/record").status_code == 404
        assert web.get("/").status_code == 200


def test_bad_settings_are_one_line(base: str) -> None:
    ann = Client(base, "Ann")
    for body in (
        {"game": "canasta"},
        {"game": "setback", "options": {"target": "lots"}},
        {"game": "setback", "seats": [{"kind": "bot", "level": "grandmaster"}]},
        {"game": "setback", "seats": [{"kind": "character", "name": "nobody"}]},
        {"game": "setback", "seats": [{"kind": "cmd:./evil"}]},
        {"game": "setback", "move_time": -3},
        {"game": "setback", "seats": [{"kind": "me"}, {"kind": "me"}]},
    ):
        answer = ann.post("/api/tables", body)
        assert answer.status_code == 400, body
        assert "\n" not in answer.json()["error"]


def test_a_bot_table_plays_its_match_and_the_record_proves_its_deals(
    base: str, tmp_path: Path
) -> None:
    ann = Client(base, "Ann")
    seats = [
        {"kind": "bot"},
        {"kind": "bot", "level": "beginner"},
        {"kind": "bot"},
        {"kind": "character", "name": "edna"},
    ]
    created = ann.post("/api/tables", {"game": "setback(target=7)", "seats": seats}).json()
    table = created["table"]
    assert table["status"] == "playing" and len(table["commitment"]) == 64
    assert table["seed"] is None and table["nonce"] is None
    lobby = ann.http.get("/api/tables").json()["tables"]
    assert any(t["id"] == table["id"] for t in lobby)
    deadline = time.monotonic() + 30
    while True:
        info = ann.http.get(f"/api/tables/{table['id']}").json()
        if info["status"] == "over":
            break
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert info["seed"] is not None and info["commitment"] == table["commitment"]
    record = ann.http.get(f"/api/tables/{table['id']}/record").json()
    assert str(record["seed"]) == info["seed"]
    assert record["fair"] == {"commitment": table["commitment"], "nonce": info["nonce"]}
    assert replay(record).is_over
    lines = check_fair(record)
    assert "matches" in lines[0]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    assert run_verify(str(path)) == 0
    # A record whose deal was changed, or whose seed was not the committed one, fails.
    forged = json.loads(json.dumps(record))
    forged["fair"]["commitment"] = "0" * 64
    with pytest.raises(RecordError, match="commitment"):
        check_fair(forged)
    swapped = json.loads(json.dumps(record))
    hand = swapped["hands"][0]
    hand["deal"][0], hand["deal"][1] = hand["deal"][1], hand["deal"][0]
    with pytest.raises(RecordError):
        check_fair(swapped)
    path.write_text(json.dumps(forged))
    assert run_verify(str(path)) == 2


def test_an_expired_session_is_no_session(base: str) -> None:
    ann = Client(base, "Old Ann")  # a new session: not yet read, so not yet remembered
    db = DATABASES[base]
    expire = "UPDATE web_session SET expires = '2000-01-01 00:00:00' WHERE user_id = %s"
    if "://" in db:
        url = db.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(expire, (ann.user["id"],))
    else:
        with sqlite3.connect(db) as connection:
            connection.execute(
                expire.replace("%s", "?").replace("00:00:00'", "00:00:00.000000'"),
                (ann.user["id"],),
            )
    assert ann.http.get("/api/me").json()["user"] is None
    assert ann.post("/api/tables", {"game": "setback"}).status_code == 401


def test_the_verify_and_serve_commands(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tricktable.cli.main import cli

    game = replay({"format": "tricktable-record/1", "game": "setback", "hands": []}).game
    state = game.new_state(99)
    state.deal()
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])
    from tricktable.records import to_record

    path = tmp_path / "r.json"
    path.write_text(json.dumps(to_record(state)))
    runner = CliRunner()
    ok = runner.invoke(cli, ["verify", str(path)])
    assert ok.exit_code == 0 and "verified" in ok.output
    record = to_record(state)
    record["seed"] = 100
    path.write_text(json.dumps(record))
    bad = runner.invoke(cli, ["verify", str(path)])
    assert bad.exit_code == 2
    assert "--port" in runner.invoke(cli, ["serve", "--help"]).output


def test_new_people_and_tables_are_limited(base: str) -> None:
    from tricktable.web.limits import MAX_OPEN_TABLES

    ann = Client(base, "Busy Ann")
    codes = [
        ann.post("/api/tables", {"game": "setback", "seats": [{"kind": "me"}]}).status_code
        for _ in range(MAX_OPEN_TABLES + 1)
    ]
    assert codes[:MAX_OPEN_TABLES] == [200] * MAX_OPEN_TABLES
    assert codes[-1] == 400
    with httpx.Client(base_url=base) as web:
        made = [web.post("/api/guest", json={"name": f"g{k}"}).status_code for k in range(70)]
    assert made[-1] == 429 and made.count(200) <= 60
