"""The solver's shared core: alpha-beta over the rest of a hand, and what a game plugs into it.

A game's part is a :class:`Rules` object for one hand (and one trump): which cards are legal,
what of the cards won so far can still change the score (the *summary*), the score of a
finished hand (by the game's own scoring functions), and, optionally, bounds on the value that
the cards already taken imply. :class:`Search` does the rest, the same for every game:

* **Its own representation.** A hand mask per seat, the trick as arguments of the recursive
  call, the cards each seat won; who wins a trick is decided with the engine's own trump
  tables (``power``, ``suit_mask``) exactly as :class:`~tricktable.engine.state.TrickState`
  does. Any table the engine deals, two seats or seven, the turn passing either way (the
  state's ``step``), where every seat plays to every trick; four seats to the left have a
  search of their own with the hands unrolled, as fast as before the others were added.
* **Alpha-beta, fail-soft, with a transposition table**; entries keep a lower and an upper
  bound and the best card, which is tried first, then the game's order (``Rules.order``).
  Inside a trick the key is the hands, the seat to act, the trick so far and the summary.
* **Canonical keys at each trick's start**: per suit group, the live cards' owners and tags
  (worth, or the card itself where it is special) in order of power, and which cards were
  played drops out. Positions alike in that are alike in value (nothing but relative power,
  owners, worth and special cards decides a trick's winner, a card's legality or a score), so
  one entry serves them all: 2 to 5 times fewer positions in Hearts and Spades endings.
* **The root by MTD(f)**: each legal card gets its exact value, the first with the window
  open, the others by null-window searches from the value before (see :meth:`Search.move_value`).
* **Equal cards merged.** Two legal cards of one hand are one move when they follow the same
  suit, neither is one the game singles out (``Rules.special``), they are worth the same to the
  score (``Rules.worth``), and no card between them in power is still live elsewhere (in
  another hand or in the trick being played). Swapping such cards changes no trick's winner,
  no card's legality and no score, so only the highest is searched; the others share its value.
* **Bounds** (``Rules.bounds``) at each trick's start: a window the rest cannot leave (in
  Hearts, the points not yet taken), which cuts a search off when it proves nothing can change.

The C core (:mod:`.fast`) is this search compiled; a game's rules tell it how to read them with
a :class:`Kernel`, and :func:`solve_root` hands it each search it can take.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Final

from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.engine.tables import TrumpTables
from tricktable.errors import TricktableError

#: beyond any hand's value
INF: Final = 1 << 20

#: a summary of what the cards won so far mean for the score (hashable, game-specific)
Summary = Hashable


@dataclass
class SolveResult:
    """The exact value of the rest of a hand for one seat's side, and of each legal card."""

    #: the value for ``seat``'s side under perfect play (higher is better for it)
    value: int
    #: every legal card of the seat to act, with its value for ``seat``'s side
    moves: dict[int, int] = field(default_factory=dict)
    #: positions searched (nodes), for benchmarks
    nodes: int = 0

    def best(self) -> list[int]:
        """The legal cards that reach :attr:`value`, lowest code first."""
        return sorted(c for c, v in self.moves.items() if v == self.value)


class SolveTimeout(TricktableError):
    """A solve given a deadline passed it (sampling bots stop and use the worlds solved)."""


#: the C core's first-lead rules (:class:`Kernel`): none; the card if held; the card itself
FIRST_NONE, FIRST_PREFER, FIRST_EXACT = 0, 1, 2


