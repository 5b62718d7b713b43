"""A decision as a choice a person can make: one of these, or *k cards of these*.

The engine names every action by an int (its code); some decisions are many codes a person
makes as one choice. A Hearts pass is one code for each three cards of thirteen (286 codes,
each above 2**64, which a JSON number cannot hold); a kitty's discard, Cinch's discard and
rob and Euchre's dealer's discard are one code a card, made card after card by the same seat.
Here both become one choice: *k cards of these*, with its bounds and its words ("Pass three
cards left, to Edna"), made by naming the cards (:func:`actions_for`). Everything else is
*one of these*: the actions listed by their text.

Nothing here reads a card the chooser may not know: the bounds are found by playing the
chooser's own cards on a copy of the state (:meth:`TrickState.clone`, no events), which only
its own hand and the rules decide; the answer says which of its own cards it may choose.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any, Final

from tricktable.cards import SUIT_NAMES, SUITS, card_name, cards_in, parse_card
from tricktable.chat.notation import RANK_WORDS
from tricktable.engine import actions as act
from tricktable.engine.trick import Game, TrickState, View
from tricktable.errors import IllegalAction, NotationError, TricktableError
from tricktable.seat import phrases as ph
from tricktable.seat.phrases import Phrase

#: number words for counts a person reads ("pass three cards")
NUMBER_WORDS: Final = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip
#: the most subsets a choice lists when not every k of its cards may be chosen together
_MOST_SETS: Final = 64


def number_word(n: int) -> str:
    """``n`` in words up to twenty, in digits beyond."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


@dataclass(frozen=True, slots=True)
class CardChoice:
    """*k cards of these*: choose from ``least`` to ``most`` of the cards of ``cards``.

    ``verb`` is the actions' word (``pass``, ``discard``, ``keep``); ``combined``: one
    action names every card chosen (a pass), else one action a card, in turn; ``finish``:
    the action that ends the choice with fewer than ``most`` (Cinch's ``draw``), or None;
    ``sets``: the card masks that may be chosen when not every such subset may (None: any).
    """

    verb: str
    cards: int
    least: int
    most: int
    combined: bool
    finish: int | None = None
    sets: tuple[int, ...] | None = None


def card_words(code: int) -> str:
    """A card in words: "ten of diamonds", "the joker"."""
    if code >= 52:
        return "the joker" if card_name(code) == "JK" else "the little joker"
    return f"{RANK_WORDS[code % 13]} of {SUIT_NAMES[code // 13]}"


def _verb_cards(game: Game, action: int) -> tuple[str, int] | None:
    """(verb, card mask) when ``action`` names cards after a verb other than ``play``."""
    if act.is_play(action) or action < act.BID + 64:
        return None  # a card played, pass, a bid
    if action >> 64 == 1:  # PASS_CARDS | mask: read from the code (a pass lists 286)
        return "pass", action ^ act.PASS_CARDS
    text = game.action_name(action)
    words = text.split()
    if len(words) < 2 or words[0] == "play":
        return None
    mask = 0
    for word in words[1:]:
        try:
            card = parse_card(word)
        except NotationError:
            return None
        mask |= 1 << card
    return words[0], mask


def card_choice(view: View, state: TrickState | None = None) -> CardChoice | None:
    """The viewer's decision as *k cards of these*, or None (one of its legal actions).

    ``state``: the match's state (the server's), to find how many cards a choice made card
    by card takes; without it such a decision is offered one card at a time (None)."""
    legal = view.legal_actions()
    if not legal:
        return None
    game = view.game
    verbs: dict[str, list[int]] = {}
    others: list[int] = []
    for action in legal:
        named = _verb_cards(game, action)
        if named is None:
            others.append(action)
        else:
            verbs.setdefault(named[0], []).append(named[1])
    if len(verbs) != 1:
        return None
    verb, masks = next(iter(verbs.items()))
    union = 0
    for mask in masks:
        union |= mask
    sizes = {m.bit_count() for m in masks}
    if len(sizes) == 1 and sizes != {1}:
        if others:
            return None
        k = sizes.pop()
        every = len(masks) == comb(union.bit_count(), k)
        sets = None if every else tuple(sorted(masks))[:_MOST_SETS]
        return CardChoice(verb, union, k, k, combined=True, sets=sets)
    if sizes != {1} or len(others) > 1 or state is None:
        return None
    least, most, finish = _span(state, view.seat, verb)
    if most == 0 or (finish is None and least == 0):
        return None
    return CardChoice(verb, union, least, most, combined=False, finish=finish)


