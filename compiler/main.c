/* main.c: the sremc command line. Parses options from options.def, then
 * drives the pipeline for the chosen command. Exit: 0 ok, 1 errors in
 * the input, 2 usage errors. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "codegen.h"
#include "cost.h"
#include "forecast.h"
#include "sremrt/episode.h"
#include "sremrt/keymap.h"
#include "frontend.h"
#include "sra_build.h"
#include "strategy.h"

#ifndef SREMC_PREFIX
#define SREMC_PREFIX "/usr/local"
#endif

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

enum { MAX_EXTRA = 64 };

typedef struct Options {
    const char *command;
    const char *file;
    const char *extra[MAX_EXTRA]; /* build: C sources, objects, libraries for $CC */
    int         nextra;
    int         error_limit;      /* --max-errors as a number */
    bool        training;         /* build for sremc train: no warning about a missing model */
#define COMMAND(name, operands, help)
#define OPTION(lng, shrt, arg, field, cmds, help) const char *field; /* NULL: not given */
#include "options.def"
#undef OPTION
#undef COMMAND
} Options;

typedef struct OptionSpec {
    const char *lng;
    char        shrt;
    const char *arg;
    size_t      offset;
    const char *commands;  /* "all" or the one command it applies to */
    const char *help;
} OptionSpec;

static const OptionSpec option_specs[] = {
#define COMMAND(name, operands, help)
#define OPTION(lng, shrt, arg, field, cmds, help) {lng, shrt, arg, offsetof(Options, field), cmds, help},
#include "options.def"
#undef OPTION
#undef COMMAND
};

static const struct { const char *name, *operands, *help; } command_specs[] = {
#define COMMAND(name, operands, help) {name, operands, help},
#define OPTION(lng, shrt, arg, field, cmds, help)
#include "options.def"
#undef OPTION
#undef COMMAND
};

static void print_help(FILE *out)
{
    fputs("usage: sremc COMMAND [OPTIONS] FILE.srem\n\n"
          "sremc compiles complex-event patterns (.srem files) into C matchers.\n\n"
          "commands:\n", out);
    for (size_t i = 0; i < sizeof command_specs / sizeof command_specs[0]; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", command_specs[i].name, command_specs[i].operands);
        fprintf(out, "  %-34s %s\n", left, command_specs[i].help);
    }
    fputs("\noptions:\n", out);
    for (size_t i = 0; i < sizeof option_specs / sizeof option_specs[0]; i++) {
        const OptionSpec *o = &option_specs[i];
        char left[64];
        if (o->shrt)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->shrt, o->lng, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->lng, o->arg ? " " : "", o->arg ? o->arg : "");
        if (strcmp(o->commands, "all") == 0)
            fprintf(out, "  %-34s %s\n", left, o->help);
        else
            fprintf(out, "  %-34s %s (%s only)\n", left, o->help, o->commands);
    }
    fputs("\nexit status: 0 ok, 1 errors in the input, 2 usage errors\n", out);
}

static int usage_error(const char *fmt, const char *what)
{
    fputs("sremc: ", stderr);
    fprintf(stderr, fmt, what);
    fputs("\nTry 'sremc --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* "unknown option '--stgae'; did you mean '--stage'?" */
static int unknown_option(const char *arg)
{
    enum { N = sizeof option_specs / sizeof option_specs[0] };
    const char *names[N];
    for (int i = 0; i < N; i++)
        names[i] = option_specs[i].lng;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
    const char *best = diag_closest(name, names, N);
    if (!best)
        return usage_error("unknown option '%s'", arg);
    char msg[160];
    snprintf(msg, sizeof msg, "unknown option '%s'; did you mean '--%s'?", arg, best);
    return usage_error("%s", msg);
}

static const OptionSpec *find_long(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof option_specs / sizeof option_specs[0]; i++)
        if (strlen(option_specs[i].lng) == len && strncmp(option_specs[i].lng, name, len) == 0)
            return &option_specs[i];
    return NULL;
}

static const OptionSpec *find_short(char c)
{
    for (size_t i = 0; i < sizeof option_specs / sizeof option_specs[0]; i++)
        if (option_specs[i].shrt == c)
            return &option_specs[i];
    return NULL;
}

/* GNU-style: --opt, --opt=value, --opt value, -x, -x value; "--" ends
 * options. The first operand is the command, the second the file. */
static int parse_args(int argc, char **argv, Options *opts)
{
    bool operands_only = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const OptionSpec *spec = NULL;
        const char *value = NULL;
        if (!operands_only && strcmp(a, "--") == 0) {
            operands_only = true;
            continue;
        }
        if (!operands_only && a[0] == '-' && a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            spec = find_long(a + 2, len);
            if (!spec)
                return unknown_option(a);
            if (eq && !spec->arg)
                return usage_error("option '--%s' takes no value", spec->lng);
            value = eq ? eq + 1 : NULL;
        } else if (!operands_only && a[0] == '-' && a[1] != '\0') {
            if (a[2] != '\0' || !(spec = find_short(a[1])))
                return usage_error("unknown option '%s'", a);
        } else if (!opts->command) {
            opts->command = a;
            continue;
        } else if (!opts->file) {
            opts->file = a;
            continue;
        } else if (opts->nextra < MAX_EXTRA) {
            opts->extra[opts->nextra++] = a; /* build's SRC operands; others reject them */
            continue;
        } else {
            return usage_error("unexpected operand '%s'", a);
        }
        if (spec->arg && !value) {
            if (i + 1 >= argc)
                return usage_error("option '%s' needs a value", a);
            value = argv[++i];
        }
        *(const char **)((char *)opts + spec->offset) = spec->arg ? value : "1";
    }
    return 0;
}

/* Does the option's command list ("all", or "dump, dot") name command? */
static bool applies_to(const char *commands, const char *command)
{
    if (strcmp(commands, "all") == 0)
        return true;
    size_t n = strlen(command);
    for (const char *c = commands; *c;) {
        size_t len = strcspn(c, ",");
        if (len == n && strncmp(c, command, n) == 0)
            return true;
        c += len;
        c += strspn(c, ", ");
    }
    return false;
}

