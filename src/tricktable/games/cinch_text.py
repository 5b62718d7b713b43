"""Cinch's rules in words, written from its options: what ``tricktable rules`` prints.

Every relative of Cinch is Cinch with other option values (Pedro Sancho deals six and draws
nothing, Dom Pedro adds a joker worth 15), so each sentence an option changes is written here
from the option's value, and the rules of every preset and ``cinch(...)`` spec read as that
version's.

>>> from tricktable.games.cinch_options import CinchOptions
>>> "53 cards" in rules_text(CinchOptions(jokers=1, points="high,low,joker=15", max_bid=17))
True
"""

from __future__ import annotations

import re
import textwrap

from tricktable.games.cinch_options import CinchOptions, point_weights
from tricktable.games.seating import sides_of_options

#: the width of the printed text, as the rules files of the other games are written
_WIDTH = 96

#: what earns each point; "{side}" is "side" in partnerships, "player" otherwise
_POINT_WORDS = {
    "high": "High: the {side} winning the highest trump in play",
    "jack": "Jack: the {side} winning the jack of trump",
    "game": "Game: the {side} winning the ten of trump",
    "three": "Three: the {side} winning the three of trump",
    "pedro": "Pedro (the right Pedro): the {side} winning the five of trump",
    "left_pedro": "Left Pedro: the {side} winning the five of the other suit of trump's colour",
    "nine": "Sancho: the {side} winning the nine of trump",
    "joker": "Snoozer: the {side} winning the joker",
}


def _table(opts: CinchOptions) -> str:
    n = opts.players
    sides = sides_of_options(opts)
    text = f"{n} seats, 0..{n - 1} clockwise"
    if opts.partners is False:
        text += ", each playing for itself."
    else:
        size = n // sides
        text += (
            f", in {sides} sides of {size} sitting alternately (seat s plays for side s mod"
            f" {sides})."
        )
    return text + (
        " The first dealer is drawn from the match's seed; the deal passes to the left after"
        " every hand."
    )


def _deck(opts: CinchOptions) -> str:
    size = 52 + opts.jokers
    cards = f"{size} cards" + (": the 52 and a joker (JK), the Snoozer" if opts.jokers else "")
    rest = size - opts.players * opts.hand_size
    pack = f"the other {rest} are the pack" if rest else "every card is dealt"
    return f"{cards}. Each seat is dealt {opts.hand_size} cards; {pack}."


def _auction(opts: CinchOptions) -> str:
    low, high = opts.min_bid, opts.max_bid
    text = (
        "One round from the dealer's left to the dealer. Each seat passes or bids a whole"
        f" number from {low} to {high} above the high bid"
    )
    if opts.dealer_takes:
        text += "; the dealer may instead take the high bid at the same level"
    text += f". A bid of {high} ends the auction"
    text += ", though the dealer may still take it. " if opts.dealer_takes else ". "
    if opts.all_pass == "redeal":
        text += "If everyone passes the deal is thrown in: nobody scores and the deal passes on."
    else:
        text += "If all the others pass, the dealer must bid."
    return text


def _trump_order(opts: CinchOptions) -> str:
    order = "A K Q J 10 9 8 7 6 5"
    if opts.left_pedro_trump:
        order += " (left Pedro: the other five of trump's colour)"
    order += " 4 3 2"
    if opts.jokers:
        order += " joker"
    return order


def _draw(opts: CinchOptions) -> str:
    keep = opts.play_size
    rule = opts.discard
    if rule == "none":
        return f"There is no discard: each plays the {keep} cards dealt."
    if rule == "down":
        return (
            f"Each seat in turn from the dealer's left discards down to {keep} cards, face down;"
            " nothing is drawn."
        )
    who = "Each seat but the dealer" if opts.dealer_robs else "Each seat"
    if rule == "non-trumps":
        text = (
            f"{who}, in turn from the dealer's left, throws every card that is not a trump;"
            f" a seat holding more than {keep} trumps also throws the excess, face up, plain"
            " trumps before point cards"
        )
    else:
        text = (
            f"{who}, in turn from the dealer's left, throws any cards it likes, face down"
            f" (holding more than {keep}, at least enough to keep {keep}), then says draw"
        )
    if opts.dealer_robs:
        text += (
            f". The dealer then gives each of the others enough cards from the pack to hold"
            f" {keep}, from his left, each seeing only its own; and then robs the pack: he adds"
            f" every card left to his hand and keeps {keep} of them all, of his choice (one keep"
            " CARD each), unseen by the others."
        )
    else:
        text += (
            f". The dealer then gives every seat, himself last, enough cards from the pack to"
            f" hold {keep}, from his left; each sees only its own."
        )
    return text + (
        f" Should the pack run out, a seat short of {keep} takes back its own discards,"
        " highest first (the sources are silent; every hand stays the same size)."
    )


