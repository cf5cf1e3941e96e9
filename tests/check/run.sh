#!/bin/sh
# `ddbx check` (issue 17): the samples' access patterns all pass against
# the samples `ddbx samples` loads; a pattern set made to fail each way
# (a Scan, too many read units, too many items, a wrong entity type, too
# few items, a store error) exits 1 naming the reason; a filter that
# discards most of what it reads is a warning (exit 0); a design change
# (an index removed, a key format changed) names the patterns it broke
# and why; bad files exit 2 with FILE:LINE:COLUMN and the member path;
# --format tap and --format json. Expected capacity: DynamoDB's read units
# (4 KB, halved for eventually consistent reads; Query sums the items
# read, GetItem rounds one item up: developer guide, "Read consumption").
# Prints TAP.
cd "$(dirname "$0")" || exit 1
here=$PWD
: "${DDBX:?DDBX must name the ddbx binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-check.XXXXXX")
srvpid=""
trap '[ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null; rm -rf "$tmp"' EXIT
. ../lib/serve.sh
n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); echo "not ok $n - $1"; bad=1
    shift
    for l in "$@"; do printf '%s\n' "$l" | head -n 12 | sed 's/^/#   /'; done
}
# check DESCRIPTION WANT_RC PATTERN FILE ARGS...: runs ddbx check FILE
# ARGS, wants the exit status and a line of its output (stdout, stderr)
# matching PATTERN (grep -E).
check() {
    d=$1; want=$2; pat=$3; shift 3
    "$DDBX" check "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq "$want" ] && cat "$tmp/out" "$tmp/err" | grep -qE -- "$pat"; then
        ok "$d"
    else
        notok "$d" "exit $rc (wanted $want), wanted a line matching: $pat" "$(cat "$tmp/out" "$tmp/err")"
    fi
}

db="$tmp/s.db"
"$DDBX" samples --db "$db" >"$tmp/samples.out" 2>&1
if [ $? -eq 0 ] && grep -q "$tmp/patterns/SocialGraph.json" "$tmp/samples.out"; then
    ok "ddbx samples writes the samples' pattern files beside the database and says where"
else
    notok "ddbx samples writes the samples' pattern files" "$(cat "$tmp/samples.out")"
fi
cp "$db" "$tmp/fresh.db"
mkdir -p "$tmp/empty"
for f in SocialGraph StudentCourses Music; do
    if cmp -s "$tmp/patterns/$f.json" "../../assets/patterns/$f.json"; then
        ok "samples pattern file $f.json is the shipped one"
    else
        notok "samples pattern file $f.json is the shipped one"
    fi
    check "the $f patterns all pass ddbx check" 0 ' 0 FAIL$' "$tmp/patterns/$f.json" --db "$db"
done
# Every access pattern of the three articles (and DESIGN.md's samples).
for name in who-does-alice-follow who-follows-bob does-alice-follow-bob a-students-courses \
    a-courses-students song-details-with-downloads profile-changes-january-2024; do
    check "the samples have the pattern $name, and it passes" 0 "^pass +$name " \
        "$tmp/patterns/"*.json --db "$db"
done
check "GetItem patterns run as GetItem" 0 '^pass +does-alice-follow-bob +GetItem +1 item +0.5 RCU' \
    "$tmp/patterns/SocialGraph.json" --db "$db"
check "the inverted GSI answers who follows bob (alice and dave)" 0 \
    '^pass +who-follows-bob +Query +2 items' "$tmp/patterns/SocialGraph.json" --db "$db"
check "a PartiQL SELECT that fixes the partition key runs as a Query" 0 \
    '^pass +profile-changes-partiql +PartiQL \(Query\) +2 items' "$tmp/patterns/Music.json" --db "$db"
check "a pattern with a limit reads one page and says more pages are left" 0 \
    'star-followers-one-shard +Query +100 items +1.5 RCU \(more pages\)' \
    "$tmp/patterns/SocialGraph.json" --db "$db"

