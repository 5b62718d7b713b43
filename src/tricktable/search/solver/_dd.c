/* The solver's double-dummy core in C: the search of tricktable.search.solver.core, compiled.
 *
 * The Python front end (fast.py) describes one hand to it: the hands, the cards won, the trick
 * being played, the trump tables (power, suit to follow), the legal-card rule of the game as a
 * few masks, what of the cards won the score depends on (the summary: the owner of each point
 * card and a count by side, or Hearts' own), the game's move order and which cards merge. The
 * leaves and the bounds are the Python rules' own functions, called back once per summary (and
 * per summary and weight left) and cached here, so the scoring is written once, in Python.
 *
 * The search is the Python one (core.py): fail-soft alpha-beta, a transposition table at each
 * trick's start keyed by the canonical form of the cards still live (per suit group, in order
 * of power: the owner and the tag of each, so positions that differ only in which low cards
 * were played share an entry), equal cards merged, the table's best card tried first, then the
 * game's order, and each root card valued by MTD(f) from the value of the card before.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

/* Counters for measuring where a search goes (built with -DDD_STATS: ``_dd.stats()``). */
#ifdef DD_STATS
static long long st_depth[16], st_depthx[16];
static long long st_cutn[4], st_cutfirst[4], st_alln[4];
static long long st_starts, st_bound_cut, st_tt_probe, st_tt_found, st_tt_cut, st_stores;
#define STAT(x) (x++)
#else
#define STAT(x) ((void)0)
#endif

#define INF (1 << 20)
#define MAXN 8    /* seats */
#define MAXK 16   /* words of a table key */
#define PROBE 4   /* slots looked at for one key */
#define MAXT 20   /* tricks a hand, and one */

enum { ERR_NONE = 0, ERR_PY = 1, ERR_TIME = 2 };
enum { FIRST_NONE = 0, FIRST_PREFER = 1, FIRST_EXACT = 2 };
enum { SUM_SLOTS = 0, SUM_HEARTS = 1 };

typedef struct {
    u64 a, b;
} Sum;

/* A small open-addressing map from a summary (and a weight) to one or two ints. */
typedef struct {
    u64 *keys;   /* 3 words a slot: a, b, w; w == ~0 marks an empty slot */
    int *vals;   /* 2 a slot */
    size_t cap, used;
} Cache;

typedef struct {
    /* the table */
    int n, turn, last;
    u64 hands[MAXN], won[MAXN];
    int maximise[MAXN];
    /* the trump tables and the game's order */
    int power[64];
    u64 suit_mask[64];
    int order[64];
    int worth[64];
    u64 special;
    u64 above[64];
    int rankpos[64];   /* the card's place when groups are listed each by power */
    int group_of[64];
    /* legal cards */
    int first_mode, may_trump;
    u64 first_lead, deck, break_mask, no_lead, first_forbid, trump_mask;
    /* the summary */
    int smode, me;
    int slot_of[MAXN];
    int nslots;
    u64 pmask, tracked;
    int pidx[64];
    int pcard[16];
    int npoints;
    int cw[64];
    int tw;
    /* bounds */
    int has_bounds;
    int bw[64];
    PyObject *leaf_cb, *bounds_cb;
    Cache leaves, bounds;
    /* canonical keys */
    int ngroups;
    int gcards[64];
    int gstart[65], gend[65];
    u64 gmask[64];  /* the cards of a group */
    int gbase[65];  /* a group's first place in a key */
    int gdesc[64];  /* whether a group by power is its cards by code, highest first */
    u64 tagmask[12]; /* the cards whose tag has each bit set */
    int tag_id[64];
    int obits, tbits, K;
    /* the transposition table */
    u64 *tt;
    size_t tt_mask;
    int stride;
    uint32_t gen;
    /* move ordering: the game's order, or (``cheap``) leads from the side suits first, and
     * when following the cheapest card that takes the trick from the other side, then the
     * lowest losers */
    int cheap;
    /* Hearts, once the points are split (no moon left): the value falls by this much a point
     * the seat takes (0: not so) */
    int slope;
    /* Spades: bounds by the sure tricks of the top trumps, the leaves enumerated here (the
     * summary is the tricks by slot, ``places`` the slots in use) */
    int sure, trump_group, nplaces;
    int places[MAXN];
    /* trick mode (see ``tsearch``): the value by the tricks the maximising side takes from
     * the root on (``tvals``, ``ntvals`` of them), searched as a trick count */
    int tmode, ntvals;
    int tvals[MAXT];
    /* bookkeeping */
    long long nodes;
    double deadline;
    int error;
} Solver;

/* ---- time ---- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- hashing ---- */

