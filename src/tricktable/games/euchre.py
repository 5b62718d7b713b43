"""Euchre: 24 cards, five each, an up-card to order up or turn down, bowers, going alone.

Standard North American Euchre as rules/euchre.md describes it (after pagat.com/euchre/euchre.html):
two rounds of making trump (order up the up-card's suit, then name another suit), the dealer's
pick-up and discard, the right and left bowers, lone hands and the 1/2/4 and euchre-2 scoring,
to 10 points. Three players play cut-throat (``players=3``, after pagat.com's three-hand
Euchre): the same making of trump, the maker always alone against the other two, nine cards
in the stock, and :func:`cutthroat_points` (3 or 4 tricks 1, all five 3, euchred: each of the
other two scores 2).

Action codes of this game (all from 256 up, so they never clash with cards, ``pass`` or bids):
``order-up`` and ``order-up alone`` (for the dealer they mean "pick up"), ``trump S`` and
``trump S alone`` for the second round, and ``discard CARD`` for the dealer's discard.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from tricktable.cards import JACK, SUIT_NAMES, SUITS, card_name, cards_in, parse_card
from tricktable.engine.actions import PASS, PASS_BIT
from tricktable.engine.trick import (
    AUCTION,
    DEAL,
    PLAY,
    SPECIAL,
    Game,
    TrickState,
    TrumpTables,
    trump_tables,
)
from tricktable.errors import NotationError, TricktableError
from tricktable.games.euchre_options import EuchreOptions
from tricktable.games.euchre_results import EuchreResult

__all__ = [
    "DISCARD",
    "DISCARDING",
    "EUCHRE_DECK",
    "EUCHRE_RANKS",
    "ORDER_UP",
    "ORDER_UP_ALONE",
    "ROUND2",
    "TRUMP",
    "TRUMP_ALONE",
    "Euchre",
    "EuchreOptions",
    "EuchreState",
    "cutthroat_points",
    "euchre_trumps",
    "hand_points",
]

#: order up the up-card's suit (for the dealer: pick it up), with a partner or alone
ORDER_UP: Final = 256
ORDER_UP_ALONE: Final = 257
#: name suit s trump in the second round: TRUMP + s, or TRUMP_ALONE + s
TRUMP: Final = 260
TRUMP_ALONE: Final = 264
#: the dealer's discard after picking up: DISCARD + card
DISCARD: Final = 320

#: second round of making trump (the up-card turned down), and the dealer's discard
ROUND2: Final = 10
DISCARDING: Final = 11

#: the ranks Euchre keeps: 9 T J Q K A (rank indices of ``tricktable.cards``)
EUCHRE_RANKS: Final = (7, 8, 9, 10, 11, 12)
EUCHRE_DECK: Final = tuple(s * 13 + r for s in range(4) for r in EUCHRE_RANKS)

_ORDER_WORDS = {"order-up", "order", "pick-up", "pick", "orderup", "pickup"}


def euchre_trumps(suit: int) -> TrumpTables:
    """The trump tables of Euchre with ``suit`` trump: 9 T Q K A, then left and right bower."""
    order = [suit * 13 + r for r in EUCHRE_RANKS if r != JACK]
    order += [(3 - suit) * 13 + JACK, suit * 13 + JACK]
    return trump_tables(suit, order)


def hand_points(maker_tricks: int, alone: bool) -> tuple[bool, int]:
    """Who scores a hand and how much: (makers score?, points) from the makers' tricks."""
    if maker_tricks < 3:
        return False, 2  # euchred: the defenders score 2, lone hand or not
    if maker_tricks < 5:
        return True, 1
    return True, 4 if alone else 2


def cutthroat_points(maker_tricks: int) -> tuple[bool, int]:
    """Cut-throat Euchre: (the maker scores?, points), the maker alone against two: 3 or 4
    tricks score it 1, all five 3; euchred, each of the other two scores 2."""
    if maker_tricks < 3:
        return False, 2
    return True, 3 if maker_tricks == 5 else 1


