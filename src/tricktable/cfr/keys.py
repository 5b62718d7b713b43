"""Information-set keys of Setback's abstract game, after seed 003 (Brian Berns' Setback CFR).

A decision is reduced to a short string — its *key* — and a few *abstract actions*, each of
which names one concrete action (a bid or a card) by a fixed rule. Every seat that reaches the
same key plays from the same strategy: that is what makes the game small enough to train.
Everything here is computed from one seat's :class:`~tricktable.engine.trick.View`. A decision
with a single abstract action gets no key (there is nothing to choose), as in the seed.

**Rank characters.** Ranks that matter for points keep their name, the rest are ``x``:
``A K Q J T`` (they count toward Game), ``5 4 3 2`` (a possible Low), ``x`` (6 to 9), and
``*`` for the joker (ours: the seed's game had none). In a trick, a non-trump 2 to 5 is ``x``
(it can be no Low).

**Auction key** (the seed's baseline layout; trailing dots trimmed)::

    0     the high bid so far: 0 (none), 2 3 4 5 — or S: the dealer, nobody has bid, and a pass
          makes it the declarer at 2 (stuck)
    1-6   the ranks held in the strongest suit, highest first (the joker, which would be a
          trump of any suit, in its place between J and T), dots after: e.g. AJ*x2.
    7-12  the same for the second-strongest suit, if its strength is within 2 of the first's

A suit's strength is the sum of its cards' face values less one (2 -> 1, ..., T -> 9,
J -> 10, ..., A -> 13); the joker adds the same to every suit, so it is left out. Ties go to
the suit whose ranks are higher, card by card, then to the lower suit index.

*Adapted to our bids.* The seed's game bid 2, 3 or a 4 the dealer could take ("D"); ours bids
2 to 6 and a 6 ends the auction at once, so the high bid a seat can face is 0, 2, 3, 4 or 5, and
the one situation the seed had no letter for is the stuck dealer (``S``). The abstract actions
are the legal ones themselves: ``P`` (pass) and the bids ``2``..``6`` the seat may make.

**Establish-trump key**: ``E``, the contract's bid (``2``..``6``), then the declarer's ranks as
positions 1-12 above. Its actions choose the first lead, which names trump: ``1H`` / ``1L``
lead the highest / lowest card of the strongest suit, ``2H`` / ``2L`` of the second one (the
seed left these unwritten; leading a third suit is not in the abstraction).

**Playout key** (12 fixed characters, then two characters per abstract action, sorted)::

    0      H: the declarer's first lead was the ace of trump (High is the declarer's), else .
    1      Low taken: the rank of the lowest trump captured so far (2 3 4 5), or x (none, above
           a five, or this hand holds a lower trump)
    2      point cards captured, a digit 0-7: 1 the jack of trump, 2 the off-jack, 4 the joker
           (ours: the seed's J/. had only the jack to count)
    3      Game: + this seat's side has captured at least as many Game points as the other, -
    4      trump voids, a digit 0-7: 1 the seat to the left, 2 the partner, 4 the seat to the
           right has failed to follow a trump lead (the seed's hex digit; three seats suffice)
    5-10   the trick so far, rank and suit per card: t trump, x not; dots where none yet
    11     which card of the trick wins it so far (0-3), or .

Abstract card actions and the card each one plays:

====  ==========================================================  ==========================
key   meaning                                                     card played
====  ==========================================================  ==========================
Tr    lead a trump of rank character r                            the lowest such trump
S.    lead a strong non-trump (T, J, Q, K or A)                   the highest-ranked one
W.    lead a weak non-trump (2 to 9)                              the lowest-ranked one
Wr    play a trump of rank r that wins the trick so far           the lowest such trump
Lr    play a trump of rank r that does not                        the lowest such trump
wg    follow suit, winning, with a card worth g Game points       the lowest such card
lg    follow suit, not winning, with a card worth g               the lowest such card
T.    discard a ten (it cannot follow)                            the lowest-suited ten
G.    discard another card worth Game points (J, Q, K, A)         the one worth least, the
                                                                  off-jack (a point) last
D.    discard a weak card                                         the lowest-ranked one
====  ==========================================================  ==========================

``g`` is ``0``-``4`` or ``T`` (a ten's 10). Where two cards tie by that rule, the lower card
(clubs, diamonds, hearts, spades) is played: the mapping is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tricktable.cards import ACE, JACK, JOKER, SUIT_MASKS, TEN
from tricktable.engine.actions import BID, PASS
from tricktable.engine.trick import (
    AUCTION,
    PLAY,
    Game,
    TrumpTables,
    View,
    strength,
    trick_winner,
)
from tricktable.errors import TricktableError
from tricktable.games.pitch_scoring import game_count

#: rank character by printed rank (2..A): points keep a name, 6-9 do not
RANK_CHARS: Final = "2345xxxxTJQKA"
#: the joker's rank character
JOKER_CHAR: Final = "*"
#: Game points by printed rank (J 1, Q 2, K 3, A 4, ten 10)
GAME_POINTS: Final = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
#: the lowest rank that may be Low in the key (a five: rank index 3)
LOW_RANKS: Final = 3


@dataclass(frozen=True)
class Decision:
    """A decision of the abstract game: its key (None with a single abstract action), the
    abstract actions in key order, and the concrete action each one takes."""

    key: str | None
    actions: tuple[str, ...]
    concrete: tuple[int, ...]


def table_refused(game: Game) -> str:
    """Why the keys cannot describe ``game``'s table ("" when they can): they name the seats
    of four-seat Setback — the partner across, the seats to the left and right, two sides."""
    if game.num_players != 4 or game.num_scores != 2 or game.step != 1:
        return (
            f"CFR keys describe four-seat partnership Setback played to the left; "
            f"{game.spec()} seats {game.num_players} as {game.num_scores} sides"
            + (", to the right" if game.step != 1 else "")
        )
    return ""


def decision(view: View) -> Decision | None:
    """The abstract decision of the seat to act in ``view``; None when it is not to act.

    Raises :class:`TricktableError` (one line) for a table the keys cannot describe
    (:func:`table_refused`).
    """
    refused = table_refused(view.game)
    if refused:
        raise TricktableError(refused)
    legal = view.legal_actions()
    if not legal:
        return None
    if view.phase == AUCTION:
        return _auction(view, legal)
    if view.phase != PLAY:
        return None
    if view.trump < 0:
        return _establish(view, legal)
    return _playout(view, legal)


# --------------------------------------------------------------------------------- the hand


def suit_ranks(hand: int, suit: int) -> str:
    """The rank characters of ``suit`` in ``hand``, highest first, the joker in its place."""
    ranks = hand >> (suit * 13) & 0x1FFF
    out = []
    for rank in range(ACE, -1, -1):
        if rank == TEN and hand >> JOKER & 1:
            out.append(JOKER_CHAR)
        if ranks >> rank & 1:
            out.append(RANK_CHARS[rank])
    return "".join(out)


def strongest_suits(hand: int) -> list[int]:
    """The strongest suit of ``hand`` and, within a strength of 2 of it, the second (seed 003)."""
    scored = []
    for suit in range(4):
        ranks = hand >> (suit * 13) & 0x1FFF
        if not ranks:
            continue
        strength = sum(r + 1 for r in range(13) if ranks >> r & 1)
        # Higher ranks first on a tie, so that the key does not depend on which suit is which.
        order = tuple(-r for r in range(ACE, -1, -1) if ranks >> r & 1)
        scored.append((-strength, order, suit))
    scored.sort()
    suits = [scored[0][2]]
    if len(scored) > 1 and scored[1][0] - scored[0][0] < 2:
        suits.append(scored[1][2])
    return suits


def hand_key(hand: int) -> tuple[str, list[int]]:
    """Positions 1-12 of an auction key (not trimmed), and the suits they describe."""
    suits = strongest_suits(hand)
    text = "".join(suit_ranks(hand, s).ljust(6, ".") for s in suits)
    return text.ljust(12, "."), suits


# ------------------------------------------------------------------------------ the auction


def _auction(view: View, legal: list[int]) -> Decision:
    high = int(view.info()["high_bid"])
    if high == 0 and view.seat == view.dealer:
        lead = "S"  # a pass makes the dealer declarer at the lowest bid
    else:
        lead = str(high)
    text, _ = hand_key(view.hand)
    actions = tuple("P" if a == PASS else str(a - BID) for a in legal)
    key = (lead + text).rstrip(".") if len(legal) > 1 else None
    return Decision(key, actions, tuple(legal))


def _establish(view: View, legal: list[int]) -> Decision:
    text, suits = hand_key(view.hand)
    allowed = 0
    for card in legal:
        allowed |= 1 << card
    choices: dict[str, int] = {}
    for i, suit in enumerate(suits, 1):
        cards = allowed & SUIT_MASKS[suit]
        if cards:
            choices[f"{i}H"] = cards.bit_length() - 1
            low = (cards & -cards).bit_length() - 1
            if low not in choices.values():
                choices[f"{i}L"] = low
    if not choices:  # only jokers in hand cannot happen in a 6-card Setback; stay legal
        return Decision(None, ("..",), (legal[0],))
    actions = tuple(sorted(choices))
    key = None
    if len(actions) > 1:
        key = ("E" + str(view.info()["bid"]) + text).rstrip(".")
    return Decision(key, actions, tuple(choices[a] for a in actions))


# ------------------------------------------------------------------------------ the playout


def rank_char(card: int, tables: TrumpTables) -> str:
    """A card's rank character in a trick: trumps' 2-5 are possible Lows, others' are ``x``."""
    if card >= 52:
        return JOKER_CHAR
    rank = card % 13
    if rank <= LOW_RANKS and not tables.mask >> card & 1:
        return "x"
    return RANK_CHARS[rank]


