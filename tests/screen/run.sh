#!/bin/sh
# Scripted screen tests, in the manner of tig: each tests/screen/NAME.keys
# is fed to the real explorer through DDBX_SCRIPT while ncurses writes to
# /dev/null; the script's `:save-display FILE` and `:save-view FILE`
# outputs are compared with tests/screen/NAME.FILE. Prints TAP.
#
# Header lines of a .keys file (comments, read by this runner):
#   # db: social odd      fixtures/*.jsonl replayed through `ddbx api`
#   # samples: yes        the bundled samples, loaded by `ddbx samples`
#   # patterns: FILE    fixtures/FILE copied into the database's pattern
#                         folder (beside test.db: patterns/), as `ddbx
#                         patterns --out` writes it there
#   # gen: TABLE P N      a generated table loaded by `ddbx load`: P
#                         partitions PK=USER#00000.. of N items each,
#                         SK=USER#00000#0000.. (the item's own id), n N
#   # default-db: yes     no --db: the default database under the pinned
#                         HOME/XDG_DATA_HOME (first run: seeded)
#   # size: 80x24         terminal COLUMNSxLINES (default 80x24)
#   # env: NAME=VALUE     extra environment (NO_COLOR=1, TERM=dumb, EDITOR=...);
#                         %HERE% is this folder, %DDBX% the ddbx binary
#   # args: TABLE         arguments after `ddbx --db FILE`
#   # expect-rc: N        exit status (default 0)
#   # keys: N           the script presses exactly N keys (a newcomer's
#                         count, asserted): each <Name> and each character
#                         of a key line is one, a /TEXT line is two (/ and
#                         Enter; TEXT is a value typed), a key line right
#                         after a `# value` comment is a value typed (not
#                         counted), and `:` lines (setup and test hooks)
#                         are not counted
#   # export: TABLE       after the script, `ddbx export TABLE` of the test's
#                         database goes to out/export (compared with
#                         NAME.export): what the explorer wrote, byte for byte
#   # work: A <= N x B   the `:A` command's database work (store_work, from
#                         DDBX_TIMING's "command" lines; the first run of
#                         each) is at most N times the `:B` command's: a
#                         count of SQLite instructions, not a time, so it
#                         cannot flake; it fails a step that grows with the
#                         square of the items where B grows with them;
#                         A or B may be a key, <NAME> as the timing log
#                         names it (<u>), and TERM@K means its Kth run
#   # mask: times         the wall-clock times the screens show (YYYY-MM-DD
#                         HH:MM:SS: when a backup was taken) are compared as
#                         ####-##-## ##:##:##, the same width
# UPDATE=1 writes the expected files from the actual output.
# ONLY_TEST=NAME runs one test.
cd "$(dirname "$0")" || exit 1
here=$PWD
: "${DDBX:?DDBX must name the ddbx binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-screen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0; bad=0

# The pinned environment.
pin() {
    d=$1; shift
    env -i PATH="$PATH" HOME="$d/home" XDG_DATA_HOME="$d/home/data" \
        XDG_CONFIG_HOME="$d/home/config" TMPDIR="$d" \
        LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color \
        ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
        ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} "$@"
}

# The keys a script presses, by the rules of `# keys:` above.
count_keys() {
    awk '
        /^# value *$/ { value = 1; next }
        /^#/ { next }
        /^:/ { value = 0; next }
        /^\// { n += 2; value = 0; next }
        {
            if (value) { value = 0; next }
            line = $0
            gsub(/<[^<>]+>/, "K", line)
            n += length(line)
        }
        END { print n + 0 }
    ' "$1"
}

