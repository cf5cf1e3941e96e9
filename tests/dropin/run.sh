#!/bin/sh
# `ddbx serve` as a drop-in for DynamoDB Local (issue 43; tests/dropin/
# dropin.js says what each test pins and where its expectation comes
# from): DynamoDB Local's flags and container form, one database a key
# and region or one shared, a DynamoDB Local folder refused untouched,
# CORS, -delayTransientStatuses, the open-endpoint warning and
# --require-credentials. Then the image (`make image`), when built:
# tests/dropin/image.py. Prints TAP. Needs node (the SDK) and python3.
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
rc=0
if grep -q '^not ok ' "$tmp/tap" || ! grep -q '^ok ' "$tmp/tap"; then
    echo "# dropin.js stderr:"; head -c 2000 "$tmp/node.err" | sed 's/^/#   /'
    rc=1
fi
# The image (make test builds it first: `make image`), run under chroot
# as PID 1 in namespaces of its own: needs root, unshare, ip and aws.
image=${IMAGE:-$root/build/ddbx-image.tar}
n=$(grep -c -E '^(not )?ok ' "$tmp/tap")
if [ ! -f "$image" ]; then
    echo "not ok $((n + 1)) - dropin: the image $image exists (make image builds it)"; exit 1
fi
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1 || ! command -v ip >/dev/null 2>&1 ||
   ! command -v aws >/dev/null 2>&1; then
    echo "not ok $((n + 1)) - dropin: the image test needs root, unshare, ip (iproute2) and aws (tools/deps.sh)"; exit 1
fi
mkdir "$tmp/image"
TAP_START=$n python3 "$root/tests/dropin/image.py" "$image" "$tmp/image" >"$tmp/itap" 2>"$tmp/ierr" || rc=1
cat "$tmp/itap"
[ -s "$tmp/ierr" ] && { echo "# image.py stderr:"; head -c 1000 "$tmp/ierr" | sed 's/^/#   /'; }
grep -q '^ok ' "$tmp/itap" || rc=1
exit $rc
