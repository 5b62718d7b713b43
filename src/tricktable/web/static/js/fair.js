// Provably fair deals, checked in the browser: that the seed the server reveals after a match
// is the one it committed to before the first deal (SHA-256 of "tricktable-seed/1:SEED:NONCE",
// docs/protocol-web.md), and that every hand of the record was dealt from that seed, by the
// engine's own deal (tricktable.engine.state: a match key from BLAKE2b of "SEED/deal", each
// draw a 31-bit hash of the key, the hand's number and the draw's index). Nothing here asks
// the server whether the deals are fair: it re-deals them.

const M31 = 0x7fffffffn;
const M64 = (1n << 64n) - 1n;

// ------------------------------------------------------------------ BLAKE2b (RFC 7693)

const IV = [
  0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n,
];
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & M64;

function compress(h, block, t, last) {
  const m = [];
  for (let i = 0; i < 16; i++) {
    let w = 0n;
    for (let b = 7; b >= 0; b--) w = (w << 8n) | BigInt(block[i * 8 + b]);
    m.push(w);
  }
  const v = [...h, ...IV];
  v[12] ^= t & M64;
  v[13] ^= t >> 64n;
  if (last) v[14] ^= M64;
  const g = (a, b, c, d, x, y) => {
    v[a] = (v[a] + v[b] + x) & M64;
    v[d] = rotr(v[d] ^ v[a], 32n);
    v[c] = (v[c] + v[d]) & M64;
    v[b] = rotr(v[b] ^ v[c], 24n);
    v[a] = (v[a] + v[b] + y) & M64;
    v[d] = rotr(v[d] ^ v[a], 16n);
    v[c] = (v[c] + v[d]) & M64;
    v[b] = rotr(v[b] ^ v[c], 63n);
  };
  for (let r = 0; r < 12; r++) {
    const s = SIGMA[r % 10];
    g(0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (let i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

/** BLAKE2b of `bytes` (a Uint8Array) with an `outlen`-byte digest, unkeyed: the digest's bytes. */
export function blake2b(bytes, outlen = 64) {
  const h = IV.slice();
  h[0] ^= 0x01010000n ^ BigInt(outlen);
  let t = 0n;
  let pos = 0;
  // Every block but the last is compressed as it fills; the last (possibly empty) is final.
  while (bytes.length - pos > 128) {
    t += 128n;
    compress(h, bytes.subarray(pos, pos + 128), t, false);
    pos += 128;
  }
  const block = new Uint8Array(128);
  block.set(bytes.subarray(pos));
  t += BigInt(bytes.length - pos);
  compress(h, block, t, true);
  const out = new Uint8Array(outlen);
  for (let i = 0; i < outlen; i++) out[i] = Number((h[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn);
  return out;
}

/** tricktable.seeds.derive_seed: a 63-bit seed for a sub-stream of `seed` (a BigInt). */
export function deriveSeed(seed, ...parts) {
  const text = [String(seed), ...parts.map(String)].join("/");
  const digest = blake2b(new TextEncoder().encode(text), 8);
  let x = 0n;
  for (const b of digest) x = (x << 8n) | BigInt(b);
  return x >> 1n;
}

/** tricktable.engine.mixing.mix31 (on BigInts: its products pass 2^53). */
export function mix31(x) {
  x ^= x >> 16n;
  x = (x * 0x45d9f3bn) & M31;
  x ^= x >> 13n;
  x = (x * 0x2c1b3c6dn) & M31;
  x ^= x >> 16n;
  return x;
}

/**
 * The deal of hand `hand` (0-based) of the match whose deal key is `key`: each seat's cards
 * (`sizes[s]` of them, names from `deck` in the engine's order) and, when `stockUsed` is a
 * number, the stock after them as the engine lays it out. TrickState._shuffle, line for line.
 */
export function dealOf(key, hand, deck, sizes, stockUsed) {
  const cards = deck.slice();
  const h = BigInt(hand);
  const lane = mix31((key + h * 0x2f0a3b5n) & M31);
  const salt = mix31(((key >> 31n) ^ (h * 0x61c8864n)) & M31);
  const size = cards.length;
  const draw = (i) => i + Number(mix31(((lane + BigInt(i) * 0x9e3779bn) & M31) ^ salt) % BigInt(size - i));
  const hands = [];
  let i = 0;
  for (const per of sizes) {
    const mine = [];
    for (let k = 0; k < per; k++) {
      const j = i < size - 1 ? draw(i) : i;
      [cards[i], cards[j]] = [cards[j], cards[i]];
      mine.push(cards[i]);
      i += 1;
    }
    hands.push(mine);
  }
  if (stockUsed == null) return { hands, stock: [] };
  const end = Math.min(stockUsed === "rest" ? size : i + stockUsed, size - 1);
  for (let k = i; k < end; k++) {
    const j = draw(k);
    [cards[k], cards[j]] = [cards[j], cards[k]];
  }
  return { hands, stock: cards.slice(i) };
}

async function sha256hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Check a record (its JSON text) against the commitment seen before its match began and the table's dealing
 * (`{deck, step, stock_used}` from TABLE_INFO). Resolves to `{ok, lines}`, or `{ok: false,
 * reason}` naming the first thing that does not hold.
 */
export async function checkRecord(text, committed, dealing) {
  const lines = [];
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: "the record is not JSON" };
  }
  // The seed is a 64-bit number: read from the text itself (JSON numbers in JavaScript keep
  // only 53 bits).
  const found = /"seed"\s*:\s*(\d+)/.exec(text);
  const seedText = found ? found[1] : null;
  if (seedText === null || !/^\d+$/.test(seedText)) return { ok: false, reason: "the record has no seed" };
  const fair = record.fair || {};
  if (committed) {
    if (typeof fair.nonce !== "string") return { ok: false, reason: "the record has no nonce" };
    const digest = await sha256hex(`tricktable-seed/1:${seedText}:${fair.nonce}`);
    if (digest !== String(committed).toLowerCase()) {
      return { ok: false, reason: `the seed does not match the commitment made before the deal (sha256 gives ${digest.slice(0, 16)}…)` };
    }
    lines.push(`The revealed seed matches the commitment ${String(committed).slice(0, 16)}… made before the first deal.`);
  }
  const hands = record.hands || [];
  const stockUsed = dealing.stock_used == null ? null : dealing.stock_used;
  // A game that records its stock lists it after the seats' hands.
  const n = hands.length ? (hands[0].deal || []).length - (stockUsed == null ? 0 : 1) : 0;
  const key = deriveSeed(BigInt(seedText), "deal") >> 1n;
  let dealer = Number(key % BigInt(Math.max(n, 1)));
  for (let h = 0; h < hands.length; h++) {
    const hand = hands[h];
    const deal = hand.deal || [];
    if (typeof hand.dealer === "number" && hand.dealer !== dealer) {
      return { ok: false, reason: `hand ${h + 1}: dealt by seat ${hand.dealer}; the seed has seat ${dealer} deal` };
    }
    const seats = stockUsed == null ? deal : deal.slice(0, -1);
    const dealt = dealOf(key, h, dealing.deck, seats.map((c) => c.length), stockUsed);
    for (let s = 0; s < seats.length; s++) {
      if (!sameCards(seats[s], dealt.hands[s])) {
        return { ok: false, reason: `hand ${h + 1}: seat ${s}'s cards are not the ones the seed deals` };
      }
    }
    if (stockUsed != null && deal[deal.length - 1].join() !== dealt.stock.join()) {
      return { ok: false, reason: `hand ${h + 1}: the stock is not the one the seed lays out` };
    }
    dealer = (dealer + dealing.step) % n;
  }
  lines.push(`Every one of the ${hands.length} deals came from seed ${seedText}.`);
  return { ok: true, lines };
}
