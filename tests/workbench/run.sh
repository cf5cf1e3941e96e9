#!/bin/sh
# The design workbench from the command line (issue 31), on the samples:
# `ddbx model` (the entities of SocialGraph, StudentCourses, Music and
# ProfileHistory, told by their type attribute and, with it taken away, by
# their keys; the model file, read back by a pattern file; the Markdown
# design document, the same twice), `ddbx check --cost` against figures
# worked out by hand from a price file written here, `ddbx doctor` on the
# samples (nothing found) and with problems planted (a 390 KB item, TTL in
# milliseconds, an unused GSI, an item of no entity, a mixed-type
# attribute, a GSI key missing where a pattern expects the entity, a hot
# partition), a sampled table saying so, a remote table read and not
# written, and bad model and price files named with FILE:LINE:COL.
# UPDATE=1 rewrites the golden files. Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
here=$root/tests/workbench
: "${DDBX:=$root/build/ddbx}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-workbench.XXXXXX") || exit 1
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
unset DDBX_DB
export HOME="$tmp/home" AWS_EC2_METADATA_DISABLED=true LC_ALL=C.UTF-8 TZ=UTC
mkdir -p "$HOME"
command -v node >/dev/null 2>&1 || { echo "not ok 1 - workbench: node is not installed (tools/deps.sh installs it)"; exit 1; }

n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; rc=1; }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d" "exit $st" "$(head -c 800 "$out")" "$(tail -c 600 "$err")"; fi; }
has() { grep -q -- "$2" "$1"; }
out_n=0
run() {
    out_n=$((out_n + 1))
    out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    "$DDBX" "$@" >"$out" 2>"$err"
    st=$?
}
golden() { # description, file, golden name
    if [ -n "$UPDATE" ]; then
        cp "$2" "$here/$3"
        ok "$1 (golden $3 written)"
    elif cmp -s "$2" "$here/$3"; then
        ok "$1"
    else
        notok "$1" "differs from tests/workbench/$3:" "$(diff "$here/$3" "$2" | head -20)"
    fi
}

db="$tmp/s/ddbx.db"
mkdir -p "$tmp/s"
"$DDBX" samples --db "$db" >/dev/null 2>&1 || { echo "not ok 1 - ddbx samples"; exit 1; }
pats="$tmp/s/patterns"

# --- entities of the samples ---------------------------------------------------
run model SocialGraph StudentCourses Music ProfileHistory --db "$db"
check "ddbx model on the four samples: exit 0" [ "$st" = 0 ]
golden "the entities of the samples, their templates, sizes, indexes and attributes" "$out" model.txt
found=1
for want in "  follow  2413 items" "  user  2407 items" "PK = ACTOR#{id}   SK = TARGET#{id}" \
            "GSI1 (2413 of 2413): GSI1PK = TARGET#{id}   GSI1SK = ACTOR#{id}" "PK = ACTOR#{id}   SK = PROFILE" \
            "  student  4 items" "  course  4 items" "  enrollment  8 items" "SK = ENROLL#CRS#{id}" \
            "  details  4 items" "  download  6 items" "  total_downloads  4 items" \
            "GSI1 (4 of 4): GSI1PK = {artist}   GSI1SK = {title}" \
            "  profile_update  10 items" "user_id = {id}   update_timestamp = {iso8601}"; do
    has "$out" "$want" || { found=0; echo "# missing: $want"; }
done
check "SocialGraph: profile (user) and follow edge; StudentCourses: student, course, enrollment; Music; ProfileHistory" [ $found = 1 ]
# An attribute present on a few items is "<1%", never "0%" (issue 38):
# avatar is on 3 of SocialGraph's 2407 profiles.
check "a present but rare attribute's share is <1%, never 0%" \
    sh -c 'grep -q "avatar B <1%" "$0" && ! grep -q " 0%" "$0"' "$out"

