#!/bin/sh
# The test machinery can fail. Each check plants what a runner must
# refuse and checks that it does:
#   - tests/run.sh counts a "# SKIP" as a failure under CI=true (a missing
#     dependency is an install bug), as a pass otherwise, and a suite that
#     reports no test as a failure, says the skips on the line before its
#     last, and fails a tests/*/run.sh that lacks its run bit;
#   - tests/harden/limits.sh fails every case a store answers with
#     UnknownOperationException (it used to print "ok ... # SKIP");
#   - tests/screen/run.sh and tests/tmux/run.sh fail when ONLY_TEST
#     matches nothing (they used to print a fake "ok 1");
#   - tests/screen/run.sh fails a .keys file with a key line before a
#     header line (a comment that lost its #, typed as keys);
#   - tests/man/run.sh takes the environment variables from the code's
#     getenv calls (and wrappers of getenv), so a variable read but not
#     documented, or documented but not read, fails.
# Runs on copies in a scratch folder where it plants things. Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-selftest.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - selftest: $1"; }
nok() { n=$((n + 1)); echo "not ok $n - selftest: $1"; bad=1; [ -f "$2" ] && head -n 30 "$2" | sed 's/^/#   /'; }

# ---- tests/run.sh on a tree of fake suites ----
t=$tmp/runner
mkdir -p "$t/tests/skips" "$t/tests/empty" "$t/tests/noexec" "$t/tools"
cp tests/run.sh "$t/tests/run.sh"
printf '#!/bin/sh\necho "ok 1 - layers stub"\n' >"$t/tools/check-layers.sh"
printf '#!/bin/sh\necho "ok 1 - a real check"\necho "ok 2 - needs a tool # SKIP the tool is not installed"\n' \
    >"$t/tests/skips/run.sh"
printf '#!/bin/sh\necho "# nothing checked"\n' >"$t/tests/empty/run.sh"
printf '#!/bin/sh\necho "ok 1 - would pass if it ran"\n' >"$t/tests/noexec/run.sh"
chmod +x "$t/tests/run.sh" "$t/tools/check-layers.sh" "$t/tests/skips/run.sh" "$t/tests/empty/run.sh"
run_runner() { # out-file env-assignments...
    o=$1; shift
    env "$@" BUILD="$t/build" DDBX=/bin/false "$t/tests/run.sh" >"$o" 2>&1
}
run_runner "$tmp/ci.out" CI=true ONLY=skips
rc=$?
if [ $rc != 0 ] && [ "$(tail -n 1 "$tmp/ci.out")" = "1 passed, 1 failed" ] && grep -q "skipped under CI" "$tmp/ci.out"; then
    ok "tests/run.sh: under CI=true a SKIP is a failure (1 passed, 1 failed, exit $rc)"
else
    nok "tests/run.sh: under CI=true a SKIP is a failure (exit $rc)" "$tmp/ci.out"
fi
run_runner "$tmp/local.out" CI= ONLY=skips
rc=$?
if [ $rc = 0 ] && [ "$(tail -n 1 "$tmp/local.out")" = "2 passed, 0 failed" ] && grep -q "1 of them skipped" "$tmp/local.out" &&
    [ "$(tail -n 2 "$tmp/local.out" | head -n 1)" = "1 skipped" ]; then
    ok "tests/run.sh: without CI a SKIP passes, and is said"
else
    nok "tests/run.sh: without CI a SKIP passes, and is said (exit $rc)" "$tmp/local.out"
fi
run_runner "$tmp/cifalse.out" CI=false ONLY=skips
[ $? = 0 ] && ok "tests/run.sh: CI=false is not CI" || nok "tests/run.sh: CI=false is not CI" "$tmp/cifalse.out"
run_runner "$tmp/empty.out" CI= ONLY=empty
rc=$?
if [ $rc != 0 ] && grep -q "reported no test at all" "$tmp/empty.out" && [ "$(tail -n 1 "$tmp/empty.out")" = "0 passed, 1 failed" ]; then
    ok "tests/run.sh: a suite that reports no test fails"
else
    nok "tests/run.sh: a suite that reports no test fails (exit $rc)" "$tmp/empty.out"
fi
run_runner "$tmp/noexec.out" CI= ONLY=noexec
rc=$?
if [ $rc != 0 ] && grep -q "tests/noexec/run.sh: not executable" "$tmp/noexec.out" &&
    [ "$(tail -n 1 "$tmp/noexec.out")" = "0 passed, 1 failed" ]; then
    ok "tests/run.sh: a run.sh without its run bit fails"
else
    nok "tests/run.sh: a run.sh without its run bit fails (exit $rc)" "$tmp/noexec.out"
fi

