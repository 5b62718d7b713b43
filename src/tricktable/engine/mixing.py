"""A 31-bit integer hash: the deals' and the random bot's source of chance.

Chance here is a hash of a counter (the match's key, the hand's number, a draw's index)
rather than the next draw of a generator: a deal or a choice depends on nothing that came
before it, so a match rebuilt from its record plays on exactly.

Compiled, an integer product is machine arithmetic only when both factors are below 2^30
(mypyc's overflow test is that coarse); anything larger goes through Python's long integers,
which made hashing a fifth of a random match's time. So each 31-bit product is taken in two
halves of at most 16 bits, and every result is the same as the plain product's.
"""

from __future__ import annotations

from typing import Final

#: the mask of 31 bits
M31: Final = 0x7FFFFFFF


def mix31(x: int) -> int:
    """Hash ``x`` (31 bits) to 31 well-mixed bits (xor-shift-multiply, after murmur3)."""
    # x * c mod 2^31 as (x_high * c mod 2^16) * 2^15 + x_low * c: factors below 2^30
    x ^= x >> 16
    x = ((((x >> 15) * 0x45D9F3B) & 0xFFFF) << 15) + (x & 0x7FFF) * 0x45D9F3B & M31
    x ^= x >> 13
    x = ((((x >> 15) * 0x2C1B3C6D) & 0xFFFF) << 15) + (x & 0x7FFF) * 0x2C1B3C6D & M31
    x ^= x >> 16
    return x
