'use strict';
/*
 * DynamoDB Streams on `ddbx serve`, driven by the AWS SDK for JavaScript
 * v3's DynamoDBStreamsClient (@aws-sdk/client-dynamodb-streams) and
 * DynamoDBClient. Prints TAP lines (no plan; the caller counts).
 * Usage: node streams.js PORT SHORTPORT DDBX DBFILE
 *   PORT       a server with DynamoDB's retention (24 h)
 *   SHORTPORT  a server started with --stream-retention 2
 *              --iterator-lifetime 3, for trimming and expiry
 *
 * Where the expectations come from:
 * - [API] the DynamoDB Streams API reference: ListStreams, DescribeStream
 *   (StreamDescription, Shard, SequenceNumberRange), GetShardIterator
 *   (TRIM_HORIZON, LATEST, AT_/AFTER_SEQUENCE_NUMBER; "A shard iterator
 *   expires 15 minutes after it is returned"), GetRecords (Limit,
 *   NextShardIterator "If set to null, the shard has been closed"),
 *   Record and StreamRecord (eventID, eventName, eventVersion,
 *   eventSource "aws:dynamodb", awsRegion, dynamodb.{Keys, NewImage,
 *   OldImage, SequenceNumber, SizeBytes, StreamViewType,
 *   ApproximateCreationDateTime}), TrimmedDataAccessException and
 *   ExpiredIteratorException.
 * - [DG] the Developer Guide, "Change data capture for DynamoDB Streams":
 *   one record per item modification, in order; StreamViewType decides
 *   the images; no record for a write that changes nothing; a disabled
 *   stream stays readable; enabling again makes a new stream (new label).
 * - [OBS] DynamoDB's UpdateTable messages as observed on the service
 *   ("Table already has an enabled stream: TableName: T", "Table has no
 *   stream to disable: TableName: T", "If stream is being enabled then
 *   UpdateViewType is required"), and DescribeTable without
 *   StreamSpecification after disabling while LatestStreamArn stays.
 */
const http = require('http');
const { spawnSync } = require('child_process');
const path = require('path');
const nm = path.join(__dirname, '../node/node_modules');
const ddb = require(path.join(nm, '@aws-sdk/client-dynamodb'));
const dst = require(path.join(nm, '@aws-sdk/client-dynamodb-streams'));

const [PORT, SHORT, DDBX, DBFILE] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4], process.argv[5]];

let n = 0;
let failed = 0;
function ok(cond, what, detail) {
  n++;
  if (cond) {
    console.log(`ok ${n} - ${what}`);
  } else {
    failed++;
    console.log(`not ok ${n} - ${what}`);
    if (detail !== undefined) console.log('#   ' + String(typeof detail === 'string' ? detail : JSON.stringify(detail)).slice(0, 1500).replace(/\n/g, '\n#   '));
  }
}
const cfg = (port) => ({
  endpoint: `http://127.0.0.1:${port}`,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDSTREAMTEST', secretAccessKey: 'not-a-secret' },
  maxAttempts: 1,
});
async function thrown(fn) {
  try { await fn(); return null; } catch (e) { return e; }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tableInput(name, view) {
  const t = {
    TableName: name, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'N' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  };
  if (view) t.StreamSpecification = { StreamEnabled: true, StreamViewType: view };
  return t;
}

/* Every record of a stream's shard from TRIM_HORIZON, page by page. */
async function readAll(sc, arn, limit) {
  const desc = await sc.send(new dst.DescribeStreamCommand({ StreamArn: arn }));
  const shard = desc.StreamDescription.Shards[0].ShardId;
  let it = (await sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
  const out = [];
  let pages = 0;
  let last;
  while (it && pages < 100) {
    last = await sc.send(new dst.GetRecordsCommand({ ShardIterator: it, Limit: limit }));
    pages++;
    out.push(...last.Records);
    if (last.Records.length === 0) break;
    it = last.NextShardIterator;
  }
  return { records: out, pages, last, shard };
}

function raw(port, target, body) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/',
      headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': target } },
    (res) => { let b = ''; res.on('data', (c) => { b += c; }); res.on('end', () => resolve({ status: res.statusCode, body: b })); });
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.end(JSON.stringify(body));
  });
}