/* "--stage applies to 'dump' only", "... to 'dump' and 'dot' only" */
static int misplaced_option(const OptionSpec *o)
{
    char msg[160];
    int len = snprintf(msg, sizeof msg, "--%s applies to ", o->lng);
    for (const char *c = o->commands; *c && len < (int)sizeof msg;) {
        size_t n = strcspn(c, ",");
        const char *next = c + n + strspn(c + n, ", ");
        const char *sep = !*next ? "" : strchr(next, ',') ? ", " : " and ";
        len += snprintf(msg + len, sizeof msg - (size_t)len, "'%.*s'%s", (int)n, c, sep);
        c = next;
    }
    return usage_error("%s only", msg);
}

/* Rejects options given to a command they do not apply to. */
static int check_option_commands(const Options *opts)
{
    for (size_t i = 0; i < sizeof option_specs / sizeof option_specs[0]; i++) {
        const OptionSpec *o = &option_specs[i];
        if (*(const char *const *)((const char *)opts + o->offset) && !applies_to(o->commands, opts->command))
            return misplaced_option(o);
    }
    return 0;
}

/* ---- automaton stages ------------------------------------------------------------ */

/* The stages from unrolled on come from the strategy (strategy.h). */
typedef enum Stage { STAGE_AST, STAGE_SRA, STAGE_NFA, STAGE_UNROLLED, STAGE_DFA, STAGE_MIN } Stage;

static const char *const stage_names[] = {"ast", "sra", "nfa", "unrolled", "dfa", "min"};
#define STAGE_LIST "ast, sra, nfa, unrolled, dfa, min"

/* What dump and dot were asked for, after validation. */
typedef struct Job {
    Stage        stage;
    int          max_states;
    const char  *pattern;   /* NULL: every pattern */
    bool         dot;
    bool         explain;   /* --explain: a line per plan on stderr */
    StrategyOpts strategy;  /* strategy, budgets and run capacity */
} Job;

/* An int option value of at least min (0 or 1) into *out; a usage error
 * otherwise. */
static int parse_int_from(const char *option, const char *value, int min, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < min || v > INT_MAX) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s needs a %s integer, got '%%s'", option, min > 0 ? "positive" : "non-negative");
        return usage_error(msg, value);
    }
    *out = (int)v;
    return 0;
}

static int parse_count(const char *option, const char *value, int *out)
{
    return parse_int_from(option, value, 1, out);
}

static int parse_stage(const char *name, Stage *stage)
{
    for (int i = 0; i < (int)(sizeof stage_names / sizeof stage_names[0]); i++)
        if (strcmp(name, stage_names[i]) == 0) {
            *stage = (Stage)i;
            return 0;
        }
    return -1;
}

static int make_job(const Options *opts, bool dot, Job *job)
{
    job->dot = dot;
    job->explain = opts->explain != NULL;
    job->pattern = opts->pattern;
    job->stage = STAGE_NFA;
    if (!dot && !opts->stage)
        return usage_error("%s", "dump needs --stage (stages: " STAGE_LIST ")");
    if (opts->stage && parse_stage(opts->stage, &job->stage) != 0)
        return usage_error(dot ? "unknown stage '%s' (dot stages: sra, nfa, unrolled, dfa, min)"
                               : "unknown stage '%s' (stages: " STAGE_LIST ")",
                           opts->stage);
    if (dot && job->stage == STAGE_AST)
        return usage_error("%s", "dot draws automata: use --stage sra or --stage nfa");
    if (job->pattern && job->stage == STAGE_AST)
        return usage_error("%s", "--pattern selects an automaton: use it with --stage sra or nfa");
    job->max_states = SRA_MAX_STATES_DEFAULT;
    if (opts->max_states && parse_count("--max-states", opts->max_states, &job->max_states))
        return EXIT_USAGE;
    long kb = opts->freestanding ? COST_FREESTANDING_KB : COST_DEFAULT_KB;
    int code_kb = 0;
    if (opts->max_code_kb && parse_count("--max-code-kb", opts->max_code_kb, &code_kb))
        return EXIT_USAGE;
    job->strategy = (StrategyOpts){STRATEGY_AUTO, job->max_states, RUNS_CAPACITY_DEFAULT, LAYOUT_AUTO,
                                   code_kb ? code_kb : kb, 1};
    if (opts->strategy && !strategy_parse(opts->strategy, &job->strategy.strategy))
        return usage_error("unknown strategy '%s' (strategies: auto, tdfa, dsra, runs)", opts->strategy);
    if (opts->max_runs && parse_count("--max-runs", opts->max_runs, &job->strategy.max_runs))
        return EXIT_USAGE;
    return 0;
}

/* Unknown --pattern: a usage error with the closest pattern name. */
static int unknown_pattern(const Ast *ast, const char *file, const char *name)
{
    const char **names = calloc((size_t)ast->ndecls + 1, sizeof *names);
    int n = 0;
    for (int i = 0; i < ast->ndecls; i++) {
        if (ast->decls[i].kind == DECL_EPISODE && strcmp(ast->decls[i].u.episode->name, name) == 0) {
            free(names);
            return usage_error("'%s' is an episode: episodes have no automaton", name);
        }
        if (ast->decls[i].kind == DECL_PATTERN)
            names[n++] = ast->decls[i].u.pattern->name;
    }
    const char *best = diag_closest(name, names, n);
    char msg[512];
    if (best)
        snprintf(msg, sizeof msg, "no pattern '%s' in '%s'; did you mean '%s'?", name, file, best);
    else
        snprintf(msg, sizeof msg, "no pattern '%s' in '%s'", name, file);
    free(names);
    return usage_error("%s", msg);
}

/* The next pattern job selects, from declaration *i on (advancing *i);
 * a text dump notes each episode passed over. NULL at the end. */
