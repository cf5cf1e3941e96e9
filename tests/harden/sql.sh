#!/bin/sh
# SQL text is never built from data: every statement ddbx hands SQLite is
# a string literal, a macro or static table of literals, or (one place, the
# read-statement builder in data/store_read.c) a buffer assembled only
# from literals and variables that are themselves set from literals. Data
# reaches SQLite only through sqlite3_bind_*. This greps the source for
# every way SQL text gets to SQLite and checks each against that rule; a
# new non-literal site fails here until it is checked and listed.
# TAP numbered from $1; next on fd 3.
n=${1:-0}
cd "$(dirname "$0")/../.." || exit 1
tap() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
src=$(ls data/*.c ui/*.c model/*.c 2>/dev/null)

# 1. No formatting of SQL at all.
bad=$(grep -nE 'sqlite3_(v?mprintf|snprintf|str_appendf|str_vappendf)' $src)
tap "$([ -z "$bad" ]; echo $?)" "sql: no sqlite3_mprintf/snprintf/str_appendf anywhere${bad:+: $bad}"

# 2. Every prepare/exec: the SQL argument (2nd) is a literal, an upper-case
# macro, or one of the checked non-literal sites below.
sites=$(grep -nE 'sqlite3_(prepare(_v2|_v3|16)?|exec)\(' $src |
    sed -E 's/^([^:]*:[0-9]+):.*sqlite3_(prepare(_v2|_v3|16)?|exec)\([^,]*,[[:space:]]*/\1 /' |
    grep -vE '^[^ ]+ ("|[A-Z_][A-Z0-9_]*[,)])')
allowed="data/store.c sql_text[which]
data/saved.c sql,
data/store_read.c b.data,"
unknown=$(printf '%s\n' "$sites" | while read -r where arg; do
    [ -z "$where" ] && continue
    f=${where%%:*}
    ok=0
    printf '%s\n' "$allowed" | while read -r af aa; do
        [ "$f" = "$af" ] && case "$arg" in "$aa"*) exit 1 ;; esac
    done || ok=1
    [ $ok = 1 ] || echo "$where $arg"
done)
tap "$([ -z "$unknown" ]; echo $?)" "sql: every prepare/exec takes a literal, a macro or a checked site${unknown:+: $unknown}"

# 2a. sql_text[] in data/store.c is a static table of string literals.
awk '/sql_text\[[^]]*\] *= *\{/ { on = 1; next } on && /^\};/ { exit } on' data/store.c > /tmp/ddbx-sqltab.$$
bad=$(grep -vE '^[[:space:]]*(\[[A-Z_0-9]+\][[:space:]]*=[[:space:]]*)?"|^[[:space:]]*"|^[[:space:]]*$|^[[:space:]]*/\*|^[[:space:]]*\*' /tmp/ddbx-sqltab.$$ | head -n 3)
[ -s /tmp/ddbx-sqltab.$$ ] && [ -z "$bad" ]
tap $? "sql: data/store.c's sql_text[] holds only string literals${bad:+: $bad}"
rm -f /tmp/ddbx-sqltab.$$

# 2b. data/saved.c's prepare() is only ever called with a literal.
bad=$(grep -nE '[^_a-z]prepare\(s, ' data/saved.c | grep -vE 'prepare\(s, "')
tap "$([ -z "$bad" ]; echo $?)" "sql: data/saved.c calls prepare() with literals only${bad:+: $bad}"

# 2c. data/store_read.c builds its read statements from literals: every
# buf_add* into that file's buffer takes a literal or one of skc, op, dir,
# which are set from literals only.
bad=$(grep -nE 'buf_(adds|add|printf|addc)\(&b,' data/store_read.c |
    grep -vE 'buf_adds\(&b, ("|skc\)|op\)|dir\)|[^"]*\? "[^"]*" : "[^"]*"\))' | head -n 3)
vars=$(grep -nE '(const char \*)?(skc|op|dir) = ' data/store_read.c | grep -vE '= [^;]*\? "[^"]*" : "[^"]*";' | head -n 3)
[ -z "$bad" ] && [ -z "$vars" ]
tap $? "sql: data/store_read.c assembles SQL from literals only${bad:+: $bad}${vars:+: $vars}"

# 3. Values reach SQLite by binding.
c=$(grep -c 'sqlite3_bind_' $src | awk -F: '{ s += $2 } END { print s + 0 }')
[ "$c" -gt 0 ]
tap $? "sql: data goes in through sqlite3_bind_* ($c call sites)"
echo "$n" >&3
