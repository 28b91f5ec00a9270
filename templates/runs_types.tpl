/* ======== runs engine: types (templates/runs_types.tpl) ===================== */

/* One live run of a runs pattern. Its registers (the attributes guards
 * read, a pattern's @@PREFIX@@_pN_regs) are the rb bytes at regs + i * rb. */
typedef struct @@PREFIX@@_run {
    int64_t start_pos, start_ts;   /* its first event: substream position, timestamp */
    int64_t stamp;                 /* position of the event that stored it */
    uint32_t hash;                 /* of its state and registers (set hashed) */
    int32_t state;
    int32_t heap;                  /* its place in the heap by start, -1: not there */
    int32_t sprev, snext;          /* the runs of its state (free list: snext) */
    int32_t kb, kprev, knext;      /* keyed state: its key bucket (-1 none) and the runs there */
    int32_t hnext;                 /* bucket chain of the duplicate check */
    int32_t pend;                  /* its pending merge, or -1 */
} @@PREFIX@@_run;

/* A merge into a run that was already in the set before the event: its
 * later start applies once every run has stepped. */
typedef struct @@PREFIX@@_rs_pend {
    int64_t start_pos, start_ts;
    int32_t run;
} @@PREFIX@@_rs_pend;

/* The runs of one substream, all in one block from the allocator hook:
 * 2 * cap run records (the runs before an event and the new ones), their
 * registers, cap pending merges, the state lists and the hash buckets.
 * Hosted, the block starts small and doubles when full, up to limit;
 * firmware allocates cap = limit once. */
typedef struct @@PREFIX@@_runset {
    void *cur;                     /* the block; NULL until allocated */
    sremrt_alloc alloc;            /* where it came from (growth, release) */
    @@PREFIX@@_run *runs;
    unsigned char *regs;           /* [(2 cap + 2) rb]: the last two are scratch and empty */
    @@PREFIX@@_rs_pend *pend;
    int32_t *shead, *hhead, *khead;   /* [nstates], [nb], [nb] */
    int32_t *heap;                 /* [2 cap]: runs in self-loop states, a min-heap by start (with a window) */
    int64_t *dense;                /* [4 nstates]: register-free patterns, below */
    int32_t *occ;                  /* [2 nstates]: occupied states (dense: now and next) */
    int64_t pos;                   /* substream position of the next event */
    int64_t best;                  /* the greatest start of a run that reached a final state at the last event */
    int64_t fmax;                  /* the greatest start of the runs in final self-loop states (-1: none) */
    int64_t lost;                  /* the greatest start of a run dropped when the set was full (-1: none) */
    uint64_t lits;                 /* the event's register-free literals (desc eval) */
    int32_t cap, nb, n, nheap;     /* capacity, buckets, runs stored, runs in the heap */
    int32_t limit;                 /* most runs after an event (0: none, hosted) */
    int32_t nloop, nnext, npend;   /* runs in self-loop states, in the set after the event, merges */
    int32_t nfinal, nocc;          /* runs in final self-loop states, occupied states */
    int32_t hashed;                /* runs are in the hash buckets (above RS_FLAT runs) */
    int32_t flip;                  /* dense: the half of dense and occ that is current (set at a checkpoint) */
    /* dense: the halves of dense and occ, current and next, as flip says
     * (rs_halves; the step swaps them without computing them) */
    int64_t *dcur, *dnext;
    int32_t *ocur, *onext;
    int32_t free_;
} @@PREFIX@@_runset;

/* Bytes of a run set's block: cap runs, nstates states, rb register bytes. */
#define @@PREFIX@@_RUNS_BYTES(cap, nstates, rb) \
    ((size_t)(cap) * 2 * (sizeof(@@PREFIX@@_run) + (size_t)(rb)) + 2 * (size_t)(rb) + \
     (size_t)(cap) * sizeof(@@PREFIX@@_rs_pend) + (size_t)(nstates) * 4 * sizeof(int64_t) + \
     ((size_t)(nstates) * 3 + (size_t)(cap) * 10) * sizeof(int32_t))

