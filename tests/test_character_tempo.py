"""A character's tempo follows its table's pace: no pause where the table shows every move at
once (``run(tempo=0)``: a server at ``--pace 0``, a test), the style's own at the TUI's pace."""

from __future__ import annotations

import asyncio

import pytest

from tricktable.characters import bot as character_bot
from tricktable.characters.bot import CharacterBot
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.table import Person, Table
from tricktable.table.driver import run


def _sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(character_bot.time, "sleep", slept.append)
    return slept


class Everyone(Person):
    """A person who plays the first legal action as soon as it is their turn."""

    async def attend(self, table: Table, seat: int) -> None:
        while await table.wait_for_turn(seat):
            table.submit(seat, table.state.legal_actions()[0])


def _hand(tempo: float | None) -> list[CharacterBot]:
    table = Table(load_game("setback"), [Everyone(), "moe", "edna", "vinnie"], seed=5)
    characters = [p for p in table.players if isinstance(p, CharacterBot)]
    assert all(c.paced for c in characters)  # a person sits: the characters are paced
    try:
        asyncio.run(run(table, max_hands=1, tempo=tempo))
    finally:
        table.close()
    return characters


def test_a_character_at_pace_zero_never_sleeps(monkeypatch: pytest.MonkeyPatch) -> None:
    slept = _sleeps(monkeypatch)
    characters = _hand(0.0)
    assert all(c.tempo_scale == 0.0 for c in characters)
    assert slept == []


def test_a_character_keeps_its_tempo_where_the_table_takes_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slept = _sleeps(monkeypatch)
    characters = _hand(None)
    assert all(c.tempo_scale == 1.0 for c in characters)
    assert slept and all(s > 0 for s in slept)


def test_a_negative_tempo_is_refused() -> None:
    table = Table(load_game("setback"), [Everyone(), "moe", "edna", "vinnie"], seed=5)
    try:
        with pytest.raises(TricktableError, match="tempo"):
            asyncio.run(run(table, tempo=-1.0))
    finally:
        table.close()
