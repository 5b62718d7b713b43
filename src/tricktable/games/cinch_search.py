"""What a seat's search may know of a Cinch hand, and how it samples the hidden cards.

The hooks of :mod:`tricktable.search.rules` for :class:`~tricktable.games.cinch.Cinch` and its
relatives (Pedro Sancho, Dom Pedro, Catch Five, Nine-Five: options of the same game). After the
auction and the trump named, each seat in turn from the dealer's left discards (``discard``):

- ``non-trumps``: every non-trump, face down and without an action, and the trumps beyond
  ``play_size``, face up (plain ones before point cards); each then draws back to
  ``play_size`` from the pack;
- ``any``: what it likes, face down, then ``draw`` (public) back to ``play_size``;
- ``down``: down to ``play_size``, face down, with no draw; ``none``: nothing.

Where the dealer robs, he discards nothing: once the others have drawn he takes the rest of
the pack and keeps ``play_size`` of it (``keep``, his alone). What a seat knows, read from its
view: its own cards as dealt, discarded and drawn, the trumps shown thrown, the cards played
and the voids shown (a trump may be played while able to follow where ``may_trump``: it shows
no void). A seat that threw a trump face up kept only trumps (only point trumps, if it threw
one). The views tell nobody how many cards another seat threw and drew.

A sampled world deals the hidden cards to the hands and to two piles: the non-trumps some seat
must have thrown (refusing trumps), and the rest (more discards, the dealer's robbed cards that
he did not keep, the pack left undrawn). It is then rebuilt from the deal: how many cards each
seat needed after its discard is chosen at random among the counts its holding allows, such
that the pack, drawn in turn, gives the seat viewing what it got (and leaves the robbing dealer
viewing what he found); each seat's deal is then the cards it kept, the cards it took back
where the pack ran out on it (its highest discards, as the game has it) and its other discards
from the piles (non-trumps where they must be, below those taken back); the pack is laid out
so that the draws give each seat the cards it holds, the dealer's rob last, and the discards,
draws and keeps the seat did not see are added to the hand's actions. Replaying them
reproduces the holding exactly, or refuses it and the determinizer draws again: a holding no
count fits (a seat with too few trumps for the draws the pack could give), or discards no pile
can give (too few low cards below those taken back).

Where the counts of the other hands are hidden (during the discard and the rob), one choice of
them consistent with the view is made for the decision: the seat discarding has thrown nothing
hidden yet; the seats done kept as many trumps as the cards unseen make needed (``non-trumps``)
or threw the fewest (``any``, ``down``); in the rob, the others drew as much as the pack gave.

A table whose pack is smaller than the cards its drawing seats throw at the least (five seats
of nine cards) runs the pack out on nearly every seat; its worlds are not sampled
(:meth:`CinchRules.refuses`).

Registered when a :class:`Cinch` game is made (``Cinch.__init__`` imports this module: the
search's rules import the games, so a game module cannot import them at its own import).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple

from tricktable.cards import cards_in
from tricktable.engine.trick import AUCTION, PLAY, Game, View
from tricktable.errors import TricktableError
from tricktable.games.cinch import DISCARD, DISCARDING, DRAW, KEEP, NAMING, ROBBING, TRUMP, Cinch
from tricktable.search.rules import Rebuilt, SearchRules, register
from tricktable.search.sampling import Place

if TYPE_CHECKING:
    from tricktable.search.knowledge import Knowledge

#: action codes below this play a card
_CARDS = 64


class _Course(NamedTuple):
    """The hand's course as one seat's view tells it, and the hidden counts chosen for it."""

    #: the seats that discard and draw, in turn (the robbing dealer is not among them)
    order: list[int]
    #: how many of ``order`` have finished discarding (all of them once the draw is made)
    done: int
    #: the actions up to the trump named, and each seat's discard-phase actions the view shows
    prefix: list[int]
    seen: list[list[int]]
    #: the keeps the view shows (the viewer's own, as dealer), the cards played
    keeps: list[int]
    plays: list[int]
    #: by seat (not the viewer): the trumps it threw face up
    shown: list[int]
    #: by seat: how many cards it holds now (-1: the hand's course gives it), and how many
    #: it needed after its discard (-1: free, chosen for each world)
    counts: list[int]
    needs: list[int]
    #: the non-trumps thrown that the piles must hold, beyond what every world chooses
    thrown: int


def _rules(view: View) -> tuple[Cinch, str, bool]:
    game = view.game
    assert isinstance(game, Cinch)
    return game, game.options.discard, game.robs


def _order(view: View) -> list[int]:
    game, _rule, _robs = _rules(view)
    return _order_of(game, view.dealer)


def _order_of(game: Cinch, dealer: int) -> list[int]:
    """The seats that discard and draw, in turn, when ``dealer`` deals."""
    n = game.num_players
    order = [(dealer + k * game.step) % n for k in range(1, n + 1)]
    if game.robs:
        order.pop()
    return order if game.options.discard != "none" else []


#: the last view read and its course (every hook of a decision asks for it, many times)
_LAST: list[tuple[View, _Course]] = []


def _course(view: View) -> _Course:
    """The view's course (read once for each view)."""
    last = _LAST[-1] if _LAST else None
    if last is not None and last[0] is view:
        return last[1]
    course = _read(view)
    _LAST[:] = [(view, course)]
    return course


