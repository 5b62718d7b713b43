"""Stops answering: sleeps for an hour at the question it is told to."""

import time

from botlib import run


def hang(bot, key, data):
    time.sleep(3600)
    return True


run(hang)