# The same data without its type attributes: entities told by the keys.
for t in SocialGraph StudentCourses Music; do
    "$DDBX" export "$t" --db "$db" | sed 's/,"type":{"S":"[a-z_]*"}//' >"$tmp/$t.untyped.jsonl"
    "$DDBX" load "$tmp/$t.untyped.jsonl" --db "$tmp/k.db" --table "$t" --key PK:S,SK:S >/dev/null 2>&1
done
run model SocialGraph StudentCourses Music --db "$tmp/k.db"
golden "without a type attribute: entities told by the shape of their keys" "$out" model_keys.txt
check "...SocialGraph's two by their sort keys: profile (SK = PROFILE) and target (SK = TARGET#{id})" \
    sh -c 'grep -q "^  profile  2407 items" "$0" && grep -q "^  target  2413 items" "$0" &&
           grep -q "entities told by their keys" "$0"' "$out"

# --- the model file ----------------------------------------------------------------
run model SocialGraph StudentCourses Music ProfileHistory --db "$db" --format json
cp "$out" "$tmp/s/design.model.json"
golden "the model file (JSON) of the samples" "$out" model.json
# A pattern file that names the model instead of an "entities" block.
node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    delete j.entities;
    console.log(JSON.stringify(Object.assign({ model: "design.model.json" }, j), null, 2));' \
    "$pats/SocialGraph.json" >"$tmp/s/sg-model.json"
run check "$tmp/s/sg-model.json" --db "$db"
check "a pattern file naming the model file: entity types told by it, every SocialGraph pattern passes" \
    sh -c '[ "$0" = 0 ] && grep -q "5 patterns: 5 pass" "$1"' "$st" "$out"
# The first pattern (who-does-alice-follow) made to expect another entity.
first_type() { # new type -> stdout
    node -e '
        const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        j.patterns[0].expect.entity_types = [process.argv[2]];
        console.log(JSON.stringify(j, null, 2));' "$tmp/s/sg-model.json" "$1"
}
first_type user >"$tmp/s/sg-wrong.json"
run check "$tmp/s/sg-wrong.json" --db "$db"
check "...and a pattern expecting the wrong entity of the model fails for it" \
    sh -c '[ "$0" = 1 ] && grep -q "returned 3 follow items (allowed: user)" "$1"' "$st" "$out"
first_type fan >"$tmp/s/sg-none.json"
run check "$tmp/s/sg-none.json" --db "$db"
check "...an entity the model does not have: exit 2, FILE:LINE:COL: the entities it has" \
    sh -c '[ "$0" = 2 ] && grep -q "sg-none.json:[0-9]*:[0-9]*: patterns\[0\].expect.entity_types\[0\]: the model has no entity fan in table SocialGraph (it has: follow, user)" "$1"' "$st" "$err"
printf '{"ddbx_model": 1, "tables": {"SocialGraph": {"key": {"partition": {"PK": "S"}},\n  "entities": {"x": {"keys": {"PK": "ACTOR#{id"}}}}}}\n' >"$tmp/s/bad.model.json"
sed 's/"design.model.json"/"bad.model.json"/' "$tmp/s/sg-model.json" >"$tmp/s/sg-bad.json"
run check "$tmp/s/sg-bad.json" --db "$db"
check "...a bad model file: exit 2, the model file's FILE:LINE:COL and member" \
    sh -c '[ "$0" = 2 ] && grep -q "bad.model.json:2:37: tables.SocialGraph.entities.x.keys.PK: a template is" "$1"' "$st" "$err"

# --- the design document -------------------------------------------------------------
run model SocialGraph StudentCourses Music ProfileHistory --db "$db" --format markdown --patterns "$pats/SocialGraph.json" \
    --patterns "$pats/StudentCourses.json" --patterns "$pats/Music.json"
cp "$out" "$tmp/doc1.md"
run model SocialGraph StudentCourses Music ProfileHistory --db "$db" --format markdown --patterns "$pats/SocialGraph.json" \
    --patterns "$pats/StudentCourses.json" --patterns "$pats/Music.json"
