#!/bin/sh
# `ddbx evolve` (issue 40 item 3) on the samples: the dry run's exact
# counts, reasons and sample, the patterns re-costed (the Scan of
# users.json becomes a Query on the new index); a template error with its
# position; applying (the automatic backup, the index ACTIVE, the Scan now
# a Query); a re-run writes nothing; SIGINT and SIGKILL midway, then the
# same command goes on from the checkpoint and every item ends with its
# value written once; against `ddbx serve` as the endpoint (the question
# names it). Expectations from DynamoDB's rules: a key attribute is S, N
# or B (developer guide, "Core components"); UpdateItem with a
# ConditionExpression writes only when it holds (API reference,
# UpdateItem); UpdateTable's new GSI is CREATING, then ACTIVE (developer
# guide, "Adding a global secondary index to an existing table").
# Prints TAP.
cd "$(dirname "$0")" || exit 1
here=$PWD
: "${DDBX:?DDBX must name the ddbx binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-evolve.XXXXXX")
srvpid=""
trap '[ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null; rm -rf "$tmp"' EXIT
. ../lib/serve.sh
for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export AWS_EC2_METADATA_DISABLED=true HOME="$tmp/home" AWS_ACCESS_KEY_ID=AKIDEVOLVE AWS_SECRET_ACCESS_KEY=evolveSECRET
n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); echo "not ok $n - $1"; bad=1
    shift
    for l in "$@"; do printf '%s\n' "$l" | head -n 20 | sed 's/^/#   /'; done
}
# has DESCRIPTION FILE PATTERN...: every pattern (grep -E) is a line of FILE.
has() {
    d=$1 f=$2; shift 2
    for p in "$@"; do
        if ! grep -qE -- "$p" "$f"; then
            notok "$d" "no line matching: $p" "$(cat "$f")"
            return
        fi
    done
    ok "$d"
}
# count_attr DB TABLE ATTR: how many items have ATTR (a Scan with Select COUNT).
count_attr() {
    printf '{"Operation":"Scan","Input":{"TableName":"%s","Select":"COUNT","FilterExpression":"attribute_exists(#a)","ExpressionAttributeNames":{"#a":"%s"}}}\n' "$2" "$3" |
        "$DDBX" api --db "$1" | sed -n 's/.*"Count":\([0-9]*\).*/\1/p'
}

db="$tmp/s.db"
"$DDBX" samples --db "$db" >/dev/null 2>&1 || notok "ddbx samples"
cp users.json "$tmp/patterns/users.json"
set -- --index ByCity --hash 'CITY#${location.city}' --range '${joinedAt}'

# ---- the dry run ----
"$DDBX" evolve SocialGraph --db "$db" "$@" --dry-run >"$tmp/dry" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "the dry run exits 0" || notok "the dry run exits 0 (got $rc)" "$(cat "$tmp/dry")"
has "the dry run counts every item, who gets the attributes, and who is left out and why" "$tmp/dry" \
    '^SocialGraph: 4820 items read$' '^  5 would get ByCityPK and ByCitySK$' '^  4815 left out:$' \
    '^    4815: an attribute missing: location\.city$'
has "the dry run shows a sample before -> after" "$tmp/dry" '^sample, before -> after:$' \
    '^  after  \{"ByCityPK":\{"S":"CITY#Seoul"\},"ByCitySK":\{"S":"2019-04-02T09:15:00Z"\},"PK"'
has "the dry run re-costs the patterns: the Scan becomes a Query on the index" "$tmp/dry" \
    '^  users-in-a-city: Scan [0-9.]+ RCU, 2 items .* -> Query 0\.5 RCU, 2 items .* as a Query on ByCity$' \
    '^  who-follows-bob: Query 0\.5 RCU, 2 items .* -> Query 0\.5 RCU, 2 items'
