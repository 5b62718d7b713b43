// The leagues' page: the leagues and a form to make one; one league's season (divisions with
// standings, teams and nights) and, for its owner, the forms that add teams, schedule the
// season (now, or nights the server plays by itself from a first night's time), play a night
// now and close the season.
//
// `/leagues` draws `GET /api/leagues`; `/leagues/ID` draws `GET /api/leagues/ID?season=N`
// (web/leagues.py), again every two seconds while a night plays or one is due. Every write is
// the API's (docs/leagues.md); the server's refusal is shown as it says it, in one line. Names
// are the server's data, written as text (htm escapes them), never as markup.

import { html, render, useEffect, useState } from "./ui.js";

//: how often the page asks again while a night plays or is due soon (ms)
const POLL_MS = 2000;
//: the units an interval between nights is given in (seconds each)
const UNITS = [
  ["days", 86400],
  ["hours", 3600],
  ["minutes", 60],
  ["seconds", 1],
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

function post(me, url, body = {}) {
  return getJson(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": me.csrf },
    body: JSON.stringify(body),
  });
}

const signed = (x) => (x == null ? "—" : (x >= 0 ? "+" : "") + Number(x).toFixed(2));
const when = (iso) => (iso ? new Date(iso).toLocaleString() : "—");

/** A form's submit: its busy flag and error, around `work`. */
function useSubmit(work) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const submit = async (ev) => {
    if (ev) ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  return [submit, busy, error];
}

const Alert = ({ error }) => error && html`<p class="error" role="alert">${error}</p>`;

