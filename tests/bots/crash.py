"""Dies in the middle of a hand, with a last word on standard error."""

import os
import sys

from botlib import run


def crash(bot, key, data):
    sys.stderr.write("botlib: something went badly wrong\n")
    sys.stderr.flush()
    os._exit(3)


run(crash)
