"""A newcomer's first evening at tricktable, end to end, on a phone and then at a desk.

One story against a real ``tricktable serve`` (``--pace 0``, beginner bots) and Debian's
Chromium: on a phone (375x667, touch, mobile) a person signs up in the lobby by the form's
names, creates a table of Hearts from the lobby and the others by the API with the account's
session, and plays, by taps alone, a hand of Hearts (the pass of three), of Pitch with a kitty
(winning the bid and discarding four) and of Seven Up (stand or beg); the hand stays in view
when a bid is asked for and after each card played. At a desk, the same account plays a hand
of Hearts by the keyboard alone. Then, back on the phone, a match of Setback to 1 (one hand)
is played by taps; the person downloads the record, opens "Watch the replay", steps to the end
by trick, and the page shows every hand face up, the trump and the final scores, equal to
those ``tricktable replay --json`` gives for the downloaded record. No page logs an error.

The person is :class:`web_play.Player`, acting by roles and accessible names; :class:`Newcomer`
only gives it an account's browser context and taps where it would click.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_web_replay import cli_scores
from web_play import Played, Player, PlayFailed, bold, served

#: seconds one hand may take (a hand of 13 tricks takes about 8 on two cores)
HAND = 60.0
PHONE = {"width": 375, "height": 667}
#: a card's accessible name as the page says it (a play, not a call)
CARD = re.compile(
    r"^(the )?((two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace)"
    r" of (clubs|diamonds|hearts|spades)|(little )?joker)$",
    re.IGNORECASE,
)
#: a point of an element that shows (the topmost there), relative to its box (None: none)
SHOWING = """el => {
  const r = el.getBoundingClientRect();
  for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) {
    for (let fx = 0.5; fx > 0.02; fx -= 0.04) {
      for (const gx of [fx, 1 - fx]) {
        const x = r.left + r.width * gx, y = r.top + r.height * fy;
        const top = document.elementFromPoint(x, y);
        if (top && el.contains(top)) return [x - r.left, y - r.top];
      }
    }
  }
  return null;
}"""
#: a seat's card on the replay page: a card's code, face up (never a back)
FACE = re.compile(r"^([2-9TJQKA][CDHS]|J[KL])$")


class Newcomer(Player):
    """The person of :class:`web_play.Player` in a given (signed-in) browser context, who taps
    instead of clicking, and who notes each time the hand is not in the viewport when a bid is
    asked for or after a card is played."""

    def __init__(self, context: Any, base: str, seed: int = 0, tap: bool = True) -> None:
        super().__init__(None, base, seed=seed, context=context)  # the account's context
        self.tap = tap
        #: every time the hand was looked for: (moment, its box) and those out of view
        self.looked: list[str] = []
        self.out_of_view: list[str] = []

    def reset(self) -> None:
        self.snapshot, self.stamp, self.refused, self.acted = None, 0, None, -1

    def hand_group(self) -> Any:
        return self.page.get_by_role("group", name=re.compile(r"^Your hand"))

    def hand_in_view(self, moment: str) -> None:
        """Note whether the hand's box lies inside the viewport (a hand of no cards: skipped)."""
        hand = self.hand_group()
        if not hand.count():
            self.out_of_view.append(f"{moment}: no hand shown")
            return
        label = hand.first.get_attribute("aria-label") or ""
        if label.endswith(" 0 cards"):
            return
        box = hand.first.bounding_box()
        size = self.page.viewport_size
        self.looked.append(moment)
        if box is None:
            self.out_of_view.append(f"{moment}: the hand has no box")
            return
        x, y, w, h = box["x"], box["y"], box["width"], box["height"]
        inside = x >= -0.5 and y >= -0.5 and x + w <= size["width"] + 0.5
        inside = inside and y + h <= size["height"] + 0.5
        if not inside:
            self.out_of_view.append(
                f"{moment}: the hand at x={x:.0f} y={y:.0f} {w:.0f}x{h:.0f}, "
                f"the viewport {size['width']}x{size['height']}"
            )

    def _click(self, button: Any, name: str, key: str, played: Played) -> None:
        if not self.tap:
            super()._click(button, name, key, played)
            return
        decision = (self.snapshot or {}).get("decision") or {}
        is_card = bool(CARD.match(name))
        if key == "Enter" and not is_card and decision.get("kind") != "cards":
            self.hand_in_view(f"asked to call ({name!r} to be tapped)")
        try:
            button.scroll_into_view_if_needed(timeout=3000)
            # A chosen card rises (a CSS transition): a finger aims once the hand is still,
            # else the point found is under the rising card by the time it is tapped.
            self.page.wait_for_function(
                "document.getAnimations().every(a => a.playState !== 'running')", timeout=3000
            )
            # A fanned hand covers most of each card by the next: a finger taps what shows.
            spot = button.evaluate(SHOWING)
            if spot is None:
                raise PlayFailed("no part of it shows (every point lies under another element)")
            handle = button.element_handle()
            was = handle.get_attribute("aria-pressed")
            button.tap(position={"x": spot[0], "y": spot[1]}, timeout=3000)
            if key == "Space" and not self._became(handle, "aria-pressed", was):
                raise PlayFailed(f"the tap at {spot} left aria-pressed={was}")
        except Exception as e:
            # Not by a tap: the test fails on the note; the key lets the hand go on to say more.
            log = [ln.strip() for ln in str(e).splitlines()]
            why = [ln for ln in log if "intercepts" in ln or "outside" in ln or "not" in ln]
            what = "toggle" if key == "Space" else "play" if is_card else "call"
            played.notes.append(f"{what} {name!r} not tappable: {(why or log)[-1][:160]}")
            button.press(key)
        if key == "Enter" and is_card:
            gone = self.hand_group().get_by_role("button", name=name, exact=True)
            with contextlib.suppress(Exception):
                gone.wait_for(state="detached", timeout=3000)
            self.hand_in_view(f"after playing {name}")

    def _became(self, button: Any, attr: str, was: str | None) -> bool:
        """Whether ``button``'s ``attr`` changed from ``was`` within 2 s."""
        for _ in range(40):
            if button.get_attribute(attr) != was:
                return True
            self.page.wait_for_timeout(50)
        return False

    def next_hand(self) -> None:
        self.dialog().get_by_role("button", name="Continue").tap()
        self.dialog().wait_for(state="hidden")

    def seated_where(
        self,
        game: str,
        seats: int,
        dealer: Any,
        tries: int = 64,
        options: dict[str, Any] | None = None,
    ) -> int:
        """Player.seated_where, leaving a table by a tap on "Leave seat"."""
        for _ in range(tries):
            self.reset()
            self.open(self.create(game, seats, options=options))
            d = self.dealer()
            if dealer(d):
                return d
            self.page.get_by_role("button", name="Leave seat").tap()
            self.page.wait_for_timeout(50)
        raise PlayFailed(f"no table of {game} in {tries} with the dealer wanted")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("newcomer") / "tables.db") as base:
        yield base


