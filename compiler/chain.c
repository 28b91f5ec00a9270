/* chain.c: which patterns are chains (chain.h), and why one tag per atom
 * matches them exactly (docs/language.md 3.3).
 *
 * stam. L_r = the latest start of a chain j_1 < .. < j_r taken so far
 * (events A_1..A_r). The prefix j_1..j_(r-1) of such a chain is a chain
 * through A_1..A_(r-1) with the same start, so L_(r-1) >= L_r. An event e
 * satisfying A_r extends every chain through A_1..A_(r-1) taken before
 * it: the new L_r is max(L_r, L_(r-1)) = L_(r-1). Updating r = m..1 in
 * descending order lets e take one place in a chain only. A detection at
 * e (e satisfies A_m) is a chain through A_1..A_(m-1) before e whose
 * start is inside the window: the latest start is the best candidate.
 *
 * stnm. Each start j_1 has one chain, which waits at stage r (A_1..A_r
 * taken) for the first event satisfying A_(r+1). Chains at the same stage
 * move together, and an earlier start is never at a lower stage than a
 * later one (both move on the same events; once equal they stay equal),
 * so the latest start per stage is all a detection needs. On e: for r =
 * m..2, if e satisfies A_r, stage r-1 moves into stage r (L_r = L_(r-1)
 * when stage r-1 is not empty, which is the max by the order above) and
 * stage r-1 becomes empty; at r = m the move is the detection. Then e
 * starts a chain when it satisfies A_1 (L_1 = now).
 *
 * gaps (strict, no window). E_r = the latest end of a match of
 * A_1 G_1 .. A_r. e satisfying A_(r+1) extends some match of the prefix
 * iff it extends the latest one: the gap `_{0,k}` (or nothing, k = 0)
 * only bounds the events between, and the latest end leaves the fewest.
 * A gap `_{j,k}` with j > 0 would need an older end too, so it is not a
 * chain. Without a window the start does not matter. */
#include "chain.h"

#include <inttypes.h>

static bool is_any(const AstRegex *r) { return r->kind == RX_ATOM && r->atom == ATOM_ANY && !r->label; }

/* The most events a gap item skips (-1: unbounded), or -2 when the item
 * is not a gap `_{0,k}`, `_*` or `_?`. */
static int64_t gap_of(const AstRegex *r)
{
    if (r->label || r->nkids != 1 || !is_any(r->kids[0]))
        return -2;
    switch (r->kind) {
    case RX_STAR: return -1;
    case RX_OPT: return 1;
    case RX_REPEAT: return r->min == 0 ? r->max : -2;
    default: return -2;
    }
}

static Chain *new_chain(Arena *arena, ChainKind kind, int n, const AstPattern *p)
{
    Chain *c = arena_alloc(arena, sizeof *c);
    c->kind = kind;
    c->links = arena_alloc(arena, (size_t)n * sizeof *c->links);
    c->window_kind = p->hdr.window.kind;
    c->window = p->hdr.window.value;
    return c;
}

int64_t chain_span(const Chain *c)
{
    if (!c || c->kind != CHAIN_GAPS)
        return -1;
    int64_t n = c->n;
    for (int r = 1; r < c->n; r++) {
        if (c->links[r].gap < 0 || c->links[r].gap > INT32_MAX)
            return -1;
        n += c->links[r].gap;
    }
    return n;
}

/* The links of a strict sequence of atoms and gaps, or NULL. */
static Chain *gaps_chain(const AstPattern *p, Arena *arena)
{
    int n;
    AstRegex *const *items = ast_seq_items(&p->body, &n);
    if (items[0]->kind != RX_ATOM || items[n - 1]->kind != RX_ATOM)
        return NULL;
    int atoms = 0;
    for (int i = 0; i < n; i++)
        atoms += items[i]->kind == RX_ATOM;
    if (atoms > CHAIN_MAX_LINKS)
        return NULL;
    Chain *c = new_chain(arena, CHAIN_GAPS, atoms, p);
    int64_t gap = 0;
    for (int i = 0; i < n; i++) {
        if (items[i]->kind == RX_ATOM) {
            c->links[c->n].cond = items[i]->cond;
            c->links[c->n++].gap = gap;
            gap = 0;
            continue;
        }
        int64_t g = gap_of(items[i]);
        if (g == -2)
            return NULL;
        /* `_{0,a} _{0,b}` skips at most a + b; windows are at most 2^31 */
        gap = gap < 0 || g < 0 ? -1 : gap + g;
    }
    return c;
}

Chain *chain_of(const AstPattern *p, Arena *arena)
{
    if (!p->body || p->nregs > 0)
        return NULL;
    if (!p->hdr.policy_given || p->hdr.policy == POLICY_STRICT)
        return p->hdr.window.kind == WIN_NONE ? gaps_chain(p, arena) : NULL;
    int n;
    AstRegex *const *items = ast_seq_items(&p->body, &n);
    if (n > CHAIN_MAX_LINKS)
        return NULL;
    for (int i = 0; i < n; i++)
        if (items[i]->kind != RX_ATOM)
            return NULL;
    Chain *c = new_chain(arena, p->hdr.policy == POLICY_STAM ? CHAIN_STAM : CHAIN_STNM, n, p);
    c->n = n;
    for (int i = 0; i < n; i++)
        c->links[i].cond = items[i]->cond;
    return c;
}

void chain_dump_txt(const Chain *c, const char *name, FILE *out)
{
    static const char *const kinds[] = {"stam", "stnm", "strict with gaps"};
    fprintf(out, "chain %s: %s, %d atom%s, ", name, kinds[c->kind], c->n, c->n == 1 ? "" : "s");
    if (c->window_kind == WIN_EVENTS)
        fprintf(out, "within %" PRId64 " events\n", c->window);
    else if (c->window_kind == WIN_TIME)
        fprintf(out, "within %" PRId64 " timestamp units\n", c->window);
    else
        fputs("no window\n", out);
    for (int r = 0; r < c->n; r++) {
        if (r > 0 && c->kind == CHAIN_GAPS) {
            if (c->links[r].gap < 0)
                fputs("  gap: any number of events\n", out);
            else
                fprintf(out, "  gap: at most %" PRId64 " events\n", c->links[r].gap);
        }
        fprintf(out, "  atom %d: ", r + 1);
        if (c->links[r].cond)
            ast_dump_expr(c->links[r].cond, out);
        else
            fputs("_", out);
        fputc('\n', out);
    }
}
