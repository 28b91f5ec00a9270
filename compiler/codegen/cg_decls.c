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
    FILE *out = g->code.f;
    const char *P = g->P;
    const AstAttr *attr = episode_table_attr(ep);
    if (attr) {
        fprintf(out, "/* element bits by value of %s */\nstatic const uint32_t %s_e%d_tab[%d] = {", attr->name,
                P, j, attr->nvalues);
        for (int v = 0; v < attr->nvalues; v++) {
            uint32_t bits = 0;
            for (int m = 0; m < ep->nelements; m++)
                if (ep->elements[m]->value_index == v)
                    bits |= 1u << m;
            fprintf(out, "%s0x%" PRIx32 "u", v ? ", " : "", bits);
        }
        fprintf(out, "};\n\nstatic uint32_t %s_e%d_mask(const %s_event *e)\n{\n"
                     "    uint32_t v = (uint32_t)e->", P, j, P);
        cg_put_field(out, attr);
        fprintf(out, ";\n    return v < %du ? %s_e%d_tab[v] : 0;\n}\n\n", attr->nvalues, P, j);
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
    fprintf(out, "static uint32_t %s_e%d_mask(const %s_event *e)\n{\n    uint32_t mask = 0;\n", P, j, P);
    for (int m = 0; m < ep->nelements; m++) {
        if (same[m] != m)
            continue;
        uint32_t bits = 0;
        for (int n = m; n < ep->nelements; n++)
            if (same[n] == m)
                bits |= 1u << n;
        fprintf(out, "    if (%s_e%d_x%d(e, NULL))\n        mask |= 0x%" PRIx32 "u;\n", P, j, m, bits);
    }
    fputs("    return mask;\n}\n\n", out);
    for (int m = 0; m < ep->nelements; m++)
        free(text[m]);
}

/* The counter(s) of episode j: mask, configuration, matcher fields, and
 * the init, push, finish and free code. */
