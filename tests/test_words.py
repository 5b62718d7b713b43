"""The seat model's words (``tricktable.seat.words``) draw as Rich draws the same writing.

The presenters used to write Rich ``Text``; they write ``Words`` now, and the terminal draws
them through ``tricktable.ui.render``. Each case writes one line both ways, with the same
calls, and compares every character's style as a console renders it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from tricktable.seat.words import Words, combine
from tricktable.ui.render import rich_text

CONSOLE = Console()


def _styles(text: Text) -> list[str]:
    return [str(text.get_style_at_offset(CONSOLE, i)) for i in range(len(text.plain))]


def _plain_and_styles(text: Text) -> tuple[str, list[str]]:
    return text.plain, _styles(text)


def _card(kind: Any, red: bool, trump: bool) -> Any:
    style = ("red" if red else "") + (" bold" if trump else "")
    return kind("10♦" if red else "Q♠", style=style.strip())


def _underlined(text: Any) -> Any:
    text.stylize("underline")  # Rich's returns None, so no chain
    return text


CASES: dict[str, Callable[[Any], Any]] = {
    "plain": lambda k: k("North bids 3"),
    "line style": lambda k: k("Scores: 3 · 5", style="bold"),
    "appended runs": lambda k: (
        k("Trick 1 of 6", style="bold")
        .append(" · ")
        .append("trump ", style="dim")
        .append_text(_card(k, True, True))
    ),
    "join": lambda k: k(" · ").join([_card(k, True, False), k("x", style="green"), k("y")]),
    "styled separator": lambda k: k(", ", style="dim").join([k("a"), k("b", style="red")]),
    "stylize": lambda k: _underlined(_card(k, True, False)),
    "colour over colour": lambda k: k("", style="green").append_text(k("win", style="red")),
    "a line inside a styled line": lambda k: k(style="bold").append_text(
        k("Bidding: ", style="bold").append_text(_card(k, False, True))
    ),
    "add": lambda k: k("You ", style="bold") + _card(k, True, True),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_words_draw_as_rich_draws_the_same_writing(case: str) -> None:
    write = CASES[case]
    assert _plain_and_styles(rich_text(write(Words))) == _plain_and_styles(write(Text))


def test_a_style_is_written_one_way() -> None:
    assert combine("red bold") == "bold red"
    assert combine("red", "green") == "green"
    assert combine("bold", "dim red", "on white") == "bold dim red on white"
    assert combine("none", "") == ""


def test_words_compare_by_what_they_say() -> None:
    one = Words("a").append("b", style="bold")
    other = Words("a").append("b", style="red bold")
    assert one != other
    assert Words("ab") == Words("a").append("b")
    assert "North" in Words("North bids")
    assert len(Words("10♦")) == 3 and str(Words("x")) == "x"
