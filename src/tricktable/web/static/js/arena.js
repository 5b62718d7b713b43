// The arena's page: seat bots alone at a table — web services by URL, accounts' bots by name,
// levels, characters; empty seats the built-in AI — and watch the match with every hand face up.
//
// The form posts `POST /api/arena` (web/arena.py) with the CSRF token of `/api/me` (a guest is
// made first if nobody is signed in), then opens the table page (`/t/ID`) to watch. The games
// come from `/api/games`. What the server says is written as text (htm escapes it).

import { html, render, useEffect, useState } from "./ui.js";

const LEVELS = [
  ["beginner", "Beginner"],
  ["club", "Seasoned"],
  ["expert", "Expert"],
];
const CHARACTERS = ["Edna", "Vinnie", "Rosa", "Ada", "Moe", "Kit"];
const KINDS = [
  ["empty", "the built-in AI"],
  ["endpoint", "a web service (URL)"],
  ["bot", "an account's bot (name)"],
  ["level", "a level"],
  ["character", "a character"],
];

async function getJson(url, options = {}) {
  const r = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, ...options });
  let body = null;
  try {
    body = await r.json();
  } catch (err) {
    /* the status says it */
  }
  if (!r.ok) throw new Error((body && body.error) || `${r.status} ${r.statusText}`);
  return body;
}

async function session() {
  const me = await getJson("/api/me");
  if (me && me.user) return me;
  const name = "watcher-" + Math.random().toString(36).slice(2, 8);
  return getJson("/api/guest", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ name }),
  });
}

/** One seat's picker: its kind, and the URL, name, level or character it needs. */
function SeatPicker({ i, seat, set }) {
  const change = (key) => (e) => set({ ...seat, [key]: e.target.value });
  const kind = seat.kind;
  return html`<fieldset class="arena-seat" data-seat=${i}>
    <legend>Seat ${i + 1}</legend>
    <select class="kind" aria-label=${`seat ${i + 1}: who plays`} value=${kind} onChange=${change("kind")}>
      ${KINDS.map(([k, words]) => html`<option key=${k} value=${k}>${words}</option>`)}
    </select>
    ${kind === "endpoint"
      ? html`<input class="value" type="url" placeholder="http://host:port/path" aria-label=${`seat ${i + 1}: URL`}
          value=${seat.value || ""} onInput=${change("value")} />`
      : kind === "bot"
      ? html`<input class="value" placeholder="bot's name" aria-label=${`seat ${i + 1}: bot's name`}
          value=${seat.value || ""} onInput=${change("value")} />`
      : kind === "level"
      ? html`<select class="value" aria-label=${`seat ${i + 1}: level`} value=${seat.value || "club"} onChange=${change("value")}>
          ${LEVELS.map(([l, words]) => html`<option key=${l} value=${l}>${words}</option>`)}
        </select>`
      : kind === "character"
      ? html`<select class="value" aria-label=${`seat ${i + 1}: character`} value=${seat.value || "Edna"} onChange=${change("value")}>
          ${CHARACTERS.map((c) => html`<option key=${c} value=${c}>${c}</option>`)}
        </select>`
      : null}
  </fieldset>`;
}

/** A seat's picker as the API's entry (null: the built-in AI). */
function entry(seat) {
  if (seat.kind === "endpoint") return { endpoint: seat.value || "" };
  if (seat.kind === "bot") return { bot: seat.value || "" };
  if (seat.kind === "level") return { level: seat.value || "club" };
  if (seat.kind === "character") return { character: seat.value || "Edna" };
  return null;
}

function Arena() {
  const [games, setGames] = useState([]);
  const [game, setGame] = useState("setback");
  const [seats, setSeats] = useState(() => Array.from({ length: 4 }, () => ({ kind: "empty" })));
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    getJson("/api/games")
      .then((g) => setGames(g.games || []))
      .catch((err) => setError(err.message));
  }, []);
  const submit = async (ev) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const me = await session();
      const answer = await getJson("/api/arena", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": me.csrf },
        body: JSON.stringify({ game, seats: seats.map(entry) }),
      });
      location.assign(answer.url);
    } catch (err) {
      setError(err.message);
      setBusy(false);
    }
  };
  return html`<form id="arena" onSubmit=${submit}>
    <h1>The arena</h1>
    <p class="quiet">Bots alone play a match: no person plays, so you watch it with every hand face up.
      A web service speaks the HTTP bot protocol; one that fails is substituted, the fault shown.</p>
    <label>Game <select id="game" value=${game} onChange=${(e) => setGame(e.target.value)}>
      ${games.map((g) => html`<option key=${g.name} value=${g.name}>${g.title || g.name}</option>`)}
    </select></label>
    ${seats.map(
      (seat, i) => html`<${SeatPicker} key=${i} i=${i} seat=${seat}
        set=${(s) => setSeats(seats.map((old, k) => (k === i ? s : old)))} />`,
    )}
    <button type="submit" disabled=${busy}>Start the match</button>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </form>`;
}

export function start(root) {
  root.textContent = "";
  render(html`<${Arena} />`, root);
}