void cg_emit_episode(Cg *g, int j, const AstEpisode *ep)
{
    const char *P = g->P;
    FILE *out = g->code.f, *f = g->fields.f, *in = g->init.f, *pu = g->push.f, *fr = g->freec.f,
         *fi = g->finish.f;
    bool part = ep->partition_attr != NULL;
    bool distinct = ep->hdr.freq_given && ep->hdr.freq == FREQ_DISTINCT;
    bool excl = episode_exclusive(g, ep);
    bool time = ep->hdr.window.kind == WIN_TIME;

    fprintf(out, "/* ---- episode %s (e%d): %d elements, frequency %s, within %" PRId64 " %s", ep->name, j,
            ep->nelements, distinct ? "distinct" : "nonoverlapped", ep->hdr.window.value,
            time ? "timestamp units" : "events");
    if (part)
        fprintf(out, ", partition by %s", ep->partition_attr->name);
    fprintf(out, "; elements %s ---- */\n\n",
            excl ? "pairwise exclusive (proved)" : "may overlap (one event can satisfy two)");
    emit_episode_mask(g, j, ep);
    fprintf(out, "static int %s_e%d_start(sremrt_episode *c, const %s_config *cfg)\n{\n"
                 "    sremrt_episode_config ec;\n    memset(&ec, 0, sizeof ec);\n"
                 "    ec.k = %d;\n    ec.freq = %s;\n    ec.window = %s;\n    ec.width = %" PRId64 ";\n"
                 "    ec.flags = %s;\n    ec.list_cap = cfg->occmap_cap;\n    ec.budget = cfg->distinct_budget;\n"
                 "    if (sremrt_episode_init(c, &ec, &cfg->alloc) != 0) {\n"
                 "        memset(c, 0, sizeof *c);   /* k = 0: not counting */\n        return -1;\n    }\n"
                 "    return 0;\n}\n\n",
            P, j, P, ep->nelements, distinct ? "SREMRT_EPISODE_DISTINCT" : "SREMRT_EPISODE_NONOVERLAPPED",
            time ? "SREMRT_EPISODE_TIME" : "SREMRT_EPISODE_EVENTS", ep->hdr.window.value,
            excl ? "SREMRT_EPISODE_EXCLUSIVE" : "0");

    sremrt_episode_config ec = {ep->nelements, distinct ? SREMRT_EPISODE_DISTINCT : SREMRT_EPISODE_NONOVERLAPPED,
                                time ? SREMRT_EPISODE_TIME : SREMRT_EPISODE_EVENTS, ep->hdr.window.value,
                                excl ? SREMRT_EPISODE_EXCLUSIVE : 0u, g->o->caps.occmap_cap,
                                g->o->caps.distinct_budget};
    size_t counter = sremrt_episode_bytes(&ec);
    if (part) {
        cg_arena_keymap(g, "episode", ep->name);
        cg_arena_term(g, "episode counters", "%d * sizeof(sremrt_episode)", cg_keys(g));
        cg_arena_runtime(g, "episode", ep->name, cg_keys(g), counter);
    } else {
        cg_arena_runtime(g, "episode", ep->name, 1, counter);
    }

    char call[256];
    snprintf(call, sizeof call, "%s_episode(m, c, ", P);
    if (part) {
        int a = ep->partition_attr->index;
        fprintf(f, "    sremrt_keymap e%d_keys;   /* episode %s: partition key -> slot */\n", j, ep->name);
        fprintf(f, "    sremrt_episode *e%d;   /* [max_keys]; k = 0 until a key's first event */\n", j);
        fprintf(in, "    if (sremrt_keymap_init(&m->e%d_keys, m->cfg.max_keys, &m->cfg.alloc) != 0)\n"
                    "        return -1;\n"
                    "    m->e%d = sremrt_alloc_get(&m->cfg.alloc, (size_t)m->cfg.max_keys * sizeof *m->e%d, 0);\n"
                    "    if (!m->e%d)\n        return -1;\n",
                j, j, j, j);
        fprintf(fr, "    if (m->e%d)\n        for (int32_t i = 0; i < m->e%d_keys.count; i++)\n"
                    "            sremrt_episode_free(&m->e%d[i]);\n"
                    "    sremrt_alloc_free(&m->cfg.alloc, m->e%d, (size_t)m->cfg.max_keys * sizeof *m->e%d);\n"
                    "    m->e%d = NULL;\n    sremrt_keymap_free(&m->e%d_keys);\n",
                j, j, j, j, j, j, j);
        char cg_keys[32];
        snprintf(cg_keys, sizeof cg_keys, "e%d_keys", j);
        cg_put_key_slot(g, "episode", ep->name, ep->partition_attr, cg_keys);
        fprintf(pu, "            sremrt_episode *c = &m->e%d[slot];\n"
                    "            if (inserted && %s_e%d_start(c, &m->cfg) != 0)\n"
                    "                m->stats.overflow[SREMRT_OVF_MEMORY]++;\n"
                    "            if (c->cfg.k && sremrt_episode_push(c, (int64_t)c->events + 1, ",
                j, P, j);
        put_ts(g, pu);
        fprintf(pu, ", %s_e%d_mask(e)) > 0)\n                %s", P, j, call);
        cg_put_c_string(pu, ep->name);
        fprintf(pu, ", e, &%s_attrs[%d], key, %" PRId64 ");\n        }\n    }\n", P, a,
                ep->has_alert ? ep->alert_threshold : 0);
        fprintf(fi, "    for (int32_t i = 0; m->e%d && i < m->e%d_keys.count; i++)\n"
                    "        if (m->e%d[i].cfg.k)\n            %s_episode_summary(m, &m->e%d[i], ",
                j, j, j, P, j);
        cg_put_c_string(fi, ep->name);
        fprintf(fi, ", &%s_attrs[%d], sremrt_keymap_key(&m->e%d_keys, i));\n", P, a, j);
    } else {
        fprintf(f, "    sremrt_episode e%d;   /* episode %s */\n", j, ep->name);
        fprintf(in, "    if (%s_e%d_start(&m->e%d, &m->cfg) != 0)\n        return -1;\n", P, j, j);
        fprintf(fr, "    sremrt_episode_free(&m->e%d);\n", j);
        fprintf(pu, "    { /* episode %s */\n        sremrt_episode *c = &m->e%d;\n"
                    "        if (c->cfg.k && sremrt_episode_push(c, m->index, ",
                ep->name, j);
        put_ts(g, pu);
        fprintf(pu, ", %s_e%d_mask(e)) > 0)\n            %s", P, j, call);
        cg_put_c_string(pu, ep->name);
        fprintf(pu, ", e, NULL, 0, %" PRId64 ");\n    }\n", ep->has_alert ? ep->alert_threshold : 0);
        fprintf(fi, "    if (m->e%d.cfg.k)\n        %s_episode_summary(m, &m->e%d, ", j, P, j);
        cg_put_c_string(fi, ep->name);
        fputs(", NULL, 0);\n", fi);
    }
}

_Static_assert(EXPLORE_MAX_LENGTH == SREMRT_EXPLORE_MAX_M && EXPLORE_MAX_VALUES == SREMRT_EXPLORE_MAX_VALUES,
               "the checker's explore limits are the runtime's");

/* The explore clause of pattern i (LANGUAGE.md 5): its configuration and
 * the shared trie; one counting state per partition (slot of the
 * pattern's keymap). Push code goes after the pattern's own step, so a
 * match record comes before the suggestions of the same event. */
