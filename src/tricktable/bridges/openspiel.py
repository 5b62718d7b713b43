"""OpenSpiel's own Hearts bots at our Hearts table: ``openspiel-ismcts``, ``openspiel-random``.

`OpenSpiel <https://github.com/google-deepmind/open_spiel>`_ (the ``open_spiel`` package, its
module ``pyspiel``) has a Hearts game and, among its bots, information-set MCTS
(``pyspiel.ISMCTSBot``, in C++) and a uniform random bot. This bridge seats them at our table.

**The mirror.** At each decision the bot rebuilds, from its :class:`View` alone, a fresh
OpenSpiel Hearts state of the hand so far (:func:`mirror`): the pass direction (a chance
outcome there, set to ours), the deal, the passes and the cards played. OpenSpiel's state is a
full state — every hand in it — so the cards our seat cannot see are taken from a world drawn by
our own :class:`~tricktable.search.determinize.Determinizer` (consistent with everything the
view shows: the voids shown, the cards passed and received), never from the real state: the
bot has no road to it. OpenSpiel's information state for our seat is then exactly what the view
knows (its hand as dealt and now, its pass, the cards it received, the tricks), and the world's
hidden cards are only a starting point that its ISMCTS throws away: each simulation draws a new
world with Hearts' ``ResampleFromInfostate``, which OpenSpiel implements (its own note: it does
not use the voids shown in the play).

**Passing.** OpenSpiel passes one card at a time, seats 0 to 3 in order; our seats pass three
cards at once from the dealer's left. Passes are hidden until all four are made, so the order
tells no seat anything: the mirror makes the passes of the seats before ours in OpenSpiel's order
(those of the world, or three of the world's cards where that seat has not passed at our table
yet), and the bot asks OpenSpiel three times, applying each card, for its one pass of three.

**The rules.** :func:`openspiel_parameters` sets OpenSpiel's game parameters from our
``hearts`` options (see docs/openspiel.md for the table). ``hearts(queen_breaks=true)`` is
OpenSpiel's default game exactly. Our pass offsets are OpenSpiel's pass directions (1 left,
2 across, 3 right, 0 no pass) and our seats its players, so nothing is renumbered; a card is
``suit * 13 + rank`` here and ``rank * 4 + suit`` there. A ``moon`` other than ``add`` has no
OpenSpiel parameter and is refused.

**Decisions** are deterministic for a seed: each draws from a generator seeded by (the seat's
seed, the hand's number, the view's step), which seeds the world and OpenSpiel's bot alike.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, Final

from tricktable.bots.base import Bot
from tricktable.bots.search_base import decision_rng
from tricktable.cards import card_name, card_of, cards_in, rank_of, suit_of
from tricktable.engine.actions import PASS_CARDS
from tricktable.engine.trick import Game, TrickState, View
from tricktable.errors import BotError, TricktableError
from tricktable.games.hearts_options import DIRECTION_NAMES, HeartsOptions, pass_cycle
from tricktable.games.passing import PASSING
from tricktable.search.determinize import Determinizer

#: how to get OpenSpiel, said by every error that finds it missing
INSTALL_HINT: Final = "pip install 'tricktable[openspiel]' (or: pip install 'open_spiel>=1.5,<3')"
#: OpenSpiel's pass direction (= our pass offset) by the direction name a view shows
_OFFSETS: Final = {name: offset for offset, name in DIRECTION_NAMES.items()}
#: ISMCTS's final policies by the names the ``final_policy`` option takes
_POLICIES: Final = {
    "max_visit_count": "MAX_VISIT_COUNT",
    "normalized_visit_count": "NORMALIZED_VISIT_COUNT",
    "max_value": "MAX_VALUE",
}


def load_pyspiel() -> Any:
    """The ``pyspiel`` module; a one-line :class:`BotError` saying how to install it if absent."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError as exc:
        raise BotError(
            f"the OpenSpiel bots need the open_spiel package, which cannot be imported ({exc}); "
            f"install it: {INSTALL_HINT}"
        ) from None


def to_openspiel(card: int) -> int:
    """OpenSpiel's action for one of our cards: ``rank * 4 + suit``."""
    return rank_of(card) * 4 + suit_of(card)


