/* rt.h: helpers shared by the runtime's CUnit suites: a test schema (the
 * Sensor of docs/language.md section 2) and string comparisons that show diffs. */
#ifndef SREMRT_TEST_RT_H
#define SREMRT_TEST_RT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "sremrt/sremrt.h"

/* The generated struct a `schema Sensor { type: enum {...}; id: int;
 * value: float; ok: bool; time: timestamp(ms); }` would get. */
typedef struct rt_event {
    int32_t type;
    int64_t id;
    double value;
    uint8_t ok;
    int64_t time;
} rt_event;

extern const sremrt_schema rt_sensor;         /* with timestamp */
extern const sremrt_schema rt_sensor_nots;    /* same struct, no timestamp attribute */

/* Asserts two strings are equal, printing both when they are not. */
#define ASSERT_STR(got, want)                                                    \
    do {                                                                         \
        const char *g_ = (got), *w_ = (want);                                    \
        if (strcmp(g_, w_) != 0)                                                 \
            fprintf(stderr, "\n%s:%d:\nwanted:\n%s\ngot:\n%s\n", __FILE__,       \
                    __LINE__, w_, g_);                                           \
        CU_ASSERT_STRING_EQUAL(g_, w_);                                          \
    } while (0)

/* Opens a read-only stream over n bytes of data (NUL bytes allowed). */
FILE *rt_mem(const char *data, size_t n);
#define RT_STR(s) rt_mem((s), strlen(s))

/* runtime/csv.c without its plain path (csv_ref.c), for differential tests. */
int ref_csv_open(sremrt_csv *r, const sremrt_schema *s, FILE *in, const sremrt_csv_config *cfg,
                 const sremrt_alloc *a);
int ref_csv_next(sremrt_csv *r, void *event);
int64_t ref_csv_line(const sremrt_csv *r);
const char *ref_csv_message(const sremrt_csv *r);
void ref_csv_close(sremrt_csv *r);

void add_csv_tests(void);
void add_out_tests(void);
void add_keymap_tests(void);
void add_absq_tests(void);
void add_strtab_tests(void);
void add_alloc_tests(void);
void add_bin_tests(void);
void add_jsonl_tests(void);
void add_misc_tests(void);
void add_ptrie_tests(void);
void add_explore_tests(void);
void add_occmap_tests(void);
void add_episode_tests(void);
void add_canon_tests(void);
void add_num_tests(void);
void add_csv_gen_tests(void);
void add_state_tests(void);
void add_time_tests(void);

#endif