def _read(view: View) -> _Course:
    game, rule, _robs = _rules(view)
    n = game.num_players
    hand_size = game.options.hand_size
    keep = game.options.play_size
    order = _order(view)
    prefix: list[int] = []
    seen: list[list[int]] = [[] for _ in range(n)]
    keeps: list[int] = []
    plays: list[int] = []
    shown = [0] * n
    named = False
    for seat, action in view.actions:
        if action < _CARDS:
            plays.append(action)
        elif not named:
            prefix.append(action)
            named = TRUMP <= action < TRUMP + 4
        elif KEEP <= action < DRAW:
            keeps.append(action)
        else:
            seen[seat].append(action)
            if rule == "non-trumps" and seat != view.seat:
                shown[seat] |= 1 << (action - DISCARD)
    phase = view.phase
    if phase in (AUCTION, NAMING):
        done = 0
    elif phase == DISCARDING:
        done = order.index(view.to_act)
    else:
        done = len(order)
    counts = [-1] * n
    needs = [-1] * n
    course = _Course(order, done, prefix, seen, keeps, plays, shown, counts, needs, 0)
    if phase == DISCARDING:
        return _discarding(view, course, hand_size, keep)
    if phase == ROBBING:
        return _robbing(view, course, hand_size, keep)
    if phase == PLAY and rule == "non-trumps":
        thrown = 0
        for s in order:
            if s != view.seat:
                thrown += hand_size - keep - shown[s].bit_count()
        return course._replace(thrown=thrown)
    return course


def _unseen(view: View) -> tuple[int, int]:
    """The unseen trumps and non-trumps: not the seat's own, played or shown thrown."""
    deck = (1 << len(view.game.deck)) - 1
    seen = view.dealt | view.hand | view.played
    for _seat, action in view.actions:
        if DISCARD <= action < KEEP:
            seen |= 1 << (action - DISCARD)
    unseen = deck & ~seen
    trumps = view.tables.mask
    return (unseen & trumps).bit_count(), (unseen & ~trumps).bit_count()


