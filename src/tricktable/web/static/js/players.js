// The players' pages: a game's standings by rating, and one player's page.
//
// `/players?game=G` draws `GET /api/players?game=G`; `/players/NAME` draws
// `GET /api/players/NAME` (web/profiles.py): matches and won-lost by game with the win rate's
// 95% interval, the rating (OpenSkill, one a game) and its history as an inline SVG drawn
// here, bids made and set, points a hand, partners and rivals, the recent matches with their
// replays. Every name is the server's data, written as text (htm escapes it), never as markup.

import { html, render, useEffect, useState } from "./ui.js";

//: one colour a game in the rating's plot (and its legend)
const COLOURS = ["#1f6b43", "#0b5ed7", "#b5651d", "#8a3b2e", "#6a3d9a", "#2a7f8f", "#a0522d", "#444"];

async function getJson(url) {
  const r = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await r.json();
  } catch (err) {
    /* the status says it */
  }
  if (!r.ok) throw new Error((body && body.error) || `${r.status} ${r.statusText}`);
  return body;
}

/** The address of player `key`'s page. */
export function playerUrl(key) {
  return "/players/" + encodeURIComponent(key);
}

const pct = (x) => (x == null ? "—" : `${Math.round(x * 100)}%`);
const fixed = (x, digits = 1) => (x == null ? "—" : Number(x).toFixed(digits));

function PlayerLink({ p }) {
  return html`<a href=${playerUrl(p.player)}>${p.name}</a>`;
}

function Record({ r }) {
  const drawn = r.drawn ? `–${r.drawn}` : "";
  return html`<span>${r.won}–${r.lost}${drawn}</span>`;
}

function Rate({ r }) {
  if (r.rate == null) return html`<span>—</span>`;
  return html`<span>${pct(r.rate)} <span class="quiet">(95%: ${pct(r.low)}–${pct(r.high)})</span></span>`;
}

/** The rating's history, a line a game: the ordinal (mu − 3 sigma) after each rated match. */
export function RatingPlot({ games }) {
  const series = games.filter((g) => g.history && g.history.length);
  if (!series.length) return html`<p class="quiet">No rated match yet.</p>`;
  const W = 720, H = 260, L = 48, R = 14, T = 12, B = 30;
  const last = (g) => g.history[g.history.length - 1];
  const maxN = Math.max(...series.map((g) => last(g).n));
  const values = series.flatMap((g) => g.history.map((p) => p.ordinal));
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 1) { lo -= 1; hi += 1; }
  const x = (n) => L + (maxN <= 1 ? 0 : ((n - 1) / (maxN - 1)) * (W - L - R));
  const y = (v) => T + ((hi - v) / (hi - lo)) * (H - T - B);
  const ticks = [0, 1, 2, 3, 4].map((k) => lo + ((hi - lo) * k) / 4);
  const said = series.map((g) => `${g.game}: ${fixed(last(g).ordinal)} after ${last(g).n} matches`).join("; ");
  return html`<figure>
    <svg class="rating-plot" viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${`Rating history: ${said}`}>
      ${ticks.map((v) => html`<line key=${"g" + v} class="grid" x1=${L} x2=${W - R} y1=${y(v)} y2=${y(v)} />
        <text key=${"t" + v} x=${L - 6} y=${y(v) + 4} text-anchor="end">${fixed(v)}</text>`)}
      <line class="axis" x1=${L} x2=${L} y1=${T} y2=${H - B} />
      <line class="axis" x1=${L} x2=${W - R} y1=${H - B} y2=${H - B} />
      <text x=${L} y=${H - 8}>1</text>
      <text x=${W - R} y=${H - 8} text-anchor="end">${maxN} ${maxN === 1 ? "match" : "matches"}</text>
      ${series.map((g, i) => html`<g key=${g.game} data-game=${g.game}>
        <polyline stroke=${COLOURS[i % COLOURS.length]}
          points=${g.history.map((p) => `${x(p.n).toFixed(1)},${y(p.ordinal).toFixed(1)}`).join(" ")} />
        <circle cx=${x(last(g).n)} cy=${y(last(g).ordinal)} r="3" fill=${COLOURS[i % COLOURS.length]} />
      </g>`)}
    </svg>
    <figcaption class="legend">
      ${series.map((g, i) => html`<span key=${g.game} style=${{ "--swatch": COLOURS[i % COLOURS.length] }}>${g.game}</span>`)}
      <span class="quiet">rating: mu − 3 sigma, after each match</span>
    </figcaption>
  </figure>`;
}

function Games({ games }) {
  return html`<table aria-label="Games">
    <thead><tr>
      <th>Game</th><th class="num">Matches</th><th>Won–lost</th><th>Win rate</th>
      <th class="num">Rating</th><th>Bids made / set</th><th class="num">Points a hand</th>
    </tr></thead>
    <tbody>${games.map((g) => html`<tr key=${g.game} data-game=${g.game}>
      <td>${g.game}</td>
      <td class="num">${g.record.matches}</td>
      <td><${Record} r=${g.record} /></td>
      <td><${Rate} r=${g.record} /></td>
      <td class="num">${g.rating
        ? html`${fixed(g.rating.ordinal)} <span class="quiet">(${fixed(g.rating.mu)} ± ${fixed(g.rating.sigma)})</span>`
        : "—"}</td>
      <td>${g.bids
        ? html`${g.bids.made} made, ${g.bids.set} set${g.bids.rate == null ? "" : html` <span class="quiet">(${pct(g.bids.rate)})</span>`}`
        : html`<span class="quiet">no bids</span>`}</td>
      <td class="num">${fixed(g.points_per_hand, 2)} <span class="quiet">vs ${fixed(g.against_per_hand, 2)}${g.lower_wins ? ", lower wins" : ""}</span></td>
    </tr>`)}</tbody>
  </table>`;
}

