/* cg_decls.c: episodes and explore clauses -> counter configurations, element masks and push code. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- episodes and explore clauses ------------------------------------------------------ */

/* The C expression of the event's timestamp, "0" without one. */
static void put_ts(Cg *g, FILE *out)
{
    if (g->schema->ts_attr < 0) {
        fputs("0", out);
        return;
    }
    fputs("e->", out);
    cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
}

/* The enum attribute every element of ep names by shorthand, or NULL. */
static const AstAttr *episode_table_attr(const AstEpisode *ep)
{
    const AstAttr *attr = NULL;
    for (int m = 0; m < ep->nelements; m++) {
        const AstRegex *x = ep->elements[m];
        if (x->atom != ATOM_VALUE || !x->value_attr || x->value_attr->kind != ATTR_ENUM ||
            (attr && x->value_attr != attr))
            return NULL;
        attr = x->value_attr;
    }
    return attr;
}

/* No event satisfies two elements of ep (sound; see docs/episodes.md). */
static bool episode_exclusive(Cg *g, const AstEpisode *ep)
{
    MtTable t;
    mt_init(&t, g->arena, NULL, 0);
    const MtFormula *f[EPISODE_MAX_ELEMENTS];
    for (int m = 0; m < ep->nelements; m++)
        f[m] = mt_condition(&t, ep->elements[m]->cond, NULL);
    bool excl = true;
    for (int a = 0; a < ep->nelements && excl; a++)
        for (int b = a + 1; b < ep->nelements && excl; b++)
            excl = mt_disjoint(&t, f[a], f[b]);
    return excl;
}

/* P_eJ_mask: bit m-1 set iff the event satisfies element m. Shorthands of
 * one enum become a table indexed by its value; otherwise each distinct
 * condition is one function, called once. */
static void emit_episode_mask(Cg *g, int j, const AstEpisode *ep)
{
    Buf *code = &g->sec[CG_CODE];
    FILE *out = code->f;
    const char *P = g->P;
    const AstAttr *attr = episode_table_attr(ep);
    if (attr) {
        cg_line(code, 0, "/* element bits by value of %s */", attr->name);
        cg_begin(code, 0);
        fprintf(out, "static const uint32_t %s_e%d_tab[%d] = {", P, j, attr->nvalues);
        for (int v = 0; v < attr->nvalues; v++) {
            uint32_t bits = 0;
            for (int m = 0; m < ep->nelements; m++)
                if (ep->elements[m]->value_index == v)
                    bits |= 1u << m;
            fprintf(out, "%s0x%" PRIx32 "u", v ? ", " : "", bits);
        }
        fputs("};", out);
        cg_end(code);
        cg_blank(code);
        cg_line(code, 0, "static uint32_t %s_e%d_mask(const %s_event *e)", P, j, P);
        cg_line(code, 0, "{");
        cg_begin(code, 1);
        fputs("uint32_t v = (uint32_t)e->", out);
        cg_put_field(out, attr);
        fputs(";", out);
        cg_end(code);
        cg_line(code, 1, "return v < %du ? %s_e%d_tab[v] : 0;", attr->nvalues, P, j);
        cg_line(code, 0, "}");
        cg_blank(code);
        return;
    }
    int same[EPISODE_MAX_ELEMENTS];     /* first element with the same condition text */
    char *text[EPISODE_MAX_ELEMENTS];
    for (int m = 0; m < ep->nelements; m++) {
        size_t len = 0;
        FILE *f = open_memstream(&text[m], &len);
        cg_put_expr_comment(f, ep->elements[m]->cond);
        fclose(f);
        same[m] = m;
        for (int n = 0; n < m; n++)
            if (strcmp(text[n], text[m]) == 0) {
                same[m] = n;
                break;
            }
        if (same[m] == m) {
            char fname[CG_NAME_MAX];
            snprintf(fname, sizeof fname, "%s_e%d_x%d", P, j, m);
            fprintf(out, "/* element %d */\n", m + 1);
            cg_emit_cond_fn(out, P, fname, "const void *s", ep->elements[m]->cond, REG_NONE, NULL, 1);
        }
    }
    cg_line(code, 0, "static uint32_t %s_e%d_mask(const %s_event *e)", P, j, P);
    cg_line(code, 0, "{");
    cg_line(code, 1, "uint32_t mask = 0;");
    for (int m = 0; m < ep->nelements; m++) {
        if (same[m] != m)
            continue;
        uint32_t bits = 0;
        for (int n = m; n < ep->nelements; n++)
            if (same[n] == m)
                bits |= 1u << n;
        cg_line(code, 1, "if (%s_e%d_x%d(e, NULL))", P, j, m);
        cg_line(code, 2, "mask |= 0x%" PRIx32 "u;", bits);
    }
    cg_line(code, 1, "return mask;");
    cg_line(code, 0, "}");
    cg_blank(code);
    for (int m = 0; m < ep->nelements; m++)
        free(text[m]);
}

/* Push code: counter c of episode j sees the event at position pos (an
 * index of its substream; a partition's occurrences still record global
 * indices, m->index), and an episode record for the partition key. */
static void put_episode_push(Cg *g, int j, const AstEpisode *ep, const char *pos, const char *key, int level)
{
    Buf *pu = &g->sec[CG_PUSH];
    bool global = strcmp(pos, "m->index") == 0;
    cg_begin(pu, level);
    fprintf(pu->f, "if (c->cfg.k && sremrt_episode_push%s(c, %s, ", global ? "" : "_index", pos);
    put_ts(g, pu->f);
    fprintf(pu->f, ", %s_e%d_mask(e)%s) > 0)", g->P, j, global ? "" : ", m->index");
    cg_end(pu);
    cg_begin(pu, level + 1);
    fprintf(pu->f, "%s_episode(m, c, ", g->P);
    cg_put_decl(pu->f, g, ep->name);
    fprintf(pu->f, ", e, %s, %" PRId64 ");", key, ep->has_alert ? ep->alert_threshold : 0);
    cg_end(pu);
}

/* The counter(s) of episode j: mask, configuration, matcher fields, and
 * the init, push, finish and free code. */