check "the Markdown design document is the same twice (deterministic)" cmp -s "$tmp/doc1.md" "$out"
golden "the design document of the samples: tables, entities, access patterns with costs, writes, storage" "$out" design.md
doc_ok=1
for want in "^## Tables" "^## Entities" "^## Access patterns" "^## Writes" "^## Storage" \
            "| SocialGraph | follow | \`PK = ACTOR#{id}\` | \`SK = TARGET#{id}\` | GSI1: \`GSI1PK = TARGET#{id}\`, \`GSI1SK = ACTOR#{id}\` | 2413 |" \
            "| who-follows-bob | Query | SocialGraph / GSI1 | \`GSI1PK = :target\` | 2 | 0.5 |" \
            '^```json'; do
    has "$out" "$want" || { doc_ok=0; echo "# missing: $want"; }
done
check "...with the entity table, the pattern table (operation, index, key condition, items, units) and sample items" [ $doc_ok = 1 ]

# --- costs, against a hand computation ---------------------------------------------------
# Round prices, so the figures below are worked out on paper:
cat >"$tmp/prices.json" <<'EOF'
{
  "ddbx_prices": 1,
  "hours_per_month": 730,
  "regions": {
    "test-1": {
      "currency": "USD", "taken": "2026-12-01", "source": "tests/workbench/run.sh",
      "on_demand": {"read_per_million": 1, "write_per_million": 2},
      "provisioned": {"rcu_hour": 0.36, "wcu_hour": 0.72},
      "storage_gb_month": 1
    }
  }
}
EOF
run check "$pats/SocialGraph.json" --db "$db" --cost --price "$tmp/prices.json" --price-region test-1 --format json
cp "$out" "$tmp/cost.json"
# who-does-alice-follow: 0.5 RCU a call (3 items, one 4 KB page, eventually consistent).
#   on-demand: 0.5 x $1 a million = $0.50 a million calls;
#   provisioned: a million calls at one a second = 1e6 s of 0.5 RCU
#     = 0.5 x $0.36 x 1e6 / 3600 = $50 a million;
#   at 200/s: 100 RCU a second x 730 h x 3600 s = 262.8 million units = $262.80 a month
#     on-demand; 100 RCU provisioned x $0.36 x 730 h = $26,280 a month.
# A follow edge's write: 1 unit in the table + 1 in GSI1 = 2: $4 a million
#   on-demand, 2 x $0.72 x 1e6 / 3600 = $400 a million provisioned.
cost_of() { # pattern-or-entity member
    node -e '
        const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        const p = j.patterns.find((x) => x.name === process.argv[2]) ||
                  j.writes.find((x) => x.entity === process.argv[2]);
        const v = (p.cost || p)[process.argv[3]];
        console.log(typeof v === "number" ? +v.toFixed(6) : v);' "$tmp/cost.json" "$1" "$2"
}
costs_ok=1
for want in "who-does-alice-follow on_demand_per_million 0.5" \
            "who-does-alice-follow provisioned_per_million 50" \
            "who-does-alice-follow on_demand_month 262.8" \
            "who-does-alice-follow provisioned_month 26280" \
            "who-does-alice-follow provisioned_units 100" \
            "follow write_units 2" "follow on_demand_per_million 4" "follow provisioned_per_million 400" \
            "user write_units 1" "user on_demand_per_million 2"; do
    set -- $want
    got=$(cost_of "$1" "$2")
    [ "$got" = "$3" ] || { costs_ok=0; echo "# $1 $2: $got, worked out $3"; }
