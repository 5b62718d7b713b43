// A finished match played again from its record (`GET /api/tables/{id}/record`).
//
// The record (tricktable-record/1) holds each hand's dealer, deal and actions in order; the
// replay turns them into the events the live table gets and feeds them, one at a time, to the
// same store and animator, so a replay looks like the game did. Who played a card is the seat
// that was dealt it; a trick's winner is the seat that leads the next one (the last trick of
// a hand goes to nobody in particular); a call's seat is counted round from the dealer's left,
// which is the auction's order in the All Fours family (one round of calls).

/** Events of a record's match, in order. */
export function recordEvents(record) {
  const n = (record.players || []).length;
  const events = [];
  let version = 0;
  const push = (ev) => events.push({ version: ++version, ...ev });
  (record.hands || []).forEach((hand, h) => {
    const deal = hand.deal || [];
    const owner = {};
    deal.forEach((cards, seat) => {
      for (const c of cards || []) owner[c] = seat;
    });
    push({
      kind: "deal",
      seat: null,
      data: { hand: h, dealer: hand.dealer },
      words: [{ t: "text", v: `Hand ${h + 1}: ` }, { t: "seat", v: hand.dealer }, { t: "text", v: " deals" }],
    });
    push({
      kind: "dealt",
      seat: 0,
      words: [{ t: "text", v: "Cards: " }, ...(deal[0] || []).map((c) => ({ t: "card", v: c }))],
    });
    const actions = hand.actions || [];
    let calls = 0;
    let inTrick = [];
    actions.forEach((text, i) => {
      const m = /^play\s+(\S+)$/.exec(text);
      if (m) {
        const card = m[1];
        const seat = owner[card] ?? null;
        push({
          kind: "play",
          seat,
          card,
          words: [{ t: "seat", v: seat }, { t: "text", v: " plays " }, { t: "card", v: card }],
        });
        inTrick.push(card);
        if (inTrick.length === n) {
          const next = actions.slice(i + 1).find((a) => /^play\s+/.test(a));
          const winner = next ? owner[next.split(/\s+/)[1]] ?? null : null;
          push({
            kind: "trick",
            seat: winner,
            words: winner == null ? [{ t: "text", v: "The last trick" }] : [{ t: "seat", v: winner }, { t: "text", v: " takes the trick" }],
          });
          inTrick = [];
        }
      } else {
        const seat = (hand.dealer + 1 + calls) % n;
        calls += 1;
        push({ kind: "bid", seat, words: [{ t: "seat", v: seat }, { t: "text", v: " " + text }] });
      }
    });
    push({ kind: "scored", seat: null, data: { hand: h }, words: [{ t: "text", v: `Hand ${h + 1} is over` }] });
  });
  return events;
}

function title(game) {
  const name = String(game || "");
  return name.charAt(0).toUpperCase() + name.slice(1).replace(/[-_]/g, " ");
}

/** The table of a record before its first deal: where the replay starts. */
export function recordTable(record) {
  const seats = (record.players || []).map((name, seat) => ({
    seat, name, kind: "person", avatar: name, side: seat, cards_left: 0, tricks: 0,
    last_call: [], dealer: false, turn: false,
  }));
  return {
    version: 0,
    game: { name: record.game, title: title(record.game), seats: seats.length, sides: seats.length },
    viewer: 0,
    seats,
    hand: { trick: [], cards: [], number: 0 },
    scores: [],
    score_line: [],
    legal: [],
    over: false,
    summary: null,
  };
}

/** Feed a record's events to `store` (played by `animator`), one at a time, pausable. */
export class Replay {
  constructor(store, animator) {
    this.store = store;
    this.animator = animator;
    this.events = [];
    this.at = 0;
    this.paused = false;
    this.timer = null;
  }

  async load(url) {
    const r = await fetch(url, { credentials: "same-origin" });
    if (!r.ok) {
      let why = `${r.status} ${r.statusText}`;
      try {
        why = (await r.json()).error || why;
      } catch (err) {
        /* the status says it */
      }
      throw new Error(why);
    }
    const record = await r.json();
    this.events = recordEvents(record);
    this.store.shown = recordTable(record);
    this.store.applied = 0;
    this.store.status = "open";
    this.store.changed();
    this.tick();
  }

  tick() {
    clearTimeout(this.timer);
    const store = this.store;
    if (!this.paused && this.at < this.events.length && !this.animator.running && !store.queue.length) {
      store.queue.push(this.events[this.at]);
      this.at += 1;
      this.animator.kick();
    }
    // Without animations (a hidden tab, reduced motion) the record goes by at reading speed.
    this.timer = setTimeout(() => this.tick(), this.animator.speed() ? 250 : 30);
  }

  toggle() {
    this.paused = !this.paused;
    this.store.changed();
  }
}
