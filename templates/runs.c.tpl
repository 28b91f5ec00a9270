/* ======== runs engine (templates/runs.c.tpl) ================================ */

/* Runs are grouped by automaton state. Per event: runs out of the window
 * leave from the front of the start-ordered list; per state, a transition
 * whose register-free literals fail is skipped for all its runs at once;
 * a run in a state with a guard-free, write-free self-loop stays where it
 * is untouched; a keyed state (a guard `e.A == x.B`) examines only the
 * runs whose key equals the event's. Successors enter the set with a
 * duplicate check by hash (same state and registers: the later start
 * wins), then the runs of states without a self-loop leave. The set holds
 * at most cap runs after an event; a run that does not fit is counted. */

/* One guard literal of a transition: a condition, maybe negated. */
typedef struct @@PREFIX@@_rs_lit {
    /* NULL: register-free in a pattern with desc eval, which computes it */
    int (*fn)(const @@PREFIX@@_event *e, const void *regs);
    int32_t id;                    /* the function's number: its memo of the event */
    uint8_t neg;
    uint8_t free_;                 /* reads no register: holds or not for every run */
} @@PREFIX@@_rs_lit;

typedef struct @@PREFIX@@_rs_trans {
    int32_t to, lit, nlits;        /* lits[lit .. lit + nlits) */
    /* desc eval: its register-free literals hold when the event's bits
     * under fmask are fpos (the functions that hold; fmask adds those
     * that fail; a contradiction is fmask 0, fpos 1) */
    uint64_t fpos, fmask;
    uint64_t writes;               /* registers that store the event */
    uint8_t loop;                  /* guard-free, write-free self-loop: runs stay */
    uint8_t final;
    uint8_t dead;                  /* into a dead state: no run is kept (one table load less) */
} @@PREFIX@@_rs_trans;

typedef struct @@PREFIX@@_rs_state {
    int32_t trans, ntrans;         /* trans[trans .. trans + ntrans) */
    int32_t key_trans;             /* the transition whose guard has e.A == x.B, -1 */
    uint8_t loop, dead, final;
    /* keyed states: the run's x.B (0: register empty) and the event's A */
    int (*run_key)(const void *regs, int64_t *key);
    int64_t (*ev_key)(const @@PREFIX@@_event *e);
} @@PREFIX@@_rs_state;

typedef struct @@PREFIX@@_rs_desc {
    const @@PREFIX@@_rs_state *states;
    const @@PREFIX@@_rs_trans *trans;
    const @@PREFIX@@_rs_lit *lits;
    int32_t nstates, start, rb;
    int32_t nfns;                  /* literal functions */
    int32_t dense;                 /* no guard reads a register: one run per state */
    int32_t window_kind;           /* 0 none, 1 events, 2 time */
    int64_t window;
    void (*write)(void *regs, const @@PREFIX@@_event *e, uint64_t writes);
    /* a pattern with few register-free literal functions: all of them on
     * e at once, bit f for function f (NULL: each when first needed) */
    uint64_t (*eval)(const @@PREFIX@@_event *e);
    /* with eval: eval those of the start state's transitions, eval1 the
     * others (NULL: none), when there is a run to step */
    uint64_t (*eval1)(const @@PREFIX@@_event *e);
    /* or, in a file of many runs patterns, those literals are bits of the
     * file's vector, which push_each computes once per event
     * (PREFIX_rs_file_lits): function f's is bit lmap[f] (NULL: not so) */
    const uint16_t *lmap;
    /* state q's transitions from tq[q] to tq[q + 1] (trans + states[q].trans ..) */
    const @@PREFIX@@_rs_trans *const *tq;
} @@PREFIX@@_rs_desc;

static inline uint32_t @@PREFIX@@_rs_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (uint32_t)h;
}

static inline uint32_t @@PREFIX@@_rs_hash(int32_t state, const unsigned char *regs, int32_t rb)
{
    uint64_t h = (uint64_t)(uint32_t)state * UINT64_C(0x9e3779b97f4a7c15);
    for (int32_t k = 0; k < rb; k += 8) {
        uint64_t w;
        memcpy(&w, regs + k, 8);
        h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
    }
    return @@PREFIX@@_rs_mix(h);
}

static inline int32_t @@PREFIX@@_rs_bucket(const @@PREFIX@@_runset *s, uint32_t h)
{
    return (int32_t)(((uint64_t)h * (uint64_t)s->nb) >> 32);
}

static unsigned char *@@PREFIX@@_rs_regs(const @@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t i)
{
    return s->regs + (size_t)i * (size_t)d->rb;
}

/* The dense step's halves, from s->flip (see rs_dense_from). */
static void @@PREFIX@@_rs_halves(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d)
{
    int32_t ns = d->nstates, h = s->flip;
    s->dcur = s->dense + 2 * ns * h;
    s->dnext = s->dense + 2 * ns * (1 - h);
    s->ocur = s->occ + ns * h;
    s->onext = s->occ + ns * (1 - h);
}

/* Points the arrays at block b of capacity cap. The bucket arrays have
 * room for 4 cap buckets; s->nb, the ones in use, is set by the caller. */
static void @@PREFIX@@_rs_carve(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, unsigned char *b, int32_t cap)
{
    s->cur = b;
    s->cap = cap;
    s->runs = (@@PREFIX@@_run *)(void *)b;
    b += (size_t)cap * 2 * sizeof *s->runs;
    s->pend = (@@PREFIX@@_rs_pend *)(void *)b;
    b += (size_t)cap * sizeof *s->pend;
    s->regs = b;
    b += ((size_t)cap * 2 + 2) * (size_t)d->rb;
    s->dense = (int64_t *)(void *)b;
    b += (size_t)d->nstates * 4 * sizeof *s->dense;
    s->shead = (int32_t *)(void *)b;
    s->hhead = s->shead + d->nstates;
    s->khead = s->hhead + 4 * cap;
    s->heap = s->khead + 4 * cap;
    s->occ = s->heap + 2 * cap;
    @@PREFIX@@_rs_halves(s, d);
}

