"""Characters and levels (tricktable.characters): made by name, their style measured in play,
the basics a partner relies on kept, tempo only where people sit."""

from __future__ import annotations

from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.bots.random_bot import RandomBot
from tricktable.characters import find_player, player_names
from tricktable.characters.bot import BeginnerBot, CharacterBot
from tricktable.characters.roster import CHARACTERS
from tricktable.characters.style import overtakes_partner, partners_of
from tricktable.engine.actions import BID, PASS
from tricktable.engine.trick import PLAY, Game, View
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.runner import MatchSpec, run_match
from tricktable.table import Person, Table


def test_six_characters_and_three_levels_by_name() -> None:
    assert len(CHARACTERS) >= 6
    assert {"edna", "vinnie", "rosa"} <= set(CHARACTERS)
    for name in [*CHARACTERS, "beginner", "club", "expert"]:
        bot = make_bot(name)
        assert isinstance(bot, Bot)
        bot.close()
    assert len({c.style for c in CHARACTERS.values()}) == len(CHARACTERS)  # all distinct
    assert isinstance(make_bot("Edna"), CharacterBot)
    assert make_bot("club").name == "heuristic"
    assert make_bot("expert").name == "expert"  # until a match starts: tests/test_expert.py
    assert set(player_names()) >= {*CHARACTERS, "beginner", "club", "expert"}
    assert find_player("cmd:./bot") is None


def test_options_and_bad_names_give_one_line_errors() -> None:
    bot = make_bot("edna(base=pimc)")
    assert isinstance(bot, CharacterBot) and bot.base == "pimc"
    assert isinstance(make_bot("beginner(mistakes=0.5)"), BeginnerBot)
    assert make_bot("expert(iterations=50)").name == "ismcts"
    for spec, said in [
        ("edna(base=edna)", "built-in bot"),
        ("edna(bold=1)", "no option"),
        ("beginner(mistakes=2)", "share from 0 to 1"),
        ("nobody", "vinnie"),  # the error lists the characters
    ]:
        with pytest.raises(BotError, match=said):
            make_bot(spec)


def _bids(player: str, game: str, seeds: range) -> list[int]:
    """Seat 0's bids (0: a pass) over seeded matches of ``player`` among heuristic bots."""
    bids = []
    for seed in seeds:
        outcome = run_match(
            MatchSpec(game, (player, "heuristic", "heuristic", "heuristic"), seed=seed, max_hands=8)
        )
        state = outcome.state
        assert state is not None
        for log in state.history:
            for seat, action in zip(log.actors, log.actions, strict=True):
                if seat == 0 and (action == PASS or BID <= action < BID + 14):
                    bids.append(action - BID if action >= BID else 0)
    return bids


def _rate_and_mean(bids: list[int]) -> tuple[float, float]:
    made = [b for b in bids if b > 0]
    return len(made) / len(bids), sum(made) / max(len(made), 1)


def test_the_bold_bid_more_often_and_higher_than_the_cautious() -> None:
    seeds = range(12)
    bold, plain, cautious = (_bids(p, "setback", seeds) for p in ("vinnie", "heuristic", "edna"))
    assert len(bold) == len(plain) == len(cautious)  # the same deals: paired
    rates = [_rate_and_mean(b) for b in (bold, plain, cautious)]
    print(f"\nSetback bids (share, mean): vinnie {rates[0]}, heuristic {rates[1]}, edna {rates[2]}")
    assert rates[0][0] > rates[1][0] > rates[2][0]
    assert rates[0][1] > rates[2][1]


def test_the_bold_bid_more_tricks_in_spades() -> None:
    bold, cautious = (_bids(p, "spades", range(4)) for p in ("vinnie", "edna"))
    assert sum(bold) > sum(cautious)


