// The animator: plays the store's queued events one after another (Board Game Arena's lesson),
// so a burst of moves still reads as a game — a card flies from its seat to the trick, the
// trick is gathered to its winner, the deal goes round. A long queue, a hidden tab or a reader
// who asked for reduced motion plays it fast; the screen always ends on the server's truth.

import { backSvg, cardSvg } from "./cards.js";
import { click } from "./sound.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class Animator {
  constructor(store, getSkin) {
    this.store = store;
    this.getSkin = getSkin;
    this.running = false;
  }

  speed() {
    const reduce = matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (document.hidden || reduce) return 0;
    if (this.store.replay) return 1.3;
    const n = this.store.queue.length;
    return n > 16 ? 0.15 : n > 6 ? 0.5 : 1;
  }

  kick() {
    if (!this.running) this.run();
  }

  async run() {
    const store = this.store;
    this.running = true;
    store.busy = true;
    try {
      while (store.queue.length) {
        const ev = store.queue.shift();
        const k = this.speed();
        try {
          await this.play(ev, k);
        } catch (err) {
          /* an animation that fails still applies its event */
        }
        store.applyEvent(ev);
        store.changed();
        if (ev.kind === "chat") store.addChat(ev);
        if (ev.kind === "trick" && k) await sleep(150 * k);
      }
    } finally {
      store.busy = false;
      this.running = false;
      store.settle();
    }
  }

  async play(ev, k) {
    if (!k) return;
    const skin = this.getSkin();
    if (ev.kind === "play" && ev.card != null) {
      click();
      const from = seatBox(ev.seat, this.store.shown);
      const to = trickBox(ev.seat);
      if (from && to) await fly(cardSvg(ev.card, skin), from, to, 380 * k);
    } else if (ev.kind === "trick") {
      await sleep(650 * k);
      const to = seatBox(ev.seat, this.store.shown);
      const cards = Array.from(document.querySelectorAll(".trick .trick-card"));
      if (to && cards.length) {
        await Promise.all(
          cards.map((el) => {
            el.style.visibility = "hidden";
            return fly(el.dataset.card ? cardSvg(el.dataset.card, skin) : backSvg(), box(el), to, 420 * k, true);
          }),
        );
      }
    } else if (ev.kind === "deal") {
      const seats = Array.from(document.querySelectorAll(".seat[data-seat]"));
      const centre = document.querySelector(".felt .centre");
      if (!centre || !seats.length) return;
      const from = box(centre);
      const flights = [];
      for (let round = 0; round < 3; round++)
        seats.forEach((el, i) => {
          flights.push(
            sleep((round * seats.length + i) * 45 * k).then(() => fly(backSvg(), from, box(el), 260 * k, true)),
          );
        });
      await Promise.all(flights);
    } else if (ev.kind === "bid" || ev.kind === "call") {
      await sleep(300 * k);
    } else if (ev.kind === "scored") {
      await sleep(400 * k);
    }
  }
}

function box(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, w: r.width, h: r.height };
}

function seatBox(seat, snap) {
  if (snap && seat === snap.viewer) {
    const hand = document.querySelector(".hand");
    if (hand) return box(hand);
  }
  const el = document.querySelector(`.seat[data-seat="${seat}"] .avatar`);
  return el ? box(el) : null;
}

function trickBox(seat) {
  const el = document.querySelector(`.trick-slot[data-seat="${seat}"]`);
  return el ? box(el) : null;
}

/** One card flying over the page from one box to another; resolves when it lands. */
function fly(svg, from, to, ms, fade = false) {
  const el = document.createElement("div");
  el.className = "flying-card";
  el.innerHTML = svg;
  const w = to.w || 60;
  const h = to.h || 84;
  const cw = Math.min(w, 80);
  const ch = cw * 1.4;
  el.style.width = cw + "px";
  el.style.height = ch + "px";
  document.body.appendChild(el);
  const fx = from.x + from.w / 2 - cw / 2;
  const fy = from.y + from.h / 2 - ch / 2;
  const tx = to.x + w / 2 - cw / 2;
  const ty = to.y + h / 2 - ch / 2;
  const anim = el.animate(
    [
      { transform: `translate(${fx}px, ${fy}px) scale(${fade ? 1 : 0.8})`, opacity: 1 },
      { transform: `translate(${tx}px, ${ty}px) scale(${fade ? 0.5 : 1})`, opacity: fade ? 0.2 : 1 },
    ],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" },
  );
  return anim.finished.then(
    () => el.remove(),
    () => el.remove(),
  );
}
