"""The web tables end to end: a real ``tricktable serve`` on 127.0.0.1 and Debian's Chromium.

One server (a temporary SQLite file, ``--pace 0`` so the bots answer at once) and one browser
for the module. A guest creates a table with three characters in the lobby and plays a whole
hand by clicks; a second guest on a phone-sized screen joins a table by its invite link, the
two play and chat both ways, the second reloads in the middle of the hand and plays on; a
spectator's every websocket frame names no card still in someone's hand; a player plays by
the keyboard alone. Every page runs with reduced motion (the animations are skipped, the
events still applied in order) and no console error.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: what the page clicks when it is its turn: a playable card, or a call (not the hint)
LEGAL = ".hand-card.legal, .actions button:not(.hint)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    """``tricktable serve`` of ``db`` on ``port``, once it answers."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--pace", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tricktable", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/me", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"tricktable serve stopped: {out}")
            time.sleep(0.1)
    proc.kill()
    pytest.fail("tricktable serve did not answer in 20 s")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    proc = start_server(tmp_path_factory.mktemp("web") / "tables.db", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Person:
    """One browser context (one person's cookies) with one page, its frames and its errors."""

    def __init__(
        self, browser: Any, base: str, name: str, phone: bool = False, guest: bool = True
    ) -> None:
        size = {"width": 375, "height": 812} if phone else {"width": 1280, "height": 900}
        self.context = browser.new_context(viewport=size, reduced_motion="reduce")
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.base = base
        self.problems: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.on(
            "console", lambda m: self.problems.append(m.text) if m.type == "error" else None
        )
        self.page.on("websocket", self.watch)
        if guest:
            answer = self.context.request.post(base + "/api/guest", data={"name": name})
            assert answer.ok, answer.text()

    def watch(self, ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            self.frames.append(json.loads(payload))

        ws.on("framereceived", received)

    def open(self, path: str) -> None:
        self.page.goto(self.base + path)
        self.page.wait_for_selector(".felt")

    def act(self) -> None:
        """Wait for this person's turn and click the first thing it may do."""
        self.page.locator(LEGAL).first.click()

    def my_turn(self) -> bool:
        return bool(self.page.locator(LEGAL).count())

    def summaries(self) -> int:
        return int(self.page.evaluate("window.tricktable.store.summaries.length"))

    def close(self) -> None:
        assert self.problems == [], self.problems
        self.context.close()


def create(person: Person, seats: list[dict[str, Any]]) -> str:
    """Create a Setback table by the API (the lobby's form is tested once); its id."""
    csrf = person.context.request.get(person.base + "/api/me").json()["csrf"]
    answer = person.context.request.post(
        person.base + "/api/tables",
        data={"game": "setback", "seats": seats, "move_time": 0},
        headers={"X-CSRF-Token": csrf},
    )
    assert answer.ok, answer.text()
    return str(answer.json()["table"]["id"])


def test_a_guest_creates_a_table_with_three_characters_and_plays_a_hand(
    browser: Any, server: str
) -> None:
    ann = Person(browser, server, "Ann")
    page = ann.page
    page.goto(server + "/")
    form = page.get_by_role("region", name="Start a table")
    form.wait_for()
    # Beginners answer at once (the club level's characters think).
    form.get_by_label("Bots and characters play at").select_option("beginner")
    assert form.get_by_label("Game").input_value() == "setback"
    form.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/**")
    page.wait_for_selector(".felt")
    assert page.locator(".seat").count() == 4
    assert page.locator(".seat .kind").all_inner_texts().count("character") == 3
    # A whole hand by clicks: the summary of hand 1 comes up at the end.
    for _ in range(40):
        if ann.summaries():
            break
        page.wait_for_selector(LEGAL + ", .summary")
        if ann.summaries():
            break
        ann.act()
    assert ann.summaries() >= 1
    dialog = page.get_by_role("dialog")
    assert "Hand 1" in dialog.inner_text()
    ann.close()


def frame_cards(frame: Any, found: set[str], key: str = "") -> None:
    """Every card a frame names (the fields `card`, `cards`, and card tokens)."""
    if isinstance(frame, dict):
        if frame.get("t") == "card" and isinstance(frame.get("v"), str):
            found.add(frame["v"])
        for k, v in frame.items():
            frame_cards(v, found, k)
    elif isinstance(frame, list):
        for v in frame:
            frame_cards(v, found, key)
    elif isinstance(frame, str) and key in ("card", "cards") and len(frame) == 2:
        found.add(frame)


def played_cards(frame: dict[str, Any]) -> set[str]:
    """The cards a frame shows face up on the table: plays, tricks, hands over."""
    out: set[str] = set()
    data = frame.get("data") or {}
    snap = data.get("snapshot", data) if frame["type"] in ("snapshot", "confirm") else None
    for ev in data.get("events", []) if frame["type"] == "events" else []:
        if ev.get("kind") == "play" and ev.get("card"):
            out.add(ev["card"])
    if snap and isinstance(snap.get("hand"), dict):
        hand = snap["hand"]
        out |= {t["card"] for t in hand.get("trick") or []}
        out |= {t["card"] for t in (hand.get("last_trick") or {}).get("cards") or []}
        for cards in (hand.get("shown") or {}).values():
            out |= set(cards)
    return out


def test_two_people_by_invite_chat_reload_a_spectator_and_a_phone(
    browser: Any, server: str
) -> None:
    ann = Person(browser, server, "Ann")
    seats = [{"kind": "me"}, {"kind": "character", "name": "edna"}, {"kind": "open"}]
    table = create(ann, [*seats, {"kind": "character", "name": "vinnie"}])
    ann.open(f"/t/{table}")
    invite = ann.page.locator(".invite a").get_attribute("href")
    assert invite and invite.endswith(f"/t/{table}")
    # Bob, with no session yet, follows the invite on a phone, says his name, takes the seat.
    bob = Person(browser, server, "Bob", phone=True, guest=False)
    bob.page.goto(invite)
    bob.page.get_by_label("Your name").fill("Bob")
    bob.page.get_by_role("button", name="Join the table").click()
    bob.page.get_by_role("button", name="Sit here").click()
    bob.page.wait_for_selector(".hand-card")
    # A spectator watches from now on.
    eve = Person(browser, server, "Eve")
    eve.open(f"/t/{table}")
    assert eve.page.locator(".hand-card").count() == 0
    # Chat both ways.
    ann.page.get_by_label("Message").fill("good luck, Bob")
    ann.page.get_by_role("button", name="Send").click()
    bob.page.locator(".chat .messages").get_by_text("good luck, Bob").wait_for()
    bob.page.get_by_label("Message").fill("thanks Ann")
    bob.page.get_by_role("button", name="Send").click()
    ann.page.locator(".chat .messages").get_by_text("thanks Ann").wait_for()
    # Both play; Bob reloads in the middle of the hand and plays on.
    bob_played = 0
    reloaded = False
    for _ in range(60):
        if ann.summaries() or (reloaded and bob_played >= 2):
            break
        ann.page.wait_for_timeout(50)
        if ann.my_turn():
            ann.act()
        if bob.my_turn():
            bob.act()
            bob_played += 1
            if bob_played == 1 and not reloaded:
                bob.page.reload()
                bob.page.wait_for_selector(".felt")
                reloaded = True
    assert reloaded and (bob_played >= 2 or ann.summaries())
    # The spectator's frames never named a card before it was on the table.
    seen: set[str] = set()
    for frame in eve.frames:
        seen |= played_cards(frame)
        named: set[str] = set()
        frame_cards(frame, named)
        assert named <= seen, (frame["type"], named - seen)
    assert seen, "the spectator saw no card played"
    for person in (ann, bob, eve):
        person.close()


def test_a_card_played_by_the_keyboard_alone(browser: Any, server: str) -> None:
    kit = Person(browser, server, "Kit")
    seats = [{"kind": "me"}] + [{"kind": "bot", "level": "beginner"}] * 3
    kit.open(f"/t/{create(kit, seats)}")
    page = kit.page
    # Tab to the first thing it may do, Enter; a call (a bid, a pass) first, until a card.
    played = False
    for _ in range(30):
        page.wait_for_selector(LEGAL)
        focused = None
        for _ in range(60):
            page.keyboard.press("Tab")
            focused = page.evaluate(
                "(el => el.matches('.hand-card.legal') ? 'card'"
                " : el.matches('.actions button:not(.hint)') ? 'call' : null)"
                "(document.activeElement)"
            )
            if focused:
                break
        assert focused, "Tab never reached a card or a call"
        confirms = sum(f["type"] == "confirm" for f in kit.frames)
        page.keyboard.press("Enter")
        for _ in range(100):
            if sum(f["type"] == "confirm" for f in kit.frames) > confirms:
                break
            page.wait_for_timeout(50)
        assert sum(f["type"] == "confirm" for f in kit.frames) > confirms
        if focused == "card":
            played = True
            break
    assert played
    # The live region has read the play aloud.
    assert page.locator("#live").inner_text() != ""
    kit.close()


def test_a_match_to_its_end_its_record_and_its_replay(browser: Any, server: str) -> None:
    zed = Person(browser, server, "Zed")
    csrf = zed.context.request.get(server + "/api/me").json()["csrf"]
    seats = [{"kind": "me"}] + [{"kind": "bot", "level": "beginner"}] * 3
    answer = zed.context.request.post(
        server + "/api/tables",
        data={"game": "setback", "options": {"target": 1}, "seats": seats, "move_time": 0},
        headers={"X-CSRF-Token": csrf},
    )
    assert answer.ok, answer.text()
    zed.open(answer.json()["url"])
    page = zed.page
    over = page.get_by_role("dialog").filter(has_text="The match is over")
    for _ in range(200):
        page.wait_for_selector(LEGAL + ", .summary")
        if over.count():
            break
        if page.locator(".summary").count():
            page.get_by_role("button", name="Continue").click()
        elif zed.my_turn():
            zed.act()
    with page.expect_download() as download:
        over.get_by_role("link", name="Download the record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "tricktable-record/1" and record["fair"]["commitment"]
    # The page re-deals every hand from the revealed seed, against the commitment it was
    # shown before the first deal (js/fair.js; tests/test_web_fair.py checks it in depth).
    over.get_by_role("button", name="Check the deals").click()
    said = over.get_by_role("status")
    said.filter(has_text="Verified.").wait_for()
    assert f"Every one of the {len(record['hands'])} deals came from seed" in said.inner_text()
    over.get_by_role("link", name="Watch the replay").click()
    # the replay draws the server's snapshots for everyone (tests/test_web_replay.py in
    # depth): stepped to the end, it shows the four seats and the final scores
    page.wait_for_selector(".replay-page[data-step]")
    page.locator("button.rp-end").click()
    page.wait_for_function(
        "(() => { const r = document.querySelector('.replay-page');"
        " return r && r.dataset.step === r.dataset.last; })()"
    )
    assert page.locator(".replay-seat").count() == 4
    zed.close()


def test_the_server_killed_mid_hand_and_started_again_the_page_plays_on(
    browser: Any, tmp_path: Path
) -> None:
    port = free_port()
    db = tmp_path / "tables.db"
    proc = start_server(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        ann = Person(browser, base, "Ann")
        seats = [{"kind": "me"}] + [{"kind": "bot", "level": "beginner"}] * 3
        ann.open(f"/t/{create(ann, seats)}")
        page = ann.page
        page.evaluate("window.notReloaded = true")
        # Into the play of the hand: the auction, then a card.
        for _ in range(12):
            ann.act()
            page.wait_for_timeout(100)
            if page.evaluate("(window.tricktable.store.truth.hand || {}).phase") == "play":
                break
        page.wait_for_selector(".hand-card.legal")
        before = page.evaluate("window.tricktable.store.seen")
        proc.kill()  # SIGKILL: no goodbye to anyone
        proc.wait(timeout=10)
        proc = start_server(db, port)
        # The page reconnects by itself (no reload) and plays on from where it was.
        page.wait_for_function("window.tricktable.store.status === 'open'", timeout=20000)
        confirms = sum(f["type"] == "confirm" for f in ann.frames)
        ann.act()
        for _ in range(100):
            if sum(f["type"] == "confirm" for f in ann.frames) > confirms:
                break
            page.wait_for_timeout(50)
        assert sum(f["type"] == "confirm" for f in ann.frames) > confirms
        assert page.evaluate("window.notReloaded") is True
        assert page.evaluate("window.tricktable.store.seen") > before
        # The browser logs each refused reconnection while the server was down.
        ann.problems = [m for m in ann.problems if "WebSocket" not in m]
        ann.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_clock_run_out_hands_the_seat_to_a_bot_and_one_click_takes_it_back(
    browser: Any, server: str
) -> None:
    max_ = Person(browser, server, "Max")
    csrf = max_.context.request.get(server + "/api/me").json()["csrf"]
    seats = [{"kind": "me"}] + [{"kind": "bot", "level": "beginner"}] * 3
    answer = max_.context.request.post(
        server + "/api/tables",
        data={"game": "setback", "seats": seats, "move_time": 1},
        headers={"X-CSRF-Token": csrf},
    )
    assert answer.ok, answer.text()
    max_.open(answer.json()["url"])
    page = max_.page
    # The clock shows on the seat to act, then runs out: a bot plays the seat, visibly.
    page.locator(".seat.me .clock").wait_for()
    back = page.get_by_role("button", name="Take my seat back")
    back.wait_for(timeout=10000)
    # (At once: with the seat a bot's and the bots' pace nil, the match runs on fast.)
    away = page.locator(".seat.me .kind").inner_text()
    back.focus()  # a hand's summary may have come up over the table meanwhile
    page.keyboard.press("Enter")
    assert "a bot plays" in away
    back.wait_for(state="detached")
    assert page.locator(".seat.me .kind").count() == 0
    max_.close()


def test_the_lobby_chat_between_two_guests(browser: Any, server: str) -> None:
    ann = Person(browser, server, "Ann")
    cid = Person(browser, server, "Cid", phone=True)
    for person in (ann, cid):
        person.page.goto(server + "/")
        person.page.get_by_label("Say to the lobby").wait_for()
    # Both subscribed to the lobby: a line said by one is read in the other's log.
    for person in (ann, cid):
        for _ in range(100):
            if any(f.get("type") == "lobby" for f in person.frames):
                break
            person.page.wait_for_timeout(50)
        else:
            pytest.fail("the lobby never answered its subscription")
    ann.page.get_by_label("Say to the lobby").fill("anyone for Setback?")
    ann.page.get_by_role("region", name="Lobby chat").get_by_role("button", name="Send").click()
    log = cid.page.get_by_role("log", name="Lobby chat")
    log.get_by_text("anyone for Setback?").wait_for()
    assert "Ann" in log.inner_text()
    for person in (ann, cid):
        person.close()
