#!/bin/sh
# $EDITOR for tests: like conflict.sh, with a B and an SS attribute: the
# edit sets alice's city and adds pic (B) and tags (SS); meanwhile a
# second writer (`ddbx api` on the same database, $DDBX_BIN) sets other
# ones and an NS, so the conflict view shows each type beside the other.
sed -i 's/"Seoul"/"Jeju"}, "pic": {"B": "AAE="}, "tags": {"SS": ["a", "b"]/' "$1"
"$DDBX_BIN" api --db ../test.db >/dev/null <<'REQ'
{"Operation":"UpdateItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"ACTOR#alice"},"SK":{"S":"PROFILE"}},"UpdateExpression":"SET pic = :b, tags = :t, nums = :n","ExpressionAttributeValues":{":b":{"B":"AgM="},":t":{"SS":["c"]},":n":{"NS":["1","2"]}}}}
REQ
