"""A game: immutable options and declarations, and the factory of its states (see
:mod:`tricktable.engine.trick` for how a game fills in the core's hooks)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from tricktable.engine import actions as act
from tricktable.engine.options import format_value, options_dict
from tricktable.engine.phases import DEAL, OVER
from tricktable.errors import IllegalAction, TricktableError

if TYPE_CHECKING:
    from tricktable.engine.state import TrickState
    from tricktable.engine.view import View

#: what rebuilds a full state from a seat's view, its hidden cards sampled (for
#: :meth:`Game.explain`): the search's :func:`~tricktable.search.determinize.determinize`,
#: registered by :func:`set_rebuilder`. The search imports the engine, so the engine holds
#: this hook rather than importing the search; None until one is registered
_rebuild: Callable[[View, random.Random], TrickState] | None = None


def set_rebuilder(rebuild: Callable[[View, random.Random], TrickState] | None) -> None:
    """Register what :meth:`Game.explain` rebuilds a state from a view with.

    :mod:`tricktable.search.determinize` registers itself when imported, and
    :mod:`tricktable.games` (which every game module lives in) a stand-in that imports it at
    the first refusal, so that every game gives the search's reasons without the cost of
    importing the search at start-up.
    """
    global _rebuild
    _rebuild = rebuild


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game with its options: immutable, and a factory of states.

    Subclasses set ``name``, ``Options`` (a frozen dataclass), ``State``, ``deck``,
    ``hand_size`` and ``num_scores``; ``preset`` names the variant the options came from.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    Options: ClassVar[type]
    State: ClassVar[type[TrickState]]
    #: seats at the table (a game whose options have ``players`` takes it from them)
    num_players: int = 4
    #: the table sizes the game allows (``tricktable games`` lists them)
    seat_counts: ClassVar[tuple[int, ...]] = (4,)
    #: the family ``tricktable games`` lists the game and its variants under
    family: ClassVar[str] = ""
    #: sides that score: partnerships, or one per seat (may depend on the options); seat s
    #: plays for side ``s % num_scores``: partners sit evenly round the table
    num_scores: int = 2
    #: the turn passes from seat s to seat ``(s + step) % num_players``: 1 is to the left
    #: (clockwise), ``num_players - 1`` to the right
    step: int = 1
    #: the cards in play (may depend on the options)
    deck: tuple[int, ...] = tuple(range(52))
    #: whether records list the undealt cards (the stock) after the hands (may depend on the
    #: options)
    records_stock: bool = False
    #: "module:Class" of the game's own heuristic bot (what the ``heuristic`` player plays)
    heuristic_bot: ClassVar[str] = ""
    #: "module:Class" of the adapter (:mod:`tricktable.protocols.http`) that speaks to HTTP
    #: bots; "" for the generic events. Seed 004's Spades names its own
    http_adapter: ClassVar[str] = ""
    #: whether the stdio protocol is seed 002's plain one, word for word (Tricks)
    seed_protocol: ClassVar[bool] = False
    #: whether trump is named by the first card led (the Pitch family), not before play:
    #: the stdio protocol tells it right after that card
    trump_named_by_lead: ClassVar[bool] = False
    #: "module:Class" of the game's presenter (:mod:`tricktable.seat.games`); "" for the generic
    #: one. Text, imported only when a table shows the game: the engine never imports the UI
    presenter: ClassVar[str] = ""
    #: "module:Class" of the game's statistics hook (:mod:`tricktable.stats`); "" for the
    #: generic one
    statistics: ClassVar[str] = ""
    #: the referee's penalty for a bot's fault: "" follows the runner's ``on_fault``;
    #: "forfeit" always forfeits; "bad-card" charges ``penalize_bad_card`` of the state (seed
    #: 002), then ``on_fault`` for a bot that broke its transport (see :mod:`tricktable.match`)
    fault_penalty: ClassVar[str] = ""
    #: whether the lower score is the better one (Hearts): analysis that compares scores
    #: (``tricktable duel``) turns their sign, and names no game
    lower_wins: ClassVar[bool] = False
    #: whether some actions are seen by some seats only (``TrickState._public``): views then
    #: copy only the visible ones (may depend on the options)
    private_actions: bool = False

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        self.options = options if options is not None else self.Options()
        self.preset = preset or self.name
        # A game written in plain Python may declare these as class attributes; compiled code
        # reads the instance fields, so copy what a subclass declares (games that vary them
        # by option set them after this __init__).
        for klass in type(self).__mro__:
            if klass is Game:
                break
            own = vars(klass)
            if isinstance(own.get("num_scores"), int) and self.num_scores == 2:
                self.num_scores = own["num_scores"]
            if isinstance(own.get("deck"), tuple) and self.deck == tuple(range(52)):
                self.deck = own["deck"]
            if isinstance(own.get("num_players"), int) and self.num_players == 4:
                self.num_players = own["num_players"]
            # Flags a game sets by class, or by option after this __init__ (a kitty).
            for flag in ("records_stock", "private_actions"):
                if own.get(flag) is True:
                    setattr(self, flag, True)
        players = getattr(self.options, "players", None)
        if isinstance(players, int) and not isinstance(players, bool):
            self.num_players = players
        # The options the preset name alone gives, so that spec() writes only the differences.
        self.baseline = baseline if baseline is not None else self.Options()
        self.hand_size = self._hand_size()

    def _hand_size(self) -> int:
        return len(self.deck) // self.num_players

    def new_state(self, seed: int | None = None) -> TrickState:
        """A new match, before its first deal; the seed decides the first dealer and the deals."""
        return self.State(self, seed)

    def options_dict(self) -> dict[str, object]:
        """The options as a JSON-ready dict (the ``options`` of a record)."""
        return options_dict(self.options, self.baseline)

    def spec(self) -> str:
        """The text that loads this game again, e.g. ``setback(target=11)``."""
        defaults = options_dict(self.baseline)
        changed = {k: v for k, v in self.options_dict().items() if defaults.get(k) != v}
        if not changed:
            return self.preset
        body = ",".join(f"{k}={format_value(v)}" for k, v in changed.items())
        return f"{self.preset}({body})"

    def action_name(self, action: int) -> str:
        """The text of an action (``play TD``, ``bid 3``...)."""
        return act.action_name(action)

    def parse_action(self, text: str) -> int:
        """Read an action's text; raises ``NotationError``."""
        return act.parse_action(text)

    def team_of(self, seat: int) -> int:
        """The index in ``scores`` that a seat plays for (partners sit evenly round the table:
        with three sides of two at six seats, 0 and 3 are partners)."""
        return seat % self.num_scores

    def explain(self, view: View, action: int) -> str:
        """Why the rules refuse ``action`` by the seat of ``view``, on its turn.

        The reason comes from a state rebuilt from the view alone (the hidden cards sampled:
        see :func:`set_rebuilder`), so it can only speak of what that seat knows; it is the
        engine's own reason, as ``apply`` would give it. With nothing registered to rebuild
        one (a game made outside :mod:`tricktable.games`, the search never imported), it is
        the core's plainest reason.
        """
        rebuild = _rebuild
        if rebuild is None:
            return "may not do that now"
        replica = rebuild(view, random.Random(0))
        return replica.illegal(action).reason


def _action_text(game: Game, action: int) -> str:
    """An action's text for an error, even for a code the game does not know."""
    try:
        return game.action_name(action)
    except TricktableError:
        return f"action {action}"


def _refused_now(game: Game, seat: int, phase: int, action: object) -> IllegalAction | None:
    """The error for anything that is no action, or for any action while nobody may act."""
    if not isinstance(action, int) or isinstance(action, bool) or action < 0:
        return IllegalAction(seat, str(action), "sent something that is not an action")
    if phase == OVER:
        return IllegalAction(seat, _action_text(game, action), "cannot act: the match is over")
    if phase == DEAL:
        text = _action_text(game, action)
        return IllegalAction(seat, text, "cannot act: the next hand is not dealt yet")
    return None
