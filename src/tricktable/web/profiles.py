"""Players' pages on the web server: routes, the hook when a table's match ends, the backfill.

Routes (:func:`routes`, mounted by :func:`tricktable.web.app.make_app`):

- ``GET /api/players/{name}``: a player's page as JSON (:func:`tricktable.web.
  profile_queries.profile`); ``/players/{name}`` the page that draws it (``static/players.html``).
- ``GET /api/players?game=G``: a game's standings by rating; ``/players`` their page.

A *name* in a URL is a player's key (``account:ann``, ``guest:12``, ``bot:club``,
``character:edna``, ``name:...``), or a bare name: an account's (folded as logins fold it),
else a character's. An unknown one is a 404 of one line (JSON, or a page saying so, the
name escaped). Names are data: they reach SQL as bound parameters only, and the page writes
them as text.

Writing happens on one thread of the server's (:class:`Summaries`), never on the event loop:
:func:`match_over` (the room's one call when a match ends) sums the match up from its final
state on the loop — microseconds, the state is at hand — and hands the rows to the thread;
:func:`backfill` (queued when the routes are made, at the server's start) sums up the web
matches and tournament games finished before, a few at a time so that a match ending now
waits behind a short batch at most. Both store through :func:`~tricktable.analysis.
profile_store.add_matches`, which stores a match once, whoever comes first.
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import json
import queue
import threading
import weakref
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import func, select
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tricktable.analysis import profile_store
from tricktable.analysis.profile import KINDS, MatchSummary, character_of, summarize
from tricktable.analysis.profile_store import NewMatch
from tricktable.db import StoreError
from tricktable.db.models import ProfileMatch, WebJournal, WebTable
from tricktable.errors import TricktableError
from tricktable.web import profile_queries
from tricktable.web.settings import REGISTERED
from tricktable.web.store import WebStore, fold

if TYPE_CHECKING:
    from tricktable.web.room import Room

#: the page's file (the standings' and every player's)
PAGE: Final = Path(__file__).with_name("static") / "players.html"
#: web matches summed up a transaction in the backfill
BATCH: Final = 20
#: the longest name looked up
MAX_NAME: Final = 200
#: seconds the summaries' thread waits for a job before it ends
IDLE_S: Final = 30.0

Log = Callable[[str], None]


class Summaries:
    """The thread that writes the players' pages' rows of one server's store: jobs run one
    at a time, in the order given (so no two write the ratings at once in this process).

    The thread is started by the first job and ends once none has come for :data:`IDLE_S`
    (the next starts another): a server whose store is closed leaves no thread behind.
    """

    def __init__(self, log: Log) -> None:
        self.log = log
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._running = False

    def put(self, job: Callable[[], None]) -> None:
        """Run ``job`` on the thread, after those given before."""
        with self._lock:
            self._jobs.put(job)
            if not self._running:
                self._running = True
                # A daemon: a backfill in progress never holds the server's exit up (its
                # batch's transaction is rolled back; the next start does it again).
                threading.Thread(target=self._run, name="profiles", daemon=True).start()

    def busy(self) -> bool:
        """Whether jobs wait (a long job yields to them)."""
        return not self._jobs.empty()

    def wait(self, timeout: float = 60.0) -> bool:
        """Wait until the jobs given so far are done (for tests and the benchmark)."""
        done = threading.Event()
        self.put(done.set)
        return done.wait(timeout)

    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=IDLE_S)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():
                        self._running = False
                        return
                continue
            try:
                job()
            except StoreError as exc:
                self.log(f"players' pages: {exc}")
            except Exception as exc:  # the thread must outlive any one match
                self.log(f"players' pages: {exc!r}"[:300])


_SUMMARIES: weakref.WeakKeyDictionary[WebStore, Summaries] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def summaries(store: WebStore, log: Log | None = None) -> Summaries:
    """The :class:`Summaries` of ``store`` (made at the first call)."""
    with _LOCK:
        found = _SUMMARIES.get(store)
        if found is None:
            found = _SUMMARIES[store] = Summaries(log or _print)
        return found


def _print(line: str) -> None:
    import sys

    print(line, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------ when a match ends


def match_over(room: Room) -> None:
    """Sum up ``room``'s match, just over, and store it on the summaries' thread."""
    table = room.table
    if table is None or not table.state.is_over:
        return
    seats = [dict(s) for s in room.seats]
    try:
        summary = summarize(table.state, [f"seat:{i}" for i in range(len(seats))], room.names)
    except Exception as exc:  # the players' pages never stop a table's end being told
        room.hub.log(f"table {room.id}: the match cannot be summed up: {exc!r}"[:300])
        return
    store = room.hub.store
    table_id, match_no, finished = room.id, room.match_no, profile_store.now()

    worker = summaries(store, room.hub.log)

    def store_it() -> None:
        keyed = with_keys(summary, seat_keys(store, seats))
        match = NewMatch(finished, keyed, table_id=table_id, match_no=match_no)
        profile_store.add_matches(store.store, [match])
        rate_on(worker, store)  # a re-rating of its game under way (a backfill) goes on

    worker.put(store_it)


def with_keys(summary: MatchSummary, keys: Sequence[str]) -> MatchSummary:
    """``summary`` with each seat's player key ``keys[seat]``."""
    seats = tuple(dataclasses.replace(s, player=keys[s.seat]) for s in summary.seats)
    return dataclasses.replace(summary, seats=seats)


