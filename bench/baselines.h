/* baselines.h: floors and naive matchers (bench/baselines.c) and the
 * Hyperscan baseline (bench/hs.c), timed beside the generated matchers. */
#ifndef BASELINES_H
#define BASELINES_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/* Floors: return something that depends on every event. */
uint64_t base_sum8(const uint8_t *ty, size_t n);
void base_dfa64_table(uint8_t t[64][256]);
uint64_t base_dfa64(const uint8_t t[64][256], const uint8_t *ty, size_t n);
uint64_t base_rec16(const bench_rec *ev, size_t n);

/* Naive matchers over one-byte types 'A', 'B', ...: detections (end
 * positions), except base_triples (matches). */
uint64_t base_stam(const uint8_t *ty, size_t n, const uint8_t *atoms, int m, long w);
uint64_t base_gap(const uint8_t *ty, size_t n, long g);
uint64_t base_triples(const uint8_t *ty, size_t n, long w);
uint64_t base_kleene(const uint8_t *ty, size_t n, long w);
uint64_t base_reg3(const bench_rec *ev, size_t n, double d);

/* Hand-written O(1) counters of B1 and B2 (detections). */
uint64_t base_counter_stam(const uint8_t *ty, size_t n, long w);
uint64_t base_counter_gap(const uint8_t *ty, size_t n, long g);

/* Hyperscan, streaming mode (bench/hs.c; stubs that fail when it was not
 * found). hsb_compile: NULL on failure, *why says why; *secs the compile
 * time. hsb_scan: end positions over ty[0..n), `chunk` bytes per
 * hs_scan_stream call; with ticks, one call per event, timed in groups of
 * `per` calls as bench_ops.lat8 does. */
typedef struct hsb hsb;
int hsb_available(void);
hsb *hsb_compile(const char *regex, double *secs, const char **why);
size_t hsb_stream_bytes(const hsb *h);
uint64_t hsb_scan(hsb *h, const uint8_t *ty, size_t n, size_t chunk, uint32_t *ticks, int per);
void hsb_free(hsb *h);

#endif
