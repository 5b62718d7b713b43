"""The table page by itself, in a real headless Chromium (Debian's), against a stand-in server.

The stand-in serves ``tricktable/web/static`` the way ``tricktable serve`` does (the lobby at
``/``, a table at ``/t/{id}``, the files at ``/static/``) and answers the page's websocket
with recorded messages of the wire (docs/protocol-web.md) through Playwright's websocket
routing, so the page is tested without the server: it draws a snapshot at two, four and seven
seats on a phone and a wide screen, every card is a button named as a screen reader says it,
the keyboard plays a card (an ``act`` goes out), bids are buttons, events animate in order and
are read aloud, and a dropped connection is taken up again with ``since``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

STATIC = Path(str(files("tricktable") / "web" / "static"))

RANKS = "23456789TJQKA"
WORDS = "two three four five six seven eight nine ten jack queen king ace"
RANK_WORDS = dict(zip(RANKS, WORDS.split(" "), strict=True))
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: what the stand-in answers for every avatar
AVATAR = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect fill="#7fb8e6"/></svg>'
NAMES = ["Ann", "Edna", "Basil", "Mabel", "Otto", "Rosa", "Sid"]


#: a two-seat match of one hand of two cards, as ``GET /api/tables/{id}/record`` gives it
RECORD = {
    "format": "tricktable-record/1",
    "game": "setback",
    "players": ["Ann", "Edna"],
    "hands": [
        {
            "dealer": 1,
            "deal": [["AH", "3S"], ["2H", "KS"]],
            "actions": ["bid 2", "pass", "play AH", "play 2H", "play 3S", "play KS"],
        }
    ],
}


def card_name(code: str) -> str:
    return f"{RANK_WORDS[code[0]]} of {SUIT_WORDS[code[1]]}"


def snapshot(
    n: int,
    *,
    viewer: int = 0,
    version: int = 10,
    phase: str = "play",
    cards: list[str] | None = None,
) -> dict[str, Any]:
    """A snapshot of the shape tricktable.seat.snapshot gives: seat 1 has led, `viewer` to play."""
    cards = ["QH", "TS", "2C", "AH", "7D", "JS"] if cards is None else cards
    sides = 2 if n in (4, 6) else n
    seats = [
        {
            "seat": s,
            "name": NAMES[s],
            "kind": "person" if s == 0 else "character",
            "side": s % sides,
            "cards_left": len(cards) - (1 if s == 1 else 0),
            "tricks": 0,
            "last_call": [{"t": "text", "v": "bid 3"}] if s == 1 else [],
            "dealer": s == n - 1,
            "turn": s == viewer and phase == "play",
            "avatar": NAMES[s],
        }
        for s in range(n)
    ]
    legal: list[dict[str, Any]] = []
    if phase == "play":
        legal = [
            {
                "action": f"play {c}",
                "text": f"play {c}",
                "label": card_name(c),
                "words": [{"t": "card", "v": c}],
            }
            for c in cards
            if c[1] == "H"
        ]
    elif phase == "bid":
        legal = [
            {
                "action": "pass",
                "text": "pass",
                "label": "pass",
                "words": [{"t": "text", "v": "pass"}],
            }
        ]
        legal += [
            {
                "action": f"bid {b}",
                "text": f"bid {b}",
                "label": f"bid {b}",
                "words": [{"t": "text", "v": f"bid {b}"}],
            }
            for b in (3, 4)
        ]
    return {
        "version": version,
        "game": {
            "name": "setback",
            "title": "Setback",
            "seats": n,
            "sides": sides,
            "partners": sides < n,
            "target": 21,
            "family": "all-fours",
        },
        "viewer": viewer,
        "seats": seats,
        "hand": {
            "number": 2,
            "phase": phase,
            "dealer": n - 1,
            "turn": viewer,
            "trump": "H" if phase == "play" else None,
            "contract": [{"t": "seat", "v": 1}, {"t": "text", "v": " bid 3"}],
            "cards": cards if viewer < n else [],
            "trick": [{"seat": 1, "card": "KH"}] if phase == "play" else [],
            "leader": 1,
            "winning": 1,
            "last_trick": None,
            "shown": {},
            # before any bid the snapshot says so, never "high bidder -1"
            # in the play, as Setback's: the contract again (drawn once), then the game count
            "facts": [[{"t": "text", "v": "no bid yet"}]]
            if phase == "bid"
            else [
                [{"t": "seat", "v": 1}, {"t": "text", "v": " bid 3"}],
                [{"t": "text", "v": "Game: us 3 · them 1"}],
            ],
            "tally": [[{"t": "text", "v": "High: "}, {"t": "seat", "v": 1}]],
        },
        "scores": [11, 7] + [0] * (sides - 2),
        "score_line": [[{"t": "text", "v": "Us 11 · Them 7"}]],
        "legal": legal,
        "decision": {"kind": "one", "prompt": [{"t": "text", "v": "Play a card"}]}
        if phase == "play" and viewer < n
        else {"kind": "one", "prompt": [{"t": "text", "v": "Bid or pass"}]}
        if phase == "bid" and viewer < n
        else None,
        "over": False,
        "summary": None,
    }


def envelope(kind: str, data: dict[str, Any], v: int | None = None, id_: str | None = None) -> str:
    return json.dumps({"type": kind, "table": "t1", "v": v, "id": id_, "data": data})


class Handler(SimpleHTTPRequestHandler):
    """The stand-in's HTTP side: the page's files where the server puts them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(STATIC), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_body(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path.startswith("/api/avatar/"):
            svg = AVATAR
            return self.send_body(svg, "image/svg+xml")
        if path == "/api/me":
            me = {"user": {"id": 1, "name": "Ann", "kind": "guest"}, "csrf": "x"}
            return self.send_body(json.dumps(me).encode(), "application/json")
        if path == "/api/games":
            games = {
                "games": [
                    {
                        "name": "setback",
                        "title": "Setback",
                        "seats": [2, 3, 4, 5, 6, 7],
                        "variants": [],
                    }
                ]
            }
            return self.send_body(json.dumps(games).encode(), "application/json")
        if path == "/api/tables/t1/record":
            return self.send_body(json.dumps(RECORD).encode(), "application/json")
        if path == "/api/tables":
            return self.send_body(b'{"tables": []}', "application/json")
        if path.startswith("/t/"):
            self.path = "/table.html"
        elif path == "/":
            self.path = "/index.html"
        elif path.startswith("/static/"):
            self.path = path[len("/static") :]
        return super().do_GET()


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class Table:
    """One page on the stand-in: the messages the page sent and a way to send it more."""

    def __init__(
        self, browser: Any, site: str, first: dict[str, Any], width: int, height: int = 900
    ) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion="reduce"
        )
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on(
            "console", lambda m: self.problems.append(m.text) if m.type == "error" else None
        )
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.sent: list[dict[str, Any]] = []
        self.routes: list[Any] = []
        self.first = first

        def on_socket(ws: Any) -> None:
            self.routes.append(ws)

            def message(text: str | bytes) -> None:
                msg = json.loads(text)
                self.sent.append(msg)
                if msg["type"] == "hello":
                    ws.send(envelope("snapshot", self.first, v=self.first["version"]))

            ws.on_message(message)

        self.page.route_web_socket("**/ws", on_socket)
        self.page.goto(f"{site}/t/t1")
        self.page.wait_for_selector(".felt")

    def push(self, kind: str, data: dict[str, Any], **kw: Any) -> None:
        self.routes[-1].send(envelope(kind, data, **kw))

    def close(self) -> None:
        assert self.problems == []
        self.context.close()


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("n", [2, 4, 7])
def test_a_snapshot_is_drawn_at_every_table_size_and_width(
    browser: Any, site: str, n: int, width: int
) -> None:
    table = Table(browser, site, snapshot(n), width)
    page = table.page
    assert page.locator(".seat").count() == n
    names = page.locator(".seat .name").all_inner_texts()
    assert sorted(names) == sorted(["Ann (you)", *NAMES[1:n]])
    # Every card of the hand is a button named as it is said; only hearts may follow.
    cards = page.get_by_role("group", name="Your hand, 6 cards").get_by_role("button")
    assert cards.count() == 6
    for code in ["QH", "TS", "2C", "AH", "7D", "JS"]:
        button = page.get_by_role("button", name=card_name(code), exact=True)
        assert button.count() == 1
        assert button.get_attribute("aria-disabled") == ("false" if code[1] == "H" else "true")
    # The led card lies in the trick, the contract and the score are shown.
    assert page.locator('.trick-slot[data-seat="1"] .trick-card').get_attribute("data-card") == "KH"
    assert "bid 3" in page.locator(".scorepad").inner_text()
    scores = page.locator(".scorepad table td").all_inner_texts()
    assert scores[:2] == ["11", "7"]
    # Said once: the pad's table, not the terminals' score line beside it; the contract in
    # its own line, not again among the facts.
    assert page.locator(".scorepad .fact").all_inner_texts() == ["Game: us 3 · them 1"]
    assert "Us 11" not in page.locator(".scorepad").inner_text()
    # Nothing leaves the screen sideways, and every seat is inside the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for box in [page.locator(".seat").nth(i).bounding_box() for i in range(n)]:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    table.close()


