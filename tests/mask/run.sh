#!/bin/sh
# `ddbx pull --mask RULES` (issue 30) against a remote served by
# `ddbx serve` (the samples): tests/mask/rules.json hashes the keys,
# fakes, redacts and drops attributes at top level and nested, keeps
# some, and limits a rule to other tables. Checked on the copy: every
# item is there; keys keep their shape (ACTOR#<16 base32>, PROFILE kept)
# and no clear key text is left; GSI1 keys equal the table keys they
# mirror; a hashed value joins across items and tables (another table's
# `actor` attribute finds the hashed partition, and GSI1 answers the
# same access pattern as on the original); the same key gives the same
# copy twice, another key another one; the key file is made owner-only
# beside the database. Refused, exit 2, with FILE:LINE:COL and nothing
# left behind: bad rules, and rules that would fake, redact or drop a key
# attribute.
#
# Where the expectations come from: the access patterns are the seeds'
# (the follow graph: Query PK = ACTOR#x, GSI1 Query GSI1PK = TARGET#x);
# what each action does is ddbx's own (model/mask.h). Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
here=$root/tests/mask
: "${DDBX:=$root/build/ddbx}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-mask.XXXXXX") || exit 1
srvpid=""
cleanup() {
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
unset DDBX_DB
export HOME="$tmp/home" LC_ALL=C.UTF-8 TZ=UTC AWS_EC2_METADATA_DISABLED=true
export AWS_ACCESS_KEY_ID=AKIDMASKTEST AWS_SECRET_ACCESS_KEY=maskSECRET
mkdir -p "$HOME"
cd "$tmp" || exit 1

n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - mask: $1"; }
notok() { n=$((n + 1)); echo "not ok $n - mask: $1"; shift; for l in "$@"; do echo "#   $l"; done; rc=1; }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
api() { # DB, request lines -> $tmp/api.out
    db=$1; shift
    printf '%s\n' "$@" | "$DDBX" api --db "$db" >"$tmp/api.out" 2>&1
}

# The source: the samples, and a table of references to its actors.
"$DDBX" samples --db src.db >/dev/null 2>&1 || notok "ddbx samples"
api src.db '{"Operation":"CreateTable","Input":{"TableName":"Refs","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}}' \
    '{"Operation":"PutItem","Input":{"TableName":"Refs","Item":{"id":{"S":"r1"},"actor":{"S":"ACTOR#bob"},"email":{"S":"bob@corp.example"},"type":{"S":"ref"}}}}'
"$DDBX" export SocialGraph --db src.db >src.jsonl

. "$root/tests/lib/serve.sh"
serve_start src.db "$tmp/srv.out" "$tmp/srv.err" || { echo "not ok 1 - mask: ddbx serve started: $(cat "$tmp/srv.err")"; exit 1; }
ep=http://127.0.0.1:$serve_port

pull() { # ARGS... -> $st, $tmp/pull.err
    "$DDBX" pull "$@" --endpoint-url "$ep" >/dev/null 2>"$tmp/pull.err"
    st=$?
}

# --- a masked copy ---------------------------------------------------------------
mkdir -p dst
pull SocialGraph --mask "$here/rules.json" --db dst/copy.db
if [ $st -eq 0 ] && grep -q "^ddbx pull: masked [0-9]* values as $here/rules.json says: PK, SK hashed (GSI1PK, GSI1SK with them); key dst/mask.key$" "$tmp/pull.err"; then
    ok "pull --mask: copied, and says what it did to the keys (GSI1's keys hashed with them)"
else
    notok "pull --mask: copied" "exit $st" "$(cat "$tmp/pull.err")"
fi
# The summary names every rule with what it took (issue 38: it named only
# what the key rules did), a rule for other tables and one that matched
# nothing said so, and warns of the strings no rule names: they are
# copied in the clear (type, followedAt, location.country, links' site).
rules_ok=1
for want in "^ddbx pull: the rules, and the values each took:$" \
            "^  PK hash: 4820 values$" "^  SK hash: 4820 values$" \
            "^  displayName fake as name: [1-9][0-9]* values\?$" "^  bio redact: [1-9][0-9]* values\?$" \
            "^  location.geo drop: [1-9][0-9]* values\?$" "^  links\[\*\].handle drop: [1-9][0-9]* values\?$" \
            "^  \*count keep: [1-9][0-9]* values$" "^  \*email\* fake as email: no value matched$" \
            "^  type redact: not for this table$" "^  actor hash: no value matched$" \
            "^  index keys hashed with the table's: [1-9][0-9]* values$"; do
    grep -q -- "$want" "$tmp/pull.err" || { rules_ok=0; echo "# missing: $want"; }
done
check "the summary names every rule with the values it took, and those that took none" [ $rules_ok = 1 ]
clear=$(sed -n 's/^ddbx pull: warning: strings no rule names were copied as they are: //p' "$tmp/pull.err")
named() { case ", $clear," in *", $1,"*) return 0 ;; esac; return 1; }
check "...and warns of the strings no rule names (type, followedAt, location.country, links[*].site), none a rule takes" \
    sh -c '[ "$0" = 0000 ] && [ "$1" = 1111 ]' \
    "$(named type; echo $?)$(named followedAt; echo $?)$(named location.country; echo $?)$(named 'links[*].site'; echo $?)" \
    "$(named bio; echo $?)$(named displayName; echo $?)$(named PK; echo $?)$(named location.city; echo $?)"
