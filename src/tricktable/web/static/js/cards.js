// Card faces drawn as SVG, in three skins; the names a screen reader says for a card.
//
// Every face is generated here from the card's record notation ("QH", "TS", "JK"): no image
// files, no font glyphs (a machine without a symbol font still shows the suits). A card is a
// 100 x 140 view box; the pips of 2..10 sit where a printed deck puts them.

export const SKINS = ["classic", "four-colour", "large-index"];

const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SINGULAR = { C: "club", D: "diamond", H: "heart", S: "spade" };
const RANK_INDEX = { T: "10" };

/** Whether `text` is a card in record notation. */
export function isCard(text) {
  return typeof text === "string" && /^([2-9TJQKA][CDHS]|J[KL])$/.test(text);
}

/** The spoken name of a card: "seven of hearts", "joker". */
export function cardName(code) {
  if (code === "JK") return "joker";
  if (code === "JL") return "little joker";
  const r = RANK_NAMES[code[0]];
  const s = SUIT_NAMES[code[1]];
  return r && s ? `${r} of ${s}` : code;
}

/** The spoken name of a suit: "hearts". */
export function suitName(suit) {
  return SUIT_NAMES[suit] || suit;
}

/** The short printed form of a card, "10♥", for text beside the faces. */
export function cardShort(code) {
  if (code === "JK") return "Joker";
  if (code === "JL") return "joker";
  return (RANK_INDEX[code[0]] || code[0]) + SUIT_GLYPHS[code[1]];
}

export const SUIT_GLYPHS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// Suit shapes in a 100 x 100 box, centred on (50, 50).
const SUIT_PATHS = {
  H: "M50 88C22 64 4 46 8 27C11 12 27 6 38 11C45 14 49 20 50 26C51 20 55 14 62 11C73 6 89 12 92 27C96 46 78 64 50 88Z",
  D: "M50 4L86 50L50 96L14 50Z",
  S: "M50 6C38 26 8 40 10 62C12 78 32 84 45 71C44 80 40 88 34 94H66C60 88 56 80 55 71C68 84 88 78 90 62C92 40 62 26 50 6Z",
  C: "M50 8A19 19 0 0 0 36 40A19 19 0 1 0 46 66C45 78 41 87 34 94H66C59 87 55 78 54 66A19 19 0 1 0 64 40A19 19 0 0 0 50 8Z",
};

const COLOURS = {
  classic: { C: "#1b1b1b", S: "#1b1b1b", H: "#c8102e", D: "#c8102e" },
  "four-colour": { C: "#137a2c", S: "#1b1b1b", H: "#c8102e", D: "#1457c4" },
  "large-index": { C: "#137a2c", S: "#1b1b1b", H: "#c8102e", D: "#1457c4" },
};

/** The colour a suit is drawn in, in `skin`. */
export function suitColour(suit, skin = "classic") {
  return (COLOURS[skin] || COLOURS.classic)[suit] || "#1b1b1b";
}

// Where the pips of 2..10 go: [x, y] in the card's 100 x 140 box (y > 70 is drawn upside down).
const L = 30, C = 50, R = 70;
const PIPS = {
  2: [[C, 28], [C, 112]],
  3: [[C, 28], [C, 70], [C, 112]],
  4: [[L, 28], [R, 28], [L, 112], [R, 112]],
  5: [[L, 28], [R, 28], [C, 70], [L, 112], [R, 112]],
  6: [[L, 28], [R, 28], [L, 70], [R, 70], [L, 112], [R, 112]],
  7: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [L, 112], [R, 112]],
  8: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [C, 91], [L, 112], [R, 112]],
  9: [[L, 28], [R, 28], [L, 56], [R, 56], [C, 70], [L, 84], [R, 84], [L, 112], [R, 112]],
  T: [[L, 28], [R, 28], [C, 42], [L, 56], [R, 56], [L, 84], [R, 84], [C, 98], [L, 112], [R, 112]],
};

function suitShape(suit, x, y, size, colour, flip = false) {
  const k = size / 100;
  const turn = flip ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATHS[suit]}" fill="${colour}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${k})${turn}"/>`;
}

