/* forecast.h: forecasting over a deterministic automaton (docs/language.md,
 * the forecast clause). Symbols in, waiting-time forecasts out:
 *
 *   counts    a counter suffix tree: how often each context (the last few
 *             symbols, newest first) was followed by each symbol;
 *   pst       a prediction suffix tree learned from the counts (the
 *             Ron-Singer-Tishby variant of Begleiter, El-Yaniv and Yona,
 *             JAIR 2004), smoothed next-symbol distributions per context;
 *   ctx       a context automaton over the pst: c' = next[c][symbol], each
 *             state with the distribution of the next symbol;
 *   table     per reachable (automaton state, context) pair, the forecast
 *             computed from the exact waiting-time distribution
 *             P(first detection n symbols from now), n = 1..horizon.
 *
 * The compiler calls all of it at compile time (tables baked into the
 * generated C, no floating point at run time); hosted programs may call it
 * at run time (--train-first). Everything here allocates with malloc and is
 * hosted only; the generated forecast tables need none of it. */
#ifndef SREMRT_FORECAST_H
#define SREMRT_FORECAST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SREMRT_FC_MAX_ORDER 16       /* longest context a pst may use */
#define SREMRT_FC_TOLERANCE 1e-12    /* threshold comparisons: sum >= theta - tolerance */

/* ---- counts ---------------------------------------------------------------- */

typedef struct sremrt_fc_counts sremrt_fc_counts;

/* Counts of contexts up to `order` symbols (1..SREMRT_FC_MAX_ORDER) over
 * symbols 0..nsym-1. NULL when out of memory. */
sremrt_fc_counts *sremrt_fc_counts_new(uint32_t nsym, uint32_t order);
void sremrt_fc_counts_free(sremrt_fc_counts *c);

/* One event of a substream: recent[0] is the symbol just seen, recent[1] the
 * one before, ...; len <= order + 1 (shorter at the start of a substream).
 * Counts the word and each of its newest-first prefixes (the contexts it
 * ends). The caller keeps one ring of recent symbols per substream (per
 * partition key). Returns 0, or -1 when out of memory (nothing counted). */
int sremrt_fc_counts_add(sremrt_fc_counts *c, const uint16_t *recent, uint32_t len);

uint32_t sremrt_fc_counts_nsym(const sremrt_fc_counts *c);
uint32_t sremrt_fc_counts_order(const sremrt_fc_counts *c);
/* count of a word given newest first (len 0: the number of events counted) */
uint64_t sremrt_fc_counts_get(const sremrt_fc_counts *c, const uint16_t *word, uint32_t len);

/* Text form: one line per nonzero word, integer counts only, so that the
 * learner's parameters can change without retraining. read returns NULL and
 * a message in err (with the line number) on a malformed file. */
int sremrt_fc_counts_write(const sremrt_fc_counts *c, FILE *out);
sremrt_fc_counts *sremrt_fc_counts_read(FILE *in, char *err, size_t errlen);

/* ---- prediction suffix tree --------------------------------------------------- */

typedef struct sremrt_fc_params {
    uint32_t order;   /* maximum context length m, 1..16 (default 3) */
    double pmin;      /* symbol threshold (default 0.001) */
    double alpha;     /* conditional threshold is (1 + alpha) * gamma (default 0) */
    double gamma;     /* smoothing floor, gamma * nsym <= 1 (default 0.001) */
    double r;         /* likelihood-ratio threshold, two-sided (default 1.05) */
} sremrt_fc_params;

void sremrt_fc_params_default(sremrt_fc_params *p);

typedef struct sremrt_fc_pst sremrt_fc_pst;

/* Learns the tree from the counts (contexts longer than the counts' order
 * are not considered). NULL when out of memory or the parameters are out of
 * range (err says which). */
sremrt_fc_pst *sremrt_fc_pst_learn(const sremrt_fc_counts *c, const sremrt_fc_params *p,
                                   char *err, size_t errlen);
