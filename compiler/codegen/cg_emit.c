/* cg_emit.c: the driver: matcher struct, schema, batched push_many, holes of the templates; cg_emit. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Matcher fields, init, push and free code of pattern i. */
static void emit_driver(Cg *g, int i, const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const char *P = g->P;
    bool runs = plan->strategy == STRATEGY_RUNS;
    bool part = p->partition_attr != NULL;
    const char *step_args = runs ? ", m->cfg.max_runs, &m->stats.overflow[SREMRT_OVF_RUNS]" : "";
    FILE *f = g->fields.f, *in = g->init.f, *pu = g->push.f, *fr = g->freec.f;

    if (part || runs)
        g->no_batch = true;
    if (part) {
        cg_arena_keymap(g, "pattern", p->name);
        cg_arena_term(g, "pattern states", "%d * sizeof(%s_p%d_st)", cg_keys(g), P, i);
        if (runs)
            cg_arena_term(g, "pattern runs", "%d * 2 * (SREMRT_MAX_ALIGN + %d * sizeof(%s_p%d_run))", cg_keys(g),
                       g->o->strategy.max_runs, P, i);
    } else if (runs) {
        cg_arena_term(g, "pattern runs", "2 * (SREMRT_MAX_ALIGN + %d * sizeof(%s_p%d_run))", g->o->strategy.max_runs,
                   P, i);
    }
    if (part) {
        fprintf(f, "    sremrt_keymap p%d_keys;   /* pattern %s: partition key -> slot */\n", i, p->name);
        fprintf(f, "    %s_p%d_st *p%d;   /* [max_keys] */\n", P, i, i);
        fprintf(in, "    if (sremrt_keymap_init(&m->p%d_keys, m->cfg.max_keys, &m->cfg.alloc) != 0)\n"
                    "        return -1;\n"
                    "    m->p%d = sremrt_alloc_get(&m->cfg.alloc, (size_t)m->cfg.max_keys * sizeof *m->p%d, 0);\n"
                    "    if (!m->p%d)\n        return -1;\n",
                i, i, i, i);
        if (runs)
            fprintf(fr, "    if (m->p%d)\n        for (int32_t i = 0; i < m->p%d_keys.count; i++)\n"
                        "            %s_p%d_release(&m->p%d[i], &m->cfg.alloc, m->cfg.max_runs);\n",
                    i, i, P, i, i);
        fprintf(fr, "    sremrt_alloc_free(&m->cfg.alloc, m->p%d, (size_t)m->cfg.max_keys * sizeof *m->p%d);\n"
                    "    m->p%d = NULL;\n    sremrt_keymap_free(&m->p%d_keys);\n",
                i, i, i, i);
        char cg_keys[32];
        snprintf(cg_keys, sizeof cg_keys, "p%d_keys", i);
        cg_put_key_slot(g, "pattern", p->name, p->partition_attr, cg_keys);
        fprintf(pu, "            %s_p%d_st *s = &m->p%d[slot];\n            if (inserted)\n"
                    "                memset(s, 0, sizeof *s);\n",
                P, i, i);
        if (runs)
            fprintf(pu, "            if (!s->cur && %s_p%d_alloc(s, &m->cfg.alloc, m->cfg.max_runs) != 0)\n"
                        "                m->stats.overflow[SREMRT_OVF_MEMORY]++;\n            else\n    ",
                    P, i);
        fprintf(pu, "            if (%s_p%d_step(s, e%s))\n"
                    "                %s_match(m, ", P, i, step_args, P);
        cg_put_c_string(pu, p->name);
        fprintf(pu, ", e, &%s_attrs[%d], key);\n", P, p->partition_attr->index);
        if (p->explore.present) {
            fprintf(pu, "            if (inserted && sremrt_explore_part_init(&m->p%d_ex, &m->p%d_xp[slot], "
                        "&m->cfg.alloc) != 0)\n"
                        "                m->stats.overflow[SREMRT_OVF_MEMORY]++;\n"
                        "            if (m->p%d_xp[slot].mem)\n",
                    i, i, i);
            char st[64];
            snprintf(st, sizeof st, "&m->p%d_xp[slot]", i);
            cg_put_explore_push(g, i, p, st, "                ");
        }
        fputs("        }\n    }\n", pu);
    } else {
        fprintf(f, "    %s_p%d_st p%d;   /* pattern %s */\n", P, i, i, p->name);
        if (runs) {
            fprintf(in, "    if (%s_p%d_alloc(&m->p%d, &m->cfg.alloc, m->cfg.max_runs) != 0)\n        return -1;\n",
                    P, i, i);
            fprintf(fr, "    %s_p%d_release(&m->p%d, &m->cfg.alloc, m->cfg.max_runs);\n", P, i, i);
        }
        if (g->threaded) {   /* push_many is the pattern's run function */
            fprintf(g->many_fast.f, "    return %s_p%d_run(m, &m->p%d, events, n);\n", P, i, i);
            return;
        }
        if (g->local_state && !p->explore.present && g->nbatch < CG_BATCH_MAX) {
            g->batch[g->nbatch] = i;
            g->batch_name[g->nbatch++] = p->name;
        } else {
            g->no_batch = true;
        }
        char st[32];
        snprintf(st, sizeof st, g->local_state ? "&st%d" : "&m->p%d", i);
        if (g->local_state) {
            fprintf(g->many_in.f, "    %s_p%d_st st%d = m->p%d;\n", P, i, i, i);
            fprintf(g->many_out.f, "    m->p%d = st%d;\n", i, i);
        }
        fprintf(pu, "    if (%s_p%d_step(%s, e%s)) /* pattern %s */\n        %s_match(m, ", P, i, st,
                step_args, p->name, P);
        cg_put_c_string(pu, p->name);
        fputs(", e, NULL, 0);\n", pu);
        if (p->explore.present) {
            char st[64];
            snprintf(st, sizeof st, "&m->p%d_xp", i);
            cg_put_explore_push(g, i, p, st, "    ");
        }
    }
    if (p->explore.present)
        cg_emit_explore_conf(g, i, p);
}

