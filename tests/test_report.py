"""The tournament report: its sections and figures, its numbers against a count of the hands,
the command line, and the page in a real headless Chromium (Debian's) with no console error.

``TRICKTABLE_SCREENSHOT=1`` also saves the top of the page as docs/report.png (the README's).
"""

from __future__ import annotations

import base64
import os
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from tricktable.analysis.report import read_report, render_html, write_report
from tricktable.db.store import Store
from tricktable.records import replay
from tricktable.tournament import run as run_mod
from tricktable.tournament.spec import TournamentSpec

#: Debian's Chromium, which the Makefile's ``chromium`` target installs
CHROMIUM = "/usr/bin/chromium"
SCREENSHOT = Path(__file__).parents[1] / "docs" / "report.png"
DEALS = 40
NAME = "heuristic-v-random"
PNG = b"\x89PNG\r\n\x1a\n"


def play(path: Path, **fields: Any) -> None:
    base: dict[str, Any] = {
        "name": NAME,
        "game": "setback",
        "entrants": (("heuristic", "heuristic"), ("random", "random")),
        "deals": DEALS,
        "seed": 1,  # the same cards at every run: a spec given no seed draws one
    }
    base.update(fields)
    with Store.open(str(path)) as store:
        run_mod.run(store, run_mod.start(store, TournamentSpec(**base)), workers=1)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A duplicate tournament of heuristic against random, DEALS deals (2 tables each)."""
    path = tmp_path_factory.mktemp("report") / "t.db"
    play(path)
    return path


@pytest.fixture(scope="module")
def page(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of ``db``, written."""
    with Store.open(str(db)) as store:
        report = read_report(store, NAME)
    return write_report(report, tmp_path_factory.mktemp("out"))