@dataclass
class Kernel:
    """How the compiled core (:mod:`.fast`) reads one game's :class:`Rules`: the legal hook as
    masks and the summary's shape. The leaves and bounds stay the rules' own functions.

    **Legal cards** (the engine's, as the Python hooks): at a trick's start, with every card of
    the hand still live, ``first_lead`` (``FIRST_PREFER``: if held; ``FIRST_EXACT``: itself,
    as Hearts' 2♣); else, once ``live & break_mask == break_mask`` (nothing of it played
    yet), not ``no_lead`` unless nothing else is held (Setback's joker: ``break_mask`` 0).
    Following: the suit led (or, ``may_trump``, a trump instead); void, anything but
    ``first_forbid`` on the hand's first trick.

    **The summary** is, by slot (``slot_of`` a seat), which of ``pmask``'s cards it took and
    a count: ``cw`` by card won plus ``tw`` a trick (the Game count; Spades' tricks). Its
    Python form is ``to_c`` / ``from_c`` of ``(cards, count)`` pairs by slot. Or, with
    ``hearts``, Hearts' own ``(mine, candidate)`` of seat ``me``, ``cw`` the points of a
    card, ``tracked`` the cards that decide a moon. ``bw``: by card, the weight that, with
    the summary, decides :attr:`Rules.bounds` (None: no bounds).
    """

    slot_of: list[int]
    nslots: int
    cw: list[int]
    first_mode: int = FIRST_NONE
    first_lead: int = 0
    break_mask: int = 0
    no_lead: int = 0
    first_forbid: int = 0
    may_trump: bool = False
    trump_mask: int = 0
    hearts: bool = False
    me: int = 0
    pmask: int = 0
    tracked: int = 0
    tw: int = 0
    bw: list[int] | None = None
    #: the order of the cards tried: the game's (``order``), or leads from the side suits
    #: first and, following, the cheapest card that takes the trick from the other side,
    #: then the lowest (Spades' tricks: a third fewer positions; not Hearts', where points
    #: decide, nor Setback's)
    cheap: bool = False
    #: Hearts: once the points are split, what each point the seat takes costs it (the value
    #: is then that much less a point whatever came before: the table shares positions
    #: across the points taken so far); 0 where it is not so
    slope: int = 0
    #: the summary is the tricks by slot (``tw`` 1, no card counted) and the leaves depend on
    #: it alone: the C core bounds a trick's start by the sure tricks of the top trumps
    sure: bool = False
    to_c: Callable[[Summary], tuple[int, ...]] = field(default=lambda summary: _pairs(summary))
    from_c: Callable[[tuple[int, ...]], Summary] = field(default=lambda pairs: pairs)


def _pairs(summary: Summary) -> tuple[int, ...]:
    """A summary already in the C core's form: ``(cards, count)`` by slot (Setback's)."""
    return summary  # type: ignore[return-value]


def follow_or_trump(
    trump_mask: int, may_trump: bool, forbid: int = 0
) -> Callable[[list[int], int, int, int, int], int]:
    """The ``legal`` hook of the All Fours family: any lead (but ``forbid``, unless nothing
    else is left), then follow suit when able — or, with ``may_trump``, trump instead."""

    def legal(hands: list[int], seat: int, pos: int, lead_mask: int, tmask: int) -> int:
        hand = hands[seat]
        if pos == 0:
            return hand & ~forbid or hand
        follow = hand & lead_mask
        if not follow:
            return hand
        if may_trump:
            return follow | hand & trump_mask
        return follow

    return legal


class Rules:
    """One game's part in a search of one hand (with trump fixed); subclasses fill it in.

    The fields are read once, when the search is built. The hooks are plain callables (a
    subclass makes them closures over its tables: much faster than methods in the hot loop).
    """

    #: the trump tables of the hand: power in a trick, suit to follow
    tables: TrumpTables
    #: by seat: whether that seat plays for the solving seat (maximises) or against it
    maximise: list[bool]
    #: cards never merged with another (their identity matters beyond suit and power)
    special: int = 0
    #: by card: what it is worth to the score; cards merge only with cards of equal worth
    worth: list[int]
    #: the summary of the cards won before the search starts
    summary: Summary
    #: by card: the order moves are tried in (highest first), after the table's best move;
    #: a game that tries them by power alone gives ``tables.power`` itself (no second sort)
    order: Sequence[int]
    #: ``legal(hands, seat, pos, lead_mask, tmask)``: the mask of ``seat``'s legal cards,
    #: ``pos`` cards into the trick (``tmask`` played in it, ``lead_mask`` the suit to
    #: follow), exactly as the engine's ``legal_mask``
    legal: Callable[[list[int], int, int, int, int], int]
    #: ``take(summary, winner, tmask)``: the summary after ``winner`` takes the trick ``tmask``
    take: Callable[[Summary, int, int], Summary]
    #: ``leaf(summary, won)``: the value of the finished hand, ``won`` the cards each seat
    #: took (by the game's own scoring: the search caches it by summary)
    leaf: Callable[[Summary, list[int]], int]
    #: ``bounds(summary, live)``: the least and the most the rest can be worth, at a trick's
    #: start, ``live`` being the cards still in hands; None where the game has none
    bounds: Callable[[Summary, int], tuple[int, int]] | None = None
    #: how the compiled core reads these rules; None: the Python search alone
    kernel: Kernel | None = None


