/* cg_impl.h: what the files of compiler/codegen/ share: the generator
 * state, the text buffers and the helpers one layout borrows from another. */
#ifndef SREMC_CG_IMPL_H
#define SREMC_CG_IMPL_H

#include "codegen.h"
#include "cg_writer.h"

#include "intern.h"
#include "minterm.h"
#include "sremrt/episode.h"
#include "sremrt/explore.h"
#include "sremrt/keymap.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct Hole {
    const char *name;   /* "PREFIX" for @@PREFIX@@ */
    const char *value;
} Hole;

/* Where a condition finds the event a pattern register holds. */
typedef enum RegMode {
    REG_NONE,   /* tdfa: no registers */
    REG_AGE,    /* dsra: regmap[r] = age in the history ring (< 0: empty) */
    REG_RUN,    /* runs: regmap[r] (or r) = the run's register slot */
    REG_EVENTS  /* the replay (cg_canon.c): register r is the event regs[r], NULL empty */
} RegMode;

/* Most patterns of a batched push_many, and the events of one block:
 * the block's detections wait in a stack array of CG_BATCH_MAX *
 * CG_BATCH_BLOCK uint16_t (2 KiB at most, small enough for firmware). */
enum { CG_BATCH_MAX = 16, CG_BATCH_BLOCK = 64, CG_BATCH_UNROLL = 4 };

/* Most states of a tree automaton whose push_many is threaded (one
 * prologue per state): fire's 768-state dsra took 7x longer to compile
 * at -O2 threaded. */
enum { CG_THREADED_MAX_STATES = 256 };

/* nodes layout: from this many nodes patterns in a file on, tagged ones
 * share their walk (cc -O2 compiled 80 copies of it in ~2 s); at most
 * CG_NODES_WALKS distinct walks (by array widths, CG_NODES_SIG - 1 of
 * them), and patterns of up to CG_NODES_SHARE_ATOMS atoms, which the
 * shared walk takes as a bit vector evaluated before it. */
enum { CG_NODES_SHARE_MIN = 8, CG_NODES_WALKS = 16, CG_NODES_SIG = 16, CG_NODES_SHARE_ATOMS = 16 };

