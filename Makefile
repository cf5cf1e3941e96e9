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
#   make install PREFIX=/usr/local
#   make deps       install missing system packages
#   make clean

PREFIX   ?= /usr/local
SAN      ?=
ifeq ($(SAN),1)
BUILD    ?= build-san
else
BUILD    ?= build
endif

PKGS      := ncursesw sqlite3 libcjson
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
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

# pkg-config is asked lazily (=) so `make deps` works on a bare machine.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CJSON_LIBS = $(shell pkg-config --libs libcjson 2>/dev/null)
SQL_LIBS   = $(shell pkg-config --libs sqlite3 2>/dev/null)
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS  = $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -I. $(PKG_CFLAGS) -MMD -MP

MODEL_SRC := $(wildcard model/*.c)
DATA_SRC  := $(wildcard data/*.c)
UI_SRC    := $(filter-out ui/main.c,$(wildcard ui/*.c))

MODEL_OBJ := $(MODEL_SRC:%.c=$(BUILD)/%.o)
DATA_OBJ  := $(DATA_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/samples_data.o
UI_OBJ    := $(UI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/keys_conf.o
MAIN_OBJ  := $(BUILD)/ui/main.o

# Unit tests: tests/<layer>/test_*.c, each a cmocka program linked against
# its layer and the layers below it only.
TEST_MODEL := $(patsubst tests/model/%.c,$(BUILD)/tests/model/%,$(wildcard tests/model/test_*.c))
TEST_DATA  := $(patsubst tests/data/%.c,$(BUILD)/tests/data/%,$(wildcard tests/data/test_*.c))
TEST_UI    := $(patsubst tests/ui/%.c,$(BUILD)/tests/ui/%,$(wildcard tests/ui/test_*.c))
TEST_BINS  := $(TEST_MODEL) $(TEST_DATA) $(TEST_UI)

# Small helper programs the test suites run (tests/tools/*.c, linked like
# data-layer programs, no curses).
TOOL_BINS  := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(wildcard tests/tools/*.c))

DDBX := $(BUILD)/ddbx

.PHONY: man-keys all run test asan install uninstall deps check-deps clean check-layers fuzz bench bench-quick

all: $(DDBX)

$(DDBX): $(MODEL_OBJ) $(DATA_OBJ) $(UI_OBJ) $(MAIN_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/%.o: %.c
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

$(BUILD)/gen/keys_conf.o: $(BUILD)/gen/keys_conf.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The sample data sets (assets/samples/*.json, NoSQL Workbench models)
# compiled into the data layer as byte arrays (samples_assets, see
# data/samples.h): tools/embed.sh writes the C file with od and awk.
SAMPLE_JSON := $(sort $(wildcard assets/samples/*.json))

$(BUILD)/gen/samples_data.c: $(SAMPLE_JSON) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh $(SAMPLE_JSON) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/samples_data.o: $(BUILD)/gen/samples_data.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(TEST_MODEL): $(BUILD)/tests/model/%: $(BUILD)/tests/model/%.o $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(CJSON_LIBS) $(TEST_LIBS) -lm

$(TEST_DATA): $(BUILD)/tests/data/%: $(BUILD)/tests/data/%.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(SQL_LIBS) $(CJSON_LIBS) $(TEST_LIBS) -lm

$(TEST_UI): $(BUILD)/tests/ui/%: $(BUILD)/tests/ui/%.o $(UI_OBJ) $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(TEST_LIBS) -lm

$(TOOL_BINS): $(BUILD)/tests/tools/%: $(BUILD)/tests/tools/%.o $(DATA_OBJ) $(MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(SQL_LIBS) $(CJSON_LIBS) -lm

# Install what is missing, only when something is missing: a ready machine
# pays one pkg-config call.
check-deps:
	@pkg-config --exists $(PKGS) $(TEST_PKGS) 2>/dev/null || ./tools/deps.sh

deps:
	@./tools/deps.sh

run: check-deps
	@$(MAKE) --no-print-directory all
	./$(DDBX)

test: check-deps
	@$(MAKE) --no-print-directory all $(TEST_BINS) $(TOOL_BINS)
	@BUILD=$(BUILD) DDBX=$(abspath $(DDBX)) SAN=$(SAN) ./tests/run.sh

asan:
	@$(MAKE) --no-print-directory SAN=1 test

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

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(DDBX) $(DESTDIR)$(PREFIX)/bin/ddbx
	install -m 644 assets/ddbx.1 $(DESTDIR)$(PREFIX)/share/man/man1/ddbx.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ddbx $(DESTDIR)$(PREFIX)/share/man/man1/ddbx.1

clean:
	rm -rf build build-san build-fuzz build-bench

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