grep -q "^ddbx pull: made a new masking key, dst/mask.key" "$tmp/pull.err" &&
    [ "$(stat -c %a dst/mask.key)" = 600 ] && [ "$(stat -c %s dst/mask.key)" = 32 ] &&
    ok "a new key: 32 bytes, owner-only, beside the database, and said" ||
    notok "a new key beside the database" "$(ls -l dst)"
"$DDBX" export SocialGraph --db dst/copy.db >copy.jsonl
check "every item is copied" test "$(wc -l <copy.jsonl)" -eq "$(wc -l <src.jsonl)"

# Keys keep their shape; nothing of the clear keys is left in them.
perl -ne '
    /"PK":\{"S":"([^"]*)"\}/ or die "no PK: $_"; $pk = $1;
    /"SK":\{"S":"([^"]*)"\}/ or die "no SK: $_"; $sk = $1;
    $pk =~ /^ACTOR#[a-z2-7]{16}$/ or die "PK $pk\n";
    $sk eq "PROFILE" or $sk =~ /^TARGET#[a-z2-7]{16}$/ or die "SK $sk\n";
    if (/"GSI1PK":\{"S":"([^"]*)"\}/) {
        $g = $1; /"GSI1SK":\{"S":"([^"]*)"\}/; $gs = $1;
        # GSI1 mirrors the edge: GSI1PK is SK (a sharded target adds its
        # shard, hashed), GSI1SK is PK.
        ($g eq $sk or index($g, "$sk#") == 0) or die "GSI1PK $g, SK $sk\n";
        $gs eq $pk or die "GSI1SK $gs, PK $pk\n";
    }' copy.jsonl 2>"$tmp/perl.err" &&
    ok "keys keep their shape: ACTOR#, TARGET# and PROFILE kept, the rest 16 base32 characters; GSI1 mirrors them" ||
    notok "keys keep their shape" "$(head -3 "$tmp/perl.err")"
if grep -q -e 'alice' -e 'Alice Kim' -e 'Backend engineer' -e '37.5665' -e 'alicekim' copy.jsonl; then
    notok "nothing of alice's profile is left in clear" "$(grep -o '.\{40\}alice.\{20\}' copy.jsonl | head -3)"
else
    ok "nothing of alice's profile is left in clear (keys, name, bio, geo, links)"
fi

# The attributes, one profile at a time: keyed by the hashed bob.
api dst/copy.db '{"Operation":"Scan","Input":{"TableName":"SocialGraph","FilterExpression":"followerCount = :n AND followingCount = :m AND verified = :f","ExpressionAttributeValues":{":n":{"N":"2"},":m":{"N":"1"},":f":{"BOOL":false}}}}'
bob=$(sed -n 's/.*"PK":{"S":"\(ACTOR#[a-z2-7]*\)"},"SK":{"S":"PROFILE"}.*/\1/p' "$tmp/api.out" | head -n 1)
grep -q '"bio":{"S":"REDACTED"}' "$tmp/api.out" && grep -q '"displayName":{"S":"[A-Z][a-z]* [A-Z][a-z]*"}' "$tmp/api.out" &&
    ! grep -q 'Bob Martins' "$tmp/api.out" && grep -q '"type":{"S":"user"}' "$tmp/api.out" &&
    grep -q '"followerCount":{"N":"2"}' "$tmp/api.out" && grep -q '"country":{"S":"PT"}' "$tmp/api.out" &&
    ! grep -q 'Lisboa' "$tmp/api.out" && grep -q '"interests":{"SS":\["[a-z2-7]\{16\}","[a-z2-7]\{16\}"\]}' "$tmp/api.out" &&
    ok "attributes: a faked name, a redacted bio, a faked city, hashed interests; counts and type kept" ||
    notok "attributes masked as the rules say" "$(head -c 800 "$tmp/api.out")"
