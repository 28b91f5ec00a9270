/* diff_codegen.c: random patterns (tests/diff/gen.h) -> batched .srem files
 * -> `sremc build --strategy S` programs run on random CSV streams, each
 * record compared with the reference interpreter. Usage:
 *   diff_codegen SREMC WORKDIR [NPATTERNS [SEED]]
 * Prints the seed, the pattern and the stream of the first mismatch. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "../diff/gen.h"
#include "interp.h"
#include "strategy.h"

enum { BATCH = 60, STREAMS = 6, LEN = 40, MAX_STATES = 3000 };

static const char *const strategies[] = {"auto", "tdfa", "dsra", "runs"};
static const char *const tnames[] = {"A", "B", "C"};

typedef struct Pat {
    char src[2048];    /* the generated file (schema + pattern p) */
    char body[2048];   /* "pattern pN ..." */
    bool ok[4];        /* strategy applies and fits */
} Pat;

static bool applies(const char *src, int strategy)
{
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, "gen.srem", src, strlen(src));
    Ast *ast = frontend_parse_check("gen.srem", src, strlen(src), &arena, &diag);
    bool ok = diag.nerrors == 0;
    for (int i = 0; ok && i < ast->ndecls; i++)
        if (ast->decls[i].kind == DECL_PATTERN) {
            StrategyOpts o = {(Strategy)strategy, MAX_STATES, 1024};
            ok = strategy_plan(ast->decls[i].u.pattern, &o, &arena, &diag) != NULL && diag.nerrors == 0;
        }
    diag_free(&diag);
    arena_free(&arena);
    return ok;
}