def from_openspiel(action: int) -> int:
    """Our card for an OpenSpiel Hearts card action."""
    return card_of(action % 4, action // 4)


def openspiel_parameters(options: HeartsOptions) -> dict[str, bool]:
    """OpenSpiel's Hearts parameters for our ``hearts`` options (a :class:`BotError` if none fit).

    ``target`` has no counterpart: an OpenSpiel episode is one hand, and its bots see no match.
    """
    if options.moon != "add":
        raise BotError(
            f"OpenSpiel's Hearts scores a shot moon only as moon=add, not moon={options.moon}"
        )
    return {
        # The direction of each hand is set in the mirror (a chance outcome there): passing
        # is on when any hand of our cycle passes.
        "pass_cards": any(pass_cycle(options.passing)),
        "no_pts_on_first_trick": not options.first_trick_points,
        "can_lead_any_club": False,
        "jd_bonus": False,
        "avoid_all_tricks_bonus": False,
        "must_break_hearts": options.breaking,
        "qs_breaks_hearts": options.queen_breaks,
        # Ours: a seat holding only Q♠ and unbroken hearts must lead the Q♠, as here.
        "can_lead_hearts_instead_of_qs": False,
    }


def load_openspiel_hearts(game: Game) -> Any:
    """OpenSpiel's Hearts with the rules of our ``game`` (a :class:`BotError` if not Hearts)."""
    if game.name != "hearts" or not isinstance(game.options, HeartsOptions):
        raise BotError(f"the OpenSpiel bots play hearts only, not {game.name}")
    if game.num_players != 4:
        raise BotError(
            f"OpenSpiel's Hearts seats four players; {game.spec()} seats {game.num_players}"
        )
    pyspiel = load_pyspiel()
    return pyspiel.load_game("hearts", openspiel_parameters(game.options))


@dataclass(frozen=True)
class HandStory:
    """What a mirrored state is made of: one hand's pass offset, deal, passes and plays.

    ``passed[s]`` is 0 for a seat whose pass is not in the story (yet). ``first`` is the seat
    that is OpenSpiel's player 0 (see :func:`mirror`).
    """

    offset: int
    dealt: tuple[int, ...]
    passed: tuple[int, ...]
    plays: tuple[int, ...]
    first: int = 0

    @classmethod
    def of_state(cls, state: TrickState, first: int = 0) -> HandStory:
        """The whole truth of a real state's hand (for tests and the check of scores)."""
        offset = getattr(state, "pass_offset", 0)
        passed = tuple(getattr(state, "passed", (0, 0, 0, 0)))
        plays = tuple(a for a in state.actions if a < 52)
        return cls(offset, tuple(state.dealt), passed, plays, first)

    def seat(self, player: int) -> int:
        """Our seat for one of OpenSpiel's players."""
        return (player + self.first) % 4


def story_of_view(view: View, rng: random.Random) -> HandStory:
    """The story of the view's hand, its hidden cards drawn by our determinizer.

    Only the view is read: the world is a sample of what the seat cannot see, so the story
    holds no card of the real hidden hands but by chance. The view's seat is OpenSpiel's
    player 0, the first to pass there: while the cards are passed, no other pass is in the
    story, and none is needed (passes are hidden until all four are made). This also keeps
    OpenSpiel's ISMCTS clear of a fault of its Hearts resampler: searching a pass after the
    seat passing to it has passed, it deals that seat's real pass into its worlds (a card it
    may not know, and one the world may have dealt elsewhere) and crashes the process.
    """
    world = Determinizer(view).sample(rng)
    offset = _OFFSETS[view.info()["pass_direction"]]
    passed = (0, 0, 0, 0) if view.phase == PASSING else tuple(getattr(world, "passed", ()))
    plays = tuple(a for _, a in view.actions if a < 52)
    return HandStory(offset, tuple(world.dealt), passed or (0, 0, 0, 0), plays, view.seat)


def mirror(os_game: Any, story: HandStory) -> Any:
    """A new OpenSpiel Hearts state of ``os_game`` that has played ``story``.

    Our seat ``story.first + p`` is OpenSpiel's player ``p``: the rules treat every seat
    alike (the holder of 2♣ leads; no dealer), and pass offsets are relative, so any numbering
    plays the same hand. Every action goes through OpenSpiel's legality check, so a rule on
    which the two engines disagree stops the mirror with a :class:`BotError` naming the action.
    """
    state = os_game.new_initial_state()
    _apply(state, story.offset, "the pass direction")
    hands = [cards_in(story.dealt[story.seat(p)]) for p in range(4)]
    if any(len(cards) != 13 for cards in hands):
        raise BotError("OpenSpiel's Hearts deals 13 cards to each of four seats")
    for i in range(13):
        for player in range(4):  # OpenSpiel deals its card k to player k % 4
            _apply(state, to_openspiel(hands[player][i]), "the deal")
    if story.offset:
        for player in range(4):  # OpenSpiel's players pass in turn, from player 0
            seat = story.seat(player)
            if not story.passed[seat]:
                break
            for card in cards_in(story.passed[seat]):
                _apply(state, to_openspiel(card), f"seat {seat}'s pass of {card_name(card)}")
    for card in story.plays:
        _apply(state, to_openspiel(card), f"the play of {card_name(card)}")
    return state


def _apply(state: Any, action: int, what: str) -> None:
    try:
        state.apply_action_with_legality_check(action)
    except RuntimeError as exc:  # pyspiel.SpielError
        raise BotError(f"OpenSpiel's Hearts refused {what}: {_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    """An OpenSpiel error's text on one line (its messages may span several)."""
    return " ".join(str(exc).split())


def legal_cards(os_state: Any) -> int:
    """OpenSpiel's legal actions in a Hearts state, as a mask of our cards."""
    mask = 0
    for action in os_state.legal_actions():
        mask |= 1 << from_openspiel(action)
    return mask


class OpenSpielBot(Bot):
    """A seat played by an OpenSpiel bot through the mirror; subclasses say which bot."""

    name = "openspiel"

    def __init__(self) -> None:
        self._seed = 0
        self._pyspiel: Any = None
        self._os_game: Any = None

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self._os_game = load_openspiel_hearts(game)
        self._pyspiel = load_pyspiel()
        self._seed = seed

    def act(self, view: View) -> int:
        if self._os_game is None:
            raise BotError(f"the {self.name} bot was not started")
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self._seed, view)
        try:
            story = story_of_view(view, rng)
        except TricktableError as exc:  # no world could be drawn: a bug, said in one line
            raise BotError(f"the {self.name} bot cannot mirror this hand: {exc}") from None
        state = mirror(self._os_game, story)
        # The two engines must agree on who acts and what it may play; a rule they differ on
        # would otherwise surface as an illegal card much later, or not at all.
        if story.seat(state.current_player()) != view.seat:
            raise BotError(
                f"OpenSpiel has seat {story.seat(state.current_player())} to act, "
                f"not seat {view.seat}"
            )
        if view.phase != PASSING and legal_cards(state) != view.legal_mask():
            raise BotError("OpenSpiel's Hearts and ours disagree on the legal cards here")
        try:
            if view.phase == PASSING:
                mask = 0
                for _ in range(3):  # OpenSpiel passes a card at a time
                    chosen = self._choose(state, rng)
                    mask |= 1 << from_openspiel(chosen)
                    state.apply_action_with_legality_check(chosen)
                action = PASS_CARDS | mask
            else:
                action = from_openspiel(self._choose(state, rng))
        except RuntimeError as exc:  # pyspiel.SpielError, from inside OpenSpiel's bot
            raise BotError(f"OpenSpiel's {self.name} bot failed: {_one_line(exc)}") from None
        if action not in legal:
            raise BotError(f"OpenSpiel's {self.name} bot chose an illegal action ({action:#x})")
        return action

    def _choose(self, state: Any, rng: random.Random) -> int:
        """OpenSpiel's action in ``state``, our seat to act."""
        raise NotImplementedError


class OpenSpielRandomBot(OpenSpielBot):
    """OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``)."""

    name = "openspiel-random"

    def _choose(self, state: Any, rng: random.Random) -> int:
        bot = self._pyspiel.make_uniform_random_bot(state.current_player(), rng.getrandbits(31))
        return int(bot.step(state))


class OpenSpielIsmctsBot(OpenSpielBot):
    """OpenSpiel's information-set MCTS (``pyspiel.ISMCTSBot``, C++) with random rollouts.

    ``simulations`` a search (each a world resampled by OpenSpiel, a tree walk and a random
    rollout of ``rollouts`` playouts), or ``max_seconds`` of search when set (then the count of
    simulations, and so the choice, depends on the machine's speed); ``uct_c`` UCT's exploration
    constant, in OpenSpiel's units (its returns are 26 minus the hand's penalty points);
    ``final_policy`` how the searched root chooses: ``max_visit_count`` (the default: the child
    visited most), ``normalized_visit_count`` (OpenSpiel's default: drawn in proportion to the
    visits) or ``max_value``. A pass of three cards is three searches.
    """

    name = "openspiel-ismcts"

    def __init__(
        self,
        simulations: int = 1000,
        max_seconds: float | None = None,
        uct_c: float = 2.0,
        rollouts: int = 1,
        final_policy: str = "max_visit_count",
    ) -> None:
        super().__init__()
        if simulations < 1:
            raise BotError(f"openspiel-ismcts needs at least one simulation, not {simulations}")
        if max_seconds is not None and max_seconds <= 0:
            raise BotError(f"openspiel-ismcts needs max_seconds above 0, not {max_seconds}")
        if rollouts < 1:
            raise BotError(f"openspiel-ismcts needs at least one rollout, not {rollouts}")
        if final_policy not in _POLICIES:
            raise BotError(
                f"openspiel-ismcts has no final_policy {final_policy!r}; "
                f"choose {', '.join(_POLICIES)}"
            )
        self.simulations = simulations
        self.max_seconds = max_seconds
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.final_policy = final_policy

    def _choose(self, state: Any, rng: random.Random) -> int:
        pyspiel = self._pyspiel
        seed = rng.getrandbits(31)
        bot = pyspiel.ISMCTSBot(
            seed,
            pyspiel.RandomRolloutEvaluator(self.rollouts, seed),
            self.uct_c,
            self.simulations,
            -1,  # a new world for every simulation
            getattr(pyspiel.ISMCTSFinalPolicyType, _POLICIES[self.final_policy]),
            False,  # nodes keyed by the information state, not the observation
            False,  # Hearts' legal actions follow from the information state
            self.max_seconds if self.max_seconds is not None else -1.0,
        )
        return int(bot.step(state))


__all__ = [
    "INSTALL_HINT",
    "HandStory",
    "OpenSpielBot",
    "OpenSpielIsmctsBot",
    "OpenSpielRandomBot",
    "from_openspiel",
    "legal_cards",
    "load_openspiel_hearts",
    "load_pyspiel",
    "mirror",
    "openspiel_parameters",
    "story_of_view",
    "to_openspiel",
]