/* Run records [from, to) go on the free list, before the ones there
 * (state -1: free, as rs_remove leaves a record). */
static void @@PREFIX@@_rs_free_records(@@PREFIX@@_runset *s, int32_t from, int32_t to)
{
    for (int32_t i = from; i < to; i++) {
        s->runs[i].state = -1;
        s->runs[i].snext = i + 1 < to ? i + 1 : s->free_;
    }
    s->free_ = from < to ? from : s->free_;
}

/* The first capacity: firmware's is its limit, fixed; a hosted set
 * starts at RS_CAP0 runs and grows (a dense one holds a run per state at
 * most, so it never needs more than nstates). */
enum { @@PREFIX@@_RS_CAP0 = 16 };

static int32_t @@PREFIX@@_rs_cap0(const @@PREFIX@@_rs_desc *d, int32_t limit)
{
#ifdef SREMRT_FREESTANDING
    (void)d;
    return limit;
#else
    int32_t want = d->dense ? d->nstates : @@PREFIX@@_RS_CAP0;
    return limit > 0 && limit < want ? limit : want;
#endif
}

/* Allocates a block of cap runs (limit: the most runs after an event, 0:
 * no limit in hosted builds); every list empty. */
static int @@PREFIX@@_rs_alloc_cap(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, const sremrt_alloc *a,
                                   int32_t limit, int32_t cap)
{
    if (cap < 1 || cap > INT32_MAX / 8)   /* 4 cap buckets, 2 cap heap slots: int32_t */
        return -1;
    size_t bytes = @@PREFIX@@_RUNS_BYTES(cap, d->nstates, d->rb);
    unsigned char *b = sremrt_alloc_get(a, bytes, 0);
    if (!b)
        return -1;
    memset(b, 0, bytes);   /* a checkpoint saves the block: no indeterminate bytes */
    memset(s, 0, sizeof *s);
    s->alloc = *a;
    s->limit = limit;
    @@PREFIX@@_rs_carve(s, d, b, cap);
    s->nb = 4 * cap;
    memset(s->regs, 0, ((size_t)cap * 2 + 2) * (size_t)d->rb);
    for (int32_t i = 0; i < d->nstates + 2 * s->nb; i++)
        s->shead[i] = -1;
    for (int32_t i = 0; i < 4 * d->nstates; i++)
        s->dense[i] = -1;
    s->free_ = -1;
    s->fmax = s->lost = -1;
    @@PREFIX@@_rs_free_records(s, 0, 2 * cap);
    return 0;
}

/* The block at the first capacity. */
static int @@PREFIX@@_rs_alloc(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, const sremrt_alloc *a,
                               int32_t limit)
{
    return @@PREFIX@@_rs_alloc_cap(s, d, a, limit, @@PREFIX@@_rs_cap0(d, limit));
}

static void @@PREFIX@@_rs_release(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d)
{
    if (s->cur)
        sremrt_alloc_free(&s->alloc, s->cur, @@PREFIX@@_RUNS_BYTES(s->cap, d->nstates, d->rb));
    s->cur = NULL;
}

/* The heap by start of the runs in self-loop states (with a window):
 * they leave the window from its root. A run in another state lives one
 * event, so it is only tested when it steps (rs_movable). */
static void @@PREFIX@@_rs_heap_set(@@PREFIX@@_runset *s, int32_t at, int32_t r)
{
    s->heap[at] = r;
    s->runs[r].heap = at;
}

static void @@PREFIX@@_rs_sift(@@PREFIX@@_runset *s, int32_t at)
{
    int32_t r = s->heap[at];
    int64_t k = s->runs[r].start_pos;
    while (at > 0 && s->runs[s->heap[(at - 1) / 2]].start_pos > k) {
        @@PREFIX@@_rs_heap_set(s, at, s->heap[(at - 1) / 2]);
        at = (at - 1) / 2;
    }
    for (;;) {
        int32_t c = 2 * at + 1;
        if (c >= s->nheap)
            break;
        if (c + 1 < s->nheap && s->runs[s->heap[c + 1]].start_pos < s->runs[s->heap[c]].start_pos)
            c++;
        if (s->runs[s->heap[c]].start_pos >= k)
            break;
        @@PREFIX@@_rs_heap_set(s, at, s->heap[c]);
        at = c;
    }
    @@PREFIX@@_rs_heap_set(s, at, r);
}

/* The occupied states (with a run), occ[0 .. nocc), and each one's place
 * in it, occ[nstates + q]: the step visits only those. */
static void @@PREFIX@@_rs_occupy(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t q)
{
    s->occ[d->nstates + q] = s->nocc;
    s->occ[s->nocc++] = q;
}

static void @@PREFIX@@_rs_vacate(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t q)
{
    int32_t at = s->occ[d->nstates + q], last = s->occ[--s->nocc];
    s->occ[at] = last;
    s->occ[d->nstates + last] = at;
}

