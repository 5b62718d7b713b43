"""Issue 28's "Done when", as one story in Debian's Chromium on a real server (127.0.0.1, a
SQLite file): a newcomer registers a bot from the lobby, watches a bot of theirs play in the
arena, invites their bot to a table with a friend, joins a league night, sees the standings and
their profile, and replays their worst decision with the analysis.

Everything the newcomer and the friend do goes through the pages by what a person sees: the
roles, labels and buttons' words. The bots are the examples a newcomer is pointed to, run as
real processes with what the page shows: ``examples/bots/ws_bot.py`` (a websocket bot, with the
token and command "My bots" gives) and ``examples/bots/http_spades_bot.py`` (a web service, on
loopback: the server is started with ``allow_local_bots``). The arena seats the web service:
it refuses a websocket bot by name (web/arena.py: "connects by itself ... invite it to a
table"), so the newcomer's websocket bot plays at the table they make, and their web service in
the arena. Short games keep the story under a minute or so: the arena's tables of bots stop
after two hands (``hand_cap_bots``), the table's match is Auction Pitch (a variant of Setback
whose first side to the target wins) to 1 point, the league plays one deal a night.

The server's analysis is given the analysis tests' options (a few worlds, no time limit:
:data:`test_web_analysis.OPTIONS`), so that the marks are the same on any machine. (With its
own time limits on a busy machine the page once counted a mistake by the search's loss and
offered no worst decision; a mistake is now counted by the loss the page shows, and the worst
is always one of them: web/analysis.py, ``mark``.)
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from test_web_analysis import OPTIONS
from test_web_bots_page import sign_up
from test_web_leagues import independent
from tricktable.web import analysis
from tricktable.web.limits import HubLimits
from web_harness import serving
from web_play import Played, Player, PlayFailed

ROOT = Path(__file__).resolve().parents[1]
#: a deadline for a broken server or a stuck page, never a measure (two busy cores)
WAIT_MS = 60_000
#: the longest any one part of the story may take to play
PART_S = 120.0
#: a profile's line of totals ("2 matches: 1 won, 1 lost — win rate ...")
TOTALS = re.compile(r"^\d+ match(es)?: \d+ won")
#: the league's teams besides the newcomer's, each a different player (two tables of the same
#: players on the same cards would play the same game: standings of zeros, a check of nothing)
BOT_TEAMS = [("Bids", "random"), ("Clubs", "beginner"), ("Deuces", "edna")]


@dataclasses.dataclass(frozen=True)
class Repeatable(analysis.Options):
    """The analysis as the analysis tests run it: the same marks however busy the machine."""

    samples: int | None = OPTIONS.samples
    budget: float | None = OPTIONS.budget
    solve_time: float | None = OPTIONS.solve_time


@contextlib.contextmanager
def program(args: list[str], log: Path, env: dict[str, str] | None = None) -> Iterator[Path]:
    """``args`` run as a real process (its output into ``log``) while the block runs."""
    with log.open("w") as out:
        proc = subprocess.Popen(
            args, env={**os.environ, **(env or {})}, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            yield log
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)


def first_line(log: Path, seconds: float = 30) -> str:
    """The first line a program wrote to ``log`` (it says where it listens, or that it is
    connected), once written."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = log.read_text()
        if "\n" in text:
            return text.split("\n", 1)[0]
        time.sleep(0.05)
    raise AssertionError(f"{log.name}: nothing written in {seconds:.0f} s")