class Tables(HTMLParser):
    """Every table of a page by id: its rows, each a list of cell texts (header cells too)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._rows: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._rows = self.tables.setdefault(dict(attrs).get("id") or "", [])
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._rows:
            self._rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._rows = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_of(html: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(html)
    return parser.tables


def records(db: Path) -> list[dict[str, Any]]:
    with Store.open(str(db)) as store:
        found = store.find_tournament(NAME)
        assert found is not None
        return [g.record for g in store.games(found.id) if g.record is not None]


# ------------------------------------------------------------------------------- the page


def test_the_report_has_every_section_and_figure_and_nothing_from_outside(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    for section in (
        "standings",
        "head-to-head",
        "ratings",
        "strategy",
        "bids",
        "by-length",
        "by-holding",
        "by-score",
        "by-entrant",
        "points",
        "edges",
        "guide",
    ):
        assert f'id="{section}"' in html, section
    found = tables_of(html)
    for table in (
        "standings-table",
        "head-to-head-table",
        "ratings-table",
        "bids",
        "bids-by-length",
        "bids-by-holding",
        "bids-by-score",
        "bids-by-entrant",
        "points",
        "positions",
        "edges",
        "guide-level",
    ):
        assert found.get(table), table
    images = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" alt="([^"]+)"', html)
    alts = {alt for _, alt in images}
    assert len(images) == 7
    assert {"standings with 95% intervals", "head-to-head heat map", "ratings over time"} <= alts
    assert all(base64.b64decode(data).startswith(PNG) for data, _ in images)
    # Self-contained: no script, and no address outside the page.
    assert "<script" not in html
    assert not re.search(r"(src|href)=\"(?!data:|#)", html)
    assert "http://" not in html and "https://" not in html
    # Every figure and table says how sure it is and on how much.
    assert html.count("95%") > 20 and "n=" in html
    assert "too little data" in html  # the guide's thin cells say so


def test_the_points_table_matches_a_count_of_the_hands(db: Path, page: Path) -> None:
    # Count by replaying every record through the public replay (not the report's own path).
    hands: Counter[str] = Counter()
    in_play: Counter[str] = Counter()
    declarers: Counter[str] = Counter()
    for record in records(db):
        state = replay(record)
        game = state.game
        for result in state.results:
            side = game.team_of(result.declarer)  # type: ignore[attr-defined]
            for point, winner in result.points.items():  # type: ignore[attr-defined]
                hands[point] += 1
                in_play[point] += winner is not None
                declarers[point] += winner == side
    rows = tables_of(page.read_text(encoding="utf-8"))["points"]
    assert rows[0][:6] == ["point", "hands", "in play", "in play [95%]", "declarers took",
                           "defenders took"]  # fmt: skip
    shown = {row[0]: (int(row[1]), int(row[2]), int(row[4]), int(row[5])) for row in rows[1:]}
    assert shown == {
        point: (hands[point], in_play[point], declarers[point], in_play[point] - declarers[point])
        for point in hands
    }
    assert sum(hands.values()) == 6 * 2 * DEALS  # six points a hand, a hand a table


def test_the_bids_table_matches_the_auctions_in_the_records(db: Path, page: Path) -> None:
    # The contract from the record's text alone: the last bid, or the dealer stuck at 2.
    contracts: Counter[str] = Counter()
    for record in records(db):
        for hand in record["hands"]:
            auction = [a for a in hand["actions"] if not a.startswith("play")]
            bids = [a.split()[1] for a in auction if a.startswith("bid")]
            contracts[bids[-1] if bids else "2 (stuck)"] += 1
    rows = tables_of(page.read_text(encoding="utf-8"))["bids"]
    shown = {row[0].removeprefix("bid "): int(row[1]) for row in rows[1:]}
    assert shown == dict(contracts)
    assert sum(shown.values()) == 2 * DEALS


def test_the_standings_rank_heuristic_above_random(page: Path) -> None:
    rows = tables_of(page.read_text(encoding="utf-8"))["standings-table"]
    assert [row[0] for row in rows[1:]] == ["heuristic", "random"]
    assert all(row[-2] == str(DEALS) for row in rows[1:])  # n: the deals behind the figure


def test_whole_matches_give_each_score_situation(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    play(path, deals=None, matches=1)
    with Store.open(str(path)) as store:
        report = read_report(store)
        found = store.find_tournament(NAME)
        assert found is not None
        hands = sum(len(g.record["hands"]) for g in store.games(found.id) if g.record)
    ins = report.insights
    assert ins.hands == hands > 2
    assert set(ins.values("score")) > {"level"}
    assert set(ins.situations()) > {"level"}


def test_a_game_outside_the_pitch_family_skips_the_strategy_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    entrants = (("a", "random"), ("b", "random"), ("c", "heuristic"), ("d", "heuristic"))
    play(path, game="hearts", entrants=entrants, deals=1, format="round-robin")
    with Store.open(str(path)) as store:
        report = read_report(store, NAME)
    assert not report.insights.supported
    html = render_html(report)
    assert "Skipped: strategy insights are written for Setback and the Pitch family" in html
    assert 'id="standings-table"' in html


# ------------------------------------------------------------------------------ command line


def test_the_command_writes_the_page_and_says_what_reading_cost(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    done = run_cli("report", "--db", str(db), "--name", NAME, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert (out / "index.html").is_file()
    assert f"wrote {out / 'index.html'}" in done.stdout
    assert re.search(r"read 80 games \(80 hands\) in [\d.]+ s: [\d.]+ ms a game", done.stdout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--name", "nope"], "no tournament named 'nope'"),
        (["--insights-from", "nobody"], "no entrant named 'nobody'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    db: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    done = run_cli("report", "--db", str(db), "--out", str(tmp_path), *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_missing_database_is_an_error_not_a_new_file(tmp_path: Path) -> None:
    done = run_cli("report", "--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "o"))
    assert done.returncode == 2 and "no such file" in done.stderr
    assert not (tmp_path / "none.db").exists()


# ----------------------------------------------------------------------------- in a browser


def test_the_page_opens_in_headless_chromium_without_a_console_error(page: Path) -> None:
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: pip install '.[dev]'")
    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            tab = browser.new_page(viewport={"width": 1200, "height": 1400})
            tab.on(
                "console",
                lambda m: (
                    problems.append(f"console {m.type}: {m.text}")
                    if m.type in ("error", "warning")
                    else None
                ),
            )
            tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            tab.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
            tab.goto(page.as_uri(), wait_until="load")
            loaded = tab.evaluate(
                "Array.from(document.images).map(i => i.complete && i.naturalWidth > 0)"
            )
            assert loaded == [True] * 7
            assert tab.locator("h2").all_inner_texts()[:3] == [
                "Standings",
                "Head to head",
                "Ratings over time",
            ]
            assert tab.locator("#guide").is_visible()
            # On a phone the page never scrolls sideways: a wide table scrolls in its box.
            tab.set_viewport_size({"width": 375, "height": 812})
            assert tab.evaluate("document.documentElement.scrollWidth") <= 375
            if os.environ.get("TRICKTABLE_SCREENSHOT") == "1":
                SCREENSHOT.parent.mkdir(exist_ok=True)
                tab.screenshot(path=str(SCREENSHOT))
        finally:
            browser.close()
    assert problems == []
