#!/bin/sh
# `ddbx serve` (issue 10) hardened (issue 9): the explorer, scripted, open
# on the database the endpoint serves shows writes made through the
# endpoint (the AWS SDK) after a reload; 16 concurrent SDK clients run
# thousands of requests with no error and no lost write or update; and
# malformed requests (bad JSON, no or unknown X-Amz-Target, a body over
# 16 MB, stalled slowloris connections, garbage) get DynamoDB's error
# shapes without holding up other clients. SERVE_CLIENTS and SERVE_OPS
# size the load (default 16 clients x 150 requests). TAP numbered from $1;
# the next number on fd 3. Needs node and the SDK (tests/node).
n=${1:-0}
: "${DDBX:?}" "${BUILD:?}"
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
CLIENTS=${SERVE_CLIENTS:-16}
OPS=${SERVE_OPS:-150}
tap() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - serve: $2"; else echo "not ok $n - serve: $2"; fi
}
finish() { echo "$n" >&3; exit 0; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
if ! node_ready; then
    tap 1 "$node_err"
    finish
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-hserve.XXXXXX") || exit 1
db=$tmp/live.db
srvpid=""; pe=""
cleanup() {
    exec 4>&- 2>/dev/null
    [ -n "$pe" ] && kill "$pe" 2>/dev/null
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# The table and three items, written before the endpoint starts.
{
    printf '%s\n' '{"Operation":"CreateTable","Input":{"TableName":"Live","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}]}}'
    for k in 1 2 3; do
        printf '{"Operation":"PutItem","Input":{"TableName":"Live","Item":{"PK":{"S":"USER#a"},"SK":{"S":"ITEM#%d"},"note":{"S":"original-%d"}}}}\n' $k $k
    done
} | "$DDBX" api --db "$db" > "$tmp/setup" 2>&1
[ "$(grep -c '^{"Output"' "$tmp/setup")" = 4 ]
tap $? "a table of three items"

serve_start "$db" "$tmp/out" "$tmp/err"
port=$serve_port
if [ -z "$port" ]; then
    tap 1 "ddbx serve starts: $(head -c 300 "$tmp/err")"
    finish
fi

# The explorer on the same file, its keys written through a pipe (see
# tests/harden/concur.sh): reload, save the screen and the view.
mkdir -p "$tmp/ex"
mkfifo "$tmp/script"
(cd "$tmp/ex" && exec env HOME="$tmp" XDG_CONFIG_HOME="$tmp/cfg" LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    TERM=xterm COLUMNS=120 LINES=30 DDBX_SCRIPT="$tmp/script" \
    "$DDBX" --db "$db" Live > "$tmp/ex.out" 2> "$tmp/ex.err") &
pe=$!
exec 4<>"$tmp/script"
samples=0
sample() {
    samples=$((samples + 1))
    printf 'R\n:save-display d%d\n:save-view v%d\n:save-display ok%d\n' $samples $samples $samples >&4
    i=0
    while [ ! -f "$tmp/ex/ok$samples" ] && [ $i -lt 300 ] && kill -0 $pe 2>/dev/null; do
        sleep 0.05; i=$((i + 1))
    done
    # The table's total, whatever is selected ("item 2 of N", "partition 1 of 1 · N items",
    # "1 item").
    count=$(sed -E -n 's/^title Live  base table \(PK, SK\)  (item [0-9]+ of ([0-9]+)|partition [0-9]+ of [0-9]+ · ([0-9]+) items?|([0-9]+) items?).*/\2\3\4/p' \
        "$tmp/ex/v$samples" 2>/dev/null)
}
sample
grep -q 'ITEM#2' "$tmp/ex/v1" && [ "$count" = 3 ]
tap $? "the explorer shows the three items while ddbx serve has the file open ($count)"
NODE_NO_WARNINGS=1 timeout 60 node "$root/tests/harden/serve_load.js" "$port" write Live > "$tmp/w" 2>&1
wrc=$?
sed 's/^/# /' "$tmp/w"
tap $wrc "a put, an update and a delete through the endpoint (AWS SDK)"
sample
grep -q 'FROM#endpoint' "$tmp/ex/v2" && grep -q 'FROM#endpoint' "$tmp/ex/d2"
tap $? "after a reload the explorer shows the item put through the endpoint, on screen"
grep -q 'updated-through-serve' "$tmp/ex/d2" && ! grep -q 'original-1' "$tmp/ex/d2"
tap $? "and the updated value in place of the old one"
! grep -q 'ITEM#2' "$tmp/ex/v2" && [ "$count" = 3 ]
tap $? "and no longer the deleted item ($count items)"
exec 4>&-
i=0; while kill -0 $pe 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
wait $pe
tap $? "the explorer quits with status 0 at the script's end"
pe=""

# Load and abuse.
NODE_NO_WARNINGS=1 timeout 300 node "$root/tests/harden/serve_load.js" "$port" load "$CLIENTS" "$OPS" > "$tmp/load" 2>"$tmp/load.err"
lrc=$?
while IFS= read -r line; do
    case "$line" in
    'ok - '*) tap 0 "${line#ok - }" ;;
    'not ok - '*) tap 1 "${line#not ok - }" ;;
    *) echo "$line" ;;
    esac
done < "$tmp/load"
[ -s "$tmp/load.err" ] && head -c 1500 "$tmp/load.err" | sed 's/^/# stderr: /'
[ $lrc = 0 ] || grep -q '^not ok' "$tmp/load" || tap 1 "serve_load.js exited $lrc"

kill -TERM "$srvpid"
i=0; while kill -0 "$srvpid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
wait "$srvpid"
tap $? "ddbx serve stops cleanly after all that"
srvpid=""
"$BUILD/tests/tools/dbcheck" "$db" Load > /dev/null 2>"$tmp/chk"
tap $? "the database passes integrity_check $(head -c 200 "$tmp/chk")"
finish
