"""The table page's choices, in a real headless Chromium against the stand-in server.

A decision of several cards (a Hearts pass, a kitty's discard) is made in the hand: its
eligible cards are toggles, a counter says how many are chosen, one confirm button is named by
the decision's words and is enabled only at an allowed count; the act carries the cards. A
decision of one is made by buttons named in words ("Trump: clubs"), and a refusal, a hint and
the end of a match are said in words and names, never engine codes.
"""

from __future__ import annotations

from typing import Any

from test_web_page import NAMES, Table, card_name, site, snapshot

__all__ = ["site"]  # the fixture, shared with the page's tests

HAND = ["6C", "9C", "TC", "QH", "AH", "7D", "JS"]


def pass_snapshot(version: int = 10, *, sets: list[list[str]] | None = None) -> dict[str, Any]:
    """A Hearts pass for seat 0: three of its cards to Basil; ``legal`` is empty."""
    snap = snapshot(4, version=version, phase="pass", cards=HAND)
    snap["game"].update(name="hearts", title="Hearts", family="Hearts", target=100)
    snap["hand"].update(trump=None, trick=[], contract=None, facts=[], tally=[])
    snap["seats"][1]["last_call"] = []
    snap["legal"] = []
    snap["decision"] = {
        "kind": "cards",
        "verb": "pass",
        "cards": HAND,
        "min": 3,
        "max": 3,
        "prompt": [{"t": "text", "v": "Pass three cards left, to "}, {"t": "seat", "v": 2}],
        "confirm": {"3": "Pass these three"},
        "finish": None,
        "sets": sets,
    }
    return snap


def toggles(page: Any) -> Any:
    return page.get_by_role("group", name="Your hand, 7 cards").get_by_role("button")


def test_a_pass_is_chosen_in_the_hand_by_click_and_keyboard(browser: Any, site: str) -> None:
    table = Table(browser, site, pass_snapshot(), 1280)
    page = table.page
    # The prompt is the decision's heading; no button per combination, no action buttons.
    assert page.get_by_role("heading", name="Pass three cards left, to Basil").count() == 1
    assert page.locator(".actions").count() == 0
    assert toggles(page).count() == 7
    confirm = page.get_by_role("button", name="Pass these three")
    assert confirm.is_disabled()
    counter = page.locator(".choice-count")
    assert counter.inner_text() == "0 of 3 chosen"
    six = page.get_by_role("button", name=card_name("6C"), exact=True)
    assert six.get_attribute("aria-pressed") == "false"
    six.click()
    assert six.get_attribute("aria-pressed") == "true"
    assert six.get_attribute("aria-description") == "chosen, 1 of 3"
    assert counter.inner_text() == "1 of 3 chosen"
    # Click again: unchosen.
    six.click()
    assert six.get_attribute("aria-pressed") == "false" and counter.inner_text() == "0 of 3 chosen"
    # The keyboard: Space and Enter toggle, arrows move along the hand.
    six.focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "nine of clubs"
    assert counter.inner_text() == "2 of 3 chosen"
    assert confirm.is_disabled()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert counter.inner_text() == "3 of 3 chosen"
    assert confirm.is_enabled()
    # A fourth is not taken: three is the most.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert counter.inner_text() == "3 of 3 chosen"
    queen = page.get_by_role("button", name=card_name("QH"), exact=True)
    assert queen.get_attribute("aria-pressed") == "false"
    # Tab reaches the confirm button; it sends the cards in one act.
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('confirm')"):
            break
    page.keyboard.press("Enter")
    page.wait_for_timeout(50)
    acts = [m for m in table.sent if m["type"] == "act"]
    assert len(acts) == 1 and acts[0]["data"] == {"cards": ["6C", "9C", "TC"]} and acts[0]["id"]
    # The focus is on the hand, not lost to the page.
    page.wait_for_function("document.activeElement.closest('.hand') !== null")
    assert table.problems == []
    table.close()


