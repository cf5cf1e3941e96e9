#!/bin/sh
# Hostile data on a real terminal (tmux): items whose names and values
# hold OSC sequences (window title, clipboard), CSI and DCS sequences, C1
# controls, bidi overrides, backspace/CR/DEL, binary with NUL and invalid
# UTF-8, a 160 KB value, a 400 KB item, a 10,000-attribute item and 32
# levels of nesting (tests/harden/fixtures/hostile.jsonl plus the big ones
# generated here). The explorer opens each item; everything the program
# wrote to the terminal is recorded (tmux pipe-pane) and must hold none
# of the hostile sequences raw; the pane title and tmux's clipboard stay
# clean; each step answers within 5 s; quitting exits 0. TAP numbered
# from $1; next on fd 3.
n=${1:-0}
: "${DDBX:?}"
here=$(cd "$(dirname "$0")" && pwd)
tap() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
if ! command -v tmux >/dev/null 2>&1; then
    n=$((n + 1)); echo "ok $n - hostile: # SKIP tmux is not installed"
    echo "$n" >&3; exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-hostile.XXXXXX")
sock="ddbx-hostile-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server >/dev/null 2>&1; [ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
db=$tmp/h.db

# The big items: PK "big", sk 1..4.
awk 'function rep(s, k,   r) { r = ""; while (k-- > 0) r = r s; return r }
function put(sk, attrs) { printf "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Hostile\",\"Item\":{\"pk\":{\"S\":\"big\"},\"sk\":{\"N\":\"%d\"}%s}}}\n", sk, attrs }
BEGIN {
    osc = "\\u001b]0;PWNED-LONG\\u0007"
    put(1, ",\"long\":{\"S\":\"" rep("x" osc, 10000) "\"}")
    put(2, ",\"huge\":{\"S\":\"" rep("y", 409000 - 30) osc "\"}")
    a = ""
    for (i = 0; i < 10000; i++) a = a sprintf(",\"a%05d\":{\"S\":\"\\u001b[31mHOSTILE-WIDE\"}", i)
    put(3, a)
    v = "{\"S\":\"\\u001b]0;PWNED-DEEP\\u0007\"}"
    for (i = 0; i < 31; i++) v = "{\"M\":{\"\\u001b[31m" i "\":" v "}}"
    put(4, ",\"deep\":" v)
}' > "$tmp/big.jsonl"
cat "$here/fixtures/hostile.jsonl" "$tmp/big.jsonl" | "$DDBX" api --db "$db" > "$tmp/load" 2>&1
[ "$(grep -c '^{"Output"' "$tmp/load")" = 9 ]
tap $? "hostile: 8 hostile items (400 KB, 10,000 attributes, 32 levels among them) stored"

wait_for() { # text: waits up to 5 s for it on the screen
    i=0
    while [ $i -lt 50 ]; do
        T capture-pane -p -t t 2>/dev/null | grep -qF -- "$1" && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
T new-session -d -s t -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen HOME=$tmp sh -c '$DDBX --db $db Hostile; echo rc=\$? > $tmp/rc; sleep 5'"
T pipe-pane -o -t t "cat >> $tmp/raw"
wait_for "Hostile" >/dev/null
slow=""
# Open every item's detail, page through it, go back. The rows, from the
# top: the \x1b]0;... partition (1 item), big (4), esc (3); headers (H)
# fold on Enter, items (I) open.
k=0
for row in I H I I I I H I I I; do
    T send-keys -t t j
    [ $row = H ] && continue
    k=$((k + 1))
    T send-keys -t t Enter
    wait_for "bytes, read" || slow="$slow $k"
    T send-keys -t t NPage NPage G
    sleep 0.3
    T capture-pane -p -t t > "$tmp/screen.$k"
    T send-keys -t t q
    wait_for "base table" || slow="$slow $k(back)"
done
[ $k = 8 ] && [ -z "$slow" ]
tap $? "hostile: each of the $k items's detail opened and closed within 5 s${slow:+ (slow:$slow)}"
T send-keys -t t Q
i=0; while [ $i -lt 50 ] && [ ! -s "$tmp/rc" ]; do sleep 0.1; i=$((i + 1)); done
grep -q 'rc=0' "$tmp/rc" 2>/dev/null
tap $? "hostile: the explorer quits with status 0"
T pipe-pane -t t
sleep 0.2

# What reached the terminal: none of the payloads raw.
ESC=$(printf '\033')
raw_has() { LC_ALL=C grep -c -F -- "$1" "$tmp/raw"; }
for p in "$ESC]0;PWNED" "$ESC]52;c;" "$ESC[31mHOSTILE" "${ESC}P+q" "$(printf '\302\2333')1m" "$(printf '\302\235')0;C1" "$(printf '\342\200\256')evil"; do
    c=$(raw_has "$p")
    label=$(printf '%s' "$p" | od -An -c | tr -s ' ' | cut -c1-40)
    tap "$([ "$c" = 0 ]; echo $?)" "hostile: raw terminal output holds no [$label] ($c lines)"
done
[ -s "$tmp/raw" ] && grep -q 'PWNED' "$tmp/raw"
tap $? "hostile: the payloads were drawn (escaped), so the check above saw them"
title=$(T display -p -t t '#{pane_title}' 2>/dev/null)
case "$title" in *PWNED*) r=1 ;; *) r=0 ;; esac
tap $r "hostile: the pane title is untouched ($title)"
T list-buffers 2>/dev/null | grep -q PWNED
tap "$([ $? != 0 ]; echo $?)" "hostile: nothing was put on tmux's clipboard"
grep -h 'PWNED' "$tmp"/screen.* | head -n 1 | grep -qF '\x1b]0;PWNED'
tap $? "hostile: the screen shows the sequences escaped (\\x1b]0;PWNED...)"
echo "$n" >&3
