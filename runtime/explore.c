/* explore.c: the shared state of an explore clause (configuration, pattern
 * trie, suggestions, summaries), the per-partition state, and the default
 * counting algorithms, whose cost per event does not grow with the window:
 *   stam: windowed counts of every infix ET_a..ET_b of p, slid at both ends;
 *   stnm: starts numbered in order, m stage boundaries and per-candidate
 *         ranks (docs/explore.md has the algorithms and their proofs). */
#include "explore_impl.h"
#include "sremrt/state.h"

#include <string.h>

/* ---- configuration --------------------------------------------------------------- */

static const char *const algo_names[SREMRT_EXPLORE_ALGOS] = {"default", "bf", "rc", "ic"};

const char *sremrt_explore_algo_name(sremrt_explore_algo a)
{
    return (unsigned)a < SREMRT_EXPLORE_ALGOS ? algo_names[a] : "?";
}

int sremrt_explore_algo_parse(const char *name)
{
    int i;
    for (i = 0; name && i < SREMRT_EXPLORE_ALGOS; i++)
        if (strcmp(name, algo_names[i]) == 0)
            return i;
    return -1;
}

/* Largest capacity accepted: keeps every size computation far from overflow. */
#define MAX_CAPACITY ((int64_t)1 << 36)

const char *sremrt_explore_check(const sremrt_explore_config *cfg)
{
    int32_t k;
    if (!cfg)
        return "no configuration";
    if (cfg->m < 2 || cfg->m > SREMRT_EXPLORE_MAX_M)
        return "pattern length out of 2..64";
    if (cfg->nvalues < 1 || cfg->nvalues > SREMRT_EXPLORE_MAX_VALUES)
        return "enum size out of 1..65536";
    if (!cfg->pattern)
        return "no pattern";
    for (k = 0; k < cfg->m; k++)
        if (cfg->pattern[k] < 0 || cfg->pattern[k] >= cfg->nvalues)
            return "pattern type out of the enum";
    if (cfg->policy != SREMRT_EXPLORE_STAM && cfg->policy != SREMRT_EXPLORE_STNM)
        return "unknown policy";
    if (cfg->window != SREMRT_EXPLORE_UNBOUNDED && cfg->window != SREMRT_EXPLORE_EVENTS &&
        cfg->window != SREMRT_EXPLORE_TIME)
        return "unknown window kind";
    if (cfg->window != SREMRT_EXPLORE_UNBOUNDED && cfg->width < 1)
        return "window width below 1";
    if (!cfg->extensions && !cfg->variations)
        return "neither extensions nor variations";
    if (!(cfg->confidence >= 0.0 && cfg->confidence <= 1.0))
        return "confidence out of 0..1";
    if ((unsigned)cfg->algo >= SREMRT_EXPLORE_ALGOS)
        return "unknown algorithm";
    if (cfg->capacity < 0 || cfg->capacity > MAX_CAPACITY)
        return "capacity out of range";
    return NULL;
}

static int64_t resolve_capacity(const sremrt_explore_config *cfg)
{
    if (cfg->capacity > 0)
        return cfg->capacity;
    if (cfg->window == SREMRT_EXPLORE_EVENTS && cfg->width < SREMRT_EXPLORE_DEFAULT_CAP)
        return cfg->width;
    return SREMRT_EXPLORE_DEFAULT_CAP;
}

/* ---- memory layout ----------------------------------------------------------------- */

/* Carves aligned pieces out of a block; with base NULL it only measures. */
typedef struct carver {
    unsigned char *base;
    size_t used;
} carver;

static void *take(carver *c, size_t n, size_t align)
{
    size_t at = (c->used + align - 1) / align * align;
    c->used = at + n;
    return c->base ? c->base + at : NULL;
}

/* A block's first address aligned to 8 (so a measured size plus 7 fits). */
static unsigned char *align8(void *p)
{
    uintptr_t a = (uintptr_t)p;
    return (unsigned char *)p + (size_t)((8 - a % 8) % 8);
}

static int32_t candidates(const sremrt_explore_config *cfg)
{
    int32_t v, k, n = 0;
    for (v = 0; v < cfg->nvalues; v++) {
        for (k = 0; k < cfg->m && cfg->pattern[k] != v; k++)
            ;
        n += k == cfg->m;
    }
    return n;
}

static int32_t trie_capacity(const sremrt_explore_config *cfg)
{
    int32_t nc = candidates(cfg);
    return 1 + cfg->m + (cfg->extensions ? nc : 0) + (cfg->variations ? nc : 0);
}

