"""The optional parts of tricktable (pyproject's extras) and the one line that names a missing one.

``pip install tricktable`` brings the engine and the commands that play: ``play``, ``simulate``,
``duel``, ``replay``, ``verify``, ``analyze``, ``bot-check``, ``games``, ``rules``, ``train`` and
the bots' protocols. The rest comes with an extra (docs/install.md): ``serve`` needs ``web``,
``tui`` needs ``tui``, ``tournament`` and ``standings`` need ``db``, ``report`` needs ``report``,
``tournament --cluster`` needs ``cluster``, ``serve --redis`` needs ``scale``. A command checks
its extra with :func:`require` before it imports any of it, so that a missing one is one line
and exit status 2 (the command line's bad input), never a traceback.
"""

from __future__ import annotations

import importlib.util
from typing import Final

from tricktable.errors import TricktableError

#: the modules each extra brings that tricktable itself imports, by their import names; an
#: extra that includes another (pyproject's ``tricktable[db]``) lists that one's too. Only the
#: ones a command cannot do without: psycopg (PostgreSQL alone) and the avatars' libraries
#: (a screen draws names where they are missing) are not checked.
MODULES: Final[dict[str, tuple[str, ...]]] = {
    "db": ("sqlalchemy", "alembic", "openskill"),
    "report": ("matplotlib", "sqlalchemy", "alembic", "openskill"),
    # cryptography is not checked: without it the openssl program makes the cluster's key
    "cluster": ("dask", "distributed", "sqlalchemy", "alembic", "openskill"),
    "web": (
        "starlette",
        "uvicorn",
        "h11",
        "websockets",
        "itsdangerous",
        "pwdlib",
        "argon2",
        "python_multipart",
        "limits",
        "sqlalchemy",
        "alembic",
    ),
    "tui": ("textual", "textual_serve"),
    # `serve --redis`: many processes sharing their tables (the web extra's modules besides)
    "scale": ("redis",),
}

#: the extra that owns a module a command imported and did not find, for the last line of
#: defence (:func:`explain`): each module named once, in the smallest extra that brings it
OWNER: Final[dict[str, str]] = {
    **{name: "db" for name in ("sqlalchemy", "alembic", "openskill", "psycopg")},
    "matplotlib": "report",
    "redis": "scale",
    **{name: "cluster" for name in ("dask", "distributed", "cryptography")},
    **{name: "web" for name in MODULES["web"] if name not in MODULES["db"]},
    # (aiohttp, textual-serve's server, is the core's: the HTTP bots' client)
    **{name: "tui" for name in ("textual", "textual_serve", "aiohttp_jinja2")},
    **{name: "avatars" for name in ("dicebear", "cairosvg", "PIL")},
}


class MissingExtra(TricktableError):
    """A command that needs an extra of tricktable which is not installed.

    ``extra`` is the extra's name, ``missing`` the module that was not found.
    """

    def __init__(self, what: str, extra: str, missing: str) -> None:
        self.extra = extra
        self.missing = missing
        super().__init__(
            f"{what} needs the {extra} extra: pip install 'tricktable[{extra}]' "
            f"(no module named {missing!r})"
        )


def require(extra: str, command: str) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` is installed.

    ``command`` is what needs it, as typed (``"serve"``, ``"tournament --cluster"``). The
    modules are found, not imported: the command imports what it uses, and a check must not
    make ``tricktable tui`` load the browser server it may never start.
    """
    for name in MODULES[extra]:
        if not _installed(name):
            raise MissingExtra(f"tricktable {command}", extra, name)


def explain(error: ModuleNotFoundError, what: str) -> MissingExtra | None:
    """The one line for ``error`` when the module missing belongs to an extra, else None.

    ``what`` is what failed (``"tricktable serve"``).

    The last line of defence for a path no :func:`require` guards: a module deep in a
    command that imports an extra's library still ends as the extra's name, not a bug.
    """
    name = (error.name or "").partition(".")[0]
    extra = OWNER.get(name)
    return None if extra is None else MissingExtra(what, extra, name)


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a finder refused it; ValueError: a module without spec
        return False


__all__ = ["MODULES", "OWNER", "MissingExtra", "explain", "require"]
