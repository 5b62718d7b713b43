"""A legal player that talks: a CHAT line before each answer, tricktable relays it to the table.

``--lines N`` says N lines before each answer (more than the throttle lets through: a flood);
``--hidden`` names a card of its own hand, which the table refuses (a ``chat`` fault).
"""

import sys

from botlib import Bot, _option

args = sys.argv[1:-1]
lines = int(_option(args, "--lines", "1"))
hidden = "--hidden" in args


def talk(bot, key, data):
    for n in range(lines):
        text = f"{bot.name} thinks about {key} {bot.questions}.{n}"
        if hidden and bot.hand:
            text = f"I hold {bot.hand[0]}"
        bot.send(f"|CHAT|say|{text}|END|")
    return False  # then answer legally


bot = Bot()
bot.after, bot.every = 1, True
bot.run(talk)
