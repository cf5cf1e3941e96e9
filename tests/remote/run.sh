#!/bin/sh
# The remote backend end to end (issue 10): `ddbx api --endpoint-url` and
# `ddbx pull` against dynalite (npm, in memory, on 127.0.0.1), the
# credential chain (environment, profiles in a temporary HOME,
# credential_process), retries against tests/remote/flaky.js (a proxy
# that throttles or drops connections), and the secret never printed.
# Prints TAP. Needs node and npm: without them this suite FAILS (it never
# skips). Every server it starts is killed on exit, failure included.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - remote: $*"; exit 1; }

. "$root/tests/lib/node.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-remote.XXXXXX") || exit 1
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# A clean environment: no AWS settings from the caller, a HOME of our own.
for v in AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_PROFILE \
         AWS_REGION AWS_DEFAULT_REGION AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE \
         AWS_MAX_ATTEMPTS DDBX_DB; do
    unset "$v"
done
for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
# The chain ends at IMDS (issue 21): never a real one from a test.
export AWS_EC2_METADATA_DISABLED=true
export HOME="$tmp/home"
mkdir -p "$HOME"

# The secrets used below; none may ever appear in any output.
SECRET_ENV='envSECRETddbx/Q7+zz'
SECRET_FILE='fileSECRETddbx/W8+yy'
SECRET_PROC='procSECRETddbx/E9+xx'
TOKEN_ENV='envTOKENddbx/R1+ww'
TOKEN_PROC='procTOKENddbx/T2+vv'

# Servers started by fifo-held stdin so they also die with this shell.
start_node() { # name fd script args... -> sets port
    name=$1; fd=$2; shift 2
    mkfifo "$tmp/$name.in"
    node "$@" <"$tmp/$name.in" >"$tmp/$name.port" 2>"$tmp/$name.err" &
    pids="$pids $!"
    eval "exec $fd>\"\$tmp/\$name.in\""
    port=""
    i=0
    while [ $i -lt 100 ]; do
        port=$(sed -n 's/^PORT //p' "$tmp/$name.port" 2>/dev/null)
        [ -n "$port" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    [ -n "$port" ] || fail "$name did not start: $(head -c 500 "$tmp/$name.err")"
}
start_node dyn 8 "$nodedir/dynalite-server.js"
# The flaky proxies take turns on fd 7: closing it ends the previous one.
start_flaky() { # name script args...
    exec 7>&-
    fname=$1; shift
    start_node "$fname" 7 "$@"
}
dyn=http://127.0.0.1:$port

n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; rc=1; }
check() { # description, command... (exit 0 = pass)
    d=$1; shift
    if "$@"; then ok "$d"; else notok "$d"; fi
}
out_n=0
# Runs ddbx, keeping stdout and stderr for the secret check at the end.
run() { # args... -> $out, $err files, $st
    out_n=$((out_n + 1))
    out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    "$DDBX" "$@" >"$out" 2>"$err"
    st=$?
}
api() { # endpoint, lines... (stdin of ddbx api)
    ep=$1; shift
    out_n=$((out_n + 1))
    out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    printf '%s\n' "$@" | "$DDBX" api --endpoint-url "$ep" >"$out" 2>"$err"
    st=$?
}
has() { grep -q -- "$2" "$1"; }

# --- the transport reaches dynalite ---------------------------------------
export AWS_ACCESS_KEY_ID=AKIDENVTEST AWS_SECRET_ACCESS_KEY="$SECRET_ENV"
api "$dyn" '{"Operation":"ListTables","Input":{}}'
if [ $st -eq 0 ] && [ "$(cat "$out")" = '{"Output":{"TableNames":[]}}' ]; then
    ok "ddbx api --endpoint-url: ListTables answered by dynalite"
else
    notok "ddbx api --endpoint-url: ListTables answered by dynalite" "exit $st" "$(head -c 300 "$out")" "$(head -c 300 "$err")"
fi