void cg_emit_explore_conf(Cg *g, int i, const AstPattern *p)
{
    const char *P = g->P;
    FILE *out = g->code.f, *f = g->fields.f, *in = g->init.f, *fr = g->freec.f, *fi = g->finish.f,
         *tr = g->trie.f;
    const AstAttr *ta = p->explore_attr;
    int m = p->body->nkids;
    fprintf(out, "/* explore: the event type is %s; candidates:%s%s, confidence %.17g */\n"
                 "static const int32_t %s_p%d_seq[%d] = {",
            ta->name, p->explore.extensions ? " extensions" : "", p->explore.variations ? " variations" : "",
            p->explore.threshold, P, i, m);
    for (int k = 0; k < m; k++)
        fprintf(out, "%s%d", k ? ", " : "", p->body->kids[k]->value_index);
    const char *win = p->hdr.window.kind == WIN_TIME     ? "SREMRT_EXPLORE_TIME"
                      : p->hdr.window.kind == WIN_EVENTS ? "SREMRT_EXPLORE_EVENTS"
                                                         : "SREMRT_EXPLORE_UNBOUNDED";
    fprintf(out, "};\n\nstatic int %s_p%d_explore_start(sremrt_explore *ex, const %s_config *cfg)\n{\n"
                 "    sremrt_explore_config xc;\n    memset(&xc, 0, sizeof xc);\n"
                 "    xc.pattern = %s_p%d_seq;\n    xc.m = %d;\n    xc.nvalues = %d;\n    xc.policy = %s;\n"
                 "    xc.window = %s;\n    xc.width = %" PRId64 ";\n    xc.extensions = %d;\n"
                 "    xc.variations = %d;\n    xc.confidence = %.17g;\n"
                 "    xc.algo = (sremrt_explore_algo)cfg->explore_algo;\n    xc.capacity = cfg->explore_cap;\n"
                 "    return sremrt_explore_init(ex, &xc, &cfg->alloc);\n}\n\n",
            P, i, P, P, i, m, ta->nvalues,
            p->hdr.policy == POLICY_STAM ? "SREMRT_EXPLORE_STAM" : "SREMRT_EXPLORE_STNM", win,
            p->hdr.window.kind == WIN_NONE ? (int64_t)1 : p->hdr.window.value, p->explore.extensions ? 1 : 0,
            p->explore.variations ? 1 : 0, p->explore.threshold);
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
    fprintf(f, "    sremrt_explore p%d_ex;   /* pattern %s: explore clause, one trie */\n", i, p->name);
    fprintf(in, "    if (%s_p%d_explore_start(&m->p%d_ex, &m->cfg) != 0)\n        return -1;\n", P, i, i);
    if (p->partition_attr) {
        fprintf(f, "    sremrt_explore_part *p%d_xp;   /* [max_keys]: counting state per partition */\n", i);
        fprintf(in, "    m->p%d_xp = sremrt_alloc_get(&m->cfg.alloc, (size_t)m->cfg.max_keys * sizeof *m->p%d_xp, 0);\n"
                    "    if (!m->p%d_xp)\n        return -1;\n",
                i, i, i);
        fprintf(fr, "    if (m->p%d_xp)\n        for (int32_t i = 0; i < m->p%d_keys.count; i++)\n"
                    "            sremrt_explore_part_free(&m->p%d_xp[i]);\n"
                    "    sremrt_alloc_free(&m->cfg.alloc, m->p%d_xp, (size_t)m->cfg.max_keys * sizeof *m->p%d_xp);\n"
                    "    m->p%d_xp = NULL;\n",
                i, i, i, i, i, i);
    } else {
        fprintf(f, "    sremrt_explore_part p%d_xp;\n", i);
        fprintf(in, "    if (sremrt_explore_part_init(&m->p%d_ex, &m->p%d_xp, &m->cfg.alloc) != 0)\n"
                    "        return -1;\n", i, i);
        fprintf(fr, "    sremrt_explore_part_free(&m->p%d_xp);\n", i);
    }
    fprintf(fr, "    sremrt_explore_free(&m->p%d_ex);\n", i);
    fprintf(fi, "    %s_explore_summary(m, &m->p%d_ex, ", P, i);
    cg_put_c_string(fi, p->name);
    fprintf(fi, ", %s_%d_values);\n", P, ta->index);
    fprintf(tr, "    %s_trie_one(s, &m->p%d_ex, ", P, i);
    cg_put_c_string(tr, p->name);
    fprintf(tr, ", %s_%d_values, %d, dot);\n", P, ta->index, ta->nvalues);
}

/* Push code of pattern i's explore clause for the event, into state st. */
void cg_put_explore_push(Cg *g, int i, const AstPattern *p, const char *st, const char *indent)
{
    fprintf(g->push.f, "%s%s_explore(m, &m->p%d_ex, %s, ", indent, g->P, i, st);
    cg_put_c_string(g->push.f, p->name);
    fprintf(g->push.f, ", e, e->");
    cg_put_field(g->push.f, p->explore_attr);
    fprintf(g->push.f, ", %s_%d_values);\n", g->P, p->explore_attr->index);
}
