#!/bin/sh
# ddbx samples / load / export, driven through the real binary: exit codes,
# messages (file:line:col, attribute path), stdin, nothing committed from a
# failed file, --skip-bad, --replace, and round trips through files.
: "${DDBX:?DDBX must name the built binary}"
t=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-io.XXXXXX")
trap 'rm -rf "$t"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; [ -f "$t/err" ] && sed 's/^/#   /' "$t/err" | head -n 10; }
check() { # description, command...
    d=$1; shift
    if "$@"; then ok "$d"; else no "$d"; fi
}
has() { grep -q -- "$2" "$1"; }

db="$t/a.db"
"$DDBX" samples --db "$db" >"$t/out" 2>"$t/err"
rc=$?
check "samples loads four tables" eval '[ $rc -eq 0 ] && has "$t/out" "loaded 4 sample tables"'
"$DDBX" export SocialGraph --db "$db" >"$t/sg.jsonl" 2>"$t/err"
check "export SocialGraph as JSON lines, in key order" \
    eval '[ $(wc -l <"$t/sg.jsonl") -eq 4820 ] && head -n 1 "$t/sg.jsonl" | grep -q "\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}"'
"$DDBX" samples --db "$db" >/dev/null 2>"$t/err"
"$DDBX" export SocialGraph --db "$db" >"$t/sg2.jsonl" 2>>"$t/err"
check "samples again replaces (same export)" cmp -s "$t/sg.jsonl" "$t/sg2.jsonl"

# Round trips through files, for each loadable format.
for f in jsonl s3 aws-cli workbench; do
    rm -f "$t/b.db"*
    "$DDBX" export StudentCourses --format $f -o "$t/sc.$f" --db "$db" 2>"$t/err"
    if [ $f = workbench ]; then
        "$DDBX" load "$t/sc.$f" --db "$t/b.db" 2>>"$t/err"
    else
        "$DDBX" load "$t/sc.$f" --table StudentCourses --key PK:S,SK:S --db "$t/b.db" 2>>"$t/err"
    fi
    "$DDBX" export StudentCourses --db "$db" >"$t/x1" 2>>"$t/err"
    "$DDBX" export StudentCourses --db "$t/b.db" >"$t/x2" 2>>"$t/err"
    check "round trip through a $f file" cmp -s "$t/x1" "$t/x2"
done
"$DDBX" export StudentCourses --index Roster --db "$t/b.db" >"$t/roster" 2>"$t/err"
check "the Workbench model recreated the KEYS_ONLY index" \
    eval '[ $(wc -l <"$t/roster") -eq 8 ] && ! grep -q grade "$t/roster"'

# stdin
rm -f "$t/c.db"*
"$DDBX" export Music --db "$db" | "$DDBX" load - --table Music --key PK:S,SK:S --db "$t/c.db" 2>"$t/err"
rc=$?
check "load - reads stdin" eval '[ $rc -eq 0 ] && has "$t/err" "14 items (jsonl)"'

# Bad input: the message names file:line:col, the item and the attribute,
# and nothing of the file is committed.
cat >"$t/bad.jsonl" <<'J'
{"PK":{"S":"a"}}
{"PK":{"S":"b"}}
{"PK":{"S":"c"},"tags":{"SS":["x","x"]}}
{"PK":{"S":"d"},"n":{"N":"12abc"}}
{"PK":{"S":"e"}}
J
rm -f "$t/d.db"*
printf '' | "$DDBX" load - --table Bad --key PK:S --db "$t/d.db" 2>"$t/err"
"$DDBX" load "$t/bad.jsonl" --table Bad --db "$t/d.db" 2>"$t/err"
rc=$?
check "a bad item fails the load (exit 1)" [ $rc -eq 1 ]
check "the message names file:line:col, item and attribute" \
    eval 'has "$t/err" "bad.jsonl:3:1: ValidationException: item 3: .*(attribute tags"'
"$DDBX" export Bad --db "$t/d.db" >"$t/out" 2>"$t/err"
check "nothing of the failed file was committed" eval '[ ! -s "$t/out" ]'
"$DDBX" load "$t/bad.jsonl" --table Bad --skip-bad --db "$t/d.db" 2>"$t/err"
rc=$?
check "--skip-bad loads the rest (exit 0)" eval '[ $rc -eq 0 ] && has "$t/err" "3 items" && has "$t/err" "2 bad items skipped"'
check "--skip-bad reports every skipped item" \
    eval '[ $(grep -c "skipped: .*bad.jsonl:[34]:1:" "$t/err") -eq 2 ] && has "$t/err" "(attribute n)"'
printf '{"PK":{"S":"a"}}\n{"PK":{"S":"b"},\n' >"$t/trunc.jsonl"
"$DDBX" load "$t/trunc.jsonl" --table Bad --skip-bad --db "$t/d.db" 2>"$t/err"
rc=$?
check "a truncated file fails even with --skip-bad" \
    eval '[ $rc -eq 1 ] && has "$t/err" "trunc.jsonl:3:1: ParseError: .*starts at 2:1 is not closed"'
