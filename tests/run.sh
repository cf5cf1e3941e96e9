#!/bin/sh
# Runs every test suite and ends with two lines: "N skipped" (the tests
# that said "# SKIP", counted in the next line), then "N passed, N
# failed" (the harness's contract: the last line stays that, so whatever
# reads it keeps reading it).
#
# A suite is a command that prints TAP lines ("ok ..." / "not ok ...").
# Suites: the layering check, every unit-test program under $BUILD/tests
# (cmocka, TAP output), and every tests/<dir>/run.sh script (golden, screen,
# differential tests), run with DDBX and BUILD in the environment.
# A suite that exits non-zero without reporting a failure (a crash, a
# missing tool) counts as one failure, and so does one that reports no
# test at all. A skipped test ("ok N - ... # SKIP why") counts as passed,
# and is said; under CI (CI set and not "false") it counts as failed: a
# missing dependency there is an install bug, not a pass (make deps
# installs what the tests need). A tests/<dir>/run.sh without its run bit
# is one failure, not a suite passed over. ONLY=pattern runs matching
# suites.
cd "$(dirname "$0")/.." || exit 1
: "${BUILD:=build}"
: "${DDBX:=$PWD/$BUILD/ddbx}"
export BUILD DDBX
export CMOCKA_MESSAGE_OUTPUT=TAP
export LC_ALL=C.UTF-8 TZ=UTC

log=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-test.XXXXXX")
trap 'rm -rf "$log"' EXIT
pass=0; fail=0; skip=0
case "${CI:-false}" in ''|false|0) ci=0 ;; *) ci=1 ;; esac

run_suite() { # name, command...
    name=$1; shift
    out="$log/out"
    "$@" >"$out" 2>"$log/err"
    rc=$?
    p=$(grep -c '^ok ' "$out")
    f=$(grep -c '^not ok ' "$out")
    s=$(grep -ciE '^ok .*#[[:space:]]*skip' "$out")
    if [ "$s" -gt 0 ] && [ $ci = 1 ]; then
        echo "FAIL $name: $s skipped under CI (a missing dependency is an install bug):"
        grep -iE '^ok .*#[[:space:]]*skip' "$out" | head -n 10 | sed 's/^/    /'
        p=$((p - s)); f=$((f + s))
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        echo "FAIL $name: exited $rc without reporting a failure"
        tail -n 20 "$log/err" | sed 's/^/    /'
    elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        # A suite that checks nothing is a defect, not a pass.
        f=1
        echo "FAIL $name: reported no test at all"
        tail -n 20 "$log/err" | sed 's/^/    /'
    fi
    if [ "$f" -gt 0 ]; then
        echo "FAIL $name: $f failed, $p passed"
        grep -A 12 '^not ok ' "$out" | head -n 80 | sed 's/^/    /'
        tail -n 10 "$log/err" | sed 's/^/    /'
    elif [ "$s" -gt 0 ]; then
        echo "ok   $name: $p passed, $s of them skipped"
        grep -iE '^ok .*#[[:space:]]*skip' "$out" | head -n 10 | sed 's/^/    /'
    else
        echo "ok   $name: $p passed"
    fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
}

matches() { [ -z "$ONLY" ] || case "$1" in *$ONLY*) return 0;; *) return 1;; esac; }

matches layers && run_suite layers ./tools/check-layers.sh
for t in "$BUILD"/tests/model/test_* "$BUILD"/tests/data/test_* "$BUILD"/tests/ui/test_*; do
    case "$t" in *.o|*.d) continue;; esac
    [ -x "$t" ] || continue
    matches "$t" && run_suite "${t#$BUILD/}" "$t"
done
for s in tests/*/run.sh; do
    matches "$s" || continue
    if [ ! -x "$s" ]; then
        echo "FAIL $s: not executable (chmod +x $s), so it did not run"
        fail=$((fail + 1))
        continue
    fi
    run_suite "$s" "$s"
done

echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
