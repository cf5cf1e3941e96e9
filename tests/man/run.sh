#!/bin/sh
# The man page and --help agree: every subcommand `ddbx --help` lists has
# a SYNOPSIS line and a COMMANDS subsection in assets/ddbx.1, and every
# option --help shows for it appears in the page. (The KEYS and explorer
# COMMANDS sections are checked against the request and command tables by
# tests/ui/test_keymap.) Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
: "${DDBX:?DDBX must name the ddbx binary}"
page=assets/ddbx.1
n=0; bad=0
t() { # description, command...
    n=$((n + 1)); d=$1; shift
    if "$@"; then echo "ok $n - man: $d"; else echo "not ok $n - man: $d"; bad=1; fi
}
help=$("$DDBX" --help)
t "ddbx --help exits 0 and prints the usage" test -n "$help"
subs=$(echo "$help" | sed -n 's/^\(usage:\)\{0,1\} *ddbx \([a-z][a-z]*\).*/\2/p' | sort -u)
t "--help lists subcommands" test -n "$subs"
for s in $subs; do
    t "SYNOPSIS has ddbx $s" grep -q "^\.B ddbx $s\$" "$page"
    t "COMMANDS has a section for ddbx $s" grep -q "^\.SS ddbx $s\$" "$page"
    for o in $(echo "$help" | grep "ddbx $s " | grep -o -- '--[a-z][a-z-]*'); do
        roff=$(echo "$o" | sed 's/-/\\\\-/g')
        t "the page documents $s $o" grep -q -- "$roff" "$page"
    done
done
t "the page documents --help and --version" grep -q 'help " | " \\-\\-version' "$page"
# Every man page section the page promises.
for sec in NAME SYNOPSIS DESCRIPTION COMMANDS KEYS FILES ENVIRONMENT; do
    t "section $sec" grep -q "^\.SH $sec" "$page"
done
# The environment variables the program reads are documented.
for v in DDBX_DB NO_COLOR DDBX_SCRIPT DDBX_TIMING EDITOR; do
    t "ENVIRONMENT documents $v" grep -q "$v" "$page"
done
exit $bad
