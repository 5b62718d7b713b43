"""The chat check's notation of cards (tricktable.chat): every spelling the card parser reads,
generated from the parser's own table (cards.spellings) and checked by the parser, in every
case, with every separator, fullwidth, with every format character inside, and in sentences,
names its card; a line naming a hidden card is refused in every game; ordinary talk passes."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.cards import (
    JOKER,
    LITTLE_JOKER,
    NUM_CARDS,
    SUIT_NAMES,
    card_name,
    parse_card,
    pretty_card,
    rank_of,
    spellings,
    suit_of,
)
from tricktable.characters.roster import CHARACTERS
from tricktable.chat import (
    OTHER_RANK_WORDS,
    RANK_WORDS,
    WORDS,
    checked_line,
    named_cards,
    normalised,
    public_cards,
)
from tricktable.engine.trick import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game, names

#: what may stand between a rank and its suit (and between the words of "jack of clubs")
SEPARATORS = ("", " ", "-", ".", "/", "_", " - ", ". ", "\\", "|", ":", "·", "  ", "*", "~",
              "+", "\u00a0", "\u3000", "\u2003", "\u0301")  # fmt: skip
#: format characters (Cf), variation selectors and blank fillers, each put inside a spelling
INVISIBLE = (
    "\u200b",
    "\u200c",
    "\u200d",
    "\u00ad",
    "\u2060",
    "\ufeff",
    "\u180e",
    "\ufe0f",
    "\ufe00",
    "\U000e0100",
    "\U000e01ef",
    "\u3164",
    "\u115f",
    "\u1160",
    "\uffa0",
)  # fmt: skip (and the Hangul fillers)
#: sentences around a spelling
SENTENCES = ("{}", "I hold {}!", "I hold {}", "({})", "{}?", "my {}, yours", "'{}'", "¿{}?")
#: ordinary table talk: none of it names a card
ORDINARY = (
    "as I said, ah well",
    "As if! Ah, an ad for tea",
    "lead a spade, then a heart",
    "the ace is high and the jack is trump",
    "ten tricks? no, nine",
    "the king led, then clubs were out",
    "I led the ace. Spades broke",
    "안녕하세요, 잘 부탁합니다",  # Korean: hello, glad to play with you
    "你好，我们赢了这一墩",  # Chinese: hello, we won this trick
    "ᎣᏏᏲ! ᏙᎯᏧ? ᏩᏙ",  # Cherokee: hello! how are you? thanks
    "ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ",  # Cherokee: the Cherokee language
    "good game 🂠 🃠",  # a card's back, a tarot trump
    "the K's are all out",
    "don't cry, it's just a game",
    "Jack's back!",
    "Has anyone seen the queen?",
    "I bid 3, you bid 4",
    "5 to 7, we're behind",
    "Q: who dealt? A: me",
    "OK. Thanks everyone",
    "that was a good trick",
    "spades, hearts, diamonds and clubs",
    "take the trick",
    "what a hand",
)


def parser_spellings() -> dict[int, list[str]]:
    """Every spelling the card parser reads, by card, from its own table: each one checked
    by the parser itself, in upper and lower case."""
    out: dict[int, list[str]] = {}
    for text, card in spellings().items():
        assert parse_card(text) == card and parse_card(text.lower()) == card, text
        out.setdefault(card, []).append(text)
    return out


def split(spelling: str) -> tuple[str, str]:
    """A spelling's rank and suit parts (a joker's two letters), or the spelling and ""."""
    if spelling.isalpha() and len(spelling) == 2:
        return spelling[0], spelling[1]  # a joker's letters: JK, BJ
    if len(spelling) >= 2 and not spelling.isalpha():
        return spelling[:-1], spelling[-1]  # 10♦, T♡
    if len(spelling) == 2:
        return spelling[0], spelling[1]
    return spelling, ""


def word_spellings(card: int) -> list[str]:
    """The words of a card: its rank's word (and other words), "of", its suit's name."""
    if card >= 52:
        return ["joker", "little joker" if card == LITTLE_JOKER else "big joker"]
    rank, suit = rank_of(card), suit_of(card)
    words = [RANK_WORDS[rank], *(w for w, r in OTHER_RANK_WORDS.items() if r == rank)]
    return [f"{w} of {SUIT_NAMES[suit]}" for w in words] + [
        f"{RANK_WORDS[rank]} of {SUIT_NAMES[suit][:-1]}",  # singular
        f"{card_name(card)[0] if card_name(card)[0] != 'T' else '10'} of {SUIT_NAMES[suit]}",
    ]


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def cased(text: str) -> Iterator[str]:
    yield from (text, text.lower(), text.upper(), text.swapcase(), text[:1].upper() + text[1:])
    yield "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(text))


def variants(spelling: str) -> Iterator[str]:
    """A spelling in every case, with every separator, fullwidth and with every invisible
    character inside; the words' variants too."""
    head, tail = split(spelling)
    for form in cased(spelling):
        h, t = form[: len(head)], form[len(head) :]
        if tail and h.isalnum():  # the parts can be kept apart
            for sep in SEPARATORS:
                if sep == "" or not (t.lower() == "s" and sep.startswith("'")):
                    yield h + sep + t
            for mark in INVISIBLE:
                yield h + mark + t
        else:
            yield form
            for mark in INVISIBLE:  # inside a word (jo<ZWSP>ker), or after a symbol
                yield form[:2] + mark + form[2:]
        yield fullwidth(form)
    if spelling[-1] in "♣♦♥♠♧♢♡♤":
        yield spelling + "\ufe0f"  # the emoji presentation