static const AstPattern *next_selected(const Ast *ast, const Job *job, int *i, FILE *out)
{
    for (; *i < ast->ndecls; (*i)++) {
        const AstDecl *d = &ast->decls[*i];
        if (d->kind == DECL_EPISODE && !job->pattern && !job->dot)
            fprintf(out, "%sepisode %s: no automaton (episodes are counted, not matched)\n",
                    ftell(out) > 0 ? "\n" : "", d->u.episode->name);
        if (d->kind == DECL_PATTERN && (!job->pattern || strcmp(job->pattern, d->u.pattern->name) == 0))
            return ast->decls[(*i)++].u.pattern;
    }
    return NULL;
}

/* The stages a strategy builds (unrolled, dfa, min): each selected
 * pattern is planned (strategy.h) and its stage printed after a line
 * saying which strategy was chosen. dot draws several patterns as
 * clusters of one digraph. */
static void print_plans(const Ast *ast, const Job *job, Arena *arena, Diag *diag, FILE *out)
{
    PlanStage stage = job->stage == STAGE_UNROLLED ? PLAN_UNROLLED
                      : job->stage == STAGE_DFA    ? PLAN_DFA
                                                   : PLAN_MIN;
    int nselected = 0;
    for (int i = 0; i < ast->ndecls; i++)
        nselected += ast->decls[i].kind == DECL_PATTERN &&
                     (!job->pattern || strcmp(job->pattern, ast->decls[i].u.pattern->name) == 0);
    bool clusters = job->dot && nselected != 1;
    if (clusters)
        fputs("digraph \"patterns\" {\n  rankdir=LR;\n  node [shape=circle, fontsize=12];\n"
              "  edge [fontsize=10];\n", out);
    if (clusters && nselected == 0)
        fputs("  label=\"no patterns (episodes have no automaton)\";\n", out);
    /* planned together, as emit plans them: the code budget is the file's */
    Plan **plans = arena_alloc(arena, ((size_t)nselected + 1) * sizeof *plans);
    StrategyOpts shared = job->strategy;
    shared.npatterns = nselected;
    for (int i = 0, k = 0; i < ast->ndecls; i++)
        if (ast->decls[i].kind == DECL_PATTERN &&
            (!job->pattern || strcmp(job->pattern, ast->decls[i].u.pattern->name) == 0))
            plans[k++] = strategy_plan(ast->decls[i].u.pattern, &shared, arena, diag);
    forecast_prepare(plans, nselected, &job->strategy, arena, diag);
    cost_choose(plans, nselected, &job->strategy, arena, diag);
    int n = 0, k = 0;
    for (int i = 0; next_selected(ast, job, &i, out) != NULL;) {
        Plan *plan = plans[k++];
        if (!plan)
            continue;
        if (job->explain)
            cost_explain(plan, stderr);
        if (!job->dot && ftell(out) > 0)
            fputc('\n', out);
        plan_dump(plan, stage, job->dot, clusters ? n : -1, &job->strategy, arena, diag, out);
        n++;
    }
    if (clusters)
        fputs("}\n", out);
}

/* Prints the automaton of every selected pattern into out; errors (the
 * state budget) go to diag. Episodes have no automaton. dot: one digraph
 * for one pattern, else one cluster per pattern in a single digraph
 * (dot renders only the first of several graphs into one file). */
static void print_automata(const Ast *ast, const Job *job, Arena *arena, Diag *diag, FILE *out)
{
    if (job->stage >= STAGE_UNROLLED) {
        print_plans(ast, job, arena, diag, out);
        return;
    }
    const Sra **sras = arena_alloc(arena, ((size_t)ast->ndecls + 1) * sizeof *sras);
    int n = 0;
    const AstPattern *p;
    for (int i = 0; (p = next_selected(ast, job, &i, out)) != NULL;) {
        Sra *sra = job->stage == STAGE_SRA ? sra_from_pattern(p, arena, diag, job->max_states)
                                           : sra_nfa_from_pattern(p, arena, diag, job->max_states);
        if (!sra)
            continue;
        sras[n++] = sra;
        if (!job->dot) {
            if (ftell(out) > 0)
                fputc('\n', out);
            sra_dump_txt(sra, out);
        }
    }
    if (!job->dot)
        return;
    if (n == 1) {
        sra_dump_dot(sras[0], sras[0]->pattern->name, out);
        return;
    }
    fputs("digraph \"patterns\" {\n  rankdir=LR;\n  node [shape=circle, fontsize=12];\n"
          "  edge [fontsize=10];\n", out);
    if (n == 0)
        fputs("  label=\"no patterns (episodes have no automaton)\";\n", out);
    for (int i = 0; i < n; i++)
        sra_dump_dot_cluster(sras[i], sras[i]->pattern->name, i, out);
    fputs("}\n", out);
}

static bool has_pattern(const Ast *ast, const char *name)
{
    for (int i = 0; i < ast->ndecls; i++)
        if (ast->decls[i].kind == DECL_PATTERN && strcmp(ast->decls[i].u.pattern->name, name) == 0)
            return true;
    return false;
}

static int count_patterns(const Ast *ast)
{
    int n = 0;
    for (int i = 0; i < ast->ndecls; i++)
        n += ast->decls[i].kind == DECL_PATTERN;
    return n;
}

static int report(Diag *diag)
{
    int nerrors = diag->nerrors;
    diag_flush(diag, stderr);
    if (nerrors > 0)
        fprintf(stderr, "%d error%s generated.\n", nerrors, nerrors == 1 ? "" : "s");
    return nerrors;
}

/* Writes text to path, or to stdout when path is NULL. */
static int write_output(const char *path, const char *text, size_t len)
{
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) {
        fprintf(stderr, "sremc: cannot write '%s': %s\n", path, strerror(errno));
        return EXIT_INPUT;
    }
    fwrite(text, 1, len, f);
    if ((path ? fclose(f) : fflush(f)) != 0) {
        fprintf(stderr, "sremc: cannot write '%s': %s\n", path ? path : "standard output", strerror(errno));
        return EXIT_INPUT;
    }
    return 0;
}

/* A pattern file read, parsed and checked; the arena holds the tree and
 * every later stage built from it. */
