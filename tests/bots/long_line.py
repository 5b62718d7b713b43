"""Answers with a line of one megabyte."""

import sys

from botlib import run


def long_line(bot, key, data):
    sys.stdout.write("|RESPONSE|card|" + "A" * (1 << 20) + "|END|\n")
    sys.stdout.flush()
    return True


run(long_line)
