"""Shared fixtures of the Setback tests: the test vectors, and states built from card text.

Helpers are fixtures (``make_state``, ``apply_actions``...) rather than importable functions, so
that no test module depends on how pytest puts ``tests/`` on ``sys.path``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tricktable.cards import mask_of, parse_cards
from tricktable.games import load_game
from tricktable.games.setback import SetbackState

#: the shared test vectors, cloned beside the repository (…/main/../shared)
VECTORS = Path(__file__).parents[2] / "shared/vectors/setback"

MakeState = Callable[..., SetbackState]
ApplyActions = Callable[[SetbackState, "str | Iterable[str]"], SetbackState]


#: the signals a child inherits as they are here (a disposition of "ignored", or a block in
#: the thread that starts it): a command started by a test must find them as a shell leaves them
_INHERITED = (signal.SIGINT, signal.SIGTERM)
# A suite started in the background by a shell without job control (``make test &`` in a
# script) inherits SIGINT ignored, and so would every command a test starts: a test of Ctrl-C
# would wait on a command that never sees it. Those commands must find SIGINT as a shell
# leaves a foreground command's, so the suite starts from Python's own handler.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
_START = {sig: signal.getsignal(sig) for sig in _INHERITED}
_START_MASK = signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.fixture(autouse=True)
def _signals_as_found(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test starts with SIGINT and SIGTERM as the worker started (code run in this
    process may change them: ``main()`` makes SIGTERM an interrupt, a pool's start blocks it).

    A child started with one ignored or blocked keeps it so (dispositions of "ignored" and the
    mask survive exec): a later test's command then never sees its Ctrl-C or SIGTERM. Twice a
    loaded CI run had two such tests fail in one run. A test that leaves them changed is named
    in a warning, and they are put back.
    """
    yield
    if threading.current_thread() is not threading.main_thread():
        return
    changed = [sig for sig in _INHERITED if signal.getsignal(sig) is not _START[sig]]
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    if changed or mask != _START_MASK:
        for sig in changed:
            signal.signal(sig, _START[sig])
        signal.pthread_sigmask(signal.SIG_SETMASK, _START_MASK)
        names = [signal.Signals(sig).name for sig in changed] or ["the blocked set"]
        warnings.warn(f"{request.node.nodeid} left {', '.join(names)} changed", stacklevel=1)


def game_spec(options: str = "") -> str:
    """The spec text of Setback with ``options`` (``"target=11,low_to=dealt"``) or none."""
    return f"setback({options})" if options else "setback"


def build_state(deal: Iterable[str], dealer: int, options: str = "") -> SetbackState:
    """A Setback state with four hands given as text (6 cards each) dealt by ``dealer``."""
    game = load_game(game_spec(options))
    state = game.new_state(0)
    masks = [mask_of(parse_cards(text)) for text in deal]
    assert len(masks) == 4 and all(m.bit_count() == 6 for m in masks), deal
    state.deal(masks, dealer=dealer)
    assert isinstance(state, SetbackState)
    return state


def run_actions(state: SetbackState, actions: str | Iterable[str]) -> SetbackState:
    """Apply action texts (a list, or one string separated by commas) to ``state``."""
    items = actions.split(",") if isinstance(actions, str) else list(actions)
    for text in items:
        if text.strip():
            state.apply(state.game.parse_action(text))
    return state


def cli_env() -> dict[str, str]:
    """The environment for a ``python -m tricktable`` child: ours, with the source tree first."""
    env = dict(os.environ)
    src = str(Path(__file__).parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    env["COLUMNS"] = "200"  # Rich wraps at 80 in a pipe, and where depends on the clone's path
    for forced in ("FORCE_COLOR", "TTY_COMPATIBLE"):  # colour codes would split the words
        env.pop(forced, None)
    return env


def run_cli(
    *args: str, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tricktable ARGS`` and capture its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="session")
def vectors() -> Path:
    """The folder of the Setback test vectors (the tests using it skip when it is absent)."""
    if not VECTORS.is_dir():
        pytest.skip(f"test vectors not found at {VECTORS} (clone shared/ beside the repo)")
    return VECTORS


@pytest.fixture
def make_state() -> MakeState:
    """``make_state(deal_text_list, dealer, options="")``: a dealt Setback state."""
    return build_state


@pytest.fixture
def apply_actions() -> ApplyActions:
    """``apply_actions(state, actions)``: apply action texts, return the state."""
    return run_actions


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``cli(*args, stdin=None)``: run the command line in a child process."""
    return run_cli


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A PostgreSQL server of the session's own on a loopback port (``tests/local_postgres.py``).

    Fails, never skips, where PostgreSQL is not installed: ``make test`` installs it.
    """
    from local_postgres import LocalPostgres, PostgresMissing

    try:
        with LocalPostgres.running() as server:
            yield server
    except PostgresMissing as exc:
        pytest.fail(str(exc))


#: Debian's Chromium, which Playwright drives (never a browser it downloads)
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright, one for a module's page tests."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()
