#!/bin/sh
# `ddbx serve` as a DynamoDB endpoint: starts it on a free loopback port
# with a temporary database, runs the AWS SDK for JavaScript v3 against it
# (tests/serve/sdk.js: every operation, error classes, 8 concurrent
# writers, the CRC32 header, `ddbx api` on the same file), then stops it
# with SIGTERM and checks it exits cleanly. Prints TAP. Needs node and
# npm (installs tests/node's packages once, as tests/diff does); without
# them this suite FAILS, it never skips.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - serve: $*"; exit 1; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-serve.XXXXXX") || exit 1
srvpid=""
cleanup() {
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# --port 0: the kernel picks a free port; ddbx says which on stdout.
serve_start "$tmp/serve.db" "$tmp/out" "$tmp/err"
port=$serve_port
[ -n "$port" ] || fail "ddbx serve did not start: $(head -c 500 "$tmp/err")"

node "$root/tests/serve/sdk.js" "$port" "$DDBX" "$tmp/serve.db" >"$tmp/tap" 2>"$tmp/node.err"
rc=$?
cat "$tmp/tap"
n=$(grep -c -E '^(not )?ok ' "$tmp/tap")
[ -s "$tmp/node.err" ] && { echo "# sdk.js stderr:"; head -c 2000 "$tmp/node.err" | sed 's/^/#   /'; }

# A clean stop on SIGTERM: exit status 0 within a few seconds.
kill -TERM "$srvpid"
i=0
while kill -0 "$srvpid" 2>/dev/null && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
n=$((n + 1))
if kill -0 "$srvpid" 2>/dev/null; then
    echo "not ok $n - ddbx serve stops on SIGTERM"
    kill -KILL "$srvpid" 2>/dev/null
    rc=1
else
    wait "$srvpid"
    src=$?
    if [ "$src" -eq 0 ] && grep -q 'terminated, stopping' "$tmp/err"; then
        echo "ok $n - ddbx serve stops cleanly on SIGTERM (exit 0)"
    else
        echo "not ok $n - ddbx serve stops cleanly on SIGTERM (exit $src)"
        head -c 1000 "$tmp/err" | sed 's/^/#   /'
        rc=1
    fi
fi
srvpid=""

# --read-only: reads answered, writes refused with AccessDeniedException
# (400, not retried by the SDKs).
post() { # target body -> "STATUS BODY"
    node -e '
const http = require("http");
const [port, target, body] = process.argv.slice(1);
const req = http.request({ host: "127.0.0.1", port: Number(port), method: "POST", path: "/",
  headers: { "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + target } },
  (res) => { let b = ""; res.on("data", (c) => b += c); res.on("end", () => console.log(res.statusCode + " " + b)); });
req.on("error", (e) => console.log("ERR " + e.message));
req.end(body);' "$port" "$1" "$2"
}
serve_start "$tmp/serve.db" "$tmp/out" "$tmp/err" --read-only
port=$serve_port
n=$((n + 1))
if [ -z "$port" ]; then
    echo "not ok $n - ddbx serve --read-only starts: $(head -c 300 "$tmp/err")"
    rc=1
else
    r1=$(post ListTables '{}')
    r2=$(post CreateTable '{"TableName":"RoT","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}]}')
    r3=$(post ListTables '{}')
    case "$r1|$r2|$r3" in
    '200 {"TableNames":[]}|400 {"__type":"com.amazon.coral.service#AccessDeniedException"'*'|200 {"TableNames":[]}')
        echo "ok $n - --read-only: reads answered, CreateTable refused with AccessDeniedException" ;;
    *)
        echo "not ok $n - --read-only: reads answered, CreateTable refused with AccessDeniedException"
        echo "#   $r1 | $r2 | $r3"
        rc=1 ;;
    esac
    kill -TERM "$srvpid"
    wait "$srvpid"
fi
srvpid=""
exit $rc