/* Lays the shared block out; with ex->mem NULL it only measures. */
static size_t shared_layout(sremrt_explore *ex, const sremrt_explore_config *cfg, unsigned char *base)
{
    carver c;
    size_t nv = (size_t)cfg->nvalues, tbytes = sremrt_ptrie_bytes(trie_capacity(cfg));
    void *trie_mem;
    c.base = base;
    c.used = 0;
    trie_mem = take(&c, tbytes, 8);
    ex->ext_node = (int32_t *)take(&c, nv * sizeof(int32_t), 4);
    ex->var_node = (int32_t *)take(&c, nv * sizeof(int32_t), 4);
    ex->occ_at = (int32_t *)take(&c, (nv + 1) * sizeof(int32_t), 4);
    ex->occ = (int32_t *)take(&c, (size_t)cfg->m * sizeof(int32_t), 4);
    ex->path = (int32_t *)take(&c, (size_t)(cfg->m + 1) * sizeof(int32_t), 4);
    ex->cfg.pattern = (const int32_t *)take(&c, (size_t)cfg->m * sizeof(int32_t), 4);
    ex->tinfo = (uint8_t *)take(&c, nv, 1);
    if (base)
        sremrt_ptrie_init_buf(&ex->trie, trie_capacity(cfg), trie_mem, tbytes);
    return c.used;
}

size_t sremrt_explore_bytes(const sremrt_explore_config *cfg)
{
    sremrt_explore tmp;
    if (sremrt_explore_check(cfg))
        return 0;
    return shared_layout(&tmp, cfg, NULL) + 7;
}

/* ---- 64-bit overflow bound for stam ------------------------------------------------ */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* C(k, j), or UINT64_MAX if it does not fit below UINT64_MAX. */
static uint64_t binom_sat(uint64_t k, uint64_t j)
{
    uint64_t c = 1, i;
    if (j > k)
        return 0;
    if (j > k - j)
        j = k - j;
    for (i = 1; i <= j; i++) {
        /* C(k-j+i, i) = C(k-j+i-1, i-1) * (k-j+i) / i, reduced first. */
        uint64_t num = k - j + i, g = gcd64(c, i), d = i / g;
        c /= g;
        num /= d;
        if (num != 0 && c > (UINT64_MAX - 1) / num)
            return UINT64_MAX;
        c *= num;
    }
    return c;
}

/* Largest k such that C(k, m) and C(k, m-1) are below UINT64_MAX: with at
 * most k events of pattern types in a window, no stam count can wrap. */
