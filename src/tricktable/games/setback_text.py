"""Setback's rules in words, written from its options: what ``tricktable rules`` prints.

Every member of the Pitch family is Setback with other option values, so one fixed text cannot
describe them all: smear has no joker and plays to 11, ten-point pitch has two jokers and a
three worth three. Each sentence that an option changes is written here from the option's
value, so the rules of every preset and every ``setback(...)`` spec read as that variant's.

>>> from tricktable.games.setback_options import SetbackOptions
>>> "54 cards" in rules_text(SetbackOptions(jokers=2, points="high,low,game", max_bid=3))
True
"""

from __future__ import annotations

import re
import textwrap

from tricktable.games.setback_options import SetbackOptions, point_weights

#: the width of the printed text, as the rules files of the other games are written
_WIDTH = 96

#: what earns each point; "{side}" is "side" in partnerships, "player" otherwise
_POINT_WORDS = {
    "high": "High: the {side} capturing the highest trump dealt",
    "jack": "Jack: the {side} capturing the jack of trump, if dealt",
    "off_jack": "Off-jack (the jick): the {side} capturing the jack of the other suit of "
    "trump's colour, if dealt",
    "three": "Three: the {side} capturing the three of trump, if dealt",
    "five": "Five (right pedro): the {side} capturing the five of trump, if dealt",
    "off_five": "Off-five (left pedro): the {side} capturing the five of the other suit of "
    "trump's colour, if dealt",
    "ten": "Ten: the {side} capturing the ten of trump, if dealt",
    "game": "Game: the {side} whose captured cards count more (J 1, Q 2, K 3, A 4, 10 10; "
    "a tie gives it to nobody)",
}


def _deck(opts: SetbackOptions) -> str:
    size = 52 + opts.jokers
    cards = (
        f"{size} cards, no joker",
        f"{size} cards: the 52 plus one joker (JK)",
        f"{size} cards: the 52 plus two jokers, the big one (JK) and the little one (JL)",
    )[opts.jokers]
    rest = size - opts.players * opts.hand_size - opts.kitty
    left = f"the {rest} others take no part" if rest else "every card is dealt"
    text = f"{cards}. Each seat is dealt {opts.hand_size} cards; {left}."
    if opts.kitty:
        text += (
            f" {opts.kitty} more are dealt face down as a kitty (the widow). The auction's"
            f" winner takes the kitty into its hand and then discards {opts.kitty} cards face"
            " down, one at a time (`discard CARD`), before leading: nobody else sees the kitty"
            " or the discard, which counts as a trick the declarer's side won (its cards count"
            " toward Game, and a point card in it is the declarer's side's)."
        )
        if opts.jokers:
            text += " The declarer must keep a card other than a joker."
    return text


def _auction(opts: SetbackOptions) -> str:
    low, high = opts.min_bid, opts.max_bid
    amount = f"the bid {low}" if low == high else f"a whole number from {low} to {high}"
    where = "left" if opts.direction == "left" else "right"
    text = (
        f"One pass round the table, from the dealer's {where} to the dealer. Each seat passes or "
        f"bids {amount}, above the high bid"
    )
    if opts.dealer_takes:
        text += "; the dealer may instead take the high bid at the same level"
    top = "moon" if opts.moon else str(high)
    if opts.moon:
        text += (
            '. A seat may instead bid "moon" (shoot the moon), above every number: a bid to'
            " take every point of the hand"
        )
    text += f". A bid of {top} ends the auction at once"
    text += ", though the dealer may still take it. " if opts.dealer_takes else ". "
    every = "all four" if opts.players == 4 else "all"
    if opts.all_pass == "stuck":
        text += f'If {every} pass, the dealer is declarer at {low} ("stuck").'
    else:
        text += f"If {every} pass, the deal is thrown in: nobody scores and the deal passes on."
    return text


def _play(opts: SetbackOptions) -> str:
    text = "The declarer leads; the suit of that first card is trump"
    if opts.jokers:
        text += ", so it may not be a joker"
        if opts.jokers == 2 and opts.hand_size == 2:
            text += " (a declarer holding only the two jokers throws the deal in)"
    text += ". Players must follow the suit led if they can"
    if opts.may_trump:
        text += ", or play a trump instead (trumping is allowed while able to follow)"
    else:
        text += " (no trumping while able to follow)"
    text += ", and may play anything otherwise."
    if opts.jokers == 1:
        text += (
            " The joker is a trump ranking between the ten and the jack; a player whose only"
            " trump is the joker must play it to a trump lead."
        )
    elif opts.jokers == 2:
        text += (
            " The jokers are trumps ranking between the ten and the jack, the little joker"
            " below the big one; a player whose only trumps are jokers must play one to a"
            " trump lead."
        )
    if opts.jokers and opts.joker_lead == "last":
        text += " A trick may not be opened with a joker while the leader holds any other card."
    elif opts.jokers:
        text += " After the first trick a joker may open any trick; it leads trump."
    if opts.off_jack_trump:
        text += (
            " The off-jack (the jack of the other suit of trump's colour) is a trump, just"
            " below the jack of trump."
        )
    else:
        text += " The off-jack (the jack of the other suit of trump's colour) stays in its suit."
    if opts.off_five_trump:
        text += (
            " The off-five (the five of the other suit of trump's colour) is a trump, just"
            " below the five of trump."
        )
    text += (
        " The highest trump wins the trick, else the highest card of the suit led; the winner"
        f" leads next. A hand is {opts.hand_size} tricks."
    )
    return text


