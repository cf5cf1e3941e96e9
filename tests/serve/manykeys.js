'use strict';
/*
 * `ddbx serve -dbPath DIR` under a low file limit with many access keys
 * (issue 43's leftover: each key and region's database holds descriptors,
 * its connections' files, WAL and shared memory). Every request is
 * answered, 200 or a DynamoDB-shaped refusal naming the limit (400
 * LimitExceededException), never a dropped connection, a 500 or a hang;
 * the databases already open keep being served; the connections too
 * (a burst of new clients beside them is answered).
 * Usage: node manykeys.js PORT KEYS DIR. Prints TAP lines (no plan).
 *
 * Where the expectation comes from: DynamoDB Local keeps one database a
 * key and region and opens each as it comes (its usage notes), with no
 * published bound; the bound here is ddbx's own (ui/serve_dbs.h), and its
 * refusal has DynamoDB's error shape (the JSON 1.0 protocol: __type and
 * message, HTTP 400 for a client-side limit, as LimitExceededException
 * is in the API reference's common errors of the control plane).
 */
const http = require('http');
const fs = require('fs');

const [port, keys] = [Number(process.argv[2]), Number(process.argv[3])];
const dir = process.argv[4];
let n = 0;
function ok(cond, what, detail) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - serve many keys: ${what}`);
  if (!cond && detail !== undefined)
    console.log('#   ' + JSON.stringify(detail).slice(0, 1500));
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/* A request as key KEY (its credential scope; the signature is not
 * checked without --require-credentials). Resolves {status, body} or
 * {status: 0, body: why} after an error or 10 s without an answer. */
function send(key, target, body, fresh) {
  return new Promise((resolve) => {
    const auth = `AWS4-HMAC-SHA256 Credential=${key}/20261206/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00`;
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/', agent: fresh ? false : agent,
      headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': `DynamoDB_20120810.${target}`,
                 Authorization: auth },
    }, (res) => {
      let b = '';
      res.on('data', (c) => { b += c; });
      res.on('end', () => resolve({ status: res.statusCode, body: b }));
    });
    req.setTimeout(10000, () => { req.destroy(new Error('no answer in 10 s')); });
    req.on('error', (e) => resolve({ status: 0, body: String(e) }));
    req.end(JSON.stringify(body));
  });
}

const create = (t) => ({
  TableName: t, BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
});
const LIMIT = /^\{"__type":"com\.amazonaws\.dynamodb\.v20120810#LimitExceededException","message":"[^"]*databases open at once[^"]*ulimit -n[^"]*"\}$/;
const refused = (r) => r.status === 400 && LIMIT.test(r.body);

(async () => {
  const key = (i) => `AKIDmany${i}`;
  // Every key at once, eight connections: CreateTable, PutItem, GetItem.
  const results = await Promise.all(Array.from({ length: keys }, async (_, i) => {
    const out = [];
    out.push(await send(key(i), 'CreateTable', create('Tab')));
    out.push(await send(key(i), 'PutItem', { TableName: 'Tab', Item: { pk: { S: `k${i}` } } }));
    out.push(await send(key(i), 'GetItem', { TableName: 'Tab', Key: { pk: { S: `k${i}` } } }));
    return out;
  }));
  const flat = results.flat();
  const bad = flat.filter((r) => !(r.status === 200 || refused(r)));
  ok(bad.length === 0, `${keys} keys, 3 requests each: every one answered 200 or LimitExceededException naming the limit`,
    bad.slice(0, 3));
  const served = results.filter((rs) => rs.every((r) => r.status === 200)).length;
  const turned = results.filter((rs) => rs.every(refused)).length;
  ok(served >= 1 && served + turned === keys,
    'a key is served whole or refused whole (its database opened or not)', { served, turned });
  ok(turned > 0, 'the file limit was reached (some keys refused): the test exercised the bound', { served, turned });
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.db')).length;
  ok(files === served, 'a refused key made no database file', { files, served });
  // The databases open are still served, and new connections answered.
  const again = await Promise.all(results.map(async (rs, i) =>
    rs[0].status === 200 ? send(key(i), 'GetItem', { TableName: 'Tab', Key: { pk: { S: `k${i}` } } }, true) : null));
  const lost = again.filter((r) => r && !(r.status === 200 && r.body.includes('"Item"')));
  ok(lost.length === 0, 'every key served before is served again on new connections, its item there', lost.slice(0, 3));
  const burst = await Promise.all(Array.from({ length: 40 }, () => send(key(0), 'ListTables', {}, true)));
  ok(burst.every((r) => r.status === 200 && r.body === '{"TableNames":["Tab"]}'),
    '40 new connections at once beside them: each answered', burst.filter((r) => r.status !== 200).slice(0, 3));
  agent.destroy();
})();
