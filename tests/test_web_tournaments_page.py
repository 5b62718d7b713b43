"""The tournaments' page (static/tournaments.html, js/tournaments.js) in Debian's Chromium:
an account starts a tournament by the form, sees it finish in the list, opens its standings
and its report; a guest is not offered the form; a bad start says why in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_harness import serving


def signed_in(browser: Any, base: str, name: str) -> tuple[Any, list[str]]:
    """A page of a new account's, and the script errors it will meet."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/tournaments")
    made = page.evaluate(
        """async (name) => (await fetch('/api/signup', {method: 'POST',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({name, password: 'password-1'})})).status""",
        name,
    )
    assert made == 200
    return page, errors


def test_the_form_starts_one_and_the_list_shows_it_finished(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path / "web.db") as base:
        guest = browser.new_context().new_page()
        guest.goto(base + "/tournaments")
        guest.get_by_text("No tournament yet.").wait_for()
        assert guest.locator("form#start").count() == 0
        assert guest.get_by_text("Sign in to an account").count() == 1

        page, errors = signed_in(browser, base, "bea")
        page.reload()
        page.locator("form#start").wait_for()
        page.select_option("#game", "setback")
        page.fill("#deals", "4")
        page.uncheck("input[value=random]")  # heuristic alone: the server's refusal shown
        page.click("button[type=submit]")
        alert = page.get_by_role("alert")
        alert.wait_for()
        assert "2 to 8" in alert.inner_text()

        page.check("input[value=edna]")  # heuristic and Edna
        page.click("button[type=submit]")
        row = page.locator("#tournaments tbody tr[data-status=finished]").first
        row.wait_for(timeout=120_000)  # a deadline for a broken server, not a measure
        assert "heuristic, edna" in row.inner_text() and "8/8" in row.inner_text()

        page.locator("#tournaments a.report").first.wait_for()
        page.locator("#tournaments tbody tr a").first.click()
        page.locator("#standings").wait_for()
        names = page.locator("#standings td.entrant").all_inner_texts()
        assert sorted(names) == ["edna", "heuristic"]

        page.click("a.report")
        page.get_by_text("edna").first.wait_for()
        assert page.url.endswith("/report")
        assert errors == []
