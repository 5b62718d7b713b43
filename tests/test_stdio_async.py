"""Programs' bots on asyncio: the async twins, a call cancelled half way, exit statuses that
asyncio's child watcher reads, and every process of a program's tree ended at close.

Real programs (tests/bots/*.py and small scripts written here); the rest of the protocol —
seed 002's lines, every fault kind, whole matches — is tests/test_stdio_bots.py's and
tests/test_broken_bots.py's.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import cli_env
from tricktable.engine.trick import TrickState
from tricktable.errors import BotFault
from tricktable.games import load_game
from tricktable.protocols.stdio import SubprocessBot

BOTS = Path(__file__).parent / "bots"
PY = sys.executable

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie is dead, awaiting its reaper)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def still_alive(pids: list[int], within: float = 15.0) -> list[int]:
    """Those of ``pids`` alive after ``within`` seconds (a kill is not instant)."""
    deadline = time.monotonic() + within
    left = [p for p in pids if alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [p for p in left if alive(p)]
    return left


def noted(path: Path, count: int, within: float = 15.0) -> None:
    """Wait until ``path`` lists ``count`` pids (a bot's child writes its own as it starts)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_text().split()) >= count:
            return
        time.sleep(0.01)


def seat0_to_act(seed: int = 1) -> TrickState:
    """A Setback hand dealt and played on (first legal actions) until seat 0 is to act."""
    state = load_game("setback").new_state(seed)
    state.listen()
    state.deal()
    while state.to_act != 0:
        state.apply(state.legal_actions()[0])
    return state


def bot(script: str, *args: str, decision_time: float = 10.0) -> SubprocessBot:
    return SubprocessBot(f"{PY} {BOTS / script} {' '.join(args)}", decision_time=decision_time)


@pytest.mark.parametrize("way", ["sync", "async"])
def test_close_ends_every_process_of_the_tree(way: str, tmp_path: Path) -> None:
    """A daemon (fork, setsid, fork) and a child in a session of its own, both started at the
    first question: gone once the bot is closed, from a thread or from another loop."""
    pids = {name: tmp_path / f"{name}.pids" for name in ("daemon", "setsid")}
    bots = [
        bot("daemon.py", "--after", "1", "--pids", str(pids["daemon"])),
        bot("setsid_child.py", "--after", "1", "--pids", str(pids["setsid"])),
    ]
    state = seat0_to_act()
    view = state.view(0)
    game = state.game
    if way == "sync":
        for b, path in zip(bots, pids.values(), strict=True):
            b.start_match(game, 0, 1)
            assert b.act(view) in view.legal_actions()
            noted(path, 2)
            b.close()
    else:

        async def main() -> None:
            for b, path in zip(bots, pids.values(), strict=True):
                await b.start_match_async(game, 0, 1)
                assert await b.act_async(view) in view.legal_actions()
                noted(path, 2)
                await b.close_async()

        asyncio.run(main())
    assert all(b.pid is None for b in bots)
    started = {name: [int(p) for p in path.read_text().split()] for name, path in pids.items()}
    assert all(len(found) == 2 for found in started.values()), started  # a bot and its child
    assert still_alive([pid for found in started.values() for pid in found]) == []


def test_a_program_killed_by_a_signal_is_named_by_it(tmp_path: Path) -> None:
    script = tmp_path / "killed.py"
    script.write_text(
        "import os, signal, sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('|QUERY|'):\n"
        "        sys.stderr.write('about to go\\n'); sys.stderr.flush()\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n",
        encoding="utf-8",
    )
    player = SubprocessBot(f"{PY} {script}")
    state = seat0_to_act()
    player.start_match(state.game, 0, 1)
    try:
        with pytest.raises(BotFault) as fault:
            player.act(state.view(0))
    finally:
        player.close()
    assert fault.value.kind == "crash"
    assert fault.value.detail.startswith("killed by SIGKILL (")
    assert "its last error output: 'about to go'" in fault.value.detail
    assert player.stderr_tail == b"about to go\n"


def test_an_exit_status_read_by_asyncio_says_crash_with_the_status() -> None:
    player = bot("crash.py", "--after", "1")
    state = seat0_to_act()
    player.start_match(state.game, 0, 1)
    try:
        with pytest.raises(BotFault) as fault:
            player.act(state.view(0))
    finally:
        player.close()
    assert fault.value.kind == "crash"
    assert fault.value.detail.startswith("exited with status 3 (")
    assert "'botlib: something went badly wrong'" in fault.value.detail


def test_a_call_cancelled_half_way_leaves_the_bot_closable_and_reusable(tmp_path: Path) -> None:
    """A driver giving up on a hanging program: its call is cancelled, the close that follows
    ends the program, and the next match starts a new one."""
    pids = tmp_path / "pids"
    player = bot("hang.py", "--after", "1", "--pids", str(pids), decision_time=60)
    state = seat0_to_act()
    view = state.view(0)

    async def main() -> int | None:
        await player.start_match_async(state.game, 0, 1)
        first = player.pid
        asking = asyncio.ensure_future(player.act_async(view))
        await asyncio.sleep(0.2)
        asking.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asking
        await player.close_async()
        return first

    first = asyncio.run(main())
    assert first is not None and player.pid is None
    assert still_alive([first]) == []
    # A new match: a new program, which answers (this one's question is its first again).
    fresh = bot("record.py")
    fresh.start_match(state.game, 0, 1)
    try:
        assert fresh.act(view) in view.legal_actions()
    finally:
        fresh.close()


def test_the_async_twins_fault_as_the_sync_methods_do() -> None:
    player = bot("hang.py", "--after", "1", decision_time=0.2)
    state = seat0_to_act()

    async def main() -> BotFault:
        await player.start_match_async(state.game, 0, 1)
        try:
            await player.act_async(state.view(0))
        except BotFault as fault:
            return fault
        finally:
            await player.close_async()
        raise AssertionError("no fault")

    fault = asyncio.run(main())
    assert fault.kind == "timeout"
    assert "within the decision limit of 3.2 s" in fault.detail  # the first: startup time too


def test_a_worker_that_ends_its_bots_itself_does_not_fight_the_child_watcher() -> None:
    """processes.end_all (a pool worker told to stop) reaps the programs itself; asyncio's
    watcher, waiting on the same pid, then says nothing, and a close afterwards is quiet."""
    script = textwrap.dedent(
        f"""
        from tricktable.games import load_game
        from tricktable.processes import end_all
        from tricktable.protocols.stdio import SubprocessBot

        game = load_game("setback")
        bots = [SubprocessBot({f"{PY} {BOTS / 'record.py'}"!r}) for _ in range(8)]
        for seat, bot in enumerate(bots):
            bot.start_match(game, seat % 4, 1)
        pids = [bot.pid for bot in bots]
        end_all()
        for bot in bots:
            bot.close()
        print(" ".join(map(str, pids)))
        """
    )
    done = subprocess.run(
        [PY, "-c", script], capture_output=True, text=True, env=cli_env(), timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert still_alive([int(p) for p in done.stdout.split()]) == []
