"""Playing a match between bots: the loop every command, tournament and table uses."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tricktable.bots.base import Bot
from tricktable.engine.trick import Game, TrickState
from tricktable.errors import BotError, IllegalAction
from tricktable.seeds import derive_seed

#: called after every action with (state, seat, action)
Listener = Callable[[TrickState, int, int], None]


def start_bots(game: Game, bots: Sequence[Bot], seed: int) -> None:
    """Tell each bot its seat and its own seed for a new match."""
    if len(bots) != game.num_players:
        raise BotError(f"{game.name} needs {game.num_players} players, got {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.start_match(game, seat, derive_seed(seed, "seat", seat))


def play_hand(state: TrickState, bots: Sequence[Bot], listener: Listener | None = None) -> None:
    """Deal and play one hand to its end."""
    state.deal()
    views = [state.view(s) for s in range(len(bots))]
    apply = state.apply
    while state.to_act >= 0:
        seat = state.to_act
        action = bots[seat].act(views[seat])
        try:
            apply(action)
        except IllegalAction as exc:
            raise BotError(f"bot {bots[seat].name!r} at seat {seat}: {exc}") from None
        if listener is not None:
            listener(state, seat, action)
    result = state.results[-1]
    for seat, bot in enumerate(bots):
        bot.end_hand(views[seat], result)


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    listener: Listener | None = None,
    max_hands: int | None = None,
) -> TrickState:
    """Play a match (or its first ``max_hands`` hands) and return the final state."""
    start_bots(game, bots, seed)
    state = game.new_state(seed)
    while not state.is_over and (max_hands is None or len(state.history) < max_hands):
        play_hand(state, bots, listener)
    for seat, bot in enumerate(bots):
        bot.end_match(state.view(seat))
    return state