grep -q '"avatar":{"B":"UkVEQUNURUQ="}' copy.jsonl && grep -q '"links":{"L":\[{"S":"[^"]*"},{"M":{"site":{"S":"[^"]*"}}}\]}' copy.jsonl &&
    grep -q '"location":{"M":{"city":{"S":"[A-Z][a-z]*"},"country":{"S":"KR"}}}' copy.jsonl &&
    grep -q '"pubKeys":{"BS":\["[A-Za-z0-9+/]\{22\}==","[A-Za-z0-9+/]\{22\}=="\]}' copy.jsonl &&
    ok "nested: location.geo and links[*].handle dropped, binary redacted, a binary set hashed (16 bytes each)" ||
    notok "nested paths and binary" "$(grep '"avatar"' copy.jsonl | head -c 900)"

# Joins: another table's reference to bob finds bob's hashed partition,
# and GSI1 answers "who follows bob" on the copy as on the original.
pull Refs --mask "$here/rules.json" --db dst/copy.db
api dst/copy.db '{"Operation":"Scan","Input":{"TableName":"Refs"}}'
ref=$(sed -n 's/.*"actor":{"S":"\(ACTOR#[a-z2-7]*\)"}.*/\1/p' "$tmp/api.out")
[ $st -eq 0 ] && [ -n "$bob" ] && [ "$ref" = "$bob" ] &&
    ok "one value, one hash across tables: Refs.actor = the hashed ACTOR#bob" ||
    notok "one value, one hash across tables" "bob=$bob ref=$ref" "$(cat "$tmp/pull.err" "$tmp/api.out")"
grep -q '"email":{"S":"user-[a-z2-7]\{10\}@example.com"}' "$tmp/api.out" && grep -q '"type":{"S":"ref"}' "$tmp/api.out" &&
    ok "a fake email; a rule for other tables leaves this one alone" || notok "Refs masked" "$(cat "$tmp/api.out")"
target=TARGET#${bob#ACTOR#}
api src.db '{"Operation":"Query","Input":{"TableName":"SocialGraph","IndexName":"GSI1","KeyConditionExpression":"GSI1PK = :t","ExpressionAttributeValues":{":t":{"S":"TARGET#bob"}},"Select":"COUNT"}}'
want=$(sed -n 's/.*"Count":\([0-9]*\).*/\1/p' "$tmp/api.out")
api dst/copy.db '{"Operation":"Query","Input":{"TableName":"SocialGraph","IndexName":"GSI1","KeyConditionExpression":"GSI1PK = :t","ExpressionAttributeValues":{":t":{"S":"'"$target"'"}},"Select":"COUNT"}}' \
    '{"Operation":"Query","Input":{"TableName":"SocialGraph","KeyConditionExpression":"PK = :p AND begins_with(SK, :s)","ExpressionAttributeValues":{":p":{"S":"'"$bob"'"},":s":{"S":"TARGET#"}},"Select":"COUNT"}}'
got=$(sed -n '1s/.*"Count":\([0-9]*\).*/\1/p' "$tmp/api.out")
edges=$(sed -n '2s/.*"Count":\([0-9]*\).*/\1/p' "$tmp/api.out")
[ -n "$want" ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ "$edges" = 1 ] &&
    ok "access patterns still work: GSI1 finds bob's $want followers, begins_with(SK, TARGET#) his edge" ||
    notok "access patterns on the copy" "want $want, got $got, edges $edges"

