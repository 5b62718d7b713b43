// Phrases — the server's words as tokens — drawn as HTML and said as plain text.
//
// A phrase is a list of tokens: {t: "text", v, s?}, {t: "card", v: "QH"}, {t: "suit", v: "H"},
// {t: "seat", v: 2}. A card is drawn as its short form in its suit's colour, a seat as the
// seat's name; the plain form (for the live region) says a card's whole name.

import { html } from "./ui.js";
import { cardName, cardShort, suitColour, suitName, SUIT_GLYPHS } from "./cards.js";

/** One phrase as Preact nodes; `names` maps seat numbers to names. */
export function Phrase({ words, names, skin }) {
  if (!Array.isArray(words)) return null;
  return words.map((tok, i) => {
    if (!tok || typeof tok !== "object") return null;
    if (tok.t === "card") {
      const code = String(tok.v);
      const suit = code[1];
      return html`<span key=${i} class="w-card" style=${{ color: suitColour(suit, skin) }}
        aria-label=${cardName(code)}>${cardShort(code)}</span>`;
    }
    if (tok.t === "suit") {
      return html`<span key=${i} class="w-suit" style=${{ color: suitColour(tok.v, skin) }}
        aria-label=${suitName(tok.v)}>${SUIT_GLYPHS[tok.v] || tok.v}</span>`;
    }
    if (tok.t === "seat") {
      return html`<span key=${i} class="w-seat">${seatName(names, tok.v)}</span>`;
    }
    return html`<span key=${i} class=${tok.s ? "w-" + tok.s : null}>${String(tok.v ?? "")}</span>`;
  });
}

function seatName(names, seat) {
  return (names && names[seat]) || `seat ${Number(seat) + 1}`;
}

/** One phrase as plain text, cards and suits said in full ("queen of hearts"). */
export function plain(words, names) {
  if (!Array.isArray(words)) return typeof words === "string" ? words : "";
  return words
    .map((tok) => {
      if (!tok || typeof tok !== "object") return "";
      if (tok.t === "card") return cardName(String(tok.v));
      if (tok.t === "suit") return suitName(tok.v);
      if (tok.t === "seat") return seatName(names, tok.v);
      return String(tok.v ?? "");
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}
