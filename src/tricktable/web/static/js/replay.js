// The replay of a finished match: the server's snapshots, every hand face up, drawn as given.
//
// The page rebuilds nothing. `GET /api/tables/{id}/replay?match=N` gives the match's steps
// (each deal and action: its hand, trick and a label) and where each hand and trick begins;
// `...&step=K` gives the seat model's snapshot after step K for everyone (docs/protocol-web.md).
// The page steps by action, by trick and by hand, to the match's end; the address always
// names the position shown (`/t/ID?replay=1&match=N&step=K`), so a copied link opens it.
//
// An uploaded record (`/records/ID?step=K`) replays the same way from `/api/records/ID/replay`,
// and a tournament's game (`/tournaments/ID/games/UNIT`) from its own — live while it is
// played: the index is asked again every second and a viewer at the last step follows;
// `/records` is the form that uploads one. Either replay can be analysed: "Analyse" asks the
// server (`POST .../analysis`), "analysing…" polls it every 2 s, and once done each decision
// is marked where it was made (the loss, red for a mistake; the best action; the search's
// estimate), with a jump to the worst decision (web/analysis.py).

import { html, render, useEffect, useState } from "./ui.js";
import { cardName, cardSvg } from "./cards.js";
import { Phrase } from "./words.js";

//: the steps' snapshots fetched, kept by step (a long match's few hundred at most)
const KEEP = 400;

const CSS = `
.replay-page { display: grid; grid-template-columns: minmax(0, 1fr) 20rem; gap: 1rem; padding: .75rem; }
@media (max-width: 820px) { .replay-page { grid-template-columns: 1fr; } }
.replay-felt { display: grid; gap: .5rem; background: var(--felt, #1f6b43); border-radius: 1rem; padding: .75rem;
  color: #f4f1e8; grid-template-columns: 1fr 1.3fr 1fr;
  grid-template-areas: "northwest north northeast" "west centre east" "southwest south southeast"; }
.replay-seat { background: rgba(0,0,0,.22); border-radius: .6rem; padding: .4rem .5rem; min-width: 0; }
.replay-seat.turn { outline: 2px solid #ffd54f; }
.replay-seat header { display: flex; gap: .4rem; align-items: baseline; flex-wrap: wrap; }
.replay-seat .name { font-weight: 700; }
.replay-seat .meta, .replay-seat .call { font-size: .85rem; opacity: .9; }
.replay-cards { display: flex; flex-wrap: wrap; gap: 2px; margin-top: .3rem; }
.replay-cards .card, .replay-trick .card { width: 2.6rem; height: 3.7rem; display: inline-block; }
.replay-cards .card svg, .replay-trick .card svg { width: 100%; height: 100%; }
.replay-centre { grid-area: centre; text-align: center; align-self: center; }
.replay-trick { display: flex; gap: .4rem; justify-content: center; flex-wrap: wrap; min-height: 4.6rem; }
.replay-trick figure { margin: 0; font-size: .75rem; }
.replay-trick .winning .card { outline: 3px solid #ffd54f; border-radius: 4px; }
.replay-side { background: #f7f5ef; color: #1d2a23; border-radius: .8rem; padding: .6rem .8rem; font-size: .92rem; }
.replay-side h2, .replay-side h3 { margin: .4rem 0 .2rem; font-size: 1rem; }
.replay-side table { border-collapse: collapse; }
.replay-side td, .replay-side th { padding: .1rem .5rem .1rem 0; text-align: left; }
.replay-side .replay-summary p, .replay-side .replay-tally p { margin: .1rem 0; white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: .8rem; }
.replay-controls { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; margin: .6rem 0; }
.replay-controls button { padding: .3rem .6rem; }
.replay-position { margin: .2rem 0; color: #e8efe9; }
.replay-link { font-size: .85rem; word-break: break-all; color: #e8efe9; }
.replay-link a { color: #9fd3ff; }
.replay-over { font-weight: 700; }
.replay-analysis { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .4rem 0; color: #e8efe9; }
.replay-mark { margin: .2rem 0; color: #e8efe9; }
.mark-badge { display: inline-block; padding: .05rem .45rem; border-radius: .7rem; font-weight: 700;
  background: #2e7d32; color: #fff; margin-right: .35rem; }
.mark-badge.lost { background: #ef6c00; }
.mark-badge.blunder { background: #c62828; }
.replay-mistakes { list-style: none; padding: 0; margin: .2rem 0; }
.replay-mistakes button { font-size: .8rem; padding: .1rem .4rem; margin: .1rem 0; }
.upload-page { max-width: 40rem; margin: 1rem auto; padding: 0 1rem; }
`;

