#!/bin/sh
# tools/check-layers.sh catches what it claims to: each rule, run on a
# small tree with one planted violation (in a subfolder where the rule
# is about a folder), fails with that rule's name and the offending file,
# and only that rule; the clean tree, which has each library in the one
# place README allows it, passes. And the checker enforces exactly
# README's dependency table: the place each library row of the table
# names is the place the checker's rule names. Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
check=$root/tools/check-layers.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - layers check: $1"; }
nok() { n=$((n + 1)); echo "not ok $n - layers check: $1"; bad=1; [ -f "$2" ] && sed 's/^/#   /' "$2"; }

# The clean tree: every library in its allowed place, a vm write in
# ui/vm.c, cross-layer includes in the allowed direction.
clean() { # dir
    mkdir -p "$1/model/sub" "$1/data/sub" "$1/ui/sub"
    printf '#include "model/av.h"\n#include <stdio.h>\n' >"$1/model/sub/a.c"
    printf '#include <cjson/cJSON.h>\n' >"$1/model/ddbjson.c"
    printf '#include <sqlite3.h>\n#include "model/av.h"\n' >"$1/data/store_int.h"
    printf '#include <curl/curl.h>\n#include <cjson/cJSON.h>\n' >"$1/data/remote.c"
    printf '#include <openssl/hmac.h>\n' >"$1/data/sigv4.c"
    printf '#include <zlib.h>\n' >"$1/data/serve.c"
    printf '#include <dlfcn.h>\n' >"$1/data/dynlib.c"
    printf 'static const char *q = "SELECT 1 WHERE x = ?1";\n' >"$1/data/sub/sql.c"
    printf '#include <curses.h>\n#include "data/store.h"\n' >"$1/ui/term.c"
    printf '#include <http_parser.h>\n#include "model/buf.h"\n' >"$1/ui/httpd.c"
    printf 'void f(vm *m) { m->top = 0; m->cursor++; }\n' >"$1/ui/vm.c"
    printf 'void g(view *v) { if (v->vm.top == 0 && v->vm.n >= 2) h(v->vm.cursor); }\n' >"$1/ui/sub/reads.c"
    # Request members: a label from model/, a comment naming one, the
    # printer in model/ddbreq.c, the codec reading a request in data/.
    printf '/* a "TableName" in a comment */\nvoid l(void) { pl("%%s", DDBJSON_NAMES_MEMBER); }\n' >"$1/ui/sub/label.c"
    printf 'static void q(jw *w) { jstring(w, "KeyConditionExpression", k); buf_adds(o, "\\"ConsistentRead\\":"); }\n' >"$1/model/ddbreq.c"
    printf 'bool c = sop_jbool(in, "ConsistentRead", false);\nconst char *f = store_jstr(in, "FilterExpression");\n' >"$1/data/sub/codec.c"
    # A view's ops share its prefix; a public function called from
    # another file, a static one from its own; a 120-line function.
    printf 'const view_ops view_new_ops = {\n    .name = "new",\n    .priv_size = sizeof(new_view),\n    .follows = true,\n    .open = new_open,\n    .draw = new_draw,\n    .done = new_done_view,\n};\n' >"$1/ui/view_new.c"
    printf 'static int helper(void)\n{\n    return 1;\n}\n\nint data_answer(int x,\n                int y)\n{\n    return helper() + x + y;\n}\n' >"$1/data/answer.c"
    printf 'int ui_show(void)\n{\n    return data_answer(1, 2);\n}\n' >"$1/ui/sub/show.c"
    mkdir -p "$1/tests/ui"
    printf 'int main(void)\n{\n    return ui_show();\n}\n' >"$1/tests/ui/test_show.c"
    body "$1/model/sub/long.c" long 118
    printf 'int model_decl(void);\n' >"$1/model/sub/decl.h"
}

