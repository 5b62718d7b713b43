"""A plug-in (in-process) bot that starts a double-forked daemon in its own session.

Its first decision forks this very process (the plug-in runs in tricktable's): the child
calls ``setsid()``, forks again and exits, leaving a grandchild that writes its pid to the
file named by ``TRICKTABLE_TEST_PIDS`` and sleeps. Then it plays its first legal action.
"""

from __future__ import annotations

import os
import time

from tricktable.bots.base import Bot


class Forker(Bot):
    name = "forker"
    forked = False

    def act(self, view):  # type: ignore[no-untyped-def]
        if not self.forked:
            self.forked = True
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    with open(os.environ["TRICKTABLE_TEST_PIDS"], "a") as out:
                        out.write(f"{os.getpid()}\n")
                    time.sleep(300)
                os._exit(0)
        return view.legal_actions()[0]