/* push_many of a file whose declarations are all unpartitioned patterns
 * with their state in locals (chains and tables, no explore; the copies
 * in and out are many_in's and many_out's, closed): blocks of
 * up to CG_BATCH_BLOCK events, where each step's detection is noted in an
 * array without a branch (a branch on it mispredicts on every
 * unpredictable detection) and the counters are set once; the records
 * follow the block, in the same order (events, then declarations) and
 * with the index and event each would have had. */
static void emit_batched(Cg *g)
{
    FILE *out = g->many_fast.f;
    const char *P = g->P;
    int np = g->nbatch;
    fprintf(out, "    /* Batched: detections noted without a branch, reported after each block. */\n"
                 "    static const char *const names[%d] = {", np);
    for (int b = 0; b < np; b++) {
        fputs(b ? ", " : "", out);
        cg_put_c_string(out, g->batch_name[b]);
    }
    fprintf(out, "};\n%s\n", g->many_in.text);
    fprintf(out, "    size_t k, done = 0;\n"
                 "    while (done < n) {\n"
                 "        uint16_t hit[%d];\n"
                 "        size_t c = n - done < %du ? n - done : %du, nh = 0;\n"
                 "        const %s_event *b = events + done;\n"
                 "        for (k = 0; k < c; k++) {\n"
                 "            const %s_event *e = &b[k];\n"
                 "            if (%s_rejected(m, e))\n                break;\n",
            np * CG_BATCH_BLOCK, CG_BATCH_BLOCK, CG_BATCH_BLOCK, P, P, P);
    for (int b = 0; b < np; b++)
        fprintf(out, "            hit[nh] = (uint16_t)(k * %du + %du);\n"
                     "            nh += (size_t)%s_p%d_step(&st%d, e);\n",
                np, b, P, g->batch[b], g->batch[b]);
    /* one record for the block: only name, index and ts change */
    fprintf(out, "        }\n"
                 "        int64_t index = m->index;\n"
                 "        uint64_t count = m->stats.events;\n"
                 "        if (nh > 0 && m->cfg.record) {\n"
                 "            sremrt_record r;\n"
                 "            memset(&r, 0, sizeof r);\n"
                 "            r.kind = SREMRT_MATCH;\n"
                 "            r.has_ts = %d;\n"
                 "            for (size_t h = 0; h < nh; h++) {\n"
                 "                size_t at = hit[h] / %du;\n"
                 "                m->index = index + (int64_t)at + 1;\n"
                 "                m->stats.events = count + at + 1;\n"
                 "                r.name = names[hit[h] %% %du];\n"
                 "                r.index = m->index;\n",
            g->schema->ts_attr >= 0, np, np);
    if (g->schema->ts_attr >= 0) {
        fputs("                r.ts = (int64_t)b[at].", out);
        cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
        fputs(";\n", out);
    }
    fprintf(out, "                m->cfg.record(m->cfg.user, &r);\n"
                 "            }\n"
                 "        }\n"
                 "        m->index = index + (int64_t)k;\n"
                 "        m->stats.events = count + k;\n"
                 "        done += k;\n"
                 "        if (k < c)\n            break;\n"
                 "    }\n%s\n    return done;\n",
            g->many_out.text);
}