# dynalite makes a table ACTIVE a moment after CreateTable answers.
wait_active() { # endpoint table
    i=0
    while [ $i -lt 50 ]; do
        api "$1" '{"Operation":"DescribeTable","Input":{"TableName":"'"$2"'"}}'
        has "$out" '"TableStatus":"ACTIVE"' && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
api "$dyn" '{"Operation":"CreateTable","Input":{"TableName":"Remote1","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}]}}'
wait_active "$dyn" Remote1 || notok "dynalite made Remote1 ACTIVE" "$(head -c 300 "$out")"
api "$dyn" \
  '{"Operation":"PutItem","Input":{"TableName":"Remote1","Item":{"PK":{"S":"a"},"n":{"N":"15"}}}}' \
  '{"Operation":"GetItem","Input":{"TableName":"Remote1","Key":{"PK":{"S":"a"}}}}' \
  '{"Operation":"PutItem","Input":{"TableName":"Remote1","Item":{"PK":{"S":"a"}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}}' \
  '{"Operation":"GetItem","Input":{"TableName":"NoSuchTable","Key":{"PK":{"S":"a"}}}}'
check "CreateTable, PutItem, GetItem through the remote: the item comes back" \
    has "$out" '^{"Output":{"Item":{"PK":{"S":"a"},"n":{"N":"15"}}}}$'
check "a failed condition: ConditionalCheckFailedException, as DynamoDB names it" \
    has "$out" '^{"Error":{"Code":"ConditionalCheckFailedException","Message":"The conditional request failed"'
check "a missing table: ResourceNotFoundException with DynamoDB's message" \
    has "$out" '^{"Error":{"Code":"ResourceNotFoundException","Message":"Requested resource not found"}}$'

# --- connection refused: retried, then a clear error, no crash -------------
# A port nobody listens on: bind one with node, close it, use it.
deadport=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{const p=s.address().port;s.close(()=>console.log(p))})')
AWS_MAX_ATTEMPTS=2 api "http://127.0.0.1:$deadport" '{"Operation":"ListTables","Input":{}}'
if [ $st -eq 0 ] && has "$out" '"Code":"NetworkError","Message":"cannot connect to 127.0.0.1:'"$deadport"'.*(after 2 attempts)'; then
    ok "connection refused: NetworkError naming the host, after 2 attempts, no crash"
else
    notok "connection refused: NetworkError naming the host, after 2 attempts, no crash" "exit $st" "$(head -c 400 "$out")" "$(head -c 300 "$err")"
fi

# --- ddbx pull: schema and items, segments 1 and 4 -------------------------
# The same table (a GSI with INCLUDE, an LSI with KEYS_ONLY, 3000 items of
# every type, over several 1 MB pages) goes to dynalite and, as reference,
# straight into a local store; the pulled copies must equal the reference
# item by item, in the base table and in both indexes.
gen="$root/tests/remote/gen.js"
node "$gen" Big 3000 create >"$tmp/create.jsonl"
node "$gen" Big 3000 items >"$tmp/items.jsonl"
api "$dyn" "$(cat "$tmp/create.jsonl")"
wait_active "$dyn" Big || notok "dynalite made Big ACTIVE" "$(head -c 300 "$out")"
"$DDBX" api --endpoint-url "$dyn" <"$tmp/items.jsonl" >"$tmp/load.out" 2>&1
"$DDBX" api --db "$tmp/ref.db" <"$tmp/create.jsonl" >/dev/null 2>&1
"$DDBX" api --db "$tmp/ref.db" <"$tmp/items.jsonl" >"$tmp/ref.out" 2>&1
if [ "$(grep -c '^{"Output":{"UnprocessedItems":{}}}$' "$tmp/load.out")" -eq 120 ] &&
   [ "$(grep -c '^{"Output":{"UnprocessedItems":{}}}$' "$tmp/ref.out")" -eq 120 ]; then
    ok "3000 items loaded into dynalite and into the reference store"
else
    notok "3000 items loaded into dynalite and into the reference store" "$(sort "$tmp/load.out" | uniq -c | head -3)"
