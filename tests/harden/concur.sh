#!/bin/sh
# Concurrency: two `ddbx api` writers, one `ddbx api` reader and the
# explorer (scripted, its keys written through a pipe as the test goes)
# on one database at once, CONCUR_OPS requests each (default 2000). No
# response may be an error (no "database is locked" or busy reaches a
# user), every acknowledged put is there afterwards, and a counter both
# writers bump with UpdateItem ADD ends at exactly the number of
# acknowledged bumps (no lost update). The explorer reloads (R) again and
# again while they write: each reload shows at least every put
# acknowledged before it, new items appear, and the last one shows every
# item in its partition. TAP numbered from $1; the next number on fd 3.
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
# The explorer, scripted: DDBX_SCRIPT is a pipe this script writes while
# the writers run (the explorer reads its script a line at a time). Each
# sample is R (reload), then the screen and the view saved; a third save
# marks the first two complete.
mkdir -p "$tmp/ex"
mkfifo "$tmp/script"
(cd "$tmp/ex" && exec env HOME="$tmp" XDG_CONFIG_HOME="$tmp/cfg" LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    TERM=xterm COLUMNS=120 LINES=40 DDBX_SCRIPT="$tmp/script" DDBX_TIMING="$tmp/timing" \
    "$DDBX" --db "$db" Conc > "$tmp/ex.out" 2> "$tmp/ex.err") &
pe=$!
# Read-write, so opening never blocks even if the explorer died first;
# closing fd 4 is the script's end (the explorer then quits).
exec 4<>"$tmp/script"
trap 'exec 4>&-; kill $pe $pa $pb $pr 2>/dev/null; [ -n "$KEEP" ] && cp -r "$tmp" /tmp/concur-keep; rm -rf "$tmp"' EXIT
samples=0
sample() { # -> $count: the items the explorer's title shows after a reload
    samples=$((samples + 1))
    printf 'R\n:save-display d%d\n:save-view v%d\n:save-display ok%d\n' $samples $samples $samples >&4
    i=0
    while [ ! -f "$tmp/ex/ok$samples" ] && [ $i -lt 300 ] && kill -0 $pe 2>/dev/null; do
        sleep 0.05; i=$((i + 1))
    done
    # The table's total, whatever is selected ("item 2 of N", "partition 1 of 1 · N items",
    # "1 item").
    count=$(sed -E -n 's/^title Conc  base table \(PK, SK\)  (item [0-9]+ of ([0-9]+)|partition [0-9]+ of [0-9]+ · ([0-9]+) items?|([0-9]+) items?).*/\2\3\4/p' \
        "$tmp/ex/v$samples" 2>/dev/null)
    : "${count:=-1}"
}
acked() { # puts acknowledged so far by both writers (each answer is flushed)
    la=$(wc -l < "$tmp/a.resp"); lb=$(wc -l < "$tmp/b.resp")
    echo $(( $(head -n "$la" "$tmp/a.req" | grep -c PutItem) + $(head -n "$lb" "$tmp/b.req" | grep -c PutItem) ))
}
gen_writer A > "$tmp/a.req"
gen_writer B > "$tmp/b.req"
gen_reader > "$tmp/r.req"
sample
first=$count
[ "$first" = "$counter" ]
tap $? "concurrency: the scripted explorer shows the table before the writes ($first items)"
: > "$tmp/a.resp"; : > "$tmp/b.resp"
"$DDBX" api --db "$db" < "$tmp/a.req" > "$tmp/a.resp" 2>"$tmp/a.err" 4>&- &
pa=$!
"$DDBX" api --db "$db" < "$tmp/b.req" > "$tmp/b.resp" 2>"$tmp/b.err" 4>&- &
pb=$!
"$DDBX" api --db "$db" < "$tmp/r.req" > "$tmp/r.resp" 2>"$tmp/r.err" 4>&- &
pr=$!
# Refresh while they write: each reload must show at least every put
# acknowledged before it, never fewer items than the reload before, and
# (some writes being acknowledged before the first) more than at first.
i=0
while [ "$(wc -l < "$tmp/a.resp")" -lt 20 ] && [ $i -lt 200 ] && kill -0 $pa 2>/dev/null; do
    sleep 0.02; i=$((i + 1))
done
during=0; bad=""; prev=$first; rose=0
while kill -0 $pa 2>/dev/null || kill -0 $pb 2>/dev/null; do
    floor=$(( $(acked) + counter ))
    sample
    during=$((during + 1))
    [ "$count" -gt "$first" ] && rose=1
    if [ "$count" -lt "$floor" ] || [ "$count" -lt "$prev" ]; then
        bad="$bad reload $samples: $count items, $floor acknowledged, $prev before;"
    fi
    prev=$count
    sleep 0.05
done
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
[ -z "$bad" ] && [ $during -ge 2 ]
tap $? "concurrency: $during explorer reloads while they wrote, each showing every put acknowledged before it, never fewer than the last${bad:+:$bad}"
[ $rose = 1 ]
tap $? "concurrency: new items appeared in the explorer on refresh while they wrote"
# The last reload, and every partition folded (Z) to read its count.
items=$((want + counter))
printf 'Z\n' >&4
sample
[ "$count" = "$items" ]
tap $? "concurrency: the explorer shows all $items items after the last reload ($count)"
# Folded, a partition is one line: "group wA#3 items=100 bytes=...".
awk -v ops="$OPS" -v counter=$counter '
    $1 == ">" { $1 = "" ; $0 = $0 }
    $1 == "group" && $2 ~ /^w[AB]#/ { sub(/^items=/, "", $3); have[$2] = $3; parts++ }
    END {
        for (w = 0; w < 2; w++) for (p = 0; p < 20; p++) {
            name = (w ? "wB#" : "wA#") p; want = 0
            for (k = 1; k <= ops; k++) if (k % 20 == p && !(counter && k % 4 == 0)) want++
            if (want) wparts++
            if (have[name] + 0 != want) { print name ": " have[name] " items, want " want; bad = 1 }
        }
        if (parts != wparts) { print parts " partitions, want " wparts; bad = 1 }
        print "(" parts " partitions)"
        exit bad
    }' "$tmp/ex/v$samples" > "$tmp/parts"
tap $? "concurrency: each writer partition in the explorer holds exactly its acknowledged puts $(tail -n 1 "$tmp/parts") $(grep -v '^#' "$tmp/parts" | head -n 3 | tr '\n' ' ')"
locked=$(cat "$tmp"/ex/d* "$tmp/ex.err" | grep -ci 'locked\|busy')
tap "$locked" "concurrency: the explorer showed no locked/busy error in $samples reloads ($locked)"
exec 4>&-
i=0; while kill -0 $pe 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
wait $pe
re=$?
reloads=$(grep -c '^key R ' "$tmp/timing" 2>/dev/null)
[ "$re" = 0 ] && [ "$reloads" = "$samples" ]
tap $? "concurrency: the explorer quits with status 0 at the script's end, having timed $reloads reloads ($re)"
[ -n "$reloads" ] && [ "$reloads" -gt 0 ] && sort -n -k3 "$tmp/timing" | awk '/^key R / { t = $3 } END { print "# slowest explorer reload under load: " t " ms" }'
echo "$n" >&3
