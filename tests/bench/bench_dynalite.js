'use strict';
/*
 * bench_dynalite — the BENCH.md workloads against a DynamoDB endpoint
 * (dynalite on loopback), with the requests the in-process driver makes:
 * BatchWriteItem load (25 items a request, CONC requests in flight),
 * whole-partition Query on the table and on GSI1, a filtered Scan paged
 * to the end, GetItem of random existing keys. Query and GetItem run one
 * request at a time, so ops/s and latency describe the same thing.
 *
 *   node bench_dynalite.js PORT FILE.jsonl PID [queries] [gets] [reps]
 *
 * Prints one JSON object a line: {"fig": name, "value": number, ...}; PID
 * is the server's process id, for its resident memory (VmRSS/VmHWM).
 */
const fs = require('fs');
const readline = require('readline');
const path = require('path');
const { HttpClient } = require(path.join(__dirname, '..', 'node', 'ddb.js'));

const [port, file, pid] = process.argv.slice(2, 5);
const QUERIES = Number(process.argv[5] || 1000);
const GETS = Number(process.argv[6] || 3000);
const REPS = Number(process.argv[7] || 3);
const CONC = 4;
const TABLE = 'Graph';

function emit(fig, value, extra) {
  console.log(JSON.stringify(Object.assign({ fig, value }, extra || {})));
}

/* The same splitmix64 stream idea as graph.h, for reproducible choices. */
function rng(seed) {
  let s = BigInt(seed);
  const M = (1n << 64n) - 1n;
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return Number((z ^ (z >> 31n)) & 0xffffffffn);
  };
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function must(r, what) {
  if (r.Error) throw new Error(`${what}: ${r.Error.Code}: ${r.Error.Message}`);
  return r.Output;
}

function rss() {
  try {
    const t = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number((t.match(new RegExp(k + ':\\s+(\\d+)')) || [0, 0])[1]);
    return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
  } catch (e) {
    return { rss: 0, hwm: 0 };
  }
}

async function timedSerial(client, n, make, check) {
  const lat = [];
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const [op, input] = make(i);
    const a = process.hrtime.bigint();
    const out = must(await client.call(op, input), op);
    lat.push(Number(process.hrtime.bigint() - a) / 1e3);
    check(out);
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  lat.sort((x, y) => x - y);
  return { ops: n / secs, p50: pct(lat, 0.5), p99: pct(lat, 0.99) };
}

async function main() {
  const clients = Array.from({ length: CONC }, () => new HttpClient(Number(port)));
  const c0 = clients[0];
  must(await c0.call('CreateTable', {
    TableName: TABLE,
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' }, { AttributeName: 'SK', AttributeType: 'S' },
      { AttributeName: 'GSI1PK', AttributeType: 'S' }, { AttributeName: 'GSI1SK', AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: [{
      IndexName: 'GSI1',
      KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'GSI1SK', KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'ALL' },
      ProvisionedThroughput: { ReadCapacityUnits: 1000, WriteCapacityUnits: 1000 },
    }],
    ProvisionedThroughput: { ReadCapacityUnits: 1000, WriteCapacityUnits: 1000 },
  }), 'CreateTable');

  /* Read the whole file first: the load times the requests, not the disk. */
  const items = [];
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) if (line) items.push(JSON.parse(line).Item);
  const keys = items.map((it) => [it.PK.S, it.SK.S]);
  const parts = new Set(keys.map((k) => k[0])).size;

  /* W1: BatchWriteItem, 25 a request, CONC in flight. */
  const batches = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(clients.map(async (c) => {
    while (next < batches.length) {
      let req = { [TABLE]: batches[next++].map((Item) => ({ PutRequest: { Item } })) };
      while (req && Object.keys(req).length) {
        const out = must(await c.call('BatchWriteItem', { RequestItems: req }), 'BatchWriteItem');
        req = out.UnprocessedItems;
      }
    }
  }));
  const loadSecs = Number(process.hrtime.bigint() - t0) / 1e9;
  emit('W1.load', items.length / loadSecs, { unit: 'items/s' });
  items.length = 0;

  for (let rep = 0; rep < REPS; rep++) {
    const r = rng(1000 + rep);
    const q = await timedSerial(c0, QUERIES, () => ['Query', {
      TableName: TABLE, KeyConditionExpression: 'PK = :p',
      ExpressionAttributeValues: { ':p': { S: 'ACTOR#u' + (r() % parts) } },
    }], (o) => { if (o.Count !== 100) throw new Error('Query returned ' + o.Count + ' items'); });
    emit('W2.ops', q.ops); emit('W2.p50', q.p50); emit('W2.p99', q.p99);

    const g = await timedSerial(c0, QUERIES, () => ['Query', {
      TableName: TABLE, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p',
      ExpressionAttributeValues: { ':p': { S: 'TARGET#u' + (r() % parts) } },
    }], () => {});
    emit('W3.ops', g.ops); emit('W3.p50', g.p50); emit('W3.p99', g.p99);

    let scanned = 0, matched = 0, start;
    const s0 = process.hrtime.bigint();
    do {
      const input = {
        TableName: TABLE, FilterExpression: 'tier = :t',
        ExpressionAttributeValues: { ':t': { S: 'gold' } },
      };
      if (start) input.ExclusiveStartKey = start;
      const o = must(await c0.call('Scan', input), 'Scan');
      scanned += o.ScannedCount; matched += o.Count;
      start = o.LastEvaluatedKey;
    } while (start);
    const scanSecs = Number(process.hrtime.bigint() - s0) / 1e9;
    if (scanned !== keys.length) throw new Error(`Scan saw ${scanned} items of ${keys.length}`);
    emit('W4.scan', scanned / scanSecs, { matched });

    const w5 = await timedSerial(c0, GETS, () => {
      const k = keys[r() % keys.length];
      return ['GetItem', { TableName: TABLE, Key: { PK: { S: k[0] }, SK: { S: k[1] } } }];
    }, (o) => { if (!o.Item) throw new Error('GetItem found nothing'); });
    emit('W5.ops', w5.ops); emit('W5.p50', w5.p50);
  }
  const m = rss();
  emit('mem.rss', m.rss); emit('mem.hwm', m.hwm);
  clients.forEach((c) => c.close());
}

main().catch((e) => {
  console.error('bench_dynalite: ' + (e.stack || e.message));
  process.exit(1);
});