for keys in "$here"/*.keys; do
    name=$(basename "$keys" .keys)
    [ -n "$ONLY_TEST" ] && [ "$ONLY_TEST" != "$name" ] && continue
    n=$((n + 1))
    w="$tmp/$name"
    mkdir -p "$w/home/data" "$w/home/config" "$w/out"
    size=$(sed -n 's/^# size: *//p' "$keys" | head -n 1)
    cols=${size%x*}; lines=${size#*x}
    [ -n "$size" ] || { cols=80; lines=24; }
    envs=$(sed -n 's/^# env: *//p' "$keys" | sed "s|%HERE%|$here|g; s|%DDBX%|$DDBX|g")
    args=$(sed -n 's/^# args: *//p' "$keys" | head -n 1)
    want_rc=$(sed -n 's/^# expect-rc: *//p' "$keys" | head -n 1)
    : "${want_rc:=0}"
    ok=1; why=""
    # The header comes before the keys: a header line after a key line
    # means a comment lost its # and is typed as keys (a `:` in its words
    # opens a prompt that swallows the next `:` line: staged_view_big_wide
    # lost its `:stage on` so, and its golden files pinned a direct delete).
    stray=$(awk '/^# (db|samples|patterns|gen|default-db|size|env|args|expect-rc|keys|export|work|mask):/ {
            if (key) { print key; exit } next }
        /^#/ || /^$/ { next }
        { if (!key) key = NR }' "$keys")
    [ -n "$stray" ] && { ok=0; why="line $stray is typed as keys but a header line follows it (a comment without its #?)"; }
    # Concatenate the fixtures into one database for this test.
    db="$w/test.db"
    for f in $(sed -n 's/^# db: *//p' "$keys"); do
        if ! "$DDBX" api --db "$db" < "$here/fixtures/$f.jsonl" > "$w/fixture.out" 2>&1 ||
            grep -q '"Error"' "$w/fixture.out"; then
            ok=0; why="fixture $f failed to load"
            head -n 5 "$w/fixture.out" | sed 's/^/# /'
        fi
    done
    if grep -q '^# samples: *yes' "$keys" &&
        ! "$DDBX" samples --db "$db" > "$w/samples.out" 2>&1; then
        ok=0; why="ddbx samples failed"
    fi
    for f in $(sed -n 's/^# patterns: *//p' "$keys"); do
        mkdir -p "$w/patterns" && cp "$here/fixtures/$f" "$w/patterns/" || { ok=0; why="no fixture $f"; }
    done
    gen=$(sed -n 's/^# gen: *//p' "$keys" | head -n 1)
    if [ -n "$gen" ]; then
        set -- $gen
        awk -v p="$2" -v n="$3" 'BEGIN { for (a = 0; a < p; a++) for (j = 0; j < n; j++)
            printf "{\"PK\":{\"S\":\"USER#%05d\"},\"SK\":{\"S\":\"USER#%05d#%04d\"},\"n\":{\"N\":\"%d\"}}\n",
                a, a, j, a * n + j }' > "$w/gen.jsonl"
        if ! "$DDBX" load "$w/gen.jsonl" --format jsonl --table "$1" --key PK:S,SK:S --db "$db" \
            > "$w/gen.out" 2>&1; then
            ok=0; why="ddbx load of the generated $1 failed"
            head -n 5 "$w/gen.out" | sed 's/^/# /'
        fi
    fi
    dbarg="--db ../test.db"
    grep -q '^# default-db: *yes' "$keys" && dbarg=""
    if [ $ok = 1 ]; then
        # shellcheck disable=SC2086
        (cd "$w/out" && pin "$w" COLUMNS="$cols" LINES="$lines" DDBX_SCRIPT="$keys" \
            DDBX_TIMING="$w/timing" $envs "$DDBX" $dbarg $args > "$w/stdout" 2> "$w/stderr")
        rc=$?
        if [ "$rc" != "$want_rc" ]; then
            ok=0; why="exit status $rc, expected $want_rc"
        fi
        export=$(sed -n 's/^# export: *//p' "$keys" | head -n 1)
        if [ $ok = 1 ] && [ -n "$export" ] &&
            ! "$DDBX" export "$export" --db "$db" > "$w/out/export" 2> "$w/export.err"; then
            ok=0; why="ddbx export $export failed: $(head -n 1 "$w/export.err")"
        fi
    fi
    work_of() {   # the first (TERM@K: the Kth) "command TEXT work N" line of TEXT,
                  # or of a key "<NAME>" ("key NAME ... work N"): N
        term=$1; nth=1
        case $term in *@[0-9]*) nth=${term##*@}; term=${term%@*} ;; esac
        case $term in
        "<"*">")
            k=${term#<}; k=${k%>}
            awk -v k="$k" -v n="$nth" '$1 == "key" && $2 == k && ++seen == n {
                for (i = 3; i < NF; i++) if ($i == "work") { print $(i + 1); exit } }' "$w/timing" 2>/dev/null ;;
        *)
            awk -v c="$term" -v n="$nth" '$1 == "command" { t = substr($0, 9); sub(/ work [0-9]+$/, "", t)
                if (t == c && ++seen == n) { print $NF; exit } }' "$w/timing" 2>/dev/null ;;
        esac
    }
    rules=$(sed -n 's/^# work: *//p' "$keys")
    while [ $ok = 1 ] && [ -n "$rules" ] && IFS= read -r rule; do
        a=${rule%% <= *}; rest=${rule#* <= }; most=${rest%% x *}; b=${rest#* x }
        wa=$(work_of "$a"); wb=$(work_of "$b")
        if [ -z "$wa" ] || [ -z "$wb" ] || [ "$wb" -le 0 ]; then
            ok=0; why="# work: no work logged for :$a or :$b"
        elif [ "$wa" -gt $((most * wb)) ]; then
            ok=0; why=":$a did $wa units of work, more than $most x the $wb of :$b"
        else
            echo "# work: :$a $wa, :$b $wb (at most $most x)"
        fi
    done <<RULES
$rules
RULES
    want_keys=$(sed -n 's/^# keys: *//p' "$keys" | head -n 1)
    if [ $ok = 1 ] && [ -n "$want_keys" ]; then
        got_keys=$(count_keys "$keys")
        [ "$got_keys" = "$want_keys" ] || { ok=0; why="the script presses $got_keys keys, # keys: says $want_keys"; }
    fi
    if [ $ok = 1 ]; then
        found=0
        mask=$(sed -n 's/^# mask: *//p' "$keys" | head -n 1)
        for out in "$w"/out/*; do
            [ -f "$out" ] || continue
            found=1
            if [ "$mask" = times ]; then
                sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}/####-##-## ##:##:##/g' \
                    "$out" > "$out.masked" && mv "$out.masked" "$out"
            fi
            exp="$here/$name.$(basename "$out")"
            if [ "$UPDATE" = 1 ]; then
                cp "$out" "$exp"
            elif [ ! -f "$exp" ]; then
                ok=0; why="no expected file $(basename "$exp") (UPDATE=1 creates it)"
            elif ! cmp -s "$out" "$exp"; then
                ok=0; why="$(basename "$exp") differs"
                diff -u "$exp" "$out" | head -n 40 | sed 's/^/# /'
            fi
        done
        # Every expected file must have been produced.
        for exp in "$here/$name".*; do
            case "$exp" in *.keys) continue;; esac
            [ -f "$w/out/${exp#$here/$name.}" ] || { ok=0; why="$(basename "$exp") not produced"; }
        done
        [ $found = 1 ] || { ok=0; why="the script saved nothing"; }
    fi
    if [ $ok = 1 ]; then
        echo "ok $n - screen: $name"
    else
        echo "not ok $n - screen: $name: $why"
        sed 's/^/# stderr: /' "$w/stderr" 2>/dev/null | head -n 10
        bad=1
    fi
done
# A filter that matches nothing, or no .keys files, is a failure: a run
# that checks nothing must not pass.
[ $n -gt 0 ] || { echo "not ok 1 - screen: no test ran${ONLY_TEST:+ (ONLY_TEST=$ONLY_TEST matches no .keys file)}"; bad=1; }
exit $bad