/* A run leaves every list and goes back to the free list. */
static void @@PREFIX@@_rs_remove(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t r)
{
    @@PREFIX@@_run *x = &s->runs[r];
    int32_t at = x->heap;
    s->n--;
    if (at >= 0 && at != --s->nheap) {
        @@PREFIX@@_rs_heap_set(s, at, s->heap[s->nheap]);
        @@PREFIX@@_rs_sift(s, at);
    }
    if (x->sprev >= 0)
        s->runs[x->sprev].snext = x->snext;
    else
        s->shead[x->state] = x->snext;
    if (x->snext >= 0)
        s->runs[x->snext].sprev = x->sprev;
    if (s->shead[x->state] < 0)
        @@PREFIX@@_rs_vacate(s, d, x->state);
    if (x->kb >= 0) {
        if (x->kprev >= 0)
            s->runs[x->kprev].knext = x->knext;
        else
            s->khead[x->kb] = x->knext;
        if (x->knext >= 0)
            s->runs[x->knext].kprev = x->kprev;
    }
    if (s->hashed) {
        int32_t *p = &s->hhead[@@PREFIX@@_rs_bucket(s, x->hash)];
        while (*p != r)
            p = &s->runs[*p].hnext;
        *p = x->hnext;
    }
    s->nloop -= d->states[x->state].loop;
    s->nfinal -= d->states[x->state].loop & d->states[x->state].final;
    if (s->nfinal == 0)
        s->fmax = -1;
    x->state = -1;
    x->snext = s->free_;
    s->free_ = r;
}

/* The key bucket of (state, key). */
static int32_t @@PREFIX@@_rs_kbucket(const @@PREFIX@@_runset *s, int32_t state, int64_t key)
{
    return @@PREFIX@@_rs_bucket(s, @@PREFIX@@_rs_mix((uint64_t)key * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)state));
}

/* Puts run r, its hash set, in the duplicate check's buckets. */
static void @@PREFIX@@_rs_hlink(@@PREFIX@@_runset *s, int32_t r)
{
    int32_t b = @@PREFIX@@_rs_bucket(s, s->runs[r].hash);
    s->runs[r].hnext = s->hhead[b];
    s->hhead[b] = r;
}

/* A small set (at most RS_FLAT runs) finds duplicates in the list of
 * their state, without hashing; it turns to hash buckets above RS_FLAT
 * runs and back at RS_FLAT / 4 (every run is linked or unlinked once). */
enum { @@PREFIX@@_RS_FLAT = 16 };

static void @@PREFIX@@_rs_rehash(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int hashed)
{
    for (int32_t i = 0; i < s->nocc; i++)
        for (int32_t r = s->shead[s->occ[i]]; r >= 0; r = s->runs[r].snext) {
            @@PREFIX@@_run *x = &s->runs[r];
            if (!hashed) {   /* every run in a chain goes: empty its bucket */
                s->hhead[@@PREFIX@@_rs_bucket(s, x->hash)] = -1;
                continue;
            }
            x->hash = @@PREFIX@@_rs_hash(x->state, @@PREFIX@@_rs_regs(s, d, r), d->rb);
            @@PREFIX@@_rs_hlink(s, r);
        }
    s->hashed = hashed;
}

/* Puts run r in the key bucket of its state's key when the state is
 * keyed and the run's key register is set (else kb is -1). */
static inline void @@PREFIX@@_rs_klink(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t r)
{
    @@PREFIX@@_run *x = &s->runs[r];
    const @@PREFIX@@_rs_state *st = &d->states[x->state];
    int64_t key;
    x->kb = -1;
    if (!st->run_key || !st->run_key(@@PREFIX@@_rs_regs(s, d, r), &key))
        return;
    x->kb = @@PREFIX@@_rs_kbucket(s, x->state, key);
    x->kprev = -1;
    x->knext = s->khead[x->kb];
    if (x->knext >= 0)
        s->runs[x->knext].kprev = r;
    s->khead[x->kb] = r;
}

/* A full hosted set doubles (up to its limit) into a new block from the
 * hook, in the middle of an event: run records keep their numbers, so the
 * step's lists and loops stay valid, and the scratch registers move with
 * the block; the buckets stay as many until rs_rebucket, after the
 * event. -1: firmware, the limit, or the hook refused. */
static int @@PREFIX@@_rs_grow(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d)
{
#ifdef SREMRT_FREESTANDING
    (void)s;
    (void)d;
    return -1;
#else
    int32_t cap = s->cap, ns = d->nstates;
    size_t rb = (size_t)d->rb;
    if (d->dense || (s->limit > 0 && cap >= s->limit) || cap > INT32_MAX / 16)
        return -1;
    int32_t ncap = s->limit > 0 && s->limit / 2 < cap ? s->limit : 2 * cap;
    size_t bytes = @@PREFIX@@_RUNS_BYTES(ncap, ns, d->rb);
    unsigned char *b = sremrt_alloc_get(&s->alloc, bytes, 0);
    if (!b)
        return -1;
    memset(b, 0, bytes);   /* as rs_alloc: the checkpoint's bytes are all defined */
    @@PREFIX@@_runset o = *s;
    @@PREFIX@@_rs_carve(s, d, b, ncap);
    memcpy(s->runs, o.runs, (size_t)cap * 2 * sizeof *s->runs);
    memcpy(s->pend, o.pend, (size_t)o.npend * sizeof *s->pend);
    memcpy(s->regs, o.regs, (size_t)cap * 2 * rb);
    memset(s->regs + (size_t)cap * 2 * rb, 0, ((size_t)(ncap - cap) * 2 + 2) * rb);
    memcpy(@@PREFIX@@_rs_regs(s, d, 2 * ncap), @@PREFIX@@_rs_regs(&o, d, 2 * cap), rb);
    memcpy(s->dense, o.dense, (size_t)ns * 4 * sizeof *s->dense);
    memcpy(s->shead, o.shead, (size_t)ns * sizeof *s->shead);
    memcpy(s->hhead, o.hhead, (size_t)o.nb * sizeof *s->hhead);
    memcpy(s->khead, o.khead, (size_t)o.nb * sizeof *s->khead);
    memcpy(s->heap, o.heap, (size_t)o.nheap * sizeof *s->heap);
    memcpy(s->occ, o.occ, (size_t)ns * 2 * sizeof *s->occ);
    @@PREFIX@@_rs_free_records(s, 2 * cap, 2 * ncap);
    sremrt_alloc_free(&s->alloc, o.cur, @@PREFIX@@_RUNS_BYTES(cap, ns, d->rb));
    return 0;
#endif
}