void sremrt_fc_pst_free(sremrt_fc_pst *t);

/* Nodes 0..n-1, node 0 the root (empty context). A node's label is its
 * context newest first; its parent drops the oldest symbol. */
uint32_t sremrt_fc_pst_nodes(const sremrt_fc_pst *t);
uint32_t sremrt_fc_pst_nsym(const sremrt_fc_pst *t);
uint32_t sremrt_fc_pst_depth(const sremrt_fc_pst *t, uint32_t node);
int32_t sremrt_fc_pst_parent(const sremrt_fc_pst *t, uint32_t node);      /* -1 at the root */
uint16_t sremrt_fc_pst_symbol(const sremrt_fc_pst *t, uint32_t node);     /* oldest symbol of the label */
/* the child whose label is the node's label followed by the older symbol s, or -1 */
int32_t sremrt_fc_pst_child(const sremrt_fc_pst *t, uint32_t node, uint16_t s);
/* smoothed P(next symbol = s | the node's context) */
double sremrt_fc_pst_prob(const sremrt_fc_pst *t, uint32_t node, uint16_t s);
/* the deepest node whose label is a prefix of recent[0..len) (newest first) */
uint32_t sremrt_fc_pst_find(const sremrt_fc_pst *t, const uint16_t *recent, uint32_t len);
/* human-readable dump, for tests and `--verbose` */
void sremrt_fc_pst_dump(const sremrt_fc_pst *t, FILE *out);

/* ---- context automaton ----------------------------------------------------- */

typedef struct sremrt_fc_ctx {
    uint32_t ncontexts;   /* C */
    uint32_t nsym;
    uint32_t start;       /* the context of an empty history (a new substream) */
    uint32_t *next;       /* next[c * nsym + s]: the context after symbol s */
    double *prob;         /* prob[c * nsym + s]: P(next symbol = s | context c) */
    int exact;            /* 1: the PSA closure (prob is the pst's, given the whole history);
                             0: over max_contexts, node mode (Wayeb's approximation) */
} sremrt_fc_ctx;

/* Builds the context automaton: the pst's PSA closure, with the warm-up
 * contexts of histories shorter than the order, if it has at most
 * max_contexts states; else node mode. NULL when out of memory. */
sremrt_fc_ctx *sremrt_fc_ctx_build(const sremrt_fc_pst *t, uint32_t max_contexts);
void sremrt_fc_ctx_free(sremrt_fc_ctx *x);

/* ---- waiting times and forecasts ------------------------------------------ */

/* The deterministic automaton, seen as symbols: next[q * nsym + s] is the
 * state after symbol s in state q, or -1 when s cannot occur in q (a dsra's
 * transition ids belong to their states). Probabilities of a context are
 * renormalised over the symbols that can occur in q. */
typedef struct sremrt_fc_automaton {
    uint32_t nstates;
    uint32_t nsym;
    uint32_t start;
    const int32_t *next;
    const uint8_t *final;   /* final[q]: entering q is a detection */
} sremrt_fc_automaton;

typedef enum sremrt_fc_kind {
    SREMRT_FC_INTERVAL,   /* shortest [a, b] with P(first detection in [a, b]) >= theta */
    SREMRT_FC_WITHIN      /* P(first detection within k), positive when >= theta */
} sremrt_fc_kind;

typedef struct sremrt_fc_spec {
    sremrt_fc_kind kind;
    double theta;         /* confidence, 0 < theta <= 1 */
    uint32_t horizon;     /* 1..4096 (default 200) */
    uint32_t max_spread;  /* interval: b - a at most this (default: horizon) */
    uint32_t k;           /* within: 1..horizon */
} sremrt_fc_spec;

/* One forecast. Interval: from..to (1-based, events from now), prob the
 * mass in it; none when no interval qualifies. Within: prob = P(W <= k),
 * positive = prob >= theta - tolerance. */
