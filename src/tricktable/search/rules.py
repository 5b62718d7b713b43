"""What each game adds to a seat's knowledge and to sampling its hidden cards: one class a game.

:class:`SearchRules` is a game with none of the special cases: no lead restrictions, no
passing, no stock, no hidden actions. A game with any of them has a subclass here, registered
by its ``Game`` class (a variant of options needs none: the hooks read the options):

- Setback and the Pitch family: the undealt cards; a joker led only when nothing else is held;
  ``may_trump`` (trumping instead of following shows no void);
- Hearts and Filippa: the passes (one's own known to be with its receiver, the others' hidden
  and sampled), the 2♣ with the first leader, hearts led unbroken, points on the first trick;
- Spades: spades led unbroken, the 2♣ lead, the bags carried from hand to hand;
- Euchre: the up-card (on the stock, in the dealer's hand, or its hidden discard) and the
  buried cards (three at four seats);
- Oh Hell: the hand size and the trump card turned up from the stock;
- Tricks: scores that grow trick by trick.

California Jack, Cinch and All Fours keep theirs beside them (``games/*_search.py``), imported
when such a game is made: these rules import the games, so none imports them back.

The hooks read only a view's public properties and the game's options.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from tricktable.cards import SPADES, SUIT_MASKS, cards_in, parse_card
from tricktable.engine.actions import PASS_CARDS
from tricktable.engine.trick import PLAY, Game, TrickState, View
from tricktable.games.euchre import DISCARD, DISCARDING, ORDER_UP, ORDER_UP_ALONE, Euchre
from tricktable.games.filippa import POOL, Filippa, FilippaState
from tricktable.games.hearts import HEART_CARDS, PASSING, POINT_CARDS, TWO_CLUBS, Hearts
from tricktable.games.hearts_options import DIRECTION_NAMES, pass_cycle
from tricktable.games.oh_hell import OhHell
from tricktable.games.setback import JOKERS, Setback
from tricktable.games.spades import Spades, SpadesState
from tricktable.games.tricks import Tricks
from tricktable.search.sampling import Place

if TYPE_CHECKING:
    from tricktable.search.knowledge import Knowledge

SPADE_CARDS: Final = SUIT_MASKS[SPADES]
#: pass offsets (seats to the left) by the direction's name in a view, at four seats
PASS_OFFSETS: Final = {name: offset for offset, name in DIRECTION_NAMES.items()}
#: a direction's name as a ``passing`` letter
_LETTERS: Final = {"left": "l", "right": "r", "across": "a", "hold": "h"}


def pass_offset(view: View) -> int:
    """The seats to the left this hand's passes go, from the view's direction and table size."""
    name = view.info()["pass_direction"]
    return pass_cycle(_LETTERS[name], view.game.num_players)[0]


#: (the deal as a mask per seat, the stock top card first, every action of the hand in order)
Rebuilt = tuple[list[int], list[int], list[int]]


class SearchRules:
    """The hooks of a game that has none of the special cases (Tricks' base, for one)."""

    #: whether every holding the sampler draws from these hooks' knowledge is consistent with
    #: the view (the sampling tests hold the hooks to it); a game whose hooks know less than
    #: the view tells sets False, and the determinizer rejects and draws again what is not
    exact: bool = True

    def deal_size(self, view: View) -> int:
        """How many cards each seat was dealt this hand."""
        return view.game.hand_size

    def follow_free(self, view: View) -> int:
        """Cards a seat may play to a trick even when it could follow suit."""
        return 0

    def lead_forbid(self, view: View, trick: int, before: int) -> int:
        """Cards that may lead trick number ``trick`` only when the leader holds nothing else.

        ``before`` is every card played to the tricks before it.
        """
        return 0

    def discard_forbid(self, view: View, trick: int) -> int:
        """Cards a seat that cannot follow may play to trick ``trick`` only when forced."""
        return 0

    def note(self, view: View, k: Knowledge) -> None:
        """Add what the game tells beyond the tricks: known places, dead cards, counts."""

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        """The places of hidden cards that are in no hand (undealt cards, a stock, a discard).

        Here: the cards left over when the deck does not deal evenly (Tricks at three seats).
        """
        undealt = len(view.game.deck) - view.game.num_players * self.deal_size(view)
        return [Place(undealt)] if undealt else []

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        """The deal, stock and whole action list that lead to ``hands`` and ``piles`` now.

        Actions the seat may not see are sampled (uniformly among those consistent).
        """
        dealt = [hand | played for hand, played in zip(hands, k.played_by, strict=True)]
        return dealt, [], [action for _seat, action in view.actions]

    def position(self, state: TrickState, view: View) -> None:
        """Give a new state the match's standing at the start of the view's hand."""
        state.scores = list(view.scores)
        state.results = list(view.results)

    def refuses(self, game: Game) -> str:
        """Why worlds of ``game``, with its options, cannot be sampled ("" when they can)."""
        return ""


#: the rules of each game class (see :func:`rules_for`)
RULES: dict[type[Game], SearchRules] = {}
_BASE: Final = SearchRules()


def register(game: type[Game]) -> Any:
    """Class decorator: the hooks of ``game`` (an instance is made once)."""

    def add(cls: type[SearchRules]) -> type[SearchRules]:
        RULES[game] = cls()
        return cls

    return add


def rules_for(game: Game) -> SearchRules:
    """The hooks of ``game``'s class (or of the nearest registered base class)."""
    for klass in type(game).__mro__:
        rules = RULES.get(klass)
        if rules is not None:
            return rules
    return _BASE


def unsupported(game: Game) -> str:
    """Why worlds of ``game`` cannot be sampled from a view ("" when they can): a game of its
    own stock or hidden actions (a drawn pack, a rob, a kitty) with no hooks here, whose deals
    the base rules would rebuild wrong."""
    if any(klass in RULES for klass in type(game).__mro__[:-1] if klass is not Game):
        return rules_for(game).refuses(game)
    if game.records_stock or game.private_actions:
        return f"sampling {game.name}'s hidden stock and actions is not written yet"
    return ""


def _info_card(view: View, key: str) -> int:
    name = view.info().get(key)
    return parse_card(name) if isinstance(name, str) else -1


# ----------------------------------------------------------------------------------- Pitch


@register(Setback)
class SetbackRules(SearchRules):
    """Setback and the Pitch family: undealt cards, joker leads, ``may_trump``."""

    def follow_free(self, view: View) -> int:
        return view.tables.mask if view.game.options.may_trump else 0

    def lead_forbid(self, view: View, trick: int, before: int) -> int:
        game = view.game
        assert isinstance(game, Setback)
        # The first lead names trump, which a joker cannot do.
        return JOKERS if trick == 0 else game.joker_forbid

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        undealt = len(view.game.deck) - view.game.num_players * self.deal_size(view)
        return [Place(undealt)] if undealt else []


# -------------------------------------------------------------------------------- passing


class PassingRules(SearchRules):
    """Hearts and Filippa: three cards passed by every seat before the play.

    Seats pass in turn from the dealer's left, each to the seat ``offset`` to its left, at any
    table size.
    """

    def note(self, view: View, k: Knowledge) -> None:
        if view.phase == PASSING:
            return  # passed cards move only once every seat has passed
        n = view.game.num_players
        for actor, action in view.actions:
            if actor == view.seat and action >= PASS_CARDS:
                k.known[(actor + pass_offset(view)) % n] |= (action ^ PASS_CARDS) & ~k.played
                return

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        n = view.game.num_players
        offset = pass_offset(view)
        first = (view.dealer + 1) % n
        passed = [-1] * n
        plays = []
        for actor, action in view.actions:
            if action >= PASS_CARDS:
                passed[actor] = action ^ PASS_CARDS
            else:
                plays.append(action)
        # ``hands`` are the hands of now: before the cards move, they are the deal.
        done = 0 if not offset else (view.to_act - first) % n if view.phase == PASSING else n
        held = [hand | played for hand, played in zip(hands, k.played_by, strict=True)]
        moved = done == n
        for s in range(n):
            if (s - first) % n < done and passed[s] < 0:
                # A hidden pass: any three cards of the passer's deal, or (once the cards have
                # moved) of the receiver's cards since then: every such three is as likely.
                source = held[(s + offset) % n] if moved else held[s]
                cards = cards_in(source)
                passed[s] = 0
                for card in rng.sample(cards, 3):
                    passed[s] |= 1 << card
        dealt = held[:]
        if moved:
            for s in range(n):
                dealt[s] = held[s] & ~passed[(s - offset) % n] | passed[s]
        actions = [PASS_CARDS | passed[(first + i) % n] for i in range(done)]
        return dealt, [], actions + plays


@register(Hearts)
class HeartsRules(PassingRules):
    """Hearts: the 2♣ leads, hearts led only once broken, no points on the first trick."""

    def lead_forbid(self, view: View, trick: int, before: int) -> int:
        opts = view.game.options
        if trick == 0 or not opts.breaking:
            return 0  # the 2C leads the first trick, whoever holds what
        breaks = POINT_CARDS if opts.queen_breaks else HEART_CARDS
        return 0 if before & breaks else HEART_CARDS

    def discard_forbid(self, view: View, trick: int) -> int:
        return POINT_CARDS if trick == 0 and not view.game.options.first_trick_points else 0

    def note(self, view: View, k: Knowledge) -> None:
        super().note(view, k)
        if view.phase == PLAY and not k.played:
            # The first leader holds the lowest club dealt (2C at four seats).
            first = getattr(view.game, "first_card", TWO_CLUBS)
            k.known[view.to_act] |= 1 << first & ~k.hand


@register(Filippa)
class FilippaRules(PassingRules):
    """Filippa: passing, and a pool carried from hand to hand."""

    def position(self, state: TrickState, view: View) -> None:
        super().position(state, view)
        assert isinstance(state, FilippaState)
        info = view.info()
        state.carry = int(info["pool"]) - POOL
        state.negative = list(info["negative"])


# --------------------------------------------------------------------------------- Spades


@register(Spades)
class SpadesRules(SearchRules):
    """Spades: spades led only once broken, the 2♣ lead, bags."""

    def lead_forbid(self, view: View, trick: int, before: int) -> int:
        opts = view.game.options
        if (trick == 0 and opts.first_lead == "2c") or not opts.break_spades:
            return 0
        return 0 if before & SPADE_CARDS else SPADE_CARDS

    def note(self, view: View, k: Knowledge) -> None:
        if view.game.options.first_lead == "2c" and view.phase == PLAY and not k.played:
            k.known[view.to_act] |= 1 << TWO_CLUBS & ~k.hand

    def position(self, state: TrickState, view: View) -> None:
        super().position(state, view)
        assert isinstance(state, SpadesState)
        state.bags = list(view.info()["bags"])


# --------------------------------------------------------------------------------- Euchre


def _euchre_picked_up(view: View) -> bool:
    """Whether the dealer took the up-card into its hand (ordered up, and not sitting out)."""
    info = view.info()
    maker = info.get("maker")
    if view.phase == DISCARDING:
        return True
    if maker is None or info.get("bidding_round") != 1:
        return False
    if not info.get("alone"):
        return True
    # A lone maker's partner sits out: where that is the dealer, the up-card stays down.
    out = info.get("sitting_out")
    if out is None:
        out = (maker + view.game.num_players // 2) % view.game.num_players
    return view.dealer not in (out if isinstance(out, list) else [out])


@register(Euchre)
class EuchreRules(SearchRules):
    """Euchre: the up-card, the dealer's hidden discard, the buried cards."""

    def note(self, view: View, k: Knowledge) -> None:
        up = _info_card(view, "up_card")
        dealer = view.dealer
        if not _euchre_picked_up(view):
            k.dead |= 1 << up  # on the stock: face up, or turned down
            return
        if view.phase == DISCARDING:
            k.counts[dealer] += 1
            k.known[dealer] |= 1 << up & ~k.hand
            return
        if dealer == view.seat:
            k.dead |= 1 << _own_discard(view)
            return
        # In the dealer's hand, or its discard: nobody else may hold it.
        for s in range(view.game.num_players):
            if s != dealer:
                k.cannot[s] |= 1 << up

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        up = 1 << _info_card(view, "up_card")
        # The buried cards, under the up-card: three at four seats, eight at three.
        game = view.game
        buried = len(game.deck) - game.num_players * self.deal_size(view) - 1
        piles = [Place(buried, up)]
        if view.phase == PLAY and view.seat != view.dealer and _euchre_picked_up(view):
            piles.append(Place(1))  # the dealer's discard
        return piles

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        dealt, _stock, actions = super().rebuild(view, k, hands, piles, rng)
        up = _info_card(view, "up_card")
        buried = cards_in(piles[0])
        rng.shuffle(buried)
        dealer = view.dealer
        if _euchre_picked_up(view):
            if view.phase == DISCARDING:
                dealt[dealer] &= ~(1 << up)
            elif dealer == view.seat:
                dealt[dealer] = (dealt[dealer] | 1 << _own_discard(view)) & ~(1 << up)
            else:
                discard = piles[1].bit_length() - 1
                dealt[dealer] = (dealt[dealer] | 1 << discard) & ~(1 << up)
                at = next(i for i, a in enumerate(actions) if a in (ORDER_UP, ORDER_UP_ALONE))
                actions.insert(at + 1, DISCARD + discard)
        return dealt, [up, *buried], actions


def _own_discard(view: View) -> int:
    for actor, action in view.actions:
        if actor == view.seat and action >= DISCARD:
            return action - DISCARD
    raise AssertionError("the dealer's view shows no discard")


# -------------------------------------------------------------------------------- Oh Hell


@register(OhHell)
class OhHellRules(SearchRules):
    """Oh Hell: hand sizes from the view, and the trump card turned up from the stock."""

    def deal_size(self, view: View) -> int:
        return int(view.info()["hand_size"])

    def note(self, view: View, k: Knowledge) -> None:
        up = _info_card(view, "up_card")
        if up >= 0:
            k.dead |= 1 << up

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        stock = len(view.game.deck) - view.game.num_players * self.deal_size(view)
        return [Place(stock - 1)] if stock else []

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        dealt, _stock, actions = super().rebuild(view, k, hands, piles, rng)
        up = _info_card(view, "up_card")
        if up < 0:
            return dealt, [], actions
        rest = cards_in(piles[0])
        rng.shuffle(rest)
        return dealt, [up, *rest], actions


# --------------------------------------------------------------------------------- Tricks


@register(Tricks)
class TricksRules(SearchRules):
    """Tricks: every trick already scored its point, so the hand began that much lower."""

    def position(self, state: TrickState, view: View) -> None:
        super().position(state, view)
        state.scores = [s - t for s, t in zip(view.scores, view.tricks_won, strict=True)]
