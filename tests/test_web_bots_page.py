"""A person's bots in the browser (issue 28): "My bots" in the lobby (js/bots.js) and the
creator's "Invite a bot" at a waiting table (js/table.js), in Debian's Chromium on a real
server on 127.0.0.1, at a phone's width.

An account signs up in the page, registers a websocket bot, and reads its token and the
command to run it from the page; the test runs examples/bots/ws_bot.py with that token as a
real process; the person creates a table with an open seat in the page, an unknown bot's
invitation is refused in the server's one line, the bot is invited by the page's control, its
seat shows its name, and the person plays the hand through the page until it is scored. A
guest sees no form to register a bot (and invites by name at a table of theirs); "new token"
and "delete" ask first and do it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_harness import serving

ROOT = Path(__file__).resolve().parents[1]
WS_BOT = ROOT / "examples" / "bots" / "ws_bot.py"
PHONE = {"width": 375, "height": 812}

#: what a page's visible control smaller than 32 px either way is (its tag, text and size)
SMALL = """(scope) => [...document.querySelectorAll(scope)]
  .filter((e) => e.offsetParent !== null)
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width < 32 || r.height < 32)
  .map(([e, r]) => `${e.tagName} ${e.textContent.trim().slice(0, 20)} ${r.width}x${r.height}`)"""

#: the person's turn at a snapshot newer than the one acted on ("act"), or the first hand's
#: summary on screen ("done"); false while neither
TURN = """(acted) => {
  if (document.querySelector('#summary-title')) return 'done';
  const s = window.tricktable && window.tricktable.store;
  const t = s && s.truth;
  if (!t || t.version <= acted || s.queue.length || s.busy) return false;
  return (t.legal || []).length ? 'act' : false;
}"""


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path / "web.db") as url:
        yield url


def page_of(browser: Any) -> tuple[Any, Any, list[str]]:
    """A phone's page, and the script errors it logs."""
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(20_000)  # a deadline for a broken server, not a measure
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return context, page, problems


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/")
    come_in = page.get_by_role("region", name="Come in")
    come_in.get_by_role("button", name="Sign up").click()
    come_in.get_by_label("Account name").fill(name)
    come_in.get_by_label("Password").fill("a long password")
    come_in.get_by_role("button", name="Sign up").last.click()
    page.get_by_text("Playing as").wait_for()


