// The table page: a felt with its seats, the trick, your hand, the score pad and the chat.
//
// It speaks only the wire of docs/protocol-web.md through wire.js; what it draws comes from the
// store (store.js): the server's snapshot, with queued events animated over it (anim.js).
// Every card and control is a <button> with a name a screen reader says ("seven of hearts",
// "bid 3", "pass"); a live region reads the play aloud.

import { html, render, useEffect, useRef, useState } from "./ui.js";
import { backSvg, cardName, cardShort, cardSvg, isCard, SKINS, suitColour } from "./cards.js";
import { actionWords, Phrase, plain, sayCodes } from "./words.js";
import { clone, SPECTATOR, Store } from "./store.js";
import { Animator } from "./anim.js";
import { Wire } from "./wire.js";
import { setSound, soundOn } from "./sound.js";
import { startReplay } from "./replay.js";
import { checkRecord } from "./fair.js";
import { myBots } from "./bots.js";

function loadSkin() {
  try {
    const s = localStorage.getItem("tt-skin");
    if (SKINS.includes(s)) return s;
  } catch (err) {
    /* default below */
  }
  return window.innerWidth < 520 ? "large-index" : "classic";
}

/** Where seat `seat` sits on the felt: the viewer at the bottom, the play going clockwise. */
export function seatAngle(seat, viewer, n) {
  const me = viewer >= 0 && viewer < n ? viewer : 0;
  const k = (((seat - me) % n) + n) % n;
  return Math.PI / 2 + (k * 2 * Math.PI) / n;
}

function avatarUrl(seat) {
  return `/api/avatar/${encodeURIComponent(seat.avatar || seat.name || "seat" + seat.seat)}.svg`;
}

//: the words under a seat's name for each kind (the server's: person, bot, character, open);
//: a person needs none. "remote" and "local" are older snapshots' words for a person.
const KIND_WORDS = { person: "", remote: "", local: "", bot: "bot", character: "character", open: "open seat", absent: "away — a bot plays" };

/** A seat's kind: the table's (TABLE_INFO, which knows an open seat), else the snapshot's. */
export function seatKind(seat, info) {
  const kind = (info && info.kind) || seat.kind || "person";
  return kind === "remote" || kind === "local" ? "person" : kind;
}

// ------------------------------------------------------------------------------- the parts

