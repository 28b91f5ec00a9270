# Makefile: builds bin/sremc and lib/libsremrt.a (the runtime); targets demo,
# check, fuzz, compile-bench, deps, clean. `make check` runs every test, also under
# AddressSanitizer and UndefinedBehaviorSanitizer.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror
CPPFLAGS = -Icompiler -Igrammar -Ibuild -Iruntime/include -MMD -MP
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
BISON   ?= bison
RE2C    ?= re2c
FUZZ_SECONDS ?= 60
# libnats (pkg-config): lib/libsremrt_nats.a, the --nats mode of programs
NATS_FOUND  := $(shell pkg-config --exists libnats 2>/dev/null && echo yes)
NATS_LIB     = $(if $(NATS_FOUND),lib/libsremrt_nats.a)
NATS_CFLAGS := $(if $(NATS_FOUND),$(shell pkg-config --cflags libnats))

COMPILER_SRC = $(filter-out compiler/main.c,$(wildcard compiler/*.c compiler/codegen/*.c))
GEN_SRC      = build/parser.c build/lexer.c build/templates.c
TEMPLATES    = $(wildcard templates/*.tpl)
UNIT_SRC     = $(wildcard tests/unit/*.c tests/diff/*.c)

obj = $(patsubst %.c,build/$(1)/%.o,$(notdir $(2)))
# The compiler links the runtime for its sizing functions (the arena of
# --freestanding code): lib/libsremrt.a after the objects that use it.
LIB_OBJ      = $(call obj,obj,$(COMPILER_SRC) $(GEN_SRC)) lib/libsremrt.a
SAN_LIB_OBJ  = $(call obj,san,$(COMPILER_SRC) $(GEN_SRC)) lib/libsremrt.a

vpath %.c compiler compiler/codegen build tests/unit tests/diff tests/fuzz tests/gen tests/canon bench

.PHONY: all deps demo check check-long check-gen check-firmware check-forecast check-unit check-golden check-samples check-dot check-build check-san check-clang \
        golden-update compile-bench bench fuzz clean
.DELETE_ON_ERROR:

all: bin/sremc lib/libsremrt.a  ## build sremc and the runtime library (the default)

# ---- generated front end --------------------------------------------------

# One bison run writes both (a grouped target: -j runs it once).
build/parser.c build/parser.h &: grammar/parser.y | build
	$(BISON) -Wall -Werror -d -o build/parser.c $<

build/lexer.c: grammar/lexer.re | build
	$(RE2C) -W -Werror --no-generation-date --no-version -o $@ $<

build build/obj build/san bin:
	mkdir -p $@

# Code templates, embedded into sremc (--template-dir reads them from disk).
build/embed: templates/embed.c | build
	$(CC) $(CFLAGS) -o $@ $<

build/templates.c: build/embed $(TEMPLATES)
	./build/embed $@ $(TEMPLATES)

# Every object may include parser.h (through lexer.h): generate it first.
build/obj/%.o: %.c | build/obj build/parser.h build/templates.c
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -c -o $@ $<

build/san/%.o: %.c | build/san build/parser.h build/templates.c
	$(CC) $(WARN) $(SANFLAGS) $(CPPFLAGS) -c -o $@ $<

# ---- programs ---------------------------------------------------------------

bin/sremc: $(LIB_OBJ) build/obj/main.o | bin $(NATS_LIB)
	$(CC) $(CFLAGS) -o $@ $^

build/san/sremc: $(SAN_LIB_OBJ) build/san/main.o
	$(CC) $(SANFLAGS) -o $@ $^

build/unit_tests: $(LIB_OBJ) $(call obj,obj,$(UNIT_SRC))
	$(CC) $(CFLAGS) -o $@ $^ -lcunit

build/san/unit_tests: $(SAN_LIB_OBJ) $(call obj,san,$(UNIT_SRC))
	$(CC) $(SANFLAGS) -o $@ $^ -lcunit

# ---- runtime library (C99; generated matchers link with it) -----------------

RT_WARN      = -std=c99 -Wall -Wextra -pedantic -Werror
RT_CPPFLAGS  = -Iruntime/include -MMD -MP
RT_SRC       = $(wildcard runtime/*.c)
RT_TEST_SRC  = $(wildcard tests/runtime/*.c)
RT_OBJ       = $(patsubst %.c,build/rt/%.o,$(notdir $(RT_SRC)))
RT_SAN_OBJ   = $(patsubst %.c,build/rt-san/%.o,$(notdir $(RT_SRC)))
RT_TEST_OBJ  = $(patsubst %.c,build/rt-test/%.o,$(notdir $(RT_TEST_SRC)))
RT_STEST_OBJ = $(patsubst %.c,build/rt-san-test/%.o,$(notdir $(RT_TEST_SRC)))

.PHONY: check-runtime

# The NATS JetStream mode of generated programs (runtime/nats/nats.c,
# docs/SCALING.md): lib/libsremrt_nats.a, built where pkg-config finds
# libnats (NATS_FOUND, at the top); `sremc build` links it (and libnats)
# when it is there.

build/rt-nats:
	mkdir -p $@

build/rt-nats/nats.o: runtime/nats/nats.c | build/rt-nats
	$(CC) $(RT_WARN) $(CFLAGS) $(RT_CPPFLAGS) $(NATS_CFLAGS) -c -o $@ $<

lib/libsremrt_nats.a: build/rt-nats/nats.o | lib
	rm -f $@
	$(AR) rcs $@ $^

lib build/rt build/rt-san build/rt-test build/rt-san-test:
	mkdir -p $@

build/rt/%.o: runtime/%.c | build/rt
	$(CC) $(RT_WARN) $(CFLAGS) $(RT_CPPFLAGS) -c -o $@ $<

build/rt-san/%.o: runtime/%.c | build/rt-san
	$(CC) $(RT_WARN) $(SANFLAGS) $(RT_CPPFLAGS) -c -o $@ $<

build/rt-test/%.o: tests/runtime/%.c | build/rt-test
	$(CC) $(RT_WARN) $(CFLAGS) $(RT_CPPFLAGS) -c -o $@ $<

build/rt-san-test/%.o: tests/runtime/%.c | build/rt-san-test
	$(CC) $(RT_WARN) $(SANFLAGS) $(RT_CPPFLAGS) -c -o $@ $<

lib/libsremrt.a: $(RT_OBJ) | lib
	rm -f $@
	$(AR) rcs $@ $^

build/runtime_tests: $(RT_TEST_OBJ) lib/libsremrt.a
	$(CC) $(CFLAGS) -o $@ $^ -lcunit -lm

build/san/runtime_tests: $(RT_STEST_OBJ) $(RT_SAN_OBJ) | build/san
	$(CC) $(SANFLAGS) -o $@ $^ -lcunit -lm

# Runtime suites, plain and sanitized; the runtime must build warning-free
# with clang too (when installed).
check-runtime: build/runtime_tests build/san/runtime_tests  ## runtime suites, plain and sanitized
	./build/runtime_tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ./build/san/runtime_tests
	@if command -v clang >/dev/null; then \
	    for f in $(RT_SRC) $(RT_TEST_SRC) $(if $(NATS_FOUND),runtime/nats/nats.c); do \
	        clang $(RT_WARN) -fsyntax-only -Iruntime/include $(NATS_CFLAGS) $$f || exit 1; \
	    done; echo "clang: runtime sources build warning-free"; \
	else echo "clang: not installed, skipped"; fi

# The number parsers against strtod/strtoll at 20 times check-runtime's count
# (about 20 million texts); SREMC_NUM_SEED=N for another sequence.
.PHONY: check-num-long
check-num-long: build/runtime_tests  ## the number parsers' differential test, 20 times longer
	SREMC_DIFF_SCALE=20 ./build/runtime_tests

-include $(wildcard build/rt/*.d build/rt-san/*.d build/rt-test/*.d build/rt-san-test/*.d build/rt-nats/*.d)

# ---- user-facing targets ------------------------------------------------------

deps:  ## install what the build and the tests need (apt-get, as root)
	@sh scripts/deps.sh

demo: deps  ## build sremc, build a matcher from a sample and run it
	@$(MAKE) -s --no-print-directory all
	@sh scripts/demo.sh

# The suites write to their own directories, so they run CHECK_JOBS at a
# time (-O: each suite's output whole, when it ends; the longest first);
# check-nats runs alone after them, as its cluster has timeouts.
CHECK_JOBS ?= 2
CHECK_SUITES = check-gen check-unit check-golden check-samples check-dot check-build check-san check-clang check-runtime check-fault check-fault-long check-install check-embed samples-long check-firmware check-cost check-canon check-forecast

check: deps  ## run every test (about 9 minutes on 2 idle cores; CHECK_JOBS=1 runs one suite at a time)
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) -O $(CHECK_SUITES)
	@$(MAKE) --no-print-directory check-nats
	@echo "check: all suites passed"

check-unit: build/unit_tests  ## unit suites of the compiler
	./build/unit_tests

check-golden: bin/sremc  ## golden outputs of every stage and of the diagnostics
	sh tests/golden/run.sh bin/sremc

check-samples: bin/sremc  ## the samples against their expected records
	sh tests/check_samples.sh bin/sremc

# Every automaton stage of every sample must render with Graphviz.
check-dot: bin/sremc  ## every automaton stage of every sample renders with Graphviz
	sh tests/check_dot.sh bin/sremc

# sremc build stopped by SIGTERM/SIGINT: its C compiler stopped, nothing left (~1 s).
check-build: bin/sremc lib/libsremrt.a  ## a killed sremc build leaves nothing behind
	sh tests/check_build_signal.sh bin/sremc

check-san: build/san/unit_tests build/san/sremc  ## unit suites and goldens under ASan and UBSan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ./build/san/unit_tests
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 sh tests/golden/run.sh build/san/sremc

# Generated code: warning-free C99, behavioural cases under every
# strategy, and random patterns against the reference interpreter.
build/diff_codegen: $(LIB_OBJ) build/obj/diff_codegen.o build/obj/gen.o build/obj/shrink.o
	$(CC) $(CFLAGS) -o $@ $^

# Checkpoints of generated programs: restored runs against whole runs.
build/diff_state: $(LIB_OBJ) build/obj/diff_state.o build/obj/gen.o build/obj/shrink.o
	$(CC) $(CFLAGS) -o $@ $^

# Episodes and explore clauses of generated programs against brute-force
# oracles (no compiler objects: the oracles are independent of them).
build/diff_decl: build/obj/diff_decl.o
	$(CC) $(CFLAGS) -o $@ $^

# The generated explore counting step against the runtime's reference
# algorithms (rc, ic) on random clauses and streams.
build/diff_explore: build/obj/diff_explore.o
	$(CC) $(CFLAGS) -o $@ $^

check-gen: bin/sremc lib/libsremrt.a build/diff_codegen build/diff_decl build/diff_state build/diff_explore  ## generated code against the reference interpreter and oracles
	sh tests/gen/run.sh bin/sremc build/diff_codegen build/diff_decl build/diff_state build/diff_explore

# The canonical match (docs/language.md 3.4): the reference interpreter
# against Python's re on seeded random register-free patterns with labels
# (tests/canon/run.py; SEED=N for another sequence).
.PHONY: check-canon
build/canon_ref: $(LIB_OBJ) build/obj/canon_ref.o
	$(CC) $(CFLAGS) -o $@ build/obj/canon_ref.o $(LIB_OBJ)

check-canon: build/canon_ref bin/sremc lib/libsremrt.a  ## start and bind of the reference and of generated programs against Python's re
	python3 tests/canon/run.py --ref build/canon_ref --sremc bin/sremc $(if $(SEED),--seed $(SEED))

# Bad input for generated programs (malformed CSV and binary records,
# timestamps going backwards, full tables, huge windows), extreme pattern
# files for sremc, sample programs under valgrind (tests/fault/run.sh).
# check-fault-long (in check, ~70 s): 10^8 events through a program, about
# 2 minutes.
.PHONY: check-fault check-fault-long
check-fault: bin/sremc lib/libsremrt.a  ## bad input for sremc and generated programs
	sh tests/fault/run.sh bin/sremc
	sh tests/fault/overflow.sh bin/sremc

check-fault-long: bin/sremc lib/libsremrt.a  ## check-fault with 10^8 events through a program
	sh tests/fault/run.sh bin/sremc --long

# Firmware mode (sremc --freestanding): every sample for the host and a
# Cortex-M4, no malloc or stdio, the arena large enough, samples/firmware.
check-firmware: bin/sremc lib/libsremrt.a  ## freestanding builds for the host and a Cortex-M4
	sh tests/check_firmware.sh bin/sremc

# Forecasting end to end (tests/forecast/run.sh): trained models, calibration
# of the interval forecasts on a held-out stream against an independent
# rescoring, a learned model against a reference, a stale model refused.
check-forecast: bin/sremc lib/libsremrt.a  ## forecasts end to end: calibration, learned vs reference, stale models
	sh tests/forecast/run.sh bin/sremc

# The differential tests (unit suites and generated code against the
# reference interpreter) with LONG_SCALE times the random cases of `make
# check` (SREMC_DIFF_SCALE); not part of check. Scale 20 is estimated at
# 12 minutes on 2 free cores (20 x about 5 s of unit suites and 30 s of
# generated-code differential); lower LONG_SCALE if that is too long.
LONG_SCALE ?= 20

check-long: build/unit_tests bin/sremc lib/libsremrt.a build/diff_codegen  ## the differential tests at LONG_SCALE times the cases (not in check)
	SREMC_DIFF_SCALE=$(LONG_SCALE) ./build/unit_tests
	rm -rf build/gen-long && mkdir -p build/gen-long
	SREMC_DIFF_SCALE=$(LONG_SCALE) ./build/diff_codegen bin/sremc build/gen-long

# The compiler must also build warning-free with clang (when installed).
check-clang: $(GEN_SRC)  ## the compiler builds warning-free with clang
	@if command -v clang >/dev/null; then \
	    for f in compiler/*.c compiler/codegen/*.c $(GEN_SRC); do \
	        clang $(WARN) -fsyntax-only -Icompiler -Igrammar -Ibuild -Iruntime/include $$f || exit 1; \
	    done; echo "clang: compiler sources build warning-free"; \
	else echo "clang: not installed, skipped"; fi

# The code budget (compiler/cost.c): issue 13's inputs at every count
# window from 4 to 64 emit within --max-code-kb (tests/cost/check.sh, ~40 s);
# build-bench times their builds (bench/build_times.sh; not in check).
.PHONY: check-cost build-bench
check-cost: bin/sremc  ## issue inputs at windows 4 to 64 stay within the code budget
	sh tests/cost/check.sh bin/sremc

build-bench: bin/sremc lib/libsremrt.a  ## time sremc and cc on the large inputs (not in check)
	sh bench/build_times.sh bin/sremc $(BUILD_WINDOWS)

# Automaton sizes and compile times as the count window grows, per
# strategy (the table in docs/automata.md).
build/compile_bench: $(LIB_OBJ) build/obj/compile_bench.o
	$(CC) $(CFLAGS) -o $@ $^

compile-bench: build/compile_bench  ## automaton sizes and compile times by window (not in check)
	./build/compile_bench

# The workloads of docs/workloads.md (docs/PERFORMANCE.md); not part of check.
# bench/run.sh: generated matchers per strategy beside the floors, naive
# matchers, Hyperscan and the reference interpreter (linked from the
# compiler's objects), every count checked (golden or same-run baseline);
# then episode counters and explore algorithms beside their baselines
# (bench/episodes.sh, bench/explore.sh), the runs strategy (bench/runs.sh)
# and the ingest table (bench/ingest.sh: build/bench/ingest.md and .json);
# bench/report.sh merges the rest into bench/results.json and draws
# docs/bench-window.svg. One process, 2
# repetitions (1 for the baselines): 5-8 minutes here. BENCH_CFLAGS
# compiles the matchers and drivers (run.sh: -O3 -march=native; the
# others: -O2).
bench: bin/sremc lib/libsremrt.a  ## the benchmark workloads, beside floors and peers (5-8 min)
	-@sh scripts/deps.sh bench   # Hyperscan, gnuplot; without them those rows say so
	BENCH_INTERP_OBJS="$(filter build/obj/%,$(LIB_OBJ))" sh bench/run.sh bin/sremc lib/libsremrt.a
	sh bench/episodes.sh lib/libsremrt.a
	sh bench/fc_core.sh lib/libsremrt.a
	sh bench/explore.sh bin/sremc lib/libsremrt.a
	sh bench/runs.sh bin/sremc lib/libsremrt.a
	sh bench/forecast.sh bin/sremc lib/libsremrt.a
	sh bench/ingest.sh bin/sremc lib/libsremrt.a
	sh bench/report.sh
	@if [ -n "$(BENCH_AB)" ]; then AB_INSTR=1 sh bench/ab.sh $(BENCH_AB) 0; fi   # make bench BENCH_AB=069fa4c

# Regressions against an earlier commit (issue 13: no workload more than
# 10% slower than at 069fa4c): bench/ab.sh builds AB_BASE's tree once
# (build/bench/ab-base) and compares each generated matcher of B1-B4, B7
# and B8 with this tree's by instructions per event (callgrind, which a
# busy machine does not move), each against its own runtime.
AB_BASE ?= 069fa4c
.PHONY: bench-ab
bench-ab: bin/sremc lib/libsremrt.a  ## matchers against commit AB_BASE (069fa4c): instructions per event
	AB_INSTR=1 sh bench/ab.sh $(AB_BASE) 0

# CSV ingest: MB/s and events/s of a trivial-pattern program on the sensor
# and wide shapes, beside cat and wc -l (bench/csv_speed.sh; about a minute).
.PHONY: bench-csv
bench-csv: bin/sremc lib/libsremrt.a  ## CSV ingest speed beside cat and wc -l (not in check)
	sh bench/csv_speed.sh bin/sremc lib/libsremrt.a

# The ingest table alone (bench/ingest.sh, last part of `make bench`): CSV,
# JSONL and bin input of programs beside cat and wc -l; INGEST_QUICK=1 for
# 3 runs a row instead of 5.
.PHONY: bench-ingest
bench-ingest: bin/sremc lib/libsremrt.a  ## CSV, JSONL and bin input speed beside cat and wc -l (1-3 min)
	sh bench/ingest.sh bin/sremc lib/libsremrt.a

# Everything, at full size (BENCH_FULL=1): 3 processes x 5 repetitions,
# more windows, longer streams and budgets; about an hour (bench/run.sh:
# 45 minutes).
# The forecasting core alone (bench/fc_core.sh): training speed, learner,
# context automaton and table costs; a part of `make bench` too.
.PHONY: bench-fc
bench-fc: lib/libsremrt.a  ## forecasting core: training events/s, learn and table times (seconds)
	sh bench/fc_core.sh lib/libsremrt.a

.PHONY: bench-full
bench-full:  ## the benchmarks at full size (about an hour)
	BENCH_FULL=1 $(MAKE) --no-print-directory bench

golden-update: bin/sremc  ## rewrite the golden files from the current sremc
	sh tests/golden/run.sh bin/sremc --update

# libFuzzer needs clang; seeds are the golden and sample pattern files.
# fuzz_frontend: lexer, parser, checker; fuzz_compiler: every automaton
# stage of every strategy, and the C of every layout, for the files that
# check. FUZZ_SECONDS each.
FUZZ_FLAGS = -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -Icompiler -Igrammar -Ibuild -Iruntime/include

build/fuzz_%: tests/fuzz/fuzz_%.c $(COMPILER_SRC) $(GEN_SRC) $(RT_SRC)
	clang $(FUZZ_FLAGS) -o $@ $^

# fuzz_csv: a generated program's input path, the CSV reader into the
# matcher of tests/fuzz/csv_schema.srem; seeds are the sample streams.
build/fuzz-csv-gen/fcsv.c: tests/fuzz/csv_schema.srem bin/sremc
	mkdir -p build/fuzz-csv-gen
	bin/sremc tests/fuzz/csv_schema.srem --prefix fcsv -o $@

build/fuzz_csv: tests/fuzz/fuzz_csv.c build/fuzz-csv-gen/fcsv.c $(RT_SRC)
	clang -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    -Iruntime/include -Ibuild/fuzz-csv-gen -o $@ $^

# fuzz_jsonl: the same driver and matcher behind the JSON Lines reader;
# seeds are the sample streams as JSON Lines (tests/gen/csv2jsonl.py).
build/fuzz_jsonl: tests/fuzz/fuzz_csv.c build/fuzz-csv-gen/fcsv.c $(RT_SRC)
	clang -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DFUZZ_JSONL \
	    -Iruntime/include -Ibuild/fuzz-csv-gen -o $@ $^

fuzz: deps build/fuzz_frontend build/fuzz_compiler build/fuzz_csv build/fuzz_jsonl  ## libFuzzer on the front end, the compiler, the CSV and JSONL readers
	for f in frontend compiler; do \
	    mkdir -p build/fuzz-corpus-$$f && \
	    cp tests/golden/*/*.srem samples/*.srem build/fuzz-corpus-$$f/ 2>/dev/null; \
	    ./build/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	        -dict=tests/fuzz/srem.dict -artifact_prefix=build/fuzz-$$f- build/fuzz-corpus-$$f || exit 1; \
	done
	mkdir -p build/fuzz-corpus-csv && cp samples/*.csv build/fuzz-corpus-csv/
	./build/fuzz_csv -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 \
	    -artifact_prefix=build/fuzz-csv- build/fuzz-corpus-csv
	mkdir -p build/fuzz-corpus-jsonl
	for f in samples/*.csv; do \
	    python3 tests/gen/csv2jsonl.py $${f%.csv}.srem $$f > build/fuzz-corpus-jsonl/$$(basename $$f .csv).jsonl || exit 1; \
	done
	./build/fuzz_jsonl -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 \
	    -artifact_prefix=build/fuzz-jsonl- build/fuzz-corpus-jsonl

# ---- sample streams -------------------------------------------------------------
# Stream generators of two samples (samples/telecom_gen.c: alarms after the ONCE
# paper's Table 4; samples/building_gen.c: overheating incidents) and oracles
# that recompute the samples' records without runtime/ (tests/samples/).
# samples/telecom.csv and samples/building.csv, checked with their .expected
# by check-gen, are the generators' output for SAMPLE_TELECOM_ARGS and
# SAMPLE_BUILDING_ARGS. `make samples-long` (part of check, a few seconds):
# the small streams must be reproducible and agree with the oracles; then a
# full day of alarms (250,000, 400 cells) and a week of building events (the
# generators' defaults, or LONG_TELECOM_ARGS, LONG_BUILDING_ARGS) go into
# build/samples-long/, each sample is built with `sremc build`, run with
# --stats, and its records compared with its oracle.
SAMPLE_TELECOM_ARGS  = --cells 12 --days 2 --alarms-per-day 1200
SAMPLE_BUILDING_ARGS = --hours 24
SAMPLE_MACHINE_ARGS  = --events 2000 --seed 1
TRAIN_MACHINE_ARGS   = --events 200000 --seed 2
LONG_TELECOM_ARGS   ?=
LONG_BUILDING_ARGS  ?=
SL = build/samples-long

.PHONY: samples-long

build/telecom_gen build/building_gen build/machine_gen: build/%: samples/%.c | build
	$(CC) $(RT_WARN) $(CFLAGS) -o $@ $<

build/telecom_oracle build/building_oracle: build/%: tests/samples/%.c | build
	$(CC) $(RT_WARN) $(CFLAGS) -o $@ $<

SL_TOOLS = build/telecom_gen build/building_gen build/telecom_oracle build/building_oracle build/machine_gen

samples-long: bin/sremc lib/libsremrt.a $(SL_TOOLS)  ## sample streams regenerated and checked against oracles
	rm -rf $(SL) && mkdir -p $(SL)
	bin/sremc build samples/telecom.srem -o $(SL)/telecom
	bin/sremc build samples/building.srem -o $(SL)/building
	./build/telecom_gen $(SAMPLE_TELECOM_ARGS) | cmp - samples/telecom.csv
	./build/building_gen $(SAMPLE_BUILDING_ARGS) | cmp - samples/building.csv
	./build/machine_gen $(SAMPLE_MACHINE_ARGS) | cmp - samples/machine.csv
	./build/machine_gen $(TRAIN_MACHINE_ARGS) > $(SL)/machine-train.csv
	bin/sremc train samples/machine.srem $(SL)/machine-train.csv -o $(SL)/machine.model
	cmp $(SL)/machine.model samples/machine.model
	$(SL)/telecom --format jsonl samples/telecom.csv > $(SL)/telecom-small.jsonl
	./build/telecom_oracle samples/telecom.csv $(SL)/telecom-small.jsonl
	$(SL)/building --format jsonl samples/building.csv > $(SL)/building-small.jsonl
	./build/building_oracle samples/building.csv $(SL)/building-small.jsonl
	./build/telecom_gen $(LONG_TELECOM_ARGS) > $(SL)/telecom.csv
	$(SL)/telecom --format jsonl --stats $(SL)/telecom.csv > $(SL)/telecom.jsonl
	./build/telecom_oracle $(SL)/telecom.csv $(SL)/telecom.jsonl
	./build/building_gen $(LONG_BUILDING_ARGS) > $(SL)/building.csv
	$(SL)/building --format jsonl --stats $(SL)/building.csv > $(SL)/building.jsonl
	./build/building_oracle $(SL)/building.csv $(SL)/building.jsonl
	@echo "samples-long: generated streams and sample programs agree with the oracles"

# ---- NATS JetStream ---------------------------------------------------------------
# check-nats (in check; tests/nats/run.sh, about 3 minutes): a 3-node
# JetStream cluster on 127.0.0.1, 2 M generated events published to 2-4
# partitions and matched by `PROG --nats`: the records equal the file-mode
# run's, also across matcher kills, two instances of one partition, six
# takeovers in a row and a server killed and restarted. Skipped with a message without nats-server
# or libnats. bench-nats (not in check): docs/SCALING.md's throughput table.
.PHONY: check-nats bench-nats
check-nats: bin/sremc lib/libsremrt.a build/telecom_gen  ## NATS JetStream mode against a real 3-node cluster (~3 min)
	timeout -k 10 420 sh tests/nats/run.sh bin/sremc

bench-nats: bin/sremc lib/libsremrt.a build/telecom_gen  ## NATS mode throughput by partitions, beside file mode (not in check)
	timeout -k 10 900 sh bench/nats.sh bin/sremc

# ---- install ------------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=]: sremc, the runtime library and
# headers, the man page. An installed sremc finds the runtime next to it
# (bin/../lib, bin/../include), so `sremc build` works from any prefix.

PREFIX  ?= /usr/local
DESTDIR ?=
RT_HEADERS = $(wildcard runtime/include/sremrt/*.h)
# What a --freestanding build compiles (docs/FIRMWARE.md): the runtime but
# its host parts (host.c: malloc and stdio; csv.c, jsonl.c, bin.c, num.c: the
# readers of generated programs), with the internal headers they include.
RT_FW_SRC  = $(filter-out runtime/host.c runtime/csv.c runtime/jsonl.c runtime/bin.c runtime/num.c runtime/fc_%,$(RT_SRC) $(wildcard runtime/*_impl.h))

.PHONY: install check-install

install: bin/sremc lib/libsremrt.a  ## install sremc, the runtime (with sremrt.pc and the firmware sources), the man page
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/sremrt \
	    $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/sremc/runtime
	install -m 755 bin/sremc $(DESTDIR)$(PREFIX)/bin/sremc
	install -m 644 lib/libsremrt.a $(DESTDIR)$(PREFIX)/lib/libsremrt.a
	if [ -f lib/libsremrt_nats.a ]; then install -m 644 lib/libsremrt_nats.a $(DESTDIR)$(PREFIX)/lib/; fi
	install -m 644 $(RT_HEADERS) $(DESTDIR)$(PREFIX)/include/sremrt/
	install -m 644 $(RT_FW_SRC) $(DESTDIR)$(PREFIX)/share/sremc/runtime/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e "s|@VERSION@|$$(bin/sremc --version | sed 's/^sremc //')|" \
	    runtime/sremrt.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/sremrt.pc
	install -m 644 docs/sremc.1 $(DESTDIR)$(PREFIX)/share/man/man1/sremc.1

# Installs into a temporary prefix, builds a sample with the installed sremc
# and runs it; checks the man page against --help (and with groff).
check-install: bin/sremc lib/libsremrt.a  ## install into a temporary prefix and build against it
	sh tests/check_install.sh "$(MAKE)"

# Embedding (tests/embed/run.sh): the runtime and generated headers compile
# as C++, a C++ host prints what the generated program prints.
.PHONY: check-embed
check-embed: bin/sremc lib/libsremrt.a  ## a C++ host of a generated matcher, the bin round trip
	sh tests/embed/run.sh bin/sremc

# make help: the targets above marked with `## what it does`.
.PHONY: help
help:  ## list the targets with one line each
	@sed -n 's/^\([a-z-]*\):.*## \(.*\)/  \1\t\2/p' $(MAKEFILE_LIST) | expand -t 20

clean:  ## remove build products
	rm -rf build bin lib

-include $(wildcard build/obj/*.d build/san/*.d)
