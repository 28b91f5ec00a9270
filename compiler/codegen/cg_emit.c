/* cg_emit.c: the driver: matcher struct, schema, batched push_many, holes of the templates; cg_emit. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The detection of pattern i's step on the event (state st, at nesting
 * level), and the match record it makes. */
static void put_step(Cg *g, int i, const AstPattern *p, const char *st, const char *step_args, const char *key,
                     int level, bool else_if)
{
    Buf *pu = &g->sec[CG_PUSH];
    bool tag = g->canon_tag_now == 1;   /* the chain's start tag goes to the record (cg_canon.c) */
    bool back = g->canon_tag_now >= 5;   /* so does the runs' start (runs.c.tpl, rs_back) */
    if (tag) {   /* as it was before the event */
        cg_line(pu, level, "{");
        cg_line(pu, ++level, "int64_t tag = (%s)->%s;", st, g->tag_field);
        if (g->tag_la)   /* s[0] is ours (cg_emit_chain) */
            cg_line(pu, level, "int64_t l0 = (%s)->l[0], l1 = (%s)->l[1];", st, st);
    }
    cg_line(pu, level, "%sif (%s_p%d_step(%s, e%s))%s /* pattern %s */", else_if ? "else " : "", g->P, i, st,
            step_args, tag || back ? " {" : "", p->name);
    if (tag)
        cg_line(pu, level + 1, "m->cn_tag = tag;");
    if (back)
        cg_line(pu, level + 1, "m->cn_tag = %s_rs_back(%s);", g->P, st);
    cg_begin(pu, level + 1);
    fprintf(pu->f, "%s_match(m, ", g->P);
    cg_put_decl(pu->f, g, p->name);
    fprintf(pu->f, ", e, %s);", key);
    cg_end(pu);
    if (tag || back)
        cg_line(pu, level, "}");
    if (tag && g->tag_la) {   /* l[1] moved: the start of its match is l[0] before the event */
        cg_line(pu, level, "tag ^= (tag ^ l0) & -(int64_t)((%s)->l[1] != l1);", st);
        cg_line(pu, level, "(%s)->s[0] = tag;", st);
    }
    if (tag)
        cg_line(pu, level - 1, "}");
}

/* Whether pattern p does nothing per event but its step: no explore
 * trie, forecast hook or absent queue to run after each event. Only such
 * a pattern may be batched, threaded or skip events (acceleration). */
static bool step_only(const AstPattern *p, const Plan *plan)
{
    return !p->explore.present && !plan->fc_symbols && !p->absent.present;
}

/* Matcher fields, init, push and free code of pattern i. */
static void emit_driver(Cg *g, int i, const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const char *P = g->P;
    bool runs = plan->strategy == STRATEGY_RUNS;
    bool part = p->partition_attr != NULL;
    char step_args[80] = "";
    if (runs)   /* the run engine counts a dropped run in the declaration's counter */
        snprintf(step_args, sizeof step_args, ", &m->ovf[%d][SREMRT_OVF_RUNS]%s", g->decl,
                 g->runs_lw_now ? ", rs_lw" : "");
    Buf *f = &g->sec[CG_FIELDS], *in = &g->sec[CG_INIT], *pu = &g->sec[CG_PUSH], *fr = &g->sec[CG_FREE];

    if (part || runs)
        g->no_batch = true;
    if (part) {
        cg_arena_keymap(g, "pattern", p->name, p->npartition);
        cg_arena_term(g, "pattern states", "%d * sizeof(%s_p%d_st)", cg_keys(g), P, i);
        if (runs)
            cg_arena_term(g, "pattern runs", "%d * (SREMRT_MAX_ALIGN + %s_p%d_RUNS_BYTES(%d))", cg_keys(g), P, i,
                       g->o->strategy.max_runs);
    } else if (runs) {
        cg_arena_term(g, "pattern runs", "%s_p%d_RUNS_BYTES(%d)", P, i, g->o->strategy.max_runs);
    }
    if (part) {
        char keys[32], array[32], xp[32], type[CG_NAME_MAX + 16], key[CG_NAME_MAX + 32];
        snprintf(keys, sizeof keys, "p%d_keys", i);
        snprintf(array, sizeof array, "p%d", i);
        snprintf(xp, sizeof xp, "p%d_xp", i);
        snprintf(type, sizeof type, "%s_p%d_st", P, i);
        cg_put_key_table(g, keys, "pattern", p->name, p->npartition);
        if (runs) {   /* each key's runs, before the array goes */
            cg_line(fr, 0, "if (m->p%d)", i);
            cg_line(fr, 1, "for (int32_t i = 0; i < m->p%d_keys.count; i++)", i);
            cg_line(fr, 2, "%s_p%d_release(&m->p%d[i], &m->cfg.alloc, m->cfg.max_runs);", P, i, i);
        }
        cg_put_key_array(g, keys, array, type, "the pattern's state");
        const char *arrays[3] = {array, xp, NULL};
        int narrays = p->explore.present ? 2 : 1;
        char hist[32], htype[CG_NAME_MAX + 16];
        if (cg_canon_keyed(g, p)) {   /* the key's last events, for its records' start and bindings */
            snprintf(hist, sizeof hist, "p%d_h", i);
            snprintf(htype, sizeof htype, "%s_p%d_h", P, i);
            cg_put_key_array(g, keys, hist, htype, "the key's last events (start and bindings)");
            cg_arena_term(g, "pattern history", "%d * sizeof(%s)", cg_keys(g), htype);
            arrays[narrays++] = hist;
        }
        cg_emit_key_grow(g, "pattern", p->name, keys, arrays, narrays);
        /* shard 0 runs what is not spread (an explore trie, absent's closing by any
           key's time) for every key, so only a shardable pattern asks whose key it is */
        cg_put_key_slot(g, "pattern", p->name, p->partition_attrs, p->npartition, keys,
                        !p->explore.present && !p->absent.present);
        cg_line(pu, 2, "%s_p%d_st *s = &m->p%d[slot];", P, i, i);
        cg_line(pu, 2, "if (inserted)");
        cg_line(pu, 3, "memset(s, 0, sizeof *s);");
        snprintf(key, sizeof key, "&%s_attrs[%d], key", P, p->partition_attr->index);
        if (cg_canon_keyed(g, p))
            cg_canon_put_push(g, i, p, 2);
        if (runs) {
            cg_line(pu, 2, "if (!s->cur && %s_p%d_alloc(s, &m->cfg.alloc, m->cfg.max_runs) != 0)", P, i);
            cg_line(pu, 3, "m->ovf[%d][SREMRT_OVF_MEMORY]++;", g->decl);
        }
        cg_put_forecast_push(g, i, plan, "s", "slot", key, 2, 0);
        put_step(g, i, p, "s", plan->fc_tables ? cg_forecast_arg(g, i, plan) : step_args, key, 2, runs);
        cg_put_forecast_push(g, i, plan, "s", "slot", key, 2, 1);
        if (p->explore.present) {
            cg_line(pu, 2, "if (inserted && sremrt_explore_part_init(&m->p%d_ex, &m->p%d_xp[slot], &m->cfg.alloc) != 0)",
                    i, i);
            cg_line(pu, 3, "m->ovf[%d][SREMRT_OVF_MEMORY]++;", g->decl);
            cg_line(pu, 2, "if (m->p%d_xp[slot].mem)", i);
            char st[64];
            snprintf(st, sizeof st, "&m->p%d_xp[slot]", i);
            cg_put_explore_push(g, i, p, st, 3, false);
        }
        cg_line(pu, 1, "}");
        cg_line(pu, 0, "}");
    } else {
        cg_line(f, 0, "%s_p%d_st p%d;   /* pattern %s */", P, i, i, p->name);
        if (runs) {
            cg_line(in, 0, "if (%s_p%d_alloc(&m->p%d, &m->cfg.alloc, m->cfg.max_runs) != 0)", P, i, i);
            cg_line(in, 1, "return -1;");
            cg_line(fr, 0, "%s_p%d_release(&m->p%d, &m->cfg.alloc, m->cfg.max_runs);", P, i, i);
        }
        if (g->threaded) {   /* push_many is the pattern's run function */
            cg_line(&g->sec[CG_MANY_FAST], 1, "return %s_p%d_run(m, &m->p%d, events, n);", P, i, i);
            return;
        }
        /* batched blocks note detections only */
        if (g->local_state && step_only(p, plan) && g->nbatch < CG_BATCH_MAX) {
            g->batch[g->nbatch] = i;
            g->batch_tag[g->nbatch] = g->canon_tag_now == 1;
            g->batch_la[g->nbatch] = g->canon_tag_now == 1 && g->tag_la;
            /* a gap chain's scan has scan_in for the call's array (put_scan_start);
               a stam/stnm chain's goes through canon_fill */
            g->batch_scan[g->nbatch] = g->canon_tag_now == 3 && plan->chain && plan->chain->kind == CHAIN_GAPS;
            g->batch_back[g->nbatch] = plan->chain && chain_span(plan->chain) > 0 ? chain_span(plan->chain) - 1 : -1;
            snprintf(g->batch_tagf[g->nbatch], sizeof g->batch_tagf[0], "%s", g->batch_la[g->nbatch] ? "l[1]" : g->tag_field);
            g->batch_name[g->nbatch++] = p->name;
        } else {
            g->no_batch = true;
        }
        char st[32];
        snprintf(st, sizeof st, g->local_state ? "&st%d" : "&m->p%d", i);
        if (g->local_state) {
            cg_line(&g->sec[CG_MANY_IN], 0, "%s_p%d_st st%d = m->p%d;", P, i, i, i);
            cg_line(&g->sec[CG_MANY_OUT], 0, "m->p%d = st%d;", i, i);
        }
        cg_put_forecast_push(g, i, plan, st, "0", "NULL, 0", 0, 0);
        put_step(g, i, p, st, plan->fc_tables ? cg_forecast_arg(g, i, plan) : step_args, "NULL, 0", 0, false);
        cg_put_forecast_push(g, i, plan, st, "0", "NULL, 0", 0, 1);
        if (p->explore.present) {
            char xst[64];
            snprintf(xst, sizeof xst, "&m->p%d_xp", i);
            cg_put_explore_push(g, i, p, xst, 0, true);
        }
    }
    if (p->explore.present)
        cg_emit_explore_conf(g, i, p);
    if (part)   /* last: the per-key releases read its count */
        cg_line(fr, 0, "sremrt_keymap_free(&m->p%d_keys);", i);
}