/** "1 trick", "0 tricks", "6 cards". */
export function countWords(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Seat names joined as a person says them: "Ann", "Ann and Basil", "Ann, Basil and Sid". */
export function nameList(names) {
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}

/** The names of the seats of sides `sides` (a side's number is its seats' `side`). */
export function sideNames(snap, sides) {
  const seats = (snap && snap.seats) || [];
  const count = (snap && snap.game && snap.game.sides) || seats.length || 1;
  const out = [];
  for (const side of sides || [])
    for (const s of seats) if ((s.side ?? s.seat % count) === side) out.push(s.name);
  return out;
}

/** Who won the match, in words: "Ann won the match", "Ann and Basil won the match". */
export function winnersLine(snap) {
  const names = sideNames(snap, snap && snap.winners);
  if (!names.length) return null;
  const you = names.some((n) => /^you$/i.test(n));
  const who = nameList(names.map((n) => (/^you$/i.test(n) ? "you" : n)));
  return (you && names.length === 1 ? "You" : who.charAt(0).toUpperCase() + who.slice(1)) + " won the match";
}

function Card({ code, skin, label, onPlay, legal, hinted, index, count, pressed, described }) {
  const fan = count > 1 ? (index - (count - 1) / 2) * Math.min(4, 36 / count) : 0;
  // A card of a choice of several is a toggle (aria-pressed); a card to play, a plain button.
  const toggle = pressed != null;
  return html`<button
    type="button"
    class=${"card hand-card" + (legal ? " legal" : "") + (hinted ? " hinted" : "") + (pressed ? " chosen" : "")}
    style=${{ "--fan": fan.toFixed(2), "--i": index }}
    aria-label=${label || cardName(code)}
    aria-disabled=${legal ? "false" : "true"}
    aria-pressed=${toggle ? (pressed ? "true" : "false") : null}
    aria-description=${described || null}
    data-card=${code}
    onClick=${() => legal && onPlay()}
    dangerouslySetInnerHTML=${{ __html: cardSvg(code, skin) }}
  ></button>`;
}

function Clock({ deadline }) {
  const [, setNow] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  return html`<span class=${"clock" + (left <= 10 ? " low" : "")} role="timer" aria-label=${`${left} seconds to move`}
    >${m}:${s}</span
  >`;
}

function Seat({ seat, snap, store, wire, n }) {
  const a = seatAngle(seat.seat, snap.viewer, n);
  const x = 50 + 44 * Math.cos(a);
  const y = 50 + 43 * Math.sin(a);
  const names = store.names(snap);
  const bubble = store.bubbles[seat.seat];
  const showBubble = bubble && bubble.until > Date.now();
  const clock = store.clock && store.clock.seat === seat.seat ? store.clock : null;
  const isMe = seat.seat === snap.viewer;
  const info = store.info && (store.info.seats || []).find((s) => s.seat === seat.seat);
  const away = !!(info && info.away);
  const seatKindNow = seatKind(seat, info);
  const kind = away ? KIND_WORDS.absent : KIND_WORDS[seatKindNow] ?? seatKindNow;
  const open = seatKindNow === "open";
  const you = store.info && store.info.you;
  const mine = isMe || (you && you.seat === seat.seat);
  const faceUp = ((snap.hand && snap.hand.shown) || {})[String(seat.seat)] || [];
  return html`<div
    class=${"seat k-" + seatKindNow + (seat.turn ? " turn" : "") + (away ? " away" : "") + (isMe ? " me" : "") + (y < 30 ? " top" : y > 70 ? " bottom" : "")}
    data-seat=${seat.seat}
    style=${{ left: `clamp(calc(var(--plate-w) / 2), ${x}%, calc(100% - var(--plate-w) / 2))`, top: y + "%" }}
    role="group"
    aria-label=${`${seat.name}${isMe ? " (you)" : ""}${seat.dealer ? ", dealer" : ""}${seat.turn ? ", to play" : ""}`}
  >
    <div class="plate">
      <img class="avatar" src=${avatarUrl(seat)} alt="" width="48" height="48" />
      <div class="who">
        <span class="name">${seat.name}${isMe && seat.name !== "you" ? " (you)" : ""}</span>
        ${kind ? html`<span class="kind">${kind}</span>` : null}
        <span class="counts">
          ${seat.dealer ? html`<span class="chip dealer" title="dealer">D</span>` : null}
          <span>${countWords(seat.tricks ?? 0, "trick")}${!isMe && typeof seat.cards_left === "number" ? "," : ""}</span>
          ${!isMe && typeof seat.cards_left === "number" ? html`<span>${countWords(seat.cards_left, "card")}</span>` : null}
        </span>
      </div>
      ${clock ? html`<${Clock} deadline=${clock.deadline} />` : null}
    </div>
    ${seat.last_call && seat.last_call.length
      ? html`<div class="call"><${Phrase} words=${seat.last_call} names=${names} /></div>`
      : null}
    ${showBubble ? html`<div class="bubble" aria-hidden="true">${bubble.text}</div>` : null}
    ${!isMe && faceUp.length
      ? // every hand face up (after the match, or a table no person plays): the cards themselves
        // as printed text ("A♥ 10♣"), in the suits' colours: a picture a card at a seat's size
        // (17 px) could not be read, on a phone least of all
        html`<div class="faces" role="list" aria-label=${`${seat.name}'s hand`}>
          ${faceUp.map((c) => html`<span key=${c} class="face" role="listitem" data-card=${c} aria-label=${cardName(c)}
            style=${{ color: suitColour(c[1]) }}>${cardShort(c)}</span>`)}
        </div>`
      : !isMe && typeof seat.cards_left === "number" && seat.cards_left > 0
      ? html`<div class="backs" aria-hidden="true">
          ${Array.from({ length: Math.min(seat.cards_left, 13) }, (_, i) =>
            html`<span key=${i} class="back" dangerouslySetInnerHTML=${{ __html: backSvg() }}></span>`,
          )}
        </div>`
      : null}
    ${open && snap.viewer === SPECTATOR && !store.replay
      ? html`<button type="button" class="sit" onClick=${() => wire.send("take_seat", { seat: seat.seat })}>
          Sit here
        </button>`
      : null}
    ${open && invites(store)
      ? html`<button type="button" class="sit invite-bot" aria-describedby=${"invite-label-" + seat.seat}
          onClick=${() => { const f = document.getElementById("invite-seat-" + seat.seat); if (f) f.focus(); }}>
          Invite a bot
        </button>`
      : null}
    ${away && mine
      ? html`<button type="button" class="sit" onClick=${() => wire.send("take_seat", { seat: seat.seat })}>
          Take my seat back
        </button>`
      : null}
  </div>`;
}

function Trick({ snap, n, skin }) {
  const hand = snap.hand || {};
  const trick = hand.trick || [];
  const names = {};
  for (const s of snap.seats || []) names[s.seat] = s.name;
  const slots = (snap.seats || []).map((s) => {
    const a = seatAngle(s.seat, snap.viewer, n);
    // How far from the centre: the sheet's (narrower on a phone, clear of the seats' plates).
    const x = `calc(50% + ${Math.cos(a).toFixed(4)} * var(--trick-rx))`;
    const y = `calc(50% + ${Math.sin(a).toFixed(4)} * var(--trick-ry))`;
    const played = trick.find((t) => t.seat === s.seat);
    return html`<div key=${s.seat} class="trick-slot" data-seat=${s.seat} style=${{ left: x, top: y }}>
      ${played
        ? html`<div
            class=${"card trick-card" + (hand.winning === s.seat ? " winning" : "")}
            data-card=${played.card}
            role="img"
            aria-label=${`${names[s.seat] || "seat " + (s.seat + 1)}: ${cardName(played.card)}${hand.winning === s.seat ? ", winning" : ""}`}
            dangerouslySetInnerHTML=${{ __html: cardSvg(played.card, skin) }}
          ></div>`
        : null}
    </div>`;
  });
  return html`<div class="trick" aria-label="The trick">${slots}</div>`;
}

function Centre({ snap, skin }) {
  const hand = snap.hand || {};
  const names = {};
  for (const s of snap.seats || []) names[s.seat] = s.name;
  return html`<div class="centre">
    ${hand.trump
      ? html`<div class="trump" aria-label=${"trump: " + plain([{ t: "suit", v: hand.trump }])}>
          <span class="label">Trump</span>
          <${Phrase} words=${[{ t: "suit", v: hand.trump }]} skin=${skin} />
        </div>`
      : null}
    ${hand.contract && hand.contract.length
      ? html`<div class="contract"><${Phrase} words=${hand.contract} names=${names} skin=${skin} /></div>`
      : (hand.situation || []).slice(0, 1).map(
          (p, i) => html`<div key=${i} class="situation"><${Phrase} words=${p} names=${names} skin=${skin} /></div>`,
        )}
  </div>`;
}

// Whether two phrases say the same (a fact that repeats the contract is shown once). The
// score line the terminals print is not drawn: the pad's table says it.
function sameWords(a, b) {
  return Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The hand's facts as sentences: the generic facts' "high bid 2" and "high bidder Vinnie"
 * said once as "Vinnie bid 2".
 */
export function factSentences(facts) {
  const out = (facts || []).filter((p) => Array.isArray(p) && p.length);
  const text = (p) => plain(p, {}).toLowerCase();
  const who = out.findIndex((p) => /^high bidder\b/.test(text(p)) && p.some((t) => t && t.t === "seat"));
  const bid = out.findIndex((p) => /^high bid\s/.test(text(p)));
  if (who < 0 || bid < 0) return out;
  const seat = out[who].find((t) => t && t.t === "seat");
  const rest = tidyBid(out[bid]);
  const line = [seat, { t: "text", v: " bid " }, ...rest];
  const merged = out.slice();
  merged[Math.min(who, bid)] = line;
  merged.splice(Math.max(who, bid), 1);
  return merged;
}

// A "high bid 2" phrase less its "high bid " words.
function tidyBid(p) {
  const out = p.map((t) => ({ ...t }));
  for (const t of out) {
    if (t.t !== "text") continue;
    const before = String(t.v);
    t.v = before.replace(/^\s*high bid\s*/i, "");
    if (t.v !== before || before.trim()) break;
  }
  return out.filter((t) => t.t !== "text" || t.v !== "");
}

/** A seat's last call as a sentence: "Edna bid 3", "Edna passed". */
function callWords(seat) {
  const words = seat.last_call || [];
  if (words.length === 1 && words[0].t === "text" && String(words[0].v).trim() === "pass")
    return [{ t: "seat", v: seat.seat }, { t: "text", v: " passed" }];
  return [{ t: "seat", v: seat.seat }, { t: "text", v: " " }, ...words];
}

function ScorePad({ snap, store, skin }) {
  const names = store.names(snap);
  const sides = snap.game ? snap.game.sides || (snap.scores || []).length : (snap.scores || []).length;
  const rows = [];
  for (let side = 0; side < sides; side++) {
    const members = (snap.seats || []).filter((s) => (s.side ?? s.seat % sides) === side).map((s) => s.name);
    rows.push(html`<tr key=${side}>
      <th scope="row">${members.join(" & ") || "side " + (side + 1)}</th>
      <td>${(snap.scores || [])[side] ?? 0}</td>
    </tr>`);
  }
  const hand = snap.hand || {};
  return html`<section class="panel scorepad" aria-label="Score pad">
    <h2>Score${snap.game && snap.game.target ? html` <small>to ${snap.game.target}</small>` : null}</h2>
    ${(snap.scores || []).length
      ? html`<table>
          <tbody>
            ${rows}
          </tbody>
        </table>`
      : null}
    <h3>Hand ${hand.number ?? ""} ${hand.phase ? html`<small>· ${hand.phase}</small>` : null}</h3>
    ${hand.contract && hand.contract.length
      ? html`<p>Contract: <${Phrase} words=${hand.contract} names=${names} skin=${skin} /></p>`
      : null}
    ${hand.trump ? html`<p>Trump: <${Phrase} words=${[{ t: "suit", v: hand.trump }]} skin=${skin} /></p>` : null}
    <ul class="calls">
      ${(snap.seats || [])
        .filter((s) => s.last_call && s.last_call.length)
        .map((s) => html`<li key=${s.seat}><${Phrase} words=${callWords(s)} names=${names} skin=${skin} /></li>`)}
    </ul>
    ${(hand.tally || []).length
      ? html`<div class="tally" aria-label="This hand so far">
          ${hand.tally.map((p, i) => html`<p key=${i}><${Phrase} words=${p} names=${names} skin=${skin} /></p>`)}
        </div>`
      : null}
    ${factSentences(hand.facts).filter((p) => !sameWords(p, hand.contract)).map((p, i) => html`<p key=${"f" + i} class="fact"><${Phrase} words=${p} names=${names} skin=${skin} /></p>`)}
    ${hand.last_trick && hand.last_trick.cards && hand.last_trick.cards.length
      ? html`<p class="last-trick">
          Last trick (${names[hand.last_trick.winner] ?? "?"}):${" "}
          ${hand.last_trick.cards.map((c, i) => html`<${Phrase} key=${i} words=${[{ t: "card", v: c.card }, { t: "text", v: " " }]} skin=${skin} />`)}
        </p>`
      : null}
    ${store.summaries.length
      ? html`<details class="history">
          <summary>Hands played (${store.summaries.length})</summary>
          ${store.summaries.map(
            (s) => html`<div key=${s.number} class="hand-summary">
              <h4>Hand ${s.number}</h4>
              ${s.words.map((p, i) => html`<p key=${i}><${Phrase} words=${p} names=${names} skin=${skin} /></p>`)}
            </div>`,
          )}
        </details>`
      : null}
  </section>`;
}

//: the most characters a chat line holds (the server's chat.rules.MAX_CHAT: it cuts a longer
//: line with an ellipsis)
const CHAT_LIMIT = 200;

/** Whether a chat line is one the server cut at the limit (it ends "…" at the limit). */
function cutLine(text) {
  return typeof text === "string" && text.length >= CHAT_LIMIT - 1 && text.endsWith("…");
}

function Chat({ store, wire }) {
  const [text, setText] = useState("");
  const list = useRef(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  });
  const send = (e) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    wire.send("chat", { text: t });
    setText("");
  };
  return html`<section class="panel chat" aria-label="Table chat">
    <h2>Chat</h2>
    <ol class="messages" ref=${list}>
      ${store.chat.map(
        (m, i) => html`<li key=${i} class=${m.kind ? "k-" + m.kind : null}><b>${m.name}</b> ${m.text}${
          cutLine(m.text) ? html` <span class="cut">(cut: a line holds ${CHAT_LIMIT} characters)</span>` : null
        }</li>`,
      )}
    </ol>
    <form onSubmit=${send}>
      <label class="sr-only" for="chat-text">Message</label>
      <input id="chat-text" name="text" autocomplete="off" maxlength=${CHAT_LIMIT} value=${text}
        aria-describedby=${text.length >= CHAT_LIMIT - 20 ? "chat-limit" : null}
        onInput=${(e) => setText(e.currentTarget.value)} placeholder="Say something" />
      <button type="submit">Send</button>
      ${text.length >= CHAT_LIMIT - 20
        ? html`<p id="chat-limit" class="limit">${text.length} of ${CHAT_LIMIT} characters: a line holds no more</p>`
        : null}
    </form>
  </section>`;
}

