/* dsra.c: the Dsra IR's invariants and its stable text and Graphviz
 * dumps (DFA and minimized DFA alike). */
#define _POSIX_C_SOURCE 200809L
#include "dsra.h"
#include "sra.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sra_build.h"

void dsra_state_atoms(DsraState *st, Arena *arena)
{
    int n = 0;
    for (int i = 0; i < st->nnodes; i++)
        n += st->nodes[i].atom >= 0;
    st->atoms = arena_alloc(arena, (size_t)(n + 1) * sizeof *st->atoms);
    st->natoms = 0;
    for (int i = 0; i < st->nnodes; i++) {
        int a = st->nodes[i].atom;
        if (a < 0)
            continue;
        int k = st->natoms;
        bool dup = false;
        for (int j = 0; j < st->natoms && !dup; j++)
            dup = st->atoms[j] == a;
        if (dup)
            continue;
        while (k > 0 && st->atoms[k - 1] > a) {
            st->atoms[k] = st->atoms[k - 1];
            k--;
        }
        st->atoms[k] = a;
        st->natoms++;
    }
}

/* ---- invariants ------------------------------------------------------------------ */

static bool same_lits(const MtLit *a, int na, const MtLit *b, int nb)
{
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++)
        if (a[i].atom != b[i].atom || a[i].neg != b[i].neg)
            return false;
    return true;
}

/* Walks the tree from node i with the tested literals in path; every
 * leaf's path must be one of its transition's cubes. Children come after
 * their parent, so the walk ends. */
static const char *check_tree(const Dsra *d, const DsraState *st, int i, MtLit *path, int n, int *leaves)
{
    if (i < 0 || i >= st->nnodes)
        return "node index out of range";
    const DsraNode *nd = &st->nodes[i];
    if (nd->atom < 0) {
        if (nd->trans < st->first || nd->trans >= st->first + st->ntrans)
            return "leaf names a transition of another state";
        const DsraTrans *tr = &d->trans[nd->trans];
        for (int c = 0; c < tr->ncubes; c++)
            if (same_lits(tr->cubes[c].lits, tr->cubes[c].nlits, path, n)) {
                ++*leaves;
                return NULL;
            }
        return "a leaf's path is none of its transition's cubes";
    }
    if (nd->atom >= d->mt->natoms)
        return "node tests an unknown atom";
    if (nd->hi <= i || nd->lo <= i)
        return "node children must come after it";
    for (int k = 0; k < n; k++)
        if (path[k].atom == nd->atom)
            return "an atom tested twice on one path";
    path[n] = (MtLit){nd->atom, false};
    const char *err = check_tree(d, st, nd->hi, path, n + 1, leaves);
    if (err)
        return err;
    path[n] = (MtLit){nd->atom, true};
    return check_tree(d, st, nd->lo, path, n + 1, leaves);
}

static const char *check_trans(const Dsra *d, int s, const DsraTrans *tr)
{
    if (tr->from != s || tr->to < 0 || tr->to >= d->nstates)
        return "transition endpoints out of range";
    if (tr->ncubes < 1)
        return "transition without a minterm";
    if (d->tagged != (tr->tags != NULL))
        return "tags present exactly on tagged automata";
    const DsraState *to = &d->states[tr->to];
    for (int k = 0; tr->tags && k < to->nmembers; k++) {
        const DsraTag *tg = &tr->tags[k];
        if (tg->fresh == (tg->nfrom > 0))
            return "a tag is either fresh or the max of some slots";
        for (int j = 0; j < tg->nfrom; j++)
            if (tg->from[j] < 0 || tg->from[j] >= d->states[s].nmembers || (j && tg->from[j] <= tg->from[j - 1]))
                return "tag sources must be ascending slots of the source";
    }
    return NULL;
}