/* After an event that grew the set: 4 cap buckets, every run linked
 * again (its hash kept, its key bucket found anew). */
static void @@PREFIX@@_rs_rebucket(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d)
{
    s->nb = 4 * s->cap;
    for (int32_t i = 0; i < 2 * s->nb; i++)   /* hhead, then khead */
        s->hhead[i] = -1;
    for (int32_t i = 0; i < s->nocc; i++)
        for (int32_t r = s->shead[s->occ[i]]; r >= 0; r = s->runs[r].snext) {
            if (s->hashed)
                @@PREFIX@@_rs_hlink(s, r);
            @@PREFIX@@_rs_klink(s, d, r);
        }
}

/* Whether run x, in state, is an equal run in the set after the event
 * (stored at it, or there before it in a self-loop state). */
static inline int @@PREFIX@@_rs_same(const @@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t r,
                                     int32_t state, const unsigned char *regs)
{
    const @@PREFIX@@_run *x = &s->runs[r];
    return x->state == state && (x->stamp == s->pos || d->states[state].loop) &&
           memcmp(@@PREFIX@@_rs_regs(s, d, r), regs, (size_t)d->rb) == 0;
}

/* The run with this state and registers that is in the set after the
 * event, or -1; h: their hash when the set is hashed. */
static inline int32_t @@PREFIX@@_rs_find(const @@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t state,
                                 const unsigned char *regs, uint32_t h)
{
    if (!s->hashed) {
        for (int32_t r = s->shead[state]; r >= 0; r = s->runs[r].snext)
            if (@@PREFIX@@_rs_same(s, d, r, state, regs))
                return r;
        return -1;
    }
    for (int32_t r = s->hhead[@@PREFIX@@_rs_bucket(s, h)]; r >= 0; r = s->runs[r].hnext) {
        if (s->runs[r].hash == h && @@PREFIX@@_rs_same(s, d, r, state, regs))
            return r;
    }
    return -1;
}

/* A successor in state, its registers in the scratch slot 2 cap: merged
 * into an equal run (the later start wins), else stored (the set growing
 * if full), else counted. */
static void @@PREFIX@@_rs_add(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t state,
                              int64_t start_pos, int64_t start_ts, uint64_t *overflow)
{
    const unsigned char *regs = @@PREFIX@@_rs_regs(s, d, 2 * s->cap);
    uint32_t h = s->hashed ? @@PREFIX@@_rs_hash(state, regs, d->rb) : 0;
    int32_t m = @@PREFIX@@_rs_find(s, d, state, regs, h);
    const @@PREFIX@@_rs_state *st = &d->states[state];
    if (m >= 0) {
        @@PREFIX@@_run *x = &s->runs[m];
        if (st->loop && st->final && start_pos > s->fmax)   /* the merge happens, now or after the event */
            s->fmax = start_pos;
        if (x->stamp == s->pos) {   /* stored at this event: no run steps from it */
            if (start_pos > x->start_pos) {
                x->start_pos = start_pos;
                x->start_ts = start_ts;
                if (x->heap >= 0)
                    @@PREFIX@@_rs_sift(s, x->heap);
            }
            return;
        }
        /* it may still step from its old start: merge after the event */
        if (x->pend < 0) {
            x->pend = s->npend++;
            s->pend[x->pend].start_pos = x->start_pos;
            s->pend[x->pend].start_ts = x->start_ts;
            s->pend[x->pend].run = m;
        }
        @@PREFIX@@_rs_pend *p = &s->pend[x->pend];
        if (start_pos > p->start_pos) {
            p->start_pos = start_pos;
            p->start_ts = start_ts;
        }
        return;
    }
    if (s->nnext >= s->cap && @@PREFIX@@_rs_grow(s, d) != 0) {
        (*overflow)++;
        if (start_pos > s->lost)
            s->lost = start_pos;
        return;
    }
    regs = @@PREFIX@@_rs_regs(s, d, 2 * s->cap);   /* the block may have moved */
    int32_t r = s->free_;
    @@PREFIX@@_run *x = &s->runs[r];
    s->free_ = x->snext;
    memcpy(@@PREFIX@@_rs_regs(s, d, r), regs, (size_t)d->rb);
    x->start_pos = start_pos;
    x->start_ts = start_ts;
    x->stamp = s->pos;
    x->hash = h;
    x->state = state;
    x->pend = -1;
    s->n++;
    x->heap = -1;
    if (st->loop && st->final && start_pos > s->fmax)
        s->fmax = start_pos;
    if (d->window_kind && st->loop) {
        @@PREFIX@@_rs_heap_set(s, s->nheap++, r);
        @@PREFIX@@_rs_sift(s, x->heap);
    }
    x->sprev = -1;
    x->snext = s->shead[state];
    if (x->snext >= 0)
        s->runs[x->snext].sprev = r;
    else
        @@PREFIX@@_rs_occupy(s, d, state);
    s->shead[state] = r;
    if (s->hashed)
        @@PREFIX@@_rs_hlink(s, r);
    else if (s->n > @@PREFIX@@_RS_FLAT)
        @@PREFIX@@_rs_rehash(s, d, 1);
    x->kb = -1;
    if (st->run_key)   /* a keyed state */
        @@PREFIX@@_rs_klink(s, d, r);
    s->nloop += st->loop;
    s->nfinal += st->loop & st->final;
    s->nnext++;
}