def test_a_person_registers_a_bot_invites_it_and_plays_a_hand_with_it(
    browser: Any, base: str
) -> None:
    context, page, problems = page_of(browser)
    sign_up(page, base, "Nell Newcomer")
    for link in ("Arena", "Tournaments", "Leagues", "Players"):
        href = page.locator("header nav").get_by_role("link", name=link).get_attribute("href")
        assert href == "/" + link.lower()
    bots = page.get_by_role("region", name="My bots")
    bots.get_by_text("You have no bot yet.").wait_for()
    bots.get_by_label("Bot's name").fill("Robo")
    bots.get_by_role("button", name="Register the bot").click()
    token = page.locator("#bot-token-text").inner_text()
    assert token.startswith("ttbot_")
    url = base.replace("http", "ws") + "/ws"
    command = page.locator("#bot-command-text").inner_text()
    assert command == f"TRICKTABLE_BOT_TOKEN={token} python examples/bots/ws_bot.py {url}"
    assert bots.get_by_role("button", name="Copy the token").is_visible()
    row = bots.get_by_role("listitem").filter(has_text="Robo")
    assert "connects with a token" in row.inner_text()
    controls = ".lobby button, .lobby select, .lobby input, .lobby a, .bar a"
    assert page.evaluate(SMALL, controls) == []
    bots.get_by_role("button", name="I have copied it").click()
    assert page.locator("#bot-token-text").count() == 0  # shown once

    bot = subprocess.Popen(
        [sys.executable, str(WS_BOT), url, "--hands", "1", "--seed", "7"],
        env={**os.environ, "TRICKTABLE_BOT_TOKEN": token},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # Its first line says it is connected (or why not, and it ends).
        first = bot.stdout.readline() if bot.stdout else ""
        assert first.startswith("connected to"), first

        form = page.get_by_role("region", name="Start a table")
        form.get_by_label("Game").select_option("setback")
        form.get_by_label("Seat 2", exact=True).select_option("open")
        form.get_by_role("button", name="Create the table").click()
        page.get_by_role("link", name="Go to the table").click()
        page.wait_for_url("**/t/**")
        invite = page.get_by_role("region", name="Invite a bot")
        field = invite.get_by_label("Bot for seat 1")  # as the felt names seat 1 (0-based)
        # the seat's own control takes the keyboard to its field
        page.locator(".seat[data-seat='1']").get_by_role("button", name="Invite a bot").click()
        assert field.evaluate("(e) => e === document.activeElement")
        page.locator("#my-bots option[value='Robo']").wait_for(state="attached")
        field.fill("Nobody")
        invite.get_by_role("button", name="Invite").click()
        assert invite.get_by_role("alert").inner_text() == "there is no bot named 'Nobody'"
        assert page.evaluate(SMALL, ".invite-bots button, .invite-bots input, .seat button") == []
        field.fill("Robo")
        field.press("Enter")
        seat = page.locator(".seat[data-seat='1']")
        seat.locator(".name", has_text="Robo").wait_for()
        assert invite.count() == 0  # the table is full: the match has begun

        acted = -1
        while True:
            said = page.wait_for_function(TURN, arg=acted, timeout=60_000).json_value()
            if said == "done":
                break
            acted = page.evaluate("() => window.tricktable.store.truth.version")
            card = page.locator(".hand-card.legal")
            call = page.locator(".actions button:not(.hint)")
            (card if card.count() else call).first.click()
        assert "Robo" in seat.inner_text()
        out, _ = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, out
    assert "seated at table" in out and "hand 1: scores" in out, out
    assert not any(line.startswith(("refused", "error")) for line in out.splitlines()), out
    assert problems == [], problems
    context.close()


def test_new_token_and_delete_ask_first_then_do_it(browser: Any, base: str) -> None:
    context, page, problems = page_of(browser)
    sign_up(page, base, "Tess Tokens")
    bots = page.get_by_role("region", name="My bots")
    bots.get_by_label("Bot's name").fill("Tok")
    bots.get_by_role("button", name="Register the bot").click()
    first = page.locator("#bot-token-text").inner_text()
    bots.get_by_role("button", name="I have copied it").click()
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept() if len(asked) > 1 else dialog.dismiss()

    page.on("dialog", answer)
    bots.get_by_role("button", name="New token for Tok").click()  # dismissed: nothing done
    assert page.locator("#bot-token-text").count() == 0
    bots.get_by_role("button", name="New token for Tok").click()
    second = page.locator("#bot-token-text").inner_text()
    assert second.startswith("ttbot_") and second != first
    bots.get_by_role("button", name="Delete Tok").click()
    bots.get_by_text("You have no bot yet.").wait_for()
    assert [m.split("?")[0] for m in asked] == ["Give Tok a new token"] * 2 + ["Delete Tok"]
    # a refusal is the server's one line
    bots.get_by_label("Bot's name").fill("_bad")
    bots.get_by_role("button", name="Register the bot").click()
    assert bots.get_by_role("alert").inner_text().startswith("a bot's name is letters, digits")
    refused = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert [p for p in problems if p != refused] == [], problems  # the refusal's own 400
    context.close()


def test_a_guest_sees_no_bot_form_and_invites_by_name(browser: Any, base: str) -> None:
    context, page, problems = page_of(browser)
    page.goto(base + "/")
    come_in = page.get_by_role("region", name="Come in")
    come_in.get_by_label("Your name").fill("Gus Guest")
    come_in.get_by_role("button", name="Play as guest").click()
    bots = page.get_by_role("region", name="My bots")
    bots.get_by_text("A guest has no bots: sign up for an account to register one.").wait_for()
    assert bots.get_by_role("button").count() == 0
    assert bots.get_by_role("textbox").count() == 0
    # at a table of theirs a guest may still invite an account's bot, by its name
    form = page.get_by_role("region", name="Start a table")
    form.get_by_label("Seat 2", exact=True).select_option("open")
    form.get_by_role("button", name="Create the table").click()
    page.get_by_role("link", name="Go to the table").click()
    invite = page.get_by_role("region", name="Invite a bot")
    invite.get_by_label("Bot for seat 1").fill("Robo")
    invite.get_by_role("button", name="Invite").click()
    assert invite.get_by_role("alert").inner_text() == "there is no bot named 'Robo'"
    assert problems == [], problems
    context.close()