# FILE NAME N: a static function NAME of N + 2 lines ("{", N statements, "}").
body() {
    { printf 'static void %s(void)\n{\n' "$2"; i=0
      while [ $i -lt "$3" ]; do echo '    step();'; i=$((i + 1)); done; echo '}'; } >>"$1"
}

clean "$tmp/clean"
if "$check" "$tmp/clean" >"$tmp/clean.out" 2>&1 && ! grep -q '^not ok' "$tmp/clean.out" &&
    [ "$(grep -c '^ok ' "$tmp/clean.out")" -ge 10 ]; then
    ok "a clean tree passes, each library in its allowed place"
else
    nok "a clean tree passes, each library in its allowed place" "$tmp/clean.out"
fi

# plant NAME RULE FILE LINE: a copy of the clean tree with LINE added to
# FILE must fail RULE (the rule's name as the checker prints it), naming
# FILE, and pass every other rule.
plant() {
    name=$1; want=$2; file=$3; text=$4; label=${5:-$text}
    t=$tmp/$name
    clean "$t"
    mkdir -p "$(dirname "$t/$file")"
    printf '%s\n' "$text" >>"$t/$file"
    "$check" "$t" >"$t.out" 2>&1
    rc=$?
    if [ $rc = 1 ] && grep -qF "not ok" "$t.out" && grep -F "not ok" "$t.out" | grep -qF -- "- layers: $want" &&
        grep -qF "#   $file" "$t.out" && [ "$(grep -c '^not ok' "$t.out")" = 1 ]; then
        ok "$name: '$label' in $file breaks \"$want\""
    else
        nok "$name: '$label' in $file breaks \"$want\" (exit $rc)" "$t.out"
    fi
}

