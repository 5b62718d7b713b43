"""The replay's analysis and uploaded records (web/analysis.py, web/uploads.py), over HTTP.

A real uvicorn on 127.0.0.1 in a thread, its app made by ``make_app`` with the analysis's
routes added where ``app.py`` does not mount them yet (:func:`analysed_server`). A table of
bots plays a short Setback match to its end; its analysis, run by the server's worker
process, is the same mark for mark as ``analyze`` run here on the table's record with the same
search budget (a number of worlds and no time limit: repeatable). Uploads: a good record is
kept and replays; bad JSON, an illegal action (the engine's reason), a body over the limit and
an unknown game are each refused in one line, and nothing is kept. A full queue refuses one
more analysis in one line.
"""

from __future__ import annotations

import contextlib
import copy
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import func, select

from tricktable.analysis.analyze import analyze
from tricktable.bots import make_bot
from tricktable.db.analysis_models import MatchAnalysis, UploadedRecord
from tricktable.errors import RecordError
from tricktable.games import load_game
from tricktable.match import play_match
from tricktable.records import replay, to_record
from tricktable.web import analysis
from tricktable.web.app import make_app
from tricktable.web.store import WebStore
from web_harness import Client, free_port

#: a short match: four cards a hand, to 3 points (a few hands; solved without a time limit)
GAME = "setback(target=3,hand_size=4)"
#: the tests' search: two worlds a decision, no time limit anywhere — the same every run
OPTIONS = analysis.Options(samples=2, budget=None, solve_time=None, seed=0)
BOTS = [{"kind": "bot", "level": "beginner"}] * 3 + [
    {"kind": "character", "name": "edna", "level": "beginner"}
]


@contextlib.contextmanager
def analysed_server(
    db: Path, options: analysis.Options = OPTIONS, waiting: int = analysis.WAITING
) -> Iterator[tuple[str, WebStore]]:
    """A server for ``db`` in a thread with the analysis's routes; its base URL and store."""
    store = WebStore.open(str(db))
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    app = make_app(store, pace=0.0, hasher=hasher)
    # The test's own search options (fixed worlds, no time limit: the same every run) and
    # queue: its routes go first, ahead of those app.py mounts with the defaults.
    app.router.routes[0:0] = analysis.routes(app.state.web, options, waiting)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}", store
    finally:
        service = analysis.service_of(store)
        if service is not None:
            service.close()
        server.should_exit = True
        thread.join(10)
        store.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, WebStore]]:
    with analysed_server(tmp_path_factory.mktemp("analysis") / "web.db") as found:
        yield found


@pytest.fixture(scope="module")
def finished(served: tuple[str, WebStore]) -> dict[str, Any]:
    """A table of bots whose short Setback match is over: its info."""
    ann = Client(served[0], "Ann")
    table = ann.post("/api/tables", {"game": GAME, "seats": BOTS}).json()["table"]
    deadline = time.monotonic() + 120
    while True:
        info = ann.http.get(f"/api/tables/{table['id']}").json()
        if info["status"] == "over":
            return dict(info)
        assert time.monotonic() < deadline, "the bots did not finish their match in 120 s"
        time.sleep(0.1)


def wait_done(
    http: httpx.Client, url: str, seconds: float = 300, asked: bool = True
) -> dict[str, Any]:
    """The analysis at ``url`` once it is done (or failed). ``asked=False``: a page was told
    to ask for it, and its request may not have reached the server yet (status ``none``)."""
    deadline = time.monotonic() + seconds
    while True:
        got = http.get(url).json()
        if got["status"] in ("done", "failed"):
            return dict(got)
        waiting = ("queued", "running") if asked else ("none", "queued", "running")
        assert got["status"] in waiting, got
        assert time.monotonic() < deadline, f"the analysis did not end in {seconds} s"
        time.sleep(0.2)


def expected_marks(record: dict[str, Any]) -> list[tuple[Any, ...]]:
    """``analyze`` run here on ``record`` with the server's options: each decision analysed
    as (hand, index, seat, action, double-dummy loss, search loss, estimate, best)."""
    found = analyze(record, sampling=True, **OPTIONS.kwargs())
    name = found.game.action_name
    out = []
    for d in found.decisions:
        if not d.analysed:
            continue
        top = None if d.sampled is None else d.sampled.hint.best()
        if d.double_dummy is not None:
            best = d.action if d.double_dummy.loss == 0 else d.double_dummy.best[0]
        else:
            assert d.sampled is not None
            best = d.sampled.best
        out.append(
            (
                d.hand,
                d.index,
                d.seat,
                name(d.action),
                d.dd_loss(),
                d.sampled_loss(),
                None if top is None else top.value,
                name(best),
            )
        )
    return out


