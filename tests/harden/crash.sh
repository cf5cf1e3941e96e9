#!/bin/sh
# Crash safety: `ddbx load` and `ddbx api` killed with SIGKILL at random
# moments during large writes, CRASH_ROUNDS times each (default 12). After
# every kill the database must open, pass PRAGMA integrity_check, hold
# every acknowledged write (a load that exited 0; an api request answered
# with Output) and no part of a load, batch or transaction that was not
# all written. Then `ddbx api` killed during CreateBackup,
# RestoreTableFromBackup and RestoreTableToPointInTime of a table of
# CRASH_BACKUP_ITEMS items (default 5000): every backup whole or gone,
# every restored table whole or absent, acknowledged backups kept
# (dbcheck checks the backups). Prints TAP, numbered from $1; prints the
# next number last on fd 3 (for run.sh). The seed of each round is
# printed, so a failure can be replayed with CRASH_SEED.
n=${1:-0}
: "${DDBX:?}" "${BUILD:?}"
DBCHECK=$BUILD/tests/tools/dbcheck
ROUNDS=${CRASH_ROUNDS:-12}
LOAD_ITEMS=${CRASH_LOAD_ITEMS:-4000}
API_REQS=${CRASH_API_REQS:-300}
SEED=${CRASH_SEED:-$(date +%s)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-crash.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/crash.db

tap() { # ok?, message
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
now() { date +%s.%N; }
# rand SEED LO HI: a decimal number in [LO, HI)
rand() { awk -v s="$1" -v lo="$2" -v hi="$3" 'BEGIN { srand(s); printf "%.3f\n", lo + rand() * (hi - lo) }'; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }

# run_killed SECONDS IN OUT CMD...: runs CMD (stdin IN, stdout OUT) in the
# background, kills it with SIGKILL after SECONDS; sets $rc (137 when
# killed, else its own). A background command's stdin would otherwise be
# /dev/null.
run_killed() {
    t=$1 in=$2 out=$3; shift 3
    "$@" < "$in" > "$out" 2>>"$tmp/err" &
    pid=$!
    sleep "$t"
    kill -9 "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
}

echo "# crash seed $SEED, $ROUNDS rounds each"

# ---- ddbx load: one file is one transaction ---------------------------
gen_load() { # round -> items with PK r<round>#<p>, ~1 KB each
    awk -v r="$1" -v n="$LOAD_ITEMS" 'BEGIN {
        pad = sprintf("%0990d", 0)
        for (i = 1; i <= n; i++)
            printf "{\"PK\":{\"S\":\"r%d#%d\"},\"SK\":{\"S\":\"s%06d\"},\"pad\":{\"S\":\"%s\"}}\n", r, i % 37, i, pad
    }'
}
acked_loads=""
t0=$(now)
gen_load 0 > "$tmp/load.jsonl"
"$DDBX" load "$tmp/load.jsonl" --table Crash --key PK:S,SK:S --db "$db" >/dev/null 2>"$tmp/err"
rc=$?
t1=$(now)
est=$(elapsed "$t0" "$t1")
tap $rc "crash: a full load of $LOAD_ITEMS items takes ${est}s (the kill window)"
[ $rc = 0 ] && acked_loads="0"
kills=0; bad=0
r=1
while [ $r -le "$ROUNDS" ]; do
    gen_load $r > "$tmp/load.jsonl"
    t=$(rand $((SEED + r)) 0.02 "$est")
    run_killed "$t" /dev/null /dev/null "$DDBX" load "$tmp/load.jsonl" --table Crash --key PK:S,SK:S --db "$db"
    if [ $rc = 137 ]; then kills=$((kills + 1)); elif [ $rc = 0 ]; then acked_loads="$acked_loads $r"; fi
    "$DBCHECK" "$db" Crash > "$tmp/keys" 2>"$tmp/err"
    crc=$?
    msg=""
    if [ $crc != 0 ]; then
        msg="dbcheck exit $crc: $(head -n 3 "$tmp/keys" "$tmp/err" | tr '\n' ' ')"
    else
        # every round's items: none or all; acknowledged rounds: all
        msg=$(awk -v n="$LOAD_ITEMS" -v acked=" $acked_loads " -v last=$r '
            /^integrity:/ { next }
            { split($1, a, "#"); c[a[1]]++ }
            END {
                for (i = 0; i <= last; i++) {
                    k = "r" i; got = c[k] + 0
                    if (got != 0 && got != n) { printf "round %d: %d of %d items ", i, got, n }
                    if (index(acked, " " i " ") && got != n) { printf "round %d acknowledged but %d of %d items ", i, got, n }
                }
            }' "$tmp/keys")
    fi
    if [ -n "$msg" ]; then
        bad=$((bad + 1))
        tap 1 "crash: load round $r (seed $((SEED + r)), killed after ${t}s, exit $rc): $msg"
    fi
    r=$((r + 1))
done
tap $bad "crash: ddbx load killed $kills times (of $ROUNDS), integrity ok, acknowledged loads kept, no partial load"

# ---- ddbx api: single puts, batches, transactions ---------------------
# What the store supports decides the mix (probed, not assumed).
probe() {
    printf '%s\n' "$1" | "$DDBX" api --db "$tmp/probe.db" 2>/dev/null | grep -qv UnknownOperationException
}
printf '%s\n' '{"Operation":"CreateTable","Input":{"TableName":"Crash","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}]}}' \
    | "$DDBX" api --db "$tmp/probe.db" >/dev/null 2>&1
kinds="put"
probe '{"Operation":"BatchWriteItem","Input":{"RequestItems":{"Crash":[{"PutRequest":{"Item":{"PK":{"S":"x"},"SK":{"S":"y"}}}}]}}}' && kinds="$kinds batch"
probe '{"Operation":"TransactWriteItems","Input":{"TransactItems":[{"Put":{"TableName":"Crash","Item":{"PK":{"S":"x"},"SK":{"S":"z"}}}}]}}' && kinds="$kinds txn"
echo "# api request kinds: $kinds"

gen_api() { # round -> requests; each request k writes keys a<round>#<k> / j
    awk -v r="$1" -v m="$API_REQS" -v kinds="$kinds" 'BEGIN {
        nk = split(kinds, kind, " ")
        big = sprintf("%08000d", 0); small = sprintf("%0500d", 0)
        for (k = 1; k <= m; k++) {
            t = kind[(k % nk) + 1]
            if (t == "put") {
                printf "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Crash\",\"Item\":{\"PK\":{\"S\":\"a%d#%d\"},\"SK\":{\"S\":\"0\"},\"pad\":{\"S\":\"%s\"}}}}\n", r, k, big
            } else if (t == "batch") {
                printf "{\"Operation\":\"BatchWriteItem\",\"Input\":{\"RequestItems\":{\"Crash\":["
                for (j = 0; j < 25; j++)
                    printf "%s{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"a%d#%d\"},\"SK\":{\"S\":\"%d\"},\"pad\":{\"S\":\"%s\"}}}}", j ? "," : "", r, k, j, small
                printf "]}}}\n"
            } else {
                printf "{\"Operation\":\"TransactWriteItems\",\"Input\":{\"TransactItems\":["
                for (j = 0; j < 4; j++)
                    printf "%s{\"Put\":{\"TableName\":\"Crash\",\"Item\":{\"PK\":{\"S\":\"a%d#%d\"},\"SK\":{\"S\":\"%d\"},\"pad\":{\"S\":\"%s\"}}}}", j ? "," : "", r, k, j, big
                printf "]}}\n"
            }
        }
    }'
}
# size of request k, as gen_api writes it
api_sizes() {
    awk -v m="$API_REQS" -v kinds="$kinds" 'BEGIN {
        nk = split(kinds, kind, " ")
        for (k = 1; k <= m; k++) { t = kind[(k % nk) + 1]; print (t == "put" ? 1 : t == "batch" ? 25 : 4) }
    }'
}
api_sizes > "$tmp/sizes"

