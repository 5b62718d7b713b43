"""California Jack and Shasta Sam: All Fours with a stock that refills every hand after each trick.

Six cards each from 52; the rest is the stock, top card first, and its top card names trump.
After each trick, while the stock lasts, the trick's winner draws its top card and then each
other seat in turn order draws the next, so every hand keeps six cards; once the stock is
gone the last six tricks are played out. Every card is played, so High (the ace of trump),
Low (the two), Jack and Game are always there to win; each goes to the side that wins it in
a trick. The first side to reach the target wins, points counting in the order High, Low,
Jack, Game when several reach it in the same hand.

California Jack keeps the stock face up: its top card is public, so every card drawn is seen
by all before it is taken (Shasta Sam turns only the trump card, and every other draw is seen
by its drawer alone). What all saw taken is public: every view's facts list, by seat, the
cards it took where all saw them (``taken``, in the order drawn), and
:meth:`CaliforniaJackState.known_held` names those still held. The variants are presets of
:class:`CaliforniaJackOptions` (``presets/california_jack.toml``); scoring is
:mod:`pitch_scoring`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from tricktable.cards import SUITS, card_name, mask_of, suit_of
from tricktable.engine.events import HandChanged
from tricktable.engine.trick import PLAY, Facts, Game, TrickState, TrumpTables, trump_tables
from tricktable.errors import TricktableError
from tricktable.games.california_jack_options import (
    CaliforniaJackOptions,
    point_weights,
    sides_of_options,
)
from tricktable.games.california_jack_results import CaliforniaJackResult
from tricktable.games.pitch_scoring import game_count, hand_points

if TYPE_CHECKING:
    from tricktable.engine.trick import View

__all__ = ["CaliforniaJack", "CaliforniaJackOptions", "CaliforniaJackState", "refusal"]

#: cards dealt to each seat (every source deals six)
DEAL_SIZE: Final = 6
#: the ``play`` option's rules as ints (compiled, an int compares at C speed)
OR_TRUMP: Final = 0
MAY_TRUMP: Final = 1
FOLLOW: Final = 2
_PLAY_RULES: Final = {"follow-or-trump": OR_TRUMP, "may-trump": MAY_TRUMP, "follow": FOLLOW}


def allowed(hand: int, led: int, tables: TrumpTables, rule: int) -> int:
    """The cards of ``hand`` that may be played to a trick whose first card is ``led``
    (-1: the seat leads, and may play anything)."""
    if led < 0:
        return hand
    follow = hand & tables.suit_mask[led]
    if rule == FOLLOW:
        return follow or hand
    trumps = hand & tables.mask
    if rule == MAY_TRUMP:
        return follow | trumps if follow else hand
    return follow | trumps or hand


def refusal(card: int, hand: int, led: int, tables: TrumpTables, rule: int) -> str:
    """Why ``card`` may not be played from ``hand`` to a trick led by ``led`` (-1: none),
    speaking only of that hand and the trick: what a seat's view can tell it."""
    if not 0 <= card < 64:
        return "must play a card now"
    name = card_name(card)
    if not hand >> card & 1:
        return f"does not hold {name}"
    if led >= 0:
        suit = SUITS[suit_of(led)]
        if hand & tables.suit_mask[led]:
            return f"must follow suit {suit}" + ("" if rule == FOLLOW else " or trump")
        if rule == OR_TRUMP and hand & tables.mask:
            return f"cannot follow suit {suit}, so must trump"
    return f"may not play {name} now"