static void emit_schema(Cg *g, FILE *fields, FILE *desc, FILE *same)
{
    const AstSchema *s = g->schema;
    const char *P = g->P;
    static const char *const ctype[] = {"int64_t", "double", "uint8_t", "int32_t", "int64_t"};
    static const char *const rtype[] = {"SREMRT_INT", "SREMRT_FLOAT", "SREMRT_BOOL", "SREMRT_ENUM",
                                        "SREMRT_TIMESTAMP"};
    static const char *const what[] = {"int", "float", "bool: 0 or 1", "enum: value index",
                                       "timestamp"};
    for (int a = 0; a < s->nattrs; a++) {
        const AstAttr *at = &s->attrs[a];
        fprintf(fields, "    %s ", ctype[at->kind]);
        cg_put_field(fields, at);
        fprintf(fields, ";   /* %s */\n", what[at->kind]);
        if (at->kind == ATTR_ENUM) {
            fprintf(desc, "static const char *const %s_%d_values[] = {", P, a);
            for (int v = 0; v < at->nvalues; v++) {
                fputs(v ? ", " : "", desc);
                cg_put_c_string(desc, at->values[v].name);
            }
            fputs("};\n", desc);
        }
        fprintf(same, "    if (memcmp(&a->");
        cg_put_field(same, at);
        fputs(", &b->", same);
        cg_put_field(same, at);
        fputs(", sizeof a->", same);
        cg_put_field(same, at);
        fputs(") != 0)\n        return 0;\n", same);
    }
    fputs("    return 1;\n", same);
    fprintf(desc, "static const sremrt_attr %s_attrs[] = {\n", P);
    for (int a = 0; a < s->nattrs; a++) {
        const AstAttr *at = &s->attrs[a];
        fputs("    {", desc);
        cg_put_c_string(desc, at->name);
        fprintf(desc, ", %s, offsetof(%s_event, ", rtype[at->kind], P);
        cg_put_field(desc, at);
        if (at->kind == ATTR_ENUM)
            fprintf(desc, "), %d, %s_%d_values},\n", at->nvalues, P, a);
        else
            fputs("), 0, NULL},\n", desc);
    }
    fprintf(desc, "};\nconst sremrt_schema %s_schema = {", P);
    cg_put_c_string(desc, s->name);
    fprintf(desc, ", %d, %s_attrs, %d, sizeof(%s_event)};", s->nattrs, P, s->ts_attr, P);
}

/* The timestamp rule of LANGUAGE.md 2, inline: push reads the field
 * directly (a generic field read cost a third of a tdfa's time). */
static void emit_ts_check(Cg *g, FILE *out)
{
    const AstSchema *s = g->schema;
    if (s->ts_attr < 0)
        return;
    const AstAttr *ts = &s->attrs[s->ts_attr];
    fputs("    if (m->order.seen && e->", out);
    cg_put_field(out, ts);
    fputs(" < m->order.last) {\n        sremrt_tsorder_accept(&m->order, e->", out);
    cg_put_field(out, ts);
    fputs(", m->error, sizeof m->error);\n        m->stats.rejected++;\n        return 1;\n    }\n"
          "    m->order.last = e->", out);
    cg_put_field(out, ts);
    fputs(";\n    m->order.seen = 1;\n", out);
}