/* Pattern i's code: its automaton in the layout its plan chose, start
 * and bindings, and its driver. */
static void emit_pattern(Cg *g, int i, const Plan *plan, int ndecls)
{
    const AstPattern *p = plan->pattern;
    Arena *arena = g->arena;
    FILE *out = g->code.f;
    fprintf(out, "/* ---- pattern %s (p%d): strategy %s (%s), ", p->name, i,
            strategy_name(plan->strategy), plan->reason);
    cg_put_window(out, &p->hdr.window);
    if (p->partition_attr)
        ast_put_partition(out, p->partition_attrs, p->npartition);
    if (plan->min)
        fprintf(out, "; %d states, %d minterms", plan->min->nstates, plan->min->ncubes);
    fputs(" ---- */\n\n", out);
    if (plan->strategy == STRATEGY_RUNS) {
        cg_emit_runs(g, i, plan);
        g->canon_tag_now = cg_canon_runs_mode(plan);
        g->has_runs = true;
    } else if (plan->chain && plan->strategy == STRATEGY_TDFA &&
               (!plan->min || plan->layout == LAYOUT_CHAIN)) {
        g->canon_tag_now = cg_canon_tag_mode(plan);
        cg_emit_chain(g, i, plan);
        g->local_state = p->partition_attr == NULL;
        /* the one declaration, batched: its idle stretches are skipped */
        if (ndecls == 1 && g->local_state && step_only(p, plan) && cg_accel_chain(g, plan->chain)) {
            cg_emit_chain_idle(g, i, plan->chain);
            cg_emit_accel_chain(g, i);
            g->accel_batch = i;
            g->accel_chain = plan->chain;
        }
        g->has_tdfa = true;
    } else {
        Table table;
        int *atom_bit = arena_alloc(arena, ((size_t)plan->min->mt->natoms + 1) * sizeof *atom_bit);
        g->local_state = false;
        /* the start: a scan (a short gap chain, a stam/stnm chain) or the
           replay; in a threaded dsra run the transition's back (cg_canon.c) */
        g->canon_tag_now = cg_canon_scan_mode(plan);
        /* plan->layout is cost_choose's (compiler/cost.c), under the
         * code budget; tables where cg_table_plan takes them, else
         * (and for AUTO, which no plan of strategy_plan_all has) trees */
        if (plan->layout == LAYOUT_NODES) {
            cg_emit_nodes(g, i, plan);
        } else if (plan->layout == LAYOUT_TABLE && cg_table_plan(g, plan->min, &table, atom_bit)) {
            if (plan->fc_tables)   /* the step reads them */
                cg_emit_forecast_tables(g, i, plan);
            cg_emit_tdfa_table(g, i, plan, &table, atom_bit);
            g->local_state = p->partition_attr == NULL;
        } else {
            /* threaded run: one per-state prologue each, so only for
             * small automata (fire's 768-state dsra took 7x longer to
             * compile at -O2 threaded) */
            g->threaded = ndecls == 1 && !p->partition_attr && step_only(p, plan) &&
                         plan->min->nstates <= CG_THREADED_MAX_STATES;
            if (g->threaded && cg_canon_back_mode(plan))
                g->canon_tag_now = 4;
            if (plan->fc_tables)   /* the step reads them */
                cg_emit_forecast_tables(g, i, plan);
            cg_emit_dsra(g, i, plan);
        }
        if (plan->strategy == STRATEGY_TDFA)
            g->has_tdfa = true;
        else
            g->has_dsra = true;
    }
    if (plan->fc_symbols)
        cg_emit_forecast(g, i, plan);
    cg_emit_canon(g, i, plan);
    cg_emit_absent(g, i, p);   /* its step goes first in the pattern's push code */
    emit_driver(g, i, plan);
    cg_state_pattern(g, i, plan);
    g->canon_tag_now = 0;
    g->tag_la = false;
    g->local_state = false;
    g->threaded = false;
}

