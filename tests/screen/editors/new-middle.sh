#!/bin/sh
# $EDITOR for tests: replaces the item template with alice -> bz, whose
# sort key falls between alice's TARGET#bob and TARGET#carol.
cat > "$1" <<'JSON'
{
  "PK": {"S": "ACTOR#alice"},
  "SK": {"S": "TARGET#bz"},
  "followedAt": {"S": "2024-02-02T00:00:00Z"}
}
JSON