def seat_keys(store: WebStore, seats: Sequence[dict[str, Any]]) -> list[str]:
    """Each seat's player key: an account's folded name, a guest's id, a bot's spec, a
    character's name (a person seat played for them while away is still theirs)."""
    keys = []
    for i, s in enumerate(seats):
        kind, spec = s.get("kind"), str(s.get("spec") or "")
        if kind == "person" and isinstance(s.get("user"), int):
            user = store.user(s["user"])
            if user is not None and user.kind == "account":
                keys.append(f"account:{fold(user.name)}")
            else:
                keys.append(f"guest:{s['user']}")
        elif kind == "character":
            keys.append(f"character:{character_of(spec) or spec.lower()}")
        elif kind == "bot" and spec.startswith(REGISTERED):
            # an account's bot seated by name: its own identity, the key its websocket twin has
            keys.append(f"account:{fold(spec.removeprefix(REGISTERED))}")
        elif kind == "bot":
            keys.append(f"bot:{spec}")
        else:
            keys.append(f"name:{s.get('name') or f'seat {i}'}")
    return keys


# ----------------------------------------------------------------------------- the backfill


def backfill(store: WebStore, log: Log | None = None) -> None:
    """Queue the summing up of every finished web match and tournament game not summed up
    yet, then their rating (idempotent; with nothing to do, a few queries on indexes and
    one of the tables). Stored unrated first, a batch a transaction, and rated in order
    once all are in: one re-rating, not one a batch."""
    worker = summaries(store, log)

    def tournaments() -> None:
        profile_store.fill_games(store.store, stop=worker.busy, rate=False)
        worker.put(tournaments if worker.busy() else lambda: rate_on(worker, store))

    def web() -> None:
        todo = web_matches_missing(store)
        if not todo:
            worker.put(tournaments)
            return
        matches = [web_match(store, *t) for t in todo[:BATCH]]
        profile_store.add_matches(store.store, matches, rate=False)
        worker.put(web)  # the next batch, behind anything queued meanwhile

    worker.put(web)


def rate_on(worker: Summaries, store: WebStore) -> None:
    """Rate the pending matches (:func:`~tricktable.analysis.profile_store.rate_pending`),
    yielding to the jobs that come in meanwhile: queued again behind them."""
    if profile_store.rate_pending(store.store, stop=worker.busy):
        worker.put(lambda: rate_on(worker, store))


def web_matches_missing(store: WebStore) -> list[tuple[str, int, dict[str, Any], list[Any]]]:
    """The web matches that have ended and are not summed up: ``(table, match, settings,
    seats)``. Every match before a table's current one has ended (the next begins only
    then); its current one, if the table is over, or closed (ended or not: replayed once,
    and an unfinished one is marked so)."""
    with profile_store.reading(store.store, "cannot read the tables") as c:
        tables = c.execute(select(WebTable.id, WebTable.match_no, WebTable.status)).all()
        summed = select(ProfileMatch.table_id, func.count()).group_by(ProfileMatch.table_id)
        counts = {t: n for t, n in c.execute(summed.where(ProfileMatch.table_id.is_not(None)))}
        # Only the tables short of matches are read further (one query a few hundred).
        ended = {
            t.id: t.match_no if t.status in ("over", "closed") else t.match_no - 1 for t in tables
        }
        short = sorted(t for t, last in ended.items() if counts.get(t, 0) < last)
        todo = []
        for start in range(0, len(short), 500):
            part = short[start : start + 500]
            stored = select(ProfileMatch.table_id, ProfileMatch.match_no).where(
                ProfileMatch.table_id.in_(part)
            )
            done = {(t, m) for t, m in c.execute(stored)}
            rows = select(WebTable.id, WebTable.settings, WebTable.seats).where(
                WebTable.id.in_(part)
            )
            for t in c.execute(rows):
                settings = json.loads(t.settings)
                if "league" in settings:
                    continue  # a league night's table: its deals are summed as its night's games
                for m in range(1, ended[t.id] + 1):
                    if (t.id, m) not in done:
                        todo.append((t.id, m, settings, json.loads(t.seats)))
    return todo