def sign_up(page: Any, base: str, name: str, password: str) -> None:
    """Sign up in the lobby by the form's names, by taps."""
    page.goto(base + "/")
    come_in = page.get_by_role("region", name="Come in")
    come_in.wait_for()
    come_in.get_by_role("button", name="Sign up").tap()
    come_in.get_by_label("Account name").tap()
    come_in.get_by_label("Account name").fill(name)
    come_in.get_by_label("Password").tap()
    come_in.get_by_label("Password").fill(password)
    come_in.get_by_role("button", name="Sign up").last.tap()
    page.get_by_text("Playing as").wait_for()
    assert name in page.locator(".me").inner_text()


def lobby_table(person: Newcomer, game: str) -> None:
    """Create a table of ``game`` from the lobby's form (beginner bots) and wait at it."""
    page = person.page
    form = page.get_by_role("region", name="Start a table")
    form.wait_for()
    form.get_by_label("Game").select_option(game)
    form.get_by_label("Bots and characters play at").select_option("beginner")
    person.reset()
    form.get_by_role("button", name="Create the table").tap()
    page.wait_for_url("**/t/**")
    page.get_by_role("region", name=re.compile(r"^The table")).wait_for()


def played_by_taps(person: Newcomer, played: Played) -> None:
    assert played.notes == [], played.notes
    assert person.out_of_view == [], person.out_of_view