def person(browser: Any, base: str, name: str) -> Player:
    """A newcomer's browser: signed up in the lobby's form, then at a page of their own that
    :class:`web_play.Player` drives."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    sign_up(page, base, name)
    page.close()
    who = Player(browser, base, context=context, seed=len(name))
    who.page.set_default_timeout(WAIT_MS)
    return who


def over(who: Player) -> Any:
    return who.page.get_by_role("dialog", name="The match is over")


def play_match(
    people: list[Player], deadline: float, ended: Callable[[Player], bool] | None = None
) -> list[Played]:
    """Each of ``people`` plays their seat through their page — a card or a call by its
    button's name, a hand's summary closed by "Continue" — until their page says the match
    is over (or ``ended`` says so). The people take turns here as the table gives them
    turns, in one thread."""
    ended = ended or (lambda who: bool(over(who).count()))
    played = [Played() for _ in people]
    for who in people:
        who.acted = -1
    done: set[int] = set()
    while len(done) < len(people):
        if time.monotonic() > deadline:
            raise PlayFailed(f"the match went on past its deadline: {[p.line() for p in played]}")
        moved = False
        for i, who in enumerate(people):
            if i in done:
                continue
            if ended(who):
                done.add(i)
                continue
            summary = who.page.get_by_role("dialog", name=re.compile(r"^Hand \d+$"))
            if summary.count():
                # the hand that ended the match turns into the match's end: no Continue then
                with contextlib.suppress(PlaywrightTimeout):
                    summary.get_by_role("button", name="Continue").click(timeout=3000)
                    played[i].hands += 1
                continue
            snap = who.snapshot
            decision = snap.get("decision") if snap else None
            if decision is None or who.stamp <= who.acted or snap is None:
                continue
            if who.refused is not None:
                raise PlayFailed(f"the server refused a move: {who.refused}")
            who.acted = who.stamp
            if decision.get("kind") == "cards":
                who._choose_cards(decision, played[i], False)
            else:
                who._choose_one(snap, played[i], None, False)
            moved = True
        if not moved:
            people[0].page.wait_for_timeout(25)
    return played


def all_face_up(who: Player) -> bool:
    """Whether the page shows every other seat's hand face up (a table's end)."""
    others = len((who.snapshot or {}).get("seats") or []) - 1
    return who.page.get_by_role("list", name=re.compile(r"'s hand$")).count() == others > 0


def totals(text: str) -> int:
    """The matches a profile's line counts ("2 matches: 1 won, 1 lost — win rate ...")."""
    found = re.match(r"(\d+) match(es)?:", text)
    assert found, text
    return int(found.group(1))


def register_bots(page: Any, base: str, stack: contextlib.ExitStack, logs: Path) -> Path:
    """Step 1: "My bots" in the lobby registers a websocket bot, shows its token and the command
    that runs the example bot once, and the bot runs with them, a real process; then the
    example web service, run here too, is registered by its URL. The websocket bot's log."""
    bots = page.get_by_role("region", name="My bots")
    bots.get_by_text("You have no bot yet.").wait_for()
    bots.get_by_label("Bot's name").fill("Robo")
    bots.get_by_role("button", name="Register the bot").click()
    token_box = bots.get_by_role("region", name="Robo's token")
    command = token_box.get_by_text(re.compile(r"^TRICKTABLE_BOT_TOKEN=")).inner_text()
    assignment, python, script, url = shlex.split(command)
    assert (python, script, url) == ("python", "examples/bots/ws_bot.py", f"ws{base[4:]}/ws")
    token = assignment.split("=", 1)[1]
    assert token.startswith("ttbot_") and token_box.get_by_text(token, exact=True).count() == 1
    token_box.get_by_role("button", name="I have copied it").click()
    robo = stack.enter_context(
        program(
            [sys.executable, str(ROOT / script), url, "--seed", "7"],
            logs / "ws_bot.log",
            {"TRICKTABLE_BOT_TOKEN": token},
        )
    )
    assert first_line(robo).startswith("connected to"), robo.read_text()

    spades = stack.enter_context(
        program(
            [sys.executable, str(ROOT / "examples/bots/http_spades_bot.py"), "--port", "0"],
            logs / "http_bot.log",
        )
    )
    service = first_line(spades).removeprefix("listening on ")
    bots.get_by_label("Bot's name").fill("Spadey")
    bots.get_by_label("Kind").select_option(label="web service: called at its URL")
    bots.get_by_label("Its URL").fill(service)
    bots.get_by_role("button", name="Register the bot").click()
    mine = bots.get_by_role("list", name="Your bots").get_by_role("listitem")
    expect(mine).to_have_count(2, timeout=WAIT_MS)
    assert "connects with a token" in mine.filter(has_text="Robo").inner_text()
    assert f"web service at {service}" in mine.filter(has_text="Spadey").inner_text()
    return robo


