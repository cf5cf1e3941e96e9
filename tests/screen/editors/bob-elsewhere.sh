#!/bin/sh
# $EDITOR for tests: leaves the item as it is, and while the explorer
# waits, a second writer (`ddbx api` on the same database, $DDBX_BIN)
# changes bob's profile: an item the explorer changed before, now changed
# by someone else.
"$DDBX_BIN" api --db ../test.db >/dev/null <<'REQ'
{"Operation":"UpdateItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"ACTOR#bob"},"SK":{"S":"PROFILE"}},"UpdateExpression":"SET followerCount = :n","ExpressionAttributeValues":{":n":{"N":"7"}}}}
REQ