def _discarding(view: View, course: _Course, size: int, keep: int) -> _Course:
    """Counts during the discard: a seat not yet come to it holds its deal; the seat
    discarding has thrown nothing hidden yet; the seats done kept the fewest cards the rule
    lets them (``non-trumps``: their trumps, as many as the unseen cards allow)."""
    game, rule, _robs = _rules(view)
    counts, shown = course.counts, course.shown
    me = view.seat
    sizes = _sizes(view)
    if sizes is not None:
        # Told: a seat done (and the one discarding) threw its deal but what it holds.
        thrown = 0
        for s in range(game.num_players):
            if s != me:
                counts[s] = sizes[s]
        if rule != "non-trumps":
            return course
        for s in course.order[: course.done + 1]:
            if s != me:
                thrown += size - sizes[s] - shown[s].bit_count()
        return course._replace(thrown=thrown)
    for s in course.order[: course.done]:
        if s == me:
            continue
        if rule == "any":
            # Done with its turn: thrown down to play_size and asked to draw (all, if no draw
            # is shown: a seat left with no card is asked nothing).
            counts[s] = min(size, keep) if DRAW in course.seen[s] else 0
        elif rule == "down":
            counts[s] = keep
    if rule != "non-trumps":
        return course
    # Non-trumps: each seat done holds only its trumps, and the one discarding more than
    # play_size of them; how many, the view does not tell. The trumps they hold and the
    # non-trumps they threw must both be among the unseen cards.
    trumps_unseen, plain_unseen = _unseen(view)
    done = [s for s in course.order[: course.done] if s != me]
    now = course.order[course.done]
    free = []
    need = 0  # trumps held by the seats whose count is settled
    cards = 0  # and the cards of every such deal, less what was shown thrown
    for s in done:
        cards += size - shown[s].bit_count()
        if shown[s]:
            counts[s] = keep
            need += keep
        else:
            counts[s] = 0
            free.append(s)
    if now != me:
        counts[now] = keep + 1
        need += keep + 1
        cards += size - shown[now].bit_count()
    # Fewest trumps: as many as the non-trumps unseen cannot cover.
    extra = max(0, cards - need - plain_unseen)
    for s in free:
        take = min(extra, keep)
        counts[s] = take
        need += take
        extra -= take
    if now != me and extra:
        take = min(extra, size - shown[now].bit_count() - counts[now])
        counts[now] += take
        need += take
        extra -= take
    if extra or need > trumps_unseen:
        raise TricktableError("no count of the hidden discards fits the cards unseen")
    thrown = cards - need
    return course._replace(thrown=thrown)


def _robbing(view: View, course: _Course, size: int, keep: int) -> _Course:
    """Counts during the rob: every other seat holds play_size; the dealer the deal and the
    pack the others left. A dealer viewing saw that rest; any other viewer knows its own draw
    (and the dealer's hand, where the view tells the hands' sizes): the others are taken to
    have drawn as much as they could (their whole deal's non-trumps thrown) and it allows, the
    pack running out where it would."""
    game, rule, _robs = _rules(view)
    n = game.num_players
    me = view.seat
    dealer = view.dealer
    counts, needs, shown = course.counts, course.needs, course.shown
    pack = len(game.deck) - n * size
    for s in course.order:
        counts[s] = keep
    if me == dealer:
        if rule != "non-trumps":
            return course
        # The others drew what the dealer did not find left, and every card unseen is a
        # non-trump one of them threw.
        thrown = pack - (view.hand & ~view.dealt).bit_count()
        for s in course.order:
            thrown += size - keep - shown[s].bit_count()
        return course._replace(thrown=thrown)
    rest = _robbed(view, course)
    if rest >= 0:
        # Told the dealer's hand: the others drew the rest of the pack, what each is chosen
        # for each world; every card unseen is a non-trump one of them threw.
        counts[dealer] = size + rest
        thrown = pack - rest - _mine(view, course)[1]
        for s in course.order:
            if s != me and rule == "non-trumps":
                thrown += size - keep - shown[s].bit_count()
        return course._replace(thrown=thrown if rule == "non-trumps" else 0)
    low, high = _bounds(view, course, [keep] * n)  # as if each held trumps enough to keep
    chosen = _choose(view, course, low, high, None, None)
    if chosen is None:
        raise TricktableError("no draws fit the pack")
    left = pack
    thrown = 0
    for s in course.order:
        need = _mine(view, course)[0] if s == me else chosen[s]
        got = min(need, left)
        left -= got
        needs[s] = chosen[s]
        if rule == "non-trumps" and s != me:
            # Its deal's non-trumps: those thrown beyond the drawn, and one for each drawn.
            thrown += size - keep - shown[s].bit_count() + got
    counts[dealer] = size + left
    return course._replace(thrown=thrown)


def _mine(view: View, course: _Course) -> tuple[int, int, int]:
    """The viewer's own draw, once made: (cards it needed, drew from the pack, took back)."""
    got = view.hand
    for seat, action in view.actions:
        if seat == view.seat and action < _CARDS:
            got |= 1 << action
    drew = (got & ~view.dealt).bit_count()
    back = (got & view.dealt & _thrown(view, course, view.seat, view.dealt)).bit_count()
    return drew + back, drew, back


