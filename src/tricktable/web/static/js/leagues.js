// The leagues' page: the leagues, one league's divisions (teams, nights, standings), and for
// its owner the buttons that schedule the season and play a night now.
//
// `/leagues` draws `GET /api/leagues`; `/leagues/ID` draws `GET /api/leagues/ID`
// (web/leagues.py) every two seconds while a night plays. Creating a league and adding teams
// are the API's (docs/protocol-web.md, "Leagues"). Names are the server's data, written as
// text (htm escapes them), never as markup.

import { html, render, useEffect, useState } from "./ui.js";

//: how often the page asks again while a night plays (ms)
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

const signed = (x) => (x == null ? "—" : (x >= 0 ? "+" : "") + Number(x).toFixed(2));

function post(me, url) {
  return getJson(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": me.csrf },
    body: "{}",
  });
}

function Standings({ rows }) {
  if (!rows.length) return html`<p>No teams yet.</p>`;
  return html`<table class="standings">
    <thead><tr><th>#</th><th>Team</th><th>Nights</th><th>Total</th><th>Per deal (95%)</th><th>Rating</th></tr></thead>
    <tbody>${rows.map(
      (r, i) => html`<tr>
        <td>${i + 1}</td><td>${r.team}</td><td>${r.nights}</td><td>${signed(r.total)}</td>
        <td>${r.per_deal ? `${signed(r.per_deal.mean)} [${signed(r.per_deal.low)}, ${signed(r.per_deal.high)}]` : "—"}</td>
        <td>${Number(r.rating).toFixed(1)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

function League({ id, me }) {
  const [league, setLeague] = useState(null);
  const [error, setError] = useState("");
  const load = () => getJson(`/api/leagues/${id}`).then(setLeague).catch((e) => setError(e.message));
  useEffect(() => {
    load();
  }, [id]);
  const playing = league && league.divisions.some((d) => d.nights.some((n) => n.status === "playing"));
  useEffect(() => {
    if (!playing) return undefined;
    const timer = setInterval(load, POLL_MS);
    return () => clearInterval(timer);
  }, [playing]);
  const act = (url) => post(me, url).then(load).catch((e) => setError(e.message));
  if (!league) return html`<p>${error || "Loading…"}</p>`;
  const account = me && me.kind === "account";
  return html`<section>
    <h1>${league.name}</h1>
    <p>${league.game}, ${league.deals} deals a night — season ${league.season.number} (${league.season.status}).
      Every table of a night plays the same deals, seats rotated; a team scores its margin against the field that held the same cards.</p>
    ${error && html`<p class="error">${error}</p>`}
    ${account && league.season.status === "open" && html`<button onClick=${() => act(`/api/leagues/${id}/schedule`)}>Schedule the season</button>`}
    ${league.divisions.map(
      (d) => html`<section>
        <h2>Division ${d.level}</h2>
        <${Standings} rows=${d.standings} />
        <h3>Nights</h3>
        <ul>${d.nights.map(
          (n) => html`<li>
            Night ${n.night}: ${n.tables.map((t) => t.join(" v ")).join("; ")} — ${n.status}
            ${account && (n.status === "scheduled" || n.status === "failed") &&
            html` <button onClick=${() => act(`/api/leagues/${id}/nights/${n.id}`)}>Play now</button>`}
          </li>`,
        )}</ul>
      </section>`,
    )}
  </section>`;
}

function Listing() {
  const [leagues, setLeagues] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => {
    getJson("/api/leagues").then((b) => setLeagues(b.leagues)).catch((e) => setError(e.message));
  }, []);
  if (!leagues) return html`<p>${error || "Loading…"}</p>`;
  if (!leagues.length) return html`<p>No leagues yet.</p>`;
  return html`<ul>${leagues.map((l) => html`<li><a href=${`/leagues/${l.id}`}>${l.name}</a> (${l.game})</li>`)}</ul>`;
}

function Page({ path }) {
  const [me, setMe] = useState(null);
  useEffect(() => {
    getJson("/api/me").then(setMe).catch(() => setMe(null));
  }, []);
  const found = /^\/leagues\/(\d+)$/.exec(path);
  return found ? html`<${League} id=${found[1]} me=${me} />` : html`<h1>Leagues</h1><${Listing} />`;
}

export function start(root, path) {
  root.textContent = "";
  render(html`<${Page} path=${path} />`, root);
}