/* Sharded files (NAME_set_shard): a declaration that is not spread over
 * the shards runs on shard 0 alone. Its push and finish code go to
 * scratch sections first (shard0_begin), then into the file's, inside
 * `if (m->shard == 0)` (shard0_end). */
static const CgSec shard0_secs[2] = {CG_PUSH, CG_FINISH};

static void shard0_begin(Cg *g, Buf keep[2])
{
    for (int k = 0; k < 2; k++) {
        keep[k] = g->sec[shard0_secs[k]];
        cg_buf_open(&g->sec[shard0_secs[k]]);
    }
}

static void shard0_end(Cg *g, Buf keep[2])
{
    for (int k = 0; k < 2; k++) {
        Buf *b = &g->sec[shard0_secs[k]];
        const char *text = cg_buf_close(b);
        Buf scratch = *b;
        *b = keep[k];
        if (text && *text) {
            cg_line(b, 0, "if (m->shard == 0) { /* not spread over shards: shard 0 runs it */");
            cg_block(b, 1, text);
            cg_line(b, 0, "}");
        }
        cg_bufs_free(&scratch, 1);
    }
}

/* The 3-atom gap chains of a batched push_many (batch_la): their step
 * leaves the start tag s[0] to its caller (a select on every event cost
 * B2 4 instructions). The start of a match ending at l[1] is
 * l[0] as it was before the event at l[1], so the block keeps l[0]
 * before each event in la (a store) and, at its end (part 1), sets s[0]
 * from it, or leaves it when l[1] is older than the block (start value
 * sb); part 0 declares them, part 2 turns a record's tag (l[1] before
 * its event) into its start (indented by in). */
static void put_la(Cg *g, int part, const char *in)
{
    FILE *out = g->many_fast.f;
    for (int b = 0; b < g->nbatch; b++) {
        int i = g->batch[b];
        if (!g->batch_la[b])
            continue;
        if (part == 0)
            fprintf(out, "        int64_t la%d[%d], bb%d = st%d.pos + 1 + (INT64_C(1) << 62), sb%d = st%d.s[0];\n", i,
                    CG_BATCH_BLOCK, i, i, i, i);
        else if (part == 1)
            /* a branch, once a block: a load before the test reads la
               where the block stepped nothing (gcc -O2 -Wmaybe-uninitialized) */
            fprintf(out, "        if (st%d.l[1] >= bb%d)   /* l[1] is in the block: its l[0] */\n"
                         "            st%d.s[0] = la%d[(st%d.l[1] - bb%d) & %d];\n"
                         "        else\n            st%d.s[0] = sb%d;\n",
                    i, i, i, i, i, i, CG_BATCH_BLOCK - 1, i, i);
        else   /* both sides computed: a select, not a branch (which mispredicted) */
            fprintf(out, "%s                if (hit[h] %% %du == %du) {   /* pattern %d: l[1] -> its start */\n"
                         "%s                    int64_t d = x - bb%d, v = la%d[d & %d];\n"
                         "%s                    x = d >= 0 ? v : sb%d;\n"
                         "%s                }\n",
                    in, g->nbatch, b, i, in, i, i, CG_BATCH_BLOCK - 1, in, i, in);
    }
}

/* A batched record's start from its chain's tag (cg_canon.c), no call:
 * what B1 and B2 cost. Its event is mostly in the call's array (events,
 * from index base), else in the ring; the schema is set once per block
 * when every declaration is such a chain (alltags), else per record, as
 * canon_fill of the others sets it. */
static void put_tag_start(Cg *g, bool tags, bool alltags, bool near)
{
    FILE *out = g->many_fast.f;
    const char *P = g->P;
    if (!tags)
        return;
    const char *in = alltags ? "" : "    ";
    if (!alltags)
        fprintf(out, "                if (%s_canon_tag[r->decl] == 1) {\n", P);
    fprintf(out, "%s                int64_t x = hs[h];\n", in);
    put_la(g, 2, in);
    /* x - ob: the start's place in the call's events (tags are 2^62 + index) */
    fprintf(out, "%s                x -= ob;\n"
                 "%s                r->start = x + base;\n", in, in);
    if (!alltags)
        fprintf(out, "                    r->schema = &%s_schema;\n                    r->nbind = 0;\n", P);
    /* at hand as push has it (hist_has: for a ring of fixed size H, the
       last H + 1 at the detection, one compare here since a tag's start
       is at least 1 and at most r->index), then from the array where it
       is, else from the ring (hist_at: before the call) */
    if (near) {   /* every start within the ring's reach: no test, events_missing stays 0 */
        fprintf(out, "%s                r->start_event = x >= 0 ? (const void *)&events[x] : (const void *)%s_hist_at(m, r->start);\n",
                in, P);
        return;
    }
    if (g->canon_grow >= 0)
        fprintf(out, "%s                r->events_missing = !%s_hist_has(m, r->start);\n", in, P);
    else
        fprintf(out, "%s                r->events_missing = r->index - r->start > %" PRId64 ";\n", in, g->canon_hist);
    fprintf(out, "%s                r->start_event = r->events_missing ? NULL\n"
                 "%s                              : x >= 0 ? (const void *)&events[x]\n"
                 "%s                              : (const void *)%s_hist_at(m, r->start);\n",
            in, in, in, P);
    if (!alltags)
        fputs("                } else\n    ", out);
}

/* A batched record's start when every pattern's is its scan's
 * (cg_canon.c), canon_fill's work without its tests (a scan's start is
 * always at hand): its distance back from the detection by scan_in on
 * the call's events when they hold the span, else by the scan through
 * the ring; its event mostly in the call's events. */
