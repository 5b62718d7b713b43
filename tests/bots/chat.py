"""A legal player that talks: a CHAT line before each answer, tricktable relays it to the table.

``--lines N`` says N lines before each answer (more than the throttle lets through: a flood);
``--hidden`` names a card of its own hand, which the table refuses (a ``chat`` fault):
``I hold KC``, or in another spelling with ``--spelling mixed`` (``Kc``), ``lower`` (``kc``),
``spaced`` (``K c``), ``invisible`` (``K``, a zero-width space, ``c``) or ``words`` (``king
of clubs``); ``--api-key=...`` is accepted and ignored (a secret in the command line).
"""

import sys

from botlib import Bot, _option

args = sys.argv[1:-1]
lines = int(_option(args, "--lines", "1"))
hidden = "--hidden" in args
spelling = _option(args, "--spelling", "canonical")
WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
         "king", "ace")  # fmt: skip
RANKS = dict(zip("23456789TJQKA", WORDS, strict=True))
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def spelled(card):
    rank, suit = card[:-1], card[-1]
    if spelling == "mixed":
        return rank + suit.lower()
    if spelling == "lower":
        return card.lower()
    if spelling == "spaced":
        return f"{rank} {suit.lower()}"
    if spelling == "invisible":
        return f"{rank}\u200b{suit.lower()}"
    if spelling == "words":
        return f"{RANKS.get(rank, rank)} of {SUITS.get(suit, suit)}"
    return card


def talk(bot, key, data):
    for n in range(lines):
        text = f"{bot.name} thinks about {key} {bot.questions}.{n}"
        if hidden and bot.hand:
            text = f"I hold {spelled(bot.hand[0])}"
        bot.send(f"|CHAT|say|{text}|END|")
    return False  # then answer legally


bot = Bot()
bot.after, bot.every = 1, True
bot.run(talk)
