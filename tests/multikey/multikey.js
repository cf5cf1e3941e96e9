'use strict';
/*
 * Multi-attribute GSI keys, the same requests to `ddbx serve` and to
 * DynamoDB Local 3.3, answers compared; TAP on stdout.
 *
 *   node tests/multikey/multikey.js DDBX_PORT DDBLOCAL_PORT
 *
 * Why DynamoDB Local: it implements multi-attribute keys (up to four HASH
 * and four RANGE attributes: its CreateTable takes them, its Query orders
 * by the RANGE attributes in turn and refuses a gap or a missing HASH
 * attribute), where dynalite refuses a KeySchema of more than two. Where
 * it is the reference: the developer guide's "Multi-attribute key schema"
 * (GSI.html) says what is allowed; DynamoDB Local's answers to each case
 * (which items, in which order, LastEvaluatedKey's members) must be
 * ddbx's. Messages are compared ('message') where DynamoDB Local gives
 * DynamoDB's own wording (the RANGE and HASH refusals: issue 29 quotes
 * DynamoDB's, a public conformance suite validated against AWS the RANGE
 * ones) and where DynamoDB's is not published and ddbx takes DynamoDB
 * Local's (the KeySchema refusals of a multi-attribute key, which
 * attributes a refusal lists). Elsewhere only the error type is compared:
 * DynamoDB Local's messages differ from DynamoDB's in places (issue 29,
 * item 8).
 * Numbers are compared by value (DynamoDB Local returns them as sent).
 *
 * Not compared: a PartiQL SELECT on a multi-attribute index. DynamoDB
 * Local 3.3 refuses it ("PartiQL statements cannot be executed on tables
 * with composite HASH keys or composite RANGE keys.") while it runs
 * PartiQL on the table itself; the developer guide says nothing either
 * way, and ddbx plans such a SELECT as a Query (tests/data/test_multikey.c,
 * test_partiql), as issue 29 asks.
 */
const http = require('http');

const ports = { ddbx: Number(process.argv[2]), ddblocal: Number(process.argv[3]) };

function send(port, op, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: false, headers: {
      'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.' + op,
      Authorization: 'AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20260101/us-east-1/dynamodb/aws4_request, ' +
        'SignedHeaders=host;x-amz-date;x-amz-target, Signature=00',
      'X-Amz-Date': '20260101T000000Z', 'Content-Length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        let o = {};
        try { o = text ? JSON.parse(text) : {}; } catch (e) { o = { raw: text }; }
        resolve({ status: res.statusCode, body: o });
      });
    });
    req.on('error', reject);
    req.setTimeout(20000, () => req.destroy(new Error('timeout')));
    req.end(data);
  });
}

/* A value with numbers by value and map members in name order. */
function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = k === 'N' && typeof v[k] === 'string' ? String(Number(v[k])) : canon(v[k]);
    return out;
  }
  return v;
}

const S = (s) => ({ S: s });
const defs = (names) => names.map((n) => ({ AttributeName: n, AttributeType: n === 'u' || n === 'v' ? 'N' : 'S' }));
const H = (n) => ({ AttributeName: n, KeyType: 'HASH' });
const R = (n) => ({ AttributeName: n, KeyType: 'RANGE' });

const steps = [];
const step = (name, op, body, how) => steps.push({ name, op, body, how: how || 'answer' });

step('CreateTable with a GSI of one HASH and four RANGE attributes, and one of two and two', 'CreateTable', {
  TableName: 'multikey', BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: defs(['pk', 'h', 'a', 'b', 'c', 'd', 't', 'u', 'v']),
  KeySchema: [H('pk')],
  GlobalSecondaryIndexes: [
    { IndexName: 'gsi', KeySchema: [H('h'), R('a'), R('b'), R('c'), R('d')], Projection: { ProjectionType: 'ALL' } },
    { IndexName: 'num', KeySchema: [H('t'), H('u'), R('v'), R('d')], Projection: { ProjectionType: 'KEYS_ONLY' } },
  ],
}, 'ok');
const rows = [
  ['p1', 'T', 'live', 'b', 'r1', '10'], ['p2', 'T', 'live', 'a', 'r2', '9'], ['p3', 'T', 'live', 'a', 'r1', '9'],
  ['p4', 'T', 'draft', 'c', 'r1', '-1.5'], ['p5', 'F', 'live', 'a', 'r0', '100'], ['p6', 'T', 'live', null, 'r1', '2'],
];
for (const [pk, a, b, c, d, v] of rows) {
  const Item = { pk: S(pk), h: S('o1'), a: S(a), b: S(b), d: S(d), t: S('x'), u: { N: '7' }, v: { N: v } };
  if (c) Item.c = S(c);
  step('PutItem ' + pk, 'PutItem', { TableName: 'multikey', Item }, 'ok');
}
const Q = (cond, vals, extra) => Object.assign({
  TableName: 'multikey', IndexName: 'gsi', KeyConditionExpression: cond,
  ExpressionAttributeValues: Object.fromEntries(Object.entries(vals)),
}, extra || {});
const V = { ':h': S('o1'), ':a': S('T'), ':b': S('live'), ':c': S('a'), ':d': S('r'), ':x': S('r1'), ':y': S('r2') };
const pick = (cond) => Object.fromEntries(Object.entries(V).filter(([k]) => new RegExp(k + '\\b').test(cond)));
const query = (cond, extra, how) => step('Query ' + cond + (extra ? ' ' + JSON.stringify(extra) : ''), 'Query',
  Q(cond, pick(cond), extra), how);

