"""Every table a game or preset can be played at: its sizes and partnership shapes.

A preset is played at its own size, and at the other sizes its game allows
(``Game.seat_counts``) where its options permit: ``players=N``, and where the game has a
``partners`` option, each for itself (``partners=false``) and every shape of sides of two or
more (``partners=3x2``). A shape the options refuse (too few cards for the hands, say) is
left out: that is the game saying it cannot be played so.
"""

from __future__ import annotations

import dataclasses
from functools import cache

from tricktable.engine.trick import Game
from tricktable.errors import TricktableError
from tricktable.games import load_game, names


def _extras(game: Game, seats: int) -> list[dict[str, object]]:
    """The option sets to try for ``seats`` seats (empty: the game cannot change its size)."""
    fields = {f.name for f in dataclasses.fields(game.Options)}
    if "players" not in fields:
        return []
    out: list[dict[str, object]] = [{"players": seats}]
    if "partners" in fields:
        out.append({"players": seats, "partners": False})
        for sides in range(2, seats // 2 + 1):
            if seats % sides == 0:
                out.append({"players": seats, "partners": f"{sides}x{seats // sides}"})
    return out


@cache
def shapes(name: str) -> tuple[str, ...]:
    """The game specs of ``name`` at every table it allows, its own first (no repeats)."""
    own = load_game(name)
    found = [own.spec()]
    for seats in type(own).seat_counts:
        for extra in _extras(own, seats):
            try:
                spec = load_game(name, extra=extra).spec()
            except TricktableError:
                continue
            if spec not in found:
                found.append(spec)
    return tuple(found)


def all_shapes() -> list[str]:
    """Every game and preset at every table it allows."""
    return [spec for name in names() for spec in shapes(name)]


def other_shapes() -> list[str]:
    """Every game and preset at every table it allows but its own."""
    return [spec for name in names() for spec in shapes(name)[1:]]
