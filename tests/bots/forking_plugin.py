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
            # The first child returns only once the grandchild has written its pid: a match
            # over before the grandchild ran (a loaded machine) would leave no pid to check.
            ready, told = os.pipe()
            child = os.fork()
            if child == 0:
                os.close(ready)
                os.setsid()
                if os.fork() == 0:
                    with open(os.environ["TRICKTABLE_TEST_PIDS"], "a") as out:
                        out.write(f"{os.getpid()}\n")
                    os.write(told, b"x")
                    os.close(told)
                    time.sleep(300)
                    os._exit(0)
                os.close(told)
                os._exit(0)
            os.close(told)
            os.read(ready, 1)  # the grandchild's word (or the end of the pipe)
            os.close(ready)
            os.waitpid(child, 0)
        return view.legal_actions()[0]