# ---- failing each way ----
cat > "$tmp/fail.json" <<'JSON'
{
  "entities": {"SocialGraph": {"attribute": "SK", "prefixes": {"PROFILE": "user", "TARGET#": "follow"}},
               "StudentCourses": {"attribute": "type"}},
  "patterns": [
    {"name": "scan-profiles", "operation": "Scan", "table": "SocialGraph",
     "filter": "SK = :p", "parameters": {"p": {"S": "PROFILE"}}, "expect": {"min_items": 0}},
    {"name": "partiql-scan", "operation": "PartiQL", "table": "StudentCourses",
     "statement": "SELECT * FROM StudentCourses WHERE grade = ?", "parameters": {"g": {"S": "A"}}},
    {"name": "over-units", "operation": "Query", "table": "SocialGraph", "index": "GSI1",
     "key_condition": "GSI1PK = :s", "parameters": {"s": {"S": "TARGET#star#7"}},
     "expect": {"max_read_units": 1}},
    {"name": "over-items", "operation": "Query", "table": "SocialGraph",
     "key_condition": "PK = :a", "parameters": {"a": {"S": "ACTOR#alice"}},
     "expect": {"max_items": 2}},
    {"name": "wrong-type", "operation": "Query", "table": "SocialGraph",
     "key_condition": "PK = :a", "parameters": {"a": {"S": "ACTOR#alice"}},
     "expect": {"entity_types": ["follow"]}},
    {"name": "no-items", "operation": "GetItem", "table": "SocialGraph",
     "key_condition": "PK = :a AND SK = :b",
     "parameters": {"a": {"S": "ACTOR#alice"}, "b": {"S": "TARGET#nobody"}}},
    {"name": "no-index", "operation": "Query", "table": "SocialGraph", "index": "GSI9",
     "key_condition": "GSI9PK = :s", "parameters": {"s": {"S": "x"}}},
    {"name": "no-table", "operation": "Query", "table": "Nope",
     "key_condition": "PK = :s", "parameters": {"s": {"S": "x"}}},
    {"name": "fine", "operation": "GetItem", "table": "SocialGraph",
     "key_condition": "PK = :a AND SK = :b",
     "parameters": {"a": {"S": "ACTOR#alice"}, "b": {"S": "PROFILE"}},
     "expect": {"entity_types": ["user"], "max_read_units": 0.5}},
    {"name": "filter-discards", "operation": "Query", "table": "StudentCourses",
     "key_condition": "PK = :s", "filter": "grade = :g",
     "parameters": {"s": {"S": "STU#a91"}, "g": {"S": "A"}}}
  ]
}
JSON
f="$tmp/fail.json"
check "a Scan pattern fails: needs a Scan" 1 '^FAIL +scan-profiles +Scan .*needs a Scan: reads every item of SocialGraph' "$f" --db "$db"
check "a PartiQL SELECT that cannot Query fails: needs a Scan" 1 '^FAIL +partiql-scan +PartiQL \(Scan\).*needs a Scan' "$f" --db "$db"
check "more read units than allowed fails, saying how many" 1 '^FAIL +over-units .*read [0-9.]+ RCU, more than the 1 allowed' "$f" --db "$db"
check "more items than allowed fails" 1 '^FAIL +over-items .*returned 4 items, more than the 2 allowed' "$f" --db "$db"
check "an entity type it should not return fails, naming it" 1 "^FAIL +wrong-type .*returned 1 user item \(allowed: follow\)" "$f" --db "$db"
check "no items for the example values fails" 1 '^FAIL +no-items +GetItem +0 items.*returned 0 items for the example values, expected at least 1' "$f" --db "$db"
check "a missing index fails with DynamoDB's error" 1 '^FAIL +no-index .*failed: ValidationException: The table does not have the specified index: GSI9' "$f" --db "$db"
check "a missing table fails with DynamoDB's error" 1 '^FAIL +no-table .*failed: ResourceNotFoundException' "$f" --db "$db"
check "a good pattern among failing ones passes" 1 '^pass +fine +GetItem' "$f" --db "$db"
check "a filter that discards most of what it reads is a warning" 1 '^warn +filter-discards .*the filter discarded 3 of the 4 items read' "$f" --db "$db"
check "the summary counts each verdict" 1 '^10 patterns: 1 pass, 1 warn, 8 FAIL$' "$f" --db "$db"
cat > "$tmp/warn.json" <<'JSON'
{"patterns": [
  {"name": "filter-discards", "operation": "Query", "table": "StudentCourses",
   "key_condition": "PK = :s", "filter": "grade = :g",
   "parameters": {"s": {"S": "STU#a91"}, "g": {"S": "A"}}}]}