function frame(inner, fill = "#fffdf7") {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="${fill}" stroke="#9a9a9a" stroke-width="1.5"/>` +
    inner +
    `</svg>`
  );
}

function corner(rankText, suit, colour, big) {
  const fs = big ? 34 : 19;
  const font = `font-family="Georgia, 'DejaVu Serif', serif" font-weight="700"`;
  const wide = rankText.length > 1;
  const x = big ? (wide ? 27 : 20) : wide ? 13 : 11;
  const top =
    `<text x="${x}" y="${big ? 33 : 21}" font-size="${fs}" ${font} fill="${colour}" text-anchor="middle"` +
    (wide ? ` textLength="${big ? 44 : 20}" lengthAdjust="spacingAndGlyphs"` : "") +
    `>${rankText}</text>` +
    suitShape(suit, x, big ? 52 : 32, big ? 26 : 13, colour);
  if (big) return top;
  return top + `<g transform="rotate(180 50 70)">${top}</g>`;
}

function courtPanel(rank, suit, colour) {
  // A court card: a framed panel with the letter and the suit, the two halves mirrored.
  const half =
    `<text x="50" y="66" font-size="40" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" ` +
    `fill="${colour}" text-anchor="middle">${rank}</text>` +
    suitShape(suit, 30, 40, 16, colour);
  return (
    `<rect x="22" y="20" width="56" height="100" rx="4" fill="#f4ead0" stroke="${colour}" stroke-width="1.5"/>` +
    `<line x1="22" y1="70" x2="78" y2="70" stroke="${colour}" stroke-width="0.8" stroke-dasharray="3 2"/>` +
    half +
    `<g transform="rotate(180 50 70)">${half}</g>`
  );
}

function jokerFace(code, skin) {
  const colour = code === "JK" ? "#c8102e" : "#1b1b1b";
  const big = skin === "large-index";
  const word = big ? "" : `<text x="50" y="124" font-size="13" font-family="sans-serif" font-weight="700" fill="${colour}" text-anchor="middle" letter-spacing="2">JOKER</text>`;
  return frame(
    `<text x="${big ? 26 : 12}" y="${big ? 40 : 24}" font-size="${big ? 34 : 18}" font-family="sans-serif" font-weight="700" fill="${colour}" text-anchor="middle">J</text>` +
      `<circle cx="50" cy="${big ? 92 : 66}" r="${big ? 22 : 24}" fill="${colour}" opacity="0.12"/>` +
      `<path d="M30 ${big ? 92 : 66}l8-20 12 14 12-14 8 20z" fill="${colour}"/>` +
      `<circle cx="38" cy="${big ? 70 : 44}" r="3" fill="${colour}"/><circle cx="50" cy="${big ? 76 : 50}" r="3" fill="${colour}"/><circle cx="62" cy="${big ? 70 : 44}" r="3" fill="${colour}"/>` +
      word,
  );
}

const cache = new Map();

/** The SVG text of one card's face in `skin` ("classic", "four-colour", "large-index"). */
export function cardSvg(code, skin = "classic") {
  const key = skin + ":" + code;
  let svg = cache.get(key);
  if (svg) return svg;
  if (code === "JK" || code === "JL") svg = jokerFace(code, skin);
  else {
    const rank = code[0];
    const suit = code[1];
    const colour = suitColour(suit, skin);
    const rankText = RANK_INDEX[rank] || rank;
    if (skin === "large-index") {
      // For phones: the index fills the visible corner; one big suit below it.
      svg = frame(corner(rankText, suit, colour, true) + suitShape(suit, 60, 100, 50, colour));
    } else {
      let inner = corner(rankText, suit, colour, false);
      if (PIPS[rank]) {
        for (const [x, y] of PIPS[rank]) inner += suitShape(suit, x, y, 19, colour, y > 70);
      } else if (rank === "A") {
        inner += suitShape(suit, 50, 70, suit === "S" ? 52 : 40, colour);
      } else {
        inner += courtPanel(rank, suit, colour);
      }
      svg = frame(inner);
    }
  }
  cache.set(key, svg);
  return svg;
}

/** The SVG text of a card's back. */
export function backSvg() {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<defs><pattern id="tt-back" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="10" height="10" fill="#7a1d2e"/><rect width="5" height="10" fill="#8f2a3c"/></pattern></defs>` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf7" stroke="#9a9a9a" stroke-width="1.5"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#tt-back)"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#f1d9a6" stroke-width="1.5"/>` +
    `</svg>`
  );
}
