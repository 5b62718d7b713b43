"""Strategy insights of Setback and the Pitch family, read from the match records of a tournament.

What the data says about bidding and play, each figure with its sample size and 95% interval
(:mod:`tricktable.analysis.intervals`); docs/report.md explains every one. Terms:

- a hand's *change* for a side is what its score moved in the hand; a side's *gain* is its
  change minus the mean change of the other sides (partnerships: minus the other side's), so
  a gain of +1 is one point better off than the opponents;
- *features* of a hand are read in one trump suit: the trump *length* (every card that is
  trump in it: the jokers and, where a variant makes them trump, the off-jack or off-five)
  and whether it holds the joker, the jack, the ace and the ten of trump. The declarer's hand
  is read in the trump it chose; any seat's hand, for the bidding guide, in its *best suit*
  (the longest, then the most of ace, jack and joker, then the ten);
- the *score situation* of a side is ``behind``, ``level`` or ``ahead`` of the best other side
  before the hand (a tournament of one-hand deals is always level);
- a bid is *made* when the declaring side took at least its bid in points; a *stuck* dealer
  (every seat passed) declares at the lowest bid without choosing to, and is counted apart.

Only finished hands count; a hand thrown in (all passed where the variant redeals) is counted
as such and no further. The records are replayed through the engine (the one path), with each
variant's game built once rather than once a record: the cost is about a replay a game.

>>> Insights.unsupported("hearts", "no bids").supported
False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tricktable.analysis.intervals import Accumulator, Proportion, wilson
from tricktable.cards import ACE, JACK, JOKER, SUIT_MASKS, TEN, card_of, parse_card
from tricktable.db.store import StoredGame
from tricktable.engine.actions import BID, PASS
from tricktable.engine.trick import Game, HandLog, TrickState
from tricktable.errors import TricktableError
from tricktable.games import shared_game
from tricktable.games.setback_results import SetbackResult

#: a cell with fewer hands than this says "too little data" rather than a figure
MIN_CELL: Final = 30
#: the features of a declarer's hand the bid tables split by, in their order
FEATURES: Final = ("trump length", "joker", "jack", "ace", "ten", "score")
#: the score situations, in their order
SITUATIONS: Final = ("behind", "level", "ahead")
#: what a seat did in the auction, for the guide: a bid's number, or this for a pass
PASSED: Final = 0


def length_bucket(length: int) -> str:
    """The trump length as the tables group it: ``≤2``, ``3``, ``4``, ``5+``.

    >>> [length_bucket(n) for n in (1, 2, 3, 4, 5, 7)]
    ['≤2', '≤2', '3', '4', '5+', '5+']
    """
    return "≤2" if length <= 2 else "5+" if length >= 5 else str(length)


#: the trump lengths' groups, in order
LENGTHS: Final = ("≤2", "3", "4", "5+")


class Tally(Accumulator):
    """An :class:`~tricktable.analysis.intervals.Accumulator` that also takes one value seen
    many times at once (:meth:`add_many`): the reader counts each kind of hand in a dict and
    feeds the counts in at the end."""

    __slots__ = ()

    def add_many(self, value: float, count: int) -> None:
        """Count ``value`` ``count`` times: Chan's merge of a block of equal values (the same
        running figures as ``count`` calls of ``add``, to rounding)."""
        if count <= 0:
            return
        n = self.n + count
        delta = value - self.mean
        self.mean += delta * count / n
        self._m2 += delta * delta * self.n * count / n
        self.n = n


@dataclass(frozen=True, order=True, slots=True)
class BidKey:
    """A contract as the tables group it: the bid, and whether a stuck dealer took it."""

    bid: int
    stuck: bool = False

    @property
    def label(self) -> str:
        """``3``, or ``2 (stuck)``."""
        return f"{self.bid} (stuck)" if self.stuck else str(self.bid)


class Contracts:
    """Declared hands of one kind: how many, how many made, the declaring side's change
    (*score*) and gain."""

    __slots__ = ("gain", "made", "score")

    def __init__(self) -> None:
        self.made = 0
        self.score = Tally()
        self.gain = Tally()

    def add(self, made: bool, score: float, gain: float, count: int = 1) -> None:
        """Count ``count`` declared hands alike."""
        self.made += made * count
        self.score.add_many(score, count)
        self.gain.add_many(gain, count)

    @property
    def n(self) -> int:
        """The hands counted."""
        return self.score.n

    def make_rate(self) -> Proportion | None:
        """The share of contracts made, with its Wilson interval (None without hands)."""
        return wilson(self.made, self.n) if self.n else None


class Choices:
    """Hands where a seat of one hand type, at one score, made one auction choice: its side's
    gain, and how often it became the declarer at that bid and made it."""

    __slots__ = ("declared", "gain", "made")

    def __init__(self) -> None:
        self.gain = Tally()
        self.declared = 0
        self.made = 0

    @property
    def n(self) -> int:
        """The hands counted."""
        return self.gain.n

    def make_rate(self) -> Proportion | None:
        """The share made of the contracts this choice won (None if it won none)."""
        return wilson(self.made, self.declared) if self.declared else None


@dataclass(slots=True)
class PointTally:
    """One point of the hand: the hands counted, those where it was in play (its card dealt;
    for Game, not tied) and those where the declaring side took it."""

    hands: int = 0
    in_play: int = 0
    declarers: int = 0


#: a hand type of the guide: (trump length group, how many of ace/jack/joker, holds the ten)
HandType = tuple[str, int, bool]


def hand_type_label(kind: HandType, jokers: bool) -> str:
    """A hand type for people: ``4 trumps, 2 of A/J/Joker, ten``."""
    length, top, ten = kind
    honours = "A/J/Joker" if jokers else "A/J"
    trumps = "trump" if length in ("1",) else "trumps"
    return f"{length} {trumps}, {top} of {honours}" + (", ten" if ten else "")


@dataclass
class Insights:
    """What the records of a tournament say about strategy (see the module's docstring).

    ``supported`` is False for a game outside the Pitch family (``note`` says why); then
    every table is empty.
    """

    game: str
    supported: bool = True
    note: str = ""
    #: games read, and those whose record could not be replayed (counted, skipped)
    games: int = 0
    unreadable: int = 0
    #: finished hands read; of them thrown in (nobody declared) and stuck dealers
    hands: int = 0
    thrown_in: int = 0
    stuck: int = 0
    #: the bids the game allows, and whether its deck holds the (big) joker
    bids: tuple[int, ...] = ()
    jokers: bool = False
    #: the entrants whose decisions the bid tables and the guide count (None: everyone's)
    only: tuple[str, ...] | None = None
    #: declared hands by bid (``all``) and by each feature: ``features[f][(value, key)]``
    features: dict[str, dict[tuple[str, BidKey], Contracts]] = field(default_factory=dict)
    #: declared hands by the declaring entrant's name
    by_entrant: dict[str, Contracts] = field(default_factory=dict)
    points: dict[str, PointTally] = field(default_factory=dict)
    #: each seat's side's gain by the seat's place after the dealer (0: the dealer)
    positions: list[Tally] = field(default_factory=list)
    #: how often each place became the declarer
    declared_from: list[int] = field(default_factory=list)
    dealer_edge: Tally = field(default_factory=Tally)
    declarer_edge: Tally = field(default_factory=Tally)
    made: int = 0
    #: the bidding guide: ``guide[(situation, hand type, choice)]`` (choice: a bid, or PASSED)
    guide: dict[tuple[str, HandType, int], Choices] = field(default_factory=dict)

    @classmethod
    def unsupported(cls, game: str, why: str) -> Insights:
        """Insights of a game they are not written for: empty, saying why."""
        return cls(game=game, supported=False, note=why)

    @property
    def declared(self) -> int:
        """Hands with a declarer (thrown-in hands have none)."""
        return self.hands - self.thrown_in

    def make_rate(self) -> Proportion | None:
        """The share of every contract made (stuck dealers included)."""
        return wilson(self.made, self.declared) if self.declared else None

    def cells(self, feature: str) -> dict[tuple[str, BidKey], Contracts]:
        """The declared hands by ``feature``'s value and contract (``all``: by contract)."""
        return self.features.get(feature, {})

    def values(self, feature: str) -> list[str]:
        """The values of ``feature`` that occur, in their natural order."""
        order: Sequence[str] = {
            "trump length": LENGTHS,
            "score": SITUATIONS,
            "all": ("all",),
        }.get(feature, ("held", "not held"))
        seen = {value for value, _ in self.cells(feature)}
        return [value for value in order if value in seen]

    def contracts(self, feature: str = "all") -> list[BidKey]:
        """The contracts that occur under ``feature``, in order (stuck last)."""
        return sorted({key for _, key in self.cells(feature)}, key=lambda k: (k.stuck, k.bid))

    def guide_types(self, situation: str) -> list[HandType]:
        """The hand types the guide holds at ``situation``, weakest first."""
        kinds = {kind for s, kind, _ in self.guide if s == situation}
        return sorted(kinds, key=lambda k: (LENGTHS.index(k[0]), k[1], k[2]))

    def situations(self) -> list[str]:
        """The score situations the guide holds, in order."""
        seen = {s for s, _, _ in self.guide}
        return [s for s in SITUATIONS if s in seen]

    def advice(self, situation: str, kind: HandType, min_cell: int = MIN_CELL) -> Advice:
        """What the data advises for a hand of type ``kind`` at ``situation``."""
        choices = {
            choice: cell
            for (s, k, choice), cell in self.guide.items()
            if s == situation and k == kind and cell.n >= min_cell and cell.n > 1
        }
        if not choices:
            return Advice(None, None, "too little data")
        ranked = sorted(choices, key=lambda c: (-choices[c].gain.mean, c))
        best = ranked[0]
        if len(ranked) == 1:
            return Advice(best, None, "the only choice with enough data")
        runner = ranked[1]
        low = choices[best].gain.summary().low
        high = choices[runner].gain.summary().high
        return Advice(best, runner, "clearly" if low > high else "within noise of")


@dataclass(frozen=True, slots=True)
class Advice:
    """The guide's advice: the ``best`` choice by mean gain (a bid, :data:`PASSED`, or None
    for too little data), the ``runner``-up, and ``how`` sure: ``clearly`` (their intervals do
    not overlap), ``within noise of`` the runner-up, or why there is none."""

    best: int | None
    runner: int | None
    how: str


def choice_label(choice: int) -> str:
    """A guide's choice for people: ``pass`` or ``bid 3``."""
    return "pass" if choice == PASSED else f"bid {choice}"


class _Variant:
    """What reading one variant's hands needs, made once: the game and its trump masks."""

    def __init__(self, game: Game) -> None:
        self.game = game
        trumps = getattr(game, "trumps", None)
        jokers = sum(1 << c for c in game.deck if c >= 52)
        # A Pitch game keeps each trump suit's cards (jokers, a trump off-jack...) in a table.
        self.trump_mask = [
            trumps[s].mask if trumps is not None else SUIT_MASKS[s] | jokers for s in range(4)
        ]
        self.has_joker = JOKER in game.deck
        joker_bit = (1 << JOKER) if self.has_joker else 0
        #: by suit: its trumps, its top trumps (ace, jack, joker) and its ten, as masks
        self.suits = [
            (
                self.trump_mask[s],
                (1 << card_of(s, ACE)) | (1 << card_of(s, JACK)) | joker_bit,
                1 << card_of(s, TEN),
            )
            for s in range(4)
        ]
        self.sides = game.num_scores
        self.side = [game.team_of(seat) for seat in range(game.num_players)]
        self.players = game.num_players

    def best_suit(self, hand: int) -> HandType:
        """The hand's type in its best suit (longest, then most top trumps, then the ten)."""
        best = (-1, -1, False)
        for trumps, top, ten in self.suits:
            key = ((hand & trumps).bit_count(), (hand & top).bit_count(), hand & ten != 0)
            if key > best:
                best = key
        return (length_bucket(best[0]), best[1], best[2])


#: a declared hand as the reader counts it: the declarer's place after the dealer, made,
#: stuck, each place's side's gain, the point names and who took each (0 nobody, 1 the
#: declaring side, 2 another)
_HandKind = tuple[int, bool, bool, tuple[float, ...], tuple[str, ...], tuple[int, ...]]
#: a contract as the bid tables count it: the declaring entrant, bid, stuck, made, the
#: declaring side's score and gain, and the features (situation, length, joker, jack, ace, ten)
_BidKind = tuple[int, int, bool, bool, int, float, str, str, bool, bool, bool, bool]
#: a seat's auction choice as the guide counts it: situation, hand type, choice, its side's
#: gain, and 0 (did not declare), 1 (declared and was set) or 2 (declared and made)
_ChoiceKind = tuple[str, HandType, int, float, int]


class InsightsReader:
    """Reads games one at a time (:meth:`add`, or :meth:`feed` passing them on) into
    :class:`Insights` (:meth:`result`).

    ``names`` maps entrant ids to names; ``only`` (names) restricts the bid tables and the
    guide to decisions those entrants made: the declarer's for the bids, the seat's own for
    the guide. The points and the edges count every hand.

    Each hand costs a few dict updates: its kind (a small tuple of the facts the tables need)
    is counted, as ``simulate`` counts hands, and the tables are made from the counts at the
    end. Scores are small whole numbers, so kinds repeat and the counts stay small.
    """

    def __init__(
        self, game: str, names: Mapping[int, str], only: Collection[str] | None = None
    ) -> None:
        self.names = dict(names)
        unknown = sorted(set(only or ()) - set(self.names.values()))
        if unknown:
            known = ", ".join(sorted(self.names.values()))
            raise TricktableError(f"no entrant named {unknown[0]!r}; the entrants: {known}")
        self.only = None if only is None else {e for e, n in self.names.items() if n in only}
        self.game = game
        self.note = ""
        self.games = self.unreadable = self.hands = self.thrown_in = 0
        self.variant: _Variant | None = None
        self._variants: dict[tuple[str, str], _Variant] = {}
        self._last: tuple[object, object, _Variant] | None = None
        self._cards: dict[str, int] = {}
        self._actions: dict[str, int] = {}
        self._hands: Counter[_HandKind] = Counter()
        self._bids: Counter[_BidKind] = Counter()
        self._choices: Counter[_ChoiceKind] = Counter()

    def feed(self, games: Iterable[StoredGame]) -> Iterator[StoredGame]:
        """Each of ``games``, after reading it: one pass serves the standings and this."""
        for game in games:
            self.add(game)
            yield game

    def add(self, stored: StoredGame) -> None:
        """Read one stored game's record (a game without one is skipped)."""
        record = stored.record
        if self.note or record is None:
            return
        self.games += 1
        try:
            variant, state = self._replay(record)
        except (TricktableError, KeyError, TypeError, ValueError, AttributeError):
            self.unreadable += 1  # damaged or foreign: what the others say still stands
            return
        results = state.results
        if self.variant is None and results:
            if not isinstance(results[0], SetbackResult):
                self.note = (
                    f"strategy insights are written for Setback and the Pitch family; "
                    f"{self.game} has no bids or points of that kind"
                )
                return
            self.variant = variant
        seats = stored.seats
        before: Sequence[int] = [0] * variant.sides
        for result, log in zip(results, state.history, strict=False):
            assert isinstance(result, SetbackResult)
            self._hand(variant, seats, result, log, before)
            before = result.scores

    # -- replaying ----------------------------------------------------------------------------

    def _replay(self, record: Mapping[str, Any]) -> tuple[_Variant, TrickState]:
        """The record's finished hands replayed: records.replay's path, with the game made
        once a variant (that costs as much as the replay) and the notes left out (chat,
        substitutions and forfeits change no finished hand's cards or result)."""
        name, options = record["game"], record.get("options") or {}
        last = self._last
        if last is not None and last[0] == name and last[1] == options:
            variant = last[2]  # a tournament's records are all of one variant
        else:
            variant = self._variant(name, options)
        game = variant.game
        seed = record.get("seed")
        state = game.new_state(seed if isinstance(seed, int) else None)
        cards, actions = self._cards, self._actions
        for hand in record["hands"]:
            deal = [[cards.get(c) or self._card(c) for c in held] for held in hand["deal"]]
            masks, stock = state.check_deal(deal)
            state.deal(masks, dealer=hand["dealer"], stock=stock)
            for text in hand["actions"]:
                action = actions.get(text)
                if action is None:
                    action = actions[text] = game.parse_action(text)
                state.apply(action)
        return variant, state

    def _variant(self, name: str, options: Mapping[str, Any]) -> _Variant:
        key = (str(name), repr(sorted(options.items())))
        variant = self._variants.get(key)
        if variant is None:
            variant = self._variants[key] = _Variant(shared_game(name, options))
        self._last = (name, options, variant)
        return variant

    def _card(self, text: str) -> int:
        card = self._cards[text] = parse_card(text)
        return card

    # -- one hand -----------------------------------------------------------------------------

    def _hand(
        self,
        variant: _Variant,
        seats: Sequence[int],
        result: SetbackResult,
        log: HandLog,
        before: Sequence[int],
    ) -> None:
        """Count one finished hand; ``seats`` holds the entrant at each seat, ``before`` the
        scores before the hand."""
        self.hands += 1
        declarer, bid, trump = result.declarer, result.bid, result.trump
        if result.thrown_in or declarer is None or bid is None or trump is None:
            self.thrown_in += 1
            return
        deal, dealer = log.deal, log.dealer
        side_of, sides, players = variant.side, variant.sides, variant.players
        change = [after - was for after, was in zip(result.scores, before, strict=True)]
        total = sum(change)
        # A side's gain: its change minus the mean change of the others.
        gains = [c - (total - c) / (sides - 1) for c in change]
        best = [max(before[o] for o in range(sides) if o != s) for s in range(sides)]
        situations = [
            "behind" if before[s] < best[s] else "ahead" if before[s] > best[s] else "level"
            for s in range(sides)
        ]
        side = side_of[declarer]
        made = result.taken[side] >= bid
        points = result.points
        taken = tuple(0 if w is None else 1 if w == side else 2 for w in points.values())
        choices = _auction(log.actions, log.actors)
        stuck = all(choice == PASSED for choice in choices.values())
        place = (declarer - dealer) % players
        by_place = tuple(gains[side_of[(dealer + p) % players]] for p in range(players))
        self._hands[place, made, stuck, by_place, tuple(points), taken] += 1

        only = self.only
        if only is None or seats[declarer] in only:
            hand = deal[declarer]
            self._bids[
                seats[declarer],
                bid,
                stuck,
                made,
                change[side],
                gains[side],
                situations[side],
                length_bucket((hand & variant.trump_mask[trump]).bit_count()),
                bool(hand >> JOKER & 1),
                bool(hand >> card_of(trump, JACK) & 1),
                bool(hand >> card_of(trump, ACE) & 1),
                bool(hand >> card_of(trump, TEN) & 1),
            ] += 1
        for seat, choice in choices.items():
            if only is not None and seats[seat] not in only:
                continue
            own = side_of[seat]
            outcome = (1 + made) if seat == declarer and choice != PASSED else 0
            kind = variant.best_suit(deal[seat])
            self._choices[situations[own], kind, choice, gains[own], outcome] += 1

    # -- the tables ---------------------------------------------------------------------------

    def result(self) -> Insights:
        """The insights of every game read so far, made from the counts."""
        if self.note:
            return Insights.unsupported(self.game, self.note)
        ins = Insights(
            game=self.game,
            only=None if self.only is None else tuple(sorted(self.names[e] for e in self.only)),
            games=self.games,
            unreadable=self.unreadable,
            hands=self.hands,
            thrown_in=self.thrown_in,
        )
        variant = self.variant
        if variant is None:
            return ins
        opts = variant.game.options
        ins.bids = tuple(range(int(opts.min_bid), int(opts.max_bid) + 1))
        ins.jokers = variant.has_joker
        ins.positions = [Tally() for _ in range(variant.players)]
        ins.declared_from = [0] * variant.players
        for (place, made, stuck, by_place, names, taken), n in self._hands.items():
            ins.made += made * n
            ins.stuck += stuck * n
            ins.declared_from[place] += n
            ins.declarer_edge.add_many(by_place[place], n)
            ins.dealer_edge.add_many(by_place[0], n)
            for tally, gain in zip(ins.positions, by_place, strict=True):
                tally.add_many(gain, n)
            for name, took in zip(names, taken, strict=True):
                point = ins.points.get(name)
                if point is None:
                    point = ins.points[name] = PointTally()
                point.hands += n
                point.in_play += n if took else 0
                point.declarers += n if took == 1 else 0
        for kind, n in sorted(self._bids.items()):
            entrant, bid, stuck, made, score, gain, situation, length = kind[:8]
            joker, jack, ace, ten = kind[8:]
            key = BidKey(bid, stuck)
            values = [
                ("all", "all"),
                ("trump length", length),
                ("jack", _held(jack)),
                ("ace", _held(ace)),
                ("ten", _held(ten)),
                ("score", situation),
            ]
            if variant.has_joker:
                values.append(("joker", _held(joker)))
            for feature, value in values:
                cells = ins.features.setdefault(feature, {})
                cell = cells.get((value, key))
                if cell is None:
                    cell = cells[value, key] = Contracts()
                cell.add(made, score, gain, n)
            who = self.names.get(entrant, f"entrant {entrant}")
            mine = ins.by_entrant.get(who)
            if mine is None:
                mine = ins.by_entrant[who] = Contracts()
            mine.add(made, score, gain, n)
        for (situation, hand_type, choice, gain, outcome), n in sorted(self._choices.items()):
            chosen = ins.guide.get((situation, hand_type, choice))
            if chosen is None:
                chosen = ins.guide[situation, hand_type, choice] = Choices()
            chosen.gain.add_many(gain, n)
            chosen.declared += n if outcome else 0
            chosen.made += n if outcome == 2 else 0
        return ins


def _held(held: bool) -> str:
    return "held" if held else "not held"


def _auction(actions: Sequence[int], actors: Sequence[int]) -> dict[int, int]:
    """Each seat's last choice in the auction: a bid's number, or :data:`PASSED`."""
    choices: dict[int, int] = {}
    for action, seat in zip(actions, actors, strict=False):
        if action < PASS:
            break  # the first card: the auction is over
        if action == PASS:
            choices[seat] = PASSED
        elif BID <= action < BID + 64:
            choices[seat] = action - BID
    return choices


def read_insights(
    game: str,
    names: Mapping[int, str],
    games: Iterable[StoredGame],
    only: Collection[str] | None = None,
) -> Insights:
    """The :class:`Insights` of ``games`` (stored with their records)."""
    reader = InsightsReader(game, names, only)
    for stored in games:
        reader.add(stored)
    return reader.result()