gen_api 0 > "$tmp/req"
t0=$(now)
"$DDBX" api --db "$db" < "$tmp/req" > "$tmp/resp.0" 2>"$tmp/err"
rc=$?
t1=$(now)
est=$(elapsed "$t0" "$t1")
tap $rc "crash: $API_REQS api writes ($kinds) take ${est}s (the kill window)"
kills=0; bad=0; acked_total=0
r=1
while [ $r -le "$ROUNDS" ]; do
    gen_api $r > "$tmp/req"
    t=$(rand $((SEED + 1000 + r)) 0.02 "$est")
    run_killed "$t" "$tmp/req" "$tmp/resp.$r" "$DDBX" api --db "$db"
    [ $rc = 137 ] && kills=$((kills + 1))
    # --changes: the change log agrees with the items (a change is never
    # kept without its record, nor a record without its change); the api
    # writes (keys a...) all have records, the loads (r...) none.
    "$DBCHECK" "$db" Crash --changes > "$tmp/keys" 2>"$tmp/err"
    crc=$?
    if [ $crc != 0 ]; then
        msg="dbcheck exit $crc: $(head -n 3 "$tmp/keys" "$tmp/err" | tr '\n' ' ')"
    else
        # complete response lines only: a kill may cut the last one short
        lines=$(wc -l < "$tmp/resp.$r")
        head -n "$lines" "$tmp/resp.$r" > "$tmp/acks"
        acked_total=$((acked_total + $(grep -c '^{"Output"' "$tmp/acks")))
        msg=$(awk -v last=$r -v sizes="$tmp/sizes" -v acks="$tmp/acks" -v d="$tmp" '
            BEGIN {
                m = 0; while ((getline s < sizes) > 0) size[++m] = s
                # earlier rounds: every response file of them
                for (i = 0; i <= last; i++) {
                    f = d "/resp." i; k = 0
                    while ((getline l < f) > 0) {
                        k++
                        if (l ~ /^\{"Output"/) ack[i, k] = 1
                        else if (l ~ /^\{"Error"/) { printf "round %d request %d: %s ", i, k, substr(l, 1, 120) }
                    }
                    close(f)
                }
            }
            /^integrity:/ || /^changes:/ { next }
            /^mismatch:/ { printf "%s ", $0; next }
            /^unlogged: a/ { printf "%s (an api write without its change record) ", $0; next }
            /^unlogged:/ { next }
            $1 ~ /^a[0-9]+#/ { split(substr($1, 2), a, "#"); c[a[1], a[2]]++ }
            END {
                for (i = 0; i <= last; i++)
                    for (k = 1; k <= m; k++) {
                        got = c[i, k] + 0
                        if (got != 0 && got != size[k]) printf "round %d request %d: %d of %d items ", i, k, got, size[k]
                        if (ack[i, k] && got != size[k]) printf "round %d request %d acknowledged, %d of %d items ", i, k, got, size[k]
                    }
            }' "$tmp/keys")
    fi
    if [ -n "$msg" ]; then
        bad=$((bad + 1))
        tap 1 "crash: api round $r (seed $((SEED + 1000 + r)), killed after ${t}s, exit $rc): $(echo "$msg" | cut -c1-400)"
    fi
    r=$((r + 1))
done
tap $bad "crash: ddbx api killed $kills times (of $ROUNDS), $acked_total acknowledged writes all kept, no partial batch or transaction, every change with its change record and no record without its change"
logged=$(sed -n 's/^changes: \([0-9]*\) records.*/\1/p' "$tmp/keys")
tap $([ "${logged:-0}" -gt 0 ] && echo 0 || echo 1) "crash: the change log was checked ($logged records of the api rounds replayed against the items)"

# ---- backups and restores: CreateBackup, RestoreTableFromBackup,
# RestoreTableToPointInTime killed midway. A backup is a file written
# whole before its row names it, a restore one write transaction: after
# each kill dbcheck finds every catalogued backup whole and no stray file
# or row (the next open tidies what a kill left), each restored table
# whole or absent, each acknowledged backup kept.
BK_ITEMS=${CRASH_BACKUP_ITEMS:-5000}
bdb=$tmp/backup.db
api() { "$DDBX" api --db "$bdb" 2>>"$tmp/err"; }
printf '%s\n' '{"Operation":"CreateTable","Input":{"TableName":"Bak","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"GlobalSecondaryIndexes":[{"IndexName":"BySK","KeySchema":[{"AttributeName":"SK","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}}' \
    '{"Operation":"UpdateContinuousBackups","Input":{"TableName":"Bak","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}}' \
    | api > "$tmp/bk.setup"
LOAD_ITEMS=$BK_ITEMS gen_load 0 > "$tmp/bk.jsonl"
"$DDBX" load "$tmp/bk.jsonl" --table Bak --db "$bdb" >/dev/null 2>>"$tmp/err"
rc=$?
printf '{"Operation":"PutItem","Input":{"TableName":"Bak","Item":{"PK":{"S":"w%d"},"SK":{"S":"x"}}}}\n' 1 2 3 4 5 | api >/dev/null
printf '%s\n' '{"Operation":"CreateBackup","Input":{"TableName":"Bak","BackupName":"base"}}' | api > "$tmp/bk.base"
base=$(sed -n 's/.*"BackupArn":"\([^"]*\)".*/\1/p' "$tmp/bk.base")
want=$((BK_ITEMS + 5))
gen_bk() { # round -> a backup, a restore from base, a restore to now
    printf '{"Operation":"CreateBackup","Input":{"TableName":"Bak","BackupName":"round%d"}}\n' "$1"
    printf '{"Operation":"RestoreTableFromBackup","Input":{"TargetTableName":"Rest%d","BackupArn":"%s"}}\n' "$1" "$base"
    printf '{"Operation":"RestoreTableToPointInTime","Input":{"SourceTableName":"Bak","TargetTableName":"Pitr%d","UseLatestRestorableTime":true}}\n' "$1"
}
gen_bk 0 > "$tmp/req"
t0=$(now)
api < "$tmp/req" > "$tmp/resp.bk0"
t1=$(now)
est=$(elapsed "$t0" "$t1")
okc=$(grep -c '^{"Output"' "$tmp/resp.bk0")
tap $([ "$rc" = 0 ] && [ -n "$base" ] && [ "$okc" = 3 ] && echo 0 || echo 1) "crash: a backup and two restores of $want items take ${est}s (the kill window)"
# keys dbcheck lists for a table (its other lines are integrity: and backups:)
keys_of() { "$DBCHECK" "$bdb" "$1" 2>>"$tmp/err" | grep -cvE '^(integrity|backups?):'; }
kills=0; bad=0; acked=""
r=1
while [ $r -le "$ROUNDS" ]; do
    gen_bk $r > "$tmp/req"
    t=$(rand $((SEED + 2000 + r)) 0.02 "$est")
    run_killed "$t" "$tmp/req" "$tmp/resp.bk$r" "$DDBX" api --db "$bdb"
    [ $rc = 137 ] && kills=$((kills + 1))
    msg=""
    "$DBCHECK" "$bdb" > "$tmp/bk.check" 2>>"$tmp/err" || msg="dbcheck: $(grep -v '^integrity' "$tmp/bk.check" | head -n 3 | tr '\n' ' ')"
    for target in Rest$r Pitr$r; do
        got=$(keys_of "$target")
        [ "$got" = 0 ] || [ "$got" = "$want" ] || msg="$msg $target holds $got of $want items"
    done
    acked="$acked $(sed -n 's/.*"BackupArn":"\([^"]*\)".*/\1/p' "$tmp/resp.bk$r" | head -n 1)"
    if [ -n "$msg" ]; then
        bad=$((bad + 1))
        tap 1 "crash: backup round $r (seed $((SEED + 2000 + r)), killed after ${t}s, exit $rc):$msg"
    fi
    r=$((r + 1))
done
lost=0
for arn in $acked; do
    printf '{"Operation":"DescribeBackup","Input":{"BackupArn":"%s"}}\n' "$arn" | api | grep -q '"AVAILABLE"' || lost=$((lost + 1))
done
nacked=$(echo $acked | wc -w)
tap $((bad + lost)) "crash: backups and restores killed $kills times (of $ROUNDS): every backup whole or gone, every restored table whole or absent, $nacked acknowledged backups kept ($lost lost)"
echo "$n" >&3
