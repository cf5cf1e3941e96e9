#!/bin/sh
# Runs the benchmarks (make bench / make bench-quick): installs dynalite
# into tests/node/node_modules when missing (as tests/diff/run.sh does,
# under the same lock), then tests/bench/bench.js, which writes
# BENCHMARKS.md. Arguments go to bench.js (--build DIR, --quick, --out F).
# Not a test suite: deliberately not named run.sh, so `make test` skips it.
cd "$(dirname "$0")/../.." || exit 1
command -v node >/dev/null 2>&1 || { echo "bench: node is not installed (tools/deps.sh)" >&2; exit 1; }
nodedir=$PWD/tests/node
(
    flock 9
    if [ ! -f "$nodedir/node_modules/dynalite/package.json" ] ||
       [ "$nodedir/package.json" -nt "$nodedir/node_modules/.package-lock.json" ]; then
        echo "bench: installing dynalite into tests/node/node_modules" >&2
        (cd "$nodedir" && npm install --no-audit --no-fund --loglevel=error >&2)
    fi
) 9>"$nodedir/.install.lock" || { echo "bench: npm install in tests/node failed" >&2; exit 1; }
export LC_ALL=C.UTF-8 TZ=UTC
exec node tests/bench/bench.js "$@"
