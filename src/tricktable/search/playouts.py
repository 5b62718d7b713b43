"""How ``ismcts`` plays a sampled hand out past its tree: uniformly random, or greedily.

A playout is the rest of one sampled world's hand, played to its end to score the tree's
path. ``random`` plays uniformly random legal cards: a few microseconds a card, any game.
``greedy`` is written for the Hearts family (Hearts, Filippa), where random play is a poor
model of anyone: a random follower wins tricks it could duck and keeps the Q♠ it could dump,
so a playout charges points to whoever happens to hold high cards, not to whoever plays
badly. Its rules are the ones every Hearts player learns first, on masks (no view, no
heuristic bot), and cost no more than a random card: measured, a whole four-seat playout
from the first trick takes about 115 µs either way, most of it the engine's ``apply``:

- **lead** the lowest card of a suit chosen at random among those legal;
- **follow** with the highest card under the trick's best (duck), or, when every card wins,
  the lowest — but the last to play, who takes the trick anyway, sheds the highest (never
  the Q♠ while another card is legal);
- **discard** the Q♠, else the highest heart, else the highest card.

One card in ten is played at random instead (``EXPLORE``), so a playout is not one fixed line
and the tree still sees the others' mistakes. Moon shooting is not played for: a playout
scores a moon only where the cards fall that way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tricktable.cards import HEARTS, QUEEN, SPADES, SUIT_MASKS, card_of
from tricktable.engine.trick import PLAY, Game, TrickState
from tricktable.errors import BotError

#: how often a greedy playout plays a random card instead of its rule's
EXPLORE: Final = 0.1

_QS_BIT: Final = 1 << card_of(SPADES, QUEEN)
_HEARTS_MASK: Final = SUIT_MASKS[HEARTS]

Playout = Callable[[TrickState, random.Random], None]


def random_playout(world: TrickState, rng: random.Random) -> None:
    """Play the rest of the hand with uniformly random legal cards."""
    while world.phase == PLAY:
        mask = world.legal_mask()
        for _ in range(rng.randrange(mask.bit_count())):
            mask &= mask - 1
        world.apply((mask & -mask).bit_length() - 1)


def hearts_playout(world: TrickState, rng: random.Random) -> None:
    """Play the rest of a Hearts hand by the greedy rules of the module's docstring."""
    while world.phase == PLAY:
        mask = world.legal_mask()
        if mask & (mask - 1) == 0:
            world.apply(mask.bit_length() - 1)
        elif rng.random() < EXPLORE:
            for _ in range(rng.randrange(mask.bit_count())):
                mask &= mask - 1
            world.apply((mask & -mask).bit_length() - 1)
        else:
            world.apply(hearts_card(world, mask, rng))


def hearts_card(world: TrickState, mask: int, rng: random.Random) -> int:
    """The greedy rule's card among the legal ``mask`` (two or more cards)."""
    if not world.trick:
        suits = [m for m in SUIT_MASKS if mask & m]
        held = mask & suits[rng.randrange(len(suits))]
        return (held & -held).bit_length() - 1
    follow = mask & world.lead_mask
    if follow:
        # Hearts has no trump: the best power is the rank of the best card of the suit led,
        # and the cards below it in that suit are those under its bit.
        low = world.lead_mask & -world.lead_mask
        under = follow & ((low << world.best_power) - 1)
        if under:
            return under.bit_length() - 1
        if len(world.trick) == world.trick_size - 1:
            shed = follow & ~_QS_BIT or follow
            return shed.bit_length() - 1
        return (follow & -follow).bit_length() - 1
    if mask & _QS_BIT:
        return _QS_BIT.bit_length() - 1
    hearts = mask & _HEARTS_MASK
    if hearts:
        return hearts.bit_length() - 1
    best, best_rank = -1, -1
    for suit, suit_mask in enumerate(SUIT_MASKS):
        held = mask & suit_mask
        if held and held.bit_length() - 1 - 13 * suit > best_rank:
            best = held.bit_length() - 1
            best_rank = best - 13 * suit
    return best


#: the playouts by the name ``ismcts(playout=...)`` takes
PLAYOUTS: Final = ("random", "greedy")


#: the tables (a game's name, its seats) where ismcts with greedy playouts was measured
#: stronger than with random ones, duplicate, 95% interval above 0 at 500 iterations a
#: decision (docs/strength.md): the greedy playout's mean margin a deal [interval], deals
GREEDY_MEASURED: Final = {
    ("hearts", 4): "+1.77 [+1.14, +2.40] penalty points, 1,000 deals",
    ("hearts", 5): "+1.11 [+0.59, +1.63] penalty points, 100 deals",
    ("hearts", 6): "+1.75 [+0.36, +3.14] penalty points, 200 deals",
    ("filippa", 4): "+4.86 [+2.86, +6.86] points, 200 deals",
}


def measured_playout(game: Game) -> str:
    """The playout ismcts was measured strongest with in ``game``: greedy at the tables of
    :data:`GREEDY_MEASURED`, random elsewhere (every other Hearts table may take ``greedy``
    too, but no measurement says it is better there)."""
    return "greedy" if (game.name, game.num_players) in GREEDY_MEASURED else "random"


def playout_for(name: str, game: Game) -> Playout:
    """The playout called ``name`` for ``game``: a :class:`BotError` where it has none."""
    if name == "random":
        return random_playout
    if name == "greedy":
        if game.family == "Hearts":  # Hearts at 3-6 seats and Filippa: no trump, Q♠ and ♥
            return hearts_playout
        raise BotError(f"ismcts's greedy playout is written for Hearts, not {game.name}")
    raise BotError(f"ismcts has no playout {name!r}; its playouts: {', '.join(PLAYOUTS)}")
