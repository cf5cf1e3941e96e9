'use strict';
/*
 * Prints `ddbx api` request lines for the read-plan suite (issue 42): table
 * Big, PK/SK strings with GSI1 inverted (GSI1PK = SK, GSI1SK = PK, ALL),
 * P partitions ACTOR#p000.. of K items TARGET#p000.. each (an edge to ACTOR#p000..: f follows it), every item
 * about 310 bytes (a ~200-byte note among a few short attributes), as the
 * issue measured; then T - 1 small tables Small1.. (one item each) so the
 * table list has T tables. Deterministic.
 *   node gen.js P K T
 */
const [pArg, kArg, tArg] = process.argv.slice(2);
const P = Number(pArg || 50), K = Number(kArg || 60), T = Number(tArg || 5);
const out = (op, input) => console.log(JSON.stringify({ Operation: op, Input: input }));
const S = (s) => ({ S: s });
out('CreateTable', {
  TableName: 'Big',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: ['PK', 'SK', 'GSI1PK', 'GSI1SK'].map((n) => ({ AttributeName: n, AttributeType: 'S' })),
  KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
  GlobalSecondaryIndexes: [{
    IndexName: 'GSI1',
    KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'GSI1SK', KeyType: 'RANGE' }],
    Projection: { ProjectionType: 'ALL' },
  }],
});
const pad = (i) => String(i).padStart(3, '0');
const note = 'n'.repeat(200);
let batch = [];
const flush = () => {
  if (batch.length) out('BatchWriteItem', { RequestItems: { Big: batch } });
  batch = [];
};
for (let p = 0; p < P; p++) {
  for (let k = 0; k < K; k++) {
    const pk = 'ACTOR#p' + pad(p), sk = 'TARGET#p' + pad(k);
    batch.push({ PutRequest: { Item: {
      PK: S(pk), SK: S(sk), GSI1PK: S(sk), GSI1SK: S(pk),
      followedAt: S('2024-01-' + String(1 + (k % 28)).padStart(2, '0') + 'T10:00:00Z'),
      score: { N: String((p * 7 + k * 13) % 100) }, tier: S(['gold', 'silver', 'bronze'][k % 3]),
      note: S(note), mark: S('m' + pad(p) + pad(k)),
    } } });
    if (batch.length === 25) flush();
  }
}
flush();
for (let t = 1; t < T; t++) {
  out('CreateTable', {
    TableName: 'Small' + t, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
  });
  out('PutItem', { TableName: 'Small' + t, Item: { id: S('one') } });
}
