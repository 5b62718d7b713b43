"""How the players of the All Fours family sit: the ``partners`` option, read and checked
against the table's size, and how many sides score.

``partners`` is ``true`` (two sides sitting alternately), ``false`` (each for itself) or
``SIDESxSIZE`` (``3x2``: three sides of two, partners evenly round the table); seat s plays
for side ``s % sides`` (:meth:`tricktable.engine.game.Game.team_of`). Every option dataclass
of the family names these in its ``partners`` field and ``__post_init__``.
"""

from __future__ import annotations

from typing import Any

from tricktable.errors import OptionError


def read_partners(value: object) -> bool | str:
    """The ``partners`` option as written: a yes or no, or ``SIDESxSIZE``."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("true", "yes", "on", "1"):
        return True
    if word in ("false", "no", "off", "0", "none"):
        return False
    sides, x, size = word.partition("x")
    if x and sides.isdigit() and size.isdigit() and len(sides) == len(size) == 1:
        return f"{int(sides)}x{int(size)}"
    raise ValueError(word)


def check_partners(partners: bool | str, players: int) -> bool | str:
    """``partners`` for ``players`` seats, in its one spelling (two sides sitting alternately
    are ``true``, however written); raises OptionError for a seating that cannot be."""
    if partners is False:
        return False
    if partners is True:
        sides, size = 2, players // 2
    else:
        sides, size = (int(part) for part in str(partners).split("x"))
    if sides < 2 or size < 2:
        raise OptionError(
            f"partners={partners}: a partnership needs at least two sides of two; "
            "write partners=false for each for itself"
        )
    if sides * size != players:
        if partners is True:
            raise OptionError(
                f"{players} players cannot sit as two sides: write partners=false, or "
                "partners=SIDESxSIZE (e.g. 3x2: three sides of two at six seats)"
            )
        raise OptionError(
            f"{players} players cannot sit as {sides} sides of {size}: write "
            f"players={sides * size}, or partners=false"
        )
    return True if sides == 2 else f"{sides}x{size}"


def sides_of_options(opts: Any) -> int:
    """How many sides score under options with ``players`` and a checked ``partners``: one
    per seat, or the partnerships."""
    if opts.partners is False:
        return int(opts.players)
    if opts.partners is True:
        return 2
    return int(str(opts.partners).partition("x")[0])