# ---- limits.sh against a store that knows no operation ----
cat >"$tmp/unknown-op.sh" <<'EOF'
#!/bin/sh
# A stand-in for `ddbx api` whose store has no operation at all.
while IFS= read -r line; do
    echo '{"Error":{"Code":"UnknownOperationException","Message":"Unknown operation"}}'
done
EOF
chmod +x "$tmp/unknown-op.sh"
DDBX="$tmp/unknown-op.sh" sh tests/harden/limits.sh 0 >"$tmp/limits.out" 2>&1 3>/dev/null
cases=$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/limits.out")
fails=$(grep -c '^not ok ' "$tmp/limits.out")
skips=$(grep -ci '# *skip' "$tmp/limits.out")
# The first line (every request answered, exit 0) is true of the stand-in.
if [ "$cases" -gt 10 ] && [ "$skips" = 0 ] && [ "$fails" = $((cases - 1)) ]; then
    ok "limits.sh: UnknownOperationException fails every case ($fails of $cases), no SKIP"
else
    nok "limits.sh: UnknownOperationException fails every case ($fails of $cases failed, $skips skipped)" "$tmp/limits.out"
fi

# ---- a filter that matches nothing ----
DDBX="$DDBX" ONLY_TEST=no-such-test sh tests/screen/run.sh >"$tmp/screen.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q '^not ok ' "$tmp/screen.out" && ! grep -q '^ok ' "$tmp/screen.out"; then
    ok "screen: ONLY_TEST matching no .keys file fails"
else
    nok "screen: ONLY_TEST matching no .keys file fails (exit $rc)" "$tmp/screen.out"
fi
# ---- a comment without its #: typed as keys, it swallowed a :stage on ----
mkdir -p "$tmp/screen"
cp tests/screen/run.sh "$tmp/screen/run.sh"
printf '# A test whose comment runs on\nfor :undo) and the view closes:\n# args: Big\n:stage on\n:save-display s\n' \
    >"$tmp/screen/stray.keys"
printf 'whatever\n' >"$tmp/screen/stray.s"
DDBX="$DDBX" ONLY_TEST=stray sh "$tmp/screen/run.sh" >"$tmp/stray.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q '^not ok 1 - screen: stray: line 2 is typed as keys but a header line follows' "$tmp/stray.out"; then
    ok "screen: a key line before a header line (a comment without its #) fails"
else
    nok "screen: a key line before a header line (a comment without its #) fails (exit $rc)" "$tmp/stray.out"
fi
if command -v tmux >/dev/null 2>&1; then
    DDBX="$DDBX" ONLY_TEST=no-such-part sh tests/tmux/run.sh >"$tmp/tmux.out" 2>&1
    rc=$?
    if [ $rc != 0 ] && grep -q '^not ok ' "$tmp/tmux.out" && ! grep -q '^ok ' "$tmp/tmux.out"; then
        ok "tmux: ONLY_TEST naming no part fails"
    else
        nok "tmux: ONLY_TEST naming no part fails (exit $rc)" "$tmp/tmux.out"
    fi
else
    nok "tmux: ONLY_TEST naming no part fails (tmux is not installed: make deps)"
fi

# ---- man: the environment variables come from the code ----
m=$tmp/man
mkdir -p "$m/tests/man" "$m/assets" "$m/ui"
cp tests/man/run.sh "$m/tests/man/run.sh"
# The page, with one variable nobody reads added to ENVIRONMENT.
sed 's/^\.SH SEE ALSO$/.TP\n.B DDBX_NOBODY_READS\nA variable the code does not read.\n&/' assets/ddbx.1 >"$m/assets/ddbx.1"
cat >"$m/ui/planted.c" <<'EOF'
#include <stdlib.h>
static const char *env(const char *name)
{
    return getenv(name);
}
const char *a(void) { return getenv("DDBX_PLANTED_DIRECT"); }
const char *b(void) { return env("DDBX_PLANTED_WRAPPED"); }
EOF
DDBX="$DDBX" sh "$m/tests/man/run.sh" >"$tmp/man.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q '^not ok .*documents DDBX_PLANTED_DIRECT' "$tmp/man.out"; then
    ok "man: a getenv(\"NAME\") the page does not document fails"
else
    nok "man: a getenv(\"NAME\") the page does not document fails (exit $rc)" "$tmp/man.out"
fi
if grep -q '^not ok .*documents DDBX_PLANTED_WRAPPED' "$tmp/man.out"; then
    ok "man: so does one read through a wrapper of getenv"
else
    nok "man: so does one read through a wrapper of getenv" "$tmp/man.out"
fi
if grep -q "^not ok .*DDBX_NOBODY_READS is read by the code" "$tmp/man.out"; then
    ok "man: a documented variable the code does not read fails"
else
    nok "man: a documented variable the code does not read fails" "$tmp/man.out"
fi
exit $bad
