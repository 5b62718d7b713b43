"""The phases every game shares: deal, auction, play, over (a game adds its own from 10 up)."""

from __future__ import annotations

from typing import Final

# Phases. Games with other phases (passing, trump choice) add codes of their own from 10 up.
# (Final: compiled code reads them as constants, not from the module's dict at every use.)
DEAL: Final = 0
AUCTION: Final = 1
PLAY: Final = 2
OVER: Final = 3
#: ``_other_legal()`` result for a phase whose legal actions are listed, not masked
SPECIAL: Final = -2
PHASE_NAMES: Final = {DEAL: "deal", AUCTION: "auction", PLAY: "play", OVER: "over"}
