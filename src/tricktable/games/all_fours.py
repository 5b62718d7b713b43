"""All Fours (Seven Up, Old Sledge, Trinidad's All Fours): a turned-up trump, begging, running
the cards, High Low Jack Game.

The game of pagat.com/allfours/allfours.html and the American books (Foster's Complete Hoyle):
six cards each, the next card of the stock turned up for trump (a jack turned up "kicks" a point
to the dealer); the eldest hand stands or begs; begged, the dealer gives a point or runs the
cards: three more to each seat and a new card turned, again while it is of the refused suit; a
stock run dry throws the deal in, and the same dealer deals again. Then as many tricks as cards
in hand, eldest leading, a trump always allowed. Points: High and Low to the sides dealt them,
Jack to its captor (Trinidad's hang jack: more when an opponent of its holder takes it), Game
on the card points. Every variant is an option of :class:`AllFoursOptions` (see
``all_fours_options.py``) and a preset of ``presets/all_fours.toml``.

Action codes of this game (from 256 up): ``stand`` and ``beg`` (the eldest hand), ``give`` and
``run`` (the dealer, begged).

The up-card is public (a run sets the refused ones aside, face down); the cards a run deals are
each seat's own (its view's ``hand`` and ``dealt``; the events tell each seat its new cards
alone). Records list the stock, so a replay runs the cards again exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from mypy_extensions import mypyc_attr

from tricktable.cards import JACK, SUITS, card_name, mask_of
from tricktable.engine.events import HandScored, MatchOver
from tricktable.engine.trick import (
    AUCTION,
    DEAL,
    OVER,
    PLAY,
    Facts,
    Game,
    TrickState,
    TrumpTables,
    trump_tables,
)
from tricktable.errors import NotationError
from tricktable.games.all_fours_options import AllFoursOptions, read_kick
from tricktable.games.all_fours_results import AllFoursResult
from tricktable.games.pitch_scoring import game_count, high_low
from tricktable.games.seating import sides_of_options

__all__ = [
    "BEG",
    "GIVE",
    "GIVING",
    "POINT_ORDER",
    "RUN",
    "STAND",
    "AllFours",
    "AllFoursOptions",
    "AllFoursState",
]

#: the eldest hand accepts the turned-up suit, or refuses it
STAND: Final = 256
BEG: Final = 257
#: the dealer, begged, gives the gift (the suit stays), or runs the cards
GIVE: Final = 258
RUN: Final = 259

#: the dealer's answer to a beg
GIVING: Final = 10

#: the points of a hand, in the order they count (after the kick and the gift)
POINT_ORDER: Final = ("high", "low", "jack", "game")

_WORDS: Final = {"stand": STAND, "beg": BEG, "give": GIVE, "run": RUN}
_NAMES: Final = {code: word for word, code in _WORDS.items()}


class AllFoursState(TrickState):
    """An All Fours match: the turn-up, begging, running the cards, then the tricks."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, AllFours)
        self.trumps: tuple[TrumpTables, ...] = game.trumps
        self.kicks: tuple[int, ...] = game.kicks
        opts = game.options
        self.may_trump: bool = opts.may_trump
        # The options read at each hand, as fields of the state: compiled, a field is a slot
        # read, an option an attribute looked up on a Python object (a two-hand match reads
        # them for every 13 cards played).
        self.begging: bool = opts.begging
        self.count_out: bool = opts.count_out
        self.target: int = opts.target
        self.low_to_dealt: bool = opts.low_to == "dealt"
        self.hang_jack: int = opts.hang_jack
        self.tie_to_eldest: bool = opts.game_tie == "eldest"
        self._facts_public = True  # _view_extra: the up-card and the begging, for all
        #: the card turned up last (the stock's top: ``stock[0]``), and the suit turned up
        #: first (begged, it is the refused suit)
        self.up_card = -1
        self.proposed = -1
        self.eldest = -1
        self.begged = False
        self.gave = False
        self.runs = 0
        #: what each side gained this hand so far (the kick, the gift, then the points)
        self.gained: list[int] = []
        #: the name of ``up_card`` (made when a card is turned, not at each trick's facts)
        self.up_name = ""
        #: the facts of the play, made once a hand: none changes from the first card to the
        #: last (the views asked for them again after every trick)
        self.play_info: Facts | None = None
        #: each seat's side
        self.side_of: list[int] = [game.team_of(seat) for seat in range(self.n)]

    # ------------------------------------------------------------------------ the turn-up

    def _start_hand(self) -> None:
        if not self.stock:
            # A deal given without its stock (tests, tools): the rest of the deck, lowest first.
            dealt = 0
            for mask in self.hands:
                dealt |= mask
            self.stock = [c for c in self.game.deck if not dealt >> c & 1]
            self.history[-1].stock = list(self.stock)
        self.begged = False
        self.gave = False
        self.runs = 0
        self.gained = [0] * len(self.scores)
        self.eldest = (self.dealer + self.step) % self.n
        card = self.up_card = self.stock[0]
        self.up_name = card_name(card)
        self.proposed = card // 13
        if self._kick(card):
            if self.events is not None:  # ended inside deal(), which tells no result
                scores = tuple(self.scores)
                self.events.emit(HandScored(len(self.history) - 1, self.results[-1], scores))
                self.events.emit(MatchOver(self.winner, scores))
            return
        if self.begging:
            self.phase = AUCTION
            self.to_act = self.eldest
        else:
            self._settle(self.proposed)

    def _kick(self, card: int) -> bool:
        """Score the kick of a card that names trump; whether it ended the match."""
        points = self.kicks[card % 13]
        if points:
            return self._gain(self.game.team_of(self.dealer), points)
        return False

    def _gain(self, side: int, points: int) -> bool:
        """Add points before the play; whether they count the side out (the match ends)."""
        self.scores[side] += points
        self.gained[side] += points
        self._stale()  # the scores views share
        if self.count_out and self.scores[side] >= self.target:
            self.winner = side
            self._finish(thrown_in=False)
            return True
        return False

    def _settle(self, suit: int) -> None:
        self.play_info = None
        self.tables = self.trumps[suit]
        self.phase = PLAY
        self.to_act = self.eldest

    # ---------------------------------------------------------------- begging and running

    def _other_legal(self) -> int:
        if self.phase == AUCTION:
            return _STAND_BEG
        if self.phase == GIVING:
            return _GIVE_RUN if self._may_give() else _RUN_ONLY
        return 0

    def _may_give(self) -> bool:
        opts = self.options
        if opts.gift_wins:
            return True
        dealer_side = self.game.team_of(self.dealer)
        return all(
            score + opts.gift < opts.target
            for side, score in enumerate(self.scores)
            if side != dealer_side
        )

    def _apply_other(self, action: int) -> None:
        if action == STAND:
            self._settle(self.proposed)
        elif action == BEG:
            self.begged = True
            self.phase = GIVING
            self.to_act = self.dealer
        elif action == GIVE:
            self.gave = True
            if not self._give():
                self._settle(self.proposed)
        else:
            self._run()

    def _give(self) -> bool:
        """Each side but the dealer's scores the gift, from the eldest's round the table;
        whether one was counted out."""
        game = self.game
        dealer_side = game.team_of(self.dealer)
        done = 0
        for i in range(self.n):
            side = game.team_of((self.eldest + i * self.step) % self.n)
            if side == dealer_side or done >> side & 1:
                continue
            done |= 1 << side
            if self._gain(side, self.options.gift):
                return True
        return False

    def _run(self) -> None:
        """Run the cards: three more to each seat from the eldest and a new card turned,
        until a new suit (or once); a stock too short throws the deal in.

        The stock under the up-card is dealt; the card turned then is the stock's top
        (``stock[0]``: what every seat sees of the stock), and the cards turned before are
        set aside, face down.
        """
        n = self.n
        while True:
            stock = self.stock
            if len(stock) < 3 * n + 2:
                self._finish(thrown_in=True)
                return
            at = 1
            for i in range(n):
                seat = (self.eldest + i * self.step) % n
                extra = mask_of(stock[at : at + 3])
                at += 3
                self.hands[seat] = self.hands[seat] | extra
                self.dealt[seat] = self.dealt[seat] | extra
            self.stock = stock[at:]
            self.hand_size += 3
            self.runs += 1
            card = self.up_card = self.stock[0]
            self.up_name = card_name(card)
            if card // 13 != self.proposed or self.options.run_cards == "once":
                if not self._kick(card):
                    self._settle(card // 13)
                return

    def _finish(self, thrown_in: bool) -> None:
        """End the hand before the play: thrown in (the same dealer deals again), or a side
        counted out by the kick or the gift."""
        self.to_act = -1
        self._add_result(
            AllFoursResult(
                trump=None if thrown_in else self.up_card // 13,
                up_card=self.up_card,
                begged=self.begged,
                gave=self.gave,
                runs=self.runs,
                points=_NO_POINTS,
                hanged=False,
                gained=tuple(self.gained),
                scores=tuple(self.scores),
                thrown_in=thrown_in,
            )
        )
        self._stale()
        if thrown_in:
            self.next_dealer = self.dealer
            self.phase = DEAL
        else:
            self.phase = OVER

    # ------------------------------------------------------------------------------ play

    def _play_mask(self, seat: int, hand: int) -> int:
        if not self.trick:
            return hand
        follow = hand & self.lead_mask
        if not follow:
            return hand
        if self.may_trump:
            return follow | hand & self.tables.mask
        return follow

    def _trick_points(self, cards: tuple[int, ...]) -> int:
        return game_count(mask_of(cards))  # toward the Game point

    # --------------------------------------------------------------------------- scoring

    def _side_holding(self, masks: list[int], bit: int) -> int:
        for seat in range(self.n):
            if masks[seat] & bit:
                return self.side_of[seat]
        return -1

    def _score_hand(self) -> AllFoursResult:
        trump = self.tables.suit
        sides = len(self.scores)
        everything = 0
        for mask in self.dealt:
            everything |= mask
        high, low = high_low(trump, everything)
        points: dict[str, int | None] = {}
        jack_value = 1
        points["high"] = self._side_holding(self.dealt, high) if high else None
        low_masks = self.dealt if self.low_to_dealt else self.won
        points["low"] = self._side_holding(low_masks, low) if low else None
        jack = 1 << (trump * 13 + JACK)
        hanged = False
        if everything & jack:
            taker = self._side_holding(self.won, jack)
            hanged = taker != self._side_holding(self.dealt, jack)
            points["jack"] = taker
            if hanged:
                jack_value = self.hang_jack
        else:
            points["jack"] = None
        counts = [0] * sides
        side_of = self.side_of
        for seat in range(self.n):
            counts[side_of[seat]] += game_count(self.won[seat])
        best = max(counts)
        game_side: int | None = None
        if counts.count(best) == 1:
            game_side = counts.index(best)
        elif self.tie_to_eldest:
            for i in range(self.n):
                side = side_of[(self.eldest + i * self.step) % self.n]
                if counts[side] == best:
                    game_side = side
                    break
        points["game"] = game_side
        for name in POINT_ORDER:
            earner = points[name]
            if earner is None or self.winner is not None:
                continue
            value = jack_value if name == "jack" else 1
            self.scores[earner] += value
            self.gained[earner] += value
            if self.count_out and self.scores[earner] >= self.target:
                self.winner = earner
        if not self.count_out:
            top = max(self.scores)
            if top >= self.target and self.scores.count(top) == 1:
                self.winner = self.scores.index(top)
        return AllFoursResult(
            trump=trump,
            up_card=self.up_card,
            begged=self.begged,
            gave=self.gave,
            runs=self.runs,
            points=MappingProxyType(points),  # a result reaches bots: read-only
            hanged=hanged,
            gained=tuple(self.gained),
            scores=tuple(self.scores),
        )

    # ------------------------------------------------------------------ views and messages

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, AllFoursState)
        other.up_card = self.up_card
        other.proposed = self.proposed
        other.eldest = self.eldest
        other.begged = self.begged
        other.gave = self.gave
        other.runs = self.runs
        other.gained = self.gained[:]
        other.up_name = self.up_name
        other.play_info = self.play_info  # never changed once made: shared

    def _phase_name(self) -> str:
        return "give-or-run" if self.phase == GIVING else str(self.phase)

    def _view_extra(self, seat: int) -> Facts:
        if self.phase == PLAY:
            info = self.play_info
            if info is None:
                info = self.play_info = self._facts()
            return info
        return self._facts()

    def _facts(self) -> Facts:
        """The facts every seat may know: the turn-up, the begging, the runs, the gains (pairs,
        read-only as made: every seat's views share them)."""
        return (
            ("up_card", self.up_name if self.up_card >= 0 else None),
            ("proposed", SUITS[self.proposed] if self.proposed >= 0 else None),
            ("eldest", self.eldest),
            ("begged", self.begged),
            ("gave", self.gave),
            ("runs", self.runs),
            ("hand_size", self.hand_size),
            ("gained", tuple(self.gained)),
        )

    def _explain(self, action: int) -> str:
        phase = self.phase
        if phase == PLAY:
            if not 0 <= action < 64:
                return "must play a card: trump is settled"
            return self._explain_play(action)
        if phase == AUCTION:
            return "the eldest hand must stand or beg"
        if action == GIVE:
            return (
                f"may not give: the gift of {self.options.gift} would put a side out "
                "(gift_wins=false); run the cards"
            )
        return "the dealer, begged, must give or run the cards"

    def _explain_play(self, card: int) -> str:
        hand = self.hands[self.to_act]
        if self.trick and 0 <= card < 64 and hand >> card & 1 and hand & self.lead_mask:
            suit = SUITS[self.trick[0] // 13]
            if self.may_trump:
                return f"must follow suit {suit} or trump"
            return f"must follow suit {suit}"
        return super()._explain_play(card)


_STAND_BEG: Final = 1 << STAND | 1 << BEG
_GIVE_RUN: Final = 1 << GIVE | 1 << RUN
_RUN_ONLY: Final = 1 << RUN
#: the points of a hand that ended before the play: none
_NO_POINTS: Final[Mapping[str, int | None]] = MappingProxyType(
    {"high": None, "low": None, "jack": None, "game": None}
)


@mypyc_attr(allow_interpreted_subclasses=True)
class AllFours(Game):
    """All Fours and its variants: Seven Up, Old Sledge, Trinidad's All Fours..."""

    name = "all-fours"
    family = "All Fours"
    title = "All Fours"
    summary = "52 cards, six each, trump turned up, stand or beg, run the cards, High Low Jack Game"
    Options = AllFoursOptions
    State = AllFoursState
    records_stock = True  # the turn-up and the cards a run deals come from the stock
    heuristic_bot = "tricktable.bots.all_fours_heuristic:AllFoursHeuristic"
    statistics = "tricktable.stats.all_fours:AllFoursStats"
    presenter = "tricktable.seat.games.all_fours:AllFoursPresenter"
    seat_counts = (2, 3, 4, 5, 6)

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        super().__init__(options, preset, baseline)
        opts = self.options
        self.num_scores = sides_of_options(opts)
        self.step = 1 if opts.direction == "left" else opts.players - 1
        # The game's tables are tuples: every match of the game shares them, and bots reach
        # them through ``view.game``.
        self.trumps = tuple([trump_tables(s, [s * 13 + r for r in range(13)]) for s in range(4)])
        kick = read_kick(opts.kick)
        self.kicks = tuple([kick.get(r, 0) for r in range(13)])
        # What a seat's search may know of a hand (the runs, the turned cards): registered
        # with the search's rules when a game is made, not when this module is imported (the
        # search imports the games).
        from tricktable.games import all_fours_search  # noqa: F401

    def _hand_size(self) -> int:
        return 6

    def action_name(self, action: int) -> str:
        """The text of an action: ``stand``, ``beg``, ``give``, ``run``, ``play TD``."""
        word = _NAMES.get(action)
        if word is not None:
            return word
        return super().action_name(action)

    def parse_action(self, text: str) -> int:
        """Read an action: ``stand``, ``beg``, ``give`` (``take one``), ``run``, a card."""
        words = " ".join(text.strip().lower().split())
        if words in ("take one", "give one"):
            return GIVE
        code = _WORDS.get(words)
        if code is not None:
            return code
        try:
            return super().parse_action(text)
        except NotationError:
            raise NotationError(
                f"unknown action {text.strip()!r}: write stand, beg, give, run or play CARD"
            ) from None


GAME = AllFours
