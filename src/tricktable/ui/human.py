"""The person at the keyboard: a seat of a table played from the terminal.

:class:`HumanPlayer` is a :class:`~tricktable.table.Person` whose :meth:`~HumanPlayer.attend`
runs beside the table's driver (:func:`tricktable.table.run` starts it): at each of its seat's
turns the :class:`~tricktable.ui.terminal.TableDisplay` shows the situation, an answer is read
(:class:`Keyboard`: a line typed at the terminal, without blocking the event loop) and the
action goes to the table through ``Table.submit``, which refuses what the rules forbid with
the engine's reason and changes nothing. The display shows everything else from the seat's
events.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text

from tricktable.engine.trick import View
from tricktable.errors import TricktableError
from tricktable.seat.choices import read_cards
from tricktable.table.table import Person
from tricktable.ui.answers import clip, is_passing, parse_answer
from tricktable.ui.terminal import TableDisplay

if TYPE_CHECKING:
    from tricktable.search.explain import Hint
    from tricktable.table.table import Table

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")
SHOW_WORDS = ("hand", "table", "show")
HINT_WORDS = ("hint",)
#: ``say TEXT`` at any prompt puts TEXT at the table as the seat's chat
SAY_WORDS = ("say",)


class QuitGame(Exception):
    """The human typed ``quit``: stop the match (the caller saves the record so far)."""


# ------------------------------------------------------------------------- the keyboard


class Keyboard:
    """Lines typed at the terminal (standard input), read by a daemon thread while the event
    loop runs on. There is one, :data:`KEYBOARD`: every person at it reads the same input.

    The thread reads standard input's file descriptor itself (``os.read``), never
    ``sys.stdin``: a thread waiting in ``sys.stdin`` holds its lock, and an interpreter that
    exits past it (Ctrl-C at a prompt) aborts; one waiting in ``os.read`` is left behind.
    The terminal's own line editing still works (the line is read when Enter is pressed).
    """

    def __init__(self) -> None:
        self._buffer = b""
        self._jobs: queue.SimpleQueue[Any] | None = None

    async def readline(self) -> str:
        """The next line (without its end); ``EOFError`` at the end of input."""
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            threading.Thread(target=self._serve, name="tricktable-keyboard", daemon=True).start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str] = loop.create_future()
        self._jobs.put((loop, future))
        return await future

    def _serve(self) -> None:
        assert self._jobs is not None
        while True:
            loop, future = self._jobs.get()
            try:
                outcome: tuple[Any, BaseException | None] = (self._line(), None)
            except Exception as exc:  # EOFError among them
                outcome = (None, exc)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, *outcome)

    def _line(self) -> str:
        """The next line of standard input."""
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # replaced by something without one
            text = sys.stdin.readline() if sys.stdin is not None else ""
            if not text:
                raise EOFError from None
            return text.rstrip("\r\n")
        while b"\n" not in self._buffer:
            chunk = os.read(fd, 4096)
            if not chunk:
                if not self._buffer:
                    raise EOFError
                break  # a last line without its end
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\n")
        encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
        return raw.decode(encoding, errors="replace").rstrip("\r")


#: the keyboard of this process
KEYBOARD = Keyboard()


def _settle(future: asyncio.Future[str], result: Any, error: BaseException | None) -> None:
    if future.done():  # given up on (the match stopped)
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


# ------------------------------------------------------------------------- the person


class HumanPlayer(Person):
    """A person at the keyboard: at each turn of the seat the table shows its situation and
    reads an answer, and the action goes to the table through ``Table.submit``.

    A refused answer gets one line saying why (the reason the table gives, the engine's) and a
    new prompt. ``read`` replaces the keyboard (a test's answers: called with the prompt, it
    returns a line or raises ``EOFError``); ``echo`` repeats each answer, so that a transcript
    of piped input reads like a session. ``quit`` raises :class:`QuitGame` and the end of
    input ``EOFError``: either stops the match (the runner saves its record). ``hint`` shows a
    search bot's advice from the seat's view (:func:`tricktable.search.explain.hint`) and
    changes nothing; ``say TEXT`` puts TEXT at the table as the seat's chat (the table's
    checks apply) and is no answer either.
    """

    def __init__(
        self,
        display: TableDisplay,
        read: Callable[[Text], str] | None = None,
        echo: bool | None = None,
        label: str = "",
    ) -> None:
        super().__init__(label)
        self.display = display
        self._read = read
        self._echo = (not sys.stdin.isatty()) if echo is None else echo
        #: hints given, by (seat, hand, step): asking again in one position repeats the first
        self._hints: dict[tuple[int, int, int], Hint] = {}

    async def attend(self, table: Table, seat: int) -> None:
        """Play ``seat`` at ``table`` from the keyboard until the match ends for it."""
        display = self.display
        display.follow_table(table)
        prompt = Text(f"{display.names[seat]} > ", style="bold cyan")
        while await table.wait_for_turn(seat):
            view = table.view(seat)
            display.show_situation(view)
            while not await self._answer(table, seat, view, prompt):
                pass

    async def _answer(self, table: Table, seat: int, view: View, prompt: Text) -> bool:
        """Read one answer and act on it; whether the seat has acted."""
        display = self.display
        if self._read is not None:
            text = self._read(prompt)
        else:
            console = display.console
            console.print(prompt, end="")
            with contextlib.suppress(Exception):
                console.file.flush()  # the prompt shows before the line is typed
            text = await KEYBOARD.readline()
        if self._echo:
            display.console.print(Text(clip(text)))
        word = text.strip().lower()
        if word in QUIT_WORDS:
            raise QuitGame()
        if word in HELP_WORDS:
            display.show_help(view)
        elif word in SHOW_WORDS:
            display.show_situation(view)
        elif word in HINT_WORDS:
            await self._hint(view)
        elif word.partition(" ")[0] in SAY_WORDS:
            self._say(table, seat, text)
        elif not word:
            display.console.print(display.choices_text(view))
        else:
            try:
                several = read_cards(view.game, text)
                if several is not None and not is_passing(view.legal_actions()):
                    # a discard or a keep of several cards at once: "discard 7C 8D 9H TS"
                    table.submit_cards(seat, several[1], several[0])
                else:
                    table.submit(seat, parse_answer(text, view))
            except TricktableError as exc:  # unreadable, or refused by the table: why
                display.show_error(seat, text, exc)
                return False
            return True
        return False

    def _say(self, table: Table, seat: int, text: str) -> None:
        """Put the rest of a ``say ...`` line at the table as the seat's chat: through
        ``Table.chat``, so its checks apply (a refused line gets one line saying why)."""
        said = text.strip().split(maxsplit=1)
        try:
            table.chat(seat, said[1] if len(said) > 1 else "")
        except TricktableError as exc:
            self.display.console.print(Text(f"  not said: {exc}", style="yellow"))

    async def _hint(self, view: View) -> None:
        """Show a search bot's advice for this decision, from the seat's view alone."""
        from tricktable.search.explain import hint

        key = (view.seat, view.hand_number, view.step)
        given = self._hints.get(key)
        if given is None:
            try:
                # The search takes up to its budget (0.5 s): off the event loop, which the
                # table's other seats share. The view is a sealed snapshot, safe in a thread.
                given = await asyncio.to_thread(hint, view)
            except TricktableError as exc:
                self.display.console.print(Text(f"  no hint: {exc}", style="yellow"))
                return
            self._hints[key] = given
        self.display.show_hint(view, given)
