"""The replay's analysis (issue 28 item 7): a finished match's decisions judged in the background.

Routes (:func:`routes`, mounted by :func:`tricktable.web.app.make_app` with one line):

- ``POST /api/tables/{id}/analysis?match=N`` starts the analysis of a web table's finished
  match (the current one if no ``match``); ``GET`` says how it stands: ``none``, ``queued``,
  ``running``, ``done`` (with every decision's mark and the worst) or ``failed`` (why, one
  line). Asking again is no new work: a match is analysed once, whoever asks first (a failed
  one may be asked again).
- the uploaded records' routes (:mod:`tricktable.web.uploads`), whose analysis is this same.

The work is :func:`tricktable.analysis.analyze.analyze`, as ``tricktable analyze`` does it, in
one worker process of the server's (:class:`Analyses`: a ``ProcessPoolExecutor`` of one, fed by
one thread, never the event loop), one match at a time; at most :data:`WAITING` matches wait
behind it, and one more is refused in one line (503). The worker process ends when nothing
is left to do, so an idle server holds none.

Who may see it: a finished match's replay shows every hand face up (:mod:`tricktable.web.
replay`), so its analysis holds nothing a viewer cannot see already — every seat's decisions
are analysed and shown to anyone who may see the replay. Starting one needs no session (the
replay needs none), but a browser's request must come from this server's own page.

The search's budget (:class:`Options`): a few worlds a decision, a quarter of a second at most
(:data:`SAMPLES`, :data:`BUDGET`), and half a second a double-dummy solve (:data:`SOLVE_TIME`).
Measured on this project's 2-core machine, three hands of six-card Setback: the solves 5.2 s
(no limit), four worlds a decision 7.5 s — about 4 s a hand, so a 10-hand match in well under
a minute on one core. A budget of time alone is not
repeatable (a busy machine searches less); the tests give ``budget=None`` and a solve without
limit on a short game, so that the marks are exactly those of ``analyze`` with the same options.
"""

from __future__ import annotations

import asyncio
import json
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.analysis.analyze import Decision, analyze
from tricktable.db import StoreError
from tricktable.db.analysis_models import AnalysisMark, MatchAnalysis
from tricktable.errors import TricktableError
from tricktable.web.records import match_record
from tricktable.web.replay import MatchSteps, seat_kinds
from tricktable.web.store import WebStore
from tricktable.workers import forking, ignore_interrupts, stop_executor, working

if TYPE_CHECKING:
    from tricktable.engine.trick import Game
    from tricktable.web.app import Web

#: worlds (pimc) or iterations (ismcts) the search may use a decision
SAMPLES: Final = 4
#: the most seconds the search may take a decision (a busy machine stops it sooner)
BUDGET: Final = 0.25
#: the most seconds one double-dummy solve may take (the rest of that trick is left unsolved)
SOLVE_TIME: Final = 0.5
#: matches that may wait behind the one being analysed
WAITING: Final = 3
#: what a mark says, as the API gives it
MARK_KEYS: Final = (
    "hand",
    "idx",
    "step",
    "seat",
    "action",
    "best",
    "loss",
    "dd_loss",
    "search_loss",
    "estimate",
    "mistake",
)
#: the statuses of an analysis not finished
BUSY: Final = ("queued", "running")

Log = Callable[[str], None]


@dataclass(frozen=True)
class Options:
    """What :func:`analyze` is given: the search's budget and seed (see the module)."""

    samples: int | None = SAMPLES
    budget: float | None = BUDGET
    solve_time: float | None = SOLVE_TIME
    seed: int = 0

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`~tricktable.analysis.analyze.analyze`."""
        return asdict(self)


@dataclass(frozen=True)
class Source:
    """The match an analysis is of: a web table's (``table``, ``match``) or an upload's."""

    table: str | None = None
    match: int | None = None
    upload: str | None = None

    def where(self) -> Any:
        """The SQL condition that finds its row."""
        if self.upload is not None:
            return MatchAnalysis.upload_id == self.upload
        return (MatchAnalysis.table_id == self.table) & (MatchAnalysis.match_no == self.match)


@dataclass(frozen=True)
class Job:
    """One analysis to run: its row, the record, each action's replay step by (hand, index)."""

    row: int
    record: dict[str, Any]
    steps: dict[tuple[int, int], int]