def _thrown(view: View, course: _Course, seat: int, deal: int) -> int:
    """The cards of ``deal`` that ``seat`` threw (before any taken back): its non-trumps
    under ``non-trumps``, else its discards (the viewer's own, which it sees)."""
    _game, rule, _robs = _rules(view)
    if rule == "non-trumps":
        return deal & ~view.tables.mask
    thrown = 0
    for action in course.seen[seat]:
        if DISCARD <= action < KEEP:
            thrown |= 1 << (action - DISCARD)
    return thrown


def _bounds(view: View, course: _Course, trumps: list[int]) -> tuple[list[int], list[int]]:
    """The fewest and most cards each other seat may have needed after its discard, by the
    rule, what it showed, and (``non-trumps``) the ``trumps`` it holds: it kept no more."""
    game, rule, _robs = _rules(view)
    keep = game.options.play_size
    n = game.num_players
    low, high = [0] * n, [0] * n
    for s in course.order:
        if s == view.seat:
            continue
        if rule == "non-trumps":
            if not course.shown[s]:
                low[s], high[s] = keep - min(keep, trumps[s]), keep
        elif rule == "any":
            # Asked to draw unless it threw its whole deal, and so kept a card.
            low[s], high[s] = (0, keep - 1) if DRAW in course.seen[s] else (keep, keep)
    return low, high


def _choose(
    view: View,
    course: _Course,
    low: list[int],
    high: list[int],
    spare: list[int] | None,
    rng: random.Random | None,
) -> list[int] | None:
    """What each other seat needed after its discard, within ``low`` and ``high``, such that
    the pack, drawn in turn, gives the viewer what it got and leaves the dealer what he robbed
    (where the view tells it); a seat the pack ran out on took back no more than its ``spare``
    cards. At random with ``rng``, else as many as may be. None: nothing fits."""
    game, _rule, _robs = _rules(view)
    me = view.seat
    order = course.order
    left = len(game.deck) - game.num_players * game.options.hand_size
    # What the pack holds when a seat comes to draw (the order's length: at the end).
    marks: list[tuple[int, int, int]] = []
    mine = _mine(view, course) if me in order else (0, 0, 0)
    if me in order:
        need, drew, back = mine
        marks.append((order.index(me), drew if back else need, drew if back else left))
    rest = _robbed(view, course)
    if rest >= 0:
        marks.append((len(order), rest, rest))

    def bounds(t: int) -> tuple[int, int]:
        return (mine[0], mine[0]) if t == me else (low[t], high[t])

    out = list(low)
    for i, s in enumerate(order):
        if s == me:
            left -= min(mine[0], left)
            continue
        most = high[s] if spare is None else min(high[s], left + spare[s])
        options = list(range(low[s], most + 1))
        for at, at_least, at_most in marks:
            if at <= i:
                continue
            between = [bounds(t) for t in order[i + 1 : at]]
            fewest = sum(b[0] for b in between)
            most_of = sum(b[1] for b in between)
            options = [
                x
                for x in options
                if max(0, left - min(x, left) - most_of) <= at_most
                and max(0, left - min(x, left) - fewest) >= at_least
            ]
        if not options:
            return None
        x = rng.choice(options) if rng is not None else options[-1]
        out[s] = x
        left -= min(x, left)
    if rest >= 0 and left != rest:
        return None
    return out


def _robbed(view: View, course: _Course) -> int:
    """How many cards of the pack the robbing dealer took, where the view tells it (-1: not):
    the dealer viewing saw them, and a view telling the hands' sizes tells his."""
    game, _rule, robs = _rules(view)
    if not robs or view.phase != ROBBING:
        return -1
    if view.seat == view.dealer:
        return (view.hand & ~view.dealt).bit_count()
    sizes = _sizes(view)
    return sizes[view.dealer] - game.options.hand_size if sizes is not None else -1


def _sizes(view: View) -> list[int] | None:
    """How many cards each seat holds, where the view's facts tell it (``hand_sizes``: as at a
    table, where every hand's size is seen) during the discard and the rob."""
    sizes = view.info().get("hand_sizes")
    if isinstance(sizes, list) and len(sizes) == view.game.num_players:
        return [int(size) for size in sizes]
    return None


