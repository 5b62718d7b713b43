"""What a person types at a prompt, read into an action of the game.

:func:`parse_answer` reads an answer as people write it — the game's words, a bare card, a
number, ``#N`` for a listed choice, three cards to pass — into an action code; whether the
rules allow that action now is the engine's to say (``Table.submit``, or :func:`read_answer`
with the view's ``illegal``). Everything an answer is quoted in is clipped (:func:`clip`),
so a 5,000-character answer is not echoed back whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from tricktable.cards import card_name, cards_in, parse_card
from tricktable.engine import actions as act
from tricktable.engine.trick import Game, View
from tricktable.errors import IllegalAction, NotationError

_NUMBER: Final = re.compile(r"[0-9]+")
#: a choice by its number in the list, at any prompt: ``#2`` (a bare ``2`` is a bid in an auction)
_CHOICE: Final = re.compile(r"#\s*([0-9]+)")
#: the most of an answer that is repeated back (in an error line, or echoing piped input)
SHOWN_CHARS: Final = 40


def clip(text: str, limit: int = SHOWN_CHARS) -> str:
    """An answer as it is repeated back: stripped, and cut to ``limit`` characters with "…"."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_answer(message: str, text: str) -> str:
    """``message`` with every long piece of the answer ``text`` that it quotes clipped."""
    words = text.replace(",", " ").strip().lower().split()
    pieces = {text.strip(), text.strip().lower(), " ".join(words), *words}
    for piece in sorted(pieces, key=len, reverse=True):
        if len(piece) > SHOWN_CHARS:
            message = message.replace(repr(piece), repr(clip(piece)))
    return message


def _number(digits: str) -> int:
    """The value of a typed number; a huge one (past what any rule allows) stays huge but cheap."""
    return int(digits) if len(digits) <= 9 else 10**9


def is_passing(legal: Sequence[int]) -> bool:
    """Whether the choices are cards to pass (``pass 2C 3D 4H``)."""
    # PASS_CARDS | mask: a kitty's discard codes lie above it too (DISCARD + card, 2**65 up)
    return bool(legal) and all(a > act.PASS_CARDS and a >> 64 == 1 for a in legal)


def read_answer(text: str, view: View) -> int:
    """The legal action a typed answer names, for the seat of ``view`` (whose turn it is).

    :func:`parse_answer`, then the rules: raises :class:`IllegalAction` (the engine's reason)
    for an action they forbid now. A table does that check itself (``Table.submit``).
    """
    action = parse_answer(text, view)
    if action not in view.legal_actions():
        raise view.illegal(action)
    return action


def parse_answer(text: str, view: View) -> int:
    """The action a typed answer names, for the seat of ``view`` (whose turn it is).

    Accepted: any action in the game's words (``pass``, ``bid 3``, ``order-up alone``,
    ``trump S``, ``discard 9C``, ``play TD``), just a card (``TD``, ``10d``, ``t♦``), the last
    words of a choice when they name one (``S`` for ``trump S``, ``9C`` for ``discard 9C``),
    and numbers. Where bids are allowed a bare number is always a bid (``3`` is ``bid 3``, and
    ``1`` is ``bid 1``, legal or not); anywhere else it is the 1-based number of a listed choice.
    ``#N`` is choice N of the list at any prompt (``#1`` passes in a Setback auction). Cards to
    pass are three cards, or their numbers in the hand, in any order.
    Raises :class:`NotationError` for what cannot be read (and :class:`IllegalAction` for a
    bid past what the notation holds, with the rules' reason); the action returned may still
    be one the rules forbid now: whoever applies it says why.
    """
    game = view.game
    legal = view.legal_actions()
    words = text.replace(",", " ").strip().lower().split()
    if is_passing(legal):
        return _read_pass(words, view, legal)
    choice = _CHOICE.fullmatch(text.strip())
    if choice:
        n = _number(choice.group(1))
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise NotationError(
            f"there is no choice #{clip(choice.group(1))}: pick #1 to #{len(legal)}"
        )
    bids = any(act.is_bid(a) for a in legal)
    if len(words) > 1 and all(_NUMBER.fullmatch(w) for w in words):
        if bids:
            raise NotationError("one bid at a time: type one number (the bid), or pass")
        raise NotationError(f"one choice at a time: type one number, from 1 to {len(legal)}")
    if len(words) == 1 and _NUMBER.fullmatch(words[0]):
        n = _number(words[0])
        if not bids:
            if 1 <= n <= len(legal):
                return legal[n - 1]
            raise NotationError(f"there is no choice {clip(words[0])}: pick 1 to {len(legal)}")
        words = ["bid", words[0]]
    if words == ["p"]:
        words = ["pass"]
    if len(words) == 2 and words[0] == "bid" and re.fullmatch(r"-?[0-9]+", words[1]):
        n = _number(words[1].lstrip("-")) * (-1 if words[1].startswith("-") else 1)
        if not 0 <= n < 64:
            # The notation stops at 63; the rules' reason ("must bid from 2 to 6") says more.
            reason = view.illegal(act.bid(63 if n > 0 else 0)).reason
            raise IllegalAction(view.seat, clip(f"bid {words[1]}"), reason)
        action = act.bid(n)
    else:
        try:
            action = game.parse_action(" ".join(words))
        except NotationError:
            named = _named(words, game, legal)
            if named is None:
                raise
            return named
    if action not in legal and act.is_play(action):
        named = _named([card_name(action).lower()], game, legal)
        if named is not None:
            return named  # a bare card for a choice that takes one: "9C" for "discard 9C"
    return action


def _named(words: list[str], game: Game, legal: Sequence[int]) -> int | None:
    """The one legal action whose name is ``words`` or ends with them, or None."""
    if not words:
        return None
    names = {a: game.action_name(a).lower().split() for a in legal}
    exact = [a for a, name in names.items() if name == words]
    if len(exact) == 1:
        return exact[0]
    ending = [a for a, name in names.items() if name[-len(words) :] == words]
    return ending[0] if len(ending) == 1 else None


def _read_pass(words: list[str], view: View, legal: Sequence[int]) -> int:
    """The pass an answer names: cards or their 1-based numbers in the hand, in any order."""
    count = (legal[0] ^ act.PASS_CARDS).bit_count()
    if words and words[0] == "pass":
        words = words[1:]
    hand = cards_in(view.hand)
    if len(words) != count:
        raise NotationError(
            f"pass {count} cards: name them (like {' '.join(card_name(c) for c in hand[:count])})"
            f" or give their numbers in your hand (like {' '.join(map(str, range(1, count + 1)))})"
        )
    mask = 0
    for word in words:
        if _NUMBER.fullmatch(word):
            n = _number(word)
            if not 1 <= n <= len(hand):
                raise NotationError(
                    f"there is no card {clip(word)} in your hand: pick 1 to {len(hand)}"
                )
            card = hand[n - 1]
        else:
            card = parse_card(word)
        if mask >> card & 1:
            raise NotationError(f"{card_name(card)} is named twice: pass {count} different cards")
        mask |= 1 << card
    return act.PASS_CARDS | mask
