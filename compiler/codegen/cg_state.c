/* cg_state.c: each declaration's part of the checkpoint walk -> the
 * STATE_CODE section (PREFIX_state_io in templates/matcher.c.tpl); the
 * hash that ties a checkpoint to the generated code. One walk serves
 * state_size, state_save and state_load (runtime/include/sremrt/state.h),
 * so what is saved and what is loaded cannot drift apart. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <inttypes.h>
#include <string.h>

#include "sremrt/state.h"

/* The loop over a partition table's keys in slot order: the count, room
 * for it (hosted: the table and its arrays grow as for a new key), the
 * keys; the caller writes the body, one per-key field a line (a new
 * per-key array is one more line there), and closes the two blocks. */
static void open_keys(Cg *g, const char *keys, const char *what, const char *name)
{
    Buf *st = &g->sec[CG_STATE];
    cg_line(st, 0, "{ /* %s %s: its partition table, then each key's state in slot order */", what, name);
    cg_line(st, 1, "int32_t n = m->%s.count;", keys);
    cg_line(st, 1, "sremrt_state_count(io, &n, SREMRT_KEYMAP_MAX);");
    if (!g->o->freestanding) {
        cg_line(st, 1, "while (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && m->%s.capacity < n &&",
                keys);
        cg_line(st, 3, "%s_%s_grow(m) == 0)", g->P, keys);
        cg_line(st, 2, "continue;   /* room for n keys, as n new keys would make */");
    }
    cg_line(st, 1, "sremrt_state_keymap(io, &m->%s, n);", keys);
    if (!g->o->freestanding)
        cg_line(st, 1, "sremrt_state_int(io, &m->%s_stuck);", keys);
    cg_line(st, 1, "for (int32_t k = 0; k < n && io->err == SREMRT_STATE_OK; k++) {");
}

static void close_keys(Cg *g)
{
    cg_line(&g->sec[CG_STATE], 1, "}");
    cg_line(&g->sec[CG_STATE], 0, "}");
}

/* Pattern i: its states (generated structs of numbers, saved as they are;
 * a runs pattern's sets through P_rs_state), a partitioned one's key
 * rings for start and bindings, and its explore clause. */
void cg_state_pattern(Cg *g, int i, const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const char *P = g->P;
    Buf *st = &g->sec[CG_STATE];
    bool runs = plan->strategy == STRATEGY_RUNS;
    char one[48];   /* the pattern's state, or a key's */
    if (p->explore.present)
        cg_line(st, 0, "sremrt_state_explore(io, &m->p%d_ex);   /* pattern %s: its trie */", i, p->name);
    if (!p->partition_attr) {
        if (runs)
            cg_line(st, 0, "%s_rs_checkpoint(&m->p%d, &%s_p%d_desc, io, &m->cfg.alloc, m->cfg.max_runs);   /* pattern %s */",
                    P, i, P, i, p->name);
        else
            cg_line(st, 0, "sremrt_state_bytes(io, &m->p%d, sizeof m->p%d);   /* pattern %s */", i, i, p->name);
        snprintf(one, sizeof one, "m->p%d", i);
        cg_state_forecast(g, plan, one, 0);
        if (p->explore.present)
            cg_line(st, 0, "sremrt_state_explore_part(io, &m->p%d_ex, &m->p%d_xp);", i, i);
        return;
    }
    char keys[32];
    snprintf(keys, sizeof keys, "p%d_keys", i);
    open_keys(g, keys, "pattern", p->name);
    if (runs)
        cg_line(st, 2, "%s_rs_checkpoint(&m->p%d[k], &%s_p%d_desc, io, &m->cfg.alloc, m->cfg.max_runs);", P, i, P, i);
    else
        cg_line(st, 2, "sremrt_state_bytes(io, &m->p%d[k], sizeof m->p%d[k]);", i, i);
    snprintf(one, sizeof one, "m->p%d[k]", i);
    cg_state_forecast(g, plan, one, 2);
    if (cg_canon_keyed(g, p)) {   /* the key's last events: n, then the kept ones */
        cg_line(st, 2, "%s_p%d_h *h = &m->p%d_h[k];", P, i, i);
        cg_line(st, 2, "int64_t H = (int64_t)(sizeof h->idx / sizeof h->idx[0]);");
        cg_line(st, 2, "sremrt_state_i64(io, &h->n);");
        cg_line(st, 2, "%s_state_events(io, h->idx, h->ev, h->n - (h->n < H ? h->n : H), h->n, H);", P);
    }
    if (p->explore.present) {   /* init makes the key's window at its first event: so does load */
        cg_line(st, 2, "if (io->mode == SREMRT_STATE_LOAD)");
        cg_line(st, 3, "(void)sremrt_explore_part_init(&m->p%d_ex, &m->p%d_xp[k], &m->cfg.alloc);", i, i);
        cg_line(st, 2, "sremrt_state_explore_part(io, &m->p%d_ex, &m->p%d_xp[k]);", i, i);
    }
    close_keys(g);
}

