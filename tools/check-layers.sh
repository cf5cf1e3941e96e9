#!/bin/sh
# The layering rule, checked: curses only in ui/, sqlite3 only in data/,
# cJSON only in data/ and model/'s JSON codec (model/ddbjson.*), libcurl and
# OpenSSL only in data/ (the remote backend).
# Prints TAP lines, one per rule.
cd "$(dirname "$0")/.." || exit 1
n=0; bad=0
rule() { # name, offending-file-list
    n=$((n + 1))
    if [ -n "$2" ]; then
        echo "not ok $n - layers: $1"; echo "$2" | sed 's/^/#   /'
        bad=1
    else
        echo "ok $n - layers: $1"
    fi
}
rule "curses only in ui/" "$(grep -lE '#\s*include\s*[<"](n?curses|ncursesw/)' model/*.[ch] data/*.[ch] 2>/dev/null)"
rule "sqlite3 only in data/" "$(grep -lE '#\s*include\s*[<"]sqlite3\.h' model/*.[ch] ui/*.[ch] 2>/dev/null)"
rule "cJSON only in data/ and model/ddbjson" "$(grep -lE '#\s*include\s*[<"](cjson/)?cJSON\.h' model/*.[ch] ui/*.[ch] 2>/dev/null | grep -v '^model/ddbjson')"
rule "libcurl and OpenSSL only in data/" "$(grep -lE '#\s*include\s*[<"](curl|openssl)/' model/*.[ch] ui/*.[ch] 2>/dev/null)"
rule "no SQL built from data (no sqlite3_mprintf/snprintf into SQL)" "$(grep -nE 'sqlite3_(v?mprintf|snprintf)|sqlite3_exec\([^,]*,[^\"]*[a-z_]+\s*,' data/*.c 2>/dev/null)"
exit $bad
