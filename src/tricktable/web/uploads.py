"""Uploaded match records (issue 28 item 7): checked by replay, kept, replayed and analysed.

Routes (made by :func:`tricktable.web.analysis.routes`):

- ``POST /api/records`` (a session and its CSRF token, as every change): the body is a match
  record (``tricktable-record/1`` or ``/2``, /work/shared/RECORD-FORMAT.md), at most the
  server's body limit. It is read as ``tricktable verify`` reads one (a key given twice is
  refused) and replayed by the engine (:func:`tricktable.records.replay`); anything wrong —
  not JSON, an unknown game, an illegal action, a match not over — is refused in one line,
  the engine's own where it is the engine's, and nothing is stored. A match that replays to
  its end is kept under a new unguessable name: the answer's ``id`` and ``url``.
- ``GET /api/records/{id}``: the record as uploaded (re-written as plain JSON);
  ``/api/records/{id}/replay[?step=K]``: its replay, as a table's (:mod:`tricktable.web.replay`);
  ``GET``/``POST /api/records/{id}/analysis``: its analysis, as a table's match's.
- ``/records``: the page to upload one; ``/records/{id}``: its replay (``static/replay.html``).

Who may see it: whoever holds its address, as a table's replay (a record shows every hand by
nature). Its name is 16 random URL-safe characters, so none is found by counting.
"""

from __future__ import annotations

import asyncio
import html
import json
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import insert, select
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Route

from tricktable.db.analysis_models import UploadedRecord
from tricktable.errors import TricktableError
from tricktable.records import strict_json
from tricktable.web.analysis import Analyses, Source, answer, guarded, same_origin, using
from tricktable.web.replay import MatchSteps, Replays, record_journal, steps_answer

if TYPE_CHECKING:
    from tricktable.engine.trick import Game
    from tricktable.web.app import Web

#: the pages' file: the upload form and an uploaded record's replay
PAGE: Final = Path(__file__).with_name("static") / "replay.html"
#: the longest record name looked up (a name is 16 characters)
MAX_ID: Final = 40


class Refused(TricktableError):
    """An upload refused: the one line says why."""


def check(raw: bytes) -> tuple[dict[str, Any], Game, MatchSteps]:
    """The record in ``raw``, its game and its replay's steps; :class:`Refused` in one line
    if it is not a finished match that replays."""
    try:
        record = strict_json(raw)
    except TricktableError as exc:  # a key given twice
        raise Refused(f"the record is refused: {_line(exc)}") from None
    except (ValueError, RecursionError) as exc:
        raise Refused(f"the body is not JSON: {_line(exc)}") from None
    if not isinstance(record, dict):
        raise Refused("the body is not a match record: a record is a JSON object")
    try:
        game, rows, seed, names = record_journal(record)
        steps = MatchSteps(game, rows, seed, names, ["person"] * len(names))
    except TricktableError as exc:
        raise Refused(f"the record is refused: {_line(exc)}") from None
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        # The engine's checks come first; anything they let through is still one line.
        raise Refused(f"the record is refused: {_line(exc)}") from None
    if not steps.over:
        raise Refused(
            "the record is refused: its match is not over (only a finished match is replayed)"
        )
    return record, game, steps


def _line(exc: BaseException) -> str:
    text = str(exc).splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


