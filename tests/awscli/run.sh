#!/bin/sh
# The `aws` command line against `ddbx serve`: every operation the store
# has, called as `aws dynamodb ... --endpoint-url http://127.0.0.1:PORT`
# with dummy credentials and region in the environment (no config file
# read), the outputs checked with the CLI's own --query. Also the CLI's
# error exit and message for ConditionalCheckFailedException and a
# cancelled transaction, and its paginator joining query and scan pages
# (--page-size, --max-items, --starting-token); backups and
# point-in-time recovery. Prints TAP.
#
# Needs the aws command line (Debian's awscli, installed by tools/deps.sh;
# AWS=/path/to/aws picks another). Without it this suite FAILS, it never
# skips.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
. "$root/tests/lib/serve.sh"
: "${DDBX:=$root/build/ddbx}"
: "${AWS:=aws}"

fail() { echo "not ok 1 - awscli: $*"; exit 1; }
command -v "$AWS" >/dev/null 2>&1 ||
    fail "the aws command line is not installed (make deps installs Debian's awscli; or set AWS=)"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-awscli.XXXXXX") || exit 1
srvpid=""
cleanup() {
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null && wait "$srvpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# A fast TTL sweep, so an expired item goes while the suite waits.
serve_start "$tmp/cli.db" "$tmp/out" "$tmp/err" --ttl-interval 0.2
port=$serve_port
[ -n "$port" ] || fail "ddbx serve did not start: $(head -c 500 "$tmp/err")"

# Dummy credentials and region, nothing read from the user's files, one
# attempt (an error must surface, not be retried), no pager.
mkdir -p "$tmp/home"
A() {
    env -u AWS_PROFILE -u AWS_DEFAULT_PROFILE -u AWS_SESSION_TOKEN -u AWS_CA_BUNDLE \
        HOME="$tmp/home" AWS_CONFIG_FILE="$tmp/home/none" AWS_SHARED_CREDENTIALS_FILE="$tmp/home/none" \
        AWS_ACCESS_KEY_ID=AKIDDDBXCLITEST AWS_SECRET_ACCESS_KEY=not-a-secret \
        AWS_DEFAULT_REGION=us-east-1 AWS_REGION=us-east-1 AWS_PAGER= \
        AWS_MAX_ATTEMPTS=1 AWS_RETRY_MODE=standard AWS_EC2_METADATA_DISABLED=true \
        "$AWS" dynamodb "$@" --endpoint-url "http://127.0.0.1:$port" --output "$OUT"
}
# Text output, except where the CLI's paginator is at work: there --query
# applies to each page in text and to the joined pages in JSON.
OUT=text
n=0; bad=0
# check WHAT WANT COMMAND...: the command's stdout (whitespace squeezed)
# must equal WANT and its exit status be 0.
check() {
    what=$1; want=$2; shift 2
    n=$((n + 1))
    A "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    got=$(tr -d '[]",' < "$tmp/stdout" | tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//')
    if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
        echo "ok $n - awscli: $what"
    else
        echo "not ok $n - awscli: $what"
        echo "#   want: $want"
        echo "#   got:  $(printf '%s' "$got" | cut -c1-300) (exit $rc)"
        sed 's/^/#   stderr: /' "$tmp/stderr" | head -n 5
        bad=1
    fi
}
# refused WHAT ERROR COMMAND...: a non-zero exit and the error's name on
# stderr, as the CLI prints DynamoDB's error shape.
refused() {
    what=$1; want=$2; shift 2
    n=$((n + 1))
    A "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [ $rc -ne 0 ] && grep -q -- "$want" "$tmp/stderr"; then
        echo "ok $n - awscli: $what (exit $rc)"
    else
        echo "not ok $n - awscli: $what: exit $rc"
        sed 's/^/#   /' "$tmp/stderr" "$tmp/stdout" | head -n 8
        bad=1
    fi
}
echo "# $("$AWS" --version 2>&1 | head -n 1)"

