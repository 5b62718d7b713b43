"""The outside bots' one event loop: shared, waited for from threads and from other loops,
cancelled with its caller, re-made in a forked child, and closing what is open at exit.

Real programs throughout (tests/bots/*.py): a forked child plays with its own loop while the
parent's goes on; a process that exits without closing its bot leaves nothing running.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from async_bots import both_loops_at_once
from conftest import cli_env
from tricktable.games import load_game
from tricktable.match import Referee, RunnerOptions, play_match
from tricktable.protocols import aio
from tricktable.protocols.stdio import SubprocessBot

BOTS = Path(__file__).parent / "bots"
PY = sys.executable


def record_bot(path: Path) -> SubprocessBot:
    return SubprocessBot(f"{PY} {BOTS / 'record.py'} --record {path}", decision_time=10)


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


def test_run_returns_raises_and_cancels() -> None:
    async def double(n: int) -> int:
        await asyncio.sleep(0)
        return 2 * n

    async def fails() -> None:
        raise ValueError("no")

    stopped = threading.Event()

    async def forever() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            stopped.set()

    assert aio.run(double(21)) == 42
    with pytest.raises(ValueError, match="no"):
        aio.run(fails())
    with pytest.raises(TimeoutError):
        aio.run(forever(), timeout=0.01)
    assert stopped.wait(10), "the coroutine given up on was not cancelled"


def test_one_loop_in_one_thread_for_every_caller() -> None:
    seen: list[asyncio.AbstractEventLoop] = []

    async def where() -> None:
        seen.append(asyncio.get_running_loop())

    aio.run(where())
    threads = [threading.Thread(target=aio.run, args=(where(),)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    asyncio.run(aio.call(where()))
    assert len(seen) == 6 and all(loop is aio.loop() for loop in seen)
    names = [t.name for t in threading.enumerate() if t.name == "tricktable-outside-bots"]
    assert names == ["tricktable-outside-bots"]


def test_a_blocking_call_on_the_loop_itself_is_refused() -> None:
    async def inside() -> None:
        async def nothing() -> None:
            pass

        aio.run(nothing())

    with pytest.raises(RuntimeError, match="outside bots' own loop"):
        aio.run(inside())


def test_cancelling_an_awaiting_task_cancels_the_call() -> None:
    stopped = threading.Event()

    async def forever() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            stopped.set()

    async def main() -> None:
        task = asyncio.ensure_future(aio.call(forever()))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert stopped.wait(10)


def test_a_bot_from_a_sync_loop_and_another_from_an_asyncio_loop_at_once(
    tmp_path: Path,
) -> None:
    """A whole match in a thread (the match loop) while a coroutine on another loop plays a
    hand with its own program: both on the one bots' loop, neither loop ever blocked."""
    game = load_game("setback")
    sync_bots = [record_bot(tmp_path / "sync.txt")] + [
        SubprocessBot(f"{PY} {BOTS / 'record.py'}", decision_time=10) for _ in range(3)
    ]
    async_bots = [record_bot(tmp_path / f"async{s}.txt") for s in range(4)]
    referee = Referee(RunnerOptions(decision_time=10))
    outcome, decisions, ticks = both_loops_at_once(game, sync_bots, async_bots, referee)
    assert outcome == {"faults": [], "hands": 2}
    assert decisions > 0 and ticks >= decisions  # the asyncio loop ran while it waited
    lines = (tmp_path / "async0.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("|INFO|start game|") and lines[-1].startswith("|INFO|end game|")
    names = [t.name for t in threading.enumerate() if t.name == "tricktable-outside-bots"]
    assert names == ["tricktable-outside-bots"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_makes_its_own_loop_and_the_parent_keeps_its_own(tmp_path: Path) -> None:
    game = load_game("setback")
    parent_bot = record_bot(tmp_path / "parent.txt")
    parent_bot.start_match(game, 0, 1)  # the parent's loop runs, with a program on it
    parent_loop = aio.loop()
    report = tmp_path / "child.txt"
    pid = os.fork()
    if pid == 0:  # the child: a match of its own, on a loop of its own
        code = 1
        try:
            forgot = not aio.started() and parent_bot.pid is None
            bots = [record_bot(tmp_path / f"child{s}.txt") for s in range(4)]
            referee = Referee(RunnerOptions(decision_time=10))
            state = play_match(game, bots, 2, max_hands=1, referee=referee)
            for bot in bots:
                bot.close()
            runner = aio._runner
            own = runner is not None and runner.pid == os.getpid() and runner.thread.is_alive()
            report.write_text(f"{forgot} {own} {referee.faults == []} {len(state.results)}")
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert report.read_text() == "True True True 1"
    # The parent's program and loop carried on meanwhile.
    assert aio.loop() is parent_loop and parent_bot.pid is not None
    state = game.new_state(1)
    state.listen()
    state.deal()
    while state.to_act != 0:
        state.apply(state.legal_actions()[0])
    view = state.view(0)
    assert parent_bot.act(view) in view.legal_actions()
    parent_bot.close()
    assert parent_bot.pid is None


def test_interpreter_exit_ends_a_bot_left_open(tmp_path: Path) -> None:
    """A program that exits without closing its bot: the bot's daemon does not outlive it."""
    pids = tmp_path / "pids"
    script = textwrap.dedent(
        f"""
        import time
        from tricktable.games import load_game
        from tricktable.protocols.stdio import SubprocessBot

        game = load_game("setback")
        bot = SubprocessBot({f"{PY} {BOTS / 'daemon.py'} --after 1 --pids {pids}"!r})
        bot.start_match(game, 0, 1)
        state = game.new_state(1)
        state.listen()
        state.deal()
        while state.to_act != 0:
            state.apply(state.legal_actions()[0])
        bot.act(state.view(0))  # its first question: it starts its daemon
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and len(open({str(pids)!r}).read().split()) < 2:
            time.sleep(0.01)  # the daemon writes its own pid as it starts
        print(bot.pid, flush=True)
        """
    )
    done = subprocess.run(
        [PY, "-c", script], capture_output=True, text=True, env=cli_env(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2  # the bot and its daemon
    assert still_alive(started) == []
