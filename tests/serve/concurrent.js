'use strict';
/*
 * concurrent — `ddbx serve` under many clients at once: 16 keep-alive
 * HTTP connections (tests/node/ddb.js's HttpClient, one socket each) with
 * one request in flight on each, against a server run with --threads 8,
 * so that requests meet on different store connections to one file.
 * Prints TAP lines (no plan; the caller counts).
 *
 *   node concurrent.js PORT DDBX DBFILE
 *
 * DBFILE "-": the server's database is in memory (--in-memory), so no
 * other process can open it: the `ddbx api` writer beside is left out.
 *
 * The expectations are DynamoDB's: every write is atomic and isolated
 * (Developer Guide, "Working with items": an UpdateItem's ADD on a number
 * is atomic; "conditional writes": of racing writes with a condition on
 * the item's absence exactly one succeeds, the rest fail with
 * ConditionalCheckFailedException); a read returns a whole committed item
 * (reads are never of half a write); TransactWriteItems is all or nothing
 * ("Amazon DynamoDB Transactions: How it works"); a table is usable from
 * any client once CreateTable answered (DynamoDB Local and dynalite answer
 * ACTIVE at once, as ddbx does); an ExecuteTransaction token is applied
 * once ("idempotent ... ClientRequestToken"); a vector index's entries
 * and definition are the same from every connection. No request is
 * answered 500 or with a SQLite "database busy" message.
 */
const path = require('path');
const { spawn } = require('child_process');
const { HttpClient } = require(path.join(__dirname, '..', 'node', 'ddb.js'));

const [PORT, DDBX, DBFILE] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const C = 16;
const clients = Array.from({ length: C }, () => new HttpClient(PORT));

let n = 0;
function ok(cond, what, detail) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${what}`);
  if (!cond && detail !== undefined) {
    console.log('#   ' + String(typeof detail === 'string' ? detail : JSON.stringify(detail)).slice(0, 1500));
  }
}

/* Every answer that is a server fault, whatever the test expected. */
const faults = [];
async function call(c, op, input) {
  const r = await c.call(op, input);
  if (r.Error && (/InternalServer/.test(r.Error.Code) || /busy|locked|sqlite/i.test(r.Error.Message || ''))) {
    faults.push({ op, err: r.Error });
  }
  return r;
}
const all = (f) => Promise.all(clients.map((c, i) => f(c, i)));
const S = (s) => ({ S: s });
const N = (x) => ({ N: String(x) });

function table(name, pkType) {
  return {
    TableName: name, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: pkType || 'S' }, { AttributeName: 'SK', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
  };
}

async function counters() {
  const T = 'Counters';
  await call(clients[0], 'CreateTable', table(T));
  const PER = 100;
  const errs = [];
  await all(async (c) => {
    for (let i = 0; i < PER; i++) {
      const r = await call(c, 'UpdateItem', { TableName: T, Key: { PK: S('c'), SK: S('one') },
        UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': N(1) } });
      if (r.Error) errs.push(r.Error);
    }
  });
  const g = await call(clients[0], 'GetItem', { TableName: T, Key: { PK: S('c'), SK: S('one') }, ConsistentRead: true });
  const v = g.Output && g.Output.Item && g.Output.Item.n.N;
  ok(errs.length === 0 && v === String(C * PER), `${C} clients x ${PER} ADD n 1 on one counter: n = ${C * PER}`, { v, errs: errs.slice(0, 3) });
}

/* Another process writing the same file meanwhile: `ddbx api` waits on
 * SQLite's busy timeout while serve's writers hold the lock, and no
 * increment of either is lost. */
async function withApiWriter() {
  const T = 'Counters';
  const API_N = 200, PER = 20;
  const lines = [];
  for (let i = 0; i < API_N; i++) {
    lines.push(JSON.stringify({ Operation: 'UpdateItem', Input: { TableName: T, Key: { PK: S('c'), SK: S('two') },
      UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': N(1) } } }));
  }
  const api = spawn(DDBX, ['api', '--db', DBFILE], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  api.stdout.on('data', (d) => { out += d; });
  const done = new Promise((resolve) => api.on('exit', resolve));
  api.stdin.end(lines.join('\n') + '\n');
  const errs = [];
  await all(async (c) => {
    for (let i = 0; i < PER; i++) {
      const r = await call(c, 'UpdateItem', { TableName: T, Key: { PK: S('c'), SK: S('two') },
        UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': N(1) } });
      if (r.Error) errs.push(r.Error);
    }
  });
  const code = await done;
  const apiOk = out.split('\n').filter((l) => l.startsWith('{"Output"')).length;
  const g = await call(clients[0], 'GetItem', { TableName: T, Key: { PK: S('c'), SK: S('two') } });
  const v = g.Output && g.Output.Item && g.Output.Item.n.N;
  ok(code === 0 && apiOk === API_N && errs.length === 0 && v === String(API_N + C * PER),
     `\`ddbx api\` writing the same file beside ${C} HTTP writers: all ${API_N + C * PER} increments kept`,
     { code, apiOk, v, errs: errs.slice(0, 3), out: out.slice(0, 300) });
}

