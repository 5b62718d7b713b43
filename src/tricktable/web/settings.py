"""What a table's settings may say, checked: the game and its house rules, the clock, the
seats (docs/protocol-web.md: SETTINGS), and how a seat's bot is named — each refusal a
:class:`BadRequest` of one line in a person's words. Read by the hub for every table made."""

from __future__ import annotations

from typing import Any, Final

from tricktable.errors import TricktableError
from tricktable.games import load_game

#: the levels a bot seat may have, as player specs
LEVELS: Final = {"beginner": "beginner", "club": "club", "expert": "expert"}
#: a bot's name at each level: words no one reads as a card's suit ("club bot" was one)
BOT_NAMES: Final = {"beginner": "Beginner bot", "club": "Seasoned bot", "expert": "Expert bot"}
#: how a table's seating is said when the server refuses it (the lobby offers only good ones)
_SEATINGS: Final = {"false": "each for themselves", "true": "as two sides"}
#: the spec of an account's bot seated by name (``registered:NAME``), the server's own
REGISTERED: Final = "registered:"
#: the spec of a web service seated by its URL (``endpoint:URL``): the arena's alone
ENDPOINT: Final = "endpoint:"


class BadRequest(TricktableError):
    """A message or settings the server refuses: one line saying why."""

    #: the ``error`` message's code
    code = "bad"


def endpoint_name(url: str) -> str:
    """A web service's name at a table: its URL's scheme, host and port alone
    (``http://host:8080/…``), since a path or query may hold its owner's secret."""
    import httpx

    try:
        parsed = httpx.URL(url)
        host = parsed.host
        port = f":{parsed.port}" if parsed.port is not None else ""
    except (httpx.InvalidURL, TypeError, ValueError):
        return "a web service"
    if ":" in host:
        host = f"[{host}]"
    return f"{parsed.scheme}://{host}{port}/…"[:80]


def check_settings(settings: object) -> dict[str, Any]:
    """A table's settings, checked (docs/protocol-web.md: SETTINGS); BadRequest if not."""
    if not isinstance(settings, dict):
        raise BadRequest("a table's settings are a JSON object")
    game = settings.get("game", "setback")
    if not isinstance(game, str) or not 1 <= len(game) <= 200:
        raise BadRequest("game is a game's or variant's name")
    options = settings.get("options") or {}
    if not isinstance(options, dict) or len(options) > 40:
        raise BadRequest("options are an object of a game's options")
    parts = []
    for key, value in options.items():
        if not isinstance(key, str) or not key.isidentifier() or len(key) > 40:
            raise BadRequest(f"no option {str(key)[:40]!r}")
        if isinstance(value, bool):
            parts.append(f"{key}={'true' if value else 'false'}")
        elif isinstance(value, int | float | str) and len(str(value)) <= 40:
            if isinstance(value, str) and any(c in value for c in "(),="):
                raise BadRequest(f"option {key}: a bad value")
            parts.append(f"{key}={value}")
        else:
            raise BadRequest(f"option {key}: a number, a word or true/false")
    spec = game if not parts else f"{game.split('(')[0]}({','.join(parts)})"
    if parts and "(" in game:
        spec = game[:-1] + "," + ",".join(parts) + ")"
    _check_game(game, spec, options)
    move_time = settings.get("move_time", 0)
    if not isinstance(move_time, int | float) or isinstance(move_time, bool):
        raise BadRequest("move_time is seconds (a number)")
    if move_time and not 1 <= move_time <= 600:
        raise BadRequest("move_time is 0 (no clock) or 1 to 600 seconds")
    when_empty = settings.get("when_empty", "finish")
    if when_empty not in ("finish", "close"):
        raise BadRequest("when_empty is 'finish' or 'close'")
    seats_in = settings.get("seats", [{"kind": "me"}])
    if not isinstance(seats_in, list) or len(seats_in) > 8:
        raise BadRequest("seats is a list (one entry a seat)")
    seat_list: list[dict[str, Any]] = []
    from tricktable.characters.roster import CHARACTERS

    for i, s in enumerate(seats_in):
        if not isinstance(s, dict):
            raise BadRequest(f"seat {i}: an object with its kind")
        kind = s.get("kind")
        level = s.get("level", "club")
        if kind in ("me", "open"):
            seat_list.append({"kind": kind})
        elif kind == "bot":
            if level not in LEVELS:
                raise BadRequest(f"seat {i}: level is beginner, club or expert")
            seat_list.append({"kind": "bot", "spec": LEVELS[level], "name": BOT_NAMES[level]})
        elif kind == "character":
            name = s.get("name")
            if not isinstance(name, str) or name.lower() not in CHARACTERS:
                raise BadRequest(f"seat {i}: a character is one of {', '.join(CHARACTERS)}")
            if level not in LEVELS:
                raise BadRequest(f"seat {i}: level is beginner, club or expert")
            key = name.lower()
            player = f"{key}(base=ismcts)" if level == "expert" else key
            seat_list.append({"kind": "character", "spec": player, "name": CHARACTERS[key].display})
        else:
            raise BadRequest(f"seat {i}: kind is me, open, bot or character")
    # Two bots (or two of one character) at a table are told apart by name, and so by
    # avatar (drawn from the name): the second "Expert bot" is "Expert bot 2".
    count: dict[str, int] = {}
    for seat in seat_list:
        if "name" in seat:
            count[seat["name"]] = count.get(seat["name"], 0) + 1
            if count[seat["name"]] > 1:
                seat["name"] = f"{seat['name']} {count[seat['name']]}"
    return {
        "spec": spec,
        "move_time": move_time,
        "when_empty": when_empty,
        "private": bool(settings.get("private", False)),
        "seat_list": seat_list,
    }


def _check_game(game: str, spec: str, options: dict[str, Any]) -> None:
    """That ``spec`` (``game`` with ``options``) loads; else BadRequest in a person's words:
    the engine's own line names options as the command line writes them (partners=3x2)."""
    try:
        load_game(spec)
        return
    except TricktableError:
        pass
    try:
        base = load_game(game)
    except TricktableError:
        shown = game if len(game) <= 40 else game[:40] + "…"
        raise BadRequest(f"there is no game {shown!r} here: choose one the lobby lists") from None
    title = type(base).title or base.preset
    players = options.get("players", base.num_players)
    if "players" in options or "partners" in options:
        seating: dict[str, object] = {
            k: options[k] for k in ("players", "partners") if k in options
        }
        try:
            load_game(game, extra=seating)
        except (TricktableError, ValueError):
            raw = str(options.get("partners", "")).lower()
            how = _SEATINGS.get(raw, "")
            if not how and "x" in raw:
                sides, _, size = raw.partition("x")
                how = f"as {sides} sides of {size}"
            who = f"{players} players" if isinstance(players, int) else "that many players"
            raise BadRequest(
                f"{title} is not played by {who} {how or 'with that seating'}: "
                "choose a table size and seating the lobby offers"
            ) from None
    for key, value in options.items():
        if key in ("players", "partners"):
            continue
        try:
            load_game(game, extra={key: value})
        except (TricktableError, ValueError):
            what = "the target score" if key == "target" else f"the house rule {key!r}"
            shown = str(value)[:40]
            raise BadRequest(f"{title} cannot be played with {what} {shown}") from None
    raise BadRequest(f"{title} cannot be played with these house rules together")
