"""Seeds derived from a match seed, the same on every machine and in every worker."""

from __future__ import annotations

import hashlib
import secrets


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed for a sub-stream (a match of a run, a bot's seat...) of ``seed``."""
    text = "/".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def fresh_seed() -> int:
    """A new random 64-bit seed for a match given none (records always carry their seed).

    64 bits, not 31: with 2**31 seeds two of some 55,000 matches already share their deals.
    """
    return secrets.randbits(64)
