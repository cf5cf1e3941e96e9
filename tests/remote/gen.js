'use strict';
// Prints `ddbx api` request lines: CreateTable for TABLE (a base table with
// a GSI and an LSI, INCLUDE and KEYS_ONLY projections), then N items as
// BatchWriteItem lines of 25. Deterministic: the same arguments give the
// same lines, so one copy goes to dynalite and one to a local store.
//   node gen.js TABLE N [create|items]
const [table, nArg, what] = process.argv.slice(2);
const n = Number(nArg || 1000);
if (what !== 'items') {
  console.log(JSON.stringify({ Operation: 'CreateTable', Input: {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
      { AttributeName: 'GSI1PK', AttributeType: 'S' },
      { AttributeName: 'GSI1SK', AttributeType: 'N' },
      { AttributeName: 'LSK', AttributeType: 'B' },
    ],
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: [{
      IndexName: 'GSI1',
      KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'GSI1SK', KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['name', 'tags'] },
    }],
    LocalSecondaryIndexes: [{
      IndexName: 'LSI1',
      KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'LSK', KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    }],
  } }));
}
if (what === 'create') process.exit(0);
let seed = 12345;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
let batch = [];
const flush = () => {
  if (!batch.length) return;
  console.log(JSON.stringify({ Operation: 'BatchWriteItem', Input: { RequestItems: { [table]: batch } } }));
  batch = [];
};
for (let i = 0; i < n; i++) {
  const item = {
    PK: { S: 'USER#' + (i % 97) },
    SK: { S: 'ITEM#' + String(i).padStart(6, '0') },
    name: { S: 'name ' + i + ' \u00e9\u4e2d' },
    price: { N: String(Math.floor(rnd() * 100000) / 100) },
    big: { N: '12345678901234567890123456789.0123456' },
    ok: { BOOL: i % 2 === 0 },
    tags: { SS: ['t' + (i % 5), 'u' + (i % 7)] },
    list: { L: [{ N: String(i) }, { S: 'x' }, { NULL: true }] },
    map: { M: { a: { S: 'b' }, n: { NS: ['1', '2.5'] } } },
    blob: { B: Buffer.from('blob' + i).toString('base64') },
    pad: { S: 'p'.repeat(600 + (i % 200)) },   // several 1 MB Scan pages
  };
  if (i % 3 !== 0) {   // a sparse GSI
    item.GSI1PK = { S: 'G#' + (i % 11) };
    item.GSI1SK = { N: String(i * 3) };
  }
  if (i % 4 !== 0) item.LSK = { B: Buffer.from([i & 255, (i >> 8) & 255]).toString('base64') };
  batch.push({ PutRequest: { Item: item } });
  if (batch.length === 25) flush();
}
flush();
