// Phrases — the server's words as tokens — drawn as HTML and said as plain text.
//
// A phrase is a list of tokens: {t: "text", v, s?}, {t: "card", v: "QH"}, {t: "suit", v: "H"},
// {t: "seat", v: 2}. A card is drawn as its short form in its suit's colour, a seat as the
// seat's name; the plain form (for the live region) says a card's whole name.

import { html } from "./ui.js";
import { cardName, cardShort, isCard, suitColour, suitName, SUIT_GLYPHS } from "./cards.js";

const SUIT_LETTERS = { C: 1, D: 1, H: 1, S: 1 };

/**
 * A phrase with the engine's codes left in its text made words: a card code ("play JD") a
 * card token, the suit after "trump" ("trump C") a suit token. Older servers and some
 * presenters write an action's text as it is; a person should never read an engine code.
 */
export function tidy(words) {
  if (!Array.isArray(words)) return words;
  const out = [];
  for (const tok of words) {
    if (!tok || typeof tok !== "object" || tok.t !== "text" || typeof tok.v !== "string" || !/[A-Z2-9]/.test(tok.v)) {
      out.push(tok);
      continue;
    }
    const parts = tok.v.split(/(\s+)/);
    let buf = "";
    let prev = "";
    for (const part of parts) {
      const bare = part.replace(/[,.;:]$/, "");
      const tail = part.slice(bare.length);
      if (isCard(bare)) {
        if (buf) out.push({ ...tok, v: buf });
        out.push({ t: "card", v: bare }, ...(tail ? [{ t: "text", v: tail }] : []));
        buf = "";
      } else if (SUIT_LETTERS[bare] && /^trumps?$/i.test(prev)) {
        if (buf) out.push({ ...tok, v: buf });
        out.push({ t: "suit", v: bare }, ...(tail ? [{ t: "text", v: tail }] : []));
        buf = "";
      } else buf += part;
      if (part.trim()) prev = part.trim();
    }
    if (buf) out.push({ ...tok, v: buf });
  }
  return out;
}

/** An action's words: "trump C" reads "Trump: clubs", a card its card, the rest as said. */
export function actionWords(a) {
  if (!a) return [];
  const words = Array.isArray(a.words) && a.words.length ? a.words : [{ t: "text", v: String(a.text ?? a.action ?? "") }];
  const out = tidy(words);
  // A call that is only "trump" and a suit: said as the suit named trump.
  if (out.length === 2 && out[0].t === "text" && /^\s*trumps?\s*$/i.test(out[0].v) && out[1].t === "suit")
    return [{ t: "text", v: "Trump: " }, out[1]];
  return out;
}

/** A line of the server's text (a refusal's reason) with any card code said as words. */
export function sayCodes(text) {
  if (typeof text !== "string") return text;
  return text.replace(/\b([2-9TJQKA][CDHS]|J[KL])\b/g, (code) => cardName(code));
}

/** One phrase as Preact nodes; `names` maps seat numbers to names. */
export function Phrase({ words, names, skin }) {
  if (!Array.isArray(words)) return null;
  return tidy(words).map((tok, i) => {
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
  return tidy(words)
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
