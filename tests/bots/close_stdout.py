"""Closes its standard output and lives on without a word."""

import os
import time

from botlib import run


def close(bot, key, data):
    os.close(1)
    time.sleep(3600)
    return True


run(close)
