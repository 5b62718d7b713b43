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

Transports are imported only when a spec names them. ``substitute_factory`` makes the bot
that takes a seat the referee hands on (:class:`tricktable.match.Referee`); this package never
imports the match loop, which imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from tricktable.bots.base import Bot
from tricktable.errors import BotError, TricktableError
from tricktable.limits import RunnerOptions

if TYPE_CHECKING:
    from tricktable.engine.trick import Game

#: makes a started bot for (game, seat, seed): who takes a seat handed on after a fault
SubstituteFactory = Callable[["Game", int, int], Bot]

#: name -> "module:Class" of the built-in bots, imported only when used
BUILTIN: dict[str, str] = {
    "random": "tricktable.bots.random_bot:RandomBot",
    "heuristic": "tricktable.bots.family:FamilyHeuristic",
    "ismcts": "tricktable.bots.ismcts:IsmctsBot",
    "pimc": "tricktable.bots.pimc:PimcBot",
    "cfr": "tricktable.bots.cfr_bot:CfrBot",
    # OpenSpiel's own Hearts bots, through a mirror of the hand (the `openspiel` extra)
    "openspiel-ismcts": "tricktable.bridges.openspiel:OpenSpielIsmctsBot",
    "openspiel-random": "tricktable.bridges.openspiel:OpenSpielRandomBot",
}


def load_class(target: str) -> Callable[[], Bot]:
    """The bot class a ``module:Class`` target names; a :class:`BotError` if it cannot load."""
    module, _, cls = target.partition(":")
    try:
        loaded: Callable[[], Bot] = getattr(importlib.import_module(module), cls)
        return loaded
    except (ImportError, AttributeError) as exc:
        raise BotError(f"cannot load bot {target!r}: {exc}") from None


def make_bot(spec: str, options: RunnerOptions | None = None) -> Bot:
    """A new bot from its spec; raises :class:`BotError` naming the valid choices.

    ``options`` carries the time limits a program's bot must keep (defaults if None).
    """
    name = spec.strip()
    target = BUILTIN.get(name.lower())
    if target is not None:
        return load_class(target)()
    base, paren, _ = name.partition("(")
    if paren and base.strip().lower() in BUILTIN:  # a built-in bot with options
        from tricktable.bots.options import configured

        return configured(load_class(BUILTIN[base.strip().lower()]), name)
    from tricktable.characters import find_player, player_names

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
        return load_plugin(name)
    from tricktable.protocols.plugins import entry_point_names, find_entry_point_bot

    bot = find_entry_point_bot(name)
    if bot is not None:  # an installed package's bot, by its entry-point name
        return bot
    valid = ", ".join(sorted(BUILTIN) + player_names() + entry_point_names())
    raise BotError(
        f"unknown player {spec!r}; valid: human, {valid}, cmd:COMMAND, http://HOST:PORT/,"
        " path/to/bot.py:Class or package.module:Class"
    )


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
        raise BotError(f"cannot read the players {text!r}: a double quote is not closed")
    specs.append("".join(field).strip())
    return specs