printf '{"PK":{"S":"z"}}\n' >"$t/z.jsonl"
"$DDBX" load "$t/z.jsonl" --table NoSuchTable --db "$t/d.db" 2>"$t/err"
rc=$?
check "a missing table without --key is refused" eval '[ $rc -eq 1 ] && has "$t/err" "does not exist"'

printf '{"Other":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}}],"Missing":[{"PutRequest":{"Item":{"PK":{"S":"b"}}}}]}' >"$t/batch.json"
printf '' | "$DDBX" load - --table Other --key PK:S --db "$t/d.db" 2>"$t/err"
"$DDBX" load "$t/batch.json" --skip-bad --db "$t/d.db" 2>"$t/err"
rc=$?
check "a batch file naming a missing table fails, even with --skip-bad" \
    eval '[ $rc -eq 1 ] && has "$t/err" "batch.json:1:.*ResourceNotFoundException"'
"$DDBX" export Other --db "$t/d.db" >"$t/out" 2>"$t/err"
check "... and nothing of it is committed" eval '[ ! -s "$t/out" ]'

# Issue 27, 11: the CLI's messages. A missing table is named (DescribeTable's
# "Requested resource not found: Table: Nope not found"); one of a thing is
# not "1 items"; an item's number counts from 1, as its line does (the
# bad.jsonl check above: line 3, item 3).
"$DDBX" export Nope --db "$db" >"$t/out" 2>"$t/err"
rc=$?
check "export of a missing table names it (exit 1)" \
    eval '[ $rc -eq 1 ] && has "$t/err" "ResourceNotFoundException: Requested resource not found: Table: Nope not found"'
printf '{"PK":{"S":"one"}}\n' >"$t/one.jsonl"
"$DDBX" load "$t/one.jsonl" --table One --key PK:S --db "$t/one.db" 2>"$t/err"
check "load of one item says 1 item" eval 'has "$t/err" "ddbx load: 1 item (jsonl)"'
"$DDBX" export One -o "$t/one.out" --db "$t/one.db" 2>"$t/err"
check "export of one item says 1 item (1 partition)" eval 'has "$t/err" "ddbx export: 1 item (1 partition) to "'
printf '{"PK":{"S":"one"}}\n{"PK":{"S":"two"},"n":{"N":"x"}}\n' >"$t/onebad.jsonl"
"$DDBX" load "$t/onebad.jsonl" --table One --skip-bad --db "$t/one.db" 2>"$t/err"
check "one bad item skipped says 1 bad item, item 2 on line 2" \
    eval 'has "$t/err" "1 bad item skipped" && has "$t/err" "onebad.jsonl:2:1: .*item 2: "'

# Workbench: tables exist -> refused unless --replace.
"$DDBX" export Music --format workbench -o "$t/music.json" --db "$db" 2>"$t/err"
"$DDBX" load "$t/music.json" --db "$t/c.db" 2>"$t/err"
rc=$?
check "a Workbench model does not overwrite a table" eval '[ $rc -eq 1 ] && has "$t/err" "already exists"'
"$DDBX" load "$t/music.json" --replace --db "$t/c.db" 2>"$t/err"
rc=$?
check "--replace recreates it" eval '[ $rc -eq 0 ] && has "$t/err" "14 items into 1 new table ("'

# plain JSON says it is lossy; CSV has typed headers.
printf '[{"PK":"p1","n":1.50,"tags":["a","b"]}]\n' >"$t/plain.json"
"$DDBX" load "$t/plain.json" --table Plain --key PK:S --db "$t/c.db" 2>"$t/err"
rc=$?
check "plain JSON loads and says it is lossy" eval '[ $rc -eq 0 ] && has "$t/err" "lossy"'
"$DDBX" export Plain --db "$t/c.db" >"$t/out" 2>"$t/err"
check "plain JSON types are inferred" \
    has "$t/out" '{"PK":{"S":"p1"},"n":{"N":"1.5"},"tags":{"L":\[{"S":"a"},{"S":"b"}\]}}'
"$DDBX" export ProfileHistory --format csv --db "$db" >"$t/out" 2>"$t/err"
check "CSV export: typed header, keys first" \
    eval 'head -n 1 "$t/out" | grep -q "^user_id:S,update_timestamp:S,"'

# Errors and usage.
"$DDBX" export Nope --db "$db" >/dev/null 2>"$t/err"
rc=$?
check "export of a missing table fails" eval '[ $rc -eq 1 ] && has "$t/err" ResourceNotFoundException'
"$DDBX" export Music --format xml --db "$db" >/dev/null 2>"$t/err"
rc=$?
check "unknown export format is a usage error" [ $rc -eq 2 ]
"$DDBX" load --db "$db" >/dev/null 2>"$t/err"
rc=$?
check "load without FILE is a usage error" [ $rc -eq 2 ]
"$DDBX" load "$t/nope.json" --table Music --db "$db" >/dev/null 2>"$t/err"
rc=$?
check "load of a missing file names it" eval '[ $rc -eq 1 ] && has "$t/err" "nope.json"'
"$DDBX" load "$t" --table Music --db "$db" >/dev/null 2>"$t/err"
rc=$?
check "load of a directory is refused" eval '[ $rc -eq 1 ] && has "$t/err" "Is a directory"'
exit 0