T=CliGraph
check "create-table with a GSI" "CliGraph ACTIVE GSI1" \
    create-table --table-name $T --billing-mode PAY_PER_REQUEST \
    --attribute-definitions AttributeName=PK,AttributeType=S AttributeName=SK,AttributeType=S \
        AttributeName=GSI1PK,AttributeType=S AttributeName=GSI1SK,AttributeType=S \
    --key-schema AttributeName=PK,KeyType=HASH AttributeName=SK,KeyType=RANGE \
    --global-secondary-indexes '[{"IndexName":"GSI1","KeySchema":[{"AttributeName":"GSI1PK","KeyType":"HASH"},{"AttributeName":"GSI1SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]' \
    --query '[TableDescription.TableName, `ACTIVE`, TableDescription.GlobalSecondaryIndexes[0].IndexName]'
check "describe-table (the state the CLI's waiters poll for)" "ACTIVE PK HASH SK RANGE" \
    describe-table --table-name $T --query '[Table.TableStatus, Table.KeySchema[0].AttributeName, Table.KeySchema[0].KeyType, Table.KeySchema[1].AttributeName, Table.KeySchema[1].KeyType]'
check "list-tables" "TABLENAMES CliGraph" list-tables

edge='{"PK":{"S":"ACTOR#alice"},"SK":{"S":"TARGET#bob"},"GSI1PK":{"S":"TARGET#bob"},"GSI1SK":{"S":"ACTOR#alice"},"since":{"S":"2024-01-02"}}'
check "put-item with attribute_not_exists(PK)" "" \
    put-item --table-name $T --item "$edge" --condition-expression 'attribute_not_exists(PK)'
refused "the same put-item again: ConditionalCheckFailedException" ConditionalCheckFailedException \
    put-item --table-name $T --item "$edge" --condition-expression 'attribute_not_exists(PK)'
check "get-item (consistent read, projection)" "2024-01-02 TARGET#bob" \
    get-item --table-name $T --consistent-read --key '{"PK":{"S":"ACTOR#alice"},"SK":{"S":"TARGET#bob"}}' \
    --projection-expression 'since, GSI1PK' --query '[Item.since.S, Item.GSI1PK.S]'
check "update-item SET and ADD, return-values ALL_NEW (non-ASCII value)" "앨리스 1" \
    update-item --table-name $T --key '{"PK":{"S":"ACTOR#alice"},"SK":{"S":"PROFILE"}}' \
    --update-expression 'SET #n = :n ADD followingCount :one' \
    --expression-attribute-names '{"#n":"name"}' \
    --expression-attribute-values '{":n":{"S":"앨리스"},":one":{"N":"1"}}' \
    --return-values ALL_NEW --query '[Attributes.name.S, Attributes.followingCount.N]'

# batch-write-item: 25 followers of bob, from a file as people do.
{
    printf '{"%s":[' "$T"
    i=0
    while [ $i -lt 25 ]; do
        who=$(printf 'ACTOR#u%02d' $i)
        [ $i -gt 0 ] && printf ','
        printf '{"PutRequest":{"Item":{"PK":{"S":"%s"},"SK":{"S":"TARGET#bob"},"GSI1PK":{"S":"TARGET#bob"},"GSI1SK":{"S":"%s"}}}}' "$who" "$who"
        i=$((i + 1))
    done
    printf ']}'
} > "$tmp/batch.json"
check "batch-write-item of 25 puts from a file" "0" \
    batch-write-item --request-items "file://$tmp/batch.json" --query 'length(keys(UnprocessedItems))'

# The CLI's paginator: 4 items a request, 10 items an answer, then resumed
# from its NextToken; 26 followers in sort-key order.
OUT=json
check "query on GSI1, paginated by the CLI (--page-size 4, all 26)" "26 ACTOR#alice ACTOR#u00 ACTOR#u24" \
    query --table-name $T --index-name GSI1 --page-size 4 \
    --key-condition-expression 'GSI1PK = :t AND begins_with(GSI1SK, :a)' \
    --expression-attribute-values '{":t":{"S":"TARGET#bob"},":a":{"S":"ACTOR#"}}' \
    --query '[length(Items), Items[0].GSI1SK.S, Items[1].GSI1SK.S, Items[25].GSI1SK.S]'
A query --table-name $T --index-name GSI1 --page-size 4 --max-items 10 \
    --key-condition-expression 'GSI1PK = :t' --expression-attribute-values '{":t":{"S":"TARGET#bob"}}' \
    > "$tmp/page1" 2>"$tmp/stderr"
