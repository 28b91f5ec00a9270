/* cg_absent.c: a pattern's `absent [COND]` (docs/language.md 3.7) -> the
 * code of its pending absences: a queue in the matcher, P_pI_ab_add (a
 * body match becomes one, with its canonical start and bindings),
 * P_pI_ab_step (each event closes or meets them), the flush at finish
 * and their part of the checkpoint walk. The body's strategy does not
 * matter: the queue is fed by its match records (P_match). */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <inttypes.h>

/* Pending absences a --freestanding pattern holds; one more is counted
 * as a dropped run (SREMRT_OVF_RUNS). Hosted queues grow. */
enum { CG_ABSENT_FW = 64 };

static int nregs_of(const AstPattern *p) { return p->nregs > 0 ? p->nregs : 1; }

/* The obligation type (its head the runtime's link: index, key, deadline)
 * and the queue, runtime/absq.c: by key and by deadline. */
static void put_types(Cg *g, int i, const AstPattern *p)
{
    const char *P = g->P;
    cg_line(&g->types, 0, "typedef struct %s_p%d_ab {   /* pattern %s: a match waiting for its deadline */", P, i,
            p->name);
    cg_line(&g->types, 1, "sremrt_absq_link q;   /* its detection's index, key hash, start's timestamp */");
    cg_line(&g->types, 1, "int64_t start, key;   /* its start (0: unknown), key */");
    cg_line(&g->types, 1, "int64_t left;   /* count window: events of the key still in the window */");
    cg_line(&g->types, 1, "int64_t bind[%d];   /* the labels' events (0: empty register) */", nregs_of(p));
    cg_line(&g->types, 1, "%s_event ev[%d];   /* the registers the absent condition reads */", P, nregs_of(p));
    cg_line(&g->types, 1, "%s_event start_ev;", P);
    cg_line(&g->types, 1, "int32_t missing;   /* the start event was not at hand: start_ev is the match's */");
    cg_line(&g->types, 0, "} %s_p%d_ab;\n", P, i);
    cg_line(&g->fields, 0, "sremrt_absq ab%d;   /* pattern %s: its pending absences */", i, p->name);
    int timed = p->hdr.window.kind == WIN_TIME;
    if (g->o->freestanding) {
        cg_line(&g->fields, 0, "%s_p%d_ab ab%d_items[%d];", P, i, i, CG_ABSENT_FW);
        cg_line(&g->fields, 0, "int32_t ab%d_heap[%d], ab%d_order[%d];", i, CG_ABSENT_FW, i, CG_ABSENT_FW);
        cg_line(&g->fields, 0, "sremrt_absq_key ab%d_keys[%d];", i, 2 * CG_ABSENT_FW);
        cg_line(&g->init, 0, "sremrt_absq_init_fixed(&m->ab%d, sizeof(%s_p%d_ab), %d, m->ab%d_items, %d, m->ab%d_heap,",
                i, P, i, timed, i, CG_ABSENT_FW, i);
        cg_line(&g->init, 1, "m->ab%d_order, m->ab%d_keys);", i, i);
    } else {
        cg_line(&g->init, 0, "sremrt_absq_init(&m->ab%d, sizeof(%s_p%d_ab), %d, &m->cfg.alloc);", i, P, i, timed);
    }
    cg_line(&g->freec, 0, "sremrt_absq_free(&m->ab%d);", i);
}

/* kh, the key hash of event e as the queue files it (sremrt_absq_link). */
static void put_khash(Cg *g, const AstPattern *p, FILE *out)
{
    const char *P = g->P;
    if (p->npartition > 1) {   /* a composite key: its values' hash */
        fputs("    const int64_t kv[] = {", out);
        for (int k = 0; k < p->npartition; k++)
            fprintf(out, "%ssremrt_attr_int(&%s_attrs[%d], e)", k ? ", " : "", P, p->partition_attrs[k]->index);
        fprintf(out, "};\n    int64_t kh = sremrt_absq_hash(kv, %d);\n", p->npartition);
    } else if (p->partition_attr) {
        fprintf(out, "    int64_t kh = sremrt_attr_int(&%s_attrs[%d], e);\n", P, p->partition_attr->index);
    } else {
        fputs("    int64_t kh = 0;   /* unpartitioned: one key */\n", out);
    }
}

/* How many events of the substream the match holds from its start to the
 * event just pushed (count windows): the global span unpartitioned, else
 * the key's ring (m->cn_ring, set for this key by its push). */