def check_play(state: TrickState) -> None:
    """Refuse a state the solver cannot take: out of card play, or not every hand known."""
    if state.phase != PLAY:
        raise TricktableError(f"solve: the state is not in card play (phase {state.phase})")
    n = state.n
    if state.trick_size != n or state.skip >= 0:
        raise TricktableError("solve: every seat must play to every trick")
    in_trick = {(state.trick_leader + i * state.step) % n for i in range(len(state.trick))}
    sizes = {h.bit_count() + (1 if s in in_trick else 0) for s, h in enumerate(state.hands)}
    if len(sizes) != 1:
        raise TricktableError("solve: the hands are not all known (sizes differ)")


class Search:
    """One search of one hand with the rules (and trump) fixed; the state is never changed.

    ``merge=False`` searches every legal card (for tests: merged moves equal unmerged).
    ``core``: ``"auto"`` searches with the compiled core (:mod:`.fast`) where it is built
    and takes the rules (:attr:`Rules.kernel`), else in Python; ``"python"`` always in
    Python (the reference); ``"c"`` with the compiled core or a one-line error.
    """

    def __init__(
        self,
        state: TrickState,
        rules: Rules,
        deadline: float | None = None,
        merge: bool = True,
        core: str = "auto",
    ) -> None:
        self.state = state
        self.core = core
        self.rules = rules
        self.deadline = deadline
        self.nodes = 0
        self.hands: list[int] = state.hands[:]
        self.won: list[int] = state.won[:]
        self.tt: dict[tuple[Hashable, ...], tuple[int, int, int]] = {}
        self.leaves: dict[Summary, int] = {}
        deck = hand_cards(state)
        power, suit_mask = rules.tables.power, rules.tables.suit_mask
        cards = [c for c in range(64) if deck >> c & 1]
        #: the seats, and the turn: from seat s to (s + step) % n
        self.n, self.turn = state.n, state.step
        # The suit groups (cards that follow one another), each highest first, for the
        # canonical keys of trick starts.
        special = rules.special if merge else -1  # every card special: no merging
        by_group: dict[int, list[int]] = {}
        for c in cards:
            by_group.setdefault(suit_mask[c], []).append(c)
        self.groups = [
            (g, sorted(cs, key=power.__getitem__, reverse=True))
            for g, cs in sorted(by_group.items())
        ]
        #: by card, what a canonical key keeps of it besides its owner and its rank in its
        #: group: itself where it is special, else its worth
        self.tag = [64 + c if special >> c & 1 else rules.worth[c] for c in range(64)]
        self.special = special
        #: whether power within each group follows the card codes (no trump but a whole
        #: suit: Hearts, Spades), which lets moves be listed without sorting
        self.rank_order = all(cs == sorted(cs, reverse=True) for _, cs in self.groups)
        #: by card: the cards that follow the same suit and outrank it, for merging where
        #: power is not rank order (where it is, the moves are merged without it: left empty)
        self.above = [] if self.rank_order else _above(self.groups, power)
        self._play: Callable[..., int] | None = None

    @property
    def play(self) -> Callable[..., int]:
        """The Python search's ``step`` (built on first use: a search the compiled core
        answers never needs it)."""
        if self._play is None:
            self._play = self._make_search()
        return self._play

    def move_value(self, card: int, guess: int | None = None) -> int:
        """The exact value of playing ``card`` now (a legal card of the seat to act).

        With a ``guess`` (the value of a card searched before, say) the value is found by
        null-window searches from it (MTD(f)): each proves a bound, the table keeps them, and
        a few such searches cost less than one with the window wide open.
        """
        if guess is None:
            return self._value(card, -INF, INF)
        lo, hi, value = -INF, INF, guess
        while lo < hi:
            beta = value + 1 if value == lo else value
            value = self._value(card, beta - 1, beta)
            if value < beta:
                hi = value
            else:
                lo = value
        return value

    def _value(self, card: int, alpha: int, beta: int) -> int:
        """The value of ``card`` within the window (fail-soft: outside, a bound)."""
        state = self.state
        trick = state.trick
        if trick:
            lead_mask, best_power, best_seat = state.lead_mask, state.best_power, state.best_seat
        else:
            lead_mask, best_power, best_seat = 0, -1, -1
        code = 0
        tmask = 0
        for c in trick:
            code = code * 64 + c + 1
            tmask |= 1 << c
        self.hands[:] = state.hands
        self.won[:] = state.won
        return self.play(
            state.to_act,
            len(trick),
            lead_mask,
            best_power,
            best_seat,
            code,
            tmask,
            self.rules.summary,
            card,
            alpha,
            beta,
        )

    def _make_search(self) -> Callable[..., int]:
        """The recursive search as closures over locals (much faster than attribute access).

        Returns ``step``: the play of one card, then the search of what follows. Four seats
        with the turn to the left, most games and the most searched, have a search of their
        own with the hands unrolled (:meth:`_search_four`); any other table the same search
        written for ``n`` seats and either direction (:meth:`_search_any`).
        """
        if self.n == 4 and self.turn == 1:
            return self._search_four()
        return self._search_any()

    def _moves(self) -> Callable[[int, int, int, int], list[int]]:
        """``moves_of(seat, legal, tmask, first)``: the legal cards to search, equal cards
        merged, ``first`` (the table's best card), then the game's order."""
        rules = self.rules
        power = rules.tables.power
        suit_mask = rules.tables.suit_mask
        special = self.special
        worth = rules.worth
        order = rules.order
        above = self.above
        hands = self.hands
        rank_order = self.rank_order
        seats = range(self.n)

        def moves_of(seat: int, legal: int, tmask: int, first: int) -> list[int]:
            """The legal cards to search, equal cards merged, best guesses first."""
            if not legal & (legal - 1):
                return [legal.bit_length() - 1]  # one legal card
            live = tmask
            for s in seats:
                if s != seat:
                    live |= hands[s]
            cards: list[int] = []
            if rank_order:
                # Highest code first is highest power first within each group: a card equal
                # to the one above it (kept or merged) has no live card between them.
                rest = legal
                prev = -1
                while rest:
                    c = rest.bit_length() - 1
                    rest ^= 1 << c
                    if (
                        prev < 0
                        or suit_mask[c] != suit_mask[prev]
                        or special >> c & 1
                        or special >> prev & 1
                        or worth[c] != worth[prev]
                        or live & ((1 << prev) - (2 << c))
                    ):
                        cards.append(c)
                    prev = c
                if order is power and len(cards) > 1:
                    cards.sort(key=power.__getitem__, reverse=True)
            else:
                rest = legal
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    cards.append(bit.bit_length() - 1)
                cards.sort(key=power.__getitem__, reverse=True)
                last: dict[int, int] = {}
                kept: list[int] = []
                for c in cards:
                    g = suit_mask[c]
                    prev = last.get(g, -1)
                    last[g] = c
                    if (
                        prev >= 0
                        and not (special >> c & 1 or special >> prev & 1)
                        and worth[c] == worth[prev]
                        and not live & above[c] & ~above[prev] & ~(1 << prev)
                    ):
                        continue  # equal to the higher card just kept (or merged)
                    kept.append(c)
                cards = kept
            if order is not power:
                cards.sort(key=order.__getitem__, reverse=True)
            if first >= 0 and cards[0] != first and first in cards:
                cards.remove(first)
                cards.insert(0, first)
            return cards

        return moves_of

    def _search_four(self) -> Callable[..., int]:
        """The search at four seats, the turn passing to the left (see :meth:`_make_search`)."""
        rules = self.rules
        power = rules.tables.power
        suit_mask = rules.tables.suit_mask
        maximise_of = rules.maximise
        legal_of = rules.legal
        take = rules.take
        leaf_of = rules.leaf
        bounds = rules.bounds
        hands = self.hands
        won = self.won
        tt = self.tt
        leaves = self.leaves
        search = self
        deadline = self.deadline
        moves_of = self._moves()

        tag = self.tag
        # Four suit groups: padded where a short test deal has fewer; more, no canonical keys.
        groups = self.groups + [(0, [])] * (4 - len(self.groups))
        (g0, c0), (g1, c1), (g2, c2), (g3, c3) = groups[:4]
        canonical = len(groups) == 4
        forms: dict[tuple[int, ...], int] = {}
        group_ids: dict[tuple[int, int, int, int], int] = {}

        def form_of(order: list[int], group: tuple[int, int, int, int]) -> int:
            """The id of one group's canonical form: its live cards' (tag, owner), highest
            first. Positions alike in every group's form have the same value: which cards
            were played changes nothing but through their tags, owners and relative ranks."""
            live, h0, h1, h2 = group
            out = []
            for c in order:
                if live >> c & 1:
                    bit = 1 << c
                    owner = 0 if h0 & bit else 1 if h1 & bit else 2 if h2 & bit else 3
                    out.append(tag[c] * 4 + owner)
            form = tuple(out)
            found = forms.get(form)
            if found is None:
                found = forms[form] = len(forms)
            group_ids[group] = found
            return found

        def ab(
            seat: int,
            pos: int,
            lead_mask: int,
            best_power: int,
            best_seat: int,
            code: int,
            tmask: int,
            summary: Summary,
            alpha: int,
            beta: int,
        ) -> int:
            h0, h1, h2, h3 = hands
            if pos == 0:
                if not hands[seat]:
                    value = leaves.get(summary)
                    if value is None:
                        value = leaves[summary] = leaf_of(summary, won)
                    return value
                live = h0 | h1 | h2 | h3
                if bounds is not None:
                    lo, hi = bounds(summary, live)
                    if lo == hi or hi <= alpha:
                        return hi
                    if lo >= beta:
                        return lo
            legal = legal_of(hands, seat, pos, lead_mask, tmask)
            search.nodes += 1
            if deadline is not None and not search.nodes & 255 and perf_counter() > deadline:
                raise SolveTimeout("solve: past its deadline")
            if pos == 0 and canonical:
                m = live & g0
                k = (m, h0 & m, h1 & m, h2 & m)
                f0 = group_ids.get(k)
                if f0 is None:
                    f0 = form_of(c0, k)
                m = live & g1
                k = (m, h0 & m, h1 & m, h2 & m)
                f1 = group_ids.get(k)
                if f1 is None:
                    f1 = form_of(c1, k)
                m = live & g2
                k = (m, h0 & m, h1 & m, h2 & m)
                f2 = group_ids.get(k)
                if f2 is None:
                    f2 = form_of(c2, k)
                m = live & g3
                k = (m, h0 & m, h1 & m, h2 & m)
                f3 = group_ids.get(k)
                if f3 is None:
                    f3 = form_of(c3, k)
                key: tuple[Hashable, ...] = (f0, f1, f2, f3, seat, -1, summary)
            else:
                key = (h0, h1, h2, h3, seat, code, summary)
            entry = tt.get(key)
            first = -1
            if entry is not None:
                lo, hi, first = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            maximise = maximise_of[seat]
            window_low, window_high = alpha, beta
            best = -INF if maximise else INF
            best_card = -1
            for card in moves_of(seat, legal, tmask, first):
                value = step(
                    seat,
                    pos,
                    lead_mask,
                    best_power,
                    best_seat,
                    code,
                    tmask,
                    summary,
                    card,
                    alpha,
                    beta,
                )
                if maximise:
                    if value > best:
                        best, best_card = value, card
                        if value > alpha:
                            alpha = value
                elif value < best:
                    best, best_card = value, card
                    if value < beta:
                        beta = value
                if alpha >= beta:
                    break
            # Fail-soft: at or below the window the value is an upper bound, at or above it a
            # lower bound, inside it exact.
            if best <= window_low:
                lo, hi = -INF, best
            elif best >= window_high:
                lo, hi = best, INF
            else:
                lo = hi = best
            if entry is not None:  # keep what the earlier search proved as well
                lo = max(lo, entry[0])
                hi = min(hi, entry[1])
            tt[key] = (lo, hi, best_card)
            return best

        def step(
            seat: int,
            pos: int,
            lead_mask: int,
            best_power: int,
            best_seat: int,
            code: int,
            tmask: int,
            summary: Summary,
            card: int,
            alpha: int,
            beta: int,
        ) -> int:
            """Play ``card`` and search on."""
            bit = 1 << card
            hands[seat] ^= bit
            p = power[card]
            if pos == 0:
                lead_mask = suit_mask[card]
                best_power, best_seat = p, seat
            else:
                if p < 100 and not bit & lead_mask:
                    p = -1
                if p > best_power:
                    best_power, best_seat = p, seat
            if pos == 3:
                tm = tmask | bit
                old = won[best_seat]
                won[best_seat] = old | tm
                value = ab(best_seat, 0, 0, -1, -1, 0, 0, take(summary, best_seat, tm), alpha, beta)
                won[best_seat] = old
            else:
                value = ab(
                    (seat + 1) & 3,
                    pos + 1,
                    lead_mask,
                    best_power,
                    best_seat,
                    code * 64 + card + 1,
                    tmask | bit,
                    summary,
                    alpha,
                    beta,
                )
            hands[seat] ^= bit
            return value

        return step

    def _search_any(self) -> Callable[..., int]:
        """The search at any table: ``n`` seats, the turn passing ``turn`` seats on (see
        :meth:`_make_search`; the same search as :meth:`_search_four`, with the hands in a
        loop)."""
        rules = self.rules
        power = rules.tables.power
        suit_mask = rules.tables.suit_mask
        maximise_of = rules.maximise
        legal_of = rules.legal
        take = rules.take
        leaf_of = rules.leaf
        bounds = rules.bounds
        hands = self.hands
        won = self.won
        tt = self.tt
        leaves = self.leaves
        search = self
        deadline = self.deadline
        moves_of = self._moves()
        n, turn = self.n, self.turn
        last = n - 1  # the position of a trick's last card

        tag = self.tag
        groups = self.groups
        forms: dict[tuple[int, ...], int] = {}
        group_ids: dict[tuple[int, ...], int] = {}

        def form_of(order: list[int], group: tuple[int, ...]) -> int:
            """The id of one group's canonical form (as :meth:`_search_four`'s): ``group`` is
            the group's live cards, then each hand's share of them."""
            live = group[0]
            out = []
            for c in order:
                if live >> c & 1:
                    bit = 1 << c
                    owner = 1
                    while not group[owner] & bit:
                        owner += 1
                    out.append(tag[c] * 8 + owner)
            form = tuple(out)
            found = forms.get(form)
            if found is None:
                found = forms[form] = len(forms)
            group_ids[group] = found
            return found

        def last_trick(seat: int, summary: Summary) -> tuple[Summary, int, int]:
            """The last trick, one card a seat, led by ``seat``: the summary after it, its
            winner and its cards."""
            search.nodes += 1
            card = hands[seat].bit_length() - 1
            lead_mask = suit_mask[card]
            best_power, winner = power[card], seat
            tm = 1 << card
            s = seat
            for _ in range(last):
                s = (s + turn) % n
                card = hands[s].bit_length() - 1
                p = power[card]
                if p < 100 and not lead_mask >> card & 1:
                    p = -1
                if p > best_power:
                    best_power, winner = p, s
                tm |= 1 << card
            return take(summary, winner, tm), winner, tm

        def ab(
            seat: int,
            pos: int,
            lead_mask: int,
            best_power: int,
            best_seat: int,
            code: int,
            tmask: int,
            summary: Summary,
            alpha: int,
            beta: int,
        ) -> int:
            if pos == 0:
                hand = hands[seat]
                if not hand & (hand - 1):
                    if hand:  # the last trick: every card forced, played out here
                        summary, winner, tm = last_trick(seat, summary)
                        old = won[winner]
                        won[winner] = old | tm
                        value = leaves.get(summary)
                        if value is None:
                            value = leaves[summary] = leaf_of(summary, won)
                        won[winner] = old
                        return value
                    value = leaves.get(summary)
                    if value is None:
                        value = leaves[summary] = leaf_of(summary, won)
                    return value
                live = 0
                for h in hands:
                    live |= h
                if bounds is not None:
                    lo, hi = bounds(summary, live)
                    if lo == hi or hi <= alpha:
                        return hi
                    if lo >= beta:
                        return lo
            legal = legal_of(hands, seat, pos, lead_mask, tmask)
            search.nodes += 1
            if deadline is not None and not search.nodes & 255 and perf_counter() > deadline:
                raise SolveTimeout("solve: past its deadline")
            if not legal & (legal - 1):
                # One legal card: its value is the node's (no table entry; at seven seats
                # most cards of a trick are forced).
                card = legal.bit_length() - 1
                return step(
                    seat,
                    pos,
                    lead_mask,
                    best_power,
                    best_seat,
                    code,
                    tmask,
                    summary,
                    card,
                    alpha,
                    beta,
                )
            if pos == 0:
                forms_now = []
                for g, cs in groups:
                    m = live & g
                    k = (m, *[h & m for h in hands])
                    f = group_ids.get(k)
                    if f is None:
                        f = form_of(cs, k)
                    forms_now.append(f)
                key: tuple[Hashable, ...] = (*forms_now, seat, -1, summary)
            else:
                key = (*hands, seat, code, summary)
            entry = tt.get(key)
            first = -1
            if entry is not None:
                lo, hi, first = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            maximise = maximise_of[seat]
            window_low, window_high = alpha, beta
            best = -INF if maximise else INF
            best_card = -1
            for card in moves_of(seat, legal, tmask, first):
                value = step(
                    seat,
                    pos,
                    lead_mask,
                    best_power,
                    best_seat,
                    code,
                    tmask,
                    summary,
                    card,
                    alpha,
                    beta,
                )
                if maximise:
                    if value > best:
                        best, best_card = value, card
                        if value > alpha:
                            alpha = value
                elif value < best:
                    best, best_card = value, card
                    if value < beta:
                        beta = value
                if alpha >= beta:
                    break
            if best <= window_low:
                lo, hi = -INF, best
            elif best >= window_high:
                lo, hi = best, INF
            else:
                lo = hi = best
            if entry is not None:
                lo = max(lo, entry[0])
                hi = min(hi, entry[1])
            tt[key] = (lo, hi, best_card)
            return best

        def step(
            seat: int,
            pos: int,
            lead_mask: int,
            best_power: int,
            best_seat: int,
            code: int,
            tmask: int,
            summary: Summary,
            card: int,
            alpha: int,
            beta: int,
        ) -> int:
            """Play ``card`` and search on."""
            bit = 1 << card
            hands[seat] ^= bit
            p = power[card]
            if pos == 0:
                lead_mask = suit_mask[card]
                best_power, best_seat = p, seat
            else:
                if p < 100 and not bit & lead_mask:
                    p = -1
                if p > best_power:
                    best_power, best_seat = p, seat
            if pos == last:
                tm = tmask | bit
                old = won[best_seat]
                won[best_seat] = old | tm
                value = ab(best_seat, 0, 0, -1, -1, 0, 0, take(summary, best_seat, tm), alpha, beta)
                won[best_seat] = old
            else:
                value = ab(
                    (seat + turn) % n,
                    pos + 1,
                    lead_mask,
                    best_power,
                    best_seat,
                    code * 64 + card + 1,
                    tmask | bit,
                    summary,
                    alpha,
                    beta,
                )
            hands[seat] ^= bit
            return value

        return step


