// What the table page knows: the server's last snapshot (the truth) and what is on screen.
//
// Snapshots are applied as the truth. Events are queued and played one after another by the
// animator (anim.js), each changing what is shown a little (a card leaves a hand for the trick,
// the trick goes to its winner); when the queue is empty the screen shows the truth again, so an
// animation can never leave the page wrong. Events at or below the last version seen are old
// (a resend after a reconnection) and are dropped.

import { plain } from "./words.js";

export const SPECTATOR = 8;

/** Whether the viewer of `snap` is to act: a decision (a choice of cards has no legal list). */
export function yourTurn(snap) {
  return !!(snap && (snap.decision || (snap.legal || []).length));
}

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
    this.info = null; // the server's TABLE_INFO with `you`
    this.matchOver = null; // {match, words, scores} once a match ends, until closed
    this.said = []; // the live region's last lines: [{id, text}]
    this.lines = 0;
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

  sayTurn() {
    if (this.turnToSay && yourTurn(this.truth)) {
      const d = this.truth.decision;
      const prompt = d && d.prompt ? plain(d.prompt, this.names(this.truth)) : "";
      this.say(prompt ? "Your turn: " + prompt : "Your turn");
    }
    this.turnToSay = false;
  }

  /** A line for the live region (a log: each new line is read once, the last few kept). */
  say(text) {
    if (!text) return;
    this.lines += 1;
    this.said.push({ id: this.lines, text });
    if (this.said.length > 6) this.said.shift();
  }

  /** A snapshot from the server: the truth from now on. */
  snapshot(snap) {
    if (!snap || typeof snap !== "object") return;
    // An older snapshot is stale — unless it is another viewer's (a seat just taken or left).
    const sameViewer = this.truth && this.truth.viewer === snap.viewer;
    if (sameViewer && typeof snap.version === "number" && snap.version < this.truth.version) return;
    if (!sameViewer) {
      this.queue.length = 0;
      this.applied = null;
    }
    const wasTurn = yourTurn(this.truth);
    this.truth = snap;
    // "Your turn" is said after the moves before it, when the queue has played them.
    if (!wasTurn && yourTurn(snap)) this.turnToSay = true;
    if (typeof snap.version === "number") this.seen = Math.max(this.seen ?? -1, snap.version);
    this.noteSummary(snap);
    this.hint = null;
    if (!this.queue.length && !this.busy) this.sayTurn();
    if (!this.queue.length && !this.busy && !(this.applied > snap.version)) this.shown = clone(snap);
    this.changed();
  }

  noteSummary(snap) {
    const hand = snap.hand || {};
    if (snap.summary && snap.summary.length) {
      // the server's summary says who won the hand first (the seat model's words)
      const number = hand.number ?? this.summaries.length + 1;
      this.addSummary(number, snap.summary.filter((p) => p && p.length), true);
    }
  }

  /** A hand's summary: the seat model's (`rich`) replaces an old server's event words. */
  addSummary(number, words, rich) {
    const had = this.summaries.find((s) => s.number === number);
    if (!had) this.summaries.push({ number, words, open: !this.replay, rich });
    else if (rich && !had.rich) Object.assign(had, { words, rich });
  }

  /**
   * Events from the server, in order; `v` the version after the last. Returns those that are
   * new: one action may make several events of one version (a card, the trick it ends, the
   * hand), so what is old is what is at or below the version known before this message.
   */
  events(list, v) {
    const fresh = [];
    const before = this.seen;
    for (const ev of list || []) {
      if (!ev || typeof ev !== "object") continue;
      if (typeof ev.version === "number" && before != null && ev.version <= before) continue;
      if (typeof ev.version === "number") this.seen = Math.max(this.seen ?? -1, ev.version);
      this.queue.push(ev);
      fresh.push(ev);
    }
    if (typeof v === "number") this.seen = Math.max(this.seen ?? -1, v);
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
    if (!snap) return;
    // Before the first deal a snapshot has no hand yet: the deal's events start one.
    if (!snap.hand) snap.hand = { trick: [], cards: [], number: 0 };
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
      snap.decision = null;
      for (const s of snap.seats || []) s.turn = false;
    } else if (ev.kind === "trick") {
      hand.last_trick = { cards: hand.trick || [], winner: seat };
      hand.trick = [];
      if (seatInfo) seatInfo.tricks = (seatInfo.tricks || 0) + 1;
    } else if (ev.kind === "bid" || ev.kind === "call") {
      if (seatInfo && ev.words) {
        // "Edna stand": the seat's own name is already on its plate.
        const words = ev.words.slice();
        if (words.length && words[0].t === "seat" && words[0].v === seat) words.shift();
        if (words.length && words[0].t === "text") words[0] = { ...words[0], v: words[0].v.trimStart() };
        seatInfo.last_call = words;
      }
      snap.legal = [];
      snap.decision = null;
    } else if (ev.kind === "trump") {
      const suit = (ev.words || []).find((t) => t.t === "suit");
      if (suit) hand.trump = suit.v;
    } else if (ev.kind === "scored") {
      const number = ev.data && typeof ev.data.hand === "number" ? ev.data.hand + 1 : hand.number;
      // the seat model's summary (who won the hand, its result, the scores), as the
      // snapshot between hands says it; an old server's event has only its words
      const summary = Array.isArray(ev.summary) && ev.summary.length ? ev.summary
        : ev.words && ev.words.length ? [ev.words] : [];
      this.addSummary(number, summary.filter((p) => Array.isArray(p) && p.length), !!ev.summary);
      const scores = ev.data && (ev.data.scores || (ev.data.result && ev.data.result.scores));
      if (Array.isArray(scores)) snap.scores = scores;
    } else if (ev.kind === "over") {
      // The match is over: its panel stays until closed, even when the next match starts.
      const match = this.info && typeof this.info.match === "number" ? this.info.match : null;
      this.overClosed = false;
      this.matchOver = { match, words: ev.words || [], scores: (ev.data && ev.data.scores) || snap.scores };
      snap.over = true;
      snap.legal = [];
      snap.decision = null;
    } else if (ev.kind === "deal") {
      if (ev.data && typeof ev.data.hand === "number") hand.number = ev.data.hand + 1;
      if (ev.data && typeof ev.data.dealer === "number") {
        hand.dealer = ev.data.dealer;
        for (const s of snap.seats || []) s.dealer = s.seat === ev.data.dealer;
      }
      hand.trick = [];
      hand.last_trick = null;
      hand.trump = null;
      hand.contract = [];
      for (const s of snap.seats || []) {
        s.tricks = 0;
        s.last_call = [];
      }
    } else if (ev.kind === "dealt" && seat === snap.viewer) {
      const cards = (ev.words || []).filter((t) => t.t === "card").map((t) => t.v);
      if (cards.length) {
        hand.cards = cards;
        for (const s of snap.seats || []) s.cards_left = cards.length;
      }
    }
  }

  /** The queue is empty: draw the truth, unless events newer than it are already drawn. */
  settle() {
    this.sayTurn();
    if (this.truth && !(this.applied > this.truth.version)) this.shown = clone(this.truth);
    this.changed();
  }

  addChat(msg) {
    if (!msg) return;
    const names = this.names();
    const seat = typeof msg.seat === "number" && msg.seat >= 0 ? msg.seat : null;
    let text = msg.text;
    if (text == null) {
      // A chat event's words: the speaker's name first, then the line.
      const words = Array.isArray(msg.words) ? msg.words.slice() : [];
      if (seat != null && words.length && words[0].t === "seat" && words[0].v === seat) words.shift();
      text = plain(words, names).replace(/^[:\s]+/, "");
    }
    if (!text) return;
    const name = msg.from ?? msg.name ?? (seat != null ? names[seat] : msg.seat === -1 ? "table" : null) ?? "someone";
    const kind = seat != null && this.shown ? ((this.shown.seats || [])[seat] || {}).kind : msg.watcher ? "watcher" : null;
    this.chat.push({ name, text, seat, kind: kind || null });
    if (this.chat.length > 200) this.chat.splice(0, this.chat.length - 200);
    if (seat != null && seat !== SPECTATOR) this.bubbles[seat] = { text, until: Date.now() + 5000 };
    this.say(`${name} says: ${text}`);
    this.changed();
  }
}