static void put_own(Cg *g, int i, const AstPattern *p, FILE *out)
{
    const char *P = g->P;
    if (p->hdr.window.kind != WIN_EVENTS)
        return;
    if (!p->partition_attr) {
        fprintf(out, "    int64_t own = r.start > 0 ? m->index - r.start + 1 : 1;\n");
    } else {
        fprintf(out,
                "    const %s_p%d_h *h = (const %s_p%d_h *)m->cn_ring;\n"
                "    int64_t H = (int64_t)(sizeof h->idx / sizeof h->idx[0]), own = 0;\n"
                "    for (int64_t x = h->n - 1; r.start > 0 && x >= 0 && x >= h->n - H && h->idx[x %% H] >= r.start; x--)\n"
                "        own++;\n"
                "    if (own < 1)\n        own = 1;\n",
                P, i, P, i);
    }
    fprintf(out, "    o->left = INT64_C(%" PRId64 ") - own;\n", p->hdr.window.value);
}

/* A match of the body at the event just pushed: its start and bindings
 * (the canonical match), as a pending absence. */
static void put_add(Cg *g, int i, const AstPattern *p)
{
    FILE *out = g->absent.f;
    const char *P = g->P;
    int d = g->decl;
    fprintf(out,
            "/* Pattern %s: a match of the body at the event just pushed waits for the\n"
            " * end of its window (docs/language.md 3.7), with its start and registers. */\n"
            "static void %s_p%d_ab_add(%s_matcher *m, const %s_event *e, int64_t key)\n{\n"
            "    sremrt_record r;\n    memset(&r, 0, sizeof r);\n    %s_canon_fill(m, %d, &r);\n"
            "    const %s_event *sev = r.start > 0 && r.start_event ? (const %s_event *)r.start_event : e;\n",
            p->name, P, i, P, P, P, d, P, P);
    put_khash(g, p, out);
    fprintf(out, "    int32_t slot = sremrt_absq_add(&m->ab%d, kh, m->index, ", i);
    if (p->hdr.window.kind == WIN_TIME) {
        fputs("(int64_t)sev->", out);
        cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
    } else {
        fputs("0", out);
    }
    fprintf(out, ");\n"
            "    if (slot < 0) {\n        m->ovf[%d][%s]++;\n        return;\n    }\n"
            "    %s_p%d_ab *o = (%s_p%d_ab *)sremrt_absq_at(&m->ab%d, slot);   /* zeroed past the link */\n"
            "    o->start = r.start;\n    o->key = key;\n    o->start_ev = *sev;\n"
            "    o->missing = r.events_missing;\n",
            d, g->o->freestanding ? "SREMRT_OVF_RUNS" : "SREMRT_OVF_MEMORY", P, i, P, i, i);
    put_own(g, i, p, out);
    if (p->nregs > 0)
        fprintf(out,
                "    for (int32_t x = 0; x < r.nbind && x < %d; x++) {\n"
                "        o->bind[x] = r.bind[x];\n"
                "        if (r.bind[x] > 0 && r.bind_events[x])\n"
                "            o->ev[x] = *(const %s_event *)r.bind_events[x];\n        else\n"
                "            o->bind[x] = 0;\n    }\n",
                p->nregs, P);
    fputs("}\n\n", out);
}

/* Its absent record: at event e, or at the end of input (e NULL: no ts). */
static void put_record(Cg *g, int i, const AstPattern *p)
{
    FILE *out = g->absent.f;
    const char *P = g->P;
    if (p->npartition > 1)   /* defined with the record helpers, after this code */
        fprintf(out, "static void %s_ckey(const %s_matcher *m, int32_t decl, int64_t slot, sremrt_record *r);\n\n",
                P, P);
    fprintf(out,
            "static void %s_p%d_ab_record(%s_matcher *m, const %s_p%d_ab *o, const %s_event *e)\n{\n"
            "    char key_text[128];\n    const void *bev[%d];\n    sremrt_record r;\n"
            "    if (!m->cfg.record)\n        return;\n"
            "    memset(&r, 0, sizeof r);\n    r.kind = SREMRT_ABSENT;\n"
            "    r.name = %s_decl_names[%d];\n    r.decl = %d;\n    r.index = m->index;\n",
            P, i, P, P, i, P, nregs_of(p), P, g->decl, g->decl);
    if (g->schema->ts_attr >= 0) {
        fputs("    r.has_ts = e != NULL;\n    r.ts = e ? (int64_t)e->", out);
        cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
        fputs(" : 0;\n", out);
    } else {
        fputs("    (void)e;\n", out);
    }
    if (p->npartition > 1)   /* a composite key: o->key is its slot */
        fprintf(out, "    (void)key_text;\n    %s_ckey(m, %d, o->key, &r);\n", P, g->decl);
    else if (p->partition_attr)   /* a string key's text is in the table */
        fprintf(out, "    r.key = sremrt_key_text(key_text, sizeof key_text, &%s_attrs[%d], o->key, %s_strtab(m));\n",
                P, p->partition_attr->index, P);
    else
        fputs("    (void)key_text;\n", out);
    fprintf(out, "    r.start = o->start;\n    r.schema = &%s_schema;\n"
                 "    r.start_event = o->start > 0 && !o->missing ? &o->start_ev : NULL;\n"
                 "    r.events_missing = o->missing;\n", P);
    if (p->nregs > 0)
        fprintf(out, "    for (int32_t x = 0; x < %d; x++)\n        bev[x] = o->bind[x] > 0 ? &o->ev[x] : NULL;\n"
                     "    r.nbind = %d;\n    r.bind_names = %s_p%d_bn;\n    r.bind = o->bind;\n"
                     "    r.bind_events = bev;\n",
                p->nregs, p->nregs, P, i);
    else
        fputs("    (void)bev;\n", out);
    fprintf(out, "    %s_canon_lost(m, %d, &r);\n    m->cfg.record(m->cfg.user, &r);\n}\n\n", P, g->decl);
}

