#!/bin/sh
# `ddbx serve --record` and `ddbx patterns` on traffic generated with the
# samples' access patterns, through the AWS SDK for JavaScript
# (traffic.js) and the aws command line: the record holds no value sent
# in clear text, its hashes are keyed by the recording's key file (made
# 0600, kept across runs), it rotates at --record-max keeping
# --record-keep files; `ddbx patterns` finds the patterns, the Scan, the
# filter that discards most of what it reads, the hot key and the
# unused index, and writes pattern files `ddbx check` runs. Prints TAP.
#
# Needs node (tests/node's SDK) and the aws command line: without them
# this suite FAILS, it never skips.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
. "$root/tests/lib/serve.sh"
. "$root/tests/lib/node.sh"
. "$root/tests/lib/tap.sh"
tap_name=record
: "${DDBX:=$root/build/ddbx}"
: "${AWS:=aws}"

fail() { echo "not ok 1 - record: $*"; exit 1; }
command -v "$AWS" >/dev/null 2>&1 || fail "the aws command line is not installed (make deps installs it)"
node_ready || fail "$node_err"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-record.XXXXXX") || exit 1
srvpid=""
cleanup() {
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null && wait "$srvpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

stop() { kill "$srvpid" && wait "$srvpid"; srvpid=""; }

"$DDBX" samples --db "$tmp/db" >/dev/null 2>&1 || fail "ddbx samples failed"
serve_start "$tmp/db" "$tmp/out" "$tmp/err" --record "$tmp/rec"
port=$serve_port
[ -n "$port" ] || fail "ddbx serve did not start: $(head -c 500 "$tmp/err")"

A() {
    env HOME="$tmp" AWS_CONFIG_FILE="$tmp/none" AWS_SHARED_CREDENTIALS_FILE="$tmp/none" \
        AWS_ACCESS_KEY_ID=AKIDRECORDTEST AWS_SECRET_ACCESS_KEY=not-a-secret AWS_DEFAULT_REGION=us-east-1 \
        AWS_PAGER= AWS_MAX_ATTEMPTS=1 AWS_EC2_METADATA_DISABLED=true \
        "$AWS" dynamodb "$@" --endpoint-url "http://127.0.0.1:$port" --output json
}

node tests/record/traffic.js "$port" >"$tmp/sent" 2>"$tmp/node.err"
tap $? "the SDK sent the samples' patterns ($(wc -l <"$tmp/sent") distinct values)"
# The aws command line: a projection with names, a PartiQL statement
# with a literal, a course roster on the Roster index.
A query --table-name StudentCourses --index-name GSI1 --key-condition-expression 'GSI1PK = :c' \
    --expression-attribute-values '{":c":{"S":"CRS#math204"}}' --projection-expression '#p, SK' \
    --expression-attribute-names '{"#p":"PK"}' >/dev/null 2>"$tmp/aws.err"
r1=$?
A execute-statement --statement "SELECT * FROM Music WHERE PK = 's#song1-literal' AND SK = 'A'" >/dev/null 2>>"$tmp/aws.err"
r2=$?
tap $((r1 + r2)) "the aws command line sent a Query and a PartiQL statement $(head -c 300 "$tmp/aws.err")"
printf '%s\n' 'CRS#math204' 's#song1-literal' >>"$tmp/sent"
stop
lines=$(wc -l <"$tmp/rec")
[ "$lines" = 84 ]
tap $? "one line a request: 82 from the SDK, 2 from the aws command line ($lines lines)"
node -e 'for (const l of require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n")) JSON.parse(l)' "$tmp/rec"
tap $? "every line is JSON"
leaked=$(grep -F -f "$tmp/sent" "$tmp/rec" | head -3)
[ -z "$leaked" ] && [ "$(wc -l <"$tmp/sent")" -ge 10 ]
tap $? "no value sent is in the record in clear text ${leaked:+(found: $leaked)}"
grep -q '"statement":"SELECT \* FROM Music WHERE PK = ? AND SK = ?"' "$tmp/rec"
tap $? "a PartiQL statement's literals are ?"
grep -q '"item":{"PK":"S","SK":"S","title":"S"}' "$tmp/rec"
tap $? "a PutItem's item is its names and types"
[ "$(stat -c %a "$tmp/rec.key")" = 600 ] && [ "$(stat -c %s "$tmp/rec.key")" = 32 ]
tap $? "the key is made beside the record: 32 bytes, owner-only"
# The same value hashes the same in one recording (SK = PROFILE in the
# GetItem, the Key of the profile), and differently under another key.
h=$(grep -o '"SK":"S:[0-9a-f]*"' "$tmp/rec" | sort | uniq -c | sort -rn | head -1 | awk '{print $1}')
[ "$h" -ge 40 ]
tap $? "one value, one hash: PROFILE hashed the same in $h requests"
grep -q '"units":0.5' "$tmp/rec" && grep -q '"count":1,' "$tmp/rec" && grep -q '"scanned":' "$tmp/rec"
tap $? "the record has items returned and read, and the units consumed (not asked for)"

"$DDBX" patterns "$tmp/rec" --db "$tmp/db" --out "$tmp/mined" >"$tmp/pat" 2>"$tmp/pat.err"
rc=$?
[ $rc = 1 ]
tap $? "ddbx patterns exits 1 when it names a finding (rc $rc: $(head -c 300 "$tmp/pat.err"))"
grep -q '^ 1 getitem-SocialGraph-1 .* 40 calls' "$tmp/pat"
tap $? "the busiest pattern is the profile GetItem, 40 calls"
grep -q 'Query SocialGraph index GSI1  key: GSI1PK = :p1$' "$tmp/pat" &&
    [ "$(grep -c 'query-SocialGraph-GSI1' "$tmp/pat")" = 1 ]
tap $? "two callers' placeholder names are one pattern"
grep -q 'key: PK = :p1 AND begins_with(SK, :p2)$' "$tmp/pat"
tap $? "names resolve: #pk and #sk show as PK and SK"
grep -q "pattern [0-9]* Scans: Scan Music filter \`type = :p1\`" "$tmp/pat"
tap $? "the Scan is named"
grep -q "filter keeps [0-9]*% of what it reads" "$tmp/pat"
tap $? "the filter that discards most of what it reads is named"
grep -q "pattern 1's hot key: PK=S:[0-9a-f]*,SK=S:[0-9a-f]* takes 7[0-9]% of its 40 calls" "$tmp/pat"
tap $? "the hot key is named by its hash"
grep -q "index Roster of StudentCourses: no recorded request read it" "$tmp/pat" &&
    ! grep -q "index GSI1 of SocialGraph: no" "$tmp/pat"
tap $? "the index nobody read is named, not the ones read"
"$DDBX" patterns "$tmp/rec" --format json >"$tmp/pat.json"
node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (j.requests !== 84 || j.patterns.length < 8 || !j.findings.some(f => f.kind === "scan")) process.exit(1);
  const p = j.patterns[0]; if (p.calls !== 40 || p.rcu_per_call !== 0.5 || !p.hot) process.exit(1)' "$tmp/pat.json"
tap $? "--format json: the patterns and findings"

ls "$tmp/mined"/mined-*.json >/dev/null 2>&1
tap $? "--out writes pattern files: $(ls "$tmp/mined" | tr '\n' ' ')"
"$DDBX" check --db "$tmp/db" "$tmp/mined"/mined-*.json >"$tmp/check" 2>&1
rc=$?
grep -q '^pass  getitem-SocialGraph-1 ' "$tmp/check" && grep -q '^pass  query-StudentCourses-' "$tmp/check" &&
    grep -q '^FAIL  scan-Music-[0-9]* .*needs a Scan' "$tmp/check" && [ $rc = 1 ]
tap $? "ddbx check runs them: reads pass, the Scan fails (rc $rc) $(grep -v '^pass' "$tmp/check" | head -c 400)"
"$DDBX" check --db "$tmp/db" --cost "$tmp/mined/mined-SocialGraph.json" >"$tmp/cost" 2>&1
grep -q 'a month' "$tmp/cost"
tap $? "ddbx check --cost prices them at the recorded rate"

# The design document: the mined patterns' measured traffic (--patterns
# DIR takes the folder --out wrote), and the evolution steps from the log
# `ddbx evolve` appends to (evolve.log in the database's pattern folder),
# written here by a real `ddbx evolve --dry-run`.
rm -f "$tmp/patterns/evolve.log"
"$DDBX" model SocialGraph --db "$tmp/db" --format markdown --patterns "$tmp/mined" >"$tmp/design.md" 2>"$tmp/md.err"
grep -q '^## Traffic measured' "$tmp/design.md" &&
    grep -q '^| getitem-SocialGraph-1 | GetItem | SocialGraph | `PK = :p1 AND SK = :p2` | 40 | 47.6% | ' "$tmp/design.md" &&
    ! grep -q '^## Evolution' "$tmp/design.md"
tap $? "ddbx model --format markdown: the traffic measured, no evolution section without a log $(head -c 300 "$tmp/md.err")"
"$DDBX" evolve SocialGraph --db "$tmp/db" --index ByType --hash 'TYPE#${type}' --dry-run >"$tmp/evolve.out" 2>&1
"$DDBX" model SocialGraph --db "$tmp/db" --format markdown --patterns "$tmp/mined" >"$tmp/design.md" 2>&1
grep -q '^## Evolution' "$tmp/design.md" &&
    grep -qF '| SocialGraph | ByType | `TYPE#${type}` | - | 0 |' "$tmp/design.md" &&
    grep -q '| dry-run |$' "$tmp/design.md"
tap $? "ddbx model --format markdown: the step ddbx evolve logged (evolve.log) $(grep -i evolution -A6 "$tmp/design.md" | head -c 600; head -c 300 "$tmp/evolve.out")"

# Rotation: a small bound, two files kept.
serve_start "$tmp/db" "$tmp/out" "$tmp/err" --record "$tmp/rot" --record-max 4096 --record-keep 2
port=$serve_port
[ -n "$port" ] || fail "ddbx serve did not start: $(head -c 500 "$tmp/err")"
node tests/record/traffic.js "$port" >/dev/null 2>&1
stop
[ -f "$tmp/rot" ] && [ -f "$tmp/rot.1" ] && [ -f "$tmp/rot.2" ] && [ ! -f "$tmp/rot.3" ] &&
    [ "$(stat -c %s "$tmp/rot.1")" -le 4096 ] && [ "$(stat -c %s "$tmp/rot.2")" -le 4096 ]
tap $? "rotates at --record-max, keeps --record-keep files: $(ls "$tmp" | grep rot | tr '\n' ' ')"
# Another recording, another key: the same value hashes differently.
a=$(grep -o '"SK":"S:[0-9a-f]*"' "$tmp/rec" | head -1)
b=$(grep -o '"SK":"S:[0-9a-f]*"' "$tmp/rot" | head -1)
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] && [ -f "$tmp/rot.key" ]
tap $? "each recording has its own key (FILE.key): $a vs $b"
"$DDBX" serve --port 0 --db "$tmp/db" --record "$tmp/nodir/rec" >/dev/null 2>"$tmp/bad.err"
rc=$?
[ $rc = 1 ] && grep -q 'nodir/rec.key' "$tmp/bad.err"
tap $? "a record that cannot be written stops the server with the reason (rc $rc: $(head -c 200 "$tmp/bad.err"))"
echo "1..$n"
