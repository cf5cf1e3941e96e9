# ddbx — a terminal explorer for DynamoDB single-table designs.
#
# Hand-written GNU Makefile. Layers: model/ (pure C) <- data/ (SQLite) <- ui/
# (curses). Objects of each layer go into build/<layer>/; tests link only
# the layers they need, so a model/ test that reached for curses or SQLite
# would fail to link (the layering is checked by the build, and by
# tools/check-layers.sh for includes).
#
#   make            build build/ddbx
#   make run        build, then open the explorer on the default database
#   make test       build and run every test; ends with "N passed, N failed"
#   make asan       the same tests under AddressSanitizer + UBSan (SAN=1)
#   make fuzz       each libFuzzer target (tests/fuzz/fuzz_*.c) for FUZZ_TIME
#                   seconds (default 60) or FUZZ_RUNS executions; clang,
#                   ASan+UBSan, objects in build-fuzz/. FUZZ_TARGETS=ddbjson
#                   picks targets; new inputs go to build-fuzz/corpus/,
#                   crashes to build-fuzz/crashes/.
#   make bench      benchmarks (shared/BENCH.md) -> BENCHMARKS.md, the explorer at 10M
#                   items too (a 15 GB database kept in build-bench/); bench-quick: 100k only
#   make install PREFIX=/usr/local
#   make image      build/ddbx-image.tar: an OCI image of `ddbx serve` (buildah)
#   make deb        a Debian package, build/ddbx_VERSION_ARCH.deb (tools/deb.sh)
#   make POLLER=poll  the server loop on poll() instead of epoll, in build-poll/
#   make deps       install missing system packages
#   make clean

PREFIX   ?= /usr/local
SAN      ?=
FUZZ     ?=
# The server loop's readiness calls (ui/poller.h): epoll on Linux, poll()
# elsewhere. `make POLLER=poll` forces the portable one on Linux (with
# accept, fcntl and the rest a system without Linux's calls compiles,
# POLLER_PORTABLE), into a build folder of its own (build-poll,
# build-san-poll); `make test` builds it and tests/poll runs the serve
# suites against it.
UNAME_S  := $(shell uname -s)
POLLER_DEFAULT := $(if $(filter Linux,$(UNAME_S)),epoll,poll)
POLLER   ?= $(POLLER_DEFAULT)
POLL_SUFFIX := $(if $(filter $(POLLER_DEFAULT),$(POLLER)),,-$(POLLER))
ifeq ($(FUZZ),1)
BUILD    ?= build-fuzz
else ifeq ($(SAN),1)
BUILD    ?= build-san$(POLL_SUFFIX)
else
BUILD    ?= build$(POLL_SUFFIX)
endif

PKGS      := ncursesw sqlite3 libcjson libcurl libcrypto zlib
# Debian's http-parser (the HTTP server of `ddbx serve`, ui/httpd.c) has no
# pkg-config file.
HTTP_LIBS := -lhttp_parser
TEST_PKGS := cmocka

CC       ?= cc
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter
ifneq ($(CI),)
WARN     += -Werror
endif
ifeq ($(WERROR),1)
WARN     += -Werror
endif
ifeq ($(SAN),1)
# float-cast-overflow is not part of gcc's -fsanitize=undefined; fuzzing found one.
CFLAGS   += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=undefined,float-cast-overflow
LDFLAGS  += -fsanitize=address,undefined,float-cast-overflow
endif
# libFuzzer build: every object instrumented for coverage and sanitizers;
# only the fuzz target programs link libFuzzer's main.
ifeq ($(FUZZ),1)
CC       := clang
CFLAGS   += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

