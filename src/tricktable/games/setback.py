"""Setback exactly as RULES.md: 53 cards, six each, one round of bids, first lead names trump.

Every decision marked (option) in RULES.md is a field of :class:`SetbackOptions`.
Scoring is the pure function :func:`hand_points` plus :func:`score_hand`, tested with tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tricktable.cards import ACE, JACK, JOKER, JOKER_BIT, KING, QUEEN, SUIT_MASKS, SUITS, TEN
from tricktable.engine.actions import BID, PASS, PASS_BIT
from tricktable.engine.trick import AUCTION, PLAY, Game, TrickState, TrumpTables, trump_tables
from tricktable.errors import OptionError

POINT_NAMES = ("high", "low", "jack", "off_jack", "joker", "game")


@dataclass(frozen=True)
class SetbackOptions:
    """The rule options of Setback; the defaults are RULES.md's."""

    target: int = field(
        default=21,
        metadata={
            "doc": "score that ends the match when the declarers reach it",
            "range": (1, 10000),
        },
    )
    min_bid: int = field(default=2, metadata={"doc": "lowest bid", "range": (1, 6)})
    max_bid: int = field(
        default=6, metadata={"doc": "highest bid; it ends the auction at once", "range": (1, 6)}
    )
    low_to: Literal["captured", "dealt"] = field(
        default="captured",
        metadata={"doc": "Low goes to the team that captures it, or that was dealt it"},
    )
    declarer_scores: Literal["bid", "taken"] = field(
        default="bid",
        metadata={"doc": "a made bid scores the bid, or the points actually taken"},
    )

    def __post_init__(self) -> None:
        if self.min_bid > self.max_bid:
            raise OptionError(f"min_bid {self.min_bid} is above max_bid {self.max_bid}")


def _rank_bits(rank: int) -> int:
    return sum(1 << (s * 13 + rank) for s in range(4))


_TENS, _JACKS, _QUEENS, _KINGS, _ACES = (_rank_bits(r) for r in (TEN, JACK, QUEEN, KING, ACE))


def game_count(mask: int) -> int:
    """Small points in a set of cards: J 1, Q 2, K 3, A 4, 10 10 (joker and others 0)."""
    return (
        10 * (mask & _TENS).bit_count()
        + (mask & _JACKS).bit_count()
        + 2 * (mask & _QUEENS).bit_count()
        + 3 * (mask & _KINGS).bit_count()
        + 4 * (mask & _ACES).bit_count()
    )


def hand_points(
    trump: int, dealt: list[int], won: list[int], low_to: str = "captured"
) -> dict[str, int | None]:
    """Which team (0 or 1) earned each of the six points; None when not dealt or tied.

    ``dealt[seat]`` and ``won[seat]`` are card masks; teams are seats 0+2 and 1+3.
    """
    team_won = (won[0] | won[2], won[1] | won[3])
    team_dealt = (dealt[0] | dealt[2], dealt[1] | dealt[3])
    everything = team_dealt[0] | team_dealt[1]

    def owner(bit: int, masks: tuple[int, int] = team_won) -> int | None:
        if not everything & bit:
            return None
        return 0 if masks[0] & bit else 1

    trumps = everything & SUIT_MASKS[trump]
    high = 1 << (trumps.bit_length() - 1) if trumps else 0
    low = trumps & -trumps
    game0, game1 = game_count(team_won[0]), game_count(team_won[1])
    return {
        "high": owner(high),
        "low": owner(low, team_dealt if low_to == "dealt" else team_won),
        "jack": owner(1 << (trump * 13 + JACK)),
        "off_jack": owner(1 << ((3 - trump) * 13 + JACK)),
        "joker": owner(JOKER_BIT),
        "game": 0 if game0 > game1 else 1 if game1 > game0 else None,
    }


def score_hand(
    points: dict[str, int | None], declarer_team: int, bid: int, declarer_scores: str = "bid"
) -> tuple[list[int], list[int]]:
    """(points taken by each team, change of each team's score) for a finished hand."""
    taken = [0, 0]
    for team in points.values():
        if team is not None:
            taken[team] += 1
    delta = list(taken)
    made = taken[declarer_team] >= bid
    if not made:
        delta[declarer_team] = -bid
    elif declarer_scores == "bid":
        delta[declarer_team] = bid
    return taken, delta