static inline u64 mix(u64 x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ---- the small caches ---- */

static int cache_init(Cache *c, size_t cap) {
    c->cap = cap;
    c->used = 0;
    c->keys = malloc(cap * 3 * sizeof(u64));
    c->vals = malloc(cap * 2 * sizeof(int));
    if (!c->keys || !c->vals) return -1;
    for (size_t i = 0; i < cap; i++) c->keys[3 * i + 2] = ~(u64)0;
    return 0;
}

static void cache_free(Cache *c) {
    free(c->keys);
    free(c->vals);
    c->keys = NULL;
    c->vals = NULL;
}

static int *cache_find(Cache *c, Sum s, u64 w, int *found) {
    size_t i = mix(s.a * 31 + mix(s.b) + w * 0x9e3779b97f4a7c15ULL) & (c->cap - 1);
    for (;;) {
        u64 *k = c->keys + 3 * i;
        if (k[2] == ~(u64)0) {
            *found = 0;
            return c->vals + 2 * i;
        }
        if (k[0] == s.a && k[1] == s.b && k[2] == w) {
            *found = 1;
            return c->vals + 2 * i;
        }
        i = (i + 1) & (c->cap - 1);
    }
}

static int cache_grow(Cache *c) {
    Cache bigger;
    if (cache_init(&bigger, c->cap * 2) < 0) return -1;
    for (size_t i = 0; i < c->cap; i++) {
        u64 *k = c->keys + 3 * i;
        if (k[2] == ~(u64)0) continue;
        Sum s = {k[0], k[1]};
        int found;
        int *v = cache_find(&bigger, s, k[2], &found);
        size_t j = (size_t)(v - bigger.vals) / 2;
        memcpy(bigger.keys + 3 * j, k, 3 * sizeof(u64));
        v[0] = c->vals[2 * i];
        v[1] = c->vals[2 * i + 1];
        bigger.used++;
    }
    cache_free(c);
    *c = bigger;
    return 0;
}

static int cache_put(Cache *c, Sum s, u64 w, int v0, int v1) {
    int found;
    if (2 * (c->used + 1) > c->cap && cache_grow(c) < 0) return -1;
    int *v = cache_find(c, s, w, &found);
    size_t i = (size_t)(v - c->vals) / 2;
    c->keys[3 * i] = s.a;
    c->keys[3 * i + 1] = s.b;
    c->keys[3 * i + 2] = w;
    v[0] = v0;
    v[1] = v1;
    if (!found) c->used++;
    return 0;
}

/* ---- the summary ---- */

static inline Sum take(const Solver *S, Sum s, int winner, u64 tm) {
    if (S->smode == SUM_HEARTS) {
        if (!(tm & S->tracked)) return s;
        int got = 0;
        for (u64 r = tm; r; r &= r - 1) got += S->cw[__builtin_ctzll(r)];
        int64_t cand = (int64_t)s.a - 2;
        if (winner == S->me) s.b += (u64)(int64_t)got;
        if (cand == -1)
            cand = winner;
        else if (cand != winner)
            cand = -2;
        s.a = (u64)(cand + 2);
        return s;
    }
    int slot = S->slot_of[winner];
    for (u64 r = tm & S->pmask; r; r &= r - 1) {
        int c = __builtin_ctzll(r);
        s.a |= (u64)(slot + 1) << (4 * S->pidx[c]);
    }
    int cnt = S->tw;
    for (u64 r = tm; r; r &= r - 1) cnt += S->cw[__builtin_ctzll(r)];
    s.b += (u64)cnt << (8 * slot);
    return s;
}

/* The summary as the Python front end reads it: (mine, candidate) in Hearts; else, by slot,
 * the point cards it took and its count. */
static PyObject *sum_tuple(const Solver *S, Sum s) {
    if (S->smode == SUM_HEARTS)
        return Py_BuildValue("(LL)", (long long)(int64_t)s.b, (long long)((int64_t)s.a - 2));
    PyObject *t = PyTuple_New(2 * S->nslots);
    if (!t) return NULL;
    for (int slot = 0; slot < S->nslots; slot++) {
        u64 pm = 0;
        for (int i = 0; i < S->npoints; i++)
            if ((int)((s.a >> (4 * i)) & 15) == slot + 1) pm |= (u64)1 << S->pcard[i];
        PyObject *x = PyLong_FromUnsignedLongLong(pm);
        PyObject *y = PyLong_FromLong((long)((s.b >> (8 * slot)) & 255));
        if (!x || !y) {
            Py_XDECREF(x);
            Py_XDECREF(y);
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, 2 * slot, x);
        PyTuple_SET_ITEM(t, 2 * slot + 1, y);
    }
    return t;
}

static int leaf(Solver *S, Sum s) {
    int found;
    int *v = cache_find(&S->leaves, s, 0, &found);
    if (found) return v[0];
    PyObject *t = sum_tuple(S, s);
    PyObject *won = PyList_New(S->n);
    if (!t || !won) goto fail;
    for (int i = 0; i < S->n; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(S->won[i]);
        if (!x) goto fail;
        PyList_SET_ITEM(won, i, x);
    }
    PyObject *r = PyObject_CallFunctionObjArgs(S->leaf_cb, t, won, NULL);
    Py_DECREF(t);
    Py_DECREF(won);
    if (!r) {
        S->error = ERR_PY;
        return 0;
    }
    long value = PyLong_AsLong(r);
    Py_DECREF(r);
    if (value == -1 && PyErr_Occurred()) {
        S->error = ERR_PY;
        return 0;
    }
    if (cache_put(&S->leaves, s, 0, (int)value, 0) < 0) {
        PyErr_NoMemory();
        S->error = ERR_PY;
    }
    return (int)value;
fail:
    Py_XDECREF(t);
    Py_XDECREF(won);
    S->error = ERR_PY;
    return 0;
}

/* The least and the most the rest can be worth (the Python rules' bounds), by summary and
 * the weight still live. */
static void bounds(Solver *S, Sum s, u64 live, int *lo, int *hi) {
    u64 w = 0;
    for (u64 r = live; r; r &= r - 1) w += (u64)(int64_t)S->bw[__builtin_ctzll(r)];
    int found;
    int *v = cache_find(&S->bounds, s, w & 0xffffffffULL, &found);
    if (found) {
        *lo = v[0];
        *hi = v[1];
        return;
    }
    PyObject *t = sum_tuple(S, s);
    PyObject *l = PyLong_FromUnsignedLongLong(live);
    PyObject *r = NULL;
    if (t && l) r = PyObject_CallFunctionObjArgs(S->bounds_cb, t, l, NULL);
    Py_XDECREF(t);
    Py_XDECREF(l);
    long a = 0, b = 0;
    if (!r || !PyArg_ParseTuple(r, "ll", &a, &b)) {
        Py_XDECREF(r);
        S->error = ERR_PY;
        *lo = -INF;
        *hi = INF;
        return;
    }
    Py_DECREF(r);
    *lo = (int)a;
    *hi = (int)b;
    if (cache_put(&S->bounds, s, w & 0xffffffffULL, *lo, *hi) < 0) {
        PyErr_NoMemory();
        S->error = ERR_PY;
    }
}

/* ---- sure tricks: a tighter bound where the score is the tricks by slot (Spades) ---- */

/* The least and the most of the leaves over every way the tricks left can fall into the
 * slots in use, each slot taking at least ``need`` of them (by slot). */
static void split_range(Solver *S, Sum s, int place, int left, const int *need, int *lo,
                        int *hi) {
    if (S->error) return;
    int slot = S->places[place];
    if (place == S->nplaces - 1) {
        if (left < need[slot]) return;
        Sum t = s;
        t.b += (u64)left << (8 * slot);
        int v = leaf(S, t);
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
        return;
    }
    for (int k = need[slot]; k <= left; k++) {
        Sum t = s;
        t.b += (u64)k << (8 * slot);
        split_range(S, t, place + 1, left - k, need, lo, hi);
    }
}

/* The bounds of a trick's start given the sure tricks of the top trumps. The highest trumps
 * in play held by one slot (one seat, or two partners counting together), down to the first
 * one another slot holds: each of them wins the trick it is played to for that slot (any
 * trump above it is the slot's too), and one seat's cards go to different tricks, so the slot
 * takes at least as many tricks as the one of its seats holding most of them (partners may
 * play two to one trick). Then the next run, held by a second slot: each of its cards wins
 * for that slot unless one of the first run is played to the same trick, so the second slot
 * takes at least as many as its seat holding most of that run, less the first run's cards.
 * 0 where no seat holds such a card (the Python bounds then). */
static int cash(const Solver *S, u64 live, int seat, u64 trumps, u64 skip);

/* Whether the leader, having cashed ``cashed`` side-suit winners of its hand ``lh``, may lead
 * its top trumps: trumps broken, never barred from the lead, or nothing else left to lead. */
static int may_lead_trump(const Solver *S, u64 live, u64 trumps, u64 lh, int cashed) {
    return (live & S->break_mask) != S->break_mask || !(S->no_lead & trumps) ||
           cashed == __builtin_popcountll(lh & ~trumps);
}

/* The most quick tricks of a low lead to the partner's top card of a side suit (each
 * opponent follows or holds no trump) and the partner's own winners in the other suits,
 * four seats in partnerships; 0 where the partner holds no such top card. */
static int partner_quick(const Solver *S, u64 live, int leader, u64 trumps) {
    int partner = (leader + 2) % 4, best = 0;
    u64 ph = S->hands[partner];
    for (u64 rest = S->hands[leader] & ~trumps; rest;) {
        int c0 = __builtin_ctzll(rest);
        u64 suit = S->suit_mask[c0];
        rest &= ~suit;
        int g = S->group_of[c0];
        if (g < 0) continue;
        int top = -1;
        for (int i = S->gstart[g]; i < S->gend[g]; i++)
            if ((live >> S->gcards[i]) & 1) {
                top = S->gcards[i];
                break;
            }
        if (top < 0 || !((ph >> top) & 1)) continue;
        int ok = 1;
        for (int t = 1; t < 4; t += 2) {
            u64 h = S->hands[(leader + t) % 4];
            if ((h & trumps) && !(h & suit)) ok = 0;
        }
        if (!ok) continue;
        int q = 1 + cash(S, live, partner, trumps, suit);
        if (q > best) best = q;
    }
    return best;
}

/* The leader's quick tricks as the slot they fall to: its own winners of the side suits
 * (then its top trumps, where it may lead them) to its own slot (``*qs``), or a low lead to
 * the partner's top card of a side suit and the partner's winners after it to the partner's
 * (``*ps``); as ``trick_bounds`` counts them. */
static void quick_slots(const Solver *S, u64 live, int leader, int *qs, int *qneed, int *ps,
                        int *pneed) {
    *qs = S->slot_of[leader];
    *qneed = *pneed = 0;
    *ps = *qs;
    if (S->first_mode != FIRST_NONE && live == S->deck) return;
    u64 trumps = S->trump_group >= 0 ? live & S->gmask[S->trump_group] : 0;
    u64 lh = S->hands[leader];
    int qt = cash(S, live, leader, trumps, 0);
    int lt = 0;
    if (S->trump_group >= 0)
        for (int i = S->gstart[S->trump_group]; i < S->gend[S->trump_group]; i++) {
            int c = S->gcards[i];
            if (!((live >> c) & 1)) continue;
            if (!((lh >> c) & 1)) break;
            lt++;
        }
    if (lt && may_lead_trump(S, live, trumps, lh, qt)) qt += lt;
    *qneed = qt;
    if (S->n != 4) return;
    *ps = S->slot_of[(leader + 2) % 4];
    *pneed = partner_quick(S, live, leader, trumps);
}

static int sure_bounds(Solver *S, Sum s, u64 live, int leader, int *lo, int *hi) {
    if (S->trump_group < 0) return 0;
    int slot = -1, run = 0, cards = 0, slot2 = -1, run2 = 0;
    int count[MAXN] = {0}, count2[MAXN] = {0};
    for (int i = S->gstart[S->trump_group]; i < S->gend[S->trump_group]; i++) {
        int c = S->gcards[i];
        if (!((live >> c) & 1)) continue;
        int o = 0;
        while (!((S->hands[o] >> c) & 1)) o++;
        if (slot < 0) slot = S->slot_of[o];
        if (slot2 < 0 && S->slot_of[o] == slot) {
            cards++;
            if (++count[o] > run) run = count[o];
            continue;
        }
        if (slot2 < 0) slot2 = S->slot_of[o];
        if (S->slot_of[o] != slot2) break;
        if (++count2[o] > run2) run2 = count2[o];
    }
    int qs, qneed, ps, pneed;
    quick_slots(S, live, leader, &qs, &qneed, &ps, &pneed);
    if (!run && !qneed && !pneed) return 0;
    if (!run) slot = 0;
    run2 = run2 > cards ? run2 - cards : 0;
    if (!run2) slot2 = 0;
    int left = __builtin_popcountll(S->hands[leader]);
    if (qneed > left) qneed = left;
    if (pneed > left) pneed = left;
    u64 w = (u64)left | (u64)run << 8 | (u64)slot << 16 | (u64)1 << 24 | (u64)run2 << 32 |
            (u64)slot2 << 40 | (u64)qneed << 44 | (u64)pneed << 49 | (u64)qs << 54 |
            (u64)ps << 57 | (u64)(S->maximise[leader] ? 1 : 0) << 60;
    int found;
    int *v = cache_find(&S->bounds, s, w, &found);
    if (found) {
        *lo = v[0];
        *hi = v[1];
        return 1;
    }
    int need[MAXN] = {0};
    need[slot] = run;
    if (run2) need[slot2] = run2;
    int a = INF, b = -INF;
    split_range(S, s, 0, left, need, &a, &b);
    if (S->error || a > b) return 0;
    /* the quick tricks hold on a line of the leader's side: a bound on its side only, the
     * best of the two lines */
    for (int line = 0; line < 2; line++) {
        int sl = line ? ps : qs, q = line ? pneed : qneed;
        if (q <= need[sl]) continue;
        int need2[MAXN];
        memcpy(need2, need, sizeof need2);
        need2[sl] = q;
        int a2 = INF, b2 = -INF;
        split_range(S, s, 0, left, need2, &a2, &b2);
        if (S->error) return 0;
        if (a2 > b2) continue; /* cannot happen: the line is one of play */
        if (S->maximise[leader]) {
            if (a2 > a) a = a2;
        } else if (b2 < b) {
            b = b2;
        }
    }
    if (a > b) a = b; /* cannot happen; kept safe */
    *lo = a;
    *hi = b;
    if (cache_put(&S->bounds, s, w, a, b) < 0) {
        PyErr_NoMemory();
        S->error = ERR_PY;
    }
    return 1;
}

/* ---- Hearts: a seat that cannot win a trick any more ---- */

/* Whether the seat ``me``, not on lead, can win no trick left: in each suit it holds, each of
 * its cards is below every card of that suit the others hold (a lead of the suit is one of
 * those and beats whatever it follows with; void, it discards; no trumps), so it never leads
 * again either. Its points are then final. */
static int never_wins(const Solver *S, u64 live) {
    u64 mine = S->hands[S->me];
    while (mine) {
        int c = __builtin_ctzll(mine);
        u64 suit = S->suit_mask[c];
        int top = -1;
        for (u64 r = mine & suit; r; r &= r - 1) {
            int p = S->power[__builtin_ctzll(r)];
            if (p >= 100) return 0;
            if (p > top) top = p;
        }
        for (u64 r = live & suit & ~S->hands[S->me]; r; r &= r - 1)
            if (S->power[__builtin_ctzll(r)] < top) return 0;
        mine &= ~suit;
    }
    return 1;
}

/* ---- legal cards: the engine's rules, from the position alone ---- */

static inline u64 legal(const Solver *S, int seat, int pos, u64 lead_mask, u64 tmask) {
    u64 hand = S->hands[seat];
    u64 live = 0;
    if (pos == 0) {
        for (int s = 0; s < S->n; s++) live |= S->hands[s];
        if (S->first_mode != FIRST_NONE && live == S->deck) {
            if (S->first_mode == FIRST_EXACT) return S->first_lead;
            return (hand & S->first_lead) ? hand & S->first_lead : hand;
        }
        if ((live & S->break_mask) == S->break_mask) {
            u64 r = hand & ~S->no_lead;
            return r ? r : hand;
        }
        return hand;
    }
    u64 follow = hand & lead_mask;
    if (follow) return S->may_trump ? follow | (hand & S->trump_mask) : follow;
    if (S->first_forbid) {
        for (int s = 0; s < S->n; s++) live |= S->hands[s];
        if ((live | tmask) == S->deck) {
            u64 r = hand & ~S->first_forbid;
            return r ? r : hand;
        }
    }
    return hand;
}

/* ---- the moves of a node: equal cards merged, the table's card first, then the order ---- */

static int moves(const Solver *S, int seat, int pos, u64 lead_mask, int best_power, int best_seat,
                 u64 leg, u64 tmask, int first, int *out) {
    int key[64];
    int cards[64];
    int k = 0;
    for (u64 r = leg; r; r &= r - 1) {
        int c = __builtin_ctzll(r);
        int j = k++;
        while (j > 0 && S->rankpos[cards[j - 1]] > S->rankpos[c]) {
            cards[j] = cards[j - 1];
            j--;
        }
        cards[j] = c;
    }
    u64 live = tmask;
    for (int s = 0; s < S->n; s++)
        if (s != seat) live |= S->hands[s];
    int m = 0;
    int prev = -1;
    for (int i = 0; i < k; i++) {
        int c = cards[i];
        if (prev >= 0 && S->group_of[c] == S->group_of[prev] && !((S->special >> c) & 1) &&
            !((S->special >> prev) & 1) && S->worth[c] == S->worth[prev] &&
            !(live & S->above[c] & ~S->above[prev] & ~((u64)1 << prev))) {
            prev = c;
            continue; /* equal to the higher card just kept (or merged) */
        }
        prev = c;
        int sc = S->order[c];
        if (S->cheap && pos > 0) {
            int p = S->power[c];
            if (p < 100 && !((lead_mask >> c) & 1)) p = -1;
            int mine = S->maximise[best_seat] == S->maximise[seat];
            if (p > best_power && !mine)
                sc = 4000 - p; /* the cheapest card that takes the trick from the others */
            else if (p > best_power)
                sc = 1000 - p;
            else
                sc = 2000 + S->order[c] - 2 * p; /* a loser: the lowest, or one worth most */
        }
        if (S->cheap && pos == 0) {
            int p = S->power[c];
            sc = p >= 100 ? p - 100 : p + 50; /* a lead: side suits first, highest first */
        }
        key[c] = sc;
        int j = m++;
        while (j > 0 && key[out[j - 1]] < key[c]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = c;
    }
    if (first >= 0 && out[0] != first) {
        for (int i = 1; i < m; i++) {
            if (out[i] == first) {
                memmove(out + 1, out, (size_t)i * sizeof(int));
                out[0] = first;
                break;
            }
        }
    }
    return m;
}

/* ---- the canonical key of a trick's start ---- */

/* Card ``c``, live, at place ``p`` of the key: its bit among the live cards, and in the planes
 * of its owner's bits and of its tags. */
static inline void key_card(const Solver *S, u64 *key, const u64 *ob, int c, int p) {
    u64 bit = (u64)1 << p;
    key[0] |= bit;
    for (int b = 0; b < S->obits; b++)
        if ((ob[b] >> c) & 1) key[1 + b] |= bit;
    for (int b = 0; b < S->tbits; b++)
        if ((S->tagmask[b] >> c) & 1) key[1 + S->obits + b] |= bit;
}

static void trick_key(const Solver *S, int seat, Sum s, u64 live, u64 *key) {
    /* the cards of the seats with each bit of the seat's number set */
    u64 ob[3] = {0, 0, 0};
    for (int t = 0; t < S->n; t++)
        for (int b = 0; b < S->obits; b++)
            if ((t >> b) & 1) ob[b] |= S->hands[t];
    memset(key, 0, (size_t)S->K * sizeof(u64));
    for (int g = 0; g < S->ngroups; g++) {
        int p = S->gbase[g];
        if (S->gdesc[g]) {
            /* the group by power is its cards by code, highest first: its live cards alone */
            for (u64 r = live & S->gmask[g]; r;) {
                int c = 63 - __builtin_clzll(r);
                r ^= (u64)1 << c;
                key_card(S, key, ob, c, p++);
            }
            continue;
        }
        for (int i = S->gstart[g]; i < S->gend[g]; i++) {
            int c = S->gcards[i];
            if (!((live >> c) & 1)) continue;
            key_card(S, key, ob, c, p++);
        }
    }
    key[S->K - 3] = s.a;
    key[S->K - 2] = s.b;
    key[S->K - 1] = (u64)(seat + 1);
}

/* A table slot: the key's hash, then gen | best << 32 | depth << 40, then lo | hi << 32, then
 * the K words of the key (compared only where the hashes agree). */
enum { E_HASH = 0, E_META = 1, E_BOUNDS = 2, E_KEY = 3 };

static inline u64 key_hash(const Solver *S, const u64 *key) {
    u64 h = 0;
    for (int i = 0; i < S->K; i++) h = mix(h ^ key[i]) + (u64)i;
    return h;
}

static u64 *tt_probe(Solver *S, const u64 *key, u64 h, int *found) {
    u64 *empty = NULL, *victim = NULL;
    int victim_depth = 1 << 30;
    for (int j = 0; j < PROBE; j++) {
        u64 *e = S->tt + ((h + (u64)j) & S->tt_mask) * (u64)S->stride;
        u64 meta = e[E_META];
        if ((uint32_t)meta != S->gen) {
            if (!empty) empty = e;
            continue;
        }
        if (e[E_HASH] == h && !memcmp(e + E_KEY, key, (size_t)S->K * sizeof(u64))) {
            *found = 1;
            return e;
        }
        /* the entry nearest the leaves (fewest live cards) makes way */
        int d = (int)((meta >> 40) & 0xff);
        if (d < victim_depth) {
            victim = e;
            victim_depth = d;
        }
    }
    *found = 0;
    return empty ? empty : victim;
}

/* ---- the search ---- */

/* A table value moved by ``off``: the bounds past any value (INF) stay where they are. */
static inline int unshift(int v, int off) {
    if (v >= INF || v <= -INF) return v;
    return v + off;
}

static int ab(Solver *S, int seat, int pos, u64 lead_mask, int best_power, int best_seat,
              u64 tmask, Sum s, int alpha, int beta);

static int step(Solver *S, int seat, int pos, u64 lead_mask, int best_power, int best_seat,
                u64 tmask, Sum s, int card, int alpha, int beta) {
    u64 bit = (u64)1 << card;
    S->hands[seat] ^= bit;
    int p = S->power[card];
    if (pos == 0) {
        lead_mask = S->suit_mask[card];
        best_power = p;
        best_seat = seat;
    } else {
        if (p < 100 && !(bit & lead_mask)) p = -1;
        if (p > best_power) {
            best_power = p;
            best_seat = seat;
        }
    }
    int value;
    if (pos == S->last) {
        u64 tm = tmask | bit;
        u64 old = S->won[best_seat];
        S->won[best_seat] = old | tm;
        value = ab(S, best_seat, 0, 0, -1, -1, 0, take(S, s, best_seat, tm), alpha, beta);
        S->won[best_seat] = old;
    } else {
        int next = ((seat + S->turn) % S->n + S->n) % S->n;
        value = ab(S, next, pos + 1, lead_mask, best_power, best_seat, tmask | bit, s, alpha,
                   beta);
    }
    S->hands[seat] ^= bit;
    return value;
}

static int ab(Solver *S, int seat, int pos, u64 lead_mask, int best_power, int best_seat,
              u64 tmask, Sum s, int alpha, int beta) {
    if (S->error) return 0;
    u64 live = 0;
    if (pos == 0) {
        u64 hand = S->hands[seat];
        if (!(hand & (hand - 1))) {
            if (!hand) return leaf(S, s);
            /* the last trick: every card forced, played out here */
            S->nodes++;
            int card = __builtin_ctzll(hand);
            u64 lm = S->suit_mask[card];
            int bp = S->power[card], winner = seat;
            u64 tm = hand;
            int t = seat;
            for (int i = 0; i < S->last; i++) {
                t = ((t + S->turn) % S->n + S->n) % S->n;
                u64 h = S->hands[t];
                if (!h) break;
                card = 63 - __builtin_clzll(h);
                int p = S->power[card];
                if (p < 100 && !((lm >> card) & 1)) p = -1;
                if (p > bp) {
                    bp = p;
                    winner = t;
                }
                tm |= (u64)1 << card;
            }
            u64 old = S->won[winner];
            S->won[winner] = old | tm;
            int v = leaf(S, take(S, s, winner, tm));
            S->won[winner] = old;
            return v;
        }
        for (int t = 0; t < S->n; t++) live |= S->hands[t];
        if (S->has_bounds) {
            int lo, hi;
            if (S->smode == SUM_HEARTS && S->slope && (int64_t)s.a - 2 == -2 && seat != S->me &&
                !S->trump_mask && never_wins(S, live)) {
                /* the points split (no moon), the seat's own final: the value is known, the
                 * bounds of no point left */
                bounds(S, s, live & ~S->tracked, &lo, &hi);
                return lo;
            }
            if (!(S->sure && sure_bounds(S, s, live, seat, &lo, &hi))) bounds(S, s, live, &lo, &hi);
            if (S->error) return 0;
            if (lo == hi || hi <= alpha) return hi;
            if (lo >= beta) return lo;
        }
    }
    u64 leg = legal(S, seat, pos, lead_mask, tmask);
    S->nodes++;
    if (!(S->nodes & 255)) {
        if (S->deadline > 0 && now() > S->deadline) {
            S->error = ERR_TIME;
            return 0;
        }
        /* a long search still answers Ctrl-C (a KeyboardInterrupt out of solve) */
        if (!(S->nodes & 0xffff) && PyErr_CheckSignals() < 0) {
            S->error = ERR_PY;
            return 0;
        }
    }
    if (!(leg & (leg - 1)))
        return step(S, seat, pos, lead_mask, best_power, best_seat, tmask, s,
                    __builtin_ctzll(leg), alpha, beta);
    u64 key[MAXK];
    u64 hash = 0;
    int found = 0;
    int first = -1;
    int depth = __builtin_popcountll(live);
    int elo = -INF, ehi = INF;
    int off = 0; /* the table keeps values less this (see ``slope``) */
    if (pos == 0) {
        Sum ks = s;
        if (S->slope && (int64_t)s.a - 2 == -2) {
            /* Hearts with the points split: the value falls by ``slope`` a point the seat
             * takes, whatever it took before; one entry serves every count taken so far. */
            off = -S->slope * (int)(int64_t)s.b;
            ks.b = 0;
        }
        trick_key(S, seat, ks, live, key);
        hash = key_hash(S, key);
        u64 *entry = tt_probe(S, key, hash, &found);
        if (found) {
            u64 bounds_word = entry[E_BOUNDS];
            elo = unshift((int32_t)(uint32_t)bounds_word, off);
            ehi = unshift((int32_t)(uint32_t)(bounds_word >> 32), off);
            first = (int)(int8_t)((entry[E_META] >> 32) & 0xff);
            if (elo >= beta) return elo;
            if (ehi <= alpha) return ehi;
            if (elo == ehi) return elo;
            if (elo > alpha) alpha = elo;
            if (ehi < beta) beta = ehi;
        }
    }
    int maximise = S->maximise[seat];
    int window_low = alpha, window_high = beta;
    int best = maximise ? -INF : INF;
    int best_card = -1;
    int list[64];
    int m = moves(S, seat, pos, lead_mask, best_power, best_seat, leg, tmask, first, list);
    for (int i = 0; i < m; i++) {
        int card = list[i];
        int value = step(S, seat, pos, lead_mask, best_power, best_seat, tmask, s, card, alpha,
                         beta);
        if (S->error) return 0;
        if (maximise) {
            if (value > best) {
                best = value;
                best_card = card;
                if (value > alpha) alpha = value;
            }
        } else if (value < best) {
            best = value;
            best_card = card;
            if (value < beta) beta = value;
        }
        if (alpha >= beta) break;
    }
    if (pos == 0) {
        /* Fail-soft: at or below the window the value is an upper bound, at or above it a
         * lower bound, inside it exact; kept with what the table knew (looked up again: the
         * search below may have moved the entry). */
        int lo, hi;
        if (best <= window_low) {
            lo = -INF;
            hi = best;
        } else if (best >= window_high) {
            lo = best;
            hi = INF;
        } else {
            lo = hi = best;
        }
        if (elo > lo) lo = elo;
        if (ehi < hi) hi = ehi;
        int again;
        u64 *entry = tt_probe(S, key, hash, &again);
        if (again) {
            int olo = unshift((int32_t)(uint32_t)entry[E_BOUNDS], off);
            int ohi = unshift((int32_t)(uint32_t)(entry[E_BOUNDS] >> 32), off);
            if (olo > lo) lo = olo;
            if (ohi < hi) hi = ohi;
        } else {
            entry[E_HASH] = hash;
            memcpy(entry + E_KEY, key, (size_t)S->K * sizeof(u64));
        }
        lo = unshift(lo, -off);
        hi = unshift(hi, -off);
        entry[E_BOUNDS] = (u64)(uint32_t)lo | ((u64)(uint32_t)hi << 32);
        entry[E_META] =
            (u64)S->gen | ((u64)(uint8_t)(int8_t)best_card << 32) | ((u64)(depth & 0xff) << 40);
    }
    return best;
}


/* ---- trick mode: the tricks the maximising side takes from here ----
 *
 * Where the value of the hand hangs only on the tricks the maximising side takes from the
 * root on, and never falls as that count grows (Spades without a nil open on either side:
 * the front end checks it over every way the tricks left can fall), the value of a card is
 * that function of the most tricks the side can make sure of, and the search is the bridge
 * solvers' trick count: the value of a position is the tricks won from it on, whatever was
 * won before, so one table entry serves every history that reaches the same cards (the
 * summary is left out of the key), and the bounds are trick counts (the sure tricks of the
 * top trumps, the leader's quick tricks). */

static int tsearch(Solver *S, int seat, int pos, u64 lead_mask, int best_power, int best_seat,
                   u64 tmask, int alpha, int beta);

static int tstep(Solver *S, int seat, int pos, u64 lead_mask, int best_power, int best_seat,
                 u64 tmask, int card, int alpha, int beta) {
    u64 bit = (u64)1 << card;
    S->hands[seat] ^= bit;
    int p = S->power[card];
    if (pos == 0) {
        lead_mask = S->suit_mask[card];
        best_power = p;
        best_seat = seat;
    } else {
        if (p < 100 && !(bit & lead_mask)) p = -1;
        if (p > best_power) {
            best_power = p;
            best_seat = seat;
        }
    }
    int value;
    if (pos == S->last) {
        int w = S->maximise[best_seat] ? 1 : 0;
        value = w + tsearch(S, best_seat, 0, 0, -1, -1, 0, alpha - w, beta - w);
    } else {
        int next = ((seat + S->turn) % S->n + S->n) % S->n;
        value = tsearch(S, next, pos + 1, lead_mask, best_power, best_seat, tmask | bit, alpha,
                        beta);
    }
    S->hands[seat] ^= bit;
    return value;
}

/* The tricks ``seat`` cashes on lead with its own winners from the top of the side suits
 * (not ``skip``), each while every other seat follows or holds no trump (the lead stays in
 * its hand). */
static int cash(const Solver *S, u64 live, int seat, u64 trumps, u64 skip) {
    u64 h = S->hands[seat];
    int qt = 0;
    u64 rest = h & ~trumps & ~skip;
    while (rest) {
        int c0 = __builtin_ctzll(rest);
        u64 suit = S->suit_mask[c0];
        rest &= ~suit;
        int g = S->group_of[c0];
        if (g < 0) continue;
        int k = 0;
        for (int i = S->gstart[g]; i < S->gend[g]; i++) {
            int c = S->gcards[i];
            if (!((live >> c) & 1)) continue;
            if (!((h >> c) & 1)) break;
            k++;
        }
        for (int t = 0; t < S->n && k; t++) {
            if (t == seat || !(S->hands[t] & trumps)) continue;
            int have = __builtin_popcountll(S->hands[t] & suit);
            if (have < k) k = have;
        }
        qt += k;
    }
    return qt;
}

/* The tricks the maximising side is sure of, and the most it can take, at a trick's start
 * with ``left`` tricks to play: the top trumps' runs (as ``sure_bounds``, by side), and the
 * leader's quick tricks: its winners from the top of a side suit, each cashed while every
 * opponent still follows (or holds no trump) and the partner follows (or holds no trump:
 * the side keeps the lead in the leader's hand), then its top trumps where it may lead them. */
static void trick_bounds(Solver *S, u64 live, int leader, int left, int *lo, int *hi) {
    *lo = 0;
    *hi = left;
    int tg = S->trump_group;
    u64 trumps = 0;
    int side = -1, run = 0, cards = 0, run2 = 0, lead_trumps = 0, lead_run = 1;
    if (tg >= 0) {
        int side2 = -1;
        int count[MAXN] = {0}, count2[MAXN] = {0};
        for (int i = S->gstart[tg]; i < S->gend[tg]; i++) {
            int c = S->gcards[i];
            if (!((live >> c) & 1)) continue;
            trumps |= (u64)1 << c;
            int o = 0;
            while (!((S->hands[o] >> c) & 1)) o++;
            if (lead_run) {
                if (o == leader)
                    lead_trumps++;
                else
                    lead_run = 0;
            }
            if (side2 == -2) continue;
            int sd = S->maximise[o];
            if (side < 0) side = sd;
            if (side2 < 0 && sd == side) {
                cards++;
                if (++count[o] > run) run = count[o];
                continue;
            }
            if (side2 < 0) side2 = sd;
            if (sd != side2) {
                side2 = -2;
                continue;
            }
            if (++count2[o] > run2) run2 = count2[o];
        }
        run2 = run2 > cards ? run2 - cards : 0;
        if (run) {
            if (side) {
                *lo = run;
                *hi = left - run2;
            } else {
                *hi = left - run;
                *lo = run2;
            }
        }
    }
    /* the leader's quick tricks */
    if (S->first_mode != FIRST_NONE && live == S->deck) return;
    u64 lh = S->hands[leader];
    int qt = cash(S, live, leader, trumps, 0);
    /* then its top trumps, where a trump may be led (broken, never barred, or nothing else
     * left) */
    if (lead_trumps && may_lead_trump(S, live, trumps, lh, qt)) qt += lead_trumps;
    /* or a low card to the partner's top card of a side suit, and the partner's winners */
    if (S->n == 4) {
        int q = partner_quick(S, live, leader, trumps);
        if (q > qt) qt = q;
    }
    if (qt > left) qt = left;
    if (S->maximise[leader]) {
        if (qt > *lo) *lo = qt;
    } else if (left - qt < *hi) {
        *hi = left - qt;
    }
    if (*lo > *hi) *lo = *hi; /* cannot happen; kept safe */
}

static int tsearch(Solver *S, int seat, int pos, u64 lead_mask, int best_power, int best_seat,
                   u64 tmask, int alpha, int beta) {
    if (S->error) return 0;
    u64 live = 0;
    int depth = 0;
    u64 key[MAXK];
    u64 hash = 0;
    if (pos == 0) {
        u64 hand = S->hands[seat];
        if (!hand) return 0;
        if (!(hand & (hand - 1))) {
            /* the last trick: every card forced */
            S->nodes++;
            int card = __builtin_ctzll(hand);
            u64 lm = S->suit_mask[card];
            int bp = S->power[card], winner = seat;
            int t = seat;
            for (int i = 0; i < S->last; i++) {
                t = ((t + S->turn) % S->n + S->n) % S->n;
                u64 h = S->hands[t];
                if (!h) break;
                card = 63 - __builtin_clzll(h);
                int p = S->power[card];
                if (p < 100 && !((lm >> card) & 1)) p = -1;
                if (p > bp) {
                    bp = p;
                    winner = t;
                }
            }
            return S->maximise[winner] ? 1 : 0;
        }
        for (int t = 0; t < S->n; t++) live |= S->hands[t];
        /* the key first: its slot is fetched from memory while the bounds are worked out */
        Sum zero = {0, 0};
        trick_key(S, seat, zero, live, key);
        hash = key_hash(S, key);
        {
            const char *slot = (const char *)(S->tt + (hash & S->tt_mask) * (u64)S->stride);
            __builtin_prefetch(slot);
            __builtin_prefetch(slot + 64);
            __builtin_prefetch(slot + 128);
        }
        int left = __builtin_popcountll(hand);
        int lo, hi;
        STAT(st_starts);
#ifdef DD_STATS
        st_depth[left]++;
#endif
        trick_bounds(S, live, seat, left, &lo, &hi);
        if (lo >= hi || hi <= alpha || lo >= beta) STAT(st_bound_cut);
        if (lo >= hi || hi <= alpha) return hi;
        if (lo >= beta) return lo;
        depth = __builtin_popcountll(live);
    }
    u64 leg = legal(S, seat, pos, lead_mask, tmask);
    S->nodes++;
    if (!(S->nodes & 255)) {
        if (S->deadline > 0 && now() > S->deadline) {
            S->error = ERR_TIME;
            return 0;
        }
        if (!(S->nodes & 0xffff) && PyErr_CheckSignals() < 0) {
            S->error = ERR_PY;
            return 0;
        }
    }
    if (!(leg & (leg - 1)))
        return tstep(S, seat, pos, lead_mask, best_power, best_seat, tmask, __builtin_ctzll(leg),
                     alpha, beta);
    int found = 0;
    int first = -1;
    int elo = -INF, ehi = INF;
    if (pos == 0) {
        u64 *entry = tt_probe(S, key, hash, &found);
        STAT(st_tt_probe);
        if (found) {
            STAT(st_tt_found);
            u64 bw = entry[E_BOUNDS];
#ifdef DD_STATS
            {
                int a = (int32_t)(uint32_t)bw, b = (int32_t)(uint32_t)(bw >> 32);
                if (a >= beta || b <= alpha || a == b) st_tt_cut++;
            }
#endif
            elo = (int32_t)(uint32_t)bw;
            ehi = (int32_t)(uint32_t)(bw >> 32);
            first = (int)(int8_t)((entry[E_META] >> 32) & 0xff);
            if (elo >= beta) return elo;
            if (ehi <= alpha) return ehi;
            if (elo == ehi) return elo;
            if (elo > alpha) alpha = elo;
            if (ehi < beta) beta = ehi;
        }
    }
#ifdef DD_STATS
    if (pos == 0) st_depthx[__builtin_popcountll(S->hands[seat])]++;
#endif
    int maximise = S->maximise[seat];
    int window_low = alpha, window_high = beta;
    int best = maximise ? -INF : INF;
    int best_card = -1;
    int list[64];
    int m = moves(S, seat, pos, lead_mask, best_power, best_seat, leg, tmask, first, list);
    for (int i = 0; i < m; i++) {
        int card = list[i];
        int value = tstep(S, seat, pos, lead_mask, best_power, best_seat, tmask, card, alpha, beta);
        if (S->error) return 0;
        if (maximise) {
            if (value > best) {
                best = value;
                best_card = card;
                if (value > alpha) alpha = value;
            }
        } else if (value < best) {
            best = value;
            best_card = card;
            if (value < beta) beta = value;
        }
        if (alpha >= beta) {
#ifdef DD_STATS
            st_cutn[pos]++;
            if (i == 0) st_cutfirst[pos]++;
#endif
            break;
        }
    }
#ifdef DD_STATS
    if (!(alpha >= beta)) st_alln[pos]++;
#endif
    if (pos == 0) {
        int lo, hi;
        if (best <= window_low) {
            lo = -INF;
            hi = best;
        } else if (best >= window_high) {
            lo = best;
            hi = INF;
        } else {
            lo = hi = best;
        }
        if (elo > lo) lo = elo;
        if (ehi < hi) hi = ehi;
        int again;
        u64 *entry = tt_probe(S, key, hash, &again);
        if (again) {
            int olo = (int32_t)(uint32_t)entry[E_BOUNDS];
            int ohi = (int32_t)(uint32_t)(entry[E_BOUNDS] >> 32);
            if (olo > lo) lo = olo;
            if (ohi < hi) hi = ohi;
        } else {
            entry[E_HASH] = hash;
            memcpy(entry + E_KEY, key, (size_t)S->K * sizeof(u64));
        }
        entry[E_BOUNDS] = (u64)(uint32_t)lo | ((u64)(uint32_t)hi << 32);
        entry[E_META] =
            (u64)S->gen | ((u64)(uint8_t)(int8_t)best_card << 32) | ((u64)(depth & 0xff) << 40);
    }
    return best;
}

/* ---- the table's memory: one buffer kept between calls (a call that finds it taken, by
 * another thread while a callback runs, makes its own) ---- */

static u64 *kept_tt = NULL;
static size_t kept_words = 0;
static uint32_t kept_gen = 0;

/* ---- reading the arguments ---- */

static int read_u64s(PyObject *seq, u64 *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(fast, i);
        out[i] = PyLong_AsUnsignedLongLongMask(x);
        if (out[i] == (u64)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static u64 mask_arg(PyObject *x) { return PyLong_AsUnsignedLongLongMask(x); }

/* solve(spec, root, cards, guess, deadline) -> (values, nodes)
 *
 * spec: a dict describing the hand (see fast.py); root: (seat, pos, lead_mask, best_power,
 * best_seat, tmask, hands, won); cards: the root's cards to value, in order (each from the
 * value of the one before, by MTD(f); the first with the window open, or from ``guess`` when
 * it is not None); deadline: seconds left, or a negative number for none. Raises TimeoutError
 * past the deadline. */

#define GET(name)                                                                  \
    PyObject *name = PyDict_GetItemString(spec, #name);                            \
    if (!name) {                                                                   \
        PyErr_SetString(PyExc_KeyError, "solve: the spec has no " #name);          \
        goto done;                                                                 \
    }

static PyObject *dd_solve(PyObject *self, PyObject *args) {
    PyObject *spec, *root, *cards, *guess_obj;
    double seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!OOd", &PyDict_Type, &spec, &PyTuple_Type, &root, &cards,
                          &guess_obj, &seconds))
        return NULL;
    Solver *S = calloc(1, sizeof(Solver));
    if (!S) return PyErr_NoMemory();
    PyObject *result = NULL;
    u64 *tt = NULL;
    size_t words = 0;
    PyObject *cards_fast = NULL;

    GET(n)
    GET(turn)
    GET(maximise)
    GET(power)
    GET(suit_mask)
    GET(order)
    GET(worth)
    GET(special)
    GET(first_mode)
    GET(first_lead)
    GET(deck)
    GET(break_mask)
    GET(no_lead)
    GET(first_forbid)
    GET(may_trump)
    GET(trump_mask)
    GET(smode)
    GET(me)
    GET(slot_of)
    GET(nslots)
    GET(pmask)
    GET(tracked)
    GET(cw)
    GET(tw)
    GET(summary)
    GET(bw)
    GET(leaf)
    GET(bounds)
    GET(tt_bits)
    GET(cheap)
    GET(slope)
    GET(sure)
    GET(tvals)

    S->n = (int)PyLong_AsLong(n);
    S->turn = (int)PyLong_AsLong(turn);
    if (S->n < 2 || S->n > 7) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "solve: 2 to 7 seats");
        goto done;
    }
    S->last = S->n - 1;
    if (read_ints(maximise, S->maximise, S->n, "maximise") < 0) goto done;
    if (read_ints(power, S->power, 64, "power") < 0) goto done;
    if (read_u64s(suit_mask, S->suit_mask, 64, "suit_mask") < 0) goto done;
    if (read_ints(order, S->order, 64, "order") < 0) goto done;
    if (read_ints(worth, S->worth, 64, "worth") < 0) goto done;
    S->special = mask_arg(special);
    S->first_mode = (int)PyLong_AsLong(first_mode);
    S->first_lead = mask_arg(first_lead);
    S->deck = mask_arg(deck);
    S->break_mask = mask_arg(break_mask);
    S->no_lead = mask_arg(no_lead);
    S->first_forbid = mask_arg(first_forbid);
    S->may_trump = PyObject_IsTrue(may_trump);
    S->trump_mask = mask_arg(trump_mask);
    S->smode = (int)PyLong_AsLong(smode);
    S->me = (int)PyLong_AsLong(me);
    if (read_ints(slot_of, S->slot_of, S->n, "slot_of") < 0) goto done;
    S->nslots = (int)PyLong_AsLong(nslots);
    S->pmask = mask_arg(pmask);
    S->tracked = mask_arg(tracked);
    if (read_ints(cw, S->cw, 64, "cw") < 0) goto done;
    S->tw = (int)PyLong_AsLong(tw);
    S->cheap = PyObject_IsTrue(cheap);
    S->slope = (int)PyLong_AsLong(slope);
    S->sure = PyObject_IsTrue(sure);
    S->tmode = tvals != Py_None;
    if (S->tmode) {
        Py_ssize_t nt = PySequence_Size(tvals);
        if (nt < 1 || nt > MAXT) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "solve: tvals, 1 to 20");
            goto done;
        }
        S->ntvals = (int)nt;
        if (read_ints(tvals, S->tvals, S->ntvals, "tvals") < 0) goto done;
    }
    S->nplaces = 0;
    for (int t = 0; t < S->n; t++) {
        int seen = 0;
        for (int i = 0; i < S->nplaces; i++) seen |= S->places[i] == S->slot_of[t];
        if (!seen) S->places[S->nplaces++] = S->slot_of[t];
    }
    if (PyErr_Occurred()) goto done;
    if (S->nslots < 1 || S->nslots > 7 || __builtin_popcountll(S->pmask) > 15) {
        PyErr_SetString(PyExc_ValueError, "solve: 1 to 7 slots, at most 15 point cards");
        goto done;
    }
    S->npoints = 0;
    for (int c = 0; c < 64; c++) {
        S->pidx[c] = -1;
        if ((S->pmask >> c) & 1) {
            S->pidx[c] = S->npoints;
            S->pcard[S->npoints++] = c;
        }
    }
    /* the summary at the root: (mine, candidate) or, by slot, its point cards and count */
    Sum s0 = {0, 0};
    {
        PyObject *sf = PySequence_Fast(summary, "summary");
        if (!sf) goto done;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(sf);
        if (S->smode == SUM_HEARTS) {
            if (len != 2) {
                Py_DECREF(sf);
                PyErr_SetString(PyExc_ValueError, "solve: a Hearts summary is (mine, cand)");
                goto done;
            }
            long mine = PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, 0));
            long cand = PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, 1));
            s0.a = (u64)(cand + 2);
            s0.b = (u64)(int64_t)mine;
        } else {
            if (len != 2 * S->nslots) {
                Py_DECREF(sf);
                PyErr_SetString(PyExc_ValueError, "solve: a summary of 2 items a slot");
                goto done;
            }
            for (int slot = 0; slot < S->nslots; slot++) {
                u64 pm = mask_arg(PySequence_Fast_GET_ITEM(sf, 2 * slot)) & S->pmask;
                long cnt = PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, 2 * slot + 1));
                for (u64 r = pm; r; r &= r - 1)
                    s0.a |= (u64)(slot + 1) << (4 * S->pidx[__builtin_ctzll(r)]);
                s0.b += (u64)(cnt & 255) << (8 * slot);
            }
        }
        Py_DECREF(sf);
        if (PyErr_Occurred()) goto done;
    }
    S->has_bounds = bw != Py_None;
    if (S->has_bounds && read_ints(bw, S->bw, 64, "bw") < 0) goto done;
    S->leaf_cb = leaf;
    S->bounds_cb = bounds;

    /* the suit groups, each by power (highest first, equal power by code), and what is
     * above each card in its group; the tags of the canonical keys */
    {
        u64 seen = 0;
        int k = 0;
        S->ngroups = 0;
        for (int c0 = 0; c0 < 64; c0++) {
            if (!((S->deck >> c0) & 1) || ((seen >> c0) & 1)) continue;
            u64 g = S->suit_mask[c0];
            int start = k;
            for (int c = 0; c < 64; c++) {
                if (!((S->deck >> c) & 1) || ((seen >> c) & 1) || S->suit_mask[c] != g) continue;
                seen |= (u64)1 << c;
                int j = k++;
                while (j > start && S->power[S->gcards[j - 1]] < S->power[c]) {
                    S->gcards[j] = S->gcards[j - 1];
                    j--;
                }
                S->gcards[j] = c;
            }
            S->gstart[S->ngroups] = start;
            S->gend[S->ngroups] = k;
            S->gbase[S->ngroups] = start;
            S->gmask[S->ngroups] = 0;
            S->gdesc[S->ngroups] = 1;
            for (int i = start; i < k; i++) {
                S->gmask[S->ngroups] |= (u64)1 << S->gcards[i];
                if (i > start && S->gcards[i] >= S->gcards[i - 1]) S->gdesc[S->ngroups] = 0;
            }
            S->ngroups++;
        }
        for (int c = 0; c < 64; c++) {
            S->rankpos[c] = 64 + c;
            S->group_of[c] = -1 - c;
            S->above[c] = 0;
        }
        for (int g = 0; g < S->ngroups; g++) {
            u64 higher = 0, run = 0;
            int run_power = INF;
            for (int i = S->gstart[g]; i < S->gend[g]; i++) {
                int c = S->gcards[i];
                if (S->power[c] != run_power) {
                    higher |= run;
                    run = 0;
                    run_power = S->power[c];
                }
                S->above[c] = higher;
                run |= (u64)1 << c;
                S->rankpos[c] = i;
                S->group_of[c] = g;
            }
        }
        S->trump_group = -1;
        for (int c = 0; c < 64; c++)
            if (((S->deck >> c) & 1) && S->power[c] >= 100) S->trump_group = S->group_of[c];
        /* tags: the card itself where it is special, else its worth */
        long long tags[64];
        int ntags = 0;
        for (int c = 0; c < 64; c++) {
            S->tag_id[c] = 0;
            if (!((S->deck >> c) & 1)) continue;
            long long tag = ((S->special >> c) & 1) ? 1000000LL + c : (long long)S->worth[c];
            int id = -1;
            for (int i = 0; i < ntags; i++)
                if (tags[i] == tag) id = i;
            if (id < 0) {
                id = ntags;
                tags[ntags++] = tag;
            }
            S->tag_id[c] = id;
        }
        S->obits = 0;
        while ((1 << S->obits) < S->n) S->obits++;
        S->tbits = 0;
        while ((1 << S->tbits) < ntags) S->tbits++;
        if (S->tbits > 12) {
            PyErr_SetString(PyExc_ValueError, "solve: too many kinds of card for a key");
            goto done;
        }
        for (int b = 0; b < 12; b++) S->tagmask[b] = 0;
        for (int c = 0; c < 64; c++)
            if ((S->deck >> c) & 1)
                for (int b = 0; b < S->tbits; b++)
                    if ((S->tag_id[c] >> b) & 1) S->tagmask[b] |= (u64)1 << c;
        /* live cards, owners, tags, the summary, the seat */
        S->K = 1 + S->obits + S->tbits + 3;
        if (S->K > MAXK) {
            PyErr_SetString(PyExc_ValueError, "solve: too many kinds of card for a key");
            goto done;
        }
    }

    if (PyErr_Occurred()) goto done;
    if (cache_init(&S->leaves, 256) < 0 || cache_init(&S->bounds, 256) < 0) {
        PyErr_NoMemory();
        goto done;
    }

    /* the table: kept between calls, cleared by a generation stamp */
    {
        long bits = PyLong_AsLong(tt_bits);
        if (bits < 8 || bits > 24) bits = 16;
        S->stride = E_KEY + S->K;
        size_t slots = (size_t)1 << bits;
        words = slots * (size_t)S->stride;
        if (kept_tt && kept_words != words) {
            free(kept_tt);
            kept_tt = NULL;
        }
        if (kept_tt) {
            tt = kept_tt;
            kept_tt = NULL;
            S->gen = ++kept_gen;
            if (S->gen == 0) {
                memset(tt, 0, words * sizeof(u64));
                S->gen = kept_gen = 1;
            }
        } else {
            tt = calloc(words, sizeof(u64));
            if (!tt) {
                PyErr_NoMemory();
                goto done;
            }
            S->gen = 1;
        }
        S->tt = tt;
        S->tt_mask = slots - 1;
    }

    /* the root */
    int seat, pos, best_power, best_seat;
    unsigned long long lead_mask, tmask;
    PyObject *hands, *won;
    if (!PyArg_ParseTuple(root, "iiKiiKOO", &seat, &pos, &lead_mask, &best_power, &best_seat,
                          &tmask, &hands, &won))
        goto done;
    u64 hands0[MAXN], won0[MAXN];
    if (read_u64s(hands, hands0, S->n, "hands") < 0) goto done;
    if (read_u64s(won, won0, S->n, "won") < 0) goto done;
    S->deadline = seconds >= 0 ? now() + seconds : -1.0;
    cards_fast = PySequence_Fast(cards, "cards");
    if (!cards_fast) goto done;
    Py_ssize_t ncards = PySequence_Fast_GET_SIZE(cards_fast);
    PyObject *values = PyList_New(ncards);
    if (!values) goto done;
    if (ncards > 64) {
        PyErr_SetString(PyExc_ValueError, "solve: at most 64 cards");
        Py_DECREF(values);
        goto done;
    }
    /* Equal cards at the root (as moves() merges them) share one value: each card's
     * representative is the highest card of its run. */
    int cardv[64], rep[64], known[64], valv[64];
    for (Py_ssize_t i = 0; i < ncards; i++) {
        cardv[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(cards_fast, i));
        if (cardv[i] < 0 || cardv[i] > 63) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "solve: a card is 0..63");
            Py_DECREF(values);
            goto done;
        }
        rep[i] = (int)i;
        known[i] = 0;
    }
    {
        int idx[64];
        for (int i = 0; i < (int)ncards; i++) {
            int j = i;
            while (j > 0 && S->rankpos[cardv[idx[j - 1]]] > S->rankpos[cardv[i]]) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = i;
        }
        u64 others = tmask;
        for (int t = 0; t < S->n; t++)
            if (t != seat) others |= hands0[t];
        for (int j = 1; j < (int)ncards; j++) {
            int c = cardv[idx[j]], prev = cardv[idx[j - 1]];
            if (S->group_of[c] == S->group_of[prev] && !((S->special >> c) & 1) &&
                !((S->special >> prev) & 1) && S->worth[c] == S->worth[prev] &&
                !(others & S->above[c] & ~S->above[prev] & ~((u64)1 << prev)))
                rep[idx[j]] = rep[idx[j - 1]];
        }
    }
    int have_guess = guess_obj != Py_None;
    int guess = have_guess ? (int)PyLong_AsLong(guess_obj) : 0;
    int tricks = 0, have_tricks = 0;
    for (Py_ssize_t i = 0; i < ncards && !PyErr_Occurred(); i++) {
        int card = cardv[i];
        if (known[rep[i]]) {
            PyList_SET_ITEM(values, i, PyLong_FromLong(valv[rep[i]]));
            continue;
        }
        int value;
        memcpy(S->hands, hands0, sizeof hands0);
        memcpy(S->won, won0, sizeof won0);
        Sum s = s0;
        if (S->tmode) {
            /* MTD(f) over the tricks from here, from the card before's (or the middle) */
            int lo = 0, hi = S->ntvals - 1;
            int t = have_tricks ? tricks : hi / 2;
            while (lo < hi && !S->error) {
                int beta = t == lo ? t + 1 : t;
                memcpy(S->hands, hands0, sizeof hands0);
                t = tstep(S, seat, pos, lead_mask, best_power, best_seat, tmask, card, beta - 1,
                          beta);
                if (t < beta)
                    hi = t;
                else
                    lo = t;
            }
            if (S->error) break;
            if (lo < 0 || lo >= S->ntvals) {
                PyErr_SetString(PyExc_RuntimeError, "solve: a trick count out of range");
                break;
            }
            tricks = lo;
            have_tricks = 1;
            value = S->tvals[lo];
        } else if (!have_guess) {
            value = step(S, seat, pos, lead_mask, best_power, best_seat, tmask, s, card, -INF,
                         INF);
        } else {
            int lo = -INF, hi = INF;
            value = guess;
            while (lo < hi && !S->error) {
                int beta = value == lo ? value + 1 : value;
                memcpy(S->hands, hands0, sizeof hands0);
                memcpy(S->won, won0, sizeof won0);
                value = step(S, seat, pos, lead_mask, best_power, best_seat, tmask, s, card,
                             beta - 1, beta);
                if (value < beta)
                    hi = value;
                else
                    lo = value;
            }
        }
        if (S->error) break;
        PyList_SET_ITEM(values, i, PyLong_FromLong(value));
        valv[rep[i]] = value;
        known[rep[i]] = 1;
        guess = value;
        have_guess = 1;
    }
    if (S->error == ERR_TIME) {
        PyErr_SetString(PyExc_TimeoutError, "solve: past its deadline");
    }
    if (PyErr_Occurred()) {
        Py_DECREF(values);
        goto done;
    }
    result = Py_BuildValue("(NL)", values, S->nodes);