plant model-data "model/ includes nothing of data/ or ui/" model/sub/deep/x.h '#include "data/store.h"'
plant model-ui "model/ includes nothing of data/ or ui/" model/x.c '#  include "../ui/term.h"'
plant data-ui "data/ includes nothing of ui/" data/sub/x.c '#include "ui/display.h"'
plant curses-model "curses only in ui/term.c" model/sub/x.c '#include <ncursesw/curses.h>'
plant curses-data "curses only in ui/term.c" data/x.c '#include <curses.h>'
plant curses-ui "curses only in ui/term.c" ui/sub/x.c '#include <curses.h>'
plant curses-view "curses only in ui/term.c" ui/view_items.c '#include <ncursesw/curses.h>'
plant sqlite-ui "sqlite3 only in data/" ui/sub/x.c '#include <sqlite3.h>'
plant sqlite-model "sqlite3 only in data/" model/x.c '#include "sqlite3.h"'
plant cjson-model "cJSON only in data/ and model/ddbjson" model/sub/ddbjson.c '#include <cjson/cJSON.h>'
plant cjson-ui "cJSON only in data/ and model/ddbjson" ui/x.c '#include <cJSON.h>'
plant http-data "http-parser only in ui/httpd.c" data/serve.c '#include <http_parser.h>'
plant http-ui "http-parser only in ui/httpd.c" ui/sub/httpd.c '#include <http_parser.h>'
plant curl-data "libcurl only in data/remote.c" data/pull.c '#include <curl/curl.h>'
plant curl-ui "libcurl only in data/remote.c" ui/x.c '#include <curl/easy.h>'
plant crypto-data "libcrypto only in data/sigv4.c" data/remote.c '#include <openssl/sha.h>'
plant crypto-model "libcrypto only in data/sigv4.c" model/sub/x.c '#include <openssl/evp.h>'
plant zlib-data "zlib only in data/serve.c" data/store.c '#include <zlib.h>'
plant zlib-ui "zlib only in data/serve.c" ui/sub/x.c '#include "zlib.h"'
plant dlopen-data "dlopen only in data/dynlib.c" data/remote.c '#include <dlfcn.h>'
plant dlopen-ui "dlopen only in data/dynlib.c" ui/sub/term.c '#include <dlfcn.h>'
plant vm-field "the vm's fields written only by ui/vm.c" ui/display.c 'void f(view *v) { v->vm.top = 0; }'
plant vm-alias "the vm's fields written only by ui/vm.c" ui/sub/x.c 'void f(view *v) { vm *w = &v->vm; w->cursor += 2; }'
plant vm-incr "the vm's fields written only by ui/vm.c" ui/display.c 'void f(view *v) { v->vm.hscroll++; }'
plant member-json "no DynamoDB request member names in ui/" ui/sub/x.c 'buf_adds(&b, "{\"TableName\":");'
plant member-key "no DynamoDB request member names in ui/" ui/view_query.c 'const char *k = "KeyConditionExpression";'
plant member-label "no DynamoDB request member names in ui/" ui/x.c 'term_puts(0, 0, 9, "Statement", ROLE_COLHEAD);'
plant body-text "request bodies printed only by model/ddbreq.c" data/sub/x.c 'buf_adds(out, ",\"ConsistentRead\":true");'
plant body-cjson "request bodies printed only by model/ddbreq.c" data/x.c 'cJSON_AddStringToObject(req, "FilterExpression", f);'
plant body-model "request bodies printed only by model/ddbreq.c" model/sub/x.c 'static void p(jw *w) { jstring(w, "ProjectionExpression", s); }'
plant body-backup "request bodies printed only by model/ddbreq.c" data/x.c 'cJSON_AddNumberToObject(req, "TimeRangeLowerBound", t);'
# ddbx push once wrote its BatchWriteItem by hand, the rule's one exception.
plant body-push "request bodies printed only by model/ddbreq.c" data/push.c 'buf_adds(&in, "{\"RequestItems\":{");'
plant sql "no SQL built from data" data/sub/x.c 'char *q = sqlite3_mprintf("SELECT %s", name);'
# Merge-conflict markers, in any file (issue 38: README carried two blocks
# for a while): each of the lines git writes, in a document, a source and
# a script outside the three layers.
plant conflict-ours "no merge-conflict markers in any file" README.md '<<<<<<< HEAD'
plant conflict-theirs "no merge-conflict markers in any file" ui/sub/x.c '>>>>>>> h27polish'
plant conflict-mid "no merge-conflict markers in any file" tools/x.sh '======='
plant conflict-base "no merge-conflict markers in any file" docs/notes.md '||||||| merged common ancestors'
# Issue 41's conventions. View prefixes: the five views that wired bare
# open_view, draw, request, text.
plant view-bare "view ops share their view's prefix" ui/view_new.c \
    "$(printf 'const view_ops view_old_ops = {\n    .name = "old",\n    .open = old_open,\n    .draw = draw,\n    .text = old_text,\n};')" \
    'a table wiring .draw = draw'
plant view-other "view ops share their view's prefix" ui/sub/view_two.c \
    "$(printf 'const view_ops view_two_ops = {\n    .open = two_open,\n    .title = two_title,\n    .request = request_two,\n};')" \
    'a table wiring .request = request_two beside two_open'
# Length: 121 lines, "{" to "}" (the clean tree's 120-line one passes).
plant long-function "no function over 120 lines" data/sub/long.c \
    "$(body /dev/stdout toolong 119)" 'a 121-line function'
long_file() { i=0; while [ $i -lt 1201 ]; do echo "/* line $i */"; i=$((i + 1)); done; }
plant long-file "no source file over 1,200 lines" model/sub/big.h "$(long_file)" 'a 1,201-line header'
# Callers: a public function called nowhere, one called only in its own
# file, one whose only other mention is its declaration in a header.
plant uncalled "no public function without a caller" data/sub/dead.c \
    "$(printf 'int data_dead(void)\n{\n    return 0;\n}')" 'int data_dead(void) called nowhere'
plant own-file "no public function without a caller" ui/sub/own.c \
    "$(printf 'int ui_own(void)\n{\n    return 0;\n}\nstatic int use(void)\n{\n    return ui_own();\n}')" 'ui_own called only in its file'