class SetbackState(TrickState):
    """A Setback match: auction, then six tricks whose first lead names trump."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Setback)
        self.bid_masks: list[int] = game.bid_masks
        self.trumps: list[TrumpTables] = game.trumps
        self.high_bid = 0
        self.high_bidder = -1
        self.declarer = -1
        self.bid = 0

    def _start_hand(self) -> None:
        self.phase = AUCTION
        self.to_act = (self.dealer + 1) % 4
        self.high_bid = 0
        self.high_bidder = -1
        self.declarer = -1
        self.bid = 0
        # RULES.md: a trick may not be opened with the joker while other cards remain.
        self.lead_forbid = JOKER_BIT

    def _other_legal(self) -> int:
        return self.bid_masks[self.high_bid]

    def _apply_other(self, action: int) -> None:
        seat = self.to_act
        if action != PASS:
            self.high_bid = action - BID
            self.high_bidder = seat
            if self.high_bid >= self.options.max_bid:
                self._end_auction()
                return
        if seat == self.dealer:
            self._end_auction()
        else:
            self.to_act = (seat + 1) % 4

    def _end_auction(self) -> None:
        if self.high_bidder < 0:  # all passed: the dealer is stuck at the minimum bid
            self.declarer, self.bid = self.dealer, self.options.min_bid
        else:
            self.declarer, self.bid = self.high_bidder, self.high_bid
        self.phase = PLAY
        self.to_act = self.declarer

    def _on_lead(self, card: int) -> None:
        if self.tables.suit < 0:
            self.tables = self.trumps[card // 13]

    def _score_hand(self) -> dict[str, Any]:
        opts = self.options
        trump = self.tables.suit
        points = hand_points(trump, self.dealt, self.won, opts.low_to)
        team = self.declarer & 1
        taken, delta = score_hand(points, team, self.bid, opts.declarer_scores)
        self.scores[0] += delta[0]
        self.scores[1] += delta[1]
        if self.scores[team] >= opts.target:
            self.winner = team
        return {
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": SUITS[trump],
            "points": points,
            "taken": taken,
            "scores": list(self.scores),
        }

    def _explain(self, action: int) -> str:
        opts = self.options
        if self.phase == AUCTION:
            if 0 <= action < 64:
                return "must bid or pass during the auction"
            n = action - BID
            if not opts.min_bid <= n <= opts.max_bid:
                return f"must bid from {opts.min_bid} to {opts.max_bid}"
            if n <= self.high_bid:
                return f"must bid more than the high bid of {self.high_bid}"
            return "may not bid now"
        if not 0 <= action < 64:
            return "must play a card, the auction is over"
        if not self.trick and action == JOKER and self.hands[self.to_act] >> action & 1:
            return "may not lead the joker while holding other cards"
        return self._explain_play(action)

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return {
            "high_bid": self.high_bid if self.phase == AUCTION else self.bid,
            "high_bidder": self.high_bidder,
            "declarer": self.declarer if self.phase == PLAY else None,
            "bid": self.bid if self.phase == PLAY else None,
        }


def _bid_masks(opts: SetbackOptions) -> list[int]:
    masks = []
    for high in range(opts.max_bid + 1):
        mask = PASS_BIT
        for n in range(max(opts.min_bid, high + 1), opts.max_bid + 1):
            mask |= 1 << (BID + n)
        masks.append(mask)
    return masks


def _setback_trumps() -> list[TrumpTables]:
    # The joker ranks as the "10.5" of trump: between the ten and the jack.
    out = []
    for suit in range(4):
        order = [suit * 13 + r for r in range(13)]
        order.insert(TEN + 1, JOKER)
        out.append(trump_tables(suit, order))
    return out


class Setback(Game):
    """Setback as RULES.md decides it."""

    name = "setback"
    title = "Setback"
    summary = "53 cards with a joker, six each, one round of bids 2-6, six points, to 21"
    Options = SetbackOptions
    State = SetbackState
    deck = tuple(range(53))

    def __init__(self, options: Any = None, preset: str | None = None) -> None:
        super().__init__(options, preset)
        self.bid_masks = _bid_masks(self.options)
        self.trumps = _setback_trumps()

    def _hand_size(self) -> int:
        return 6
