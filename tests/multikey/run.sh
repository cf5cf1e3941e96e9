#!/bin/sh
# Multi-attribute GSI keys, differential: the same requests to `ddbx serve`
# and to DynamoDB Local 3.3 (AWS's own emulator, which implements
# multi-attribute keys; dynalite does not), answers compared
# (tests/multikey/multikey.js says what and why). Prints TAP. Needs node,
# npm and java (tests/lib/ddblocal.sh installs DynamoDB Local and the
# runtime); without them this suite FAILS, it never skips.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - multikey: $*"; exit 1; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
. "$root/tests/lib/ddblocal.sh"
node_ready || fail "$node_err"
ddblocal_ready || fail "$ddblocal_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-multikey.XXXXXX") || exit 1
srvpid=""
ddblocal_pid=""
cleanup() {
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null
    [ -n "$ddblocal_pid" ] && kill "$ddblocal_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

serve_start - "$tmp/out" "$tmp/err" --in-memory
[ -n "$serve_port" ] || fail "ddbx serve did not start: $(head -c 500 "$tmp/err")"
ddblocal_start "$tmp/dl.out" "$tmp/dl.err" || fail "DynamoDB Local did not start: $(head -c 500 "$tmp/dl.err")"

node "$root/tests/multikey/multikey.js" "$serve_port" "$ddblocal_port" 2>"$tmp/node.err"
rc=$?
[ -s "$tmp/node.err" ] && { echo "# multikey.js stderr:"; head -c 2000 "$tmp/node.err" | sed 's/^/#   /'; }
exit $rc
