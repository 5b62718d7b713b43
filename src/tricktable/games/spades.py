"""Spades: partnerships bid tricks (nil and blind nil too), spades always trump, play to 500.

Bidding goes once round the table from the dealer's left. A seat that may bid blind nil first
decides, before seeing its cards, between ``bid blind-nil`` and ``look`` (the ``blind`` phase);
a seat that looked, or that is not offered blind nil, then bids 0 (nil) to 13. Scoring is the
pure function :func:`score_team`; the rules as implemented are in ``rules/spades.md``.

Three players play cut-throat (``players=3``): the 2♣ is taken out, seventeen cards each, bids
0 to 17, and each seat is a side of its own, scored by :func:`score_team` as a side of one.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from tricktable.cards import SPADES, SUIT_MASKS, card_name
from tricktable.engine import actions as act
from tricktable.engine.actions import BID
from tricktable.engine.trick import (
    AUCTION,
    PLAY,
    Facts,
    Game,
    TrickState,
    TrumpTables,
    trump_tables,
)
from tricktable.errors import NotationError
from tricktable.games.spades_options import SpadesOptions
from tricktable.games.spades_results import SpadesResult

__all__ = [
    "BLIND",
    "BLIND_NIL",
    "LOOK",
    "Spades",
    "SpadesOptions",
    "TeamScore",
    "match_winner",
    "score_team",
    "spades_deck",
]

#: the phase where a seat offered blind nil chooses it or looks at its cards
BLIND: Final = 10
#: action: look at one's cards (and so give up blind nil); then bid
LOOK: Final = 256
#: action: bid blind nil, without having seen one's cards
BLIND_NIL: Final = 257

SPADE_MASK: Final = SUIT_MASKS[SPADES]
TWO_OF_CLUBS: Final = 0
_LOOK_BIT: Final = 1 << LOOK
_BLIND_BIT: Final = 1 << BLIND_NIL


class TeamScore(NamedTuple):
    """A partnership's score for one hand (see :func:`score_team`)."""

    contract: int
    made: bool | None
    points: int
    bags: int
    penalty: int


def spades_deck(players: int) -> tuple[int, ...]:
    """The cards dealt: all 52 at four seats, without the 2♣ at three (17 each)."""
    return tuple(range(52)) if players == 4 else tuple(range(1, 52))