static uint64_t wrap_limit(int32_t m)
{
    uint64_t lo = 0, hi = (uint64_t)1 << 62;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (binom_sat(mid, (uint64_t)m) < UINT64_MAX && binom_sat(mid, (uint64_t)m - 1) < UINT64_MAX)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* ---- shared state ------------------------------------------------------------------ */

/* q for suggest's test without a division: a candidate is due only if
 * freq / total, rounded, is >= c, so the exact freq >= c * total * (1 -
 * 2^-52); with q >= 1 / (c * (1 - 1e-9)) that gives freq * q > total. So
 * freq * q < total proves it is not due. The margin 1e-9 covers the
 * roundings of computing q. */
static void suggest_bound(sremrt_explore *ex)
{
    double c = ex->cfg.confidence, q;
    ex->suggest_q = ex->suggest_qmax = 0;
    if (!(c > 0.0))
        return;
    q = 1.0 / (c * (1.0 - 1e-9));
    if (!(q >= 0.0 && q <= 4611686018427387904.0))   /* 2^62 */
        return;
    ex->suggest_q = (uint64_t)q + 1;   /* above q: a larger q only tests less */
    ex->suggest_qmax = UINT64_MAX / ex->suggest_q;
}

static void setup(sremrt_explore *ex, const sremrt_explore_config *cfg)
{
    int32_t v, k, m = cfg->m, at = 0, node = 0;
    int32_t *pattern = (int32_t *)ex->cfg.pattern;   /* our copy, carved by shared_layout */
    const int32_t *mine;
    memcpy(pattern, cfg->pattern, (size_t)m * sizeof(int32_t));
    mine = ex->cfg.pattern;
    ex->cfg = *cfg;
    ex->cfg.pattern = mine;
    for (v = 0; v < cfg->nvalues; v++) {
        ex->ext_node[v] = -1;
        ex->var_node[v] = -1;
        ex->tinfo[v] = 0;
        ex->occ_at[v] = at;
        for (k = 0; k < m; k++)
            if (pattern[k] == v)
                ex->occ[at++] = k + 1;
        if (at > ex->occ_at[v])
            ex->tinfo[v] |= SREMRT_XT_PATTERN;
        else
            ex->tinfo[v] |= SREMRT_XT_CAND;
    }
    ex->occ_at[cfg->nvalues] = at;
    ex->tinfo[pattern[0]] |= SREMRT_XT_FIRST;
    ex->tinfo[pattern[m - 1]] |= SREMRT_XT_LAST;
    ex->path[0] = 0;
    for (k = 0; k < m; k++)
        ex->path[k + 1] = node = sremrt_ptrie_add_child(&ex->trie, node, pattern[k]);
    ex->pattern_node = node;
    ex->trie.nodes[node].role = SREMRT_PTRIE_PATTERN;
    ex->trie.nodes[node].end = 1;
    ex->capacity = resolve_capacity(cfg);
    ex->wrap_limit = wrap_limit(m);
    suggest_bound(ex);
}

int sremrt_explore_init_buf(sremrt_explore *ex, const sremrt_explore_config *cfg, void *buf, size_t bytes)
{
    size_t need = sremrt_explore_bytes(cfg);
    memset(ex, 0, sizeof *ex);
    if (need == 0 || !buf || bytes < need)
        return -1;
    shared_layout(ex, cfg, align8(buf));
    ex->mem = buf;
    ex->bytes = bytes;
    setup(ex, cfg);
    return 0;
}

int sremrt_explore_init(sremrt_explore *ex, const sremrt_explore_config *cfg, const sremrt_alloc *a)
{
    size_t need = sremrt_explore_bytes(cfg);
    void *mem;
    memset(ex, 0, sizeof *ex);
    if (need == 0)
        return -1;
    mem = sremrt_alloc_get(a, need, 8);
    if (!mem)
        return -1;
    sremrt_explore_init_buf(ex, cfg, mem, need);
    ex->alloc = *a;
    return 0;
}

void sremrt_explore_free(sremrt_explore *ex)
{
    if (ex->alloc.alloc)
        sremrt_alloc_free(&ex->alloc, ex->mem, ex->bytes);
    memset(ex, 0, sizeof *ex);
}

/* ---- partition state --------------------------------------------------------------- */

/* What each algorithm keeps (element counts), see docs/explore.md. */
typedef struct part_shape {
    int64_t cap;            /* ring entries */
    int keys, codes;        /* ring arrays present */
    size_t vals_per;        /* uint64 counters per ring entry */
    size_t cnt;             /* uint64 counters */
    int gh;                 /* g and h arrays (one per value each) */
} part_shape;

static part_shape shape_of(const sremrt_explore *ex)
{
    part_shape s;
    int32_t m = ex->cfg.m;
    int stam = ex->cfg.policy == SREMRT_EXPLORE_STAM;
    int windowed = ex->cfg.window != SREMRT_EXPLORE_UNBOUNDED;
    memset(&s, 0, sizeof s);
    s.cap = ex->capacity;
    s.keys = 1;
    switch (ex->cfg.algo) {
    case SREMRT_EXPLORE_DEFAULT:
        /* stam: pattern-typed events; stnm: starts. None without a window. */
        if (!windowed)
            s.cap = 0;
        s.codes = stam;
        s.cnt = stam ? (size_t)(m + 2) * (size_t)(m + 1) : (size_t)m + 1;
        s.gh = !stam;
        break;
    case SREMRT_EXPLORE_BF:
    case SREMRT_EXPLORE_RC:
        s.codes = 1;            /* every event of the window */
        s.cnt = (size_t)m + 1;  /* scratch */
        break;
    default: /* IC: starts */
        s.codes = !stam;        /* stnm: the start's stage */
        s.vals_per = stam ? (size_t)m + 1 : 2;
        s.cnt = (size_t)m + 1;  /* stam: sliding sums */
        s.gh = !stam;           /* stnm: g = position of the last X */
        break;
    }
    if (s.cap == 0)
        s.keys = s.codes = 0, s.vals_per = 0;
    return s;
}

static size_t part_layout(const sremrt_explore *ex, sremrt_explore_part *st, unsigned char *base)
{
    part_shape s = shape_of(ex);
    carver c;
    size_t cap = (size_t)s.cap, nv = (size_t)ex->cfg.nvalues;
    c.base = base;
    c.used = 0;
    st->cap = s.cap;
    st->keys = s.keys ? (int64_t *)take(&c, cap * sizeof(int64_t), 8) : NULL;
    st->vals = s.vals_per ? (uint64_t *)take(&c, cap * s.vals_per * sizeof(uint64_t), 8) : NULL;
    st->cnt = s.cnt ? (uint64_t *)take(&c, s.cnt * sizeof(uint64_t), 8) : NULL;
    st->g = s.gh ? (uint64_t *)take(&c, nv * sizeof(uint64_t), 8) : NULL;
    st->h = s.gh ? (uint64_t *)take(&c, nv * sizeof(uint64_t), 8) : NULL;
    st->codes = s.codes ? (int32_t *)take(&c, cap * sizeof(int32_t), 4) : NULL;
    return c.used;
}

size_t sremrt_explore_part_bytes(const sremrt_explore *ex)
{
    sremrt_explore_part tmp;
    part_shape s;
    uint64_t per_entry, fixed;
    if (!ex->mem)
        return 0;
    /* Refuse what size_t cannot hold (32-bit targets) before computing it. */
    s = shape_of(ex);
    per_entry = 8u * (uint64_t)s.keys + 4u * (uint64_t)s.codes + 8u * (uint64_t)s.vals_per;
    fixed = 8u * ((uint64_t)s.cnt + 2u * (uint64_t)ex->cfg.nvalues) + 64u;
    if ((uint64_t)s.cap > ((uint64_t)SIZE_MAX - fixed) / (per_entry ? per_entry : 1))
        return 0;
    return part_layout(ex, &tmp, NULL) + 7;
}

static void part_reset(const sremrt_explore *ex, sremrt_explore_part *st)
{
    part_shape s = shape_of(ex);
    int32_t m = ex->cfg.m, a, M = m + 1;
    st->pos = 0;
    st->head = 0;
    st->size = 0;
    st->overflows = 0;
    if (st->cnt)
        memset(st->cnt, 0, s.cnt * sizeof(uint64_t));
    if (st->g) {
        memset(st->g, 0, (size_t)ex->cfg.nvalues * sizeof(uint64_t));
        memset(st->h, 0, (size_t)ex->cfg.nvalues * sizeof(uint64_t));
    }
    /* Default stam: W[a][b] = windowed count of ET_a..ET_b; the empty
     * infix W[a][a-1] counts 1. */
    if (ex->cfg.algo == SREMRT_EXPLORE_DEFAULT && ex->cfg.policy == SREMRT_EXPLORE_STAM)
        for (a = 1; a <= m + 1; a++)
            st->cnt[a * M + a - 1] = 1;
}

int sremrt_explore_part_init_buf(const sremrt_explore *ex, sremrt_explore_part *st, void *buf, size_t bytes)
{
    size_t need = sremrt_explore_part_bytes(ex);
    memset(st, 0, sizeof *st);
    if (need == 0 || !buf || bytes < need)
        return -1;
    part_layout(ex, st, align8(buf));
    st->mem = buf;
    st->bytes = bytes;
    part_reset(ex, st);
    return 0;
}

int sremrt_explore_part_init(const sremrt_explore *ex, sremrt_explore_part *st, const sremrt_alloc *a)
{
    size_t need = sremrt_explore_part_bytes(ex);
    void *mem;
    memset(st, 0, sizeof *st);
    if (need == 0)
        return -1;
    mem = sremrt_alloc_get(a, need, 8);
    if (!mem)
        return -1;
    sremrt_explore_part_init_buf(ex, st, mem, need);
    st->alloc = *a;
    return 0;
}

void sremrt_explore_part_free(sremrt_explore_part *st)
{
    if (st->alloc.alloc)
        sremrt_alloc_free(&st->alloc, st->mem, st->bytes);
    memset(st, 0, sizeof *st);
}

void sremrt_explore_overflow(sremrt_explore *ex, sremrt_explore_part *st)
{
    st->overflows++;
    ex->overflows++;
    ex->inexact = 1;
}

/* ---- default, stam: sliding infix counts -------------------------------------------- */

/* W[a][b] (row stride m+1) is the number of occurrences of ET_a..ET_b as a
 * subsequence of the window's events. An event of type t entering at the
 * back: W[a][b] += W[a][b-1] for each b with ET_b == t (b descending, so
 * W[a][b-1] is still the old value when ET_b-1 == t too). */
static void sw_enter(const sremrt_explore *ex, uint64_t *w, int32_t t)
{
    int32_t n, i, a, b, M = ex->cfg.m + 1;
    const int32_t *occ = sremrt_xocc(ex, t, &n);
    for (i = n - 1; i >= 0; i--) {
        b = occ[i];
        for (a = 1; a <= b; a++)
            w[a * M + b] += w[a * M + b - 1];
    }
}

/* The oldest event, of type t, leaving at the front: the occurrences that
 * start with it go, W[a][b] -= W'[a+1][b] for each a with ET_a == t (a
 * descending, so W'[a+1][b] is already the new value). */
static void sw_leave(const sremrt_explore *ex, uint64_t *w, int32_t t)
{
    int32_t n, i, a, b, M = ex->cfg.m + 1, m = ex->cfg.m;
    const int32_t *occ = sremrt_xocc(ex, t, &n);
    for (b = occ[0]; b <= m; b++)
        for (i = n - 1; i >= 0; i--) {
            a = occ[i];
            if (a <= b)
                w[a * M + b] -= w[(a + 1) * M + b];
        }
}

static void stam_evict(const sremrt_explore *ex, sremrt_explore_part *st, int64_t bound)
{
    while (st->size > 0 && st->keys[st->head] < bound) {
        sw_leave(ex, st->cnt, st->codes[st->head]);
        sremrt_xring_pop(st);
    }
}

static void stam_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key, int32_t t,
                      sremrt_explore_step *out)
{
    uint64_t *w = st->cnt;
    int32_t M = ex->cfg.m + 1, m = ex->cfg.m;
    uint8_t ti = ex->tinfo[t];
    int64_t j;
    /* A count below is the number of (n-1)-subsets of the pattern-typed
     * events in the window (at most `live` of them), so it is below 2^64
     * while live <= wrap_limit; past that it is exact modulo 2^64. */
    if (ti & (SREMRT_XT_CAND | SREMRT_XT_LAST)) {
        uint64_t live = st->cap ? (uint64_t)st->size : (uint64_t)st->pos - 1;
        if (live > ex->wrap_limit)
            ex->may_wrap = 1;
    }
    /* Matches ending here: occurrences of ET_1..ET_m-1 (p, variation) or
     * ET_1..ET_m (extension) in the window before this event. */
    if (ti & SREMRT_XT_CAND) {
        out->variation = ex->cfg.variations ? w[M + m - 1] : 0;
        out->extension = ex->cfg.extensions ? w[M + m] : 0;
        return;
    }
    if (ti & SREMRT_XT_LAST)
        out->pattern = w[M + m - 1];
    sw_enter(ex, w, t);
    if (!st->cap)
        return;
    if (st->size == st->cap)
        sremrt_explore_make_room(ex, st);
    j = sremrt_xring_back(st);
    st->keys[j] = key;
    st->codes[j] = t;
}