@register(Cinch)
class CinchRules(SearchRules):
    """Cinch: trump named, non-trumps (or any cards) thrown, the pack drawn and robbed."""

    # How many of its deal a seat kept is hidden, and whether the pack could give the draws
    # that a holding needs is no refusal a place can say: such a holding is drawn again.
    exact = False

    def deal_size(self, view: View) -> int:
        game, _rule, _robs = _rules(view)
        return int(game.options.hand_size)

    def refuses(self, game: Game) -> str:
        # Each seat that draws throws at least hand_size - play_size cards, and most draw
        # back more: a pack smaller than those throws runs out in nearly every hand, and the
        # seats it leaves take their own discards back, the highest first. Which of a seat's
        # cards it took back, and what it threw below them, is a count no place can refuse:
        # nearly every holding would be drawn again.
        assert isinstance(game, Cinch)
        opts = game.options
        drawing = len(_order_of(game, 0))
        if opts.discard not in ("non-trumps", "any"):
            return ""
        pack = len(game.deck) - game.num_players * opts.hand_size
        if pack >= drawing * (opts.hand_size - opts.play_size):
            return ""
        return (
            f"sampling a {game.num_players}-seat {game.name} of {opts.hand_size} cards is not "
            f"written: its pack of {pack} runs out on most seats, which take discards back"
        )

    def follow_free(self, view: View) -> int:
        return view.tables.mask if view.game.options.may_trump else 0

    def note(self, view: View, k: Knowledge) -> None:
        game, rule, _robs = _rules(view)
        course = _course(view)
        me = view.seat
        keep = game.options.play_size
        phase = view.phase
        for s in range(game.num_players):
            if course.counts[s] >= 0:
                k.counts[s] = course.counts[s]
            elif phase == PLAY:
                k.counts[s] = keep - k.played_by[s].bit_count()
        k.counts[me] = view.hand.bit_count()
        if phase in (AUCTION, NAMING):
            return
        # The seat's own cards dealt and gone (thrown, or not kept of the rob), and every
        # trump shown thrown, are in no hand.
        k.dead |= view.dealt & ~view.hand & ~k.played_by[me]
        trumps = view.tables.mask
        points = game.point_masks[view.trump]
        plain = k.deck & ~trumps
        for s in range(game.num_players):
            thrown = course.shown[s]
            if not thrown or s == me:
                continue
            k.dead |= thrown
            # A trump thrown face up leaves only trumps; a point trump, only point trumps.
            k.cannot[s] |= plain | (trumps & ~points if thrown & points else 0)
        if phase == DISCARDING and rule == "non-trumps":
            for s in [*course.order[: course.done], course.order[course.done]]:
                if s != me:
                    k.cannot[s] |= plain

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        course = _course(view)
        left = k.unseen.bit_count() - course.thrown
        for s in range(view.game.num_players):
            if s != view.seat:
                left -= k.counts[s] - k.known[s].bit_count()
        if left < 0:
            raise TricktableError("the hidden cards do not fill the hands and piles")
        return [Place(course.thrown, view.tables.mask), Place(left)]

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        if view.phase in (AUCTION, NAMING):
            loose = cards_in(piles[0] | piles[1])
            rng.shuffle(loose)
            return list(hands), loose, [action for _seat, action in view.actions]
        return _Builder(view, k, hands, piles, rng).build()


def _rank(card: int) -> int:
    """The order in which a seat the pack ran out on takes its discards back, highest first
    (rank, then suit: the game's own order)."""
    return (card % 13) * 4 + card // 13 if card < 52 else -1


#: no rank bound on the discards drawn for a seat
_ANY_RANK = 1 << 10