class CaliforniaJackState(TrickState):
    """A California Jack match: the deal turns trump, tricks refill the hands from the stock."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, CaliforniaJack)
        self.trumps: tuple[TrumpTables, ...] = game.trumps
        self.face_up: bool = game.options.stock == "up"
        self.play_rule: int = game.play_rule
        self.point_list: list[str] = list(game.weights)
        # None where every point counts 1 (the books' game): scoring then looks none up.
        self.weights: Mapping[str, int] | None = game.weights if game.weighted else None
        self.target: int = game.options.target
        self._facts_public = True
        #: the stock's top card after the deal, whose suit is trump
        self.trump_card = -1
        #: how many tricks were played when the hands last drew (-1: not yet this hand)
        self.drew = -1
        #: by seat, the cards it took from the stock while all saw them, in the order drawn:
        #: every draw from a face-up stock; from a face-down one, the trump card turned
        self.shown: list[list[int]] = [[] for _ in range(self.n)]
        #: ``shown`` by name, for the facts of every trick: each seat's list is replaced, never
        #: changed, when a card joins it, so the facts of earlier tricks may share it (naming
        #: every card taken again at each trick was a third of a random hand's time)
        self.shown_names: list[list[str]] = [[] for _ in range(self.n)]

    def _deal_size(self) -> int:
        return DEAL_SIZE

    def _start_hand(self) -> None:
        if not self.stock:
            # A deal given without its stock (tests, tools): the rest of the deck, lowest first.
            dealt = 0
            for mask in self.hands:
                dealt |= mask
            self.stock = [c for c in self.game.deck if not dealt >> c & 1]
            self.history[-1].stock = list(self.stock)
        if len(self.stock) != len(self.game.deck) - DEAL_SIZE * self.n:
            raise TricktableError(
                f"california-jack needs a stock of the {len(self.game.deck) - DEAL_SIZE * self.n}"
                f" undealt cards, got {len(self.stock)}"
            )
        self.trump_card = self.stock[0]
        self.tables = self.trumps[self.trump_card // 13]
        self.drew = -1
        self.shown = [[] for _ in range(self.n)]
        self.shown_names = [[] for _ in range(self.n)]
        # Every card of the deck is played: the hand has this many tricks, whatever each seat
        # holds at a time (readers of ``hand_size`` count the tricks of a hand by it).
        self.hand_size = len(self.game.deck) // self.n
        self.phase = PLAY
        self.to_act = (self.dealer + self.step) % self.n

    def _clone_extra(self, other: TrickState) -> None:
        assert isinstance(other, CaliforniaJackState)
        other.trump_card = self.trump_card
        other.drew = self.drew
        other.shown = [cards[:] for cards in self.shown]
        other.shown_names = self.shown_names[:]

    def _play_mask(self, seat: int, hand: int) -> int:
        if not self.trick:
            return hand
        return allowed(hand, self.trick[0], self.tables, self.play_rule)

    def _on_trick(self, winner: int) -> None:
        stock = self.stock
        if not stock:
            return
        hands, dealt = self.hands, self.dealt
        n, step = self.n, self.step
        # The winner of the first trick takes the trump card, turned face up for all to see.
        seen = n if self.face_up else 1 if self.drew < 0 else 0
        seat = winner
        for k in range(n):
            card = stock.pop(0)
            if k < seen:
                self.shown[seat].append(card)
                names = self.shown_names
                names[seat] = [*names[seat], card_name(card)]
            bit = 1 << card
            hands[seat] = hands[seat] | bit
            # What a seat drew counts as held: points that go by what was held see it.
            dealt[seat] = dealt[seat] | bit
            seat = (seat + step) % n
        self.drew = len(self.tricks)

    def _play_extra(self) -> Any:
        # The card that ends a trick draws from the stock: undo puts the draws back.
        if self.stock and len(self.trick) + 1 == self.trick_size:
            shown = [cards[:] for cards in self.shown]
            names = self.shown_names[:]
            return (self.hands[:], self.dealt[:], self.stock[:], self.drew, shown, names)
        return None

    def _restore_play_extra(self, saved: Any) -> None:
        if saved is not None:
            hands, dealt, stock, drew, shown, names = saved
            self.hands = hands
            self.dealt = dealt
            self.stock = stock
            self.drew = drew
            self.shown = shown
            self.shown_names = names

    def _tell_after(self, seat: int, suit: int, tricks: int, results: int) -> None:
        super()._tell_after(seat, suit, tricks, results)
        if len(self.tricks) > tricks and self.drew == len(self.tricks):
            # Each seat is told its own new card (as its whole hand); the stock's new top,
            # when it lies face up, is in every view's facts.
            events = self.events
            assert events is not None
            for s in range(self.n):
                if self._told >> s & 1:
                    events.emit(HandChanged(s, self.hands[s]))

    def _top_seen(self) -> int:
        """The stock's top card if every seat sees it, else -1: face up, or the trump card
        turned on a face-down stock until it is drawn."""
        stock = self.stock
        if stock and (self.face_up or self.drew < 0):
            return stock[0]
        return -1

    def _trick_facts(self) -> Facts:
        top = self._top_seen()
        return (
            ("stock_left", len(self.stock)),
            ("stock_top", card_name(top) if top >= 0 else None),
            # Public: all saw these cards taken (those since played are in the tricks). Each
            # seat's list is the state's, made read-only for every seat's views.
            ("taken", tuple([tuple(names) for names in self.shown_names])),
        )

    def known_held(self, viewer: int) -> int:
        """The cards in the other seats' hands that ``viewer`` (any seat, or a spectator)
        knows are there: those each took from the stock while all saw them, not yet played."""
        out = 0
        for seat in range(self.n):
            if seat != viewer:
                taken = 0
                for card in self.shown[seat]:
                    taken |= 1 << card
                out |= taken & self.hands[seat]
        return out

    def _trick_points(self, cards: tuple[int, ...]) -> int:
        return game_count(mask_of(cards))  # toward the Game point

    def _score_hand(self) -> CaliforniaJackResult:
        tables = self.tables
        trump = tables.suit
        sides = len(self.scores)
        points = hand_points(
            trump,
            self.dealt,
            self.won,
            "captured",
            self.point_list,
            sides,
            tables.mask,
            tables.power,
        )
        taken = [0] * sides
        weights = self.weights
        # Points count in the rules' order: the first side to reach the target with one wins,
        # though another would reach it later in the same hand.
        for name in self.point_list:
            side = points[name]
            if side is None:
                continue
            worth = weights[name] if weights is not None else 1
            taken[side] += worth
            self.scores[side] += worth
            if self.winner is None and self.scores[side] >= self.target:
                self.winner = side
        return CaliforniaJackResult(
            trump=trump,
            trump_card=self.trump_card,
            points=MappingProxyType(points),  # a result reaches bots: read-only
            taken=tuple(taken),
            scores=tuple(self.scores),
        )

    def _explain(self, action: int) -> str:
        led = self.trick[0] if self.trick else -1
        hand = self.hands[self.to_act]
        return refusal(action, hand, led, self.tables, self.play_rule)


class CaliforniaJack(Game):
    """California Jack, and with a face-down stock Shasta Sam."""

    name = "california-jack"
    title = "California Jack"
    summary = "52 cards, six each, the face-up stock refills the hands and turns trump, to 10"
    Options = CaliforniaJackOptions
    State = CaliforniaJackState
    records_stock = True
    family = "All Fours"
    seat_counts = (2, 4)
    heuristic_bot = "tricktable.bots.california_jack_heuristic:CaliforniaJackHeuristic"
    presenter = "tricktable.seat.games.california_jack:CaliforniaJackPresenter"
    statistics = "tricktable.stats.california_jack:CaliforniaJackStats"

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        opts = options if options is not None else CaliforniaJackOptions()
        super().__init__(opts, preset, baseline)
        self.num_scores = sides_of_options(opts)
        self.step = 1 if opts.direction == "left" else opts.players - 1
        self.play_rule = _PLAY_RULES[opts.play]
        # The game's tables are tuples and read-only maps: every match of the game shares
        # them, and bots reach them through ``view.game``.
        self.trumps = tuple([trump_tables(s, [s * 13 + r for r in range(13)]) for s in range(4)])
        self.weights: Mapping[str, int] = MappingProxyType(point_weights(opts.points))
        self.weighted = any(w != 1 for w in self.weights.values())
        # What a seat's search may know of a hand (the draws, the seen top card): registered
        # with the search's rules when a game is made, not when this module is imported (the
        # search imports the games).
        from tricktable.games import california_jack_search  # noqa: F401

    def explain(self, view: View, action: int) -> str:
        # The reason needs only the seat's hand and the trick: no world is sampled.
        trick = view.trick
        led = trick[0][1] if trick else -1
        return refusal(action, view.hand, led, view.tables, self.play_rule)


GAME = CaliforniaJack