static void put_scan_start(Cg *g)
{
    FILE *out = g->many_fast.f;
    const char *P = g->P, *in = g->nbatch > 1 ? "    " : "";
    if (g->nbatch > 1)
        fprintf(out, "                switch (hit[h] %% %du) {\n", g->nbatch);
    for (int b = 0; b < g->nbatch; b++) {
        int i = g->batch[b];
        if (g->nbatch > 1)
            fprintf(out, "                case %d:\n", b);
        fprintf(out, "%s                if (done + at >= %" PRId64 ") {   /* the span in events */\n"
                     "%s                    r->start_event = %s_p%d_scan_in(&b[at]);\n"
                     "%s                    r->start = r->index - (&b[at] - (const %s_event *)r->start_event);\n"
                     "%s                }",
                in, g->batch_back[b], in, P, i, in, P, in);
        if (cg_canon_linear(g))   /* the call's first events follow the ring's (hist_open): one array */
            fprintf(out, " else if (r->index > %" PRId64 ") {\n"
                         "%s                    const %s_event *a = &m->hist[r->index - m->hist_o];\n"
                         "%s                    r->start_event = %s_p%d_scan_in(a);\n"
                         "%s                    r->start = r->index - (a - (const %s_event *)r->start_event);\n"
                         "%s                }",
                    g->batch_back[b], in, P, in, P, i, in, P, in);
        fprintf(out, " else {   /* the stream's first events */\n"
                     "%s                    r->start = %s_p%d_scan(m);\n"
                     "%s                    r->start_event = %s_hist_at(m, r->start);\n"
                     "%s                }\n",
                in, P, i, in, P, in);
        if (g->nbatch > 1)
            fputs("                    break;\n", out);
    }
    if (g->nbatch > 1)
        fputs("                }\n", out);
}

/* One event e (at kx in the block) of the batched loop: each pattern's
 * step, its detection noted without a branch. */
static void put_batch_event(Cg *g, const char *kx)
{
    FILE *out = g->many_fast.f;
    int np = g->nbatch;
    for (int b = 0; b < np; b++) {
        fprintf(out, "            hit[nh] = (uint16_t)(%s * %du + %du);\n", kx, np, b);
        if (g->batch_la[b])   /* l[0] before the event: s[0] once l[1] is the event's */
            fprintf(out, "            la%d[%s] = st%d.l[0];\n", g->batch[b], kx, g->batch[b]);
        if (g->batch_tag[b])   /* the start tag beside the detection (cg_canon.c) */
            fprintf(out, "            hs[nh] = st%d.%s;\n", g->batch[b], g->batch_tagf[b]);
        fprintf(out, "            nh += (size_t)%s_p%d_step(&st%d, e);\n", g->P, g->batch[b], g->batch[b]);
    }
}

/* The batched records' record in the matcher (emit_batched), its fields
 * that do not change set at init: kind, has_ts, and the schema when every
 * pattern's start is its tag or its scan (no labels; else canon_fill sets
 * it, or no start is given). Before the sections close. */
static void put_batch_record(Cg *g)
{
    bool same = true;
    for (int b = 0; b < g->nbatch; b++)
        same &= g->batch_tag[b] != 0 || g->batch_scan[b];
    cg_line(&g->fields, 0, "sremrt_record brec;   /* push_many's batched records (kind, has_ts%s set at init) */",
            same ? ", schema" : "");
    cg_line(&g->init, 0, "m->brec.kind = SREMRT_MATCH;");
    cg_line(&g->init, 0, "m->brec.has_ts = %d;", g->schema->ts_attr >= 0);
    if (same)
        cg_line(&g->init, 0, "m->brec.schema = &%s_schema;", g->P);
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
                 "    static const int32_t decls[%d] = {", np);
    for (int b = 0; b < np; b++) {
        fputs(b ? ", " : "", out);
        cg_put_decl(out, g, g->batch_name[b]);
    }
    fputs("};\n", out);
    cg_block(&g->sec[CG_MANY_FAST], 1, g->sec[CG_MANY_IN].text);
    bool tags = false, alltags = true, allscan = true, near = true;
    for (int b = 0; b < np; b++) {
        tags |= g->batch_tag[b] != 0;
        alltags &= g->batch_tag[b] != 0;
        allscan &= g->batch_scan[b];
        near &= g->batch_back[b] >= 0 && g->batch_back[b] <= g->canon_hist;
    }
    near &= alltags && g->canon_grow < 0;
    if (tags)   /* the chains' start tags of the block's detections; events[0]'s index, as a tag */
        fprintf(out, "    int64_t hs[%d];\n    const int64_t base = m->cur_base, ob = base + (INT64_C(1) << 62);\n",
                np * CG_BATCH_BLOCK);
    /* the record: its fields that do not change, set once at init (a
       memset a block cost B1 half an instruction an event, one a call
       B2 at w = 100 0.15), the others by each record, as PREFIX_match's */
    fputs("    sremrt_record *const r = &m->brec;   /* put_batch_record */\n", out);
    fputs("    size_t k, done = 0;\n    while (done < n) {\n", out);
    if (g->accel_batch >= 0) {
        char st[32];
        snprintf(st, sizeof st, "st%d", g->accel_batch);
        cg_put_chain_skip(g, g->accel_batch, g->accel_chain, out, st);
    }
    fprintf(out, "        uint16_t hit[%d];\n"
                 "        size_t c = n - done < %du ? n - done : %du, nh = 0;\n"
                 "        const %s_event *b = events + done;\n",
            np * CG_BATCH_BLOCK, CG_BATCH_BLOCK, CG_BATCH_BLOCK, P);
    put_la(g, 0, "");
    /* CG_BATCH_UNROLL events a turn (the loop's own compare, add and
       branch once for them all: 2 instructions an event of B1's 30);
       the last few one at a time */
    fprintf(out, "        for (k = 0; k + %d < c; k += %d) {\n"
                 "            const %s_event *e;\n",
            CG_BATCH_UNROLL - 1, CG_BATCH_UNROLL, P);
    for (int u = 0; u < CG_BATCH_UNROLL; u++) {
        char kx[16];
        snprintf(kx, sizeof kx, u ? "(k + %d)" : "k", u);
        fprintf(out, "            e = &b[%s];\n"
                     "            if (%s_rejected(m, e)) {\n                k += %d;\n                goto block_end;\n"
                     "            }\n",
                kx, P, u);
        put_batch_event(g, kx);
    }
    fprintf(out, "        }\n"
                 "        for (; k < c; k++) {\n"
                 "            const %s_event *e = &b[k];\n"
                 "            if (%s_rejected(m, e))\n                break;\n",
            P, P);
    put_batch_event(g, "k");
    fputs("        }\n    block_end:;\n", out);
    put_la(g, 1, "");
    /* one record for the block: only name, index and ts change */
    fprintf(out, "        int64_t index = m->index;\n"
                 "        uint64_t count = m->stats.events;\n"
                 "        if (nh > 0 && m->cfg.record) {\n");
    fprintf(out, "            for (size_t h = 0; h < nh; h++) {\n"
                 "                size_t at = hit[h] / %du;\n"
                 "                m->index = index + (int64_t)at + 1;\n"
                 "                m->stats.events = count + at + 1;\n"
                 "                r->decl = decls[hit[h] %% %du];\n"
                 "                r->name = %s_decl_names[r->decl];\n"
                 "                r->index = m->index;\n",
            np, np, P);
    put_tag_start(g, tags, alltags, near);
    if (allscan)
        put_scan_start(g);
    else if (cg_canon_on(g) && !alltags)
        fprintf(out, "                %s_canon_fill(m, r->decl, r);\n", P);
    if (cg_canon_on(g) && !allscan && !near)
        fprintf(out, "                %s_canon_lost(m, r->decl, r);\n", P);
    if (g->schema->ts_attr >= 0) {
        fputs("                r->ts = (int64_t)b[at].", out);
        cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
        fputs(";\n", out);
    }
    fprintf(out, "                m->cfg.record(m->cfg.user, r);\n"
                 "            }\n"
                 "        }\n"
                 "        m->index = index + (int64_t)k;\n"
                 "        m->stats.events = count + k;\n"
                 "        done += k;\n"
                 "        if (k < c)\n            break;\n"
                 "    }\n");
    cg_block(&g->sec[CG_MANY_FAST], 1, g->sec[CG_MANY_OUT].text);
    fputs("    return done;\n", out);
}