c=$(count_attr "$db" SocialGraph ByCityPK)
[ "$c" = 0 ] && ok "the dry run writes nothing" || notok "the dry run writes nothing ($c items have ByCityPK)"
has "the dry run is a line of evolve.log beside the patterns" "$tmp/patterns/evolve.log" \
    '^\{"time":"[0-9T:Z-]+","step":"dry-run","table":"SocialGraph","index":"ByCity","hash":"CITY#\$\{location\.city\}","range":"\$\{joinedAt\}",.*"read":4820,"gets":5,'

# ---- reasons and types ----
"$DDBX" evolve SocialGraph --db "$db" --index Ver --hash 'V#${verified}' --dry-run >"$tmp/bool" 2>&1
has "a type that cannot be a key is a reason of its own, with the attribute and its type" "$tmp/bool" \
    '^    [0-9]+: a type that cannot be a key: verified \(BOOL\)$' '^    [0-9]+: an attribute missing: verified$'
"$DDBX" evolve SocialGraph --db "$db" --index Fol --hash '${followerCount}' --dry-run >"$tmp/num" 2>&1
has "one \${ATTR} alone keeps its type: a number stays N" "$tmp/num" '"FolPK":\{"N":"3"\}'
"$DDBX" evolve SocialGraph --db "$db" --index Typ --hash 'type+SK' --dry-run >"$tmp/named" 2>&1
has "a+b names a multi-attribute key's attributes: nothing is written" "$tmp/named" \
    '^  4820 will be in Typ \(keyed on the attributes they have; nothing is written\)$'

"$DDBX" evolve SocialGraph --db "$db" --index TypCount --hash 'type+followerCount' --yes >"$tmp/named2" 2>&1
printf '%s\n' '{"Operation":"DescribeTable","Input":{"TableName":"SocialGraph"}}' | "$DDBX" api --db "$db" >"$tmp/desc"
has "a multi-attribute key applied: the GSI keys on both, each with its values' type (followerCount N)" "$tmp/desc" \
    '"IndexName":"TypCount","KeySchema":\[\{"AttributeName":"type","KeyType":"HASH"\},\{"AttributeName":"followerCount","KeyType":"HASH"\}\]' \
    '\{"AttributeName":"followerCount","AttributeType":"N"\}'

# ---- a template that does not parse ----
"$DDBX" evolve SocialGraph --db "$db" --index B --hash 'CITY#${location.city' >"$tmp/bad" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q '^ddbx evolve: --hash: at 6: ParseError: \${ is not closed by }$' "$tmp/bad" &&
    grep -q '^       \^$' "$tmp/bad"; then
    ok "a template that does not parse exits 2 naming the option, the column and a caret"
else
    notok "a bad template: exit 2 with its position (got $rc)" "$(cat "$tmp/bad")"
fi
"$DDBX" evolve SocialGraph --db "$db" --hash 'x' >"$tmp/noindex" 2>&1
[ $? -eq 2 ] && grep -q 'wanted: --index is given' "$tmp/noindex" && grep -q '^usage: ddbx evolve TABLE' "$tmp/noindex" &&
    ok "--index missing: exit 2 with the usage" || notok "--index missing" "$(cat "$tmp/noindex")"

# ---- the question ----
echo n | "$DDBX" evolve SocialGraph --db "$db" "$@" >"$tmp/no" 2>&1
rc=$?
has "the question names the exact count, the database and the backup kept" "$tmp/no" \
    "Write the new key attributes on 5 items of SocialGraph in $tmp/s.db \\(a backup named SocialGraph-auto-1 is kept first\\), then create the GSI ByCity\\? \\[y/N\\]"
c=$(count_attr "$db" SocialGraph ByCityPK)
[ $rc -eq 1 ] && [ "$c" = 0 ] && ok "answered no: exit 1, nothing written" || notok "answered no (rc $rc, $c written)"

# ---- applying ----
echo y | "$DDBX" evolve SocialGraph --db "$db" "$@" >"$tmp/yes" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "applying exits 0" || notok "applying exits 0 (got $rc)" "$(cat "$tmp/yes")"
has "applying writes the 5, takes the backup first, creates the index and waits for ACTIVE" "$tmp/yes" \
    '^  5 written by this run$' '^backup SocialGraph-auto-1 taken before the first write' '^index ByCity created, ACTIVE$'