def test_the_keyboard_plays_a_card(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('hand-card')"):
            break
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "queen of hearts"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "ace of hearts"
    page.keyboard.press("Enter")
    page.wait_for_function("() => true")
    acts = [m for m in table.sent if m["type"] == "act"]
    assert len(acts) == 1 and acts[0]["data"] == {"action": "play AH"} and acts[0]["id"]
    # The server confirms with a fresh snapshot: the card has left the hand.
    after = snapshot(4, version=11, cards=["QH", "TS", "2C", "7D", "JS"])
    after["legal"], after["decision"] = [], None
    table.push("confirm", {"snapshot": after}, v=11, id_=acts[0]["id"])
    page.wait_for_function("document.querySelectorAll('.hand-card').length === 5")
    table.close()


def test_bids_are_buttons_named_by_their_words(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4, phase="bid"), 1280)
    page = table.page
    calls = page.get_by_role("group", name="Your call")
    assert calls.get_by_role("button", name="pass", exact=True).count() == 1
    calls.get_by_role("button", name="bid 3", exact=True).click()
    acts = [m for m in table.sent if m["type"] == "act"]
    assert acts[-1]["data"] == {"action": "bid 3"}
    # No card of the hand is playable during the auction.
    assert page.locator('.hand-card[aria-disabled="false"]').count() == 0
    assert page.locator(".scorepad .fact").all_inner_texts() == ["no bid yet"]
    table.close()


