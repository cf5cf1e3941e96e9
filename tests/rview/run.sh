#!/bin/sh
# The explorer on a remote endpoint, end to end: dynalite (npm, in
# memory, on 127.0.0.1) loaded with the SocialGraph fixture, and the real
# explorer driven by key scripts (the screen tests' DDBX_SCRIPT mechanism)
# with --endpoint-url. Checks: the table list and item collections come
# from the endpoint, the GSI flip, the partition overview, the status line
# (endpoint, read-only, consumed capacity); / through Scan pages (wrap,
# Not found, Esc stops it); a write refused without
# --write; with --write a declined (n) and a confirmed (y) delete, checked
# in dynalite itself; a write `ddbx serve --read-only` denies
# (AccessDeniedException); a transaction sent to `ddbx serve` after one
# question that names the endpoint; and dynalite killed in the middle of a session: an
# error line, no crash, and R recovers once it is back. The kill and the
# restart happen inside the session through $EDITOR (a script that the
# explorer runs on `e` and `a`), since a key script cannot wait.
# Prints TAP. Needs node and npm (tests/node's packages, installed once as
# tests/diff does); without them this suite FAILS, it never skips.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - rview: $*"; exit 1; }

. "$root/tests/lib/node.sh"
. "$root/tests/lib/serve.sh"
node_ready || fail "$node_err"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-rview.XXXXXX") || exit 1
: >"$tmp/pids"
cleanup() {
    for p in $(cat "$tmp/pids" 2>/dev/null); do kill "$p" 2>/dev/null; done
    [ -n "$RVIEW_KEEP" ] && { echo "# kept $tmp" >&2; return; }
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# dynalite's stdin is a fifo this shell holds open (fd 7): it exits when
# we do, even if the trap is skipped. Port 0 first (the kernel picks);
# the restart reuses the port.
mkfifo "$tmp/dyn.in" || exit 1
exec 7<>"$tmp/dyn.in"
start_dynalite() { # port -> sets port
    : >"$tmp/dyn.port"
    node "$nodedir/dynalite-server.js" "$1" <"$tmp/dyn.in" >"$tmp/dyn.port" 2>>"$tmp/dyn.err" 7>&- &
    echo $! >"$tmp/dyn.pid"
    echo $! >>"$tmp/pids"
    port=""
    i=0
    while [ $i -lt 100 ]; do
        port=$(sed -n 's/^PORT //p' "$tmp/dyn.port")
        [ -n "$port" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    [ -n "$port" ]
}
start_dynalite 0 || fail "dynalite did not start: $(head -c 500 "$tmp/dyn.err")"
fixture=$root/tests/screen/fixtures/social.jsonl
node "$root/tests/rview/load.js" "$port" "$fixture" 2>"$tmp/load.err" ||
    fail "loading the fixture into dynalite failed: $(head -c 300 "$tmp/load.err")"
url=http://127.0.0.1:$port

n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - rview: $1"; }
nok() {
    n=$((n + 1)); echo "not ok $n - rview: $1"; bad=1
    [ -n "$2" ] && [ -f "$2" ] && sed 's/^/#   /' "$2" | grep -v '^#   *$' | head -n 30
}
# check DESCRIPTION FILE FIXED-TEXT...: every text is on the saved screen.
check() {
    d=$1; f=$2; shift 2
    if [ ! -f "$f" ]; then nok "$d (the screen was not saved)"; return; fi
    for t in "$@"; do
        if ! grep -qF -- "$t" "$f"; then nok "$d: no '$t'" "$f"; return; fi
    done
    ok "$d"
}
# The pinned environment of the screen tests, credentials for SigV4 (any
# will do for dynalite), one attempt per request so an outage is quick.
session() { # name keys-file ddbx-args...
    name=$1; keys=$2; shift 2
    mkdir -p "$tmp/$name/home"
    (cd "$tmp/$name" && env -i PATH="$PATH" HOME="$tmp/$name/home" TMPDIR="$tmp" \
        LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color COLUMNS=100 LINES="${LINES_:-24}" \
        ${SCAN_LIMIT:+DDBX_SCAN_LIMIT=$SCAN_LIMIT} \
        AWS_ACCESS_KEY_ID=AKIDRVIEWTEST AWS_SECRET_ACCESS_KEY=rview-test-secret \
        AWS_MAX_ATTEMPTS=1 EDITOR="$tmp/editor.sh" DDBX_SCRIPT="$keys" \
        ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
        "$DDBX" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" 7>&-)
    echo $? >"$tmp/$name.rc"
}
rc_is() { # name want
    if [ "$(cat "$tmp/$1.rc")" = "$2" ]; then ok "$1: ddbx exits $2"; else
        nok "$1: ddbx exits $(cat "$tmp/$1.rc"), expected $2" "$tmp/$1.err"; fi
}
# One GetItem straight to dynalite: prints "present" or "absent".
probe() { # PK SK
    node -e '
const { HttpClient } = require(process.argv[1]);
const c = new HttpClient(Number(process.argv[2]));
c.call("GetItem", { TableName: "SocialGraph", Key: { PK: { S: process.argv[3] }, SK: { S: process.argv[4] } } })
  .then((r) => { console.log(r.Output && r.Output.Item ? "present" : r.Error ? "error " + r.Error.Code : "absent"); c.close(); })
  .catch((e) => { console.log("error " + e.message); process.exit(1); });' "$nodedir/ddb.js" "$port" "$1" "$2"
}

# ---- 1. Browsing, read-only ----
cat >"$tmp/browse.keys" <<'EOF'
:save-display tables
<Enter>
:save-display items
:save-view items-view
i
:save-display gsi
p
:save-display parts
q
i
jj
d
:save-display refused
E
:save-display refused-attr
c
:cond attribute_exists(PK)
:apply delete
:save-display refused-builder
EOF
session browse "$tmp/browse.keys" --endpoint-url "$url"
rc_is browse 0
s=$tmp/browse
check "the table list comes from the endpoint" "$s/tables" \
    "ddbx  $url (us-east-1)  remote tables" "SocialGraph" "GSI GSI1(GSI1PK,GSI1SK) ALL"
check "the status line names the endpoint, read-only, and the capacity" "$s/tables" \
    "$url (us-east-1)  remote, read-only  consumed"
check "item collections: every partition with its items" "$s/items" \
    "ACTOR#alice  3 items" "ACTOR#bob  2 items" "ACTOR#carol  1 item" "ACTOR#dave  2 items" \
    "ACTOR#minji  2 items" "TARGET#carol  TARGET#carol  ACTOR#alice" "서울"
# The first screen is one Scan of a screen's items (issue 42), which here
# holds the whole table: every partition is known.
check "the title: approximate DescribeTable counts, the Scan complete" "$s/items" \
    "(approx.), 5 partitions (scan complete)"
if grep -q ' RCU, 0.0 WCU' "$s/items" && ! grep -q 'consumed 0.0 RCU' "$s/items"; then
    ok "reads consumed capacity, summed in the status line"
else
    nok "reads consumed capacity, summed in the status line" "$s/items"
fi
if [ "$(grep -c '^[ >] group ' "$s/items-view")" = 5 ] && [ "$(grep -c '^[ >] item ' "$s/items-view")" = 10 ]; then
    ok "the view holds 5 partitions and 10 items"
else
    nok "the view holds 5 partitions and 10 items" "$s/items-view"
fi
check "i flips to GSI1: bob is followed by alice and dave" "$s/gsi" \
    "GSI GSI1 (GSI1PK, GSI1SK, ALL)" "TARGET#bob  2 items" \
    "ACTOR#alice  ACTOR#alice  TARGET#bob" "ACTOR#dave   ACTOR#dave   TARGET#bob"
check "the partition overview ranks what the Scan found" "$s/parts" \
    "partitions by size: 3 found so far, scan complete" "TARGET#bob" "TARGET#alice"
check "a delete without --write is refused before anything is sent" "$s/refused" \
    "$url (us-east-1) is read-only: start ddbx with --write to write"
check "so is setting an attribute" "$s/refused-attr" "start ddbx with --write"
check "and the builder's :apply delete" "$s/refused-builder" \
    "ReadOnly: $url (us-east-1) is read-only (start ddbx with --write" "was not sent"
[ "$(probe ACTOR#alice TARGET#bob)" = present ] && ok "the item is still in dynalite" ||
    nok "the item is still in dynalite"

# ---- 1a. The query bar's counts come from the endpoint's answer ----
# DynamoDB's Query: Count is the items after the filter, ScannedCount
# before it (API reference, Query: "Count", "ScannedCount"). alice's
# partition has 3 items, 2 of them with followedAt. A count the remote
# backend dropped or zeroed shows here, not only in `ddbx check`.
cat >"$tmp/rquery.keys" <<'EOF'
:query ACTOR#alice
:save-display all
:query ACTOR#alice '--filter=attribute_exists(followedAt)'
:save-display filtered
:query ACTOR#alice 'begins_with TARGET#'
:save-display keyed
EOF
session rquery "$tmp/rquery.keys" --endpoint-url "$url" SocialGraph
rc_is rquery 0
s=$tmp/rquery
check "the remote query bar: Count and ScannedCount of the whole partition" "$s/all" \
    "Query: Count 3, ScannedCount 3" "TARGET#carol"
check "a filter: Count 2 of ScannedCount 3, the profile filtered out" "$s/filtered" \
    "Query: Count 2, ScannedCount 3" "TARGET#bob" "TARGET#carol"
check "a sort-key condition reads only what it matches: Count 2, ScannedCount 2" "$s/keyed" \
    "Query: Count 2, ScannedCount 2"
if grep -q 'PROFILE' "$s/filtered"; then nok "the filtered query shows no PROFILE item" "$s/filtered"; else
    ok "the filtered query shows no PROFILE item"; fi

# ---- 1b. Discovery is lazy: 2 items a Scan page, an 8-line terminal ----
cat >"$tmp/lazy.keys" <<'EOF'
:save-view first
G
:save-view last
EOF
LINES_=8 SCAN_LIMIT=2 session lazy "$tmp/lazy.keys" --endpoint-url "$url" SocialGraph
rc_is lazy 0
s=$tmp/lazy
if [ -f "$s/first" ] && grep -q "found so far (scan)" "$s/first" &&
    [ "$(grep -c '^[ >] group ' "$s/first")" -lt 5 ]; then
    ok "a small screen reads only the Scan pages it needs (title: found so far)"
else
    nok "a small screen reads only the Scan pages it needs (title: found so far)" "$s/first"
fi
# G: the end of the last partition found so far, read backward (issue 42:
# a reverse read of the last partition known, and it says what it cannot
# know): minji, the second in dynalite's order, which the first screen
# found; not a Scan of the whole table.
printf 'G\n:save-display last\n' >"$tmp/lazy-g.keys"
LINES_=8 SCAN_LIMIT=2 session lazy-g "$tmp/lazy-g.keys" --endpoint-url "$url" SocialGraph
if [ -f "$s/last" ] && grep -q '^> item .* PK=ACTOR#minji SK=TARGET#alice ' "$s/last"; then
    ok "G goes to the end of the last partition found so far"
else
    nok "G goes to the end of the last partition found so far" "$s/last"
fi
check "and says the table's end is not known" "$tmp/lazy-g/last" "the table's end is" "not known until"

# ---- 1d. / on a remote table: Scan pages through store_exec ----
# No key order to read by on an endpoint: the search reads the table with
# Scan pages (the order the view found its partitions in), goes on from
# LastEvaluatedKey, wraps to the top and says so; N, which would need a
# backward Scan, says why it cannot.
cat >"$tmp/rsearch.keys" <<'EOF'
/2024-01-05
<Snap:search-asked>y
:save-display found
:save-view found-view
n
:save-display wrapped
/no such text
:save-display notfound
:save-view notfound-view
N
:save-display backward
EOF
session rsearch "$tmp/rsearch.keys" --endpoint-url "$url" SocialGraph
rc_is rsearch 0
s=$tmp/rsearch
# The first search of a table says what reading it all costs and asks
# (issue 42, item 4): once a session, so n and the next / do not ask.
if [ -f "$s/search-asked" ] && tr '\n' ' ' <"$s/search-asked" | tr -s ' ' |
    grep -q "Search SocialGraph with Scan pages: up to the whole of it, ≈[0-9.]* [KMG]*B, ≈[0-9]* RCU.*(asked once)?"; then
    ok "a remote search asks first, with what it may read and cost"
else
    nok "a remote search asks first, with what it may read and cost" "$s/search-asked"
fi
check "/ finds an item the window has not loaded, through the endpoint" "$s/found" \
    "/2024-01-05" "ACTOR#minji  2 items"
if [ -f "$s/found-view" ] && grep -q '^> item .*followedAt=2024-01-05T10:00:00Z' "$s/found-view"; then
    ok "the match is selected"
else
    nok "the match is selected" "$s/found-view"
fi
check "n with no other match wraps to the top and says so" "$s/wrapped" \
    "search wrapped to the top: /2024-01-05"
check "a text found nowhere says so" "$s/notfound" "Not found: no such text"
if [ -f "$s/notfound-view" ] && grep -q '^> item .*followedAt=2024-01-05T10:00:00Z' "$s/notfound-view"; then
    ok "and the selection stays where it was"
else
    nok "and the selection stays where it was" "$s/notfound-view"
fi
check "N on a remote table says why it cannot" "$s/backward" "A Scan reads forward only"

# Two items a Scan page: the search goes on page after page (a progress
# line between them) and Esc stops it; the selection stays.
cat >"$tmp/rstop.keys" <<'EOF'
/no such text
y
<Esc>
:save-display stopped
:save-view stopped-view
EOF
SCAN_LIMIT=2 session rstop "$tmp/rstop.keys" --endpoint-url "$url" SocialGraph
rc_is rstop 0
check "a remote search reads Scan pages one at a time and Esc stops it" "$tmp/rstop/stopped" \
    "Search stopped after 2 items: no such text"
if [ -f "$tmp/rstop/stopped-view" ] && grep -q '^> group ' "$tmp/rstop/stopped-view"; then
    ok "the selection stays where it was"
else
    nok "the selection stays where it was" "$tmp/rstop/stopped-view"
fi

# ---- 1c. Named conditions on a remote table ----
# The endpoint has no place for them: they go to the local default
# database ($HOME/.local/share/ddbx/ddbx.db here), even without --write,
# and a local explorer on that file lists them.
cat >"$tmp/saved.keys" <<'EOF'
:table SocialGraph
:cond attribute_not_exists(PK)
:save-cond follow-once
:save-display saved
:cond attribute_exists(x)
:load-cond follow-once
:save-display loaded
:conds
:save-display listed
EOF
session saved "$tmp/saved.keys" --endpoint-url "$url"
rc_is saved 0
check "a remote explorer saves a named condition" "$tmp/saved/saved" "Saved follow-once"
# Each : command's message replaces the last one's (issue 15, 8): the
# load is seen before :conds lists.
check "and loads it back" "$tmp/saved/loaded" "Loaded follow-once"
check "and lists it" "$tmp/saved/listed" "follow-once [condition]: attribute_not_exists(PK)"
localdb=$tmp/saved/home/.local/share/ddbx/ddbx.db
cat >"$tmp/saved-local.keys" <<'EOF'
:conds
:save-display listed
EOF
if [ -f "$localdb" ]; then
    session saved-local "$tmp/saved-local.keys" --db "$localdb"
    check "it was kept in the local default database" "$tmp/saved-local/listed" \
        "follow-once [condition]: attribute_not_exists(PK)"
else
    nok "it was kept in the local default database (no $localdb)"
fi

# ---- 2. Writes with --write: asked every time ----
# (With --write, staging is on by default; these scripts turn it off to
# write at once. tests/screen/stage_*.keys and section 5 test staging.)
cat >"$tmp/write.keys" <<'EOF'
:stage off
:table SocialGraph
/TARGET#carol
y
<Enter>
q
dn
:save-display declined
dy
:save-display deleted
:save-view deleted-view
k
:save-display rest
c
:cond attribute_exists(PK)
:apply delete
n
:save-display builder-declined
:apply delete
y
:save-display builder-deleted
EOF
session write "$tmp/write.keys" --endpoint-url "$url" --write
rc_is write 0
s=$tmp/write
check "with --write the status line says writes ask first" "$s/rest" "remote, writes ask first"
check "n declines: nothing sent, the question named operation, table and key" "$s/declined" \
    "declined, not sent: DeleteItem on SocialGraph, key PK=ACTOR#alice, SK=TARGET#carol"
check "y sends the DeleteItem" "$s/deleted" "Deleted PK=ACTOR#alice SK=TARGET#carol"
# (The header's count: not read, issue 42; the items shown are alice's 2.)
if grep -q "group    ACTOR#alice" "$s/deleted-view" && [ "$(grep -c '^[ >] item .*PK=ACTOR#alice ' "$s/deleted-view")" = 2 ] &&
    ! grep -q "SK=TARGET#carol.*GSI1SK=ACTOR#alice\|PK=ACTOR#alice SK=TARGET#carol" "$s/deleted-view"; then
    ok "the view re-reads the endpoint: alice has 2 items"
else
    nok "the view re-reads the endpoint: alice has 2 items" "$s/deleted-view"
fi
[ "$(probe ACTOR#alice TARGET#carol)" = absent ] && ok "dynalite no longer has the item" ||
    nok "dynalite no longer has the item"
[ "$(probe ACTOR#bob TARGET#carol)" = present ] && ok "the other items are untouched" ||
    nok "the other items are untouched"
check "the builder's :apply delete asks too: n declines" "$s/builder-declined" \
    "declined, not sent: DeleteItem on SocialGraph, key PK=ACTOR#alice, SK="
check "and y sends it" "$s/builder-deleted" "DeleteItem: OK"

# ---- 3. The endpoint goes away mid-session, and comes back ----
# $EDITOR: the first run kills dynalite, the second starts it again on
# the same port and reloads the fixture; both exit 1 ("nothing changed").
cat >"$tmp/editor.sh" <<EOF
#!/bin/sh
state=\$(cat "$tmp/editor.state" 2>/dev/null || echo 0)
echo \$((state + 1)) >"$tmp/editor.state"
if [ "\$state" = 0 ]; then
    kill \$(cat "$tmp/dyn.pid")
    i=0
    while kill -0 \$(cat "$tmp/dyn.pid") 2>/dev/null && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
else
    : >"$tmp/dyn.port"
    node "$nodedir/dynalite-server.js" "$port" <"$tmp/dyn.in" >"$tmp/dyn.port" 2>>"$tmp/dyn.err" &
    echo \$! >"$tmp/dyn.pid"
    echo \$! >>"$tmp/pids"
    i=0
    while ! grep -q PORT "$tmp/dyn.port" && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
    node "$root/tests/rview/load.js" "$port" "$fixture" 2>>"$tmp/dyn.err"
fi
exit 1
EOF
chmod +x "$tmp/editor.sh"
cat >"$tmp/outage.keys" <<'EOF'
:stage off
:table SocialGraph
j
e
:save-display killed
R
:save-display down
j
R
:save-display still-down
a
R
:save-display up
:save-view up-view
EOF
session outage "$tmp/outage.keys" --endpoint-url "$url" --write
rc_is outage 0
s=$tmp/outage
grep -q "Dumped core\|AddressSanitizer\|runtime error" "$tmp/outage.err" &&
    nok "no crash or sanitizer report" "$tmp/outage.err" || ok "no crash or sanitizer report"
check "the editor step ran (dynalite killed)" "$s/killed" "failed; nothing changed"
# The whole message, wrapped onto the rows above the status line when
# longer than the screen (display_diag): the last 3 rows hold it.
if [ -f "$s/down" ] && tail -n 3 "$s/down" | grep -q "IOError: " && tail -n 3 "$s/down" | grep -qi "connect\|network"; then
    ok "R with the endpoint down: an error line"
else
    nok "R with the endpoint down: an error line" "$s/down"
fi
check "the view stays usable: the lines shown stay, keys work" "$s/still-down" "ACTOR#dave  2 items"
check "after the restart R reads the endpoint again" "$s/up" "ACTOR#alice  3 items" \
    "remote, writes ask first  consumed"
if [ -f "$s/up-view" ] && [ "$(grep -c '^[ >] item ' "$s/up-view")" = 10 ]; then
    ok "all 10 items are back"
else
    nok "all 10 items are back" "$s/up-view"
fi

# ---- 4. AccessDenied: ddbx serve --read-only refuses every write ----
"$DDBX" api --db "$tmp/serve.db" <"$fixture" >"$tmp/serve-load.out" 2>&1
serve_start "$tmp/serve.db" "$tmp/serve.out" "$tmp/serve.err" --read-only
echo "$srvpid" >>"$tmp/pids"
sport=$serve_port
if [ -z "$sport" ]; then
    nok "ddbx serve --read-only starts" "$tmp/serve.err"
else
    cat >"$tmp/denied.keys" <<'EOF'
:stage off
jj
dy
:save-display denied
k
:save-display after
EOF
    session denied "$tmp/denied.keys" --endpoint-url "http://127.0.0.1:$sport" --write SocialGraph
    rc_is denied 0
    if [ -f "$tmp/denied/denied" ] && tail -n 1 "$tmp/denied/denied" | grep -q "AccessDeniedException"; then
        ok "a write the endpoint denies: AccessDeniedException on the status line"
    else
        nok "a write the endpoint denies: AccessDeniedException on the status line" "$tmp/denied/denied"
    fi
    check "the view goes on" "$tmp/denied/after" "ACTOR#alice  3 items" "remote, writes ask first"
fi

# ---- 4b. Staging on a writable endpoint (ddbx serve: TransactWriteItems) ----
# With --write staging is on by default: d stages the delete, nothing is
# sent; the staged change is kept in the local default database, so the
# next session (same HOME) says so on start, and :commit sends one
# TransactWriteItems (the write gate asks once) conditioned on the item
# as read.
"$DDBX" api --db "$tmp/serve2.db" <"$fixture" >"$tmp/serve2-load.out" 2>&1
serve_start "$tmp/serve2.db" "$tmp/serve2.out" "$tmp/serve2.err"
echo "$srvpid" >>"$tmp/pids"
wport=$serve_port
if [ -z "$wport" ]; then
    nok "ddbx serve starts (for staging)" "$tmp/serve2.err"
else
    printf 'jj\nd\n:save-display staged-delete\n' >"$tmp/stage1.keys"
    printf ':save-display restarted\n:commit\ny\n:save-display committed\n' >"$tmp/stage2.keys"
    session staging "$tmp/stage1.keys" --endpoint-url "http://127.0.0.1:$wport" --write SocialGraph
    rc_is staging 0
    check "with --write an edit is staged, not sent" "$tmp/staging/staged-delete" "Staged delete of PK=ACTOR#" "1 staged"
    present() { printf '{"Operation":"GetItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"%s"},"SK":{"S":"%s"}}}}\n' "$1" "$2" |
        "$DDBX" api --db "$tmp/serve2.db" | grep -q '"Item"' && echo present || echo absent; }
    key=$(sed -n 's/.*Staged delete of PK=\([^ ]*\) SK=\([^ ]*\) .*/\1 \2/p' "$tmp/staging/staged-delete")
    # shellcheck disable=SC2086
    if [ -n "$key" ] && [ "$(present $key)" = present ]; then ok "the endpoint still has the item ($key)"
    else nok "the endpoint still has the item ($key)"; fi
    session staging "$tmp/stage2.keys" --endpoint-url "http://127.0.0.1:$wport" --write SocialGraph
    rc_is staging 0
    check "the next session says the staged change was kept" "$tmp/staging/restarted" \
        "1 staged change kept from before"
    check ":commit sends it (TransactWriteItems)" "$tmp/staging/committed" "Committed 1 change in 1 TransactWriteItems"
    # shellcheck disable=SC2086
    if [ -n "$key" ] && [ "$(present $key)" = absent ]; then ok "the endpoint no longer has the item"
    else nok "the endpoint no longer has the item ($key)"; fi
fi

# ---- 4c. A transaction on the endpoint: one question (issue 27, 9) ----
# ddbx serve (dynalite has no TransactWriteItems) on a fresh copy of the
# fixture. With --write (staging on by default) t 1 on bob's profile adds
# ADD 1 to followerCount (2); T, A asks ONE question that names the
# endpoint and says the transaction is written, not staged (it asked
# three times: the pending view, the staging note, the write gate); y
# sends it and the next key is the script's own (a second question would
# have taken it).
"$DDBX" api --db "$tmp/serve3.db" <"$fixture" >"$tmp/serve3-load.out" 2>&1
serve_start "$tmp/serve3.db" "$tmp/serve3.out" "$tmp/serve3.err"
echo "$srvpid" >>"$tmp/pids"
tport=$serve_port
turl=http://127.0.0.1:$tport
if [ -z "$tport" ]; then
    nok "ddbx serve starts (for a transaction)" "$tmp/serve3.err"
else
    cat >"$tmp/txn.keys" <<'EOF'
:table SocialGraph
:goto ACTOR#bob
j
t1
T
A<Snap:asked>y
:save-display ran
EOF
    session txn "$tmp/txn.keys" --endpoint-url "$turl" --write
    rc_is txn 0
    s=$tmp/txn
    if [ -f "$s/asked" ] && tr '\n' ' ' <"$s/asked" | tr -s ' ' |
        grep -qF "Run 1 action as one TransactWriteItems on $turl (us-east-1) (staging is on: it is written now, not staged)? (y/N)"; then
        ok "T, A on an endpoint asks one question naming it"
    else
        nok "T, A on an endpoint asks one question naming it" "$s/asked"
    fi
    check "y sends the TransactWriteItems, asked nothing more" "$s/ran" \
        "TransactWriteItems: OK, 1 action applied together"
    count=$(printf '{"Operation":"GetItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"ACTOR#bob"},"SK":{"S":"PROFILE"}}}}\n' |
        "$DDBX" api --db "$tmp/serve3.db" 2>/dev/null | sed -n 's/.*"followerCount":{"N":"\([0-9]*\)"}.*/\1/p')
    [ "$count" = 3 ] && ok "the endpoint has the ADD: followerCount 3" ||
        nok "the endpoint has the ADD: followerCount 3 (got '$count')"
fi

# ---- 4d. :undo on an endpoint (issue 30): the commit's images, a conflict ----
# An endpoint has no change log: the staged commit keeps each item's
# image as read and as written, and :undo stages the way back with the
# staged commit's condition (ui/undo.h). ddbx serve on a fresh copy of the
# fixture; with --write (staging on) d stages the deletes of alice's two
# follows, :commit sends them (the write gate asks once). Then, while
# $EDITOR runs on e, a second writer puts alice's follow of bob back with
# a note of its own. :undo names the endpoint and the two items and asks
# once (no second question from the write gate); carol's follow is put
# back, bob's is a conflict (the item someone wrote since is not
# overwritten), and d in the conflict view keeps theirs; the rest of the
# way back is sent after the write gate's question (every write to an
# endpoint asks, the conflict view's included). Expectations:
# TransactWriteItems cancels with ConditionalCheckFailed for the item
# whose condition fails (API reference, TransactWriteItems; ddbx serve
# answers as the store does).
"$DDBX" api --db "$tmp/serve4.db" <"$fixture" >"$tmp/serve4-load.out" 2>&1
serve_start "$tmp/serve4.db" "$tmp/serve4.out" "$tmp/serve4.err"
echo "$srvpid" >>"$tmp/pids"
uport=$serve_port
uurl=http://127.0.0.1:$uport
if [ -z "$uport" ]; then
    nok "ddbx serve starts (for :undo)" "$tmp/serve4.err"
else
    cat >"$tmp/editor.sh" <<EOF
#!/bin/sh
"$DDBX" api --db "$tmp/serve4.db" >/dev/null <<'REQ'
{"Operation":"PutItem","Input":{"TableName":"SocialGraph","Item":{"PK":{"S":"ACTOR#alice"},"SK":{"S":"TARGET#bob"},"note":{"S":"elsewhere"}}}}
REQ
EOF
    chmod +x "$tmp/editor.sh"
    cat >"$tmp/undo.keys" <<'EOF'
:table SocialGraph
jj
d
j
d
:commit
y
:save-display committed
:goto ACTOR#bob
j
e
:undo
<Snap:undo-asked>y
:save-display conflict
d
<Snap:gate>y
:save-display kept
EOF
    session undo "$tmp/undo.keys" --endpoint-url "$uurl" --write
    rc_is undo 0
    s=$tmp/undo
    check "the commit deletes both follows on the endpoint" "$s/committed" "Committed 2 changes in 1 TransactWriteItems"
    if [ -f "$s/undo-asked" ] && tr '\n' ' ' <"$s/undo-asked" | tr -s ' ' |
        grep -qF "Undo :commit: 2 items of SocialGraph on $uurl (us-east-1) (2 put back: PK=ACTOR#alice SK=TARGET#bob, PK=ACTOR#alice SK=TARGET#carol)?"; then
        ok ":undo on an endpoint names it, the count and the keys, and asks once"
    else
        nok ":undo on an endpoint names it, the count and the keys, and asks once" "$s/undo-asked"
    fi
    check "the item written since is a conflict, not overwritten" "$s/conflict" "Conflict on SocialGraph" \
        "another writer changed the item since it was read"
    get4() { printf '{"Operation":"GetItem","Input":{"TableName":"SocialGraph","Key":{"PK":{"S":"ACTOR#alice"},"SK":{"S":"%s"}}}}\n' "$1" |
        "$DDBX" api --db "$tmp/serve4.db" 2>/dev/null; }
    check "the rest goes on after the write gate's question" "$s/gate" "Send TransactWriteItems of 1 action"
    if get4 TARGET#carol | grep -q '"followedAt"'; then ok "carol's follow is back on the endpoint, as it was"
    else nok "carol's follow is back on the endpoint, as it was"; fi
    if get4 TARGET#bob | grep -q '"note":{"S":"elsewhere"}' && ! get4 TARGET#bob | grep -q followedAt; then
        ok "bob's follow is the other writer's (d kept theirs)"
    else nok "bob's follow is the other writer's (d kept theirs)"; fi
fi

# ---- 4e. A multi-attribute GSI key on an endpoint (issue 29, item 2) ----
# ddbx serve with the tournament fixture (TournamentRegion: HASH
# tournamentId and region): the Scan that discovers partitions projects
# both HASH attributes and names a partition by the list of their values,
# as the local store does (it keyed them by tournamentId alone, merging
# SPRING2024's regions); a partition's page is a Query with an equality on
# each; s opens the query bar on it with both values. Expectations: the
# developer guide's "Multi-attribute key schema" (every HASH attribute in
# the key condition); tests/multikey pins ddbx serve's answers.
"$DDBX" api --db "$tmp/serve5.db" <"$root/tests/screen/fixtures/matches.jsonl" >"$tmp/serve5-load.out" 2>&1
serve_start "$tmp/serve5.db" "$tmp/serve5.out" "$tmp/serve5.err"
echo "$srvpid" >>"$tmp/pids"
mport=$serve_port
if [ -z "$mport" ]; then
    nok "ddbx serve starts (for a multi-attribute key)" "$tmp/serve5.err"
else
    printf 'i\n:save-display parts\nj\ns\n:save-display bar\n:query SPRING2024|EU-WEST QUARTERFINALS | >= M\n:save-display ran\n' >"$tmp/mk.keys"
    session mk "$tmp/mk.keys" --endpoint-url "http://127.0.0.1:$mport" Matches
    rc_is mk 0
    check "partitions are the whole partition key, each with its items" "$tmp/mk/parts" \
        "[SPRING2024, EU-WEST]  2 items" "[WINTER2024, NA-EAST]  3 items"
    check "s opens the query bar on both values" "$tmp/mk/bar" "Partition value     SPRING2024 | EU-WEST" \
        'tournamentId = "SPRING2024" AND region = "EU-WEST"'
    check "a condition on both RANGE attributes runs on the endpoint" "$tmp/mk/ran" "Query: Count 1, ScannedCount 1"
fi

# ---- 5. Command line ----
"$DDBX" --endpoint-url "$url" --db "$tmp/x.db" >"$tmp/cl.out" 2>"$tmp/cl.err"
r=$?
if [ $r = 2 ] && grep -q -- "--db names a local database" "$tmp/cl.err" && [ ! -e "$tmp/x.db" ]; then
    ok "--db with --endpoint-url is refused (exit 2), no database created"
else
    nok "--db with --endpoint-url is refused (exit 2, got $r)" "$tmp/cl.err"
fi
"$DDBX" --write >"$tmp/cl.out" 2>"$tmp/cl.err"
r=$?
if [ $r = 2 ] && grep -q -- "--write is for a remote endpoint" "$tmp/cl.err"; then
    ok "--write without an endpoint is refused (exit 2)"
else
    nok "--write without an endpoint is refused (exit 2, got $r)" "$tmp/cl.err"
fi

exit $bad