typedef struct Front {
    char  *src;
    Arena  arena;
    Diag   diag;
    Ast   *ast;
} Front;

static int front_open(const Options *opts, Front *fe)
{
    size_t len = 0;
    fe->src = frontend_read_file(opts->file, &len);
    if (!fe->src) {
        fprintf(stderr, "sremc: cannot read '%s': %s\n", opts->file, strerror(errno));
        return EXIT_INPUT;
    }
    arena_init(&fe->arena);
    diag_init(&fe->diag, opts->file, fe->src, len);
    fe->diag.werror = opts->werror != NULL;
    fe->diag.max_errors = opts->error_limit;
    fe->ast = frontend_parse_check(opts->file, fe->src, len, &fe->arena, &fe->diag);
    return 0;
}

static void front_close(Front *fe)
{
    diag_free(&fe->diag);
    arena_free(&fe->arena);
    free(fe->src);
}

/* Edges `sremc dot` draws without --force: fire's 768-state dsra (2,302
 * transitions) drew a 13,301 x 9,394 image that no one can read. */
enum { DOT_MAX_EDGES = 500 };

/* Nodes and edges of dot text as print_automata writes it: one statement
 * a line; the invisible start point and its arrow are not counted. */
static void dot_size(const char *text, long *nodes, long *edges)
{
    *nodes = *edges = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        while (n > 0 && *line == ' ') {
            line++;
            n--;
        }
        bool start = n >= 5 && strncmp(line, "start", 5) == 0;
        bool attrs = n >= 5 && (strncmp(line, "node ", 5) == 0 || strncmp(line, "edge ", 5) == 0 ||
                                strncmp(line, "graph", 5) == 0);
        const char *arrow = memchr(line, '-', n);
        if (arrow && arrow + 1 < line + n && arrow[1] == '>')
            *edges += !start;
        else if (memchr(line, '[', n) && !start && !attrs)
            (*nodes)++;
        line = end ? end + 1 : NULL;
    }
}

/* A dot graph too large to read is refused (exit 1) unless --force. */
static int dot_too_large(const Options *opts, const Job *job, const char *text)
{
    long nodes, edges;
    dot_size(text, &nodes, &edges);
    if (opts->force || edges <= DOT_MAX_EDGES)
        return 0;
    fprintf(stderr,
            "sremc: %s: the %s graph has %ld nodes and %ld edges, over the %d that dot draws "
            "legibly; nothing was written\n"
            "sremc: note: try --stage nfa (the epsilon-free automaton, linear in the pattern), "
            "a smaller window, or --force to draw it anyway\n",
            opts->file, stage_names[job->stage], nodes, edges, DOT_MAX_EDGES);
    return EXIT_INPUT;
}

/* Runs the front end on opts->file and prints diagnostics; for dump and
 * dot (job not NULL), then prints the stage, or nothing on any error. */
static int run_front(const Options *opts, const Job *job)
{
    Front fe;
    if (front_open(opts, &fe) != 0)
        return EXIT_INPUT;
    Arena *arena = &fe.arena;
    Diag *diag = &fe.diag;
    Ast *ast = fe.ast;
    int rc = 0;
    if (report(diag) > 0) {
        rc = EXIT_INPUT;
    } else if (job && job->pattern && !has_pattern(ast, job->pattern)) {
        rc = unknown_pattern(ast, opts->file, job->pattern);
    } else if (job && job->dot && (job->stage == STAGE_DFA || job->stage == STAGE_MIN) &&
               !job->pattern && count_patterns(ast) > 1) {
        /* Deterministic automata are drawn one per digraph. */
        rc = usage_error("dot --stage %s draws one pattern: choose it with --pattern NAME",
                         stage_names[job->stage]);
    } else if (job) {
        char *text = NULL;
        size_t size = 0;
        FILE *out = open_memstream(&text, &size);
        if (job->stage == STAGE_AST)
            ast_dump_txt(ast, out);
        else
            print_automata(ast, job, arena, diag, out);
        fclose(out);
        rc = report(diag) > 0 ? EXIT_INPUT : 0;
        if (!rc && job->dot)
            rc = dot_too_large(opts, job, text);
        if (!rc)
            rc = write_output(opts->output, text, size);
        free(text);
    }
    front_close(&fe);
    return rc;
}

/* ---- emit and build ---------------------------------------------------------------- */

/* path with its extension (after the last '/') replaced by ext. */
static char *with_ext(const char *path, const char *ext)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    size_t n = dot ? (size_t)(dot - path) : strlen(path);
    char *r = malloc(n + strlen(ext) + 1);
    if (!r)
        abort();
    memcpy(r, path, n);
    strcpy(r + n, ext);
    return r;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- signals: a killed build leaves nothing behind -------------------------------- */

/* The signal (SIGINT, SIGTERM, SIGHUP) that interrupted `sremc build`, 0
 * while none. The compiler's one file-scope variable: a handler can do
 * no more than set a flag. */
static volatile sig_atomic_t interrupted;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { N_STOP_SIGNALS = (int)(sizeof stop_signals / sizeof stop_signals[0]) };

/* How long the C compiler gets to stop on SIGTERM before SIGKILL. */
enum { CC_STOP_MS = 3000, CC_POLL_MS = 20 };

static void on_stop_signal(int sig)
{
    interrupted = sig;
}

/* From here on a stop signal only sets the flag: the build then stops
 * its C compiler and removes its temporary directory itself. No
 * SA_RESTART, so waitpid returns at once. */
static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < N_STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &sa, NULL);
}

/* After the clean-up, die of the signal that interrupted the build, as a
 * shell or make expects of an interrupted command. */