def mark(decision: Decision, game: Game, threshold: float) -> dict[str, Any]:
    """One decision as the page marks it (the record's notation for the actions)."""
    name = game.action_name
    dd, sampled = decision.double_dummy, decision.sampled
    dd_loss = None if dd is None else dd.loss
    search_loss = None if sampled is None else sampled.loss
    best = sampled.best if sampled is not None else None
    if dd is not None:
        best = decision.action if dd.loss == 0 else dd.best[0]
    estimate = None
    if sampled is not None:
        top = sampled.hint.best()
        estimate = None if top is None else top.value
    loss = dd_loss if dd_loss is not None else search_loss
    return {
        "hand": decision.hand,
        "idx": decision.index,
        "seat": decision.seat,
        "action": name(decision.action),
        "best": None if best is None else name(best),
        "loss": loss,
        "dd_loss": dd_loss,
        "search_loss": search_loss,
        "estimate": estimate,
        # by the loss the page shows (the double-dummy one where there is one), so that every
        # mistake listed lost something and the worst is one of them (`analyze` counts either)
        "mistake": loss is not None and loss >= threshold,
    }


def marks_of(record: dict[str, Any], options: Options) -> list[dict[str, Any]]:
    """Every decision with a choice in ``record``, analysed and marked (the worker's task)."""
    found = analyze(record, sampling=True, **options.kwargs())
    return [mark(d, found.game, found.threshold) for d in found.decisions if d.analysed]


