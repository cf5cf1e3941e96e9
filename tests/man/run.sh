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
# The commands whose options are a table (ui/opts.h: the files that call
# opts_parse or opts_main, each naming its command in its opts_cmd): every spelling
# `ddbx CMD --help` prints from the table (--name, and another program's
# spelling such as DynamoDB Local's -port) is in the page's SYNOPSIS lines
# for ddbx CMD, and every option those lines give is in the table.
synopsis_opts() { # command -> the options of its SYNOPSIS lines, one a line
    sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$page" |
        awk -v c="ddbx${1:+ $1}" '$0 == ".B " c { on = 1; next } /^\.br/ { on = 0 } on' |
        sed 's/\\-/-/g' | grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[ "]//' | grep -v -x -e -jar | sort -u
}
table_opts() { # command (empty: the explorer) -> the spellings its --help table prints
    if [ -n "$1" ]; then "$DDBX" "$1" --help; else "$DDBX" --db "$page.none" --help; fi | grep -E '^    (--|  )' |
        grep -oE '(^    --[a-z][a-z-]*|^    -[a-zA-Z]+|[:(] -[a-zA-Z]+)' | sed 's/^[ :(]*//' | grep -v -x -e --help | sort -u
}
for c in $(grep -l -e 'opts_parse(' -e 'opts_main(' ui/cli_*.c | xargs grep -ho '\.name = "[a-z]*"' | sed 's/.*"\(.*\)"/\1/' | sort -u); do
    tab=$(table_opts "$c"); syn=$(synopsis_opts "$c")
    t "ddbx $c --help prints its option table" test -n "$tab"
    for o in $tab; do
        t "SYNOPSIS of ddbx $c has $o (its option table)" sh -c 'echo "$1" | grep -qx -- "$2"' - "$syn" "$o"
    done
    for o in $syn; do
        t "ddbx $c's option table has $o (SYNOPSIS)" sh -c 'echo "$1" | grep -qx -- "$2"' - "$tab" "$o"
    done
done
# The explorer's own table (ui/cli_explore.c: `ddbx [--db FILE] ...`,
# whose --help follows its options) against the SYNOPSIS lines of bare
# ddbx, less the line of ddbx --help and --version (ui/main.c's).
tab=$(table_opts ""); syn=$(synopsis_opts "" | grep -v -x -e --help -e --version)
t "ddbx --db FILE --help prints the explorer's option table" test -n "$tab"
for o in $tab; do
    t "SYNOPSIS of ddbx has $o (the explorer's table)" sh -c 'echo "$1" | grep -qx -- "$2"' - "$syn" "$o"
done
for o in $syn; do
    t "the explorer's table has $o (SYNOPSIS of ddbx)" sh -c 'echo "$1" | grep -qx -- "$2"' - "$tab" "$o"
done
# Every man page section the page promises.
for sec in NAME SYNOPSIS DESCRIPTION COMMANDS KEYS FILES ENVIRONMENT; do
    t "section $sec" grep -q "^\.SH $sec" "$page"
done
# The environment variables the program reads are documented in the
# ENVIRONMENT section, and that section documents only variables the
# program reads. The list is derived from the code: every getenv("NAME")
# under model/, data/ and ui/, and every call with a literal first argument
# to a wrapper, in any argument position, i.e. a function whose body
# passes one of its own identifiers to getenv or to another wrapper
# (data/creds.c's env(), aws_file() and setting()).
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
                    if (match(line, "(^|[^A-Za-z0-9_])" w2 "\\(([^()\"]*,[[:space:]]*)?[a-z_][a-z0-9_]*[,)]")) { wrap[f] = 1; grew = 1; break }
            }
        } while (grew)
        for (i = 1; i <= nk; i++) {
            line = body[keys[i]]
            for (w2 in wrap) {
                rest = line
                while (match(rest, "(^|[^A-Za-z0-9_])" w2 "\\(([^()\"]*,[[:space:]]*)?\"[A-Z][A-Z0-9_]*\"")) {
                    m = substr(rest, RSTART, RLENGTH); sub(/.*[(,][[:space:]]*"/, "", m); sub(/"$/, "", m)
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
# The other way: each name a .B/.BR line of the section gives is read,
# by name or as a family the code formats ("AWS_ENDPOINT_URL_%s" with a
# service id: data/creds.c's endpoint_of).
families=$(find model data ui -name '*.[ch]' | xargs grep -ohE '"[A-Z][A-Z0-9_]*_%s"' | tr -d '"' | sed 's/%s$//' | sort -u)
read_by_code() {
    echo "$vars" | grep -qxF -- "$1" && return 0
    for f in $families; do
        case "$1" in "$f"?*) return 0 ;; esac
    done
    return 1
}
for v in $(echo "$envsec" | grep -E '^\.BR? ' | grep -oE '\b[A-Z][A-Z0-9_]{2,}\b' | sort -u); do
    t "ENVIRONMENT's $v is read by the code" read_by_code "$v"
done
exit $bad