static int run(const char *cmd)
{
    int rc = system(cmd);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SREMC WORKDIR [NPATTERNS [SEED]]\n", argv[0]);
        return 2;
    }
    const char *sremc = argv[1], *dir = argv[2];
    int npat = argc > 3 ? atoi(argv[3]) : 240;
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 0) : 20240601u;
    Rng r = {seed};
    Pat *pats = calloc((size_t)npat, sizeof *pats);
    if (!pats)
        return 2;
    for (int i = 0; i < npat; i++) {
        GenOpts o = {0};
        int kind = i % 4;
        o.registers = kind >= 1;
        o.complement = kind == 3;
        o.intersection = kind != 1;
        o.time_window = kind == 2 || kind == 0;
        o.partition = i % 3 == 0;
        o.policies = i % 5 == 0;
        o.max_depth = 3;
        o.max_window = 5;
        gen_pattern(&r, &o, pats[i].src, sizeof pats[i].src);
        const char *p = strstr(pats[i].src, "pattern p ");
        if (!p)
            p = "";
        snprintf(pats[i].body, sizeof pats[i].body, "pattern p%d %s", i, p[0] ? p + 10 : "");
        for (int s = 0; s < 4; s++)
            pats[i].ok[s] = p[0] && applies(pats[i].src, s);
    }
    int failures = 0, compared = 0, programs = 0;
    Value *values = malloc(sizeof(Value) * LEN * GEN_NATTRS);
    bool *det = malloc(LEN);
    for (int s = 0; s < 4 && !failures; s++) {
        for (int b0 = 0; b0 < npat && !failures; b0 += BATCH) {
            char path[512], prog[512], cmd[2048];
            snprintf(path, sizeof path, "%s/b_%s_%d.srem", dir, strategies[s], b0);
            snprintf(prog, sizeof prog, "%s/b_%s_%d", dir, strategies[s], b0);
            FILE *f = fopen(path, "w");
            if (!f)
                return 2;
            fputs(GEN_SCHEMA, f);
            int n = 0;
            for (int i = b0; i < b0 + BATCH && i < npat; i++)
                if (pats[i].ok[s]) {
                    fprintf(f, "%s\n", pats[i].body);
                    n++;
                }
            fclose(f);
            if (n == 0)
                continue;
            snprintf(cmd, sizeof cmd, "CFLAGS=-O0 %s build --strategy %s --max-states %d %s -o %s 2>%s/build.log",
                     sremc, strategies[s], MAX_STATES, path, prog, dir);
            if (run(cmd) != 0) {
                fprintf(stderr, "FAIL: %s\n", cmd);
                snprintf(cmd, sizeof cmd, "tail -40 %s/build.log >&2", dir);
                run(cmd);
                failures++;
                break;
            }
            programs++;
            /* the batch, checked in-process, for the oracle */
            size_t len;
            char *src = frontend_read_file(path, &len);
            Arena arena;
            arena_init(&arena);
            Diag diag;
            diag_init(&diag, path, src, len);
            Ast *ast = frontend_parse_check(path, src, len, &arena, &diag);
            for (int k = 0; k < STREAMS && !failures; k++) {
                gen_stream(&r, LEN, values);
                char csv[512];
                snprintf(csv, sizeof csv, "%s/stream.csv", dir);
                FILE *c = fopen(csv, "w");
                fputs("t,v,k,time\n", c);
                for (int e = 0; e < LEN; e++) {
                    const Value *v = values + e * GEN_NATTRS;
                    fprintf(c, "%s,%lld,%lld,%lld\n", tnames[v[GEN_T].i], (long long)v[GEN_V].i,
                            (long long)v[GEN_K].i, (long long)v[GEN_TIME].i);
                }
                fclose(c);
                snprintf(cmd, sizeof cmd, "%s --format jsonl %s", prog, csv);
                FILE *out = popen(cmd, "r");
                /* got[pattern][event] */
                static bool got[BATCH][LEN];
                memset(got, 0, sizeof got);
                char line[512];
                while (fgets(line, sizeof line, out)) {
                    int pi, idx;
                    if (sscanf(line, "{\"kind\":\"match\",\"name\":\"p%d\",\"index\":%d", &pi, &idx) == 2 &&
                        pi >= b0 && pi < b0 + BATCH && idx >= 1 && idx <= LEN)
                        got[pi - b0][idx - 1] = true;
                }
                int prc = pclose(out);
                if (prc != 0) {
                    fprintf(stderr, "FAIL: %s exited with %d\n", cmd, prc);
                    failures++;
                }
                Stream st = {LEN, GEN_NATTRS, values};
                for (int d = 0; d < ast->ndecls && !failures; d++) {
                    if (ast->decls[d].kind != DECL_PATTERN)
                        continue;
                    const AstPattern *p = ast->decls[d].u.pattern;
                    int pi = atoi(p->name + 1);
                    interp_detect(p, &st, NULL, det);
                    compared++;
                    for (int e = 0; e < LEN; e++)
                        if (det[e] != got[pi - b0][e]) {
                            fprintf(stderr, "MISMATCH strategy %s seed %llu: %s at index %d: interp %d, "
                                    "generated %d\n%s\nstream:\n", strategies[s],
                                    (unsigned long long)seed, p->name, e + 1, det[e], got[pi - b0][e],
                                    pats[pi].body);
                            for (int x = 0; x < LEN; x++) {
                                const Value *v = values + x * GEN_NATTRS;
                                fprintf(stderr, "  %d: %s v=%lld k=%lld time=%lld\n", x + 1, tnames[v[GEN_T].i],
                                        (long long)v[GEN_V].i, (long long)v[GEN_K].i,
                                        (long long)v[GEN_TIME].i);
                            }
                            failures++;
                            break;
                        }
                }
            }
            diag_free(&diag);
            arena_free(&arena);
            free(src);
        }
    }
    int napply[4] = {0};
    for (int i = 0; i < npat; i++)
        for (int s = 0; s < 4; s++)
            napply[s] += pats[i].ok[s];
    printf("diff_codegen: seed %llu, %d patterns (auto %d, tdfa %d, dsra %d, runs %d), %d programs, "
           "%d pattern-stream comparisons, %d failures\n",
           (unsigned long long)seed, npat, napply[0], napply[1], napply[2], napply[3], programs, compared,
           failures);
    free(pats);
    free(values);
    free(det);
    return failures ? 1 : 0;
}