static void die_if_interrupted(void)
{
    int sig = interrupted;
    if (!sig)
        return;
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Stops process group pid (the C compiler and its cc1, as, ld): SIGTERM,
 * then SIGKILL if it is still there after CC_STOP_MS; reaps pid. */
static void stop_group(pid_t pid)
{
    int st;
    kill(-pid, SIGTERM);
    for (long waited = 0; waited < CC_STOP_MS; waited += CC_POLL_MS) {
        if (waitpid(pid, &st, WNOHANG) != 0) {
            kill(-pid, SIGKILL);   /* whatever the driver left running */
            return;
        }
        sleep_ms(CC_POLL_MS);
    }
    kill(-pid, SIGKILL);
    waitpid(pid, &st, 0);
}

/* Starts argv (argv[0] looked up in PATH) in a process group of its
 * own, so that a stop signal reaches all of it through stop_group; its
 * pid, or -1. */
static pid_t start_command(char **argv)
{
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0)
            setpgid(pid, pid);   /* also here: the child may not have run yet */
        return pid;
    }
    setpgid(0, 0);
    for (int i = 0; i < N_STOP_SIGNALS; i++)
        signal(stop_signals[i], SIG_DFL);
    execvp(argv[0], argv);
    fprintf(stderr, "sremc: cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Most C compilers `sremc build` runs at once: the matcher's parts and
 * the main. */
enum { MAX_CC_PARTS = 8, MAX_COMPILES = MAX_CC_PARTS + 1 };

/* Runs the n commands argvs[0..n) at once (the generated sources compile
 * side by side on two cores); the first nonzero exit status among them,
 * 0, or -1 (one did not start or exit, or interrupted: then every one
 * still running is stopped). */
static int run_commands(char **const *argvs, int n)
{
    pid_t pid[MAX_COMPILES];
    int rc = 0, started = 0;
    if (n > MAX_COMPILES)
        abort();
    while (started < n && !interrupted && (pid[started] = start_command(argvs[started])) > 0)
        started++;
    if (started < n)
        rc = -1;
    for (int i = 0; i < started; i++) {
        int st = 0;
        bool done = false;
        while (!done && !interrupted && rc != -1) {
            done = waitpid(pid[i], &st, 0) == pid[i];
            if (!done && errno != EINTR)
                rc = -1;
        }
        if (!done) {   /* interrupted, or a sibling failed to start */
            stop_group(pid[i]);
            rc = -1;
        } else if (rc == 0) {
            rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
    }
    return rc;
}

static int run_command(char **argv) { return run_commands(&argv, 1); }

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The runtime next to the executable (bin/../lib, headers in
 * bin/../runtime/include or bin/../include), else under the install
 * prefix. */
static bool find_runtime(char *lib, char *inc, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *roots[2] = {NULL, SREMC_PREFIX};
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            slash = strrchr(exe, '/');
            if (slash)
                *slash = '\0';
            else
                strcpy(exe, ".");
            roots[0] = exe;
        }
    }
    static const char *const incs[] = {"runtime/include", "include"};
    for (int r = 0; r < 2; r++) {
        if (!roots[r])
            continue;
        snprintf(lib, size, "%s/lib/libsremrt.a", roots[r]);
        if (!file_exists(lib))
            continue;
        for (int k = 0; k < 2; k++) {
            snprintf(inc, size, "%s/%s", roots[r], incs[k]);
            char probe[4200];
            snprintf(probe, sizeof probe, "%s/sremrt/abi.h", inc);
            if (file_exists(probe))
                return true;
        }
    }
    return false;
}