def routes(web: Web, service: Analyses) -> list[Route]:
    """The uploads' routes of ``web``'s server, analysed by ``service``."""
    store = web.store
    #: uploaded matches cut into replay steps, by (name, 1)
    replays = Replays()

    def read(upload: str) -> dict[str, Any] | None:
        if not 1 <= len(upload) <= MAX_ID:
            return None
        with using(store, "cannot read the uploaded records") as c:
            text = c.scalar(select(UploadedRecord.record).where(UploadedRecord.id == upload))
        return None if text is None else dict(json.loads(text))

    def steps_of(upload: str) -> MatchSteps | None:
        found = replays.get((upload, 1))
        if found is None:
            record = read(upload)
            if record is None:
                return None
            found = check(json.dumps(record).encode())[2]
            replays.put((upload, 1), found)
        return found

    async def upload(request: Request) -> Response:
        found = web.session(request.session.get("sid"))
        if found is None:
            return answer(401, {"error": "no session: sign in, or play as a guest, to upload"})
        user, csrf = found
        given = request.headers.get("x-csrf-token", "")
        if not given or given != csrf:
            return answer(403, {"error": "missing or wrong CSRF token (X-CSRF-Token from /api/me)"})
        raw = await request.body()
        most = web.limits.max_body
        if len(raw) > most:  # BodyLimit refused a longer one before it was read: a second guard
            return answer(413, {"error": f"a request's body is at most {most} bytes"})
        if not raw.strip():
            return answer(400, {"error": "the body is empty: send a match record (JSON)"})
        try:
            record, game, steps = await asyncio.to_thread(check, raw)
        except Refused as exc:
            return answer(400, {"error": str(exc)})
        name = secrets.token_urlsafe(12)
        text = json.dumps(record, separators=(",", ":"))

        def keep() -> None:
            with using(store, "cannot keep the record", write=True) as c:
                c.execute(
                    insert(UploadedRecord).values(
                        id=name,
                        uploader=user.id,
                        game=game.spec()[:60],
                        record=text,
                        created=_now(),
                    )
                )

        await asyncio.to_thread(keep)
        replays.put((name, 1), steps)
        url = f"/records/{name}"
        return answer(201, {"id": name, "url": url, "game": game.spec(), "players": steps.names})

    def missing(upload: str) -> Response:
        shown = upload if len(upload) <= 40 else upload[:40] + "…"
        return answer(404, {"error": f"no uploaded record {shown!r}"})

    async def get_record(request: Request) -> Response:
        upload = request.path_params["id"]
        record = await asyncio.to_thread(read, upload)
        return missing(upload) if record is None else answer(200, record)

    async def get_replay(request: Request) -> Response:
        upload = request.path_params["id"]
        steps = await asyncio.to_thread(steps_of, upload)
        if steps is None:
            return missing(upload)
        head = {"record": upload, "match": 1, "last": steps.last}
        head["analysis"] = f"/api/records/{upload}/analysis"
        title = f"{steps.game.spec()}: {', '.join(steps.names)}"
        status, body = await steps_answer(steps, head, title, request.query_params)
        return answer(status, body)

    async def get_analysis(request: Request) -> Response:
        upload = request.path_params["id"]
        if await asyncio.to_thread(read, upload) is None:
            return missing(upload)
        return answer(200, await asyncio.to_thread(service.status, Source(upload=upload)))

    async def start_analysis(request: Request) -> Response:
        if not same_origin(request):
            return answer(403, {"error": "wrong origin: ask from this server's page"})
        upload = request.path_params["id"]

        def load() -> tuple[dict[str, Any], MatchSteps]:
            record = read(upload)
            steps = steps_of(upload)
            assert record is not None and steps is not None  # looked up just before
            return record, steps

        if await asyncio.to_thread(read, upload) is None:
            return missing(upload)
        status, body = await asyncio.to_thread(service.ask, Source(upload=upload), load)
        return answer(status, body)

    async def form_page(request: Request) -> Response:
        return FileResponse(PAGE)

    async def record_page(request: Request) -> Response:
        upload = request.path_params["id"]
        if await asyncio.to_thread(read, upload) is None:
            line = f"no uploaded record {upload[:40]!r}"
            return HTMLResponse(
                '<!doctype html><html lang="en"><head><meta charset="utf-8">'
                "<title>No such record</title></head><body>"
                f'<p role="alert">{html.escape(line)}</p><a href="/records">Upload one</a>'
                "</body></html>",
                status_code=404,
            )
        return FileResponse(PAGE)

    return [
        Route("/api/records", guarded(upload), methods=["POST"]),
        Route("/api/records/{id}", guarded(get_record)),
        Route("/api/records/{id}/replay", guarded(get_replay)),
        Route("/api/records/{id}/analysis", guarded(get_analysis), methods=["GET"]),
        Route("/api/records/{id}/analysis", guarded(start_analysis), methods=["POST"]),
        Route("/records", guarded(form_page)),
        Route("/records/{id}", guarded(record_page)),
    ]


def _now() -> datetime:
    return datetime.now(UTC)


__all__ = ["MAX_ID", "Refused", "check", "routes"]
