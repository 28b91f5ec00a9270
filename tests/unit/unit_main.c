/* main.c: runs every CUnit suite; exit status 1 if any assertion failed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "../diff/shrink.h"
#include "frontend.h"
#include "unit.h"

void fx_run(Fixture *fx, const char *src, bool check)
{
    memset(fx, 0, sizeof *fx);
    arena_init(&fx->arena);
    diag_init(&fx->diag, "t.srem", src, strlen(src));
    if (check)
        fx->ast = frontend_parse_check("t.srem", src, strlen(src), &fx->arena, &fx->diag);
    else
        fx->ast = parse_source("t.srem", src, strlen(src), &fx->arena, &fx->diag);
    fx->nerrors = fx->diag.nerrors;
    fx->nwarnings = fx->diag.nwarnings;
    fx->nsyntax = fx->diag.nsyntax;
    size_t size;
    FILE *f = open_memstream(&fx->diags, &size);
    diag_flush(&fx->diag, f);
    fclose(f);
    /* Dumps indent by depth: skip trees the parser refused as too deep. */
    f = open_memstream(&fx->dump, &size);
    if (!fx_has(fx, "nested more than"))
        ast_dump_txt(fx->ast, f);
    fclose(f);
}

void fx_done(Fixture *fx)
{
    arena_free(&fx->arena);
    free(fx->diags);
    free(fx->dump);
}

bool fx_has(const Fixture *fx, const char *text) { return strstr(fx->diags, text) != NULL; }

/* The first pattern of a checked file, or NULL (the failure is asserted). */
const AstPattern *fx_first_pattern(const Fixture *fx)
{
    if (fx->nerrors) {
        fprintf(stderr, "\n%s", fx->diags);
        CU_FAIL("pattern does not check");
        return NULL;
    }
    for (int i = 0; i < fx->ast->ndecls; i++)
        if (fx->ast->decls[i].kind == DECL_PATTERN)
            return fx->ast->decls[i].u.pattern;
    CU_FAIL("no pattern");
    return NULL;
}


int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    add_diag_tests();
    add_lexer_tests();
    add_parser_tests();
    add_check_tests();
    add_interp_tests();
    add_canon_tests();
    add_unroll_tests();
    add_sra_tests();
    add_minterm_tests();
    add_dsra_tests();
    add_forecast_tests();
    add_shrink_tests();
    add_writer_tests();
    CU_basic_set_mode(getenv("UNIT_VERBOSE") ? CU_BRM_VERBOSE : CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    printf("diff: %ld random differential cases in all (SREMC_DIFF_SCALE=%d)\n", diff_total(), diff_scale());
    return failed ? 1 : 0;
}