token=$(sed -n 's/^ *"NextToken": "\(.*\)",\{0,1\}$/\1/p' "$tmp/page1")
n=$((n + 1))
if [ -n "$token" ] && [ "$(grep -c '"GSI1SK"' "$tmp/page1")" -eq 10 ]; then
    echo "ok $n - awscli: query --max-items 10: 10 items and a NextToken"
else
    echo "not ok $n - awscli: query --max-items 10: 10 items and a NextToken"
    head -c 600 "$tmp/page1" "$tmp/stderr" | sed 's/^/#   /'
    bad=1
fi
check "query --starting-token: the other 16, from ACTOR#u09" "16 ACTOR#u09 ACTOR#u24" \
    query --table-name $T --index-name GSI1 --page-size 4 --starting-token "$token" \
    --key-condition-expression 'GSI1PK = :t' --expression-attribute-values '{":t":{"S":"TARGET#bob"}}' \
    --query '[length(Items), Items[0].GSI1SK.S, Items[15].GSI1SK.S]'
check "scan paginated by the CLI (--page-size 5): all 27 items" "27" \
    scan --table-name $T --page-size 5 --query 'length(Items)'
OUT=text

check "batch-get-item (one key absent)" "ACTOR#alice ACTOR#u03" \
    batch-get-item --request-items "{\"$T\":{\"Keys\":[{\"PK\":{\"S\":\"ACTOR#u03\"},\"SK\":{\"S\":\"TARGET#bob\"}},{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},{\"PK\":{\"S\":\"ACTOR#none\"},\"SK\":{\"S\":\"X\"}}]}}" \
    --query "sort(Responses.$T[].PK.S)"

follow() { # who whom
    printf '[{"Put":{"TableName":"%s","Item":{"PK":{"S":"ACTOR#%s"},"SK":{"S":"TARGET#%s"},"GSI1PK":{"S":"TARGET#%s"},"GSI1SK":{"S":"ACTOR#%s"}},"ConditionExpression":"attribute_not_exists(PK)"}},' "$T" "$1" "$2" "$2" "$1"
    printf '{"Update":{"TableName":"%s","Key":{"PK":{"S":"ACTOR#%s"},"SK":{"S":"PROFILE"}},"UpdateExpression":"ADD followingCount :one","ExpressionAttributeValues":{":one":{"N":"1"}}}},' "$T" "$1"
    printf '{"Update":{"TableName":"%s","Key":{"PK":{"S":"ACTOR#%s"},"SK":{"S":"PROFILE"}},"UpdateExpression":"ADD followerCount :one","ExpressionAttributeValues":{":one":{"N":"1"}}}}]' "$T" "$2"
}
follow alice carol > "$tmp/follow.json"
check "transact-write-items: a follow and both counters" "" \
    transact-write-items --transact-items "file://$tmp/follow.json"
refused "the same transaction again: TransactionCanceledException" TransactionCanceledException \
    transact-write-items --transact-items "file://$tmp/follow.json"
n=$((n + 1))
if grep -q 'ConditionalCheckFailed, None, None' "$tmp/stderr"; then
    echo "ok $n - awscli: its cancellation reasons, as the CLI prints them"
else
    echo "not ok $n - awscli: its cancellation reasons, as the CLI prints them"
    sed 's/^/#   /' "$tmp/stderr" | head -n 5
    bad=1
fi
check "transact-get-items: the counters, the cancelled transaction wrote nothing" "2 1" \
    transact-get-items --transact-items "[{\"Get\":{\"TableName\":\"$T\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}}}},{\"Get\":{\"TableName\":\"$T\",\"Key\":{\"PK\":{\"S\":\"ACTOR#carol\"},\"SK\":{\"S\":\"PROFILE\"}}}}]" \
    --query '[Responses[0].Item.followingCount.N, Responses[1].Item.followerCount.N]'