query('h = :h');
query('h = :h', { ScanIndexForward: false });
query('h = :h AND a = :a');
query('h = :h AND a = :a AND b = :b');
query('h = :h AND a = :a AND b = :b AND c = :c');
query('h = :h AND a = :a AND b = :b AND c > :c');
query('h = :h AND a = :a AND b = :b AND c >= :c');
query('h = :h AND a = :a AND b = :b AND c <= :c');
query('h = :h AND a = :a AND b = :b AND c = :c AND begins_with(d, :d)');
query('h = :h AND a = :a AND b = :b AND c = :c AND d BETWEEN :x AND :y');
query('h = :h AND a = :a AND b < :b');
query('h = :h AND a < :a');
query('h = :h AND a > :a');
query('h = :h AND begins_with(a, :a)');
query('b = :b AND h = :h AND a = :a');
query('h = :h AND a = :a', { Limit: 2 });
query('h = :h AND a = :a', { Limit: 2, ExclusiveStartKey: { pk: S('p3'), h: S('o1'), a: S('T'), b: S('live'), c: S('a'), d: S('r1') } });
query('h = :h AND a = :a AND c = :c', null, 'message');
query('h = :h AND a = :a AND b > :b AND c = :c', null, 'message');
query('h = :h AND b = :b', null, 'message');
query('h = :h AND d = :x', null, 'message');
query('a = :a', null, 'message');
query('h = :h AND b = :b AND d = :x', null, 'message');
query('h = :h AND a > :a AND c = :c AND d = :x', null, 'message');
query('h = :h AND b > :b AND c = :c', null, 'message');
query('b = :b AND d = :x', null, 'message');
step('Query the two-HASH index with neither HASH attribute', 'Query', {
  TableName: 'multikey', IndexName: 'num', KeyConditionExpression: 'v = :v',
  ExpressionAttributeValues: { ':v': { N: '1' } } }, 'message');
const eq = (v) => ({ ComparisonOperator: 'EQ', AttributeValueList: [S(v)] });
step('Query with the legacy KeyConditions', 'Query', { TableName: 'multikey', IndexName: 'gsi',
  KeyConditions: { h: eq('o1'), a: eq('T'), b: { ComparisonOperator: 'BEGINS_WITH', AttributeValueList: [S('li')] } } });
step('Query with the legacy KeyConditions, a gap', 'Query', { TableName: 'multikey', IndexName: 'gsi',
  KeyConditions: { h: eq('o1'), b: eq('T') } }, 'message');
step('Query with the legacy KeyConditions, no HASH attribute', 'Query', { TableName: 'multikey', IndexName: 'gsi',
  KeyConditions: { a: eq('T') } }, 'message');
query('h > :h', null, 'type');
step('Query the two-HASH index without its second HASH attribute', 'Query', {
  TableName: 'multikey', IndexName: 'num', KeyConditionExpression: 't = :t',
  ExpressionAttributeValues: { ':t': S('x') } }, 'message');
step('Query the two-HASH index: numbers in order, KEYS_ONLY', 'Query', {
  TableName: 'multikey', IndexName: 'num', KeyConditionExpression: 't = :t AND u = :u',
  ExpressionAttributeValues: { ':t': S('x'), ':u': { N: '7.0' } } });
step('Query the two-HASH index: a range on the first RANGE attribute (N)', 'Query', {
  TableName: 'multikey', IndexName: 'num', KeyConditionExpression: 't = :t AND u = :u AND v > :v',
  ExpressionAttributeValues: { ':t': S('x'), ':u': { N: '7' }, ':v': { N: '9' } } });