def watch_the_arena(nell: Player) -> None:
    """Step 2: the arena seats the newcomer's web service by its name beside the built-in AI
    and a character; nobody plays, so every hand is face up; the match plays to its end."""
    page = nell.page
    page.get_by_role("navigation").get_by_role("link", name="Arena").click()
    game = page.get_by_label("Game")
    game.locator("option[value=spades]").wait_for(state="attached")  # the games, loaded
    game.select_option("spades")
    page.get_by_label("seat 1: who plays").select_option(label="an account's bot (name)")
    page.get_by_label("seat 1: bot's name").fill("Spadey")
    page.get_by_label("seat 3: who plays").select_option(label="a character")
    page.get_by_label("seat 3: character").select_option("Rosa")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url("**/t/*")
    page.get_by_text("You are watching.").wait_for()
    assert page.get_by_role("group", name=re.compile(r"^Spadey\b")).count() == 1
    # every seat's hand, face up, while a hand is played (no seat is this watcher's own)
    hands = page.get_by_role("list", name=re.compile(r"'s hand$"))
    expect(hands).to_have_count(4, timeout=WAIT_MS)
    expect(hands.filter(has_text=re.compile(r"\S"))).to_have_count(4, timeout=WAIT_MS)
    assert page.get_by_role("group", name=re.compile(r"^Your hand")).count() == 0
    over(nell).wait_for(timeout=PART_S * 1000)
    said = over(nell).inner_text()
    assert "forfeit" not in said.lower() and "fault" not in said.lower(), said
    over(nell).get_by_role("button", name="Close").click()


def table_with_a_friend(nell: Player, browser: Any, base: str, robo: Path) -> tuple[Player, str]:
    """Step 3: a table of Auction Pitch to 1 from the lobby's form with two seats open; the
    newcomer invites Robo into one, the friend joins from the lobby and sits in the other, and
    the two play the match out through their pages. The friend, and the table's id."""
    page = nell.page
    page.get_by_role("link", name="tricktable").click()
    form = page.get_by_role("region", name="Start a table")
    form.get_by_label("Game").select_option("setback")
    form.get_by_label("Variant").select_option("auction-pitch")  # the first to the target wins
    form.get_by_label("Target").fill("1")
    form.get_by_label("Bots and characters play at").select_option("beginner")
    form.get_by_label("Seat 2", exact=True).select_option("open")
    form.get_by_label("Seat 3", exact=True).select_option("open")
    form.get_by_role("button", name="Create the table").click()
    page.get_by_role("link", name="Go to the table").click()
    page.wait_for_url("**/t/**")
    table = page.url.rsplit("/", 1)[1]
    invite = page.get_by_role("region", name="Invite a bot")
    field = invite.get_by_label("Bot for seat 1")
    field.fill("Robo")
    field.press("Enter")
    # Seated: that seat's form is gone, and its plate bears the bot's name before any deal.
    expect(invite.get_by_label("Bot for seat 1")).to_have_count(0, timeout=WAIT_MS)
    expect(page.get_by_role("group", name=re.compile(r"^Robo\b"))).to_have_count(1, timeout=WAIT_MS)

    fred = person(browser, base, "Fred")
    friend = fred.page
    friend.goto(base + "/")
    friend.get_by_role("row").filter(has_text="Robo").get_by_role("link", name="Join").click()
    friend.wait_for_url(f"**/t/{table}")
    friend.get_by_role("button", name="Sit here").click()
    for who in (nell, fred):
        who.page.get_by_role("group", name=re.compile(r"^Robo\b")).wait_for()
    play_match([nell, fred], time.monotonic() + PART_S)
    log = robo.read_text()
    assert f"seated at table {table}" in log and "hand 1: scores" in log, log
    for who in (nell, fred):
        over(who).get_by_role("button", name="Close").click()
    return fred, table