async function main() {
  const c = new ddb.DynamoDBClient(cfg(PORT));
  const sc = new dst.DynamoDBStreamsClient(cfg(PORT));
  const T = 'StreamOrders';

  /* ---- CreateTable, DescribeTable ---- */
  const ct = await c.send(new ddb.CreateTableCommand(tableInput(T, 'NEW_AND_OLD_IMAGES')));
  const arnRe = new RegExp(`^arn:aws:dynamodb:us-east-1:000000000000:table/${T}/stream/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}$`);
  const arn = ct.TableDescription.LatestStreamArn;
  ok(arnRe.test(arn || ''), 'CreateTable with StreamSpecification: LatestStreamArn is table/NAME/stream/LABEL [API]', arn);
  ok(arn && arn.endsWith('/stream/' + ct.TableDescription.LatestStreamLabel), 'LatestStreamLabel is the ARN\'s last part [API]', ct.TableDescription);
  const dt = await c.send(new ddb.DescribeTableCommand({ TableName: T }));
  ok(dt.Table.LatestStreamArn === arn && dt.Table.StreamSpecification && dt.Table.StreamSpecification.StreamEnabled === true &&
     dt.Table.StreamSpecification.StreamViewType === 'NEW_AND_OLD_IMAGES', 'DescribeTable: StreamSpecification, LatestStreamArn [API]', dt.Table);

  /* ---- DescribeStream ---- */
  const ds = (await sc.send(new dst.DescribeStreamCommand({ StreamArn: arn }))).StreamDescription;
  ok(ds.StreamStatus === 'ENABLED' && ds.StreamViewType === 'NEW_AND_OLD_IMAGES' && ds.TableName === T &&
     ds.StreamArn === arn && ds.StreamLabel === ct.TableDescription.LatestStreamLabel,
  'DescribeStream: ENABLED, view type, table, label [API]', ds);
  ok(JSON.stringify(ds.KeySchema) === JSON.stringify(tableInput(T).KeySchema), 'DescribeStream: the table\'s KeySchema [API]', ds.KeySchema);
  ok(ds.Shards.length === 1 && /^shardId-/.test(ds.Shards[0].ShardId) && ds.Shards[0].ShardId.length >= 28 &&
     ds.Shards[0].SequenceNumberRange.StartingSequenceNumber && !ds.Shards[0].SequenceNumberRange.EndingSequenceNumber,
  'DescribeStream: one open shard (StartingSequenceNumber, no EndingSequenceNumber) [API]', ds.Shards);
  ok(ds.CreationRequestDateTime instanceof Date && Math.abs(ds.CreationRequestDateTime - Date.now()) < 60000,
    'DescribeStream: CreationRequestDateTime is now [API]', ds.CreationRequestDateTime);
  const past = (await sc.send(new dst.DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId: ds.Shards[0].ShardId }))).StreamDescription;
  ok(past.Shards.length === 0 && !past.LastEvaluatedShardId, 'DescribeStream ExclusiveStartShardId past the last shard: no shards [API]', past);

  /* A LATEST iterator taken before the writes sees them all. */
  const shard = ds.Shards[0].ShardId;
  const latestBefore = (await sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'LATEST' }))).ShardIterator;
  const empty = await sc.send(new dst.GetRecordsCommand({ ShardIterator: latestBefore }));
  ok(empty.Records.length === 0 && empty.NextShardIterator, 'GetRecords on an open shard with nothing new: no records, a NextShardIterator [API]', empty);

  /* ---- the writes: every write path leaves one record per changed item ---- */
  const K = (pk, sk) => ({ pk: { S: pk }, sk: { N: String(sk) } });
  await c.send(new ddb.PutItemCommand({ TableName: T, Item: { ...K('o#1', 1), st: { S: 'new' }, qty: { N: '2' } } }));
  await c.send(new ddb.PutItemCommand({ TableName: T, Item: { ...K('o#1', 1), st: { S: 'new' }, qty: { N: '2' } } })); // same: no record [DG]
  await c.send(new ddb.UpdateItemCommand({ TableName: T, Key: K('o#1', 1), UpdateExpression: 'SET st = :s', ExpressionAttributeValues: { ':s': { S: 'paid' } } }));
  const cf = await thrown(() => c.send(new ddb.PutItemCommand({ TableName: T, Item: K('o#1', 1), ConditionExpression: 'attribute_not_exists(pk)' })));
  ok(cf && cf.name === 'ConditionalCheckFailedException', 'a refused conditional put (no record expected)', cf && cf.name);
  await c.send(new ddb.DeleteItemCommand({ TableName: T, Key: K('o#1', 1) }));
  await c.send(new ddb.DeleteItemCommand({ TableName: T, Key: K('o#9', 9) })); // absent: no record
  await c.send(new ddb.BatchWriteItemCommand({ RequestItems: { [T]: [
    { PutRequest: { Item: { ...K('o#2', 1), st: { S: 'new' } } } },
    { PutRequest: { Item: { ...K('o#2', 2), st: { S: 'new' } } } }] } }));
  await c.send(new ddb.TransactWriteItemsCommand({ TransactItems: [
    { Put: { TableName: T, Item: { ...K('o#3', 1), st: { S: 'new' } } } },
    { Update: { TableName: T, Key: K('o#2', 1), UpdateExpression: 'SET st = :s', ExpressionAttributeValues: { ':s': { S: 'shipped' } } } }] }));
  const tc = await thrown(() => c.send(new ddb.TransactWriteItemsCommand({ TransactItems: [
    { Put: { TableName: T, Item: { ...K('o#4', 1) } } },
    { ConditionCheck: { TableName: T, Key: K('o#3', 1), ConditionExpression: 'attribute_not_exists(pk)' } }] })));
  ok(tc && tc.name === 'TransactionCanceledException', 'a cancelled transaction (no record expected)', tc && tc.name);

  const all = await readAll(sc, arn);
  const names = all.records.map((r) => r.eventName + ' ' + r.dynamodb.Keys.pk.S + '/' + r.dynamodb.Keys.sk.N);
  const want = ['INSERT o#1/1', 'MODIFY o#1/1', 'REMOVE o#1/1', 'INSERT o#2/1', 'INSERT o#2/2', 'INSERT o#3/1', 'MODIFY o#2/1'];
  ok(JSON.stringify(names) === JSON.stringify(want),
    'TRIM_HORIZON: one record per changed item, in order, none for a no-op put, a refused condition, an absent delete or a cancelled transaction [DG]', names);
  const r0 = all.records[0];
  ok(r0 && JSON.stringify(Object.keys(r0).sort()) === JSON.stringify(['awsRegion', 'dynamodb', 'eventID', 'eventName', 'eventSource', 'eventVersion']),
    'a record has eventID, eventName, eventVersion, eventSource, awsRegion, dynamodb [API]', r0 && Object.keys(r0));
  ok(r0 && r0.eventSource === 'aws:dynamodb' && r0.eventVersion === '1.1' && r0.awsRegion === 'us-east-1' && /^[0-9a-f]{32}$/.test(r0.eventID),
    'eventSource aws:dynamodb, eventVersion 1.1, awsRegion, an eventID [API]', r0);
  ok(new Set(all.records.map((r) => r.eventID)).size === all.records.length, 'eventIDs are unique [API]');
  const d0 = r0 ? r0.dynamodb : {};
  ok(JSON.stringify(Object.keys(d0).sort()) === JSON.stringify(['ApproximateCreationDateTime', 'Keys', 'NewImage', 'SequenceNumber', 'SizeBytes', 'StreamViewType']),
    'an INSERT\'s StreamRecord: Keys, NewImage, SequenceNumber, SizeBytes, StreamViewType, ApproximateCreationDateTime; no OldImage [API]', Object.keys(d0));
  ok(d0.NewImage && d0.NewImage.st.S === 'new' && d0.NewImage.qty.N === '2' && JSON.stringify(d0.Keys) === JSON.stringify(K('o#1', 1)),
    'Keys are the key attributes only, NewImage the whole item [API]', d0);
  ok(d0.ApproximateCreationDateTime instanceof Date && Math.abs(d0.ApproximateCreationDateTime - Date.now()) < 60000,
    'ApproximateCreationDateTime is the time of the write [API]', d0.ApproximateCreationDateTime);
  ok(typeof d0.SizeBytes === 'number' && d0.SizeBytes > 0 && d0.StreamViewType === 'NEW_AND_OLD_IMAGES', 'SizeBytes and StreamViewType [API]', d0);
  const m = all.records[1] ? all.records[1].dynamodb : {};
  ok(m.OldImage && m.NewImage && m.OldImage.st.S === 'new' && m.NewImage.st.S === 'paid', 'MODIFY carries OldImage and NewImage (NEW_AND_OLD_IMAGES) [DG]', m);
  const rm = all.records[2] ? all.records[2].dynamodb : {};
  ok(rm.OldImage && !rm.NewImage && rm.OldImage.st.S === 'paid', 'REMOVE carries the OldImage only [DG]', rm);
  const seqs = all.records.map((r) => BigInt(r.dynamodb.SequenceNumber));
  ok(seqs.every((s, i) => i === 0 || s > seqs[i - 1]) && all.records.every((r) => r.dynamodb.SequenceNumber.length >= 21 && r.dynamodb.SequenceNumber.length <= 40),
    'SequenceNumbers increase, 21 to 40 digits [API]', all.records.map((r) => r.dynamodb.SequenceNumber));

  const after = await sc.send(new dst.GetRecordsCommand({ ShardIterator: empty.NextShardIterator }));
  ok(JSON.stringify(after.Records.map((r) => r.eventID)) === JSON.stringify(all.records.map((r) => r.eventID)),
    'LATEST taken before the writes, then its NextShardIterator: exactly the new records [API]', after.Records.length);

  /* ---- Limit and NextShardIterator ---- */
  const paged = await readAll(sc, arn, 2);
  ok(paged.records.length === all.records.length && paged.pages >= 4 && JSON.stringify(paged.records.map((r) => r.eventID)) === JSON.stringify(all.records.map((r) => r.eventID)),
    'GetRecords Limit 2 followed by NextShardIterator: the same records, two a call [API]', paged.pages);
  const lim1 = await sc.send(new dst.GetRecordsCommand({ ShardIterator: (await sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator, Limit: 1 }));
  ok(lim1.Records.length === 1 && lim1.NextShardIterator, 'Limit 1: one record and a NextShardIterator [API]', lim1.Records.length);

  /* ---- AT_ / AFTER_SEQUENCE_NUMBER ---- */
  const third = all.records[2].dynamodb.SequenceNumber;
  const atIt = (await sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: third }))).ShardIterator;
  const at = await sc.send(new dst.GetRecordsCommand({ ShardIterator: atIt, Limit: 1 }));
  ok(at.Records.length === 1 && at.Records[0].dynamodb.SequenceNumber === third, 'AT_SEQUENCE_NUMBER starts at that record [API]', at.Records.map((r) => r.dynamodb.SequenceNumber));
  const afIt = (await sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: third }))).ShardIterator;
  const af = await sc.send(new dst.GetRecordsCommand({ ShardIterator: afIt, Limit: 1 }));
  ok(af.Records.length === 1 && af.Records[0].dynamodb.SequenceNumber === all.records[3].dynamodb.SequenceNumber, 'AFTER_SEQUENCE_NUMBER starts right after it [API]', af.Records.map((r) => r.dynamodb.SequenceNumber));
  const noSeq = await thrown(() => sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'AT_SEQUENCE_NUMBER' })));
  ok(noSeq && noSeq.name === 'ValidationException', 'AT_SEQUENCE_NUMBER without a SequenceNumber: ValidationException', noSeq && noSeq.name);

  /* ---- errors ---- */
  const unknown = arn.replace(/stream\/.*/, 'stream/2000-01-01T00:00:00.000');
  const e1 = await thrown(() => sc.send(new dst.DescribeStreamCommand({ StreamArn: unknown })));
  ok(e1 && e1.name === 'ResourceNotFoundException' && e1.message === `Requested resource not found: Stream: ${unknown} not found`,
    'DescribeStream of an unknown stream: ResourceNotFoundException [API; the words DynamoDB Local 3.3\'s]', e1 && e1.message);
  const e2 = await thrown(() => sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: 'shardId-00000000000000000000-00000000', ShardIteratorType: 'LATEST' })));
  ok(e2 && e2.name === 'ResourceNotFoundException' && e2.message === 'Requested resource not found: Shard does not exist',
    'GetShardIterator of an unknown shard: ResourceNotFoundException, AWS\'s words [API; ironSource/node-dynamodb-stream issue 16, 2021]', e2 && e2.message);
  const e3 = await thrown(() => sc.send(new dst.GetRecordsCommand({ ShardIterator: 'not-an-iterator' })));
  ok(e3 && e3.name === 'ValidationException' && e3.message === 'Invalid ShardIterator',
    'GetRecords with a malformed iterator: ValidationException "Invalid ShardIterator" [DynamoDB Local 3.3]', e3 && e3.message);
  const e5 = await thrown(() => sc.send(new dst.DescribeStreamCommand({ StreamArn: 'fake-stream' })));
  ok(e5 && e5.name === 'ValidationException' && e5.message === 'Invalid StreamArn',
    'DescribeStream of a StreamArn that is no ARN: ValidationException "Invalid StreamArn" [aws-sdk-js v2 integration tests, against AWS]', e5 && e5.message);
  const e6 = await thrown(() => sc.send(new dst.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: '9'.repeat(21) })));
  ok(e6 && e6.name === 'ValidationException' && e6.message === 'Invalid SequenceNumber for the shard',
    'AT_SEQUENCE_NUMBER of a number the shard does not have: ValidationException [DynamoDB Local 3.3]', e6 && e6.message);

  /* ---- ShardFilter (API reference, DescribeStream: ShardFilter, Type
   * CHILD_SHARDS, "the shardId of the parent shard for which you are
   * requesting child shards"; AWS, July 2025; DynamoDB Local 3.2+) ---- */
  const kids = await sc.send(new dst.DescribeStreamCommand({ StreamArn: arn, ShardFilter: { Type: 'CHILD_SHARDS', ShardId: shard } }));
  ok(kids.StreamDescription && Array.isArray(kids.StreamDescription.Shards) && kids.StreamDescription.Shards.length === 0 &&
    kids.StreamDescription.StreamArn === arn, 'ShardFilter CHILD_SHARDS of the open shard: no children, the stream described [API]', kids.StreamDescription);
  const noKids = await sc.send(new dst.DescribeStreamCommand({ StreamArn: arn, ShardFilter: { Type: 'CHILD_SHARDS', ShardId: 'shardId-00000000000000000000-00000000' } }));
  ok(noKids.StreamDescription.Shards.length === 0, 'ShardFilter of a shard the stream does not have: no children [DynamoDB Local 3.3]', noKids.StreamDescription.Shards);
  const badType = await thrown(() => sc.send(new dst.DescribeStreamCommand({ StreamArn: arn, ShardFilter: { Type: 'PARENT_SHARDS', ShardId: shard } })));
  ok(badType && badType.name === 'ValidationException' && /at 'shardFilter.type' failed to satisfy constraint: Member must satisfy enum value set: \[CHILD_SHARDS\]$/.test(badType.message),
    'ShardFilter Type other than CHILD_SHARDS: ValidationException [API: the enum]', badType && badType.message);
  const e4 = await thrown(() => sc.send(new dst.GetRecordsCommand({ ShardIterator: lim1.NextShardIterator, Limit: 1001 })));
  ok(e4 && e4.name === 'ValidationException', 'GetRecords Limit 1001: ValidationException (1 to 1000) [API]', e4 && e4.name);
  const wrong = await raw(PORT, 'DynamoDB_20120810.GetRecords', { ShardIterator: 'x' });
  ok(wrong.status === 400 && /UnknownOperationException/.test(wrong.body), 'GetRecords under the DynamoDB target: UnknownOperationException', wrong);
  const right = await raw(PORT, 'DynamoDBStreams_20120810.ListStreams', {});
  ok(right.status === 200 && /"Streams"/.test(right.body), 'ListStreams under DynamoDBStreams_20120810 [API]', right);

  /* ---- the view types ---- */
  const views = { KEYS_ONLY: [false, false], NEW_IMAGE: [true, false], OLD_IMAGE: [false, true] };
  for (const [view, [hasNew, hasOld]] of Object.entries(views)) {
    const name = 'View' + view.replace(/_/g, '');
    const v = await c.send(new ddb.CreateTableCommand(tableInput(name, view)));
    await c.send(new ddb.PutItemCommand({ TableName: name, Item: { ...K('a', 1), x: { S: 'one' } } }));
    await c.send(new ddb.PutItemCommand({ TableName: name, Item: { ...K('a', 1), x: { S: 'two' } } }));
    await c.send(new ddb.DeleteItemCommand({ TableName: name, Key: K('a', 1) }));
    const got = (await readAll(sc, v.TableDescription.LatestStreamArn)).records;
    const shape = got.map((r) => [r.eventName, !!r.dynamodb.NewImage, !!r.dynamodb.OldImage, r.dynamodb.StreamViewType]);
    const expect = [['INSERT', hasNew, false, view], ['MODIFY', hasNew, hasOld, view], ['REMOVE', false, hasOld, view]];
    ok(JSON.stringify(shape) === JSON.stringify(expect) && got.every((r) => JSON.stringify(r.dynamodb.Keys) === JSON.stringify(K('a', 1))),
      `${view}: images as the view type says, Keys always [API StreamViewType]`, shape);
    if (view === 'OLD_IMAGE')
      ok(got[1].dynamodb.OldImage.x.S === 'one', 'OLD_IMAGE: the item as it was before [API]', got[1].dynamodb);
    if (view === 'NEW_IMAGE')
      ok(got[1].dynamodb.NewImage.x.S === 'two', 'NEW_IMAGE: the item as it is after [API]', got[1].dynamodb);
    if (view === 'KEYS_ONLY')
      ok(got[0].dynamodb.SizeBytes < all.records[0].dynamodb.SizeBytes, 'KEYS_ONLY records are smaller (SizeBytes counts what the record carries)', got[0].dynamodb);
  }

  /* ---- ListStreams ---- */
  const ls = await sc.send(new dst.ListStreamsCommand({}));
  ok(ls.Streams.length === 4 && ls.Streams.some((s) => s.StreamArn === arn && s.TableName === T && s.StreamLabel === ds.StreamLabel),
    'ListStreams: every stream, with StreamArn, StreamLabel, TableName [API]', ls.Streams);
  const l1 = await sc.send(new dst.ListStreamsCommand({ Limit: 1 }));
  const l2 = await sc.send(new dst.ListStreamsCommand({ Limit: 3, ExclusiveStartStreamArn: l1.LastEvaluatedStreamArn }));
  ok(l1.Streams.length === 1 && l1.LastEvaluatedStreamArn === l1.Streams[0].StreamArn && l2.Streams.length === 3 && !l2.LastEvaluatedStreamArn &&
     JSON.stringify([...l1.Streams, ...l2.Streams]) === JSON.stringify(ls.Streams), 'ListStreams Limit and ExclusiveStartStreamArn page through them [API]', [l1, l2]);
  const lt = await sc.send(new dst.ListStreamsCommand({ TableName: T }));
  ok(lt.Streams.length === 1 && lt.Streams[0].StreamArn === arn, 'ListStreams TableName: that table\'s streams [API]', lt.Streams);
  const lnf = await thrown(() => sc.send(new dst.ListStreamsCommand({ TableName: 'NoSuchTable' })));
  ok(lnf && lnf.name === 'ResourceNotFoundException', 'ListStreams of a table that does not exist: ResourceNotFoundException [API]', lnf && lnf.name);

  /* ---- UpdateTable ---- */
  const u1 = await thrown(() => c.send(new ddb.UpdateTableCommand({ TableName: T, StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' } })));
  ok(u1 && u1.name === 'ValidationException' && u1.message === `Table already has an enabled stream: TableName: ${T}`, 'UpdateTable enabling an enabled stream (another view type too) [OBS]', u1 && u1.message);
  const u2 = await thrown(() => c.send(new ddb.UpdateTableCommand({ TableName: T, StreamSpecification: { StreamEnabled: false, StreamViewType: 'KEYS_ONLY' } })));
  ok(u2 && /If stream is being disabled, then UpdateViewType must not be specified/.test(u2.message), 'UpdateTable disabling with a view type [OBS]', u2 && u2.message);
  const ud = await c.send(new ddb.UpdateTableCommand({ TableName: T, StreamSpecification: { StreamEnabled: false } }));
  ok(ud.TableDescription.TableStatus === 'UPDATING' && !ud.TableDescription.StreamSpecification && ud.TableDescription.LatestStreamArn === arn,
    'UpdateTable disables: UPDATING, no StreamSpecification, LatestStreamArn stays [OBS]', ud.TableDescription);
  const dt2 = (await c.send(new ddb.DescribeTableCommand({ TableName: T }))).Table;
  ok(dt2.TableStatus === 'ACTIVE' && !dt2.StreamSpecification && dt2.LatestStreamArn === arn, 'DescribeTable after disabling [OBS]', dt2);
  const u3 = await thrown(() => c.send(new ddb.UpdateTableCommand({ TableName: T, StreamSpecification: { StreamEnabled: false } })));
  ok(u3 && u3.message === `Table has no stream to disable: TableName: ${T}`, 'UpdateTable disabling again [OBS]', u3 && u3.message);
  const u4 = await thrown(() => c.send(new ddb.UpdateTableCommand({ TableName: T, StreamSpecification: { StreamEnabled: true } })));
  ok(u4 && /If stream is being enabled then UpdateViewType is required/.test(u4.message), 'UpdateTable enabling without a view type [OBS]', u4 && u4.message);
  const u5 = await thrown(() => c.send(new ddb.UpdateTableCommand({ TableName: 'NoSuchTable', StreamSpecification: { StreamEnabled: false } })));
  ok(u5 && u5.name === 'ResourceNotFoundException', 'UpdateTable of a missing table: ResourceNotFoundException', u5 && u5.name);
  const u6 = await thrown(() => c.send(new ddb.UpdateTableCommand({ TableName: T })));
  ok(u6 && u6.name === 'ValidationException' && /At least one of/.test(u6.message), 'UpdateTable with nothing to change: ValidationException', u6 && u6.message);

  await c.send(new ddb.PutItemCommand({ TableName: T, Item: { ...K('o#5', 1) } })); // while disabled
  const closed = (await sc.send(new dst.DescribeStreamCommand({ StreamArn: arn }))).StreamDescription;
  ok(closed.StreamStatus === 'DISABLED' && closed.Shards[0].SequenceNumberRange.EndingSequenceNumber,
    'the disabled stream: DISABLED, its shard closed (EndingSequenceNumber) [API]', closed);
  const oldRead = await readAll(sc, arn);
  ok(oldRead.records.length === all.records.length && !oldRead.last.NextShardIterator,
    'a closed shard reads to its end (not the write made after it closed), then no NextShardIterator [API]', { n: oldRead.records.length, last: oldRead.last });
  const ue = await c.send(new ddb.UpdateTableCommand({ TableName: T, StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }));
  const arn2 = ue.TableDescription.LatestStreamArn;
  ok(arn2 && arn2 !== arn && ue.TableDescription.StreamSpecification.StreamViewType === 'NEW_IMAGE', 'enabling again: a new stream, a new LatestStreamArn [DG]', ue.TableDescription);
  await c.send(new ddb.PutItemCommand({ TableName: T, Item: { ...K('o#6', 1) } }));
  const fresh = (await readAll(sc, arn2)).records.map((r) => r.dynamodb.Keys.pk.S);
  ok(JSON.stringify(fresh) === JSON.stringify(['o#6']), 'the new stream has only what was written after it began (not the write while disabled) [DG]', fresh);
  const lt2 = await sc.send(new dst.ListStreamsCommand({ TableName: T }));
  ok(lt2.Streams.length === 2, 'ListStreams lists the old, disabled stream beside the new one [OBS]', lt2.Streams);

  /* ---- DeleteTable: the stream stays readable, disabled ---- */
  await c.send(new ddb.DeleteTableCommand({ TableName: 'ViewKEYSONLY' }));
  const gone = ls.Streams.find((s) => s.TableName === 'ViewKEYSONLY');
  const gd = gone && (await sc.send(new dst.DescribeStreamCommand({ StreamArn: gone.StreamArn }))).StreamDescription;
  const gr = gone && (await readAll(sc, gone.StreamArn)).records;
  ok(gd && gd.StreamStatus === 'DISABLED' && gr.length === 3, 'after DeleteTable the stream is DISABLED and its records still readable [DG]', gd);

  /* ---- ddbx api on the same database answers the Streams operations ---- */
  const api = spawnSync(DDBX, ['api', '--db', DBFILE], { input: JSON.stringify({ Operation: 'ListStreams', Input: { TableName: T } }) + '\n', encoding: 'utf8' });
  let apiOut = null;
  try { apiOut = JSON.parse(api.stdout).Output; } catch (e) { /* reported below */ }
  ok(apiOut && apiOut.Streams.length === 2, 'ddbx api answers ListStreams on the same database', api.stdout + api.stderr);

  /* ---- trimming and expiry, on the server with short times ---- */
  const c2 = new ddb.DynamoDBClient(cfg(SHORT));
  const sc2 = new dst.DynamoDBStreamsClient(cfg(SHORT));
  const tr = await c2.send(new ddb.CreateTableCommand(tableInput('Trimmed', 'KEYS_ONLY')));
  const tarn = tr.TableDescription.LatestStreamArn;
  await c2.send(new ddb.PutItemCommand({ TableName: 'Trimmed', Item: K('early', 1) }));
  const before = await readAll(sc2, tarn);
  const tshard = before.shard;
  const earlySeq = before.records[0] && before.records[0].dynamodb.SequenceNumber;
  const horizon = (await sc2.send(new dst.GetShardIteratorCommand({ StreamArn: tarn, ShardId: tshard, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
  ok(before.records.length === 1, 'short retention: the first record is there', before.records.length);
  await sleep(2600); // past the 2 s retention
  await c2.send(new ddb.PutItemCommand({ TableName: 'Trimmed', Item: K('late', 1) }));
  const t1 = await thrown(() => sc2.send(new dst.GetRecordsCommand({ ShardIterator: horizon })));
  ok(t1 && t1.name === 'TrimmedDataAccessException', 'an iterator from before the trim: TrimmedDataAccessException [API GetRecords]', t1 && (t1.name + ': ' + t1.message));
  const t2 = await thrown(() => sc2.send(new dst.GetShardIteratorCommand({ StreamArn: tarn, ShardId: tshard, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: earlySeq })));
  ok(t2 && t2.name === 'TrimmedDataAccessException', 'AT_SEQUENCE_NUMBER of a trimmed record: TrimmedDataAccessException [API GetShardIterator]', t2 && t2.name);
  const afterTrim = await readAll(sc2, tarn);
  ok(JSON.stringify(afterTrim.records.map((r) => r.dynamodb.Keys.pk.S)) === JSON.stringify(['late']),
    'a new TRIM_HORIZON iterator starts at the oldest record left [API]', afterTrim.records.map((r) => r.dynamodb.Keys.pk.S));
  const sd = (await sc2.send(new dst.DescribeStreamCommand({ StreamArn: tarn }))).StreamDescription;
  ok(BigInt(sd.Shards[0].SequenceNumberRange.StartingSequenceNumber) > BigInt(earlySeq), 'the shard\'s StartingSequenceNumber moves past what was trimmed', sd.Shards[0]);
  const latest = (await sc2.send(new dst.GetShardIteratorCommand({ StreamArn: tarn, ShardId: tshard, ShardIteratorType: 'LATEST' }))).ShardIterator;
  await sleep(3300); // past the 3 s iterator lifetime
  const ex = await thrown(() => sc2.send(new dst.GetRecordsCommand({ ShardIterator: latest })));
  ok(ex && ex.name === 'ExpiredIteratorException', 'an iterator used after its lifetime: ExpiredIteratorException [API]', ex && (ex.name + ': ' + ex.message));
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  ok(false, 'streams.js ran to the end', e && e.stack);
  process.exit(1);
});