static void remove_tree(const char *dir, char *const *files, int n)
{
    for (int i = 0; i < n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* The NATS JetStream mode (docs/SCALING.md): lib/libsremrt_nats.a next to
 * the runtime (make builds it where pkg-config finds libnats) and
 * libnats's link flags from pkg-config; false without either. */
static bool find_nats(const char *lib, char *nlib, size_t size, char *flags, size_t fsize)
{
    snprintf(nlib, size, "%.*s_nats.a", (int)(strlen(lib) - 2), lib);
    if (!file_exists(nlib))
        return false;
    FILE *p = popen("pkg-config --libs libnats 2>/dev/null", "r");
    if (!p)
        return false;
    size_t n = fread(flags, 1, fsize - 1, p);
    flags[n] = '\0';
    flags[strcspn(flags, "\n")] = '\0';
    return pclose(p) == 0 && n > 0;
}

/* Appends the words of text (split on spaces and tabs) to argv[*argc..
 * max); the words point into text, which strtok cuts. */
static void add_words(char **argv, int *argc, int max, char *text)
{
    for (char *tok = strtok(text, " \t"); tok && *argc < max; tok = strtok(NULL, " \t"))
        argv[(*argc)++] = tok;
}

/* The object file names of compile_program: the matcher's parts PREFIX.o,
 * PREFIX_1.o, ... and the main's PREFIX_main.o; n + 1 of them in
 * names[0..n]. */
static void object_names(const char *prefix, int nparts, char names[][210])
{
    snprintf(names[0], 210, "%s.o", prefix);
    for (int k = 1; k < nparts; k++)
        snprintf(names[k], 210, "%s_%d.o", prefix, k);
    snprintf(names[nparts], 210, "%s_main.o", prefix);
}

/* $CC -std=c99 $CFLAGS (default -O2) -I... -c on the generated source
 * (once per part, -DSREMC_PART=k, when it is in nparts > 1 parts:
 * cg_split) and on its main at once (two cores: the main alone takes
 * ~0.4 s at -O2), then $CC $CFLAGS -o prog objects extra lib; both
 * variables split on spaces. extra: the user's SRC operands (the code of
 * extern predicates). ext: an extern of the file, named in a note when
 * the link fails and no SRC was given. The objects: object_names. */
static int compile_program(const char *dir, const char *prefix, int nparts, const char *prog,
                           const Options *opts, const char *ext)
{
    char lib[4096], inc[4096];
    if (!find_runtime(lib, inc, sizeof lib)) {
        fprintf(stderr, "sremc: cannot find the runtime (lib/libsremrt.a and its headers) next to "
                        "sremc or under %s; run 'make' first\n", SREMC_PREFIX);
        return EXIT_INPUT;
    }
    const char *cc_env = getenv("CC"), *cflags_env = getenv("CFLAGS");
    char *cc = strdup(cc_env && *cc_env ? cc_env : "cc"), *cflags = strdup(cflags_env ? cflags_env : "-O2");
    enum { MAX_ARGS = 64 + MAX_EXTRA + 16 + MAX_CC_PARTS };
    char *argv[MAX_ARGS], *cargv[MAX_COMPILES][MAX_ARGS];
    int argc = 0;
    add_words(argv, &argc, 40, cc);
    argv[argc++] = "-std=c99";
    add_words(argv, &argc, 50, cflags);
    char incdir[8192], gendir[8192], csrc[8192], msrc[8192];
    char objs[MAX_COMPILES][210], opaths[MAX_COMPILES][8400], parts[MAX_CC_PARTS][32];
    snprintf(incdir, sizeof incdir, "-I%s", inc);
    snprintf(gendir, sizeof gendir, "-I%s", dir);
    snprintf(csrc, sizeof csrc, "%s/%s.c", dir, prefix);
    snprintf(msrc, sizeof msrc, "%s/%s_main.c", dir, prefix);
    object_names(prefix, nparts, objs);
    char nlib[4200], nflags[1024];
    bool nats = find_nats(lib, nlib, sizeof nlib, nflags, sizeof nflags);   /* PROG --nats */
    char *common[] = {gendir, incdir, "-pthread", nats ? "-DSREMRT_NATS=1" : NULL};
    for (int i = 0; i < 4 && common[i]; i++)
        argv[argc++] = common[i];
    int ncommon = argc;
    char **compiles[MAX_COMPILES];
    for (int k = 0; k <= nparts; k++) {   /* the parts, then the main */
        char **a = cargv[k];
        int n = ncommon;
        memcpy(a, argv, (size_t)ncommon * sizeof *argv);
        snprintf(opaths[k], sizeof opaths[k], "%s/%s", dir, objs[k]);
        if (k < nparts && nparts > 1) {
            snprintf(parts[k], sizeof parts[k], "-DSREMC_PART=%d", k);
            a[n++] = parts[k];
        }
        char *steps[] = {"-c", k < nparts ? csrc : msrc, "-o", opaths[k], NULL};
        memcpy(a + n, steps, sizeof steps);
        compiles[k] = a;
    }
    argv[argc++] = "-o";
    argv[argc++] = (char *)prog;
    for (int k = 0; k <= nparts; k++)
        argv[argc++] = opaths[k];
    for (int i = 0; i < opts->nextra; i++)
        argv[argc++] = (char *)opts->extra[i];
    if (nats) {
        argv[argc++] = nlib;
        add_words(argv, &argc, 60 + MAX_EXTRA + MAX_CC_PARTS, nflags);
    }
    argv[argc++] = lib;
    argv[argc++] = "-lm";
    argv[argc] = NULL;
    int rc = run_commands(compiles, nparts + 1);
    if (rc > 0 && nparts > 1 && !interrupted) {   /* the whole file has no part macro to go wrong */
        fprintf(stderr, "sremc: note: the matcher did not compile in %d parts; compiling it whole (if "
                        "that builds, sremc's split is at fault: please report it with the .srem file)\n",
                nparts);
        free(cc);
        free(cflags);
        return compile_program(dir, prefix, 1, prog, opts, ext);
    }
    if (rc == 0)
        rc = run_command(argv);
    if (rc != 0 && interrupted)
        fprintf(stderr, "sremc: interrupted by %s: stopped %s\n",
                interrupted == SIGINT ? "SIGINT" : interrupted == SIGTERM ? "SIGTERM" : "SIGHUP", argv[0]);
    else if (rc != 0)
        fprintf(stderr, "sremc: %s failed (exit status %d) compiling the generated program\n", argv[0], rc);
    if (rc != 0 && ext && opts->nextra == 0)
        fprintf(stderr, "sremc: note: '%s' declares extern '%s': give its C implementation as an operand, "
                        "e.g. 'sremc build %s %s.c -o %s'\n", opts->file, ext, opts->file, ext, prog);
    free(cc);
    free(cflags);
    return rc == 0 ? 0 : EXIT_INPUT;
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "sremc: cannot write '%s': %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return EXIT_INPUT;
    }
    return 0;
}

/* A matcher of this many bytes of C or more compiles in parts by
 * default: below it the main's compile (~0.4 s at -O2) already balances
 * the matcher's on two cores. Above it, a part for each CC_PART_BYTES. */
enum { CC_SPLIT_BYTES = 256 * 1024, CC_PART_BYTES = 128 * 1024 };

/* How many translation units `sremc build` compiles the matcher of clen
 * bytes as: --cc-parts (checked by run_emit), else 1 under
 * CC_SPLIT_BYTES, else two per core less one (3 on two cores: with the
 * main, two compiles a core, which the scheduler balances better than
 * one uneven pair; measured on the random 100-pattern files,
 * docs/PERFORMANCE.md), at most one per CC_PART_BYTES and MAX_CC_PARTS;
 * 1 on one core. */
static int cc_parts(const Options *opts, size_t clen)
{
    int n = 1;
    if (opts->cc_parts) {
        parse_count("--cc-parts", opts->cc_parts, &n);
        return n;
    }
    if (clen < CC_SPLIT_BYTES)
        return 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 2)
        return 1;
    long by_cores = 2 * cores - 1, by_size = (long)(clen / CC_PART_BYTES);   /* both >= 2 here */
    long m = by_cores < by_size ? by_cores : by_size;
    return (int)(m > MAX_CC_PARTS ? MAX_CC_PARTS : m);
}

/* A capacity above what the runtime accepts: a usage error. */
static bool over_max(const char *option, int value, int max)
{
    char msg[96];
    if (value <= max)
        return false;
    snprintf(msg, sizeof msg, "%s is at most %d", option, max);
    usage_error("%s", msg);
    return true;
}