bool cg_has_strings(const AstSchema *s)
{
    for (int a = 0; a < s->nattrs; a++)
        if (s->attrs[a].kind == ATTR_STRING)
            return true;
    return false;
}

/* The string literals of the conditions, by id (Ast.strings); init
 * interns them first. */
static void emit_strings(Cg *g, Buf *desc)
{
    cg_begin(desc, 0);
    fprintf(desc->f, "#define %s_NSTRINGS %d", g->P, g->ast->nstrings);
    cg_end(desc);
    cg_begin(desc, 0);
    fprintf(desc->f, "static const char *const %s_strings[] = {", g->P);
    for (int i = 0; i < g->ast->nstrings; i++) {
        fputs(i ? ", " : "", desc->f);
        cg_put_c_string(desc->f, g->ast->strings[i]);
    }
    fputs(g->ast->nstrings ? "};" : "\"\"};   /* none: C99 has no empty array */", desc->f);
    cg_end(desc);
}

/* The event struct's members, the schema descriptor and same_event's
 * body (a memcmp per attribute: registers hold whole events). */
static void emit_schema(Cg *g, Buf *fields, Buf *desc, Buf *same)
{
    const AstSchema *s = g->schema;
    const char *P = g->P;
    static const char *const ctype[] = {"int64_t", "double", "uint8_t", "int32_t", "int64_t", "int64_t"};
    static const char *const rtype[] = {"SREMRT_INT", "SREMRT_FLOAT", "SREMRT_BOOL", "SREMRT_ENUM",
                                        "SREMRT_TIMESTAMP", "SREMRT_STRING"};
    static const char *const what[] = {"int", "float", "bool: 0 or 1", "enum: value index",
                                       "timestamp", "string: its id (PREFIX_intern)"};
    for (int a = 0; a < s->nattrs; a++) {
        const AstAttr *at = &s->attrs[a];
        cg_begin(fields, 0);
        fprintf(fields->f, "%s ", at->single ? "float" : ctype[at->kind]);
        cg_put_field(fields->f, at);
        fprintf(fields->f, ";   /* %s */", at->single ? "float32" : what[at->kind]);
        cg_end(fields);
        if (at->kind == ATTR_ENUM) {
            cg_begin(desc, 0);
            fprintf(desc->f, "static const char *const %s_%d_values[] = {", P, a);
            for (int v = 0; v < at->nvalues; v++) {
                fputs(v ? ", " : "", desc->f);
                cg_put_c_string(desc->f, at->values[v].name);
            }
            fputs("};", desc->f);
            cg_end(desc);
        }
        cg_begin(same, 0);
        fputs("if (memcmp(&a->", same->f);
        cg_put_field(same->f, at);
        fputs(", &b->", same->f);
        cg_put_field(same->f, at);
        fputs(", sizeof a->", same->f);
        cg_put_field(same->f, at);
        fputs(") != 0)", same->f);
        cg_end(same);
        cg_line(same, 1, "return 0;");
    }
    cg_line(same, 0, "return 1;");
    if (cg_has_strings(s))
        emit_strings(g, desc);
    cg_line(desc, 0, "static const sremrt_attr %s_attrs[] = {", P);
    for (int a = 0; a < s->nattrs; a++) {
        const AstAttr *at = &s->attrs[a];
        cg_begin(desc, 1);
        fputs("{", desc->f);
        cg_put_c_string(desc->f, at->name);
        fprintf(desc->f, ", %s, offsetof(%s_event, ", at->single ? "SREMRT_FLOAT32" : rtype[at->kind], P);
        cg_put_field(desc->f, at);
        if (at->kind == ATTR_ENUM)
            fprintf(desc->f, "), %d, %s_%d_values},", at->nvalues, P, a);
        else
            fputs("), 0, NULL},", desc->f);
        cg_end(desc);
    }
    cg_line(desc, 0, "};");
    cg_begin(desc, 0);
    fprintf(desc->f, "const sremrt_schema %s_schema = {", P);
    cg_put_c_string(desc->f, s->name);
    /* the timestamp's unit in ns: what ISO-8601 times and --max-delay convert to */
    fprintf(desc->f, ", %d, %s_attrs, %d, sizeof(%s_event), INT64_C(%lld)};", s->nattrs, P, s->ts_attr, P,
            s->ts_attr >= 0 ? (long long)ast_unit_ns(s->attrs[s->ts_attr].unit_name ? s->attrs[s->ts_attr].unit_name : "s") : 0LL);
    cg_end(desc);
}

