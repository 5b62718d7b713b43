"""The random bot: uniform over the legal actions, from its own seed.

Each choice is a hash of the seat's seed, the hand's number and the number of actions the
seat has seen this hand, not the next draw of a generator: the bot keeps no state between
decisions, so a match resumed from its record (a new bot, mid-hand even) plays on exactly as
the uninterrupted match would have.
"""

from __future__ import annotations

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
        if mask > 0 and view.phase == PLAY:
            # The x-th card of the mask, lowest first: what legal[x % len(legal)] is, without
            # making the list.
            for _ in range(x % mask.bit_count()):
                mask &= mask - 1
            return (mask & -mask).bit_length() - 1
        legal = view.legal_actions()
        return legal[x % len(legal)]