def league_night(nell: Player, fred: Player, base: str, db: Path) -> None:
    """Step 4: the friend runs a league of Setback, one deal a night, with the newcomer's team
    (Nell and a heuristic partner) and three teams of bots, and plays night 1; the newcomer
    plays her seat at "Your table"; the standings the page shows are those computed here
    from the stored games."""
    friend = fred.page
    friend.goto(base + "/leagues")
    friend.get_by_label("Name").fill("Tuesdays")
    friend.get_by_label("Game").select_option("setback")
    friend.get_by_label("Deals a night").fill("1")
    friend.get_by_role("button", name="Start the league").click()
    friend.wait_for_url(re.compile(r"/leagues/\d+$"))
    league = friend.url
    friend.get_by_label("Name").fill("Newcomers")
    friend.get_by_label("Person").fill("Nell")
    friend.get_by_label("Their partner").select_option("heuristic")
    friend.get_by_role("button", name="Add the team").click()
    friend.get_by_text("Newcomers (user:Nell + heuristic)").wait_for()
    for name, member in BOT_TEAMS:
        friend.get_by_label("Name").fill(name)
        friend.get_by_label("Member").select_option(member)
        friend.get_by_role("button", name="Add the team").click()
        friend.get_by_text(re.compile(rf"\b{name} \({member}\)")).wait_for()
    friend.get_by_role("button", name="Schedule").click()
    first = friend.get_by_role("listitem").filter(has_text="Night 1:")
    first.get_by_role("button", name="Play now").click()
    expect(first).to_contain_text("playing", timeout=WAIT_MS)

    page = nell.page
    page.goto(league)
    page.get_by_role("link", name="Your table").click()
    page.wait_for_url("**/t/*")
    # The deal played, the table shows every hand face up, then says its deals are played
    # (no match was won here: the night is scored when every table has ended).
    play_match([nell], time.monotonic() + PART_S, ended=all_face_up)
    done = page.get_by_role("dialog", name="Your table's deals are played")
    expect(done).to_be_visible(timeout=WAIT_MS)
    done.get_by_role("link", name="The league's page").click()
    page.wait_for_url(league)
    night = page.get_by_role("listitem").filter(has_text="Night 1:")
    expect(night).to_contain_text("played", timeout=WAIT_MS)
    standings = page.get_by_role("table").filter(has_text="Per deal")
    rows = standings.get_by_role("row")
    expect(rows).to_have_count(5, timeout=WAIT_MS)  # the heading's and four teams'
    shown = {}
    for row in rows.all()[1:]:
        cells = row.get_by_role("cell")  # #, team, nights, total, per deal, rating
        assert cells.nth(2).inner_text() == "1", row.inner_text()
        shown[cells.nth(1).inner_text()] = float(cells.nth(3).inner_text())
    detail = page.request.get(base + "/api" + league[len(base) :]).json()
    [tid] = [n["tournament"] for n in detail["divisions"][0]["nights"] if n["night"] == 1]
    expected = independent(db, tid)
    assert sorted(shown) == sorted(expected) == sorted(["Newcomers", *(n for n, _ in BOT_TEAMS)])
    for name, total in shown.items():
        assert abs(total - expected[name][0]) < 0.006, (name, total, expected[name])
    with sqlite3.connect(db) as c:
        records = [
            json.loads(r)
            for (r,) in c.execute("SELECT record FROM game WHERE tournament_id = ?", (tid,))
        ]
    assert [r["players"].count("user:Nell") for r in records].count(1) == 1, records


