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
exit $bad