# The same key: the same copy again. Another key: another copy.
pull SocialGraph --as Again --mask "$here/rules.json" --db dst/copy.db
"$DDBX" export Again --db dst/copy.db >again.jsonl
cmp -s copy.jsonl again.jsonl && ok "the same key masks the same way twice" || notok "the same key masks the same way twice"
printf '%s\n' '{"key_file": "other.key", "rules": [{"path": "PK", "action": "hash"}]}' >other.json
pull SocialGraph --mask other.json --db dst/other.db
"$DDBX" export SocialGraph --db dst/other.db | sed -n 's/.*"PK":{"S":"\([^"]*\)"}.*/\1/p' | sort -u >other.pks
sed -n 's/.*"PK":{"S":"\([^"]*\)"}.*/\1/p' copy.jsonl | sort -u >copy.pks
[ $st -eq 0 ] && [ -s other.key ] && [ "$(wc -l <other.pks)" = "$(wc -l <copy.pks)" ] && ! grep -qxFf copy.pks other.pks &&
    ok "key_file names another key (beside the rules): no hash in common" ||
    notok "another key, other hashes" "exit $st" "$(cat "$tmp/pull.err")"

# --- refused: exit 2, where, and nothing left behind ----------------------------
refused() { # DESCRIPTION RULES MESSAGE
    pull SocialGraph --as Refused --mask "$2" --db dst/copy.db
    if [ $st -eq 2 ] && grep -qF -- "$3" "$tmp/pull.err" && ! "$DDBX" export Refused --db dst/copy.db >/dev/null 2>&1; then
        ok "$1"
    else
        notok "$1" "exit $st" "$(cat "$tmp/pull.err")"
    fi
}
refused "an unknown action: file:line:col of it" "$here/bad-action.json" \
    "ddbx pull: $here/bad-action.json:3:29: ParseError: rules[1].action: unknown action 'scramble' (keep, hash, fake, redact, drop)"
refused "an unknown member: at its name" "$here/bad-member.json" \
    "bad-member.json:2:19: ParseError: rules[0].acton: unknown member (expected one of: path, name, action, as, tables)"
refused "path and name together" "$here/bad-both.json" \
    "bad-both.json:2:3: ParseError: rules[0]: a rule names its attributes by \"path\" (a.b[2].c) or by \"name\" (a pattern such as *phone*): one of the two"
refused "a bad path: the column of the fault" "$here/bad-path.json" \
    "bad-path.json:2:22: ParseError: rules[0].path: an empty attribute name (at character 10 of the path)"
refused "\"as\" without fake" "$here/bad-as.json" \
    "bad-as.json:2:45: ParseError: rules[0].as: \"as\" goes with the action fake"
refused "not JSON: the syntax error's line and column" "$here/bad-json.json" "bad-json.json:3:16: ParseError: not valid JSON: the syntax error is here"
refused "a missing rules file" "$tmp/none.json" "none.json: cannot read: No such file or directory"
"$DDBX" pull SocialGraph --as Refused --mask "$here/bad-key.json" --db dst/copy.db --endpoint-url "$ep" >/dev/null 2>"$tmp/pull.err"
st=$?
if [ $st -eq 1 ] && grep -qF "bad-key.json:3:3: ValidationException: the rule for SK (redact) would redact SK, a key attribute of SocialGraph: that merges or loses items; only hash (which keeps the key's shape) or keep" "$tmp/pull.err" &&
   ! "$DDBX" export Refused --db dst/copy.db >/dev/null 2>&1; then
    ok "redacting a sort key: refused before any item, with the rule's line and column; no table left"
else
    notok "redacting a sort key: refused" "exit $st" "$(cat "$tmp/pull.err")"
fi
"$DDBX" pull SocialGraph --as Refused --mask "$here/bad-gsi.json" --db dst/copy.db --endpoint-url "$ep" >/dev/null 2>"$tmp/pull.err"
grep -qF "bad-gsi.json:3:3: ValidationException: the rule for GSI1* (drop) would drop GSI1PK, a key attribute of SocialGraph's indexes" "$tmp/pull.err" &&
    ok "dropping an index key: refused" || notok "dropping an index key: refused" "$(cat "$tmp/pull.err")"
kill "$srvpid" 2>/dev/null
wait "$srvpid" 2>/dev/null
srvpid=""
echo "1..$n"
exit $rc