//: how often the page asks whether an analysis is done (ms)
const POLL_MS = 2000;

/** The step a trick or hand step goes to: the next stop after `at` (or the last step), or
 * the stop before it (or the first). */
export function nextStop(stops, at, dir, last) {
  if (dir > 0) {
    for (const s of stops) if (s > at) return s;
    return last;
  }
  for (let i = stops.length - 1; i >= 0; i--) if (stops[i] < at) return stops[i];
  return 0;
}

/** The address of step `step` of match `match` at table `tableId` (a link for someone else). */
export function replayUrl(tableId, match, step) {
  return `${location.origin}/t/${encodeURIComponent(tableId)}?replay=1&match=${match}&step=${step}`;
}

async function getJson(url, init = {}) {
  const r = await fetch(url, { credentials: "same-origin", ...init });
  let body = null;
  try {
    body = await r.json();
  } catch (err) {
    /* the status says it */
  }
  if (!r.ok) throw new Error((body && body.error) || `${r.status} ${r.statusText}`);
  return body;
}

function Cards({ cards, label }) {
  return html`<div class="replay-cards" role="list" aria-label=${label}>
    ${cards.map(
      (c) => html`<span key=${c} class="card" role="listitem" data-card=${c} aria-label=${cardName(c)}
        dangerouslySetInnerHTML=${{ __html: cardSvg(c) }}></span>`,
    )}
  </div>`;
}

