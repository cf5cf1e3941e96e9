# Sourced by the suites that need node: tests/node's packages (dynalite,
# the AWS SDK for JavaScript), installed into tests/node/node_modules once
# and again when tests/node/package.json changes. One install at a time:
# make test and make asan may run suites side by side.
#
#   node_ready || fail "$node_err"
#
# Needs $root (the repository). Sets $nodedir. Returns 1 with the reason in
# $node_err when node or npm is missing or the install failed: a suite that
# needs node FAILS then, it never skips.
node_ready() {
    nodedir=$root/tests/node
    node_err=""
    if ! command -v node >/dev/null 2>&1; then
        node_err="node is not installed (tools/deps.sh installs nodejs and npm)"; return 1
    fi
    if ! command -v npm >/dev/null 2>&1; then
        node_err="npm is not installed (tools/deps.sh installs nodejs and npm)"; return 1
    fi
    (
        flock 9
        if [ ! -f "$nodedir/node_modules/dynalite/package.json" ] ||
           [ ! -f "$nodedir/node_modules/@aws-sdk/client-dynamodb/package.json" ] ||
           [ ! -f "$nodedir/node_modules/@aws-sdk/client-dynamodb-streams/package.json" ] ||
           [ "$nodedir/package.json" -nt "$nodedir/node_modules/.package-lock.json" ]; then
            echo "# installing tests/node's packages into tests/node/node_modules" >&2
            (cd "$nodedir" && npm install --no-audit --no-fund --loglevel=error >&2)
        fi
    ) 9>"$nodedir/.install.lock" || { node_err="npm install in tests/node failed (see stderr)"; return 1; }
    for pkg in dynalite @aws-sdk/client-dynamodb @aws-sdk/client-dynamodb-streams; do
        if [ ! -f "$nodedir/node_modules/$pkg/package.json" ]; then
            node_err="$pkg missing from tests/node/node_modules after npm install"; return 1
        fi
    done
}
