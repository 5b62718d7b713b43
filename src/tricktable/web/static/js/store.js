// What the table page knows: the server's last snapshot (the truth) and what is on screen.
//
// Snapshots are applied as the truth. Events are queued and played one after another by the
// animator (anim.js), each changing what is shown a little (a card leaves a hand for the trick,
// the trick goes to its winner); when the queue is empty the screen shows the truth again, so an
// animation can never leave the page wrong. Events at or below the last version seen are old
// (a resend after a reconnection) and are dropped.

import { plain } from "./words.js";

export const SPECTATOR = 8;

export function clone(x) {
  return x == null ? x : JSON.parse(JSON.stringify(x));
}

export class Store {
  constructor() {
    this.truth = null; // the last snapshot from the server
    this.shown = null; // what the page draws: the truth, or the truth of before plus events
    this.seen = null; // the last version received (events or snapshot)
    this.applied = null; // the version of the last event drawn
    this.queue = [];
    this.chat = [];
    this.bubbles = {}; // seat -> {text, until}
    this.clock = null; // {seat, deadline}
    this.status = "connecting";
    this.notice = null; // one line: a refusal, an error
    this.hint = null; // {action, text}
    this.summaries = []; // [{number, words: [phrase...]}] seen this visit
    this.said = ""; // the live region's last line
    this.listeners = new Set();
    this.tick = 0;
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  changed() {
    this.tick += 1;
    for (const fn of this.listeners) fn(this.tick);
  }

  names(snap = this.shown) {
    const out = {};
    for (const s of (snap && snap.seats) || []) out[s.seat] = s.name;
    return out;
  }

  say(text) {
    if (!text) return;
    // The same line twice is still read: a zero-width change makes it new to the region.
    this.said = text === this.said ? text + "\u200b" : text;
  }

  /** A snapshot from the server: the truth from now on. */
  snapshot(snap) {
    if (!snap || typeof snap !== "object") return;
    if (this.truth && typeof snap.version === "number" && snap.version < this.truth.version) return;
    this.truth = snap;
    if (typeof snap.version === "number") this.seen = Math.max(this.seen ?? -1, snap.version);
    this.noteSummary(snap);
    this.hint = null;
    if (!this.queue.length && !this.busy && !(this.applied > snap.version)) this.shown = clone(snap);
    this.changed();
  }

  noteSummary(snap) {
    const hand = snap.hand || {};
    if (snap.summary && snap.summary.length) {
      const number = hand.number ?? this.summaries.length + 1;
      if (!this.summaries.some((s) => s.number === number))
        this.summaries.push({ number, words: snap.summary, open: true });
    }
  }

  /** Events from the server, in order; returns those that are new. */
  events(list) {
    const fresh = [];
    for (const ev of list || []) {
      if (!ev || typeof ev !== "object") continue;
      if (typeof ev.version === "number" && this.seen != null && ev.version <= this.seen) continue;
      if (typeof ev.version === "number") this.seen = ev.version;
      this.queue.push(ev);
      fresh.push(ev);
    }
    if (fresh.length) this.changed();
    return fresh;
  }

  /** An event has been shown: change what is drawn to match it. */
  applyEvent(ev) {
    if (typeof ev.version === "number") this.applied = ev.version;
    const snap = this.shown;
    const names = this.names();
    const line = plain(ev.words, names);
    if (line && ev.kind !== "chat") this.say(line);
    if (!snap || !snap.hand) return;
    const hand = snap.hand;
    const seat = ev.seat;
    const seatInfo = (snap.seats || []).find((s) => s.seat === seat);
    if (ev.kind === "play" && ev.card) {
      hand.trick = hand.trick || [];
      hand.trick.push({ seat, card: ev.card });
      if (seat === snap.viewer && Array.isArray(hand.cards))
        hand.cards = hand.cards.filter((c) => c !== ev.card);
      if (seatInfo && typeof seatInfo.cards_left === "number")
        seatInfo.cards_left = Math.max(0, seatInfo.cards_left - 1);
      snap.legal = [];
      for (const s of snap.seats || []) s.turn = false;
    } else if (ev.kind === "trick") {
      hand.last_trick = { cards: hand.trick || [], winner: seat };
      hand.trick = [];
      if (seatInfo) seatInfo.tricks = (seatInfo.tricks || 0) + 1;
    } else if (ev.kind === "bid" || ev.kind === "call") {
      if (seatInfo && ev.words) seatInfo.last_call = ev.words;
      snap.legal = [];
    }
  }

  /** The queue is empty: draw the truth, unless events newer than it are already drawn. */
  settle() {
    if (this.truth && !(this.applied > this.truth.version)) this.shown = clone(this.truth);
    this.changed();
  }

  addChat(msg) {
    if (!msg) return;
    const names = this.names();
    const text = msg.text ?? plain(msg.words, names);
    if (!text) return;
    const seat = typeof msg.seat === "number" ? msg.seat : null;
    const name = msg.name ?? (seat != null ? names[seat] : null) ?? "someone";
    this.chat.push({ name, text, seat, kind: msg.kind || null });
    if (this.chat.length > 200) this.chat.splice(0, this.chat.length - 200);
    if (seat != null && seat !== SPECTATOR) this.bubbles[seat] = { text, until: Date.now() + 5000 };
    this.say(`${name} says: ${text}`);
    this.changed();
  }
}
