"""All Fours' rules in words, written from its options: what ``tricktable rules`` prints.

Seven Up, Old Sledge and Trinidad's All Fours are one game with other option values, so each
sentence an option changes is written here from its value (as ``setback_text`` does for the
Pitch family).

>>> from tricktable.games.all_fours_options import AllFoursOptions
>>> "hang jack" in rules_text(AllFoursOptions(hang_jack=3))
True
"""

from __future__ import annotations

import re
import textwrap

from tricktable.cards import RANKS
from tricktable.games.all_fours_options import AllFoursOptions, read_kick
from tricktable.games.seating import sides_of_options

#: the width of the printed text, as the rules of the other games are written
_WIDTH = 96

_RANK_WORDS = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}


def _article(rank: int) -> str:
    word = _RANK_WORDS[RANKS[rank]]
    return ("an " if word[0] in "aeiou" else "a ") + word


def _points_word(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _table(opts: AllFoursOptions) -> str:
    n = opts.players
    way = "clockwise" if opts.direction == "left" else "counter-clockwise"
    sides = sides_of_options(opts)
    seats = f"{n} seats, 0..{n - 1}"
    if opts.partners is False:
        text = f"{seats}, each playing for itself."
    elif sides == 2:
        text = f"{seats}, in two sides sitting alternately (seat s plays for side s % 2)."
    else:
        text = f"{seats}, in {sides} sides of {n // sides} (seat s plays for side s % {sides})."
    side = "to the left" if opts.direction == "left" else "to the right"
    return (
        f"{text} Play and the deal go {way}: the deal passes {side} after every hand, and the"
        f" eldest hand is the seat {side} of the dealer."
    )


def _deal(opts: AllFoursOptions) -> str:
    kick = read_kick(opts.kick)
    text = (
        "52 cards, ace high. Each seat is dealt six cards, three at a time; the dealer turns up"
        " the next card of the stock: its suit is proposed as trump."
    )
    if kick:
        kinds = [f"{_article(r)} ({_points_word(p)})" for r, p in kick.items()]
        words = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
        text += (
            f" When the card that names trump is {words}, the dealer's side scores that at"
            " once (it kicks)."
        )
    else:
        text += " Turning up a card scores nothing."
    return text


def _begging(opts: AllFoursOptions) -> str:
    if not opts.begging:
        return "There is no begging: the turned-up suit is trump, and the eldest hand leads."
    sides = sides_of_options(opts)
    gift = _points_word(opts.gift)
    if sides == 2:
        given = f"the eldest hand's side scores {gift} (the gift)"
    else:
        given = f"every side but the dealer's scores {gift} (the gift)"
    text = (
        "The eldest hand stands (`stand`: the turned-up suit is trump) or begs (`beg`). Begged,"
        f" the dealer gives (`give`): {given} and the suit stays trump; or runs the cards"
        " (`run`): three more cards to each seat, from the eldest, and the next card turned up."
    )
    if opts.run_cards == "until-new-suit":
        text += (
            " While it is of the refused suit the cards are run again; the first card of another"
            " suit names trump."
        )
    else:
        text += " That card names trump, whatever its suit (the cards are run once)."
    text += (
        " A stock too short for another run throws the deal in: nobody scores (a kick already"
        " scored stands) and the same dealer deals again."
    )
    if not opts.gift_wins:
        text += " The dealer may not give a gift that would bring a side to the target."
    return text


def _play(opts: AllFoursOptions) -> str:
    text = "The eldest hand leads. A player must follow the suit led if able"
    if opts.may_trump:
        text += ", but may always trump instead"
    text += (
        "; with none of the suit led, any card. The highest trump wins the trick, else the"
        " highest card of the suit led; the winner leads next. A hand is as many tricks as"
        " cards in hand: six, and three more for every run."
    )
    return text


def _points(opts: AllFoursOptions) -> str:
    side = "side" if opts.partners else "player"
    low = (
        f"Low: the {side} dealt the lowest trump in play."
        if opts.low_to == "dealt"
        else f"Low: the {side} capturing the lowest trump in play."
    )
    text = f"High: the {side} dealt the highest trump in play. {low}"
    text += f" Jack: the {side} capturing the jack of trump, if dealt"
    if opts.hang_jack != 1:
        text += (
            f"; captured by a {side} other than the one dealt it (hang jack), it scores"
            f" {opts.hang_jack} to the captor"
        )
    text += f". Game: the {side} whose captured cards count more (10 10, A 4, K 3, Q 2, J 1);"
    if opts.game_tie == "none":
        text += " a tie gives it to nobody."
    else:
        text += " a tie gives it to the tied side nearest the eldest hand."
    text += " One trump in play is both High and Low."
    return text


def _end(opts: AllFoursOptions) -> str:
    side = "side" if opts.partners else "player"
    if opts.count_out:
        return (
            f"The first {side} to reach {opts.target} wins at once: the points count in the"
            f" order kick, gift, High, Low, Jack, Game, and a {side} counted out by the kick or"
            " the gift wins before the play."
        )
    return (
        f"After each hand, once a {side} has {opts.target} or more, the one {side} with the"
        " top score wins; a tie at the top plays on."
    )


def rules_text(opts: AllFoursOptions, title: str = "All Fours") -> str:
    """The rules of the All Fours game that ``opts`` set, as Markdown."""
    sections = [
        f"## {title}",
        f"**Table.** {_table(opts)}",
        f"**Deal and turn-up.** {_deal(opts)}",
        f"**Begging.** {_begging(opts)}",
        f"**Play.** {_play(opts)}",
        f"**Points.** {_points(opts)}",
        f"**End.** {_end(opts)}",
        "Every variant (Seven Up, Old Sledge, Trinidad's All Fours...) is this game with other"
        " options: `tricktable games` lists them, `tricktable rules NAME` shows one, and"
        " `all-fours(option=value,...)` sets options at will.",
        "## Actions in records",
        "`stand`, `beg` (the eldest hand), `give` (also `take one`), `run` (the dealer,"
        " begged), `play CARD` (e.g. `play TD`). Records list the stock after the hands, top"
        " card first: the turn-up, then the cards each run deals and turns.",
    ]
    return "\n\n".join(_fill(text) for text in sections)


def _fill(paragraph: str) -> str:
    """A paragraph wrapped to the width, never inside a `code span`."""
    spans = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), paragraph)
    return textwrap.fill(spans, _WIDTH, break_on_hyphens=False).replace("\0", " ")