// Re-deal the match's record from its revealed seed, here in the page (js/fair.js).
function FairCheck({ record, store, info }) {
  const [said, setSaid] = useState(null);
  const check = async () => {
    setSaid({ ok: null, lines: ["Checking the deals…"] });
    try {
      const answer = await fetch(record, { credentials: "same-origin" });
      if (!answer.ok) throw new Error(`the record could not be fetched (${answer.status})`);
      const committed = store.committed && store.committed.match === info.match
        ? store.committed.digest : info.commitment;
      setSaid(await checkRecord(await answer.text(), committed, info.dealing || {}));
    } catch (e) {
      setSaid({ ok: false, reason: String(e.message || e) });
    }
  };
  return html`<div class="fair-check">
    <button type="button" onClick=${check}>Check the deals</button>
    <p role="status" class=${said && said.ok === false ? "fair-bad" : "fair-good"}>
      ${said == null ? null
        : said.ok === false ? `Not verified: ${said.reason}.`
        : said.ok ? `Verified. ${said.lines.join(" ")}` : said.lines.join(" ")}
    </p>
  </div>`;
}

function Summary({ store, snap, tableId, skin, wire }) {
  const names = store.names(snap);
  const open = store.summaries.filter((s) => s.open);
  const last = open[open.length - 1];
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current) ref.current.focus({ preventScroll: true });
  }, [last && last.number, !!store.matchOver]);
  const ended = store.overClosed ? null : store.matchOver || (snap.over ? { match: null, words: [] } : null);
  const night = (store.info || {}).league;
  if (night && (store.info || {}).status === "over" && !store.overClosed && !store.replay) {
    // A league night's table has played its deals: no match was won here, and nothing of the
    // night is shown until every table has ended and the night is scored.
    const close = () => {
      store.overClosed = true;
      for (const s of store.summaries) s.open = false;
      store.changed();
    };
    return html`<div class="summary" role="dialog" aria-labelledby="summary-title"
      onKeyDown=${(e) => e.key === "Escape" && close()}>
      <h2 id="summary-title">Your table's deals are played</h2>
      ${last ? last.words.map((p, i) => html`<p key=${"s" + i}><${Phrase} words=${p} names=${names} skin=${skin} /></p>`) : null}
      <p>This table has played the night's ${night.deals} ${night.deals === 1 ? "deal" : "deals"}.
        ${night.scored
          ? "The night is scored: its standings, records and replays are on the league's page."
          : "The standings come when every table of the night has ended."}</p>
      <p class="links">
        <a ref=${ref} href=${`/leagues/${encodeURIComponent(night.league)}`}>The league's page</a>
        <a href="/">Back to the lobby</a>
      </p>
      <p class="row-buttons"><button type="button" onClick=${close}>Close</button></p>
    </div>`;
  }
  if (ended && !store.replay) {
    const query = ended.match != null ? `?match=${ended.match}` : "";
    const record = `/api/tables/${encodeURIComponent(tableId)}/record${query}`;
    const info = store.info || {};
    const close = () => {
      store.overClosed = true;
      for (const s of store.summaries) s.open = false;
      store.changed();
    };
    return html`<div class="summary" role="dialog" aria-labelledby="summary-title"
      onKeyDown=${(e) => e.key === "Escape" && close()}>
      <h2 id="summary-title">The match is over</h2>
      ${winnersLine(snap) ? html`<p class="winners"><strong>${winnersLine(snap)}</strong></p>` : null}
      ${ended.words && ended.words.length ? html`<p><${Phrase} words=${ended.words} names=${names} skin=${skin} /></p>` : null}
      ${(snap.score_line || []).map((p, i) => html`<p key=${i}><${Phrase} words=${p} names=${names} skin=${skin} /></p>`)}
      ${last ? last.words.map((p, i) => html`<p key=${"s" + i}><${Phrase} words=${p} names=${names} skin=${skin} /></p>`) : null}
      ${info.commitment
        ? html`<p class="fair">Fair deals: the seed was committed before the deal
            (SHA-256 <code>${info.commitment.slice(0, 16)}…</code>); the record carries it
            for${" "}<code>tricktable verify</code>.</p>
            <${FairCheck} record=${record} store=${store} info=${info} />`
        : null}
      <p class="links">
        <a ref=${ref} href=${record} download>Download the record</a>
        <a href=${`/t/${encodeURIComponent(tableId)}?replay=1${ended.match != null ? "&match=" + ended.match : ""}`}>Watch the replay</a>
        <a href="/">Back to the lobby</a>
      </p>
      <p class="row-buttons">
        ${snap.viewer !== SPECTATOR && info.status === "over"
          ? html`<button type="button" onClick=${() => { close(); wire.send("again", {}); }}>Play again</button>`
          : null}
        <button type="button" onClick=${close}>Close</button>
      </p>
    </div>`;
  }
  if (!last) return null;
  const close = () => {
    for (const s of store.summaries) s.open = false;
    // the server holds this person's next clock while the summary is open (up to the
    // table's summary_seconds): closed, it runs from now
    if (snap.viewer !== SPECTATOR) wire.send("continue", {});
    store.handFocus = true;
    store.changed();
    if (!focusHand()) {
      const first = document.querySelector(".actions button");
      if (first) first.focus();
    }
  };
  return html`<div class="summary" role="dialog" aria-labelledby="summary-title"
    onKeyDown=${(e) => e.key === "Escape" && close()}>
    <h2 id="summary-title">Hand ${last.number}</h2>
    ${last.words.map((p, i) => html`<p key=${i}><${Phrase} words=${p} names=${names} skin=${skin} /></p>`)}
    <button type="button" ref=${ref} onClick=${close}>Continue</button>
  </div>`;
}