typedef struct Cg {
    const Ast       *ast;
    const CgOptions *o;
    Arena           *arena;
    Diag            *diag;
    const AstSchema *schema;
    const char      *P;
    /* The sections (cg_writer.h), by CgSec; the named members are the same
       buffers, for the layouts that have not moved to cg_line yet. */
    union {
        Buf sec[CG_NSECTIONS];
        struct {
            Buf code, fields, init, push, freec, externs, finish, trie, types, heap;
            Buf many_in, many_out, run, canon, state, many_fast;
        };
    };
    int              ndecls;              /* patterns and episodes in the file */
    int              decl;                /* the declaration being emitted: its index among
                                             the patterns and episodes (m->ovf[decl]) */
    bool             threaded;            /* this file: one unpartitioned tree pattern */
    bool             local_state;         /* the pattern being emitted keeps its state in a local */
    bool             sharded;             /* hosted, with a declaration whose keys can be spread
                                             over shards (NAME_set_shard: a program's --threads) */
    size_t           rt_bytes;     /* the runtime terms of the arena */
    int32_t          explore_seq[SREMRT_EXPLORE_MAX_M];   /* sizing an explore clause */
    bool             has_tdfa, has_dsra, has_runs;
    /* batched push_many: every declaration is an unpartitioned pattern
       whose state lives in a local, without explore (emit_batched) */
    int              nbatch;
    int              batch[CG_BATCH_MAX];      /* pattern numbers */
    const char      *batch_name[CG_BATCH_MAX];
    bool             batch_tag[CG_BATCH_MAX];  /* its records' start is its chain tag (cg_canon.c) */
    char             batch_tagf[CG_BATCH_MAX][16];  /* that tag's field, read before the step */
    bool             batch_la[CG_BATCH_MAX];   /* a 3-atom gap chain: s[0] kept per block (put_la) */
    bool             batch_scan[CG_BATCH_MAX]; /* its records' start is its scan's (canon_tag 3) */
    int64_t          batch_back[CG_BATCH_MAX]; /* how far before its detection a start can lie: a gap
                                                  chain's span - 1, else -1 (unbounded) */
    bool             no_batch;
    unsigned         xhelpers;   /* explore steps' helpers written (cg_decls.c): 1 NAME_XINLINE
                                    and NAME_xneed, 2 NAME_xwin */
    int              accel_batch;  /* the one batched pattern, a chain whose idle stretches
                                      push_many skips (cg_accel.c); -1 none */
    const Chain     *accel_chain;   /* its chain */
    /* condition functions emitted so far, by text (name left out): an
       equal one elsewhere in the file calls the first (cg_cond_fn_once) */
    Intern           fn_text;
    const char     **fn_name;        /* [id of its text] */
    int              nfn_name, fn_name_cap;
    /* runs: a file of CG_RUNS_SHARE_MIN or more runs patterns evaluates
       their register-free literals once per event, each distinct text
       once, as bits of one vector (cg_runs.c, emit_shared_lits) */
    bool             runs_share;
    Intern           runs_lit;          /* the literals by text: id = bit */
    const AstExpr  **runs_lit_cond;     /* [id] */
    int              nruns_lit, runs_lit_cap;
    bool             runs_lw_now;       /* the pattern being emitted reads the vector */
    /* runs: register layouts by the attributes each register keeps; the
       first pattern of each, whose types the others' conditions name, so
       that equal conditions over equal layouts are one function */
    Intern           runs_regs;
    int             *runs_regs_first;   /* [id] */
    int              nruns_regs, runs_regs_cap;
    /* nodes: a file of CG_NODES_SHARE_MIN or more nodes patterns shares
       one walk per array widths (cg_nodes.c); the widths emitted so far */
    bool             nodes_share;
    /* start and bindings (cg_canon.c): per declaration, the pattern whose
       records a replay completes, -1 none; the history the replays read */
    int             *canon_pat;
    const AstPattern **canon_p;    /* per declaration: that pattern */
    int             *canon_nregs;  /* per declaration: its registers */
    bool             canon_any;    /* some pattern's records get them */
    bool             canon_scan;   /* some declaration's start is a scan (canon_tag 3) */
    bool             canon_back;   /* some declaration's start is its state's back (canon_tag 4) */
    bool             canon_runs;   /* some declaration's start is the runs' (canon_tag 5, 6) */
    int64_t          canon_hist;   /* events of the shared ring (unpartitioned patterns; 0: none) */
    int64_t          canon_max;    /* most events a replay reads */
    int64_t          canon_grow;   /* hosted: the longest time window of an unpartitioned
                                      pattern, whose events the shared ring grows to keep
                                      (-1: none, the ring is fixed) */
    int              canon_grow_decl; /* its declaration (charged a refused block) */
    int              canon_regs;   /* most registers of a pattern */
    int             *canon_tag;    /* per declaration: its start from the chain's tag
                                      (1: the chain's tag before the step; 2: the event itself; 3: a scan;
                                      4: the transition's back; 5, 6: the runs' start, alone or parsed
                                      from for its bindings), 0 replay */
    int              canon_tag_now;/* the pattern being emitted: its canon_tag */
    bool            *canon_s;      /* per declaration: its chain keeps start tags s[] beside l[] */
    const Chain    **canon_gaps;   /* per declaration: the chain its scan walks (canon_tag 3), or NULL */
    char             tag_field[16];/* canon_tag_now 1: the state's field of that tag (cg_emit_chain) */
    bool             tag_la;       /* and its step leaves s[0] to the caller (cg_emit_chain) */
    int              nnodes_walks;
    char             nodes_walk[CG_NODES_WALKS][CG_NODES_SIG];
    /* forecast patterns (cg_forecast.c): the record function is emitted (a pattern has tables),
       how many there are, and their PREFIX_forecast_info entries */
    bool             fc_any;
    int              fc_count;
    Buf              fc_info;
    Buf              fc_set;     /* PREFIX_forecast_set_tables's cases (hosted, no model) */
    Buf              ckeys;      /* PREFIX_ckey's cases: the composite keys (cg_put_ckey_case) */
    bool             has_ckeys;  /* some declaration has one */
    /* patterns with `absent` (cg_absent.c): their code (ABSENT_CODE) and
       the cases of P_ab_add */
    Buf              absent, absent_add;
    struct CgFcTabs *fc_tabs;    /* the patterns whose tables are emitted (cg_forecast.c) */
} Cg;

/* A register-free tdfa whose events fall into few classes runs from tables
 * instead of decision trees: class = what the atoms say of the event, one
 * lookup for the transition, and start tags moved by index with a max of
 * at most two sources, so a step has no data-dependent branch (the trees'
 * branches mispredict on every unpredictable event). */
typedef struct Table {
    int  natoms;           /* atoms the trees test */
    int  atoms[6];         /* bits mode: class bit k = atoms[k] */
    const AstAttr *attr;   /* enum mode: the attribute the atoms read */
    int  nclasses;         /* enum mode: distinct atom vectors (+1 out of range) */
    int *value_class;      /* enum mode: per value */
    int *class_bits;       /* per class: the atom values */
    int  out_class;        /* enum mode: a value out of range */
    int  slots;
    bool pairs;            /* every tag has at most 2 sources, every state at most 2 final slots */
} Table;


/* cg_absent.c */
void cg_emit_absent(Cg *g, int i, const AstPattern *p);
void cg_emit_absent_end(Cg *g);