done
check "check --cost: per million calls and a month at the rate, on-demand and provisioned, as worked out by hand" [ $costs_ok = 1 ]
# Storage: the table and GSI1, each item and entry 100 bytes more, 2^30 bytes a GB, $1 a GB-month.
printf '%s\n' '{"Operation":"DescribeTable","Input":{"TableName":"SocialGraph"}}' | "$DDBX" api --db "$db" >"$tmp/desc.json"
want_storage=$(node -e '
    const t = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).Output.Table;
    const g = t.GlobalSecondaryIndexes[0];
    console.log(+(((t.TableSizeBytes + 100 * t.ItemCount) + (g.IndexSizeBytes + 100 * g.ItemCount)) / 2 ** 30).toFixed(9));' "$tmp/desc.json")
got_storage=$(node -e '
    const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(+j.storage.filter((s) => s.table === "SocialGraph").reduce((a, s) => a + s.month, 0).toFixed(9));' "$tmp/cost.json")
check "check --cost: storage of the table and GSI1 a month ($got_storage), worked out from DescribeTable's sizes ($want_storage)" \
    [ -n "$want_storage" ] && [ "$got_storage" = "$want_storage" ]
run check "$pats/SocialGraph.json" --db "$db" --cost --price "$tmp/prices.json" --price-region test-1
check "check --cost in text: the cost line under a pattern, the writes, the storage, where the prices are from" \
    sh -c 'grep -q "      cost: \$0.50 a million on-demand, \$50.00 provisioned; at 200/s: \$262.80 a month on-demand, \$26,280.00 provisioned (100 RCU)" "$0" &&
           grep -q "  SocialGraph follow  1 + 1 GSI1 = 2 WCU a write (2x): \$4.00 a million on-demand, \$400.00 provisioned" "$0" &&
           grep -q "^prices: test-1 USD, taken 2026-12-01 from tests/workbench/run.sh" "$0"' "$out"
run check "$pats/SocialGraph.json" --db "$db" --cost
check "check --cost with the built-in prices: us-east-1, the date and source said" \
    sh -c '[ "$0" = 0 ] && grep -q "^prices: us-east-1 USD, taken 2026-10-04 from https://aws.amazon.com/dynamodb/pricing/on-demand/" "$1"' "$st" "$out"
run check "$pats/SocialGraph.json" --db "$db" --cost --price-region cn-north-1
check "a region whose on-demand read price is not known: ? for it, the known ones in yuan" \
    sh -c 'grep -q "      cost: ? a million on-demand, ¥0.161 provisioned" "$0"' "$out"
printf '{"ddbx_prices": 1, "regions": {"x": {"currency": "USD", "taken": "now",\n  "source": "here", "provisioned": {"rcu_hour": "cheap"}}}}\n' >"$tmp/badprice.json"
run check "$pats/SocialGraph.json" --db "$db" --cost --price "$tmp/badprice.json" --price-region x
check "a bad price file: exit 2, FILE:LINE:COL and the member" \
    sh -c '[ "$0" = 2 ] && grep -q "badprice.json:2:49: regions.x.provisioned.rcu_hour: must be a number, 0 or more" "$1"' "$st" "$err"
run check "$pats/SocialGraph.json" --db "$db" --cost --price-region mars-1
check "a region the price file does not have: exit 2, the regions it has" \
    sh -c '[ "$0" = 2 ] && grep -q "has no prices for the region mars-1 (it has: us-east-1 cn-north-1 cn-northwest-1)" "$1"' "$st" "$err"

# --- doctor ------------------------------------------------------------------------------------
run doctor --db "$db"
check "ddbx doctor on the samples: nothing found, exit 0" sh -c '[ "$0" = 0 ] && grep -q "^0 findings" "$1"' "$st" "$out"
node -e '
    const big = "x".repeat(390 * 1024);
    const l = [
      {Operation:"PutItem",Input:{TableName:"SocialGraph",Item:{PK:{S:"ACTOR#big"},SK:{S:"PROFILE"},type:{S:"user"},bio:{S:big}}}},
      {Operation:"UpdateTimeToLive",Input:{TableName:"SocialGraph",TimeToLiveSpecification:{Enabled:true,AttributeName:"expiresAt"}}},
      {Operation:"PutItem",Input:{TableName:"SocialGraph",Item:{PK:{S:"ACTOR#temp"},SK:{S:"PROFILE"},type:{S:"user"},expiresAt:{N:"1767225600000"}}}},
      {Operation:"UpdateTable",Input:{TableName:"SocialGraph",AttributeDefinitions:[{AttributeName:"followedAt",AttributeType:"S"}],
        GlobalSecondaryIndexUpdates:[{Create:{IndexName:"ByDate",KeySchema:[{AttributeName:"followedAt",KeyType:"HASH"}],Projection:{ProjectionType:"KEYS_ONLY"}}}]}},
      {Operation:"PutItem",Input:{TableName:"SocialGraph",Item:{PK:{S:"ACTOR#ghost"},SK:{S:"NOTE"},text:{S:"no type"}}}},
      {Operation:"PutItem",Input:{TableName:"SocialGraph",Item:{PK:{S:"ACTOR#odd"},SK:{S:"PROFILE"},type:{S:"user"},followerCount:{S:"many"}}}},
      {Operation:"PutItem",Input:{TableName:"SocialGraph",Item:{PK:{S:"ACTOR#odd"},SK:{S:"TARGET#bob"},type:{S:"follow"}}}},
    ];
    for (const x of l) console.log(JSON.stringify(x));' >"$tmp/plant.jsonl"
cp "$db" "$tmp/planted.db"
"$DDBX" api --db "$tmp/planted.db" <"$tmp/plant.jsonl" >"$tmp/plant.out" 2>&1
run doctor SocialGraph --db "$tmp/planted.db" --patterns "$pats/SocialGraph.json"
cp "$out" "$tmp/doctor.txt"
check "ddbx doctor with problems planted: exit 1" [ "$st" = 1 ]
golden "the findings, each with what to do" "$out" doctor.txt
doc_found=1
for want in "^big-item  *SocialGraph: the item PK=ACTOR#big SK=PROFILE is 390.0 KB, 98% of the 400 KB item limit" \
            "^ttl-milliseconds  *SocialGraph: 1 item whose TTL attribute expiresAt is epoch milliseconds" \
            "^unused-index  *SocialGraph: no access pattern reads the GSI ByDate" \
            "^no-entity  *SocialGraph: 1 item matches no entity of the table's type attribute (the first: PK=ACTOR#ghost SK=NOTE)" \
            "^mixed-types  *SocialGraph: the attribute followerCount of user items holds more than one type: N 2407/S 1" \
            "^sparse-by-accident  *SocialGraph: 1 of 2414 follow items lack GSI1PK or GSI1SK" \
            " do: divide by 1000"; do
    has "$out" "$want" || { doc_found=0; echo "# missing: $want"; }
done
check "...a 390 KB item, TTL in milliseconds, an unused GSI, an item of no entity, a mixed type, a GSI key missing where a pattern expects it" [ $doc_found = 1 ]
run doctor SocialGraph --db "$tmp/planted.db" --patterns "$pats/SocialGraph.json" --format json
check "doctor --format json: the findings with their kind and key" \
    sh -c 'grep -q "\"kind\":\"big-item\",\"table\":\"SocialGraph\",\"index\":null" "$0" && grep -q "\"count\":6}" "$0"' "$out"
# A hot partition: 150 of 200 items in one.
awk 'BEGIN { for (i = 0; i < 150; i++) printf "{\"PK\":{\"S\":\"HOT\"},\"SK\":{\"S\":\"%03d\"}}\n", i;
             for (i = 0; i < 50; i++) printf "{\"PK\":{\"S\":\"P%03d\"},\"SK\":{\"S\":\"x\"}}\n", i }' >"$tmp/hot.jsonl"
