"""The random bot: uniform over the legal actions, from its own seed.

Each choice is a hash of the seat's seed, the hand's number and the number of actions the
seat has seen this hand, not the next draw of a generator: the bot keeps no state between
decisions, so a match resumed from its record (a new bot, mid-hand even) plays on exactly as
the uninterrupted match would have.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from tricktable.bots.base import Bot
from tricktable.engine.mixing import M31, mix31
from tricktable.engine.trick import PLAY, Game, View


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self._key = mix31((seed ^ seed >> 31 ^ seed >> 62) & M31)

    def act(self, view: View) -> int:
        # "- step * 0x14CAD3" is "+ step * 0x7FEB352D" modulo 2^31, with a factor small
        # enough for machine arithmetic when compiled (see tricktable.engine.mixing).
        x = mix31((self._key + view.hand_number * 0x9E3779B - view.step * 0x14CAD3) & M31)
        mask = view.legal_mask()
        if 0 < mask < _NATIVE and view.phase == PLAY:
            # The x-th card of the mask, lowest first: what legal[x % len(legal)] is, without
            # making the list; counted and walked in native integers (compiled, int.bit_count
            # is a method looked up by name at every call).
            m: i64 = mask
            for _ in range(x % _bit_count(m)):
                m &= m - 1
            low: int = m & -m
            return low.bit_length() - 1
        legal = view.legal_actions()
        return legal[x % len(legal)]


#: masks below this are short ints when compiled, and fit a native integer (cards are codes
#: 0..53): a constant of 2^62 or more would be a long integer, compared by a call
_NATIVE: Final = 1 << 60


def _bit_count(m: i64) -> i64:
    """How many bits of ``m`` (0 <= m < 2^60) are set: SWAR, in native integers (each
    constant below 2^62, where mypyc keeps it a machine constant)."""
    m = m - (m >> 1 & 0x1555555555555555)
    m = (m & 0x3333333333333333) + (m >> 2 & 0x3333333333333333)
    m = m + (m >> 4) & 0x0F0F0F0F0F0F0F0F
    m += m >> 8
    m += m >> 16
    m += m >> 32
    return m & 0x7F
