"""The ``expert`` level: the strongest bot of each game, chosen as the match starts, playing
exactly as that bot plays."""

from __future__ import annotations

import pytest

from tricktable.bots import make_bot
from tricktable.characters import expert
from tricktable.characters.expert import ISMCTS, ExpertBot, expert_spec
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.runner import MatchSpec, run_match
from tricktable.search.solver import fast

#: the expert of Hearts at four, five and six seats and of Filippa: ismcts with the greedy
#: playouts, measured stronger there
HEARTS = "ismcts(iterations=500,max_seconds=0.5,playout=greedy)"
#: a pimc that searches a few worlds, without a clock: the same moves on every machine
CHEAP = "pimc(max_seconds=none,worlds=3,bid_worlds=2)"


def test_the_expert_of_each_game() -> None:
    bot = make_bot("expert")
    assert isinstance(bot, ExpertBot) and bot.name == "expert"
    pimc = "pimc(max_seconds=0.5)" if fast.available() else ISMCTS
    cases = [("setback", pimc), ("ten-point-pitch", pimc), ("hearts", HEARTS), ("spades", pimc)]
    cases += [("euchre", pimc), ("spades(players=3)", ISMCTS), ("euchre(players=3)", ISMCTS)]
    cases += [("hearts-3", ISMCTS), ("hearts(players=5)", HEARTS), ("filippa", HEARTS)]
    cases += [("hearts(players=6)", HEARTS), ("hearts(players=3)", ISMCTS)]
    for spec, name in [*cases, ("oh-hell", ISMCTS)]:
        assert expert_spec(load_game(spec)) == name
    bot.start_match(load_game("hearts"), 0, 1)
    assert bot.name == "ismcts" and getattr(bot._playing(), "playout", None) == "greedy"
    bot.start_match(load_game("setback(players=6,partners=3x2)"), 3, 1)
    assert bot.name == ("pimc" if fast.available() else "ismcts")
    bot.close()
    # With options, the level is ismcts with them (docs/characters.md).
    assert make_bot("expert(iterations=50)").name == "ismcts"


def test_spades_and_euchre_experts_are_ismcts_without_dds(monkeypatch: pytest.MonkeyPatch) -> None:
    from tricktable.search.solver import dds

    monkeypatch.setattr(dds, "available", lambda: False)
    assert expert_spec(load_game("spades")) == ISMCTS
    assert expert_spec(load_game("euchre")) == ISMCTS
    assert expert_spec(load_game("hearts")) == HEARTS  # no solver, no DDS: its own
    monkeypatch.setattr(fast, "available", lambda: False)
    assert expert_spec(load_game("hearts")) == HEARTS
    monkeypatch.undo()
    monkeypatch.setattr(dds, "available", lambda: False)
    assert expert_spec(load_game("setback")) == (
        "pimc(max_seconds=0.5)" if fast.available() else ISMCTS
    )


def test_it_plays_as_the_bot_it_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert, "STRONGEST", {"setback": CHEAP})
    monkeypatch.setattr(expert, "_solver_compiled", lambda: True)
    players = ("expert", "heuristic", "expert", "heuristic")
    spec = MatchSpec("setback", players, seed=5, max_hands=1)
    alone = MatchSpec("setback", (CHEAP, "heuristic", CHEAP, "heuristic"), seed=5, max_hands=1)
    got, want = run_match(spec), run_match(alone)
    assert got.faults == () and want.faults == ()
    assert got.record["hands"] == want.record["hands"]  # every bid and card the same


def test_unstarted_it_says_so_in_one_line() -> None:
    with pytest.raises(BotError, match="not started"):
        ExpertBot().act(load_game("setback").new_state(1).view(0))
