#!/bin/sh
# The rules of README's Layout and Dependencies sections, checked on every
# .c and .h file under model/, data/ and ui/ (subfolders included):
#
#   direction    model/ includes nothing of data/ or ui/; data/ nothing of ui/
#   libraries    each only where README's dependency table says: curses in
#                ui/term.c (ui/term.h: the one owner of the terminal), sqlite3 in data/, cJSON in data/ and model/ddbjson,
#                http-parser in ui/httpd.c, libcurl in data/remote.c,
#                OpenSSL's libcrypto in data/sigv4.c, zlib in data/serve.c,
#                dlopen in data/dynlib.c
#   vm           the view-model's fields are written by ui/vm.c only (ui/vm.h)
#   SQL          no SQL text built from data (no sqlite3_mprintf/snprintf)
#   members      no DynamoDB request member name in ui/ (the explorer hands
#                the store typed requests, model/ddbreq.h; labels on screen
#                take the names from model/)
#   bodies       request bodies printed by model/ddbreq.c only: no request
#                member written as JSON anywhere else
#   conflicts    no merge-conflict marker in any file: in a git checkout
#                every tracked file, else every file under ROOT (build
#                folders and node_modules left out); a line starting
#                "<<<<<<< ", ">>>>>>> ", "||||||| " or one of exactly
#                "=======", the lines git writes (git diff --check's rule)
#   view prefix  every function a ui/ view_ops table wires shares the
#                view's prefix (items_open, items_draw; never a bare
#                open_view, draw, request, text)
#   length       no function over 120 lines (a definition's "{" at column
#                0 to its "}" at column 0: the code's one layout)
#   size         no source file over 1,200 lines
#   callers      no public (non-static) function without a caller: its
#                name in a .c file of model/, data/, ui/, tests/ or tools/
#                other than its own (main excepted); one used only in
#                its file is static
#   cli helpers  no view (ui/view*.c) calls the command line's cli_
#                functions: the explorer has its own (ui/paths.h)
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
    dirs=$(echo "$@" | tr ' ' '|')
    sources | grep -E "^($dirs)/" | xargs -r grep -lE "^[[:space:]]*#[[:space:]]*include[[:space:]]*$re"
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
# Other ui/ files reach the terminal through ui/term.h's calls (term_puts,
# term_getkey, ...); "term.h" is curses' own header only in <> form.
rule "curses only in ui/term.c" \
    "$(includes '(<(n?curses\.h|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)|"(n?curses\.h|ncursesw/|panel\.h|menu\.h|form\.h))' model data ui | outside 'ui/term.c')"
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
# Request members, from the API reference's request syntax of the data
# plane and PartiQL, and of the listings and backups ddbx sends (names
# that also head answers, like Item, Items, BackupName and TableName's
# TableDescription use, are left out of the "bodies" rule).
req_members='KeyConditionExpression|FilterExpression|ProjectionExpression|ExpressionAttributeNames|ExpressionAttributeValues|ExclusiveStartKey|ConditionExpression|UpdateExpression|ReturnValues|ReturnValuesOnConditionCheckFailure|ReturnConsumedCapacity|ReturnItemCollectionMetrics|ScanIndexForward|ConsistentRead|TotalSegments|RequestItems|TransactItems|ClientRequestToken|AttributesToGet|KeyConditions|QueryFilter|ScanFilter|ConditionalOperator|AttributeUpdates|Expected|Statement|Statements|Parameters|ExclusiveStartTableName|ExclusiveStartBackupArn|TimeRangeLowerBound|TimeRangeUpperBound|TargetTableName'
ui_members="TableName|IndexName|Key|Limit|Select|Segment|NextToken|$req_members"

# Lines (FILE:LINE:text) of the files matching the extended regular
# expression outside comments: grep, then the match again on the text
# without its one-line comments and without a block comment's lines that
# start with "/*" or "*".
code_grep() { # regex file...
    re=$1; shift
    [ $# -gt 0 ] || return 0
    grep -nE "$re" "$@" /dev/null |
        sed -E 's|/\*.*\*/||g; s#^([^:]*:[0-9]+:)[[:space:]]*(/\*.*|\*([[:space:]].*)?|\*/.*)$#\1#; s|//.*$||' |
        grep -E "^[^:]*:[0-9]+:.*($re)"
}

# A member name as a whole string literal ("TableName": a key to look up
# or write) or quoted inside one (\"TableName\": JSON text).
rule "no DynamoDB request member names in ui/" \
    "$(code_grep "(^|[^\\])\"($ui_members)\"|\\\\\"($ui_members)\\\\\"" $(sources | grep '^ui/'))"

# Written as JSON: a member quoted inside a literal, or a literal member
# handed to a writer (cJSON_Add...ToObject, a jw's jstring/jmember, ...).
# Reading a request (cJSON_GetObjectItem, store_jstr) is the codec's job
# and is not printing one. data/store_remote.c's pass-through forwards the
# caller's own body and only adds ReturnConsumedCapacity to it.
body_writes() {
    code_grep "\\\\\"($req_members)\\\\\"|(cJSON_Add[A-Za-z]*ToObject|cJSON_AddItemToObject(CS)?|\bj(string|member|item|bool|number)|ddbjson_write_string)\([^,]*,[[:space:]]*\"($req_members)\"" \
        $(sources | grep -E '\.c$' | grep -vxE 'model/ddbreq\.c') |
        grep -vE '^data/store_remote\.c:[0-9]+:.*cJSON_AddStringToObject\(in, "ReturnConsumedCapacity", "TOTAL"\)'
}
rule "request bodies printed only by model/ddbreq.c" "$(body_writes)"