static void emit_externs(Cg *g)
{
    FILE *out = g->externs.f;
    bool any = false;
    for (int i = 0; i < g->ast->ndecls; i++) {
        if (g->ast->decls[i].kind != DECL_EXTERN)
            continue;
        const AstExtern *x = g->ast->decls[i].u.ext;
        static const char *const ty[] = {"int", "bool", "int64_t", "double", "int", "int"};
        if (!any)
            fputs("/* Extern predicates the user links in (LANGUAGE.md 3.4). */\n", out);
        any = true;
        fprintf(out, "extern %s %s(", ty[x->ret], x->name);
        for (int k = 0; k < x->nparams; k++)
            fprintf(out, "%s%s", k ? ", " : "", ty[x->params[k]]);
        fputs(x->nparams ? ");\n" : "void);\n", out);
    }
    if (any)
        fputc('\n', out);
}

/* What pattern and episode declarations have in common here. */
typedef struct DeclInfo {
    const char      *kind, *name;
    const AstSchema *schema;
    Loc              loc;
} DeclInfo;

static bool decl_info(const AstDecl *d, DeclInfo *info)
{
    if (d->kind == DECL_PATTERN)
        *info = (DeclInfo){"pattern", d->u.pattern->name, d->u.pattern->schema, d->u.pattern->loc};
    else if (d->kind == DECL_EPISODE)
        *info = (DeclInfo){"episode", d->u.episode->name, d->u.episode->schema, d->u.episode->loc};
    return d->kind == DECL_PATTERN || d->kind == DECL_EPISODE;
}

/* The schema of the file's patterns and episodes: one per file; differing
 * ones are an error naming both. */
static bool find_schema(Cg *g)
{
    DeclInfo first = {0}, d;
    bool ok = true;
    for (int i = 0; i < g->ast->ndecls; i++) {
        if (!decl_info(&g->ast->decls[i], &d))
            continue;
        if (!first.kind) {
            first = d;
            g->schema = d.schema;
        } else if (d.schema != g->schema) {
            diag_error(g->diag, d.loc,
                       "%s '%s' is on schema '%s' but %s '%s' (line %d) is on schema "
                       "'%s': one generated matcher takes one event type; put them in separate files",
                       d.kind, d.name, d.schema->name, first.kind, first.name, first.loc.line, g->schema->name);
            ok = false;
        }
    }
    if (!first.kind)
        for (int i = 0; i < g->ast->ndecls && !g->schema; i++)
            if (g->ast->decls[i].kind == DECL_SCHEMA)
                g->schema = g->ast->decls[i].u.schema;
    if (!g->schema) {
        Loc none = {0, 0};
        diag_error(g->diag, none, "no schema: nothing to generate");
        return false;
    }
    return ok;
}

/* The matcher struct: what every matcher has, then each declaration's
 * fields; in the header of --freestanding code (with the state types),
 * else in the .c. */
static void put_matcher_struct(Cg *g, FILE *out)
{
    const char *P = g->P;
    fprintf(out, "struct %s_matcher {\n"
                 "    %s_config cfg;     /* as given to init, defaults filled in */\n"
                 "    sremrt_stats stats;        /* events, rejected, overflows */\n"
                 "    sremrt_tsorder order;      /* the timestamp-goes-backwards rule */\n"
                 "    int64_t index;             /* global index of the last accepted event */\n"
                 "    char error[96];            /* why the last push was rejected */\n"
                 "    int finished;              /* finish ran: summaries given, stats added */\n"
                 "%s};\n",
            P, P, g->fields.text);
}

