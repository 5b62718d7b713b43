"""Setback and the Pitch family: one round of bids, then tricks whose first lead names trump.

The defaults of :class:`SetbackOptions` are exactly RULES.md; every other member of the family
(``setback-classic``, ``auction-pitch``, ``smear``, ``ten-point-pitch``...) is a preset of these
options in ``presets.toml`` and ``presets/pitch.toml`` — data, not code. Scoring is in
:mod:`pitch_scoring`.

Options that add to the hand:

- ``kitty`` N: N cards dealt face down (the first N of the recorded stock). The auction's
  winner takes them into its hand (its ``dealt`` then holds them) and discards N cards, one
  ``discard CARD`` at a time, before its first lead; only it sees the kitty and the discards
  (the discards are private actions). The discard counts as a trick the declarer's side won:
  its small points count toward Game, and a point card in it (a trump's jack, say) is earned
  by that side. Sources differ on this; counting the discard for the side that made it is
  how Pinochle and Sheepshead treat buried cards, and it leaves no card of the hand unowned.
  The declarer may not discard its last card other than a joker (its first lead names trump).
- ``moon``: a bid of ``moon`` above every number; ``smudge``: the top bid made by taking every
  point wins the match (scored by :func:`pitch_scoring.score_contract`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from tricktable.cards import (
    JACK,
    JOKER,
    LITTLE_JOKER,
    TEN,
    card_name,
    cards_in,
    mask_of,
    parse_card,
)
from tricktable.engine.actions import BID, PASS, PASS_BIT
from tricktable.engine.trick import (
    AUCTION,
    DEAL,
    PLAY,
    SPECIAL,
    Facts,
    Game,
    TrickState,
    TrumpTables,
    trump_tables,
)
from tricktable.games.pitch_scoring import (
    SETBACK_POINTS,
    game_count,
    hand_points,
    match_winner,
    score_contract,
    score_hand,
)
from tricktable.games.seating import sides_of_options
from tricktable.games.setback_options import SetbackOptions, point_weights
from tricktable.games.setback_results import SetbackResult

__all__ = [
    "DISCARD",
    "DISCARDING",
    "MOON",
    "SETBACK_POINTS",
    "Setback",
    "SetbackOptions",
    "game_count",
    "hand_points",
    "score_hand",
]


JOKERS: Final = (1 << JOKER) | (1 << LITTLE_JOKER)
#: the bid ``moon`` (option ``moon``): above every number
MOON: Final = 300
#: the declarer's discard after taking the kitty: DISCARD + card. Above every card mask (as
#: a pass of cards is), so that no hand's mask is ever the code of a hidden discard; its
#: phase lists its actions (``SPECIAL``)
DISCARD: Final = 1 << 65
#: the discard of each card, made once: compiled, a code above 2**64 is a new object at
#: every sum (and the kitty's discard lists a dozen or two of them at each decision)
_DISCARD_CODES: Final = tuple(DISCARD + card for card in range(64))
_DISCARD_END: Final = DISCARD + 64
#: the phase of the declarer's discard, after it took the kitty
DISCARDING: Final = 11


class SetbackState(TrickState):
    """A Pitch-family match: auction, then tricks whose first lead names trump."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Setback)
        self.bid_masks: tuple[int, ...] = game.bid_masks
        self.dealer_masks: tuple[int, ...] = game.dealer_masks
        self.trumps: tuple[TrumpTables, ...] = game.trumps
        # None where every point counts 1 (most variants): scoring then looks none up.
        self.weights: Mapping[str, int] | None = game.weights if game.weighted else None
        self.point_list: list[str] = list(game.weights)
        self.may_trump: bool = game.options.may_trump
        self.joker_forbid: int = game.joker_forbid
        self.kitty_size: int = game.options.kitty
        #: the level of a moon bid (max_bid + 1), 0 where the game has none
        self.moon_level: int = game.moon_level
        # _view_extra: the auction and contract, for all; with a kitty, the declarer alone
        # sees it
        self._facts_public = not self.kitty_size
        self.high_bid = 0
        self.high_bidder = -1
        self.declarer = -1
        self.bid = 0
        #: the kitty the declarer took, and the cards it discarded so far (masks)
        self.kitty = 0
        self.discards = 0
        self.kitty_taken = False
        #: the kitty's card names, made once a hand for the declarer's views (a view's
        #: ``info()`` copies its lists, so every view may share this one)
        self.kitty_names: tuple[str, ...] = ()

    def _start_hand(self) -> None:
        self.phase = AUCTION
        self.to_act = (self.dealer + self.step) % self.n
        self.high_bid = 0
        self.high_bidder = -1
        self.declarer = -1
        self.bid = 0
        self.kitty = 0
        self.discards = 0
        self.kitty_taken = False
        self.kitty_names = ()
        size = self.kitty_size
        if size and len(self.stock) < size:
            # A deal given without its stock (tests, tools): the rest of the deck, lowest first.
            dealt = 0
            for mask in self.hands:
                dealt |= mask
            self.stock = [c for c in self.game.deck if not dealt >> c & 1]
            self.history[-1].stock = list(self.stock)
        for card in self.stock[:size]:
            self.kitty |= 1 << card
        # The first lead names trump, so a joker may never make it (a declarer holding only
        # jokers throws the deal in: _end_auction); later, RULES.md forbids opening with it
        # while other cards remain.
        self.lead_forbid = JOKERS

    def _clone_extra(self, other: TrickState) -> None:
        assert isinstance(other, SetbackState)
        other.high_bid = self.high_bid
        other.high_bidder = self.high_bidder
        other.declarer = self.declarer
        other.bid = self.bid
        other.kitty = self.kitty
        other.discards = self.discards
        other.kitty_taken = self.kitty_taken
        other.kitty_names = self.kitty_names

    def _play_mask(self, seat: int, hand: int) -> int:
        if not self.trick:
            allowed = hand & ~self.lead_forbid
            return allowed or hand
        follow = hand & self.lead_mask
        if not follow:
            return hand
        if self.may_trump:
            return follow | hand & self.tables.mask
        return follow

    def _other_legal(self) -> int:
        if self.phase == DISCARDING:
            return SPECIAL
        if self.to_act == self.dealer:
            return self.dealer_masks[self.high_bid]
        return self.bid_masks[self.high_bid]

    def _discard_mask(self) -> int:
        """The cards the declarer may discard: any but its last one other than a joker."""
        hand = self.hands[self.declarer]
        plain = hand & ~JOKERS
        return hand & ~plain if (plain & (plain - 1)) == 0 else hand

    def _other_actions(self) -> list[int]:
        if self.phase != DISCARDING:
            return []
        codes = _DISCARD_CODES
        return [codes[c] for c in cards_in(self._discard_mask())]

    def _other_allows(self, action: int) -> bool:
        if self.phase != DISCARDING or not DISCARD <= action < _DISCARD_END:
            return False
        return bool(self._discard_mask() >> (action - DISCARD) & 1)

    def _apply_other(self, action: int) -> None:
        seat = self.to_act
        opts = self.options
        if action >= DISCARD:
            bit = 1 << (action - DISCARD)
            hands = self.hands
            hands[seat] = hands[seat] ^ bit
            self.discards |= bit
            if self.discards.bit_count() == self.kitty_size:
                self.phase = PLAY
            return
        if action != PASS:
            self.high_bid = self.moon_level if action == MOON else action - BID
            self.high_bidder = seat
            # With a moon bid, a number never ends the auction: a later seat may shoot.
            if self.high_bid >= (self.moon_level or opts.max_bid):
                if opts.dealer_takes and seat != self.dealer:
                    self.to_act = self.dealer  # only the dealer may still act: take it or not
                else:
                    self._end_auction()
                return
        if seat == self.dealer:
            self._end_auction()
        else:
            self.to_act = (seat + self.step) % self.n

    def _end_auction(self) -> None:
        if self.high_bidder < 0:
            if self.options.all_pass == "redeal":
                self._throw_in()
                return
            self.declarer, self.bid = self.dealer, self.options.min_bid  # the dealer is stuck
        else:
            self.declarer, self.bid = self.high_bidder, self.high_bid
        if self.kitty_size:
            # The declarer takes the kitty into its hand (and so has been dealt it), then
            # discards as many cards before leading.
            declarer = self.declarer
            self.hands[declarer] |= self.kitty
            self.dealt[declarer] |= self.kitty
            self.kitty_taken = True
            self.kitty_names = tuple([card_name(c) for c in cards_in(self.kitty)])
            self.phase = DISCARDING
            self.to_act = declarer
            return
        if not self.hands[self.declarer] & ~JOKERS:
            # Two jokers and two cards each: a declarer holding only jokers cannot name
            # trump with its first lead, so the deal is thrown in as when all pass.
            self._throw_in()
            return
        self.phase = PLAY
        self.to_act = self.declarer

    def _throw_in(self) -> None:
        self.to_act = -1
        self._add_result(
            SetbackResult(
                declarer=None,
                bid=None,
                trump=None,
                points=_NO_POINTS,
                taken=(0,) * len(self.scores),
                scores=tuple(self.scores),
                thrown_in=True,
            )
        )
        self.phase = DEAL  # the deal passes on; nobody scores

    def _on_lead(self, card: int) -> None:
        if self.tables.suit < 0:
            self.tables = self.trumps[card // 13]
            self.lead_forbid = self.joker_forbid

    def _side(self, seat: int) -> int:
        return seat % len(self.scores)

    def _trick_points(self, cards: tuple[int, ...]) -> int:
        return game_count(mask_of(cards))  # toward the Game point

    def _score_hand(self) -> SetbackResult:
        opts = self.options
        tables = self.tables
        trump = tables.suit
        won = self.won
        if self.discards:
            won = list(won)  # the discard counts as a trick the declarer won
            won[self.declarer] |= self.discards
        points = hand_points(
            trump,
            self.dealt,
            won,
            opts.low_to,
            self.point_list,
            len(self.scores),
            tables.mask,
            tables.power,
        )
        side = self._side(self.declarer)
        moon = self.moon_level > 0 and self.bid == self.moon_level
        outright = False
        if moon or opts.smudge:
            game = self.game
            assert isinstance(game, Setback)
            taken, delta, outright = score_contract(
                points,
                side,
                self.bid,
                opts.declarer_scores,
                len(self.scores),
                self.weights,
                moon=moon,
                moon_value=opts.moon_value,
                total=game.total_points,
                smudge=opts.smudge and self.bid == opts.max_bid,
                in_hole=self.scores[side] < 0,
            )
        else:
            taken, delta = score_hand(
                points, side, self.bid, opts.declarer_scores, len(self.scores), self.weights
            )
        for i, change in enumerate(delta):
            self.scores[i] += change
        if outright:
            self.winner = side
        else:
            self.winner = match_winner(self.scores, side, opts.target, opts.win)
        return SetbackResult(
            declarer=self.declarer,
            bid=self.bid,
            trump=trump,
            points=MappingProxyType(points),  # a result reaches bots: read-only
            taken=tuple(taken),
            scores=tuple(self.scores),
            moon=moon,
            outright=outright,
        )

    def _explain(self, action: int) -> str:
        opts = self.options
        if self.phase == DISCARDING:
            if DISCARD <= action < DISCARD + 64:
                card = action - DISCARD
                if not self.hands[self.to_act] >> card & 1:
                    return f"does not hold {card_name(card)} to discard"
                return "must keep a card other than a joker, to lead and name trump"
            return f"must discard {self.kitty_size - self.discards.bit_count()} more card(s)"
        if action >= DISCARD:
            return "may not discard: only the declarer discards, after taking the kitty"
        if action == MOON:
            if not self.moon_level:
                return "may not bid moon in this game (moon=false)"
            if self.phase == AUCTION:
                return "may not bid moon now: the moon is already bid"
            return "must play a card, the auction is over"
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
        hand = self.hands[self.to_act]
        if not self.trick and self.lead_forbid >> action & 1 and hand >> action & 1:
            return "may not lead the joker while holding other cards"
        return self._explain_play(action)

    def _view_extra(self, seat: int) -> Facts:
        # Pairs, read-only as they are made (no copy to share them: see engine.view.frozen).
        playing = self.phase == PLAY or self.phase == DISCARDING
        level = self.high_bid if self.phase == AUCTION else self.bid
        facts: Facts = (
            ("high_bid", level),
            ("high_bidder", self.high_bidder),
            ("declarer", self.declarer if playing else None),
            ("bid", self.bid if playing else None),
        )
        # Only games with these options have these facts: the others' views stay as they were.
        if self.moon_level:
            facts += (("moon", level == self.moon_level),)
        if self.kitty_size:
            mine = self.kitty_taken and seat == self.declarer
            facts += (
                ("kitty", self.kitty_names if mine else None),
                ("discarded", self.discards.bit_count()),  # how many: all see the cards go
            )
        return facts

    def _private(self, action: int) -> bool:
        return action >= DISCARD

    def _public(self, viewer: int, actor: int, action: int) -> bool:
        return action < DISCARD  # a discard is face down: its maker's alone

    def _phase_name(self) -> str:
        return "discard" if self.phase == DISCARDING else str(self.phase)


#: the points of a thrown-in hand: none
_NO_POINTS: Final[Mapping[str, int | None]] = MappingProxyType({})


def _bid_masks(opts: SetbackOptions, dealer: bool) -> tuple[int, ...]:
    masks = []
    moon = opts.max_bid + 1 if opts.moon else 0
    for high in range(opts.max_bid + (2 if moon else 1)):
        mask = PASS_BIT
        # The dealer may take the high bid at the same level where the variant allows it.
        lowest = high if dealer and opts.dealer_takes and high >= opts.min_bid else high + 1
        for n in range(max(opts.min_bid, lowest), opts.max_bid + 1):
            mask |= 1 << (BID + n)
        if moon and lowest <= moon:
            mask |= 1 << MOON
        masks.append(mask)
    return tuple(masks)


def _trump_tables(opts: SetbackOptions) -> tuple[TrumpTables, ...]:
    out = []
    for suit in range(4):
        other = 3 - suit
        order = [suit * 13 + r for r in range(13)]
        if opts.off_five_trump:
            order.insert(3, other * 13 + 3)  # just below the five (index 3 is the five)
        # Jokers rank between the ten and the jacks: little, then big (RULES.md: the "10.5").
        ten = order.index(suit * 13 + TEN)
        jokers = [LITTLE_JOKER, JOKER][2 - opts.jokers :] if opts.jokers else []
        order[ten + 1 : ten + 1] = jokers
        if opts.off_jack_trump:
            order.insert(order.index(suit * 13 + JACK), other * 13 + JACK)
        out.append(trump_tables(suit, order))
    return tuple(out)


class Setback(Game):
    """Setback as RULES.md decides it, and with other options every Pitch variant."""

    name = "setback"
    title = "Setback"
    summary = "53 cards with a joker, six each, one round of bids 2-6, six points, to 21"
    Options = SetbackOptions
    State = SetbackState
    heuristic_bot = "tricktable.bots.pitch_heuristic:PitchHeuristic"
    trump_named_by_lead = True  # the declarer's first card names trump
    presenter = "tricktable.seat.games.pitch:SetbackPresenter"
    family = "All Fours"
    seat_counts = (2, 3, 4, 5, 6, 7)
    statistics = "tricktable.stats.pitch:SetbackStats"

    def __init__(self, options: Any = None, preset: str | None = None) -> None:
        opts = options if options is not None else SetbackOptions()
        super().__init__(opts, preset)
        self.deck = tuple(range(52 + opts.jokers))
        self.num_scores = sides_of_options(opts)
        self.step = 1 if opts.direction == "left" else opts.players - 1
        # The game's tables are tuples and read-only maps: every match of the game shares
        # them, and bots reach them through ``view.game``.
        self.bid_masks = _bid_masks(opts, dealer=False)
        self.dealer_masks = _bid_masks(opts, dealer=True)
        self.trumps = _trump_tables(opts)
        self.weights: Mapping[str, int] = MappingProxyType(point_weights(opts.points))
        self.weighted = any(w != 1 for w in self.weights.values())
        self.joker_forbid = 0 if opts.joker_lead == "any" else JOKERS
        #: the points of a hand, all told (what a failed moon loses)
        self.total_points = sum(self.weights.values())
        self.moon_level = opts.max_bid + 1 if opts.moon else 0
        # The kitty is the stock's first cards, so records list the stock; it and the discards
        # are the declarer's alone. Both fields are set with a kitty or without: run as plain
        # Python, a class's instances share one layout of fields only while each sets the
        # same ones, and a game that set two more than the rest got a dict of its own (a
        # mutable table of the game, reachable from every view).
        self.records_stock = bool(opts.kitty)
        self.private_actions = bool(opts.kitty)
        if opts.kitty:
            # Search's sampling of a kitty hand (imported here: search imports this module).
            import tricktable.search.pitch_kitty  # noqa: F401

    def _hand_size(self) -> int:
        return int(self.options.hand_size)

    def action_name(self, action: int) -> str:
        """The text of an action: ``bid N``, ``moon``, ``discard 9H``, ``play JD``, ``pass``."""
        if action == MOON:
            return "moon"
        if DISCARD <= action < DISCARD + 64:
            return "discard " + card_name(action - DISCARD)
        return super().action_name(action)

    def parse_action(self, text: str) -> int:
        """Read an action; ``bid moon`` and ``shoot the moon`` are accepted for ``moon``."""
        words = text.strip().lower().split()
        if words in (["moon"], ["bid", "moon"], ["shoot", "the", "moon"]):
            return MOON
        if len(words) == 2 and words[0] == "discard":
            return DISCARD + parse_card(words[1])
        return super().parse_action(text)


GAME = Setback
