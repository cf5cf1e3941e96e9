#!/bin/sh
# The rules of README's Layout and Dependencies sections, checked on every
# .c and .h file under model/, data/ and ui/ (subfolders included):
#
#   direction    model/ includes nothing of data/ or ui/; data/ nothing of ui/
#   libraries    each only where README's dependency table says: curses in
#                ui/, sqlite3 in data/, cJSON in data/ and model/ddbjson,
#                http-parser in ui/httpd.c, libcurl in data/remote.c,
#                OpenSSL's libcrypto in data/sigv4.c, zlib in data/serve.c,
#                dlopen in data/dynlib.c
#   vm           the view-model's fields are written by ui/vm.c only (ui/vm.h)
#   SQL          no SQL text built from data (no sqlite3_mprintf/snprintf)
#
# Usage: tools/check-layers.sh [ROOT]  (default: this repository;
# tests/layers/run.sh runs it on trees with planted violations).
# Prints TAP lines, one per rule, each failure followed by the offending
# files; exits 1 when a rule is broken.
here=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$here}
cd "$root" || exit 2
n=0; bad=0

# Every source file of the three layers, as a path from the root.
sources() { find model data ui -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | sort; }

rule() { # name, offending-file-list
    n=$((n + 1))
    if [ -n "$2" ]; then
        echo "not ok $n - layers: $1"; echo "$2" | sed 's/^/#   /'
        bad=1
    else
        echo "ok $n - layers: $1"
    fi
}

# Files (under the folders given) with an #include matching the extended
# regular expression (what follows "#include ").
includes() { # regex folder...
    re=$1; shift
    for f in $(sources); do
        for dir in "$@"; do
            case $f in "$dir"/*) grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*$re" "$f" && echo "$f";; esac
        done
    done
}

# Prints the files read on stdin that match none of the patterns.
outside() { # pattern...
    while read -r f; do
        ok=0
        for p in "$@"; do
            # shellcheck disable=SC2254
            case $f in $p) ok=1;; esac
        done
        [ $ok = 1 ] || echo "$f"
    done
}

# Direction: an include of another layer's header, by its path from the
# root ("data/store.h") or relative ("../ui/term.h").
rule "model/ includes nothing of data/ or ui/" "$(includes '[<"](\.\./)*(data|ui)/' model)"
rule "data/ includes nothing of ui/" "$(includes '[<"](\.\./)*ui/' data)"

# Libraries, each where README's dependency table allows it.
rule "curses only in ui/" \
    "$(includes '[<"](n?curses\.h|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)' model data ui | outside 'ui/*')"
rule "sqlite3 only in data/" "$(includes '[<"]sqlite3(ext)?\.h' model data ui | outside 'data/*')"
rule "cJSON only in data/ and model/ddbjson" \
    "$(includes '[<"](cjson/)?cJSON(_Utils)?\.h' model data ui | outside 'data/*' 'model/ddbjson.[ch]')"
rule "http-parser only in ui/httpd.c" "$(includes '[<"]http_parser\.h' model data ui | outside 'ui/httpd.c')"
rule "libcurl only in data/remote.c" "$(includes '[<"]curl/' model data ui | outside 'data/remote.c')"
rule "libcrypto only in data/sigv4.c" "$(includes '[<"]openssl/' model data ui | outside 'data/sigv4.c')"
rule "zlib only in data/serve.c" "$(includes '[<"]zlib\.h' model data ui | outside 'data/serve.c')"
# The libraries loaded at their first use (data/dynlib.h) are loaded
# there only: a dlopen elsewhere would be a library the binary's link
# line (and tests/layers's check of it) does not see.
rule "dlopen only in data/dynlib.c" "$(includes '[<"]dlfcn\.h' model data ui | outside 'data/dynlib.c')"

# ui/vm.h: "No other module writes these fields." A write is an
# assignment, compound assignment, ++ or -- of a vm field reached through
# `.vm.`/`vm->` or through a variable the file declares as `vm *NAME`.
vm_fields='(lines|n|cap|cursor|top|rows|hscroll|free_fn|ctx)'
vm_writes() {
    for f in $(sources | grep '^ui/' | grep -v '^ui/vm\.[ch]$'); do
        names=$(grep -oE '\bvm[[:space:]]*\*[[:space:]]*[A-Za-z_][A-Za-z0-9_]*' "$f" |
            sed -E 's/.*\*[[:space:]]*//' | sort -u | paste -sd '|' -)
        lhs="(\bvm(\.|->)${names:+|\b($names)->})$vm_fields"
        grep -nE "$lhs[[:space:]]*([-+*/%|&^]|<<|>>)?=([^=]|\$)|$lhs[[:space:]]*(\+\+|--)|(\+\+|--)[[:space:]]*[A-Za-z0-9_>.-]*$lhs\b" "$f" |
            sed "s|^|$f:|"
    done
}
rule "the vm's fields written only by ui/vm.c" "$(vm_writes)"

rule "no SQL built from data (no sqlite3_mprintf/snprintf into SQL)" \
    "$(for f in $(sources | grep '^data/.*\.c$'); do
        grep -nE 'sqlite3_(v?mprintf|snprintf)|sqlite3_exec\([^,]*,[^"]*[a-z_]+\s*,' "$f" | sed "s|^|$f:|"
    done)"
exit $bad
