"""Takes its time, but less than the limit, over a few questions; then plays at once."""

import time

from botlib import run


def slow(bot, key, data):
    if bot.questions <= bot.after + 4:
        time.sleep(0.15)
    return False  # then answers legally


run(slow)
