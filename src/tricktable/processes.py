"""Processes that die with what started them: a bot program's whole tree, a pool's workers.

A program's bot may start processes of its own, and some leave its process group: a child
that calls ``setsid()``, a daemon that forks twice so that init adopts it. Killing the bot's
group does not reach them, so on Linux three things make sure that nothing a bot started
outlives its match:

- the bot's process is made a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, kept
  across ``exec``) before it runs: an orphan among its descendants — the daemon whose parent
  exited — is adopted by the bot itself, not by init, and stays in its tree;
- the process that starts bots is a subreaper too: what the bot leaves when it exits first
  comes to us, not to init;
- each bot runs with its own mark in its environment (:data:`MARK`), which its descendants
  inherit: an orphan that came to us is known as the bot's by it, or by its session or
  process group, which are the bot's unless it left them.

:func:`end_tree` then stops every process of the bot (``SIGSTOP``: a stopped process cannot
fork any more), looks again until nothing new appears, kills them all and reaps those that are
ours. Elsewhere (no ``/proc``, no ``prctl``) only the process group is killed.

Worker processes of a pool (:mod:`tricktable.workers`) ask to be sent ``SIGTERM`` when their
parent dies (:func:`die_with_parent`): a parent killed, or stopped by SIGTERM, leaves no
worker waiting for work for ever.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from collections.abc import Callable, Iterable
from typing import Any, Final

#: the environment variable that marks every process of one bot program
MARK: Final = "TRICKTABLE_BOT"
#: how long :func:`end_tree` waits for the processes it killed to be gone
REAP_TIME: Final = 2.0

_PR_SET_PDEATHSIG: Final = 1
_PR_SET_CHILD_SUBREAPER: Final = 36
#: how long :func:`end_tree` waits for the processes it stopped to be stopped
STOP_TIME: Final = 0.5
#: stop, look again: at most this many times (a process that forks as fast as it can)
_ROUNDS: Final = 20
#: the states of a process that can fork no more: stopped (T, t) or dead (Z, X)
_HALTED: Final = frozenset({b"T", b"t", b"Z", b"X"})

_prctl_fn: Any = None
_subreaper_pid = 0
#: the bot programs this process runs, by pid: their mark, the pid of the process that started
#: them (a forked worker inherits the table, but not the bots), and their tree as last taken
#: (:func:`tree_of`)
_LIVE: dict[int, tuple[str, int, frozenset[int]]] = {}


def _prctl() -> Any:
    """libc's ``prctl``, or None where there is none (not Linux)."""
    global _prctl_fn
    if _prctl_fn is None:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            fn = libc.prctl
            fn.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
            fn.restype = ctypes.c_int
            _prctl_fn = fn
        except (ImportError, OSError, AttributeError):
            _prctl_fn = False
    return _prctl_fn or None


def _set(option: int, value: int) -> bool:
    fn = _prctl()
    return fn is not None and fn(option, value, 0, 0, 0) == 0


