"""Run the command line with a bug planted in the engine: ``python engine_bug.py play ...``.

Every state records its events into a log that raises ZeroDivisionError on the second trick of
the third hand, inside ``apply``: an engine error that no bot caused. The tests run it with the
source tree first on the path (plain Python, whose classes can be patched).
"""

from __future__ import annotations

import sys
from typing import Any

from helpers import BrokenLog  # beside this script: its folder is first on sys.path
from tricktable.cli.main import main
from tricktable.engine.events import EventLog
from tricktable.engine.trick import TrickState

_deal = TrickState.deal


def _broken_deal(self: TrickState, *args: Any, **kwargs: Any) -> None:
    if self.events is None:
        self.events = BrokenLog(self.game.num_players)
    _deal(self, *args, **kwargs)


def _broken_listen(self: TrickState) -> EventLog:
    # A match whose bots want events turns them on before the first deal: the same log.
    if self.events is None:
        self.events = BrokenLog(self.game.num_players)
    return self.events


TrickState.deal = _broken_deal  # type: ignore[method-assign]
TrickState.listen = _broken_listen  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.argv[0] = "tricktable"
    main()