class EuchreState(TrickState):
    """A Euchre match: two rounds of making trump, the dealer's discard, five tricks."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Euchre)
        self.trumps: tuple[TrumpTables, ...] = game.trumps
        self.round1_mask: int = game.round1_mask
        self.round2_masks: tuple[int, ...] = game.round2_masks
        self.stick: bool = game.options.stick_the_dealer
        self.up_card = -1
        self.maker = -1
        self.alone = False
        self.round = 1
        self.discarded = -1

    # ------------------------------------------------------------------------ making trump

    def _start_hand(self) -> None:
        if not self.stock:
            # A deal given without its stock (tests, tools): the rest of the deck, lowest first.
            dealt = 0
            for mask in self.hands:
                dealt |= mask
            self.stock = [c for c in EUCHRE_DECK if not dealt >> c & 1]
            self.history[-1].stock = list(self.stock)
        want = len(EUCHRE_DECK) - 5 * self.n
        if len(self.stock) != want:
            raise TricktableError(f"euchre needs a stock of {want} cards, got {len(self.stock)}")
        self.up_card = self.stock[0]
        self.maker = -1
        self.alone = False
        self.round = 1
        self.discarded = -1
        self.phase = AUCTION
        self.to_act = (self.dealer + 1) % self.n

    def _other_legal(self) -> int:
        phase = self.phase
        if phase == AUCTION:
            return self.round1_mask
        if phase == ROUND2:
            mask = self.round2_masks[self.up_card // 13]
            if self.stick and self.to_act == self.dealer:
                mask &= ~PASS_BIT
            return mask
        # The discard is listed, not masked: its mask (above bit 320) would be a new big int
        # every hand, made and decoded bit by bit, and no table of lists would hold it.
        return SPECIAL if phase == DISCARDING else 0

    def _other_actions(self) -> list[int]:
        if self.phase != DISCARDING:
            return []
        return [DISCARD + c for c in cards_in(self.hands[self.dealer])]

    def _other_allows(self, action: int) -> bool:
        card = action - DISCARD
        return (
            self.phase == DISCARDING
            and 0 <= card < 64
            and bool(self.hands[self.dealer] >> card & 1)
        )

    def _apply_other(self, action: int) -> None:
        seat = self.to_act
        if action == PASS:
            if seat != self.dealer:
                self.to_act = (seat + 1) % self.n
            elif self.phase == AUCTION:
                self.phase = ROUND2
                self.round = 2
                self.to_act = (seat + 1) % self.n
            else:
                self._throw_in()
            return
        if action >= DISCARD:
            self.hands[seat] ^= 1 << (action - DISCARD)
            self.discarded = action - DISCARD
            self._start_play()
            return
        if action <= ORDER_UP_ALONE:
            self._make(seat, self.up_card // 13, action == ORDER_UP_ALONE)
            if self.alone and (seat + 2) % 4 == self.dealer:
                # The dealer sits out: taking up the card would change nothing in the play.
                self._start_play()
                return
            self.hands[self.dealer] |= 1 << self.up_card
            self.phase = DISCARDING
            self.to_act = self.dealer
            return
        alone = action >= TRUMP_ALONE
        self._make(seat, action - (TRUMP_ALONE if alone else TRUMP), alone)
        self._start_play()

    def _make(self, seat: int, suit: int, alone: bool) -> None:
        self.maker = seat
        self.alone = alone
        self.tables = self.trumps[suit]

    def _start_play(self) -> None:
        self.phase = PLAY
        if self.alone:
            self.skip = (self.maker + 2) % 4
            self.trick_size = 3
        lead = (self.dealer + 1) % self.n
        self.to_act = (lead + 1) % self.n if lead == self.skip else lead

    def _throw_in(self) -> None:
        self.to_act = -1
        self._add_result(
            EuchreResult(
                maker=None,
                trump=None,
                alone=False,
                bidding_round=None,
                up_card=self.up_card,
                euchred=False,
                tricks=(0,) * self.game.num_scores,
                points=(0,) * self.game.num_scores,
                scores=tuple(self.scores),
                thrown_in=True,
            )
        )
        self.phase = DEAL  # the deal passes to the left; nobody scores

    # ----------------------------------------------------------------------------- scoring

    def _score_hand(self) -> EuchreResult:
        if self.n == 3:
            return self._score_cutthroat()
        won = self.tricks_won
        tricks = [won[0] + won[2], won[1] + won[3]]
        makers = self.maker & 1
        made, points = hand_points(tricks[makers], self.alone)
        team = makers if made else 1 - makers
        gained = [0, 0]
        gained[team] = points
        self.scores[team] += points
        if self.scores[team] >= self.options.target:
            self.winner = team
        return EuchreResult(
            maker=self.maker,
            trump=self.tables.suit,
            alone=self.alone,
            bidding_round=self.round,
            up_card=self.up_card,
            euchred=not made,
            tricks=(tricks[0], tricks[1]),
            points=(gained[0], gained[1]),
            scores=tuple(self.scores),
        )

    def _score_cutthroat(self) -> EuchreResult:
        tricks = self.tricks_won
        maker = self.maker
        made, points = cutthroat_points(tricks[maker])
        gained = [0] * self.n
        for seat in range(self.n):
            if (seat == maker) == made:
                gained[seat] = points
        scores = self.scores
        for seat in range(self.n):
            scores[seat] += gained[seat]
        # The highest score at or past the target wins; two defenders tied there play on.
        high = max(scores)
        if high >= self.options.target and scores.count(high) == 1:
            self.winner = scores.index(high)
        return EuchreResult(
            maker=maker,
            trump=self.tables.suit,
            alone=self.alone,
            bidding_round=self.round,
            up_card=self.up_card,
            euchred=not made,
            tricks=tuple(tricks),
            points=tuple(gained),
            scores=tuple(scores),
        )

    # ------------------------------------------------------------------ views and messages

    def _public(self, viewer: int, actor: int, action: int) -> bool:
        return action < DISCARD

    def _private(self, action: int) -> bool:
        return action >= DISCARD

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, EuchreState)
        other.up_card = self.up_card
        other.maker = self.maker
        other.alone = self.alone
        other.round = self.round
        other.discarded = self.discarded

    def _phase_name(self) -> str:
        phase = self.phase
        if phase == ROUND2:
            return "name-trump"
        return "discard" if phase == DISCARDING else str(phase)

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return {
            "up_card": card_name(self.up_card) if self.up_card >= 0 else None,
            "bidding_round": self.round,
            "maker": self.maker if self.maker >= 0 else None,
            "alone": self.alone,
            "sitting_out": self.skip if self.skip >= 0 else None,
        }

    def _explain(self, action: int) -> str:
        phase = self.phase
        seat = self.to_act
        if phase == PLAY:
            if not 0 <= action < 64:
                return "must play a card: trump is made"
            return self._explain_play(action)
        if phase == DISCARDING:
            if action >= DISCARD:
                return f"does not hold {card_name(action - DISCARD)} to discard"
            return "must discard a card after picking up the up-card"
        if action >= DISCARD:
            return "may not discard: only the dealer discards, after picking up"
        goes_alone = action == ORDER_UP_ALONE or TRUMP_ALONE <= action < TRUMP_ALONE + 4
        if goes_alone and self.n == 3:
            return "the maker always plays alone at three seats: order up or name trump"
        if goes_alone and not self.options.alone:
            return "may not go alone in this game (alone=false)"
        if phase == AUCTION:
            if TRUMP <= action < TRUMP_ALONE + 4:
                return "may not name trump in the first round: order up the up-card or pass"
            return "must order up the up-card or pass"
        if ORDER_UP <= action <= ORDER_UP_ALONE:
            return "may not order up: the up-card was turned down; name a trump suit or pass"
        if action == PASS and seat == self.dealer and self.stick:
            return "must name trump: the dealer is stuck (stick_the_dealer)"
        if TRUMP <= action < TRUMP_ALONE + 4 and (action - TRUMP) % 4 == self.up_card // 13:
            return f"may not name {SUITS[self.up_card // 13]}: the up-card's suit was turned down"
        return "must name a trump suit or pass"


@mypyc_attr(allow_interpreted_subclasses=True)
class Euchre(Game):
    """Standard North American Euchre, with stick-the-dealer and lone hands as options."""

    name = "euchre"
    family = "Euchre"
    title = "Euchre"
    summary = "24 cards, five each, order up or name trump, bowers, lone hands, to 10"
    Options = EuchreOptions
    State = EuchreState
    records_stock = True
    heuristic_bot = "tricktable.bots.euchre_heuristic:EuchreHeuristic"
    presenter = "tricktable.seat.games.euchre:EuchrePresenter"
    statistics = "tricktable.stats.euchre:EuchreStats"
    private_actions = True  # the dealer's discard is its own
    seat_counts = (3, 4)

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        super().__init__(options, preset, baseline)
        # Set on the instance, not as a class attribute: the compiled (mypyc) engine reads
        # the instance slot and would not see a class-level override.
        self.deck = EUCHRE_DECK
        opts = self.options
        if self.num_players == 3:
            self.num_scores = 3  # cut-throat: each for itself
        # The game's tables are tuples: every match of the game shares them, and bots reach
        # them through ``view.game``.
        self.trumps = tuple([euchre_trumps(s) for s in range(4)])
        # Cut-throat, every maker is alone: no lone hand to choose.
        alone = opts.alone and self.num_players == 4
        self.round1_mask = PASS_BIT | 1 << ORDER_UP | (1 << ORDER_UP_ALONE if alone else 0)
        round2_masks: list[int] = []
        for up_suit in range(4):
            mask = PASS_BIT
            for s in range(4):
                if s != up_suit:
                    mask |= 1 << (TRUMP + s) | (1 << (TRUMP_ALONE + s) if alone else 0)
            round2_masks.append(mask)
        self.round2_masks = tuple(round2_masks)
        # Codes pass 256 bits: serving lists spares decoding big ints on the hot path.

    def _hand_size(self) -> int:
        return 5

    def action_name(self, action: int) -> str:
        """The text of an action: ``order-up``, ``trump S alone``, ``discard 9H``, ``play JD``."""
        if action == ORDER_UP:
            return "order-up"
        if action == ORDER_UP_ALONE:
            return "order-up alone"
        if TRUMP <= action < TRUMP + 4:
            return "trump " + SUITS[action - TRUMP]
        if TRUMP_ALONE <= action < TRUMP_ALONE + 4:
            return f"trump {SUITS[action - TRUMP_ALONE]} alone"
        if DISCARD <= action < DISCARD + 52:
            return "discard " + card_name(action - DISCARD)
        return super().action_name(action)

    def parse_action(self, text: str) -> int:
        """Read an action; ``pick up`` and ``order up`` are accepted for ``order-up``."""
        words = text.strip().lower().replace("order up", "order-up").replace("pick up", "pick-up")
        parts = words.split()
        alone = len(parts) > 1 and parts[-1] == "alone"
        core = parts[:-1] if alone else parts
        if len(core) == 1 and core[0] in _ORDER_WORDS:
            return ORDER_UP_ALONE if alone else ORDER_UP
        if len(core) == 2 and core[0] == "trump":
            suit = _parse_suit(core[1], text)
            return (TRUMP_ALONE if alone else TRUMP) + suit
        if len(parts) == 2 and parts[0] == "discard":
            card = parse_card(parts[1])
            if card >= 52:
                raise NotationError(f"unknown action {text.strip()!r}: a joker is not in euchre")
            return DISCARD + card
        try:
            return super().parse_action(text)
        except NotationError:
            raise NotationError(
                f"unknown action {text.strip()!r}: write pass, order-up, trump S, "
                "discard CARD or play CARD (order-up and trump S may end in alone)"
            ) from None


def _parse_suit(word: str, text: str) -> int:
    word = word.upper()
    if len(word) == 1 and word in SUITS:
        return SUITS.index(word)
    names = [n.upper() for n in SUIT_NAMES]
    if word in names:
        return names.index(word)
    raise NotationError(f"unknown suit in {text.strip()!r}: write C, D, H or S")


GAME = Euchre