/* cg_accel.c */
bool cg_accel_state(const Cg *g, const Dsra *d, int q);
/* L when the start state's skip of pattern p tests a strict sequence of L
 * atoms in blocks (its state keeps seq_cand, seq_base, seq_end), else 0 */
int cg_accel_seq(const Cg *g, const Dsra *d, const AstPattern *p);
/* the skip of state q (p: a strict sequence's blocks, docs/codegen.md) */
void cg_emit_accel(Cg *g, int i, const Dsra *d, int q, const AstPattern *p);
/* A chain whose idle stretches a batched push_many skips (not --no-accel,
 * a first atom that is not `_`), and its skip function P_pI_skip0. */
bool cg_accel_chain(const Cg *g, const Chain *c);
void cg_emit_accel_chain(Cg *g, int i);

/* cg_arena.c */
void cg_arena_keymap(Cg *g, const char *what, const char *name, int width);
void cg_arena_runtime(Cg *g, const char *what, const char *name, int count, size_t bytes);
void cg_arena_term(Cg *g, const char *what, const char *fmt, ...);
int cg_keys(const Cg *g);
void cg_put_key_slot(Cg *g, const char *what, const char *name, const AstAttr *const *attrs, int n,
                     const char *keys, bool shard);
void cg_put_ckey_case(Cg *g, const AstAttr *const *attrs, int n, const char *keys);
bool cg_shardable(const AstDecl *d);
/* Whether schema s has a string attribute (the matcher keeps a string table). */
bool cg_has_strings(const AstSchema *s);
/* --freestanding: the string table's capacity, and the bytes of text per
 * string NAME_ARENA_BYTES counts (longer strings take the room of others). */
enum { CG_MAX_STRINGS = 64, CG_STRING_BYTES = 32 };
void cg_put_key_table(Cg *g, const char *keys, const char *what, const char *name, int width);
void cg_put_key_array(Cg *g, const char *keys, const char *array, const char *type, const char *what);
void cg_emit_key_grow(Cg *g, const char *what, const char *name, const char *keys, const char *const *arrays,
                      int narrays);

/* cg_chain.c */
void cg_emit_chain(Cg *g, int i, const Plan *plan);
void cg_emit_chain_idle(Cg *g, int i, const Chain *c);
void cg_put_chain_skip(Cg *g, int i, const Chain *c, FILE *out, const char *st);

/* cg_canon.c. Time-window and window-less patterns keep CG_CANON_KEEP
 * events for their replays (CG_CANON_KEEP_FW in --freestanding code),
 * count windows theirs up to CG_CANON_KEEP_MAX (a start further back is
 * reported unknown). */
enum { CG_CANON_KEEP = 256, CG_CANON_KEEP_FW = 32, CG_CANON_KEEP_MAX = 4096 };
/* The shared ring in the order of the stream (cg_canon.c, put_linear) up
 * to this many events: twice that, and a copy of constant length a call. */
enum { CG_CANON_LINEAR_MAX = 256 };
void cg_emit_canon(Cg *g, int i, const Plan *plan);
int  cg_canon_scan_mode(const Plan *plan);
int  cg_canon_back_mode(const Plan *plan);
bool cg_canon_keyed(const Cg *g, const AstPattern *p);
int cg_canon_tag_mode(const Plan *plan);
int cg_canon_runs_mode(const Plan *plan);
void cg_canon_put_push(Cg *g, int i, const AstPattern *p, int level);
void cg_emit_canon_end(Cg *g);
bool cg_canon_on(const Cg *g);
bool cg_canon_linear(const Cg *g);
int64_t cg_canon_ring_cap(const Cg *g);

/* cg_cond.c */
void cg_emit_cond_fn(FILE *out, const char *P, const char *fname, const char *arg,
                         const AstExpr *cond, RegMode mode, const int *regmap, int hist);
void cg_emit_cond_fn_run(FILE *out, const char *P, const char *fname, const char *rtype, const AstExpr *cond,
                         const int *regmap);
/* cg_emit_cond_fn(_run) into out under fname, unless the file has a
 * function of the same text already: the name to call (the first one).
 * mode: REG_RUN (with rtype) or REG_EVENTS (rtype NULL). cc's time goes by the function, and many
 * patterns in a file repeat conditions. */
const char *cg_cond_fn_once(Cg *g, FILE *out, const char *fname, const char *arg, const char *rtype,
                            const AstExpr *cond, RegMode mode, const int *regmap);
/* A register-free cond as a block of statements in a function with
 * `const P_event *e` and `uint64_t b`: bit `bit` of b is set iff it holds
 * (a runs pattern's eval: no function per literal). */
void cg_emit_cond_bit(FILE *out, const char *P, const AstExpr *cond, int bit);
void cg_put_load(FILE *out, const AstAttr *a, const char *base);

