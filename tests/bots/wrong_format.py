"""Answers in its own words instead of the protocol's."""

from botlib import run


def chatter(bot, key, data):
    bot.send("I play the ace of spades")
    return True


run(chatter)