function Standings({ rows, level }) {
  if (!rows.length) return html`<p class="quiet">No teams yet.</p>`;
  return html`<table class="standings" data-division=${level}>
    <thead><tr><th>#</th><th>Team</th><th>Nights</th><th>Total</th><th>Per deal (95% interval)</th><th>Rating</th></tr></thead>
    <tbody>${rows.map(
      (r, i) => html`<tr key=${r.team}>
        <td>${i + 1}</td><td class="team">${r.team}</td><td class="num nights">${r.nights}</td>
        <td class="num total">${signed(r.total)}</td>
        <td class="num per-deal">${r.per_deal ? `${signed(r.per_deal.mean)} [${signed(r.per_deal.low)}, ${signed(r.per_deal.high)}]` : "—"}</td>
        <td class="num rating">${Number(r.rating).toFixed(2)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

function Member({ id, choices, value, onChange, optional }) {
  return html`<select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
    ${optional && html`<option value="">— (the first fills every seat)</option>`}
    <optgroup label="Bots">${choices.bots.map((b) => html`<option key=${b} value=${b}>${b}</option>`)}</optgroup>
    <optgroup label="Characters">${choices.characters.map(
      (c) => html`<option key=${c.name} value=${c.name}>${c.title}</option>`,
    )}</optgroup>
  </select>`;
}

function TeamForm({ me, league, choices, onDone }) {
  const [name, setName] = useState("");
  const [level, setLevel] = useState(1);
  const [first, setFirst] = useState("heuristic");
  const [second, setSecond] = useState("");
  const [person, setPerson] = useState("");
  const [submit, busy, error] = useSubmit(async () => {
    // A person sits at one seat: the member chosen below is their partner.
    const who = person.trim();
    const members = who ? [`user:${who}`, first] : second ? [first, second] : [first];
    await post(me, `/api/leagues/${league.id}/teams`, { name, division: Number(level), members });
    setName("");
    setPerson("");
    onDone();
  });
  return html`<form id="team" onSubmit=${submit}>
    <h3>Add a team</h3>
    <label>Name <input id="team-name" value=${name} maxlength="80" onInput=${(e) => setName(e.target.value)} /></label>
    <label>Division <select id="team-division" value=${level} onChange=${(e) => setLevel(e.target.value)}>
      ${league.divisions.map((d) => html`<option key=${d.level} value=${d.level}>${d.level}</option>`)}
    </select></label>
    <label>Person <input id="team-person" value=${person} maxlength="40" placeholder="an account's name (optional)"
      onInput=${(e) => setPerson(e.target.value)} /></label>
    <label>${person.trim() ? "Their partner" : "Member"} <${Member} id="member-1" choices=${choices} value=${first} onChange=${setFirst} /></label>
    ${!person.trim() && html`<label>Partner <${Member} id="member-2" choices=${choices} value=${second} onChange=${setSecond} optional=${true} /></label>`}
    <button type="submit" disabled=${busy}>Add the team</button>
    <${Alert} error=${error} />
  </form>`;
}

function ScheduleForm({ me, league, onDone }) {
  const [start, setStart] = useState("");
  const [every, setEvery] = useState(7);
  const [unit, setUnit] = useState(86400);
  const [submit, busy, error] = useSubmit(async () => {
    // no first night: the owner plays each night by hand
    const body = start ? { start: new Date(start).toISOString(), every: Number(every) * Number(unit) } : {};
    await post(me, `/api/leagues/${league.id}/schedule`, body);
    onDone();
  });
  return html`<form id="schedule" onSubmit=${submit}>
    <h3>Schedule the season</h3>
    <p class="quiet">Every division's round robin: each team meets every other once, one night each.
      Give a first night's time and the server plays the nights by itself; leave it empty to play each by hand.</p>
    <label>First night <input id="start" type="datetime-local" value=${start} onInput=${(e) => setStart(e.target.value)} /></label>
    <label>Then every <input id="every" type="number" min="1" value=${every} onInput=${(e) => setEvery(e.target.value)} />
      <select id="every-unit" value=${unit} onChange=${(e) => setUnit(e.target.value)}>
        ${UNITS.map(([label, s]) => html`<option key=${s} value=${s}>${label}</option>`)}
      </select></label>
    <button type="submit" disabled=${busy}>Schedule</button>
    <${Alert} error=${error} />
  </form>`;
}

function CloseForm({ me, league, onDone }) {
  const [moves, setMoves] = useState(1);
  const [submit, busy, error] = useSubmit(async () => {
    await post(me, `/api/leagues/${league.id}/close`, { moves: Number(moves) });
    onDone();
  });
  return html`<form id="close" onSubmit=${submit}>
    <h3>End the season</h3>
    <label>Teams promoted and relegated at each boundary
      <input id="moves" type="number" min="0" value=${moves} onInput=${(e) => setMoves(e.target.value)} /></label>
    <button type="submit" disabled=${busy}>Close the season</button>
    <${Alert} error=${error} />
  </form>`;
}

function Rooms({ n, me }) {
  // The tables where people sit: a person's own is "Your table" while the night plays; the
  // others open (watchers, records) once the night is scored.
  const name = me && me.user ? me.user.name : null;
  const rooms = n.rooms || [];
  const mine = rooms.filter((r) => r.people.includes(name));
  if (n.status === "playing") {
    return html`${rooms.map((r) => html` <span class="room-deal" key=${r.table}>table ${r.table + 1}: ${r.over ? "over" : `deal ${r.deal}`}</span>`)}
      ${mine.map((r) => html` <a class="your-table" key=${r.url} href=${r.url}>Your table</a>`)}`;
  }
  return rooms.map((r) => html` <a class="room" key=${r.url} href=${r.url}>table ${r.table + 1} (${r.people.join(", ")})</a>`);
}

function Night({ n, tables, deals, owner, play, me }) {
  const total = tables.length * deals;
  return html`<li data-night=${n.night} data-status=${n.status}>
    Night ${n.night}: ${n.tables.map((t) => t.join(" v ")).join("; ")} — <span class="status">${n.status}</span>
    ${n.status === "playing" && html` <progress max=${total} value=${n.games}></progress> ${n.games}/${total}`}
    <${Rooms} n=${n} me=${me} />
    ${n.due && n.status === "scheduled" && html` (due ${when(n.due)})`}
    ${n.date && html` (played ${when(n.date)})`}
    ${n.tournament != null && n.status === "played" && html` <a href=${`/tournaments/${n.tournament}`}>games</a>`}
    ${owner && (n.status === "scheduled" || n.status === "failed") &&
    html` <button class="play" onClick=${() => play(n.id)}>Play now</button>`}
  </li>`;
}

function League({ id, me, choices }) {
  const [league, setLeague] = useState(null);
  const [season, setSeason] = useState(null);
  const [error, setError] = useState(null);
  const [tick, setTick] = useState(0);
  const reload = () => setTick((t) => t + 1);
  useEffect(() => {
    let timer = null;
    getJson(`/api/leagues/${id}${season ? `?season=${season}` : ""}`)
      .then((b) => {
        setLeague(b);
        const moving = b.divisions.some((d) => d.nights.some((n) => n.status === "playing"));
        // a night due soon is watched closely; one due next week, once a minute
        const soon = b.next && new Date(b.next) - Date.now() < 10 * 60 * 1000;
        if (moving || soon) timer = setTimeout(reload, POLL_MS);
        else if (b.next) timer = setTimeout(reload, 60 * 1000);
      })
      .catch((e) => setError(e.message));
    return () => clearTimeout(timer);
  }, [id, season, tick]);
  const playNight = (fid) => post(me, `/api/leagues/${id}/nights/${fid}`).then(reload).catch((e) => setError(e.message));
  if (!league) return html`<p class="loading">${error || "Loading…"}</p>`;
  const owner = me && me.user && me.user.id === league.owner;
  const latest = league.seasons[league.seasons.length - 1].number === league.season.number;
  const status = league.season.status;
  const unplayed = league.divisions.some((d) => d.nights.some((n) => n.status !== "played"));
  return html`<section>
    <h1>${league.name}</h1>
    <p>${league.game}, ${league.deals} deals a night. Every table of a night plays the same deals, seats rotated;
      a team scores its margin against the field that held the same cards, so the luck of the deal cancels.</p>
    <p>Season <select id="season" value=${league.season.number} onChange=${(e) => setSeason(e.target.value)}>
      ${league.seasons.map((s) => html`<option key=${s.number} value=${s.number}>${s.number} (${s.status})</option>`)}
    </select> — <span id="season-status">${status}</span>.</p>
    <p id="next">${league.next ? `Next night: ${when(league.next)}` : status === "scheduled" && !unplayed ? "Every night is played." : "No night is due: the owner plays them."}</p>
    <${Alert} error=${error} />
    ${league.divisions.map(
      (d) => html`<section class="division" key=${d.level}>
        <h2>Division ${d.level}</h2>
        <${Standings} rows=${d.standings} level=${d.level} />
        <p class="quiet">Teams: ${d.teams.map((t) => `${t.name} (${t.members.join(" + ")})`).join(", ") || "none yet"}</p>
        ${d.nights.length > 0 && html`<h3>Nights</h3><ul class="nights">${d.nights.map(
          (n) => html`<${Night} key=${n.id} n=${n} tables=${n.tables} deals=${league.deals} owner=${owner && latest} play=${playNight} me=${me} />`,
        )}</ul>`}
      </section>`,
    )}
    ${owner && latest && status === "open" && html`<${TeamForm} me=${me} league=${league} choices=${choices} onDone=${reload} />
      <${ScheduleForm} me=${me} league=${league} onDone=${reload} />`}
    ${owner && latest && status === "scheduled" && unplayed &&
    html`<p class="quiet">The season can end once every night of it is played.</p>`}
    ${owner && latest && status === "scheduled" && !unplayed && html`<${CloseForm} me=${me} league=${league} onDone=${() => {
      setSeason(null);
      reload();
    }} />`}
    <p><a href="/leagues">Every league</a></p>
  </section>`;
}

function CreateForm({ me, games }) {
  const [name, setName] = useState("");
  const [game, setGame] = useState(games.includes("spades") ? "spades" : games[0]);
  const [deals, setDeals] = useState(8);
  const [divisions, setDivisions] = useState(1);
  const [submit, busy, error] = useSubmit(async () => {
    const made = await post(me, "/api/leagues", { name, game, deals: Number(deals), divisions: Number(divisions) });
    location.assign(`/leagues/${made.league}`);
  });
  if (!me || !me.user || me.user.kind !== "account") {
    return html`<p class="quiet">Sign in to an account on <a href="/">the lobby</a> to run a league.</p>`;
  }
  return html`<form id="create" onSubmit=${submit}>
    <h2>Start a league</h2>
    <label>Name <input id="name" value=${name} maxlength="80" onInput=${(e) => setName(e.target.value)} /></label>
    <label>Game <select id="game" value=${game} onChange=${(e) => setGame(e.target.value)}>
      ${games.map((g) => html`<option key=${g} value=${g}>${g}</option>`)}
    </select></label>
    <label>Deals a night <input id="deals" type="number" min="1" value=${deals} onInput=${(e) => setDeals(e.target.value)} /></label>
    <label>Divisions <input id="divisions" type="number" min="1" value=${divisions} onInput=${(e) => setDivisions(e.target.value)} /></label>
    <button type="submit" disabled=${busy}>Start the league</button>
    <${Alert} error=${error} />
  </form>`;
}

function Page({ path }) {
  const [me, setMe] = useState(null);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    getJson("/api/me").then(setMe).catch(() => setMe(null));
    getJson("/api/leagues").then(setData).catch((e) => setError(e.message));
  }, []);
  if (!data) return html`<p class="loading">${error || "Loading…"}</p>`;
  const found = /^\/leagues\/(\d+)\/?$/.exec(path);
  if (found) return html`<${League} id=${found[1]} me=${me} choices=${data.choices} />`;
  return html`<h1>Leagues</h1>
    <${CreateForm} me=${me} games=${data.games} />
    ${data.leagues.length
      ? html`<ul id="leagues">${data.leagues.map((l) => html`<li key=${l.id}><a href=${`/leagues/${l.id}`}>${l.name}</a> (${l.game}, ${l.deals} deals a night)</li>`)}</ul>`
      : html`<p class="quiet">No league yet.</p>`}`;
}

/** Draw the page of `path` (`/leagues` or `/leagues/ID`) into `root`. */
export function start(root, path) {
  root.textContent = "";
  render(html`<${Page} path=${path} />`, root);
}