def test_a_refusal_is_said_in_words_and_keeps_the_selection(browser: Any, site: str) -> None:
    table = Table(browser, site, pass_snapshot(), 1280)
    page = table.page
    for code in ["6C", "QH", "AH"]:
        page.get_by_role("button", name=card_name(code), exact=True).click()
    page.get_by_role("button", name="Pass these three").click()
    page.wait_for_timeout(50)
    act = [m for m in table.sent if m["type"] == "act"][-1]
    reason = "QH may not be passed now"
    table.push("refuse", {"reason": reason, "snapshot": pass_snapshot(11)}, v=11, id_=act["id"])
    page.locator(".notice").get_by_text("queen of hearts may not be passed now").wait_for()
    assert page.locator("#live p").all_inner_texts()[-1] == "queen of hearts may not be passed now"
    assert page.locator(".choice-count").inner_text() == "3 of 3 chosen"
    pressed = page.locator('.hand-card[aria-pressed="true"]')
    assert sorted(pressed.evaluate_all("els => els.map(e => e.dataset.card)")) == ["6C", "AH", "QH"]
    table.close()


def test_sets_limit_what_may_be_confirmed(browser: Any, site: str) -> None:
    table = Table(browser, site, pass_snapshot(sets=[["6C", "9C", "TC"]]), 1280)
    page = table.page
    for code in ["6C", "9C", "QH"]:
        page.get_by_role("button", name=card_name(code), exact=True).click()
    confirm = page.get_by_role("button", name="Pass these three")
    assert confirm.is_disabled()
    page.get_by_role("button", name=card_name("QH"), exact=True).click()
    page.get_by_role("button", name=card_name("TC"), exact=True).click()
    assert confirm.is_enabled()
    table.close()


def test_a_discard_of_a_range_names_its_confirm_by_the_count(browser: Any, site: str) -> None:
    snap = pass_snapshot()
    snap["legal"] = [
        {
            "action": f"discard {c}",
            "text": f"discard {c}",
            "label": f"discard {c}",
            "words": [{"t": "text", "v": "discard "}, {"t": "card", "v": c}],
        }
        for c in HAND
    ]
    snap["decision"].update(
        verb="discard",
        min=0,
        max=2,
        prompt=[{"t": "text", "v": "Discard up to two cards, then draw as many"}],
        confirm={"0": "Discard none and draw", "1": "Discard this card and draw"}
        | {"2": "Discard these two and draw"},
        finish="draw",
    )
    table = Table(browser, site, snap, 1280)
    page = table.page
    # The single-card actions of `legal` are not drawn as buttons: the choice is the hand's.
    assert page.locator(".actions").count() == 0
    assert page.get_by_role("button", name="Discard none and draw").is_enabled()
    page.get_by_role("button", name=card_name("JS"), exact=True).click()
    assert page.locator(".choice-count").inner_text() == "1 chosen (up to 2)"
    page.get_by_role("button", name="Discard this card and draw").click()
    page.wait_for_timeout(50)
    assert [m["data"] for m in table.sent if m["type"] == "act"] == [{"cards": ["JS"]}]
    table.close()


def test_one_of_decisions_read_as_words(browser: Any, site: str) -> None:
    snap = snapshot(4, phase="bid")
    snap["legal"] = [
        {"action": f"trump {s}", "text": f"trump {s}", "label": f"trump {s}"}
        | {"words": [{"t": "text", "v": f"trump {s}"}]}
        for s in "CDHS"
    ]
    snap["decision"] = {"kind": "one", "prompt": [{"t": "text", "v": "Your call"}]}
    table = Table(browser, site, snap, 1280)
    page = table.page
    calls = page.get_by_role("group", name="Your call")
    assert calls.get_by_role("button").all_inner_texts()[:4] == [
        "Trump: ♣",
        "Trump: ♦",
        "Trump: ♥",
        "Trump: ♠",
    ]
    calls.get_by_role("button", name="Trump: clubs", exact=True).click()
    page.wait_for_timeout(50)
    assert [m["data"] for m in table.sent if m["type"] == "act"] == [{"action": "trump C"}]
    table.close()


def test_a_hint_for_a_pass_chooses_its_cards(browser: Any, site: str) -> None:
    table = Table(browser, site, pass_snapshot(), 1280)
    page = table.page
    words = [{"t": "text", "v": "pass "}]
    for code in ["TC", "QH", "AH"]:
        words += [{"t": "card", "v": code}, {"t": "text", "v": " "}]
    table.push("hint", {"action": "pass TC QH AH", "text": "pass TC QH AH", "words": words})
    page.wait_for_function(
        "document.querySelector('.choice-count').textContent === '3 of 3 chosen'"
    )
    said = page.locator("#live p").all_inner_texts()[-1]
    assert said == "Hint: pass ten of clubs queen of hearts ace of hearts"
    table.close()