def hand_cards(state: TrickState) -> int:
    """Every card of the hand: in the hands, won, and in the trick being played."""
    deck = state.trick_mask if state.trick else 0
    for mask in (*state.hands, *state.won):
        deck |= mask
    return deck


def _above(groups: list[tuple[int, list[int]]], power: Sequence[int]) -> list[int]:
    """By card: the cards of its group (each listed highest power first) of greater power;
    cards of equal power are not above one another."""
    above = [0] * 64
    for _, cards in groups:
        higher = run = 0  # the cards of greater power, and those of the current power
        run_power = None
        for c in cards:
            if power[c] != run_power:
                higher |= run
                run = 0
                run_power = power[c]
            above[c] = higher
            run |= 1 << c
    return above


def solve_root(state: TrickState, searches: Callable[[int], Search]) -> SolveResult:
    """Every legal card's value, each searched by ``searches(card)``: the first card of a
    search with the window open, each next one by MTD(f) from the value of the one before
    (in the compiled core where the search takes it, else in Python)."""
    from tricktable.search.solver import fast

    legal = state.legal_actions()
    by_search: dict[Search, list[int]] = {}
    for card in legal:
        by_search.setdefault(searches(card), []).append(card)
    moves: dict[int, int] = {}
    maximise = True
    nodes = 0
    for search, cards in by_search.items():
        maximise = search.rules.maximise[state.to_act]
        answer = fast.solve_cards(search, cards)
        if answer is not None:
            found, searched = answer
            moves.update(zip(cards, found, strict=True))
            nodes += searched
            continue
        guess: int | None = None
        for card in cards:
            moves[card] = guess = search.move_value(card, guess)
        nodes += search.nodes
    ordered = {card: moves[card] for card in legal}
    values = ordered.values()
    value = max(values) if maximise else min(values)
    return SolveResult(value, ordered, nodes)