has "then the pattern that was a Scan is a Query, with both costs" "$tmp/yes" \
    '^pattern users-in-a-city was a Scan: [0-9.]+ RCU, 2 items .*; now a Query on ByCity: 0\.5 RCU, 2 items'
printf '%s\n' '{"Operation":"Query","Input":{"TableName":"SocialGraph","IndexName":"ByCity","KeyConditionExpression":"ByCityPK = :c","ExpressionAttributeValues":{":c":{"S":"CITY#Seoul"}},"Select":"COUNT"}}' |
    "$DDBX" api --db "$db" >"$tmp/q"
has "the index answers the Query" "$tmp/q" '"Count":2'
printf '%s\n' '{"Operation":"ListBackups","Input":{"TableName":"SocialGraph"}}' | "$DDBX" api --db "$db" >"$tmp/b"
has "the automatic backup is there" "$tmp/b" '"BackupName":"SocialGraph-auto-1"'
"$DDBX" evolve SocialGraph --db "$db" "$@" --yes >"$tmp/again" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^  0 written by this run$' "$tmp/again" &&
    grep -q '^  5 already had them (an earlier run)$' "$tmp/again" &&
    grep -q '^index ByCity was there already, ACTIVE$' "$tmp/again" && ! grep -q '^backup ' "$tmp/again"; then
    ok "a re-run is a no-op: nothing written, no backup, the index already there"
else
    notok "a re-run is a no-op (rc $rc)" "$(cat "$tmp/again")"
fi
grep -c '"step":"backfill","table":"SocialGraph","index":"ByCity"' "$tmp/patterns/evolve.log" | grep -qx 2 &&
    grep -q '"step":"index","table":"SocialGraph","index":"ByCity"' "$tmp/patterns/evolve.log" &&
    ok "evolve.log has each backfill and the index step" || notok "evolve.log" "$(cat "$tmp/patterns/evolve.log")"