def score_team(
    bids: tuple[int, ...],
    blind: tuple[bool, ...],
    tricks: tuple[int, ...],
    bags: int,
    opts: SpadesOptions,
) -> TeamScore:
    """Score one side's hand: its seats' bids (0 = nil), blind flags and tricks (two seats
    in partnership Spades, one in cut-throat).

    ``bags`` is the side's bag count before the hand; the result's ``bags`` is the count after,
    with every full ten paid for by ``bags_penalty`` (``penalty``, included in ``points``).
    ``made`` is None when the side had no contract (both bid nil).
    """
    contract = 0
    taken = 0
    new_bags = 0
    points = 0
    for bid, is_blind, won in zip(bids, blind, tricks, strict=True):
        if bid == 0:
            value = opts.blind_nil_value if is_blind else opts.nil_value
            points += value if won == 0 else -value
            new_bags += won  # a failed nil's tricks help no contract: they are bags
        else:
            contract += bid
            taken += won
    made: bool | None = None
    if contract:
        made = taken >= contract
        if made:
            points += 10 * contract
            new_bags += taken - contract
        else:
            points -= 10 * contract
    points += new_bags
    total = bags + new_bags
    penalty = -(total // 10) * opts.bags_penalty
    return TeamScore(contract, made, points + penalty, total % 10, penalty)


class SpadesState(TrickState):
    """A Spades match: the blind-nil choices and bids, then thirteen tricks with spades trump."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Spades)
        self.bid_mask: int = game.bid_mask
        self.spade_tables: TrumpTables = game.spade_tables
        self.first_2c: bool = game.options.first_lead == "2c"
        #: the card that leads the first trick with ``first_lead=2c``: the lowest club dealt
        self.first_card: int = game.first_card
        self.bids = [-1] * self.n
        #: seats that bid blind nil, as bits
        self.blind = 0
        #: seats that may not see their cards yet (offered blind nil, not looked), as bits
        self.hidden = 0
        #: seats offered blind nil this hand, as bits
        self.offered = 0
        self.bags = [0] * game.num_scores
        self.broken = False

    # -------------------------------------------------------------------------- bidding

    def blind_nil_allowed(self, team: int) -> bool:
        """Whether a side may bid blind nil this hand (the options and the scores decide)."""
        opts = self.options
        if not opts.blind_nil:
            return False
        behind = opts.blind_nil_behind
        if not behind:
            return True
        # Behind the best other side (at four seats: the other partnership).
        scores = self.scores
        best = max([scores[t] for t in range(len(scores)) if t != team])
        return best - scores[team] >= behind

    def _start_hand(self) -> None:
        self.tables = self.spade_tables
        n = self.n
        self.bids = [-1] * n
        self.blind = 0
        self.broken = not self.options.break_spades
        offered = 0
        sides = self.game.num_scores
        for seat in range(n):
            if self.blind_nil_allowed(seat % sides):
                offered |= 1 << seat
        self.offered = self.hidden = offered
        self._turn((self.dealer + 1) % n)

    def _turn(self, seat: int) -> None:
        self.to_act = seat
        self.phase = BLIND if self.hidden >> seat & 1 else AUCTION

    def _may_look(self, seat: int) -> bool:
        return not self.hidden >> seat & 1

    def _other_legal(self) -> int:
        if self.phase == BLIND:
            return _LOOK_BIT | _BLIND_BIT
        return self.bid_mask

    def _apply_other(self, action: int) -> None:
        seat = self.to_act
        if action == LOOK:
            self.hidden &= ~(1 << seat)
            self.phase = AUCTION
            return
        if action == BLIND_NIL:
            self.bids[seat] = 0
            self.blind |= 1 << seat
        else:
            self.bids[seat] = action - BID
        if seat == self.dealer:
            self._start_play()
        else:
            self._turn((seat + 1) % self.n)

    def _start_play(self) -> None:
        self.hidden = 0  # a blind nil bidder picks its cards up once the bidding is over
        self.phase = PLAY
        if self.first_2c:
            hands = self.hands
            first = self.first_card
            for seat in range(self.n):
                if hands[seat] >> first & 1:
                    self.to_act = seat
                    break
            # The 2C (3C at three seats), and nothing else, leads the first trick.
            self.lead_forbid = ~(1 << first)
        else:
            self.to_act = (self.dealer + 1) % self.n
            self.lead_forbid = 0 if self.broken else SPADE_MASK

    # ----------------------------------------------------------------------------- play

    def _on_trick(self, winner: int) -> None:
        # Spades are trump, so a trick holds a spade exactly when a spade wins it.
        if self.best_power >= 100:
            self.broken = True
        self.lead_forbid = 0 if self.broken else SPADE_MASK

    def _score_hand(self) -> SpadesResult:
        opts = self.options
        bids, tricks = self.bids, self.tricks_won
        n, sides = self.n, self.game.num_scores
        blind = [bool(self.blind >> s & 1) for s in range(n)]
        teams = [
            score_team(
                tuple([bids[s] for s in range(t, n, sides)]),
                tuple([blind[s] for s in range(t, n, sides)]),
                tuple([tricks[s] for s in range(t, n, sides)]),
                self.bags[t],
                opts,
            )
            for t in range(sides)
        ]
        for t, team in enumerate(teams):
            self.scores[t] += team.points
            self.bags[t] = team.bags
        self.winner = match_winner(self.scores, opts.target, opts.lose_at)
        return SpadesResult(
            bids=tuple(bids),
            blind=tuple(blind),
            tricks=tuple(tricks),
            contracts=tuple(team.contract for team in teams),
            made=tuple(team.made for team in teams),
            points=tuple(team.points for team in teams),
            bag_penalties=tuple(team.penalty for team in teams),
            bags=tuple(self.bags),
            scores=tuple(self.scores),
        )

    # --------------------------------------------------------------------- explanations

    def _explain(self, action: int) -> str:
        phase = self.phase
        if phase == BLIND:
            if 0 <= action < 64:
                return "cannot play a card during the bidding"
            return "must bid blind nil or look at its cards first"
        if phase == AUCTION:
            if 0 <= action < 64:
                return "cannot play a card during the bidding"
            if action == BLIND_NIL:
                if self.offered >> self.to_act & 1:
                    return "has looked at its cards; blind nil is no longer possible"
                return self._why_no_blind()
            if action == LOOK:
                return "may already see its cards; it must bid"
            n = action - BID
            if n == 0 and not self.options.nil:
                return "may not bid nil (option nil=false)"
            low = 0 if self.options.nil else 1
            return f"must bid from {low} to {self.hand_size}"
        if not 0 <= action < 64:
            return "must play a card, the bidding is over"
        hand = self.hands[self.to_act]
        if not self.trick and hand >> action & 1 and self.lead_forbid >> action & 1:
            first = self.first_card
            if hand >> first & 1 and self.lead_forbid == ~(1 << first):
                return f"must lead {card_name(first)} to the first trick"
            return "may not lead a spade before spades are broken"
        return self._explain_play(action)

    def _why_no_blind(self) -> str:
        opts = self.options
        if not opts.blind_nil:
            return "may not bid blind nil (option blind_nil=false)"
        return f"may bid blind nil only when its side is behind by {opts.blind_nil_behind} or more"

    # -------------------------------------------------------------------------- views

    def _phase_name(self) -> str:
        return "blind" if self.phase == BLIND else str(self.phase)

    def _view_extra(self, seat: int) -> dict[str, Any]:
        # Each bid as spades_results.bid_text shows it, written out here: that module is plain
        # Python, and a call into it for every seat of every view cost a tenth of a hand.
        bids = self.bids
        shown: list[int | str | None] = []
        for s in range(self.n):
            bid = bids[s]
            if bid < 0:
                shown.append(None)
            elif bid:
                shown.append(bid)
            else:
                shown.append("blind-nil" if self.blind >> s & 1 else "nil")
        return {
            "bids": shown,
            "blind_nil_offered": [bool(self.offered >> s & 1) for s in range(self.n)],
            "bags": list(self.bags),
        }

    def _trick_facts(self) -> Facts:
        return (("spades_broken", self.broken),)

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, SpadesState)
        other.bids = self.bids[:]
        other.bags = self.bags[:]
        other.blind = self.blind
        other.hidden = self.hidden
        other.offered = self.offered
        other.broken = self.broken

    def _play_extra(self) -> Any:
        return self.broken

    def _restore_play_extra(self, saved: Any) -> None:
        self.broken = bool(saved)


def match_winner(scores: list[int], target: int, lose_at: int) -> int | None:
    """The winning side once a side reaches ``target`` or falls to ``lose_at`` (0: never).

    The highest score wins; a tie for it plays on.
    """
    high, low = max(scores), min(scores)
    if (high >= target or (lose_at and low <= lose_at)) and scores.count(high) == 1:
        return scores.index(high)
    return None


@mypyc_attr(allow_interpreted_subclasses=True)
class Spades(Game):
    """Spades: bids, nil and blind nil, bags, spades always trump; partners at four seats,
    cut-throat at three."""

    name = "spades"
    family = "Whist"
    title = "Spades"
    summary = "52 cards, 13 each, partners bid tricks (nil, blind nil), spades trump, to 500"
    Options = SpadesOptions
    State = SpadesState
    heuristic_bot = "tricktable.bots.spades_heuristic:SpadesHeuristic"
    http_adapter = "tricktable.protocols.http:SpadesEvents"  # seed 004's five endpoints
    presenter = "tricktable.seat.games.spades:SpadesPresenter"
    statistics = "tricktable.stats.spades:SpadesStats"
    fault_penalty = "forfeit"  # seed 004: a fault forfeits the match
    seat_counts = (3, 4)

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        super().__init__(options, preset, baseline)
        opts = self.options
        if self.num_players != 4:
            # Cut-throat: each for itself, the 2C out.
            self.num_scores = self.num_players
            self.deck = spades_deck(self.num_players)
            self.hand_size = self._hand_size()
        #: the lowest club dealt, which leads the first trick with first_lead=2c
        self.first_card = min(c for c in self.deck if c < 13)
        low = 0 if opts.nil else 1
        mask = 0
        for n in range(low, self.hand_size + 1):
            mask |= 1 << (BID + n)
        self.bid_mask = mask
        self.spade_tables = trump_tables(SPADES, [SPADES * 13 + r for r in range(13)])

    def action_name(self, action: int) -> str:
        """The text of an action: ``look``, ``bid blind-nil``, ``bid nil`` (bid 0), ``bid 4``..."""
        if action == LOOK:
            return "look"
        if action == BLIND_NIL:
            return "bid blind-nil"
        if action == BID:
            return "bid nil"
        return act.action_name(action)

    def parse_action(self, text: str) -> int:
        """Read an action; ``bid 0`` is ``bid nil``, ``bid blind nil`` is ``bid blind-nil``."""
        words = text.strip().lower().replace("-", " ").split()
        if words == ["look"]:
            return LOOK
        if words in (["bid", "blind", "nil"], ["blind", "nil"]):
            return BLIND_NIL
        if words in (["bid", "nil"], ["nil"]):
            return BID
        try:
            return act.parse_action(text)
        except NotationError:
            raise NotationError(
                f"unknown action {text.strip()!r}: write look, bid blind-nil, bid nil, "
                "bid N or play CARD"
            ) from None


GAME = Spades
