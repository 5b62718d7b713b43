"""At its first question starts a daemon the classic way — fork, ``setsid``, fork again, the
middle process exits — which writes its pid to the ``--pids`` file and sleeps.

``--clean``: the daemon then runs ``sleep`` with an empty environment (nothing of the bot's).
``--die``: the bot exits right after (a crash), leaving the daemon an orphan.
"""

import os
import sys
import time

from botlib import run


def daemonize(bot, key, data):
    if os.fork() == 0:
        os.setsid()
        if os.fork() != 0:
            os._exit(0)  # the middle process: the daemon is now nobody's child
        if bot.pids:
            bot.note_pid(os.getpid())
        if "--clean" in sys.argv:
            os.execve("/bin/sleep", ["sleep", "600"], {})
        time.sleep(600)
        os._exit(0)
    if "--die" in sys.argv:
        time.sleep(0.2)  # the daemon has written its pid
        os._exit(5)
    return False  # and answers legally


run(daemonize)