/* --freestanding: the capacities and NAME_ARENA_BYTES, in the header. */
static void put_arena_macros(Cg *g, FILE *out)
{
    const char *P = g->P;
    const CgCaps *c = &g->o->caps;
    fprintf(out, "\n/* The capacities this matcher was generated for (sremc --freestanding\n"
                 " * --max-cg_keys ... ; 0: the runtime's default), NAME_config_default's values. */\n"
                 "#define %s_MAX_KEYS %d\n#define %s_MAX_RUNS %d\n#define %s_DISTINCT_BUDGET %d\n"
                 "#define %s_OCCMAP_CAP %d\n#define %s_EXPLORE_CAP %d\n\n",
            P, c->max_keys, P, g->o->strategy.max_runs, P, c->distinct_budget, P, c->occmap_cap, P,
            c->explore_cap);
    fprintf(out, "/* Bytes %s_init and the first event of every partition key take from\n"
                 " * cfg.alloc at those capacities: give it an arena this large, e.g.\n"
                 " *     static unsigned char mem[%s_ARENA_BYTES];\n"
                 " *     sremrt_arena_init(&ar, mem, sizeof mem); cfg.alloc = sremrt_arena_hook(&ar);\n"
                 " * Runtime structures are sized as on the host sremc ran on (8-byte pointers:\n"
                 " * an upper bound for 32-bit targets); matcher states by your compiler. */\n"
                 "#define %s_ARENA_BYTES ((size_t)8   /* never an empty array */%s)\n",
            P, P, P, g->heap.text);
}

