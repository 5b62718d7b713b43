"""Chats without end instead of answering."""

import sys

from botlib import run


def flood(bot, key, data):
    line = "|CHAT|say|la la la|END|\n" * 100
    while True:
        sys.stdout.write(line)
        sys.stdout.flush()


run(flood)