/* ---- default, stnm: stage ranks ---------------------------------------------------- */

/* Starts (events of type ET_1) are ranked 1, 2, ... in order. f[k] = how
 * many starts have matched at least ET_1..ET_k: chains never cross, so
 * those are exactly ranks 1..f[k]. The ring keeps the keys of the starts
 * still in the window (and maybe live), newest at the back: the ranks in
 * the window are f[1]-size+1 .. f[1]. */
#define in_window sremrt_explore_in_window   /* ranks lo+1..hi that are >= first */

/* Lowest rank any future match can still use: below it, starts are dead. */
static uint64_t stnm_dead(const sremrt_explore *ex, const sremrt_explore_part *st)
{
    int32_t v, m = ex->cfg.m;
    uint64_t d = st->cnt[m];
    for (v = 0; v < ex->cfg.nvalues; v++) {
        if (!(ex->tinfo[v] & SREMRT_XT_CAND))
            continue;
        if (ex->cfg.variations && st->g[v] < d)
            d = st->g[v];
        if (ex->cfg.extensions && st->h[v] < d)
            d = st->h[v];
    }
    return d;
}

static void stnm_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key, int32_t t,
                      sremrt_explore_step *out)
{
    uint64_t *f = st->cnt, first;
    int32_t m = ex->cfg.m, n, i, k;
    const int32_t *occ;
    uint8_t ti = ex->tinfo[t];
    int64_t j;
    first = st->cap ? f[1] - (uint64_t)st->size + 1 : 1;
    if (ti & SREMRT_XT_CAND) {
        /* Pending for X: starts that reached ET_m-1 (ET_m) since the last X. */
        if (ex->cfg.variations)
            out->variation = in_window(st->g[t], f[m - 1], first);
        if (ex->cfg.extensions)
            out->extension = in_window(st->h[t], f[m], first);
        st->g[t] = f[m - 1];
        st->h[t] = f[m];
        return;
    }
    /* Starts at stage k-1 take this event as ET_k: all together, higher k
     * first so that one event moves a start one step only. */
    occ = sremrt_xocc(ex, t, &n);
    for (i = n - 1; i >= 0 && occ[i] >= 2; i--) {
        k = occ[i];
        if (k == m)
            out->pattern = in_window(f[m], f[m - 1], first);
        f[k] = f[k - 1];
    }
    if (!(ti & SREMRT_XT_FIRST))
        return;
    f[1]++;
    if (!st->cap)
        return;
    if (st->size == st->cap)
        sremrt_explore_make_room(ex, st);
    j = sremrt_xring_back(st);
    st->keys[j] = key;
}