/* Event e against the pending absences: time windows, those whose window
 * e closes (the heap's earliest starts) give their records in the order of
 * their matches; then the key's own, oldest first: a count window e is
 * past closes (its record), else e meets it when it satisfies the
 * condition. Only e's key is walked (khash; a composite key's values are
 * compared too, a hash being no proof). */
static void put_step(Cg *g, int i, const AstPattern *p)
{
    FILE *out = g->absent.f;
    const char *P = g->P;
    fprintf(out,
            "/* Pattern %s, before the body sees e: e closes the windows it is past\n"
            " * (their absent records, oldest match first) and meets the pending\n"
            " * absences of its key whose condition it satisfies. */\n"
            "static void %s_p%d_ab_step(%s_matcher *m, const %s_event *e)\n{\n"
            "    sremrt_absq *q = &m->ab%d;\n"
            "    if (q->n == 0)\n        return;\n",
            p->name, P, i, P, P, i);
    if (p->hdr.window.kind == WIN_TIME) {
        fputs("    int32_t nx = sremrt_absq_expired(q, (int64_t)e->", out);
        cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
        fprintf(out, ", UINT64_C(%" PRIu64 "));\n"
                     "    for (int32_t k = 0; k < nx; k++) {\n"
                     "        %s_p%d_ab_record(m, (const %s_p%d_ab *)sremrt_absq_at(q, q->order[k]), e);\n"
                     "        sremrt_absq_remove(q, q->order[k]);\n    }\n",
                (uint64_t)p->hdr.window.value, P, i, P, i);
    }
    put_khash(g, p, out);
    fprintf(out, "    for (int32_t s = sremrt_absq_first(q, kh), next; s >= 0; s = next) {\n"
                 "        %s_p%d_ab *o = (%s_p%d_ab *)sremrt_absq_at(q, s);\n"
                 "        next = o->q.next;\n",
            P, i, P, i);
    if (p->npartition > 1) {
        fprintf(out, "        const int64_t *ov = sremrt_keymap_tuple(&m->p%d_keys, (int32_t)o->key);\n"
                     "        int mine = 1;\n"
                     "        for (int x = 0; x < %d; x++)\n            mine &= ov[x] == kv[x];\n"
                     "        if (!mine)\n            continue;\n",
                i, p->npartition);
    }
    if (p->hdr.window.kind == WIN_EVENTS)
        fprintf(out, "        if (o->left <= 0) {   /* e is past its window */\n"
                     "            %s_p%d_ab_record(m, o, e);\n"
                     "            sremrt_absq_remove(q, s);\n"
                     "            continue;\n        }\n"
                     "        o->left--;\n",
                P, i);
    fprintf(out, "        const void *regs[%d];\n"
                 "        for (int32_t x = 0; x < %d; x++)\n"
                 "            regs[x] = o->bind[x] > 0 ? &o->ev[x] : NULL;\n"
                 "        if (%s_p%d_ab_cond(e, regs))\n"
                 "            sremrt_absq_remove(q, s);   /* met */\n    }\n}\n\n",
            nregs_of(p), nregs_of(p), P, i);
}

/* Its part of the checkpoint: the pending absences in the order of their
 * matches, each with its links cleared (the same bytes whatever the slots);
 * a load adds them again, so the indices are rebuilt. */
