# Sourced by the suites that start `ddbx serve`.
#
#   serve_start DB OUT ERR [ARGS...]
#
# Starts "$DDBX" serve --db DB --port 0 ARGS (DB "-": no --db) in the background, stdout to
# OUT and stderr to ERR: the kernel picks a free port and ddbx prints it
# on stdout. Sets $srvpid, and $serve_port once the server listens;
# returns 1 with serve_port empty when it exited or did not listen within
# 10 s (ERR says why). The caller kills $srvpid. With SERVE_NOFILE=N the
# server runs under a file limit of N (soft and hard).
serve_start() {
    _db=$1 _out=$2 _err=$3
    shift 3
    : >"$_out"
    [ "$_db" = - ] || set -- --db "$_db" "$@"
    if [ -n "$SERVE_NOFILE" ]; then
        sh -c 'ulimit -n "$1" && shift && exec "$@"' sh "$SERVE_NOFILE" \
            "$DDBX" serve --port 0 "$@" >"$_out" 2>"$_err" 7>&- &
    else
        "$DDBX" serve --port 0 "$@" >"$_out" 2>"$_err" 7>&- &
    fi
    srvpid=$!
    serve_port=""
    _i=0
    while [ $_i -lt 100 ]; do
        serve_port=$(sed -n 's|^ddbx serve: listening on http://127\.0\.0\.1:\([0-9][0-9]*\)$|\1|p' "$_out")
        [ -n "$serve_port" ] && return 0
        kill -0 "$srvpid" 2>/dev/null || return 1
        sleep 0.1
        _i=$((_i + 1))
    done
    return 1
}
