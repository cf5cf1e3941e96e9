'use strict';
/*
 * `ddbx serve` under load and abuse (tests/harden/serve.sh runs it).
 *   node serve_load.js PORT write TABLE        a few writes for the explorer to see
 *   node serve_load.js PORT load CLIENTS OPS   concurrent clients, then malformed requests
 * Prints "ok - what" / "not ok - what" lines (the caller numbers them) and
 * "# ..." comments.
 */
const http = require('http');
const net = require('net');
const path = require('path');
const ddb = require(path.join(__dirname, '../node/node_modules/@aws-sdk/client-dynamodb'));

const PORT = Number(process.argv[2]);
const MODE = process.argv[3];
let failed = 0;
function ok(cond, what, detail) {
  if (cond) {
    console.log(`ok - ${what}`);
  } else {
    failed++;
    console.log(`not ok - ${what}`);
    if (detail !== undefined) console.log('#   ' + String(typeof detail === 'string' ? detail : JSON.stringify(detail)).slice(0, 1200).replace(/\n/g, '\n#   '));
  }
}
function client() {
  return new ddb.DynamoDBClient({
    endpoint: `http://127.0.0.1:${PORT}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDHARDENTEST', secretAccessKey: 'not-a-secret' },
    maxAttempts: 1, // an error must surface, not be retried away
  });
}
const S = (s) => ({ S: s });

function crc32(buf) {
  let table = crc32.table;
  if (!table) {
    table = crc32.table = new Int32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[i] = c;
    }
  }
  let crc = -1;
  for (const b of buf) crc = table[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/* One request on its own connection: {status, headers, body, ms}. */
function raw(target, body, headers) {
  return new Promise((resolve) => {
    const h = Object.assign({ 'Content-Type': 'application/x-amz-json-1.0' }, headers || {});
    if (target) h['X-Amz-Target'] = target;
    const t0 = Date.now();
    const req = http.request({ host: '127.0.0.1', port: PORT, method: 'POST', path: '/', headers: h, agent: false }, (res) => {
      const c = [];
      res.on('data', (d) => c.push(d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(c), ms: Date.now() - t0 }));
    });
    req.setTimeout(20000, () => req.destroy(new Error('no answer in 20 s')));
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: Buffer.from(String(e.message)), ms: Date.now() - t0 }));
    req.end(body);
  });
}

/* DynamoDB's error shape: a 4xx/5xx status, JSON with __type
 * "namespace#Name" and a message where it has one, the JSON 1.0 content
 * type, a CRC32 header matching the body, a request id. Returns the Name
 * or null. */
function errorShape(r) {
  let b;
  try { b = JSON.parse(r.body.toString()); } catch (e) { return null; }
  const type = typeof b.__type === 'string' ? b.__type : '';
  const msg = b.message !== undefined ? b.message : b.Message;
  // A message when there is one (DynamoDB's SerializationException for a
  // body that is not JSON has none: tests/data/test_serve.c).
  if (r.status < 400 || !/^[\w.]+#\w+$/.test(type) || (msg !== undefined && typeof msg !== 'string')) return null;
  if (r.headers['content-type'] !== 'application/x-amz-json-1.0') return null;
  if (Number(r.headers['x-amz-crc32']) !== crc32(r.body)) return null;
  if (!/^[0-9A-Z]{52}$/.test(r.headers['x-amzn-requestid'] || '')) return null;
  return type.slice(type.indexOf('#') + 1);
}

async function write(table) {
  const c = client();
  await c.send(new ddb.PutItemCommand({ TableName: table, Item: { PK: S('USER#new'), SK: S('FROM#endpoint'), note: S('written-through-serve') } }));
  await c.send(new ddb.UpdateItemCommand({ TableName: table, Key: { PK: S('USER#a'), SK: S('ITEM#1') },
    UpdateExpression: 'SET note = :n', ExpressionAttributeValues: { ':n': S('updated-through-serve') } }));
  await c.send(new ddb.DeleteItemCommand({ TableName: table, Key: { PK: S('USER#a'), SK: S('ITEM#2') } }));
  c.destroy();
  ok(true, 'endpoint: a put, an update and a delete through the SDK');
}

/* Pages a Query by hand to the end; returns the items' count. */
async function countPartition(c, table, pk) {
  let n = 0;
  let start;
  do {
    const r = await c.send(new ddb.QueryCommand({ TableName: table, KeyConditionExpression: 'PK = :p', ConsistentRead: true,
      ExpressionAttributeValues: { ':p': S(pk) }, Select: 'COUNT', Limit: 500, ExclusiveStartKey: start }));
    n += r.Count;
    start = r.LastEvaluatedKey;
  } while (start);
  return n;
}

async function load(clients, ops) {
  const T = 'Load';
  const c0 = client();
  await c0.send(new ddb.CreateTableCommand({
    TableName: T, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }, { AttributeName: 'SK', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
  }));
  // Each client: its own connections, one request in flight at a time;
  // puts to its partition, ADD to one counter all share, reads between.
  const t0 = Date.now();
  const errors = [];
  const counts = await Promise.all([...Array(clients).keys()].map(async (w) => {
    const c = client();
    let puts = 0, adds = 0, reqs = 0;
    for (let k = 0; k < ops; k++) {
      try {
        if (k % 5 === 0) {
          await c.send(new ddb.UpdateItemCommand({ TableName: T, Key: { PK: S('counter'), SK: S('0') },
            UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } }));
          adds++;
        } else if (k % 5 === 1) {
          await c.send(new ddb.GetItemCommand({ TableName: T, Key: { PK: S(`C#${w}`), SK: S(String(k - 2).padStart(5, '0')) } }));
        } else if (k % 5 === 2) {
          await c.send(new ddb.QueryCommand({ TableName: T, KeyConditionExpression: 'PK = :p', Limit: 10, ScanIndexForward: false,
            ExpressionAttributeValues: { ':p': S(`C#${w}`) } }));
        } else {
          await c.send(new ddb.PutItemCommand({ TableName: T, Item: { PK: S(`C#${w}`), SK: S(String(k).padStart(5, '0')), v: { N: String(k) } } }));
          puts++;
        }
      } catch (e) {
        errors.push(`client ${w} op ${k}: ${e.name}: ${e.message}`);
      }
      reqs++;
    }
    c.destroy();
    return { puts, adds, reqs };
  }));
  const secs = (Date.now() - t0) / 1000;
  const reqs = counts.reduce((a, x) => a + x.reqs, 0);
  const puts = counts.reduce((a, x) => a + x.puts, 0);
  const adds = counts.reduce((a, x) => a + x.adds, 0);
  console.log(`# ${clients} clients, ${reqs} requests in ${secs.toFixed(1)} s (${Math.round(reqs / secs)}/s)`);
  ok(errors.length === 0, `load: ${clients} concurrent clients x ${ops} requests, every one answered without an error`, errors.slice(0, 5));
  let have = 0;
  const short = [];
  for (let w = 0; w < clients; w++) {
    const n = await countPartition(c0, T, `C#${w}`);
    have += n;
    if (n !== counts[w].puts) short.push(`C#${w}: ${n} of ${counts[w].puts}`);
  }
  ok(have === puts && short.length === 0, `load: all ${puts} acknowledged puts are there, each client's in its partition`, short);
  const ctr = await c0.send(new ddb.GetItemCommand({ TableName: T, Key: { PK: S('counter'), SK: S('0') }, ConsistentRead: true }));
  const n = ctr.Item && ctr.Item.n ? Number(ctr.Item.n.N) : -1;
  ok(n === adds, `load: the counter all ${clients} clients bumped with ADD is ${adds}, no lost update (${n})`);
  c0.destroy();
}