static void put_state(Cg *g, int i, const AstPattern *p)
{
    const char *P = g->P;
    Buf *st = &g->sec[CG_STATE];
    cg_line(st, 0, "{ /* pattern %s: its pending absences, oldest match first */", p->name);
    cg_line(st, 1, "sremrt_absq *q = &m->ab%d;", i);
    cg_line(st, 1, "%s_p%d_ab o;", P, i);
    cg_line(st, 1, "int64_t n = q->n;");
    cg_line(st, 1, "sremrt_state_i64(io, &n);");
    cg_line(st, 1, "if (io->mode != SREMRT_STATE_LOAD) {");
    cg_line(st, 2, "sremrt_absq_sorted(q);");
    cg_line(st, 2, "for (int64_t k = 0; k < n; k++) {");
    cg_line(st, 3, "memcpy(&o, sremrt_absq_at(q, q->order[k]), sizeof o);   /* padding too */");
    cg_line(st, 3, "o.q.next = o.q.prev = o.q.hpos = -1;");
    cg_line(st, 3, "sremrt_state_bytes(io, &o, sizeof o);");
    cg_line(st, 2, "}");
    cg_line(st, 1, "} else if (io->err == SREMRT_STATE_OK) {");
    cg_line(st, 2, "if (n < 0)");
    cg_line(st, 3, "sremrt_state_fail(io, SREMRT_STATE_EFORMAT);");
    cg_line(st, 2, "sremrt_absq_clear(q);");
    cg_line(st, 2, "for (int64_t k = 0; k < n && io->err == SREMRT_STATE_OK; k++) {");
    cg_line(st, 3, "sremrt_state_bytes(io, &o, sizeof o);");
    cg_line(st, 3, "int32_t s = io->err == SREMRT_STATE_OK ? sremrt_absq_add(q, o.q.khash, o.q.index, o.q.due) : -1;");
    cg_line(st, 3, "if (s >= 0)");
    cg_line(st, 4, "memcpy((char *)sremrt_absq_at(q, s) + sizeof o.q, (const char *)&o + sizeof o.q, sizeof o - sizeof o.q);");
    cg_line(st, 3, "else if (io->err == SREMRT_STATE_OK)");
    cg_line(st, 4, "sremrt_state_fail(io, %s);", g->o->freestanding ? "SREMRT_STATE_ECONFIG" : "SREMRT_STATE_EMEMORY");
    cg_line(st, 2, "}");
    cg_line(st, 1, "}");
    cg_line(st, 0, "}");
}

/* Pattern i's absences: its code, its step before its body's in push,
 * the flush at finish and its checkpoint part. */
void cg_emit_absent(Cg *g, int i, const AstPattern *p)
{
    if (!p->absent.present)
        return;
    const char *P = g->P;
    char fname[CG_NAME_MAX];
    put_types(g, i, p);
    snprintf(fname, sizeof fname, "%s_p%d_ab_cond", P, i);
    cg_emit_cond_fn(g->absent.f, P, fname, "const void *const *regs", p->absent.cond, REG_EVENTS, NULL, 0);
    put_add(g, i, p);
    put_record(g, i, p);
    put_step(g, i, p);
    fprintf(g->absent_add.f, "    case %d:\n        %s_p%d_ab_add(m, e, key);\n        return 1;\n", g->decl, P, i);
    cg_line(&g->push, 0, "%s_p%d_ab_step(m, e);   /* pattern %s: its pending absences */", P, i, p->name);
    cg_line(&g->finish, 0, "for (int32_t k = 0, n = m->cfg.flush_absent ? sremrt_absq_sorted(&m->ab%d) : 0; k < n; k++)"
            "   /* pattern %s */", i, p->name);
    cg_line(&g->finish, 1, "%s_p%d_ab_record(m, (const %s_p%d_ab *)sremrt_absq_at(&m->ab%d, m->ab%d.order[k]), NULL);",
            P, i, P, i, i, i);
    cg_line(&g->finish, 0, "sremrt_absq_clear(&m->ab%d);", i);
    put_state(g, i, p);
}

/* After every pattern: P_ab_add, which P_match asks first. */
void cg_emit_absent_end(Cg *g)
{
    const char *add = cg_buf_close(&g->absent_add);
    if (!add || !*add)
        return;
    fprintf(g->absent.f,
            "/* A match of decl: 1 when decl has `absent` (the match became a pending\n"
            " * absence, no match record), else 0. */\n"
            "static int %s_ab_add(%s_matcher *m, int32_t decl, const %s_event *e, int64_t key)\n{\n"
            "    switch (decl) {\n%s\n    }\n    return 0;\n}\n",
            g->P, g->P, g->P, add);
}