void cg_emit_episode(Cg *g, int j, const AstEpisode *ep)
{
    const char *P = g->P;
    FILE *out = g->code.f;
    bool part = ep->partition_attr != NULL;
    bool distinct = ep->hdr.freq_given && ep->hdr.freq == FREQ_DISTINCT;
    bool excl = episode_exclusive(g, ep);
    bool time = ep->hdr.window.kind == WIN_TIME;

    fprintf(out, "/* ---- episode %s (e%d): %d elements, frequency %s, ", ep->name, j, ep->nelements,
            distinct ? "distinct" : "nonoverlapped");
    cg_put_window(out, &ep->hdr.window);
    if (part)
        ast_put_partition(out, ep->partition_attrs, ep->npartition);
    fprintf(out, "; elements %s ---- */\n\n",
            excl ? "pairwise exclusive (proved)" : "may overlap (one event can satisfy two)");
    emit_episode_mask(g, j, ep);
    Buf *code = &g->sec[CG_CODE];
    cg_line(code, 0, "static int %s_e%d_start(sremrt_episode *c, const %s_config *cfg)", P, j, P);
    cg_line(code, 0, "{");
    cg_line(code, 1, "sremrt_episode_config ec;");
    cg_line(code, 1, "memset(&ec, 0, sizeof ec);");
    cg_line(code, 1, "ec.k = %d;", ep->nelements);
    cg_line(code, 1, "ec.freq = %s;", distinct ? "SREMRT_EPISODE_DISTINCT" : "SREMRT_EPISODE_NONOVERLAPPED");
    cg_line(code, 1, "ec.window = %s;", time ? "SREMRT_EPISODE_TIME" : "SREMRT_EPISODE_EVENTS");
    cg_line(code, 1, "ec.width = %" PRId64 ";", ep->hdr.window.value);
    cg_line(code, 1, "ec.flags = %s;", excl ? "SREMRT_EPISODE_EXCLUSIVE" : "0");
    cg_line(code, 1, "ec.list_cap = cfg->occmap_cap;");
    cg_line(code, 1, "ec.budget = cfg->distinct_budget;");
    cg_line(code, 1, "if (sremrt_episode_init(c, &ec, &cfg->alloc) != 0) {");
    cg_line(code, 2, "memset(c, 0, sizeof *c);   /* k = 0: not counting */");
    cg_line(code, 2, "return -1;");
    cg_line(code, 1, "}");
    cg_line(code, 1, "return 0;");
    cg_line(code, 0, "}");
    cg_blank(code);

    sremrt_episode_config ec = {ep->nelements, distinct ? SREMRT_EPISODE_DISTINCT : SREMRT_EPISODE_NONOVERLAPPED,
                                time ? SREMRT_EPISODE_TIME : SREMRT_EPISODE_EVENTS, ep->hdr.window.value,
                                excl ? SREMRT_EPISODE_EXCLUSIVE : 0u, g->o->caps.occmap_cap,
                                g->o->caps.distinct_budget};
    size_t counter = sremrt_episode_bytes(&ec);
    if (part) {
        cg_arena_keymap(g, "episode", ep->name, ep->npartition);
        cg_arena_term(g, "episode counters", "%d * sizeof(sremrt_episode)", cg_keys(g));
        cg_arena_runtime(g, "episode", ep->name, cg_keys(g), counter);
    } else {
        cg_arena_runtime(g, "episode", ep->name, 1, counter);
    }

    Buf *f = &g->sec[CG_FIELDS], *in = &g->sec[CG_INIT], *fr = &g->sec[CG_FREE], *pu = &g->sec[CG_PUSH],
        *fi = &g->sec[CG_FINISH];
    if (part) {
        int a = ep->partition_attr->index;
        char keys[32], array[32];
        snprintf(keys, sizeof keys, "e%d_keys", j);
        snprintf(array, sizeof array, "e%d", j);
        cg_put_key_table(g, keys, "episode", ep->name, ep->npartition);
        cg_line(fr, 0, "if (m->e%d)", j);   /* each key's counter, before the array goes */
        cg_line(fr, 1, "for (int32_t i = 0; i < m->e%d_keys.count; i++)", j);
        cg_line(fr, 2, "sremrt_episode_free(&m->e%d[i]);", j);
        cg_put_key_array(g, keys, array, "sremrt_episode", "k = 0 until the key's first event");
        char first[32];   /* sharded: each key's first event, the order of summaries across shards */
        snprintf(first, sizeof first, "e%d_first", j);
        if (g->sharded)
            cg_put_key_array(g, keys, first, "int64_t", "the index of the key's first event");
        cg_line(fr, 0, "sremrt_keymap_free(&m->e%d_keys);", j);
        const char *arrays[2] = {array, first};
        cg_emit_key_grow(g, "episode", ep->name, keys, arrays, g->sharded ? 2 : 1);
        cg_put_key_slot(g, "episode", ep->name, ep->partition_attrs, ep->npartition, keys, true);
        cg_line(pu, 2, "sremrt_episode *c = &m->e%d[slot];", j);
        cg_line(pu, 2, "if (inserted && %s_e%d_start(c, &m->cfg) != 0)", P, j);
        cg_line(pu, 3, "m->ovf[%d][SREMRT_OVF_MEMORY]++;", g->decl);
        if (g->sharded) {
            cg_line(pu, 2, "if (inserted)");
            cg_line(pu, 3, "m->%s[slot] = m->index;", first);
        }
        char key[CG_NAME_MAX + 32];
        snprintf(key, sizeof key, "&%s_attrs[%d], key", P, a);
        put_episode_push(g, j, ep, "(int64_t)c->events + 1", key, 2);
        cg_line(pu, 1, "}");
        cg_line(pu, 0, "}");
        cg_line(fi, 0, "for (int32_t i = 0; m->e%d && i < m->e%d_keys.count; i++)", j, j);
        cg_line(fi, 1, "if (m->e%d[i].cfg.k)", j);
        cg_begin(fi, 2);
        fprintf(fi->f, "%s_episode_summary(m, &m->e%d[i], ", P, j);
        cg_put_decl(fi->f, g, ep->name);
        if (ep->npartition > 1)   /* a composite key: its slot (NAME_ckey) */
            fprintf(fi->f, ", &%s_attrs[%d], i, ", P, a);
        else
            fprintf(fi->f, ", &%s_attrs[%d], sremrt_keymap_key(&m->e%d_keys, i), ", P, a, j);
        if (g->sharded)
            fprintf(fi->f, "m->%s[i], ", first);
        else
            fputs("0, ", fi->f);
        fprintf(fi->f, "m->ovf[%d]);", g->decl);
        cg_end(fi);
    } else {
        cg_line(f, 0, "sremrt_episode e%d;   /* episode %s */", j, ep->name);
        cg_line(in, 0, "if (%s_e%d_start(&m->e%d, &m->cfg) != 0)", P, j, j);
        cg_line(in, 1, "return -1;");
        cg_line(fr, 0, "sremrt_episode_free(&m->e%d);", j);
        cg_line(pu, 0, "{ /* episode %s */", ep->name);
        cg_line(pu, 1, "sremrt_episode *c = &m->e%d;", j);
        put_episode_push(g, j, ep, "m->index", "NULL, 0", 1);
        cg_line(pu, 0, "}");
        cg_line(fi, 0, "if (m->e%d.cfg.k)", j);
        cg_begin(fi, 1);
        fprintf(fi->f, "%s_episode_summary(m, &m->e%d, ", P, j);
        cg_put_decl(fi->f, g, ep->name);
        fprintf(fi->f, ", NULL, 0, 0, m->ovf[%d]);", g->decl);
        cg_end(fi);
    }
}

_Static_assert(EXPLORE_MAX_LENGTH == SREMRT_EXPLORE_MAX_M && EXPLORE_MAX_VALUES == SREMRT_EXPLORE_MAX_VALUES,
               "the checker's explore limits are the runtime's");