def test_a_tab_taken_over_shows_no_live_controls(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    assert page.locator('.hand-card[aria-disabled="false"]').count() == 2
    reason = "another tab or device plays this seat now"
    table.push("error", {"reason": reason, "code": "taken_over"})
    page.get_by_role("button", name="Play here").wait_for()
    assert page.locator('.hand-card[aria-disabled="false"]').count() == 0
    assert page.locator(".actions").count() == 0
    assert page.get_by_role("button", name="Leave seat").count() == 0
    table.close()


def test_the_match_and_the_hand_say_who_won(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    done = snapshot(4, version=30, cards=[])
    done["legal"], done["decision"] = [], None
    done["scores"] = [14, 7]
    won = [{"t": "seat", "v": 0}, {"t": "text", "v": " & "}, {"t": "seat", "v": 2}]
    won.append({"t": "text", "v": " won the hand (+3)"})
    done["summary"] = [won, [{"t": "text", "v": "Scores: 14 · 7"}]]
    table.push("snapshot", done, v=30)
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    assert "won the hand (+3)" in dialog.inner_text()  # the server's words, drawn
    dialog.get_by_role("button", name="Continue").click()
    # After Continue the focus is on the hand (no card left: the hand itself).
    page.wait_for_function("document.activeElement.closest('.hand') !== null")
    over = dict(done, version=31, over=True, winners=[1])
    table.push("snapshot", over, v=31)
    page.get_by_role("heading", name="The match is over").wait_for()
    assert "Edna and Mabel won the match" in page.get_by_role("dialog").inner_text()
    table.close()


def test_seat_counts_are_words(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    counts = table.page.locator('.seat[data-seat="1"] .counts').inner_text()
    assert " ".join(counts.split()) == "0 tricks, 5 cards"
    assert NAMES[1] in table.page.locator('.seat[data-seat="1"]').inner_text()
    table.close()


def test_the_focus_stays_on_the_hand_after_a_card_is_played(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 1280)
    page = table.page
    page.get_by_role("button", name=card_name("AH"), exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(50)
    act = [m for m in table.sent if m["type"] == "act"][-1]
    after = snapshot(4, version=11, cards=["QH", "TS", "2C", "7D", "JS"])
    after["legal"], after["decision"] = [], None
    table.push("confirm", {"snapshot": after}, v=11, id_=act["id"])
    page.wait_for_function("document.querySelectorAll('.hand-card').length === 5")
    page.wait_for_function("document.activeElement.closest('.hand') !== null")
    table.close()


def test_chat_wraps_long_words_and_says_a_line_was_cut(browser: Any, site: str) -> None:
    table = Table(browser, site, snapshot(4), 375)
    page = table.page
    long = "x" * 198 + "…"
    table.push("chat", {"seat": 1, "name": "Edna", "text": long, "kind": "character"})
    line = page.locator(".chat .messages li").last
    line.wait_for()
    assert "(cut: a line holds 200 characters)" in line.inner_text()
    box = line.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    table.close()


def test_the_score_pad_speaks_sentences(browser: Any, site: str) -> None:
    snap = snapshot(4, phase="bid")
    snap["hand"]["facts"] = [
        [{"t": "text", "v": "high bid "}, {"t": "text", "v": "2"}],
        [{"t": "text", "v": "high bidder "}, {"t": "seat", "v": 1}],
    ]
    snap["seats"][3]["last_call"] = [{"t": "text", "v": "pass"}]
    table = Table(browser, site, snap, 1280)
    pad = table.page.locator(".scorepad")
    assert pad.locator(".fact").all_inner_texts() == ["Edna bid 2"]
    assert pad.locator(".calls li").all_inner_texts() == ["Edna bid 3", "Mabel passed"]
    table.close()


def test_nothing_tappable_is_smaller_than_32_px(browser: Any, site: str) -> None:
    for width in (375, 1280):
        table = Table(browser, site, snapshot(4), width)
        small = table.page.evaluate(
            """() => Array.from(document.querySelectorAll('button, select, a, input'))
              .map(e => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
              .filter(([, b]) => b.width > 0 && (b.width < 32 || b.height < 32))
              .map(([t, b]) => `${t} ${b.width}x${b.height}`)"""
        )
        assert small == []
        table.close()