fi
snapshot() { # db table prefix: items, both indexes, schema (dates dropped)
    "$DDBX" export "$2" --db "$1" >"$3.items" 2>&1
    "$DDBX" export "$2" --index GSI1 --db "$1" >"$3.gsi" 2>&1
    "$DDBX" export "$2" --index LSI1 --db "$1" >"$3.lsi" 2>&1
    "$DDBX" export "$2" --format workbench --db "$1" 2>&1 | grep -v '"Date' >"$3.schema"
}
snapshot "$tmp/ref.db" Big "$tmp/ref"
same_as_ref() { # prefix
    for f in items gsi lsi schema; do cmp -s "$tmp/ref.$f" "$1.$f" || return 1; done
    [ "$(wc -l <"$1.items")" -eq 3000 ] && [ "$(wc -l <"$1.gsi")" -eq 2000 ] && [ "$(wc -l <"$1.lsi")" -eq 2250 ]
}
for seg in 1 4; do
    run pull Big --segments "$seg" --db "$tmp/p$seg.db" --endpoint-url "$dyn"
    snapshot "$tmp/p$seg.db" Big "$tmp/p$seg"
    if [ $st -eq 0 ] && same_as_ref "$tmp/p$seg" &&
       has "$err" "^ddbx pull: copied 3000 items ([0-9]* pages, [0-9.]* read capacity units, 0 retries) from Big at http://127.0.0.1:[0-9]* (us-east-1) into Big in .* items/s, $seg segment"; then
        ok "pull --segments $seg: every item, GSI1 and LSI1 entry and the schema equal the reference"
    else
        notok "pull --segments $seg: every item, GSI1 and LSI1 entry and the schema equal the reference" \
            "exit $st" "$(tail -c 300 "$err")" "$(wc -l "$tmp/p$seg.items" "$tmp/p$seg.gsi" "$tmp/p$seg.lsi" | tr '\n' ' ')" \
            "$(diff "$tmp/ref.schema" "$tmp/p$seg.schema" | head -5)"
    fi
done
pages=$(sed -n 's/^ddbx pull: copied 3000 items (\([0-9]*\) pages.*/\1/p' "$tmp/err.$((out_n - 0))")
check "pull with 4 segments read more than one Scan page ($pages)" [ "${pages:-0}" -gt 1 ]

run pull Big --as Copy2 --db "$tmp/p1.db" --endpoint-url "$dyn"
"$DDBX" export Copy2 --db "$tmp/p1.db" >"$tmp/copy2.items" 2>&1
check "pull --as NAME: the copy has the local name and every item" \
    cmp -s "$tmp/copy2.items" "$tmp/ref.items"

# ddbx diff (issue 30) reads a remote table with Scan, in dynalite's hash
# order, so it sorts it first; every type compares equal to the local
# reference, and one item deleted from a local copy is found.
run diff Big remote:Big --db "$tmp/ref.db" --endpoint-url "$dyn"
if [ $st -eq 0 ] && has "$out" "^B: remote Big at http://127.0.0.1:[0-9]* (us-east-1): 3000 items (not in key order: sorted first)" &&
   has "$out" '^no differences: 0 added, 0 removed, 0 changed, 3000 unchanged$'; then
    ok "diff against remote:Big on dynalite: sorted, every item equal to the reference (exit 0)"
else
    notok "diff against remote:Big on dynalite" "exit $st" "$(head -c 400 "$out")" "$(head -c 300 "$err")"
fi
first=$(head -n 1 "$tmp/ref.items")
key=$(printf '%s' "$first" | sed -n 's/.*\("PK":{"S":"[^"]*"}\).*\("SK":{"S":"[^"]*"}\).*/{\1,\2}/p')
printf '%s\n' '{"Operation":"DeleteItem","Input":{"TableName":"Copy2","Key":'"$key"'}}' | "$DDBX" api --db "$tmp/p1.db" >/dev/null
run diff remote:Big "$tmp/p1.db:Copy2" --endpoint-url "$dyn" --format jsonl
if [ $st -eq 1 ] && [ "$(grep -c '"change":"removed"' "$out")" -eq 1 ] && grep -qF "\"key\":$key" "$out" &&
   has "$out" '"removed":1,"changed":0,"unchanged":2999'; then
    ok "diff remote:Big against a local copy missing one item: that item, removed (exit 1)"
else
    notok "diff remote:Big against a local copy missing one item" "exit $st" "$key" "$(head -c 400 "$out")" "$(head -c 300 "$err")"
