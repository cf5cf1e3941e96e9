#!/bin/sh
# bench_evolve — `ddbx evolve` on the bench table (issue 40 item 3):
#
#   bench_evolve.sh DDBX DB N
#
# copies DB (the Graph table of N items `ddbx load` made) beside it, then
# on the copy runs `ddbx evolve Graph --index ByTier --hash
# 'TIER#${tier}' --range '${followedAt}' --yes`: every item gets both
# attributes (a conditional UpdateItem each, in checkpointed pages of
# 500, after the automatic backup), then the GSI is created over them.
# Measured with /usr/bin/time: wall seconds, CPU seconds (user + system),
# peak RSS; items a second. Prints {"fig":...,"value":...} lines
# (E.*) for tests/bench/bench.js; the copy is removed after.
set -e
ddbx=$1 db=$2 n=$3
copy="$db.evolve.db"
rm -rf "$copy" "$copy-wal" "$copy-shm" "$copy-backups" "$(dirname "$copy")/patterns/evolve-Graph.ByTier.checkpoint"
cp "$db" "$copy"
out=$(mktemp "${TMPDIR:-/tmp}/bench-evolve.XXXXXX")
/usr/bin/time -f 'TIME %e %U %S %M' "$ddbx" evolve Graph --db "$copy" --index ByTier \
    --hash 'TIER#${tier}' --range '${followedAt}' --yes >"$out" 2>"$out.err" || {
    cat "$out" "$out.err" >&2
    exit 1
}
written=$(sed -n 's/^  \([0-9]*\) written by this run$/\1/p' "$out")
set -- $(grep '^TIME ' "$out.err")
wall=$2 cpu=$(echo "$3 + $4" | bc) rss=$5
[ "$written" = "$n" ] || { echo "bench_evolve: $written written, wanted $n" >&2; cat "$out" >&2; exit 1; }
echo "{\"fig\":\"E.n\",\"value\":$n}"
echo "{\"fig\":\"E.wall_s\",\"value\":$wall}"
echo "{\"fig\":\"E.cpu_s\",\"value\":$cpu}"
echo "{\"fig\":\"E.rss_kb\",\"value\":$rss}"
echo "{\"fig\":\"E.items_s\",\"value\":$(echo "$n / $wall" | bc)}"
rm -rf "$copy" "$copy-wal" "$copy-shm" "$copy-backups" "$out" "$out.err"