def _span(state: TrickState, seat: int, verb: str) -> tuple[int, int, int | None]:
    """How few and how many of its ``verb`` actions ``seat`` may take in a row from now, and
    the one other action that ends them short of the most (Cinch's ``draw``, offered only
    once enough are thrown), or None: played on a copy, the lowest card each time, until the
    seat's turn or the phase ends."""
    copy = state.clone()
    phase = copy.phase
    game = copy.game
    steps, least = 0, -1
    finish: int | None = None
    while copy.to_act == seat and copy.phase == phase and not copy.is_over and steps < 64:
        cards, others = [], []
        for action in copy.legal_actions():
            named = _verb_cards(game, action)
            if named is not None and named[0] == verb:
                cards.append(action)
            else:
                others.append(action)
        if len(others) == 1 and least < 0:
            least, finish = steps, others[0]
        if not cards:
            break
        copy.apply(cards[0])
        steps += 1
    return (steps if least < 0 else least), steps, finish


def read_cards(game: Game, text: str) -> tuple[str | None, list[int]] | None:
    """A typed choice of several cards: ``discard 7C 8D 9H`` (verb and cards) or cards alone
    (``7C 8D 9H``, verb None); None when ``text`` is not such a list of two or more cards."""
    words = text.replace(",", " ").split()
    verb = None
    if words and not _is_card(words[0]):
        verb = words[0].lower()
        words = words[1:]
    if len(words) < 2 or not all(_is_card(w) for w in words):
        return None
    return verb, [parse_card(w) for w in words]


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except NotationError:
        return False
    return True


def actions_for(
    state: TrickState, seat: int, cards: list[Any], verb: str | None = None
) -> list[int]:
    """The engine's actions that make ``seat``'s choice of ``cards`` (names or codes), in an
    order the rules allow, checked on a copy: a refused choice raises a
    :class:`TricktableError` that says why in words, and nothing is applied. ``verb``, when
    given, must be the decision's (``discard`` where a discard is asked for)."""
    codes: list[int] = []
    for c in cards:
        if isinstance(c, str) and len(c) <= 8:
            codes.append(parse_card(c))
        elif c.__class__ is int and 0 <= c < 64:
            codes.append(c)
        else:
            raise TricktableError("cards are named as text: '7C', 'QH', 'JK'")
    mask = 0
    for c in codes:
        if mask >> c & 1:
            raise TricktableError(f"{card_words(c)} is chosen twice")
        mask |= 1 << c
    if state.to_act != seat:
        raise TricktableError("it is not your turn")
    view = state.view(seat)
    choice = card_choice(view, state)
    if choice is None:
        raise TricktableError("this decision is one action, not a choice of cards")
    if verb is not None and verb != choice.verb:
        raise TricktableError(f"the choice now is cards to {choice.verb}, not to {verb}")
    outside = mask & ~choice.cards
    if outside:
        raise TricktableError(f"{card_words(cards_in(outside)[0])} may not be chosen now")
    k = mask.bit_count()
    if not choice.least <= k <= choice.most:
        raise TricktableError(f"choose {_count_words(choice)}, not {number_word(k)}")
    if choice.combined:
        if choice.sets is not None and mask not in choice.sets:
            raise TricktableError("those cards may not be chosen together")
        return [_combined_action(state.game, choice.verb, mask)]
    return _in_turn(state, seat, choice, codes)


def _combined_action(game: Game, verb: str, mask: int) -> int:
    text = " ".join([verb, *(card_name(c) for c in cards_in(mask))])
    return int(game.parse_action(text))


def _in_turn(state: TrickState, seat: int, choice: CardChoice, codes: list[int]) -> list[int]:
    """The choice's actions one card at a time, each legal when it is made (the cards'
    order is the person's where the rules allow, another where they do not)."""
    game = state.game
    copy = state.clone()
    phase = copy.phase
    left = list(codes)
    out: list[int] = []
    while left:
        if copy.to_act != seat or copy.phase != phase:
            raise TricktableError(f"choose {_count_words(choice)}: fewer cards than that")
        for card in left:
            action = game.parse_action(f"{choice.verb} {card_name(card)}")
            try:
                copy.apply(action)
            except IllegalAction:
                continue
            out.append(action)
            left.remove(card)
            break
        else:
            why = copy.view(seat).illegal(game.parse_action(f"{choice.verb} {card_name(left[0])}"))
            raise TricktableError(f"those cards may not be chosen together: {why.reason}")
    if copy.to_act == seat and copy.phase == phase and not copy.is_over:
        if choice.finish is None or choice.finish not in copy.legal_actions():
            raise TricktableError(f"choose {_count_words(choice)}")
        out.append(choice.finish)
    return out


def _count_words(choice: CardChoice) -> str:
    if choice.least == choice.most:
        return f"{number_word(choice.most)} card{'s' if choice.most != 1 else ''}"
    if choice.least == 0:
        return f"up to {number_word(choice.most)} cards"
    return f"{number_word(choice.least)} to {number_word(choice.most)} cards"


# ------------------------------------------------------------------------------ words