"$DDBX" load "$tmp/hot.jsonl" --db "$tmp/hot.db" --table Hot --key PK:S,SK:S >/dev/null 2>&1
run doctor --db "$tmp/hot.db"
check "a partition with 75% of a table's items: hot-partition, and what to do" \
    sh -c '[ "$0" = 1 ] && grep -q "^hot-partition  *Hot: the partition HOT of the table holds 75% of its items (150 of 200)" "$1" &&
           grep -q "write-shard the key" "$1"' "$st" "$out"
# A declared model: items matching none of its entities.
run doctor SocialGraph --db "$db" --model "$tmp/s/design.model.json" --patterns "$pats/SocialGraph.json"
check "doctor --model on the data it was made from: nothing found" [ "$st" = 0 ]
run doctor SocialGraph --db "$tmp/planted.db" --model "$tmp/s/design.model.json" --patterns "$pats/SocialGraph.json"
check "doctor --model: the untyped item matches no entity of the model file" \
    has "$out" "^no-entity  *SocialGraph: 1 item matches no entity of the model file (the first: PK=ACTOR#ghost SK=NOTE)"

# --- a big table is sampled, and says so ------------------------------------------------------------
awk 'BEGIN { for (p = 0; p < 3000; p++) for (i = 0; i < 10; i++)
    printf "{\"PK\":{\"S\":\"U#%04d\"},\"SK\":{\"S\":\"E#%02d\"},\"n\":{\"N\":\"%d\"}}\n", p, i, i }' >"$tmp/big.jsonl"
