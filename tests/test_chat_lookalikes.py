"""The chat check (tricktable.chat) against a card named in disguise: a card's possessive, a
rank's word and a suit's name without "of", plural ranks, blank-looking fillers, Unicode's
playing cards, regional indicators, small capitals, letters of other scripts drawn like Latin
ones and mathematical letters. Every form is generated from the card parser's own spellings
(cards.spellings) and its words, and is refused while its card is hidden; ordinary talk in
other scripts still passes."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import pytest

from test_chat_notation import ORDINARY, cased, dealt, is_word, parser_spellings, split
from tricktable.cards import (
    JOKER,
    LITTLE_JOKER,
    NUM_CARDS,
    SUIT_NAMES,
    card_name,
    parse_card,
    rank_of,
    suit_of,
)
from tricktable.chat import (
    OTHER_RANK_WORDS,
    RANK_WORDS,
    checked_line,
    named_cards,
    normalised,
    public_cards,
)
from tricktable.errors import TricktableError

#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), written out here apart
#: from the module's own list
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
#: a few of them put inside every spelling: the Hangul fillers (letters, Lo, drawn blank) first
FILLERS = ("\u3164", "\u115f", "\u1160", "\uffa0", "\u034f", "\u061c", "\u17b4", "\u180b",
           "\u200e", "\u2061", "\ufff0", "\U0001bca0", "\U0001d173", "\U000e0001")  # fmt: skip
#: small capitals, a..z (there is no small capital x)
SMALL_CAPITALS = dict(zip("abcdefghijklmnopqrstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ", strict=True))
#: Lisu and Cherokee letters drawn like the Latin capitals of a spelling (Unicode confusables)
OTHER_SCRIPTS = {
    "A": "ꓮᎪ", "C": "ꓚᏟ", "D": "ꓓᎠ", "E": "ꓰᎬ", "H": "ꓧᎻ", "J": "ꓙᎫ", "K": "ꓗᏦ", "L": "ꓡᏞ",
    "M": "ꓟᎷ", "N": "ꓠ", "O": "ꓳ", "R": "ꓣᏒ", "S": "ꓢᏚ", "T": "ꓔᎢ", "V": "ꓦᏙ", "W": "ꓪᏔ",
}  # fmt: skip
#: the rows of U+1F0A0-1F0FF: ace, two .. ten, jack, knight, queen, king of each suit
CARD_ROWS = {"S": 0x1F0A0, "H": 0x1F0B0, "D": 0x1F0C0, "C": 0x1F0D0}
CARD_RANKS = "A23456789TJ QK"


def suited() -> range:
    return range(52)


def rank_words(card: int) -> list[str]:
    """A card's rank's words, and their plurals."""
    rank = rank_of(card)
    words = [RANK_WORDS[rank], *(w for w, r in OTHER_RANK_WORDS.items() if r == rank)]
    return words + [w + ("es" if w.endswith("x") else "s") for w in words]


def suit_words(card: int) -> list[str]:
    name = SUIT_NAMES[suit_of(card)]
    return [name, name[:-1]]


def word_forms(card: int) -> Iterator[str]:
    """RANK SUIT, RANK, SUIT, RANK-SUIT and RANKs of SUIT, in every case."""
    for rank in rank_words(card):
        for suit in suit_words(card):
            for form in (f"{rank} {suit}", f"{rank}, {suit}", f"{rank}-{suit}",
                         f"{rank}{suit}", f"{rank} of {suit}"):  # fmt: skip
                yield from cased(form)


def possessives(card: int) -> Iterator[str]:
    for spelling in parser_spellings()[card]:
        for form in (spelling, spelling.lower()):
            if not is_word(form):
                yield form + "'s"
                yield form + "’s"


def filled(card: int) -> Iterator[str]:
    """Every spelling and word form with a filler between its rank and its suit, and in a word."""
    for spelling in parser_spellings()[card]:
        head, tail = split(spelling)
        for filler in FILLERS:
            yield head + filler + tail
    for words in (f"{RANK_WORDS[rank_of(card)]} of {SUIT_NAMES[suit_of(card)]}",):
        for filler in FILLERS:
            yield words[:2] + filler + words[2:]
            yield words.replace(" ", filler)  # "king<filler>of<filler>clubs": nothing between
            yield words.replace(" ", f" {filler} ")


def regional(text: str) -> str:
    return "".join(chr(0x1F1E6 + ord(c) - ord("A")) if "A" <= c <= "Z" else c for c in text)


def regional_forms(card: int) -> Iterator[str]:
    for spelling in parser_spellings()[card]:
        if spelling.isalnum():
            yield regional(spelling)
            yield " ".join(regional(part) for part in split(spelling))  # apart: not a flag


def small_capitals(text: str) -> str:
    return "".join(SMALL_CAPITALS.get(c, c) for c in text.lower())


def small_capital_forms(card: int) -> Iterator[str]:
    for spelling in parser_spellings()[card]:
        if spelling.isalnum() and not is_word(spelling.lower()):
            yield small_capitals(spelling)
    for words in (f"{RANK_WORDS[rank_of(card)]} of {SUIT_NAMES[suit_of(card)]}",
                  f"{RANK_WORDS[rank_of(card)]} {SUIT_NAMES[suit_of(card)]}"):  # fmt: skip
        yield small_capitals(words)


def other_script_forms(card: int) -> Iterator[str]:
    """Each spelling and word form with every letter that has a lookalike replaced by it."""
    texts = [*parser_spellings()[card],
             f"{RANK_WORDS[rank_of(card)]} of {SUIT_NAMES[suit_of(card)]}".upper()]  # fmt: skip
    for text in texts:
        for script in (0, 1):
            form = "".join(
                OTHER_SCRIPTS[c][script] if len(OTHER_SCRIPTS.get(c, "")) > script else c
                for c in text
            )
            if form != text:
                yield form


def math_forms(card: int) -> Iterator[str]:
    """Each letter-and-digit spelling in bold, sans-serif bold and monospace mathematical type."""
    for spelling in parser_spellings()[card]:
        if not (spelling.isascii() and spelling.isalnum()):
            continue
        for capital, digit in ((0x1D400, 0x1D7CE), (0x1D5D4, 0x1D7EC), (0x1D670, 0x1D7F6)):
            yield "".join(
                chr(capital + ord(c) - ord("A")) if c.isalpha() else chr(digit + int(c))
                for c in spelling
            )


def emoji(card: int) -> str:
    rank = card_name(card)[0]
    return chr(CARD_ROWS[card_name(card)[1]] + 1 + CARD_RANKS.index(rank))


def disguises(card: int) -> Iterator[str]:
    yield from possessives(card)
    yield from word_forms(card)
    yield from filled(card)
    yield emoji(card)
    yield from regional_forms(card)
    yield from small_capital_forms(card)
    yield from other_script_forms(card)
    yield from math_forms(card)


# ----------------------------------------------------------------------- what is named


@pytest.mark.parametrize("card", suited(), ids=card_name)
def test_every_disguise_of_every_card_names_it(card: int) -> None:
    missed = []
    count = 0
    for form in disguises(card):
        for sentence in ("{}", "I hold {}!", "my {}, yours"):
            count += 1
            if card not in named_cards(sentence.format(form)):
                missed.append(sentence.format(form))
    assert missed == [], missed[:20]
    assert count > 300


def test_the_audits_lines_name_their_cards() -> None:
    kc, six = parse_card("KC"), parse_card("6C")
    for line in ("I hold KC's", "I hold KC’s", "I hold kc's", "king clubs", "KING, CLUBS",
                 "king-clubs", "kings of clubs", "K\u3164C", "K\u115fC", "K\u1160C",
                 "K\uffa0C", "🃞", "🇰🇨", "🇰 🇨", "ᴋᴄ", "ᴋɪɴɢ ᴏꜰ ᴄʟᴜʙꜱ", "ꓗC", "ᏦC",
                 "ꮶc", "𝐊𝐂", "𝕂ℂ", "🅚🅒", "🅺🅲", "Ⓚⓒ", "🄺🄲"):  # fmt: skip
        assert named_cards(line) == [kc], line
    assert named_cards("6C's mine") == [six]


def test_a_bare_ranks_plural_or_possessive_still_names_nothing() -> None:
    for line in ("the K's are all out", "10's and J's", "Q’s gone", "two K's, clubs"):
        assert named_cards(line) == [], line


def test_unicodes_playing_cards_name_their_cards_and_only_ours() -> None:
    for card in suited():
        assert named_cards(f"look: {emoji(card)}") == [card]
    assert named_cards("🃏") == [JOKER]  # the parser's own spelling
    for other in ("🂿", "🃟"):  # the red and the white joker: which of ours is not clear
        assert set(named_cards(other)) == {JOKER, LITTLE_JOKER}
    knights = [chr(row + 12) for row in CARD_ROWS.values()]
    trumps = [chr(code) for code in range(0x1F0E0, 0x1F0F6)]
    assert named_cards(" ".join([*knights, *trumps, "🂠"])) == []


def test_every_default_ignorable_character_inside_a_spelling_is_read_through() -> None:
    jc = parse_card("JC")
    missed = []
    for low, high in DEFAULT_IGNORABLE:
        for code in range(low, high + 1):
            for form in (f"J{chr(code)}C", f"jack{chr(code)}of clubs", f"ja{chr(code)}ck clubs"):
                if named_cards(f"I hold {form}") != [jc]:
                    missed.append(f"U+{code:04X} {form!r}")
    assert missed == [], missed[:20]


def test_nfkc_folds_every_mathematical_letter_and_digit() -> None:
    # So the lookalike table needs none of them: each reads as its letter (or Greek one).
    for code in range(0x1D400, 0x1D800):
        name = unicodedata.name(chr(code), "")
        if not name.startswith("MATHEMATICAL"):
            continue
        *_, kind, letter = name.split()
        if len(letter) > 1 and kind != "DIGIT":
            continue  # a Greek letter (ALPHA, KAPPA...): folded to Greek, read as Greek is
        folded = normalised(chr(code))
        if kind == "CAPITAL":
            assert folded == letter, name
        elif kind == "SMALL":
            assert folded == letter.lower(), name
        elif kind == "DIGIT":
            assert folded.isdigit() and folded.isascii(), name


# ------------------------------------------------------------------- the chat check


@pytest.mark.parametrize("game_name", ["spades", "euchre", "joker-pitch"])
def test_every_disguise_of_a_hidden_card_is_refused(game_name: str) -> None:
    state = dealt(game_name)
    public = public_cards(state)
    hidden = [c for c in state.game.deck if c < 52 and not public >> c & 1]
    assert hidden
    for card in hidden:
        for form in list(disguises(card))[::5]:
            with pytest.raises(TricktableError, match="may name only cards face up"):
                checked_line(state, f"I hold {form}!")
    if JOKER in state.game.deck:
        for form in ("🃏", "🂿", "🃟", "JK's", "joker's"):
            with pytest.raises(TricktableError, match="face up"):
                checked_line(state, f"I hold {form}")


def test_ordinary_talk_in_other_scripts_passes() -> None:
    state = dealt("spades")
    for line in (*ORDINARY, "잘했어요! 다음 판도 힘내요", "這一墩是我們的", "ᎤᏍᏗ ᎦᎸᏉᏗ",
                 "ꓡꓳ ꓕꓲ ꓐꓬ", "Привет, хорошая игра", "Καλή τύχη σε όλους"):  # fmt: skip
        assert checked_line(state, line) == line, line


def test_no_card_outside_the_deck_counts() -> None:
    assert NUM_CARDS == 54
    state = dealt("spades")
    assert checked_line(state, "🃏 🂿 🃟") == "🃏 🂿 🃟"  # Spades has no joker