/** Whether this viewer may invite bots: the table's creator, the table still waiting. */
function invites(store) {
  const info = store.info;
  return !store.replay && !!info && store.userId != null && info.creator === store.userId && info.status === "waiting";
}

let invited = 0;

/** Seat an account's bot at the open seat `seat` (docs/protocol-web.md, `invite`); the
 * answer (a `table` or the refusal's `error`) carries the id, so it comes back to the form. */
function sendInvite(store, wire, seat, bot) {
  invited += 1;
  const id = `inv-${invited}`;
  store.invites = { ...(store.invites || {}), [id]: seat };
  store.inviteErrors = { ...(store.inviteErrors || {}), [seat]: null };
  wire.raw({ type: "invite", table: wire.table, v: null, id, data: { seat, bot } });
  store.changed();
}

/** The creator's "Invite a bot" form for each open seat of a waiting table: a bot's name
 * (their own bots offered in a list; another account's bot typed) and its button. */
function InviteBots({ store, wire, snap }) {
  const [mine, setMine] = useState([]);
  const [names, setNames] = useState({});
  useEffect(() => {
    // a guest has none (and is not asked): the field takes any account's bot by name
    if (store.account) myBots().then(setMine, () => setMine([]));
  }, []);
  const info = store.info || {};
  const open = (snap.seats || []).filter((s) => seatKind(s, (info.seats || []).find((i) => i.seat === s.seat)) === "open");
  if (!open.length) return null;
  return html`<section class="invite-bots" aria-labelledby="invite-bots-title">
    <h2 id="invite-bots-title">Invite a bot</h2>
    <p class="quiet">A bot of yours or of another account, by its name. A bot that connects must be running first.</p>
    <datalist id="my-bots">
      ${mine.map((b) => html`<option key=${b.name} value=${b.name}>${b.kind === "http" ? "web service" : "connects"}</option>`)}
    </datalist>
    ${open.map((s) => {
      const error = (store.inviteErrors || {})[s.seat];
      const go = (e) => {
        e.preventDefault();
        const bot = (names[s.seat] || "").trim();
        if (bot) sendInvite(store, wire, s.seat, bot);
      };
      // the seat as its plate on the felt names it (an open seat's name is the server's)
      return html`<form key=${s.seat} class="invite-seat" onSubmit=${go} aria-label=${`Invite a bot to ${s.name}`}>
        <label id=${"invite-label-" + s.seat} for=${"invite-seat-" + s.seat}>Bot for ${s.name}</label>
        <input id=${"invite-seat-" + s.seat} type="text" list="my-bots" required maxlength="40" autocomplete="off"
          value=${names[s.seat] || ""} onInput=${(e) => setNames({ ...names, [s.seat]: e.currentTarget.value })} />
        <button type="submit">Invite</button>
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      </form>`;
    })}
  </section>`;
}

