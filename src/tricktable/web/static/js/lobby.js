// The lobby: play as a guest, sign up, log in and out, see the open tables live, create a
// table (its size and seating among those the game allows), share its invite link, and (an
// account) register and keep its bots (bots.js).
//
// HTTP for what a form does (`/api/me`, `/api/guest`, `/api/signup`, `/api/login`,
// `/api/logout`, `/api/games`, `POST /api/tables`, each post carrying the CSRF token of
// `/api/me` as X-CSRF-Token) and the websocket's `lobby` subscription for the live list of
// tables. Nothing here writes a game's options by hand: a seating's options come with its
// words from `/api/games`.

import { html, render, useEffect, useRef, useState } from "./ui.js";
import { Wire, seatTokenKey } from "./wire.js";
import { MyBots } from "./bots.js";

async function getJson(url) {
  const r = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(await reason(r));
  return r.json();
}

async function reason(r) {
  try {
    const body = await r.json();
    return body.reason || body.error || body.detail || `${r.status} ${r.statusText}`;
  } catch (err) {
    return `${r.status} ${r.statusText}`;
  }
}

async function postJson(url, body, csrf) {
  const r = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf || "" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(await reason(r));
  return r.json();
}

function who(me) {
  if (!me) return null;
  return me.name ?? (me.user && me.user.name) ?? null;
}

/** A game's or variant's tables: [{seats, partners: [{words, options}]}]; a server that lists
 * only the sizes gets one seating a size, said by nobody (the form then shows no choice). */
function readTables(g, players) {
  if (Array.isArray(g.tables) && g.tables.length)
    return g.tables.map((t) => ({
      seats: t.seats,
      partners: (t.partners && t.partners.length ? t.partners : [{ words: null, options: {} }]).map((c) => ({
        words: c.words || null,
        options: c.options || {},
      })),
    }));
  const sizes = [g.seats || g.seat_counts || [players || 4]].flat();
  return sizes.map((n) => ({
    seats: n,
    partners: [{ words: null, options: players == null || n === players ? {} : { players: n } }],
  }));
}

/** The games of `/api/games` as [{name, title, players, tables, variants: [{name, title,
 * summary, players, tables}]}]. */
function readGames(body) {
  const list = Array.isArray(body) ? body : body.games || [];
  return list.map((g) => {
    const players = g.players ?? null;
    return {
      name: g.name,
      title: g.title || g.name,
      summary: g.summary || "",
      players,
      tables: readTables(g, players),
      variants: (g.variants || []).map((v) => {
        const vp = v.players ?? (typeof v.seats === "number" ? v.seats : null);
        return {
          name: v.name,
          title: v.title || v.name,
          summary: v.summary || "",
          players: vp,
          tables: readTables(v, vp),
        };
      }),
    };
  });
}

const WAYS = [
  ["guest", "Play as a guest"],
  ["login", "Log in"],
  ["signup", "Sign up"],
];

/** Come in: as a guest (a name), or to an account (log in, or make one: a name and a password). */
function SignIn({ onDone }) {
  const [way, setWay] = useState("guest");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const go = async (e) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const me = await getJson("/api/me");
      const body = way === "guest" ? { name: name.trim() } : { name: name.trim(), password };
      await postJson(`/api/${way}`, body, me.csrf || me.csrf_token);
      setPassword("");
      onDone();
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  const title = WAYS.find(([w]) => w === way)[1];
  return html`<section class="panel sign-in" aria-labelledby="sign-in-title">
    <h2 id="sign-in-title">Come in</h2>
    <div class="ways" role="group" aria-label="How to come in">
      ${WAYS.map(
        ([w, label]) => html`<button key=${w} type="button" class=${w === way ? "way on" : "way"}
          aria-pressed=${w === way ? "true" : "false"} onClick=${() => { setWay(w); setError(null); }}>${label}</button>`,
      )}
    </div>
    <form onSubmit=${go} aria-label=${title}>
      <label for="sign-name">${way === "guest" ? "Your name" : "Account name"}</label>
      <input id="sign-name" type="text" required maxlength="40" value=${name}
        autocomplete=${way === "guest" ? "nickname" : "username"}
        onInput=${(e) => setName(e.currentTarget.value)} />
      ${way === "guest"
        ? null
        : html`<label for="sign-password">Password${way === "signup" ? " (at least 8 characters)" : ""}</label>
            <input id="sign-password" type="password" required minlength=${way === "signup" ? 8 : 1} maxlength="200"
              autocomplete=${way === "signup" ? "new-password" : "current-password"} value=${password}
              onInput=${(e) => setPassword(e.currentTarget.value)} />`}
      <button class="go" type="submit" disabled=${busy}>${way === "guest" ? "Play as guest" : title}</button>
      ${way === "guest"
        ? html`<p class="quiet">A guest plays under a name for this visit; an account keeps its name.</p>`
        : null}
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    </form>
  </section>`;
}