# pkg-config is asked lazily (=) so `make deps` works on a bare machine.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
CJSON_LIBS = $(shell pkg-config --libs libcjson 2>/dev/null)
SQL_LIBS   = $(shell pkg-config --libs sqlite3 2>/dev/null)
# What a program linked with data/ needs: SQLite, cJSON and zlib
# (data/serve.c's CRC-32). ncursesw, libcurl and libcrypto are not linked:
# ui/term.c, data/remote.c and data/sigv4.c load them at their first use
# (data/dynlib.h), so that `ddbx serve` and `ddbx --version` start without
# the 30-odd libraries they bring (tests/layers checks the binary's list).
DATA_LIBS  = $(shell pkg-config --libs sqlite3 libcjson zlib 2>/dev/null) -lpthread -ldl
PKG_LIBS   = $(DATA_LIBS)
# tests/bench/loadc is a libcurl client of its own.
CURL_LIBS  = $(shell pkg-config --libs libcurl 2>/dev/null)
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS  = $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -I. $(PKG_CFLAGS) -MMD -MP \
             $(if $(POLL_SUFFIX),-DPOLLER_PORTABLE)

MODEL_SRC := $(wildcard model/*.c)
DATA_SRC  := $(wildcard data/*.c)
UI_SRC    := $(filter-out ui/main.c ui/poller_%.c,$(wildcard ui/*.c)) ui/poller_$(POLLER).c

MODEL_OBJ := $(MODEL_SRC:%.c=$(BUILD)/%.o)
DATA_OBJ  := $(DATA_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/samples_data.o $(BUILD)/gen/patterns_data.o \
             $(BUILD)/gen/prices_data.o
UI_OBJ    := $(UI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/keys_conf.o
MAIN_OBJ  := $(BUILD)/ui/main.o
# A new in-memory database's schema as an image (tools/memimage.c, run at
# build time): linked into the binary only, the unit tests keep the
# schema's statements.
MEMIMAGE_OBJ := $(BUILD)/gen/memimage_data.o

# Unit tests: tests/<layer>/test_*.c, each a cmocka program linked against
# its layer and the layers below it only.
TEST_MODEL := $(patsubst tests/model/%.c,$(BUILD)/tests/model/%,$(wildcard tests/model/test_*.c))
TEST_DATA  := $(patsubst tests/data/%.c,$(BUILD)/tests/data/%,$(wildcard tests/data/test_*.c))
TEST_UI    := $(patsubst tests/ui/%.c,$(BUILD)/tests/ui/%,$(wildcard tests/ui/test_*.c))
TEST_BINS  := $(TEST_MODEL) $(TEST_DATA) $(TEST_UI)

# Small helper programs the test suites run (tests/tools/*.c, linked like
# data-layer programs, no curses).
TOOL_BINS  := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(wildcard tests/tools/*.c))

# Fuzz targets: tests/fuzz/fuzz_NAME.c defines LLVMFuzzerTestOneInput; its
# seed corpus is tests/fuzz/NAME/. In the normal and sanitizer builds each
# links with tests/fuzz/replay.c (a main that feeds it files) so the corpora
# replay in `make test` without clang; in FUZZ=1 it links libFuzzer.
FUZZ_SRC   := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS  := $(patsubst tests/fuzz/%.c,$(BUILD)/tests/fuzz/%,$(FUZZ_SRC))
FUZZ_TIME  ?= 60
FUZZ_RUNS  ?=
FUZZ_TARGETS ?= $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SRC))

# Benchmark programs (tests/bench/*.c), built only by `make bench` into
# build-bench/: optimised, linked like data-layer programs.
BENCH_BINS := $(patsubst tests/bench/%.c,$(BUILD)/tests/bench/%,$(filter-out tests/bench/floor.c,$(wildcard tests/bench/*.c)))
# The start-up floor (tests/bench/floor.c): libc alone, nothing else linked.
FLOOR_BIN  := $(BUILD)/tests/bench/floor

DDBX := $(BUILD)/ddbx
# The image's binary (make image, tools/image.sh): the same objects with
# SQLite, zlib and http-parser linked in from Debian's archives (cJSON has
# none; libc stays shared for dlopen). The image is rebuilt whole for any
# update, so it loses no security update by this, and its start skips the
# loader's work on libsqlite3 (issue 43 item 9, tests/bench/NOTES.md);
# the .deb and `make` keep every library shared.
IMAGE_BIN := $(BUILD)/ddbx-image
IMAGE_STATIC := -Wl,-Bstatic -lsqlite3 -lz -lhttp_parser -Wl,-Bdynamic

.PHONY: image deb man-keys all run test asan install uninstall deps check-deps need-libs clean check-layers fuzz fuzz-build bench bench-quick bench-bins

all: $(DDBX)

$(DDBX): $(MODEL_OBJ) $(DATA_OBJ) $(UI_OBJ) $(MAIN_OBJ) $(MEMIMAGE_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(HTTP_LIBS) -lm

$(IMAGE_BIN): $(MODEL_OBJ) $(DATA_OBJ) $(UI_OBJ) $(MAIN_OBJ) $(MEMIMAGE_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(IMAGE_STATIC) $(CJSON_LIBS) -lpthread -ldl -lm

$(BUILD)/gen/memimage: $(BUILD)/tools/memimage.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(DATA_LIBS) -lm

# (Its leaks are the unit tests' to find: test_store_peer runs the same
# store_memory_image under `make asan`.)
$(BUILD)/gen/memimage_data.c: $(BUILD)/gen/memimage
	ASAN_OPTIONS=detect_leaks=0 $< > $@.tmp && mv $@.tmp $@

$(MEMIMAGE_OBJ): $(BUILD)/gen/memimage_data.c | need-libs
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c | need-libs
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The default key bindings (assets/keys.conf) compiled into the binary as
# a byte array (keymap_default_conf); tests/ui/test_keymap.c loads it.
$(BUILD)/gen/keys_conf.c: assets/keys.conf
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from assets/keys.conf by the Makefile. */'; \
	  echo '#include <stddef.h>'; \
	  echo 'const char keymap_default_conf[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0 };'; \
	  echo 'const size_t keymap_default_conf_len = sizeof keymap_default_conf - 1;'; } > $@

