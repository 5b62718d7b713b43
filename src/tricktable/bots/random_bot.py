"""The random bot: uniform over the legal actions, from its own seed.

Each choice is a hash of the seat's seed, the hand's number and the number of actions the
seat has seen this hand, not the next draw of a generator: the bot keeps no state between
decisions, so a match resumed from its record (a new bot, mid-hand even) plays on exactly as
the uninterrupted match would have.
"""

from __future__ import annotations

from typing import Final

from tricktable.bots.base import Bot
from tricktable.engine.trick import Game, View

#: 31-bit arithmetic throughout: compiled, every product stays a machine integer
_MASK: Final = 0x7FFFFFFF


def _mix(x: int) -> int:
    """A 31-bit integer hash (xor-shift-multiply rounds, after murmur3's finaliser)."""
    x ^= x >> 16
    x = (x * 0x45D9F3B) & _MASK
    x ^= x >> 13
    x = (x * 0x2C1B3C6D) & _MASK
    x ^= x >> 16
    return x


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self._key = _mix((seed ^ seed >> 31 ^ seed >> 62) & _MASK)

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        x = _mix((self._key + view.hand_number * 0x9E3779B + view.step * 0x7FEB352D) & _MASK)
        return legal[x % len(legal)]
