"""The replay of a finished web match: the route (``GET /api/tables/{id}/replay``) and the page.

A real ``tricktable serve`` on 127.0.0.1 and Debian's Chromium. A table of bots plays a short
Setback match to its end; the replay page steps to the last action and shows the scores that
``tricktable replay --json`` gives for the downloaded record; stepping back by trick and by hand
lands on the route's stops; the position's link opens the same step in a second page. A match
not over has no replay: the route answers 409 and sends no snapshot.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_harness import SRC, Client, free_port, server_process

#: beginners play at once: the match takes a second or two, not the club bots' tens
BOTS = [
    {"kind": "bot", "level": "beginner"},
    {"kind": "bot", "level": "beginner"},
    {"kind": "bot", "level": "beginner"},
    {"kind": "character", "name": "edna", "level": "beginner"},
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server_process(tmp_path_factory.mktemp("replay") / "web.db", port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def finished(base: str) -> dict[str, Any]:
    """A table of bots whose Setback match (to 3) is over: its id and info."""
    ann = Client(base, "Ann")
    table = ann.post("/api/tables", {"game": "setback(target=3)", "seats": BOTS}).json()["table"]
    deadline = time.monotonic() + 120
    while True:
        info = ann.http.get(f"/api/tables/{table['id']}").json()
        if info["status"] == "over":
            return dict(info)
        assert time.monotonic() < deadline, "the bots did not finish their match in 120 s"
        time.sleep(0.1)


def cli_scores(path: Path) -> list[int]:
    """The final scores of the match recorded at ``path`` as ``tricktable replay --json``
    gives them (a real subprocess): the last hand's result holds the match's scores after it."""
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run(
        [sys.executable, "-m", "tricktable", "replay", "--json", str(path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result = json.loads(out.stdout)
    return [int(s) for s in result["hands"][-1]["scores"]]


def _cli_scores(record: dict[str, Any], tmp_path: Path) -> list[int]:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    return cli_scores(path)


def test_a_match_being_played_has_no_replay(base: str) -> None:
    ann = Client(base, "Bea")
    seats = [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    table = ann.post("/api/tables", {"game": "setback", "seats": seats}).json()["table"]
    assert table["status"] == "playing"
    for query in ("", "?step=0", "?match=1", "?match=1&step=0", "?step=99"):
        answer = ann.http.get(f"/api/tables/{table['id']}/replay{query}")
        assert answer.status_code == 409, query
        assert set(answer.json()) == {"error"}, query
    with httpx.Client(base_url=base) as nobody:
        assert nobody.get(f"/api/tables/{table['id']}/replay?step=0").status_code == 409
        assert nobody.get("/api/tables/nope/replay").status_code == 404
        assert nobody.get(f"/api/tables/{table['id']}/replay?match=2").status_code == 404


def test_the_route_serves_every_step_to_the_end(
    base: str, finished: dict[str, Any], tmp_path: Path
) -> None:
    http = httpx.Client(base_url=base, timeout=20)
    url = f"/api/tables/{finished['id']}/replay"
    index = http.get(url).json()
    last = index["last"]
    assert [s["step"] for s in index["steps"]] == list(range(last + 1))
    assert index["hand_stops"][0] == 0 and index["trick_stops"][-1] == last
    assert set(index["hand_stops"]) <= set(index["trick_stops"])
    first = http.get(url, params={"step": 0}).json()["snapshot"]
    # Every hand face up from the first deal: four hands of six cards.
    assert first["everyone"] is True and first["over"] is False
    assert [len(c) for c in first["hand"]["shown"].values()] == [6, 6, 6, 6]
    end = http.get(url, params={"step": last}).json()
    record = http.get(f"/api/tables/{finished['id']}/record").json()
    assert end["snapshot"]["over"] is True
    assert end["snapshot"]["scores"] == _cli_scores(record, tmp_path)
    assert http.get(url, params={"step": last + 1}).status_code == 404
    assert http.get(url, params={"step": "-1"}).status_code == 404
    # what a stranger may type: each a one-line 404, never the server's failure
    for bad in ("²", "١", "9" * 5000, "1e3", " 1", ""):
        for key in ("step", "match"):
            answer = http.get(url, params={key: bad})
            assert answer.status_code == 404 and "error" in answer.json(), (key, bad)


# ------------------------------------------------------------------------------ the page


def _page(browser: Any, problems: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return page


def _step(page: Any) -> int:
    return int(page.locator(".replay-page").get_attribute("data-step"))


def _wait_step(page: Any, step: int) -> None:
    page.wait_for_selector(f".replay-page[data-step='{step}'] .replay-felt")


def _scores(page: Any) -> list[int]:
    return [int(t) for t in page.locator(".replay-scores td.score").all_inner_texts()]


def test_the_replay_page_steps_to_the_end_and_back(
    base: str, finished: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    table = finished["id"]
    http = httpx.Client(base_url=base, timeout=20)
    index = http.get(f"/api/tables/{table}/replay").json()
    last = index["last"]
    record = http.get(f"/api/tables/{table}/record").json()
    problems: list[str] = []
    page = _page(browser, problems)
    page.goto(f"{base}/t/{table}?replay=1&match={finished['match']}")
    _wait_step(page, 0)
    # The first deal: every hand face up, no scores yet.
    assert page.locator(".replay-seat .replay-cards .card").count() == 24
    page.locator("button.rp-forward").click()
    _wait_step(page, 1)
    page.locator("button.rp-end").click()
    _wait_step(page, last)
    assert page.locator("button.rp-forward").is_disabled()
    assert "Match over" in page.locator(".replay-over").inner_text()
    assert _scores(page) == _cli_scores(record, tmp_path)
    page.screenshot(path="/tmp/replay-end.png", full_page=True)

    # Back a trick, then a hand: each lands on the route's stop before.
    trick_back = max(s for s in index["trick_stops"] if s < last)
    page.locator("button.rp-trickBack").click()
    _wait_step(page, trick_back)
    hand_back = max(s for s in index["hand_stops"] if s < trick_back)
    page.locator("button.rp-handBack").click()
    _wait_step(page, hand_back)
    assert page.locator(".replay-position").inner_text().count("dealt") == 1
    # The keyboard steps too.
    page.keyboard.press("ArrowRight")
    _wait_step(page, hand_back + 1)
    page.keyboard.press("ArrowDown")
    _wait_step(page, min(s for s in index["trick_stops"] if s > hand_back + 1))
    at = _step(page)
    page.screenshot(path="/tmp/replay-middle.png", full_page=True)
    cards = sorted(
        page.locator(".replay-seat .card").evaluate_all("e => e.map(c => c.dataset.card)")
    )
    scores = _scores(page)
    trump = page.locator(".replay-side .trump").all_inner_texts()

    # The link opens the same position for someone else (another browser context).
    link = page.locator("a.position-link").get_attribute("href")
    assert link.endswith(f"step={at}") and page.url == link
    other = _page(browser, problems)
    other.goto(link)
    _wait_step(other, at)
    assert (
        sorted(other.locator(".replay-seat .card").evaluate_all("e => e.map(c => c.dataset.card)"))
        == cards
    )
    assert _scores(other) == scores
    assert other.locator(".replay-side .trump").all_inner_texts() == trump
    assert problems == [], problems
    page.context.close()
    other.context.close()
