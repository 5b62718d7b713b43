"""Duplicate tournaments from the web (issue 28 item 4): start one between built-in bots, watch
it move, read its standings and its report.

Routes (:func:`routes`, mounted by :func:`tricktable.web.app.make_app`):

- ``POST /api/tournaments`` (an account's session, its CSRF token, this server's origin):
  ``{game, entrants: [spec | {name, spec}], deals, seed?, name?}``. Checked by
  :class:`~tricktable.tournament.spec.TournamentSpec` itself and :func:`~tricktable.tournament.
  run.plan` (one-line 400s); entrants are tricktable's own bots and characters only
  (:func:`~tricktable.bots.is_builtin_player`): the server never starts a program, loads a
  plug-in or reaches a URL for a tournament. Caps: :data:`MAX_DEALS`, :data:`MAX_GAMES`, one
  running tournament an account and :data:`MAX_RUNNING` in all.
- ``GET /api/tournaments``: the newest tournaments of the database (the command line's too),
  each with its progress (games stored of games to play, counted in the database), the
  entrants a form may offer (``choices``) and the caps.
- ``GET /api/tournaments/{id}``: one tournament; once finished, its standings
  (:func:`~tricktable.analysis.standings.read_standings`, what ``tricktable standings`` prints).
- ``GET /tournaments/{id}/report``: the report ``tricktable report`` writes, made once the
  tournament has finished and kept in a folder of this server's; served under a policy that
  lets it load nothing (it has no script, its figures are inlined).
- ``/tournaments`` and ``/tournaments/{id}``: the page (``static/tournaments.html``).

A tournament runs in a process of its own (:class:`Runner`: spawned, never forked from the
server's threads), one worker playing (``run(..., workers=1)``), so the server's loop and its
tables keep their cores. The process resumes the tournament by name as stored, exactly as
``tricktable tournament --db DB --name NAME`` does — so a stored tournament is refused there
too if its entrants would run anything outside tricktable. Who started a web tournament is
kept in its stored spec (``spec["web"]``: ``{"owner": id, "by": name}``), which resuming
ignores. After a restart, the web tournaments left ``running`` (their process died with the
server) are *resumed*: the units stored are not played again.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import queue
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from sqlalchemy import func, select
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tricktable.db import Store, StoreError
from tricktable.db.models import Game, Tournament
from tricktable.db.rows import Damaged, tournament_info
from tricktable.db.store import TournamentInfo
from tricktable.errors import OptionError, TricktableError
from tricktable.tournament.live import LiveTarget
from tricktable.web import tournament_games
from tricktable.web.cluster import Alone
from tricktable.web.store import User, WebStore

#: the page's file (the list, the form and one tournament's standings)
PAGE: Final = Path(__file__).with_name("static") / "tournaments.html"
#: the most deals a web tournament plays at each table (the command line has no cap)
MAX_DEALS: Final = 2000
#: the most games (tables played) a web tournament may have in all
MAX_GAMES: Final = 20_000
#: entrants a web tournament takes
MIN_ENTRANTS: Final = 2
MAX_ENTRANTS: Final = 8
#: tournaments running at once on one server (each a process playing on one core)
MAX_RUNNING: Final = 3
#: tournaments listed, the newest first
SHOWN: Final = 50
#: the longest name or player spec taken
MAX_TEXT: Final = 80
#: statuses of a tournament here besides run.py's ``running`` and ``finished``
FAILED: Final = "failed"
#: the bots a form offers (the lobby's levels first); characters come from the roster
BOTS: Final = ("beginner", "club", "expert", "random", "heuristic", "ismcts", "pimc")
#: what a report may load: nothing but its own inline style and its inlined figures
REPORT_POLICY: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
#: the fields a start may give
FIELDS: Final = frozenset({"game", "entrants", "deals", "seed", "name"})

Log = Callable[[str], None]


# ------------------------------------------------------------------------------- the worker


def child() -> None:
    """A tournament's process (:class:`Runner`): what to play read from standard input."""
    told = json.loads(sys.stdin.read())
    play(told["target"], told["name"], told["reports"])