/* Whether the literals of t with free_ == want hold. */
static inline int @@PREFIX@@_rs_lits(const @@PREFIX@@_rs_desc *d, const @@PREFIX@@_rs_trans *t, const @@PREFIX@@_event *e,
                              const void *regs, int want)
{
    for (int32_t k = t->lit; k < t->lit + t->nlits; k++)
        if (d->lits[k].free_ == want && d->lits[k].fn(e, regs) == d->lits[k].neg)
            return 0;
    return 1;
}

/* Whether the register-free literals of t hold: from this event's
 * s->lits with desc eval, else memo[f] is literal function f's value on
 * this event (2: not computed yet). */
static inline int @@PREFIX@@_rs_free(uint64_t lits, const @@PREFIX@@_rs_desc *d,
                                     const @@PREFIX@@_rs_trans *t, const @@PREFIX@@_event *e, uint8_t *memo)
{
    if (d->eval || d->lmap)
        return (lits & t->fmask) == t->fpos;
    for (int32_t k = t->lit; k < t->lit + t->nlits; k++) {
        const @@PREFIX@@_rs_lit *l = &d->lits[k];
        if (!l->free_)
            continue;
        uint8_t v = memo[l->id];   /* a local: the call might write memo */
        if (v == 2)
            memo[l->id] = v = (uint8_t)(l->fn(e, NULL) != 0);
        if (v == l->neg)
            return 0;
    }
    return 1;
}

/* Whether a run that started at (start_pos, start_ts) may take the event
 * at position pos (the dense step keeps pos in a register). */
static inline int @@PREFIX@@_rs_live_at(const @@PREFIX@@_rs_desc *d, int64_t pos, int64_t start_pos,
                                 int64_t start_ts, int64_t ts)
{
    if (d->window_kind == 1)
        return (uint64_t)pos - (uint64_t)start_pos + 1 <= (uint64_t)d->window;
    if (d->window_kind == 2)
        return (uint64_t)ts - (uint64_t)start_ts <= (uint64_t)d->window;
    return 1;
}

/* The same at the set's position. */
static inline int @@PREFIX@@_rs_live(const @@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int64_t start_pos,
                              int64_t start_ts, int64_t ts)
{
    return @@PREFIX@@_rs_live_at(d, s->pos, start_pos, start_ts, ts);
}

/* Whether run r, there before this event, steps now: a run in a state
 * without a self-loop is not in the heap, so its window is tested here. */
static inline int @@PREFIX@@_rs_movable(const @@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t r, int64_t ts)
{
    const @@PREFIX@@_run *x = &s->runs[r];
    return x->stamp != s->pos && (x->heap >= 0 || @@PREFIX@@_rs_live(s, d, x->start_pos, x->start_ts, ts));
}

/* Steps run r (-1: the run starting at e, registers empty) over the
 * transitions in on[0..non); 1 if one reaches a final state. */
static inline int @@PREFIX@@_rs_step_run(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t r, int32_t state,
                                  const int32_t *on, int32_t non, const @@PREFIX@@_event *e, int64_t ts,
                                  uint64_t *overflow)
{
    int64_t sp = r >= 0 ? s->runs[r].start_pos : s->pos, st = r >= 0 ? s->runs[r].start_ts : ts;
    int hit = 0;
    for (int32_t k = 0; k < non; k++) {
        /* here, not before the loop: rs_add may move the block */
        const unsigned char *regs = @@PREFIX@@_rs_regs(s, d, r >= 0 ? r : 2 * s->cap + 1);
        unsigned char *next = @@PREFIX@@_rs_regs(s, d, 2 * s->cap);
        const @@PREFIX@@_rs_trans *t = &d->trans[d->states[state].trans + on[k]];
        if (!@@PREFIX@@_rs_lits(d, t, e, regs, 0))
            continue;
        hit |= t->final;
        if (t->final && sp > s->best)
            s->best = sp;
        if (t->dead)
            continue;
        memcpy(next, regs, (size_t)d->rb);
        if (t->writes)
            d->write(next, e, t->writes);
        @@PREFIX@@_rs_add(s, d, t->to, sp, st, overflow);
    }
    return hit;
}

/* The runs of state q before this event that may take a transition in
 * on[0..non): only those with the event's key when that transition is
 * the keyed one and the only one; 1 if one reaches a final state. */
static int @@PREFIX@@_rs_step_state(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t q,
                                    const int32_t *on, int32_t non, const @@PREFIX@@_event *e, int64_t ts,
                                    uint64_t *overflow)
{
    const @@PREFIX@@_rs_state *st = &d->states[q];
    int hit = 0;
    if (non == 1 && on[0] == st->key_trans && st->ev_key) {
        int32_t b = @@PREFIX@@_rs_kbucket(s, q, st->ev_key(e));
        for (int32_t r = s->khead[b], nx; r >= 0; r = nx) {
            nx = s->runs[r].knext;
            if (s->runs[r].state == q && @@PREFIX@@_rs_movable(s, d, r, ts))
                hit |= @@PREFIX@@_rs_step_run(s, d, r, q, on, non, e, ts, overflow);
        }
        return hit;
    }
    for (int32_t r = s->shead[q], nx; r >= 0; r = nx) {
        nx = s->runs[r].snext;
        if (@@PREFIX@@_rs_movable(s, d, r, ts))
            hit |= @@PREFIX@@_rs_step_run(s, d, r, q, on, non, e, ts, overflow);
    }
    return hit;
}

/* Which transitions of q the event may take: those whose register-free
 * literals hold, self-loops left out for runs that stay anyway. */
static inline int32_t @@PREFIX@@_rs_enabled(const @@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, int32_t q,
                                     const @@PREFIX@@_event *e, int stay, int32_t *on, uint8_t *memo)
{
    const @@PREFIX@@_rs_state *st = &d->states[q];
    int32_t non = 0;
    for (int32_t k = 0; k < st->ntrans; k++) {
        const @@PREFIX@@_rs_trans *t = &d->trans[st->trans + k];
        if (!(stay && t->loop) && @@PREFIX@@_rs_free(s->lits, d, t, e, memo))
            on[non++] = k;
    }
    return non;
}