function Join({ store }) {
  const [name, setName] = useState("");
  const [error, setError] = useState(null);
  const go = async (e) => {
    e.preventDefault();
    setError(null);
    const r = await fetch("/api/guest", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ name: name.trim() }),
    });
    if (r.ok) store.join();
    else setError(((await r.json().catch(() => ({}))).error) || `${r.status} ${r.statusText}`);
  };
  return html`<main class="lobby">
    <section class="panel wide" aria-labelledby="join-title">
      <h2 id="join-title">You are invited to a table</h2>
      <form onSubmit=${go}>
        <label for="join-name">Your name</label>
        <input id="join-name" type="text" required maxlength="40" autocomplete="nickname" value=${name}
          onInput=${(e) => setName(e.currentTarget.value)} />
        <button class="go" type="submit">Join the table</button>
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      </form>
    </section>
  </main>`;
}

// ------------------------------------------------------------------------------- a choice of cards

/** The cards chosen so far for `choice` (kept in the store: a refusal keeps the selection). */
function chosenFor(store, choice, hand) {
  const key = `${hand.number ?? ""}:${choice.verb}:${choice.min}-${choice.max}:${choice.cards.join(",")}`;
  if (!store.chosen || store.chosen.key !== key) store.chosen = { key, cards: [] };
  const kept = store.chosen.cards.filter((c) => choice.cards.includes(c));
  store.chosen.cards.splice(0, store.chosen.cards.length, ...kept);
  return store.chosen.cards;
}

/** Whether `picked` may be confirmed: between min and max cards and, if `sets`, one of them. */
export function choiceAllowed(choice, picked) {
  const k = picked.length;
  if (k < choice.min || k > choice.max) return false;
  if (!choice.confirm || !choice.confirm[String(k)]) return false;
  if (Array.isArray(choice.sets)) {
    const mine = picked.slice().sort().join(",");
    return choice.sets.some((set) => set.slice().sort().join(",") === mine);
  }
  return true;
}

