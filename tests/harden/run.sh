#!/bin/sh
# Hardening suite (issue 9): no SQL built from data, DynamoDB's limits,
# --read-only, hostile data on a real terminal, crash safety under SIGKILL,
# concurrent writers, a reader and the explorer, `ddbx serve` under load
# and abuse with the explorer watching. Each part is its own script here,
# runnable alone (with DDBX and BUILD set); this runs them in order with
# one TAP numbering.
# HARDEN_PARTS="limits crash" picks parts.
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=build}"
: "${DDBX:=$PWD/$BUILD/ddbx}"
export BUILD DDBX
next=$(mktemp "${TMPDIR:-/tmp}/ddbx-harden.XXXXXX")
trap 'rm -f "$next"' EXIT
n=0
for part in ${HARDEN_PARTS:-sql limits readonly hostile crash concur serve}; do
    echo 0 > "$next"
    sh "tests/harden/$part.sh" "$n" 3>"$next"
    rc=$?
    m=$(cat "$next")
    if [ "$rc" -ne 0 ] || [ "$m" -le "$n" ]; then
        m=$((n + 1))
        echo "not ok $m - harden: $part.sh exited $rc before finishing"
    fi
    n=$m
done