bool cg_emit(const Ast *ast, Plan *const *plans, const CgOptions *o, Arena *arena, Diag *diag, FILE *c,
             FILE *h)
{
    Cg g = {.ast = ast, .o = o, .arena = arena, .diag = diag, .P = o->prefix};
    if (!find_schema(&g))
        return false;
    cg_buf_open(&g.code);
    cg_buf_open(&g.fields);
    cg_buf_open(&g.init);
    cg_buf_open(&g.push);
    cg_buf_open(&g.freec);
    cg_buf_open(&g.externs);
    cg_buf_open(&g.finish);
    cg_buf_open(&g.trie);
    cg_buf_open(&g.types);
    cg_buf_open(&g.heap);
    cg_buf_open(&g.many_in);
    cg_buf_open(&g.many_out);
    cg_buf_open(&g.run);
    cg_buf_open(&g.many_fast);
    int i = 0, j = 0, ndecls = 0;
    bool ok = true;
    for (int k = 0; k < ast->ndecls; k++)
        ndecls += ast->decls[k].kind == DECL_PATTERN || ast->decls[k].kind == DECL_EPISODE;
    for (int k = 0; k < ast->ndecls; k++) {
        if (ast->decls[k].kind == DECL_EPISODE)
            cg_emit_episode(&g, j++, ast->decls[k].u.episode);
        if (ast->decls[k].kind != DECL_PATTERN)
            continue;
        const AstPattern *p = ast->decls[k].u.pattern;
        const Plan *plan = plans[i];
        if (!plan) {
            ok = false;
            continue;
        }
        FILE *out = g.code.f;
        fprintf(out, "/* ---- pattern %s (p%d): strategy %s (%s), ", p->name, i,
                strategy_name(plan->strategy), plan->reason);
        cg_window_text(p, out);
        if (p->partition_attr)
            fprintf(out, ", partition by %s", p->partition_attr->name);
        if (plan->min)
            fprintf(out, "; %d states, %d minterms", plan->min->nstates, plan->min->ncubes);
        fputs(" ---- */\n\n", out);
        if (plan->strategy == STRATEGY_RUNS) {
            cg_emit_runs(&g, i, plan);
            g.has_runs = true;
        } else if (plan->chain && plan->strategy == STRATEGY_TDFA &&
                   (!plan->min || plan->layout == LAYOUT_CHAIN)) {
            cg_emit_chain(&g, i, plan);
            g.local_state = p->partition_attr == NULL;
            g.has_tdfa = true;
        } else {
            Table table;
            int *atom_bit = arena_alloc(arena, ((size_t)plan->min->mt->natoms + 1) * sizeof *atom_bit);
            g.local_state = false;
            /* tables for plain DFAs (they measured at the table-DFA floor
             * on B2, a little ahead of the chain); with start tags a chain
             * where the pattern is one, else trees, which measured faster
             * than tagged tables on uniform streams (docs/PERFORMANCE.md):
             * tagged tables on request */
            bool automatic = plan->layout == LAYOUT_AUTO || plan->layout == LAYOUT_CHAIN;
            bool want = plan->layout == LAYOUT_TABLE || (automatic && !plan->min->tagged);
            if (plan->layout == LAYOUT_NODES) {
                cg_emit_nodes(&g, i, plan);
            } else if (want && cg_table_plan(&g, plan->min, &table, atom_bit)) {
                cg_emit_tdfa_table(&g, i, plan, &table, atom_bit);
                g.local_state = p->partition_attr == NULL;
            } else if (plan->chain && plan->strategy == STRATEGY_TDFA && plan->layout == LAYOUT_AUTO) {
                cg_emit_chain(&g, i, plan);
                g.local_state = p->partition_attr == NULL;
            } else if (automatic && plan->min->ntrans > CG_NODES_AUTO_TRANS) {
                cg_emit_nodes(&g, i, plan);
            } else {
                /* threaded run: one per-state prologue each, so only for
                 * small automata (fire's 768-state dsra took 7x longer to
                 * compile at -O2 threaded) */
                g.threaded = ndecls == 1 && !p->partition_attr && !p->explore.present &&
                             plan->min->nstates <= 256;
                cg_emit_dsra(&g, i, plan);
            }
            if (plan->strategy == STRATEGY_TDFA)
                g.has_tdfa = true;
            else
                g.has_dsra = true;
        }
        emit_driver(&g, i, plan);
        g.local_state = false;
        g.threaded = false;
        i++;
    }
    bool batched = !g.no_batch && g.nbatch > 0 && g.nbatch == ndecls;
    Buf fields, desc, same, tscheck;
    cg_buf_open(&tscheck);
    emit_ts_check(&g, tscheck.f);
    cg_buf_close(&tscheck);
    cg_buf_open(&fields);
    cg_buf_open(&desc);
    cg_buf_open(&same);
    emit_schema(&g, fields.f, desc.f, same.f);
    emit_externs(&g);
    cg_buf_close(&fields);
    cg_buf_close(&desc);
    cg_buf_close(&same);
    cg_buf_close(&g.code);
    cg_buf_close(&g.fields);
    cg_buf_close(&g.init);
    cg_buf_close(&g.push);
    cg_buf_close(&g.freec);
    cg_buf_close(&g.externs);
    cg_buf_close(&g.finish);
    cg_buf_close(&g.trie);
    cg_buf_close(&g.heap);
    cg_buf_close(&g.many_in);
    cg_buf_close(&g.many_out);
    if (batched)   /* takes the state copies of many_in and many_out */
        emit_batched(&g);
    cg_buf_close(&g.run);
    cg_buf_close(&g.many_fast);
    put_matcher_struct(&g, g.types.f);
    if (o->freestanding)
        put_arena_macros(&g, g.types.f);
    cg_buf_close(&g.types);
    if (o->runtime_bytes)
        *o->runtime_bytes = g.rt_bytes;
    if (ok && diag->nerrors == 0) {
        char guard[160], strategies[64], maxruns[32], srcc[160];
        snprintf(guard, sizeof guard, "%s_H_GENERATED", o->prefix);
        for (char *s = guard; *s; s++)
            *s = (char)toupper((unsigned char)*s);
        snprintf(strategies, sizeof strategies, "%s%s%s", g.has_tdfa ? "tdfa " : "",
                 g.has_dsra ? "dsra " : "", g.has_runs ? "runs " : "");
        size_t n = strlen(strategies);
        if (n)
            strategies[n - 1] = '\0';
        else
            snprintf(strategies, sizeof strategies, "no patterns");
        snprintf(maxruns, sizeof maxruns, "%d", o->strategy.max_runs);
        snprintf(srcc, sizeof srcc, "%s.c", o->prefix);
        char *src_comment = NULL;
        size_t src_len = 0;
        FILE *sc = open_memstream(&src_comment, &src_len);
        cg_put_comment_text(sc, o->source);
        fclose(sc);
        char maxkeys[32], budget[32], occcap[32], xcap[32];
        snprintf(maxkeys, sizeof maxkeys, "%d", o->caps.max_keys);
        snprintf(budget, sizeof budget, "%d", o->caps.distinct_budget);
        snprintf(occcap, sizeof occcap, "%d", o->caps.occmap_cap);
        snprintf(xcap, sizeof xcap, "%d", o->caps.explore_cap);
        const char *fs = o->freestanding ? "\n/* --freestanding: no stdio, no malloc (runtime headers leave them out). */\n"
                                           "#ifndef SREMRT_FREESTANDING\n#define SREMRT_FREESTANDING 1\n#endif\n"
                                         : "";
        /* the event's timestamp, read directly (records, explore) */
        Buf event_ts;
        cg_buf_open(&event_ts);
        if (g.schema->ts_attr >= 0) {
            fputs("(int64_t)e->", event_ts.f);
            cg_put_field(event_ts.f, &g.schema->attrs[g.schema->ts_attr]);
        } else {
            fputs("0", event_ts.f);
        }
        cg_buf_close(&event_ts);
        /* push: the batched push_many costs more per call than the
         * per-event loop; elsewhere push_many is that loop (or the
         * threaded run), and calling it keeps one inlined copy */
        char push_one[160];
        snprintf(push_one, sizeof push_one, "%s_%s", o->prefix, batched ? "push_each" : "push_many");
        Hole holes[] = {
            {"PREFIX", o->prefix},        {"GUARD", guard},
            {"EVENT_TS", event_ts.text},
            {"SOURCE", src_comment},      {"SOURCE_C", srcc},
            {"HEADER", o->header},        {"SCHEMA", g.schema->name},
            {"EVENT_FIELDS", fields.text}, {"SCHEMA_DESC", desc.text},
            {"SAME_EVENT", same.text},    {"EXTERNS", g.externs.text},
            {"PATTERN_CODE", g.code.text},
            {"INIT_CODE", g.init.text},   {"PUSH_CODE", g.push.text},
            {"FREE_CODE", g.freec.text},  {"MAX_RUNS", maxruns},
            {"STRATEGIES", strategies},   {"TS_CHECK", tscheck.text},
            {"FINISH_CODE", g.finish.text}, {"TRIE_CODE", g.trie.text},
            {"TYPES_H", o->freestanding ? g.types.text : ""},
            {"TYPES_C", o->freestanding ? "" : g.types.text},
            {"FREESTANDING", fs},         {"MAX_KEYS", maxkeys},
            {"DISTINCT_BUDGET", budget},  {"OCCMAP_CAP", occcap},
            {"EXPLORE_CAP", xcap},        {"MANY_IN", g.many_in.text},
            {"MANY_OUT", g.many_out.text},     {"RUN_CODE", g.run.text},
            {"PUSH_ONE", push_one},
            {"MANY_FAST", g.many_fast.text},
        };
        int nh = (int)(sizeof holes / sizeof holes[0]);
        char *ht = cg_load_template(o, "matcher.h.tpl", diag);
        char *ct = cg_load_template(o, "matcher.c.tpl", diag);
        ok = ht && ct && cg_fill(ht, "matcher.h.tpl", holes, nh, diag, h) &&
             cg_fill(ct, "matcher.c.tpl", holes, nh, diag, c);
        free(ht);
        free(ct);
        free(src_comment);
        free(event_ts.text);
    } else {
        ok = false;
    }
    free(fields.text);
    free(tscheck.text);
    free(desc.text);
    free(same.text);
    free(g.code.text);
    free(g.fields.text);
    free(g.init.text);
    free(g.push.text);
    free(g.freec.text);
    free(g.externs.text);
    free(g.finish.text);
    free(g.trie.text);
    free(g.types.text);
    free(g.heap.text);
    free(g.many_in.text);
    free(g.many_out.text);
    free(g.run.text);
    free(g.many_fast.text);
    return ok;
}

bool cg_emit_main(const CgOptions *o, Diag *diag, FILE *out)
{
    char *src_comment = NULL;
    size_t src_len = 0;
    FILE *sc = open_memstream(&src_comment, &src_len);
    cg_put_comment_text(sc, o->source);
    fclose(sc);
    /* the usage text is a C string: keep it free of quotes and escapes */
    for (char *s = src_comment; *s; s++)
        if (*s == '"' || *s == '\\' || *s == '%' || *s == '?')
            *s = '_';
    Hole holes[] = {{"PREFIX", o->prefix},
                    {"HEADER", o->header},
                    {"SOURCE", src_comment},
                    {"VERSION", SREMC_VERSION}};
    char *t = cg_load_template(o, "main.c.tpl", diag);
    bool ok = t && cg_fill(t, "main.c.tpl", holes, 4, diag, out);
    free(t);
    free(src_comment);
    return ok;
}