def _playout(view: View, legal: list[int]) -> Decision:
    tables = view.tables
    trump = tables.suit
    seat = view.seat
    tricks = view.tricks
    trick = view.trick
    won = view.won
    hand = view.hand
    trumps = tables.mask

    # 0: High established.
    first = tricks[0][1][0] if tricks else trick[0][1] if trick else -1
    high = "H" if first == trump * 13 + ACE else "."
    # 1: Low taken.
    captured = 0
    for mask in won:
        captured |= mask
    # Trump's printed cards rank in rank order (the joker is never Low; the off-jack is no
    # trump in Setback), so the lowest captured is the lowest bit of trump's rank mask.
    low = "x"
    taken = captured >> (trump * 13) & 0x1FFF
    if taken:
        lowest = (taken & -taken).bit_length() - 1
        if lowest <= LOW_RANKS and not hand >> (trump * 13) & ((1 << lowest) - 1):
            low = RANK_CHARS[lowest]
    # 2: point cards captured: the jack, the off-jack, the joker.
    points = (
        (captured >> (trump * 13 + JACK) & 1)
        | (captured >> ((3 - trump) * 13 + JACK) & 1) << 1
        | (captured >> JOKER & 1) << 2
    )
    # 3: Game so far.
    ours = game_count(won[seat] | won[(seat + 2) % 4])
    theirs = game_count(won[(seat + 1) % 4] | won[(seat + 3) % 4])
    game = "+" if ours >= theirs else "-"
    # 4: trump voids shown by failing to follow a trump lead.
    voids = 0
    plays = [(leader, cards) for leader, cards, _ in tricks]
    if trick:
        plays.append((trick[0][0], tuple(c for _, c in trick)))
    for leader, cards in plays:
        if not trumps >> cards[0] & 1:
            continue
        for i in range(1, len(cards)):
            if not trumps >> cards[i] & 1:
                who = (leader + i) % 4
                if who != seat:
                    voids |= 1 << ((who - seat) % 4 - 1)
    # 5-11: the trick so far and who wins it.
    text = [high, low, str(points), game, str(voids)]
    led = tables.suit_mask[trick[0][1]] if trick else 0
    for _, card in trick:
        text.append(rank_char(card, tables))
        text.append("t" if trumps >> card & 1 else "x")
    winner = trick_winner(tables, [card for _, card in trick])
    best = strength(tables, trick[winner][1], led) if trick else -2
    text.append(".." * (3 - len(trick)))
    text.append(str(winner) if winner >= 0 else ".")

    choices = _card_actions(legal, tables, trick, best, led)
    actions = tuple(sorted(choices))
    key = "".join(text) + "".join(actions) if len(actions) > 1 else None
    return Decision(key, actions, tuple(choices[a] for a in actions))


