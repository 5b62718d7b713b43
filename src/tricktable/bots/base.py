"""The one small interface every player implements, whatever its transport."""

from __future__ import annotations

from typing import ClassVar

from mypy_extensions import mypyc_attr

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError


# Bots written in Python by anyone subclass this compiled class: mypyc must allow it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Bot:
    """A player. It is told its seat once per match and sees only that seat's :class:`View`.

    Only :meth:`act` is required. Subprocess and HTTP bots adapt to this same interface.
    """

    #: the name shown at the table and written into records (``bot:NAME``)
    name = "bot"
    #: a person at the table: a quit or end of input stops the match, it is no fault
    interactive: ClassVar[bool] = False
    #: reads ``view.events``: the match loop turns the state's events on for it (bots that
    #: only look at the view leave them off, and the loop pays nothing for them)
    wants_events: ClassVar[bool] = False
    #: speaks at the table (a program's or a web service's bot): the match loop takes what it
    #: said with :meth:`take_chat` after each decision. A flag, so that the loop asks nothing
    #: of the bots that never speak (a missing attribute costs a caught exception there)
    chats: ClassVar[bool] = False
    #: a character (:mod:`tricktable.characters`): a match or table where one sits sets up
    #: its table talk; a flag for the same reason
    talks: ClassVar[bool] = False

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        """A match begins; ``seed`` is this seat's own seed (for bots that draw at random)."""
        self.game = game
        self.seat = seat

    def act(self, view: View) -> int:
        """The action to take; ``view.legal_actions()`` lists what is allowed."""
        raise NotImplementedError

    def take_chat(self) -> tuple[list[str], str]:
        """The lines said for the table since last asked, and why some were dropped ("" if
        none were); only bots with :attr:`chats` are asked."""
        return [], ""

    def end_hand(self, view: View, result: HandResult) -> None:
        """A hand has been scored (``result`` is its record result)."""

    def end_match(self, view: View) -> None:
        """The match is over (or stopped)."""

    def close(self) -> None:
        """Release what the bot holds (processes, connections)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Delegate(Bot):
    """A bot that plays each match as another bot, chosen when the match starts by
    :meth:`choose` (the ``heuristic`` player: each game's own heuristic; the ``expert`` level:
    each game's strongest bot). Everything a bot is told goes to the one playing."""

    def __init__(self) -> None:
        self._inner: Bot | None = None

    def choose(self, game: Game) -> Bot | None:
        """The bot to play ``game`` with: a new one, or None to keep the one playing (a
        :class:`~tricktable.errors.BotError` if there is none for the game)."""
        raise NotImplementedError

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        made = self.choose(game)
        if made is not None:
            self.close()
            self._inner = made
        self._playing().start_match(game, seat, seed)

    def _playing(self) -> Bot:
        if self._inner is None:
            raise BotError(f"the {self.name} bot was not started")
        return self._inner

    def act(self, view: View) -> int:
        return self._playing().act(view)

    def end_hand(self, view: View, result: HandResult) -> None:
        self._playing().end_hand(view, result)

    def end_match(self, view: View) -> None:
        self._playing().end_match(view)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