static const char *check_state(const Dsra *d, int s, MtLit *path)
{
    const DsraState *st = &d->states[s];
    int nfinals = 0;
    for (int k = 0; k < st->nmembers; k++) {
        if (st->members[k] < 0 || st->members[k] >= d->nfa->nstates || (k && st->members[k] <= st->members[k - 1]))
            return "members must be ascending NFA states";
        if (d->nfa->final[st->members[k]]) {
            if (nfinals >= st->nfinals || st->finals[nfinals] != k)
                return "final slots disagree with the members";
            nfinals++;
        }
    }
    if (nfinals != st->nfinals || st->final != (nfinals > 0))
        return "final slots disagree with the members";
    if (st->nnodes < 1 || st->ntrans < 1 || st->first < 0 || st->first + st->ntrans > d->ntrans)
        return "state without a tree or transitions";
    int cubes = 0, leaves = 0;
    for (int i = st->first; i < st->first + st->ntrans; i++) {
        const char *err = check_trans(d, s, &d->trans[i]);
        if (err)
            return err;
        cubes += d->trans[i].ncubes;
    }
    const char *err = check_tree(d, st, 0, path, 0, &leaves);
    if (err)
        return err;
    return leaves == cubes ? NULL : "leaves and minterms differ in number";
}

const char *dsra_check(const Dsra *d)
{
    if (d->nstates < 1)
        return "no start state";
    MtLit *path = malloc(((size_t)d->mt->natoms + 1) * sizeof *path);
    if (!path)
        abort();
    const char *err = NULL;
    int cubes = 0;
    for (int s = 0; s < d->nstates && !err; s++)
        err = check_state(d, s, path);
    for (int i = 0; i < d->ntrans && !err; i++)
        cubes += d->trans[i].ncubes;
    if (!err && cubes != d->ncubes)
        err = "ncubes is not the number of minterms";
    free(path);
    return err;
}

/* ---- text ------------------------------------------------------------------------------- */

static void dump_cube(const DsraCube *c, FILE *out)
{
    if (c->nlits == 0)
        fputs("true", out);
    for (int i = 0; i < c->nlits; i++)
        fprintf(out, "%s%sa%d", i ? " && " : "", c->lits[i].neg ? "!" : "", c->lits[i].atom);
}

static void dump_members(const DsraState *st, FILE *out)
{
    fputc('{', out);
    for (int k = 0; k < st->nmembers; k++)
        fprintf(out, "%s%d", k ? " " : "", st->members[k]);
    fputc('}', out);
}

/* " tags 0=now 1=max(0,2)": how each slot of the target gets its tag. */
static void dump_tags(const Dsra *d, const DsraTrans *tr, const char *sep, FILE *out)
{
    int n = d->states[tr->to].nmembers;
    if (n == 0)
        return;
    fprintf(out, "%stags", sep);
    for (int k = 0; k < n; k++) {
        const DsraTag *tg = &tr->tags[k];
        if (tg->fresh) {
            fprintf(out, " %d=now", k);
            continue;
        }
        fprintf(out, " %d=max(", k);
        for (int j = 0; j < tg->nfrom; j++)
            fprintf(out, "%s%d", j ? "," : "", tg->from[j]);
        fputc(')', out);
    }
}

/* A written SRA register of an unrolled automaton: register and depth. */
static void dump_write(const Dsra *d, int reg, FILE *out)
{
    int w = d->nfa->window;
    int r = w > 0 ? reg / (w + 1) : reg, t = w > 0 ? reg % (w + 1) : 0;
    const AstPattern *p = d->pattern;
    if (p && r < p->nregs)
        fprintf(out, " %s", p->regs[r].name);
    else
        fprintf(out, " r%d", r);
    if (w > 0)
        fprintf(out, "@depth%d", t);
}

static void dump_trans(const Dsra *d, const DsraTrans *tr, FILE *out)
{
    fprintf(out, "    -> %d  ", tr->to);
    for (int c = 0; c < tr->ncubes; c++) {
        if (c)
            fputs(" | ", out);
        dump_cube(&tr->cubes[c], out);
    }
    if (tr->tags)
        dump_tags(d, tr, "  ", out);
    if (tr->nwrites) {
        fputs("  writes", out);
        for (int k = 0; k < tr->nwrites; k++)
            dump_write(d, tr->writes[k], out);
    }
    fputc('\n', out);
}

