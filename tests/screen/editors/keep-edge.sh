#!/bin/sh
# $EDITOR for tests: the first time (the template) writes alice -> zed;
# given alice -> zed back (a refused create, edited again), moves it to
# zed2, so a test sees the typed item kept across the refusal.
if grep -q 'TARGET#zed"' "$1"; then
    sed -i 's/TARGET#zed"/TARGET#zed2"/g' "$1"
    exit 0
fi
cat > "$1" <<'JSON'
{
  "PK": {"S": "ACTOR#alice"},
  "SK": {"S": "TARGET#zed"},
  "GSI1PK": {"S": "TARGET#zed"},
  "GSI1SK": {"S": "ACTOR#alice"},
  "followedAt": {"S": "2024-02-01T00:00:00Z"}
}
JSON