/* ---- trie and suggestions ------------------------------------------------------------ */

static int32_t candidate_node(sremrt_explore *ex, int32_t *slot, int32_t parent, int32_t t, int role)
{
    if (*slot < 0) {
        *slot = sremrt_ptrie_add_child(&ex->trie, parent, t);
        if (*slot >= 0) {
            ex->trie.nodes[*slot].role = (uint8_t)role;
            ex->trie.nodes[*slot].end = 1;
        }
    }
    return *slot;
}

/* Whether node may be due: not suggested yet, and not below the
 * confidence by suggest_bound's test, which settles most checks without
 * a division. Inline, so that most events make no call for it. */
static inline int may_suggest(const sremrt_explore *ex, int32_t node)
{
    const sremrt_ptrie_node *n = &ex->trie.nodes[node];
    return !n->suggested && !(n->freq <= ex->suggest_qmax && n->freq * ex->suggest_q < ex->trie.nodes[0].count);
}

static void suggest(sremrt_explore *ex, int32_t node, int32_t t, sremrt_candidate c,
                    sremrt_explore_step *out)
{
    sremrt_ptrie_node *n = &ex->trie.nodes[node];
    double conf;
    sremrt_suggestion *s;
    conf = sremrt_ptrie_confidence(&ex->trie, node);
    if (n->freq == 0 || !(conf >= ex->cfg.confidence))
        return;
    n->suggested = 1;
    s = &out->suggest[out->nsuggest++];
    s->candidate = c;
    s->type = t;
    s->node = node;
    s->freq = n->freq;
    s->confidence = conf;
}

/* Counts k matches at node, whose parent is path[depth]: the trie's own
 * sremrt_ptrie_add, with the path known, while nothing can saturate. */
static void add_at(sremrt_explore *ex, int32_t node, int32_t depth, uint64_t k)
{
    sremrt_ptrie_node *nodes = ex->trie.nodes;
    int32_t i;
    if (node < 0 || nodes[0].count > UINT64_MAX - k) {
        sremrt_ptrie_add(&ex->trie, node, k);
        return;
    }
    nodes[node].freq += k;
    nodes[node].count += k;
    for (i = 0; i <= depth; i++)
        nodes[ex->path[i]].count += k;
}

/* Adds the event's counts to the trie, then checks the candidates. Only
 * the two candidates of X = t can gain a match here; every other one's
 * confidence can only have dropped (the total grew or stayed), so if it
 * was not due before, it is not due now: checking these two is checking
 * all of them. */
static inline int32_t due(sremrt_explore *ex, int32_t t, sremrt_explore_step *out);

