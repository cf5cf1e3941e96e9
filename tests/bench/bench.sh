#!/bin/sh
# Runs the benchmarks (make bench / make bench-quick): installs dynalite
# into tests/node/node_modules when missing (as tests/diff/run.sh does,
# under the same lock) and DynamoDB Local into tests/ddblocal/node_modules
# with a Java runtime (tests/lib/ddblocal.sh), then tests/bench/bench.js,
# which writes BENCHMARKS.md. Arguments go to bench.js (--build DIR,
# --quick, --http-only, --out F; BENCH_HTTP and BENCH_SERVERS pick parts).
# Not a test suite: deliberately not named run.sh, so `make test` skips it.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
. "$root/tests/lib/node.sh"
. "$root/tests/lib/ddblocal.sh"
node_ready || { echo "bench: $node_err" >&2; exit 1; }
case ",${BENCH_SERVERS:-ddblocal}," in
*,ddblocal,*) ddblocal_ready || { echo "bench: $ddblocal_err" >&2; exit 1; } ;;
esac
export LC_ALL=C.UTF-8 TZ=UTC
exec node tests/bench/bench.js "$@"
