/* main.c: the sremc command line. Parses options from options.def, then
 * drives the pipeline for the chosen command. Exit: 0 ok, 1 errors in
 * the input, 2 usage errors. */
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

#ifndef SREMC_VERSION
#define SREMC_VERSION "0.1.0"
#endif

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

typedef struct Options {
    const char *command;
    const char *file;
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

/* Runs the front end on opts->file and prints diagnostics; for dump,
 * prints the stage on success. */
static int run_front(const Options *opts, bool dump)
{
    size_t len = 0;
    char *src = frontend_read_file(opts->file, &len);
    if (!src) {
        fprintf(stderr, "sremc: cannot read '%s': %s\n", opts->file, strerror(errno));
        return EXIT_INPUT;
    }
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, opts->file, src, len);
    diag.werror = opts->werror != NULL;
    Ast *ast = frontend_parse_check(opts->file, src, len, &arena, &diag);
    int nerrors = diag.nerrors;
    diag_flush(&diag, stderr);
    if (nerrors > 0)
        fprintf(stderr, "%d error%s generated.\n", nerrors, nerrors == 1 ? "" : "s");
    else if (dump)
        ast_dump_txt(ast, stdout);
    arena_free(&arena);
    free(src);
    return nerrors ? EXIT_INPUT : 0;
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
    if (!is_check && !is_dump) {
        size_t n = strlen(opts.command);
        if (n > 5 && strcmp(opts.command + n - 5, ".srem") == 0)
            return usage_error("'%s': generating C is not available yet; "
                               "'sremc check FILE.srem' checks the file",
                               opts.command);
        return usage_error("unknown command '%s'", opts.command);
    }
    if (!opts.file)
        return usage_error("'%s' needs a FILE.srem operand", opts.command);
    if (is_dump) {
        if (!opts.stage)
            return usage_error("%s", "dump needs --stage (stages: ast)");
        if (strcmp(opts.stage, "ast") != 0)
            return usage_error("unknown stage '%s' (stages: ast)", opts.stage);
    } else if (opts.stage) {
        return usage_error("%s", "--stage applies to 'dump' only");
    }
    return run_front(&opts, is_dump);
}
