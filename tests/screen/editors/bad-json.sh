#!/bin/sh
# $EDITOR for tests: leaves a number given as a JSON number (invalid).
echo '{"PK": {"S": "ACTOR#x"}, "SK": {"N": 5}}' > "$1"
