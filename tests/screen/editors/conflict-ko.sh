#!/bin/sh
# $EDITOR for tests: like conflict.sh, with Korean text wider than the
# conflict view's columns: the edit sets alice's city to a long Korean
# address, and meanwhile a second writer (`ddbx api` on the same
# database, $DDBX_BIN) sets another one and a Korean name.
sed -i 's/"Seoul"/"제주특별자치도 서귀포시 중문관광로 72번길"/' "$1"
"$DDBX_BIN" api --db ../test.db >/dev/null <<'REQ'
{"Operation":"UpdateItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"ACTOR#alice"},"SK":{"S":"PROFILE"}},"UpdateExpression":"SET city = :c, #n = :n","ExpressionAttributeNames":{"#n":"name"},"ExpressionAttributeValues":{":c":{"S":"부산광역시 해운대구 해운대해변로 264"},":n":{"S":"김앨리스"}}}}
REQ