def got_marks(marks: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    keys = ("hand", "idx", "seat", "action", "dd_loss", "search_loss", "estimate", "best")
    return [tuple(m[k] for k in keys) for m in sorted(marks, key=lambda m: m["step"])]


def test_a_finished_match_is_analysed_as_analyze_does(
    served: tuple[str, WebStore], finished: dict[str, Any]
) -> None:
    base, _store = served
    http = httpx.Client(base_url=base, timeout=30)
    url = f"/api/tables/{finished['id']}/analysis"
    assert http.get(url).json() == {"status": "none"}
    first = http.post(url)
    assert first.status_code == 202 and first.json() == {"status": "queued"}
    again = http.post(url)  # idempotent: the same analysis, not a second
    assert again.status_code == 200 and again.json()["status"] in ("queued", "running", "done")
    done = wait_done(http, url)
    assert done["status"] == "done", done
    record = http.get(f"/api/tables/{finished['id']}/record").json()
    assert got_marks(done["marks"]) == expected_marks(record)
    # Each mark's step is its action's step in the replay; the worst is the largest loss.
    index = http.get(f"/api/tables/{finished['id']}/replay").json()
    for m in done["marks"]:
        assert index["steps"][m["step"]]["hand"] == m["hand"] + 1
        assert index["steps"][m["step"]]["label"].startswith(record["players"][m["seat"]])
    losses = [m["loss"] or 0 for m in done["marks"]]
    if max(losses) > 0:
        assert done["worst"]["loss"] == max(losses)
    assert http.post(url).json()["status"] == "done"
    # Not over, or no such table or match: one line each.
    assert http.get("/api/tables/nope/analysis").status_code == 404
    bad = http.post(url, params={"match": "9"})
    assert bad.status_code == 404 and set(bad.json()) == {"error"}
    foreign = http.post(url, headers={"Origin": "http://elsewhere.example"})
    assert foreign.status_code == 403


# ------------------------------------------------------------------------------ uploads


def a_record(seed: int = 3) -> dict[str, Any]:
    """A finished short Setback match's record, played here by heuristic bots."""
    return to_record(play_match(load_game(GAME), [make_bot("heuristic")] * 4, seed))


def kept(store: WebStore) -> tuple[int, int]:
    with store.engine.connect() as c:
        uploads = c.scalar(select(func.count()).select_from(UploadedRecord))
        analyses = c.scalar(select(func.count()).select_from(MatchAnalysis))
    return int(uploads or 0), int(analyses or 0)


def _upload(client: Client, body: bytes) -> httpx.Response:
    headers = {"X-CSRF-Token": client.csrf, "Content-Type": "application/json"}
    return client.http.post("/api/records", content=body, headers=headers)


def test_an_uploaded_record_replays_and_is_analysed(served: tuple[str, WebStore]) -> None:
    base, _store = served
    bea = Client(base, "Bea")
    record = a_record()
    got = _upload(bea, json.dumps(record).encode())
    assert got.status_code == 201, got.text
    name = got.json()["id"]
    assert got.json()["url"] == f"/records/{name}"
    assert bea.http.get(f"/api/records/{name}").json() == record
    index = bea.http.get(f"/api/records/{name}/replay").json()
    end = bea.http.get(f"/api/records/{name}/replay", params={"step": index["last"]}).json()
    assert end["snapshot"]["over"] is True
    assert end["snapshot"]["scores"] == list(replay(record).scores)
    assert bea.http.get(f"/records/{name}").status_code == 200
    assert bea.http.get("/records/nothing-here").status_code == 404
    assert bea.http.get("/api/records/nothing-here/replay").status_code == 404
    url = f"/api/records/{name}/analysis"
    assert bea.http.post(url).status_code == 202
    done = wait_done(bea.http, url)
    assert done["status"] == "done", done
    assert got_marks(done["marks"]) == expected_marks(record)


def test_bad_uploads_are_refused_in_one_line_and_nothing_kept(
    served: tuple[str, WebStore],
) -> None:
    base, store = served
    cy = Client(base, "Cy")
    before = kept(store)
    record = a_record(5)
    illegal = copy.deepcopy(record)
    hand = illegal["hands"][0]
    # The last card played in the first hand, played again first: not in that seat's hand
    # (or not its turn) — the engine says which.
    plays = [i for i, a in enumerate(hand["actions"]) if str(a).startswith("play ")]
    hand["actions"][plays[0]] = hand["actions"][plays[-1]]
    with pytest.raises(RecordError) as engine:
        replay(illegal)
    unknown = {**record, "game": "no-such-game"}
    unfinished = copy.deepcopy(record)
    unfinished["unfinished_hand"] = unfinished["hands"].pop()
    unfinished["unfinished_hand"]["actions"] = unfinished["unfinished_hand"]["actions"][:2]
    cases = {
        "not json": (b'{"format": "tricktable-record/1", "hands": [', 400, "not JSON"),
        "a list": (b"[1, 2]", 400, "JSON object"),
        "illegal": (json.dumps(illegal).encode(), 400, str(engine.value).splitlines()[0]),
        "unknown game": (json.dumps(unknown).encode(), 400, "no-such-game"),
        "not over": (json.dumps(unfinished).encode(), 400, "not over"),
        "too big": (b" " * (64 * 1024) + b"{}", 413, "at most"),
        "key twice": (b'{"format": "tricktable-record/1", "format": "x"}', 400, "format"),
        "empty": (b"", 400, "empty"),
    }
    for what, (body, status, words) in cases.items():
        got = _upload(cy, body)
        assert got.status_code == status, (what, got.text)
        error = got.json()
        assert set(error) == {"error"} and "\n" not in error["error"], (what, error)
        assert words in error["error"], (what, error)
    assert kept(store) == before
    # No session, or no CSRF token: refused too.
    with httpx.Client(base_url=base) as nobody:
        assert nobody.post("/api/records", content=json.dumps(record)).status_code == 401
    assert cy.http.post("/api/records", content=json.dumps(record)).status_code == 403
    assert kept(store) == before


def test_a_full_queue_refuses_one_more_in_one_line(tmp_path: Path) -> None:
    # No analysis may wait: while one runs (a 20-hand match, searched without a time limit:
    # minutes), a second is refused, and nothing of it is kept.
    slow = analysis.Options(samples=64, budget=None, solve_time=None, seed=0)
    long = to_record(play_match(load_game("setback"), [make_bot("heuristic")] * 4, 11))
    with analysed_server(tmp_path / "web.db", slow, waiting=0) as (base, store):
        dee = Client(base, "Dee")
        names = []
        for r in (long, a_record(7)):
            got = _upload(dee, json.dumps(r).encode())
            assert got.status_code == 201, got.text
            names.append(got.json()["id"])
        first = dee.http.post(f"/api/records/{names[0]}/analysis")
        assert first.status_code == 202
        second = dee.http.post(f"/api/records/{names[1]}/analysis")
        assert second.status_code == 503, second.text
        assert set(second.json()) == {"error"} and "try again" in second.json()["error"]
        assert dee.http.get(f"/api/records/{names[1]}/analysis").json() == {"status": "none"}
        assert kept(store) == (2, 1)


# ------------------------------------------------------------------------------ the page


def _page(browser: Any, problems: list[str]) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(60000)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return page


def _shows_marks(page: Any, done: dict[str, Any]) -> None:
    """The page at an analysed replay: every mark where the API puts it, the worst a click
    away."""
    page.wait_for_selector(".replay-analysis .analysed")
    worst = done["worst"]
    if worst is None:  # no decision lost anything: the first mark shows "best"
        first = done["marks"][0]
        page.goto(page.url.split("?")[0] + f"?{_query(page)}step={first['step']}")
        page.wait_for_selector(f".replay-mark[data-step='{first['step']}']")
        assert "best" in page.locator(".replay-mark .mark-badge").inner_text()
        return
    page.locator("button.rp-worst").click()
    page.wait_for_selector(f".replay-page[data-step='{worst['step']}'] .replay-mark")
    mark = page.locator(".replay-mark")
    assert mark.get_attribute("data-step") == str(worst["step"])
    assert float(mark.get_attribute("data-loss")) == worst["loss"]
    text = mark.inner_text()
    assert f"played {worst['action']}" in text and f"lost {round(worst['loss'], 2):g}" in text
    if worst["best"] != worst["action"]:
        assert mark.locator(".best").inner_text() == worst["best"]
    badge = mark.locator(".mark-badge")
    assert ("blunder" in (badge.get_attribute("class") or "")) == worst["mistake"]


def _query(page: Any) -> str:
    """The page's query up to its step (a table's replay=1&match=N&), or nothing."""
    query = page.url.partition("?")[2]
    kept = [p for p in query.split("&") if p and not p.startswith("step=")]
    return "".join(p + "&" for p in kept)


def test_the_replay_page_analyses_and_marks_each_decision(
    served: tuple[str, WebStore], finished: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    base, _store = served
    http = httpx.Client(base_url=base, timeout=30)
    problems: list[str] = []

    # An uploaded record, through the page: the form, then its replay; "Analyse" runs it.
    path = tmp_path / "match.json"
    path.write_text(json.dumps(a_record(13)))
    page = _page(browser, problems)
    guest = page.request.post(f"{base}/api/guest", data={"name": "Eve"})
    assert guest.ok
    page.goto(f"{base}/records")
    page.locator("input[type=file]").set_input_files(str(path))
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(f"{base}/records/*")
    page.get_by_role("button", name="Analyse").click()
    name = page.url.split("/records/")[1].split("?")[0]
    # the button's request is the page's own: it may reach the server after the first poll
    done = wait_done(http, f"/api/records/{name}/analysis", asked=False)
    assert done["status"] == "done", done
    _shows_marks(page, done)

    # The bots' table: analysed (by the API here), its replay page shows the same marks.
    url = f"/api/tables/{finished['id']}/analysis"
    http.post(url)
    done = wait_done(http, url)
    table = _page(browser, problems)
    table.goto(f"{base}/t/{finished['id']}?replay=1&match={finished['match']}")
    _shows_marks(table, done)
    assert problems == [], problems