static inline int32_t to_trie(sremrt_explore *ex, int32_t t, sremrt_explore_step *out)
{
    int32_t pnode = ex->pattern_node, m = ex->cfg.m;
    if (out->pattern)
        add_at(ex, pnode, m - 1, out->pattern);
    if (out->extension)
        add_at(ex, candidate_node(ex, &ex->ext_node[t], pnode, t, SREMRT_PTRIE_EXTENSION), m, out->extension);
    if (out->variation)
        add_at(ex, candidate_node(ex, &ex->var_node[t], ex->path[m - 1], t, SREMRT_PTRIE_VARIATION), m - 1,
               out->variation);
    return due(ex, t, out);   /* the candidates' nodes, -1 if the trie is full */
}

int32_t sremrt_explore_take(sremrt_explore *ex, int32_t t, sremrt_explore_step *out)
{
    return to_trie(ex, t, out);
}

static inline int32_t due(sremrt_explore *ex, int32_t t, sremrt_explore_step *out)
{
    int32_t en = out->extension ? ex->ext_node[t] : -1, vn = out->variation ? ex->var_node[t] : -1;
    if (en >= 0 && may_suggest(ex, en))
        suggest(ex, en, t, SREMRT_EXTENSION, out);
    if (vn >= 0 && may_suggest(ex, vn))
        suggest(ex, vn, t, SREMRT_VARIATION, out);
    return out->nsuggest;
}

int32_t sremrt_explore_due(sremrt_explore *ex, int32_t t, sremrt_explore_step *out)
{
    return due(ex, t, out);
}

/* The full-ring path of a generated counting step (rare): what stam_push
 * and stnm_push do when the ring has no room, so that both stay equal. */
void sremrt_explore_make_room(sremrt_explore *ex, sremrt_explore_part *st)
{
    if (st->size < st->cap)
        return;
    if (ex->cfg.policy == SREMRT_EXPLORE_STNM) {
        uint64_t dead = stnm_dead(ex, st), *f = st->cnt;
        /* f[1] already counts the start being pushed: the oldest in the
         * ring is rank f[1] - 1 - size + 1 */
        while (st->size > 0 && f[1] - 1 - (uint64_t)st->size + 1 <= dead)
            sremrt_xring_pop(st);
        if (st->size < st->cap)
            return;
    }
    sremrt_explore_overflow(ex, st);
    if (ex->cfg.policy == SREMRT_EXPLORE_STAM)
        sw_leave(ex, st->cnt, st->codes[st->head]);
    sremrt_xring_pop(st);
}

/* ---- push ---------------------------------------------------------------------------- */

int32_t sremrt_explore_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t ts,
                            int32_t type, sremrt_explore_step *out)
{
    sremrt_explore_step dummy;
    int64_t key, bound = INT64_MIN;
    if (!out)
        out = &dummy;
    out->pattern = out->extension = out->variation = 0;
    out->nsuggest = 0;
    if (type < 0 || type >= ex->cfg.nvalues || !st->mem)
        return -1;
    st->pos++;
    ex->events++;
    /* Entries older than bound have left the window: a match ending here
     * may start at key >= bound. */
    if (ex->cfg.window == SREMRT_EXPLORE_TIME) {
        key = ts;
        if (ts >= INT64_MIN + ex->cfg.width)
            bound = ts - ex->cfg.width;
    } else {
        key = st->pos;
        if (ex->cfg.window == SREMRT_EXPLORE_EVENTS)
            bound = st->pos - ex->cfg.width + 1;
    }
    switch (ex->cfg.algo) {
    case SREMRT_EXPLORE_DEFAULT:
        if (ex->cfg.policy == SREMRT_EXPLORE_STAM) {
            stam_evict(ex, st, bound);
            stam_push(ex, st, key, type, out);
        } else {
            while (st->size > 0 && st->keys[st->head] < bound)
                sremrt_xring_pop(st);
            stnm_push(ex, st, key, type, out);
        }
        break;
    case SREMRT_EXPLORE_IC:
        while (st->size > 0 && st->keys[st->head] < bound)
            sremrt_explore_ic_pop(ex, st);
        sremrt_explore_ic_push(ex, st, key, type, out);
        break;
    default:
        while (st->size > 0 && st->keys[st->head] < bound)
            sremrt_xring_pop(st);
        if (ex->cfg.algo == SREMRT_EXPLORE_BF)
            sremrt_explore_bf_push(ex, st, key, type, out);
        else
            sremrt_explore_rc_push(ex, st, key, type, out);
        break;
    }
    if (out->pattern || out->extension || out->variation)
        return to_trie(ex, type, out);   /* a tail call */
    return 0;
}

/* ---- records and summaries ------------------------------------------------------------ */