def word_variants(words: str) -> Iterator[str]:
    for form in cased(words):
        yield form
        yield fullwidth(form)
        for sep in ("-", "_", "  ", ".", "\u00a0"):
            yield form.replace(" ", sep)
        for mark in INVISIBLE:
            yield form[:2] + mark + form[2:]


def every_spelling(card: int) -> Iterator[str]:
    for spelling in parser_spellings()[card]:
        yield from variants(spelling)
    for words in word_spellings(card):
        yield from word_variants(words)


def is_word(form: str) -> bool:
    """Whether a spelling reads as one of the English words let pass (as, As, ah...)."""
    return normalised(form) in WORDS | {w.capitalize() for w in WORDS}


def names_it(text: str, card: int) -> bool:
    named = named_cards(text)
    if card >= 52 and not named:
        return False
    return card in named or (card >= 52 and set(named) <= {JOKER, LITTLE_JOKER})


# ------------------------------------------------------------------------ the notation


def test_the_notation_is_the_parsers_table() -> None:
    table = parser_spellings()
    assert set(table) == set(range(NUM_CARDS))
    # A suited card's spellings are every spelling of its rank with every spelling of its
    # suit: so what is tolerated between the two parts covers every spelling.
    ranks: dict[int, set[str]] = {}
    suits: dict[int, set[str]] = {}
    for card in range(52):
        for spelling in table[card]:
            head, tail = split(spelling)
            ranks.setdefault(rank_of(card), set()).add(head)
            suits.setdefault(suit_of(card), set()).add(tail)
    for card in range(52):
        parts = {split(s) for s in table[card]}
        assert parts == set(itertools.product(ranks[rank_of(card)], suits[suit_of(card)]))
    for card in range(NUM_CARDS):
        for spelling in table[card]:
            assert named_cards(spelling) in ([card], [JOKER, LITTLE_JOKER]), spelling


@pytest.mark.parametrize("card", range(NUM_CARDS), ids=card_name)
def test_every_spelling_of_every_card_names_it(card: int) -> None:
    missed = []
    count = 0
    for form in every_spelling(card):
        if is_word(form):
            continue  # as, ah: the words (tested below)
        for sentence in SENTENCES:
            count += 1
            if not names_it(sentence.format(form), card):
                missed.append(sentence.format(form))
    assert missed == [], missed[:20]
    assert count > 500  # many spellings were tried


def test_the_spellings_of_the_issue_all_name_the_jack_of_clubs() -> None:
    jc = parse_card("JC")
    forms = ["JC", "J♣", "jc", "Jc", "jack of clubs", "J C", "J-C", "J.C", "J/C", "ＪＣ",
             "J\u200bC", "J\u200dC", "J\u00adC", "J\u200cC", "J\u2060C", "J♣\ufe0f", "J ♧",
             "Jack of Clubs", "JACK OF CLUBS", "jack-of-clubs", "knave of clubs", "jС"]  # fmt: skip
    for form in forms:
        assert named_cards(f"I hold {form}!") == [jc], form


def test_the_glued_and_reversed_forms_of_issue_27_name_their_card() -> None:
    """A card glued to a word or said the other way round, as the audit passed them."""
    jc, ace = parse_card("JC"), parse_card("AS")
    for form in ("xJC", "myJ♣", "club jack", "clubs jack", "JCs", "♣J", "Clubs, Jack"):
        assert named_cards(f"I hold {form}") == [jc], form
    for form in ("as", "As!", "spade ace", "ASs", "spades ace"):
        assert named_cards(form) == [ace], form