/* Prototypes of the extern predicates. */
static void emit_externs(Cg *g)
{
    Buf *out = &g->sec[CG_EXTERNS];
    static const char *const ty[] = {"int", "bool", "int64_t", "double", "int", "int"};
    bool any = false;
    for (int i = 0; i < g->ast->ndecls; i++) {
        if (g->ast->decls[i].kind != DECL_EXTERN)
            continue;
        const AstExtern *x = g->ast->decls[i].u.ext;
        if (!any)
            cg_line(out, 0, "/* Extern predicates the user links in (docs/language.md 3.4). */");
        any = true;
        cg_begin(out, 0);
        fprintf(out->f, "extern %s %s(", ty[x->ret], x->name);
        for (int k = 0; k < x->nparams; k++)
            fprintf(out->f, "%s%s", k ? ", " : "", ty[x->params[k]]);
        fputs(x->nparams ? ");" : "void);", out->f);
        cg_end(out);
    }
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
static void put_matcher_struct(Cg *g, Buf *b, bool match)
{
    cg_line(b, 0, "struct %s_matcher {", g->P);
    cg_line(b, 1, "%s_config cfg;   /* as given to init, defaults filled in */", g->P);
    cg_line(b, 1, "sremrt_stats stats;   /* events, rejected, overflows */");
    cg_line(b, 1, "sremrt_tsorder order;   /* the timestamp-goes-backwards rule */");
    cg_line(b, 1, "int64_t index;   /* global index of the last accepted event */");
    cg_line(b, 1, "char error[96];   /* why the last push was rejected */");
    cg_line(b, 1, "int finished;   /* finish ran: summaries given, stats added */");
    cg_line(b, 1, "uint64_t ovf[%d][SREMRT_OVF_KINDS];   /* by declaration (PREFIX_DECL_NAME) and kind */",
            g->ndecls > 0 ? g->ndecls : 1);
    if (cg_has_strings(g->schema)) {
        cg_line(b, 1, "sremrt_strtab own_strings;   /* the string table, unless cfg.strings shares one */");
        cg_line(b, 1, "sremrt_strtab *strings;   /* the one in use: ids of string attributes */");
    }
    if (g->sharded)
        cg_line(b, 1, "int32_t shard, nshards;   /* this matcher runs shard `shard` of `nshards` (set_shard) */");
    if (match)
        cg_line(b, 1, "sremrt_record mrec;   /* PREFIX_match's record: what it sets, the rest zero */");
    cg_block(b, 1, g->fields.text);
    cg_line(b, 0, "};");
}

/* --freestanding: the capacities and NAME_ARENA_BYTES, in the header. */
static void put_arena_macros(Cg *g, Buf *b)
{
    const char *P = g->P;
    const CgCaps *c = &g->o->caps;
    cg_blank(b);
    cg_line(b, 0, "/* The capacities this matcher was generated for (sremc --freestanding");
    cg_line(b, 0, " * --max-keys ... ; 0: the runtime's default), NAME_config_default's values. */");
    cg_line(b, 0, "#define %s_MAX_KEYS %d", P, c->max_keys);
    cg_line(b, 0, "#define %s_MAX_RUNS %d", P, g->o->strategy.max_runs);
    cg_line(b, 0, "#define %s_DISTINCT_BUDGET %d", P, c->distinct_budget);
    cg_line(b, 0, "#define %s_OCCMAP_CAP %d", P, c->occmap_cap);
    cg_line(b, 0, "#define %s_EXPLORE_CAP %d", P, c->explore_cap);
    if (cg_has_strings(g->schema))
        cg_line(b, 0, "#define %s_MAX_STRINGS %d   /* distinct strings, of %d bytes on average */", P,
                CG_MAX_STRINGS, CG_STRING_BYTES);
    cg_blank(b);
    cg_line(b, 0, "/* Bytes %s_init and the first event of every partition key take from", P);
    cg_line(b, 0, " * cfg.alloc at those capacities: give it an arena this large, e.g.");
    cg_line(b, 0, " *     static unsigned char mem[%s_ARENA_BYTES];", P);
    cg_line(b, 0, " *     sremrt_arena_init(&ar, mem, sizeof mem); cfg.alloc = sremrt_arena_hook(&ar);");
    cg_line(b, 0, " * Runtime structures are sized as on the host sremc ran on (8-byte pointers:");
    cg_line(b, 0, " * an upper bound for 32-bit targets); matcher states by your compiler. */");
    cg_line(b, 0, "#define %s_ARENA_BYTES ((size_t)8   /* never an empty array */%s)", P, g->heap.text);
}

/* What the template keeps: the runtime parts a file uses and the helpers
 * its generated code calls (unused static functions would warn). */
typedef struct Flags {
    bool episodes, explore, keymap;
    bool wrap, div, mod, max, same_event, match, mine, mine_tuple;
} Flags;

static const char *yes(bool b) { return b ? "1" : ""; }

/* Whether the generated text calls PREFIX_name. */
static bool calls(const Cg *g, const char *name)
{
    const char *texts[] = {g->code.text, g->push.text, g->init.text,  g->freec.text,     g->finish.text,
                           g->trie.text, g->run.text,  g->many_fast.text, g->many_in.text, g->many_out.text,
                           g->canon.text};   /* a replay may test a condition no step tests */
    char needle[CG_NAME_MAX + 2];
    snprintf(needle, sizeof needle, "%s_%s(", g->P, name);
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
        if (texts[k] && strstr(texts[k], needle))
            return true;
    return false;
}

static void find_flags(const Cg *g, Flags *f)
{
    memset(f, 0, sizeof *f);
    for (int k = 0; k < g->ast->ndecls; k++) {
        const AstDecl *d = &g->ast->decls[k];
        if (d->kind == DECL_EPISODE) {
            f->episodes = true;
            f->keymap |= d->u.episode->partition_attr != NULL;
        } else if (d->kind == DECL_PATTERN) {
            f->explore |= d->u.pattern->explore.present;
            f->keymap |= d->u.pattern->partition_attr != NULL;
        }
    }
    f->wrap = calls(g, "wrap");
    f->div = calls(g, "div");
    f->mod = calls(g, "mod");
    f->max = calls(g, "max");
    f->same_event = calls(g, "same_event");
    f->match = calls(g, "match");
    f->mine = calls(g, "mine");   /* a sharded file whose keys are all composite has none */
    f->mine_tuple = calls(g, "mine_tuple");
}

/* Text the driver writes itself, after the declarations: holes too. */
typedef enum DriverText {
    DT_FIELDS,     /* EVENT_FIELDS */
    DT_DESC,       /* SCHEMA_DESC */
    DT_SAME,       /* SAME_EVENT */
    DT_ENUMS,      /* CONSTANTS: enum values and declarations */
    DT_DECL_NAMES, /* DECL_NAMES: the declarations' names, as C strings */
    DT_TS_FIELD,   /* TS_FIELD */
    DT_SOURCE,     /* SOURCE: the .srem file's name, fit for a comment */
    DT_TYPES,      /* TYPES_H or TYPES_C: the state types and the matcher struct */
    DT_COUNT
} DriverText;

_Static_assert(offsetof(Cg, many_fast) == offsetof(Cg, sec) + CG_MANY_FAST * sizeof(Buf) &&
                   offsetof(Cg, types) == offsetof(Cg, sec) + CG_TYPES * sizeof(Buf),
               "Cg's named sections are its sec[] in CgSec order");

/* Both matcher templates, every hole filled: the sections (cg_writer.h),
 * the driver's own texts, the options and the conditions. */
static bool fill_templates(Cg *g, bool batched, FILE *c, FILE *h)
{
    const CgOptions *o = g->o;
    Buf t[DT_COUNT];
    cg_bufs_open(t, DT_COUNT);
    emit_schema(g, &t[DT_FIELDS], &t[DT_DESC], &t[DT_SAME]);
    bool ok = cg_emit_constants(g, t[DT_ENUMS].f, t[DT_DECL_NAMES].f);
    if (g->schema->ts_attr >= 0)
        cg_put_field(t[DT_TS_FIELD].f, &g->schema->attrs[g->schema->ts_attr]);
    cg_put_comment_text(t[DT_SOURCE].f, o->source);
    Buf *types = &t[DT_TYPES];
    if (g->types.len)
        fprintf(types->f, "%s\n\n", g->types.text);
    Flags fl;
    find_flags(g, &fl);
    put_matcher_struct(g, types, fl.match);
    if (o->freestanding)
        put_arena_macros(g, types);
    cg_bufs_close(t, DT_COUNT);

    char guard[CG_NAME_MAX], strategies[64], srcc[CG_NAME_MAX], push_one[CG_NAME_MAX];
    char maxruns[32], maxkeys[32], budget[32], occcap[32], xcap[32], ndecls[32], nfc[32];
    snprintf(guard, sizeof guard, "%s_H_GENERATED", o->prefix);
    for (char *s = guard; *s; s++)
        *s = (char)toupper((unsigned char)*s);
    snprintf(strategies, sizeof strategies, "%s%s%s", g->has_tdfa ? "tdfa " : "", g->has_dsra ? "dsra " : "",
             g->has_runs ? "runs " : "");
    size_t n = strlen(strategies);
    if (n)
        strategies[n - 1] = '\0';
    else
        snprintf(strategies, sizeof strategies, "no patterns");
    snprintf(srcc, sizeof srcc, "%s.c", o->prefix);
    /* push: the batched push_many costs more per call than the per-event
     * loop; elsewhere push_many is that loop (or the threaded run), and
     * calling it keeps one inlined copy */
    snprintf(push_one, sizeof push_one, "%s_%s", o->prefix, batched ? "push_each" : "push_in");
    snprintf(maxruns, sizeof maxruns, "%d", o->caps.max_runs);
    snprintf(maxkeys, sizeof maxkeys, "%d", o->caps.max_keys);
    snprintf(budget, sizeof budget, "%d", o->caps.distinct_budget);
    snprintf(occcap, sizeof occcap, "%d", o->caps.occmap_cap);
    snprintf(xcap, sizeof xcap, "%d", o->caps.explore_cap);
    snprintf(ndecls, sizeof ndecls, "%d", g->ndecls);
    snprintf(nfc, sizeof nfc, "%d", g->fc_count);
    /* the checkpoint's hash: everything a saved state's meaning depends on */
    const char *hashed[] = {t[DT_FIELDS].text, t[DT_TYPES].text, g->code.text, g->push.text, g->init.text,
                            g->canon.text, g->run.text, g->many_fast.text, g->sec[CG_STATE].text,
                            g->absent.text};
    char state_hash[40];
    snprintf(state_hash, sizeof state_hash, "UINT64_C(0x%016" PRIx64 ")",
             cg_state_hash(hashed, (int)(sizeof hashed / sizeof hashed[0])));
    Hole holes[CG_NSECTIONS + 56];
    int nh = 0;
    for (int k = 0; k < CG_NSECTIONS; k++)
        if (cg_sec_hole((CgSec)k))
            holes[nh++] = (Hole){cg_sec_hole((CgSec)k), g->sec[k].text};
    const Hole more[] = {
        {"PREFIX", o->prefix},
        {"GUARD", guard},
        {"SOURCE", t[DT_SOURCE].text},
        {"SOURCE_C", srcc},
        {"HEADER", o->header},
        {"SCHEMA", g->schema->name},
        {"STRATEGIES", strategies},
        {"PUSH_ONE", push_one},
        {"EVENT_FIELDS", t[DT_FIELDS].text},
        {"SCHEMA_DESC", t[DT_DESC].text},
        {"SAME_EVENT", t[DT_SAME].text},
        {"CONSTANTS", t[DT_ENUMS].text},
        {"DECL_NAMES", t[DT_DECL_NAMES].text},
        {"TS_FIELD", t[DT_TS_FIELD].text},
        {"TYPES_H", o->freestanding ? t[DT_TYPES].text : ""},
        {"TYPES_C", o->freestanding ? "" : t[DT_TYPES].text},
        {"MAX_RUNS", maxruns},
        {"MAX_KEYS", maxkeys},
        {"DISTINCT_BUDGET", budget},
        {"OCCMAP_CAP", occcap},
        {"EXPLORE_CAP", xcap},
        {"NDECLS", ndecls},
        {"STATE_HASH", state_hash},
        {"FORECAST_INFO", g->fc_info.text ? g->fc_info.text : ""},
        {"NFORECASTS", nfc},
        {"FORECAST_SET", g->fc_set.text ? g->fc_set.text : ""},
        {"CKEY_CASES", g->ckeys.text ? g->ckeys.text : ""},
        {"ABSENT_CODE", g->absent.text ? g->absent.text : ""},
        /* conditions */
        {"FREESTANDING", yes(o->freestanding)},
        {"HAS_TS", yes(g->schema->ts_attr >= 0)},
        {"HAS_STRINGS", yes(cg_has_strings(g->schema))},
        {"HAS_EPISODES", yes(fl.episodes)},
        {"HAS_EXPLORE", yes(fl.explore)},
        {"HAS_KEYMAP", yes(fl.keymap)},
        {"HAS_CKEYS", yes(g->has_ckeys)},
        {"USES_MINE", yes(fl.mine)},
        {"USES_MINE_TUPLE", yes(fl.mine_tuple)},
        {"SHARDED", yes(g->sharded)},
        {"USES_KEYS", yes(fl.match || fl.episodes || fl.keymap || g->fc_any)},
        {"USES_WRAP", yes(fl.wrap || fl.div)},
        {"USES_DIV", yes(fl.div)},
        {"USES_MOD", yes(fl.mod)},
        {"USES_MAX", yes(fl.max)},
        {"USES_SAME_EVENT", yes(fl.same_event)},
        {"USES_MATCH", yes(fl.match)},
        {"HAS_CANON", yes(cg_canon_on(g))},
        {"HAS_HIST", yes(g->canon_hist > 0)},
        {"HAS_ABSENT", yes(g->absent.text && *g->absent.text)},
        {"STATE_EVENTS", yes(strstr(g->sec[CG_STATE].text, "_state_events(") != NULL)},
        {"USES_ABOUT", yes(fl.match || fl.episodes || fl.explore)},
        {"USES_HELPERS", yes(fl.wrap || fl.div || fl.mod || fl.max || fl.same_event)},
    };
    _Static_assert(sizeof more / sizeof more[0] <= 56, "holes[] has room for more[]");
    for (size_t k = 0; k < sizeof more / sizeof more[0]; k++)
        holes[nh++] = more[k];
    char *ht = cg_load_template(o, "matcher.h.tpl", g->diag);
    char *ct = cg_load_template(o, "matcher.c.tpl", g->diag);
    ok = ok && ht && ct && cg_fill(ht, "matcher.h.tpl", holes, nh, g->diag, h) &&
              cg_fill(ct, "matcher.c.tpl", holes, nh, g->diag, c);
    free(ht);
    free(ct);
    cg_bufs_free(t, DT_COUNT);
    return ok;
}

bool cg_emit(const Ast *ast, Plan *const *plans, const CgOptions *o, Arena *arena, Diag *diag, FILE *c,
             FILE *h)
{
    Cg g = {.ast = ast, .o = o, .arena = arena, .diag = diag, .P = o->prefix, .accel_batch = -1};
    if (!find_schema(&g))
        return false;
    cg_bufs_open(g.sec, CG_NSECTIONS);
    if (o->freestanding && cg_has_strings(g.schema))   /* its hash table, segments and texts */
        cg_arena_runtime(&g, "string table", "of the schema", 1,
                         sremrt_strtab_bytes(CG_MAX_STRINGS, (size_t)CG_MAX_STRINGS * CG_STRING_BYTES));
    cg_buf_open(&g.fc_info);
    cg_buf_open(&g.fc_set);
    cg_buf_open(&g.ckeys);
    cg_buf_open(&g.absent);
    cg_buf_open(&g.absent_add);
    int i = 0, j = 0, ndecls = 0;
    bool ok = true;
    int nnodes = 0, nruns = 0;
    for (int k = 0, n = 0; k < ast->ndecls; k++) {
        ndecls += ast->decls[k].kind == DECL_PATTERN || ast->decls[k].kind == DECL_EPISODE;
        if (ast->decls[k].kind == DECL_PATTERN && plans[n] && plans[n]->layout == LAYOUT_NODES)
            nnodes++;
        if (ast->decls[k].kind == DECL_PATTERN && plans[n] && plans[n]->strategy == STRATEGY_RUNS)
            nruns++;
        n += ast->decls[k].kind == DECL_PATTERN;
    }
    g.nodes_share = nnodes >= CG_NODES_SHARE_MIN;
    g.runs_share = nruns >= CG_RUNS_SHARE_MIN;
    g.ndecls = ndecls;
    for (int k = 0; k < ast->ndecls; k++) {
        const AstDecl *d = &ast->decls[k];
        g.sharded |= !o->freestanding && cg_shardable(d);
        g.has_ckeys |= (d->kind == DECL_PATTERN && d->u.pattern->npartition > 1) ||
                       (d->kind == DECL_EPISODE && d->u.episode->npartition > 1);
    }
    for (int k = 0; k < ast->ndecls; k++) {
        const AstDecl *d = &ast->decls[k];
        if (d->kind != DECL_PATTERN && d->kind != DECL_EPISODE)
            continue;
        if (d->kind == DECL_PATTERN && !plans[i]) {
            ok = false;
            continue;
        }
        g.decl = i + j;   /* patterns and episodes, in file order */
        Buf keep[2];
        bool only0 = g.sharded && !cg_shardable(d);
        if (only0)
            shard0_begin(&g, keep);
        if (d->kind == DECL_EPISODE) {
            cg_state_episode(&g, j, d->u.episode);
            cg_emit_episode(&g, j++, d->u.episode);
        } else {
            emit_pattern(&g, i, plans[i], ndecls);
            i++;
        }
        if (only0)
            shard0_end(&g, keep);
    }
    bool batched = !g.no_batch && g.nbatch > 0 && g.nbatch == ndecls;
    cg_emit_runs_end(&g);
    emit_externs(&g);
    cg_emit_canon_end(&g);
    cg_emit_absent_end(&g);
    if (g.canon_hist > 0)
        cg_state_hist(&g, g.canon_grow >= 0);
    /* every section but the last, many_fast, which a batched push_many
       writes from many_in's and many_out's closed texts */
    _Static_assert(CG_MANY_FAST == CG_NSECTIONS - 1, "many_fast is the last section");
    if (batched)
        put_batch_record(&g);
    cg_bufs_close(g.sec, CG_MANY_FAST);
    if (batched)
        emit_batched(&g);
    cg_buf_close(&g.many_fast);
    cg_buf_close(&g.fc_info);
    cg_buf_close(&g.fc_set);
    cg_buf_close(&g.ckeys);
    cg_buf_close(&g.absent);
    if (o->runtime_bytes)
        *o->runtime_bytes = g.rt_bytes;
    if (ok && diag->nerrors == 0)
        ok = fill_templates(&g, batched, c, h);
    else
        ok = false;
    cg_bufs_free(g.sec, CG_NSECTIONS);
    cg_bufs_free(&g.fc_info, 1);
    cg_bufs_free(&g.fc_set, 1);
    cg_bufs_free(&g.ckeys, 1);
    cg_bufs_free(&g.absent, 1);
    cg_bufs_free(&g.absent_add, 1);
    return ok;
}

/* The attribute every pattern and episode of the file is partitioned by:
 * the publisher of --nats-publish splits the events by it; -1 when there
 * is none or some declaration sees the whole stream. */
static int route_attr(const Ast *ast)
{
    int attr = -1, seen = 0;
    for (int i = 0; i < ast->ndecls; i++) {
        const AstDecl *d = &ast->decls[i];
        const AstAttr *a = d->kind == DECL_PATTERN ? d->u.pattern->partition_attr
                         : d->kind == DECL_EPISODE ? d->u.episode->partition_attr : NULL;
        if (d->kind != DECL_PATTERN && d->kind != DECL_EPISODE)
            continue;
        int n = d->kind == DECL_PATTERN ? d->u.pattern->npartition : d->u.episode->npartition;
        if (!a || n > 1 || (seen && a->index != attr))   /* a composite key has no one attribute */
            return -1;
        attr = a->index;
        seen = 1;
    }
    return attr;
}

bool cg_emit_main(const Ast *ast, const CgOptions *o, Diag *diag, FILE *out)
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
    char route[16];
    snprintf(route, sizeof route, "%d", route_attr(ast));
    Hole holes[] = {{"PREFIX", o->prefix},
                    {"HEADER", o->header},
                    {"SOURCE", src_comment},
                    {"VERSION", SREMC_VERSION},
                    {"ROUTE_ATTR", route}};
    char *t = cg_load_template(o, "main.c.tpl", diag);
    bool ok = t && cg_fill(t, "main.c.tpl", holes, 5, diag, out);
    free(t);
    free(src_comment);
    return ok;
}