JSON
check "warnings alone exit 0" 0 '^1 pattern: 0 pass, 1 warn, 0 FAIL$' "$tmp/warn.json" --db "$db"

# ---- formats ----
check "--format tap: a plan line" 1 '^1\.\.10$' "$f" --db "$db" --format tap
check "--format tap: a failing pattern is not ok, with its reason" 1 '^not ok 1 - scan-profiles: Scan' "$f" --db "$db" --format tap
check "--format tap: the reason follows as a comment" 1 '^# FAIL: needs a Scan' "$f" --db "$db" --format=tap
check "--format tap: a warning is ok" 1 '^ok 10 - filter-discards' "$f" --db "$db" --format tap
"$DDBX" check "$f" --db "$db" --format json >"$tmp/json" 2>&1
if node -e '
const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const p = Object.fromEntries(j.patterns.map(x => [x.name, x]));
if (j.summary.fail !== 8 || j.summary.warn !== 1 || j.summary.pass !== 1) process.exit(1);
if (p["scan-profiles"].ran_as !== "Scan" || p["scan-profiles"].verdict !== "FAIL") process.exit(2);
if (p["fine"].read_units !== 0.5 || p["fine"].items !== 1 || p["fine"].reasons !== null) process.exit(3);
if (!/GSI9/.test(p["no-index"].reasons) || p["no-index"].line !== 21) process.exit(4);
' "$tmp/json"; then
    ok "--format json: one object with every pattern (ran_as, items, read_units, verdict, reasons, line) and the summary"
else
    notok "--format json" "$(head -c 600 "$tmp/json")"
fi

# ---- a remote table: the same patterns through a DynamoDB endpoint ----
# (ddbx serve on a copy of the samples; any credentials, as DynamoDB Local
# takes them; nothing sent is a write, and check never offers to write).
cp "$db" "$tmp/remote.db"
if serve_start "$tmp/remote.db" "$tmp/serve.out" "$tmp/serve.err"; then
    ep="http://127.0.0.1:$serve_port"
    for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
    export AWS_ACCESS_KEY_ID=AKIDCHECK AWS_SECRET_ACCESS_KEY=check AWS_REGION=us-east-1
    export AWS_EC2_METADATA_DISABLED=true
    check "--endpoint-url: the samples' patterns pass on the endpoint too" 0 '^18 patterns: 18 pass, 0 warn, 0 FAIL$' \
        "$tmp/patterns/"*.json --endpoint-url "$ep"
    check "--endpoint-url: the failures are the same" 1 '^10 patterns: 1 pass, 1 warn, 8 FAIL$' \
        "$f" --endpoint-url "$ep"
    check "--endpoint-url with --db is a usage error" 2 'cannot be combined' "$f" --endpoint-url "$ep" --db "$db"
    kill "$srvpid" 2>/dev/null; wait "$srvpid" 2>/dev/null; srvpid=""
else
    notok "ddbx serve starts for the remote checks" "$(cat "$tmp/serve.err")"
fi

# ---- a design change ----
# redesign SAMPLE JS: the sample's Workbench model changed by the
# JavaScript JS (over m, the parsed model), loaded over the table.
redesign() {
    node -e '
const fs = require("fs");
const m = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
eval(process.argv[3]);
fs.writeFileSync(process.argv[2], JSON.stringify(m));
' "../../assets/samples/$1.json" "$tmp/$1.changed.json" "$2"
    "$DDBX" load "$tmp/$1.changed.json" --format workbench --replace --db "$db" >/dev/null 2>"$tmp/load.err" ||
        notok "reload $1 with a changed design" "$(cat "$tmp/load.err")"
}
# The index removed: SocialGraph recreated from its model without GSI1.
redesign SocialGraph 'for (const t of m.DataModel) delete t.GlobalSecondaryIndexes;'
check "after GSI1 is removed: who-follows-bob breaks, saying the index is gone" 1 \
    '^FAIL +who-follows-bob .*The table does not have the specified index: GSI1' "$tmp/patterns/SocialGraph.json" --db "$db"
