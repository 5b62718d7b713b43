"""A 31-bit integer hash: the deals' and the random bot's source of chance.

Chance here is a hash of a counter (the match's key, the hand's number, a draw's index)
rather than the next draw of a generator: a deal or a choice depends on nothing that came
before it, so a match rebuilt from its record plays on exactly. 31-bit arithmetic keeps every
product a machine integer when compiled.
"""

from __future__ import annotations

from typing import Final

#: the mask of 31 bits
M31: Final = 0x7FFFFFFF


def mix31(x: int) -> int:
    """Hash ``x`` (31 bits) to 31 well-mixed bits (xor-shift-multiply, after murmur3)."""
    x ^= x >> 16
    x = (x * 0x45D9F3B) & M31
    x ^= x >> 13
    x = (x * 0x2C1B3C6D) & M31
    x ^= x >> 16
    return x
