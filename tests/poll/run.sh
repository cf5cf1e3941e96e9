#!/bin/sh
# The server loop's portable fallback (issue 43 item 8): `make POLLER=poll`
# builds ddbx with ui/poller_poll.c (POSIX poll()) in place of epoll and
# with the POSIX calls a system without Linux's compiles (accept and
# fcntl, a pipe, a sigtimedwait of its own; POLLER_PORTABLE), into
# $BUILD-poll; `make test` builds it. This suite checks that binary is
# the fallback (it imports poll and none of Linux's own calls; the
# default binary keeps epoll),
# then runs the same `serve` suites against it: tests/serve (the SDK's
# every operation, concurrency, 2,000 idle keep-alive connections, a
# clean SIGTERM) and tests/harden's serve part (load, malformed requests,
# slowloris). Prints TAP. POLL_DDBX names another binary.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${BUILD:=build}"
: "${DDBX:=$root/$BUILD/ddbx}"
: "${POLL_DDBX:=$root/${BUILD}-poll/ddbx}"
tap_name=poll
. "$root/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-poll.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$POLL_DDBX" ]; then
    tap 1 "no forced poll() build at $POLL_DDBX (make test builds it; make POLLER=poll alone too)"
    exit 1
fi
imports() { objdump -T "$1" | awk '/\*UND\*/ { print $NF }'; }
imports "$POLL_DDBX" >"$tmp/poll.syms"
imports "$DDBX" >"$tmp/default.syms"
# Linux's own calls a macOS build would not find (README, "Systems").
linux_only='epoll_.*|accept4|eventfd|pipe2|signalfd|timerfd_.*|sigtimedwait|getrandom|memrchr|qsort_r|sendfile'
grep -qx poll "$tmp/poll.syms" && ! grep -Eqx "$linux_only" "$tmp/poll.syms"
tap $? "$POLL_DDBX calls poll() and none of Linux's own calls: $(grep -Ex "$linux_only" "$tmp/poll.syms" | tr '\n' ' ')"
case "$(uname -s)" in
Linux) grep -qx epoll_wait "$tmp/default.syms"
       tap $? "the default build ($DDBX) keeps epoll on Linux" ;;
esac

# The same suites, their TAP renumbered into this one, each line marked.
relay() { # name, command...
    name=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    count=0
    while IFS= read -r line; do
        case "$line" in
        "ok "*|"not ok "*)
            st=0
            case "$line" in "not ok "*) st=1 ;; esac
            desc=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ *-? *//')
            tap $st "$name: $desc"
            count=$((count + 1)) ;;
        *) echo "$line" ;;
        esac
    done <"$tmp/out"
    if [ $rc -ne 0 ] || [ $count = 0 ]; then
        tap 1 "$name exited $rc after $count tests: $(tail -n 5 "$tmp/err" | tr '\n' ' ')"
    fi
}
relay test_poller env CMOCKA_MESSAGE_OUTPUT=TAP "${POLL_DDBX%/ddbx}/tests/ui/test_poller"
relay tests/serve env DDBX="$POLL_DDBX" BUILD="$BUILD" ./tests/serve/run.sh
# The harden part's helper programs (tests/tools) are the default build's:
# they link no server loop.
relay "tests/harden serve" env DDBX="$POLL_DDBX" BUILD="$BUILD" HARDEN_PARTS=serve ./tests/harden/run.sh
