#!/bin/sh
# Replays every fuzz corpus (tests/fuzz/NAME/*) through its target,
# tests/fuzz/fuzz_NAME.c, built without libFuzzer ($BUILD/tests/fuzz/fuzz_NAME,
# linked with replay.c): under `make asan` the sanitizers check each input.
# Prints TAP: one line per input; a target that dies names its input.
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=build}"
n=0
for src in tests/fuzz/fuzz_*.c; do
    name=${src#tests/fuzz/fuzz_}; name=${name%.c}
    bin=$BUILD/tests/fuzz/fuzz_$name
    n=$((n + 1))
    if [ ! -x "$bin" ]; then
        echo "not ok $n - fuzz $name: $bin not built"
        continue
    fi
    if [ ! -d "tests/fuzz/$name" ] || [ -z "$(ls -A "tests/fuzz/$name")" ]; then
        echo "not ok $n - fuzz $name: no seed corpus in tests/fuzz/$name/"
        continue
    fi
    err=$(mktemp "${TMPDIR:-/tmp}/ddbx-fuzz.XXXXXX")
    out=$("$bin" "tests/fuzz/$name"/* 2>"$err")
    rc=$?
    total=$(ls -A "tests/fuzz/$name" | wc -l)
    oks=$(printf '%s\n' "$out" | grep -c '^ok ')
    if [ "$rc" -eq 0 ] && [ "$oks" -eq "$total" ]; then
        echo "ok $n - fuzz $name: $oks inputs replayed"
    else
        last=$(grep '^replay: ' "$err" | tail -n 1 | sed 's/^replay: //')
        echo "not ok $n - fuzz $name: exit $rc after $oks of $total inputs; last input $last"
        grep -v '^replay: ' "$err" | head -n 30 | sed 's/^/# /'
    fi
    rm -f "$err"
done
