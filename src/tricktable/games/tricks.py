"""Tricks: the plain parent of Spades and Hearts — no trump, no bids, a point for every trick.

Four players each play for themselves with the 52 cards, thirteen each. The first trick of a
hand is led by the seat left of the dealer and the deal passes left, so the seat that leads
first moves one place on every hand; the winner of a trick leads the next. Every trick scores
its winner one point at once, and the match stops the moment a seat reaches ``target``, even
in the middle of a hand.

A *bad card* (an answer that is not a legal card) costs the seat ``bad_card_penalty`` points
and throws the hand in; the same dealer redeals. The bot runner reports it with
:meth:`TricksState.penalize_bad_card`; it is logged as the action ``bad-card`` (or
``bad-card QS`` naming the card sent), which ``apply`` accepts from the seat to act during play
though ``legal_actions()`` never offers it, so records replay it exactly.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from tricktable.cards import NUM_CARDS, card_name, parse_card
from tricktable.engine.events import Acted
from tricktable.engine.trick import DEAL, PLAY, Game, TrickState
from tricktable.errors import IllegalAction, NotationError
from tricktable.games.tricks_options import TricksOptions
from tricktable.games.tricks_results import TricksResult

__all__ = [
    "BAD_CARD",
    "BAD_CARD_OF",
    "Tricks",
    "TricksOptions",
    "TricksState",
    "bad_card_action",
    "is_bad_card",
]

#: ``bad-card``: an answer that names no card at all
BAD_CARD: Final = 320
#: ``BAD_CARD_OF + card``: ``bad-card QS``, a card the seat may not play now
BAD_CARD_OF: Final = 256


def bad_card_action(card: int | None = None) -> int:
    """The action code of a bad card: ``card`` if the answer named one, else none."""
    if card is None:
        return BAD_CARD
    if not 0 <= card < NUM_CARDS:
        raise NotationError(f"bad card {card!r}: expected a card code 0..{NUM_CARDS - 1}")
    return BAD_CARD_OF + card


def is_bad_card(action: int) -> bool:
    """Whether an action code is a bad card."""
    return action == BAD_CARD or BAD_CARD_OF <= action < BAD_CARD_OF + NUM_CARDS


class TricksState(TrickState):
    """A Tricks match: thirteen tricks a hand, a point per trick, to ``target``."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        # The seat order is the server's: seat 0 leads the first hand, so seat 3 "deals" it.
        self.dealer = self.n - 1
        self.next_dealer = self.dealer
        self.target: int = game.options.target
        self.penalty: int = game.options.bad_card_penalty
        #: the scores when the hand in play was dealt (for the hand's points)
        self.start_scores: list[int] = [0] * self.n
        self.bad_card = -1

    # ------------------------------------------------------------------------ bad cards

    def penalize_bad_card(self, seat: int, card: int | None = None) -> None:
        """Charge ``seat`` (the seat to act) for a bad card and throw the hand in.

        ``card`` is the card it sent when it named one (not held, or not legal now); leave it
        out for an answer that is no card at all. Raises :class:`IllegalAction` when ``seat``
        is not the seat to play, or ``card`` is in fact a legal play.
        """
        action = bad_card_action(card)
        if self.phase == PLAY and seat != self.to_act:
            text = self.game.action_name(action)
            raise IllegalAction(seat, text, f"is not to play (seat {self.to_act} is)")
        self.apply(action)

    def apply(self, action: object) -> None:
        """Take ``action`` for the seat to act (a bad card too); raises :class:`IllegalAction`."""
        if (
            isinstance(action, int)
            and action >= BAD_CARD_OF
            and not isinstance(action, bool)
            and is_bad_card(action)
        ):
            self._bad_card(action)
            return
        # A seat that reaches the target ends the match at once, mid-hand if need be: the
        # engine ends a hand on any trick that decides the match.
        TrickState.apply(self, action)

    def _bad_card(self, action: int) -> None:
        if self.phase != PLAY:
            raise self.illegal(action)
        seat = self.to_act
        card = action - BAD_CARD_OF
        if action != BAD_CARD and self.legal_mask() >> card & 1:
            raise IllegalAction(
                seat,
                self.game.action_name(action),
                f"may play {card_name(card)}, so it is not a bad card",
            )
        self._legal = -1
        self._stale()
        self.actions.append(action)
        self.actors.append(seat)
        self.scores[seat] -= self.penalty
        self.bad_card = seat
        self.trick = []
        self.to_act = -1
        self._add_result(self._score_hand())
        # Thrown in: the same dealer deals again, so the same seat leads.
        self.next_dealer = self.dealer
        self.phase = DEAL
        events = self.events
        if events is not None:
            events.emit(Acted(seat, action, self.game.action_name(action)))
            self._tell_after(seat, self.tables.suit, len(self.tricks), len(self.results) - 1)

    # ------------------------------------------------------------------------ the hooks

    def _start_hand(self) -> None:
        self.phase = PLAY
        self.to_act = (self.dealer + 1) % self.n
        self.start_scores = self.scores[:]
        self.bad_card = -1

    def _on_trick(self, winner: int) -> None:
        scores = self.scores
        # Not ``+=``: compiled, an augmented item assignment goes through generic objects.
        score = scores[winner] + 1
        scores[winner] = score
        if score >= self.target:
            self.winner = winner

    def _score_hand(self) -> TricksResult:
        # Each trick was scored as it was won; the hand's result sums them up.
        return TricksResult(
            leader=(self.dealer + 1) % self.n,
            tricks=tuple(self.tricks_won),
            points=tuple(s - b for s, b in zip(self.scores, self.start_scores, strict=True)),
            bad_card=self.bad_card if self.bad_card >= 0 else None,
            scores=tuple(self.scores),
        )

    def _explain(self, action: int) -> str:
        if 0 <= action < 64:
            return self._explain_play(action)
        return "must play a card (there is no bidding in Tricks)"

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, TricksState)
        other.start_scores = self.start_scores[:]
        other.bad_card = self.bad_card

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return {"leader": (self.dealer + 1) % self.n, "target": self.target}


