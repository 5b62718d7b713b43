"""Characters and levels: players with a name, a style and a voice (docs/characters.md).

``make_bot`` finds them by name after the built-in bots:

- the characters of :data:`~tricktable.characters.roster.CHARACTERS` — ``edna``, ``vinnie``,
  ``rosa``, ``ada``, ``moe``, ``kit`` — each a style over a base bot and a voice; an option
  changes the base: ``edna(base=ismcts)``;
- the levels: ``beginner`` (the heuristic with mistakes: ``beginner(mistakes=0.4)``),
  ``club`` (the heuristic) and ``expert`` (the strongest search bot of each game, with a
  budget: :data:`LEVELS`, :mod:`tricktable.characters.expert`).

This package imports its parts only when a name asks for them: ``make_bot`` calls
:func:`find_player` for names it does not know, and nothing here touches the path of the
other bots. What it makes of the built-in bots comes from :mod:`tricktable.bots.registry`,
never from ``make_bot`` (which imports this package).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from tricktable.limits import RunnerOptions

if TYPE_CHECKING:
    from tricktable.bots.base import Bot
    from tricktable.characters.bot import NamedCharacter

#: the levels that are another player's spec: ``club`` is the heuristic; ``expert`` searches
#: the card play with a budget a person does not wait on (about 0.1–0.2 s a decision, 0.5 s at
#: most). ``expert`` alone is the strongest bot of the game it plays
#: (:class:`~tricktable.characters.expert.ExpertBot`: pimc in Setback, measured stronger than
#: ismcts); the spec here is a character's card play at that level, and ``expert(...)`` with
#: options is that bot with them
LEVELS: dict[str, str] = {
    "club": "heuristic",
    "expert": "ismcts(iterations=500,max_seconds=0.5)",
}
#: the bot an ``expert(...)`` with options is (its options are that bot's)
EXPERT_BOT = "ismcts"


def player_names() -> list[str]:
    """Every name this package answers to: the characters, then the levels."""
    from tricktable.characters.roster import CHARACTERS

    return [*CHARACTERS, "beginner", *LEVELS]


def find_player(spec: str, options: RunnerOptions | None = None) -> Bot | None:
    """The character or level ``spec`` names (options in parentheses), or None."""
    name, paren, _rest = spec.strip().partition("(")
    key = name.strip().lower()
    if key in LEVELS:
        # Imported when a level is asked for, as the characters' parts are: a name that is
        # no level or character costs no import (``make_bot`` asks for every unknown name).
        from tricktable.bots.registry import make_builtin

        if key == "expert" and not paren:
            from tricktable.characters.expert import ExpertBot

            return ExpertBot()  # the strongest bot of the game it is dealt into
        # Options given replace the level's own: expert(iterations=2000) is ismcts(iterations=2000).
        rest = spec.strip()[len(name) :] if paren else ""
        base = EXPERT_BOT if paren and key == "expert" else LEVELS[key]
        made = make_builtin(base + rest)
        assert made is not None  # a level's bot is a built-in one
        return made
    from tricktable.characters.bot import BeginnerBot, NamedCharacter
    from tricktable.characters.roster import CHARACTERS

    if key == "beginner":
        return _configured(BeginnerBot, spec) if paren else BeginnerBot()
    if key not in CHARACTERS:
        return None  # checked first: only the roster's names are cached
    cls = _character_class(key)
    bot = _configured(cls, spec) if paren else cls()
    if options is not None and isinstance(bot, NamedCharacter):
        bot.options = options  # its tempo keeps within the match's time limits
    return bot


@functools.cache
def _character_class(key: str) -> type[NamedCharacter]:
    """The class that plays the roster's character ``key`` (made once a name)."""
    from tricktable.characters.bot import NamedCharacter
    from tricktable.characters.roster import CHARACTERS

    character = CHARACTERS[key]
    return type(f"{character.display}Bot", (NamedCharacter,), {"played": character})


def _configured(cls: type[Bot], spec: str) -> Bot:
    from tricktable.bots.options import configured

    return configured(cls, spec)


__all__ = ["LEVELS", "find_player", "player_names"]
