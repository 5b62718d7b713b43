"""Bots as Python classes: from a file, from an importable module, or from an installed package.

``--players path/to/bot.py:MyBot`` loads a file by its path; ``package.module:MyBot`` imports a
module; a package may offer bots by name in the entry-point group ``tricktable.bots``::

    [project.entry-points."tricktable.bots"]
    cautious = "mybots.cautious:CautiousBot"

A bot class subclasses :class:`tricktable.bots.base.Bot`, or at least has ``act(view)``; it is
created with no arguments. Every failure to load is one line naming the spec and the reason.

A plug-in runs in this process, unsandboxed, but the match never waits on it for ever: its
calls run in a thread of their own, timed and faulted as at a table
(:mod:`tricktable.botcalls`), and nothing it raises — ``SystemExit`` included — ends a match.
Loading it is the same: whatever its import or its class raises — ``SystemExit``,
``KeyboardInterrupt``, any ``BaseException`` — is a :class:`BotError` saying it could not be
loaded. Only a real Ctrl-C (or SIGTERM) that arrives while it loads stays an interruption.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from tricktable.botcalls import UNTRUSTED, mark_untrusted
from tricktable.bots.base import Bot
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError
from tricktable.interrupts import SignalWatch
from tricktable.processes import become_subreaper

#: the entry-point group where installed packages offer bots
GROUP = "tricktable.bots"

#: modules loaded from files, by resolved path and modification time
_FILES: dict[tuple[str, int], ModuleType] = {}


def _summary(exc: BaseException) -> str:
    """An exception as one line: ``NameError: name 'x' is not defined``."""
    if isinstance(exc, SyntaxError):
        where = f" (line {exc.lineno})" if exc.lineno else ""
        return f"SyntaxError: {exc.msg}{where}"
    lines = str(exc).strip().splitlines()
    if not lines:
        return type(exc).__name__
    said = lines[0] if len(lines[0]) <= 120 else lines[0][:119] + "…"
    return f"{type(exc).__name__}: {said}"


class _Signals(SignalWatch):
    """Watches for Ctrl-C and SIGTERM while a plug-in's code runs (in the main thread): to
    tell a ``KeyboardInterrupt`` the signal raised (the person stops the command) from one the
    plug-in raised itself (a broken bot)."""

    def failed(self, spec: str, doing: str, exc: BaseException) -> BotError:
        """The load error of ``exc``, raised by the plug-in's code while ``doing``; an
        interruption the signal raised is raised again instead."""
        if isinstance(exc, KeyboardInterrupt) and self.seen:
            raise exc
        return BotError(f"cannot load bot {spec!r}: {doing}{_summary(exc)}")


def split_spec(spec: str) -> tuple[str, str]:
    """The source (file path or module) and class name of ``source:Class``."""
    source, sep, cls = spec.strip().rpartition(":")
    if not sep or not source or not cls:
        raise BotError(f"bad bot {spec!r}: write path/to/bot.py:ClassName or package.module:Class")
    return source, cls


def is_file_spec(source: str) -> bool:
    """Whether a spec's source is a file path (it ends in .py or has a folder in it)."""
    return source.endswith(".py") or "/" in source or "\\" in source


def _load_file(spec: str, source: str) -> ModuleType:
    path = Path(source).expanduser()
    if not path.is_file():
        why = "it is a folder" if path.is_dir() else "no such file"
        raise BotError(f"cannot load bot {spec!r}: {source}: {why}")
    path = path.resolve()
    key = (str(path), path.stat().st_mtime_ns)
    module = _FILES.get(key)
    if module is not None:
        return module
    # A unique module name per file, so two bot.py files in different folders never collide.
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    name = f"tricktable_plugin_{path.stem}_{digest}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise BotError(f"cannot load bot {spec!r}: {source} is not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up here
    # The bot may import modules beside it while it loads (appended, the folder shadows
    # nothing); the folder leaves sys.path again afterwards, so one bot's folder never decides
    # what a later import finds. Sibling modules imported at load time stay in sys.modules.
    folder = str(path.parent)
    added = folder not in sys.path
    if added:
        sys.path.append(folder)
    try:
        with _Signals() as signals:
            try:
                module_spec.loader.exec_module(module)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt: a broken bot too
                raise signals.failed(spec, f"{source} failed: ", exc) from None
    except BaseException:
        sys.modules.pop(name, None)
        raise
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)
    _FILES[key] = module
    return module