/* sremc FILE.srem / emit / build. */
static int run_emit(const Options *opts, bool build)
{
    /* strategy, budget and run capacity as dump and dot read them */
    Job job;
    Options o = *opts;
    o.stage = "min";
    int rc = make_job(&o, false, &job);
    if (rc != 0)
        return rc;
    if (build && !opts->output)
        return usage_error("%s", "build needs -o PROG");
    /* Hosted code grows its partition tables with no key limit (0), and
     * gets OccMap lists long enough for distinct episodes over windows of
     * thousands of events (64 lost exactness from windows of ~1000 on
     * uniform streams; bench/episodes.sh). Firmware gets small fixed
     * tables; the arena is sized for them. */
    CgCaps caps = {opts->freestanding ? 16 : 0, SREMRT_EPISODE_DEFAULT_BUDGET,
                   opts->freestanding ? SREMRT_EPISODE_DEFAULT_CAP : 1024, 0,
                   /* hosted run sets grow: no limit unless --max-runs sets one */
                   opts->freestanding || opts->max_runs ? job.strategy.max_runs : 0};
    size_t runtime_bytes = 0;
    int fc_kb = opts->freestanding ? 64 : 1024;
    if (opts->max_forecast_kb && parse_count("--max-forecast-kb", opts->max_forecast_kb, &fc_kb))
        return EXIT_USAGE;
    if (opts->layout && !layout_parse(opts->layout, &job.strategy.layout))
        return usage_error("unknown layout '%s' (layouts: auto, tree, table, nodes, chain)", opts->layout);
    if ((opts->max_keys && parse_count("--max-keys", opts->max_keys, &caps.max_keys)) ||
        (opts->distinct_budget && parse_count("--distinct-budget", opts->distinct_budget, &caps.distinct_budget)) ||
        (opts->occmap_cap && parse_count("--occmap-cap", opts->occmap_cap, &caps.occmap_cap)) ||
        (opts->explore_cap && parse_count("--explore-cap", opts->explore_cap, &caps.explore_cap)))
        return EXIT_USAGE;
    int nparts = 1;
    if (opts->cc_parts && (parse_count("--cc-parts", opts->cc_parts, &nparts) ||
                           over_max("--cc-parts", nparts, MAX_CC_PARTS)))
        return EXIT_USAGE;
    if (over_max("--max-keys", caps.max_keys, SREMRT_KEYMAP_MAX) ||
        over_max("--distinct-budget", caps.distinct_budget, SREMRT_EPISODE_MAX_BUDGET) ||
        over_max("--occmap-cap", caps.occmap_cap, SREMRT_EPISODE_MAX_CAP))
        return EXIT_USAGE;
    char prefix[CG_MAX_PREFIX + 1];
    if (opts->prefix) {
        if (strlen(opts->prefix) > CG_MAX_PREFIX) {
            char fmt[64];
            snprintf(fmt, sizeof fmt, "--prefix '%%s' is longer than %d characters", CG_MAX_PREFIX);
            return usage_error(fmt, opts->prefix);
        }
        if (!cg_valid_prefix(opts->prefix))
            return usage_error("--prefix '%s' is not a C identifier (letters, digits, '_'; a letter first)",
                               opts->prefix);
        snprintf(prefix, sizeof prefix, "%s", opts->prefix);
    } else {
        cg_prefix_from_path(opts->file, prefix, sizeof prefix);
    }
    Front fe;
    if (front_open(opts, &fe) != 0)
        return EXIT_INPUT;
    Arena *arena = &fe.arena;
    Diag *diag = &fe.diag;
    Ast *ast = fe.ast;
    char *cpath = build ? NULL : opts->output ? strdup(opts->output) : with_ext(opts->file, ".c");
    char *hpath = build ? NULL : with_ext(cpath, ".h");
    char hname[200];
    snprintf(hname, sizeof hname, "%s.h", prefix);
    CgOptions co = {prefix, build ? hname : base_name(hpath), opts->file, opts->template_dir, job.strategy,
                    caps, opts->freestanding != NULL, &runtime_bytes,
                    opts->no_accel != NULL};
    char *ctext = NULL, *htext = NULL, *mtext = NULL;
    size_t clen = 0, hlen = 0, mlen = 0;
    rc = 0;
    if (diag->nerrors == 0) {
        FILE *c = open_memstream(&ctext, &clen), *h = open_memstream(&htext, &hlen);
        FILE *m = open_memstream(&mtext, &mlen);
        /* the stages in order: front end (done), strategies and automata, code */
        int npatterns = 0;
        Plan **plans = strategy_plan_all(ast, &job.strategy, arena, diag, &npatterns);
        for (int i = 0; i < npatterns && opts->explain; i++)
            if (plans[i])
                cost_explain(plans[i], stderr);
        forecast_attach(plans, npatterns, opts->model, fc_kb, opts->explain != NULL, opts->training, arena, diag);
        bool ok = cg_emit(ast, plans, &co, arena, diag, c, h);
        if (ok && build)
            ok = cg_emit_main(ast, &co, diag, m);
        fclose(c);
        fclose(h);
        fclose(m);
    }
    if (report(diag) > 0) {
        rc = EXIT_INPUT;
    } else if (!build) {
        rc = write_file(cpath, ctext, clen);
        if (!rc)
            rc = write_file(hpath, htext, hlen);
        if (!rc && co.freestanding)
            fprintf(stderr,
                    "sremc: %s: %s_ARENA_BYTES = %zu bytes of runtime structures (partition tables, "
                    "episode and explore state, for %d keys) + the matchers' per-key states, "
                    "which your C compiler sizes\n",
                    hpath, prefix, runtime_bytes + 8, caps.max_keys);
    } else {
        const char *tmp = getenv("TMPDIR");
        char dir[1024];
        catch_stop_signals();
        snprintf(dir, sizeof dir, "%s/sremc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "sremc: cannot make a temporary directory: %s\n", strerror(errno));
            rc = EXIT_INPUT;
        } else {
            char names[3][200], path[2048];
            int nparts = cc_parts(opts, clen);
            if (nparts > 1) {   /* the same file, compiled once per part */
                char *split = cg_split(ctext, clen, nparts, &clen);
                free(ctext);
                ctext = split;
            }
            snprintf(names[0], sizeof names[0], "%s.c", prefix);
            snprintf(names[1], sizeof names[1], "%s.h", prefix);
            snprintf(names[2], sizeof names[2], "%s_main.c", prefix);
            const char *texts[3] = {ctext, htext, mtext};
            size_t lens[3] = {clen, hlen, mlen};
            for (int i = 0; i < 3 && !rc; i++) {
                snprintf(path, sizeof path, "%s/%s", dir, names[i]);
                rc = write_file(path, texts[i], lens[i]);
            }
            const char *ext = NULL;
            for (int i = 0; i < ast->ndecls && !ext; i++)
                if (ast->decls[i].kind == DECL_EXTERN)
                    ext = ast->decls[i].u.ext->name;
            if (!rc)
                rc = compile_program(dir, prefix, nparts, opts->output, opts, ext);
            char objs[MAX_COMPILES][210];   /* compile_program's */
            object_names(prefix, nparts, objs);
            char *files[3 + MAX_COMPILES] = {names[0], names[1], names[2]};
            for (int k = 0; k <= nparts; k++)
                files[3 + k] = objs[k];
            if (getenv("SREMC_KEEP_TEMP"))
                fprintf(stderr, "sremc: generated sources kept in %s\n", dir);
            else
                remove_tree(dir, files, 4 + nparts);
        }
        die_if_interrupted();
    }
    free(ctext);
    free(htext);
    free(mtext);
    free(cpath);
    free(hpath);
    front_close(&fe);
    return rc;
}

