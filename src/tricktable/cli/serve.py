"""``tricktable serve``: the web server — lobby, tables, people — on uvicorn."""

from __future__ import annotations

import gc
import sys

from tricktable.cli import fail
from tricktable.errors import TricktableError


def run_serve(host: str, port: int, db: str, pace: float = 0.4, new_people: int = 60) -> int:
    """Serve the tables of database ``db`` on ``host:port`` until interrupted; the exit status.

    ``new_people``: guests and accounts one address may make a minute (a load test's many).
    """
    import uvicorn

    from tricktable.web.app import make_app
    from tricktable.web.store import WebStore

    try:
        store = WebStore.open(db)
    except TricktableError as exc:
        return fail(exc)
    # Many tables hold many small objects that live as long as their match: the collector's
    # full passes over them all, at the default thresholds, stalled every table at once.
    gc.set_threshold(50_000, 50, 1000)
    try:
        app = make_app(store, pace=pace, new_people=new_people)
        shown = f"[{host}]" if ":" in host else host
        print(
            f"tricktable serving on http://{shown}:{port}/  ({store.store.where})",
            flush=True,
        )
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            ws_max_size=1 << 20,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            # Compressing every small frame cost a fifth of the server's CPU a move and half
            # its memory a table (benchmarks/web_load.py); the frames are small JSON.
            ws_per_message_deflate=False,
            lifespan="on",
        )
        server = uvicorn.Server(config)
        server.run()
        return 0 if server.started else 1
    finally:
        store.close()
        sys.stdout.flush()
