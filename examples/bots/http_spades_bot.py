"""A Spades bot as a web service, written only to the SpadesBot API document (seed 004).

It uses nothing but the standard library and knows nothing of tricktable: it answers the five
JSON endpoints ``POST /{gameId}/{playerId}/{blind|deal|bid|play|book}`` as that document
describes them, and so proves that a bot written to it plays at a tricktable table unchanged.

    python examples/bots/http_spades_bot.py [--port 9000] [--blind]
    tricktable play --game spades --players http://127.0.0.1:9000/,heuristic,heuristic,heuristic

It prints ``listening on http://127.0.0.1:PORT/`` once ready (``--port 0`` picks a free port).
``--blind`` makes it bid blind nil every time it is offered the chance (to exercise that path).

Play: follow suit with the lowest card that wins if one does, else the lowest; void, trump
low unless the partner is winning; lead the highest non-spade. Bid: aces and kings, long and
high spades.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def rank(card: str) -> int:
    """The rank of a card like "10s" or "Ac": 2 for a two .. 14 for an ace."""
    return RANKS.index(card[:-1]) + 2


def suit(card: str) -> str:
    """The suit letter of a card: s, h, d or c."""
    return card[-1]


class Seat:
    """What one player (of one game) remembers between calls."""

    def __init__(self) -> None:
        self.hand: list[str] = []
        self.spades_broken = False
        self.bids: dict[str, Any] = {}


SEATS: dict[tuple[str, str], Seat] = {}
LOCK = threading.Lock()
BLIND = False


def seat_of(game_id: str, player: str) -> Seat:
    """The memory of one player of one game."""
    with LOCK:
        return SEATS.setdefault((game_id, player), Seat())


def estimate(hand: list[str]) -> int:
    """How many books a hand should take."""
    books = 0.0
    spades = [c for c in hand if suit(c) == "s"]
    for card in hand:
        r = rank(card)
        if suit(card) == "s":
            books += 1.0 if r >= 12 else 0.5 if r >= 10 else 0.0
        elif r == 14:
            books += 1.0
        elif r == 13 and sum(1 for c in hand if suit(c) == suit(card)) >= 2:
            books += 0.7
    books += max(len(spades) - 4, 0) * 0.8
    return max(int(books + 0.5), 1)


def winning(book: dict[str, Any], leader: int) -> tuple[int, str] | None:
    """The player and card winning the book so far, or None before the first card."""
    best: tuple[int, str] | None = None
    for i in range(4):
        player = (leader - 1 + i) % 4 + 1
        card = book.get(f"player{player}_card")
        if not card:
            continue
        if best is None:
            best = (player, card)
            continue
        top = best[1]
        higher = suit(card) == suit(top) and rank(card) > rank(top)
        trumps = suit(card) == "s" and suit(top) != "s"
        if higher or trumps:
            best = (player, card)
    return best


def choose(seat: Seat, me: int, book: dict[str, Any]) -> str:
    """The card to play into ``book`` (it is player ``me``'s turn)."""
    leader = int(book["leader"])
    hand = seat.hand
    best = winning(book, leader)
    if best is None:
        others = [c for c in hand if suit(c) != "s"]
        pool = hand if seat.spades_broken or not others else others
        return max(pool, key=rank)
    led = suit(book[f"player{leader}_card"])
    follow = [c for c in hand if suit(c) == led]
    partner = (me + 1) % 4 + 1
    if follow:
        if suit(best[1]) == led:
            beats = [c for c in follow if rank(c) > rank(best[1])]
            if beats and best[0] != partner:
                return min(beats, key=rank)
        return min(follow, key=rank)
    spades = [c for c in hand if suit(c) == "s"]
    if spades and best[0] != partner:
        if suit(best[1]) != "s":
            return min(spades, key=rank)
        over = [c for c in spades if rank(c) > rank(best[1])]
        if over:
            return min(over, key=rank)
    others = [c for c in hand if suit(c) != "s"] or hand
    return min(others, key=rank)


def note_spades(seat: Seat, book: dict[str, Any]) -> None:
    """Remember that spades are broken once one has been played."""
    for player in range(1, 5):
        card = book.get(f"player{player}_card")
        if card and suit(card) == "s":
            seat.spades_broken = True


class Handler(BaseHTTPRequestHandler):
    """The five endpoints of the SpadesBot API."""

    protocol_version = "HTTP/1.1"  # keep-alive: one connection for a whole game
    disable_nagle_algorithm = True

    def do_POST(self) -> None:
        parts = self.path.strip("/").split("/")
        if len(parts) < 3:
            self.reply(404, {"error": "expected /{gameId}/{playerId}/{event}"})
            return
        game_id, player, event = parts[-3], parts[-2], parts[-1]
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        seat = seat_of(game_id, player)
        me = int(player)
        if event == "blind":
            seat.hand = []
            seat.spades_broken = False
            self.reply(200, {"blind": BLIND})
        elif event == "deal":
            seat.hand = list(body["hand"])
            self.reply(200, {"bid": estimate(seat.hand)})
        elif event == "bid":
            seat.bids = dict(body)
            self.reply(200, {})
        elif event == "play":
            note_spades(seat, body)
            card = choose(seat, me, body)
            seat.hand.remove(card)
            if suit(card) == "s":
                seat.spades_broken = True
            self.reply(200, {"card": card})
        elif event == "book":
            note_spades(seat, body)
            self.reply(200, {})
        else:
            self.reply(404, {"error": f"unknown event {event}"})

    def reply(self, status: int, data: dict[str, Any]) -> None:
        """Send a JSON answer."""
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep quiet: a game makes hundreds of requests."""


def main() -> None:
    """Serve until interrupted."""
    global BLIND
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--blind", action="store_true", help="always bid blind nil")
    args = parser.parse_args()
    BLIND = args.blind
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    sys.exit(0)


if __name__ == "__main__":
    main()