/* ---- the generated counting step of an explore clause ------------------------------------ */

/* What the step knows at compile time: docs/explore.md "Generated counting
 * step". The runtime's default algorithm with every loop over the pattern
 * unrolled into statements on constant counter indexes. The counters,
 * ring indexes and the trie's path counts are fields of a locals struct
 * (NAME_pN_xl) that a loop keeps in registers: xload before it, xsave
 * after it and around every call into the runtime. */
typedef struct XStep {
    Buf *b;
    const int32_t *seq;   /* ET_1..ET_m, value indexes */
    int m, nvalues;
    bool stam, windowed;
    const char *P;        /* prefix */
    int i;                /* pattern index */
    bool part;            /* partitioned: a state per key (xpush) */
} XStep;

/* Positions k (1-based, ascending) with ET_k == v; returns how many. */
static int xocc(const XStep *x, int v, int *occ)
{
    int n = 0;
    for (int k = 1; k <= x->m; k++)
        if (x->seq[k - 1] == v)
            occ[n++] = k;
    return n;
}

/* stam counter idx = a * (m+1) + b as the step spells it: the empty infix
 * W[a][a-1] is always 1 (explore.c part_reset), so a constant, not a load;
 * the rest are the locals' fields. buf holds at least 24 bytes. */
static const char *xw(const XStep *x, int idx, char *buf)
{
    int M = x->m + 1;
    if (idx % M == idx / M - 1)
        return "(uint64_t)1";
    snprintf(buf, 24, "x->w%d", idx);
    return buf;
}

/* stam, an event of type v enters: W[a][b] += W[a][b-1] for each b with
 * ET_b == v (descending), a = 1..b (explore.c sw_enter). */
static void xstep_enter(const XStep *x, int v, int level)
{
    int occ[SREMRT_EXPLORE_MAX_M], n = xocc(x, v, occ), M = x->m + 1;
    char l[24], r[24];
    for (int i = n - 1; i >= 0; i--)
        for (int a = 1; a <= occ[i]; a++)
            cg_line(x->b, level, "%s += %s;", xw(x, a * M + occ[i], l), xw(x, a * M + occ[i] - 1, r));
}

/* stam, the oldest event, of type v, leaves: W[a][b] -= W'[a+1][b] for
 * b = first occurrence..m, a with ET_a == v descending (explore.c sw_leave);
 * each subtrahend ANDed with `mask` when there is one. Returns the number
 * of statements (written only when level >= 0). */
static int xstep_leave(const XStep *x, int v, int level, const char *mask)
{
    int occ[SREMRT_EXPLORE_MAX_M], n = xocc(x, v, occ), M = x->m + 1, k = 0;
    char l[24], r[24];
    for (int b = occ[0]; b <= x->m; b++)
        for (int i = n - 1; i >= 0; i--)
            if (occ[i] <= b) {
                k++;
                if (level >= 0)
                    cg_line(x->b, level, "%s -= %s%s%s;", xw(x, occ[i] * M + b, l), xw(x, (occ[i] + 1) * M + b, r),
                            mask ? " & " : "", mask ? mask : "");
            }
    return k;
}

/* Whether v is some ET_k (else a candidate X). */
static bool xin_pattern(const XStep *x, int v)
{
    int occ[SREMRT_EXPLORE_MAX_M];
    return xocc(x, v, occ) > 0;
}

/* Leave statements of all pattern types together (stam). */
static int xstep_leave_all(const XStep *x)
{
    int k = 0;
    for (int v = 0; v < x->nvalues; v++)
        if (xin_pattern(x, v))
            k += xstep_leave(x, v, -1, NULL);
    return k;
}

/* Most leave statements written masked: each costs a few instructions on
 * every event, where the branches they replace cost a misprediction on
 * some; past this many the switch is cheaper. */
#define XSTEP_MASKED_MAX 12

/* Whether the masked leave beats the branches: always for stnm (it only
 * moves the head); for stam when at most XSTEP_MASKED_MAX statements and
 * at least a fifth of the enum's values are pattern types, the share of
 * events whose entry later leaves if the types are even: B3 runs 1.2x
 * faster masked at K = 10 (3 of 10) and 0.85x at K = 26 (3 of 26), where
 * the branches are mostly predicted. */
static bool xstep_masked_pays(const XStep *x)
{
    int npat = 0;
    if (!x->stam)
        return true;
    for (int v = 0; v < x->nvalues; v++)
        npat += xin_pattern(x, v);
    return xstep_leave_all(x) <= XSTEP_MASKED_MAX && npat * 5 >= x->nvalues;
}

/* A count window: whether the oldest entry leaves (about one event in
 * three in the benchmarks, at random) and its type are data, not branches:
 * lv is all ones when it leaves, each type's mask lv and its code's test,
 * and every type's leave update subtracts its terms ANDed with that mask,
 * so only the leaving type's change anything. The ring's emptiness stays a
 * branch (predictable, and an empty ring's head slot may never have been
 * written). */
static void xstep_leave_masked(const XStep *x)
{
    Buf *b = x->b;
    cg_line(b, 1, "if (x->size > 0) {   /* at most one entry leaves: no branch on it */");
    cg_line(b, 2, "uint64_t lv = (uint64_t)0 - (uint64_t)(st->keys[x->head] < bound);");
    if (x->stam) {
        cg_line(b, 2, "int32_t lc = st->codes[x->head];");
        for (int v = 0; v < x->nvalues; v++)
            if (xin_pattern(x, v))
                cg_line(b, 2, "uint64_t l%d = lv & ((uint64_t)0 - (uint64_t)(lc == %d));", v, v);
        for (int v = 0; v < x->nvalues; v++) {
            char mask[32];
            if (!xin_pattern(x, v))
                continue;
            snprintf(mask, sizeof mask, "l%d", v);
            xstep_leave(x, v, 2, mask);
        }
    }
    cg_line(b, 2, "o = x->head + (int64_t)(lv & 1);");
    cg_line(b, 2, "x->head = o == cap ? 0 : o;");
    cg_line(b, 2, "x->size -= (int64_t)(lv & 1);");
    cg_line(b, 1, "}");
}

/* The statements of a call into the runtime from the step: the locals go
 * to memory first (the runtime reads and may change the state) and come
 * back after it unless `keep` (the call changes no counter); then the
 * step returns the call's result. */
static void xstep_call(const XStep *x, int level, const char *call, bool keep)
{
    cg_line(x->b, level, "%s_p%d_xsave(ex, st, x);", x->P, x->i);
    if (keep) {
        cg_line(x->b, level, "return %s;", call);
        return;
    }
    cg_line(x->b, level, "r = %s;", call);
    cg_line(x->b, level, "%s_p%d_xload(ex, st, x, x->slack);", x->P, x->i);
    cg_line(x->b, level, "return r;");
}

/* A new entry at the back of the window ring, slot j, with the event's
 * key; a full ring first makes room as the runtime does. */
