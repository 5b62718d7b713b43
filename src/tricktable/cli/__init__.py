"""The ``tricktable`` command line."""

from __future__ import annotations

import errno
import sys

#: the longest an error line may be (characters): one line of a terminal, whatever was given
ERROR_LINE = 200


def one_line(text: object, limit: int = ERROR_LINE) -> str:
    """``text`` as one line of at most ``limit`` characters, control characters escaped.

    The last line of defence for what an error says: a message that quotes a stranger's input
    in full (a megabyte, a newline, a terminal escape sequence) still prints as one short,
    inert line.

    >>> one_line("bad\\n\\x1b[2Jname " + "x" * 300, 30)
    'bad\\\\n\\\\x1b[2Jname xxxxxxxxxxxx…'
    """
    raw = str(text)[: limit + 1]
    # isprintable() is False for controls, line and format characters (bidi overrides,
    # zero-width ones): each is shown as its escape, never obeyed by the terminal.
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in raw)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def fail(error: object, status: int = 2) -> int:
    """Say ``error`` on one line of standard error (``error: ...``); the exit status ``status``.

    2: bad input (the default); 3: the engine failed, a bug (see :mod:`tricktable.cli.main`).
    """
    print(one_line(f"error: {error}"), file=sys.stderr)
    return status


def bind_problem(host: str, port: int, exc: OSError) -> str:
    """The one-line message for a failed bind of ``host:port`` (``serve``, ``tui --serve``)."""
    if exc.errno == errno.EADDRINUSE:
        return f"--port {port}: the port is in use on {host}; choose another with --port"
    if exc.errno == errno.EACCES:
        return f"--port {port}: this user may not serve on that port; choose one above 1023"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"--host {host!r} is not an address of this machine"
    return f"cannot serve on {host} port {port}: {exc.strerror or exc}"
