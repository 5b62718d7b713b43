"""What a character is: a style over a base bot, a voice, a name; and the basics it keeps.

A :class:`Style` is a handful of numbers. Each reaches play through one documented hook of
the game's heuristic (``boldness``: the Pitch, Spades, Euchre and Oh Hell heuristics;
``lead_trump``: the Pitch heuristic's leads) or through the character's own seat
(``risk``: how the boldness moves with the score; ``tempo``: a pause at people's tables).
The rest is talk: how likely the character speaks at each kind of event, how much a hand,
its mood. :func:`keep_basics` is the one rule of partnership play no style may break.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tricktable.engine.trick import View, trick_winner
from tricktable.engine.trick import strength as card_strength

#: the event kinds a voice may speak at (see :mod:`tricktable.characters.talk`); the answers
#: to people's chat are the last five
KINDS: tuple[str, ...] = (
    "deal",
    "bid_self",
    "bid_partner",
    "bid_opponent",
    "nil",
    "call",
    "alone",
    "jack_us",
    "jack_them",
    "joker_us",
    "joker_them",
    "queen_me",
    "queen_other",
    "partner_fine",
    "partner_poor",
    "set_us",
    "set_them",
    "hand_good",
    "hand_bad",
    "match_point_us",
    "match_point_them",
    "win",
    "lose",
    "greet",
    "thanks",
    "retort",
    "score",
    "named",
)

#: the fields a line may use: ``{name}`` (whom the event is about), ``{partner}``, ``{me}``,
#: ``{card}`` (a card already played, face up), ``{bid}``, ``{us}``/``{them}`` (scores)
FIELDS: tuple[str, ...] = ("name", "partner", "me", "card", "bid", "us", "them")


@dataclass(frozen=True)
class Style:
    """How a character plays and talks (every field 0 or empty is the plain base bot, mute).

    - ``boldness``: added to the bidding heuristic's estimate, in the game's own unit (Pitch
      points, Spades and Oh Hell tricks, Euchre's count): positive bids more often and higher.
    - ``risk``: boldness added per unit of score pressure (behind by the whole target: +risk;
      ahead: less), so a gambler pushes when losing and a careful player sits on a lead.
    - ``lead_trump``: Pitch only, points added to the value of leading a trump (negative:
      side suits first).
    - ``tempo``: seconds of pause before acting, at tables where people sit only (never in
      simulations, duels or tournaments: see :class:`~tricktable.characters.bot.CharacterBot`).
    - ``talk``: the chance of speaking at each event kind of :data:`KINDS` (missing: never).
    - ``budget``: the most lines a hand about the play (answers to people are apart).
    - ``mood``: where the mood starts, -1 (sour) to 1 (sunny); ``temper``: how far good and
      bad fortune move it. A voice's ``KIND+`` and ``KIND-`` lines are said in a sunny or sour
      mood.
    """

    boldness: float = 0.0
    risk: float = 0.0
    lead_trump: float = 0.0
    tempo: float = 0.0
    talk: Mapping[str, float] = field(default_factory=dict, hash=False)
    budget: int = 2
    mood: float = 0.0
    temper: float = 0.3


@dataclass(frozen=True)
class Character:
    """A named player: a style, a voice (lines by event kind), and a base bot for card play.

    ``base`` is the player spec of the bot that plays the cards (``heuristic``: the game's
    own, styled; ``ismcts(...)``, ``pimc(...)``: a search bot, where it plays the game; the
    styled heuristic still bids). ``title`` is shown in listings.
    """

    name: str
    display: str
    title: str
    style: Style
    voice: Mapping[str, tuple[str, ...]]
    base: str = "heuristic"


# ------------------------------------------------------------------------------ the basics


def partners_of(view: View) -> tuple[int, ...]:
    """The seat's partners (one at four seats, two at six as two sides of three), or none
    where each plays alone."""
    game = view.game
    if game.num_scores >= game.num_players:
        return ()
    team = game.team_of(view.seat)
    return tuple(
        seat for seat in range(game.num_players) if seat != view.seat and game.team_of(seat) == team
    )


def partner_of(view: View) -> int:
    """The seat's first partner, or -1 where each plays alone."""
    partners = partners_of(view)
    return partners[0] if partners else -1


def trick_leader(view: View) -> tuple[int, int]:
    """(seat, strength) of the card winning the trick in play (the trick must not be empty)."""
    tables = view.tables
    trick = view.trick
    i = trick_winner(tables, [card for _, card in trick])
    seat, card = trick[i]
    return seat, card_strength(tables, card, tables.suit_mask[trick[0][1]])


def beats(view: View, card: int, strength: int) -> bool:
    """Whether ``card`` played now beats a card of ``strength`` in the trick in play."""
    tables = view.tables
    return card_strength(tables, card, tables.suit_mask[view.trick[0][1]]) > strength


def last_to_play(view: View) -> bool:
    """Whether this seat's card is the last of the trick in play."""
    info: dict[str, Any] = view.info()
    size = view.game.num_players - (1 if info.get("sitting_out") is not None else 0)
    return len(view.trick) == size - 1


def overtakes_partner(view: View, card: int) -> bool:
    """Whether ``card`` takes the trick from a partner sure to win it (this seat plays last)."""
    partners = partners_of(view)  # first: a game without partners asks nothing more
    if not partners or not view.trick or not last_to_play(view):
        return False
    seat, strength = trick_leader(view)
    return seat in partners and beats(view, card, strength)


def keep_basics(view: View, card: int, legal: list[int]) -> int:
    """``card``, unless it breaks a basic a partner relies on: then the nearest card that
    keeps it.

    The basic kept here: **never take a trick the partner is sure to win** (playing last to
    it): with a choice, a card that does not overtake is played, the weakest of them (the
    partner's trick gathers whatever is thrown). Following suit is the engine's; a
    character's bidding never raises its partner's contract (see ``CharacterBot``).
    """
    if card not in legal or not overtakes_partner(view, card):
        return card
    # The partner's card leads the trick: a card overtakes it if it is stronger.
    tables = view.tables
    _, best = trick_leader(view)
    led = tables.suit_mask[view.trick[0][1]]
    power = tables.power
    keep = [c for c in legal if card_strength(tables, c, led) <= best]
    if not keep:
        return card  # every card overtakes: nothing to choose
    return min(keep, key=lambda c: (power[c], c))


def pressure(view: View) -> float:
    """How far behind the seat's side is, as a share of the target: -1 (far ahead) to 1.

    0 where a game has no target to race to, or where the lower score wins.
    """
    game = view.game
    target = getattr(game.options, "target", 0)
    if not isinstance(target, int) or target <= 0 or game.lower_wins:
        return 0.0
    scores = view.scores
    if not scores:
        return 0.0
    team = game.team_of(view.seat)
    ours = scores[team]
    theirs = max(s for i, s in enumerate(scores) if i != team)
    return max(-1.0, min(1.0, (theirs - ours) / target))