# PartiQL (dynalite has none: expectations from the developer guide's
# PartiQL pages): a SELECT fixing the partition key is a Query; INSERT of
# an existing key is DuplicateItemException; a transaction is all or
# nothing, its reasons one a statement.
check "execute-statement: SELECT on a partition, parameters, capacity" "TARGET#bob 0.5" \
    execute-statement --statement "SELECT SK FROM \"$T\" WHERE PK = ? AND begins_with(SK, 'TARGET#')" \
    --parameters '[{"S":"ACTOR#u03"}]' --return-consumed-capacity TOTAL \
    --query '[Items[0].SK.S, ConsumedCapacity.CapacityUnits]'
check "execute-statement: INSERT" "" \
    execute-statement --statement "INSERT INTO $T VALUE {'PK': 'ACTOR#pq', 'SK': 'PROFILE', 'n': 1}"
refused "execute-statement: the same INSERT again: DuplicateItemException" DuplicateItemException \
    execute-statement --statement "INSERT INTO $T VALUE {'PK': 'ACTOR#pq', 'SK': 'PROFILE'}"
check "execute-statement: UPDATE ... RETURNING ALL NEW *" "2" \
    execute-statement --statement "UPDATE $T SET n = n + 1 WHERE PK = 'ACTOR#pq' AND SK = 'PROFILE' RETURNING ALL NEW *" \
    --query 'Items[0].n.N'
refused "execute-statement: UPDATE of no item: ConditionalCheckFailedException" ConditionalCheckFailedException \
    execute-statement --statement "UPDATE $T SET n = 1 WHERE PK = 'ACTOR#none' AND SK = 'PROFILE'"
refused "execute-statement: a syntax error: ValidationException" "Statement wasn't well formed" \
    execute-statement --statement "SELECT * FROM $T WHERE"
check "batch-execute-statement: two reads, one item missing" "ACTOR#pq ACTOR#zz" \
    batch-execute-statement --statements "[{\"Statement\":\"SELECT PK FROM $T WHERE PK = 'ACTOR#pq' AND SK = 'PROFILE'\"},{\"Statement\":\"SELECT PK FROM $T WHERE PK = ? AND SK = 'PROFILE'\",\"Parameters\":[{\"S\":\"ACTOR#zz\"}]}]" \
    --query '[Responses[0].Item.PK.S, length(Responses) == `2` && `"ACTOR#zz"` || `"bad"`]'
refused "execute-transaction: an INSERT of an existing key cancels it" TransactionCanceledException \
    execute-transaction --transact-statements "[{\"Statement\":\"INSERT INTO $T VALUE {'PK': 'ACTOR#pq2', 'SK': 'PROFILE'}\"},{\"Statement\":\"INSERT INTO $T VALUE {'PK': 'ACTOR#pq', 'SK': 'PROFILE'}\"}]"
n=$((n + 1))
if grep -q 'None, DuplicateItem' "$tmp/stderr"; then
    echo "ok $n - awscli: execute-transaction's cancellation reasons"
else
    echo "not ok $n - awscli: execute-transaction's cancellation reasons"
    sed 's/^/#   /' "$tmp/stderr" | head -n 5
    bad=1
fi
check "execute-statement: the cancelled transaction wrote nothing" "0" \
    execute-statement --statement "SELECT * FROM $T WHERE PK = 'ACTOR#pq2'" --query 'length(Items)'
check "execute-transaction: DELETE and EXISTS, with a client request token" "" \
    execute-transaction --client-request-token pq-cli-1 --transact-statements "[{\"Statement\":\"DELETE FROM $T WHERE PK = 'ACTOR#pq' AND SK = 'PROFILE'\"},{\"Statement\":\"EXISTS(SELECT * FROM $T WHERE PK = 'ACTOR#alice' AND SK = 'PROFILE')\"}]"
# UpdateTable on a table that holds data (API reference: the new index
# is backfilled; its answer shows it CREATING), TTL, tags, and a
# transaction's ClientRequestToken (the same request again is not
# applied again).
check "update-table creates a GSI on a table with items (answer: CREATING)" "CREATING" \
    update-table --table-name $T --attribute-definitions AttributeName=SK,AttributeType=S \
    --global-secondary-index-updates '[{"Create":{"IndexName":"BySK","KeySchema":[{"AttributeName":"SK","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}}]' \
    --query "TableDescription.GlobalSecondaryIndexes[?IndexName=='BySK'].IndexStatus"