def _points(opts: SetbackOptions) -> tuple[int, str]:
    weights = point_weights(opts.points)
    side = "side" if opts.partners else "player"
    items = []
    for name, weight in weights.items():
        if name == "low":
            if opts.low_to == "dealt":
                words = f"Low: the {side} that was dealt the lowest trump"
            else:
                words = f"Low: the {side} capturing the lowest trump dealt"
        elif name == "joker":
            which = "big joker" if opts.jokers == 2 else "joker"
            words = f"Joker: the {side} capturing the {which}, if dealt"
        elif name == "little_joker":
            words = f"Little joker: the {side} capturing the little joker, if dealt"
        else:
            words = _POINT_WORDS[name].format(side=side)
        items.append(words + (f", worth {weight}" if weight != 1 else "") + ".")
    text = " ".join(items)
    if "high" in weights or "low" in weights:
        if opts.jokers:
            text += (
                " A joker is never High or Low."
                if opts.jokers == 2
                else (" The joker is never High or Low.")
            )
        text += " One trump dealt is both High and Low."
    return sum(weights.values()), text


def _score(opts: SetbackOptions) -> str:
    if opts.partners:
        who, they, their, scores, loses, others = (
            "declarers",
            "they",
            "their",
            "score",
            "lose",
            "defenders",
        )
    else:
        who, they, their, scores, loses, others = (
            "declarer",
            "it",
            "its",
            "scores",
            "loses",
            "other players",
        )
    if opts.declarer_scores == "bid":
        made = f"{their} bid if {they} took at least that many points"
    else:
        made = f"the points {they} took if that is at least {their} bid"
    text = (
        f"The {who} {scores} {made}, and {loses} {their} bid otherwise (scores can go"
        f" negative). The {others} always score what they took."
    )
    if opts.moon:
        total = sum(point_weights(opts.points).values())
        if opts.moon_value:
            text += (
                f" A moon made (every point the hand awarded taken by the {who}) scores"
                f" {opts.moon_value}; failed, it loses {opts.moon_value}."
            )
        else:
            text += (
                f" A moon made (every point the hand awarded taken by the {who}) wins the match"
                f" at once; failed, it loses {total}, the hand's points."
            )
    if opts.smudge:
        text += (
            f" Smudge: a bid of {opts.max_bid} made by taking every point the hand awarded wins"
            f" the match at once, unless the {who} began the hand below zero (in the hole)."
        )
    return text


def _end(opts: SetbackOptions) -> str:
    target = opts.target
    side = "side" if opts.partners else "player"
    if opts.win == "declarers":
        who, win = ("declarers", "they win") if opts.partners else ("declarer", "it wins")
        return (
            f"The match ends after the first hand in which the {who} finish with {target} or"
            f" more; {win}. Others reaching {target} do not end the match."
        )
    if opts.win == "first":
        who = "declarers win" if opts.partners else "declarer wins"
        return (
            f"The first {side} to reach {target} wins. When several reach it in the same hand,"
            f" the {who} if among them, else the one {side} with the top score; a tie at the"
            " top plays on."
        )
    return (
        f"Once a {side} has {target} or more after a hand, the one {side} with the top score"
        " wins; a tie at the top plays on."
    )


_COUNTS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven"}


def _table(opts: SetbackOptions) -> str:
    n = opts.players
    way = "clockwise" if opts.direction == "left" else "counter-clockwise"
    seats = f"{_COUNTS.get(n, str(n))} seats, 0..{n - 1} {way}"
    if opts.partners is False:
        text = f"{seats}, each playing for itself (no partners)."
    elif n == 4 and opts.partners is True:
        text = f"{seats}; seats 0+2 play against seats 1+3."
    else:
        sides = 2 if opts.partners is True else int(str(opts.partners).split("x")[0])
        teams = ["+".join(str(s) for s in range(side, n, sides)) for side in range(sides)]
        text = f"{seats}; {len(teams)} sides, partners sitting evenly: " + ", ".join(teams) + "."
    where = "left" if opts.direction == "left" else "right"
    return text + (
        " The first dealer is drawn from the match's seed; the deal then passes to the"
        f" {where} after every hand."
    )


def rules_text(opts: SetbackOptions, title: str = "Setback") -> str:
    """The rules of the Pitch-family game that ``opts`` set, as Markdown."""
    total, points = _points(opts)
    table = _table(opts)
    sections = [
        f"## {title}",
        f"**Table.** {table}",
        f"**Deck and deal.** {_deck(opts)}",
        f"**Auction.** {_auction(opts)}",
        f"**Play.** {_play(opts)}",
        f"**Points (up to {total} a hand).** {points}",
        f"**Score.** {_score(opts)}",
        f"**End.** {_end(opts)}",
        "Every Pitch variant is this game with other options: `tricktable games` lists them,"
        " `tricktable rules NAME` shows one, and `setback(option=value,...)` sets options at"
        " will.",
        "## Actions in records",
        _actions(opts),
    ]
    return "\n\n".join(_fill(text) for text in sections)


def _actions(opts: SetbackOptions) -> str:
    moon = ", `moon`" if opts.moon else ""
    discard = ", `discard CARD`" if opts.kitty else ""
    then = " then the declarer's discards," if opts.kitty else ""
    where = "left" if opts.direction == "left" else "right"
    return (
        f"`pass`, `bid N` (e.g. `bid 3`){moon}{discard}, `play CARD` (e.g. `play TD`, `play"
        f" JK`). A hand's actions are the auction from the dealer's {where},{then} then every"
        " card in play order."
    )


def _fill(paragraph: str) -> str:
    """A paragraph wrapped to the width, never inside a `code span`."""
    spans = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), paragraph)
    return textwrap.fill(spans, _WIDTH, break_on_hyphens=False).replace("\0", " ")
