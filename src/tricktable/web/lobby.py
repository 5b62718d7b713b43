"""The games the lobby offers (``GET /api/games``): each game and variant, the table sizes
it allows with their seatings in words, and the options that make each (made once, read by
every request)."""

from __future__ import annotations

import threading
from typing import Any

from tricktable.errors import TricktableError
from tricktable.seat.choices import number_word

#: the games' listing, made once (it loads every game and variant)
LISTING: list[dict[str, Any]] = []
_LISTING_LOCK = threading.Lock()


def games() -> list[dict[str, Any]]:
    """The listing of :func:`_list_games`, made by the first caller (on a worker thread: it
    loads every game and variant) and read by every request after."""
    with _LISTING_LOCK:
        if not LISTING:
            LISTING.extend(_list_games())
    return LISTING


def _list_games() -> list[dict[str, Any]]:
    """Every game and its variants, each with the tables it can be played at (GET /api/games).

    A game's or variant's ``tables`` are its sizes, and for each size the seatings a person
    may choose, in words (``partners[].words``), each with the ``options`` to send with it:
    only what differs from the variant's own rules, so a creator need not know them.
    """
    from tricktable.games import GAMES, PRESETS, load_game

    out = []
    for name, cls in sorted(GAMES.items()):
        game = load_game(name)
        variants = []
        for p in sorted(PRESETS):
            if PRESETS[p].game != name:
                continue
            tables = _tables_of(p)
            variants.append(
                {
                    "name": p,
                    "title": _variant_title(p),
                    "summary": _plain_summary(PRESETS[p].summary),
                    "seats": [t["seats"] for t in tables],
                    "players": load_game(p).num_players,
                    "tables": tables,
                }
            )
        tables = _tables_of(name)
        out.append(
            {
                "name": name,
                "title": getattr(cls, "title", name) or name,
                "summary": _plain_summary(getattr(cls, "summary", "")),
                "seats": [t["seats"] for t in tables],
                "players": game.num_players,
                "tables": tables,
                "variants": variants,
                "options": game.options_dict(),
            }
        )
    return out


def seating_words(players: int, sides: int) -> str:
    """How ``players`` seats sit when ``sides`` sides score (seat s plays for side
    ``s % sides``: partners sit evenly round the table), in a person's words.

    >>> seating_words(4, 2)
    'two sides of two, partners opposite'
    >>> seating_words(6, 2)
    'two sides of three, partners alternate'
    >>> seating_words(5, 5)
    'each for themselves'
    """
    if sides >= players or sides < 2 or players % sides:
        return "each for themselves"
    size = players // sides
    where = "partners opposite" if size == 2 else "partners alternate"
    return f"{number_word(sides)} sides of {number_word(size)}, {where}"


def _tables_of(name: str) -> list[dict[str, Any]]:
    """The table sizes of game or variant ``name`` and the seatings at each (its own first),
    each tried: a shape its rules refuse (too few cards for the hands) is not offered."""
    import dataclasses

    from tricktable.games import load_game

    own = load_game(name)
    fields = {f.name for f in dataclasses.fields(own.Options)}
    found: dict[int, list[dict[str, Any]]] = {}
    seen: set[tuple[int, int]] = set()
    for seats in sorted({own.num_players, *type(own).seat_counts}):
        tries: list[dict[str, object]] = [{}] if seats == own.num_players else []
        if "players" in fields:
            tries.append({"players": seats})
            if "partners" in fields:
                tries += [{"players": seats, "partners": v} for v in (True, False)]
                tries += [
                    {"players": seats, "partners": f"{sides}x{seats // sides}"}
                    for sides in range(3, seats // 2 + 1)
                    if seats % sides == 0
                ]
        for extra in tries:
            try:
                game = load_game(name, extra=extra)
            except (TricktableError, ValueError):
                continue  # the game says it cannot be played so
            key = (game.num_players, game.num_scores)
            if game.num_players != seats or key in seen:
                continue
            seen.add(key)
            options = {
                k: v
                for k, v in extra.items()
                if getattr(own.options, k) != getattr(game.options, k)
            }
            found.setdefault(seats, []).append(
                {"words": seating_words(seats, game.num_scores), "options": options}
            )
    return [{"seats": n, "partners": choices} for n, choices in sorted(found.items())]


def _variant_title(name: str) -> str:
    """A variant's name as a title: ``six-hand-cinch`` is "Six-Hand Cinch"."""
    words = [w.capitalize() if not w.isdigit() else w for w in name.split("-")]
    if len(words) > 1 and words[1] == "Hand":
        return f"{words[0]}-{words[1]} " + " ".join(words[2:])
    return " ".join(words)


def _plain_summary(text: str) -> str:
    """A summary without the option words some hold for the command line ("(or
    partners=3x2)"): a person reads it."""
    import re

    return re.sub(r"\s*\([^()]*=[^()]*\)", "", text)