/* sremc train FILE.srem EVENTS -o MODEL: builds the program (as build
 * does, in a temporary directory) and runs it in its training mode, which
 * counts the symbols of every forecast pattern and writes the model: the
 * generated matcher is the symbolizer, at its own speed. */
static int run_train(const Options *opts)
{
    if (opts->nextra < 1)
        return usage_error("%s", "train needs FILE.srem, an EVENTS file and -o FILE.model");
    if (!opts->output)
        return usage_error("%s", "train needs -o FILE.model");
    if (opts->input && strcmp(opts->input, "csv") != 0 && strcmp(opts->input, "bin") != 0)
        return usage_error("unknown --input '%s' (csv or bin)", opts->input);
    const char *tmp = getenv("TMPDIR");
    char dir[1024], prog[1100];
    snprintf(dir, sizeof dir, "%s/sremc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "sremc: cannot make a temporary directory: %s\n", strerror(errno));
        return EXIT_INPUT;
    }
    snprintf(prog, sizeof prog, "%s/train", dir);
    Options b = *opts;
    b.command = "build";
    b.output = prog;
    b.nextra = opts->nextra - 1;   /* the code of extern predicates, as for build */
    for (int i = 0; i < b.nextra; i++)
        b.extra[i] = opts->extra[i + 1];
    b.training = true;
    int rc = run_emit(&b, true);
    if (rc == 0) {
        char *argv[8];
        int n = 0;
        argv[n++] = prog;
        argv[n++] = "--fc-train";
        argv[n++] = (char *)opts->output;
        if (opts->input) {
            argv[n++] = "--input";
            argv[n++] = (char *)opts->input;
        }
        argv[n++] = (char *)opts->extra[0];
        argv[n] = NULL;
        int st = run_command(argv);
        if (st != 0 && st != 3) {
            fprintf(stderr, "sremc: training on '%s' failed\n", opts->extra[0]);
            rc = EXIT_INPUT;
        }
    }
    char *files[1] = {"train"};
    remove_tree(dir, files, 1);
    die_if_interrupted();
    return rc;
}

int main(int argc, char **argv)
{
    Options opts = {0};
    int rc = parse_args(argc, argv, &opts);
    if (rc)
        return rc;
    if (opts.help) {
        print_help(stdout);
        return 0;
    }
    if (opts.version) {
        printf("sremc %s\n", SREMC_VERSION);
        return 0;
    }
    if (!opts.command)
        return usage_error("%s", "no command given");
    bool is_check = strcmp(opts.command, "check") == 0;
    bool is_dump = strcmp(opts.command, "dump") == 0;
    bool is_dot = strcmp(opts.command, "dot") == 0;
    size_t cmdlen = strlen(opts.command);
    if (cmdlen > 5 && strcmp(opts.command + cmdlen - 5, ".srem") == 0 && !opts.file) {
        /* sremc FILE.srem [-o OUT.c]: emit */
        opts.file = opts.command;
        opts.command = "emit";
    }
    bool is_emit = strcmp(opts.command, "emit") == 0;
    bool is_build = strcmp(opts.command, "build") == 0;
    bool is_train = strcmp(opts.command, "train") == 0;
    if (!is_check && !is_dump && !is_dot && !is_emit && !is_build && !is_train)
        return usage_error("unknown command '%s'", opts.command);
    if (!opts.file)
        return usage_error("'%s' needs a FILE.srem operand", opts.command);
    for (int i = 0; i < opts.nextra; i++) {
        /* build: C sources, objects and libraries for $CC; no other command takes them */
        const char *x = opts.extra[i], *dot = strrchr(base_name(x), '.');
        if (is_train && i == 0)
            continue;   /* the training stream */
        if (!is_build && !is_train)
            return usage_error("unexpected operand '%s'", x);
        if (!dot || (strcmp(dot, ".c") && strcmp(dot, ".o") && strcmp(dot, ".a") && strcmp(dot, ".so")))
            return usage_error(is_train ? "train: '%s' is not a C source, object or library (.c, .o, .a, .so)"
                                        : "build: '%s' is not a C source, object or library (.c, .o, .a, .so)",
                               x);
    }
    if ((rc = check_option_commands(&opts)) != 0)
        return rc;
    opts.error_limit = DIAG_MAX_ERRORS_DEFAULT;
    if (opts.max_errors && parse_int_from("--max-errors", opts.max_errors, 0, &opts.error_limit))
        return EXIT_USAGE;
    if (is_check)
        return run_front(&opts, NULL);
    if (is_emit || is_build)
        return run_emit(&opts, is_build);
    if (is_train)
        return run_train(&opts);
    Job job;
    if ((rc = make_job(&opts, is_dot, &job)) != 0)
        return rc;
    return run_front(&opts, &job);
}
