"""Bots by name: ``random``, ``heuristic``, and from transports, programs, URLs and plug-ins.

``make_bot`` reads a player spec:

- ``random``, ``heuristic``, ``ismcts``, ``pimc``...: the built-in bots (:data:`BUILTIN`),
  with options as a game takes them: ``pimc(worlds=20, max_seconds=0.2)``
  (:mod:`tricktable.bots.options`);
- ``cmd:COMMAND``: a program speaking the stdin/stdout line protocol
  (:class:`tricktable.protocols.stdio.SubprocessBot`);
- ``http://…`` or ``https://…``: a web service (``tricktable.protocols.http:HttpBot``);
- anything else with a colon, ``path/to/bot.py:MyBot`` or ``package.module:MyBot``: a Python
  class implementing :class:`Bot` (``tricktable.protocols.plugins:load_plugin``).

The built-in bots' names and classes are :mod:`tricktable.bots.registry` (which the characters
use too). Transports are imported only when a spec names them. ``substitute_factory`` makes the bot
that takes a seat the referee hands on (:class:`tricktable.match.Referee`); this package never
imports the match loop, which imports it.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from tricktable.bots.base import Bot
from tricktable.bots.registry import BUILTIN, load_class, make_builtin
from tricktable.characters import find_player, player_names
from tricktable.errors import BotError, TricktableError, quote
from tricktable.limits import RunnerOptions

if TYPE_CHECKING:
    from tricktable.engine.trick import Game

#: makes a started bot for (game, seat, seed): who takes a seat handed on after a fault
SubstituteFactory = Callable[["Game", int, int], Bot]


def make_bot(spec: str, options: RunnerOptions | None = None) -> Bot:
    """A new bot from its spec; raises :class:`BotError` naming the valid choices.

    ``options`` carries the time limits a program's bot must keep (defaults if None).
    """
    name = spec.strip()
    builtin = make_builtin(name)  # random, pimc(worlds=20)...
    if builtin is not None:
        return builtin
    character = find_player(name, options)  # a character or a level: edna, expert...
    if character is not None:
        return character
    if name[:4].lower() == "cmd:":
        from tricktable.protocols.stdio import SubprocessBot

        if options is None:
            return SubprocessBot(name[4:])
        return SubprocessBot(
            name[4:],
            decision_time=options.decision_time,
            match_time=options.match_time,
            startup_time=options.startup_time,
        )
    if name.lower().startswith(("http://", "https://")):
        http_bot: Callable[..., Bot] = _transport("tricktable.protocols.http", "HttpBot", spec)
        if options is None:
            return http_bot(name)
        return http_bot(name, decision_time=options.decision_time, match_time=options.match_time)
    if ":" in name:
        load_plugin: Callable[[str], Bot] = _transport(
            "tricktable.protocols.plugins", "load_plugin", spec
        )
        try:
            return load_plugin(name)
        except TricktableError:
            raise
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            # Its module may call sys.exit or raise anything at import: still one line.
            raise BotError(
                f"cannot load bot {quote(spec)}: {type(exc).__name__} while loading: "
                f"{quote(str(exc), 60)}"
            ) from None
    from tricktable.protocols.plugins import entry_point_names, find_entry_point_bot

    bot = find_entry_point_bot(name)
    if bot is not None:  # an installed package's bot, by its entry-point name
        return bot
    valid = ", ".join(sorted(BUILTIN) + player_names() + entry_point_names())
    raise BotError(
        f"unknown player {quote(spec)}; valid: human, {valid}, cmd:COMMAND, http://HOST:PORT/,"
        " path/to/bot.py:Class or package.module:Class"
    )


#: the player specs of a person (the terminal and the TUI say ``you``, records ``human``)
PEOPLE: frozenset[str] = frozenset({"human", "you"})
#: an option naming a file the bot opens (``cfr(db=PATH)``), at any depth of a spec
_FILE_OPTION = re.compile(r"""(?:^|[(,\s"'])db\s*=""", re.IGNORECASE)


def is_builtin_player(spec: str) -> bool:
    """Whether ``spec`` names a person or a player of tricktable's own: a built-in bot, a
    character or a level, with options or without.

    What a record, a database or a message names is data: a program (``cmd:``), a URL, a
    plug-in (``path.py:Class``, ``module:Class``, an installed entry point) or a bot option
    naming a file (``cfr(db=PATH)``) is not one of these, and is started only when a person
    gives it (``--players``). Nothing is made or imported to decide.

    >>> [is_builtin_player(s) for s in ("heuristic", "edna(base=pimc)", "you", "cmd:./bot")]
    [True, True, True, False]
    """
    name = spec.strip()
    base, paren, _ = name.partition("(")
    key = base.strip().lower()
    if key in PEOPLE:
        return not paren
    if ":" in base or (paren and not name.endswith(")")):
        return False
    if key not in BUILTIN and key not in player_names():
        return False
    return not (paren and _FILE_OPTION.search(name))


def substitute_factory(
    spec: str = "heuristic", options: RunnerOptions | None = None
) -> SubstituteFactory:
    """A maker of substitutes: the bot ``spec`` names, started in the seat it takes.

    Where that bot cannot play the game (no heuristic for it, a program that will not start)
    the random bot takes the seat instead, so that a fault never leaves a seat empty.
    """

    def make(game: Game, seat: int, seed: int) -> Bot:
        bot: Bot | None = None
        try:
            bot = make_bot(spec, options)
            bot.start_match(game, seat, seed)
            return bot
        except TricktableError:
            if bot is not None:
                bot.close()
            fallback = make_bot("random")
            fallback.start_match(game, seat, seed)
            return fallback

    return make


def _transport(module: str, attr: str, spec: str) -> Callable[..., Bot]:
    """The factory ``attr`` of a transport module, imported now (a :class:`BotError` if absent)."""
    try:
        found: Callable[..., Bot] = getattr(importlib.import_module(module), attr)
        return found
    except (ImportError, AttributeError) as exc:
        raise BotError(
            f"cannot use player {spec!r}: {module}.{attr} is unavailable ({exc})"
        ) from None


def split_players(text: str) -> list[str]:
    """The specs of a ``--players`` text, one a seat, separated by commas.

    Commas inside parentheses belong to a bot's options (``"pimc(worlds=20,max_seconds=1)"``);
    any other spec that holds a comma goes in double quotes, as in a CSV line:
    ``'"cmd:./bot --levels 1,2",random,random,random'``.
    """
    specs: list[str] = []
    field: list[str] = []
    depth = 0
    quoted = False
    i = 0
    while i < len(text):
        ch = text[i]
        i += 1
        if quoted:
            if ch != '"':
                field.append(ch)
            elif text[i : i + 1] == '"':  # "" in a quoted spec is one quote, as in CSV
                field.append(ch)
                i += 1
            else:
                quoted = False
        elif ch == '"' and not "".join(field).strip():
            quoted = True
            field = []
        elif ch == "," and depth == 0:
            specs.append("".join(field).strip())
            field = []
        else:
            depth += (ch == "(") - (ch == ")")
            field.append(ch)
    if quoted:
        raise BotError(f"cannot read the players {quote(text)}: a double quote is not closed")
    specs.append("".join(field).strip())
    return specs


__all__ = [
    "BUILTIN",
    "PEOPLE",
    "SubstituteFactory",
    "is_builtin_player",
    "load_class",
    "make_bot",
    "split_players",
    "substitute_factory",
]