step('PartiQL SELECT on the table itself', 'ExecuteStatement', {
  Statement: 'SELECT * FROM "multikey" WHERE pk = \'p1\'' });
step('Scan of the index', 'Scan', { TableName: 'multikey', IndexName: 'gsi' });
step('Scan of the index, a page of 2', 'Scan', { TableName: 'multikey', IndexName: 'gsi', Limit: 2 });
step('PutItem with an index key attribute of another type', 'PutItem', {
  TableName: 'multikey', Item: { pk: S('p9'), t: S('x'), u: S('7') } }, 'type');
step('UpdateItem moves an item within the index', 'UpdateItem', {
  TableName: 'multikey', Key: { pk: S('p3') }, UpdateExpression: 'SET c = :z',
  ExpressionAttributeValues: { ':z': S('z') } }, 'ok');
query('h = :h AND a = :a AND b = :b');
step('UpdateItem takes an item out of the index', 'UpdateItem', {
  TableName: 'multikey', Key: { pk: S('p2') }, UpdateExpression: 'REMOVE c' }, 'ok');
query('h = :h AND a = :a AND b = :b');
step('CreateTable with a GSI of five HASH attributes', 'CreateTable', {
  TableName: 'multikey5', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: defs(['pk', 'a', 'b', 'c', 'd', 'h']),
  KeySchema: [H('pk')], GlobalSecondaryIndexes: [{ IndexName: 'gsi',
    KeySchema: [H('a'), H('b'), H('c'), H('d'), H('h')], Projection: { ProjectionType: 'ALL' } }] }, 'message');
step('CreateTable with a GSI whose HASH follows a RANGE', 'CreateTable', {
  TableName: 'multikey6', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: defs(['pk', 'a', 'b', 'c']),
  KeySchema: [H('pk')], GlobalSecondaryIndexes: [{ IndexName: 'gsi',
    KeySchema: [H('a'), R('b'), H('c')], Projection: { ProjectionType: 'ALL' } }] }, 'message');
step('CreateTable with a GSI of five RANGE attributes', 'CreateTable', {
  TableName: 'multikey7', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: defs(['pk', 'a', 'b', 'c', 'd', 'h']),
  KeySchema: [H('pk')], GlobalSecondaryIndexes: [{ IndexName: 'gsi',
    KeySchema: [H('a'), R('b'), R('c'), R('d'), R('h'), R('pk')], Projection: { ProjectionType: 'ALL' } }] }, 'message');
step('CreateTable with a GSI naming an attribute twice', 'CreateTable', {
  TableName: 'multikey8', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: defs(['pk', 'a', 'b']),
  KeySchema: [H('pk')], GlobalSecondaryIndexes: [{ IndexName: 'gsi',
    KeySchema: [H('a'), R('b'), R('a')], Projection: { ProjectionType: 'ALL' } }] }, 'message');

/* What of an answer is compared (how): 'answer' Items, Count and
 * LastEvaluatedKey; 'ok' success on both; 'message' an error with the
 * same type and message; 'type' an error of the same type. */
function view(r, how) {
  const b = r.body || {};
  if (r.status !== 200) {
    const type = String(b.__type || '').replace(/^.*#/, '');
    return how === 'message' ? { error: type, message: b.message || b.Message } : { error: type };
  }
  if (how === 'ok' || how === 'type' || how === 'message') return { ok: true };
  return canon({ Items: b.Items, Count: b.Count, LastEvaluatedKey: b.LastEvaluatedKey });
}

(async () => {
  console.log('1..' + steps.length);
  let failed = 0;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    const [a, b] = [await send(ports.ddbx, s.op, s.body), await send(ports.ddblocal, s.op, s.body)];
    const va = JSON.stringify(view(a, s.how)), vb = JSON.stringify(view(b, s.how));
    const wantError = s.how === 'message' || s.how === 'type';
    const good = va === vb && (wantError ? a.status !== 200 : a.status === 200);
    if (!good) failed++;
    console.log(`${good ? 'ok' : 'not ok'} ${i + 1} - ${s.name}`);
    if (!good) {
      console.log('#   ddbx:     ' + va.slice(0, 600));
      console.log('#   ddblocal: ' + vb.slice(0, 600));
      if (a.status !== 200 || b.status !== 200)
        console.log('#   bodies: ' + JSON.stringify([a.body, b.body]).slice(0, 900));
    }
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log('not ok 1 - multikey: ' + e.message);
  process.exit(1);
});