def test_events_animate_in_order_and_are_read_aloud(browser: Any, site: str) -> None:
    first = snapshot(4, viewer=0)
    first["legal"], first["decision"] = [], None
    table = Table(browser, site, first, 1280)
    page = table.page
    events = [
        {
            "version": 11,
            "kind": "play",
            "seat": 2,
            "card": "2H",
            "words": [
                {"t": "seat", "v": 2},
                {"t": "text", "v": " plays "},
                {"t": "card", "v": "2H"},
            ],
        },
        {
            "version": 12,
            "kind": "play",
            "seat": 3,
            "card": "9H",
            "words": [
                {"t": "seat", "v": 3},
                {"t": "text", "v": " plays "},
                {"t": "card", "v": "9H"},
            ],
        },
    ]
    table.push("events", {"events": events}, v=12)
    page.wait_for_function("document.querySelectorAll('.trick-card').length === 3")
    assert page.locator("#live p").all_inner_texts()[-2:] == [
        "Basil plays two of hearts",
        "Mabel plays nine of hearts",
    ]
    # An event already seen (a resend after a reconnection) is not shown twice.
    table.push("events", {"events": events[1:]}, v=12)
    page.wait_for_timeout(50)
    assert page.locator(".trick-card").count() == 3
    table.close()


def test_a_dropped_connection_comes_back_with_since(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    page.wait_for_function("window.tricktable.store.seen === 10")
    table.routes[-1].close()
    page.wait_for_function("document.querySelector('.status').textContent.includes('connected')")
    for _ in range(50):
        if len([m for m in table.sent if m["type"] == "hello"]) == 2:
            break
        page.wait_for_timeout(100)
    hellos = [m for m in table.sent if m["type"] == "hello"]
    assert [h["data"]["since"] for h in hellos] == [None, 10]
    assert page.locator(".seat").count() == 4
    table.close()


def test_chat_and_a_characters_bubble(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    page.get_by_label("Message").fill("good luck")
    page.get_by_role("button", name="Send").click()
    page.wait_for_timeout(50)
    assert [m["data"] for m in table.sent if m["type"] == "chat"] == [{"text": "good luck"}]
    table.push(
        "chat", {"seat": 1, "name": "Edna", "text": "Hold on to your hats", "kind": "character"}
    )
    page.wait_for_selector('.seat[data-seat="1"] .bubble')
    assert "Hold on to your hats" in page.locator(".chat").inner_text()
    table.close()


def test_a_hand_summary_and_the_end_of_the_match(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    done = snapshot(4, version=30, cards=[])
    done["legal"], done["decision"] = [], None
    done["summary"] = [
        [
            {"t": "text", "v": "High "},
            {"t": "card", "v": "AH"},
            {"t": "text", "v": " to "},
            {"t": "seat", "v": 0},
        ]
    ]
    table.push("snapshot", done, v=30)
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    assert "High A♥ to Ann" in dialog.inner_text()
    # The dialog takes the focus (once drawn): Escape closes it.
    page.wait_for_function("document.activeElement.closest('[role=dialog]') !== null")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    over = dict(done, version=31, over=True)
    table.push("snapshot", over, v=31)
    assert (
        page.get_by_role("link", name="Download the record").get_attribute("href")
        == "/api/tables/t1/record"
    )
    assert page.get_by_role("link", name="Watch the replay").count() == 1
    table.close()


def test_a_hint_points_at_its_card(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    page.get_by_role("button", name="Hint").click()
    page.wait_for_timeout(50)
    assert [m["type"] for m in table.sent if m["type"] == "hint"] == ["hint"]
    words = [{"t": "text", "v": "play "}, {"t": "card", "v": "AH"}]
    hint = {"action": "play AH", "text": "play AH", "words": words, "note": ""}
    table.push("hint", hint)
    page.wait_for_function("document.activeElement.classList.contains('hinted')")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "ace of hearts"
    assert page.locator("#live p").all_inner_texts()[-1] == "Hint: play ace of hearts"
    table.close()


def test_the_end_of_a_match_from_its_event(browser: Any, site: str) -> None:
    first = snapshot(4)
    first["legal"], first["decision"] = [], None
    table = Table(browser, site, first, 1280)
    page = table.page
    info = {"id": "t1", "status": "over", "match": 3, "commitment": "ab" * 32, "seats": []}
    table.push("table", dict(info, you={"seat": 0, "seat_token": "tok", "viewer": 0}), v=10)
    over = {
        "version": 11,
        "kind": "over",
        "seat": None,
        "card": None,
        "words": [{"t": "text", "v": "The match is over: 21 · 7"}],
        "data": {"scores": [21, 7]},
    }
    table.push("events", {"events": [over]}, v=11)
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    assert "The match is over: 21 · 7" in dialog.inner_text()
    record = dialog.get_by_role("link", name="Download the record")
    assert record.get_attribute("href") == "/api/tables/t1/record?match=3"
    replay = dialog.get_by_role("link", name="Watch the replay")
    assert replay.get_attribute("href") == "/t/t1?replay=1&match=3"
    dialog.get_by_role("button", name="Play again").click()
    page.wait_for_timeout(50)
    # (the page's heartbeat may ping at any moment: it is not what the click sent)
    assert [m["type"] for m in table.sent if m["type"] != "ping"][-1] == "again"
    # The seat's token is kept for another visit (take the seat back from another device).
    assert page.evaluate("localStorage.getItem('tt-seat:t1')") == "tok"
    table.close()


def test_every_card_of_every_skin_is_an_svg(browser: Any, site: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{site}/static/table.html")
    bad = page.evaluate(
        """async () => {
          const { cardSvg, backSvg, cardName, SKINS } = await import("/static/js/cards.js");
          const codes = ["JK", "JL"];
          for (const s of "CDHS") for (const r of "23456789TJQKA") codes.push(r + s);
          const bad = [];
          for (const skin of SKINS)
            for (const code of codes) {
              const doc = new DOMParser().parseFromString(cardSvg(code, skin), "image/svg+xml");
              if (doc.querySelector("parsererror") || doc.documentElement.nodeName !== "svg")
                bad.push(skin + " " + code);
            }
          const back = new DOMParser().parseFromString(backSvg(), "image/svg+xml");
          if (back.querySelector("parsererror")) bad.push("back");
          if (cardName("TD") !== "ten of diamonds" || cardName("JK") !== "joker") bad.push("names");
          return bad;
        }"""
    )
    assert bad == []
    context.close()


def test_the_lobby_chat_says_and_hears_lines(browser: Any, site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    sent: list[dict[str, Any]] = []
    routes: list[Any] = []

    def on_socket(ws: Any) -> None:
        routes.append(ws)
        ws.on_message(lambda text: sent.append(json.loads(text)))

    page.route_web_socket("**/ws", on_socket)
    page.goto(f"{site}/")
    box = page.get_by_label("Say to the lobby")
    box.wait_for()
    for _ in range(50):
        if any(m["type"] == "lobby" for m in sent):
            break
        page.wait_for_timeout(50)
    box.fill("anyone for Setback?")
    page.get_by_role("region", name="Lobby chat").get_by_role("button", name="Send").click()
    page.wait_for_timeout(50)
    chats = [m for m in sent if m["type"] == "chat"]
    assert [(m["table"], m["data"]) for m in chats] == [(None, {"text": "anyone for Setback?"})]
    assert box.input_value() == ""
    # The server's lobby chat (table null) is read in the log; a table's chat is not.
    for table, who, text in [(None, "Basil", "me!"), ("t9", "Otto", "not here")]:
        data = {"from": who, "seat": None, "text": text, "watcher": False}
        routes[-1].send(
            json.dumps({"type": "chat", "table": table, "v": None, "id": None, "data": data})
        )
    log = page.get_by_role("log", name="Lobby chat")
    log.get_by_text("me!").wait_for()
    assert log.get_attribute("aria-live") == "polite"
    assert "Basil" in log.inner_text() and "not here" not in log.inner_text()
    assert problems == []
    context.close()


def test_seat_kinds_are_said_alike_from_the_snapshot_and_the_table(browser: Any, site: str) -> None:
    first = snapshot(4)
    first["legal"], first["decision"] = [], None
    kinds = ["person", "bot", "character", "person"]
    for seat, kind in zip(first["seats"], kinds, strict=True):
        seat["kind"] = kind
    first["seats"][3]["kind"] = "remote"  # an older snapshot's word for a person
    table = Table(browser, site, first, 1280)
    page = table.page

    def said() -> list[str]:
        return [
            page.locator(f'.seat[data-seat="{s}"] .kind').all_inner_texts()[0]
            if page.locator(f'.seat[data-seat="{s}"] .kind').count()
            else ""
            for s in range(4)
        ]

    assert said() == ["", "bot", "character", ""]
    # The table's own list knows an open seat: the page says so, and a spectator may sit.
    seats = [{"seat": s, "kind": k, "name": NAMES[s]} for s, k in enumerate(kinds)]
    seats[3] = {"seat": 3, "kind": "open", "name": ""}
    table.push("table", {"id": "t1", "status": "waiting", "seats": seats}, v=10)
    page.wait_for_function("document.querySelector('.seat[data-seat=\"3\"] .kind') !== null")
    assert said() == ["", "bot", "character", "open seat"]
    table.close()
