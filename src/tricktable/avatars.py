"""Avatars generated from a player's name: SVG for pages, a small Unicode drawing for terminals.

Every name — a person's, a character's, a bot's (:func:`avatar_name`: the one it shows at the
table) — gets the same avatar every time, on every machine: DiceBear (``dicebear-core``, MIT)
draws it from the name as its seed, in the "Pixel Art" style of ``dicebear-styles`` (by
DiceBear, CC0 1.0), on a background colour of :data:`BACKGROUNDS` that the name picks (by its
SHA-256). At a table, :func:`seat_backgrounds`
gives the four seats four different backgrounds (a seat whose colour is taken by an earlier
seat takes the next free one), so that they differ at a glance in colour as well as in face.
The style is a 16 x 16 grid of square pixels, which is why it was chosen: the terminal
drawing is exact, not a blur. CairoSVG (LGPL-3.0, through the system's Cairo)
renders the SVG to those 16 x 16 pixels, and each terminal cell shows two of them, one above
the other, with the upper half block ``▀`` (foreground: the upper pixel, background: the
lower): 16 columns by 8 rows, or, ``small``, every other pixel: 8 columns by 4 rows.

Where colour is not wanted (``NO_COLOR``, a pipe) or the font lacks block elements, use
``avatar_text(name, color=False)``: the pixels' brightness drawn with ASCII characters.

Rendering takes a few milliseconds; results are cached by name.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
from importlib.resources import files
from typing import Final

from rich.text import Text

from tricktable.errors import TricktableError

#: background colours a name picks from: far apart in hue (any two differ by > 100 in R+G+B)
BACKGROUNDS: Final = (
    "7fb8e6",  # blue
    "f2b134",  # amber
    "8cc265",  # green
    "ef8a80",  # salmon
    "b49ee8",  # violet
    "5fd0c0",  # teal
    "f0e068",  # yellow
    "e58fc8",  # pink
)
#: the grid of the Pixel Art style
PIXELS: Final = 16
#: brightness ramp of the colourless drawing, darkest first
RAMP: Final = "@%#*+=-:. "

Pixel = tuple[int, int, int] | None


class AvatarError(TricktableError):
    """An avatar could not be drawn (the drawing libraries are missing or broken)."""


@functools.lru_cache(maxsize=1)
def _style() -> object:
    from dicebear import Style

    text = files("dicebear_styles").joinpath("pixel-art.json").read_text("utf-8")
    return Style(json.loads(text))


def avatar_name(label: str) -> str:
    """The name a player's avatar is drawn from: the name it shows at the table, so that one
    player has one face in every view (the terminal, the TUI, a replay).

    ``label`` is a seat's label as the table and the record have it — ``bot:SPEC`` for a bot
    (``bot:edna`` -> ``Edna``, ``bot:heuristic`` -> ``Heuristic``), a person's name as it is —
    or a name already shown, which is kept (``Edna``, ``you``). A bare bot spec is no label:
    pass ``"bot:" + spec``. See :func:`tricktable.characters.talk.display_name`.
    """
    from tricktable.characters.talk import display_name

    return display_name(label)


def background(name: str) -> str:
    """The background colour ``name`` picks (hex RGB, no ``#``)."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).digest()
    return BACKGROUNDS[int.from_bytes(digest[:4], "big") % len(BACKGROUNDS)]


def seat_backgrounds(names: list[str] | tuple[str, ...]) -> list[str]:
    """Backgrounds for the seats of one table, all different (up to :data:`BACKGROUNDS`)."""
    taken: list[str] = []
    for name in names:
        colour = background(name)
        start = BACKGROUNDS.index(colour)
        for k in range(len(BACKGROUNDS)):
            colour = BACKGROUNDS[(start + k) % len(BACKGROUNDS)]
            if colour not in taken:
                break
        taken.append(colour)
    return taken


@functools.lru_cache(maxsize=256)
def avatar_svg(name: str, size: int = 64, backdrop: str | None = None) -> str:
    """The avatar of ``name`` as an SVG document ``size`` pixels square, on ``backdrop`` (hex
    RGB; default: the name's own :func:`background`)."""
    if not 1 <= size <= 4096:
        raise AvatarError(f"an avatar's size is 1..4096 pixels, got {size}")
    colour = background(name) if backdrop is None else backdrop
    if len(colour) != 6 or any(ch not in "0123456789abcdefABCDEF" for ch in colour):
        raise AvatarError(f"a background is six hex digits, got {colour!r}")
    try:
        from dicebear import Avatar

        options = {"seed": name, "size": size, "backgroundColor": [colour]}
        return str(Avatar(_style(), options).to_string())
    except ImportError as exc:
        raise AvatarError(f"cannot draw avatars: {exc}") from None


@functools.lru_cache(maxsize=256)
def avatar_pixels(name: str, backdrop: str | None = None) -> tuple[tuple[Pixel, ...], ...]:
    """The 16 x 16 pixels of ``name``'s avatar, rows from the top: RGB, or None if clear."""
    try:
        import cairosvg  # type: ignore[import-untyped]
        from PIL import Image
    except (ImportError, OSError) as exc:  # OSError: the system has no Cairo library
        raise AvatarError(f"cannot draw avatars: {exc}") from None
    svg = avatar_svg(name, PIXELS, backdrop).encode()
    png = cairosvg.svg2png(bytestring=svg, output_width=PIXELS, output_height=PIXELS)
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    rows = []
    for y in range(PIXELS):
        row: list[Pixel] = []
        for x in range(PIXELS):
            r, g, b, a = image.getpixel((x, y))  # type: ignore[misc]
            row.append((r, g, b) if a >= 128 else None)
        rows.append(tuple(row))
    return tuple(rows)


def avatar_text(
    name: str, *, small: bool = False, color: bool = True, backdrop: str | None = None
) -> Text:
    """``name``'s avatar as lines of terminal text (16 x 8 cells, or 8 x 4 when ``small``).

    With ``color`` each cell is ``▀`` coloured by two pixels; without, each cell is an ASCII
    character of the two pixels' mean brightness (clear pixels count as the page).
    """
    grid = avatar_pixels(name, backdrop)
    step = 2 if small else 1
    rows = [row[::step] for row in grid[::step]]
    text = Text(no_wrap=True, end="")
    for top, bottom in zip(rows[0::2], rows[1::2], strict=True):
        if text:
            text.append("\n")
        for upper, lower in zip(top, bottom, strict=True):
            if color:
                fg = _rgb(upper) if upper else "default"
                bg = _rgb(lower) if lower else "default"
                text.append("▀", style=f"{fg} on {bg}")
            else:
                text.append(RAMP[min(len(RAMP) - 1, int(_light(upper, lower) * len(RAMP)))])
    return text


def _rgb(pixel: tuple[int, int, int]) -> str:
    return f"rgb({pixel[0]},{pixel[1]},{pixel[2]})"


def _light(*pixels: Pixel) -> float:
    """Mean brightness 0..1 of pixels (a clear one is white paper)."""
    total = 0.0
    for p in pixels:
        total += 1.0 if p is None else (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) / 255
    return total / len(pixels)


def difference(
    a: str, b: str, backdrop_a: str | None = None, backdrop_b: str | None = None
) -> float:
    """How different two names' avatars look: the share of pixels whose colours differ
    noticeably (0: the same drawing, 1: no pixel alike)."""
    pa, pb = avatar_pixels(a, backdrop_a), avatar_pixels(b, backdrop_b)
    unlike = 0
    for ra, rb in zip(pa, pb, strict=True):
        for x, y in zip(ra, rb, strict=True):
            if x is None or y is None:
                unlike += (x is None) != (y is None)
            elif sum(abs(i - j) for i, j in zip(x, y, strict=True)) > 60:
                unlike += 1
    return unlike / (PIXELS * PIXELS)


__all__ = [
    "AvatarError",
    "avatar_pixels",
    "avatar_svg",
    "avatar_text",
    "background",
    "difference",
    "seat_backgrounds",
]