static void dump_window(const Dsra *d, FILE *out)
{
    char win[96] = "without a window";
    if (d->kind == DSRA_DSRA)
        snprintf(win, sizeof win, "within %" PRId64 " events", d->window);
    else if (d->pattern)
        sra_window_text(d->pattern, win, sizeof win);
    fputs(win, out);
}

void dsra_dump_txt(const Dsra *d, FILE *out)
{
    fprintf(out, "%s %s (", d->kind == DSRA_TDFA ? "tdfa" : "dsra", d->pattern ? d->pattern->name : "?");
    dump_window(d, out);
    fprintf(out, ")%s: %d states, %d transitions, %d minterms, %d atoms", d->minimized ? " minimized" : "",
            d->nstates, d->ntrans, d->ncubes, d->mt->natoms);
    if (d->kind == DSRA_DSRA)
        fprintf(out, ", history %d", d->history);
    fputc('\n', out);
    for (int a = 0; a < d->mt->natoms; a++) {
        fprintf(out, "  atom a%d: ", a);
        mt_dump_atom(d->mt, a, out);
        fputc('\n', out);
    }
    for (int s = 0; s < d->nstates; s++) {
        const DsraState *st = &d->states[s];
        fprintf(out, "  state %d ", s);
        dump_members(st, out);
        if (s == 0)
            fputs(" start", out);
        if (st->final) {
            fputs(" final", out);
            if (d->tagged) {
                fputs(" slots", out);
                for (int k = 0; k < st->nfinals; k++)
                    fprintf(out, " %d", st->finals[k]);
            }
        }
        if (st->merged > 1)
            fprintf(out, " (merges %d)", st->merged);
        fputc('\n', out);
        for (int i = st->first; i < st->first + st->ntrans; i++)
            dump_trans(d, &d->trans[i], out);
    }
}

/* ---- Graphviz ------------------------------------------------------------------------------ */


static void dot_label(const Dsra *d, const DsraTrans *tr, FILE *out)
{
    for (int c = 0; c < tr->ncubes; c++) {
        const DsraCube *cube = &tr->cubes[c];
        if (c)
            fputs(" |\n", out);
        if (cube->nlits == 0)
            fputs("true", out);
        for (int i = 0; i < cube->nlits; i++) {
            fputs(i ? " && " : "", out);
            if (cube->lits[i].neg)
                fputs("!", out);
            mt_dump_atom(d->mt, cube->lits[i].atom, out);
        }
    }
    if (tr->tags)
        dump_tags(d, tr, "\n", out);
}

void dsra_dump_dot(const Dsra *d, const char *name, FILE *out)
{
    fputs("digraph \"", out);
    sra_dot_escape(name ? name : d->pattern ? d->pattern->name : "dsra", out);
    fputs("\" {\n", out);
    sra_dot_layout(d->nstates, d->ntrans, out);
    fputs("  node [shape=circle];\n  start [shape=point];\n  start -> s0;\n", out);
    for (int s = 0; s < d->nstates; s++) {
        const DsraState *st = &d->states[s];
        fprintf(out, "  s%d [label=\"%d\\n", s, s);
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (m) {
            dump_members(st, m);
            fclose(m);
            sra_dot_escape(text, out);
            free(text);
        }
        fprintf(out, "\"%s];\n", st->final ? ", shape=doublecircle" : "");
    }
    for (int i = 0; i < d->ntrans; i++) {
        const DsraTrans *tr = &d->trans[i];
        fprintf(out, "  s%d -> s%d [label=\"", tr->from, tr->to);
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (m) {
            dot_label(d, tr, m);
            fclose(m);
            sra_dot_escape(text, out);
            free(text);
        }
        fputs("\"];\n", out);
    }
    fputs("}\n", out);
}