def _load_module(spec: str, source: str) -> ModuleType:
    with _Signals() as signals:
        try:
            return importlib.import_module(source)
        except ModuleNotFoundError as exc:
            if exc.name and (source == exc.name or source.startswith(exc.name + ".")):
                raise BotError(f"cannot load bot {spec!r}: no module named {exc.name!r}") from None
            raise signals.failed(spec, f"importing {source} failed: ", exc) from None
        except BaseException as exc:  # SystemExit, KeyboardInterrupt: a broken bot too
            raise signals.failed(spec, f"importing {source} failed: ", exc) from None


def is_bot_class(obj: object) -> bool:
    """Whether ``obj`` is a class whose instances can play: a Bot, or anything with act()."""
    return inspect.isclass(obj) and (issubclass(obj, Bot) or callable(getattr(obj, "act", None)))


def _classes_in(module: ModuleType) -> list[str]:
    return sorted(
        name
        for name, value in vars(module).items()
        if is_bot_class(value) and getattr(value, "__module__", None) == module.__name__
    )


def bot_class(spec: str) -> type:
    """The class a ``path/to/bot.py:Class`` or ``package.module:Class`` spec names."""
    source, cls = split_spec(spec)
    # A plug-in runs in this process, and may fork: made a subreaper first, this process
    # adopts what it leaves, and the command ends it (processes.end_descendants).
    become_subreaper()
    module = _load_file(spec, source) if is_file_spec(source) else _load_module(spec, source)
    found = getattr(module, cls, None)
    if found is None:
        classes = _classes_in(module)
        has = f"; it has {', '.join(classes)}" if classes else "; it defines no bot class"
        raise BotError(f"cannot load bot {spec!r}: {source} has no class {cls!r}{has}")
    if not is_bot_class(found):
        raise BotError(
            f"cannot load bot {spec!r}: {cls} is not a bot class: "
            "subclass tricktable.bots.base.Bot or define act(view)"
        )
    assert isinstance(found, type)
    return found


def instantiate(spec: str, cls: type) -> Bot:
    """An instance of a bot class, adapted to :class:`Bot` when it only has ``act``."""
    with _Signals() as signals:
        try:
            bot = cls()
        except BaseException as exc:  # SystemExit, KeyboardInterrupt: a broken bot too
            raise signals.failed(spec, f"{cls.__name__}() failed: ", exc) from None
    if isinstance(bot, Bot):
        if type(bot).name == Bot.name:
            bot.name = cls.__name__  # records say which bot played, not just "bot"
        mark_untrusted(type(bot))
        return bot
    return DuckBot(bot, getattr(cls, "name", None) or cls.__name__)


def load_plugin(spec: str) -> Bot:
    """A new bot from ``path/to/bot.py:MyBot`` or ``package.module:MyBot``."""
    return instantiate(spec, bot_class(spec))


class DuckBot(Bot):
    """A :class:`Bot` around an object that has ``act(view)`` and perhaps the other methods."""

    def __init__(self, inner: Any, name: str) -> None:
        self.inner = inner
        self.name = str(name)

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        if hasattr(self.inner, "start_match"):
            self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        action: int = self.inner.act(view)
        return action

    def end_hand(self, view: View, result: HandResult) -> None:
        if hasattr(self.inner, "end_hand"):
            self.inner.end_hand(view, result)

    def end_match(self, view: View) -> None:
        if hasattr(self.inner, "end_match"):
            self.inner.end_match(view)

    def close(self) -> None:
        if hasattr(self.inner, "close"):
            self.inner.close()


UNTRUSTED.add(DuckBot)  # it wraps only plug-ins: timed as they are


# ---------------------------------------------------------------------------- entry points


def entry_points() -> dict[str, metadata.EntryPoint]:
    """The bots installed packages offer, by name (the first of a duplicated name wins)."""
    out: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=GROUP):
        out.setdefault(ep.name.lower(), ep)
    return out


def entry_point_names() -> list[str]:
    """The names of the installed bots of the ``tricktable.bots`` group."""
    return sorted(entry_points())


def find_entry_point_bot(name: str) -> Bot | None:
    """A new bot from the installed entry point ``name``, or None if no package offers it."""
    ep = entry_points().get(name.strip().lower())
    if ep is None:
        return None
    spec = f"{name} ({ep.value})"
    with _Signals() as signals:
        try:
            found = ep.load()
        except BaseException as exc:  # SystemExit, KeyboardInterrupt: a broken bot too
            raise signals.failed(spec, "", exc) from None
    if not is_bot_class(found):
        raise BotError(
            f"cannot load bot {spec!r}: {ep.value} is not a bot class: "
            "subclass tricktable.bots.base.Bot or define act(view)"
        )
    bot = instantiate(spec, found)
    if bot.name == found.__name__:
        bot.name = ep.name
    return bot
