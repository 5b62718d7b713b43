"""Answers a card it does not hold (or, with no hand, one that cannot be legal)."""

from botlib import run

DECK = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def illegal(bot, key, data):
    if key != "card":
        return False
    legal = set(data[0].split()) if data and data[0] else set(bot.hand)
    card = next(c for c in DECK if c not in legal and c not in bot.hand)
    bot.send(f"|RESPONSE|card|{card}|END|")
    return True


run(illegal)