static void xstep_ring_push(const XStep *x, int level)
{
    cg_line(x->b, level, "if (x->size == cap) {");
    cg_line(x->b, level + 1, "%s_p%d_xsave(ex, st, x);", x->P, x->i);
    cg_line(x->b, level + 1, "sremrt_explore_make_room(ex, st);");
    cg_line(x->b, level + 1, "%s_p%d_xload(ex, st, x, x->slack);", x->P, x->i);
    cg_line(x->b, level, "}");
    cg_line(x->b, level, "j = x->head + x->size++;");
    cg_line(x->b, level, "j -= j >= cap ? cap : 0;");
    cg_line(x->b, level, "st->keys[j] = key;");
}

/* The step record of a runtime call (take, due): what the event counted. */
static void xstep_record(const XStep *x, int level, const char *pat, const char *ext, const char *var)
{
    cg_line(x->b, level, "out->pattern = %s;", pat);
    cg_line(x->b, level, "out->extension = %s;", ext);
    cg_line(x->b, level, "out->variation = %s;", var);
    cg_line(x->b, level, "out->nsuggest = 0;");
}

/* The trie update of c matches of p (take's fast path with the node ids
 * known: path[k] == k, explore.h): every node from the root to p, in the
 * locals (tot: nodes 0..m-1, which every count passes through; pm, pf:
 * node m); c is 0 for the other pattern types (no branch). */
static void xstep_pattern_to_trie(const XStep *x)
{
    cg_line(x->b, 1, "if (x->tot > UINT64_MAX - c) {");
    xstep_record(x, 2, "c", "0", "0");
    xstep_call(x, 2, "sremrt_explore_take(ex, t, out)", false);
    cg_line(x->b, 1, "}");
    cg_line(x->b, 1, "x->tot += c;");
    cg_line(x->b, 1, "x->pm += c;");
    cg_line(x->b, 1, "x->pf += c;");
}

/* The inline test of take's may_suggest (explore.c) as a value: node n
 * with k matches might be due. Bitwise, not short-circuit: at confidence
 * 0.2 its parts go both ways at random (0.46 mispredicted branches an
 * event in B5), their result seldom; freq * q may wrap only where
 * freq > qmax already decides. */
static void xstep_may_suggest(Buf *b, const char *n, const char *k, const char *before, const char *after)
{
    cg_line(b, 3, "%s((%s != 0) & !nd[%s].suggested & ((nd[%s].freq > ex->suggest_qmax) |", before, k, n, n);
    cg_line(b, 4, "(nd[%s].freq * ex->suggest_q >= x->tot)))%s", n, after);
}

/* The trie update of a candidate's e extension and v variation matches
 * (take's fast path), then whether either may be due. Zero counts take
 * the same path (adding 0 changes nothing; a branch on them mispredicts
 * where matches are neither rare nor frequent, B3 at K = 26). */
static void xstep_candidate_to_trie(const XStep *x, bool ext, bool var)
{
    Buf *b = x->b;
    cg_line(b, 2, "s = %s;", ext && var ? "e + v" : ext ? "e" : "v");
    /* take's slow path creates missing nodes and saturates: needed at most
     * twice per candidate and near 2^64 (a node missing while its count
     * is 0 only sends the event there too); below 2^62 nothing can wrap */
    cg_line(b, 2, "en = %s;", ext ? "ex->ext_node[t]" : "0");
    cg_line(b, 2, "vn = %s;", var ? "ex->var_node[t]" : "0");
    cg_line(b, 2, "if (((en | vn) < 0) | ((x->tot | e | v) >> 62 != 0)) {");
    cg_line(b, 3, "if (!(e | v))");
    cg_line(b, 4, "return 0;");
    xstep_record(x, 3, "0", "e", "v");
    xstep_call(x, 3, "sremrt_explore_take(ex, t, out)", false);
    cg_line(b, 2, "}");
    cg_line(b, 2, "x->tot += s;");
    if (ext) {
        cg_line(b, 2, "x->pm += e;");
        cg_line(b, 2, "nd[en].count += e;");
        cg_line(b, 2, "nd[en].freq += e;");
    }
    if (var) {
        cg_line(b, 2, "nd[vn].count += v;");
        cg_line(b, 2, "nd[vn].freq += v;");
    }
    /* most candidates stay far below their bound: one subtraction and a
     * sign test instead of the two tests below (16 instructions) */
    cg_line(b, 2, "sl = x->slack[t] - (int64_t)s;");
    cg_line(b, 2, "x->slack[t] = sl;");
    cg_line(b, 2, "if (sl < 0) {");
    /* either may be due: the same call, so one test */
    if (ext)
        xstep_may_suggest(b, "en", "e", "if (", var ? " |" : ") {");
    if (var)
        xstep_may_suggest(b, "vn", "v", ext ? "    " : "if (", ") {");
    xstep_record(x, 4, "0", "e", "v");
    cg_line(b, 4, "%s_p%d_xsave(ex, st, x);", x->P, x->i);
    cg_line(b, 4, "return sremrt_explore_due(ex, t, out);");
    cg_line(b, 3, "}");
    cg_line(b, 3, "sl = %s_xslack(&nd[%s], x->tot, ex->suggest_q, ex->suggest_qmax);", x->P, ext ? "en" : "vn");
    if (ext && var) {
        cg_line(b, 3, "s = (uint64_t)%s_xslack(&nd[vn], x->tot, ex->suggest_q, ex->suggest_qmax);", x->P);
        cg_line(b, 3, "sl = (int64_t)s < sl ? (int64_t)s : sl;");
    }
    cg_line(b, 3, "x->slack[t] = sl;");
    cg_line(b, 2, "}");
}

/* The case of pattern type v in the step's switch (stam): its counter
 * updates; the ring push and the trie follow the switch, shared by all. */
static void xstep_stam_case(const XStep *x, int v)
{
    int M = x->m + 1, m = x->m;
    char c[24];
    if (v == x->seq[m - 1]) {
        cg_line(x->b, 2, "if ((uint64_t)%s > ex->wrap_limit)", x->windowed ? "x->size" : "x->pos - 1");
        cg_line(x->b, 3, "ex->may_wrap = 1;");
        cg_line(x->b, 2, "c = %s;", xw(x, M + m - 1, c));
    }
    xstep_enter(x, v, 2);
}

/* The case of pattern type v (stnm): stage moves f[k] = f[k-1] for k with
 * ET_k == v, descending, then a new start for ET_1 (explore.c stnm_push). */
static void xstep_stnm_case(const XStep *x, int v)
{
    int occ[SREMRT_EXPLORE_MAX_M], n = xocc(x, v, occ), m = x->m;
    for (int i = n - 1; i >= 0 && occ[i] >= 2; i--) {
        if (occ[i] == m)
            cg_line(x->b, 2, "c = %s_xwin(x->f%d, x->f%d, first);", x->P, m, m - 1);
        cg_line(x->b, 2, "x->f%d = x->f%d;", occ[i], occ[i] - 1);
    }
    if (occ[0] == 1) {
        cg_line(x->b, 2, "x->f1++;");
        if (x->windowed)
            xstep_ring_push(x, 2);
    }
}

