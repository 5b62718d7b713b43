"""What one connection, one person or everyone together may make a server do: the numbers
(:class:`HubLimits`, each written down in docs/protocol-web.md, "Limits") and the two
counters that enforce them (:class:`TokenBucket`, a rate; :class:`Refusals`, a flood)."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Final

#: the largest frame read (characters)
MAX_FRAME: Final = 16 * 1024
#: messages a second a connection may send, and the burst it may save up
RATE: Final = 20.0
BURST: Final = 40.0
#: refused messages within :data:`FLOOD_WINDOW` seconds that close a connection (4429)
FLOOD_CLOSE: Final = 100
FLOOD_WINDOW: Final = 10.0
#: messages waiting to be sent after which a connection is dropped (it does not read)
MAX_QUEUE: Final = 5000
#: tables waiting or playing that one person may have made
MAX_OPEN_TABLES: Final = 20


@dataclass(frozen=True, slots=True)
class HubLimits:
    """What one connection, one person, or everyone together may make the tables do; each
    number is written down in docs/protocol-web.md ("Limits"). ``Hub.limits`` holds them
    (the tests set them tiny: a cap of three hands, an idle stop of half a second)."""

    #: messages a second one connection may send, and the burst it may save up
    rate: float = RATE
    burst: float = BURST
    #: messages refused within ``flood_window`` seconds that close the connection (4429):
    #: counted in a window, not in a row, so that a steady flood is closed too
    flood_refusals: int = FLOOD_CLOSE
    flood_window: float = FLOOD_WINDOW
    #: tables waiting or playing that one person may have made
    open_tables: int = MAX_OPEN_TABLES
    #: tables of bots alone (no person's seat, none open) being played: of one person, in all
    bot_tables_per_person: int = 2
    bot_tables: int = 20
    #: hands after which a match ends with the leader winning: at a table of bots alone,
    #: and at a table where a person sits (far off: only a match that cannot end meets it)
    hand_cap_bots: int = 200
    hand_cap_people: int = 1000
    #: seconds a table goes on being played with nobody attached (no player, no watcher);
    #: then it stops, until someone says hello to it (a restart wakes none)
    idle_stop: float = 600.0
    #: chat lines a second one person may say (lobby and tables, all their connections
    #: together), and the burst they may save up
    chat_rate: float = 0.5
    chat_burst: float = 5.0
    #: lobby chat lines a second from everyone together, and their burst: every line goes
    #: to every subscriber, so this bounds the lobby's fan-out
    lobby_chat_rate: float = 2.0
    lobby_chat_burst: float = 10.0
    #: whether the accounts' web-service bots may be called at local addresses (loopback, the
    #: private networks: ``serve --allow-local-bots``, an operator whose bots run beside it);
    #: else only public ones, checked at every connection (protocols/endpoints)
    allow_local_bots: bool = False
    #: seconds a person at a league night's table has for a move before the away rule plays
    #: their seat (a no-show costs the night one such wait, then a bot plays on for them)
    league_move_time: float = 60.0


class TokenBucket:
    """A rate limit: ``rate`` messages a second, bursts of ``burst`` saved up (the server's
    limit on a connection, and the pace a well-behaved client keeps under it)."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = time.monotonic()

    def _fill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def allow(self) -> bool:
        """Take one message's token if there is one; whether there was."""
        self._fill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def full(self) -> bool:
        """Whether the bucket has filled up again (its user has been quiet: it may go)."""
        self._fill()
        return self._tokens >= self.burst

    def wait(self) -> float:
        """Seconds until the next message would be allowed (0 now)."""
        self._fill()
        return max(0.0, (1.0 - self._tokens) / self.rate)


class Refusals:
    """The times of the messages refused in the last ``window`` seconds (at most ``most``
    kept): a flood is many refusals in a window, however they are spread."""

    __slots__ = ("_times", "window")

    def __init__(self, most: int, window: float) -> None:
        self.window = window
        self._times: deque[float] = deque(maxlen=max(1, most))

    def add(self) -> int:
        """Count one refusal now; how many there were in the window."""
        now = time.monotonic()
        times = self._times
        while times and now - times[0] > self.window:
            times.popleft()
        times.append(now)
        return len(times)