"$DDBX" load "$tmp/big.jsonl" --db "$tmp/big.db" --table Big --key PK:S,SK:S >/dev/null 2>&1
run model Big --db "$tmp/big.db" --sample 1000
check "a table of 30000 items with --sample 1000: about 1000 read, and it says it is a sample" \
    sh -c 'grep -q "^read 10[0-9][0-9] of 30000 items (a sample: the table is bigger than what was read)" "$0"' "$out"
run model Big --db "$tmp/big.db"
check "...and read whole with the default sample of 10000? No: sampled too" \
    has "$out" "^read 10[0-9][0-9][0-9] of 30000 items (a sample"
run model Big --db "$tmp/big.db" --all
check "--all reads every item" has "$out" "^read 30000 of 30000 items (the whole table)"

# --- a remote table: read, not written, and what it cost said -------------------------------------
. "$root/tests/lib/serve.sh"
cp "$db" "$tmp/served.db"
if serve_start "$tmp/served.db" "$tmp/serve.out" "$tmp/serve.err"; then
    pids="$pids $srvpid"
    export AWS_ACCESS_KEY_ID=AKIDWB AWS_SECRET_ACCESS_KEY=wbSECRET
    "$DDBX" export StudentCourses --db "$tmp/served.db" >"$tmp/before.jsonl"
    run model StudentCourses --endpoint-url "http://127.0.0.1:$serve_port"
    check "ddbx model on a remote table: the same entities" \
        sh -c '[ "$0" = 0 ] && grep -q "^  enrollment  8 items" "$1" && grep -q "^read 16 of 16 items" "$1"' "$st" "$out"
    check "...stderr says what it read and consumed, and that nothing was written" \
        has "$err" "^ddbx model: read 16 items in 16 Scan requests from http://127.0.0.1:$serve_port (us-east-1), [0-9.]* read capacity units consumed; nothing was written"
    "$DDBX" export StudentCourses --db "$tmp/served.db" >"$tmp/after.jsonl"
    check "...and the table is as it was" cmp -s "$tmp/before.jsonl" "$tmp/after.jsonl"
    run doctor StudentCourses --endpoint-url "http://127.0.0.1:$serve_port" --patterns "$pats/StudentCourses.json"
    check "ddbx doctor on a remote table: nothing found, partition sizes said to be unknown there" \
        sh -c '[ "$0" = 0 ] && grep -q "partition sizes are not known on a remote table" "$1"' "$st" "$out"
else
    notok "ddbx serve started" "$(cat "$tmp/serve.err")"
fi

echo "1..$n"
exit $rc
