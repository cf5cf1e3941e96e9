#!/bin/sh
# $EDITOR for tests: leaves the item as it is (the explorer says "No
# change"), and while the explorer waits for it, a second writer (`ddbx
# api` on the same database, $DDBX_BIN) puts a new download of song4 into
# Music: the table now has one item more than the views under the item
# view last read.
"$DDBX_BIN" api --db ../test.db >/dev/null <<'REQ'
{"Operation":"PutItem","Input":{"TableName":"Music","Item":{"PK":{"S":"s#song4"},"SK":{"S":"d#download-7"},"GSI1PK":{"S":"d#download-7"},"GSI1SK":{"S":"s#song4"},"user":{"S":"minji"},"downloadedAt":{"S":"2024-04-01T10:00:00Z"},"type":{"S":"download"}}}}
REQ