fi

run pull Big --db "$tmp/p1.db" --endpoint-url "$dyn"
if [ $st -eq 1 ] && has "$err" "a local table named Big already exists" &&
   [ "$("$DDBX" export Big --db "$tmp/p1.db" | wc -l)" -eq 3000 ]; then
    ok "pull into an existing local table is refused (exit 1), the table untouched"
else
    notok "pull into an existing local table is refused (exit 1), the table untouched" "exit $st" "$(head -c 300 "$err")"
fi

run pull NoSuchTable --db "$tmp/p1.db" --endpoint-url "$dyn"
tables=$(printf '%s\n' '{"Operation":"ListTables","Input":{}}' | "$DDBX" api --db "$tmp/p1.db")
if [ $st -eq 1 ] && has "$err" "ResourceNotFoundException" &&
   [ "$tables" = '{"Output":{"TableNames":["Big","Copy2"]}}' ]; then
    ok "pull of a missing remote table: ResourceNotFoundException, exit 1, no local table made"
else
    notok "pull of a missing remote table: ResourceNotFoundException, exit 1, no local table made" "exit $st" "$(head -c 300 "$err")" "$tables"
fi

run pull Big --db "$tmp/p9.db"
check "pull without --endpoint-url or --region is a usage error (exit 2)" [ $st -eq 2 ]
run pull Big --segments 0 --db "$tmp/p9.db" --endpoint-url "$dyn"
check "pull --segments 0 is a usage error (exit 2)" [ $st -eq 2 ]