def play(target: str, name: str, reports: str) -> None:
    """A tournament's process: resume ``name`` in the database ``target`` as stored, play it
    with one worker, and write its report into ``reports``/ID once it has finished.

    Ends with status 2 and one line on standard error where it cannot (the tournament marked
    failed); dies with the server (``PR_SET_PDEATHSIG``), leaving it ``running`` to resume.
    """
    from tricktable.analysis.report import read_report, write_report
    from tricktable.tournament import run as run_mod
    from tricktable.workers import ignore_interrupts

    ignore_interrupts()
    try:
        with Store.open(target) as store:
            started = run_mod.start(store, None, name)
            # Each game journaled while it is played: the page shows it live.
            names = tuple(n for n, _ in started.spec.entrants)
            watched = LiveTarget(target, started.tid, names)
            try:
                run_mod.run(store, started, workers=1, live=watched)
            except TricktableError:
                store.set_status(started.tid, FAILED)
                raise
            if store.tournament(started.tid).status == run_mod.FINISHED:
                write_report(read_report(store, name), Path(reports) / str(started.tid))
    except TricktableError as exc:
        print(f"tournament {name!r}: {str(exc).splitlines()[0]}", file=sys.stderr, flush=True)
        sys.exit(2)


class Runner:
    """The server's tournaments' processes, started and watched by one thread of its own.

    Each is a new Python (``python -c``, told what to play on its standard input, so that a
    database's password is never on a command line) rather than a fork of the server, whose
    threads hold locks, or multiprocessing's spawn, which runs the server's main script again.
    The thread lives as long as the server: a process started from a thread is sent SIGTERM
    when *that thread* ends (``PR_SET_PDEATHSIG``), so none may come from a passing one.
    """

    def __init__(
        self,
        target: str,
        reports: Path,
        mark_failed: Callable[[int], None],
        log: Log,
        ended: Callable[[int], None] | None = None,
    ):
        self.target = target
        #: told (in the runner's thread) when a tournament's process has ended
        self.ended = ended or (lambda _tid: None)
        #: the tournaments stopped here because another server process plays them now
        self.handed_over: set[int] = set()
        self.reports = reports
        self.mark_failed = mark_failed
        self.log = log
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self._jobs: queue.SimpleQueue[tuple[int, str]] = queue.SimpleQueue()
        #: set as the server's process exits: its tournaments' processes die with it and
        #: stay running for the next start to resume, not failed
        self.closing = False
        atexit.register(self._close)
        threading.Thread(target=self._watch, name="tournaments", daemon=True).start()

    def start(self, tid: int, name: str) -> None:
        """Play tournament ``tid`` (``name``) in a process of its own."""
        self._jobs.put((tid, name))

    def hand_over(self, tid: int) -> None:
        """Stop playing tournament ``tid`` here: another server process plays it now (its
        games stored are kept; a game stored twice is refused by the database)."""
        self.handed_over.add(tid)
        proc = self.procs.get(tid)
        if proc is not None and proc.poll() is None:
            proc.terminate()

    def _close(self) -> None:
        self.closing = True

    def _launch(self, name: str) -> subprocess.Popen[bytes]:
        import tricktable

        env = dict(os.environ)
        # The server's own tricktable, wherever it was imported from.
        here = str(Path(tricktable.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
        proc = subprocess.Popen(
            [sys.executable, "-c", "from tricktable.web.tournaments import child; child()"],
            stdin=subprocess.PIPE,
            env=env,
        )
        assert proc.stdin is not None
        told = {"target": self.target, "name": name, "reports": str(self.reports)}
        with contextlib.suppress(OSError):  # one that died at once is seen by its status
            proc.stdin.write(json.dumps(told).encode())
            proc.stdin.close()
        return proc

    def _watch(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=0.25 if self.procs else None)
            except queue.Empty:
                job = None
            if job is not None and job[0] not in self.procs:
                tid, name = job
                try:
                    self.procs[tid] = self._launch(name)
                except Exception as exc:  # a process that cannot start: the tournament fails
                    self.log(f"tournament {name!r}: cannot start its process: {exc!r}"[:300])
                    self._failed(tid)
            for tid, proc in list(self.procs.items()):
                code = proc.poll()
                if code is None:
                    continue
                del self.procs[tid]
                self.ended(tid)
                if tid in self.handed_over:
                    self.handed_over.discard(tid)
                elif code != 0 and not self.closing:
                    self.log(f"tournament {tid}: its process ended with status {code}")
                    self._failed(tid)

    def _failed(self, tid: int) -> None:
        try:
            self.mark_failed(tid)
        except StoreError as exc:
            self.log(f"tournament {tid}: {exc}")


# ------------------------------------------------------------------------------ the database


def _owner(info: TournamentInfo) -> dict[str, Any] | None:
    web = info.spec.get("web")
    if isinstance(web, dict) and isinstance(web.get("owner"), int):
        return web
    return None


class Tournaments:
    """What the routes read and write: the tournaments of one server's database."""

    def __init__(self, store: WebStore, log: Log, cluster: Alone | None = None) -> None:
        self.store = store
        self.log = log
        #: the other server processes (a web tournament is played by one of them: the one
        #: holding its lease, which another takes up if that one dies)
        self.cluster = cluster or Alone()
        url = store.engine.url
        target = url.render_as_string(hide_password=False)
        self.reports = Path(tempfile.mkdtemp(prefix="tricktable-reports-"))
        atexit.register(shutil.rmtree, self.reports, True)
        self.runner = Runner(
            target,
            self.reports,
            self._mark_failed,
            log,
            ended=lambda tid: self.cluster.done(f"tournament:{tid}"),
        )
        self.cluster.takes("tournament:", self._take)
        #: games to play, by tournament id (a stored spec does not change)
        self._totals: dict[int, int] = {}
        #: the standings of finished tournaments, by id
        self._standings: dict[int, dict[str, Any]] = {}
        self._start_lock = threading.Lock()
        self._report_locks: dict[int, threading.Lock] = {}

    # -- reading

    def _rows(self, *where: Any, limit: int | None = None) -> list[TournamentInfo]:
        query = select(
            Tournament.id, Tournament.name, Tournament.created, Tournament.spec, Tournament.status
        ).where(*where)
        query = query.order_by(Tournament.id.desc()).limit(limit)
        with self.store._read("cannot read the tournaments") as c:
            try:
                return [tournament_info(row) for row in c.execute(query)]
            except Damaged as exc:
                raise StoreError(f"a stored tournament is damaged: {exc}") from None

    def _counts(self, ids: list[int]) -> dict[int, int]:
        if not ids:
            return {}
        query = (
            select(Game.tournament_id, func.count())
            .where(Game.tournament_id.in_(ids))
            .group_by(Game.tournament_id)
        )
        with self.store._read("cannot count the tournaments' games") as c:
            return {int(tid): int(n) for tid, n in c.execute(query)}

    def total(self, info: TournamentInfo) -> int | None:
        """Games tournament ``info`` plays in all (None: its spec cannot be read)."""
        if info.id not in self._totals:
            from tricktable.tournament.schedule import count
            from tricktable.tournament.spec import TournamentSpec

            try:
                self._totals[info.id] = count(TournamentSpec.from_dict(info.spec))
            except TricktableError:
                return None
        return self._totals[info.id]

    def line(self, info: TournamentInfo, done: int) -> dict[str, Any]:
        """A tournament as the list shows it."""
        owner = _owner(info)
        return {
            "id": info.id,
            "name": info.name,
            "game": info.spec.get("game"),
            "status": info.status,
            "done": done,
            "total": self.total(info),
            "started": info.created.isoformat(timespec="seconds"),
            "owner": None if owner is None else owner.get("by"),
            "entrants": [e[0] for e in info.spec.get("entrants", []) if isinstance(e, list)],
            "url": f"/tournaments/{info.id}",
            "report": f"/tournaments/{info.id}/report",
        }

    def listing(self) -> list[dict[str, Any]]:
        """The newest tournaments, each with its progress."""
        rows = self._rows(limit=SHOWN)
        counts = self._counts([r.id for r in rows])
        return [self.line(r, counts.get(r.id, 0)) for r in rows]

    def find(self, tid: int) -> TournamentInfo | None:
        """Tournament ``tid``, or None."""
        found = self._rows(Tournament.id == tid)
        return found[0] if found else None

    def detail(self, info: TournamentInfo) -> dict[str, Any]:
        """One tournament: its line, its entrants' specs and, once finished, its standings."""
        from tricktable.analysis.standings import read_standings

        out = self.line(info, self._counts([info.id]).get(info.id, 0))
        out["seed"] = info.spec.get("seed")
        out["deals"] = info.spec.get("deals")
        out["specs"] = info.spec.get("entrants")
        out["standings"] = None
        if info.status == "finished":
            if info.id not in self._standings:
                self._standings[info.id] = read_standings(self.store.store, info.name).to_dict()
            out["standings"] = self._standings[info.id]
        return out

    def report(self, info: TournamentInfo) -> Path:
        """The report's page of finished tournament ``info``, written now if not yet."""
        from tricktable.analysis.report import read_report, write_report

        folder = self.reports / str(info.id)
        page = folder / "index.html"
        lock = self._report_locks.setdefault(info.id, threading.Lock())
        with lock:
            if not page.is_file():
                write_report(read_report(self.store.store, info.name), folder)
        return page

    # -- writing

    def _mark_failed(self, tid: int) -> None:
        from tricktable.tournament.run import RUNNING

        info = self.find(tid)
        if info is not None and info.status == RUNNING:
            self.store.store.set_status(tid, FAILED)

    def running(self) -> list[TournamentInfo]:
        """The web tournaments marked running."""
        return [r for r in self._rows(Tournament.status == "running") if _owner(r) is not None]

    def resume(self) -> None:
        """Take up the web tournaments a server stopped left running (see the module); among
        many processes, those no other process plays."""
        for info in self.running():
            self._play(info, f"tournament {info.name!r}: left running by the last server: resumed")

    def _play(self, info: TournamentInfo, said: str | None = None) -> None:
        tid, name = info.id, info.name

        def begin() -> None:
            if said is not None:
                self.log(said)
            self.runner.start(tid, name)

        self.cluster.adopt(f"tournament:{tid}", begin, lambda: self.runner.hand_over(tid))

    def _take(self, lease: str) -> None:
        """A web tournament whose server process died: played on here (the lease is ours)."""
        tid = lease.partition(":")[2]
        try:
            info = self.find(int(tid)) if tid.isdigit() else None
        except StoreError as exc:
            self.log(f"tournament {tid}: {exc}")
            info = None
        if info is None or info.status != "running" or _owner(info) is None:
            self.cluster.done(lease)
            return
        self.log(f"tournament {info.name!r}: its server process died: resumed here")
        self.runner.start(info.id, info.name)

    def create(self, user: User, data: dict[str, Any]) -> TournamentInfo:
        """Check a start's ``data`` and store the tournament; :class:`OptionError` (one line)
        for every refusal, nothing stored then."""
        from tricktable.tournament import run as run_mod
        from tricktable.tournament.schedule import count

        spec = make_spec(user, data)
        games = count(spec)
        if games > MAX_GAMES:
            raise OptionError(
                f"that is {games} games: a tournament here plays at most {MAX_GAMES} "
                "(fewer deals or entrants)"
            )
        with self._start_lock:  # two starts at once must not both pass the caps
            running = self.running()
            if any((_owner(r) or {}).get("owner") == user.id for r in running):
                raise Refused("you have a tournament running: wait until it has finished")
            if len(running) >= MAX_RUNNING:
                raise Refused(f"{MAX_RUNNING} tournaments are running: try again later")
            store = self.store.store
            run_mod.plan(store, spec)  # the entrants made once: a bad one fails here
            stored = {**spec.to_dict(), "web": {"owner": user.id, "by": user.name}}
            if store.find_tournament(spec.name) is not None:
                raise Refused(f"a tournament named {spec.name!r} exists: choose another name")
            tid = store.create_tournament(spec.name, stored, list(spec.entrants))
            info = store.tournament(tid)
            self._play(info)
            return info


class Refused(TricktableError):
    """A start over a cap, or under a name taken (409)."""


def make_spec(user: User, data: dict[str, Any]) -> Any:
    """The :class:`~tricktable.tournament.spec.TournamentSpec` a start's body asks for."""
    from tricktable.bots import PEOPLE, is_builtin_player
    from tricktable.text import unshowable
    from tricktable.tournament.spec import TournamentSpec

    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise OptionError(f"unknown field {unknown[0][:40]!r}; valid: {', '.join(sorted(FIELDS))}")
    game = data.get("game")
    if not isinstance(game, str) or not 1 <= len(game) <= MAX_TEXT:
        raise OptionError(f"game is the name of a game (1 to {MAX_TEXT} characters)")
    deals = data.get("deals")
    if type(deals) is not int or not 1 <= deals <= MAX_DEALS:
        raise OptionError(f"deals is a whole number from 1 to {MAX_DEALS}")
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        raise OptionError("seed is a whole number")
    given = data.get("entrants")
    if not isinstance(given, list) or not MIN_ENTRANTS <= len(given) <= MAX_ENTRANTS:
        raise OptionError(f"entrants is a list of {MIN_ENTRANTS} to {MAX_ENTRANTS} players")
    entrants: list[tuple[str, str]] = []
    for i, item in enumerate(given):
        name, player = (
            (item.get("name"), item.get("spec"))
            if isinstance(item, dict)
            else (
                None,
                item,
            )
        )
        if not isinstance(player, str) or not 1 <= len(player.strip()) <= MAX_TEXT:
            raise OptionError(f"entrant {i + 1}: a player spec of 1 to {MAX_TEXT} characters")
        player = player.strip()
        if player.lower() in PEOPLE or not is_builtin_player(player):
            raise OptionError(
                f"entrant {i + 1} ({player[:40]!r}): only tricktable's own bots and characters "
                "play here; the server never starts a program or reaches a URL for a tournament"
            )
        if name is None:
            name = player
            taken = {n for n, _ in entrants}
            n = 2
            while name in taken:  # the same bot twice: told apart by number
                name, n = f"{player} {n}", n + 1
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_TEXT or unshowable(name):
            raise OptionError(f"entrant {i + 1}: a name is 1 to {MAX_TEXT} printable characters")
        entrants.append((name, player))
    name = data.get("name")
    if name is None:
        name = f"{user.name} {game} {secrets.token_hex(3)}"
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_TEXT or unshowable(name):
        raise OptionError(f"a tournament's name is 1 to {MAX_TEXT} printable characters")
    fields: dict[str, Any] = {"deals": deals, "format": "duplicate"}
    if seed is not None:
        fields["seed"] = seed
    return TournamentSpec(name=name, game=game, entrants=tuple(entrants), **fields)


def choices() -> dict[str, Any]:
    """What a form may offer: the bots and the characters."""
    from tricktable.characters.roster import CHARACTERS

    return {
        "bots": list(BOTS),
        "characters": [{"name": k, "title": c.display} for k, c in CHARACTERS.items()],
    }


# ---------------------------------------------------------------------------------- routes


def routes(store: WebStore, log: Log | None = None, cluster: Alone | None = None) -> list[Route]:
    """The tournaments' routes for ``store``'s server; takes up the web tournaments left
    running by a server stopped before (they resume)."""
    # app.py imports this module: its guards are read once both are loaded.
    from tricktable.web import app as web_app

    say = log or _print
    tournaments = Tournaments(store, say, cluster)
    tournaments.resume()

    def session(request: Request) -> tuple[User, str] | None:
        web = request.app.state.web
        found: tuple[User, str] | None = web.session(request.session.get("sid"))
        return found

    async def start(request: Request) -> Response:
        if not web_app._same_origin(request.headers.get("origin"), request.headers.get("host")):
            return web_app._error(403, "wrong origin")
        found = session(request)
        if found is None:
            return web_app._error(401, "no session: sign in to an account to start a tournament")
        user, csrf = found
        given = request.headers.get("x-csrf-token", "")
        if not given or given != csrf:
            return web_app._error(403, "missing or wrong CSRF token (X-CSRF-Token from /api/me)")
        if user.kind != "account":
            return web_app._error(
                403, "only an account starts tournaments: sign up (a guest may watch)"
            )
        try:
            data = await web_app.read_body(request)
            info = await asyncio.to_thread(tournaments.create, user, data)
        except web_app.BadRequest as exc:
            return web_app._error(400, str(exc))
        except Refused as exc:
            return web_app._error(409, str(exc))
        except StoreError as exc:
            return web_app._error(503, f"the database cannot be used now: {exc}")
        except TricktableError as exc:
            return web_app._error(400, " ".join(str(exc).split())[:300])
        return JSONResponse({"tournament": tournaments.line(info, 0)}, status_code=201)

    def guarded(fn: Callable[[Request], Response]) -> Callable[[Request], Response]:
        # A plain function: Starlette runs it on a worker thread, off the loop.
        def route(request: Request) -> Response:
            try:
                return fn(request)
            except StoreError as exc:
                return web_app._error(503, f"the database cannot be used now: {exc}")
            except TricktableError as exc:
                return web_app._error(500, " ".join(str(exc).split())[:300])

        return route

    def tid_of(request: Request) -> TournamentInfo | Response:
        raw = request.path_params["id"]
        if not raw.isdigit() or len(raw) > 12:
            return web_app._error(404, "no such tournament")
        found = tournaments.find(int(raw))
        return web_app._error(404, "no such tournament") if found is None else found

    def listing(request: Request) -> Response:
        return JSONResponse(
            {
                "tournaments": tournaments.listing(),
                "choices": choices(),
                "caps": {
                    "deals": MAX_DEALS,
                    "games": MAX_GAMES,
                    "entrants": [MIN_ENTRANTS, MAX_ENTRANTS],
                    "running": MAX_RUNNING,
                },
            }
        )

    def one(request: Request) -> Response:
        found = tid_of(request)
        if isinstance(found, Response):
            return found
        return JSONResponse(tournaments.detail(found))

    def report(request: Request) -> Response:
        found = tid_of(request)
        if isinstance(found, Response):
            return _plain(found.status_code, "no such tournament")
        if found.status != "finished":
            return _plain(
                409,
                f"tournament {found.name} is {found.status}: its report comes when it has finished",
            )
        page = tournaments.report(found)
        headers = {"Content-Security-Policy": REPORT_POLICY, "X-Content-Type-Options": "nosniff"}
        return FileResponse(page, media_type="text/html; charset=utf-8", headers=headers)

    def page(request: Request) -> Response:
        if PAGE.is_file():
            return FileResponse(PAGE)
        return HTMLResponse(
            "<!doctype html><title>tricktable</title><p>tournaments.html is missing"
        )

    return [
        Route("/api/tournaments", guarded(listing), methods=["GET"]),
        Route("/api/tournaments", start, methods=["POST"]),
        Route("/api/tournaments/{id}", guarded(one)),
        Route("/tournaments", page),
        Route("/tournaments/{id}", page),
        Route("/tournaments/{id}/report", guarded(report)),
        *tournament_games.routes(store, tournaments.find),  # each game live, then replayed
    ]


def _plain(status: int, line: str) -> Response:
    import html

    return HTMLResponse(
        f"<!doctype html><title>tricktable</title><p>{html.escape(line)}", status_code=status
    )


def _print(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