/* cg_decls.c */
void cg_emit_episode(Cg *g, int j, const AstEpisode *ep);
void cg_emit_explore_conf(Cg *g, int i, const AstPattern *p);
void cg_put_explore_push(Cg *g, int i, const AstPattern *p, const char *st, int level, bool local);

/* cg_names.c */
/* PREFIX_MID_NAME in capitals, each character outside [A-Za-z0-9] as '_'
 * (malloc'd). */
char *cg_const_name(const char *P, const char *mid, const char *name);
/* The constant of the declaration called name: PREFIX_DECL_NAME. */
void cg_put_decl(FILE *out, const Cg *g, const char *name);
/* The header's constants into h (an enum per enum attribute, then the
 * declarations) and the names of the declarations into names (a C
 * initializer list); false when two constants share a name (reported). */
bool cg_emit_constants(Cg *g, FILE *h, FILE *names);

/* cg_runs.c */
void cg_emit_runs(Cg *g, int i, const Plan *plan);
/* After the last pattern: the shared literal vector's function, and its
 * computation at the top of push_each's loop (g->runs_share). */
void cg_emit_runs_end(Cg *g);
enum { CG_RUNS_SHARE_MIN = 8 };

/* cg_nodes.c */
void cg_emit_nodes(Cg *g, int i, const Plan *plan);
/* A forecast pattern's tables (before its step, which steps the context
 * in each transition) and its PREFIX_pI_forecast (after). */
void cg_emit_forecast_tables(Cg *g, int i, const Plan *plan);
void cg_emit_forecast(Cg *g, int i, const Plan *plan);
/* A step of a forecast pattern with tables writes the event's forecast
 * through one more parameter: what its comment (0) and its parameter list
 * (1) add, "" for other patterns. */
const char *cg_forecast_out(const Plan *plan, int param);
/* In push, before (after = 0) and after (1) pattern i's step on state st
 * of substream slot, partition key key_args ("NULL, 0": none): with
 * tables, the local the step writes the forecast into; the hook. */
void cg_put_forecast_push(Cg *g, int i, const Plan *plan, const char *st, const char *slot, const char *key_args,
                          int level, int after);
/* The step's extra argument: ", &fcI" with tables, else "". */
const char *cg_forecast_arg(Cg *g, int i, const Plan *plan);
/* In a transition block of forecast pattern i with tables: the context
 * after symbol sym and the forecast of state `to` with it (*fc). */
void cg_put_forecast_step(Cg *g, int i, const Plan *plan, int sym, int to, const char *indent);
/* The same in a table layout's step, where the symbol (s->fsym) and the
 * new state (s->state) are known only at run time. */
void cg_put_forecast_step_var(Cg *g, int i, const Plan *plan, const char *indent);
/* In the state function, after a forecast pattern's state st was saved or loaded:
 * a loaded flast takes this matcher's mark (m->fc_mark). */
void cg_state_forecast(Cg *g, const Plan *plan, const char *st, int level);

/* cg_state.c */
void cg_state_pattern(Cg *g, int i, const Plan *plan);
void cg_state_episode(Cg *g, int j, const AstEpisode *ep);
void cg_state_hist(Cg *g, bool grow);
uint64_t cg_state_hash(const char *const *texts, int n);

/* cg_table.c */
void cg_put_table(FILE *out, const char *type, const char *name, long n,
                  unsigned long long (*fn)(const void *, long), const void *ctx);
void cg_emit_tdfa_table(Cg *g, int i, const Plan *plan, const Table *t, const int *atom_bit);
bool cg_table_plan(Cg *g, const Dsra *d, Table *t, int *atom_bit);

/* cg_text.c */
bool cg_fill(const char *tpl, const char *tname, const Hole *holes, int nholes, Diag *diag,
                 FILE *out);
char *cg_load_template(const CgOptions *o, const char *name, Diag *diag);
void cg_put_c_string(FILE *out, const char *s);
void cg_put_comment_text(FILE *out, const char *s);
void cg_put_expr_comment(FILE *out, const AstExpr *e);
void cg_put_field(FILE *out, const AstAttr *a);
void cg_put_number(FILE *out, const AstNumber *n);
void cg_put_window(FILE *out, const AstWindow *w);

/* cg_tree.c */
void cg_emit_atoms(Cg *g, int i, const Dsra *d);
void cg_emit_dsra(Cg *g, int i, const Plan *plan);
void cg_emit_state_struct(Cg *g, int i, const Dsra *d, const AstPattern *p, int slots, int H);
void cg_put_now(Cg *g, const Dsra *d, FILE *out, const char *decl);
void cg_put_positions(FILE *out, const Sra *nfa, const int *members, int n);
const char *cg_uint_type(long n);

#endif
