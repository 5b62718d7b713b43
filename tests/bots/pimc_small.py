"""A small ``pimc`` bot for the strength smoke test, loaded by path (fast enough for CI)."""

from __future__ import annotations

from tricktable.bots.pimc import PimcBot


class SmallPimc(PimcBot):
    """PIMC with at most 6 worlds and 40 ms a decision."""

    name = "pimc-small"

    def __init__(self) -> None:
        super().__init__(worlds=6, max_seconds=0.04)
