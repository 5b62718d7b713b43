// A bot for a tricktable web server, in JavaScript: it plays any game at any table it is
// invited to (docs/writing-bots.md, "A bot at a web table").
//
// It connects to the server's websocket with its bot token, waits to be invited, and on each
// turn picks a legal action at random from what the server sends: the snapshot's `legal`
// actions (as text), or cards of a `cards` decision. It logs one line a hand. No package:
// Node's own WebSocket (Node 22 and later; Node 20 with --experimental-websocket). Its
// `headers` option is Node's (undici's), not the browser's: a page cannot set headers.
//
//   TRICKTABLE_BOT_TOKEN=ttbot_... node ws_bot.js ws://127.0.0.1:8000/ws [--hands N]
//
// The token is read from the environment, not the command line, where other users of the
// machine could read it (ps).

"use strict";

function log(line) {
  console.log(line);
}

function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

// An act's data for the decision of a snapshot: a legal action, or a choice of cards.
function choose(snapshot) {
  const decision = snapshot.decision;
  if (decision.kind === "cards") {
    if (decision.sets && decision.sets.length) return { cards: pick(decision.sets) };
    const count = Math.min(Math.max(decision.min, 1), decision.max);
    const cards = [...decision.cards];
    for (let i = cards.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    return { cards: cards.slice(0, count) };
  }
  return { action: pick(snapshot.legal).action };
}

function main() {
  const args = process.argv.slice(2);
  const url = args.find((a) => !a.startsWith("--"));
  const at = args.indexOf("--hands");
  const hands = at >= 0 ? Number(args[at + 1]) : 0;
  const token = process.env.TRICKTABLE_BOT_TOKEN || "";
  if (!url || !Number.isInteger(hands) || hands < 0) {
    log("usage: node ws_bot.js ws://HOST:PORT/ws [--hands N]");
    return process.exit(2);
  }
  if (!token) {
    log("set TRICKTABLE_BOT_TOKEN to the bot's token (POST /api/bots gives it)");
    return process.exit(2);
  }
  if (typeof WebSocket === "undefined") {
    log("this Node has no WebSocket: run Node 22 or later, or node --experimental-websocket");
    return process.exit(2);
  }
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
  let table = null;
  let acted = -1; // the version of the last snapshot acted on: one act a decision
  let sent = 0;
  let scored = 0;
  let done = false;

  ws.onopen = () => log(`connected to ${url}; waiting for an invitation`);
  ws.onerror = (event) => {
    if (!done) log(`cannot talk to ${url}: ${event.message || "a websocket error"}`);
  };
  ws.onclose = (event) => {
    if (done) return process.exit(0);
    log(`the server closed the connection (${event.code})`);
    process.exit(1);
  };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    const data = message.data || {};
    let snapshot = null;
    switch (message.type) {
      case "table":
        if (table !== message.table) {
          table = message.table;
          log(`seated at table ${table} (${data.title}), seat ${data.you.seat}`);
        }
        break;
      case "snapshot":
        snapshot = data;
        break;
      case "confirm":
        snapshot = data.snapshot || null;
        break;
      case "refuse":
        log(`refused: ${data.reason}`);
        snapshot = data.snapshot || null;
        acted = -1; // choose again
        break;
      case "error":
        log(`error: ${data.reason}`);
        break;
      case "events":
        for (const e of data.events) {
          if (e.kind !== "scored") continue;
          scored += 1;
          log(`table ${table} hand ${e.data.hand + 1}: scores ${JSON.stringify(e.data.scores)}`);
          if (hands && scored >= hands) {
            done = true;
            ws.close();
            return;
          }
        }
        break;
    }
    if (snapshot && snapshot.decision && !snapshot.over && snapshot.version > acted) {
      acted = snapshot.version;
      sent += 1;
      const act = { type: "act", table, id: `b-${sent}`, data: choose(snapshot) };
      ws.send(JSON.stringify(act));
    }
  };
}

main();