# --- retries -----------------------------------------------------------------
dynport=${dyn##*:}
start_flaky flaky1 "$root/tests/remote/flaky.js" "$dynport" throttle 2
flaky=http://127.0.0.1:$port
api "$flaky" '{"Operation":"ListTables","Input":{}}'
reqs=$(grep -c '^REQ ' "$tmp/flaky1.err")
if [ $st -eq 0 ] && has "$out" '^{"Output":{"TableNames":\["Big","Remote1"\]}}$' && [ "$reqs" -eq 3 ]; then
    ok "ThrottlingException twice, then an answer: retried, the call succeeds (3 requests)"
else
    notok "ThrottlingException twice, then an answer: retried, the call succeeds (3 requests)" "exit $st, $reqs requests" "$(head -c 300 "$out")"
fi
api "$flaky" '{"Operation":"ListTables","Input":{}}'
check "after the throttling ends, calls go straight through (1 more request)" \
    [ "$(grep -c '^REQ ' "$tmp/flaky1.err")" -eq 4 ]

start_flaky flaky2 "$root/tests/remote/flaky.js" "$dynport" throttle 100
AWS_MAX_ATTEMPTS=2 api "http://127.0.0.1:$port" '{"Operation":"ListTables","Input":{}}'
check "throttled beyond max attempts: ThrottlingException reported with DynamoDB's message and its ThrottlingReasons" \
    has "$out" '^{"Error":{"Code":"ThrottlingException","Message":"Rate of requests exceeds the allowed throughput. (after 2 attempts)","ThrottlingReasons":\[{"reason":"TableReadKeyRangeThroughputExceeded","resource":"arn:aws:dynamodb:us-east-1:000000000000:table/Big"}\]}}$'

start_flaky flaky3 "$root/tests/remote/flaky.js" "$dynport" every 3
run pull Big --segments 4 --db "$tmp/pf.db" --endpoint-url "http://127.0.0.1:$port"
snapshot "$tmp/pf.db" Big "$tmp/pf"
if [ $st -eq 0 ] && same_as_ref "$tmp/pf" && has "$err" " [1-9][0-9]* retries) from Big at "; then
    ok "pull through a proxy throttling every 3rd request: complete and equal, retries counted"
else
    notok "pull through a proxy throttling every 3rd request: complete and equal, retries counted" "exit $st" "$(tail -c 300 "$err")"
fi

start_flaky flaky4 "$root/tests/remote/flaky.js" "$dynport" 503 1
api "http://127.0.0.1:$port" '{"Operation":"ListTables","Input":{}}'
check "a 503 ServiceUnavailable is retried" has "$out" '^{"Output":{"TableNames":'

start_flaky flaky5 "$root/tests/remote/flaky.js" "$dynport" crc 1
api "http://127.0.0.1:$port" '{"Operation":"ListTables","Input":{}}'
if has "$out" '^{"Output":{"TableNames":' && [ "$(grep -c '^REQ ' "$tmp/flaky5.err")" -eq 2 ]; then
    ok "an answer whose x-amz-crc32 does not match is retried"
else
    notok "an answer whose x-amz-crc32 does not match is retried" "$(head -c 300 "$out")"
fi

start_flaky flaky6 "$root/tests/remote/flaky.js" "$dynport" drop 1000000
api "http://127.0.0.1:$port" '{"Operation":"ListTables","Input":{}}'
check "dropped connections: NetworkError naming the host, after 3 attempts (the default)" \
    has "$out" '^{"Error":{"Code":"NetworkError","Message":"connection to 127.0.0.1:'"$port"' dropped: .*(after 3 attempts)"}}$'
run pull Big --segments 2 --db "$tmp/pd.db" --endpoint-url "http://127.0.0.1:$port"
tables=$(printf '%s\n' '{"Operation":"ListTables","Input":{}}' | "$DDBX" api --db "$tmp/pd.db")
if [ $st -eq 1 ] && has "$err" "^ddbx pull: NetworkError: connection to 127.0.0.1:$port dropped" &&
   [ "$tables" = '{"Output":{"TableNames":[]}}' ]; then
    ok "pull over dropped connections: a clear error, exit 1, nothing left in the local store"
else
    notok "pull over dropped connections: a clear error, exit 1, nothing left in the local store" "exit $st" "$(head -c 300 "$err")" "$tables"
fi

# A server that never answers: Ctrl-C stops the pull at once.
start_flaky flaky7 "$root/tests/remote/flaky.js" "$dynport" hang-scan
out_n=$((out_n + 1))
"$DDBX" pull Big --segments 3 --db "$tmp/ph.db" --endpoint-url "http://127.0.0.1:$port" \
    >"$tmp/out.$out_n" 2>"$tmp/err.$out_n" &
ppid=$!
pids="$pids $ppid"
i=0
while [ $i -lt 50 ] && [ "$(grep -c '^REQ .*Scan' "$tmp/flaky7.err")" -lt 3 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT "$ppid"
i=0
while kill -0 "$ppid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$ppid" 2>/dev/null; then
    notok "Ctrl-C during a hanging Scan stops pull within 5 s"
    kill -KILL "$ppid" 2>/dev/null
else
    wait "$ppid"; pst=$?
    tables=$(printf '%s\n' '{"Operation":"ListTables","Input":{}}' | "$DDBX" api --db "$tmp/ph.db")
    if [ $pst -eq 130 ] && has "$tmp/err.$out_n" "interrupted after 0 items; the partial copy was removed" &&
       [ "$tables" = '{"Output":{"TableNames":[]}}' ]; then
        ok "Ctrl-C during a hanging Scan: exit 130 at once, the partial copy removed, the db consistent"
    else
        notok "Ctrl-C during a hanging Scan: exit 130 at once, the partial copy removed, the db consistent" "exit $pst" "$(head -c 300 "$tmp/err.$out_n")" "$tables"
    fi
fi
start_flaky flaky8 "$root/tests/remote/flaky.js" "$dynport" hang 1000000
hangport=$port
DDBX_REMOTE_TIMEOUT_MS=300 AWS_MAX_ATTEMPTS=2 api "http://127.0.0.1:$hangport" '{"Operation":"ListTables","Input":{}}'
check "a server that never answers: NetworkError timed out, after 2 attempts" \
    has "$out" '^{"Error":{"Code":"NetworkError","Message":"timed out talking to 127.0.0.1:'"$hangport"': .*(after 2 attempts)"}}$'

# --- HTTPS -------------------------------------------------------------------
# A proxy over TLS with a self-signed certificate for 127.0.0.1: refused
# without AWS_CA_BUNDLE (not retried), answered with it.
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
       -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1; then
    FLAKY_TLS_CERT="$tmp/cert.pem" FLAKY_TLS_KEY="$tmp/key.pem" \
        start_flaky tls "$root/tests/remote/flaky.js" "$dynport" proxy
    unset FLAKY_TLS_CERT FLAKY_TLS_KEY   # (a prefix assignment to a function may stick)
    api "https://127.0.0.1:$port" '{"Operation":"ListTables","Input":{}}'
    if has "$out" '^{"Error":{"Code":"NetworkError","Message":"the TLS certificate is not trusted (AWS_CA_BUNDLE names a CA file) for 127.0.0.1:'"$port"': ' &&
       [ "$(grep -c '^REQ ' "$tmp/tls.err")" -eq 0 ]; then
        ok "HTTPS with an untrusted certificate: a clear NetworkError, not retried, no request sent"
    else
        notok "HTTPS with an untrusted certificate: a clear NetworkError, not retried" "$(head -c 300 "$out")"
    fi
    AWS_CA_BUNDLE="$tmp/cert.pem" api "https://127.0.0.1:$port" '{"Operation":"ListTables","Input":{}}'
    check "HTTPS with AWS_CA_BUNDLE naming the CA: answered over TLS" has "$out" '^{"Output":{"TableNames":'
else
    notok "openssl could make a test certificate"
fi

# --- the credential chain ---------------------------------------------------
# A proxy that checks every signature with node's own HMAC against these
# keys: a request passes only when ddbx used the right key id AND secret.
export FLAKY_KEYS="AKENV:$SECRET_ENV,AKFILE:$SECRET_FILE,AKDEV:$SECRET_FILE-dev,AKPROC:$SECRET_PROC,AKCONF:$SECRET_FILE-conf"
start_flaky verify "$root/tests/remote/flaky.js" "$dynport" verify
ver=http://127.0.0.1:$port
unset FLAKY_KEYS
last_req() { tail -n 1 "$tmp/verify.err"; }
list() { api "$ver" '{"Operation":"ListTables","Input":{}}'; }
signed_ok() { has "$out" '^{"Output":{"TableNames":'; }

export AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$SECRET_ENV" AWS_SESSION_TOKEN="$TOKEN_ENV"
list
if signed_ok && last_req | grep -q 'KEY=AKENV REGION=us-east-1 TOKEN=yes'; then
    ok "credentials from the environment, session token sent and signed (signature checked)"
else
    notok "credentials from the environment, session token sent and signed (signature checked)" "$(head -c 300 "$out")" "$(last_req)"
fi
c0=$(grep -c '^REQ ' "$tmp/verify.err")
AWS_SECRET_ACCESS_KEY=wrong list
c1=$(grep -c '^REQ ' "$tmp/verify.err")
if has "$out" '^{"Error":{"Code":"InvalidSignatureException","Message":"The request signature we calculated does not match the signature you provided."}}$' &&
   [ "$c1" -eq $((c0 + 1)) ]; then
    ok "a wrong secret: InvalidSignatureException from the endpoint, not retried"
else
    notok "a wrong secret: InvalidSignatureException from the endpoint, not retried" "$c0 -> $c1 requests" "$(head -c 300 "$out")"
fi
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN

list
if [ $st -eq 1 ] && has "$err" "no AWS credentials for profile 'default': looked in the environment (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), $HOME/.aws/credentials \[default\], and $HOME/.aws/config \[profile default\]" &&
   has "$err" "any values do there"; then
    ok "no credentials anywhere: exit 1, the error names every place looked and says local endpoints need some too"
else
    notok "no credentials anywhere: exit 1, the error names every place looked" "exit $st" "$(head -c 400 "$err")"
fi
AWS_ACCESS_KEY_ID=AKENV list
check "AWS_ACCESS_KEY_ID without AWS_SECRET_ACCESS_KEY: a clear error" \
    has "$err" "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"

mkdir -p "$HOME/.aws" "$tmp/cred dir"
cat >"$HOME/.aws/credentials" <<EOC
# a comment
[default]
aws_access_key_id = AKFILE
aws_secret_access_key = $SECRET_FILE

[dev]
aws_access_key_id=AKDEV
aws_secret_access_key=$SECRET_FILE-dev
EOC
# A credential_process helper in a path with a space, given quoted
# arguments: it records its argv and prints the keys (Expiration ahead).
cat >"$tmp/cred dir/helper.sh" <<EOC
#!/bin/sh
for a in "\$@"; do printf '<%s>' "\$a"; done >"$tmp/helper.args"
echo run >>"$tmp/helper.count"
printf '{"Version": 1, "AccessKeyId": "AKPROC", "SecretAccessKey": "%s", "SessionToken": "%s", "Expiration": "2099-01-01T00:00:00Z"}\n' '$SECRET_PROC' '$TOKEN_PROC'
EOC
# Keys that expire in 2 minutes: inside the 5-minute refresh window.
soon=$(date -u -d '+2 min' +%Y-%m-%dT%H:%M:%SZ)
cat >"$tmp/cred dir/soon.sh" <<EOC
#!/bin/sh
echo run >>"$tmp/soon.count"
printf '{"Version": 1, "AccessKeyId": "AKPROC", "SecretAccessKey": "%s", "Expiration": "%s"}\n' '$SECRET_PROC' '$soon'
EOC
cat >"$tmp/cred dir/fails.sh" <<EOC
#!/bin/sh
echo '{"Version":1,"AccessKeyId":"AKPROC","SecretAccessKey":"$SECRET_PROC"}'
exit 3
EOC
cat >"$tmp/cred dir/expired.sh" <<EOC
#!/bin/sh
echo '{"Version":1,"AccessKeyId":"AKPROC","SecretAccessKey":"$SECRET_PROC","Expiration":"2001-01-01T00:00:00Z"}'
EOC
cat >"$tmp/cred dir/v2.sh" <<EOC
#!/bin/sh
echo '{"Version":2,"AccessKeyId":"AKPROC","SecretAccessKey":"$SECRET_PROC"}'
EOC
chmod +x "$tmp/cred dir/"*.sh
cat >"$HOME/.aws/config" <<EOC
[default]
region = eu-west-1

[profile dev]
region = ap-northeast-2

[profile proc]
region = us-west-2
credential_process = "$tmp/cred dir/helper.sh" --role 'a b' x\\ y "q\"z"

[profile conf]
aws_access_key_id = AKCONF
aws_secret_access_key = $SECRET_FILE-conf

[profile soon]
credential_process = "$tmp/cred dir/soon.sh"

[profile fails]
credential_process = "$tmp/cred dir/fails.sh"

[profile expired]
credential_process = "$tmp/cred dir/expired.sh"

[profile v2]
credential_process = "$tmp/cred dir/v2.sh"
EOC

list
check "[default] in ~/.aws/credentials, region from [default] in ~/.aws/config" \
    sh -c "grep -q '^{\"Output\"' '$out' && tail -n 1 '$tmp/verify.err' | grep -q 'KEY=AKFILE REGION=eu-west-1 TOKEN=no'"
AWS_PROFILE=dev list
check "AWS_PROFILE=dev: [dev] credentials, [profile dev] region" \
    sh -c "grep -q '^{\"Output\"' '$out' && tail -n 1 '$tmp/verify.err' | grep -q 'KEY=AKDEV REGION=ap-northeast-2'"
AWS_REGION=sa-east-1 AWS_DEFAULT_REGION=ca-central-1 list
check "AWS_REGION wins over AWS_DEFAULT_REGION and the profile's region" \
    sh -c "tail -n 1 '$tmp/verify.err' | grep -q 'REGION=sa-east-1'"
AWS_DEFAULT_REGION=ca-central-1 list
check "AWS_DEFAULT_REGION wins over the profile's region" \
    sh -c "tail -n 1 '$tmp/verify.err' | grep -q 'REGION=ca-central-1'"

out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
printf '%s\n' '{"Operation":"ListTables","Input":{}}' |
    "$DDBX" api --endpoint-url "$ver" --profile proc --region us-east-2 >"$out" 2>"$err"
if signed_ok && last_req | grep -q 'KEY=AKPROC REGION=us-east-2 TOKEN=yes' &&
   [ "$(cat "$tmp/helper.args")" = '<--role><a b><x y><q"z>' ]; then
    ok "--profile proc: credential_process split like a shell (quotes, backslash), run, its keys and token used; --region wins"
else
    notok "--profile proc: credential_process split like a shell, run, its keys used" "$(head -c 300 "$out")" "$(head -c 300 "$err")" "$(last_req)" "$(cat "$tmp/helper.args" 2>/dev/null)"
fi

export AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$SECRET_ENV"
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
printf '%s\n' '{"Operation":"ListTables","Input":{}}' |
    "$DDBX" api --endpoint-url "$ver" --profile conf >"$out" 2>"$err"
check "an explicit --profile overrides the environment's keys (static keys in [profile conf])" \
    sh -c "grep -q '^{\"Output\"' '$out' && tail -n 1 '$tmp/verify.err' | grep -q 'KEY=AKCONF'"
AWS_PROFILE=proc list
check "AWS_PROFILE does not override the environment's keys (as in the AWS CLI)" \
    sh -c "grep -q '^{\"Output\"' '$out' && tail -n 1 '$tmp/verify.err' | grep -q 'KEY=AKENV'"
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY

runs0=$(wc -l <"$tmp/helper.count")
run pull Big --db "$tmp/pc.db" --endpoint-url "$ver" --profile proc --segments 4
runs1=$(wc -l <"$tmp/helper.count")
check "pull --segments 4 with credential_process keys through the signature-checking proxy; the helper ran once" \
    sh -c "[ $st -eq 0 ] && [ \$('$DDBX' export Big --db '$tmp/pc.db' | wc -l) -eq 3000 ] && [ $runs1 -eq $((runs0 + 1)) ]"

out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
printf '%s\n' '{"Operation":"ListTables","Input":{}}' '{"Operation":"ListTables","Input":{}}' |
    "$DDBX" api --endpoint-url "$ver" --profile soon >"$out" 2>"$err"
if [ "$(grep -c '^{"Output"' "$out")" -eq 2 ] && [ "$(wc -l <"$tmp/soon.count")" -eq 3 ]; then
    ok "keys expiring within 5 minutes are fetched again before each request (3 helper runs for 2 calls)"
else
    notok "keys expiring within 5 minutes are fetched again before each request" "$(wc -l <"$tmp/soon.count") runs" "$(head -c 300 "$out")"
fi

for p in fails expired v2; do
    out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    printf '%s\n' '{"Operation":"ListTables","Input":{}}' |
        "$DDBX" api --endpoint-url "$ver" --profile "$p" >"$out" 2>"$err"
    eval "st_$p=\$?; err_$p=\$err"
done
check "credential_process exiting 3: exit 1, the error says so (and not what it printed)" \
    sh -c "[ $st_fails -eq 1 ] && grep -q 'credential_process in .* failed: exit status 3' '$err_fails'"
check "credential_process keys already expired: refused" \
    sh -c "[ $st_expired -eq 1 ] && grep -q 'have already expired (2001-01-01T00:00:00Z)' '$err_expired'"
check "credential_process Version 2: refused" \
    sh -c "[ $st_v2 -eq 1 ] && grep -q 'unsupported Version (must be 1)' '$err_v2'"

out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
printf '%s\n' '{"Operation":"ListTables","Input":{}}' | "$DDBX" api --profile nosuch >"$out" 2>"$err"
check "a profile with neither region nor endpoint: a usage error naming what to give" \
    sh -c "grep -q 'no region: give --region R or --endpoint-url URL' '$err'"
rm -rf "$HOME/.aws"

# --- the secret never appears in any output --------------------------------
leaks=$(cat "$tmp"/out.* "$tmp"/err.* 2>/dev/null | grep -c -F -e "$SECRET_ENV" -e "$SECRET_FILE" -e "$SECRET_PROC" -e "$TOKEN_ENV" -e "$TOKEN_PROC")
if [ "$leaks" -eq 0 ] && [ "$out_n" -gt 0 ]; then
    ok "no secret key or session token in any stdout or stderr ($out_n runs)"
else
    notok "no secret key or session token in any stdout or stderr" "$leaks lines leak"
fi
exit $rc
