#!/bin/sh
# $EDITOR for tests: leaves the item as it is (the explorer says "No
# change"), and while the explorer waits for it, a second writer (`ddbx
# api` on the same database, $DDBX_BIN) puts a new first element in
# alice's links: what the item view shows as links[1] is now links[2].
"$DDBX_BIN" api --db ../test.db >/dev/null <<'REQ'
{"Operation":"UpdateItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"ACTOR#alice"},"SK":{"S":"PROFILE"}},"UpdateExpression":"SET links = list_append(:first, links)","ExpressionAttributeValues":{":first":{"L":[{"S":"https://new.example"}]}}}}
REQ
