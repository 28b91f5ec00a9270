/* fuzz_frontend.c: libFuzzer driver for the front end: any bytes go
 * through the lexer, parser, checker and dump; none may crash or leak. */
#include <stdint.h>
#include <stdio.h>

#include "frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, "fuzz.srem", (const char *)data, size);
    Ast *ast = frontend_parse_check("fuzz.srem", (const char *)data, size, &arena, &diag);
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        diag_flush(&diag, sink);
        ast_dump_txt(ast, sink);
        fclose(sink);
    }
    diag_free(&diag);
    arena_free(&arena);
    return 0;
}