def become_subreaper() -> bool:
    """Make this process adopt the orphans among its descendants (once a process); whether
    it is one. Linux only."""
    global _subreaper_pid
    pid = os.getpid()
    if _subreaper_pid != pid:  # not inherited by a fork: asked again in a new process
        if not _set(_PR_SET_CHILD_SUBREAPER, 1):
            return False
        _subreaper_pid = pid
    return True


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Have ``sig`` sent to this process when its parent dies (a pool worker's initializer).

    Where the parent has died already (before this was asked), the signal is sent now.
    """
    parent = os.getppid()
    if _set(_PR_SET_PDEATHSIG, sig) and os.getppid() != parent:
        os.kill(os.getpid(), sig)


def bot_setup() -> tuple[str, dict[str, str], Callable[[], None] | None]:
    """What starting a bot program needs: its mark, its environment, and what to run in the
    child before ``exec`` (None where there is no ``prctl``)."""
    mark = f"{os.getpid()}-{secrets.token_hex(8)}"
    env = dict(os.environ)
    env[MARK] = mark
    if _prctl() is None:
        return mark, env, None
    become_subreaper()
    return mark, env, _adopt_orphans


def _adopt_orphans() -> None:
    """In the bot's process, before ``exec``: adopt the orphans of its own descendants.

    Runs between fork and exec (``preexec_fn``): nothing here may take a lock another thread
    could hold, so the libc function was looked up in the parent, before the fork.
    """
    _prctl_fn(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def started(leader: int, mark: str) -> None:
    """Note a bot program this process has started (until :func:`ended`)."""
    _LIVE[leader] = (mark, os.getpid(), frozenset())


def ended(leader: int) -> None:
    """Forget a bot program: it has been ended and reaped."""
    _LIVE.pop(leader, None)


def end_all() -> None:
    """End every bot program this process runs, and all they started: a worker told to stop
    (its parent died, or the pool is terminated) does this before it exits.

    Then every process left below this one: a worker starts no other, and what a bot it has
    ended left behind (a daemon forked as it was killed) is, as an orphan, its child.
    """
    me = os.getpid()
    for leader, (mark, owner, seen) in list(_LIVE.items()):
        if owner == me:
            end_tree(leader, mark, seen)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(leader, 0)
        _LIVE.pop(leader, None)
    if is_subreaper():
        end_descendants()


def is_subreaper() -> bool:
    """Whether this process has made itself a subreaper (:func:`become_subreaper`)."""
    return _subreaper_pid == os.getpid()


def end_descendants() -> None:
    """Kill every process this one started that is still alive, and reap them.

    For a command's end: whatever it leaves then is a leak — a plug-in, which runs in this
    very process, that forked a daemon. A subreaper's orphaned descendants are its children by
    then (:func:`become_subreaper`, asked before a plug-in is loaded), so walking down from
    here finds them all; each is stopped first, so that none forks meanwhile.
    """
    if not os.path.isdir("/proc"):
        return
    me = os.getpid()
    _reap(_stop_and_kill(lambda: _descendants(me)))


def _stop_and_kill(look: Callable[[], set[int]]) -> set[int]:
    """Stop every process ``look`` finds, looking again until nothing new appears, then kill
    them all; the processes killed.

    A stopped process cannot fork, but one look is not to be trusted alone: ``/proc`` is read
    one process at a time, so a child forked meanwhile by a process that then exits (the
    middle of a double fork) appears in neither; and a process told to stop stops only as its
    system call returns, so a fork under way still makes its child. So nothing new is believed
    only twice over, each time once every process found has stopped: a look taken while one
    still runs (a loaded machine that has not let it stop in :data:`STOP_TIME`) is not counted.
    """
    found: set[int] = set()
    #: found, and told to stop (not those this process may not signal: they never stop)
    told: set[int] = set()
    quiet = 0
    for _ in range(_ROUNDS):
        fresh = look() - found
        if fresh:
            for pid in fresh:
                try:
                    os.kill(pid, signal.SIGSTOP)
                except PermissionError:
                    continue
                except OSError:
                    pass
                told.add(pid)
            found |= fresh
            quiet = 0
            continue
        quiet += 1
        if quiet == 2:
            break
        if not _wait_stopped(told):
            # One still runs (a loaded machine has not let it stop yet), so it may still
            # fork after the next look: that look proves nothing. Look again once it stops.
            quiet = 0
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return found


def _wait_stopped(pids: Iterable[int]) -> bool:
    """Wait (a moment at most) until every one of ``pids`` has stopped or died; whether
    they all have."""
    left = set(pids)
    deadline = time.monotonic() + STOP_TIME
    delay = 0.0002
    while True:
        left = {pid for pid in left if _state(pid) not in _HALTED}
        if not left:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(delay)
        delay = min(delay * 2, 0.01)


def _state(pid: int) -> bytes:
    """The state letter of process ``pid`` (``b"X"`` where it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return b"X"
    return stat[stat.rindex(b")") + 2 : stat.rindex(b")") + 3]


def _descendants(root: int) -> set[int]:
    """The live processes below ``root``."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in _processes().items():
        children.setdefault(ppid, []).append(pid)
    out: set[int] = set()
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid not in out:
            out.add(pid)
            todo.extend(children.get(pid, ()))
    return out


def tree_of(leader: int, mark: str) -> frozenset[int]:
    """The processes of the bot whose process is ``leader`` now (see :func:`end_tree`).

    Taken before the bot is let exit by itself: what it leaves then comes to us with nothing
    of the bot's but its pid (a daemon that cleared its environment), known from this list.
    """
    if not os.path.isdir("/proc"):
        return frozenset()
    tree = frozenset(_members(leader, mark, os.getpid(), frozenset()))
    if leader in _LIVE:  # for end_all, should the bot's end be cut short by a stop
        _LIVE[leader] = (*_LIVE[leader][:2], tree)
    return tree


def end_tree(leader: int, mark: str, seen: frozenset[int] = frozenset()) -> None:
    """Kill ``leader`` (a bot's process, not yet reaped) and every process it started, and
    reap those of them that are this process's children. The leader is the caller's to reap.

    Its processes: its descendants; the members of its session and process group (it led
    both); this process's children (orphans adopted) marked with ``mark``, in its session or
    group, or ``seen`` in its tree before (:func:`tree_of`); and their descendants.
    """
    if not os.path.isdir("/proc"):
        _kill_group(leader)
        return
    me = os.getpid()
    found = _stop_and_kill(lambda: _members(leader, mark, me, seen))
    _kill_group(leader)
    _reap(found - {leader})


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _members(leader: int, mark: str, me: int, seen: frozenset[int]) -> set[int]:
    """The live processes of the bot whose process is ``leader`` (see :func:`end_tree`)."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    roots = {leader} if leader in table else set()
    for pid, (ppid, group, session) in table.items():
        if pid == me:
            continue
        if group == leader or session == leader:
            roots.add(pid)
        elif ppid == me and (pid in seen or _marked(pid, mark)):
            roots.add(pid)  # adopted: an orphan of the bot's, known by its pid or its mark
    out: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid in out or pid == me:
            continue
        out.add(pid)
        todo.extend(children.get(pid, ()))
    return out


def _processes() -> dict[int, tuple[int, int, int]]:
    """Every process now: its parent, process group and session, by pid."""
    out: dict[int, tuple[int, int, int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        # The command name is in parentheses and may hold anything: split after it.
        fields = stat[stat.rindex(b")") + 2 :].split(None, 5)
        if fields[0] == b"Z":
            continue  # dead, awaiting its reaper
        out[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]))
    return out


def _marked(pid: int, mark: str) -> bool:
    """Whether process ``pid`` runs with the bot's mark in its environment."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            environ = f.read()
    except OSError:
        return False
    return f"{MARK}={mark}".encode() in environ.split(b"\0")


def _reap(pids: Iterable[int]) -> None:
    """Wait until each of ``pids`` (killed) is gone, reaping those that are our children.

    One that is not ours yet becomes ours (or init's) when its parent, killed too, dies.
    """
    left = set(pids)
    deadline = time.monotonic() + REAP_TIME
    delay = 0.0005
    while left:
        for pid in list(left):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                if not os.path.exists(f"/proc/{pid}"):
                    left.discard(pid)  # reaped by its own parent, or by init
                continue
            if done:
                left.discard(pid)
        if not left or time.monotonic() >= deadline:
            return
        time.sleep(delay)
        delay = min(delay * 2, 0.02)
