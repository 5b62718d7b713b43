#!/usr/bin/env python3
"""A bot for a tricktable web server, in Python: it plays any game at any table it is invited to.

It connects to the server's websocket with its bot token (docs/writing-bots.md, "A bot at a
web table"), waits to be invited, and on each turn picks a legal action at random from what
the server sends: the snapshot's ``legal`` actions (as text), or cards of a ``cards``
decision. It logs one line a hand. It needs the ``websockets`` package only.

    TRICKTABLE_BOT_TOKEN=ttbot_... python ws_bot.py ws://127.0.0.1:8000/ws [--hands N]

The token is read from the environment, not the command line, where other users of the
machine could read it (``ps``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import connect


def choose(snapshot: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An ``act``'s data for the decision of ``snapshot``: a legal action or a choice of cards."""
    decision = snapshot["decision"]
    if decision["kind"] == "cards":
        if decision.get("sets"):
            return {"cards": rng.choice(decision["sets"])}
        count = min(max(decision["min"], 1), decision["max"])
        return {"cards": rng.sample(decision["cards"], count)}
    return {"action": rng.choice(snapshot["legal"])["action"]}


def log(line: str) -> None:
    print(line, flush=True)


def play(url: str, token: str, hands: int, seed: int | None) -> int:
    """Play until ``hands`` hands are scored (0: forever); the exit status."""
    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {token}"}
    table: str | None = None
    acted = -1  # the version of the last snapshot acted on: one act a decision
    sent = scored = 0
    with connect(url, additional_headers=headers, open_timeout=10) as ws:
        log(f"connected to {url}; waiting for an invitation")
        for raw in ws:
            message = json.loads(raw)
            kind, data = message["type"], message.get("data") or {}
            snapshot: dict[str, Any] | None = None
            if kind == "table":
                if table != message["table"]:
                    table = message["table"]
                    log(f"seated at table {table} ({data['title']}), seat {data['you']['seat']}")
            elif kind == "snapshot":
                snapshot = data
            elif kind == "confirm":
                snapshot = data.get("snapshot")
            elif kind == "refuse":
                log(f"refused: {data['reason']}")
                snapshot, acted = data.get("snapshot"), -1  # choose again
            elif kind == "error":
                log(f"error: {data['reason']}")
            elif kind == "events":
                for event in data["events"]:
                    if event["kind"] == "scored":
                        scored += 1
                        fields = event["data"]
                        log(f"table {table} hand {fields['hand'] + 1}: scores {fields['scores']}")
                        if hands and scored >= hands:
                            return 0
            if (
                snapshot is not None
                and snapshot.get("decision")
                and not snapshot.get("over")
                and snapshot["version"] > acted
            ):
                acted = snapshot["version"]
                sent += 1
                act = {"type": "act", "table": table, "id": f"b-{sent}", "data": {}}
                act["data"] = choose(snapshot, rng)
                ws.send(json.dumps(act))
    log("the server closed the connection")
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server's websocket, e.g. ws://127.0.0.1:8000/ws")
    parser.add_argument("--hands", type=int, default=0, help="stop after N hands (0: never)")
    parser.add_argument("--seed", type=int, default=None, help="the random choices' seed")
    args = parser.parse_args()
    token = os.environ.get("TRICKTABLE_BOT_TOKEN", "")
    if not token:
        log("set TRICKTABLE_BOT_TOKEN to the bot's token (POST /api/bots gives it)")
        return 2
    try:
        return play(args.url, token, args.hands, args.seed)
    except ConnectionClosed as exc:
        log(f"the connection closed: {exc}")
        return 1
    except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
        log(f"cannot connect to {args.url}: {exc}")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