check "describe-table: the new GSI ACTIVE, backfilled with every item" "ACTIVE 29" \
    describe-table --table-name $T --query "Table.GlobalSecondaryIndexes[?IndexName=='BySK'].[IndexStatus, ItemCount]"
check "query the new GSI: the PROFILE items of alice and carol" "2" \
    query --table-name $T --index-name BySK --key-condition-expression 'SK = :s' \
    --expression-attribute-values '{":s":{"S":"PROFILE"}}' --select COUNT --query Count
check "update-table deletes it" "DELETING" \
    update-table --table-name $T --global-secondary-index-updates '[{"Delete":{"IndexName":"BySK"}}]' \
    --query "TableDescription.GlobalSecondaryIndexes[?IndexName=='BySK'].IndexStatus"
refused "update-table with two index creates: LimitExceededException" LimitExceededException \
    update-table --table-name $T --attribute-definitions AttributeName=SK,AttributeType=S \
    --global-secondary-index-updates '[{"Create":{"IndexName":"A1x","KeySchema":[{"AttributeName":"SK","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}},{"Create":{"IndexName":"A2x","KeySchema":[{"AttributeName":"SK","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]'
check "update-time-to-live" "ttl True" \
    update-time-to-live --table-name $T --time-to-live-specification Enabled=true,AttributeName=ttl \
    --query '[TimeToLiveSpecification.AttributeName, TimeToLiveSpecification.Enabled]'
check "describe-time-to-live" "ENABLED ttl" \
    describe-time-to-live --table-name $T --query '[TimeToLiveDescription.TimeToLiveStatus, TimeToLiveDescription.AttributeName]'
check "put-item of an item whose ttl is past" "" \
    put-item --table-name $T --item '{"PK":{"S":"ACTOR#gone"},"SK":{"S":"SESSION"},"ttl":{"N":"1700000000"}}'
i=0
while [ $i -lt 50 ]; do
    A get-item --table-name $T --key '{"PK":{"S":"ACTOR#gone"},"SK":{"S":"SESSION"}}' --query 'Item.PK.S' \
        > "$tmp/ttl.out" 2>/dev/null
    grep -q 'ACTOR#gone' "$tmp/ttl.out" || break
    sleep 0.1
    i=$((i + 1))
done
check "the sweep of ddbx serve (--ttl-interval 0.2) deleted it" "None" \
    get-item --table-name $T --key '{"PK":{"S":"ACTOR#gone"},"SK":{"S":"SESSION"}}' --query 'Item.PK.S'
arn=arn:aws:dynamodb:us-east-1:000000000000:table/$T
check "tag-resource" "" tag-resource --resource-arn $arn --tags Key=team,Value=graph Key=env,Value=dev
check "list-tags-of-resource" "env dev team graph" list-tags-of-resource --resource-arn $arn \
    --query 'Tags[].[Key, Value]'
check "untag-resource" "" untag-resource --resource-arn $arn --tag-keys env
check "list-tags-of-resource after untag" "team" list-tags-of-resource --resource-arn $arn --query 'Tags[].Key'
tok="[{\"Update\":{\"TableName\":\"$T\",\"Key\":{\"PK\":{\"S\":\"ACTOR#tok\"},\"SK\":{\"S\":\"PROFILE\"}},\"UpdateExpression\":\"ADD n :one\",\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}}]"
check "transact-write-items with a client request token" "" \
    transact-write-items --client-request-token cli-tok-1 --transact-items "$tok"
check "the same again: success, not applied again" "" \
    transact-write-items --client-request-token cli-tok-1 --transact-items "$tok"
check "the counter went up once" "1" \
    get-item --table-name $T --key '{"PK":{"S":"ACTOR#tok"},"SK":{"S":"PROFILE"}}' --query 'Item.n.N'
refused "the token with another request: IdempotentParameterMismatchException" IdempotentParameterMismatchException \
    transact-write-items --client-request-token cli-tok-1 --transact-items "[{\"Delete\":{\"TableName\":\"$T\",\"Key\":{\"PK\":{\"S\":\"ACTOR#tok\"},\"SK\":{\"S\":\"PROFILE\"}}}}]"
