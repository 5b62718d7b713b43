"""Avatars: deterministic from the name, distinct at a table, drawable in any terminal."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tricktable.avatars import (
    BACKGROUNDS,
    AvatarError,
    avatar_name,
    avatar_pixels,
    avatar_svg,
    avatar_text,
    background,
    difference,
    seat_backgrounds,
)

NAMES = [
    "edna", "vinnie", "rosa", "you", "heuristic", "pimc", "random", "ismcts", "North", "East",
    "South", "West", "Alice", "Bob", "human", "cfr", "club", "expert", "beginner", "Zoë",
]  # fmt: skip


def test_the_same_name_draws_the_same_avatar_in_another_process() -> None:
    here = avatar_svg("edna", 48)
    code = "from tricktable.avatars import avatar_svg; print(avatar_svg('edna', 48), end='')"
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert here == there
    root = ET.fromstring(here)
    assert root.tag.endswith("svg") and root.get("width") == "48" and root.get("height") == "48"
    assert avatar_svg("edna", 48) != avatar_svg("vinnie", 48)


def test_four_seats_at_a_table_differ_at_a_glance() -> None:
    rng = random.Random(7)
    worst = 1.0
    for _ in range(60):
        names = rng.sample(NAMES, 4)
        backs = seat_backgrounds(names)
        assert len(set(backs)) == 4
        for i, j in itertools.combinations(range(4), 2):
            worst = min(worst, difference(names[i], names[j], backs[i], backs[j]))
    # Different backgrounds alone make about half the pixels unlike.
    assert worst > 0.4
    assert difference("rosa", "rosa") == 0.0


def test_backgrounds_are_far_apart_and_picked_by_the_name() -> None:
    def distance(x: str, y: str) -> int:
        return sum(abs(int(x[k : k + 2], 16) - int(y[k : k + 2], 16)) for k in (0, 2, 4))

    assert min(distance(x, y) for x, y in itertools.combinations(BACKGROUNDS, 2)) > 80
    assert background("edna") == background("edna") in BACKGROUNDS
    assert seat_backgrounds(["edna", "edna"])[0] == background("edna")


def test_terminal_drawings_have_their_sizes_and_ascii_has_no_colour() -> None:
    big = avatar_text("vinnie")
    assert big.plain.split("\n") == ["▀" * 16] * 8
    assert any(span.style for span in big.spans)
    small = avatar_text("vinnie", small=True, color=False)
    lines = small.plain.split("\n")
    assert len(lines) == 4 and all(len(line) == 8 for line in lines)
    assert small.plain.isascii() and not small.spans
    assert len({avatar_text(n, color=False).plain for n in NAMES}) == len(NAMES)


def test_pixels_show_the_background_around_the_face() -> None:
    grid = avatar_pixels("rosa")
    assert len(grid) == 16 and all(len(row) == 16 for row in grid)
    corner = grid[0][0]
    assert corner is not None and "{:02x}{:02x}{:02x}".format(*corner) == background("rosa")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: avatar_svg("x", 0), "1..4096"),
        (lambda: avatar_svg("x", 16, "red"), "six hex digits"),
    ],
)
def test_bad_arguments_are_one_line_errors(call: object, message: str) -> None:
    with pytest.raises(AvatarError, match=message):
        call()  # type: ignore[operator]


def test_a_terminal_table_shows_each_seats_avatar_and_a_pipe_does_not() -> None:
    import io

    from rich.console import Console

    from tricktable.games import load_game
    from tricktable.ui.terminal import TableDisplay

    players = ["you", "vinnie", "edna", "rosa"]
    for terminal, colour in ((True, "truecolor"), (True, None), (False, None)):
        out = io.StringIO()
        console = Console(file=out, force_terminal=terminal, color_system=colour, width=100)
        display = TableDisplay(console, load_game("setback"), ["You", "West", "North", "East"])
        display.show_seats(players)
        text = out.getvalue()
        assert "Seats: You: you" in text
        if terminal and colour:
            assert text.count("▀") == 4 * 8 * 4  # four drawings of 8 x 4 cells
        elif terminal:
            assert "▀" not in text and "vinnie" in text.split("Seats:")[0]
        else:
            assert text.split("Seats:")[0] == ""  # a pipe keeps its one line


def test_a_player_has_one_face_however_it_is_named() -> None:
    # A record's label, a spec made a label, and the name the TUI shows: one name, one face.
    assert avatar_name("bot:edna") == avatar_name("Edna") == "Edna"
    assert avatar_name("bot:heuristic") == avatar_name("Heuristic") == "Heuristic"
    assert avatar_name("bot:pimc(worlds=20)") == "Pimc"
    assert avatar_name("you") == "you" and avatar_name("Alice") == "Alice"
    for label in ("bot:edna", "bot:heuristic", "bot:cmd:./bot", "bot:ismcts(iterations=9)",
                  "human", "Alice", "you"):  # fmt: skip
        assert avatar_name(avatar_name(label)) == avatar_name(label), label


def test_the_terminal_draws_faces_from_labels_not_from_what_it_prints() -> None:
    import io

    from rich.console import Console

    from tricktable.games import load_game
    from tricktable.ui.terminal import TableDisplay

    def seats(players: list[str], labels: list[str] | None) -> str:
        out = io.StringIO()
        console = Console(file=out, force_terminal=True, color_system="truecolor", width=120)
        display = TableDisplay(console, load_game("setback"), ["You", "West", "North", "East"])
        display.show_seats(players, labels)
        return out.getvalue()

    # What a replay prints beside the seats (ui/account.py), and the record's labels.
    printed = ["seat 0, alice", "seat 1, bot:edna", "seat 2, bot:heuristic", "seat 3, bot:kit"]
    labels = ["alice", "bot:edna", "bot:heuristic", "bot:kit"]
    shown = ["alice", "Edna", "Heuristic", "Kit"]  # the TUI's names of the same seats
    assert seats(printed, labels) == seats(printed, shown)
    assert seats(printed, labels) != seats(printed, None)  # faces of "seat 0, alice"...
    assert "▀" not in seats(printed, [])  # no labels: no faces
