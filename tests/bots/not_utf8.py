"""Answers with bytes that are not UTF-8."""

import sys

from botlib import run


def latin1(bot, key, data):
    sys.stdout.buffer.write(b"|RESPONSE|card|\xff\xfeA\xe9|END|\n")
    sys.stdout.buffer.flush()
    return True


run(latin1)
