"""The leagues' page (static/leagues.html, js/leagues.js) in Debian's Chromium: an account
makes a league of eight bot teams by its forms, schedules the season, plays a night of four
tables; the test reads the stored games (the same cards at every table, deal by deal) and
checks the standings the page shows against its own computation of the duplicate scores. The
season is then played out and closed from the page."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from web_harness import serving

DEALS = 3
#: a different player in each team: two tables of the same two players on the same cards would
#: play the same game, and the standings checked would be all zeros
BOTS = ["random", "heuristic", "beginner", "edna", "vinnie", "rosa", "moe", "kit"]
TEAMS = [(f"Team {c}", bot) for c, bot in zip("ABCDEFGH", BOTS, strict=True)]


def signed(x: float) -> str:
    """A number as the page writes it (js/leagues.js ``signed``)."""
    return f"{'+' if x >= 0 else '-'}{abs(x):.2f}"


def expected_totals(db: Path, tid: int) -> dict[str, float]:
    """Each team's duplicate total, from the stored games alone: on each deal, a team's margin
    (its side's score minus the other's) minus the mean margin of every table's team that held
    the same side's cards on that deal."""
    with sqlite3.connect(db) as c:
        team = dict(c.execute("SELECT id, name FROM entrant WHERE tournament_id = ?", (tid,)))
        games = c.execute(
            "SELECT round_no, seats, result FROM game WHERE tournament_id = ?", (tid,)
        ).fetchall()
    held: dict[tuple[int, int], list[tuple[str, float]]] = {}
    for deal, seats, result in games:
        seat_ids, (a, b) = json.loads(seats), json.loads(result)["scores"]
        # seat 0 plays for side 0, seat 1 for side 1 (then 2 for 0, 3 for 1)
        held.setdefault((deal, 0), []).append((team[seat_ids[0]], a - b))
        held.setdefault((deal, 1), []).append((team[seat_ids[1]], b - a))
    totals = dict.fromkeys(team.values(), 0.0)
    for margins in held.values():
        field = sum(m for _, m in margins) / len(margins)
        for name, m in margins:
            totals[name] += m - field
    return totals


def test_a_league_night_by_the_page(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with serving(db) as base:
        context = browser.new_context()
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(base + "/leagues")
        page.get_by_text("Sign in to an account").wait_for()
        made = page.evaluate(
            """async () => (await fetch('/api/signup', {method: 'POST',
                 headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify({name: 'lea', password: 'password-1'})})).status"""
        )
        assert made == 200
        page.reload()
        page.locator("form#create").wait_for()
        page.fill("#name", "Thursday")
        page.select_option("#game", "spades")
        page.fill("#deals", "40")  # refused by the server, said in one line
        page.click("form#create button[type=submit]")
        assert "1 to 32" in page.get_by_role("alert").inner_text()
        page.fill("#deals", str(DEALS))
        page.click("form#create button[type=submit]")
        page.locator("form#team").wait_for()
        lid = int(page.url.rstrip("/").rsplit("/", 1)[1])

        for name, bot in TEAMS:
            page.fill("#team-name", name)
            page.select_option("#member-1", bot)
            page.click("form#team button[type=submit]")
            page.locator("p.quiet", has_text=f"{name} (").wait_for()
        assert page.locator("table.standings tbody tr").count() == 8

        first = (datetime.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
        page.fill("#start", first)
        page.fill("#every", "1")
        page.select_option("#every-unit", "days")
        page.click("form#schedule button[type=submit]")
        page.locator("li[data-night='7']").wait_for()
        assert "Next night:" in page.locator("#next").inner_text()
        assert page.locator("li[data-night='1']").inner_text().count(" v ") == 4  # four tables

        page.click("li[data-night='1'] button.play")
        page.locator("li[data-night='1'][data-status=played]").wait_for(timeout=60_000)
        page.wait_for_function(
            "() => [...document.querySelectorAll('td.nights')]"
            ".every((td) => td.textContent === '1')"
        )
        shown = {
            row.locator("td.team").inner_text(): (
                row.locator("td.total").inner_text(),
                row.locator("td.per-deal").inner_text(),
                row.locator("td.rating").inner_text(),
            )
            for row in page.locator("table.standings tbody tr").all()
        }

        with sqlite3.connect(db) as c:
            (tid,) = c.execute(
                "SELECT tournament_id FROM league_fixture WHERE night = 1"
            ).fetchone()
            rows = c.execute(
                "SELECT round_no, seats, record FROM game WHERE tournament_id = ?", (tid,)
            ).fetchall()
        assert len(rows) == 4 * DEALS
        for deal in range(DEALS):
            dealt = [json.loads(r[2])["hands"][0]["deal"] for r in rows if r[0] == deal]
            assert len(dealt) == 4 and all(d == dealt[0] for d in dealt), deal
        # the seats rotated: each deal, a team holds side 0's cards at two tables of four
        assert {len({json.loads(r[1])[0] for r in rows if r[0] == d}) for d in range(DEALS)} == {4}

        totals = expected_totals(db, tid)
        assert any(abs(v) > 1 for v in totals.values()), totals  # a check worth its name
        assert sorted(shown) == sorted(totals) == sorted(name for name, _ in TEAMS)
        for name, (total, per_deal, rating) in shown.items():
            assert total == signed(totals[name]) or abs(float(total) - totals[name]) < 0.006
            mean, interval = per_deal.split(" ", 1)
            assert abs(float(mean) - totals[name] / DEALS) < 0.006 and interval.startswith("[")
            float(rating)
        ranked = [float(row[0]) for row in shown.values()]
        assert ranked == sorted(ranked, reverse=True)

        # The rest of the season by hand, then its end: season 2 opens with the same teams.
        for night in range(2, 8):  # queued one after another: the server plays them in turn
            page.click(f"li[data-night='{night}'] button.play")
            page.locator(f"li[data-night='{night}']:not([data-status=scheduled])").wait_for()
        page.locator("li[data-night='7'][data-status=played]").wait_for(timeout=60_000)
        page.locator("li[data-status=playing]").first.wait_for(state="detached")
        assert "Every night is played." in page.locator("#next").inner_text()
        page.click("form#close button[type=submit]")
        page.locator("form#team").wait_for()
        assert page.locator("#season-status").inner_text() == "open"
        assert page.locator("table.standings tbody tr").count() == 8
        page.select_option("#season", "1")
        page.locator("#season-status", has_text="closed").wait_for()
        assert page.locator("td.nights", has_text="7").count() == 8
        assert errors == []
    assert lid == 1