_CONFIRM_VERBS: Final = {"pass": "Pass", "discard": "Discard", "keep": "Keep"}
_THESE: Final = {1: "this card"}


def decision(
    view: View, names: list[str], state: TrickState | None, choice: CardChoice | None
) -> dict[str, Any] | None:
    """The viewer's decision for the wire (None when it has none): ``{"kind": "one",
    "prompt"}`` (choose one of ``legal``) or ``{"kind": "cards", "verb", "cards", "min",
    "max", "prompt", "confirm", "finish"}`` (see docs/protocol-web.md). ``choice``: the
    viewer's :func:`card_choice` (``state`` only words it: whom a pass goes to)."""
    legal = view.legal_actions()
    if not legal:
        return None
    if choice is None:
        return {"kind": "one", "prompt": _one_prompt(view, legal)}
    game = view.game
    counts = range(choice.least, choice.most + 1)
    return {
        "kind": "cards",
        "verb": choice.verb,
        "cards": [card_name(c) for c in cards_in(choice.cards)],
        "min": choice.least,
        "max": choice.most,
        "prompt": _cards_prompt(view, choice, names, state),
        "confirm": {str(k): _confirm(choice, k) for k in counts},
        "finish": game.action_name(choice.finish) if choice.finish is not None else None,
        "sets": (
            None
            if choice.sets is None
            else [[card_name(c) for c in cards_in(m)] for m in choice.sets]
        ),
    }


def _confirm(choice: CardChoice, k: int) -> str:
    verb = _CONFIRM_VERBS.get(choice.verb, choice.verb.capitalize())
    if k == 0:
        return f"{verb} none" + (" and draw" if choice.finish is not None else "")
    these = _THESE.get(k, f"these {number_word(k)}")
    tail = " and draw" if choice.finish is not None else ""
    return f"{verb} {these}{tail}"


def _cards_prompt(
    view: View, choice: CardChoice, names: list[str], state: TrickState | None
) -> Phrase:
    count = _count_words(choice)
    info = view.info()
    if choice.verb == "pass":
        direction = info.get("pass_direction")
        offset = getattr(state, "pass_offset", None) if state is not None else None
        n = len(view.won)
        if isinstance(offset, int) and offset:
            to = (view.seat + offset) % n
            where = f" {direction}" if isinstance(direction, str) else ""
            return [ph.text(f"Pass {count}{where}, to "), ph.seat(to)]
        return [ph.text(f"Pass {count}")]
    if choice.verb == "keep":
        return [ph.text(f"Keep {count} of the pack: the rest are discarded")]
    if choice.verb == "discard":
        if info.get("kitty"):
            return [ph.text(f"Discard {count}: the kitty is in your hand")]
        if choice.finish is not None:
            return [ph.text(f"Discard {count}, then draw as many")]
        return [ph.text(f"Discard {count}")]
    return [ph.text(f"{choice.verb.capitalize()} {count}")]


def _one_prompt(view: View, legal: list[int]) -> Phrase:
    if all(act.is_play(a) for a in legal):
        return [ph.text("Play a card")]
    if all(act.is_bid(a) or a == act.PASS for a in legal):
        return [ph.text("Bid or pass" if act.PASS in legal else "Bid")]
    return [ph.text("Your call")]


def all_sets(choice: CardChoice) -> list[int]:
    """Every card mask ``choice`` allows (for tests and small choices)."""
    if choice.sets is not None:
        return list(choice.sets)
    out = []
    cards = cards_in(choice.cards)
    for k in range(choice.least, choice.most + 1):
        for group in combinations(cards, k):
            mask = 0
            for c in group:
                mask |= 1 << c
            out.append(mask)
    return out


def action_phrase(game: Game, action: int) -> Phrase:
    """An action's text as a phrase whose cards are card tokens ("play " and the jack of
    diamonds), so that a screen says the card's name, never its code ("play JD")."""
    out: Phrase = []
    for i, word in enumerate(game.action_name(action).split()):
        if i:
            out.append(ph.text(" "))
        if i and _is_card(word):
            out.append(ph.card(parse_card(word)))
        else:
            out.append(ph.text(word))
    return out


_SUIT_WORDS: Final = dict(zip(SUITS, SUIT_NAMES, strict=True))


def action_label(game: Game, action: int) -> str:
    """An action's accessible name in words: "queen of hearts" (a card played), "keep two
    of clubs", "trump clubs", "order up alone", "bid 3" — never a code or a card's notation."""
    if act.is_play(action):
        return card_words(action)
    words = game.action_name(action).split()
    out = []
    for i, word in enumerate(words):
        if i and words[i - 1] == "trump" and word.upper() in _SUIT_WORDS:
            out.append(_SUIT_WORDS[word.upper()])
        elif i and _is_card(word):
            out.append(card_words(parse_card(word)))
        else:
            out.append(word.replace("-", " "))
    return " ".join(out)