/* The counters of the locals struct, as "w5" or "f1" with the index into
 * st->cnt, by calling put(x, name, index) for each: stam's W[a][b],
 * 1 <= a <= b <= m (the diagonal is the constant 1), stnm's f[1..m];
 * returns how many (put may be NULL). */
static int xstep_fields(const XStep *x, void (*put)(const XStep *, const char *, int))
{
    char name[24];
    int M = x->m + 1, n = 0;
    for (int a = 1; a <= x->m; a++)
        for (int b = a; b <= (x->stam ? x->m : a); b++, n++) {
            int idx = x->stam ? a * M + b : a;
            snprintf(name, sizeof name, "%s%d", x->stam ? "w" : "f", idx);
            if (put)
                put(x, name, idx);
        }
    return n;
}

static void xfield_decl(const XStep *x, const char *name, int idx)
{
    (void)idx;
    cg_line(x->b, 1, "uint64_t %s;", name);
}

static void xfield_load(const XStep *x, const char *name, int idx)
{
    cg_line(x->b, 1, "x->%s = on ? st->cnt[%d] : 0;", name, idx);
}

static void xfield_save(const XStep *x, const char *name, int idx)
{
    cg_line(x->b, 1, "st->cnt[%d] = x->%s;", idx, name);
}

/* The statements of xload (with `on`): the trie's part (tload, tload2)
 * around the key's (st's, pload); of xsave: the key's, then the trie's
 * (with `d`). */
static void xstep_tload(const XStep *x)
{
    cg_line(x->b, 1, "x->slack = slack;");
    cg_line(x->b, 1, "x->nd = on ? ex->trie.nodes : NULL;   /* NULL: the step calls the runtime */");
}

static void xstep_pload(const XStep *x)
{
    xstep_fields(x, xfield_load);
    cg_line(x->b, 1, "x->pos = st->pos;");
    cg_line(x->b, 1, "x->head = st->head;");
    cg_line(x->b, 1, "x->size = st->size;");
}

static void xstep_tload2(const XStep *x)
{
    cg_line(x->b, 1, "x->tot = on ? x->nd[0].count : 0;");
    cg_line(x->b, 1, "x->pm = on ? x->nd[%d].count : 0;", x->m);
    cg_line(x->b, 1, "x->pf = on ? x->nd[%d].freq : 0;", x->m);
}

static void xstep_psave(const XStep *x)
{
    xstep_fields(x, xfield_save);
    cg_line(x->b, 1, "ex->events += (uint64_t)(x->pos - st->pos);   /* one per event of st */");
    cg_line(x->b, 1, "st->pos = x->pos;");
    cg_line(x->b, 1, "st->head = x->head;");
    cg_line(x->b, 1, "st->size = x->size;");
}

static void xstep_tsave(const XStep *x)
{
    cg_line(x->b, 1, "d = x->tot - x->nd[0].count;");
    for (int k = 0; k < x->m; k++)
        cg_line(x->b, 1, "x->nd[%d].count += d;", k);
    cg_line(x->b, 1, "x->nd[%d].count = x->pm;", x->m);
    cg_line(x->b, 1, "x->nd[%d].freq = x->pf;", x->m);
}

/* A copy function of the locals: a load when `on` is its condition (C),
 * else a save; parts: 1 the key's, 2 the trie's, 3 both. */
static void xstep_copy_fn(const XStep *x, const char *inl, const char *name, const char *params, const char *on,
                          int parts)
{
    Buf *b = x->b;
    cg_line(b, 0, "%s void %s_p%d_%s(%s)", inl, x->P, x->i, name, params);
    cg_line(b, 0, "{");
    if (on) {
        cg_line(b, 1, "int on = %s;", on);
        if (parts & 2)
            xstep_tload(x);
        if (parts & 1)
            xstep_pload(x);
        if (parts & 2)
            xstep_tload2(x);
    } else {
        if (parts & 2)
            cg_line(b, 1, "uint64_t d;");
        cg_line(b, 1, "if (!x->nd)");
        cg_line(b, 2, "return;");
        if (parts & 1)
            xstep_psave(x);
        if (parts & 2)
            xstep_tsave(x);
    }
    cg_line(b, 0, "}");
    cg_blank(b);
}

/* Most counters whose copies (xload, xsave) are inlined at each call into
 * the runtime, so that the step's locals stay registers; a longer pattern
 * (m > 6 under stam) calls them, and its locals live on the stack. */
#define XSTEP_INLINE_FIELDS 21

/* NAME_pN_xl, the state a loop keeps in locals, and xload and xsave, which
 * copy it from and to the clause's state (only for the default algorithm:
 * the others' counters are laid out differently; no memset, which would
 * keep the struct out of registers: gcc's SRA takes it field by field). Nodes 0..m-1 get the
 * same counts (path[k] == k): xsave adds tot's growth to each. */
static void xstep_locals(const XStep *x)
{
    Buf *b = x->b;
    const char *P = x->P;
    int i = x->i, m = x->m;
    char inl[CG_NAME_MAX + 16] = "static";
    if (xstep_fields(x, NULL) <= XSTEP_INLINE_FIELDS)
        snprintf(inl, sizeof inl, "%s_XINLINE", P);
    cg_line(b, 0, "/* pattern p%d's explore counting state in locals: the counters, the", i);
    cg_line(b, 0, " * window ring's indexes, and the trie's path counts (tot: nodes 0..%d,", m - 1);
    cg_line(b, 0, " * pm and pf: node %d's count and freq) */", m);
    cg_line(b, 0, "typedef struct %s_p%d_xl {", P, i);
    xstep_fields(x, xfield_decl);
    cg_line(b, 1, "int64_t pos, head, size;");
    cg_line(b, 1, "sremrt_ptrie_node *nd;");
    cg_line(b, 1, "uint64_t tot, pm, pf;");
    cg_line(b, 1, "int64_t *slack;   /* per candidate X: matches it may gain before a test (xslack) */");
    cg_line(b, 0, "} %s_p%d_xl;", P, i);
    cg_blank(b);
    char xl[CG_NAME_MAX + 48], sig[2 * CG_NAME_MAX + 128];
    snprintf(xl, sizeof xl, "%s_p%d_xl *x", P, i);
    snprintf(sig, sizeof sig, "const sremrt_explore *ex, const sremrt_explore_part *st, %s,\n        int64_t *slack", xl);
    xstep_copy_fn(x, inl, "xload", sig, "ex->cfg.algo == SREMRT_EXPLORE_DEFAULT && st->mem", 3);
    snprintf(sig, sizeof sig, "sremrt_explore *ex, sremrt_explore_part *st, const %s", xl);
    xstep_copy_fn(x, inl, "xsave", sig, NULL, 3);
    if (!x->part)
        return;
    /* partitions: the trie's part stays in locals across the loop (the
     * keys share it), the key's part is loaded and saved per event */
    snprintf(sig, sizeof sig, "const sremrt_explore *ex, %s, int64_t *slack", xl);
    xstep_copy_fn(x, inl, "xtload", sig, "ex->cfg.algo == SREMRT_EXPLORE_DEFAULT", 2);
    snprintf(sig, sizeof sig, "const sremrt_explore_part *st, %s", xl);
    xstep_copy_fn(x, inl, "xpload", sig, "x->nd != NULL", 1);
    snprintf(sig, sizeof sig, "sremrt_explore *ex, sremrt_explore_part *st, const %s", xl);
    xstep_copy_fn(x, inl, "xpsave", sig, NULL, 1);
    snprintf(sig, sizeof sig, "const %s", xl);
    xstep_copy_fn(x, inl, "xtsave", sig, NULL, 2);
}