class Watched(Bot):
    """A player under watch: counts the decisions where it took a trick its partner was sure
    to win though it had a card that did not, and where its bid differed from the plain
    heuristic's over a partner's high bid."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "watched")
        self.overtook = 0
        self.raised_partner = 0
        self.plays = 0

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.inner.start_match(game, seat, seed)
        self.plain = make_bot("heuristic")
        self.plain.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        action = self.inner.act(view)
        legal = view.legal_actions()
        if view.phase == PLAY:
            self.plays += 1
            if overtakes_partner(view, action) and any(
                not overtakes_partner(view, c) for c in legal
            ):
                self.overtook += 1
        else:
            info: dict[str, Any] = view.info()
            if info.get("high_bidder") in partners_of(view):
                self.raised_partner += action != self.plain.act(view)
        return action

    def close(self) -> None:
        self.inner.close()


@pytest.mark.parametrize(
    "game",
    [
        "setback",
        "smear",
        "spades",
        "euchre",
        "pedro",
        "setback(partners=3x2,players=6)",  # partners opposite: 0 and 3
        "setback(players=6)",  # two partners each: 0, 2 and 4
    ],
)
def test_no_character_overtakes_a_partner_sure_to_win(game: str) -> None:
    players: list[Watched] = []
    n = load_game(game).num_players
    for seed in range(2):
        cast = [*CHARACTERS, "beginner(mistakes=1)"]
        names = [cast[(seed * 4 + s) % len(cast)] for s in range(n)]
        names = [n if n != "ada" else "ada(base=heuristic)" for n in names]
        watched = [Watched(make_bot(n)) for n in names]
        run_match(
            MatchSpec(game, tuple(names), seed=seed, max_hands=6), bots=dict(enumerate(watched))
        )
        players += watched
    assert sum(p.plays for p in players) > 100
    assert sum(p.overtook for p in players) == 0
    assert sum(p.raised_partner for p in players) == 0


def test_the_basics_check_catches_a_player_that_breaks_them() -> None:
    watched = [Watched(RandomBot()) for _ in range(4)]
    run_match(
        MatchSpec("setback", ("random",) * 4, seed=1, max_hands=20), bots=dict(enumerate(watched))
    )
    assert sum(p.overtook for p in watched) > 0  # random play overtakes: the check can fail


def test_a_character_searches_the_play_where_its_base_can() -> None:
    outcome = run_match(
        MatchSpec("setback", ("ada", "heuristic", "heuristic", "heuristic"), seed=2, max_hands=1)
    )
    assert outcome.result.hands == 1 and not outcome.faults
    # pimc plays only the Pitch family: elsewhere the styled heuristic plays the cards
    outcome = run_match(
        MatchSpec("hearts", ("edna(base=pimc)",) + ("heuristic",) * 3, seed=2, max_hands=1)
    )
    assert outcome.result.hands == 1 and not outcome.faults


def test_levels_play_every_game() -> None:
    for game in ["setback", "hearts", "spades", "euchre", "oh-hell", "tricks", "filippa"]:
        n = load_game(game).num_players
        players = ("beginner", "club") * (n // 2)
        outcome = run_match(MatchSpec(game, players, seed=3, max_hands=2))
        assert not outcome.faults, game


def test_the_beginner_makes_mistakes_the_club_player_does_not() -> None:
    def moves(player: str) -> list[int]:
        outcome = run_match(MatchSpec("setback", (player, "heuristic") * 2, seed=9, max_hands=6))
        assert outcome.state is not None
        return [a for log in outcome.state.history for a in log.actions]

    assert moves("club") == moves("heuristic")
    assert moves("beginner") != moves("heuristic")
    assert moves("beginner(mistakes=0)") == moves("heuristic")


def test_tempo_only_where_people_sit() -> None:
    people = Table(load_game("setback"), [Person(), "edna", "vinnie", "heuristic"], seed=1)
    bots = Table(load_game("setback"), ["edna", "vinnie", "rosa", "heuristic"], seed=1)
    try:
        assert [getattr(p, "paced", None) for p in people.players] == [None, True, True, None]
        assert not any(getattr(p, "paced", False) for p in bots.players)
    finally:
        people.close()
        bots.close()
    outcome = run_match(MatchSpec("setback", ("edna", "moe", "edna", "moe"), seed=1, max_hands=1))
    assert outcome.result.hands == 1  # between bots no pause: Moe's 2 s a decision would show


def test_a_paced_character_pauses_within_its_limits() -> None:
    import time

    from tricktable.limits import RunnerOptions

    bot = make_bot("moe", RunnerOptions(decision_time=0.2))
    assert isinstance(bot, CharacterBot)
    game = load_game("setback")
    bot.start_match(game, 0, 1)
    state = game.new_state(1)
    state.deal()
    while state.to_act != 0:
        state.apply(state.legal_actions()[0])
    bot.paced = True
    start = time.perf_counter()
    bot.act(state.view(0))
    took = time.perf_counter() - start
    assert took >= 0.04  # a quarter of the decision time: 0.05 s
    bot.close()
