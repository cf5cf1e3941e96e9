#!/bin/sh
# --read-only: every subcommand opens the database so that no write can
# happen. Writes through `ddbx api` are errors, reads work; `ddbx load`
# and `ddbx samples` fail; the database file is byte-for-byte unchanged;
# a missing database is not created. TAP numbered from $1; next on fd 3.
n=${1:-0}
: "${DDBX:?}" "${BUILD:?}"
DBCHECK=$BUILD/tests/tools/dbcheck
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-ro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/ro.db
tap() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
key='"Key":{"PK":{"S":"k"},"SK":{"S":"1"}}'
printf '%s\n' \
  '{"Operation":"CreateTable","Input":{"TableName":"RoT","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}]}}' \
  '{"Operation":"PutItem","Input":{"TableName":"RoT","Item":{"PK":{"S":"k"},"SK":{"S":"1"},"n":{"N":"1"}}}}' \
  | "$DDBX" api --db "$db" > "$tmp/setup" 2>&1
[ "$(grep -c '^{"Output"' "$tmp/setup")" = 2 ]
tap $? "read-only: database with one item prepared"
"$DBCHECK" "$db" RoT > "$tmp/keys.before" 2>/dev/null
sum() { cat "$db" "$db-wal" 2>/dev/null | cksum; }
before=$(sum)

printf '%s\n' \
  "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"RoT\",\"Item\":{\"PK\":{\"S\":\"new\"},\"SK\":{\"S\":\"1\"}}}}" \
  "{\"Operation\":\"UpdateItem\",\"Input\":{\"TableName\":\"RoT\",$key,\"UpdateExpression\":\"SET n = :v\",\"ExpressionAttributeValues\":{\":v\":{\"N\":\"2\"}}}}" \
  "{\"Operation\":\"DeleteItem\",\"Input\":{\"TableName\":\"RoT\",$key}}" \
  "{\"Operation\":\"BatchWriteItem\",\"Input\":{\"RequestItems\":{\"RoT\":[{\"DeleteRequest\":{$key}}]}}}" \
  "{\"Operation\":\"TransactWriteItems\",\"Input\":{\"TransactItems\":[{\"Delete\":{\"TableName\":\"RoT\",$key}}]}}" \
  '{"Operation":"DeleteTable","Input":{"TableName":"RoT"}}' \
  '{"Operation":"CreateTable","Input":{"TableName":"Ro2","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}]}}' \
  > "$tmp/writes"
"$DDBX" api --read-only --db "$db" < "$tmp/writes" > "$tmp/wresp" 2>"$tmp/err"
rc=$?
errs=$(grep -c '^{"Error":{"Code":"ReadOnly"' "$tmp/wresp")
[ $rc = 0 ] && [ "$errs" = 7 ]
tap $? "read-only: ddbx api refuses all 7 kinds of write ($errs errors): $(cut -c1-90 "$tmp/wresp" | sort -u | head -n 2 | tr '\n' ' ')"

printf '%s\n' "{\"Operation\":\"GetItem\",\"Input\":{\"TableName\":\"RoT\",$key}}" '{"Operation":"Scan","Input":{"TableName":"RoT"}}' \
    | "$DDBX" --read-only api --db "$db" > "$tmp/rresp" 2>&1
grep -q '"n":{"N":"1"}' "$tmp/rresp" && [ "$(grep -c '^{"Output"' "$tmp/rresp")" = 2 ]
tap $? "read-only: reads work (flag before or after the subcommand)"

printf '%s\n' '{"PK":{"S":"loaded"},"SK":{"S":"1"}}' > "$tmp/items.jsonl"
"$DDBX" load "$tmp/items.jsonl" --table RoT --read-only --db "$db" > /dev/null 2>&1
[ $? != 0 ]
tap $? "read-only: ddbx load fails"
"$DDBX" samples --read-only --db "$db" > /dev/null 2>&1
[ $? != 0 ]
tap $? "read-only: ddbx samples fails"

[ "$(sum)" = "$before" ]
tap $? "read-only: the database file is unchanged"
"$DBCHECK" "$db" RoT > "$tmp/keys.after" 2>/dev/null
cmp -s "$tmp/keys.before" "$tmp/keys.after"
tap $? "read-only: same items, integrity ok"

printf '%s\n' '{"Operation":"ListTables","Input":{}}' | "$DDBX" api --read-only --db "$tmp/none.db" > /dev/null 2>&1
rc=$?
[ $rc != 0 ] && [ ! -e "$tmp/none.db" ]
tap $? "read-only: a missing database is an error and is not created (exit $rc)"
echo "$n" >&3
