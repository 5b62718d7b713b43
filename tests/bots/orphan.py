"""Starts a child that would outlive it, then dies: the child is left an orphan."""

import os
import subprocess

from botlib import run


def orphan(bot, key, data):
    child = subprocess.Popen(["sleep", "600"])
    if bot.pids:
        bot.note_pid(child.pid)
    os._exit(4)


run(orphan)
