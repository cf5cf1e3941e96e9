#!/bin/sh
# DynamoDB Streams on `ddbx serve`: two servers on free loopback ports and
# temporary databases (one with DynamoDB's 24-hour retention, one with
# --stream-retention 2 --iterator-lifetime 3 for trimming and expiry),
# driven by tests/streams/streams.js (the AWS SDK for JavaScript v3's
# DynamoDBStreamsClient; where each expectation comes from is written
# there). Prints TAP. Needs node and npm: without them it FAILS.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - streams: $*"; exit 1; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-streams.XXXXXX") || exit 1
pid1="" pid2=""
cleanup() {
    [ -n "$pid1" ] && kill "$pid1" 2>/dev/null
    [ -n "$pid2" ] && kill "$pid2" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

serve_start "$tmp/a.db" "$tmp/a.out" "$tmp/a.err"
pid1=$srvpid port1=$serve_port
[ -n "$port1" ] || fail "ddbx serve did not start: $(head -c 500 "$tmp/a.err")"
serve_start "$tmp/b.db" "$tmp/b.out" "$tmp/b.err" --stream-retention 2 --iterator-lifetime 3
pid2=$srvpid port2=$serve_port
[ -n "$port2" ] || fail "ddbx serve --stream-retention did not start: $(head -c 500 "$tmp/b.err")"

node "$root/tests/streams/streams.js" "$port1" "$port2" "$DDBX" "$tmp/a.db" >"$tmp/tap" 2>"$tmp/node.err"
rc=$?
cat "$tmp/tap"
[ -s "$tmp/node.err" ] && { echo "# streams.js stderr:"; head -c 2000 "$tmp/node.err" | sed 's/^/#   /'; }
n=$(grep -c -E '^(not )?ok ' "$tmp/tap")
n=$((n + 1))
if "$DDBX" serve --stream-retention 0 >/dev/null 2>"$tmp/bad.err"; then
    echo "not ok $n - ddbx serve --stream-retention 0 is refused"; rc=1
elif grep -q 'needs a number of seconds' "$tmp/bad.err"; then
    echo "ok $n - ddbx serve --stream-retention 0 is refused with a message"
else
    echo "not ok $n - ddbx serve --stream-retention 0: $(cat "$tmp/bad.err")"; rc=1
fi
exit $rc