/* Register-free patterns: runs in one state are equal but for their
 * start, so each state holds at most one run, the latest start. Two
 * halves, swapped after each event (s->flip: the current one): in half h,
 * dense[2 h nstates + q] (-1: none) and its timestamp dense[(2 h + 1)
 * nstates + q], the states that have one in occ[h nstates ..][0 .. n).
 * The run of state q moves over e into the next half np, its list nocc.
 * The step's counters are locals (a): the stores into np and nocc might
 * alias the runset's fields for all the compiler knows, which reloaded
 * them on every transition (B1 K 26 w 100: 9 instructions an event). */
typedef struct @@PREFIX@@_rs_dacc {
    int32_t nnext, cap;            /* states in nocc; the set's capacity */
    int64_t best;                  /* the greatest start reaching a final state, -1 */
    uint64_t lits;                 /* the event's register-free literals (desc eval) */
} @@PREFIX@@_rs_dacc;

/* A dense step's move into state to of a run that started at (sp, st):
 * the latest start wins; there is room for to (the table step tests it,
 * the direct-coded one runs only when the set holds a run per state:
 * nothing is dropped, so the order in which it visits states is free). */
static inline void @@PREFIX@@_rs_dput(const @@PREFIX@@_rs_desc *d, int64_t *np, int32_t *nocc, int32_t *nn,
                                    int32_t to, int64_t sp, int64_t st)
{
    if (np[to] < 0)
        nocc[(*nn)++] = to;
    else if (np[to] >= sp)
        return;
    np[to] = sp;
    if (d->window_kind == 2)   /* the timestamps only time windows read */
        np[d->nstates + to] = st;
}

static inline void @@PREFIX@@_rs_dense_from(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, @@PREFIX@@_rs_dacc *a,
                                           int64_t *np, int32_t *nocc, int32_t q, int64_t sp, int64_t st,
                                           const @@PREFIX@@_event *e, uint8_t *memo, uint64_t *overflow)
{
    const @@PREFIX@@_rs_trans *t = d->tq[q], *end = d->tq[q + 1];
    for (; t < end; t++) {
        if (t->nlits && !@@PREFIX@@_rs_free(a->lits, d, t, e, memo))   /* every literal is register-free */
            continue;
        int32_t to = t->to;
        if (t->final && sp > a->best)   /* a detection, and its greatest start so far (rs_back) */
            a->best = sp;
        if (t->dead)
            continue;
        if (np[to] < 0 && a->nnext == a->cap) {   /* a state not yet in nocc, and no room */
            (*overflow)++;
            s->lost = sp > s->lost ? sp : s->lost;
            continue;
        }
        @@PREFIX@@_rs_dput(d, np, nocc, &a->nnext, to, sp, st);
    }
}

/* Inlined into each pattern's step, where its desc is a constant (cc
 * made a copy per desc anyway, with a call's prologue: B1 15
 * instructions an event). */
#if defined(__GNUC__)
#define @@PREFIX@@_RS_INLINE inline __attribute__((always_inline))
#else
#define @@PREFIX@@_RS_INLINE inline
#endif
/* Compiled with -DSREMRT_RUNS_NO_DIRECT, every pattern takes its table
 * step (the differential tests compare both with the interpreter). */
#ifdef SREMRT_RUNS_NO_DIRECT
#define @@PREFIX@@_RS_DIRECT 0
#else
#define @@PREFIX@@_RS_DIRECT 1
#endif
/* The table step of a pattern with a direct-coded one, which a set of
 * fewer runs than states takes (--max-runs): out of line, so that the
 * pattern's step stays small enough for cc to inline (B4k: 25 -> 51
 * instructions an event with both inlined into one step, which cc then
 * called). */
#if defined(__GNUC__)
#define @@PREFIX@@_RS_COLD __attribute__((noinline, cold))
#else
#define @@PREFIX@@_RS_COLD
#endif

/* The end of a dense step at position pos: the next half (np, its list
 * nocc of nn states) is the current one, and the current one (cp, occ)
 * the next; 1 if a run reached a final state. */
static inline int @@PREFIX@@_rs_dense_end(@@PREFIX@@_runset *s, int64_t *cp, int64_t *np, int32_t *occ, int32_t *nocc,
                                        int32_t nn, int64_t best, int64_t pos)
{
    /* flip follows dcur (rs_checkpoint); nnext is the non-dense step's */
    s->dcur = np, s->dnext = cp, s->ocur = nocc, s->onext = occ;
    s->n = nn;
    s->best = best;
    s->pos = pos + 1;
    return best >= 0;
}

static @@PREFIX@@_RS_INLINE int @@PREFIX@@_rs_dense_step(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, const @@PREFIX@@_event *e,
                                    int64_t ts, uint8_t *memo, uint64_t *overflow)
{
    int32_t n = s->n;
    int64_t pos = s->pos;
    int64_t *cp = s->dcur, *ct = cp + d->nstates, *np = s->dnext;
    int32_t *occ = s->ocur, *nocc = s->onext;
    @@PREFIX@@_rs_dacc a = {0, s->cap, -1, s->lits};   /* best: positions are >= 0, a detection sets it */
    for (int32_t i = 0; i < n; i++) {
        int32_t q = occ[i];
        int64_t sp = cp[q];
        cp[q] = -1;   /* the current half is the next event's next */
        if (@@PREFIX@@_rs_live_at(d, pos, sp, ct[q], ts))
            @@PREFIX@@_rs_dense_from(s, d, &a, np, nocc, q, sp, ct[q], e, memo, overflow);
    }
    @@PREFIX@@_rs_dense_from(s, d, &a, np, nocc, d->start, pos, ts, e, memo, overflow);
    return @@PREFIX@@_rs_dense_end(s, cp, np, occ, nocc, a.nnext, a.best, pos);
}