check "after GSI1 is removed: the base-table patterns still pass" 1 \
    '^pass +who-does-alice-follow ' "$tmp/patterns/SocialGraph.json" --db "$db"
check "after GSI1 is removed: the summary counts the broken patterns" 1 \
    '^5 patterns: 3 pass, 0 warn, 2 FAIL$' "$tmp/patterns/SocialGraph.json" --db "$db"
# A key format changed: StudentCourses' sort keys ENROLL#CRS#x become CRS#x.
redesign StudentCourses 'for (const t of m.DataModel) for (const it of t.TableData)
    if (it.SK.S.startsWith("ENROLL#")) it.SK.S = it.SK.S.slice(7);'
check "after the key change: a student's courses finds nothing, and says so" 1 \
    "^FAIL +a-students-courses .*returned 0 items for the example values" "$tmp/patterns/StudentCourses.json" --db "$db"
check "after the key change: the inverted index returns items of no known entity type" 1 \
    "^FAIL +a-courses-students .*of no known entity type \(allowed: enrollment\)" "$tmp/patterns/StudentCourses.json" --db "$db"
check "after the key change: the old enrollment key is not found" 1 \
    "^FAIL +one-enrollment .*returned 0 items" "$tmp/patterns/StudentCourses.json" --db "$db"

# ---- bad files: exit 2, FILE:LINE:COLUMN: member: message ----
bad_file() { # description, expected message (grep -E), file text
    printf '%s' "$3" > "$tmp/bad.json"
    check "bad file: $1" 2 "^ddbx check: $tmp/bad.json:$2" "$tmp/bad.json" --db "$db"
}
bad_file "a syntax error is placed where the JSON breaks" '3:62: not valid JSON' \
'{"patterns": [
 {"name": "a",
  "operation": "Query", "table": "T", "key_condition": "x", }
]}'
bad_file "an unknown operation" "1:43: patterns\[0\]\.operation: unknown operation 'Quary'" \
'{"patterns": [ {"name": "a", "operation": "Quary", "table": "T"} ]}'
bad_file "a negative max_items" '5:30: patterns\[0\]\.expect\.max_items: must be a whole number' \
'{
  "patterns": [
    {"name": "a", "operation": "Query",
     "table": "T", "key_condition": "PK = :p",
     "expect": {"max_items": -1}}
  ]
}'
bad_file "a misspelt member" '3:3: patterns\[1\]\.expct: unknown member' \
'{"patterns": [
 {"name": "a", "operation": "Scan", "table": "T"},
 {"expct": 1, "name": "b", "operation": "Scan", "table": "T"}]}'
bad_file "entity types without a rule for the table" '2:101: patterns\[0\]\.expect\.entity_types: table T has no entity rule' \
'{"patterns": [
 {"name": "a", "operation": "Query", "table": "T", "key_condition": "x", "expect": {"entity_types": ["x"]}}]}'
bad_file "a bad example value" '3:23: patterns\[0\]\.parameters\.p: the example value' \
'{"patterns": [
 {"name": "a", "operation": "Query", "table": "T", "key_condition": "x",
  "parameters": {"p": {"Q": "x"}}}]}'
bad_file "a Query without a key condition" '2:2: patterns\[0\]: a Query pattern needs "key_condition"' \
'{"patterns": [
 {"name": "a", "operation": "Query", "table": "T"}]}'
bad_file "two patterns of one name" '3:11: patterns\[1\]\.name: a second pattern named a' \
'{"patterns": [
 {"name": "a", "operation": "Scan", "table": "T"},
 {"name": "a", "operation": "Scan", "table": "T"}]}'
bad_file "an entity rule without its attribute" '1:20: entities\.T\.attribute: is missing' \
'{"entities": {"T": {"prefixes": {"a": "b"}}}, "patterns": []}'
bad_file "a misspelt member of an entity rule, placed at its name" '1:21: entities\.T\.prefix: unknown member' \
'{"entities": {"T": {"prefix": {}}}, "patterns": []}'
bad_file "no patterns member" '1:1: a pattern file needs "patterns"' '{}'
check "a file that cannot be read exits 2" 2 "nothere\.json: cannot read" "$tmp/nothere.json" --db "$db"
check "a database that does not exist exits 2 (and is not created)" 2 'nothere\.db: unable to open' \
    "$f" --db "$tmp/nothere.db"
