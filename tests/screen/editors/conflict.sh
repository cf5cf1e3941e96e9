#!/bin/sh
# $EDITOR for tests: changes the city of the item being edited, and while
# the explorer waits for it, a second writer (`ddbx api` on the same
# database, $DDBX_BIN) changes the same item's followerCount and city:
# the staged change, read before, now conflicts.
sed -i 's/"Seoul"/"Jeju"/' "$1"
"$DDBX_BIN" api --db ../test.db >/dev/null <<'REQ'
{"Operation":"UpdateItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"ACTOR#alice"},"SK":{"S":"PROFILE"}},"UpdateExpression":"SET followerCount = :n, city = :c","ExpressionAttributeValues":{":n":{"N":"7"},":c":{"S":"Busan"}}}}
REQ