void sremrt_explore_suggest_record(const sremrt_explore *ex, const sremrt_suggestion *s,
                                   const char *name, const char *const *names,
                                   const char **seq, int32_t seqcap, sremrt_record *rec)
{
    int32_t types[SREMRT_EXPLORE_MAX_M + 1], n, i;
    memset(rec, 0, sizeof *rec);
    rec->kind = SREMRT_SUGGEST;
    rec->name = name;
    rec->candidate = s->candidate;
    rec->freq = s->freq > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)s->freq;
    rec->confidence = s->confidence;
    n = sremrt_ptrie_sequence(&ex->trie, s->node, types, SREMRT_EXPLORE_MAX_M + 1);
    if (n > seqcap)
        n = seqcap;
    for (i = 0; i < n; i++)
        seq[i] = names && types[i] >= 0 && types[i] < ex->cfg.nvalues ? names[types[i]] : "?";
    rec->sequence = seq;
    rec->nsequence = n;
}

void sremrt_explore_summary_record(const sremrt_explore *ex, const char *name, const char *const *names,
                                   sremrt_explore_summary *store, sremrt_record *rec)
{
    sremrt_suggestion best[SREMRT_EXPLORE_SUMMARY_BEST];
    sremrt_record one;
    uint64_t f = ex->trie.nodes ? ex->trie.nodes[ex->pattern_node].freq : 0;
    int32_t n = 0, i;
    if (ex->trie.nodes) {
        n = sremrt_explore_best(ex, best, SREMRT_EXPLORE_SUMMARY_BEST);
        if (n > SREMRT_EXPLORE_SUMMARY_BEST)
            n = SREMRT_EXPLORE_SUMMARY_BEST;
    }
    for (i = 0; i < n; i++) {   /* each candidate as its suggest record would show it */
        sremrt_explore_suggest_record(ex, &best[i], name, names, store->seq[i], SREMRT_EXPLORE_MAX_M + 1, &one);
        store->best[i].candidate = one.candidate;
        store->best[i].sequence = store->seq[i];
        store->best[i].nsequence = one.nsequence;
        store->best[i].freq = one.freq;
        store->best[i].confidence = one.confidence;
    }
    memset(rec, 0, sizeof *rec);
    rec->kind = SREMRT_SUMMARY;
    rec->name = name;
    rec->events = ex->events > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)ex->events;
    rec->freq = f > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)f;
    rec->inexact = ex->inexact || ex->may_wrap || ex->trie.saturated > 0;
    rec->best = store->best;
    rec->nbest = n;
}

/* a ranks before b: freq descending, extensions first, enum order. */
static int better(const sremrt_suggestion *a, const sremrt_suggestion *b)
{
    if (a->freq != b->freq)
        return a->freq > b->freq;
    if (a->candidate != b->candidate)
        return a->candidate == SREMRT_EXTENSION;
    return a->type < b->type;
}

int32_t sremrt_explore_best(const sremrt_explore *ex, sremrt_suggestion *best, int32_t cap)
{
    int32_t v, c, n = 0, kept = 0, i;
    for (v = 0; v < ex->cfg.nvalues; v++)
        for (c = 0; c < 2; c++) {
            int32_t node = c == 0 ? ex->ext_node[v] : ex->var_node[v];
            sremrt_suggestion s;
            if (node < 0 || ex->trie.nodes[node].freq == 0)
                continue;
            n++;
            s.candidate = c == 0 ? SREMRT_EXTENSION : SREMRT_VARIATION;
            s.type = v;
            s.node = node;
            s.freq = ex->trie.nodes[node].freq;
            s.confidence = sremrt_ptrie_confidence(&ex->trie, node);
            /* insertion into the kept top-cap list */
            if (kept < cap)
                kept++;
            else if (kept == 0 || !better(&s, &best[kept - 1]))
                continue;
            for (i = kept - 1; i > 0 && better(&s, &best[i - 1]); i--)
                best[i] = best[i - 1];
            best[i] = s;
        }
    return n;
}

void sremrt_explore_summary_emit(sremrt_sink *s, const sremrt_explore *ex, const char *name,
                                 const char *const *names, int32_t top)
{
    sremrt_suggestion best[16];
    int32_t types[SREMRT_EXPLORE_MAX_M + 1], n, i, k;
    uint64_t f = ex->trie.nodes ? ex->trie.nodes[ex->pattern_node].freq : 0;
    if (top > 16)
        top = 16;
    if (top < 0)
        top = 0;
    sremrt_sink_puts(s, "explore ");
    sremrt_sink_word(s, name ? name : "");
    sremrt_sink_puts(s, ": events=");
    sremrt_sink_u64(s, ex->events);
    sremrt_sink_puts(s, " matches=");
    sremrt_sink_u64(s, sremrt_ptrie_total(&ex->trie));
    sremrt_sink_puts(s, " pattern=");
    sremrt_sink_u64(s, f);
    sremrt_sink_puts(s, " algorithm=");
    sremrt_sink_puts(s, sremrt_explore_algo_name(ex->cfg.algo));
    if (ex->inexact) {
        sremrt_sink_puts(s, " inexact overflows=");
        sremrt_sink_u64(s, ex->overflows);
    }
    if (ex->may_wrap)
        sremrt_sink_puts(s, " may-wrap");
    if (ex->trie.saturated)
        sremrt_sink_puts(s, " saturated");
    sremrt_sink_putc(s, '\n');
    n = sremrt_explore_best(ex, best, top);
    if (n > top)
        n = top;
    for (i = 0; i < n; i++) {
        int32_t len = sremrt_ptrie_sequence(&ex->trie, best[i].node, types, SREMRT_EXPLORE_MAX_M + 1);
        sremrt_sink_puts(s, best[i].candidate == SREMRT_EXTENSION ? "  extension <" : "  variation <");
        for (k = 0; k < len; k++) {
            if (k)
                sremrt_sink_putc(s, ' ');
            if (names && types[k] >= 0 && types[k] < ex->cfg.nvalues && names[types[k]])
                sremrt_sink_word(s, names[types[k]]);
            else {
                sremrt_sink_putc(s, '#');
                sremrt_sink_i64(s, types[k]);
            }
        }
        sremrt_sink_puts(s, "> freq=");
        sremrt_sink_u64(s, best[i].freq);
        sremrt_sink_puts(s, " confidence=");
        sremrt_sink_f64(s, best[i].confidence);
        if (ex->trie.nodes[best[i].node].suggested)
            sremrt_sink_puts(s, " suggested");
        sremrt_sink_putc(s, '\n');
    }
}

