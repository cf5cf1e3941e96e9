#!/bin/sh
# The SDK code the explorer copies (model/codegen.c, `Y` in the explorer)
# is RUN, not only looked at: each case of tests/tools/codegen.c is
# printed as JavaScript (AWS SDK v3, tests/node's @aws-sdk/client-dynamodb)
# and as Python (boto3, Debian's python3-boto3), run against `ddbx serve`
# on a fresh table, and its effect checked through `ddbx api` on the same
# database. Go (AWS SDK v2) cannot be run here: the SDK is not packaged
# by Debian and no Go module proxy is reachable; its text is compared
# with golden files (tests/sdk/golden/*.go) and, when Debian's golang-go
# is installed, parsed by gofmt. Prints TAP. A missing node, npm or boto3
# FAILS the suite, it never skips.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"
: "${BUILD:=build}"
gen=$root/$BUILD/tests/tools/codegen
here=$root/tests/sdk

fail() { echo "not ok 1 - sdk: $*"; exit 1; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"
[ -x "$gen" ] || fail "no $gen (make builds it)"
# Debian's boto3 (python3-boto3) first; another python3 with boto3 also does.
py=""
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import boto3' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || fail "no python3 with boto3 (tools/deps.sh installs python3-boto3)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-sdk.XXXXXX") || exit 1
srvpid=""
cleanup() {
    [ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

db=$tmp/sdk.db
serve_start "$db" "$tmp/out" "$tmp/err"
port=$serve_port
[ -n "$port" ] || fail "ddbx serve did not start: $(head -c 500 "$tmp/err")"
# The generated ES module imports @aws-sdk/client-dynamodb by name: node
# finds it through a node_modules beside the file.
ln -s "$root/tests/node/node_modules" "$tmp/node_modules"

n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; bad=1; }

api() { "$DDBX" api --db "$db"; }

# A fresh table Sdk (PK, SK strings) with the items the cases expect.
seed() {
    api > "$tmp/seed.out" <<'EOF'
{"Operation":"DeleteTable","Input":{"TableName":"Sdk"}}
{"Operation":"CreateTable","Input":{"TableName":"Sdk","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"}}
{"Operation":"PutItem","Input":{"TableName":"Sdk","Item":{"PK":{"S":"p#1"},"SK":{"S":"a"},"city":{"S":"Seoul"},"n":{"N":"1"}}}}
{"Operation":"PutItem","Input":{"TableName":"Sdk","Item":{"PK":{"S":"p#2"},"SK":{"S":"gone"}}}}
{"Operation":"PutItem","Input":{"TableName":"Sdk","Item":{"PK":{"S":"p#2"},"SK":{"S":"b"}}}}
EOF
    [ "$(grep -c '"Error"' "$tmp/seed.out")" -le 1 ]   # the first DeleteTable may fail
}

# The item PK/SK as `ddbx api` answers GetItem (one line).
get() {
    echo "{\"Operation\":\"GetItem\",\"Input\":{\"TableName\":\"Sdk\",\"Key\":{\"PK\":{\"S\":\"$1\"},\"SK\":{\"S\":\"$2\"}}}}" | api
}

# What each case must have done to the table; $out is the program's output.
check() {
    case $1 in
    put_all_types)
        get 'p#1' types | grep -q '"b":{"B":"AAH/"}.*"bs":{"BS":\["AA==","/w=="\]}.*"n":{"N":"-12.5"}.*"s":{"S":"\\"quoted\\" \\u0001 한글"}' ;;
    get_item) grep -q 'Seoul' "$out" && ! grep -q '"SK"' "$out" ;;
    update_item) grep -q 'Jeju' "$out" && get 'p#1' a | grep -q '"n":{"N":"2"}' ;;
    query) grep -q '"Count": 1' "$out" ;;
    scan) grep -q '"Items"' "$out" ;;
    delete_item) ! get 'p#2' gone | grep -q '"Item"' && grep -q 'gone' "$out" ;;
    transact) get 'p#3' t | grep -q '"v":{"N":"1"}' && ! get 'p#1' a | grep -q '"n"' &&
              ! get 'p#2' b | grep -q '"Item"' ;;
    batch_write) get 'p#4' w | grep -q '"bin":{"B":"3q2+7w=="}' && ! get 'p#3' t | grep -q '"Item"' ;;
    batch_get) [ "$(grep -c '"p#[14]"' "$out")" -ge 2 ] ;;
    *) return 1 ;;
    esac
}

# Credentials and region as a user's environment would give them; the
# endpoint through the SDKs' own setting (JavaScript) or, for boto3
# (Debian's 1.26 predates AWS_ENDPOINT_URL), given to boto3.client by a
# wrapper that then runs the copied file unchanged.
export AWS_ACCESS_KEY_ID=AKIDSDKTEST AWS_SECRET_ACCESS_KEY=not-a-secret AWS_REGION=us-east-1 \
    AWS_DEFAULT_REGION=us-east-1 AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$port" \
    AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
cat > "$tmp/run_boto3.py" <<'EOF'
import os, runpy, sys
import boto3
_client = boto3.client
def client(name, *a, **k):
    k.setdefault("endpoint_url", os.environ["AWS_ENDPOINT_URL_DYNAMODB"])
    return _client(name, *a, **k)
boto3.client = client
runpy.run_path(sys.argv[1], run_name="__main__")
EOF

for lang in js python; do
    seed || { notok "$lang: seeding table Sdk: $(head -c 300 "$tmp/seed.out")"; continue; }
    for c in $("$gen" list); do
        src=$tmp/$c.$lang
        out=$tmp/$c.$lang.out
        case $lang in js) src=$tmp/$c.mjs;; python) src=$tmp/$c.py;; esac
        "$gen" "$lang" "$c" > "$src" || { notok "$lang $c: codegen failed"; continue; }
        if [ "$lang" = js ]; then
            node "$src" > "$out" 2> "$out.err"
        else
            "$py" "$tmp/run_boto3.py" "$src" > "$out" 2> "$out.err"
        fi
        rc=$?
        if [ $rc -ne 0 ]; then
            notok "$lang $c: the copied code runs against ddbx serve (exit $rc)"
            tail -n 6 "$out.err" | sed 's/^/# /'
        elif ! check "$c"; then
            notok "$lang $c: the copied code did what the request says"
            head -c 800 "$out" | sed 's/^/# /'
        else
            ok "$lang $c: the copied code runs against ddbx serve and does what the request says"
        fi
    done
done

# Go: golden text; gofmt parses it when Debian's golang-go is installed.
for c in $("$gen" list); do
    "$gen" go "$c" > "$tmp/$c.go" || { notok "go $c: codegen failed"; continue; }
    if [ "$UPDATE" = 1 ]; then
        mkdir -p "$here/golden" && cp "$tmp/$c.go" "$here/golden/$c.go"
    fi
    if ! cmp -s "$tmp/$c.go" "$here/golden/$c.go"; then
        notok "go $c: the text matches tests/sdk/golden/$c.go (UPDATE=1 rewrites it)"
        diff -u "$here/golden/$c.go" "$tmp/$c.go" | head -n 30 | sed 's/^/# /'
        continue
    fi
    if command -v gofmt >/dev/null 2>&1 && ! gofmt -e "$tmp/$c.go" > /dev/null 2> "$tmp/gofmt.err"; then
        notok "go $c: gofmt parses the Go"
        head -n 5 "$tmp/gofmt.err" | sed 's/^/# /'
        continue
    fi
    ok "go $c: the text matches its golden file$(command -v gofmt >/dev/null 2>&1 && echo ' and gofmt parses it')"
done
exit $bad
