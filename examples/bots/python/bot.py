#!/usr/bin/env python3
"""A tricktable bot in plain Python: the stdin/stdout line protocol, no imports beyond sys.

Run by tricktable as ``python3 bot.py NAME`` (the player's name is the last argument). It plays
any game legally: it answers a QUERY with the first legal action listed, and in ``tricks``
(whose QUERY card lists nothing) it follows suit from the cards it was dealt.
"""

import sys

RANKS = "23456789TJQKA"


def fields(line):
    """The fields of |TYPE|KEY|DATA...|END|, or None for anything else."""
    line = line.rstrip("\r\n")
    if not (line.startswith("|") and line.endswith("|END|")):
        return None
    return line[1:-5].split("|")


def send(kind, key, data):
    sys.stdout.write(f"|{kind}|{key}|{data}|END|\n")
    sys.stdout.flush()


def main():
    me = sys.argv[-1]
    hand = []
    led = None  # the suit led in the current trick
    for raw in sys.stdin:
        msg = fields(raw)
        if msg is None:
            continue
        kind, key, data = msg[0], msg[1], msg[2:]
        if kind == "INFO" and key == "cards":
            hand = data[0].split() if data and data[0] else []
        elif kind == "INFO" and key == "start trick":
            led = None
        elif kind == "INFO" and key == "played":
            name, card = data[0], data[1]
            if led is None:
                led = card[-1]
            if name == me and card in hand:
                hand.remove(card)
        elif kind == "QUERY" and key == "card":
            if data and data[0]:
                legal = data[0].split()  # extended protocol: the legal cards are listed
            else:
                follow = [c for c in hand if led is not None and c[-1] == led]
                legal = follow or hand
            send("RESPONSE", "card", legal[0])
        elif kind == "QUERY" and key == "pass":
            send("RESPONSE", "pass", " ".join(hand[: int(data[0])]))
        elif kind == "QUERY":
            send("RESPONSE", key, data[0])  # the first legal action listed
        elif kind == "INFO" and key == "end game":
            break


if __name__ == "__main__":
    main()
