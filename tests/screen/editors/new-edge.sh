#!/bin/sh
# $EDITOR for tests: replaces the item template with alice -> zed.
cat > "$1" <<'JSON'
{
  "PK": {"S": "ACTOR#alice"},
  "SK": {"S": "TARGET#zed"},
  "GSI1PK": {"S": "TARGET#zed"},
  "GSI1SK": {"S": "ACTOR#alice"},
  "followedAt": {"S": "2024-02-01T00:00:00Z"}
}
JSON
