/* codegen.h: checked Ast + strategy plans -> NAME.c and NAME.h (a C99
 * matcher), and the main of `sremc build`, from templates/ (docs/codegen.md). */
#ifndef SREMC_CODEGEN_H
#define SREMC_CODEGEN_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "strategy.h"

/* A template compiled into sremc (build/templates.c, made by
 * templates/embed.c); the list ends with a NULL name. */
typedef struct CgTemplate {
    const char *name;   /* "matcher.c.tpl" */
    const char *text;
} CgTemplate;

extern const CgTemplate cg_templates[];

/* sremc's version: `sremc --version` and the generated programs' --version
 * (the Makefile may pass -DSREMC_VERSION=...). */
#ifndef SREMC_VERSION
#define SREMC_VERSION "0.1.0"
#endif

/* Capacities of generated code: the config's defaults, and with
 * --freestanding what the arena is sized for. 0: the runtime's default. */
typedef struct CgCaps {
    int max_keys;          /* partition keys per partitioned declaration */
    int distinct_budget;   /* distinct episodes: configurations */
    int occmap_cap;        /* distinct episodes: events per OccMap list */
    int explore_cap;       /* explore: window entries per partition */
    int max_runs;          /* runs per runs pattern and partition: the config's
                              default (0: no limit, hosted run sets grow) */
} CgCaps;

typedef struct CgOptions {
    const char  *prefix;        /* C prefix of every external name */
    const char  *header;        /* the header's file name, as the .c includes it */
    const char  *source;        /* the .srem path, for comments */
    const char  *template_dir;  /* NULL: the embedded templates */
    StrategyOpts strategy;
    CgCaps       caps;
    bool         freestanding;  /* no stdio, no malloc: a caller's arena */
    size_t      *runtime_bytes; /* freestanding, if not NULL: set to the arena bytes of
                                   runtime structures (partition tables, episode and
                                   explore state) at the capacities, on this host */
    bool         no_accel;      /* --no-accel: push_many steps every event (cg_accel.c) */
} CgOptions;

/* Longest prefix: generated names add a suffix of at most CG_MAX_SUFFIX
 * characters ("_p12_t3_n4", "_matcher_init"), and C99 promises 63
 * significant characters of an internal identifier. */
#define CG_MAX_PREFIX 63
#define CG_MAX_SUFFIX 64
/* A buffer for one generated name: prefix, suffix and the NUL. */
#define CG_NAME_MAX (CG_MAX_PREFIX + CG_MAX_SUFFIX + 1)

/* A valid C identifier from a file name ("fire-2.srem" -> "fire_2"), in
 * buf (size bytes), cut to CG_MAX_PREFIX characters. */
void cg_prefix_from_path(const char *path, char *buf, size_t size);
bool cg_valid_prefix(const char *prefix);

/* Whether tdfa d runs from class tables (the table layout) and with how
 * many event classes: the cost model's question (cost.c). */
bool cg_table_classes(const Dsra *d, const AstSchema *schema, Arena *arena, int *nclasses);

/* Emits the matcher of every pattern and episode of ast (checked without
 * errors) into c and h; plans[k] is the plan of the k-th pattern
 * declaration (strategy_plan_all), NULL where planning failed. Errors
 * (schemas that differ, a failed plan, a missing template) go to diag.
 * False on any error. */
bool cg_emit(const Ast *ast, Plan *const *plans, const CgOptions *o, Arena *arena, Diag *diag, FILE *c,
             FILE *h);

/* The generated matcher text [text, text+len) as one file that compiles
 * as nparts (1..8) translation units, cc -DSREMC_PART=k for k < nparts,
 * whose objects link into the matcher (and without SREMC_PART, as the
 * whole matcher): what `sremc build` compiles side by side for a large
 * file (cg_split.c). A malloc'd text of *outlen bytes. */
char *cg_split(const char *text, size_t len, int nparts, size_t *outlen);

/* The main of a `sremc build` program (templates/main.c.tpl). */
bool cg_emit_main(const Ast *ast, const CgOptions *o, Diag *diag, FILE *out);

#endif