done:
    Py_XDECREF(cards_fast);
    cache_free(&S->leaves);
    cache_free(&S->bounds);
    if (tt) {
        if (!kept_tt) {
            kept_gen = S->gen;
            kept_tt = tt;
            kept_words = words;
        } else {
            free(tt);
        }
    }
    free(S);
    return result;
}

#ifdef DD_STATS
static PyObject *dd_stats(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyObject *d = PyDict_New();
    for (int i = 0; i < 4; i++) {
        PyObject *x = Py_BuildValue("(LLL)", st_cutn[i], st_cutfirst[i], st_alln[i]);
        PyDict_SetItemString(d, i == 0 ? "lead" : i == 1 ? "second" : i == 2 ? "third" : "fourth", x);
        Py_DECREF(x);
        st_cutn[i] = st_cutfirst[i] = st_alln[i] = 0;
    }
    {
        PyObject *x = PyList_New(16), *y = PyList_New(16);
        for (int i = 0; i < 16; i++) {
            PyList_SET_ITEM(x, i, PyLong_FromLongLong(st_depth[i]));
            PyList_SET_ITEM(y, i, PyLong_FromLongLong(st_depthx[i]));
            st_depth[i] = st_depthx[i] = 0;
        }
        PyDict_SetItemString(d, "depth", x);
        PyDict_SetItemString(d, "expanded", y);
        Py_DECREF(x);
        Py_DECREF(y);
    }
    PyObject *r = Py_BuildValue("{sLsLsLsLsLsL}", "starts", st_starts, "bound_cut", st_bound_cut,
                                "tt_probe", st_tt_probe, "tt_found", st_tt_found, "tt_cut",
                                st_tt_cut, "stores", st_stores);
    st_starts = st_bound_cut = st_tt_probe = st_tt_found = st_tt_cut = st_stores = 0;
    PyDict_Update(r, d);
    Py_DECREF(d);
    return r;
}
#endif

static PyMethodDef methods[] = {
#ifdef DD_STATS
    {"stats", dd_stats, METH_NOARGS, "the counters since the last call"},
#endif
    {"solve", dd_solve, METH_VARARGS,
     "solve(spec, root, cards, guess, seconds) -> (values, nodes): each root card's exact "
     "value (see tricktable.search.solver.fast)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dd",
    "The solver's double-dummy core in C (see tricktable.search.solver.fast).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dd(void) { return PyModule_Create(&module); }