/** The counter's words: "2 of 3 chosen", "4 chosen (up to 6)". */
function chosenWords(choice, k) {
  if (choice.min === choice.max) return `${k} of ${choice.max} chosen`;
  return `${k} chosen (${choice.min ? choice.min + " to " : "up to "}${choice.max})`;
}

/** The confirm button's words when the count is not one it allows ("Pass these three"). */
function confirmWords(choice) {
  const words = Object.values(choice.confirm || {});
  return words.length ? words[words.length - 1] : "Confirm";
}

function newId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return "a" + Date.now().toString(36) + Math.random().toString(36).slice(2);
}

/** Send a choice of cards: an `act` whose data is `{cards}`, sent again after a reconnection
 * until answered, as wire.act sends one action. */
function actCards(wire, cards) {
  if (typeof wire.actCards === "function") return wire.actCards(cards);
  const id = newId();
  const env = { type: "act", table: wire.table, v: wire.version(), id, data: { cards } };
  wire.pending.set(id, env);
  wire.raw(env);
  return id;
}

/** Put the focus back on the hand (after a card is played, a choice made, Continue). */
export function focusHand() {
  const hand = document.querySelector(".hand");
  if (!hand) return false;
  const el =
    hand.querySelector('.hand-card[aria-disabled="false"]') || hand.querySelector(".hand-card") || hand;
  el.focus({ preventScroll: true });
  return true;
}

function moveFocus(e, selector) {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight" && e.key !== "Home" && e.key !== "End") return;
  const items = Array.from(e.currentTarget.querySelectorAll(selector));
  const at = items.indexOf(document.activeElement);
  if (at < 0) return;
  let to = at;
  if (e.key === "ArrowLeft") to = Math.max(0, at - 1);
  if (e.key === "ArrowRight") to = Math.min(items.length - 1, at + 1);
  if (e.key === "Home") to = 0;
  if (e.key === "End") to = items.length - 1;
  items[to].focus();
  e.preventDefault();
}

