// The websocket to the server: one JSON envelope a message, reconnection by itself.
//
// Envelope: {type, table, v, id, data}. On every (re)connection the client says `hello` with
// the last version it saw (`since`), so the server sends what it missed or a fresh snapshot —
// the page is never reloaded. An `act` carries an id made here and is sent again after a
// reconnection until the server confirms or refuses it (the server applies an id once).
// A ping every 15 s; a connection silent for 45 s is taken for dead and replaced.

const PING_MS = 15000;
const DEAD_MS = 45000;

function newId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return "a" + Date.now().toString(36) + Math.random().toString(36).slice(2);
}

export function seatTokenKey(table) {
  return "tt-seat:" + table;
}

export class Wire {
  /**
   * table: the table's id (null for the lobby); onMessage(envelope); onStatus("open"|"closed").
   * version(): the last version the page has seen, said as `since` on reconnection.
   */
  constructor({ table, onMessage, onStatus, version, lobby = false }) {
    this.table = table;
    this.lobby = lobby;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.version = version || (() => null);
    this.pending = new Map(); // act id -> envelope, until confirmed or refused
    this.ws = null;
    this.backoff = 500;
    this.lastHeard = 0;
    this.closed = false;
    this.timer = setInterval(() => this.tick(), 1000);
    this.lastPing = 0;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  connect() {
    if (this.closed) return;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.lastHeard = Date.now();
      this.onStatus("open");
      if (this.lobby) this.raw({ type: "lobby", table: null, v: null, id: null, data: {} });
      if (this.table) {
        let token = null;
        try {
          token = localStorage.getItem(seatTokenKey(this.table));
        } catch (err) {
          token = null;
        }
        this.raw({
          type: "hello",
          table: this.table,
          v: null,
          id: null,
          data: { since: this.version(), seat_token: token },
        });
      }
      for (const env of this.pending.values()) this.raw(env);
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      let env;
      try {
        env = JSON.parse(ev.data);
      } catch (err) {
        return;
      }
      if (!env || typeof env !== "object") return;
      if ((env.type === "confirm" || env.type === "refuse") && env.id) this.pending.delete(env.id);
      const you = env.type === "table" && env.data && env.data.you;
      const token = you && you.seat_token;
      if (token && this.table) {
        try {
          localStorage.setItem(seatTokenKey(this.table), token);
        } catch (err) {
          /* private mode: the seat is still held by the session cookie */
        }
      }
      this.onMessage(env);
    };
    ws.onclose = () => {
      if (this.ws === ws) {
        this.ws = null;
        this.onStatus("closed");
        this.retry();
      }
    };
    ws.onerror = () => {};
  }

  retry() {
    if (this.closed) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, 8000);
    setTimeout(() => this.connect(), wait);
  }

  tick() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (now - this.lastHeard > DEAD_MS) {
      this.ws = null;
      ws.close();
      this.onStatus("closed");
      this.retry();
      return;
    }
    if (now - this.lastPing > PING_MS) {
      this.lastPing = now;
      this.raw({ type: "ping", table: this.table, v: null, id: null, data: {} });
    }
  }

  raw(env) {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(env));
  }

  /** Say `hello` again (after another tab took the seat over). */
  hello() {
    if (this.ws) this.ws.onopen();
  }

  /** Send a message of `type` with `data` about this table. */
  send(type, data = {}) {
    this.raw({ type, table: this.table, v: this.version(), id: null, data });
  }

  /** Play or bid: `action` is the engine's code or text. Returns the act's id. */
  act(action) {
    const id = newId();
    const env = { type: "act", table: this.table, v: this.version(), id, data: { action } };
    this.pending.set(id, env);
    this.raw(env);
    return id;
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    if (this.ws) this.ws.close();
  }
}