plant header-only "no public function without a caller" model/sub/decl.c \
    "$(printf '#include "model/sub/decl.h"\nint model_decl(void)\n{\n    return 0;\n}')" 'model_decl named only by a header'
# cli helpers: a view calling the command line's.
plant view-cli "no view calls the command line's cli_ helpers" ui/view_new.c \
    'static char *p(void) { return cli_db_path(NULL, 0); }'

# In a git checkout the rule reads git's tracked files: a marker in a
# tracked file fails it, one in an untracked file (a merge's .orig left
# aside) does not.
t=$tmp/git
clean "$t"
printf 'a\n' >"$t/README.md"
if (cd "$t" && git init -q && git add -A) >/dev/null 2>&1; then
    printf '>>>>>>> theirs\n' >"$t/scratch.orig"
    "$check" "$t" >"$t.out" 2>&1
    first=$?
    printf '<<<<<<< HEAD\n' >>"$t/README.md"
    "$check" "$t" >"$t.out2" 2>&1
    if [ $first = 0 ] && grep -qF '#   README.md:2:<<<<<<< HEAD' "$t.out2" && ! grep -qF scratch.orig "$t.out2"; then
        ok "conflict-git: a marker in a tracked file fails, in an untracked one does not"
    else
        cat "$t.out" >>"$t.out2"
        nok "conflict-git: a marker in a tracked file fails, in an untracked one does not" "$t.out2"
    fi
else
    nok "conflict-git: git init in a scratch tree failed"
fi

# The places README's dependency table gives, against the checker's rule
# names: a row "| ncursesw | ... | the terminal UI (ui/ only) |" must be
# the rule "curses only in ui/".
"$check" >"$tmp/repo.out" 2>&1
readme_place() { # library column as README spells it
    grep "^| $1 |" README.md | sed -n 's/.*(\([^()]*\) only) |$/\1/p'
}
for pair in "ncursesw:curses" "SQLite 3:sqlite3" "cJSON:cJSON" "http-parser:http-parser" \
    "libcurl:libcurl" "OpenSSL libcrypto:libcrypto" "zlib:zlib"; do
    lib=${pair%%:*}; rname=${pair#*:}
    place=$(readme_place "$lib")
    if [ -n "$place" ] && grep -qF -- "- layers: $rname only in $place" "$tmp/repo.out"; then
        ok "README says $lib only in $place; the checker enforces exactly that"
    else
        nok "README says $lib only in '${place:-?}'; the checker has no rule \"$rname only in $place\"" "$tmp/repo.out"
    fi
done

# What the binary loads at start (issue 32): only the libraries every
# command needs. ncurses, libcurl and libcrypto (and the 30-odd that
# libcurl and GnuTLS pull in) are loaded by the code that uses them
# (data/dynlib.h), so `ddbx serve` and `ddbx --version` never map them.
# ldd lists what the dynamic loader maps, dependencies included.
if [ -x "${DDBX:-}" ] && command -v ldd >/dev/null 2>&1; then
    ldd "$DDBX" >"$tmp/ldd.out" 2>&1
    late=$(grep -oE 'lib(ncursesw?|tinfo|curl|crypto|ssl|gnutls|microhttpd)[^ ]*\.so[^ ]*' "$tmp/ldd.out" | sort -u | tr '\n' ' ')
    if [ -z "$late" ] && grep -q 'libsqlite3' "$tmp/ldd.out"; then
        ok "ddbx links none of ncurses, libcurl, libcrypto, GnuTLS at start ($(grep -c '=>' "$tmp/ldd.out") libraries)"
    else
        nok "ddbx links at start what it loads on use: ${late:-(no ldd list)}" "$tmp/ldd.out"
    fi
else
    nok "ddbx's libraries: no binary at DDBX (${DDBX:-unset}) or no ldd"
fi
exit $bad
