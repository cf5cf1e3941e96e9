#!/bin/sh
# Concurrency: two `ddbx api` writers, one `ddbx api` reader and (with
# tmux) the explorer reloading, on one
# database at once, CONCUR_OPS requests each (default 2000). No response
# may be an error (no "database is locked" or busy reaches a user), every
# acknowledged put is there afterwards, and a counter both writers bump
# with UpdateItem ADD ends at exactly the number of acknowledged bumps (no
# lost update). TAP numbered from $1; the next number on fd 3.
n=${1:-0}
: "${DDBX:?}" "${BUILD:?}"
DBCHECK=$BUILD/tests/tools/dbcheck
OPS=${CONCUR_OPS:-2000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-concur.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/c.db
tap() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

printf '%s\n' '{"Operation":"CreateTable","Input":{"TableName":"Conc","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"},{"AttributeName":"G","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"GlobalSecondaryIndexes":[{"IndexName":"ByG","KeySchema":[{"AttributeName":"G","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}}' \
    | "$DDBX" api --db "$db" > "$tmp/create" 2>&1
grep -q '^{"Output"' "$tmp/create"
tap $? "concurrency: table created"

# Is UpdateItem with ADD there yet? Then writers also bump one counter.
bump='{"Operation":"UpdateItem","Input":{"TableName":"Conc","Key":{"PK":{"S":"counter"},"SK":{"S":"0"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}}'
# The probe's bump counts: the counter starts at 1 when it worked.
printf '%s\n' "$bump" | "$DDBX" api --db "$db" > "$tmp/probe" 2>&1
if grep -q '^{"Output"' "$tmp/probe"; then counter=1; else counter=0; echo "# UpdateItem ADD not available: no counter"; fi

gen_writer() { # name
    awk -v w="$1" -v m="$OPS" -v counter=$counter -v bump="$bump" 'BEGIN {
        for (k = 1; k <= m; k++) {
            if (counter && k % 4 == 0) { print bump; continue }
            printf "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Conc\",\"Item\":{\"PK\":{\"S\":\"w%s#%d\"},\"SK\":{\"S\":\"%06d\"},\"G\":{\"S\":\"g%d\"},\"v\":{\"S\":\"%0200d\"}}}}\n", w, k % 20, k, k % 7, k
        }
    }'
}
gen_reader() {
    awk -v m="$OPS" 'BEGIN {
        for (k = 1; k <= m; k++) {
            if (k % 3 == 0)
                printf "{\"Operation\":\"Query\",\"Input\":{\"TableName\":\"Conc\",\"KeyConditionExpression\":\"PK = :p\",\"ExpressionAttributeValues\":{\":p\":{\"S\":\"wA#%d\"}},\"Limit\":20}}\n", k % 20
            else if (k % 3 == 1)
                printf "{\"Operation\":\"Scan\",\"Input\":{\"TableName\":\"Conc\",\"IndexName\":\"ByG\",\"Limit\":50}}\n"
            else
                printf "{\"Operation\":\"GetItem\",\"Input\":{\"TableName\":\"Conc\",\"Key\":{\"PK\":{\"S\":\"wB#%d\"},\"SK\":{\"S\":\"%06d\"}}}}\n", k % 20, k
        }
    }'
}
# The explorer watches in a real terminal when tmux is there: it reloads
# (R) while the writers run and must show every item after a last reload.
sock="ddbx-concur-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
explorer=0
if command -v tmux >/dev/null 2>&1; then
    explorer=1
    trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
    T new-session -d -s t -x 100 -y 30 \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen HOME=$tmp sh -c '$DDBX --db $db Conc; echo rc=\$? > $tmp/explorer.rc; sleep 30'"
fi
screen_has() { # text: waits up to 10 s for it on the explorer's screen
    i=0
    while [ $i -lt 100 ]; do
        T capture-pane -p -t t 2>/dev/null | grep -qF -- "$1" && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
gen_writer A > "$tmp/a.req"
gen_writer B > "$tmp/b.req"
gen_reader > "$tmp/r.req"
"$DDBX" api --db "$db" < "$tmp/a.req" > "$tmp/a.resp" 2>"$tmp/a.err" &
pa=$!
"$DDBX" api --db "$db" < "$tmp/b.req" > "$tmp/b.resp" 2>"$tmp/b.err" &
pb=$!
"$DDBX" api --db "$db" < "$tmp/r.req" > "$tmp/r.resp" 2>"$tmp/r.err" &
pr=$!
if [ $explorer = 1 ]; then
    while kill -0 $pa 2>/dev/null || kill -0 $pb 2>/dev/null; do
        T send-keys -t t R j
        sleep 0.2
    done
fi
wait $pa; ra=$?
wait $pb; rb=$?
wait $pr; rr=$?
tap $((ra + rb + rr)) "concurrency: two writers and a reader ran $OPS requests each and exited 0"

for w in a b r; do
    got=$(wc -l < "$tmp/$w.resp")
    errs=$(grep -vc '^{"Output"' "$tmp/$w.resp")
    if [ "$got" -eq "$OPS" ] && [ "$errs" -eq 0 ]; then
        tap 0 "concurrency: $w: $OPS answers, all Output"
    else
        tap 1 "concurrency: $w: $got answers, $errs not Output: $(grep -v '^{"Output"' "$tmp/$w.resp" | sort | uniq -c | head -n 3 | cut -c1-200)"
    fi
done
locked=$(cat "$tmp"/*.resp "$tmp"/*.err | grep -ci 'locked\|busy')
tap "$locked" "concurrency: no \"database is locked\" or busy error reached a user ($locked)"

"$DBCHECK" "$db" Conc > "$tmp/keys" 2>"$tmp/err"
tap $? "concurrency: database passes integrity_check"
want=$(awk '/PutItem/ { n++ } END { print n + 0 }' "$tmp/a.req" "$tmp/b.req")
have=$(grep -c '^w[AB]#' "$tmp/keys")
[ "$have" -eq "$want" ]
tap $? "concurrency: all $want acknowledged puts are there ($have)"
if [ $counter = 1 ]; then
    bumps=$(grep -c UpdateItem "$tmp/a.req" "$tmp/b.req" | awk -F: '{ s += $2 } END { print s + 1 }')
    val=$(printf '%s\n' '{"Operation":"GetItem","Input":{"TableName":"Conc","Key":{"PK":{"S":"counter"},"SK":{"S":"0"}},"ConsistentRead":true}}' \
        | "$DDBX" api --db "$db" | sed -n 's/.*"n":{"N":"\([0-9]*\)".*/\1/p')
    [ "$val" = "$bumps" ]
    tap $? "concurrency: counter bumped by both writers is $bumps ($val): no lost update"
fi
if [ $explorer = 1 ]; then
    T send-keys -t t R
    items=$((want + counter))
    screen_has "Conc  base table (PK, SK)  $items items"
    tap $? "concurrency: the explorer, reloading while they wrote, shows all $items items after R"
    T capture-pane -p -t t | grep -qi 'locked\|busy'
    tap "$([ $? != 0 ]; echo $?)" "concurrency: the explorer showed no locked/busy error"
    T send-keys -t t Q
    i=0; while [ $i -lt 50 ] && [ ! -s "$tmp/explorer.rc" ]; do sleep 0.1; i=$((i + 1)); done
    grep -q rc=0 "$tmp/explorer.rc" 2>/dev/null
    tap $? "concurrency: the explorer quits with status 0"
fi
echo "$n" >&3