function SeatBox({ seat, snap, names }) {
  const hand = snap.hand || {};
  const cards = (hand.shown || {})[String(seat.seat)] || [];
  return html`<section class=${"replay-seat" + (seat.turn ? " turn" : "")} data-seat=${seat.seat}
      style=${{ gridArea: seat.place || "auto" }} aria-label=${seat.name}>
    <header>
      <span class="name">${seat.name}</span>
      ${seat.kind && seat.kind !== "person" ? html`<span class="meta">${seat.kind}</span>` : null}
      ${seat.dealer ? html`<span class="meta dealer">dealer</span>` : null}
      ${seat.turn && !snap.over ? html`<span class="meta">to play</span>` : null}
      <span class="meta tricks">${seat.tricks ?? 0} ${(seat.tricks ?? 0) === 1 ? "trick" : "tricks"}</span>
    </header>
    ${seat.last_call && seat.last_call.length
      ? html`<div class="call">Called: <${Phrase} words=${seat.last_call} names=${names} /></div>`
      : null}
    <${Cards} cards=${cards} label=${`${seat.name}'s hand, ${cards.length} cards`} />
  </section>`;
}

function Centre({ snap, names }) {
  const hand = snap.hand || {};
  return html`<div class="replay-centre">
    ${hand.trump ? html`<div class="trump">Trump: <${Phrase} words=${[{ t: "suit", v: hand.trump }]} /></div>` : null}
    ${hand.contract && hand.contract.length
      ? html`<div class="contract"><${Phrase} words=${hand.contract} names=${names} /></div>`
      : null}
    <div class="replay-trick" aria-label="The trick">
      ${(hand.trick || []).map(
        (t) => html`<figure key=${t.seat} class=${hand.winning === t.seat ? "winning" : ""} data-seat=${t.seat}>
          <span class="card" data-card=${t.card} aria-label=${cardName(t.card)}
            dangerouslySetInnerHTML=${{ __html: cardSvg(t.card) }}></span>
          <figcaption>${names[t.seat]}</figcaption>
        </figure>`,
      )}
    </div>
  </div>`;
}

function Lines({ lines, names, cls, label }) {
  if (!lines || !lines.length) return null;
  return html`<div class=${cls} aria-label=${label}>
    ${lines.map((p, i) => html`<p key=${i}><${Phrase} words=${p} names=${names} /></p>`)}
  </div>`;
}

function Side({ snap, names }) {
  const hand = snap.hand || {};
  const sides = (snap.game && snap.game.sides) || (snap.scores || []).length;
  const seats = snap.seats || [];
  const last = hand.last_trick;
  // A side's seats (the scores and the winners are by side).
  const members = (side) => seats.filter((s) => (sides ? (s.side ?? s.seat % sides) : s.seat) === side).map((s) => s.name);
  return html`<aside class="replay-side">
    <h2>Score${snap.game && snap.game.target ? html` <small>to ${snap.game.target}</small>` : null}</h2>
    <table class="replay-scores">
      <tbody>
        ${(snap.scores || []).map((score, side) => {
          return html`<tr key=${side} data-side=${side}>
            <th scope="row">${members(side).join(" & ") || "side " + (side + 1)}</th>
            <td class="score">${score}</td>
          </tr>`;
        })}
      </tbody>
    </table>
    ${snap.over
      ? html`<p class="replay-over">Match over${(snap.winners || []).length
          ? html` — won by ${snap.winners.map((w) => members(w).join(" & ") || "side " + (w + 1)).join(", ")}`
          : null}</p>`
      : null}
    <h3>Hand ${hand.number ?? ""} ${hand.phase ? html`<small>· ${hand.phase}</small>` : null}</h3>
    ${hand.contract && hand.contract.length
      ? html`<p class="contract">Contract: <${Phrase} words=${hand.contract} names=${names} /></p>`
      : null}
    ${hand.trump ? html`<p class="trump">Trump: <${Phrase} words=${[{ t: "suit", v: hand.trump }]} /></p>` : null}
    ${(hand.history || []).some((h) => !(h.words || []).some((w) => w.t === "card"))
      ? html`<p class="bids">Bids: ${(hand.history || [])
          .filter((h) => !(h.words || []).some((w) => w.t === "card"))
          .map((h, i) => html`<span key=${i}>${i ? "; " : ""}${names[h.seat]} <${Phrase} words=${h.words} names=${names} /></span>`)}</p>`
      : null}
    <${Lines} lines=${hand.tally} names=${names} cls="replay-tally" label="This hand so far" />
    ${last && last.cards && last.cards.length
      ? html`<p class="last-trick">Last trick (${names[last.winner] ?? "—"}):${" "}
          ${last.cards.map((c, i) => html`<${Phrase} key=${i} words=${[{ t: "card", v: c.card }, { t: "text", v: " " }]} />`)}</p>`
      : null}
    <${Lines} lines=${snap.summary} names=${names} cls="replay-summary" label="The hand's result" />
  </aside>`;
}

/** A loss or an estimate in a few characters ("1.5", "-0.25", "3"). */
function points(x) {
  return x == null ? "?" : String(Math.round(x * 100) / 100);
}

/** The mark of the decision shown at this step (nothing where none was analysed). */
function Mark({ mark, names }) {
  if (!mark) return null;
  const loss = mark.loss;
  const cls = "mark-badge" + (mark.mistake ? " blunder" : loss ? " lost" : "");
  return html`<p class="replay-mark" data-step=${mark.step} data-loss=${loss ?? ""} data-best=${mark.best ?? ""}>
    <span class=${cls} title=${mark.mistake ? "a mistake" : "points lost"}>${loss ? `lost ${points(loss)}` : "best"}</span>
    ${names[mark.seat] ?? "seat " + mark.seat} played ${mark.action}${mark.best && mark.best !== mark.action
      ? html`; best: <b class="best">${mark.best}</b>`
      : null}${mark.estimate != null ? html` · estimate <span class="estimate">${points(mark.estimate)}</span>` : null}
  </p>`;
}

/** The analysis's state and button: "Analyse", "analysing…", or a summary and the jumps. */
function AnalysisBar({ got, start, go, names }) {
  if (!got) return null;
  if (got.status === "none" || got.status === "failed")
    return html`<div class="replay-analysis">
      <button type="button" class="rp-analyse" onClick=${start}>Analyse</button>
      ${got.status === "failed" ? html`<span role="alert">The analysis failed: ${got.error}</span>` : null}
      ${got.refused ? html`<span role="alert">${got.refused}</span>` : null}
    </div>`;
  if (got.status !== "done")
    return html`<div class="replay-analysis"><span class="analysing" role="status">analysing…</span></div>`;
  const marks = got.marks || [];
  const mistakes = marks.filter((m) => m.mistake).sort((a, b) => (b.loss ?? 0) - (a.loss ?? 0));
  return html`<div class="replay-analysis" role="status">
    <span class="analysed">${marks.length} decisions analysed, ${mistakes.length} ${mistakes.length === 1 ? "mistake" : "mistakes"}</span>
    ${got.worst
      ? html`<button type="button" class="rp-worst" title=${`Lost ${points(got.worst.loss)}`}
          onClick=${() => go(got.worst.step)}>Worst decision</button>`
      : null}
    ${mistakes.length
      ? html`<ul class="replay-mistakes" aria-label="The mistakes, worst first">${mistakes.slice(0, 8).map(
          (m) => html`<li key=${m.step}><button type="button" onClick=${() => go(m.step)}>
            hand ${m.hand + 1}: ${names[m.seat] ?? m.seat} ${m.action}, lost ${points(m.loss)}</button></li>`,
        )}</ul>`
      : null}
  </div>`;
}

/** Where a replay's data and pages are: a table's match or an uploaded record's. */
function tableSource(tableId, match) {
  const id = encodeURIComponent(tableId);
  return {
    api: `/api/tables/${id}/replay`,
    first: match != null ? `?match=${encodeURIComponent(match)}` : "",
    page: (index, step) => `/t/${id}?replay=1&match=${index.match}&step=${step}`,
    back: html`<a href=${`/t/${id}`}>Back to the table</a>`,
    heading: (index) => `match ${index.match}`,
  };
}

function recordSource(recordId) {
  const id = encodeURIComponent(recordId);
  return {
    api: `/api/records/${id}/replay`,
    first: "",
    page: (index, step) => `/records/${id}?step=${step}`,
    back: html`<a href="/records">Upload a record</a>`,
    heading: () => "uploaded record",
  };
}

/** A tournament's game: live while a worker plays it (its steps grow), then its record. */
function tournamentSource(tid, unit) {
  const id = encodeURIComponent(tid);
  const key = unit.split("/").map(encodeURIComponent).join("/");
  return {
    api: `/api/tournaments/${id}/games/${key}/replay`,
    first: "",
    page: (index, step) => `/tournaments/${id}/games/${key}?step=${step}`,
    back: html`<a href=${`/tournaments/${id}`}>Back to the tournament</a>`,
    heading: (index) => (index.over ? `game ${unit}` : `game ${unit}, live`),
  };
}

//: how often a game being played is asked for its new steps
const LIVE_MS = 1000;

function ReplayApp({ src, first }) {
  const [index, setIndex] = useState(null);
  const [at, setAt] = useState(null);
  const [shown, setShown] = useState(null);
  const [error, setError] = useState(null);
  const [cache] = useState(() => new Map());
  const [got, setGot] = useState(null);
  const [asked, setAsked] = useState(0);
  const base = src.api;

  useEffect(() => {
    getJson(base + src.first)
      .then((idx) => {
        setIndex(idx);
        const k = Number.isInteger(first) ? Math.max(0, Math.min(first, idx.last)) : 0;
        setAt(k);
      })
      .catch((err) => setError(err.message));
  }, []);

  useEffect(() => {
    if (!index || at == null) return;
    history.replaceState(null, "", src.page(index, at));
    const kept = cache.get(at);
    if (kept) {
      setShown(kept);
      return;
    }
    let live = true;
    getJson(`${base}?match=${index.match}&step=${at}`)
      .then((got) => {
        if (cache.size >= KEEP) cache.delete(cache.keys().next().value);
        cache.set(got.step, got);
        if (live) setShown(got);
      })
      .catch((err) => live && setError(err.message));
    return () => {
      live = false;
    };
  }, [index, at]);

  // A game being played (a tournament's, live): its index asked again every LIVE_MS; a viewer
  // at the last step follows the play, one elsewhere stays where they are.
  useEffect(() => {
    if (!index || index.over !== false) return;
    const timer = setTimeout(() => {
      getJson(base + src.first)
        .then((idx) => {
          setAt((k) => (k === index.last ? idx.last : k));
          setIndex(idx);
        })
        .catch((err) => setError(err.message));
    }, LIVE_MS);
    return () => clearTimeout(timer);
  }, [index]);

  // The analysis: read once the index is known, then every POLL_MS while it runs.
  useEffect(() => {
    // The index names the analysis's address where the server analyses matches.
    if (!index || !index.analysis) return;
    let live = true;
    let timer = null;
    const read = () =>
      getJson(index.analysis)
        .then((a) => {
          if (!live) return;
          setGot(a);
          if (a.status === "queued" || a.status === "running") timer = setTimeout(read, POLL_MS);
        })
        .catch(() => live && setGot(null));
    read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [index, asked]);

  const startAnalysis = () => {
    fetch(index.analysis, { method: "POST", credentials: "same-origin" })
      .then(async (r) => {
        const body = await r.json().catch(() => ({}));
        if (!r.ok) setGot({ status: "none", refused: body.error || `${r.status} ${r.statusText}` });
        else setAsked((n) => n + 1);
      })
      .catch((err) => setGot({ status: "none", refused: err.message }));
  };
  const marks = new Map(((got && got.status === "done" && got.marks) || []).map((m) => [m.step, m]));

  const go = (k) => index && setAt(Math.max(0, Math.min(k, index.last)));
  const cur = at ?? 0;
  const moves = index
    ? {
        start: () => go(0),
        handBack: () => go(nextStop(index.hand_stops, cur, -1, index.last)),
        trickBack: () => go(nextStop(index.trick_stops, cur, -1, index.last)),
        back: () => go(cur - 1),
        forward: () => go(cur + 1),
        trickForward: () => go(nextStop(index.trick_stops, cur, 1, index.last)),
        handForward: () => go(nextStop(index.hand_stops, cur, 1, index.last)),
        end: () => go(index.last),
      }
    : {};

  useEffect(() => {
    const keys = {
      ArrowLeft: "back", ArrowRight: "forward", ArrowUp: "trickBack", ArrowDown: "trickForward",
      PageUp: "handBack", PageDown: "handForward", Home: "start", End: "end",
    };
    const onKey = (e) => {
      const name = keys[e.key];
      if (name && moves[name] && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        moves[name]();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const snap = shown && shown.snapshot;
  const title = (snap && snap.game && snap.game.title) || (index && index.title) || "Table";
  const header = html`<header class="bar">
    <a class="home" href="/">tricktable</a>
    <span class="title">${title} — replay${index ? `, ${src.heading(index)}` : ""}</span>
    ${src.back}
  </header>`;
  if (error) return html`${header}<main class="replay-page"><p class="notice" role="alert">No replay: ${error}</p></main>`;
  if (!snap) return html`${header}<main class="replay-page"><p class="loading">Loading the replay…</p></main>`;
  const names = {};
  for (const s of snap.seats || []) names[s.seat] = s.name;
  const link = location.origin + src.page(index, shown.step);
  const button = (name, label, title, disabled) =>
    html`<button type="button" class=${"rp-" + name} title=${title} disabled=${disabled} onClick=${moves[name]}>${label}</button>`;
  const atStart = shown.step === 0;
  const atEnd = shown.step === index.last;
  return html`${header}
    <main class="replay-page" data-step=${shown.step} data-last=${index.last}>
      <section>
        <div class="replay-felt" role="region" aria-label="The table, every hand face up">
          ${(snap.seats || []).map((s) => html`<${SeatBox} key=${s.seat} seat=${s} snap=${snap} names=${names} />`)}
          <${Centre} snap=${snap} names=${names} />
        </div>
        <p class="replay-position" role="status" aria-live="polite">
          Step <b class="step">${shown.step}</b> of ${index.last} · hand ${shown.hand}
          ${shown.trick ? ` · trick ${shown.trick}` : " · bidding"} · ${shown.label}
        </p>
        <${Mark} mark=${marks.get(shown.step)} names=${names} />
        <nav class="replay-controls" aria-label="Step through the match">
          ${button("start", "|< start", "The first deal (Home)", atStart)}
          ${button("handBack", "<< hand", "The hand before (Page Up)", atStart)}
          ${button("trickBack", "< trick", "The trick before (↑)", atStart)}
          ${button("back", "< move", "One action back (←)", atStart)}
          ${button("forward", "move >", "One action on (→)", atEnd)}
          ${button("trickForward", "trick >", "The next trick (↓)", atEnd)}
          ${button("handForward", "hand >>", "The next hand (Page Down)", atEnd)}
          ${button("end", "end >|", "The match's end (End)", atEnd)}
        </nav>
        <${AnalysisBar} got=${got} start=${startAnalysis} go=${go} names=${names} />
        <p class="replay-link">Link to this position: <a class="position-link" href=${link}>${link}</a></p>
      </section>
      <${Side} snap=${snap} names=${names} />
    </main>`;
}

function addCss() {
  if (!document.getElementById("replay-css")) {
    const style = document.createElement("style");
    style.id = "replay-css";
    style.textContent = CSS;
    document.head.appendChild(style);
  }
}

/** Start the replay page in `root` for table `tableId` (`query`: the page's ?match and ?step). */
export function startReplay(root, tableId, query = new URLSearchParams(location.search)) {
  addCss();
  const match = query.get("match");
  const step = query.get("step");
  root.textContent = "";
  const src = tableSource(tableId, match && /^\d+$/.test(match) ? Number(match) : null);
  render(html`<${ReplayApp} src=${src} first=${step && /^\d+$/.test(step) ? Number(step) : null} />`, root);
}

/** The form that uploads a record: its file is sent as it is; the server checks it. */
function UploadForm() {
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const file = e.target.elements.record.files[0];
    if (!file) return setProblem("Choose a record file first.");
    setBusy(true);
    setProblem(null);
    try {
      const me = await getJson("/api/me");
      if (!me.user) throw new Error("Sign in, or play as a guest, in the lobby first.");
      const r = await fetch("/api/records", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf || "" },
        body: await file.text(),
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`);
      location.assign(body.url);
    } catch (err) {
      setProblem(err.message);
      setBusy(false);
    }
  };
  return html`<header class="bar"><a class="home" href="/">tricktable</a><span class="title">Upload a record</span></header>
    <main class="upload-page">
      <p>A match record (<code>tricktable play --save</code>, a table's "record" download): the server
        replays it and, if every action is legal and the match is over, keeps it for you to replay and analyse.</p>
      <form class="upload-form" onSubmit=${submit}>
        <label>Record file <input type="file" name="record" accept=".json,application/json" /></label>
        <button type="submit" disabled=${busy}>Upload</button>
      </form>
      ${problem ? html`<p class="notice" role="alert">${problem}</p>` : null}
    </main>`;
}

/** Start the records' page in `root`: `/records` the upload form, `/records/ID` its replay. */
export function startRecords(root, path = location.pathname, query = new URLSearchParams(location.search)) {
  addCss();
  root.textContent = "";
  const step = query.get("step");
  const first = step && /^\d+$/.test(step) ? Number(step) : null;
  const game = path.match(/^\/tournaments\/(\d+)\/games\/(.+)$/);
  if (game) {
    const unit = game[2].split("/").map(decodeURIComponent).join("/");
    return render(html`<${ReplayApp} src=${tournamentSource(game[1], unit)} first=${first} />`, root);
  }
  const m = path.match(/^\/records\/([^/]+)/);
  if (!m) return render(html`<${UploadForm} />`, root);
  render(html`<${ReplayApp} src=${recordSource(decodeURIComponent(m[1]))} first=${first} />`, root);
}
