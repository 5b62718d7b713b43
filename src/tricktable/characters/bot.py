"""The players a :class:`~tricktable.characters.style.Character` or a level sits down as.

:class:`CharacterBot` plays a character: the game's own heuristic, built with the style's
parameters (``boldness``, ``lead_trump``: the hooks the heuristics declare), bids and makes
every decision but card play; card play is the character's ``base`` (the styled heuristic,
or a search bot where it plays the game), always through :func:`keep_basics`. Before each
bid the boldness is moved by the score (``risk``), except when the partner holds the high
bid: a character never raises its partner's contract for the sake of style.

**Tempo.** A character pauses before acting (``Style.tempo``, jittered) only while
``paced`` is set, and only a :class:`~tricktable.table.Table` where a person sits sets it
(:func:`tricktable.characters.talk.seat_table`). ``run_match`` between bots, ``simulate``,
``duel`` and tournaments never make such a table, so they never wait. ``tempo_scale``
multiplies the pause: the driver sets it from the table's pace (``run(tempo=...)``: 0 where a
server shows moves at once, ``--pace 0``, and in tests), so a character waits only where the
table itself takes its time; 1, the default, is the TUI's and terminal's tempo. A pause is at most a
quarter of the decision time and all of a match's pauses together a fifth of the match
time, so a character never faults for its tempo. The pause draws from its own generator:
decisions never depend on it.

:class:`BeginnerBot` is the ``beginner`` level: the styled heuristic with mistakes — its
bids' boldness drawn at random, and a random legal card (still keeping the basics) at a rate.
"""

from __future__ import annotations

import inspect
import random
import time
from typing import Any, ClassVar

from tricktable.bots.base import Bot
from tricktable.bots.registry import BUILTIN, builtin_name, load_class, make_builtin
from tricktable.characters.style import Character, Style, keep_basics, partners_of, pressure
from tricktable.engine.results import HandResult
from tricktable.engine.trick import PLAY, Game, View
from tricktable.errors import BotError
from tricktable.limits import RunnerOptions
from tricktable.seeds import derive_seed

#: the share of the decision time, and of the match time, a character may spend pausing
PAUSE_SHARE = 0.25
MATCH_PAUSE_SHARE = 0.2


def styled_heuristic(game: Game, style: Style) -> Bot:
    """The game's heuristic bot, made with the style parameters its constructor declares."""
    if not game.heuristic_bot:
        raise BotError(f"{game.name} has no heuristic bot for a character to play")
    cls = load_class(game.heuristic_bot)
    # float(): a compiled heuristic's attributes are C doubles, and a style may hold an int
    wanted = {"boldness": float(style.boldness), "lead_trump": float(style.lead_trump)}
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    return cls(**{k: v for k, v in wanted.items() if k in params})


class CharacterBot(Bot):
    """A character at the table: its style over a base bot (see the module)."""

    talks = True

    def __init__(
        self, character: Character, base: str | None = None, options: RunnerOptions | None = None
    ) -> None:
        spec = (base or character.base).strip()
        if builtin_name(spec) is None:
            raise ValueError(f"a character's base is a built-in bot ({', '.join(BUILTIN)})")
        self.character = character
        self.name = character.name
        #: the player spec of the bot that plays the cards
        self.base = spec
        self.options = options if options is not None else RunnerOptions()
        #: pause before acting (``Style.tempo``): set only by a table where people sit
        self.paced = False
        #: the pause's scale (0: never pause), set by the driver from the table's pace
        self.tempo_scale = 1.0
        self._styled: Bot | None = None
        #: whether the styled heuristic takes a boldness (set at the start of a match)
        self._bold = False
        self._cards: Bot | None = None
        self._tempo = random.Random(0)
        self._paused = 0.0

    # ------------------------------------------------------------------ the Bot interface

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.close()
        styled = styled_heuristic(game, self.character.style)
        styled.start_match(game, seat, seed)
        self._styled = styled
        self._bold = hasattr(styled, "boldness")
        if self.base != "heuristic":
            cards = make_builtin(self.base)
            assert cards is not None  # checked when made: a character's base is built in
            try:
                cards.start_match(game, seat, seed)
                self._cards = cards
            except BotError:
                cards.close()  # a search bot that does not play this game: the heuristic plays
        self._tempo = random.Random(derive_seed(seed, "tempo"))
        self._paused = 0.0

    def act(self, view: View) -> int:
        if self.paced:
            self._pause()
        styled = self._styled
        if styled is None:
            raise BotError(f"the character {self.name} was not started")
        legal = view.legal_actions()
        if view.phase != PLAY:
            if self._bold:
                styled.boldness = float(self._boldness(view))  # type: ignore[attr-defined]
            return styled.act(view)
        card = self._play(view, legal)
        return keep_basics(view, card, legal)

    def end_hand(self, view: View, result: HandResult) -> None:
        for bot in self._bots():
            bot.end_hand(view, result)

    def end_match(self, view: View) -> None:
        for bot in self._bots():
            bot.end_match(view)

    def close(self) -> None:
        for bot in self._bots():
            bot.close()
        self._styled = self._cards = None

    # ---------------------------------------------------------------------------- inside

    def _play(self, view: View, legal: list[int]) -> int:
        bot = self._cards if self._cards is not None else self._styled
        assert bot is not None
        return bot.act(view)

    def _boldness(self, view: View) -> float:
        """The bid's boldness now: the style's, moved by the score; none over a partner."""
        info: dict[str, Any] = view.info()
        if info.get("high_bidder") in partners_of(view):
            return 0.0
        return self._style_boldness(view)

    def _style_boldness(self, view: View) -> float:
        style = self.character.style
        return style.boldness + style.risk * pressure(view)

    def _bots(self) -> list[Bot]:
        return [b for b in (self._styled, self._cards) if b is not None]

    def _pause(self) -> None:
        tempo = self.character.style.tempo * self.tempo_scale
        if tempo <= 0:
            return
        opts = self.options
        want = tempo * self._tempo.uniform(0.6, 1.4)
        room = min(
            PAUSE_SHARE * opts.decision_time, MATCH_PAUSE_SHARE * opts.match_time - self._paused
        )
        wait = min(want, room)
        if wait > 0:
            time.sleep(wait)
            self._paused += wait


class NamedCharacter(CharacterBot):
    """A character of the roster, made by name with options (``edna(base=ismcts)``)."""

    #: the character this class plays (each roster entry has its own subclass)
    played: ClassVar[Character]

    def __init__(self, base: str = "") -> None:
        super().__init__(type(self).played, base or None)


#: the beginner's character: no voice, the plain heuristic's style
BEGINNER = Character("beginner", "Beginner", "makes a beginner's mistakes", Style(), {})


class BeginnerBot(CharacterBot):
    """The ``beginner`` level: the heuristic, with a mistake at a rate (see the module).

    ``mistakes`` is the share of card plays made at random (among legal cards that keep the
    basics); its bids' boldness is drawn from ±4·``mistakes`` (±1 at the default).
    """

    def __init__(self, mistakes: float = 0.25) -> None:
        if not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"mistakes is a share from 0 to 1, got {mistakes}")
        super().__init__(BEGINNER)
        self.mistakes = mistakes
        self._noise = random.Random(0)

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self._noise = random.Random(derive_seed(seed, "mistakes"))

    def _style_boldness(self, view: View) -> float:
        spread = 4 * self.mistakes
        return self._noise.uniform(-spread, spread)

    def _play(self, view: View, legal: list[int]) -> int:
        if len(legal) > 1 and self._noise.random() < self.mistakes:
            return self._noise.choice(legal)
        return super()._play(view, legal)
