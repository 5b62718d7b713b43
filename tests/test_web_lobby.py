"""The lobby against a real server on 127.0.0.1 (a SQLite file): every table size and seating
``GET /api/games`` offers is created and dealt over HTTP, in words a person reads; a guest may
not take an account's name; bots are told apart; a record downloads under a real name; and,
in Debian's Chromium at a phone's width, a person signs up, logs out, logs in and creates a
six-hand Cinch table of two sides of three from the lobby's form.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tricktable.web.limits import MAX_OPEN_TABLES
from web_harness import Client, serving

#: words no person should read: an option as the command line writes it
ENGINE_WORDS = re.compile(r"=|\bpartners\s*[:=]|\d+x\d+|\btrue\b|\bfalse\b|\bplayers\s*=")
SUITS = re.compile(r"\b(club|clubs|spade|spades|heart|hearts|diamond|diamonds)\b", re.I)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("lobby") / "web.db") as url:
        yield url


def offered(games: list[dict[str, Any]]) -> list[tuple[str, int, str, dict[str, Any]]]:
    """Every (game or variant, size, seating's words, options) the API offers."""
    out = []
    for g in games:
        for rules in (g, *g["variants"]):
            for table in rules["tables"]:
                for choice in table["partners"]:
                    out.append((rules["name"], table["seats"], choice["words"], choice["options"]))
    return out


def dealt(person: Client, table: str, seconds: float = 60) -> dict[str, Any] | None:
    """The first snapshot of ``table`` showing the person's dealt hand, or the match over
    (a table of few points can end on the dealer's kicks before the person's first turn: about
    one 6-seat All Fours match in twenty at two points); None: neither came."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        snap = person.until("snapshot", timeout=deadline - time.monotonic(), table=table)["data"]
        if (snap.get("hand") and snap["hand"].get("cards")) or snap.get("over"):
            return dict(snap)
    return None


def test_every_size_and_seating_offered_is_said_in_words_and_creates_a_table_that_deals(
    base: str,
) -> None:
    games = httpx.get(base + "/api/games").json()["games"]
    shapes = offered(games)
    assert len(shapes) > 250
    for g in games:
        for rules in (g, *g["variants"]):
            assert rules["seats"] == [t["seats"] for t in rules["tables"]], rules["name"]
            assert rules["players"] in rules["seats"], rules["name"]
            assert "=" not in rules["summary"] and "=" not in rules.get("title", "")
            for table in rules["tables"]:
                said = [c["words"] for c in table["partners"]]
                assert len(set(said)) == len(said), (rules["name"], table["seats"])
                for w in said:
                    assert not ENGINE_WORDS.search(w), w
    setback = next(g for g in games if g["name"] == "setback")
    assert {t["seats"]: [c["words"] for c in t["partners"]] for t in setback["tables"]} == {
        2: ["each for themselves"],
        3: ["each for themselves"],
        4: ["two sides of two, partners opposite", "each for themselves"],
        5: ["each for themselves"],
        6: [
            "two sides of three, partners alternate",
            "each for themselves",
            "three sides of two, partners opposite",
        ],
        7: ["each for themselves"],
    }
    person: Client | None = None
    made = 0
    for name, seats, words, options in shapes:
        if person is None or made == MAX_OPEN_TABLES:
            if person is not None:
                person.close()
            person = Client(base, f"Tester {name[:20]} {seats}")
            person.connect()
            made = 0
        bots = [{"kind": "bot", "level": "beginner"}] * (seats - 1)
        body = {"game": name, "options": options, "seats": [{"kind": "me"}, *bots]}
        answer = person.post("/api/tables", body)
        assert answer.status_code == 200, (name, seats, words, answer.text)
        made += 1
        table = answer.json()["table"]
        assert table["status"] == "playing" and len(table["seats"]) == seats, (name, words)
        person.send("hello", table["id"], {"since": None})
        snap = dealt(person, table["id"])
        assert snap is not None, (name, seats, words)
        assert len(snap["seats"]) == seats
    assert person is not None
    person.close()


def test_a_refused_seating_is_one_plain_line(base: str) -> None:
    ann = Client(base, "Plain Ann")
    for body in (
        {"game": "setback", "options": {"players": 3, "partners": True}},
        {"game": "setback", "options": {"players": 6, "partners": "4x2"}},
        {"game": "cinch", "options": {"players": 6, "partners": False}},
        {"game": "setback", "options": {"target": 0}},
    ):
        answer = ann.post("/api/tables", body)
        assert answer.status_code == 400, body
        line = answer.json()["error"]
        assert "\n" not in line and "=" not in line, line
        assert line.startswith(("Setback", "Cinch")), line
    ann.close()


def test_bots_at_one_table_have_names_and_avatars_of_their_own(base: str) -> None:
    ann = Client(base, "Bot Ann")
    seats = [
        {"kind": "me"},
        {"kind": "bot", "level": "club"},
        {"kind": "bot", "level": "club"},
        {"kind": "bot", "level": "expert"},
    ]
    table = ann.post("/api/tables", {"game": "setback", "seats": seats}).json()["table"]
    bots = [s for s in table["seats"] if s["kind"] == "bot"]
    names = [s["name"] for s in bots]
    assert len(set(names)) == 3 and len({s["avatar"] for s in bots}) == 3, names
    assert not any(SUITS.search(n) for n in names), names
    assert names == ["Seasoned bot", "Seasoned bot 2", "Expert bot"]
    # the page draws its seats from the snapshot: there too each bot has its own avatar
    ann.connect()
    ann.send("hello", table["id"], {"since": None})
    snap = ann.until("snapshot")["data"]
    faces = [s["avatar"] for s in snap["seats"] if s["kind"] == "bot"]
    assert faces == names
    ann.close()
    ann.close()


def test_a_record_downloads_under_a_real_file_name(base: str) -> None:
    ann = Client(base, "Record Ann")
    bots = [{"kind": "bot", "level": "beginner"}] * 4
    answer = ann.post("/api/tables", {"game": "setback", "options": {"target": 3}, "seats": bots})
    table = answer.json()["table"]
    deadline = time.monotonic() + 60
    while ann.http.get(f"/api/tables/{table['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' match did not end"
        time.sleep(0.1)
    record = ann.http.get(f"/api/tables/{table['id']}/record")
    assert record.status_code == 200 and record.json()["game"].startswith("setback")
    name = f"tricktable-setback-{table['id']}-match1.json"
    assert record.headers["content-disposition"] == f'attachment; filename="{name}"'
    ann.close()


# ----------------------------------------------------------------------------- the page


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own for the page's tests: a lobby of a few tables, as a person sees it."""
    with serving(tmp_path_factory.mktemp("page") / "web.db") as url:
        yield url


def small_controls(page: Any) -> list[str]:
    """The lobby's controls smaller than 32 px either way (what, and its size)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll(
             '.lobby button, .lobby select, .lobby input, .lobby a')]
           .filter((e) => e.offsetParent !== null)
           .map((e) => [e, e.getBoundingClientRect()])
           .filter(([e, r]) => r.width < 32 || r.height < 32)
           .map(([e, r]) => `${e.tagName} ${e.textContent.trim().slice(0, 20)} `
                            + `${r.width}x${r.height}`)"""
    )
    return found