/* A connection that sends part of a request and then nothing. */
function stall(bytes) {
  return new Promise((resolve) => {
    const s = net.connect(PORT, '127.0.0.1', () => {
      s.write(bytes);
      resolve(s);
    });
    s.on('error', () => resolve(s));
  });
}

async function malformed() {
  const list = JSON.stringify({});
  let r = await raw('DynamoDB_20120810.ListTables', '{"Limit": ');
  ok(errorShape(r) === 'SerializationException' && r.status === 400 && !/message/i.test(r.body.toString()),
     'malformed: truncated JSON is a 400 SerializationException in DynamoDB\'s shape (no message)', r.status + ' ' + r.body);
  r = await raw('DynamoDB_20120810.ListTables', '[]');
  ok(errorShape(r) === 'SerializationException' && r.status === 400, 'malformed: a JSON list for a body is a SerializationException', r.status + ' ' + r.body);
  r = await raw('DynamoDB_20120810.ListTables', Buffer.from('{"ExclusiveStartTableName":"\xff\xfe"}', 'latin1'));
  ok(errorShape(r) === 'SerializationException' && r.status === 400 && !/message/i.test(r.body.toString()),
     'malformed: invalid UTF-8 is a SerializationException (not JSON: no message)', r.status + ' ' + r.body);
  r = await raw(null, list);
  ok(errorShape(r) === 'UnknownOperationException' && r.status === 400, 'malformed: no X-Amz-Target is an UnknownOperationException', r.status + ' ' + r.body);
  r = await raw('DynamoDB_20120810.Frobnicate', list);
  ok(errorShape(r) === 'UnknownOperationException' && r.status === 400, 'malformed: an unknown operation is an UnknownOperationException', r.status + ' ' + r.body);
  // (DynamoDB Streams shares the endpoint since issue 22; Kinesis does not.)
  r = await raw('Kinesis_20131202.ListStreams', list);
  ok(errorShape(r) === 'UnknownOperationException', 'malformed: another service\'s target is an UnknownOperationException', r.status + ' ' + r.body);
  // DynamoDB's 16 MB request limit: a body of exactly 16 MiB is read (a
  // ListTables padded with spaces), one byte more is refused, and the
  // server reads on.
  const huge = Buffer.alloc(16 * 1024 * 1024, 0x20);
  huge[0] = 0x7b; huge[huge.length - 1] = 0x7d;
  r = await raw('DynamoDB_20120810.ListTables', huge);
  ok(r.status === 200, 'a body of exactly 16 MiB is answered', r.status + ' ' + r.body.slice(0, 300));
  r = await raw('DynamoDB_20120810.ListTables', Buffer.concat([Buffer.from(' '), huge]));
  ok(r.status === 413 && errorShape(r) === 'ValidationException' && /16777216/.test(r.body.toString()),
    'malformed: a body of 16 MiB + 1 byte is refused (413, ValidationException, the limit named)', r.status + ' ' + r.body.slice(0, 300));
  r = await raw('DynamoDB_20120810.ListTables', list, { 'Transfer-Encoding': 'chunked' });
  ok(r.status === 200 && Array.isArray(JSON.parse(r.body).TableNames), 'a chunked request is answered', r.status + ' ' + r.body);

  // Slow and broken clients must not hold up the others: 40 connections
  // stalled inside their headers, 8 inside their bodies, 4 that sent
  // garbage; meanwhile 24 ordinary requests, each answered promptly.
  const stalled = [];
  for (let i = 0; i < 40; i++) stalled.push(await stall('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Tar'));
  for (let i = 0; i < 8; i++) {
    stalled.push(await stall('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n' +
      'Content-Type: application/x-amz-json-1.0\r\nContent-Length: 1000\r\n\r\n{"Lim'));
  }
  for (let i = 0; i < 4; i++) stalled.push(await stall(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03])));
  const during = await Promise.all([...Array(24).keys()].map(() => raw('DynamoDB_20120810.ListTables', list)));
  const slowest = Math.max(...during.map((x) => x.ms));
  const good = during.filter((x) => x.status === 200).length;
  ok(good === 24 && slowest < 5000, `slowloris: 24 requests answered while 52 connections stall (slowest ${slowest} ms)`,
    during.filter((x) => x.status !== 200).slice(0, 3).map((x) => x.status + ' ' + x.body));
  // A body cut short by the client closing: nothing answered to it, and
  // the server goes on.
  for (const s of stalled) s.destroy();
  r = await raw('DynamoDB_20120810.ListTables', list);
  ok(r.status === 200, 'after the stalled connections close the server answers', r.status + ' ' + r.body);
}

(async () => {
  if (MODE === 'write') {
    await write(process.argv[4]);
  } else if (MODE === 'load') {
    await load(Number(process.argv[4]), Number(process.argv[5]));
    await malformed();
  } else {
    throw new Error('usage: serve_load.js PORT write TABLE | load CLIENTS OPS');
  }
})().then(() => process.exit(failed ? 1 : 0), (e) => {
  ok(false, `serve_load.js ${MODE} ran to the end`, e && e.stack);
  process.exit(1);
});
