#!/bin/sh
# `ddbx diff` (issue 30) end to end: golden outputs in each format
# (text, json, jsonl) for two states of a table (a.jsonl -> b.jsonl: a
# nested change, a list grown, sets and numbers equal by value, a type
# change, control characters, non-ASCII names, added and removed items),
# every kind of side (a table, FILE:TABLE of another database, export
# files in each format `ddbx load` reads, stdin, remote:TABLE on a
# `ddbx serve`, backups by name and ARN, a table at a moment with
# point-in-time recovery on), the exit codes, the refusals (key schemas that differ, no key
# schema, a --key that does not tell items apart, an item without its
# key with its file:line:col), no raw control character on stdout, the
# progress line on a terminal only, and constant memory: the peak RSS of
# a 200,000-item diff against a 20,000-item one (tests/tools/peakrss),
# table against table and table against an unsorted file.
#
# Where the expectations come from: what differs is DynamoDB's data model
# (developer guide, "Supported data types": sets unordered and unique,
# numbers by value); the output forms are ddbx's own, pinned by the
# golden files (UPDATE=1 rewrites them). Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
here=$root/tests/diffcmd
: "${DDBX:=$root/build/ddbx}"
: "${BUILD:=build}"
peakrss=$root/$BUILD/tests/tools/peakrss

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-diffcmd.XXXXXX") || exit 1
srvpid=""
cleanup() {
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
export TMPDIR="$tmp" LC_ALL=C.UTF-8 TZ=UTC HOME="$tmp/home"
unset DDBX_DB
for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export AWS_EC2_METADATA_DISABLED=true
mkdir -p "$HOME"
cd "$tmp" || exit 1

n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - diff: $1"; }
notok() { n=$((n + 1)); echo "not ok $n - diff: $1"; shift; for l in "$@"; do echo "#   $l"; done; rc=1; }
# run ARGS...: ddbx diff with stdout in $tmp/out, stderr in $tmp/err, status in $st.
run() {
    "$DDBX" diff "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
}
# expect DESCRIPTION STATUS: the last run exited STATUS with nothing on stderr
# when STATUS < 2, something on stderr otherwise.
expect() {
    if [ "$st" -eq "$2" ] && { [ "$2" -ge 2 ] || [ ! -s "$tmp/err" ]; }; then
        ok "$1"
    else
        notok "$1" "exit $st, wanted $2" "$(head -c 400 "$tmp/err")" "$(head -c 400 "$tmp/out")"
    fi
}
# golden DESCRIPTION NAME: stdout equals tests/diffcmd/NAME.
golden() {
    if [ -n "$UPDATE" ]; then
        cp "$tmp/out" "$here/$2"
    fi
    if cmp -s "$tmp/out" "$here/$2"; then
        ok "$1"
    else
        notok "$1" "$(diff "$here/$2" "$tmp/out" | head -n 20)"
    fi
}
# err_has DESCRIPTION TEXT: stderr holds TEXT (a fixed string).
err_has() {
    if grep -qF -- "$2" "$tmp/err"; then ok "$1"; else notok "$1" "exit $st" "$(head -c 600 "$tmp/err")"; fi
}
# The lines of the change report (not the summary) of the last run.
changes() { grep -E '^[-+~] ' "$tmp/out"; }
load() { # FILE TABLE DB [KEY]
    "$DDBX" load "$1" --table "$2" --key "${4:-PK:S,SK:S}" --db "$3" >/dev/null 2>"$tmp/lerr" ||
        notok "load $1 into $3" "$(cat "$tmp/lerr")"
}

# --- two states of one table ------------------------------------------------
load "$here/a.jsonl" Tbl a.db
load "$here/b.jsonl" Tbl b.db
load "$here/b.jsonl" Other a.db

run Tbl b.db:Tbl --db a.db
expect "two states of a table differ: exit 1" 1
golden "text: one line an item, each path old -> new, then the summary" text.golden
changes >"$tmp/text.changes"
run Tbl b.db:Tbl --db a.db --format json
expect "--format json: exit 1" 1
golden "json: the changes and the summary in one document" json.golden
run Tbl b.db:Tbl --db a.db --format jsonl
golden "jsonl: one change a line, the summary last" jsonl.golden
if perl -MJSON::PP -ne 'decode_json($_)' "$tmp/out" 2>/dev/null ||
   perl -e 'exit(eval { require JSON::PP; 1 } ? 1 : 0)'; then
    ok "jsonl: every line is JSON (or perl has no JSON::PP to check)"
else
    notok "jsonl: every line is JSON"
fi
run Tbl Other --db a.db
expect "two tables of one database: exit 1" 1
changes | cmp -s - "$tmp/text.changes" && ok "two tables of one database: the same changes" ||
    notok "two tables of one database: the same changes" "$(changes | head -5)"
run Tbl Tbl --db a.db
expect "a table against itself: exit 0" 0
grep -q '^no differences: 0 added, 0 removed, 0 changed, 7 unchanged$' "$tmp/out" &&
    ok "equal sides: 'no differences' and the count" || notok "equal sides: 'no differences'" "$(cat "$tmp/out")"
run b.db:Tbl Tbl --db a.db
expect "B against A: exit 1" 1
changes | grep -q '^- PK="ACTOR#alice" SK="TARGET#dave"$' && changes | grep -q '^+ PK="ACTOR#alice" SK="TARGET#carol"$' &&
    ok "B against A: added and removed swap" || notok "B against A: added and removed swap" "$(changes)"

# No raw control character reaches stdout (ESC and C1 are in the data).
for f in text json jsonl; do
    run Tbl b.db:Tbl --db a.db --format $f
    if perl -ne 'exit 1 if /[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]/' "$tmp/out"; then
        ok "$f: no control character of the data goes out raw"
    else
        notok "$f: no control character of the data goes out raw"
    fi
done

# --- export files ------------------------------------------------------------
# In key order (ddbx export), shuffled (sorted first), in every format.
"$DDBX" export Tbl --db b.db >b.jsonl
awk '{ printf "%06d\t%s\n", (NR * 7919) % 1009, $0 }' b.jsonl | sort | cut -f2- >shuffled.jsonl
for fmt in jsonl s3 aws-cli workbench; do
    "$DDBX" export Tbl --db b.db --format $fmt >"b.$fmt"
done
# A BatchWriteItem request file: {"Tbl": [{"PutRequest": {"Item": ...}}, ...]}.
awk 'BEGIN { printf "{\"Tbl\":[" } { printf "%s{\"PutRequest\":{\"Item\":%s}}", (NR > 1 ? "," : ""), $0 }
     END { print "]}" }' b.jsonl >b.batch
run Tbl b.jsonl --db a.db
changes | cmp -s - "$tmp/text.changes" && grep -q '^B: b.jsonl (jsonl): 7 items$' "$tmp/out" &&
    ok "an export file in key order: the same changes, no sort" || notok "an export file in key order" "$(cat "$tmp/out")"
run Tbl shuffled.jsonl --db a.db
expect "a shuffled export file: exit 1" 1
changes | cmp -s - "$tmp/text.changes" && grep -q '^B: shuffled.jsonl (jsonl): 7 items (not in key order: sorted first)$' "$tmp/out" &&
    ok "a shuffled export file: sorted first, the same changes" || notok "a shuffled export file" "$(cat "$tmp/out")"
for fmt in s3 aws-cli; do
    run Tbl "b.$fmt" --db a.db
    changes | cmp -s - "$tmp/text.changes" && grep -q "^B: b.$fmt ($fmt): 7 items" "$tmp/out" &&
        ok "a $fmt export: detected, the same changes" || notok "a $fmt export" "$(cat "$tmp/out" "$tmp/err")"
done
run Tbl b.workbench:Tbl --db a.db
changes | cmp -s - "$tmp/text.changes" && ok "a Workbench model's table (FILE:TABLE): the same changes" ||
    notok "a Workbench model's table" "$(cat "$tmp/out" "$tmp/err")"
run b.workbench a.db:Tbl
expect "a Workbench model's only table, against a database file's table" 1
run Tbl b.batch:Tbl --db a.db
changes | cmp -s - "$tmp/text.changes" && ok "a batch file's table (FILE:TABLE): the same changes" ||
    notok "a batch file's table" "$(cat "$tmp/out" "$tmp/err")"
"$DDBX" diff Tbl - --db a.db <shuffled.jsonl >"$tmp/out" 2>"$tmp/err"
st=$?
changes | cmp -s - "$tmp/text.changes" && grep -q '^B: stdin (jsonl): 7 items' "$tmp/out" &&
    ok "stdin (-): the same changes" || notok "stdin (-)" "$(cat "$tmp/out" "$tmp/err")"
"$DDBX" export Tbl --db b.db --format plain >b.plain
run b.plain b.plain --input-format plain --key PK,SK
expect "plain JSON (types inferred) against itself, by --key: exit 0" 0
# Two items of one key in a file: the later counts, as ddbx load leaves it.
{ cat b.jsonl; head -n 1 "$here/a.jsonl"; } >dup.jsonl
run b.db:Tbl dup.jsonl
expect "a file repeating a key: the later item wins (changed: exit 1)" 1
grep -q '^B: dup.jsonl (jsonl): 7 items (not in key order: sorted first) (1 repeated keys: the later item kept, as ddbx load does)$' "$tmp/out" &&
    changes | grep -q '^~ PK="ACTOR#alice" SK="PROFILE"  addr.city: "Busan" -> "Seoul"' &&
    ok "a file repeating a key: said in the summary" || notok "a file repeating a key" "$(cat "$tmp/out")"

# --- refusals and errors: exit 2 ------------------------------------------
load "$here/a.jsonl" Keyed a.db SK:S,PK:S
printf '%s\n' '{"id":{"S":"x"},"PK":{"S":"p"},"SK":{"S":"s"}}' '{"id":{"S":"x"},"PK":{"S":"q"},"SK":{"S":"s"}}' >ids.jsonl
load ids.jsonl ById a.db id:S
run b.jsonl Tbl --db a.db --key id
expect "--key naming an attribute the items lack: exit 2" 2
err_has "a file's item without the --key attribute: its file:line:col" "b.jsonl:1:1: ValidationException: A: item 0 has no attribute id (the key the diff compares by)"
run Tbl b.jsonl --db a.db --key id
err_has "a table's item without the --key attribute: its key" "A: the item PK=\"ACTOR#alice\" SK=\"PROFILE\" has no attribute id (the key the diff compares by)"
printf '%s\n' '{"PK":{"S":"p"},"SK":{"S":"s"}}' '{"PK":{"S":"p"}}' >nosk.jsonl
run Tbl nosk.jsonl --db a.db
expect "an item without its sort key: exit 2" 2
err_has "an item without its sort key: file:line:col and item" "nosk.jsonl:2:1: ValidationException: B: item 1 has no attribute SK"
printf '%s\n' '{"PK":{"S":"p"},"SK":{"N":"1"}}' >badtype.jsonl
run Tbl badtype.jsonl --db a.db
err_has "a key of another type: said with its type" "B: item 0 has SK of type N, not S"
load ids.jsonl Ids a.db
run Ids Ids --db a.db --key id
expect "a --key that does not tell a table's items apart: exit 2" 2
err_has "a --key that does not tell a table's items apart: said" "two items of Ids in a.db share the key id: the key the diff compares by does not tell its items apart"
printf '%s\n' '{"PK":{"S":"p"},"SK":{"S":"s"}' >broken.jsonl
run Tbl broken.jsonl --db a.db
expect "broken JSON: exit 2" 2
err_has "broken JSON: file:line:col" "broken.jsonl:2:1: ParseError: unexpected end of input: the value that starts at 1:1 is not closed"

# Key schemas that differ are refused, unless --key says what to compare by.
load "$here/a.jsonl" ByName a.db PK:S
run Tbl ById --db a.db
expect "key schemas that differ: refused, exit 2" 2
err_has "key schemas that differ: both named" "the key schemas differ: A (Tbl in a.db) is keyed by PK:S, SK:S; B (ById in a.db) is keyed by id:S; compare them by one key with --key"
run Tbl ByName --db a.db
expect "a sort key on one side only: refused, exit 2" 2
run Tbl Keyed --db a.db --key PK,SK
expect "--key compares tables keyed differently: exit 0 (the same items)" 0
grep -q '^B: Keyed in a.db: 7 items (not in key order: sorted first)$' "$tmp/out" &&
    ok "--key: the table keyed otherwise is read through the sort" || notok "--key: the sort said" "$(cat "$tmp/out")"
run b.jsonl shuffled.jsonl
expect "two export files and no key schema: exit 2" 2
err_has "two export files: asks for --key" "neither side says its key schema (an export file does not): give it with --key"
run b.jsonl shuffled.jsonl --key PK:S,SK:S
expect "two export files with --key: equal, exit 0" 0

run Missing Tbl --db a.db
expect "a table that does not exist: exit 2" 2
err_has "a missing table: named, with where it looked" "A: no table Missing (Missing in a.db), and no file of that name"
run nofile/x.jsonl Tbl --db a.db
err_has "a path that does not exist: no file" "A: no file nofile/x.jsonl"
run a.db Tbl --db a.db
err_has "a database file without a table: asks for FILE:TABLE" "A: a.db is a database file: say which table, a.db:TABLE"
run nope.db:Tbl Tbl --db a.db
err_has "FILE:TABLE of a missing file" "A: no file nope.db (FILE:TABLE"
run Tbl b.jsonl:Tbl --db a.db
expect "FILE:TABLE of a file that names no table: exit 2" 2
err_has "FILE:TABLE of a file that names no table: said" "b.jsonl names no table (it is jsonl): diff it as b.jsonl, without :Tbl"
run - - --db a.db
expect "both sides stdin: exit 2" 2
run Tbl --db a.db
expect "one side only: usage, exit 2" 2
"$DDBX" diff --help >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && grep -q '^usage: ddbx diff A B' "$tmp/out" && grep -q 'backup:NAME, ARN' "$tmp/out" &&
    ok "diff --help: the usage and the kinds of side, exit 0" || notok "diff --help" "exit $st"
run Tbl b.db:Tbl --db a.db --format yaml
expect "an unknown --format: exit 2" 2
run Tbl b.db:Tbl --db a.db --bogus
expect "an unknown option: exit 2" 2
run remote:Tbl Tbl --db a.db
expect "remote:TABLE without an endpoint: exit 2" 2
err_has "remote:TABLE without an endpoint: says which flags" "remote:Tbl needs the endpoint: --endpoint-url URL or --region R"

# --- backups and points in time: the store's key-ordered readers ------------
# A backup of Tbl as a.jsonl left it is the A side: the same changes as
# the table itself (CreateBackup copies every item: API reference,
# CreateBackup; the readers are data/store_backup.h's).
api() { "$DDBX" api --db "$1" >"$tmp/api.out" 2>"$tmp/api.err"; }
cp a.db pa.db
printf '%s\n' '{"Operation":"CreateBackup","Input":{"TableName":"Tbl","BackupName":"before"}}' | api pa.db
arn=$(sed -n 's/.*"BackupArn":"\([^"]*\)".*/\1/p' "$tmp/api.out" | head -n 1)
[ -n "$arn" ] && ok "CreateBackup answers a BackupArn" || notok "CreateBackup" "$(cat "$tmp/api.out" "$tmp/api.err")"
run backup:before b.db:Tbl --db pa.db
expect "backup:NAME against a table: exit 1" 1
changes | cmp -s - "$tmp/text.changes" && ok "backup:NAME: the changes the table itself gives" ||
    notok "backup:NAME: the changes the table itself gives" "$(changes | head -5)" "$(head -c 300 "$tmp/err")"
run Tbl "$arn" --db pa.db
expect "a table against its backup by ARN: exit 0 (nothing changed since)" 0
grep -q '^no differences: 0 added, 0 removed, 0 changed, 7 unchanged$' "$tmp/out" &&
    ok "backup ARN: 'no differences' and the count" || notok "backup ARN: no differences" "$(cat "$tmp/out")"
run backup:nightly Tbl --db pa.db
expect "backup:NAME of no backup: exit 2" 2
err_has "backup:NAME of no backup: says so" "A: backup:nightly: no backup of that name in"
run Tbl arn:aws:dynamodb:us-east-1:123456789012:table/Tbl/backup/01234567890123-abcdefgh --db pa.db
expect "a backup ARN of no backup: exit 2" 2
err_has "a backup ARN of no backup: says so" "B: no backup arn:aws:dynamodb:us-east-1:123456789012:table/Tbl/backup/01234567890123-abcdefgh"
printf '%s\n' '{"Operation":"CreateBackup","Input":{"TableName":"Tbl","BackupName":"before"}}' | api pa.db
run backup:before Tbl --db pa.db
expect "backup:NAME that two backups have: exit 2" 2
err_has "backup:NAME that two backups have: give one's ARN" "A: backup:before: 2 backups have that name; give one's ARN: $arn, "
run Tbl arn:aws:dynamodb:us-east-1:123456789012:table/Tbl --db a.db
err_has "a table ARN is no backup ARN" "is not a backup's ARN (arn:aws:dynamodb:REGION:ACCOUNT:table/TABLE/backup/ID)"

# TABLE@TIME: with point-in-time recovery on, the table as it was before a
# put and a delete (RestoreTableToPointInTime's promise: every change
# committed until then, none after; API reference).
printf '%s\n' '{"Operation":"UpdateContinuousBackups","Input":{"TableName":"Tbl","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}}' | api pa.db
sleep 0.05
then=$(date +%s.%3N)
sleep 0.05
printf '%s\n%s\n' '{"Operation":"PutItem","Input":{"TableName":"Tbl","Item":{"PK":{"S":"ACTOR#zed"},"SK":{"S":"PROFILE"}}}}' \
    '{"Operation":"DeleteItem","Input":{"TableName":"Tbl","Key":{"PK":{"S":"ACTOR#alice"},"SK":{"S":"TARGET#bob"}}}}' | api pa.db
run "Tbl@$then" a.db:Tbl --db pa.db
expect "TABLE@TIME before two writes against the table as it was: exit 0" 0
run "Tbl@$then" Tbl --db pa.db
expect "TABLE@TIME against the table now: exit 1" 1
changes | grep -q '^- PK="ACTOR#alice" SK="TARGET#bob"$' && changes | grep -q '^+ PK="ACTOR#zed" SK="PROFILE"$' &&
    [ "$(changes | wc -l)" -eq 2 ] && ok "TABLE@TIME: the put added, the delete removed, nothing else" ||
    notok "TABLE@TIME: the two writes" "$(changes)" "$(head -c 300 "$tmp/err")"
run "pa.db:Tbl@$then" Tbl --db pa.db
expect "FILE:TABLE@TIME: exit 1" 1
run Tbl@2020-12-01T10:00:00Z Tbl --db pa.db
expect "TABLE@TIME before the log's window: exit 2" 2
err_has "TABLE@TIME before the window: names the side and the moment" "A: Tbl at 2020-12-01T10:00:00Z in pa.db:"
run Nope@2026-12-01T10:00:00Z Tbl --db pa.db
err_has "TABLE@TIME of no table: says so" "A: no table Nope in pa.db"
run Tbl@2026-02-30T10:00:00Z Tbl --db a.db
err_has "TABLE@TIME with no such day: not a time" "A: Tbl@2026-02-30T10:00:00Z: 2026-02-30T10:00:00Z is not a time: ISO 8601"
run Tbl@yesterday Tbl --db a.db
err_has "TABLE@garbage: not a time" "A: Tbl@yesterday: yesterday is not a time"

# --- the progress line: on a terminal only ---------------------------------
run Tbl b.db:Tbl --db a.db
[ ! -s "$tmp/err" ] && ok "no progress line when stderr is not a terminal" || notok "no progress line off a terminal" "$(cat "$tmp/err")"

# --- remote:TABLE on a `ddbx serve` --------------------------------------------
. "$root/tests/lib/serve.sh"
cp b.db served.db
if serve_start served.db "$tmp/srv.out" "$tmp/srv.err"; then
    export AWS_ACCESS_KEY_ID=AKIDDIFFTEST AWS_SECRET_ACCESS_KEY=diffSECRET
    ep=http://127.0.0.1:$serve_port
    run Tbl remote:Tbl --db a.db --endpoint-url "$ep"
    expect "remote:TABLE on ddbx serve: exit 1" 1
    changes | cmp -s - "$tmp/text.changes" && grep -q "^B: remote Tbl at $ep (us-east-1): 7 items\( (not in key order: sorted first)\)\{0,1\} ([0-9.]* read capacity units)$" "$tmp/out" &&
        ok "remote:TABLE: read with Scan, sorted, the same changes" || notok "remote:TABLE: the same changes" "$(cat "$tmp/out" "$tmp/err")"
    run remote:Tbl remote:Tbl --endpoint-url "$ep"
    expect "a remote table against itself: exit 0" 0
    run remote:Nope Tbl --db a.db --endpoint-url "$ep"
    err_has "a missing remote table: named" "A: no table Nope (remote Nope at $ep (us-east-1))"
    "$DDBX" export Tbl --db served.db >after.jsonl
    cmp -s after.jsonl b.jsonl && ok "remote:TABLE is only read" || notok "remote:TABLE is only read"
    kill "$srvpid" 2>/dev/null
    wait "$srvpid" 2>/dev/null
    srvpid=""
else
    notok "ddbx serve started" "$(cat "$tmp/srv.err")"
fi

# --- constant memory ------------------------------------------------------------
# N items a side, 100 a partition; B changes every 9th item's n, drops
# every 50th and adds one item in 100 (a new partition prefix).
gen() { # N SIDE
    awk -v n="$1" -v side="$2" 'BEGIN {
        pad = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij"
        for (i = 0; i < n; i++) {
            v = i
            if (side == "b" && i % 50 == 7) continue
            if (side == "b" && i % 9 == 1) v = -i
            printf "{\"PK\":{\"S\":\"ACTOR#u%d\"},\"SK\":{\"S\":\"TARGET#u%d\"},\"n\":{\"N\":\"%d\"},\"pad\":{\"S\":\"%s\"}}\n", int(i / 100), i, v, pad
            if (side == "b" && i % 100 == 3)
                printf "{\"PK\":{\"S\":\"ACTOR#u%d\"},\"SK\":{\"S\":\"NEW#%d\"}}\n", int(i / 100), i
        }
    }'
}
# Under AddressSanitizer (make asan) freed memory waits in a quarantine
# of up to 256 MB before it is reused, which is the checker's memory, not
# the diff's: the measured runs turn it off.
asan_rss=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0
rss() { # ARGS... -> $kb, $st, output in $tmp/out
    ASAN_OPTIONS=$asan_rss "$peakrss" "$DDBX" diff "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    kb=$(sed -n 's/^peakrss .* maxrss_kb=\([0-9]*\) .*/\1/p' "$tmp/err")
}
for size in 20000 200000; do
    gen $size a >big-a.jsonl
    gen $size b >big-b.jsonl
    awk '{ printf "%07d\t%s\n", (NR * 7919) % 1000003, $0 }' big-b.jsonl | sort | cut -f2- >big-s.jsonl
    load big-a.jsonl Graph big-a.db
    load big-b.jsonl Graph big-b.db
    rss Graph big-b.db:Graph --db big-a.db --format jsonl
    if [ $size = 200000 ]; then
        # On a terminal (tests/lib/onpty.py gives it one) a progress line
        # is drawn on stderr and rewritten in place; stdout stays the report.
        python3 "$root/tests/lib/onpty.py" "$tmp/tty.log" "'$DDBX' diff Graph big-b.db:Graph --db big-a.db >/dev/null" >/dev/null 2>&1
        if grep -q 'diff: A [0-9]* items, B [0-9]* items, [0-9]* differences' "$tmp/tty.log" &&
           perl -ne '$n++ if /\r\e\[K/; END { exit($n ? 0 : 1) }' "$tmp/tty.log"; then
            ok "on a terminal: a progress line on stderr, rewritten in place"
        else
            notok "on a terminal: a progress line" "$(head -c 300 "$tmp/tty.log" | od -c | head -5)"
        fi
    fi
    eval "tt_$size=\$kb tt_st_$size=\$st"
    tail -n 1 "$tmp/out" >"$tmp/sum.tt"
    rss Graph big-s.jsonl --db big-a.db --format jsonl
    eval "tf_$size=\$kb tf_st_$size=\$st"
    tail -n 1 "$tmp/out" >"$tmp/sum.tf"
    removed=$(( (size + 42) / 50 )); changed=$(( (size + 7) / 9 ))
    # Items both dropped and changed count once, as removed.
    both=$(awk -v n="$size" 'BEGIN { for (i = 0; i < n; i++) if (i % 50 == 7 && i % 9 == 1) c++; print c + 0 }')
    want="\"added\":$((size / 100)),\"removed\":$removed,\"changed\":$((changed - both)),\"unchanged\":$((size - removed - changed + both))"
    grep -q "$want" "$tmp/sum.tt" && grep -q "$want" "$tmp/sum.tf" &&
        ok "$size items: table/table and table/unsorted file count $want" ||
        notok "$size items: the counts" "want $want" "$(cat "$tmp/sum.tt" "$tmp/sum.tf")"
    rm -f big-a.db* big-b.db* big-a.jsonl big-b.jsonl big-s.jsonl
done
# The 200k diffs read 10 times the data (about 45 MB a side); their peak
# RSS stays within 6 MB of the 20k ones (caches and the sort's runs are
# bounded; the SQLite page caches are 2 MB a database, 4 MB the spool's).
for kind in tt tf; do
    eval "small=\$${kind}_20000 large=\$${kind}_200000"
    what=$( [ $kind = tt ] && echo "table against table" || echo "table against an unsorted file" )
    if [ -n "$small" ] && [ -n "$large" ] && [ "$large" -le $((small + 6144)) ]; then
        ok "constant memory, $what: peak RSS $small KB at 20k items, $large KB at 200k"
    else
        notok "constant memory, $what" "peak RSS ${small:-?} KB at 20k, ${large:-?} KB at 200k"
    fi
done

echo "1..$n"
exit $rc