/* Pattern i's counting step: sremrt_explore_push's default algorithm for
 * this clause alone, on the locals x; other algorithms (--explore-algo)
 * go to the runtime. NAME_pN_xpush is one event with its own load and
 * save (partitions: each event may be another key's). */
static void put_explore_step(Cg *g, int i, const AstPattern *p)
{
    XStep x = {&g->sec[CG_CODE], g->explore_seq, p->body->nkids, p->explore_attr->nvalues,
               p->hdr.policy == POLICY_STAM, p->hdr.window.kind != WIN_NONE, g->P, i, p->partition_attr != NULL};
    Buf *b = x.b;
    const char *P = g->P;
    int m = x.m, M = m + 1;
    char l[24], r[24];
    if (!(g->xhelpers & 1)) {   /* the step must be inlined for its locals to be registers */
        cg_line(b, 0, "#if defined(__GNUC__)");
        cg_line(b, 0, "#define %s_XINLINE static inline __attribute__((always_inline))", P);
        cg_line(b, 0, "#else");
        cg_line(b, 0, "#define %s_XINLINE static inline", P);
        cg_line(b, 0, "#endif");
        cg_blank(b);
        cg_line(b, 0, "/* How many more matches trie node n may gain and still not be due");
        cg_line(b, 0, " * (explore.c may_suggest: freq <= qmax and freq * q < tot) at this tot and");
        cg_line(b, 0, " * every later, larger one; negative: test it now. The step runs the exact");
        cg_line(b, 0, " * test only when a candidate's count has gone past it (rare). */");
        cg_line(b, 0, "static int64_t %s_xslack(const sremrt_ptrie_node *n, uint64_t tot, uint64_t q, uint64_t qmax)", P);
        cg_line(b, 0, "{");
        cg_line(b, 1, "uint64_t k;");
        cg_line(b, 1, "if (n->suggested)");
        cg_line(b, 2, "return INT64_MAX;");
        cg_line(b, 1, "if (tot == 0)");
        cg_line(b, 2, "return -1;");
        cg_line(b, 1, "k = q ? (tot - 1) / q : UINT64_MAX;   /* freq * q < tot: freq <= k */");
        cg_line(b, 1, "k = k < qmax ? k : qmax;");
        cg_line(b, 1, "if (n->freq > k)");
        cg_line(b, 2, "return -1;");
        cg_line(b, 1, "return k - n->freq > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(k - n->freq);");
        cg_line(b, 0, "}");
        cg_blank(b);
        g->xhelpers |= 1;
    }
    if (!x.stam && !(g->xhelpers & 2)) {
        cg_line(b, 0, "/* sremrt_explore_in_window without a branch (stnm: the ranks lo+1..hi that");
        cg_line(b, 0, " * are >= first; whether there are any is random, 0.47 mispredictions an");
        cg_line(b, 0, " * event in B5 when gcc branched on it) */");
        cg_line(b, 0, "%s_XINLINE uint64_t %s_xwin(uint64_t lo, uint64_t hi, uint64_t first)", P, P);
        cg_line(b, 0, "{");
        cg_line(b, 1, "uint64_t from = lo + 1 > first ? lo + 1 : first;");
        cg_line(b, 1, "return (hi - from + 1) & ((uint64_t)0 - (uint64_t)(hi >= from));");
        cg_line(b, 0, "}");
        cg_blank(b);
        g->xhelpers |= 2;
    }
    xstep_locals(&x);
    bool masked = p->hdr.window.kind == WIN_EVENTS && xstep_masked_pays(&x);
    cg_line(b, 0, "/* pattern %s's explore clause, default algorithm: sremrt_explore_push", p->name);
    cg_line(b, 0, " * specialised to this pattern, policy and window (docs/explore.md); out is");
    cg_line(b, 0, " * set only when the runtime is called, and read only when this returns > 0 */");
    cg_line(b, 0, "%s_XINLINE int32_t %s_p%d_xstep(sremrt_explore *ex, sremrt_explore_part *st, %s_p%d_xl *x,", P, P, i,
            P, i);
    cg_line(b, 0, "        int64_t ts, int32_t t, sremrt_explore_step *out)");
    cg_line(b, 0, "{");
    cg_line(b, 1, "uint64_t c = 0, e = 0, v = 0, s;");
    cg_line(b, 1, "sremrt_ptrie_node *nd = x->nd;");
    cg_line(b, 1, "int32_t en, vn, r;");
    cg_line(b, 1, "int64_t sl;");
    if (x.windowed)   /* cap in a local: read through st, gcc branched on the head's wrap */
        cg_line(b, 1, "int64_t key, bound, j, cap = st->cap%s;", x.stam || p->hdr.window.kind == WIN_EVENTS ? ", o" : "");
    if (!x.stam)
        cg_line(b, 1, "uint64_t first;");
    /* xload leaves nd NULL for the other algorithms and a state without memory */
    cg_line(b, 1, "if (!nd || (uint32_t)t >= %du) {", x.nvalues);
    xstep_call(&x, 2, "sremrt_explore_push(ex, st, ts, t, out)", false);
    cg_line(b, 1, "}");
    cg_line(b, 1, "x->pos++;");
    if (p->hdr.window.kind == WIN_TIME) {
        cg_line(b, 1, "key = ts;");
        cg_line(b, 1, "bound = ts >= INT64_MIN + INT64_C(%" PRId64 ") ? ts - INT64_C(%" PRId64 ") : INT64_MIN;",
                p->hdr.window.value, p->hdr.window.value);
    } else {
        cg_line(b, 1, "(void)ts;");
        if (x.windowed) {
            cg_line(b, 1, "key = x->pos;");
            cg_line(b, 1, "bound = x->pos - INT64_C(%" PRId64 ") + 1;", p->hdr.window.value);
        }
    }
    if (masked)
        xstep_leave_masked(&x);
    else if (x.windowed) {   /* what left the window */
        /* a count window's bound grows by one per event and its keys are
         * distinct positions, all >= the last bound: at most one leaves */
        cg_line(b, 1, "%s (x->size > 0 && st->keys[x->head] < bound) {",
                p->hdr.window.kind == WIN_EVENTS ? "if" : "while");
        if (x.stam) {
            cg_line(b, 2, "switch (st->codes[x->head]) {");
            for (int v = 0; v < x.nvalues; v++) {
                if (!xin_pattern(&x, v))
                    continue;
                cg_line(b, 2, "case %d:", v);
                xstep_leave(&x, v, 3, NULL);
                cg_line(b, 3, "break;");
            }
            cg_line(b, 2, "}");
            cg_line(b, 2, "o = x->head + 1;");
            cg_line(b, 2, "x->head = o == cap ? 0 : o;");
        } else {
            cg_line(b, 2, "x->head = x->head + 1 == cap ? 0 : x->head + 1;");
        }
        cg_line(b, 2, "x->size--;");
        cg_line(b, 1, "}");
    }
    if (!x.stam)
        cg_line(b, 1, "first = %s;", x.windowed ? "x->f1 - (uint64_t)x->size + 1" : "1");
    cg_line(b, 1, "switch (t) {");
    for (int v = 0; v < x.nvalues; v++) {
        if (!xin_pattern(&x, v))
            continue;
        cg_line(b, 1, "case %d:", v);
        if (x.stam)
            xstep_stam_case(&x, v);
        else
            xstep_stnm_case(&x, v);
        cg_line(b, 2, "break;");
    }
    cg_line(b, 1, "default:   /* a candidate X */");
    if (x.stam) {
        cg_line(b, 2, "if ((uint64_t)%s > ex->wrap_limit)", x.windowed ? "x->size" : "x->pos - 1");
        cg_line(b, 3, "ex->may_wrap = 1;");
        if (p->explore.variations)
            cg_line(b, 2, "v = %s;", xw(&x, M + m - 1, l));
        if (p->explore.extensions)
            cg_line(b, 2, "e = %s;", xw(&x, M + m, r));
    } else {
        if (p->explore.variations)
            cg_line(b, 2, "v = %s_xwin(st->g[t], x->f%d, first);", P, m - 1);
        if (p->explore.extensions)
            cg_line(b, 2, "e = %s_xwin(st->h[t], x->f%d, first);", P, m);
        cg_line(b, 2, "st->g[t] = x->f%d;", m - 1);
        cg_line(b, 2, "st->h[t] = x->f%d;", m);
    }
    xstep_candidate_to_trie(&x, p->explore.extensions, p->explore.variations);
    cg_line(b, 2, "return 0;");
    cg_line(b, 1, "}");
    if (x.stam && x.windowed) {   /* every pattern type: its entry */
        cg_line(b, 1, "/* a pattern type: its entry at the back, then the matches of p (c) */");
        xstep_ring_push(&x, 1);
        cg_line(b, 1, "st->codes[j] = t;");
    }
    xstep_pattern_to_trie(&x);
    cg_line(b, 1, "return 0;");
    cg_line(b, 0, "}");
    cg_blank(b);
    if (!p->partition_attr)   /* push_each keeps the one state in locals */
        return;
    cg_line(b, 0, "/* One event of pattern %s's explore clause, in its key's state (the", p->name);
    cg_line(b, 0, " * trie's part of x stays in locals across the loop). */");
    cg_line(b, 0, "%s_XINLINE int32_t %s_p%d_xpush(sremrt_explore *ex, sremrt_explore_part *st, %s_p%d_xl *x, int64_t ts,",
            P, P, i, P, i);
    cg_line(b, 0, "        int32_t t, sremrt_explore_step *out)");
    cg_line(b, 0, "{");
    cg_line(b, 1, "int32_t r;");
    cg_line(b, 1, "%s_p%d_xpload(st, x);", P, i);
    cg_line(b, 1, "r = %s_p%d_xstep(ex, st, x, ts, t, out);", P, i);
    cg_line(b, 1, "%s_p%d_xpsave(ex, st, x);", P, i);
    cg_line(b, 1, "return r;");
    cg_line(b, 0, "}");
    cg_blank(b);
}

