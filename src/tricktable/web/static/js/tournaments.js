// The tournaments' page: start a duplicate tournament between bots, watch the list move, read
// one tournament's standings (and link to its report).
//
// `/tournaments` draws `GET /api/tournaments` (web/tournaments.py) every two seconds while one
// runs, and offers an account the form that posts `POST /api/tournaments`; `/tournaments/ID`
// draws `GET /api/tournaments/ID` and its games (`.../games`: those being played, each watched
// live at `/tournaments/ID/games/UNIT`, and the last stored, each replayed). Names are the server's data, written as text (htm escapes
// them), never as markup.

import { html, render, useEffect, useState } from "./ui.js";

//: how often the page asks again while a tournament runs (ms)
const POLL_MS = 2000;

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

const pct = (x) => (x == null ? "—" : `${Math.round(x * 100)}%`);
const signed = (x) => (x == null ? "—" : (x >= 0 ? "+" : "") + Number(x).toFixed(2));

function Form({ me, games, choices, caps, onStarted }) {
  const [game, setGame] = useState("setback");
  const [picked, setPicked] = useState(["heuristic", "random"]);
  const [deals, setDeals] = useState(20);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  if (!me || me.user == null || me.user.kind !== "account") {
    return html`<p class="quiet">Sign in to an account on <a href="/">the lobby</a> to start a tournament.</p>`;
  }
  const offered = [...choices.bots.map((b) => [b, b]), ...choices.characters.map((c) => [c.name, c.title])];
  const toggle = (name) =>
    setPicked(picked.includes(name) ? picked.filter((p) => p !== name) : [...picked, name]);
  const submit = async (ev) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await getJson("/api/tournaments", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": me.csrf },
        body: JSON.stringify({ game, entrants: picked, deals: Number(deals) }),
      });
      onStarted();
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<form id="start" onSubmit=${submit}>
    <h2>Start a duplicate tournament</h2>
    <label>Game <select id="game" value=${game} onChange=${(e) => setGame(e.target.value)}>
      ${games.map((g) => html`<option key=${g.name} value=${g.name}>${g.title || g.name}</option>`)}
    </select></label>
    <fieldset><legend>Entrants (${caps.entrants[0]} to ${caps.entrants[1]}: tricktable's own bots and characters)</legend>
      ${offered.map(
        ([name, title]) => html`<label key=${name}><input type="checkbox" name="entrant" value=${name}
          checked=${picked.includes(name)} onChange=${() => toggle(name)} /> ${title}</label>`,
      )}
    </fieldset>
    <label>Deals at each table <input id="deals" type="number" min="1" max=${caps.deals} value=${deals}
      onInput=${(e) => setDeals(e.target.value)} /></label>
    <button type="submit" disabled=${busy}>Start</button>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </form>`;
}

function List({ tournaments }) {
  if (!tournaments.length) return html`<p class="quiet">No tournament yet.</p>`;
  return html`<table id="tournaments">
    <thead><tr><th>name</th><th>game</th><th>entrants</th><th>status</th><th>progress</th><th>started</th><th>by</th><th></th></tr></thead>
    <tbody>${tournaments.map(
      (t) => html`<tr key=${t.id} data-id=${t.id} data-status=${t.status}>
        <td><a href=${t.url}>${t.name}</a></td><td>${t.game}</td><td>${t.entrants.join(", ")}</td>
        <td class="status">${t.status}</td>
        <td><progress max=${t.total || 1} value=${t.done}></progress> ${t.done}/${t.total ?? "?"}</td>
        <td>${t.started.replace("T", " ").slice(0, 16)}</td><td>${t.owner || "—"}</td>
        <td>${t.status === "finished" && html`<a class="report" href=${t.report}>report</a>`}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

function Overview() {
  const [me, setMe] = useState(null);
  const [games, setGames] = useState([]);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    getJson("/api/me").then(setMe).catch(() => setMe(null));
    getJson("/api/games").then((b) => setGames(b.games || [])).catch((e) => setError(e.message));
  }, []);
  useEffect(() => {
    let timer = null;
    getJson("/api/tournaments")
      .then((b) => {
        setData(b);
        if (b.tournaments.some((t) => t.status === "running")) timer = setTimeout(() => setTick((n) => n + 1), POLL_MS);
      })
      .catch((e) => setError(e.message));
    return () => clearTimeout(timer);
  }, [tick]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!data) return html`<p class="loading">Loading…</p>`;
  return html`<h1>Tournaments</h1>
    <${Form} me=${me} games=${games} choices=${data.choices} caps=${data.caps} onStarted=${() => setTick((n) => n + 1)} />
    <h2>The newest</h2>
    <${List} tournaments=${data.tournaments} />`;
}

function Standings({ st }) {
  const unit = st.tournament.unit;
  return html`<table id="standings">
    <thead><tr><th>#</th><th>entrant</th><th>games</th><th>W-L-S</th><th>win rate</th><th>margin/${unit}</th></tr></thead>
    <tbody>${st.standings.map(
      (r) => html`<tr key=${r.name}><td>${r.rank}</td><td class="entrant">${r.name}</td><td class="num">${r.games}</td>
        <td class="num">${r.won}-${r.lost}-${r.shared}</td>
        <td class="num">${pct(r.win_rate && r.win_rate.rate)}</td><td class="num">${signed(r.margin && r.margin.mean)}</td></tr>`,
    )}</tbody>
  </table>
  <p class="quiet">Ranked by ${st.ranked_by}; ${st.tournament.games} games, ${st.tournament.deals} ${unit}s.</p>`;
}

/** The games being played now (each watched live) and the last stored (each replayed). */
function Games({ games }) {
  if (!games) return null;
  const links = (list) =>
    list.map((g) => html`<li key=${g.unit}><a class="game" href=${g.page}>${g.unit}</a></li>`);
  return html`<section class="games">
    ${games.playing.length
      ? html`<h2>Playing now</h2><ul class="playing">${links(games.playing)}</ul>`
      : null}
    ${games.recent.length
      ? html`<h2>Games played</h2><ul class="recent">${links(games.recent)}</ul>`
      : null}
  </section>`;
}

function One({ id }) {
  const [t, setT] = useState(null);
  const [games, setGames] = useState(null);
  const [error, setError] = useState(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let timer = null;
    getJson(`/api/tournaments/${encodeURIComponent(id)}`)
      .then((b) => {
        setT(b);
        if (b.status === "running") timer = setTimeout(() => setTick((n) => n + 1), POLL_MS);
      })
      .catch((e) => setError(e.message));
    getJson(`/api/tournaments/${encodeURIComponent(id)}/games`)
      .then(setGames)
      .catch(() => setGames(null));
    return () => clearTimeout(timer);
  }, [tick]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!t) return html`<p class="loading">Loading…</p>`;
  return html`<h1>${t.name}</h1>
    <p>${t.game}, ${t.deals} deals a table, seed ${String(t.seed)}; by ${t.owner || "—"};
      <span class="status">${t.status}</span>: ${t.done} of ${t.total ?? "?"} games
      <progress max=${t.total || 1} value=${t.done}></progress></p>
    ${t.standings ? html`<${Standings} st=${t.standings} />` : html`<p class="quiet">The standings come when it has finished.</p>`}
    ${t.status === "finished" && html`<p><a class="report" href=${t.report}>The report</a></p>`}
    <${Games} games=${games} />
    <p><a href="/tournaments">Every tournament</a></p>`;
}

/** Draw the page of `path` (`/tournaments` or `/tournaments/ID`) into `root`. */
export function start(root, path) {
  const m = /^\/tournaments\/(\d+)\/?$/.exec(path);
  root.textContent = "";
  render(m ? html`<${One} id=${m[1]} />` : html`<${Overview} />`, root);
}