function App({ store, wire, animator, tableId }) {
  const [, setTick] = useState(0);
  const [skin, setSkinState] = useState(loadSkin);
  const [sound, setSoundState] = useState(soundOn);
  useEffect(() => {
    // This effect runs after the first frame: the snapshot may already be in (a loaded
    // machine), and a change made before the subscription would never be drawn.
    const off = store.subscribe(setTick);
    setTick(store.tick);
    return off;
  }, []);
  useEffect(() => {
    // Focus that leaves the hand for another control ends "keep the focus on the hand".
    const away = (e) => {
      if (e.target && e.target.closest && !e.target.closest(".hand, .choice")) store.handFocus = false;
    };
    document.addEventListener("focusin", away);
    return () => document.removeEventListener("focusin", away);
  }, []);
  useEffect(() => {
    // A card played (or chosen) leaves the hand: the focus stays on the hand, not the page.
    const at = document.activeElement;
    if (store.handFocus && (!at || at === document.body || !at.isConnected)) focusHand();
  });
  useEffect(() => {
    animator.getSkin = () => skin;
  }, [skin]);
  const snap = store.shown;
  const header = html`<header class="bar">
    <a class="home" href="/">tricktable</a>
    <span class="title">${snap && snap.game ? snap.game.title : "Table"}${store.replay ? " — replay" : ""}</span>
    <span class=${"status " + store.status} role="status" hidden=${!!store.replay}>${store.status === "open" ? "connected" : store.status === "closed" ? "reconnecting…" : "connecting…"}</span>
    <label class="skin">Cards
      <select value=${skin} onChange=${(e) => {
        const s = e.currentTarget.value;
        setSkinState(s);
        try { localStorage.setItem("tt-skin", s); } catch (err) { /* this page only */ }
      }}>
        ${SKINS.map((s) => html`<option key=${s} value=${s}>${s}</option>`)}
      </select>
    </label>
    ${store.replayer
      ? html`<button type="button" class="pause" aria-pressed=${store.replayer.paused ? "true" : "false"}
          onClick=${() => store.replayer.toggle()}>${store.replayer.paused ? "Play" : "Pause"}</button>`
      : null}
    ${!store.replay && store.userId != null && store.info && store.info.creator === store.userId && store.info.status !== "closed"
      ? html`<button type="button" class="close-table"
          onClick=${() => { if (window.confirm("Close this table for everyone? Its match stops where it is.")) wire.send("close_table", {}); }}>Close table</button>`
      : null}
    <button type="button" class="sound" aria-pressed=${sound ? "true" : "false"}
      onClick=${() => { setSound(!sound); setSoundState(!sound); }}>
      ${sound ? "Sound on" : "Sound off"}
    </button>
  </header>`;
  const live = html`<div id="live" class="sr-only" role="log" aria-live="polite" aria-label="The play">
    ${store.said.map((l) => html`<p key=${l.id}>${l.text}</p>`)}
  </div>`;
  if (store.join) return html`${header}<${Join} store=${store} />${live}`;
  if (!snap) {
    return html`${header}<main class="loading"><p>Finding the table…</p>${store.notice ? html`<p class="notice">${store.notice}</p>` : null}</main>${live}`;
  }
  const n = (snap.seats || []).length || (snap.game && snap.game.seats) || 4;
  const hand = snap.hand || {};
  // A tab whose seat another tab took over, and a replay, show no live controls.
  const active = !store.takenOver && !store.replay;
  const legal = active ? snap.legal || [] : [];
  const decision = active ? snap.decision || null : null;
  const choice = decision && decision.kind === "cards" ? decision : null;
  const cards = hand.cards || [];
  const cardActs = {};
  const others = [];
  for (const a of legal) {
    const code = isCard(a.text)
      ? a.text
      : a.words && a.words.length === 1 && a.words[0].t === "card"
        ? a.words[0].v
        : null;
    if (code && cards.includes(code)) cardActs[code] = a;
    else others.push(a);
  }
  const names = store.names(snap);
  const play = (a) => {
    wire.act(a.action ?? a.text);
    store.hint = null;
    store.handFocus = !!document.activeElement && !!document.activeElement.closest(".hand");
    // No optimistic move: the page waits for the server's confirmation.
    store.shown = clone(store.shown);
    store.shown.legal = [];
    store.shown.decision = null;
    store.changed();
  };
  const me = (snap.seats || []).find((s) => s.seat === snap.viewer);
  const myTurn = active && (legal.length > 0 || !!decision);
  const hinted = store.hint;
  const isHinted = (a) => hinted && (hinted.action === a.action || (hinted.text != null && hinted.text === a.text));
  // A choice of several cards: the hand's eligible cards are toggles, one confirm button.
  const picked = choice ? chosenFor(store, choice, hand) : null;
  const pickOk = picked ? choiceAllowed(choice, picked) : false;
  const toggle = (code) => {
    const at = picked.indexOf(code);
    if (at >= 0) picked.splice(at, 1);
    else if (picked.length < choice.max) picked.push(code);
    else if (choice.max === 1) picked.splice(0, 1, code);
    else {
      store.notice = `You have chosen ${choice.max} already: unchoose one first`;
      store.say(store.notice);
    }
    store.changed();
  };
  const confirm = () => {
    if (!pickOk) return;
    const order = cards.filter((c) => picked.includes(c));
    actCards(wire, order);
    store.hint = null;
    store.notice = null;
    store.handFocus = true;
    store.say(`${choice.confirm[String(order.length)] || "Chosen"}: ${order.map(cardName).join(", ")}`);
    store.shown = clone(store.shown);
    store.shown.legal = [];
    store.shown.decision = null;
    store.changed();
  };
  const oneCount = picked ? picked.length : 0;
  return html`${header}
    <main class=${"table-page seats-" + n}>
      <section class="play-area">
        <div class="felt" role="region" aria-label=${`The table, ${n} seats`}>
          ${(snap.seats || []).filter((s) => s.seat !== snap.viewer).map((s) => html`<${Seat} key=${s.seat} seat=${s} snap=${snap} store=${store} wire=${wire} n=${n} />`)}
          <${Centre} snap=${snap} skin=${skin} />
          <${Trick} snap=${snap} n=${n} skin=${skin} />
          ${me ? html`<${Seat} key=${me.seat} seat=${me} snap=${snap} store=${store} wire=${wire} n=${n} />` : null}
        </div>
        <div class="turn-line">
          ${myTurn && choice ? "Your turn" : myTurn ? (decision && decision.prompt ? html`Your turn: <${Phrase} words=${decision.prompt} names=${names} skin=${skin} />` : "Your turn") : snap.over ? "Match over" : ""}
          ${store.notice ? html`<span class="notice" role="alert">${store.notice}</span>` : null}
          ${store.takenOver
            ? html`<button type="button" onClick=${() => { store.takenOver = false; store.notice = null; wire.hello(); }}>Play here</button>`
            : null}
        </div>
        ${invites(store) ? html`<${InviteBots} store=${store} wire=${wire} snap=${snap} />` : null}
        ${choice
          ? html`<section class="choice" aria-labelledby="choice-title">
              <h2 id="choice-title"><${Phrase} words=${choice.prompt} names=${names} skin=${skin} /></h2>
              <p class="choice-count" aria-live="polite">${chosenWords(choice, oneCount)}</p>
              <button type="button" class="confirm" disabled=${!pickOk} onClick=${confirm}>
                ${choice.confirm[String(oneCount)] || confirmWords(choice)}
              </button>
              <button type="button" class="hint" onClick=${() => wire.send("hint", {})}>Hint</button>
            </section>`
          : null}
        ${!choice && (others.length || (myTurn && !snap.over))
          ? html`<div class="actions" role="group" aria-label="Your call" onKeyDown=${(e) => moveFocus(e, "button")}>
              ${others.map(
                (a) => html`<button key=${String(a.action)} type="button" class=${isHinted(a) ? "hinted" : null}
                  aria-label=${(plain(actionWords(a), names) || a.label || a.text).replace(/(\w)-(\w)/g, "$1 $2")}
                  onClick=${() => play(a)}><${Phrase} words=${actionWords(a)} names=${names} skin=${skin} /></button>`,
              )}
              ${myTurn ? html`<button type="button" class="hint" onClick=${() => wire.send("hint", {})}>Hint</button>` : null}
            </div>`
          : null}
        ${snap.viewer !== SPECTATOR
          ? html`<div class="hand" role="group" tabindex="-1" aria-label=${`Your hand, ${cards.length} cards`}
              onKeyDown=${(e) => moveFocus(e, ".hand-card")}>
              ${cards.map((c, i) => {
                if (choice) {
                  const can = choice.cards.includes(c);
                  const on = picked.includes(c);
                  const hint = store.hint && (store.hint.cards || []).includes(c);
                  return html`<${Card} key=${c} code=${c} skin=${skin} index=${i} count=${cards.length}
                    legal=${can} hinted=${hint} label=${cardName(c)} pressed=${can ? on : null}
                    described=${on ? `chosen, ${picked.length} of ${choice.max}` : null}
                    onPlay=${() => toggle(c)} />`;
                }
                const a = cardActs[c];
                return html`<${Card} key=${c} code=${c} skin=${skin} index=${i} count=${cards.length}
                  legal=${!!a} hinted=${a && isHinted(a)} label=${cardName(c)} onPlay=${() => play(a)} />`;
              })}
            </div>`
          : html`<p class="watching">You are watching. ${(snap.seats || []).some((s) => seatKind(s, store.info && (store.info.seats || []).find((i) => i.seat === s.seat)) === "open") ? "Take an open seat to play." : ""}</p>`}
        ${me && snap.viewer !== SPECTATOR && !snap.over && active
          ? html`<p class="seat-tools"><button type="button" class="leave" onClick=${() => wire.send("leave_seat", {})}>Leave seat</button>
              <span class="invite">Invite: <a href=${location.origin + "/t/" + encodeURIComponent(tableId)}>${location.origin + "/t/" + tableId}</a></span></p>`
          : null}
      </section>
      <aside class="side">
        <${ScorePad} snap=${snap} store=${store} skin=${skin} />
        ${store.replay ? null : html`<${Chat} store=${store} wire=${wire} />`}
      </aside>
      <${Summary} store=${store} snap=${snap} tableId=${tableId} skin=${skin} wire=${wire} />
    </main>
    ${live}`;
}

