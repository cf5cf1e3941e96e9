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
# The environment variables the program reads are documented in the
# ENVIRONMENT section, and that section documents only variables the
# program reads. The list is derived from the code: every getenv("NAME")
# under model/, data/ and ui/, and every call with a literal first argument
# to a wrapper, i.e. a function whose body passes one of its own
# identifiers to getenv or to another wrapper (data/creds.c's env() and
# aws_file()).
env_read() {
    find model data ui -name '*.[ch]' | sort | xargs awk '
    FNR == 1 { fn = "" }
    /^[A-Za-z].*[A-Za-z_][A-Za-z0-9_]*\(/ && !/;[[:space:]]*$/ {
        s = $0; sub(/\(.*/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/); fn = w[n]
    }
    { body[FILENAME SUBSEP FNR] = $0; owner[FILENAME SUBSEP FNR] = fn; keys[++nk] = FILENAME SUBSEP FNR }
    END {
        wrap["getenv"] = 1; wrap["secure_getenv"] = 1
        do {
            grew = 0
            for (i = 1; i <= nk; i++) {
                k = keys[i]; f = owner[k]
                if (f == "" || (f in wrap)) continue
                line = body[k]
                for (w2 in wrap)
                    if (match(line, "(^|[^A-Za-z0-9_])" w2 "\\([a-z_][a-z0-9_]*[,)]")) { wrap[f] = 1; grew = 1; break }
            }
        } while (grew)
        for (i = 1; i <= nk; i++) {
            line = body[keys[i]]
            for (w2 in wrap) {
                rest = line
                while (match(rest, "(^|[^A-Za-z0-9_])" w2 "\\(\"[A-Z][A-Z0-9_]*\"")) {
                    m = substr(rest, RSTART, RLENGTH); sub(/.*\("/, "", m); sub(/"$/, "", m)
                    print m
                    rest = substr(rest, RSTART + RLENGTH)
                }
            }
        }
    }' | sort -u
}
vars=$(env_read)
envsec=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$page")
t "the code reads environment variables (getenv found)" test -n "$vars"
for v in $vars; do
    t "ENVIRONMENT documents $v (read by the code)" sh -c 'echo "$1" | grep -qw -- "$2"' - "$envsec" "$v"
done
# The other way: each name a .B/.BR line of the section gives is read.
for v in $(echo "$envsec" | grep -E '^\.BR? ' | grep -oE '\b[A-Z][A-Z0-9_]{2,}\b' | sort -u); do
    t "ENVIRONMENT's $v is read by the code" sh -c 'echo "$1" | grep -qxF -- "$2"' - "$vars" "$v"
done
exit $bad