@pytest.mark.parametrize("card", range(52))
def test_every_card_glued_or_reversed_is_named(card: int) -> None:
    short = card_name(card)  # 7C, TD
    symbol = pretty_card(card)  # 7♣, 10♦
    rank_word, suit_word = RANK_WORDS[card % 13], SUIT_NAMES[card // 13]
    for form in (f"x{short}", f"{short}s", f"my{symbol}", f"{symbol[-1]}{symbol[:-1]}",
                 f"{suit_word} {rank_word}", f"{suit_word.rstrip('s')} {rank_word}"):  # fmt: skip
        assert card in named_cards(f"look: {form} here"), form


def test_shouting_is_not_a_glued_card() -> None:
    # Capitals inside a word of capitals are a word shouted (HAS, THIS), not a card glued.
    assert named_cards("HAS ANYONE SEEN THIS") == []
    assert named_cards("well, as I said") == []  # a sentence's "as" stays a word


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_talk_names_no_card(text: str) -> None:
    assert named_cards(text) == []


def test_the_words_that_are_spellings_are_words_only_as_words() -> None:
    for word in sorted(WORDS):
        assert named_cards(f"well, {word} I said") == []
        assert named_cards(f"{word.capitalize()} I said") == []
        card = parse_card(word)
        for other in (word.upper(), word[0] + word[1].upper(), f"{word[0]} {word[1]}",
                      f"{word[0]}-{word[1]}", f"{word[0]}\u200b{word[1].upper()}"):  # fmt: skip
            assert card in named_cards(f"well, {other} I said"), other
    assert named_cards("ace of spades") == [parse_card("AS")]
    assert named_cards("jk lol") == named_cards("I hold Jk") == [JOKER]  # not let pass
    assert named_cards("an ace") == named_cards("spades") == named_cards("a spade") == []


def test_every_voice_line_names_no_card() -> None:
    fields = {"name": "Sam", "partner": "Rosa", "me": "Edna", "card": "x", "bid": "3",
              "us": "5", "them": "7"}  # fmt: skip
    for character in CHARACTERS.values():
        for lines in character.voice.values():
            for line in lines:
                assert named_cards(line.format_map(fields)) == [], line


# ----------------------------------------------------------------------- properties


_CARD_FORMS = [(card, form) for card in range(NUM_CARDS) for form in parser_spellings()[card]]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(_CARD_FORMS),
    st.lists(st.booleans(), min_size=8, max_size=8),
    st.text(st.sampled_from(" -./_:|*~·\u00a0\u3000\u200b\u00ad\ufe0f"), max_size=4),
    st.sampled_from(ORDINARY),
    st.sampled_from(ORDINARY),
)
def test_a_spelling_with_any_case_and_separators_in_any_talk_is_named(
    item: tuple[int, str], upper: list[bool], sep: str, before: str, after: str
) -> None:
    card, spelling = item
    head, tail = split(spelling)
    form = "".join(c.upper() if u else c.lower() for c, u in zip(head + tail, upper, strict=False))
    form = form + (head + tail)[len(form) :]
    if tail and head.isalnum() and not (tail.lower() == "s" and sep.startswith("'")):
        form = form[: len(head)] + sep + form[len(head) :]
    if is_word(form):
        return  # the word, not the card (tested above)
    assert names_it(f"{before} {form}, {after}", card)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.lists(st.tuples(st.integers(0, 60), st.sampled_from(INVISIBLE))))
def test_invisible_characters_change_nothing_a_line_names(
    text: str, marks: list[tuple[int, str]]
) -> None:
    marked = text
    for at, mark in sorted(marks, reverse=True):
        marked = marked[:at] + mark + marked[at:]
    assert named_cards(marked) == named_cards(text)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E) | st.just(" "), max_size=40))
def test_fullwidth_text_names_what_its_ascii_names(text: str) -> None:
    assert named_cards(fullwidth(text)) == named_cards(text)


# ------------------------------------------------------------------- the chat check


def dealt(game_name: str, seed: int = 3) -> TrickState:
    state = load_game(game_name).new_state(seed)
    state.deal()
    return state


@pytest.mark.parametrize("game_name", sorted(names()))
def test_a_line_naming_a_hidden_card_is_refused_in_every_game(game_name: str) -> None:
    state = dealt(game_name)
    public = public_cards(state)
    for card in state.game.deck:
        forms = list(itertools.islice(every_spelling(card), 0, None, 7))
        for form in forms:
            if is_word(form):
                continue
            line = f"I hold {form}!"
            if public >> card & 1:
                assert checked_line(state, line)  # the turned-up card may be named
                continue
            with pytest.raises(TricktableError, match="may name only cards face up"):
                checked_line(state, line)
    for text in ORDINARY:
        assert checked_line(state, text) == text


def test_a_card_face_up_may_be_named_in_every_spelling() -> None:
    state = dealt("spades")
    while len(state.trick) < 2:
        state.apply(state.legal_actions()[0])
    for card in state.trick:
        for form in every_spelling(card):
            assert checked_line(state, f"nice {form}")
    # A card outside the game's deck tells nothing: the joker in Spades.
    assert checked_line(state, "I hold the joker and JK")


def test_a_line_clipped_is_checked_as_said() -> None:
    state = dealt("setback")
    with pytest.raises(TricktableError, match="face up"):
        checked_line(state, "x" * 150 + " " + "J\u200b-\u00adc" + " y" * 100)