@mypyc_attr(allow_interpreted_subclasses=True)
class Tricks(Game):
    """Tricks as the seed describes it: no trump, a point a trick, first to ``target``."""

    name = "tricks"
    family = "Whist"
    title = "Tricks"
    summary = "52 cards, 13 each, each for itself, no trump, a point per trick, to 1000"
    Options = TricksOptions
    State = TricksState
    heuristic_bot = "tricktable.bots.tricks_heuristic:TricksHeuristic"
    seed_protocol = True  # seed 002's bots speak its stdio protocol word for word
    presenter = "tricktable.seat.games.tricks:TricksPresenter"
    statistics = "tricktable.stats.tricks:TricksStats"
    fault_penalty = "bad-card"  # seed 002: a fault is a bad card (TricksState.penalize_bad_card)
    seat_counts = (3, 4, 5, 6, 7)

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        super().__init__(options, preset, baseline)
        # Set on the instance, not as a class attribute: the compiled (mypyc) engine reads
        # the instance slot and would not see a class-level override. Each for itself.
        self.num_scores = self.num_players

    def action_name(self, action: int) -> str:
        """The text of an action: ``play TD``, or ``bad-card`` / ``bad-card QS``."""
        if action == BAD_CARD:
            return "bad-card"
        if is_bad_card(action):
            return "bad-card " + card_name(action - BAD_CARD_OF)
        return super().action_name(action)

    def parse_action(self, text: str) -> int:
        """Read an action: ``play TD`` (or ``TD``), ``bad-card`` or ``bad-card QS``."""
        words = text.strip().split()
        if words and words[0].lower() == "bad-card":
            if len(words) == 1:
                return BAD_CARD
            if len(words) == 2:
                return BAD_CARD_OF + parse_card(words[1])
            raise NotationError(f"bad action {text.strip()!r}: write bad-card or bad-card CARD")
        return super().parse_action(text)


GAME = Tricks
