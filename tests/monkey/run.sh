#!/bin/sh
# Random keys and commands (seeded) against the explorer on the samples,
# at sizes from 1x1 to 120x50, with resizes and clicks: every run must
# exit 0 (no crash, no sanitizer report in `make asan`); `q` may quit a
# run early, which is fine. Prints TAP.
# MONKEY_RUNS=N changes the number of runs (default 24).
cd "$(dirname "$0")" || exit 1
: "${DDBX:?DDBX must name the ddbx binary}"
runs=${MONKEY_RUNS:-24}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-monkey.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! "$DDBX" samples --db "$tmp/base.db" > "$tmp/samples.out" 2>&1; then
    echo "not ok 1 - monkey: ddbx samples failed"; exit 1
fi
bad=0
i=0
while [ $i -lt "$runs" ]; do
    i=$((i + 1))
    awk -v seed="$i" 'BEGIN {
        srand(seed)
        nk = split("j k h l g G q ? i z Z p f s a e E d n N [ ] y x R <Up> <Down> <PgUp> <PgDn> <Home> <End> <Enter> <Esc> <Left> <Right> <Tab> <C-l> <WheelUp> <WheelDown> <Backspace>", K, " ")
        nc = split(":index GSI1|:index base|:index Roster|:goto TARGET#star#3|:goto STU#a91|:fold all|:fold none|:partitions|:query ACTOR#alice|:query X \"between A and Z\"|:scan|:search fan|:search zzz|:table Music|:table StudentCourses|:table Nope|:back|:reload|:help|:index|:goto|:query --index=GSI1 TARGET#bob \">= ACTOR#a\"|:bogus|:query --filter=a<b", C, "|")
        for (l = 0; l < 40; l++) {
            if (rand() < 0.25) { print C[int(rand() * nc) + 1]; continue }
            s = ""
            n = int(rand() * 12) + 1
            for (k = 0; k < n; k++) s = s K[int(rand() * nk) + 1]
            if (rand() < 0.1) s = s sprintf("<Resize:%dx%d>", int(rand() * 120) + 1, int(rand() * 50) + 1)
            if (rand() < 0.1) s = s sprintf("<Click:%d>", int(rand() * 42) - 2)
            print s
        }
        print ":save-display out"
    }' > "$tmp/$i.keys"
    cp "$tmp/base.db" "$tmp/t.db"
    cols=$(( (i % 6) * 20 + 20 )); lines=$(( (i % 4) * 8 + 6 ))
    table=SocialGraph
    [ $((i % 3)) = 1 ] && table=StudentCourses
    [ $((i % 5)) = 2 ] && table=""
    (cd "$tmp" && env -i PATH="$PATH" HOME="$tmp" TMPDIR="$tmp" LANG=C.UTF-8 LC_ALL=C.UTF-8 \
        TERM=xterm EDITOR=true COLUMNS=$cols LINES=$lines DDBX_SCRIPT="$tmp/$i.keys" \
        ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
        "$DDBX" --db t.db $table > /dev/null 2> "$tmp/err")
    rc=$?
    if [ $rc -eq 0 ] && ! grep -q "Sanitizer" "$tmp/err"; then
        echo "ok $i - monkey: run $i (${cols}x${lines} ${table:-tables})"
    else
        echo "not ok $i - monkey: run $i (${cols}x${lines} ${table:-tables}) exited $rc"
        head -n 20 "$tmp/err" | sed 's/^/# /'
        bad=1
    fi
    rm -f "$tmp/out"
done
exit $bad