function Company({ title, people }) {
  return html`<section aria-label=${title}>
    <h2>${title}</h2>
    ${people.length
      ? html`<table aria-label=${title}><thead><tr><th>Player</th><th class="num">Matches</th><th>Won–lost</th></tr></thead>
        <tbody>${people.map((p) => html`<tr key=${p.player}>
          <td><${PlayerLink} p=${p} /></td><td class="num">${p.matches}</td><td><${Record} r=${p} /></td>
        </tr>`)}</tbody></table>`
      : html`<p class="quiet">Nobody yet.</p>`}
  </section>`;
}

function Names({ people }) {
  return people.map((p, i) => html`${i ? ", " : ""}<${PlayerLink} key=${i} p=${p} />`);
}

function Recent({ matches }) {
  return html`<table aria-label="Recent matches">
    <thead><tr><th>Finished</th><th>Game</th><th>Result</th><th class="num">Points</th><th>With</th><th>Against</th><th>Replay</th></tr></thead>
    <tbody>${matches.map((m, i) => html`<tr key=${i}>
      <td>${new Date(m.finished).toLocaleString()}</td>
      <td>${m.game}</td>
      <td class=${m.result}>${m.result}</td>
      <td class="num">${m.points_for} – ${fixed(m.points_against, 0)}</td>
      <td><${Names} people=${m.partners} /></td>
      <td><${Names} people=${m.rivals} /></td>
      <td>${m.replay
        ? html`<a href=${m.replay}>replay</a>`
        : m.tournament ? html`<span class="quiet">${m.tournament.name}, ${m.tournament.unit}</span>` : "—"}</td>
    </tr>`)}</tbody>
  </table>`;
}

function Profile({ name }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    getJson("/api/players/" + encodeURIComponent(name)).then(setData, (e) => setError(e.message));
  }, [name]);
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!data) return html`<p class="loading">Loading ${name}…</p>`;
  document.title = `tricktable — ${data.name}`;
  const r = data.record;
  return html`<article data-player=${data.player}>
    <h1>${data.name}<span class="kind">${data.kind}</span></h1>
    <p class="totals">${`${r.matches} ${r.matches === 1 ? "match" : "matches"}: ${r.won} won, ${r.lost} lost${r.drawn ? `, ${r.drawn} drawn` : ""} — win rate `}<${Rate} r=${r} /></p>
    <${Games} games=${data.games} />
    <h2>Rating</h2>
    <${RatingPlot} games=${data.games} />
    <div class="company">
      <${Company} title="Partners" people=${data.partners} />
      <${Company} title="Rivals" people=${data.rivals} />
    </div>
    <h2>Recent matches</h2>
    <${Recent} matches=${data.recent} />
  </article>`;
}

function Standings({ game }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    getJson("/api/players" + (game ? "?game=" + encodeURIComponent(game) : "")).then(setData, (e) => setError(e.message));
  }, [game]);
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!data) return html`<p class="loading">Loading the standings…</p>`;
  return html`<article>
    <h1>Standings${data.game ? `: ${data.game}` : ""}</h1>
    <nav class="games-nav" aria-label="Games">
      ${data.games.map((g) => html`<a key=${g} href=${"/players?game=" + encodeURIComponent(g)}
        aria-current=${g === data.game ? "page" : null}>${g}</a>`)}
    </nav>
    ${data.players.length
      ? html`<table aria-label="Standings">
        <thead><tr><th class="num">#</th><th>Player</th><th class="num">Rating</th><th class="num">mu ± sigma</th><th class="num">Matches</th></tr></thead>
        <tbody>${data.players.map((p) => html`<tr key=${p.player}>
          <td class="num">${p.rank}</td><td><${PlayerLink} p=${p} /></td><td class="num">${fixed(p.ordinal)}</td>
          <td class="num">${fixed(p.mu)} ± ${fixed(p.sigma)}</td><td class="num">${p.matches}</td>
        </tr>`)}</tbody></table>`
      : html`<p>No rated match yet: play one, and it is here.</p>`}
  </article>`;
}

/** Draw the page `path` names (`/players`, or `/players/NAME`) into `root`. */
export function start(root, path) {
  const rest = path.replace(/^\/players\/?/, "");
  if (!rest) {
    const game = new URLSearchParams(location.search).get("game") || "";
    render(html`<${Standings} game=${game} />`, root);
    return;
  }
  let name = rest;
  try {
    name = decodeURIComponent(rest);
  } catch (err) {
    /* the server matched this path: it is its own name */
  }
  render(html`<${Profile} name=${name} />`, root);
}
