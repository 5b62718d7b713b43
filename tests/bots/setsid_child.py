"""At its first question starts a child that leaves the bot's session (``setsid``) and sleeps."""

import os
import time

from botlib import run


def escape(bot, key, data):
    if os.fork() == 0:
        os.setsid()
        if bot.pids:
            bot.note_pid(os.getpid())
        time.sleep(600)
        os._exit(0)
    return False  # and answers legally


run(escape)
