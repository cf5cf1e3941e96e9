#!/bin/sh
# The explorer in a real terminal emulator (tmux): it draws, takes keys,
# redraws on resize, shows escape sequences in data escaped, and leaves
# the terminal settings as it found them on quit and on SIGINT. Prints TAP.
# ONLY_TEST=NAME runs one part (draw, sigint, escape, picker, sweep, operator,
# clipboard, newcomer, load); a name
# that matches no part fails.
cd "$(dirname "$0")/.." || exit 1
here=$PWD
: "${DDBX:?DDBX must name the ddbx binary}"
if ! command -v tmux >/dev/null 2>&1; then
    echo "ok 1 # SKIP tmux is not installed"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-tmux.XXXXXX")
sock="ddbx-test-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
n=0; bad=0
check() { # description, command...
    n=$((n + 1)); d=$1; shift
    if "$@"; then echo "ok $n - tmux: $d"; else
        echo "not ok $n - tmux: $d"; bad=1
        T capture-pane -p -t t 2>/dev/null | sed 's/^/# /'
    fi
}
# Waits up to 5 s for text to appear on the screen.
wait_for() {
    i=0
    while [ $i -lt 50 ]; do
        T capture-pane -p -t t 2>/dev/null | grep -qF -- "$1" && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
gone() {
    i=0
    while [ $i -lt 50 ]; do
        T has-session -t t 2>/dev/null || return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}

db="$tmp/t.db"
for f in social odd; do
    "$DDBX" api --db "$db" < "$here/screen/fixtures/$f.jsonl" > "$tmp/$f.out" 2>&1
done

# A session that keeps the server up between the tests' sessions.
T new-session -d -s keep "sleep 600"
run() { # shell command to run in a fresh 80x24 session
    T kill-session -t t >/dev/null 2>&1
    T new-session -d -s t -x 80 -y 24 \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen HOME=$tmp sh -c '$1'"
}

part() { [ -z "$ONLY_TEST" ] || [ "$ONLY_TEST" = "$1" ]; }

# draw: draws, keys, resize, quit with the terminal restored.
if part draw; then
    run "trap \"\" INT; stty -g > $tmp/before; $DDBX --db $db SocialGraph; echo rc=\$? > $tmp/rc; stty -g > $tmp/after; sleep 5"
    check "the base view shows the ACTOR#alice collection" wait_for "ACTOR#alice  3 items"
    T send-keys -t t ":index GSI1" Enter
    check ":index GSI1 shows TARGET#bob's followers" wait_for "ACTOR#dave   ACTOR#dave   TARGET#bob"
    T resize-window -t t -x 30 -y 8 2>/dev/null || T resize-pane -t t -x 30 -y 8
    sleep 0.3
    T send-keys -t t j
    narrow() {
        out=$(T capture-pane -p -t t)
        echo "$out" | grep -q "SocialGraph" &&
            [ "$(echo "$out" | wc -l)" -le 8 ] &&
            [ "$(echo "$out" | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 30 ]
    }
    check "a resize to 30x8 redraws within the new size" narrow
    T resize-window -t t -x 80 -y 24 2>/dev/null || T resize-pane -t t -x 80 -y 24
    check "a resize back to 80x24 redraws the wide columns" wait_for "followedAt"
    T send-keys -t t q q
    check "q from the first view quits with status 0" sh -c "sleep 0.5; grep -q rc=0 $tmp/rc"
    check "quit leaves the terminal settings as found" cmp -s "$tmp/before" "$tmp/after"

fi

# sigint: SIGINT restores the terminal too.
if part sigint; then
    rm -f "$tmp/before" "$tmp/after"
    run "trap \"\" INT; stty -g > $tmp/before; $DDBX --db $db SocialGraph; stty -g > $tmp/after; sleep 5"
    wait_for "ACTOR#alice" >/dev/null
    T send-keys -t t C-c
    check "SIGINT (^C) leaves the terminal settings as found" sh -c "sleep 0.5; [ -f $tmp/after ] && cmp -s $tmp/before $tmp/after"

fi

# escape: data with escape sequences shows escaped in a real terminal.
if part escape; then
    run "$DDBX --db $db Odd"
    wait_for "escape" >/dev/null
    T send-keys -t t j Enter
    check "an escape sequence in data is shown as \\x1b" wait_for '\x1b[31mred'
    T send-keys -t t Q
    check "Q quits" gone

fi

# picker: the builder's path picker draws its list above the prompt, and Tab
# puts the next path that begins with what is typed into the prompt.
if part picker; then
    run "$DDBX --db $db SocialGraph"
    wait_for "ACTOR#alice" >/dev/null
    T send-keys -t t j c
    wait_for "Condition builder" >/dev/null
    T send-keys -t t +
    listed() {
        sleep 0.5
        out=$(T capture-pane -p -t t)
        echo "$out" | grep -q '^ GSI1PK' && echo "$out" | grep -q '^ followingCount' &&
            echo "$out" | grep -q '^Path:'
    }
    check "a path prompt lists the table's and index's keys and the item's paths" listed
    T send-keys -t t f o l l o w i n g Tab
    check "Tab puts the path that begins with what is typed in the prompt" wait_for "Path: followingCount"
    T send-keys -t t Escape Escape Q
    check "Q quits from the builder" gone
fi

# sweep: the explorer's idle ticks run the store's TTL sweep (every
# --ttl-interval seconds): an item whose TTL is past is deleted and the
# view on screen loses it, while the others stay (developer guide, "Using
# time to live": expired items are deleted in the background).
if part sweep; then
    sdb="$tmp/ttl.db"
    "$DDBX" api --db "$sdb" < "$here/screen/fixtures/ttl.jsonl" > "$tmp/ttl.out" 2>&1
    echo '{"Operation":"UpdateTimeToLive","Input":{"TableName":"Sessions","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}}' |
        "$DDBX" api --db "$sdb" >> "$tmp/ttl.out" 2>&1
    run "$DDBX --db $sdb --ttl-interval 0.3 Sessions"
    check "the table view opens with TTL marks" wait_for "expires 2100-01-01"
    check "the sweep deletes the expired item s2 and the view shows 3 items" wait_for "partition 1 of 2 · 3 items"
    kept() { T capture-pane -p -t t | grep -q "s1 " && ! T capture-pane -p -t t | grep -q "s2 "; }
    check "s1 (expiring in 2100) stays, s2 is gone" kept
    T send-keys -t t q q
    check "q q quits" gone
fi

# operator: in a real 80x24 terminal the builder's operator prompt shows
# its label, the pre-filled = and a pick list; typing = replaces the =
# (it read "==" once: issue 15, 1); the value type offered is the item's
# (N); Esc leaves and takes the half-made clause away.
if part operator; then
    run "$DDBX --db $db SocialGraph"
    wait_for "ACTOR#alice" >/dev/null
    T send-keys -t t j c
    wait_for "Condition builder" >/dev/null
    T send-keys -t t + f o l l o w i n g C o u n t Enter
    check "the operator prompt fits 80 columns with its value shown" wait_for "Operator: ="
    check "the operators are a pick list above it" wait_for "attribute_not_exists  the path is missing"
    T send-keys -t t =
    typed() {
        sleep 0.5
        T capture-pane -p -t t | grep -q '^Operator: =$'
    }
    check "typing = replaces the pre-filled =" typed
    T send-keys -t t Enter
    check "the value type defaults to the item's (N)" wait_for "Value 1 type: N"
    T send-keys -t t Escape
    check "Esc takes the half-made clause away" wait_for "Cancelled: no clause added"
    T send-keys -t t Escape Q
    check "Q quits from the builder" gone
fi

# clipboard: Y copies through OSC 52, which tmux (set-clipboard on) takes
# as a paste buffer: what a terminal's clipboard would get, byte for byte.
if part clipboard; then
    T set-option -g set-clipboard on
    run "$DDBX --db $db SocialGraph"
    wait_for "ACTOR#alice" >/dev/null
    T send-keys -t t j Y
    wait_for "Copy:" >/dev/null
    T send-keys -t t k
    check "the status line says what was copied" wait_for "Copied the key as DynamoDB JSON"
    copied() { [ "$(T show-buffer 2>/dev/null)" = '{"PK":{"S":"ACTOR#alice"},"SK":{"S":"PROFILE"}}' ]; }
    check "Y k puts the key on the clipboard (OSC 52, a tmux paste buffer)" copied
    T send-keys -t t Y a
    cli() { sleep 0.3; [ "$(T show-buffer 2>/dev/null)" = "aws dynamodb get-item --table-name SocialGraph --key '{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}}'" ]; }
    check "Y a puts the aws command line there, one line" cli
    T send-keys -t t Q
    check "Q quits" gone
fi

# newcomer: the first run of a newcomer (no database yet: the samples are
# loaded), a seed case with keys (t p on alice's edge to bob, T, A, y:
# refused, following twice), and Q (asking, since the refused action is
# still pending; y) quits with the terminal as found and the shell's
# screen back (the explorer drew on the alternate screen).
if part newcomer; then
    rm -f "$tmp/before" "$tmp/after" "$tmp/rc"
    mkdir -p "$tmp/newcomer"
    run "trap \"\" INT; stty -g > $tmp/before; echo shell-before; HOME=$tmp/newcomer XDG_DATA_HOME=$tmp/newcomer/data $DDBX; echo rc=\$? > $tmp/rc; stty -g > $tmp/after; echo shell-after; sleep 5"
    check "the first run lists the sample tables" wait_for "StudentCourses"
    T send-keys -t t j j Enter
    wait_for "ACTOR#alice" >/dev/null
    T send-keys -t t j j t
    check "t offers the actions as a menu" wait_for "p  Put this item"
    T send-keys -t t p T
    check "T lists the pending Put with its condition" wait_for "if attribute_not_exists(PK)"
    T send-keys -t t A
    wait_for "(y/N)" >/dev/null
    T send-keys -t t y
    check "following twice is refused" wait_for "ConditionalCheckFailed"
    # The refused action is still pending: Q asks before it is lost
    # (issue 27, 9), y quits.
    T send-keys -t t Q
    check "Q asks before a pending transaction is lost" wait_for "pending transaction (1 action) would be lost"
    T send-keys -t t y
    check "y quits with status 0" sh -c "sleep 0.5; grep -q rc=0 $tmp/rc"
    check "quit leaves the terminal settings as found" cmp -s "$tmp/before" "$tmp/after"
    check "the shell's screen is back" sh -c "T() { tmux -L $sock -f /dev/null \"\$@\"; }; T capture-pane -p -t t | grep -q shell-after && ! T capture-pane -p -t t | grep -q 'Pending transaction'"
fi

# load: in a real terminal, Esc stops :load-all between pages (a long
# Scan of 200,000 items, 10 a page), and the keys typed after it still
# reach the explorer.
if part load; then
    awk 'BEGIN { for (a = 0; a < 2000; a++) for (i = 0; i < 100; i++)
        printf "{\"PK\":{\"S\":\"USER#%05d\"},\"SK\":{\"S\":\"ITEM#%04d\"}}\n", a, i }' |
        "$DDBX" load - --table Big --key PK:S,SK:S --db "$tmp/big.db" > "$tmp/big.out" 2>&1
    run "$DDBX --db $tmp/big.db Big"
    wait_for "USER#00000" >/dev/null
    T send-keys -t t s
    wait_for "query bar" >/dev/null
    T send-keys -t t ":page-size 10" Enter ":scan" Enter
    wait_for "Count 10" >/dev/null
    T send-keys -t t ":load-all" Enter
    check "the load says its progress" wait_for "(Esc stops)"
    T send-keys -t t Escape
    check "Esc stops it between pages" wait_for "Stopped: "
    T send-keys -t t Q
    check "Q quits after" gone
fi

[ $n -gt 0 ] || { echo "not ok 1 - tmux: no check ran${ONLY_TEST:+ (ONLY_TEST=$ONLY_TEST names no part)}"; bad=1; }
exit $bad
