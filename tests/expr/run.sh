#!/bin/sh
# Expression golden tests: each tests/expr/*.golden file holds cases
#
#   === name of the case
#   ARGS                 (one line: the arguments of `ddbx eval`, shell-quoted)
#   ---
#   expected stdout, then stderr, then "[exit N]"
#
# Prints one TAP line a case. UPDATE=1 rewrites the expected parts from
# what ddbx prints now (review the diff before committing it!).
# An argument names another folder of *.golden files (tests/partiql/).
cd "${1:-$(dirname "$0")}" || exit 1
: "${DDBX:?DDBX must name the ddbx binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-expr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
for f in *.golden; do
    # Split the file into numbered case directories.
    rm -rf "$tmp/c"; mkdir "$tmp/c"
    awk -v dir="$tmp/c" '
        /^=== / { k++; d = dir "/" k; system("mkdir " d); print substr($0, 5) > (d "/name"); state = 1; next }
        state == 1 { print > (d "/args"); state = 2; next }
        state == 2 && /^---$/ { state = 3; printf "" > (d "/want"); next }
        state == 3 { print > (d "/want") }
    ' "$f"
    : > "$tmp/rewritten"
    k=1
    while [ -d "$tmp/c/$k" ]; do
        d="$tmp/c/$k"
        n=$((n + 1))
        name=$(cat "$d/name")
        args=$(cat "$d/args")
        eval "set -- $args"
        "$DDBX" eval "$@" >"$d/out" 2>"$d/err"
        rc=$?
        { cat "$d/out" "$d/err"; echo "[exit $rc]"; } >"$d/got"
        if cmp -s "$d/got" "$d/want"; then
            echo "ok $n - $f: $name"
        else
            echo "not ok $n - $f: $name"
            diff "$d/want" "$d/got" | sed 's/^/#   /' | head -n 30
        fi
        { printf "=== %s\n%s\n---\n" "$name" "$args"; cat "$d/got"; } >>"$tmp/rewritten"
        k=$((k + 1))
    done
    if [ -n "$UPDATE" ]; then
        # Keep the file's leading comment lines.
        { sed -n '/^=== /q;p' "$f"; cat "$tmp/rewritten"; } >"$tmp/new" && cp "$tmp/new" "$f"
    fi
done
echo "1..$n"