# Backups and point-in-time recovery (the API reference's operations and
# shapes; dynalite and DynamoDB Local 3.3 have none of them).
check "create-backup" "cli-backup USER CREATING" \
    create-backup --table-name $T --backup-name cli-backup \
    --query 'BackupDetails.[BackupName, BackupType, BackupStatus]'
bk=$(A list-backups --table-name $T --query 'BackupSummaries[0].BackupArn' 2>/dev/null)
check "list-backups" "cli-backup AVAILABLE USER" \
    list-backups --table-name $T --query 'BackupSummaries[].[BackupName, BackupStatus, BackupType]'
check "describe-backup: the source table and its GSI" "CliGraph GSI1" \
    describe-backup --backup-arn "$bk" \
    --query 'BackupDescription.[SourceTableDetails.TableName, SourceTableFeatureDetails.GlobalSecondaryIndexes[0].IndexName]'
check "restore-table-from-backup" "CliCopy True" \
    restore-table-from-backup --target-table-name CliCopy --backup-arn "$bk" \
    --query 'TableDescription.[TableName, RestoreSummary.RestoreInProgress]'
OUT=json
items=$(A scan --table-name $T --query 'length(Items)' 2>/dev/null)
check "the restored table holds every item ($items)" "$items" scan --table-name CliCopy --query 'length(Items)'
OUT=text
refused "restore-table-from-backup onto an existing table: TableAlreadyExistsException" TableAlreadyExistsException \
    restore-table-from-backup --target-table-name $T --backup-arn "$bk"
check "update-continuous-backups" "ENABLED 35" \
    update-continuous-backups --table-name $T --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true \
    --query 'ContinuousBackupsDescription.PointInTimeRecoveryDescription.[PointInTimeRecoveryStatus, RecoveryPeriodInDays]'
check "describe-continuous-backups" "ENABLED ENABLED" \
    describe-continuous-backups --table-name $T \
    --query 'ContinuousBackupsDescription.[ContinuousBackupsStatus, PointInTimeRecoveryDescription.PointInTimeRecoveryStatus]'
check "restore-table-to-point-in-time --use-latest-restorable-time" "CliNow" \
    restore-table-to-point-in-time --source-table-name $T --target-table-name CliNow --use-latest-restorable-time \
    --query 'TableDescription.TableName'
refused "restore-table-to-point-in-time before the window: InvalidRestoreTimeException" InvalidRestoreTimeException \
    restore-table-to-point-in-time --source-table-name $T --target-table-name CliNever \
    --restore-date-time 2020-01-01T00:00:00Z
check "delete-backup" "DELETED" delete-backup --backup-arn "$bk" --query 'BackupDescription.BackupDetails.BackupStatus'
refused "describe-backup of the deleted backup: BackupNotFoundException" BackupNotFoundException \
    describe-backup --backup-arn "$bk"
for copy in CliCopy CliNow; do
    check "delete-table $copy" "$copy" delete-table --table-name $copy --query 'TableDescription.TableName'
done
check "delete-item with return-values ALL_OLD" "ACTOR#u00" \
    delete-item --table-name $T --key '{"PK":{"S":"ACTOR#u00"},"SK":{"S":"TARGET#bob"}}' \
    --return-values ALL_OLD --query 'Attributes.GSI1SK.S'
check "delete-table" "CliGraph" delete-table --table-name $T --query 'TableDescription.TableName'
refused "get-item on the deleted table: ResourceNotFoundException" ResourceNotFoundException \
    get-item --table-name $T --key '{"PK":{"S":"x"},"SK":{"S":"y"}}'
check "list-backups --backup-type SYSTEM: the deleted table's (recovery was on)" "CliGraph\$DeletedTableBackup SYSTEM" \
    list-backups --backup-type SYSTEM --query 'BackupSummaries[].[BackupName, BackupType]'

kill -TERM "$srvpid"
wait "$srvpid"
src=$?
srvpid=""
n=$((n + 1))
if [ $src -eq 0 ]; then echo "ok $n - awscli: ddbx serve stops cleanly"; else
    echo "not ok $n - awscli: ddbx serve exit $src"; bad=1; fi
exit $bad
