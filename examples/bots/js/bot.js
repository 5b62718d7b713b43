#!/usr/bin/env node
// A tricktable bot in JavaScript for Node: the stdin/stdout line protocol, no npm packages.
//
// Run by tricktable as `node bot.js NAME` (the player's name is the last argument). It plays
// any game legally and simply: it bids what is listed first (usually "pass"), and plays its
// highest legal card. In `tricks` (whose QUERY card lists nothing) it works out the legal
// cards itself: follow the suit led if it can.
"use strict";

const readline = require("readline");

const RANKS = "23456789TJQKA";
const me = process.argv[process.argv.length - 1];
let hand = [];
let led = null; // the suit led in the current trick

function fields(line) {
  line = line.replace(/\r$/, "");
  if (!line.startsWith("|") || !line.endsWith("|END|")) return null;
  return line.slice(1, -5).split("|");
}

function send(kind, key, data) {
  process.stdout.write(`|${kind}|${key}|${data}|END|\n`);
}

function rank(card) {
  return RANKS.indexOf(card[0]); // -1 for a joker: it is never the highest here
}

function highest(cards) {
  return cards.reduce((best, c) => (rank(c) > rank(best) ? c : best));
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (raw) => {
  const msg = fields(raw);
  if (msg === null) return;
  const [kind, key, ...data] = msg;
  if (kind === "INFO" && key === "cards") {
    hand = data[0] ? data[0].split(" ") : [];
  } else if (kind === "INFO" && key === "start trick") {
    led = null;
  } else if (kind === "INFO" && key === "played") {
    const [name, card] = data;
    if (led === null) led = card[card.length - 1];
    if (name === me) hand = hand.filter((c) => c !== card);
  } else if (kind === "QUERY" && key === "card") {
    let legal;
    if (data.length > 0 && data[0]) {
      legal = data[0].split(" "); // the extended protocol lists the legal cards
    } else {
      const follow = hand.filter((c) => led !== null && c[c.length - 1] === led);
      legal = follow.length > 0 ? follow : hand;
    }
    send("RESPONSE", "card", highest(legal));
  } else if (kind === "QUERY" && key === "pass") {
    const n = parseInt(data[0], 10);
    const sorted = [...hand].sort((a, b) => rank(b) - rank(a));
    send("RESPONSE", "pass", sorted.slice(0, n).join(" "));
  } else if (kind === "QUERY") {
    send("RESPONSE", key, data[0]); // the first legal action listed
  } else if (kind === "INFO" && key === "end game") {
    input.close();
  }
});