class Analyses:
    """One server's analyses: a thread hands them to one worker process in turn, and stores
    what comes back; :meth:`ask` queues one, :meth:`status` reads one (both block: call them
    off the event loop)."""

    def __init__(
        self, store: WebStore, options: Options | None = None, waiting: int = WAITING
    ) -> None:
        self.store = store
        self.options = options or Options()
        self.waiting = waiting
        self._lock = threading.Lock()
        self._jobs: deque[Job] = deque()
        self._running = False
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        # Analyses a server that stopped left unfinished are forgotten: asking again starts one.
        with self._write("cannot clear the unfinished analyses") as c:
            c.execute(delete(MatchAnalysis).where(MatchAnalysis.status.in_(BUSY)))

    # -- the database ------------------------------------------------------------------------

    def _write(self, doing: str) -> AbstractContextManager[Connection]:
        return using(self.store, doing, write=True)

    def status(self, source: Source) -> dict[str, Any]:
        """How the analysis of ``source`` stands, with its marks once done."""
        with using(self.store, "cannot read the analyses") as c:
            found = c.execute(
                select(
                    MatchAnalysis.id,
                    MatchAnalysis.status,
                    MatchAnalysis.options,
                    MatchAnalysis.error,
                ).where(source.where())
            ).first()
            if found is None:
                return {"status": "none"}
            out: dict[str, Any] = {"status": found.status, "options": json.loads(found.options)}
            if found.status == "failed":
                out["error"] = found.error
            if found.status != "done":
                return out
            rows = c.execute(
                select(*(getattr(AnalysisMark, k) for k in MARK_KEYS))
                .where(AnalysisMark.analysis_id == found.id)
                .order_by(AnalysisMark.step)
            )
            marks = [dict(r._mapping) for r in rows]
        out["marks"] = marks
        worst = max(marks, key=lambda m: (m["loss"] or 0.0, -m["step"]), default=None)
        out["worst"] = worst if worst is not None and (worst["loss"] or 0.0) > 0 else None
        return out

    def ask(
        self,
        source: Source,
        load: Callable[[], tuple[dict[str, Any], MatchSteps]],
    ) -> tuple[int, dict[str, Any]]:
        """Queue the analysis of ``source`` unless it is done, under way or the queue is full;
        ``load`` gives its record and replay steps. The HTTP status and the body."""
        now = self.status(source)
        if now["status"] in (*BUSY, "done"):
            return 200, now
        with self._lock:
            if self._closed:
                return 503, {"error": "the server is stopping: no analysis now"}
            if len(self._jobs) + self._running > self.waiting:
                return 503, {
                    "error": f"{self.waiting + 1} matches are being analysed or wait: "
                    "try again in a minute"
                }
        record, steps = load()
        if not steps.over:
            return 409, {"error": "that match did not end: it cannot be analysed"}
        with self._write("cannot queue the analysis") as c:
            c.execute(delete(MatchAnalysis).where(source.where()))
            row = c.execute(
                insert(MatchAnalysis).values(
                    table_id=source.table,
                    match_no=source.match,
                    upload_id=source.upload,
                    status="queued",
                    options=json.dumps(asdict(self.options)),
                    created=_now(),
                )
            ).inserted_primary_key
        assert row is not None
        with self._lock:
            self._jobs.append(Job(int(row[0]), record, dict(steps.acts)))
            if not self._running:
                self._running = True
                threading.Thread(target=self._run, name="analyses", daemon=True).start()
        return 202, {"status": "queued"}

    # -- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._jobs or self._closed:
                    self._running = False
                    pool, self._pool = self._pool, None
                    if pool is not None:
                        # Nothing left: the worker process ends until the next analysis.
                        pool.shutdown(wait=False)
                    return
                job = self._jobs.popleft()
            try:
                self._one(job)
            except Exception as exc:  # the thread must outlive any one analysis
                self._fail(job.row, f"{exc!r}"[:300])

    def _one(self, job: Job) -> None:
        with self._write("cannot start the analysis") as c:
            c.execute(
                update(MatchAnalysis).where(MatchAnalysis.id == job.row).values(status="running")
            )
        try:
            marks = self._pool_run(job.record)
        except TricktableError as exc:
            self._fail(job.row, str(exc).splitlines()[0])
            return
        except BrokenExecutor:
            with self._lock:
                self._pool = None
            self._fail(job.row, "the analysis's worker process died")
            return
        rows = [
            {**m, "analysis_id": job.row, "step": job.steps.get((m["hand"], m["idx"]), -1)}
            for m in marks
        ]
        with self._write("cannot store the analysis") as c:
            if rows:
                c.execute(insert(AnalysisMark), rows)
            c.execute(
                update(MatchAnalysis)
                .where(MatchAnalysis.id == job.row)
                .values(status="done", finished=_now())
            )

    def _pool_run(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        with self._lock:
            pool = self._pool
            if pool is None:
                pool = self._pool = ProcessPoolExecutor(1, initializer=ignore_interrupts)
        with forking():  # the worker starts with the first submit (see tricktable.workers)
            future = pool.submit(working, marks_of, record, self.options)
        return future.result()

    def _fail(self, row: int, why: str) -> None:
        try:
            with self._write("cannot mark the analysis failed") as c:
                c.execute(
                    update(MatchAnalysis)
                    .where(MatchAnalysis.id == row)
                    .values(status="failed", error=why[:500], finished=_now())
                )
        except StoreError:
            pass  # the row stays "running" until the next start forgets it

    def close(self) -> None:
        """Stop: the worker process ended now, the analyses waiting forgotten."""
        with self._lock:
            self._closed = True
            self._jobs.clear()
            pool, self._pool = self._pool, None
        if pool is not None:
            stop_executor(pool)


@contextmanager
def using(store: WebStore, doing: str, write: bool = False) -> Iterator[Connection]:
    """A connection to ``store`` (one transaction if ``write``); a database error is one
    :class:`StoreError` line saying what could not be done."""
    try:
        with store.engine.begin() if write else store.engine.connect() as connection:
            yield connection
    except (SQLAlchemyError, OSError) as exc:
        raise StoreError(f"{store.store.where}: {doing}: {str(exc).splitlines()[0][:200]}") from exc


def _now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------------------------- routes

_SERVICES: weakref.WeakKeyDictionary[WebStore, Analyses] = weakref.WeakKeyDictionary()


def service_of(store: WebStore) -> Analyses | None:
    """The :class:`Analyses` of the server of ``store`` (its routes made), or None."""
    return _SERVICES.get(store)


def answer(status: int, body: dict[str, Any]) -> JSONResponse:
    """A JSON answer (an error's body is one line: ``{"error": ...}``)."""
    return JSONResponse(body, status_code=status)


def same_origin(request: Request) -> bool:
    """Whether a browser's request comes from this server's own page (or not a browser)."""
    origin, host = request.headers.get("origin"), request.headers.get("host")
    return origin is None or (host is not None and origin in (f"http://{host}", f"https://{host}"))


def guarded(fn: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """A route whose database errors and bad input each answer one line."""

    async def route(request: Request) -> Response:
        try:
            response: Response = await fn(request)
            return response
        except StoreError as exc:
            return answer(503, {"error": f"the database cannot be used now: {exc}"})
        except TricktableError as exc:
            return answer(400, {"error": str(exc).splitlines()[0][:300]})

    return route


def routes(web: Web, options: Options | None = None, waiting: int = WAITING) -> list[Route]:
    """The analysis's and the uploads' routes of ``web``'s server (see the module)."""
    from tricktable.web.uploads import routes as upload_routes

    store, hub = web.store, web.hub
    service = _SERVICES[store] = Analyses(store, options, waiting)

    def table_source(request: Request) -> tuple[Source, Any] | Response:
        room = hub.rooms.get(request.path_params["id"])
        if room is None:
            return answer(404, {"error": "no such table"})
        raw = request.query_params.get("match")
        match_no = room.match_no
        if raw is not None:
            if not (raw.isascii() and raw.isdigit() and len(raw) <= 9) or not (
                1 <= int(raw) <= room.match_no
            ):
                return answer(404, {"error": f"no match {raw[:10]!r} at this table"})
            match_no = int(raw)
        if match_no == room.match_no and room.status != "over":
            return answer(409, {"error": "the match is being played: it is analysed once over"})
        return Source(table=room.id, match=match_no), room

    async def get_table(request: Request) -> Response:
        found = table_source(request)
        if isinstance(found, Response):
            return found
        return answer(200, await asyncio.to_thread(service.status, found[0]))

    async def start_table(request: Request) -> Response:
        if not same_origin(request):
            return answer(403, {"error": "wrong origin: ask from this server's page"})
        found = table_source(request)
        if isinstance(found, Response):
            return found
        source, room = found
        match_no = source.match
        assert match_no is not None

        def load() -> tuple[dict[str, Any], MatchSteps]:
            record = match_record(store, room, match_no)
            rows = store.journal(room.id, match_no)
            steps = MatchSteps(room.game, rows, room.seed, room.names, seat_kinds(room.seats))
            return record, steps

        status, body = await asyncio.to_thread(service.ask, source, load)
        return answer(status, body)

    return [
        Route("/api/tables/{id}/analysis", guarded(get_table), methods=["GET"]),
        Route("/api/tables/{id}/analysis", guarded(start_table), methods=["POST"]),
        *upload_routes(web, service),
    ]


__all__ = [
    "BUDGET",
    "SAMPLES",
    "SOLVE_TIME",
    "WAITING",
    "Analyses",
    "Options",
    "Source",
    "mark",
    "marks_of",
    "routes",
    "service_of",
]