class _Builder:
    """One world's deal, pack and actions, from a holding (see the module)."""

    def __init__(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> None:
        game, rule, robs = _rules(view)
        self.view, self.k, self.rng = view, k, rng
        self.rule, self.robs = rule, robs
        self.n = game.num_players
        self.size = game.options.hand_size
        self.keep = game.options.play_size
        self.pack = len(game.deck) - self.n * self.size
        self.trumps = view.tables.mask
        self.course = _course(view)
        self.hands = hands
        self.held = [h | p for h, p in zip(hands, k.played_by, strict=True)]
        # The piles, as lists to deal from: the non-trumps thrown, and the rest.
        self.thrown = cards_in(piles[0])
        self.loose = cards_in(piles[1])

    def _take(self, count: int, plain: bool, below: int = _ANY_RANK) -> int:
        """``count`` cards of the piles ranked below ``below``, non-trumps if ``plain``: of
        the thrown pile first (every card of it must go to some seat's discards)."""
        out = 0
        rng = self.rng
        if plain and count:
            fit = [c for c in self.thrown if _rank(c) < below]
            got = fit if len(fit) <= count else rng.sample(fit, count)
            for card in got:
                out |= 1 << card
            self.thrown = [c for c in self.thrown if not out >> c & 1]
            count -= len(got)
        if count:
            trumps = self.trumps if plain else 0
            fit = [c for c in self.loose if not trumps >> c & 1 and _rank(c) < below]
            if len(fit) < count:
                raise TricktableError("too few cards left for the discards")
            more = 0
            for card in rng.sample(fit, count):
                more |= 1 << card
            self.loose = [c for c in self.loose if not more >> c & 1]
            out |= more
        return out

    def build(self) -> Rebuilt:
        view, course = self.view, self.course
        me, n = view.seat, self.n
        dealt = list(self.held)
        sections: list[list[int]] = [[] for _ in range(n)]
        drawn: list[list[int]] = [[] for _ in range(n)]
        if view.phase in (ROBBING, PLAY):
            self._refill(dealt, sections, drawn)
        else:
            for s in course.order[: course.done + 1]:
                if s == me:
                    dealt[s] = view.dealt
                    sections[s] = course.seen[s]
                else:  # done, or discarding now (what it threw so far)
                    dealt[s], sections[s] = self._discarded(s)
        pack = [c for s in course.order for c in drawn[s]]
        keeps: list[int] = []
        if self.robs and view.phase in (ROBBING, PLAY):
            rest, keeps = self._rob(dealt, len(pack))
            pack += rest
        else:
            if len(self.loose) != self.pack - len(pack) or self.thrown:
                raise TricktableError("the piles do not make the pack")
            self.rng.shuffle(self.loose)
            pack += self.loose
        actions = list(course.prefix)
        for s in course.order[: course.done + 1]:
            actions += sections[s]
        actions += course.keeps if self.robs and view.dealer == me else keeps
        actions += course.plays
        return dealt, pack, actions

    def _discarded(self, seat: int) -> tuple[int, list[int]]:
        """The deal and discard-phase actions of a seat discarding (``non-trumps``: all its
        non-trumps gone) or done, before the draw (not the viewer)."""
        held = self.held[seat]
        if self.rule == "non-trumps":
            shown = self.course.shown[seat]
            thrown = self._take(self.size - held.bit_count() - shown.bit_count(), True)
            return held | shown | thrown, self.course.seen[seat]
        thrown = self._take(self.size - held.bit_count(), False)
        actions = [DISCARD + c for c in cards_in(thrown)]
        if self.rule == "any" and DRAW in self.course.seen[seat]:
            actions.append(DRAW)
        return held | thrown, actions

    def _refill(self, dealt: list[int], sections: list[list[int]], drawn: list[list[int]]) -> None:
        """Each seat's deal, discards and draws, the draw made: what it kept of its deal,
        drew from the pack in turn, and took back of its discards where the pack ran out."""
        view, course, rng = self.view, self.course, self.rng
        me = view.seat
        needs = self._needs()
        left = self.pack
        plans: list[tuple[int, int, int, int]] = []  # seat, kept, taken back, discards
        for s in course.order:
            if s == me:
                need, got, _back = _mine(view, course)
                if min(need, left) != got:
                    raise TricktableError("the pack cannot have given the seat its draw")
                left -= got
                dealt[s] = view.dealt
                sections[s] = course.seen[s]
                drawn[s] = cards_in(self.held[s] & ~view.dealt)
                continue
            need = needs[s]
            got = min(need, left)
            left -= got
            held = self.held[s]
            shown = course.shown[s]
            if self.rule == "non-trumps":
                pool = cards_in(held & self.trumps)
            elif self.rule == "any":
                pool = cards_in(held)
            else:
                pool = cards_in(held) if not need else []
            if len(pool) < self.keep - need:
                raise TricktableError("a seat holds too few trumps for the draws chosen")
            kept = 0
            for card in rng.sample(pool, self.keep - need):
                kept |= 1 << card
            rest = held & ~kept
            # What it took back: the highest of its discards; the non-trumps, if only those.
            backs = cards_in(rest & ~self.trumps if self.rule == "non-trumps" else rest)
            if len(backs) < need - got:
                raise TricktableError("a seat the pack ran out on holds no discards to take back")
            backs.sort(key=_rank, reverse=True)
            back = 0
            for card in backs[: need - got]:
                back |= 1 << card
            got_cards = cards_in(rest & ~back)
            rng.shuffle(got_cards)
            drawn[s] = got_cards
            count = self.size - kept.bit_count() - back.bit_count() - shown.bit_count()
            plans.append((s, kept | shown, back, count))
        # Discards: a seat that took some back threw only lower cards; those first.
        plain = self.rule == "non-trumps"
        plans.sort(key=lambda plan: -plan[2].bit_count())
        for s, kept, back, count in plans:
            below = min(map(_rank, cards_in(back))) if back else _ANY_RANK
            thrown = self._take(count, plain, below)
            dealt[s] = kept | back | thrown
            if self.rule == "non-trumps":
                sections[s] = course.seen[s]
            else:
                sections[s] = [DISCARD + c for c in cards_in(thrown | back)]
                if self.rule == "any" and DRAW in course.seen[s]:
                    sections[s].append(DRAW)

    def _needs(self) -> list[int]:
        """What each other seat of the order needed after its discard, in this world."""
        view, course = self.view, self.course
        if view.phase == ROBBING and _robbed(view, course) < 0:
            return course.needs  # chosen for the decision: the dealer's count tells them
        trumps = [(h & self.trumps).bit_count() for h in self.held]
        low, high = _bounds(view, course, trumps)
        # A seat the pack ran out on takes back its own discards: non-trumps only, where
        # only non-trumps were thrown (any cards it holds, else).
        if self.rule == "non-trumps":
            spare = [(h & ~self.trumps).bit_count() for h in self.held]
        else:
            spare = [h.bit_count() for h in self.held]
        fixed = view.phase == ROBBING  # the dealer viewing: the thrown pile holds it all
        plain = sum(1 for c in self.loose if not self.trumps >> c & 1)
        for rng in (self.rng, None):
            needs = _choose(view, course, low, high, spare, rng)
            if needs is None:
                break
            if fixed or self.rule != "non-trumps":
                return needs
            # Each card another seat drew is a non-trump it threw beyond the thrown pile's.
            left = self.pack
            extra = 0
            for s in course.order:
                got = min(_mine(view, course)[1] if s == view.seat else needs[s], left)
                left -= got
                extra += got if s != view.seat else 0
            if extra <= plain:
                return needs
            high = low  # the fewest draws, then
        raise TricktableError("the pack cannot have given the draws")

    def _rob(self, dealt: list[int], drawn: int) -> tuple[list[int], list[int]]:
        """The pack's rest that the dealer robbed, and his keeps; sets his deal."""
        view = self.view
        dealer = view.dealer
        left = self.pack - drawn
        if self.thrown:
            raise TricktableError("the thrown pile outlasts the discards")
        rng = self.rng
        if dealer == view.seat:
            deal = dealt[dealer] = view.dealt
            if view.phase == ROBBING:
                pool = view.hand
            else:
                pool = deal | self.held[dealer]
                for card in self.loose:
                    pool |= 1 << card
                self.loose = []
            rest = cards_in(pool & ~deal)
            if len(rest) != left or self.loose:
                raise TricktableError("the rob does not fit the pack")
            rng.shuffle(rest)
            return rest, []
        pool = self.held[dealer]
        for card in self.loose:
            pool |= 1 << card
        self.loose = []
        cards = cards_in(pool)
        if len(cards) != self.size + left:
            raise TricktableError("the rob does not fit the pack")
        deal = 0
        for card in rng.sample(cards, self.size):
            deal |= 1 << card
        dealt[dealer] = deal
        rest = cards_in(pool & ~deal)
        rng.shuffle(rest)
        keeps: list[int] = []
        if view.phase == PLAY and len(cards) > self.keep:
            kept = cards_in(self.held[dealer])
            rng.shuffle(kept)
            keeps = [KEEP + c for c in kept]
        return rest, keeps
