// "My bots", a panel of the lobby: an account registers a bot (a program of its own that
// connects to the websocket with a token, or a web service the server calls at its URL),
// reads a websocket bot's token once with the command that runs the example bot, lists its
// bots, gives one a new token, and deletes one.
//
// The API of web/bots.py (docs/protocol-web.md, "Bots"): `GET /api/bots`, `POST /api/bots`
// {name, kind, endpoint?}, `POST /api/bots/{name}/token`, `DELETE /api/bots/{name}`, each
// change carrying the CSRF token of `/api/me`. A refusal is the server's one line, shown as
// it is. A guest has no bots: the panel says so and offers nothing else.

import { html, useEffect, useState } from "./ui.js";

async function call(method, url, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    const me = await fetch("/api/me", { credentials: "same-origin", headers }).then((r) => r.json());
    headers["X-CSRF-Token"] = me.csrf || me.csrf_token || "";
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(url, {
    method,
    credentials: "same-origin",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let answer = null;
  try {
    answer = await r.json();
  } catch (err) {
    /* the status says it */
  }
  if (!r.ok) throw new Error((answer && (answer.error || answer.reason || answer.detail)) || `${r.status} ${r.statusText}`);
  return answer;
}

/** The bots of the account signed in: [{name, kind, endpoint, created}] (GET /api/bots). */
export async function myBots() {
  const body = await call("GET", "/api/bots");
  return (body && body.bots) || [];
}

/** This server's websocket, as a program elsewhere on the network reaches it. */
export function socketUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

/** The shell command that runs the example bot with `token` (examples/bots/ws_bot.py reads
 * the token from the environment, never its command line: other users could read that). */
export function runCommand(token) {
  return `TRICKTABLE_BOT_TOKEN=${token} python examples/bots/ws_bot.py ${socketUrl()}`;
}

const KINDS = [
  ["websocket", "websocket: a program that connects"],
  ["http", "web service: called at its URL"],
];

/** "2025-05-01" from the server's ISO time. */
function day(iso) {
  return typeof iso === "string" ? iso.slice(0, 10) : "";
}

/** A token shown once: the token itself, a button to copy it, and the command to run. */
function Token({ shown, onDone }) {
  const [copied, setCopied] = useState(null);
  const copy = (what, text) => {
    const done = () => setCopied(what);
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => setCopied("none"));
    else setCopied("none");
  };
  return html`<div class="bot-token" role="region" aria-labelledby="bot-token-title">
    <h3 id="bot-token-title">${shown.name}'s token</h3>
    <p>It is shown this once: copy it now. Anyone with it plays as ${shown.name}.</p>
    <p class="secret"><code id="bot-token-text">${shown.token}</code></p>
    <p>Run the example bot with it (it waits until you invite it to a table):</p>
    <p class="secret"><code id="bot-command-text">${runCommand(shown.token)}</code></p>
    <div class="row-buttons">
      <button type="button" onClick=${() => copy("token", shown.token)}>Copy the token</button>
      <button type="button" onClick=${() => copy("command", runCommand(shown.token))}>Copy the command</button>
      <button type="button" onClick=${onDone}>I have copied it</button>
    </div>
    ${copied
      ? html`<p class="quiet" role="status">${copied === "none" ? "This browser would not copy: select the text instead." : `The ${copied} is copied.`}</p>`
      : null}
  </div>`;
}

/** The panel: nothing for nobody, a line for a guest, the form and the list for an account. */
export function MyBots({ me }) {
  const account = !!(me && me.user && me.user.kind !== "guest");
  const [bots, setBots] = useState(null);
  const [name, setName] = useState("");
  const [kind, setKind] = useState("websocket");
  const [endpoint, setEndpoint] = useState("");
  const [shown, setShown] = useState(null); // {name, token}: once, after making or renewing
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const load = () =>
    myBots()
      .then(setBots)
      .catch((err) => setError(err.message));
  useEffect(() => {
    if (account) load();
  }, [account]);
  if (!me || !me.user) return null;
  if (!account) {
    return html`<section class="panel my-bots" aria-labelledby="my-bots-title">
      <h2 id="my-bots-title">My bots</h2>
      <p>A guest has no bots: sign up for an account to register one.</p>
    </section>`;
  }
  const doing = async (work) => {
    setError(null);
    setBusy(true);
    try {
      await work();
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  const register = (e) => {
    e.preventDefault();
    doing(async () => {
      const body = { name: name.trim(), kind };
      if (kind === "http") body.endpoint = endpoint.trim();
      const made = await call("POST", "/api/bots", body);
      setShown(made.token ? { name: made.bot.name, token: made.token } : null);
      setName("");
      setEndpoint("");
      await load();
    });
  };
  const renew = (bot) =>
    doing(async () => {
      if (!window.confirm(`Give ${bot.name} a new token? Its old one stops working, and it is disconnected now.`)) return;
      const made = await call("POST", `/api/bots/${encodeURIComponent(bot.name)}/token`, {});
      setShown({ name: made.bot.name, token: made.token });
    });
  const remove = (bot) =>
    doing(async () => {
      if (!window.confirm(`Delete ${bot.name}? It is disconnected now and its name cannot be used again.`)) return;
      await call("DELETE", `/api/bots/${encodeURIComponent(bot.name)}`);
      if (shown && shown.name === bot.name) setShown(null);
      await load();
    });
  return html`<section class="panel my-bots" aria-labelledby="my-bots-title">
    <h2 id="my-bots-title">My bots</h2>
    <p class="quiet">A bot plays under its own name at a table you invite it to. See docs/writing-bots.md.</p>
    ${shown ? html`<${Token} shown=${shown} onDone=${() => setShown(null)} />` : null}
    ${bots && bots.length
      ? html`<ul class="bot-list" aria-label="Your bots">
          ${bots.map(
            (b) => html`<li key=${b.name} class="bot-row">
              <span class="bot-what"><b>${b.name}</b>
                <span class="quiet"> ${b.kind === "http" ? `web service at ${b.endpoint}` : b.kind === "websocket" ? "connects with a token" : b.kind}, made ${day(b.created)}</span></span>
              <span class="row-buttons">
                ${b.kind === "websocket"
                  ? html`<button type="button" aria-label=${`New token for ${b.name}`} disabled=${busy} onClick=${() => renew(b)}>New token</button>`
                  : null}
                <button type="button" aria-label=${`Delete ${b.name}`} disabled=${busy} onClick=${() => remove(b)}>Delete</button>
              </span>
            </li>`,
          )}
        </ul>`
      : bots
        ? html`<p>You have no bot yet.</p>`
        : html`<p>Loading your bots…</p>`}
    <form onSubmit=${register} aria-label="Register a bot">
      <h3>Register a bot</h3>
      <label for="bot-name">Bot's name</label>
      <input id="bot-name" type="text" required maxlength="40" autocomplete="off" value=${name}
        onInput=${(e) => setName(e.currentTarget.value)} />
      <label for="bot-kind">Kind</label>
      <select id="bot-kind" value=${kind} onChange=${(e) => setKind(e.currentTarget.value)}>
        ${KINDS.map(([k, words]) => html`<option key=${k} value=${k}>${words}</option>`)}
      </select>
      ${kind === "http"
        ? html`<label for="bot-url">Its URL</label>
            <input id="bot-url" type="text" inputmode="url" required maxlength="2000" autocomplete="off"
              placeholder="https://example.org/bot" value=${endpoint}
              onInput=${(e) => setEndpoint(e.currentTarget.value)} />`
        : null}
      <button class="go" type="submit" disabled=${busy}>Register the bot</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    </form>
  </section>`;
}
