// The lobby: play as a guest, see the open tables live, create a table, share its invite link.
//
// HTTP for what a form does (`/api/me`, `/api/guest`, `/api/games`, `POST /api/tables`, each
// post carrying the CSRF token of `/api/me` as X-CSRF-Token) and the websocket's `lobby`
// subscription for the live list of tables.

import { html, render, useEffect, useRef, useState } from "./ui.js";
import { Wire, seatTokenKey } from "./wire.js";

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

/** The games of `/api/games` as [{name, title, seats: [n...], variants: [{name, title, seats}]}]. */
function readGames(body) {
  const list = Array.isArray(body) ? body : body.games || [];
  return list.map((g) => ({
    name: g.name,
    title: g.title || g.name,
    seats: g.seats || g.seat_counts || [4],
    players: g.players ?? null,
    target: g.target ?? null,
    variants: (g.variants || []).map((v) => ({
      name: v.name,
      title: v.title || v.name,
      summary: v.summary || "",
      seats: v.seats || v.seat_counts || null,
    })),
  }));
}

function Guest({ onDone }) {
  const [name, setName] = useState("");
  const [error, setError] = useState(null);
  const go = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const me = await getJson("/api/me");
      await postJson("/api/guest", { name: name.trim() }, me.csrf || me.csrf_token);
      onDone();
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<section class="panel" aria-labelledby="guest-title">
    <h2 id="guest-title">Play as a guest</h2>
    <form onSubmit=${go}>
      <label for="guest-name">Your name</label>
      <input id="guest-name" type="text" required maxlength="24" autocomplete="nickname" value=${name}
        onInput=${(e) => setName(e.currentTarget.value)} />
      <button class="go" type="submit">Play as guest</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    </form>
  </section>`;
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

function Create({ me, games, characters: listed }) {
  const characters = listed && listed.length ? listed : CHARACTERS;
  const [game, setGame] = useState(games.some((x) => x.name === "setback") ? "setback" : games[0] ? games[0].name : "setback");
  const [variant, setVariant] = useState("");
  const g = games.find((x) => x.name === game) || games[0] || { seats: [4], variants: [] };
  const v = g.variants.find((x) => x.name === variant);
  const counts = v && v.seats ? [v.seats].flat() : g.seats;
  const [players, setPlayers] = useState(counts.includes(4) ? 4 : counts[0]);
  const n = counts.includes(players) ? players : counts[0];
  const [kinds, setKinds] = useState(() => Array(7).fill("character"));
  const [names, setNames] = useState(() =>
    Array.from({ length: 7 }, (_, s) => (s ? characters[(s - 1) % characters.length].name : "")),
  );
  const [level, setLevel] = useState("club");
  const [target, setTarget] = useState("");
  const [seconds, setSeconds] = useState("60");
  const [error, setError] = useState(null);
  const [made, setMade] = useState(null);
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
    // The seats' count is the game's: a count other than the default is the option `players`.
    const options = {};
    if (n !== g.players) options.players = n;
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
      <button type="button" onClick=${() => navigator.clipboard && navigator.clipboard.writeText(made.url)}>Copy the link</button>
      <a class="go" href=${made.url} style="margin-left:1rem">Go to the table</a>
    </section>`;
  }
  return html`<section class="panel" aria-labelledby="create-title">
    <h2 id="create-title">Start a table</h2>
    <form onSubmit=${create}>
      <div class="row">
        <div>
          <label for="game">Game</label>
          <select id="game" value=${game} onChange=${(e) => { setGame(e.currentTarget.value); setVariant(""); }}>
            ${games.map((x) => html`<option key=${x.name} value=${x.name}>${x.title}</option>`)}
          </select>
        </div>
        <div>
          <label for="variant">Variant</label>
          <select id="variant" value=${variant} onChange=${(e) => setVariant(e.currentTarget.value)}>
            <option value="">standard</option>
            ${g.variants.map((x) => html`<option key=${x.name} value=${x.name} title=${x.summary}>${x.title}</option>`)}
          </select>
        </div>
      </div>
      <div class="row">
        <div>
          <label for="players">Seats</label>
          <select id="players" value=${String(n)} onChange=${(e) => setPlayers(Number(e.currentTarget.value))}>
            ${counts.map((c) => html`<option key=${c} value=${String(c)}>${c}</option>`)}
          </select>
        </div>
        <div>
          <label for="target">Target</label>
          <input id="target" type="number" min="1" max="500" placeholder="the game's" value=${target}
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
        <option value="beginner">beginner level</option>
        <option value="club">club level</option>
        <option value="expert">expert level</option>
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

function seatWords(t) {
  if (Array.isArray(t.seats))
    return t.seats.map((s) => (s.kind === "open" || !s.name ? "open" : s.name)).join(", ");
  return t.seats != null ? `${t.seats} seats` : "";
}

function Tables({ tables }) {
  if (!tables.length) return html`<p>No table is open right now: start one.</p>`;
  return html`<table class="tables">
    <thead><tr><th scope="col">Game</th><th scope="col">Seats</th><th scope="col">Watching</th><th scope="col"><span class="sr-only">Go</span></th></tr></thead>
    <tbody>
      ${tables.map((t) => {
        const info = t.table && typeof t.table === "object" ? t.table : t;
      const id = info.id;
        const open = Array.isArray(t.seats) ? t.seats.some((s) => s.kind === "open") : !!t.open;
        return html`<tr key=${id}>
          <td>${t.title || t.game}${t.variant ? html` <small>${t.variant}</small>` : null}</td>
          <td>${seatWords(t)}</td>
          <td>${t.watchers ?? 0}</td>
          <td class="actions-cell">
            ${open ? html`<a href=${`/t/${encodeURIComponent(id)}`}>Join</a>` : null}
            <a href=${`/t/${encodeURIComponent(id)}?watch=1`}>Watch</a>
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
  return html`<main class="lobby">
    <h1>tricktable — card tables</h1>
    ${error ? html`<p class="error wide" role="alert">${error}</p>` : null}
    ${me === undefined
      ? html`<p class="wide">Loading…</p>`
      : name
        ? games.length
          ? html`<${Create} me=${me} games=${games} characters=${characters} />`
          : html`<p class="wide">Loading the games…</p>`
        : html`<${Guest} onDone=${loadMe} />`}
    <section class="panel" aria-labelledby="tables-title">
      ${name
        ? html`<p class="me"><img src=${`/api/avatar/${encodeURIComponent(name)}.svg`} alt="" width="40" height="40" />
            <span>Playing as <b>${name}</b></span></p>`
        : null}
      <h2 id="tables-title">Open tables</h2>
      <${Tables} tables=${tables} />
    </section>
    ${name ? html`<${LobbyChat} lines=${chat} onSay=${(t) => wireRef.current && wireRef.current.send("chat", { text: t })} />` : null}
  </main>`;
}

/** Start the lobby in `root`. */
export function start(root) {
  root.textContent = "";
  render(html`<${Lobby} />`, root);
}
