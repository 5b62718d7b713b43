"""A 31-bit integer hash: the deals' and the random bot's source of chance.

Chance here is a hash of a counter (the match's key, the hand's number, a draw's index)
rather than the next draw of a generator: a deal or a choice depends on nothing that came
before it, so a match rebuilt from its record plays on exactly.

The hash works on native 64-bit integers (``i64``; plain ints in Python): a 31-bit value
times a 30-bit factor stays below 2^61, so compiled, every step is machine arithmetic with no
tagged-int check (mypyc sends a tagged product with a factor of 2^30 or more to Python's long
integers, and checks every shift and mask: about 190 instructions a call, against some 20).
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

#: the mask of 31 bits
M31: Final = 0x7FFFFFFF


def mix31(x: i64) -> i64:
    """Hash ``x`` (31 bits) to 31 well-mixed bits (xor-shift-multiply, after murmur3)."""
    # Each product is below 2^61: native, it neither overflows nor leaves machine integers.
    x ^= x >> 16
    x = x * 0x45D9F3B & M31
    x ^= x >> 13
    x = x * 0x2C1B3C6D & M31
    x ^= x >> 16
    return x