def _card_actions(
    legal: list[int], tables: TrumpTables, trick: list[tuple[int, int]], best: int, led: int
) -> dict[str, int]:
    """Each abstract action of the legal cards, and the card it plays (see the module)."""
    power = tables.power
    trumps = tables.mask
    off_jack = (3 - tables.suit) * 13 + JACK
    classes: dict[str, list[int]] = {}
    for card in legal:
        is_trump = trumps >> card & 1
        if not trick:
            if is_trump:
                action = "T" + rank_char(card, tables)
            else:
                action = "S." if card % 13 >= TEN else "W."
        elif is_trump:
            action = ("W" if power[card] > best else "L") + rank_char(card, tables)
        elif led >> card & 1:
            points = GAME_POINTS[card % 13]
            action = ("w" if power[card] > best else "l") + ("T" if points == 10 else str(points))
        elif card % 13 == TEN:
            action = "T."
        elif card % 13 > TEN:
            action = "G."
        else:
            action = "D."
        classes.setdefault(action, []).append(card)
    chosen: dict[str, int] = {}
    for action, cards in classes.items():
        if action == "S.":
            # The strongest lead: the highest rank, the lower suit on a tie.
            chosen[action] = min(cards, key=lambda c: (-(c % 13), c))
        elif action == "G.":
            chosen[action] = min(cards, key=lambda c: (c == off_jack, GAME_POINTS[c % 13], c))
        elif action in ("T.", "W.", "D."):
            chosen[action] = min(cards, key=lambda c: (c % 13, c))
        else:
            chosen[action] = min(cards, key=lambda c: (power[c], c))
    return chosen


__all__ = ["Decision", "decision", "hand_key", "rank_char", "strongest_suits", "suit_ranks"]