@pytest.mark.xfail(
    reason="not yet reliable (issue 26's note): on an emulated phone a tap on a fanned card "
    "of a kitty's discard sometimes toggles nothing, and the short Setback match's end dialog "
    "was once not seen; 1 pass in 3 runs at this stop",
    strict=False,
)
def test_a_newcomer_signs_up_plays_by_taps_and_keys_and_watches_the_replay(
    browser: Any, server: str, tmp_path: Path
) -> None:
    started = time.monotonic()
    phone = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    sign_up_page = phone.new_page()
    sign_up_page.set_default_timeout(15000)
    lobby_problems: list[str] = []
    sign_up_page.on("pageerror", lambda e: lobby_problems.append(str(e)))
    sign_up_page.on(
        "console", lambda m: lobby_problems.append(m.text) if m.type == "error" else None
    )
    sign_up(sign_up_page, server, "Nell Newcomer", "a long password")
    sign_up_page.close()
    assert lobby_problems == [], lobby_problems

    nell = Newcomer(phone, server, seed=7)
    # Hearts, from the lobby's form: the pass of three, by taps.
    nell.page.goto(server + "/")
    lobby_table(nell, "hearts")
    hearts = nell.play_hand(time.monotonic() + HAND)
    assert hearts.names("cards") == ["Pass these three"], hearts.decisions
    assert hearts.count("card") == 13, hearts.decisions
    played_by_taps(nell, hearts)
    assert nell.looked, "the hand was never looked for"

    # Pitch with a kitty, by the API: the eldest bids first and, bidding the most, discards four.
    nell.seated_where("pitch-with-kitty", 4, dealer=lambda d: d == 3)
    pitch = nell.play_hand(time.monotonic() + HAND, choose=bold)
    assert pitch.names("call")[0].startswith("bid"), pitch.decisions
    assert "Discard these four" in pitch.names("cards"), pitch.decisions
    assert any(m.startswith("asked to call") for m in nell.looked), nell.looked
    played_by_taps(nell, pitch)

    # Seven Up: the dealer's opponent stands or begs.
    nell.seated_where("seven-up", 2, dealer=lambda d: d == 1)
    seven = nell.play_hand(time.monotonic() + HAND)
    assert seven.names("call")[0] in ("stand", "beg"), seven.decisions
    played_by_taps(nell, seven)
    assert nell.problems == [], nell.problems

    # At a desk, the same account: a hand of Hearts by the keyboard alone.
    desk = browser.new_context(
        viewport={"width": 1280, "height": 900},
        reduced_motion="reduce",
        storage_state=phone.storage_state(),
    )
    at_desk = Newcomer(desk, server, seed=11, tap=False)
    at_desk.open(at_desk.create("hearts", 4))
    keys = at_desk.play_hand(time.monotonic() + HAND, keyboard=True)
    assert keys.names("cards") == ["Pass these three"], keys.decisions
    assert keys.count("card") == 13, keys.decisions
    assert keys.notes == [], keys.notes
    assert at_desk.problems == [], at_desk.problems
    desk.close()

    # A match of Setback to 1, the first side there winning, by taps: one hand ends it.
    nell.reset()
    nell.out_of_view.clear()
    table = nell.create("setback", 4, options={"target": 1, "win": "first"})
    nell.open(table)
    match = nell.play_hand(time.monotonic() + HAND, choose=bold)
    played_by_taps(nell, match)
    over = nell.page.get_by_role("dialog", name="The match is over")
    if not over.is_visible():
        assert nell.dialog().is_visible(), "no summary after the hand"
        nell.next_hand()
    over.wait_for()
    with nell.page.expect_download() as got:
        over.get_by_role("link", name="Download the record").tap()
    record_path = tmp_path / "record.json"
    got.value.save_as(record_path)
    expected = cli_scores(record_path)

    over.get_by_role("link", name="Watch the replay").tap()
    page = nell.page
    page.wait_for_selector(".replay-page[data-step='0'] .replay-felt")
    felt = page.get_by_role("region", name="The table, every hand face up")
    seats = felt.locator(".replay-seat")
    assert seats.count() == 4
    # The first deal: four hands of six, every card face up.
    first = [seats.nth(i).locator(".replay-cards .card").count() for i in range(4)]
    assert first == [6, 6, 6, 6], first
    last = int(page.locator(".replay-page").get_attribute("data-last") or -1)
    route = f"{server}/api/tables/{table}/replay"
    stops = 0
    while True:
        step = int(page.locator(".replay-page").get_attribute("data-step") or -1)
        snap = nell.context.request.get(f"{route}?step={step}").json()["snapshot"]
        shown = snap["hand"]["shown"]
        for i in range(4):
            box = seats.nth(i)
            seat = box.get_attribute("data-seat")
            codes = box.locator(".replay-cards .card").evaluate_all(
                "cs => cs.map(c => c.dataset.card)"
            )
            assert all(FACE.match(c) for c in codes), (step, seat, codes)
            assert codes == shown[str(seat)], (step, seat, codes, shown)
        stops += 1
        if step == last:
            break
        page.get_by_role("button", name="trick >").tap()
        page.wait_for_function(
            "s => Number(document.querySelector('.replay-page').dataset.step) > s", arg=step
        )
    assert stops > 2, stops
    assert "Match over" in page.locator(".replay-over").inner_text()
    trump = page.locator(".replay-side .trump").inner_text()
    assert re.fullmatch(r"Trump: \S.*", trump), trump
    scores = [int(t) for t in page.locator(".replay-scores td.score").all_inner_texts()]
    assert scores == expected, (scores, expected)
    assert max(scores) >= 1, scores
    page.screenshot(path=str(tmp_path / "replay-375.png"), full_page=True)
    assert nell.problems == [], nell.problems
    phone.close()
    # Under two minutes on two busy cores.
    assert time.monotonic() - started < 170, time.monotonic() - started