typedef struct sremrt_fc_forecast {
    uint32_t from, to;
    double prob;
    int positive;
    int none;
} sremrt_fc_forecast;

/* The first-passage waiting-time distribution from every (q, c) at once
 * (the backward recursion): wt[((q * C) + c) * horizon + n - 1] =
 * P(the first detection comes n symbols from now | state q, context c).
 * The caller frees it. NULL when out of memory. */
double *sremrt_fc_waiting_times(const sremrt_fc_automaton *a, const sremrt_fc_ctx *x,
                                uint32_t horizon);

/* The forecast a distribution wt[0..horizon) gives under spec. */
sremrt_fc_forecast sremrt_fc_decide(const double *wt, const sremrt_fc_spec *spec);

/* Per reachable (q, c) pair from (a->start, x->start): index[q * C + c] is 0
 * (unreachable, or no forecast) or 1 + an index into a pool of distinct
 * forecasts. */
typedef struct sremrt_fc_table {
    uint32_t nstates, ncontexts;
    uint32_t *index;
    uint32_t npool;
    sremrt_fc_forecast *pool;
} sremrt_fc_table;

/* NULL when out of memory, when the spec is out of the ranges above, or
 * when the automaton and the contexts disagree on nsym. It holds
 * reachable pairs x horizon doubles while it works (x k for within). */
sremrt_fc_table *sremrt_fc_table_build(const sremrt_fc_automaton *a, const sremrt_fc_ctx *x,
                                       const sremrt_fc_spec *spec);
void sremrt_fc_table_free(sremrt_fc_table *t);

/* ---- scoring (--forecast-stats) ---------------------------------------------- */

/* Scores a stream of forecasts against the detections, per key (a dense
 * slot, e.g. the keymap's). Each key's events are numbered 0, 1, ... in the
 * order they are fed; a forecast made after event t is about events
 * t + from .. t + to of that key. A forecast is a hit when the key's next
 * detection after t falls in [t + from, t + to] (within forecasts: from is
 * 1, to is k). It is scored once that detection comes, or once t + to has
 * passed without one (a miss); at the end of the input, forecasts whose
 * interval runs past the key's last event are not scored. O(1) amortised
 * per event; memory per key bounded by the horizon. */
typedef struct sremrt_fc_score sremrt_fc_score;

typedef struct sremrt_fc_summary {
    uint64_t events;        /* fed */
    uint64_t forecasts;     /* given (not none) */
    uint64_t scored;        /* forecasts scored (hits + misses) */
    uint64_t unscored;      /* interval past the end of the input */
    uint64_t hits;          /* scored forecasts whose interval held the next detection */
    uint64_t detections;
    uint64_t unpredicted;   /* detections no scored forecast hit */
    uint64_t unforecast;    /* detections with no forecast pending before them */
    /* interval forecasts */
    double precision;       /* hits / scored (interval); TP / (TP + FP) (within) */
    double mean_spread;     /* mean of to - from over scored forecasts */
    double mean_distance;   /* mean of from (events from now to the interval) over scored */
    double unpredicted_ratio;   /* unpredicted / detections */
    /* within forecasts: positive vs hit */
    uint64_t tp, fp, tn, fn;
    double recall, f1, mcc;     /* 0 where a denominator is 0 */
} sremrt_fc_summary;

sremrt_fc_score *sremrt_fc_score_new(sremrt_fc_kind kind);
void sremrt_fc_score_free(sremrt_fc_score *s);
/* One event of key `key`: detected says whether the pattern detected at it;
 * f is the forecast made after it (NULL or f->none: none). 0, or -1 when out
 * of memory (the event is not counted). */
int sremrt_fc_score_event(sremrt_fc_score *s, uint32_t key, int detected,
                          const sremrt_fc_forecast *f);
/* The summary so far, as if the input ended here (the score can go on). */
void sremrt_fc_score_summary(const sremrt_fc_score *s, sremrt_fc_summary *out);

#ifdef __cplusplus
}
#endif

#endif