/** Who is here: the avatar, the name, and the way out. */
function Me({ me, onOut }) {
  const [error, setError] = useState(null);
  const name = who(me);
  const kind = me && me.user ? me.user.kind : null;
  const out = async () => {
    setError(null);
    try {
      await postJson("/api/logout", {}, me.csrf);
      onOut();
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<div class="me">
    <img src=${`/api/avatar/${encodeURIComponent(name)}.svg`} alt="" width="40" height="40" />
    <span>Playing as <a href=${me && me.user ? "/players/" + encodeURIComponent(kind === "guest" ? `guest:${me.user.id}` : `account:${name}`) : "/players"}
      title="Your page: matches, rating, partners"
      style=${{ display: "inline-flex", alignItems: "center", minHeight: "32px", minWidth: "32px" }}><b>${name}</b></a>${kind === "guest" ? " (guest)" : ""}</span>
    <button type="button" class="log-out" onClick=${out}>Log out</button>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </div>`;
}

const SEAT_KINDS = [
  ["character", "a character"],
  ["bot", "a bot"],
  ["open", "open (a person)"],
];

//: the characters of tricktable.characters.roster, when /api/games does not list them
const CHARACTERS = [
  { name: "edna", title: "Edna" },
  { name: "vinnie", title: "Vinnie" },
  { name: "rosa", title: "Rosa" },
  { name: "ada", title: "Ada" },
  { name: "moe", title: "Moe" },
  { name: "kit", title: "Kit" },
];

//: the levels of a table's bots, as the server names them and as a person reads them (no
//: level may read as a card's suit: "club" is the server's word only)
const LEVELS = [
  ["beginner", "Beginner"],
  ["club", "Seasoned"],
  ["expert", "Expert"],
];

function Create({ me, games, characters: listed }) {
  const characters = listed && listed.length ? listed : CHARACTERS;
  const [game, setGame] = useState(games.some((x) => x.name === "setback") ? "setback" : games[0] ? games[0].name : "setback");
  const [variant, setVariant] = useState("");
  const g = games.find((x) => x.name === game) || games[0] || { tables: [{ seats: 4, partners: [{ words: null, options: {} }] }], variants: [] };
  const v = g.variants.find((x) => x.name === variant);
  const rules = v || g;
  const tables = rules.tables;
  const [players, setPlayers] = useState(null);
  const [seating, setSeating] = useState(0);
  // A size the rules allow: the one chosen, else the rules' own, else the first.
  const own = tables.find((t) => t.seats === rules.players) || tables[0];
  const table = tables.find((t) => t.seats === players) || own;
  const n = table.seats;
  const choice = table.partners[seating] || table.partners[0];
  const [kinds, setKinds] = useState(() => Array(8).fill("character"));
  const [names, setNames] = useState(() =>
    Array.from({ length: 8 }, (_, s) => (s ? characters[(s - 1) % characters.length].name : "")),
  );
  const [level, setLevel] = useState("club");
  const [target, setTarget] = useState("");
  const [seconds, setSeconds] = useState("60");
  const [error, setError] = useState(null);
  const [made, setMade] = useState(null);
  const pick = (name, variantName) => {
    setGame(name);
    setVariant(variantName);
    setPlayers(null);
    setSeating(0);
    setError(null);
  };
  const create = async (e) => {
    e.preventDefault();
    setError(null);
    const seats = [{ kind: "me" }];
    for (let s = 1; s < n; s++) {
      const seat = { kind: kinds[s] };
      if (kinds[s] === "character") seat.name = names[s] || characters[(s - 1) % characters.length].name;
      if (kinds[s] !== "open") seat.level = level;
      seats.push(seat);
    }
    // The size and seating are options the server gave with their words (`/api/games`).
    const options = { ...choice.options };
    if (target) options.target = Number(target);
    const body = { game: variant || game, options, seats, move_time: Number(seconds) || 0 };
    try {
      const fresh = await getJson("/api/me");
      const t = await postJson("/api/tables", body, fresh.csrf || fresh.csrf_token);
      const info = t.table && typeof t.table === "object" ? t.table : t;
      const id = info.id;
      if (t.seat_token) {
        try {
          localStorage.setItem(seatTokenKey(id), t.seat_token);
        } catch (err) {
          /* the session cookie still holds the seat */
        }
      }
      const url = new URL(t.url || `/t/${encodeURIComponent(id)}`, location.href).href;
      setMade({ id, url });
      if (!seats.some((s) => s.kind === "open")) location.assign(url);
    } catch (err) {
      setError(err.message);
    }
  };
  if (made) {
    return html`<section class="panel" aria-labelledby="made-title">
      <h2 id="made-title">Your table is ready</h2>
      <p>Send this link to the friends who will sit at the open seats:</p>
      <p class="invite"><a href=${made.url}>${made.url}</a></p>
      <div class="row-buttons">
        <button type="button" onClick=${() => navigator.clipboard && navigator.clipboard.writeText(made.url)}>Copy the link</button>
        <a class="go button-link" href=${made.url}>Go to the table</a>
      </div>
    </section>`;
  }
  const several = table.partners.length > 1;
  return html`<section class="panel" aria-labelledby="create-title">
    <h2 id="create-title">Start a table</h2>
    <form onSubmit=${create}>
      <div class="row">
        <div>
          <label for="game">Game</label>
          <select id="game" value=${game} onChange=${(e) => pick(e.currentTarget.value, "")}>
            ${games.map((x) => html`<option key=${x.name} value=${x.name}>${x.title}</option>`)}
          </select>
        </div>
        <div>
          <label for="variant">Variant</label>
          <select id="variant" value=${variant} onChange=${(e) => pick(game, e.currentTarget.value)}>
            <option value="">standard</option>
            ${g.variants.map((x) => html`<option key=${x.name} value=${x.name} title=${x.summary}>${x.title}</option>`)}
          </select>
        </div>
      </div>
      ${rules.summary ? html`<p class="quiet rules-summary">${rules.summary}</p>` : null}
      <div class="row">
        <div class="size">
          <label for="players">Seats</label>
          <select id="players" value=${String(n)}
            onChange=${(e) => { setPlayers(Number(e.currentTarget.value)); setSeating(0); }}>
            ${tables.map((t) => html`<option key=${t.seats} value=${String(t.seats)}>${t.seats}</option>`)}
          </select>
        </div>
        <div class="seating-choice">
          ${several
            ? html`<label for="partners">Partners</label>
                <select id="partners" value=${String(table.partners.indexOf(choice))}
                  onChange=${(e) => setSeating(Number(e.currentTarget.value))}>
                  ${table.partners.map((c, i) => html`<option key=${i} value=${String(i)}>${c.words || "as the game has it"}</option>`)}
                </select>`
            : choice.words
              ? html`<span class="label">Partners</span><p class="seating">${choice.words}</p>`
              : null}
        </div>
      </div>
      <div class="row">
        <div>
          <label for="target">Target</label>
          <input id="target" type="number" min="1" max="10000" placeholder="the game's" value=${target}
            onInput=${(e) => setTarget(e.currentTarget.value)} />
        </div>
        <div>
          <label for="seconds">Seconds a move</label>
          <input id="seconds" type="number" min="5" max="600" value=${seconds}
            onInput=${(e) => setSeconds(e.currentTarget.value)} />
        </div>
      </div>
      <label for="level">Bots and characters play at</label>
      <select id="level" value=${level} onChange=${(e) => setLevel(e.currentTarget.value)}>
        ${LEVELS.map(([k, words]) => html`<option key=${k} value=${k}>${words} level</option>`)}
      </select>
      <fieldset>
        <legend>Who sits where</legend>
        <div class="seats-form">
          <span>Seat 1</span><span>you${who(me) ? ` (${who(me)})` : ""}</span><span></span>
          ${Array.from({ length: n - 1 }, (_, i) => {
            const s = i + 1;
            return html`<label key=${"l" + s} for=${"seat-" + s}>Seat ${s + 1}</label>
              <select key=${"k" + s} id=${"seat-" + s} value=${kinds[s]}
                onChange=${(e) => { const k = kinds.slice(); k[s] = e.currentTarget.value; setKinds(k); }}>
                ${SEAT_KINDS.map(([k, label]) => html`<option key=${k} value=${k}>${label}</option>`)}
              </select>
              ${kinds[s] === "character" && characters.length
                ? html`<select key=${"c" + s} aria-label=${`Character at seat ${s + 1}`} value=${names[s]}
                    onChange=${(e) => { const m = names.slice(); m[s] = e.currentTarget.value; setNames(m); }}>
                    ${characters.map((c) => html`<option key=${c.name} value=${c.name}>${c.title || c.name}</option>`)}
                  </select>`
                : html`<span key=${"c" + s}></span>`}`;
          })}
        </div>
      </fieldset>
      <button class="go" type="submit">Create the table</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    </form>
  </section>`;
}

function seatWords(t, myId) {
  if (Array.isArray(t.seats))
    return t.seats
      .map((s) => {
        if (s.kind === "open" || !s.name) return "open";
        if (myId != null && s.user === myId) return "you";
        return s.kind === "person" && s.away ? `${s.name} (away)` : s.name;
      })
      .join(", ");
  return t.seats != null ? `${t.seats} seats` : "";
}

/** Whether a table is worth listing: somebody is at it. A table whose people have all left
 * (every person's seat away or opened again: only bots play on) is hidden, as is one with
 * no person at all; the server closes or finishes it by its `when_empty`. */
export function peopled(t) {
  if (!Array.isArray(t.seats)) return true;
  if (t.status === "closed") return false;
  return t.seats.some((s) => s.kind === "person" && !s.away);
}

function Tables({ tables, myId }) {
  const shown = tables.filter(peopled);
  if (!shown.length) return html`<p>No table is open right now: start one.</p>`;
  return html`<table class="tables">
    <thead><tr><th scope="col">Game</th><th scope="col">Seats</th><th scope="col">Watching</th><th scope="col"><span class="sr-only">Go</span></th></tr></thead>
    <tbody>
      ${shown.map((t) => {
        const info = t.table && typeof t.table === "object" ? t.table : t;
        const id = info.id;
        const url = `/t/${encodeURIComponent(id)}`;
        const seats = Array.isArray(t.seats) ? t.seats : [];
        const mine = myId != null && seats.some((s) => s.kind === "person" && s.user === myId);
        const open = Array.isArray(t.seats) ? seats.some((s) => s.kind === "open") : !!t.open;
        return html`<tr key=${id}>
          <td>${t.title || t.game}${t.variant ? html` <small>${t.variant}</small>` : null}</td>
          <td>${seatWords(t, myId)}</td>
          <td>${t.watchers ?? 0}</td>
          <td class="actions-cell">
            ${mine
              ? html`<a class="button-link" href=${url}>Your seat</a>`
              : html`${open ? html`<a class="button-link" href=${url}>Join</a>` : null}
                  <a class="button-link" href=${`${url}?watch=1`}>Watch</a>`}
          </td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** The lobby's chat: everyone in the lobby (`chat` with `table` null), kept for this visit. */
function LobbyChat({ lines, onSay }) {
  const [text, setText] = useState("");
  const list = useRef(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  });
  const send = (e) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    onSay(t);
    setText("");
  };
  return html`<section class="panel chat lobby-chat" aria-labelledby="lobby-chat-title">
    <h2 id="lobby-chat-title">Lobby chat</h2>
    <ol class="messages" ref=${list} role="log" aria-live="polite" aria-labelledby="lobby-chat-title">
      ${lines.length
        ? lines.map((m, i) => html`<li key=${i} class=${m.watcher ? "k-watcher" : null}><b>${m.from}</b> ${m.text}</li>`)
        : html`<li class="quiet">Nobody has said anything yet.</li>`}
    </ol>
    <form onSubmit=${send}>
      <label for="lobby-chat-text">Say to the lobby</label>
      <input id="lobby-chat-text" name="text" autocomplete="off" maxlength="300" value=${text}
        onInput=${(e) => setText(e.currentTarget.value)} />
      <button type="submit">Send</button>
    </form>
  </section>`;
}

function Lobby() {
  const [me, setMe] = useState(undefined);
  const [games, setGames] = useState([]);
  const [characters, setCharacters] = useState([]);
  const [tables, setTables] = useState([]);
  const [error, setError] = useState(null);
  const [chat, setChat] = useState([]);
  const wireRef = useRef(null);
  const loadMe = () =>
    getJson("/api/me")
      .then(setMe)
      .catch(() => setMe(null));
  const name = who(me);
  useEffect(() => {
    // The lobby's live list needs a session: subscribe once there is one.
    if (!name) return undefined;
    const wire = new Wire({
      table: null,
      lobby: true,
      onMessage: (env) => {
        if (env.type === "lobby" && env.data) setTables(env.data.tables || []);
        // Lobby chat: a `chat` with no table (the table page hears its own).
        if (env.type === "chat" && env.table == null && env.data && env.data.text)
          setChat((old) => [...old.slice(-199), { from: env.data.from || "someone", text: String(env.data.text), watcher: !!env.data.watcher }]);
      },
    });
    wireRef.current = wire;
    wire.connect();
    return () => {
      wireRef.current = null;
      wire.close();
    };
  }, [name]);
  useEffect(() => {
    loadMe();
    getJson("/api/games")
      .then((body) => {
        setGames(readGames(body));
        setCharacters((body && body.characters) || []);
      })
      .catch((err) => setError(err.message));
    getJson("/api/tables")
      .then((body) => setTables(Array.isArray(body) ? body : body.tables || []))
      .catch(() => {});
  }, []);
  const myId = me && me.user ? me.user.id : null;
  return html`<main class="lobby">
    <h1>tricktable — card tables</h1>
    ${error ? html`<p class="error wide" role="alert">${error}</p>` : null}
    ${me === undefined
      ? html`<p class="wide">Loading…</p>`
      : name
        ? games.length
          ? html`<${Create} key=${myId} me=${me} games=${games} characters=${characters} />`
          : html`<p class="wide">Loading the games…</p>`
        : html`<${SignIn} onDone=${loadMe} />`}
    <section class="panel" aria-labelledby="tables-title">
      ${name ? html`<${Me} me=${me} onOut=${() => { setChat([]); loadMe(); }} />` : null}
      <h2 id="tables-title">Open tables</h2>
      <${Tables} tables=${tables} myId=${myId} />
    </section>
    ${name ? html`<${MyBots} key=${myId} me=${me} />` : null}
    ${name ? html`<${LobbyChat} lines=${chat} onSay=${(t) => wireRef.current && wireRef.current.send("chat", { text: t })} />` : null}
  </main>`;
}

/** Start the lobby in `root`. */
export function start(root) {
  root.textContent = "";
  render(html`<${Lobby} />`, root);
}