$(BUILD)/gen/keys_conf.o: $(BUILD)/gen/keys_conf.c | need-libs
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The sample data sets (assets/samples/*.json, NoSQL Workbench models)
# compiled into the data layer as byte arrays (samples_assets, see
# data/samples.h): tools/embed.sh writes the C file with od and awk.
SAMPLE_JSON := $(sort $(wildcard assets/samples/*.json))

$(BUILD)/gen/samples_data.c: $(SAMPLE_JSON) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh $(SAMPLE_JSON) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/samples_data.o: $(BUILD)/gen/samples_data.c | need-libs
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The samples' access-pattern files (assets/patterns/*.json), the same way
# (samples_pattern_assets): `ddbx samples` writes them out for the user.
PATTERN_JSON := $(sort $(wildcard assets/patterns/*.json))

$(BUILD)/gen/patterns_data.c: $(PATTERN_JSON) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh --array samples_pattern_assets $(PATTERN_JSON) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/patterns_data.o: $(BUILD)/gen/patterns_data.c | need-libs
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The DynamoDB price file (assets/prices/dynamodb.json, model/cost.h), the
# same way (samples_price_assets): `ddbx check --cost` without --price.
PRICE_JSON := assets/prices/dynamodb.json

$(BUILD)/gen/prices_data.c: $(PRICE_JSON) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh --array samples_price_assets $(PRICE_JSON) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/prices_data.o: $(BUILD)/gen/prices_data.c | need-libs
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c | need-libs
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(TEST_MODEL): $(BUILD)/tests/model/%: $(BUILD)/tests/model/%.o $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(CJSON_LIBS) $(TEST_LIBS) -lm

$(TEST_DATA): $(BUILD)/tests/data/%: $(BUILD)/tests/data/%.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(DATA_LIBS) $(TEST_LIBS) -lm

$(TEST_UI): $(BUILD)/tests/ui/%: $(BUILD)/tests/ui/%.o $(UI_OBJ) $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(HTTP_LIBS) $(TEST_LIBS) -lm

$(TOOL_BINS): $(BUILD)/tests/tools/%: $(BUILD)/tests/tools/%.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(DATA_LIBS) -lm

ifeq ($(FUZZ),1)
$(FUZZ_BINS): $(BUILD)/tests/fuzz/%: $(BUILD)/tests/fuzz/%.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(DATA_LIBS) -lm
else
$(FUZZ_BINS): $(BUILD)/tests/fuzz/%: $(BUILD)/tests/fuzz/%.o $(BUILD)/tests/fuzz/replay.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(DATA_LIBS) -lm
endif

$(BENCH_BINS): $(BUILD)/tests/bench/%: $(BUILD)/tests/bench/%.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(DATA_LIBS) $(CURL_LIBS) -lm

$(FLOOR_BIN): tests/bench/floor.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -o $@ $<

# Before anything is compiled: the libraries are there, or a plain `make`
# says which are missing and what installs them (`make run` and `make test`
# install them first themselves, through check-deps), instead of failing
# in the compiler on a missing header. One pkg-config call when all are.
# http-parser has no pkg-config file in Debian: its header is looked for.
HTTP_PARSER_H ?= /usr/include/http_parser.h
need-libs:
	@missing=""; pkg-config --exists $(PKGS) 2>/dev/null || { \
	  for p in $(PKGS); do pkg-config --exists $$p 2>/dev/null || missing="$$missing $$p"; done; \
	  command -v pkg-config >/dev/null 2>&1 || missing="$$missing (no pkg-config at all)"; }; \
	[ -f "$(HTTP_PARSER_H)" ] || missing="$$missing http-parser"; \
	[ -z "$$missing" ] || { \
	  echo "make: the libraries ddbx builds with are missing:$$missing" >&2; \
	  echo "make: run 'make deps' to install them (Debian/Ubuntu; elsewhere it names the packages), or 'make run', which does it first" >&2; \
	  exit 1; }

# Install what is missing, only when something is missing: a ready machine
# pays one pkg-config call.
check-deps:
	@{ pkg-config --exists $(PKGS) $(TEST_PKGS) && [ -f "$(HTTP_PARSER_H)" ]; } 2>/dev/null || ./tools/deps.sh
	@command -v aws >/dev/null 2>&1 || ./tools/deps.sh || echo "deps: no aws command line: tests/awscli will fail" >&2
	@! command -v dpkg >/dev/null 2>&1 || { command -v dpkg-shlibdeps && command -v lintian && command -v objdump; } >/dev/null 2>&1 || \
	  ./tools/deps.sh || echo "deps: no dpkg-dev, lintian or binutils: make deb and tests/deb will fail" >&2
	@command -v java >/dev/null 2>&1 || ./tools/deps.sh --java || echo "deps: no java: tests/diff's DynamoDB Local pass will fail" >&2
	@command -v buildah >/dev/null 2>&1 || ./tools/deps.sh || echo "deps: no buildah: make image and tests/dropin will fail" >&2

deps:
	@./tools/deps.sh

# `make image`: build/ddbx-image.tar, the OCI image of `ddbx serve` as a
# drop-in for DynamoDB Local's (tools/image.sh: buildah, FROM scratch),
# always from the plain build (a sanitizer's runtime needs /proc, which a
# container from scratch has not). tests/dropin runs it under chroot.
image:
	@$(MAKE) --no-print-directory BUILD=build SAN= FUZZ= all build/ddbx-image
	@./tools/image.sh build

run: check-deps
	@$(MAKE) --no-print-directory all
	./$(DDBX)

# On Linux the portable server loop is built too (make POLLER=poll, its
# own build folder) and tests/poll runs the serve suites against it.
test: check-deps
	@$(MAKE) --no-print-directory all $(TEST_BINS) $(TOOL_BINS) $(FUZZ_BINS)
	@$(MAKE) --no-print-directory image || echo "make: make image failed: tests/dropin's image tests will fail" >&2
ifneq ($(POLLER_DEFAULT),poll)
	@$(MAKE) --no-print-directory POLLER=poll BUILD=$(BUILD)-poll $(BUILD)-poll/ddbx $(BUILD)-poll/tests/ui/test_poller
endif
	@BUILD=$(BUILD) DDBX=$(abspath $(DDBX)) SAN=$(SAN) ./tests/run.sh

asan:
	@$(MAKE) --no-print-directory SAN=1 test

# One target at a time (the machine is shared): nice, bounded by time or
# by executions, seeds read from tests/fuzz/NAME/ and never written to.
fuzz:
	@command -v clang >/dev/null 2>&1 || ./tools/deps.sh
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
	    mkdir -p build-fuzz/corpus/$$t build-fuzz/crashes; \
	    echo "fuzz $$t: $(if $(FUZZ_RUNS),$(FUZZ_RUNS) runs,$(FUZZ_TIME) s)"; \
	    nice ./build-fuzz/tests/fuzz/fuzz_$$t -print_final_stats=1 \
	        $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_TIME)) \
	        -artifact_prefix=build-fuzz/crashes/$$t- \
	        $$([ -f tests/fuzz/$$t.dict ] && echo -dict=tests/fuzz/$$t.dict) \
	        build-fuzz/corpus/$$t tests/fuzz/$$t 2>build-fuzz/$$t.log \
	    || { tail -n 40 build-fuzz/$$t.log; exit 1; }; \
	    grep -E 'stat::number_of_executed_units|Done' build-fuzz/$$t.log | tail -n 2; \
	done

fuzz-build: $(FUZZ_BINS)

# Benchmarks: never part of `make test`. -O2 with asserts on, as `make`
# builds ddbx; a separate build folder so test builds do not interfere.
# The poll() build beside it (tests/bench/bench_portable.js compares them).
bench-bins: $(DDBX) $(IMAGE_BIN) $(BENCH_BINS) $(FLOOR_BIN) $(BUILD)/tests/tools/peakrss
ifneq ($(POLLER_DEFAULT),poll)
	@$(MAKE) --no-print-directory POLLER=poll BUILD=$(BUILD)-poll $(BUILD)-poll/ddbx
endif

bench: check-deps
	@$(MAKE) --no-print-directory BUILD=build-bench CFLAGS="-O2 -g" SAN= bench-bins
	@./tests/bench/bench.sh --build build-bench

bench-quick: check-deps
	@$(MAKE) --no-print-directory BUILD=build-bench CFLAGS="-O2 -g" SAN= bench-bins
	@./tests/bench/bench.sh --build build-bench --quick

check-layers:
	@./tools/check-layers.sh

# Regenerates the KEYS and explorer COMMANDS sections of the man page from
# ui/request.h, assets/keys.conf and ui/command.h.
man-keys: $(BUILD)/tests/ui/test_keymap
	@for s in KEYS COMMANDS; do \
	  $(BUILD)/tests/ui/test_keymap --man $$s > $(BUILD)/man-$$s.roff || exit 1; \
	  awk -v s="$$s" -v f="$(BUILD)/man-$$s.roff" \
	    '$$0 == ".\\\" BEGIN " s { print; while ((getline l < f) > 0) print l; skip = 1; next } \
	     $$0 == ".\\\" END " s { skip = 0 } !skip' assets/ddbx.1 > $(BUILD)/ddbx.1.new && \
	  mv $(BUILD)/ddbx.1.new assets/ddbx.1; \
	done

# The Debian package (dpkg-deb), written to $(BUILD)/: tools/deb.sh says
# what it holds and how its dependencies are named; tests/deb installs it.
deb: all
	@./tools/deb.sh $(DDBX) $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(DDBX) $(DESTDIR)$(PREFIX)/bin/ddbx
	install -m 644 assets/ddbx.1 $(DESTDIR)$(PREFIX)/share/man/man1/ddbx.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ddbx $(DESTDIR)$(PREFIX)/share/man/man1/ddbx.1

clean:
	rm -rf build build-san build-fuzz build-bench build-poll build-san-poll build-bench-poll

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