/* ---- checkpoints (state.h) ------------------------------------------------ */

/* The shared part: totals, the trie's nodes in use, and the candidates'
 * nodes; the rest of the block is the configuration, which init set. */
void sremrt_state_explore(sremrt_state_io *io, sremrt_explore *ex)
{
    int64_t cap = ex->capacity;
    int32_t n = ex->trie.count, nv = ex->cfg.nvalues, algo = (int32_t)ex->cfg.algo;
    sremrt_state_i64(io, &cap);   /* the options that shape the windows */
    sremrt_state_i32(io, &algo);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK &&
        (cap != ex->capacity || algo != (int32_t)ex->cfg.algo))
        sremrt_state_fail(io, SREMRT_STATE_ECONFIG);
    sremrt_state_u64(io, &ex->events);
    sremrt_state_u64(io, &ex->overflows);
    sremrt_state_int(io, &ex->inexact);
    sremrt_state_int(io, &ex->may_wrap);
    sremrt_state_i32(io, &ex->pattern_node);
    sremrt_state_bytes(io, ex->ext_node, (size_t)nv * sizeof(int32_t));
    sremrt_state_bytes(io, ex->var_node, (size_t)nv * sizeof(int32_t));
    sremrt_state_bytes(io, ex->path, (size_t)(ex->cfg.m + 1) * sizeof(int32_t));
    sremrt_state_count(io, &n, ex->trie.capacity);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && n < 1)
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
    if (io->err != SREMRT_STATE_OK)
        return;
    ex->trie.count = n;
    sremrt_state_bytes(io, ex->trie.nodes, (size_t)n * sizeof(sremrt_ptrie_node));
    sremrt_state_u64(io, &ex->trie.overflows);
    sremrt_state_u64(io, &ex->trie.saturated);
}

/* One ring entry of a partition's window: key, code, counters. */
static void state_entry(sremrt_state_io *io, sremrt_explore_part *st, const part_shape *s, int64_t at)
{
    if (s->keys)
        sremrt_state_i64(io, &st->keys[at]);
    if (s->codes)
        sremrt_state_i32(io, &st->codes[at]);
    for (size_t v = 0; v < s->vals_per; v++)
        sremrt_state_u64(io, &st->vals[(size_t)at * s->vals_per + v]);
}

/* A partition: its position, the window's entries oldest first (a loaded
 * ring starts at 0) and its counters. A partition whose memory was
 * refused (mem NULL) stays one. */
void sremrt_state_explore_part(sremrt_state_io *io, const sremrt_explore *ex, sremrt_explore_part *st)
{
    int load = io->mode == SREMRT_STATE_LOAD;
    int has = st->mem != NULL;
    sremrt_state_int(io, &has);
    if (io->err != SREMRT_STATE_OK || (!has && !st->mem))
        return;
    if (!has) {
        sremrt_explore_part_free(st);
        return;
    }
    if (!st->mem) {
        sremrt_state_fail(io, SREMRT_STATE_EMEMORY);
        return;
    }
    part_shape s = shape_of(ex);
    int64_t cap = st->cap, size = st->size;
    sremrt_state_i64(io, &cap);
    sremrt_state_i64(io, &size);
    if (load && io->err == SREMRT_STATE_OK && (cap != st->cap || size < 0 || size > cap)) {
        sremrt_state_fail(io, cap != st->cap ? SREMRT_STATE_ECONFIG : SREMRT_STATE_EFORMAT);
        return;
    }
    sremrt_state_i64(io, &st->pos);
    sremrt_state_u64(io, &st->overflows);
    for (int64_t i = 0; i < size && io->err == SREMRT_STATE_OK; i++)
        state_entry(io, st, &s, load ? i : (st->head + i) % st->cap);
    if (load && io->err == SREMRT_STATE_OK) {
        st->head = 0;
        st->size = size;
    }
    if (st->cnt)
        sremrt_state_bytes(io, st->cnt, s.cnt * sizeof(uint64_t));
    if (st->g) {
        sremrt_state_bytes(io, st->g, (size_t)ex->cfg.nvalues * sizeof(uint64_t));
        sremrt_state_bytes(io, st->h, (size_t)ex->cfg.nvalues * sizeof(uint64_t));
    }
}