# Every file of the tree, NUL-separated: git's tracked files when ROOT is
# the top of a git checkout, else whatever find sees (a scratch tree).
all_files() {
    top=$(git rev-parse --show-toplevel 2>/dev/null)
    if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]; then
        git ls-files -z
    else
        find . \( -name .git -o -name 'build*' -o -name node_modules \) -prune -o -type f -print0 |
            sed -z 's|^\./||'
    fi
}
# FILE:LINE:text of each marker line; binary files are left out (-I).
conflict_markers() {
    all_files | xargs -0 -r grep -InE '^(<<<<<<<|>>>>>>>|\|\|\|\|\|\|\|)( |$)|^=======$' /dev/null
}
rule "no merge-conflict markers in any file" "$(conflict_markers)"

# View prefixes: the functions a `view_ops NAME = { ... };` table wires
# (".draw = items_draw,") all start with one word and "_", the word most
# of them share; FILE:LINE: NAME for each that does not.
view_prefixes() {
    for f in $(sources | grep '^ui/.*\.c$'); do
        awk -v F="$f" '
            /view_ops[[:space:]]+[A-Za-z0-9_]+[[:space:]]*=[[:space:]]*\{/ { on = 1; n = 0; delete w; next }
            on && /^[[:space:]]*\}/ {
                on = 0; best = ""
                for (i = 1; i <= n; i++) if (word[i] != "" && (best == "" || w[word[i]] > w[best])) best = word[i]
                for (i = 1; i <= n; i++)
                    if (word[i] == "" || word[i] != best)
                        printf "%s:%d: %s (most of the table: %s_)\n", F, at[i], fn[i], best
                next
            }
            on && match($0, /\.[a-z_]+[[:space:]]*=[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*,?[[:space:]]*$/) {
                v = substr($0, RSTART, RLENGTH); sub(/.*=[[:space:]]*/, "", v); sub(/[[:space:],]*$/, "", v)
                if (v == "true" || v == "false" || v == "NULL") next
                n++; fn[n] = v; at[n] = FNR
                word[n] = (v ~ /^[A-Za-z0-9]+_[A-Za-z0-9_]/) ? v : ""
                sub(/_.*/, "", word[n]); if (word[n] != "") w[word[n]]++
            }' "$f"
    done
}
rule "view ops share their view's prefix (items_draw, not draw)" "$(view_prefixes)"

# FILE LINE LENGTH static|public NAME of every function defined in the
# C files named on stdin: a line at column 0 naming NAME( whose body
# opens with "{" alone at column 0 and closes with "}" at column 0.
functions() {
    xargs -r awk '
        FNR == 1 { sig = ""; start = 0 }
        /^\{/ { if (sig ~ /[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(/) { start = FNR; head = sig; headline = sigline }; next }
        /^\}/ && start {
            name = head; sub(/[[:space:]]*\(.*/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
            print FILENAME, headline, FNR - start + 1, (head ~ /^static[[:space:]]/ ? "static" : "public"), name
            start = 0; next
        }
        /^[A-Za-z_]/ && !start { sig = $0; sigline = FNR }'
}
fns=$(mktemp "${TMPDIR:-/tmp}/ddbx-layers.XXXXXX") || exit 2
trap 'rm -f "$fns" "$fns.words"' EXIT
sources | grep '\.c$' | functions >"$fns"

rule "no function over 120 lines" \
    "$(awk '$3 > 120 { printf "%s:%s: %s is %d lines\n", $1, $2, $5, $3 }' "$fns")"

rule "no source file over 1,200 lines" \
    "$(sources | xargs -r awk 'FNR == 1 && NR > 1 { if (n > 1200) printf "%s: %d lines\n", f, n } { f = FILENAME; n = FNR }
        END { if (n > 1200) printf "%s: %d lines\n", f, n }')"

# Callers: every name in every .c file of the layers, the tests and the
# tools, one "FILE:NAME" a line; a public function needs its name in a
# file other than its own (a call, or its address in a table).
find model data ui tests tools -name node_modules -prune -o -type f -name '*.c' -print 2>/dev/null |
    xargs -r grep -owE '[A-Za-z_][A-Za-z0-9_]*' /dev/null | sort -u >"$fns.words"
uncalled() {
    awk 'NR == FNR { if ($4 == "public" && $5 != "main") { own[$5] = own[$5] " " $1 " "; at[$5] = $1 ":" $2 }; next }
        { i = index($0, ":"); f = substr($0, 1, i - 1); w = substr($0, i + 1)
          if ((w in own) && index(own[w], " " f " ") == 0) used[w] = 1 }
        END { for (w in own) if (!(w in used)) printf "%s: %s has no caller outside its file\n", at[w], w }' \
        "$fns" "$fns.words" | sort
}
rule "no public function without a caller outside its file" "$(uncalled)"

rule "no view calls the command line's cli_ helpers" \
    "$(code_grep '\bcli_[a-z0-9_]+[[:space:]]*\(' $(sources | grep -E '^ui/view[^/]*\.c$'))"
exit $bad
