#!/bin/sh
# `ddbx serve` as a drop-in for DynamoDB Local (issue 43; tests/dropin/
# dropin.js says what each test pins and where its expectation comes
# from): DynamoDB Local's flags and container form, one database a key
# and region or one shared, a DynamoDB Local folder refused untouched,
# CORS, -delayTransientStatuses, the open-endpoint warning and
# --require-credentials. Then the image (`make image`), when built:
# tests/dropin/image.sh. Prints TAP. Needs node (the SDK) and python3.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"
fail() { echo "not ok 1 - dropin: $*"; exit 1; }
. "$root/tests/lib/node.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"
command -v python3 >/dev/null 2>&1 || fail "no python3 (tools/deps.sh installs python3-boto3, which brings it)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-dropin.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
node "$root/tests/dropin/dropin.js" "$DDBX" "$tmp" >"$tmp/tap" 2>"$tmp/node.err"
cat "$tmp/tap"
if grep -q '^not ok ' "$tmp/tap" || ! grep -q '^ok ' "$tmp/tap"; then
    echo "# dropin.js stderr:"; head -c 2000 "$tmp/node.err" | sed 's/^/#   /'
    exit 1
fi
