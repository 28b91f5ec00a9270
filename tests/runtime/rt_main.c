/* rt_main.c: runs every CUnit suite of the runtime library; exit status 1
 * if any assertion failed. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "fc_test.h"
#include "rt.h"

static const char *const type_values[] = {
    "T", "H", "DTS fault", "a, \"b\"", "two\nlines"
};

static const sremrt_attr sensor_attrs[] = {
    {"type", SREMRT_ENUM, offsetof(rt_event, type), 5, type_values},
    {"id", SREMRT_INT, offsetof(rt_event, id), 0, NULL},
    {"value", SREMRT_FLOAT, offsetof(rt_event, value), 0, NULL},
    {"ok", SREMRT_BOOL, offsetof(rt_event, ok), 0, NULL},
    {"time", SREMRT_TIMESTAMP, offsetof(rt_event, time), 0, NULL},
};

const sremrt_schema rt_sensor = {"Sensor", 5, sensor_attrs, 4, sizeof(rt_event), 1000000};
const sremrt_schema rt_sensor_nots = {"Sensor", 4, sensor_attrs, -1, sizeof(rt_event), 0};

FILE *rt_mem(const char *data, size_t n)
{
    /* fmemopen wants a non-NULL buffer even for empty input. */
    FILE *f = fmemopen((void *)(n ? data : " "), n, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    return f;
}

int main(void)
{
    unsigned failed;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    add_csv_tests();
    add_out_tests();
    add_keymap_tests();
    add_absq_tests();
    add_strtab_tests();
    add_alloc_tests();
    add_bin_tests();
    add_jsonl_tests();
    add_misc_tests();
    add_ptrie_tests();
    add_explore_tests();
    add_occmap_tests();
    add_episode_tests();
    add_canon_tests();
    add_time_tests();
    add_fc_learn_tests();
    add_fc_wait_tests();
    add_fc_score_tests();
    add_num_tests();
    add_csv_gen_tests();
    add_state_tests();
    CU_basic_set_mode(getenv("UNIT_VERBOSE") ? CU_BRM_VERBOSE : CU_BRM_NORMAL);
    CU_basic_run_tests();
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