# ---- stopped midway, then resumed ----
# Every item gets Ev2PK (SK is on all): 4820 writes of 1 WCU at 1000 a second.
set -- --index Ev2 --hash 'E#${SK}' --rate 1000 --yes
# wait_checkpoint FILE: until the first page's checkpoint is there (10 s at most).
wait_checkpoint() {
    i=0
    while [ ! -f "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
ck="$tmp/patterns/evolve-SocialGraph.Ev2.checkpoint"
"$DDBX" evolve SocialGraph --db "$db" "$@" >"$tmp/int" 2>&1 &
pid=$!
wait_checkpoint "$ck"
kill -INT $pid
wait $pid
rc=$?
w1=$(sed -n 's/^  \([0-9]*\) written by this run$/\1/p' "$tmp/int")
if [ $rc -eq 130 ] && [ -f "$ck" ] && grep -q "^stopped after [0-9]* items: the checkpoint $ck keeps where" "$tmp/int" &&
    [ -n "$w1" ] && [ "$w1" -gt 0 ] && [ "$w1" -lt 4820 ]; then
    ok "Ctrl-C stops midway: exit 130, the checkpoint named ($w1 written)"
else
    notok "Ctrl-C stops midway (rc $rc)" "$(cat "$tmp/int")"
fi
c=$(count_attr "$db" SocialGraph Ev2PK)
[ "$c" = "$w1" ] && ok "what was written before the stop stays ($c items)" || notok "written before the stop: $c, said $w1"
"$DDBX" evolve SocialGraph --db "$db" --index Ev2 --hash 'E#${SK}' --yes >"$tmp/res" 2>&1
rc=$?
w2=$(sed -n 's/^  \([0-9]*\) written by this run$/\1/p' "$tmp/res")
if [ $rc -eq 0 ] && grep -q "^went on from the checkpoint $ck$" "$tmp/res" && [ $((w1 + w2)) -eq 4820 ] &&
    grep -q '^SocialGraph: 4820 items read$' "$tmp/res" && [ ! -f "$ck" ]; then
    ok "the same command goes on from the checkpoint: $w1 + $w2 = 4820 written, none twice; the checkpoint gone"
else
    notok "resumed after Ctrl-C (rc $rc, $w1 + $w2)" "$(cat "$tmp/res")"
fi
c=$(count_attr "$db" SocialGraph Ev2PK)
[ "$c" = 4820 ] && ok "every item has its value" || notok "every item has its value ($c)"

# SIGKILL: no chance to write a last checkpoint; the items written after
# the last one are found holding their values.
"$DDBX" evolve SocialGraph --db "$db" --index Ev3 --hash 'E#${SK}' --rate 1000 --yes >"$tmp/kill" 2>&1 &
pid=$!
wait_checkpoint "$tmp/patterns/evolve-SocialGraph.Ev3.checkpoint"
sleep 0.2
kill -KILL $pid
wait $pid 2>/dev/null
c1=$(count_attr "$db" SocialGraph Ev3PK)
"$DDBX" evolve SocialGraph --db "$db" --index Ev3 --hash 'E#${SK}' --yes >"$tmp/res2" 2>&1
rc=$?
w2=$(sed -n 's/^  \([0-9]*\) written by this run$/\1/p' "$tmp/res2")
c=$(count_attr "$db" SocialGraph Ev3PK)
if [ $rc -eq 0 ] && [ -n "$c1" ] && [ "$c1" -gt 0 ] && [ $((c1 + w2)) -eq 4820 ] && [ "$c" = 4820 ] &&
    grep -q "^went on from the checkpoint " "$tmp/res2"; then
    ok "after SIGKILL the same command goes on: $c1 were there, $w2 written, 4820 in all, none twice"
else
    notok "after SIGKILL (rc $rc, $c1 there, $w2 written, $c at the end)" "$(cat "$tmp/res2")"
fi

# ---- against ddbx serve ----
sdb="$tmp/served.db"
"$DDBX" samples --db "$sdb" >/dev/null 2>&1
if serve_start "$sdb" "$tmp/srv.out" "$tmp/srv.err"; then
    ep="http://127.0.0.1:$serve_port"
    set -- SocialGraph --endpoint-url "$ep" --index ByCity --hash 'CITY#${location.city}' --range '${joinedAt}'
    echo n | "$DDBX" evolve "$@" >"$tmp/rno" 2>&1
    has "remote: the question names the endpoint and says no backup is taken there" "$tmp/rno" \
        "Write the new key attributes on 5 items of SocialGraph at .*127\\.0\\.0\\.1:$serve_port.* \\(no backup is taken on an endpoint\\), then create the GSI ByCity\\?"
    "$DDBX" evolve "$@" --yes >"$tmp/ryes" 2>&1
    rc=$?
    [ $rc -eq 0 ] && ok "remote: applying exits 0" || notok "remote: applying (rc $rc)" "$(cat "$tmp/ryes")"
    has "remote: 5 written by conditional updates, the index created through UpdateTable and ACTIVE" "$tmp/ryes" \
        '^  5 written by this run$' '^index ByCity created, ACTIVE$'
    printf '%s\n' '{"Operation":"Query","Input":{"TableName":"SocialGraph","IndexName":"ByCity","KeyConditionExpression":"ByCityPK = :c","ExpressionAttributeValues":{":c":{"S":"CITY#Seoul"}},"Select":"COUNT"}}' |
        "$DDBX" api --endpoint-url "$ep" >"$tmp/rq"
    has "remote: the endpoint's index answers the Query" "$tmp/rq" '"Count":2'
    "$DDBX" evolve "$@" --yes >"$tmp/ragain" 2>&1
    has "remote: a re-run writes nothing" "$tmp/ragain" '^  0 written by this run$' '^  5 already had them'
    kill "$srvpid"; wait "$srvpid" 2>/dev/null; srvpid=""
else
    notok "ddbx serve starts" "$(cat "$tmp/srv.err")"
fi

echo "1..$n"
exit $bad
