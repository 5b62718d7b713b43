"""Seeds derived from a match seed, the same on every machine and in every worker."""

from __future__ import annotations

import hashlib
import secrets


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed for a sub-stream (a match of a run, a bot's seat...) of ``seed``."""
    text = "/".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


class Seeds:
    """``derive_seed(seed, *parts, last)`` for many values of ``last``, the text they share
    hashed once (``simulate``: a random match of two-hand All Fours, 3.4 hands, derived three
    seeds, each a new hash of its whole text, in about a tenth of its time).

    >>> Seeds(7, "seat").of(2) == derive_seed(7, "seat", 2)
    True
    """

    __slots__ = ("_head",)

    def __init__(self, seed: int, *parts: object) -> None:
        # derive_seed's text is "/".join of its parts: the shared ones and a "/" hashed now.
        head = "/".join([str(seed), *map(str, parts)]) + "/"
        self._head = hashlib.blake2b(head.encode(), digest_size=8)

    def of(self, last: object) -> int:
        """The seed ``derive_seed`` derives with ``last`` after the shared parts."""
        h = self._head.copy()
        h.update(str(last).encode())
        return int.from_bytes(h.digest(), "big") >> 1


def fresh_seed() -> int:
    """A new random 64-bit seed for a match given none (records always carry their seed).

    64 bits, not 31: with 2**31 seeds two of some 55,000 matches already share their deals.
    """
    return secrets.randbits(64)
