#!/bin/sh
# $EDITOR for tests: an item with "Seoul" moves to Jeju (e on alice's
# profile); anything else (a's template) becomes ACTOR#newbie's profile.
if grep -q '"Seoul"' "$1"; then
    sed -i 's/"Seoul"/"Jeju"/' "$1"
    exit 0
fi
cat > "$1" <<'JSON'
{
  "PK": {"S": "ACTOR#newbie"},
  "SK": {"S": "PROFILE"},
  "name": {"S": "Newbie"}
}
JSON
