#!/bin/sh
# Instructions (callgrind) a GetRecords of 1,000 records costs `ddbx api`,
# for each ddbx binary named: a table with a NEW_AND_OLD_IMAGES stream and
# 1,000 items of ~600 bytes, then 20 GetRecords from its trim horizon,
# less a run of no request. Issue 41: the Streams kinds typed inside the
# store (model/ddbres_streams.h) against the JSON they replaced. Not run by
# `make bench` (it needs valgrind and takes about a minute a binary).
#   sh tests/bench/getrecords_instr.sh OLD/ddbx NEW/ddbx
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/setup.jsonl" <<'PY'
import json, sys
t = {"TableName": "Perf", "BillingMode": "PAY_PER_REQUEST",
     "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
     "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
     "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
lines = [{"Operation": "CreateTable", "Input": t}]
for i in range(1000):
    lines.append({"Operation": "PutItem", "Input": {"TableName": "Perf", "Item": {
        "pk": {"S": "k%04d" % i}, "n": {"N": str(i)}, "s": {"S": "x" * 500},
        "l": {"L": [{"S": "a"}, {"N": "1"}]}}}})
lines.append({"Operation": "DescribeTable", "Input": {"TableName": "Perf"}})
open(sys.argv[1], "w").write("".join(json.dumps(l) + "\n" for l in lines))
PY
field() { python3 -c "import json,sys; o=json.load(sys.stdin)['Output']; print($1)"; }
for bin in "$@"; do
    db="$tmp/t.db"
    rm -f "$db"
    arn=$("$bin" api --db "$db" <"$tmp/setup.jsonl" | tail -n 1 | field "o['Table']['LatestStreamArn']")
    sid=$(echo "{\"Operation\":\"DescribeStream\",\"Input\":{\"StreamArn\":\"$arn\"}}" | "$bin" api --db "$db" |
        field "o['StreamDescription']['Shards'][0]['ShardId']")
    it=$(echo "{\"Operation\":\"GetShardIterator\",\"Input\":{\"StreamArn\":\"$arn\",\"ShardId\":\"$sid\",\"ShardIteratorType\":\"TRIM_HORIZON\"}}" |
        "$bin" api --db "$db" | field "o['ShardIterator']")
    : >"$tmp/reqs.jsonl"
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        echo "{\"Operation\":\"GetRecords\",\"Input\":{\"ShardIterator\":\"$it\"}}" >>"$tmp/reqs.jsonl"
    done
    ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" api --db "$db" <"$1" 2>&1 >/dev/null |
        sed -n 's/.*Collected : //p'; }
    : >"$tmp/none.jsonl"
    all=$(ir "$tmp/reqs.jsonl")
    base=$(ir "$tmp/none.jsonl")
    echo "$bin: $(( (all - base) / 20 )) instructions a GetRecords of 1,000 records"
done