/* The explore clause of pattern i (docs/language.md 5): its configuration and
 * the shared trie; one counting state per partition (slot of the
 * pattern's keymap). Push code goes after the pattern's own step, so a
 * match record comes before the suggestions of the same event. */
void cg_emit_explore_conf(Cg *g, int i, const AstPattern *p)
{
    const char *P = g->P;
    FILE *out = g->code.f;
    const AstAttr *ta = p->explore_attr;
    int m = p->body->nkids;
    fprintf(out, "/* explore: the event type is %s; candidates:%s%s, confidence ", ta->name,
            p->explore.extensions ? " extensions" : "", p->explore.variations ? " variations" : "");
    cg_put_number(out, &p->explore.confidence);
    fprintf(out, " */\nstatic const int32_t %s_p%d_seq[%d] = {", P, i, m);
    for (int k = 0; k < m; k++)
        fprintf(out, "%s%d", k ? ", " : "", p->body->kids[k]->value_index);
    const char *win = p->hdr.window.kind == WIN_TIME     ? "SREMRT_EXPLORE_TIME"
                      : p->hdr.window.kind == WIN_EVENTS ? "SREMRT_EXPLORE_EVENTS"
                                                         : "SREMRT_EXPLORE_UNBOUNDED";
    fputs("};\n", out);
    Buf *code = &g->sec[CG_CODE];
    cg_blank(code);
    cg_line(code, 0, "static int %s_p%d_explore_start(sremrt_explore *ex, const %s_config *cfg)", P, i, P);
    cg_line(code, 0, "{");
    cg_line(code, 1, "sremrt_explore_config xc;");
    cg_line(code, 1, "memset(&xc, 0, sizeof xc);");
    cg_line(code, 1, "xc.pattern = %s_p%d_seq;", P, i);
    cg_line(code, 1, "xc.m = %d;", m);
    cg_line(code, 1, "xc.nvalues = %d;", ta->nvalues);
    cg_line(code, 1, "xc.policy = %s;", p->hdr.policy == POLICY_STAM ? "SREMRT_EXPLORE_STAM" : "SREMRT_EXPLORE_STNM");
    cg_line(code, 1, "xc.window = %s;", win);
    cg_line(code, 1, "xc.width = %" PRId64 ";", p->hdr.window.kind == WIN_NONE ? (int64_t)1 : p->hdr.window.value);
    cg_line(code, 1, "xc.extensions = %d;", p->explore.extensions ? 1 : 0);
    cg_line(code, 1, "xc.variations = %d;", p->explore.variations ? 1 : 0);
    cg_line(code, 1, "xc.confidence = %.17g;", p->explore.threshold);
    cg_line(code, 1, "xc.algo = (sremrt_explore_algo)cfg->explore_algo;");
    cg_line(code, 1, "xc.capacity = cfg->explore_cap;");
    cg_line(code, 1, "return sremrt_explore_init(ex, &xc, &cfg->alloc);");
    cg_line(code, 0, "}");
    cg_blank(code);
    sremrt_explore_config xc = {g->explore_seq, m, ta->nvalues,
                                p->hdr.policy == POLICY_STAM ? SREMRT_EXPLORE_STAM : SREMRT_EXPLORE_STNM,
                                p->hdr.window.kind == WIN_TIME     ? SREMRT_EXPLORE_TIME
                                : p->hdr.window.kind == WIN_EVENTS ? SREMRT_EXPLORE_EVENTS
                                                                   : SREMRT_EXPLORE_UNBOUNDED,
                                p->hdr.window.kind == WIN_NONE ? 1 : p->hdr.window.value,
                                p->explore.extensions, p->explore.variations, p->explore.threshold,
                                SREMRT_EXPLORE_DEFAULT, g->o->caps.explore_cap};
    for (int k = 0; k < m && k < SREMRT_EXPLORE_MAX_M; k++)
        g->explore_seq[k] = p->body->kids[k]->value_index;
    /* the checker bounds the sequence and the enum; this catches the rest
     * (--explore-cap) before it builds a program whose init fails */
    const char *why = sremrt_explore_check(&xc);
    if (why) {
        diag_error(g->diag, p->explore.loc, "the explore clause of pattern '%s' cannot run: %s", p->name, why);
        return;
    }
    put_explore_step(g, i, p);
    sremrt_explore ex;
    sremrt_alloc heap = sremrt_alloc_malloc();
    size_t state = 0;
    if (sremrt_explore_init(&ex, &xc, &heap) == 0) {
        state = sremrt_explore_part_bytes(&ex);
        sremrt_explore_free(&ex);
    }
    cg_arena_runtime(g, "explore", p->name, 1, sremrt_explore_bytes(&xc));
    if (p->partition_attr) {
        cg_arena_term(g, "explore states", "%d * sizeof(sremrt_explore_part)", cg_keys(g));
        cg_arena_runtime(g, "explore windows", p->name, cg_keys(g), state);
    } else {
        cg_arena_runtime(g, "explore window", p->name, 1, state);
    }
    Buf *f = &g->sec[CG_FIELDS], *in = &g->sec[CG_INIT], *fr = &g->sec[CG_FREE], *fi = &g->sec[CG_FINISH],
        *tr = &g->sec[CG_TRIE];
    cg_line(f, 0, "sremrt_explore p%d_ex;   /* pattern %s: explore clause, one trie */", i, p->name);
    cg_line(f, 0, "int64_t p%d_xslack[%d];   /* its candidates' suggestion slack (xslack; 0 at first) */", i,
            ta->nvalues);
    cg_line(in, 0, "if (%s_p%d_explore_start(&m->p%d_ex, &m->cfg) != 0)", P, i, i);
    cg_line(in, 1, "return -1;");
    if (p->partition_attr) {
        char keys[32], array[32];
        snprintf(keys, sizeof keys, "p%d_keys", i);
        snprintf(array, sizeof array, "p%d_xp", i);
        cg_line(fr, 0, "if (m->p%d_xp)", i);   /* each key's window, before the array goes */
        cg_line(fr, 1, "for (int32_t i = 0; i < m->p%d_keys.count; i++)", i);
        cg_line(fr, 2, "sremrt_explore_part_free(&m->p%d_xp[i]);", i);
        cg_put_key_array(g, keys, array, "sremrt_explore_part", "the explore counting state");
    } else {
        cg_line(f, 0, "sremrt_explore_part p%d_xp;", i);
        cg_line(in, 0, "if (sremrt_explore_part_init(&m->p%d_ex, &m->p%d_xp, &m->cfg.alloc) != 0)", i, i);
        cg_line(in, 1, "return -1;");
        cg_line(fr, 0, "sremrt_explore_part_free(&m->p%d_xp);", i);
    }
    cg_line(fr, 0, "sremrt_explore_free(&m->p%d_ex);", i);
    cg_begin(fi, 0);
    fprintf(fi->f, "%s_explore_summary(m, &m->p%d_ex, ", P, i);
    cg_put_decl(fi->f, g, p->name);
    fprintf(fi->f, ", %s_%d_values, m->ovf[%d]);", P, ta->index, g->decl);
    cg_end(fi);
    cg_begin(tr, 0);
    fprintf(tr->f, "%s_trie_one(s, &m->p%d_ex, ", P, i);
    cg_put_c_string(tr->f, p->name);
    fprintf(tr->f, ", %s_%d_values, %d, dot);", P, ta->index, ta->nvalues);
    cg_end(tr);
}