def profile_counts(page: Any, base: str) -> None:
    """Step 5: the newcomer's profile, from the lobby's "Playing as": the table's match and
    the night's; Robo's page, the table's; the arena's match on its web service's page,
    reached from the players' standings of Spades."""
    page.goto(base + "/")
    page.get_by_role("link", name="Nell").click()
    page.wait_for_url("**/players/**")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Nell", timeout=WAIT_MS)
    line = page.get_by_text(TOTALS)
    # The night's games reach the players' pages just after the night is marked played: a
    # person who came a moment too soon reads the page again.
    for _ in range(40):
        line.wait_for()
        if totals(line.inner_text()) == 2:
            break
        page.wait_for_timeout(250)
        page.reload()
    assert totals(line.inner_text()) == 2, line.inner_text()
    recent = page.get_by_role("table", name="Recent matches").get_by_role("row")
    expect(recent).to_have_count(3, timeout=WAIT_MS)  # the heading's and the two matches'
    assert "league Tuesdays" in recent.filter(has_text="setback").inner_text()
    assert "Fred" in recent.filter(has_text="Robo").inner_text()

    page.goto(base + "/players/Robo")
    expect(page.get_by_text(TOTALS)).to_contain_text("1 match: ", timeout=WAIT_MS)
    # The web service's page is at its own name, as the websocket bot's is: both are the
    # account's bots, whatever door they came in by.
    page.goto(base + "/players/Spadey")
    expect(page.get_by_text(TOTALS)).to_contain_text("1 match: ", timeout=WAIT_MS)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Spadey")


def analysed_replay(page: Any, base: str, table: str) -> None:
    """Step 6: the replay of the table's match, from the newcomer's profile; "Analyse", the
    marks, and a jump to the worst decision."""
    page.goto(base + "/")
    page.get_by_role("link", name="Nell").click()
    recent = page.get_by_role("table", name="Recent matches")
    recent.get_by_role("row").filter(has_text="Robo").get_by_role("link", name="replay").click()
    page.wait_for_url(f"**/t/{table}?replay=1*")
    page.get_by_role("button", name="Analyse").click()
    said = page.get_by_text(re.compile(r"^\d+ decisions analysed, \d+ mistakes?$"))
    said.wait_for(timeout=PART_S * 1000)
    assert int(said.inner_text().split()[0]) > 0, said.inner_text()
    page.get_by_role("button", name="Worst decision").click()
    worst = page.request.get(f"{base}/api/tables/{table}/analysis?match=1").json()["worst"]
    position = page.get_by_role("status").filter(has_text="Step ")
    expect(position).to_contain_text(f"Step {worst['step']} of ", timeout=WAIT_MS)
    mark = page.get_by_text(re.compile(r"^lost [\d.]+"))
    expect(mark).to_have_text(f"lost {round(worst['loss'], 2):g}", timeout=WAIT_MS)
    assert f"played {worst['action']}" in page.locator(".replay-mark").inner_text()


def test_a_newcomer_from_the_lobby_to_the_analysed_replay(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = time.monotonic()
    monkeypatch.setattr(analysis, "Options", Repeatable)  # the server's analyses: see above
    db = tmp_path / "web.db"
    # Local web services allowed (the example bot runs on loopback); a table of bots alone
    # stops after two hands, so the arena's match is short; moves paced to be watched.
    limits = HubLimits(allow_local_bots=True, hand_cap_bots=2)
    with contextlib.ExitStack() as stack:
        base = stack.enter_context(serving(db, pace=0.05, hub_limits=limits))
        nell = person(browser, base, "Nell")
        nell.page.goto(base + "/")
        robo = register_bots(nell.page, base, stack, tmp_path)
        watch_the_arena(nell)
        fred, table = table_with_a_friend(nell, browser, base, robo)
        league_night(nell, fred, base, db)
        profile_counts(nell.page, base)
        analysed_replay(nell.page, base, table)
        assert nell.problems == [] and fred.problems == [], (nell.problems, fred.problems)
        nell.close()
        fred.close()
    print(f"the story took {time.monotonic() - started:.1f} s")
