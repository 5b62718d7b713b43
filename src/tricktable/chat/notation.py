"""Which cards a line of chat names (the rules that use it: :mod:`tricktable.chat.rules`).

**One notation.** Which cards a line names (:func:`named_cards`) is decided by the card
parser's own notation — every spelling :func:`tricktable.cards.parse_card` reads
(:func:`tricktable.cards.spellings`: ``TD``, ``10d``, ``t♦``, ``Q♡``, ``JK``, ``BJ``,
``joker``, ``🃏``...) — read the way a person reads a line, not the way a parser reads a token:

- in any case: ``jc``, ``Jc``, ``jC`` and ``JC`` are the jack of clubs;
- after Unicode NFKC normalisation (fullwidth ``ＪＣ``, mathematical ``𝐉𝐂``, circled letters),
  with format characters (category Cf: zero-width space, joiners, soft hyphen, word joiner,
  byte-order mark...) and every default-ignorable character removed (variation selectors,
  the blank Hangul fillers U+3164, U+115F, U+1160, U+FFA0...), combining marks too (``Ḱc``,
  and ``K`` + U+0301 + ``c``, are ``Kc``), and with the letters of other scripts drawn like
  Latin ones read as those (Cyrillic ``Кс``, Lisu ``ꓗ``, Cherokee ``Ꮶ``), small capitals
  (``ᴋᴄ``) and regional indicators (``🇰🇨``) too;
- Unicode's playing cards: ``🃞`` is the king of clubs, ``🃏``, ``🂿`` and ``🃟`` jokers;
- with anything but letters and digits tolerated between a rank and its suit (``J C``,
  ``J-C``, ``J.C``, ``J/C``, ``J_C``, ``J ♣``), and inside a joker's
  two letters (``J K``);
- with words: a rank's word or its spelling, ``of``, then a suit's name (singular or plural),
  letter or symbol — ``jack of clubs``, ``ten of diamonds``, ``10 of d``, ``Queen of ♠`` —
  or a rank's word right before a suit's symbol (``queen♠``), or a rank's word and a suit's
  name with no more than a few marks between (``king clubs``, ``KING, CLUBS``,
  ``king-clubs``); a rank's word may be plural (``kings of clubs``); ``deuce``, ``trey`` and
  ``knave`` are rank words too. The word ``joker`` names every joker of the deck (which one
  a bare "joker" means is not clear where there are two); ``little``, ``small`` or ``low``
  before it names the little joker, ``big`` or ``high`` the big one;
- glued to a word or said the other way round: a rank and a suit's letter in capitals inside
  a word that is not all capitals (``xJC``, ``JCs``, ``ASs``), a rank right before a suit's
  symbol anywhere (``myJ♣``) or right after one (``♣J``), a suit's name and then a rank's
  word (``club jack``, ``spades ace``).

**What names no card: ordinary talk.** A rank alone (``ace``, ``a``, ``the jack``) or a
suit alone (``spades``) names no card, nor a rank's letter or digits and a suit's *name*
(``lead a spade``, ``3 hearts``), nor a rank's word and a suit's name across a sentence's end
(``the ace. Spades...``). A count said in words reads as a card (``ten hearts`` is the ten of
hearts): the check leans to refusing. A spelling must stand as a word of its own: not inside
another (``has``, ``don't``), and ``K's``, ``10's`` are a rank's plural or possessive — but a
card's is the card (``KC's``). Three English
words are also spellings — ``as``, ``ah`` and ``ad`` — and are read as words when written as
words: in lower case or capitalised, nothing between their letters (once invisible characters
are gone), in a line with other words (a line that is only ``as`` names the card).
Spelled any other way (``AS``, ``aS``, ``a s``, ``A-S``, ``A♠``, ``ace of spades``)
they name the card. ``jk`` is not let pass: "just kidding" in most chats, but the joker at a
table with one, and "I hold Jk" would say so.

Beyond these the check leans to refusing: a line that happens to spell a hidden card some
other way ("a c-section", "T. S. Eliot", "jk lol" in Setback) is refused while that card is
hidden. A line is read as it is shown; two bots that agree on a code of their own can always
signal (no check of text stops that): the check stops a card named in the open.

Only cards of the game's deck count: naming the joker in Hearts, or the two of clubs in
Euchre, says nothing about anyone's hand.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

from tricktable.cards import (
    JOKER,
    LITTLE_JOKER,
    SUIT_NAMES,
    rank_of,
    spellings,
    suit_of,
)

#: the ranks' words, two .. ace (the index is the rank), and the other words for some ranks
RANK_WORDS: Final = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
OTHER_RANK_WORDS: Final = {"deuce": 0, "trey": 1, "knave": 9}
#: English words that are also a card's spelling: read as words when written as words
WORDS: Final = frozenset({"as", "ah", "ad"})
_WORD_FORMS: Final = WORDS | {w.capitalize() for w in WORDS}
#: the words before "joker" that say which joker: the little one, or the big one
LITTLE_WORDS: Final = ("little", "small", "low")
BIG_WORDS: Final = ("big", "high")

# Letters of other scripts drawn like the Latin ones a spelling uses: "Кс" reads as "Kc" to
# everyone at the table, so the check reads it so too. The pairs follow Unicode's confusables
# (UTS #39, confusables.txt) for the letters of these scripts whose prototype is a Latin letter
# or a digit: Cyrillic and Greek (those a spelling uses and a few more), Lisu (U+A4D0-A4FF; ꓲ
# read as I, not l, as Cyrillic І is) and Cherokee capitals; a Cherokee small letter (U+AB70-ABBF,
# U+13F8-13FD) is its capital's Latin letter in lower case. Small capitals (ᴋ, ʜ, ꜱ, and ǫ,
# read before NFKD would make it o) are the lower-case letters. Mathematical alphanumerics (𝐊,
# 𝙆, 𝕂...), fullwidth, circled (Ⓚ) and squared (🄺) letters need no entry: NFKC folds them (the
# Greek ones to Greek, read here after).
_SCRIPT_PAIRS: Final = (
    ("АВСЕНІЈКМОРЅТХаеосрхѕіјһԛԚкΑΒΕΗΙΚΜΝΟΡΤΧΖοκ", "ABCEHIJKMOPSTXaeocpxsijhqQkABEHIKMNOPTXZok"),
    ("ꓐꓑꓒꓓꓔꓖꓗꓙꓚꓜꓝꓟꓠꓡꓢꓣꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴ", "BPdDTGKJCZFMNLSRVHWXYAEIOU"),
    ("ᎠᎡᎢᎥᎩᎪᎫᎬᎳᎷᎻᎽᏀᏂᏃᏎᏏᏒᏔᏕᏙᏚᏞᏟᏢᏦᏧᏮᏳᏴ", "DRTiYAJEWMHYGhZ4bRWSVSLCPKd6GB"),
    ("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnopqrstuvwyz"),  # no small capital x,
)
# The playing cards of Unicode (U+1F0A0-1F0FF): each suit's row runs ace, two .. ten, jack,
# knight (no card of ours), queen, king; the black joker 🃏 is a parser spelling already, the
# red and white ones are read as "joker" (which one they are is not clear).
_CARD_ROWS: Final = ((0x1F0A0, "S"), (0x1F0B0, "H"), (0x1F0C0, "D"), (0x1F0D0, "C"))
_CARD_RANKS: Final = "A23456789TJ QK"


def _lookalikes() -> dict[int, str]:
    table: dict[int, str] = {}
    for others, latin in _SCRIPT_PAIRS:
        for other, letter in zip(others, latin, strict=True):
            table[ord(other)] = letter
            small = other.lower()
            if 0x13A0 <= ord(other) <= 0x13F5 and small != other:
                table[ord(small)] = letter.lower()  # a Cherokee small letter
    for row, suit in _CARD_ROWS:
        for i, rank in enumerate(_CARD_RANKS):
            table[row + 1 + i] = f" {rank}{suit} " if rank != " " else " "
    table[0x1F0BF] = table[0x1F0DF] = " joker "
    # Regional indicators (🇰🇨, drawn as boxed letters apart) and the negative circled and
    # squared letters (🅚, 🅺), which NFKC leaves alone: capital letters.
    for first in (0x1F1E6, 0x1F150, 0x1F170):
        for i in range(26):
            table[first + i] = chr(ord("A") + i)
    return table


_LOOKALIKES: Final = _lookalikes()
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing, so a
# spelling with one inside reads as the spelling. Most are Cf or Mn; the Hangul fillers (U+115F,
# U+1160, U+3164, U+FFA0) are letters (Lo) that show as blanks, which is why the list is kept.
_IGNORABLE: Final = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip


def normalised(text: str) -> str:
    """``text`` as the chat check reads it: lookalike letters and playing-card characters read
    as Latin letters and cards, invisible characters and combining marks removed (``Ḱ`` is
    ``K``), NFKC-normalised (case kept)."""
    if text.isascii():
        return text  # the usual line: nothing to change
    text = unicodedata.normalize("NFKD", text.translate(_LOOKALIKES))
    text = "".join(ch for ch in text if not _invisible(ch))
    return unicodedata.normalize("NFKC", text).translate(_LOOKALIKES)


def _invisible(ch: str) -> bool:
    """A format character (Cf), a combining mark (Mn, Me) or a default-ignorable one."""
    if unicodedata.category(ch) in ("Cf", "Mn", "Me"):
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE)


class _Notation:
    """The card parser's notation, as patterns over a normalised line (see the module)."""

    def __init__(self) -> None:
        ranks: dict[str, int] = {}
        suits: dict[str, int] = {}
        self.jokers: dict[str, int] = {}
        for text, card in spellings().items():
            if card < 52:
                ranks[text[:-1]] = rank_of(card)
                suits[text[-1]] = suit_of(card)
            else:
                self.jokers[text] = card
        self.ranks = ranks
        self.suit_letters = {s: n for s, n in suits.items() if s.isalpha()}
        self.suit_symbols = {s: n for s, n in suits.items() if not s.isalpha()}
        self.rank_words = {w.upper(): r for r, w in enumerate(RANK_WORDS)}
        self.rank_words.update({w.upper(): r for w, r in OTHER_RANK_WORDS.items()})
        self.suit_words = {w.upper().rstrip("S"): s for s, w in enumerate(SUIT_NAMES)}
        self.pattern = self._compile()

    def _compile(self) -> re.Pattern[str]:
        symbols = "".join(self.suit_symbols) + "".join(
            t for t in self.jokers if not any(ch.isalnum() for ch in t)
        )
        sep = rf"(?:[^\w{symbols}]|_)*"  # anything but a letter, a digit or a card symbol
        start = r"(?<![^\W_])(?<![^\W_]['’])"  # not inside a word, nor after "don'"
        # Nor before more of one, nor "'ll" ("JC'll"? a word of its own): but "'s" may follow,
        # "KC's" is the king of clubs' (a bare rank's "'s", "K's", is let pass below).
        end = r"(?![^\W_])(?!['’](?![sS](?![^\W_]))[^\W_])"
        # Between a rank's word and a suit's name without "of" (king clubs, KING, CLUBS,
        # king-clubs): a few marks, but no sentence's end ("the ace. Spades are trump").
        tight = rf"(?:(?:[^\w\s{symbols}]|_){{0,3}}|(?:[^\w.!?;:…{symbols}]|_){{1,3}})"

        def one_of(items: object) -> str:
            words = sorted(items, key=len, reverse=True)  # type: ignore[call-overload]
            return "|".join(re.escape(w) for w in words)

        ranks = one_of(self.ranks)
        letters = one_of(self.suit_letters)
        syms = one_of(self.suit_symbols)
        rank_words = rf"(?:{one_of(self.rank_words)})(?:e?s)?"  # king, kings, sixes
        suit_words = one_of(self.suit_words)
        # A rank, then its suit: J C, 10-d, q♠ (not K's, a rank's plural).
        short = (
            rf"{start}(?P<r>{ranks})(?!['’]s(?![^\W_])){sep}"
            rf"(?:(?P<s>{letters}){end}|(?P<y>{syms}))"
        )
        # Words: jack of clubs, kings of clubs, 10 of d, queen of ♠; queen♠; king clubs.
        words = (
            rf"{start}(?P<wr>{rank_words}|{ranks}){sep}of{sep}"
            rf"(?:(?P<ws>{suit_words})s?{end}|(?P<wl>{letters}){end}|(?P<wy>{syms}))"
            rf"|{start}(?P<xr>{rank_words}){sep}(?P<xy>{syms})"
            rf"|{start}(?P<nr>{rank_words}){tight}(?P<ns>{suit_words})s?{end}"
        )
        # Glued to a word or said the other way round, as a person still reads them:
        # a rank and a suit's letter, both capitals, inside a word not all capitals (xJC,
        # JCs, ASs: "HAS" and "THIS" are shouting, not the ace and ten); a rank right before
        # a suit's symbol anywhere (myJ♣), or right after one (♣J); a suit's name, then a
        # rank's word (club jack, spades ace).
        upper_ranks = one_of(r for r in self.ranks if r.isupper() or r.isdigit())
        upper_letters = one_of(s for s in self.suit_letters if s.isupper())
        glued = (
            rf"(?-i:(?<![A-Z])(?P<gr>{upper_ranks})(?P<gs>{upper_letters})(?![A-Z]))"
            rf"|(?P<hr>{ranks})(?P<hy>{syms})"
            rf"|(?P<ry>{syms})(?P<rr>{ranks}){end}"
            rf"|{start}(?P<vs>{suit_words})s?{tight}(?P<vr>{rank_words}){end}"
        )
        # The jokers: a word (joker, with its size before it), two letters (JK, J K), a symbol.
        lettered = [t for t in self.jokers if t.isalpha()]
        pairs = "|".join(
            rf"{re.escape(t[0])}{sep}{re.escape(t[1])}" for t in lettered if len(t) == 2
        )
        joker_words = one_of(t for t in lettered if len(t) > 2)
        sizes = one_of((*LITTLE_WORDS, *BIG_WORDS))
        jokers = (
            rf"{start}(?:(?P<size>{sizes}){sep})?(?P<jw>{joker_words})s?{end}"
            rf"|{start}(?P<jp>{pairs}){end}"
            rf"|(?P<js>{one_of(t for t in self.jokers if t not in lettered)})"
        )
        # Every position is tried (a lookahead), so that a spelling let pass as a word hides
        # none that begins inside it.
        return re.compile(rf"(?=(?P<all>{words}|{short}|{jokers}|{glued}))", re.IGNORECASE)

    def cards(self, text: str) -> list[int]:
        """The cards a normalised line names, in order (see the module)."""
        out: list[int] = []
        reach = 0
        # A line that is only "as" (or "as!") is no sentence: it names the card.
        alone = re.sub(r"[\W_]+", "", text)
        for m in self.pattern.finditer(text):
            if m["all"] in _WORD_FORMS and m["all"] != alone:
                continue  # as, As, ah...: the word
            if m.end("all") <= reach:
                continue  # inside a spelling read already: the "joker" of "little joker"
            reach = m.end("all")
            out.extend(self._cards_of(m))
        return out

    def _rank(self, word: str) -> int:
        """The rank of a rank's word, or of its plural (kings, sixes)."""
        word = word.upper()
        for stem in (word, word[:-1], word[:-2]):
            if stem in self.rank_words:
                return self.rank_words[stem]
        raise AssertionError(word)  # the pattern matched only these

    def _cards_of(self, m: re.Match[str]) -> list[int]:
        if m["r"] is not None:
            suit = self.suit_letters.get(m["s"].upper()) if m["s"] else self.suit_symbols[m["y"]]
            assert suit is not None
            return [suit * 13 + self.ranks[m["r"].upper()]]
        if m["wr"] is not None:
            word = m["wr"].upper()
            rank = self._rank(word) if word not in self.ranks else self.ranks[word]
            if m["ws"] is not None:
                suit = self.suit_words[m["ws"].upper()]
            elif m["wl"] is not None:
                suit = self.suit_letters[m["wl"].upper()]
            else:
                suit = self.suit_symbols[m["wy"]]
            return [suit * 13 + rank]
        if m["xr"] is not None:
            return [self.suit_symbols[m["xy"]] * 13 + self._rank(m["xr"])]
        if m["nr"] is not None:
            return [self.suit_words[m["ns"].upper()] * 13 + self._rank(m["nr"])]
        if m["gr"] is not None:
            return [self.suit_letters[m["gs"].upper()] * 13 + self.ranks[m["gr"].upper()]]
        if m["hr"] is not None:
            return [self.suit_symbols[m["hy"]] * 13 + self.ranks[m["hr"].upper()]]
        if m["ry"] is not None:
            return [self.suit_symbols[m["ry"]] * 13 + self.ranks[m["rr"].upper()]]
        if m["vs"] is not None:
            return [self.suit_words[m["vs"].upper()] * 13 + self._rank(m["vr"])]
        if m["jw"] is not None:
            size = (m["size"] or "").lower()
            if size in LITTLE_WORDS:
                return [LITTLE_JOKER]
            return [JOKER] if size in BIG_WORDS else [JOKER, LITTLE_JOKER]
        if m["jp"] is not None:
            return [self.jokers[re.sub(r"[^A-Z]", "", m["jp"].upper())]]
        return [self.jokers[m["js"]]]


@functools.cache
def _notation() -> _Notation:
    return _Notation()


def named_cards(text: str) -> list[int]:
    """The cards a line of text names, in order (see the module for how it is read):
    ``AS``, ``jc``, ``J-C``, ``ＪＣ``, ``jack of clubs``, ``10♦``, ``joker``...

    >>> from tricktable.cards import format_cards
    >>> format_cards(named_cards("I hold the j.c, the ten of diamonds and Q♠"))
    'JC TD QS'
    >>> named_cards("as I said, ah well: an ace, a spade, the jack")
    []
    """
    return _notation().cards(normalised(text))


__all__ = ["named_cards", "normalised"]