/* Episode j: its counter, or a partitioned one's table and counters (each
 * made at the key's first event, so load makes it before reading it). */
void cg_state_episode(Cg *g, int j, const AstEpisode *ep)
{
    Buf *st = &g->sec[CG_STATE];
    if (!ep->partition_attr) {
        cg_line(st, 0, "sremrt_state_episode(io, &m->e%d);   /* episode %s */", j, ep->name);
        return;
    }
    char keys[32];
    snprintf(keys, sizeof keys, "e%d_keys", j);
    open_keys(g, keys, "episode", ep->name);
    cg_line(st, 2, "if (io->mode == SREMRT_STATE_LOAD)");
    cg_line(st, 3, "(void)%s_e%d_start(&m->e%d[k], &m->cfg);   /* k = 0 if refused: load says so */", g->P, j, j);
    cg_line(st, 2, "sremrt_state_episode(io, &m->e%d[k]);", j);
    close_keys(g);
}

/* The shared ring of the last events (unpartitioned patterns' start and
 * bindings), after the index: its capacity when it grows, then the
 * events it holds, oldest first. */
void cg_state_hist(Cg *g, bool grow)
{
    Buf *st = &g->sec[CG_STATE];
    const char *P = g->P;
    char cap[32];
    snprintf(cap, sizeof cap, grow ? "m->hist_cap" : "%" PRId64, g->canon_hist);
    cg_line(st, 0, "{ /* the last events, for the start and bindings of match records */");
    if (grow) {
        cg_line(st, 1, "int64_t cap = m->hist_cap;");
        cg_line(st, 1, "sremrt_state_i64(io, &cap);");
        cg_line(st, 1, "sremrt_state_int(io, &m->hist_stuck);");
        cg_line(st, 1, "if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && cap != m->hist_cap) {");
        cg_line(st, 2, "%s_event *h = cap > m->hist_cap && (uint64_t)cap <= SIZE_MAX / sizeof *h", P);
        cg_line(st, 6, "? sremrt_alloc_get(&m->cfg.alloc, (size_t)cap * sizeof *h, 0) : NULL;");
        cg_line(st, 2, "if (!h) {");
        cg_line(st, 3, "sremrt_state_fail(io, cap > m->hist_cap ? SREMRT_STATE_EMEMORY : SREMRT_STATE_EFORMAT);");
        cg_line(st, 2, "} else {   /* a fresh matcher's ring is hist0 */");
        cg_line(st, 3, "m->hist = h;");
        cg_line(st, 3, "m->hist_cap = cap;");
        cg_line(st, 2, "}");
        cg_line(st, 1, "}");
    }
    cg_line(st, 1, "int64_t c = m->index < %s ? m->index : %s;", cap, cap);
    if (cg_canon_linear(g)) {   /* in the order of the stream: its slots (a load puts them at hist[0]) */
        cg_line(st, 1, "if (io->mode == SREMRT_STATE_LOAD)");
        cg_line(st, 2, "m->hist_o = m->index + 1 - %s;", cap);
        cg_line(st, 1, "%s_state_events(io, NULL, m->hist, m->index - c + 1 - m->hist_o, m->index + 1 - m->hist_o, %" PRId64 ");",
                P, cg_canon_ring_cap(g));
    } else {
        cg_line(st, 1, "%s_state_events(io, NULL, m->hist, m->index - c + 1, m->index + 1, %s);", P, cap);
    }
    cg_line(st, 0, "}");
}

/* What a checkpoint must match: the event layout, the state types, the
 * matcher struct and every step, as generated (so another file, another
 * plan or layout, or other capacities built in give another hash). */
uint64_t cg_state_hash(const char *const *texts, int n)
{
    uint64_t h = SREMRT_STATE_FNV_SEED;
    for (int k = 0; k < n; k++)
        if (texts[k])
            h = sremrt_state_fnv(h, texts[k], strlen(texts[k]) + 1);
    return h;
}