// ------------------------------------------------------------------------------- start

/** Start the table page in `root` for the table `tableId` (the path /t/{id}). */
export function start(root, tableId) {
  // A replay draws the server's snapshots of a finished match: a page of its own.
  if (new URLSearchParams(location.search).has("replay")) return startReplay(root, tableId);
  const store = new Store();
  const animator = new Animator(store, () => "classic");
  const wire = new Wire({
    table: tableId,
    version: () => store.seen,
    onStatus: (s) => {
      store.status = s;
      store.changed();
    },
    onMessage: (env) => handle(env, store, animator),
  });
  window.tricktable = { store, wire };
  root.textContent = "";
  render(html`<${App} store=${store} wire=${wire} animator=${animator} tableId=${tableId} />`, root);
  // Speech bubbles fade by themselves.
  setInterval(() => {
    const now = Date.now();
    let gone = false;
    for (const [seat, b] of Object.entries(store.bubbles))
      if (b.until <= now) {
        delete store.bubbles[seat];
        gone = true;
      }
    if (gone) store.changed();
  }, 1000);
  // Someone who follows an invite with no session yet says a name first (a guest).
  fetch("/api/me", { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : { user: null }))
    .catch(() => ({ user: null }))
    .then((me) => {
      if (me && me.user) {
        store.userId = me.user.id; // the creator of a table is offered to close it
        store.account = me.user.kind !== "guest"; // an account may have bots to invite
        wire.connect();
      } else {
        store.join = () => {
          store.join = null;
          store.changed();
          wire.connect();
        };
        store.changed();
      }
    });
  return { store, wire };
}

function handle(env, store, animator) {
  const data = env.data || {};
  switch (env.type) {
    case "snapshot":
      store.notice = null;
      store.snapshot(data.snapshot || data);
      break;
    case "events":
      store.events(data.events, env.v);
      animator.kick();
      break;
    case "table":
      if (env.id && store.invites && env.id in store.invites) delete store.invites[env.id]; // seated
      // A change of seats may leave out `you`: keep the last one said.
      store.info = { ...data, you: data.you ?? (store.info && store.info.you) ?? null };
      if (data.status === "closed") {
        // Its creator closed it (or its last person left): nothing more comes from it.
        store.notice = "This table is closed.";
        store.say(store.notice);
      }
      // The commitment as first published for each match: the check after the match holds
      // the revealed seed to this one, not to whatever a later message says.
      if (data.commitment && !(store.committed && store.committed.match === data.match)) {
        store.committed = { match: data.match, digest: data.commitment };
      }
      store.changed();
      break;
    case "confirm":
      store.notice = null;
      if (data.snapshot) store.snapshot(data.snapshot);
      break;
    case "refuse":
      // The selection of a choice of cards is kept (store.chosen): the person changes it.
      store.notice = sayCodes(data.reason || "refused");
      store.say(store.notice);
      if (data.snapshot) store.snapshot(data.snapshot);
      else store.changed();
      break;
    case "chat":
      store.addChat(data);
      break;
    case "clock":
      store.clock = data.seat == null ? null : data;
      store.changed();
      break;
    case "hint": {
      // The cards a hint names (a pass of three, a discard): chosen for a choice of cards.
      const named = (Array.isArray(data.words) ? data.words : []).filter((t) => t && t.t === "card").map((t) => t.v);
      store.hint = { ...data, cards: named };
      const d = store.truth && store.truth.decision;
      if (d && d.kind === "cards" && named.length && named.every((c) => d.cards.includes(c))) {
        const hand = (store.truth && store.truth.hand) || {};
        const picked = chosenFor(store, d, hand);
        const fresh = named.length >= d.min ? named : [...picked.filter((c) => !named.includes(c)), ...named];
        picked.splice(0, picked.length, ...fresh.slice(-d.max));
      }
      const words = data.words ? plain(data.words, store.names()) : sayCodes(data.label || data.text);
      if (words) store.say("Hint: " + words);
      store.changed();
      setTimeout(() => {
        const el = document.querySelector(".hinted");
        if (el) el.focus();
      }, 50);
      break;
    }
    case "error":
      if (env.id && store.invites && env.id in store.invites) {
        // an invitation refused: its one line under its seat's form
        store.inviteErrors = { ...store.inviteErrors, [store.invites[env.id]]: data.reason || "refused" };
        delete store.invites[env.id];
        store.say(data.reason);
        store.changed();
        break;
      }
      if (data.code === "taken_over") store.takenOver = true;
      store.notice = sayCodes(data.reason || "error");
      store.say(store.notice);
      store.changed();
      break;
    default:
      break;
  }
}