/* Push code of pattern i's explore clause for the event, into state st,
 * at nesting level. local: one state for the whole loop, whose counters
 * push_each keeps in locals (xl<i>, loaded before the loop, saved after
 * it); else the trie's part stays there and each event loads and saves
 * its key's (xpush). */
void cg_put_explore_push(Cg *g, int i, const AstPattern *p, const char *st, int level, bool local)
{
    Buf *pu = &g->sec[CG_PUSH];
    Buf *in = &g->sec[CG_MANY_IN], *out = &g->sec[CG_MANY_OUT];
    cg_line(in, 0, "%s_p%d_xl xl%d;", g->P, i, i);
    if (local) {   /* the one state in locals for the loop */
        cg_line(in, 0, "%s_p%d_xload(&m->p%d_ex, %s, &xl%d, m->p%d_xslack);", g->P, i, i, st, i, i);
        cg_line(out, 0, "%s_p%d_xsave(&m->p%d_ex, %s, &xl%d);", g->P, i, i, st, i);
    } else {   /* the trie's part only */
        cg_line(in, 0, "%s_p%d_xtload(&m->p%d_ex, &xl%d, m->p%d_xslack);", g->P, i, i, i, i);
        cg_line(out, 0, "%s_p%d_xtsave(&xl%d);", g->P, i, i);
    }
    cg_line(pu, level, "{");
    cg_line(pu, level + 1, "sremrt_explore_step xs;");
    cg_begin(pu, level + 1);
    if (local)
        fprintf(pu->f, "int32_t xn = %s_p%d_xstep(&m->p%d_ex, %s, &xl%d, (int64_t)", g->P, i, i, st, i);
    else
        fprintf(pu->f, "int32_t xn = %s_p%d_xpush(&m->p%d_ex, %s, &xl%d, (int64_t)", g->P, i, i, st, i);
    put_ts(g, pu->f);
    fputs(", e->", pu->f);
    cg_put_field(pu->f, p->explore_attr);
    fputs(", &xs);", pu->f);
    cg_end(pu);
    cg_line(pu, level + 1, "if (xn > 0)   /* suggestions due: their records */");
    cg_begin(pu, level + 2);
    fprintf(pu->f, "%s_explore(m, &m->p%d_ex, ", g->P, i);
    cg_put_decl(pu->f, g, p->name);
    fprintf(pu->f, ", e, &xs, xn, %s_%d_values);", g->P, p->explore_attr->index);
    cg_end(pu);
    cg_line(pu, level, "}");
}
