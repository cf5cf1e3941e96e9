#!/bin/sh
# The build itself (issue 27, 11): a plain `make` on a machine without the
# libraries says which are missing and what installs them (`make deps`),
# before it compiles anything, instead of a bare compiler error on a
# missing header. Driven with a pkg-config on the PATH that finds one
# library less (libcjson), then none, into a scratch build folder; the
# worktree's build/ is not touched. Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-build.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - build: $1"; }
nok() { n=$((n + 1)); echo "not ok $n - build: $1"; bad=1; sed 's/^/#   /' "$tmp/err" | head -n 10; }

real=$(command -v pkg-config) || { echo "not ok 1 - build: no pkg-config on this machine (make deps installs it)"; exit 1; }
mkdir -p "$tmp/less" "$tmp/none"
# One library less: the real pkg-config, except for anything naming libcjson.
cat >"$tmp/less/pkg-config" <<SH
#!/bin/sh
for a in "\$@"; do [ "\$a" = libcjson ] && exit 1; done
exec "$real" "\$@"
SH
printf '#!/bin/sh\nexit 1\n' >"$tmp/none/pkg-config"
chmod +x "$tmp/less/pkg-config" "$tmp/none/pkg-config"

# The test suite runs under `make test`: this make must not join its jobs.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
plain_make() { # bin-dir [make arguments]
    d=$1; shift
    PATH="$d:$PATH" make --no-print-directory BUILD="$tmp/b" "$@" >"$tmp/out" 2>"$tmp/err"
}

plain_make "$tmp/less"
rc=$?
if [ $rc -ne 0 ] && grep -q "make deps" "$tmp/err" && grep -q "missing: libcjson$" "$tmp/err"; then
    ok "make without libcjson fails, names it and says make deps"
else
    nok "make without libcjson fails, names it and says make deps (exit $rc)"
fi
if [ -z "$(find "$tmp/b" -name '*.o' 2>/dev/null)" ] && ! grep -qE "fatal error|No such file|undefined reference" "$tmp/err"; then
    ok "nothing was compiled: no compiler error, no object"
else
    nok "nothing was compiled: no compiler error, no object"
fi
# http-parser has no pkg-config file: the Makefile looks for its header
# (HTTP_PARSER_H), here one that is not there.
plain_make "$tmp/none" HTTP_PARSER_H="$tmp/none/http_parser.h"
rc=$?
if [ $rc -ne 0 ] && grep -q "missing: ncursesw sqlite3 libcjson libcurl libcrypto zlib http-parser$" "$tmp/err" &&
    grep -q "make deps" "$tmp/err"; then
    ok "make without any library names them all"
else
    nok "make without any library names them all (exit $rc)"
fi
exit $bad