/* rs_step with runs, or with a run starting at e. */
static int @@PREFIX@@_rs_step_set(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, const @@PREFIX@@_event *e,
                                  int64_t ts, int32_t *on, uint8_t *memo, uint64_t *overflow)
{
    int hit = 0;
    if (d->dense)
        return @@PREFIX@@_rs_dense_step(s, d, e, ts, memo, overflow);
    /* out of the window: from the oldest start */
    while (s->nheap > 0) {
        const @@PREFIX@@_run *x = &s->runs[s->heap[0]];
        if (@@PREFIX@@_rs_live(s, d, x->start_pos, x->start_ts, ts))
            break;
        @@PREFIX@@_rs_remove(s, d, s->heap[0]);
    }
    s->nnext = s->nloop;   /* those stay */
    s->npend = 0;
    hit |= s->nfinal > 0;   /* staying in a final state */
    s->best = s->nfinal > 0 ? s->fmax : -1;
    /* the states occupied before the event; stepping only appends */
    for (int32_t i = 0, nocc = s->nocc; i < nocc; i++) {
        int32_t q = s->occ[i];
        int32_t non = @@PREFIX@@_rs_enabled(s, d, q, e, d->states[q].loop, on, memo);
        if (non > 0)
            hit |= @@PREFIX@@_rs_step_state(s, d, q, on, non, e, ts, overflow);
    }
    int32_t non = @@PREFIX@@_rs_enabled(s, d, d->start, e, 0, on, memo);
    if (non > 0)
        hit |= @@PREFIX@@_rs_step_run(s, d, -1, d->start, on, non, e, ts, overflow);
    /* merges into runs that were there before: their later starts */
    for (int32_t k = 0; k < s->npend; k++) {
        @@PREFIX@@_rs_pend *p = &s->pend[k];
        @@PREFIX@@_run *x = &s->runs[p->run];
        x->pend = -1;
        if (p->start_pos > x->start_pos) {
            x->start_pos = p->start_pos;
            x->start_ts = p->start_ts;
            if (x->heap >= 0)
                @@PREFIX@@_rs_sift(s, x->heap);
        }
    }
    /* the runs of states without a self-loop have moved on (backwards:
     * a state that empties takes the place of the last) */
    for (int32_t i = s->nocc - 1; i >= 0 && s->n > s->nloop; i--) {
        int32_t q = s->occ[i];
        if (d->states[q].loop)
            continue;
        for (int32_t r = s->shead[q], nx; r >= 0; r = nx) {
            nx = s->runs[r].snext;
            if (s->runs[r].stamp != s->pos)
                @@PREFIX@@_rs_remove(s, d, r);
        }
    }
    if (s->hashed && s->n <= @@PREFIX@@_RS_FLAT / 4)
        @@PREFIX@@_rs_rehash(s, d, 0);
    if (s->nb < 4 * s->cap)
        @@PREFIX@@_rs_rebucket(s, d);
    s->pos++;
    return hit;
}

/* The pattern's literal bits (desc lmap) from the file's vector lw. */
static inline uint64_t @@PREFIX@@_rs_gather(const @@PREFIX@@_rs_desc *d, const uint64_t *lw)
{
    uint64_t b = 0;
    for (int32_t f = 0; f < d->nfns; f++)
        b |= (lw[d->lmap[f] >> 6] >> (d->lmap[f] & 63) & 1) << f;
    return b;
}

/* One event of the substream; 1 if a run reached a final state. on and
 * memo are scratch: the transitions of one state, d->nfns literals; lw:
 * the file's literal vector (desc lmap), else NULL. An empty set that no
 * run leaves the start of only counts the event (the common case of
 * short-lived runs: tested here, inlined in the caller). */
static inline int @@PREFIX@@_rs_step(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, const @@PREFIX@@_event *e,
                                     int64_t ts, int32_t *on, uint8_t *memo, uint64_t *overflow, const uint64_t *lw)
{
    if (!d->eval && !d->lmap) {
        memset(memo, 2, (size_t)d->nfns);
        return @@PREFIX@@_rs_step_set(s, d, e, ts, on, memo, overflow);
    }
    s->lits = d->lmap ? @@PREFIX@@_rs_gather(d, lw) : d->eval(e);
    const @@PREFIX@@_rs_state *st = &d->states[d->start];
    int go = s->n > 0;
    for (int32_t k = st->trans; !go && k < st->trans + st->ntrans; k++)
        go = @@PREFIX@@_rs_free(s->lits, d, &d->trans[k], e, memo);
    if (!go) {
        s->pos++;
        return 0;
    }
    if (d->eval1)
        s->lits |= d->eval1(e);
    /* the dense step straight from here (B1: 5 fewer instructions an
       event than through rs_step_set) */
    return d->dense ? @@PREFIX@@_rs_dense_step(s, d, e, ts, memo, overflow)
                    : @@PREFIX@@_rs_step_set(s, d, e, ts, on, memo, overflow);
}

/* At a detection: the start of the canonical match (docs/language.md 3.4)
 * as a number of events of the substream before the detection's, or -1
 * when only the replay can tell. A run stands for a start j (the run
 * begun at e_j) and a path of the automaton over e_j ..; one begins at
 * every event, so each j whose events e_j .. e_i match within the window
 * has a run that reaches a final state at e_i, unless that run was merged
 * or dropped. A merge keeps the later start of two runs with the same
 * state and read registers: they have the same future (guards read no
 * more), and the later start stays in the window at least as long, so
 * the survivor reaches a final state wherever the other would have, with
 * a start no earlier. So best, the greatest start of the runs that reached
 * a final state at e_i (those staying in a final self-loop state included:
 * fmax, which only grows while they stay, and they leave the window oldest
 * first, so the greatest leaves last), is the greatest such j. Under stam
 * and stnm a match is a chain from its first atom, so j is j_1. A run that
 * did not fit (lost: the greatest start of those) may have had a later
 * start than best: then -1. The same for & and ~: the automaton's runs
 * accept exactly the matches. */
