'use strict';
/*
 * latency — the measuring instrument of issue 42: a proxy in front of a
 * DynamoDB endpoint (`ddbx serve`, dynalite) that delays each request and
 * each answer by DELAY_MS (so the round trip grows by 2 x DELAY_MS, as from
 * a laptop to an AWS region) and logs every request, one JSON object a
 * line, to LOG:
 *   {"n":1,"op":"Query","table":"Big","index":"GSI1","limit":40,
 *    "select":null,"consistent":false,"proj":"#k","segment":null,
 *    "total_segments":null,"start":false,"status":200,
 *    "rcu":1.5,"wcu":0,"items":40,"bytes":12345,"t0":..,"t1":..}
 * rcu and wcu come from the answer's ConsumedCapacity (the whole answer's,
 * table and indexes together; an array summed); items is the answer's
 * Count (or its Items' length, or its Responses' for a BatchGetItem); bytes
 * is the answer's length on the wire. A BatchGetItem's line has "keys" (how
 * many it asks for) and "consistent" when each table's ConsistentRead is. t0/t1 are milliseconds since the
 * proxy started: when the request arrived and when its answer went out.
 *
 *   node latency.js UPSTREAM_PORT DELAY_MS LOG
 * prints "PORT <n>" (the kernel picks it) and runs until stdin ends.
 * The delay can be changed while it runs: a file LOG.delay holding a
 * number of milliseconds replaces DELAY_MS for the requests after it is
 * written; "MS NAME" delays only the requests whose TableName or
 * IndexName is NAME, or a batch naming table NAME (the others go at
 * once). A request whose client
 * hung up before its answer (Esc cancelled it) is logged with
 * "aborted":true and "closed": when it hung up (same clock as t0).
 */
const fs = require('fs');
const http = require('http');

const [upPort, delayArg, logPath] = process.argv.slice(2);
if (!upPort || !logPath) {
  console.error('usage: node latency.js UPSTREAM_PORT DELAY_MS LOG');
  process.exit(2);
}
const started = Date.now();
let n = 0;

function delayNow(input) {
  try {
    const [ms, name] = fs.readFileSync(logPath + '.delay', 'utf8').trim().split(/\s+/);
    const t = Number(ms);
    if (Number.isFinite(t) && t >= 0)
      return !name || input.TableName === name || input.IndexName === name ||
        (input.RequestItems && Object.keys(input.RequestItems).includes(name)) ? t : 0;
  } catch (e) { /* no override */ }
  return Number(delayArg || 0);
}

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

/* [rcu, wcu] of an answer; a bare CapacityUnits counts as read units for
 * a read operation, else as write units. */
function capacity(op, out) {
  const cc = out && out.ConsumedCapacity;
  const one = (c) => {
    if (!c) return [0, 0];
    if (c.ReadCapacityUnits !== undefined || c.WriteCapacityUnits !== undefined)
      return [c.ReadCapacityUnits || 0, c.WriteCapacityUnits || 0];
    return READS.has(op) ? [c.CapacityUnits || 0, 0] : [0, c.CapacityUnits || 0];
  };
  if (Array.isArray(cc)) return cc.map(one).reduce((a, b) => [a[0] + b[0], a[1] + b[1]], [0, 0]);
  return one(cc);
}

function itemsOf(out) {
  if (!out) return 0;
  if (typeof out.Count === 'number') return out.Count;
  if (Array.isArray(out.Items)) return out.Items.length;
  if (out.Item) return 1;
  if (out.Responses && !Array.isArray(out.Responses))
    return Object.values(out.Responses).reduce((a, l) => a + l.length, 0);
  if (Array.isArray(out.Responses)) return out.Responses.filter((r) => r && r.Item).length;
  return 0;
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const t0 = Date.now() - started;
    const body = Buffer.concat(chunks);
    const target = String(req.headers['x-amz-target'] || '');
    const rec = { n: ++n, op: target.slice(target.indexOf('.') + 1) };
    let input = {};
    try { input = JSON.parse(body.toString('utf8') || '{}'); } catch (e) { /* logged as is */ }
    rec.table = input.TableName || (input.RequestItems ? Object.keys(input.RequestItems).join(',') : null);
    rec.index = input.IndexName || null;
    rec.limit = input.Limit === undefined ? null : input.Limit;
    rec.select = input.Select || null;
    // A BatchGetItem's: consistent when every table's ConsistentRead is
    // true; keys, the keys it asks for (null for the other operations).
    const ri = input.RequestItems && !Array.isArray(Object.values(input.RequestItems)[0])
      ? Object.values(input.RequestItems) : null;
    rec.consistent = ri ? ri.length > 0 && ri.every((t) => !!t.ConsistentRead) : !!input.ConsistentRead;
    rec.keys = ri ? ri.reduce((a, t) => a + (t.Keys || []).length, 0) : null;
    rec.proj = input.ProjectionExpression || null;
    rec.segment = input.Segment === undefined ? null : input.Segment;
    rec.total_segments = input.TotalSegments === undefined ? null : input.TotalSegments;
    rec.start = !!input.ExclusiveStartKey;
    const d = delayNow(input);
    let aborted = false;
    res.on('close', () => {
      if (res.writableEnded) return;
      aborted = true;
      rec.closed = Date.now() - started;   /* when the client hung up */
    });
    setTimeout(() => {
      const up = http.request({ host: '127.0.0.1', port: Number(upPort), method: req.method,
        path: req.url, headers: req.headers }, (ur) => {
        const out = [];
        ur.on('data', (c) => out.push(c));
        ur.on('end', () => {
          const answer = Buffer.concat(out);
          let parsed = null;
          try { parsed = JSON.parse(answer.toString('utf8') || '{}'); } catch (e) { /* not JSON */ }
          const [rcu, wcu] = capacity(rec.op, parsed);
          Object.assign(rec, { status: ur.statusCode, rcu, wcu, items: itemsOf(parsed), bytes: answer.length });
          setTimeout(() => {
            rec.t0 = t0;
            rec.t1 = Date.now() - started;
            if (aborted || res.destroyed) rec.aborted = true;   /* the client gave up (Esc) */
            fs.appendFileSync(logPath, JSON.stringify(rec) + '\n');
            if (rec.aborted) return;
            res.writeHead(ur.statusCode, ur.headers);
            res.end(answer);
          }, d);
        });
      });
      up.on('error', (e) => {
        Object.assign(rec, { status: 502, rcu: 0, wcu: 0, items: 0, bytes: 0, t0, t1: Date.now() - started });
        fs.appendFileSync(logPath, JSON.stringify(rec) + '\n');
        res.writeHead(502);
        res.end(String(e));
      });
      up.end(body);
    }, d);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