def _play(opts: CinchOptions) -> str:
    text = "The bidder leads. Players must follow the suit led if they can"
    if opts.may_trump:
        text += ", or trump instead (trumping is allowed while able to follow)"
    else:
        text += " (no trumping while able to follow)"
    text += (
        ", and may play anything otherwise. The highest trump wins the trick, else the highest"
        " card of the suit led; the winner leads next."
    )
    return text


def _points(opts: CinchOptions) -> tuple[int, str]:
    side = "side" if opts.partners else "player"
    weights = point_weights(opts.points)
    parts = []
    for name, weight in weights.items():
        if name == "low":
            taker = "holding" if opts.low_to == "held" else "winning"
            words = f"Low: the {side} {taker} the lowest trump in play"
        else:
            words = _POINT_WORDS[name].format(side=side)
        worth = "1 point" if weight == 1 else f"{weight} points"
        parts.append(f"{words} ({worth})")
    text = "; ".join(parts) + "."
    if "high" in weights or "low" in weights:
        text += " A point whose card is not in play goes to nobody"
        text += "; the joker is never High or Low." if opts.jokers else "."
    return sum(weights.values()), text


def _score(opts: CinchOptions) -> str:
    if opts.scoring == "difference":
        return (
            "If the bidding side took at least its bid, the side that took more points scores"
            " the difference; otherwise the other side scores the points it took and the bid,"
            " and the bidders nothing."
        )
    who = "bidding side" if opts.partners else "bidder"
    return (
        f"Every {'side' if opts.partners else 'player'} scores the points it took, except a"
        f" {who} that took fewer than its bid: it loses the bid instead (scores may be"
        " negative)."
    )


def _end(opts: CinchOptions) -> str:
    side = "side" if opts.partners else "player"
    text = f"The first {side} to reach {opts.target} wins."
    if opts.bidder_out:
        who = "bidding side" if opts.partners else "bidder"
        return text + (
            f" When several reach it in the same hand the {who} goes out first, if among them;"
            " else the top score wins, and a tie at the top plays on."
        )
    return text + " When several reach it in the same hand the top score wins; a tie plays on."


def rules_text(opts: CinchOptions, title: str = "Cinch") -> str:
    """The rules of the Cinch-family game that ``opts`` set, as Markdown."""
    total, points = _points(opts)
    sections = [
        f"## {title}",
        f"**Table.** {_table(opts)}",
        f"**Deck and deal.** {_deck(opts)}",
        f"**Auction.** {_auction(opts)}",
        "**Trump.** The high bidder names trump. In trump the cards rank "
        f"{_trump_order(opts)}; the other suits rank A K Q J 10 9 8 7 6 5 4 3 2.",
        f"**Discard and draw.** {_draw(opts)}",
        f"**Play.** {_play(opts)}",
        f"**Points (up to {total} a hand).** {points}",
        f"**Score.** {_score(opts)}",
        f"**End.** {_end(opts)}",
        "Every relative of Cinch is this game with other options: `tricktable games` lists"
        " them, `tricktable rules NAME` shows one, and `cinch(option=value,...)` sets options"
        " at will.",
        "## Actions in records",
        "`pass`, `bid N`, `trump S` (C, D, H or S), `discard CARD`, `draw`, `keep CARD`,"
        " `play CARD`. A hand's actions are the auction from the dealer's left, trump, the"
        " discards that were choices, the dealer's keeps, then every card in play order.",
    ]
    return "\n\n".join(_fill(text) for text in sections)


def _fill(paragraph: str) -> str:
    """A paragraph wrapped to the width, never inside a `code span`."""
    spans = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), paragraph)
    return textwrap.fill(spans, _WIDTH, break_on_hyphens=False).replace("\0", " ")