async function racingPuts() {
  const T = 'Counters';
  const KEYS = 20;
  let exactlyOne = 0;
  const odd = [];
  for (let k = 0; k < KEYS; k++) {
    const rs = await all((c, i) => call(c, 'PutItem', { TableName: T, Item: { PK: S('race'), SK: S('k' + k), by: N(i) },
      ConditionExpression: 'attribute_not_exists(PK)' }));
    const won = rs.filter((r) => r.Output).length;
    const lost = rs.filter((r) => r.Error && r.Error.Code === 'ConditionalCheckFailedException').length;
    if (won === 1 && lost === C - 1) exactlyOne++;
    else odd.push({ k, won, lost, other: rs.filter((r) => r.Error && r.Error.Code !== 'ConditionalCheckFailedException').map((r) => r.Error).slice(0, 2) });
  }
  ok(exactlyOne === KEYS, `${C} racing attribute_not_exists(PK) Puts of one key, ${KEYS} keys: exactly one wins each, ` +
     'the rest ConditionalCheckFailedException', odd.slice(0, 3));
}

/* Writers rewrite items whose 20 attributes all hold the same version;
 * TransactWriteItems moves two items together. Readers (GetItem, Query,
 * TransactGetItems) must never see a mix. */
async function wholeItems() {
  const T = 'Whole';
  await call(clients[0], 'CreateTable', table(T));
  const item = (sk, v) => {
    const it = { PK: S('w'), SK: S(sk) };
    for (let a = 0; a < 20; a++) it['a' + a] = N(v);
    return it;
  };
  await call(clients[0], 'PutItem', { TableName: T, Item: item('x', 0) });
  await call(clients[0], 'PutItem', { TableName: T, Item: item('y', 0) });
  const mixed = (it) => it && Object.keys(it).some((k) => k[0] === 'a' && it[k].N !== it.a0.N);
  let stop = false, reads = 0;
  const bad = [];
  const WRITERS = 6, ROUNDS = 40;
  const writer = async (c, w) => {
    for (let i = 1; i <= ROUNDS; i++) {
      const v = w * 1000 + i;
      const r = i % 2
        ? await call(c, 'PutItem', { TableName: T, Item: item('x', v) })
        : await call(c, 'TransactWriteItems', { TransactItems: [
          { Put: { TableName: T, Item: item('x', v) } }, { Put: { TableName: T, Item: item('y', v) } }] });
      if (r.Error && r.Error.Code !== 'TransactionConflictException') bad.push({ write: r.Error });
    }
  };
  const reader = async (c) => {
    while (!stop) {
      const g = await call(c, 'GetItem', { TableName: T, Key: { PK: S('w'), SK: S('x') } });
      const q = await call(c, 'Query', { TableName: T, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': S('w') } });
      reads += 2;
      if (g.Error || mixed(g.Output.Item)) bad.push({ get: g.Error || g.Output.Item });
      if (q.Error || q.Output.Items.some(mixed) || q.Output.Count !== 2) bad.push({ query: q.Error || q.Output });
    }
  };
  const ws = clients.slice(0, WRITERS).map((c, i) => writer(c, i + 1));
  const rs = clients.slice(WRITERS).map((c) => reader(c));
  await Promise.all(ws);
  stop = true;
  await Promise.all(rs);
  ok(bad.length === 0 && reads > 0, `readers during ${WRITERS} writers see whole items only (${reads} reads)`, bad.slice(0, 3));
}

/* Each transaction adds 1 to two counters; readers of both in one
 * TransactGetItems always see them equal, and none is lost. */
async function transactions() {
  const T = 'Counters';
  const PER = 30, WRITERS = 10;
  let stop = false;
  const bad = [];
  let conflicts = 0, readsDone = 0;
  const key = (sk) => ({ PK: S('tx'), SK: S(sk) });
  const writer = async (c) => {
    for (let i = 0; i < PER; i++) {
      for (;;) {
        const r = await call(c, 'TransactWriteItems', { TransactItems: ['a', 'b'].map((sk) => ({ Update: {
          TableName: T, Key: key(sk), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': N(1) } } })) });
        if (!r.Error) break;
        /* DynamoDB may refuse a transaction that meets another on the
         * same item (TransactionConflictException); a client retries. */
        if (r.Error.Code === 'TransactionConflictException' || r.Error.Code === 'TransactionCanceledException') { conflicts++; continue; }
        bad.push(r.Error);
        break;
      }
    }
  };
  const reader = async (c) => {
    while (!stop) {
      const r = await call(c, 'TransactGetItems', { TransactItems: ['a', 'b'].map((sk) => ({ Get: { TableName: T, Key: key(sk) } })) });
      readsDone++;
      if (r.Error) { bad.push(r.Error); continue; }
      const [a, b] = r.Output.Responses.map((x) => (x.Item ? x.Item.n.N : '0'));
      if (a !== b) bad.push({ a, b });
    }
  };
  const ws = clients.slice(0, WRITERS).map(writer);
  const rs = clients.slice(WRITERS).map(reader);
  await Promise.all(ws);
  stop = true;
  await Promise.all(rs);
  const g = await call(clients[0], 'TransactGetItems', { TransactItems: ['a', 'b'].map((sk) => ({ Get: { TableName: T, Key: key(sk) } })) });
  const got = g.Output ? g.Output.Responses.map((x) => x.Item && x.Item.n.N) : g.Error;
  ok(bad.length === 0 && JSON.stringify(got) === JSON.stringify([String(PER * WRITERS), String(PER * WRITERS)]),
     `TransactWriteItems from ${WRITERS} clients on two counters, TransactGetItems readers: always equal, none lost`,
     { got, bad: bad.slice(0, 3), conflicts, readsDone });
}

/* A table made, dropped and made again on one connection is used at once
 * by all the others, each with its own cached definition: the second
 * table's numeric PK must be accepted everywhere, the first's string one
 * refused. Then an index added by UpdateTable is queried from all. */
async function tablesAcrossConnections() {
  const T = 'Remade';
  await call(clients[0], 'CreateTable', table(T, 'S'));
  const first = await all((c, i) => call(c, 'PutItem', { TableName: T, Item: { PK: S('p' + i), SK: S('s') } }));
  await call(clients[1], 'DeleteTable', { TableName: T });
  const made = await call(clients[2], 'CreateTable', table(T, 'N'));
  const second = await all((c, i) => call(c, 'PutItem', { TableName: T, Item: { PK: N(i), SK: S('s'), g: S('G') } }));
  const wrong = await all((c, i) => call(c, 'PutItem', { TableName: T, Item: { PK: S('p' + i), SK: S('s') } }));
  ok(first.every((r) => r.Output) && made.Output && second.every((r) => r.Output) &&
     wrong.every((r) => r.Error && r.Error.Code === 'ValidationException'),
     'a table dropped and made again on one connection: every other one uses the new definition at once',
     { first: first.find((r) => r.Error), made: made.Error, second: second.find((r) => r.Error), wrong: wrong.find((r) => !r.Error) });
  const u = await call(clients[3], 'UpdateTable', { TableName: T,
    AttributeDefinitions: [{ AttributeName: 'g', AttributeType: 'S' }],
    GlobalSecondaryIndexUpdates: [{ Create: { IndexName: 'ByG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'KEYS_ONLY' } } }] });
  const qs = await all((c) => call(c, 'Query', { TableName: T, IndexName: 'ByG', KeyConditionExpression: 'g = :g',
    ExpressionAttributeValues: { ':g': S('G') } }));
  ok(u.Output && qs.every((r) => r.Output && r.Output.Count === C),
     'an index added by UpdateTable on one connection is queried from every other', { u: u.Error, q: qs.find((r) => r.Error || r.Output.Count !== C) });
}

/* Vector indexes across connections: an item each client put is in the
 * index every client searches and DescribeTable counts (a write
 * acknowledged is seen by every later read: the same guarantee as above;
 * the SearchVectors shapes are the API reference's). Then an index
 * deleted on one connection and another made on a third: every
 * connection searches the new one, holding only the items there. */
async function vectorsAcrossConnections() {
  const T = 'Vectors';
  const vix = (name) => ({ IndexName: name, VectorAttribute: { AttributeName: 'emb' }, Dimensions: 2,
    DistanceFunction: 'DOT_PRODUCT', Projection: { ProjectionType: 'KEYS_ONLY' } });
  const made = await call(clients[0], 'CreateTable', { ...table(T), VectorIndexes: [vix('first')] });
  const puts = await all((c, i) => call(c, 'PutItem', { TableName: T,
    Item: { PK: S('v' + i), SK: S('s'), emb: { L: [N(i), N(1)] } } }));
  const search = (c, name) => call(c, 'SearchVectors', { TableName: T, IndexName: name, TopK: 100,
    SearchVector: [N(1), N(0)] });
  /* DOT_PRODUCT with (1, 0): the highest i first. */
  const order = (k) => Array.from({ length: k }, (_, j) => 'v' + (C - 1 - j)).join(' ');
  const got = (r) => (r.Output ? r.Output.SearchResults.map((x) => x.Item.PK.S).join(' ') : JSON.stringify(r.Error));
  const count = async (c) => {
    const d = await call(c, 'DescribeTable', { TableName: T });
    return d.Output ? (d.Output.Table.VectorIndexes || []).map((x) => x.ItemCount).join(',') : JSON.stringify(d.Error);
  };
  const ss = await all((c) => search(c, 'first'));
  const cs = await all(count);
  ok(made.Output && puts.every((r) => r.Output) && ss.every((r) => got(r) === order(C)) &&
     cs.every((x) => x === String(C)),
     `${C} clients put a vector each: every client's SearchVectors finds all ${C}, DescribeTable counts ${C}`,
     { made: made.Error, put: puts.find((r) => r.Error), search: ss.map(got).find((x) => x !== order(C)),
       count: cs.find((x) => x !== String(C)) });
  await call(clients[4], 'DeleteItem', { TableName: T, Key: { PK: S('v' + (C - 1)), SK: S('s') } });
  const del = await call(clients[1], 'UpdateTable', { TableName: T, VectorIndexUpdates: [{ Delete: { IndexName: 'first' } }] });
  const add = await call(clients[2], 'UpdateTable', { TableName: T, VectorIndexUpdates: [{ Create: vix('second') }] });
  const gone = await all((c) => search(c, 'first'));
  const ss2 = await all((c) => search(c, 'second'));
  const cs2 = await all(count);
  ok(del.Output && add.Output && gone.every((r) => r.Error && r.Error.Code === 'ValidationException') &&
     ss2.every((r) => got(r) === order(C).split(' ').slice(1).join(' ')) && cs2.every((x) => x === String(C - 1)),
     'a vector index deleted on one connection and another made on a third: every connection searches the new one',
     { del: del.Error, add: add.Error, gone: gone.map(got).find((x) => !/ValidationException|specified index/.test(x)),
       search: ss2.map(got)[0], count: cs2.find((x) => x !== String(C - 1)) });
}

/* 16 ExecuteTransactions with one ClientRequestToken at once: applied
 * once, every one answered as the first (a replay within 10 minutes). */
async function partiqlToken() {
  const T = 'Counters';
  await call(clients[0], 'PutItem', { TableName: T, Item: { PK: S('pq'), SK: S('tok'), n: N(0) } });
  const rs = await all((c) => call(c, 'ExecuteTransaction', { ClientRequestToken: 'one-token-for-all',
    TransactStatements: [{ Statement: `UPDATE "${T}" SET n = n + 1 WHERE PK = 'pq' AND SK = 'tok'` }] }));
  const g = await call(clients[0], 'GetItem', { TableName: T, Key: { PK: S('pq'), SK: S('tok') } });
  ok(rs.every((r) => r.Output) && g.Output.Item.n.N === '1',
     `${C} ExecuteTransactions with one ClientRequestToken at once: applied once, all answered`,
     { n: g.Output.Item && g.Output.Item.n, err: rs.find((r) => r.Error) });
}

async function main() {
  await counters();
  if (DBFILE !== '-') await withApiWriter();
  await racingPuts();
  await wholeItems();
  await transactions();
  await tablesAcrossConnections();
  await vectorsAcrossConnections();
  await partiqlToken();
  ok(faults.length === 0, 'no answer was a 500 or a SQLite busy/locked message', faults.slice(0, 3));
  clients.forEach((c) => c.close());
}

main().catch((e) => {
  console.log(`not ok ${n + 1} - concurrent: ${e.message}`);
  process.exit(1);
});