def test_a_phone_signs_up_logs_out_in_and_creates_six_hand_cinch_in_two_sides_of_three(
    browser: Any, site: str
) -> None:
    base = site
    context = browser.new_context(viewport={"width": 375, "height": 812}, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(15000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(base + "/")
    come_in = page.get_by_role("region", name="Come in")
    come_in.wait_for()
    assert small_controls(page) == []
    come_in.get_by_role("button", name="Sign up").click()
    assert small_controls(page) == []
    page.screenshot(path="/tmp/lobby-375-sign-up.png", full_page=True)
    come_in.get_by_label("Account name").fill("Phoebe Phone")
    come_in.get_by_label("Password").fill("a long password")
    come_in.get_by_role("button", name="Sign up").last.click()
    page.get_by_text("Playing as").wait_for()
    assert "Phoebe Phone" in page.locator(".me").inner_text()
    page.get_by_role("button", name="Log out").click()
    come_in.wait_for()
    come_in.get_by_role("button", name="Log in").click()
    come_in.get_by_label("Account name").fill("phoebe phone")
    come_in.get_by_label("Password").fill("a long password")
    come_in.get_by_role("button", name="Log in").last.click()
    form = page.get_by_role("region", name="Start a table")
    form.wait_for()
    assert small_controls(page) == []
    page.screenshot(path="/tmp/lobby-375.png", full_page=True)
    # Setback at four seats: a choice of seating; at three, none to make.
    assert form.get_by_label("Partners").count() == 1
    form.get_by_label("Seats").select_option("3")
    assert form.get_by_label("Partners").count() == 0
    form.get_by_label("Game").select_option("cinch")
    form.get_by_label("Variant").select_option("six-hand-cinch")
    assert form.get_by_label("Seats").input_value() == "6"
    partners = form.get_by_label("Partners")
    texts = partners.locator("option").all_inner_texts()
    assert texts == [
        "two sides of three, partners alternate",
        "each for themselves",
        "three sides of two, partners opposite",
    ]
    partners.select_option(label="two sides of three, partners alternate")
    form.get_by_label("Bots and characters play at").select_option("beginner")
    form.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/**")
    page.wait_for_selector(".felt")
    assert page.locator(".seat").count() == 6
    assert problems == [], problems
    context.close()


def test_the_lobby_lists_peopled_tables_and_your_own_seat(browser: Any, site: str) -> None:
    base = site
    ann = Client(base, "Lister Ann")
    bob = Client(base, "Lister Bob")
    mine = ann.post("/api/tables", {"game": "setback", "seats": [{"kind": "me"}]}).json()
    theirs = bob.post("/api/tables", {"game": "hearts", "seats": [{"kind": "me"}]}).json()
    bots = [{"kind": "bot", "level": "beginner"}] * 4
    empty = bob.post("/api/tables", {"game": "spades", "seats": bots}).json()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    for k, v in ann.http.cookies.items():
        context.add_cookies([{"name": k, "value": v, "url": base}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(base + "/")
    rows = page.locator(".tables tbody tr")
    page.get_by_role("region", name="Start a table").wait_for()
    page.locator(f'a[href="/t/{theirs["table"]["id"]}"]').wait_for()
    hrefs = page.locator(".tables a").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('href'))"
    )
    assert f"/t/{empty['table']['id']}?watch=1" not in hrefs  # only bots there: not listed
    my_row = rows.filter(has=page.locator(f'a[href="/t/{mine["table"]["id"]}"]'))
    assert my_row.get_by_role("link").all_inner_texts() == ["Your seat"]
    their_row = rows.filter(has=page.locator(f'a[href="/t/{theirs["table"]["id"]}"]'))
    assert their_row.get_by_role("link").all_inner_texts() == ["Join", "Watch"]
    assert small_controls(page) == []
    page.screenshot(path="/tmp/lobby-1280.png", full_page=True)
    context.close()
    ann.close()
    bob.close()