static inline int64_t @@PREFIX@@_rs_back(const @@PREFIX@@_runset *s)
{
    return s->best < 0 || s->lost > s->best ? -1 : s->pos - 1 - s->best;
}

/* A run record in a checkpoint: a free one (state -1) by its free-list
 * link alone, a live one whole, with its registers. */
static void @@PREFIX@@_rs_record(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, sremrt_state_io *io, int32_t r)
{
    @@PREFIX@@_run *x = &s->runs[r];
    sremrt_state_i32(io, &x->state);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && (x->state < -1 || x->state >= d->nstates))
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
    if (x->state < 0) {
        sremrt_state_i32(io, &x->snext);
        return;
    }
    int32_t hash = (int32_t)x->hash, *links[] = {&x->heap, &x->sprev, &x->snext, &x->kb, &x->kprev,
                                                 &x->knext, &x->hnext, &x->pend};
    sremrt_state_i64(io, &x->start_pos);
    sremrt_state_i64(io, &x->start_ts);
    sremrt_state_i64(io, &x->stamp);
    sremrt_state_i32(io, &hash);
    x->hash = (uint32_t)hash;
    for (size_t k = 0; k < sizeof links / sizeof links[0]; k++)
        sremrt_state_i32(io, links[k]);
    sremrt_state_bytes(io, @@PREFIX@@_rs_regs(s, d, r), (size_t)d->rb);
}

/* n int32 of an index array. */
static void @@PREFIX@@_rs_ints(sremrt_state_io *io, int32_t *a, int32_t n)
{
    for (int32_t i = 0; i < n && io->err == SREMRT_STATE_OK; i++)
        sremrt_state_i32(io, &a[i]);
}

/* Checkpoints (sremrt/state.h): whether the set has its block, its
 * capacity and counters, then what the block holds: each run record (run
 * numbers, lists, heap and buckets are indexes, kept as they are, so the
 * loaded set steps exactly as the saved one), the parts of the arrays in
 * use. Load gives the set a block of the saved capacity (refused above
 * limit). */
static void @@PREFIX@@_rs_checkpoint(@@PREFIX@@_runset *s, const @@PREFIX@@_rs_desc *d, sremrt_state_io *io,
                                     const sremrt_alloc *a, int32_t limit)
{
    int32_t has = s->cur != NULL, cap = s->cap, ns = d->nstates;
    sremrt_state_i32(io, &has);
    sremrt_state_i32(io, &cap);
    if (io->err != SREMRT_STATE_OK)
        return;
    if (io->mode == SREMRT_STATE_LOAD && (!has || !s->cur || s->cap != cap)) {
        if (has && (cap < 1 || cap > INT32_MAX / 16 || (limit > 0 && cap > limit))) {
            sremrt_state_fail(io, cap >= 1 && cap <= INT32_MAX / 16 ? SREMRT_STATE_ECONFIG : SREMRT_STATE_EFORMAT);
            return;
        }
        @@PREFIX@@_rs_release(s, d);
        memset(s, 0, sizeof *s);
        if (has && @@PREFIX@@_rs_alloc_cap(s, d, a, limit, cap) != 0)
            sremrt_state_fail(io, SREMRT_STATE_EMEMORY);
    }
    if (!has || io->err != SREMRT_STATE_OK)
        return;
    sremrt_state_i64(io, &s->pos);
    sremrt_state_i64(io, &s->fmax);
    sremrt_state_i64(io, &s->lost);
    sremrt_state_u64(io, &s->lits);
    s->flip = s->dcur != s->dense;   /* the dense step swaps the halves alone */
    int32_t *counts[] = {&s->nb, &s->n, &s->nheap, &s->nloop, &s->nnext, &s->npend,
                         &s->nfinal, &s->nocc, &s->hashed, &s->flip, &s->free_};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        sremrt_state_i32(io, counts[k]);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK &&
        (s->nb != 4 * cap || s->nheap < 0 || s->nheap > 2 * cap || s->npend < 0 || s->npend > cap || s->nocc < 0 ||
         s->nocc > ns || s->free_ < -1 || s->free_ >= 2 * cap || (s->flip != 0 && s->flip != 1) ||
         (d->dense && (s->n < 0 || s->n > ns)))) {
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
        return;
    }
    @@PREFIX@@_rs_halves(s, d);
    for (int32_t r = 0; r < 2 * cap && io->err == SREMRT_STATE_OK; r++)
        @@PREFIX@@_rs_record(s, d, io, r);
    sremrt_state_bytes(io, s->pend, (size_t)s->npend * sizeof *s->pend);
    if (d->dense)
        sremrt_state_bytes(io, s->dense, (size_t)ns * 4 * sizeof *s->dense);
    int keyed = 0;
    for (int32_t q = 0; q < ns; q++)
        keyed |= d->states[q].run_key != NULL;
    @@PREFIX@@_rs_ints(io, s->shead, ns);
    @@PREFIX@@_rs_ints(io, s->occ, 2 * ns);
    @@PREFIX@@_rs_ints(io, s->heap, s->nheap);
    if (s->hashed)   /* else every bucket is empty (-1) */
        @@PREFIX@@_rs_ints(io, s->hhead, s->nb);
    if (keyed)
        @@PREFIX@@_rs_ints(io, s->khead, s->nb);
}