def web_match(
    store: WebStore, table_id: str, match_no: int, settings: dict[str, Any], seats: list[Any]
) -> NewMatch:
    """Web match ``match_no`` of ``table_id`` replayed from its journal and summed up (or
    marked unfinished or unread): the seats are the table's, which do not change once its
    first match has begun."""
    from tricktable.games import load_game
    from tricktable.steps import apply_step

    rows = store.journal(table_id, match_no)
    with profile_store.reading(store.store, f"cannot read table {table_id}'s journal") as c:
        last = c.scalar(
            select(func.max(WebJournal.at)).where(
                WebJournal.table_id == table_id, WebJournal.match_no == match_no
            )
        )
    finished: datetime = last if last is not None else profile_store.now()

    def match(summary: MatchSummary | None, game: str = "?", status: str = "unread") -> NewMatch:
        return NewMatch(
            finished, summary, game, table_id=table_id, match_no=match_no, status=status
        )

    if not rows:  # closed before its match began
        return match(None, status="unfinished")
    try:
        game = load_game(settings["spec"])
        seed = next(int(s[2]) for r in rows for s in r.steps if s and s[0] == "begin")
        state = game.new_state(seed)
        for row in rows:
            for step in row.steps:
                apply_step(state, step)
        if not state.is_over:
            return match(None, game.preset, "unfinished")
        names = [s.get("name") or f"seat {i}" for i, s in enumerate(seats)]
        return match(summarize(state, seat_keys(store, seats), names))
    except (StopIteration, TricktableError, ValueError, KeyError, IndexError, TypeError):
        return match(None, status="unread")


# ---------------------------------------------------------------------------------- routes


def resolve(store: WebStore, name: str) -> str | None:
    """The key of the player ``name`` names (see the module), or None."""
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        return None
    kind, colon, rest = name.partition(":")
    if colon and kind in KINDS:
        wanted = [f"account:{fold(rest)}" if kind == "account" else f"{kind}:{rest}"]
        if kind == "character":
            wanted = [f"character:{rest.lower()}"]
    else:
        wanted = [f"account:{fold(name)}"]
        character = character_of(name)
        if character is not None and "(" not in name:
            wanted.append(f"character:{character}")
    for key in wanted:
        if profile_queries.find(store.store, key):
            return key
    return None


def title_of(key: str, name: str) -> str:
    """A player's name as their page heads it: a person's own, a character's, a bot's key."""
    kind, _, rest = key.partition(":")
    if kind == "character":
        from tricktable.characters.roster import CHARACTERS

        found = CHARACTERS.get(rest)
        return found.display if found is not None else rest
    if kind == "bot":
        return key
    return name


def _missing(name: str) -> str:
    shown = name if len(name) <= 60 else name[:60] + "…"
    return f"no player named {shown!r} has played a match here"


def routes(store: WebStore, log: Log | None = None) -> list[Route]:
    """The players' pages' routes for ``store``'s server; queues the backfill."""
    backfill(store, log)

    def guarded(fn: Callable[[Request], Response]) -> Callable[[Request], Any]:
        async def route(request: Request) -> Response:
            try:
                # The database's work off the event loop: the tables play on meanwhile.
                return await asyncio.to_thread(fn, request)
            except StoreError as exc:
                return JSONResponse(
                    {"error": f"the database cannot be used now: {exc}"}, status_code=503
                )

        return route

    def player_json(request: Request) -> Response:
        name = request.path_params["name"]
        key = resolve(store, name)
        found = None if key is None else profile_queries.profile(store.store, key)
        if found is None:
            return JSONResponse({"error": _missing(name)}, status_code=404)
        found["name"] = title_of(found["player"], found["name"])
        return JSONResponse(found)

    def player_page(request: Request) -> Response:
        name = request.path_params["name"]
        if resolve(store, name) is None:
            return _not_found_page(_missing(name))
        return FileResponse(PAGE)

    def standings_json(request: Request) -> Response:
        game = request.query_params.get("game", "")[:60]
        if not game:
            games = profile_queries.standings(store.store, "")["games"]
            game = games[0] if games else ""
        return JSONResponse(profile_queries.standings(store.store, game))

    def standings_page(request: Request) -> Response:
        return FileResponse(PAGE)

    return [
        Route("/api/players", guarded(standings_json)),
        Route("/api/players/{name:path}", guarded(player_json)),
        Route("/players", guarded(standings_page)),
        Route("/players/{name:path}", guarded(player_page)),
    ]


def _not_found_page(line: str) -> HTMLResponse:
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No such player</title>'
        '<link rel="stylesheet" href="/static/css/table.css">'
        '<link rel="stylesheet" href="/static/css/players.css"></head><body>'
        '<header class="bar"><a class="home" href="/">tricktable</a>'
        '<a class="title" href="/players">Players</a></header>'
        f'<main class="players-page"><p role="alert">{html.escape(line)}</p></main></body></html>'
    )
    return HTMLResponse(body, status_code=404)


__all__ = [
    "Summaries",
    "backfill",
    "match_over",
    "rate_on",
    "resolve",
    "routes",
    "seat_keys",
    "summaries",
    "title_of",
    "web_match",
    "web_matches_missing",
]
