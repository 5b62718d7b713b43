"""Built-in bots take options as games do: ``pimc(worlds=20, max_seconds=0.2)``."""

from __future__ import annotations

import pytest

from tricktable.bots import make_bot
from tricktable.bots.ismcts import IsmctsBot
from tricktable.bots.pimc import PimcBot
from tricktable.errors import BotError


def test_options_reach_the_constructor_typed() -> None:
    bot = make_bot("pimc(worlds=7, max_seconds=none, inference=false, mismatch=0.5)")
    assert isinstance(bot, PimcBot)
    assert (bot.worlds, bot.max_seconds, bot.inference, bot.mismatch) == (7, None, False, 0.5)
    assert isinstance(make_bot("ISMCTS()"), IsmctsBot)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc(world=3)", "has no option 'world'; its options: worlds"),
        ("pimc(worlds=many)", "option worlds='many' is not a whole number"),
        ("pimc(worlds=0)", "at least one world"),
        ("pimc(worlds)", "write NAME\\(option=value"),
    ],
)
def test_bad_options_are_one_line(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message) as caught:
        make_bot(spec)
    assert "\n" not in str(caught.value)