[ -e "$tmp/nothere.db" ] && notok "check created the database it was given"
check "no file: the database's pattern folder, every file of it" 0 '^18 patterns: 18 pass' --db "$tmp/fresh.db"
check "no file and an empty pattern folder is a usage error, saying where it looked" 2 \
    "name a pattern file \(there is none in $tmp/empty/patterns\)" --db "$tmp/empty/x.db"
check "an unknown format is a usage error" 2 'unknown option or format xml' "$f" --format xml
check "--help says what check does" 0 '^usage: ddbx check \[PATTERNS.json\.\.\.\]' --help

# ---- a GSI with a multi-attribute key (issue 29): its patterns run as
# Queries with a condition on each key attribute; a gap in the RANGE
# attributes fails with DynamoDB's message (the developer guide's
# "Multi-attribute key schema"; the message as DynamoDB gives it, see
# tests/data/test_multikey.c) ----
mk="$tmp/multikey.db"
{
    echo '{"Operation":"CreateTable","Input":{"TableName":"Matches","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"matchId","AttributeType":"S"},{"AttributeName":"tournamentId","AttributeType":"S"},{"AttributeName":"region","AttributeType":"S"},{"AttributeName":"round","AttributeType":"S"},{"AttributeName":"bracket","AttributeType":"S"}],"KeySchema":[{"AttributeName":"matchId","KeyType":"HASH"}],"GlobalSecondaryIndexes":[{"IndexName":"TournamentRegion","KeySchema":[{"AttributeName":"tournamentId","KeyType":"HASH"},{"AttributeName":"region","KeyType":"HASH"},{"AttributeName":"round","KeyType":"RANGE"},{"AttributeName":"bracket","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}}'
    for m in 1:SEMIFINALS:UPPER 2:SEMIFINALS:LOWER 3:FINALS:CHAMPIONSHIP; do
        echo "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Matches\",\"Item\":{\"matchId\":{\"S\":\"m${m%%:*}\"},\"tournamentId\":{\"S\":\"WINTER2024\"},\"region\":{\"S\":\"NA-EAST\"},\"round\":{\"S\":\"$(echo "$m" | cut -d: -f2)\"},\"bracket\":{\"S\":\"${m##*:}\"}}}}"
    done
} | "$DDBX" api --db "$mk" >"$tmp/mk.out" 2>&1
cat > "$tmp/multikey.json" <<'JSON'
{"patterns": [
  {"name": "semifinals-in-a-region", "operation": "Query", "table": "Matches", "index": "TournamentRegion",
   "key_condition": "tournamentId = :t AND #r = :r AND round = :o", "names": {"#r": "region"},
   "parameters": {"t": {"S": "WINTER2024"}, "r": {"S": "NA-EAST"}, "o": {"S": "SEMIFINALS"}},
   "expect": {"max_items": 2, "min_items": 2}},
  {"name": "upper-bracket-without-round", "operation": "Query", "table": "Matches", "index": "TournamentRegion",
   "key_condition": "tournamentId = :t AND #r = :r AND bracket = :b", "names": {"#r": "region"},
   "parameters": {"t": {"S": "WINTER2024"}, "r": {"S": "NA-EAST"}, "b": {"S": "UPPER"}}}
]}
JSON
check "a multi-attribute GSI pattern passes as a Query" 1 '^pass +semifinals-in-a-region +Query +2 items' \
    "$tmp/multikey.json" --db "$mk"
check "a multi-attribute GSI pattern with a gap fails with DynamoDB's message" 1 \
    '^FAIL +upper-bracket-without-round .*RANGE key attributes round must have equality conditions specified in the query because a condition is present on key attribute bracket' \
    "$tmp/multikey.json" --db "$mk"

# ---- read-only: the database is not written ----
sum1=$(cksum < "$db")
"$DDBX" check "$tmp/patterns/"*.json --db "$db" >/dev/null 2>&1
sum2=$(cksum < "$db")
if [ "$sum1" = "$sum2" ]; then ok "check leaves the database byte-for-byte as it was"; else notok "check writes nothing"; fi
echo "1..$n"
exit $bad
