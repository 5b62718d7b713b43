"""California Jack's rules in words, written from its options: what ``tricktable rules`` prints.

Shasta Sam, the four-hand game and Foster's California Jack differ from the default by options
alone, so each sentence an option changes is written from the option's value.

>>> from tricktable.games.california_jack_options import CaliforniaJackOptions
>>> "face down" in rules_text(CaliforniaJackOptions(stock="down"), "Shasta Sam")
True
"""

from __future__ import annotations

import re
import textwrap

from tricktable.games.california_jack_options import (
    CaliforniaJackOptions,
    point_weights,
    sides_of_options,
)

#: the width of the printed text, as the other games' rules are written
_WIDTH = 96

#: what earns each point; "{side}" is "side" in partnerships, "player" otherwise
_POINT_WORDS = {
    "high": "High: the {side} winning the ace of trump in a trick",
    "low": "Low: the {side} winning the two of trump in a trick",
    "jack": "Jack: the {side} winning the jack of trump in a trick",
    "game": "Game: the {side} whose won cards count more (J 1, Q 2, K 3, A 4, 10 10; a tie "
    "gives it to nobody)",
}


def _table(opts: CaliforniaJackOptions) -> str:
    n = opts.players
    way = "clockwise" if opts.direction == "left" else "anticlockwise"
    if opts.partners:
        seats = f"Four seats, 0..3 {way}; seats 0+2 play against seats 1+3."
    else:
        seats = f"{n} seats, 0..{n - 1} {way}, each playing for itself."
    turn = "left" if opts.direction == "left" else "right"
    return (
        f"{seats} The first dealer is drawn from the match's seed; the deal passes to the"
        f" {turn} after every hand, and the seat on the dealer's {turn} leads the first trick."
    )


def _deal(opts: CaliforniaJackOptions) -> str:
    stock = 52 - 6 * opts.players
    if opts.stock == "up":
        lie = (
            f"the other {stock} are squared face up as the stock, so that its top card is always"
            " seen by all; the top card after the deal names trump"
        )
    else:
        lie = (
            f"the other {stock} are the stock, face down; its top card is turned to name"
            " trump and stays on top, seen by all, until it is drawn"
        )
    return f"52 cards, aces high. Each seat is dealt 6 cards; {lie}."


def _play(opts: CaliforniaJackOptions) -> str:
    rule = {
        "follow-or-trump": "A seat must follow suit or trump; one that cannot follow must trump"
        " if it can, and plays anything only when it holds neither.",
        "may-trump": "A seat must follow suit or trump; one that cannot follow may play any card.",
        "follow": "A seat must follow suit if it can, and otherwise may play any card.",
    }[opts.play]
    others = "the other seat draws" if opts.players == 2 else "each other seat in turn draws"
    seen = (
        "Each card is seen by all before it is taken."
        if opts.stock == "up"
        else "Each card drawn is seen by its drawer alone (the turned trump card by all)."
    )
    return (
        f"{rule} The highest trump wins the trick, or the highest card of the suit led. After"
        f" each trick, while the stock lasts, its winner draws the top card and then {others}"
        f" the next, so every hand holds six cards again. {seen} The winner leads next. When"
        " the stock is gone, the last six tricks are played out: every card of the deck is"
        " played."
    )


def _points(opts: CaliforniaJackOptions) -> tuple[int, str]:
    weights = point_weights(opts.points)
    side = "side" if opts.partners else "player"
    parts = []
    for name, weight in weights.items():
        text = _POINT_WORDS[name].format(side=side)
        parts.append(text + (f" (worth {weight})" if weight != 1 else ""))
    return sum(weights.values()), "; ".join(parts) + "."


def rules_text(opts: CaliforniaJackOptions, title: str = "California Jack") -> str:
    """The rules of the California Jack game that ``opts`` set, as Markdown."""
    total, points = _points(opts)
    side = "side" if sides_of_options(opts) == 2 and opts.partners else "player"
    order = ", ".join(name.capitalize() for name in point_weights(opts.points))
    sections = [
        f"## {title}",
        f"**Table.** {_table(opts)}",
        f"**Deck and deal.** {_deal(opts)}",
        f"**Play.** {_play(opts)}",
        f"**Points ({total} a hand).** {points}",
        f"**End.** The first {side} to reach {opts.target} wins. Points count in the order"
        f" {order}: when several reach {opts.target} in the same hand, the one that gets"
        " there first in that order wins.",
        "Shasta Sam and the other variants are this game with other options: `tricktable"
        " games` lists them, and `california-jack(option=value,...)` sets options at will.",
        "## Actions in records",
        "`play CARD` (e.g. `play TD`): every card in play order. A hand's record lists the"
        " deal and then the stock, top card first; the draws follow from it.",
    ]
    return "\n\n".join(_fill(text) for text in sections)


def _fill(paragraph: str) -> str:
    """A paragraph wrapped to the width, never inside a `code span`."""
    spans = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), paragraph)
    return textwrap.fill(spans, _WIDTH, break_on_hyphens=False).replace("\0", " ")
