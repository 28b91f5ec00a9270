/* test_check.c: the semantic checker: name resolution, types, registers,
 * policies, windows, explore and episode rules, with exact positions. */
#include <string.h>

#include "unit.h"

static const char *const sensor =
    "schema Sensor {\n"
    "    type  : enum { T, H };\n"
    "    id    : int;\n"
    "    value : float;\n"
    "    ok    : bool;\n"
    "    time  : timestamp(ms);\n"
    "}\n";

/* Checks sensor + rest; the fixture is left for the caller to inspect. */
static void run_sensor(Fixture *fx, const char *rest)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s", sensor, rest);
    fx_run(fx, src, true);
}

static void test_fire_checks_clean(void)
{
    Fixture fx;
    run_sensor(&fx, "pattern fire on Sensor within 10 events {\n"
                    "    x:T  _*  [type == H && id == x.id && value > 60]\n"
                    "}\n");
    ASSERT_CLEAN(&fx);
    CU_ASSERT_TRUE(fx.ast->checked);
    fx_done(&fx);
}

void add_check_tests(void)
{
    CU_pSuite suite = CU_add_suite("check", NULL, NULL);
    CU_add_test(suite, "fire checks clean", test_fire_checks_clean);
}
