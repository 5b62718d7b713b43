"""The ``tricktable`` command line."""

from __future__ import annotations

import sys


def fail(error: object, status: int = 2) -> int:
    """Say ``error`` on one line of standard error (``error: ...``); the exit status ``status``.

    2: bad input (the default); 3: the engine failed, a bug (see :mod:`tricktable.cli.main`).
    """
    print(f"error: {error}", file=sys.stderr)
    return status
