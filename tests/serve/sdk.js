'use strict';
/*
 * The AWS SDK for JavaScript v3 against `ddbx serve`: every operation the
 * store has, the SDK's own exception classes for DynamoDB's errors,
 * concurrent clients, the x-amz-crc32 header, and `ddbx api` on the same
 * database seeing what the endpoint wrote. Prints TAP lines (no plan; the
 * caller counts). Usage: node sdk.js PORT DDBX DBFILE
 */
const http = require('http');
const { spawnSync } = require('child_process');
const path = require('path');
const ddb = require(path.join(__dirname, '../node/node_modules/@aws-sdk/client-dynamodb'));

const [PORT, DDBX, DBFILE] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const T = 'SdkGraph';

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

function client() {
  return new ddb.DynamoDBClient({
    endpoint: `http://127.0.0.1:${PORT}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDSERVETEST', secretAccessKey: 'not-a-secret' },
    maxAttempts: 1, // an error must surface, not be retried away
  });
}

/* Runs fn; returns the exception it threw (or null). */
async function thrown(fn) {
  try {
    await fn();
    return null;
  } catch (e) {
    return e;
  }
}

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

/* A raw request: resolves {status, headers, body(Buffer)}. */
function raw(target, body) {
  return new Promise((resolve, reject) => {
    const headers = { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': Buffer.byteLength(body) };
    if (target) headers['X-Amz-Target'] = target;
    const req = http.request({ host: '127.0.0.1', port: PORT, method: 'POST', path: '/', headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const c = client();
  const S = (s) => ({ S: s });

  // CreateTable with an inverted GSI, as the follow graph has.
  const ct = await c.send(new ddb.CreateTableCommand({
    TableName: T,
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' }, { AttributeName: 'SK', AttributeType: 'S' },
      { AttributeName: 'GSI1PK', AttributeType: 'S' }, { AttributeName: 'GSI1SK', AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: [{
      IndexName: 'GSI1',
      KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'GSI1SK', KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'ALL' },
    }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
  ok(ct.TableDescription && ct.TableDescription.TableName === T &&
     ct.TableDescription.GlobalSecondaryIndexes[0].IndexName === 'GSI1', 'CreateTable', ct.TableDescription);
  ok(ct.$metadata.httpStatusCode === 200 && typeof ct.$metadata.requestId === 'string' &&
     ct.$metadata.requestId.length === 52, 'x-amzn-RequestId read by the SDK', ct.$metadata);

  const again = await thrown(() => c.send(new ddb.CreateTableCommand({
    TableName: T,
    AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  })));
  ok(again instanceof ddb.ResourceInUseException, 'CreateTable twice: ResourceInUseException', again && again.name);

  // PutItem with a condition; the second time it fails with the item.
  const edge = { PK: S('ACTOR#alice'), SK: S('TARGET#bob'), GSI1PK: S('TARGET#bob'), GSI1SK: S('ACTOR#alice'), followedAt: S('2024-01-02') };
  const put = await c.send(new ddb.PutItemCommand({ TableName: T, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' }));
  ok(put.$metadata.httpStatusCode === 200, 'PutItem with attribute_not_exists(PK)', put.$metadata);
  const ccf = await thrown(() => c.send(new ddb.PutItemCommand({
    TableName: T, Item: edge, ConditionExpression: 'attribute_not_exists(PK)',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  })));
  ok(ccf instanceof ddb.ConditionalCheckFailedException && ccf.$metadata.httpStatusCode === 400,
     'second PutItem: the SDK throws ConditionalCheckFailedException', ccf && { name: ccf.name, m: ccf.message });
  ok(ccf && ccf.Item && ccf.Item.followedAt && ccf.Item.followedAt.S === '2024-01-02',
     'ConditionalCheckFailedException carries the current Item', ccf && ccf.Item);
  ok(ccf && /conditional request failed/i.test(ccf.message), 'its message is DynamoDB\'s', ccf && ccf.message);

  // A validation error surfaces as the SDK's ValidationException name.
  const ve = await thrown(() => c.send(new ddb.PutItemCommand({ TableName: T, Item: { PK: S('x') } })));
  ok(ve && ve.name === 'ValidationException' && /SK/.test(ve.message), 'missing sort key: ValidationException',
     ve && { name: ve.name, m: ve.message });
  const nf = await thrown(() => c.send(new ddb.GetItemCommand({ TableName: 'NoSuchTable', Key: { PK: S('x') } })));
  ok(nf instanceof ddb.ResourceNotFoundException, 'GetItem on a missing table: ResourceNotFoundException', nf && nf.name);

  const got = await c.send(new ddb.GetItemCommand({ TableName: T, Key: { PK: S('ACTOR#alice'), SK: S('TARGET#bob') }, ConsistentRead: true }));
  ok(got.Item && got.Item.GSI1PK.S === 'TARGET#bob' && got.Item.followedAt.S === '2024-01-02', 'GetItem', got.Item);

  const upd = await c.send(new ddb.UpdateItemCommand({
    TableName: T, Key: { PK: S('ACTOR#alice'), SK: S('PROFILE') },
    UpdateExpression: 'SET #n = :n ADD followingCount :one',
    ExpressionAttributeNames: { '#n': 'name' },
    ExpressionAttributeValues: { ':n': S('앨리스'), ':one': { N: '1' } },
    ReturnValues: 'ALL_NEW',
  }));
  ok(upd.Attributes && upd.Attributes.name.S === '앨리스' && upd.Attributes.followingCount.N === '1',
     'UpdateItem SET/ADD with ReturnValues ALL_NEW (non-ASCII value)', upd.Attributes);

  // BatchWriteItem: 25 followers of bob, then a Query on the inverted GSI.
  const reqs = [];
  for (let i = 0; i < 25; i++) {
    const who = `ACTOR#u${String(i).padStart(2, '0')}`;
    reqs.push({ PutRequest: { Item: { PK: S(who), SK: S('TARGET#bob'), GSI1PK: S('TARGET#bob'), GSI1SK: S(who) } } });
  }
  const bw = await c.send(new ddb.BatchWriteItemCommand({ RequestItems: { [T]: reqs } }));
  ok(bw.UnprocessedItems && Object.keys(bw.UnprocessedItems).length === 0, 'BatchWriteItem of 25 puts', bw);

  const q = await c.send(new ddb.QueryCommand({
    TableName: T, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :t AND begins_with(GSI1SK, :a)',
    ExpressionAttributeValues: { ':t': S('TARGET#bob'), ':a': S('ACTOR#') },
  }));
  const qs = q.Items.map((it) => it.GSI1SK.S);
  ok(q.Count === 26 && qs[0] === 'ACTOR#alice' && qs[1] === 'ACTOR#u00' && qs[25] === 'ACTOR#u24',
     'Query on GSI1: bob\'s 26 followers in sort-key order', { Count: q.Count, first: qs.slice(0, 3) });

  // Scan with Limit: pages joined by LastEvaluatedKey.
  let pages = 0;
  let seen = 0;
  let start;
  do {
    const sc = await c.send(new ddb.ScanCommand({ TableName: T, Limit: 7, ExclusiveStartKey: start }));
    pages++;
    seen += sc.Count;
    start = sc.LastEvaluatedKey;
    if (pages > 20) break;
  } while (start);
  ok(seen === 27 && pages === 4, 'Scan with Limit 7: 27 items in 4 pages', { seen, pages });
  let pseen = 0;
  for await (const page of ddb.paginateScan({ client: c, pageSize: 10 }, { TableName: T })) pseen += page.Count;
  ok(pseen === 27, 'the SDK\'s paginateScan', pseen);

  const bg = await c.send(new ddb.BatchGetItemCommand({
    RequestItems: { [T]: { Keys: [{ PK: S('ACTOR#u03'), SK: S('TARGET#bob') }, { PK: S('ACTOR#alice'), SK: S('PROFILE') }, { PK: S('ACTOR#none'), SK: S('X') }] } },
  }));
  const bgr = (bg.Responses[T] || []).map((it) => it.PK.S).sort();
  ok(bgr.length === 2 && bgr[0] === 'ACTOR#alice' && bgr[1] === 'ACTOR#u03', 'BatchGetItem (one key absent)', bg.Responses);

  // TransactWriteItems: a follow and its counters; then one that is cancelled.
  const follow = (who, whom) => ({
    TransactItems: [
      { Put: { TableName: T, Item: { PK: S(`ACTOR#${who}`), SK: S(`TARGET#${whom}`), GSI1PK: S(`TARGET#${whom}`), GSI1SK: S(`ACTOR#${who}`) },
               ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: { TableName: T, Key: { PK: S(`ACTOR#${who}`), SK: S('PROFILE') }, UpdateExpression: 'ADD followingCount :one',
                  ExpressionAttributeValues: { ':one': { N: '1' } } } },
      { Update: { TableName: T, Key: { PK: S(`ACTOR#${whom}`), SK: S('PROFILE') }, UpdateExpression: 'ADD followerCount :one',
                  ExpressionAttributeValues: { ':one': { N: '1' } } } },
    ],
  });
  const tw = await c.send(new ddb.TransactWriteItemsCommand(follow('alice', 'carol')));
  ok(tw.$metadata.httpStatusCode === 200, 'TransactWriteItems: a follow and both counters', tw.$metadata);
  const tc = await thrown(() => c.send(new ddb.TransactWriteItemsCommand(follow('alice', 'carol'))));
  ok(tc instanceof ddb.TransactionCanceledException, 'following twice: TransactionCanceledException', tc && tc.name);
  const codes = tc && tc.CancellationReasons ? tc.CancellationReasons.map((r) => r.Code) : null;
  ok(codes && codes.join(',') === 'ConditionalCheckFailed,None,None', 'its CancellationReasons', codes);
  ok(tc && /Transaction cancelled/.test(tc.message), 'its message', tc && tc.message);
  const prof = await c.send(new ddb.GetItemCommand({ TableName: T, Key: { PK: S('ACTOR#alice'), SK: S('PROFILE') } }));
  ok(prof.Item && prof.Item.followingCount.N === '2', 'the cancelled transaction wrote nothing (followingCount 2)', prof.Item);

  const tg = await c.send(new ddb.TransactGetItemsCommand({
    TransactItems: [{ Get: { TableName: T, Key: { PK: S('ACTOR#carol'), SK: S('PROFILE') } } }],
  }));
  ok(tg.Responses && tg.Responses[0].Item && tg.Responses[0].Item.followerCount.N === '1', 'TransactGetItems', tg.Responses);

  const del = await c.send(new ddb.DeleteItemCommand({ TableName: T, Key: { PK: S('ACTOR#u00'), SK: S('TARGET#bob') }, ReturnValues: 'ALL_OLD' }));
  ok(del.Attributes && del.Attributes.GSI1SK.S === 'ACTOR#u00', 'DeleteItem with ReturnValues ALL_OLD', del.Attributes);

  const dt = await c.send(new ddb.DescribeTableCommand({ TableName: T }));
  ok(dt.Table && dt.Table.TableStatus === 'ACTIVE' && dt.Table.KeySchema[0].AttributeName === 'PK' &&
     dt.Table.GlobalSecondaryIndexes[0].IndexName === 'GSI1', 'DescribeTable', dt.Table);

  // Concurrent clients: 8 writers x 200 PutItems, each with its own connections.
  const W = 8;
  const N = 200;
  const writers = [];
  for (let w = 0; w < W; w++) {
    const cw = client();
    writers.push((async () => {
      let done = 0;
      for (let i = 0; i < N; i += 10) {
        const batch = [];
        for (let j = i; j < i + 10; j++) {
          batch.push(cw.send(new ddb.PutItemCommand({ TableName: T, Item: { PK: S(`W#${w}`), SK: S(`I#${String(j).padStart(4, '0')}`), v: { N: String(j) } } })));
        }
        await Promise.all(batch);
        done += batch.length;
      }
      cw.destroy();
      return done;
    })());
  }
  const results = await Promise.allSettled(writers);
  const answered = results.reduce((a, r) => a + (r.status === 'fulfilled' ? r.value : 0), 0);
  const errs = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
  ok(answered === W * N && errs.length === 0, `${W} concurrent writers x ${N} PutItems all answered`, { answered, errs });
  let counted = 0;
  for (let w = 0; w < W; w++) {
    const qc = await c.send(new ddb.QueryCommand({ TableName: T, KeyConditionExpression: 'PK = :p', Select: 'COUNT',
                                                   ExpressionAttributeValues: { ':p': S(`W#${w}`) } }));
    counted += qc.Count;
  }
  ok(counted === W * N, 'none lost: each writer\'s partition holds its 200 items', counted);

  // The wire: CRC32 header, error shapes, unknown operation, bad JSON.
  const r1 = await raw('DynamoDB_20120810.Scan', JSON.stringify({ TableName: T, Limit: 50 }));
  ok(r1.status === 200 && Number(r1.headers['x-amz-crc32']) === crc32(r1.body) && r1.body.length > 1000,
     'x-amz-crc32 is the CRC32 of the body', { status: r1.status, h: r1.headers['x-amz-crc32'], c: crc32(r1.body) });
  ok(r1.headers['content-type'] === 'application/x-amz-json-1.0' && /^[0-9A-Z]{52}$/.test(r1.headers['x-amzn-requestid'] || ''),
     'Content-Type and x-amzn-RequestId headers', r1.headers);
  const r2 = await raw('DynamoDB_20120810.PutItem', JSON.stringify({ TableName: T, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' }));
  const b2 = JSON.parse(r2.body);
  ok(r2.status === 400 && b2.__type === 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException' &&
     b2.message === 'The conditional request failed' && Number(r2.headers['x-amz-crc32']) === crc32(r2.body),
     'ConditionalCheckFailedException on the wire: 400, __type, message, CRC', { s: r2.status, b: b2 });
  const r3 = await raw('DynamoDB_20120810.GetItem', '{}');
  const b3 = JSON.parse(r3.body);
  ok(r3.status === 400 && b3.__type === 'com.amazon.coral.validate#ValidationException', 'ValidationException __type', b3);
  const r4 = await raw('DynamoDB_20120810.FrobnicateTable', '{}');
  const b4 = JSON.parse(r4.body);
  ok(r4.status === 400 && /#UnknownOperationException$/.test(b4.__type), 'unknown operation: UnknownOperationException', b4);
  const r5 = await raw(null, '{}');
  ok(r5.status === 400 && /#UnknownOperationException$/.test(JSON.parse(r5.body).__type), 'no X-Amz-Target: UnknownOperationException', String(r5.body));
  const r6 = await raw('DynamoDB_20120810.ListTables', '{"Limit": ');
  const b6 = JSON.parse(r6.body);
  ok(r6.status === 400 && /#SerializationException$/.test(b6.__type), 'malformed JSON: SerializationException', b6);

  // PartiQL. dynalite has none: expectations from the developer guide's
  // PartiQL pages and the ExecuteStatement API reference (Limit counts the
  // items evaluated, NextToken continues; INSERT of an existing key is
  // DuplicateItemException; transactions are all or nothing).
  {
    let items = 0, pages = 0, token, units = 0;
    do {
      const r = await c.send(new ddb.ExecuteStatementCommand({
        Statement: `SELECT SK, v FROM "${T}" WHERE PK = ? AND begins_with(SK, ?)`,
        Parameters: [S('W#7'), S('I#00')], Limit: 40, NextToken: token, ReturnConsumedCapacity: 'TOTAL',
      }));
      items += r.Items.length;
      pages++;
      units += r.ConsumedCapacity ? r.ConsumedCapacity.CapacityUnits : 0;
      token = r.NextToken;
    } while (token && pages < 20);
    ok(items === Math.min(N, 100) && pages >= 2 && units > 0,
       'ExecuteStatement SELECT paged with Limit and NextToken, capacity reported', { items, pages, units });
    const ins = await c.send(new ddb.ExecuteStatementCommand({ Statement: `INSERT INTO "${T}" VALUE {'PK': 'PQ#1', 'SK': 'A', 'n': 1}` }));
    ok(Array.isArray(ins.Items) && ins.Items.length === 0, 'ExecuteStatement INSERT', ins);
    const dup = await thrown(() => c.send(new ddb.ExecuteStatementCommand({ Statement: `INSERT INTO "${T}" VALUE {'PK': 'PQ#1', 'SK': 'A'}` })));
    ok(dup instanceof ddb.DuplicateItemException, 'ExecuteStatement INSERT again: the SDK\'s DuplicateItemException', dup && dup.name);
    const up = await c.send(new ddb.ExecuteStatementCommand({
      Statement: `UPDATE "${T}" SET n = n + ? WHERE PK = 'PQ#1' AND SK = 'A' RETURNING MODIFIED NEW *`, Parameters: [{ N: '2' }],
    }));
    ok(up.Items.length === 1 && up.Items[0].n.N === '3' && !up.Items[0].PK, 'ExecuteStatement UPDATE RETURNING MODIFIED NEW *', up.Items);
    const syn = await thrown(() => c.send(new ddb.ExecuteStatementCommand({ Statement: `SELECT * FROM "${T}" WHERE PK = = 'x'` })));
    ok(syn && syn.name === 'ValidationException' && /well formed.*column 37/.test(syn.message), 'ExecuteStatement syntax error: ValidationException with the position', syn && syn.message);
    const be = await c.send(new ddb.BatchExecuteStatementCommand({ Statements: [
      { Statement: `SELECT v FROM "${T}" WHERE PK = 'W#7' AND SK = 'I#0003'` },
      { Statement: `SELECT v FROM "${T}" WHERE PK = 'W#7'` },
    ] }));
    ok(be.Responses.length === 2 && be.Responses[0].Item.v.N === '3' && be.Responses[1].Error.Code === 'ValidationError',
       'BatchExecuteStatement: an item, and a per-statement error for a read without the whole key', be.Responses);
    const tx = await thrown(() => c.send(new ddb.ExecuteTransactionCommand({ TransactStatements: [
      { Statement: `DELETE FROM "${T}" WHERE PK = 'PQ#1' AND SK = 'A'` },
      { Statement: `INSERT INTO "${T}" VALUE {'PK': 'W#7', 'SK': 'I#0003'}` },
    ] })));
    ok(tx instanceof ddb.TransactionCanceledException && tx.CancellationReasons &&
       tx.CancellationReasons.map((r) => r.Code).join() === 'None,DuplicateItem',
       'ExecuteTransaction: TransactionCanceledException, DuplicateItem among its reasons', tx && (tx.CancellationReasons || tx.message));
    const still = await c.send(new ddb.ExecuteStatementCommand({ Statement: `SELECT * FROM "${T}" WHERE PK = 'PQ#1'` }));
    ok(still.Items.length === 1, 'ExecuteTransaction: the cancelled DELETE did not happen', still.Items);
  }

  // Backups and point-in-time recovery (the API reference's shapes; the
  // SDK parses the epoch-second timestamps into Dates and maps the error
  // types onto its own exception classes).
  {
    const count = async (table) => (await c.send(new ddb.ScanCommand({ TableName: table, Select: 'COUNT' }))).Count;
    const items = await count(T);
    const cb = await c.send(new ddb.CreateBackupCommand({ TableName: T, BackupName: 'sdk-backup' }));
    const bd = cb.BackupDetails || {};
    ok(/^arn:aws:dynamodb:[^:]+:\d+:table\/SdkGraph\/backup\/\d{14}-[0-9a-f]{8}$/.test(bd.BackupArn || '') &&
       bd.BackupStatus === 'CREATING' && bd.BackupType === 'USER' && bd.BackupCreationDateTime instanceof Date,
       'CreateBackup: BackupDetails with its ARN, CREATING, a Date', bd);
    const cb2 = await c.send(new ddb.CreateBackupCommand({ TableName: T, BackupName: 'sdk-backup-2' }));
    const lb = await c.send(new ddb.ListBackupsCommand({ TableName: T, Limit: 1 }));
    ok(lb.BackupSummaries.length === 1 && lb.BackupSummaries[0].BackupArn === bd.BackupArn &&
       lb.LastEvaluatedBackupArn === bd.BackupArn, 'ListBackups: oldest first, a page of one and its LastEvaluatedBackupArn', lb);
    const lb2 = await c.send(new ddb.ListBackupsCommand({ TableName: T, ExclusiveStartBackupArn: lb.LastEvaluatedBackupArn }));
    ok(lb2.BackupSummaries.length === 1 && lb2.BackupSummaries[0].BackupArn === cb2.BackupDetails.BackupArn &&
       !lb2.LastEvaluatedBackupArn, 'ListBackups: the next page from ExclusiveStartBackupArn', lb2);
    const db = await c.send(new ddb.DescribeBackupCommand({ BackupArn: bd.BackupArn }));
    const desc = db.BackupDescription || {};
    ok(desc.BackupDetails && desc.BackupDetails.BackupStatus === 'AVAILABLE' && desc.SourceTableDetails &&
       desc.SourceTableDetails.ItemCount === items && desc.SourceTableFeatureDetails.GlobalSecondaryIndexes[0].IndexName === 'GSI1',
       'DescribeBackup: AVAILABLE, the source table and its GSI', desc);
    const rt = await c.send(new ddb.RestoreTableFromBackupCommand({ BackupArn: bd.BackupArn, TargetTableName: T + 'Copy' }));
    ok(rt.TableDescription && rt.TableDescription.RestoreSummary && rt.TableDescription.RestoreSummary.RestoreInProgress === true &&
       rt.TableDescription.RestoreSummary.SourceBackupArn === bd.BackupArn, 'RestoreTableFromBackup: the new table with its RestoreSummary',
       rt.TableDescription);
    ok(await count(T + 'Copy') === items, 'the restored table holds the backed-up items', items);
    const again2 = await thrown(() => c.send(new ddb.RestoreTableFromBackupCommand({ BackupArn: bd.BackupArn, TargetTableName: T })));
    ok(again2 instanceof ddb.TableAlreadyExistsException, 'a restore onto an existing table: TableAlreadyExistsException', again2 && again2.name);
    const nf = await thrown(() => c.send(new ddb.DescribeBackupCommand({ BackupArn: bd.BackupArn.replace(/-[0-9a-f]{8}$/, '-00000001') })));
    ok(nf instanceof ddb.BackupNotFoundException, 'DescribeBackup of no backup: BackupNotFoundException', nf && nf.name);
    const tnf = await thrown(() => c.send(new ddb.CreateBackupCommand({ TableName: 'NoSuchTable', BackupName: 'x-y' })));
    ok(tnf instanceof ddb.TableNotFoundException, 'CreateBackup of no table: TableNotFoundException', tnf && tnf.name);
    const off = await thrown(() => c.send(new ddb.RestoreTableToPointInTimeCommand({
      SourceTableName: T, TargetTableName: T + 'Then', UseLatestRestorableTime: true })));
    ok(off instanceof ddb.PointInTimeRecoveryUnavailableException, 'a point in time without recovery enabled: PointInTimeRecoveryUnavailableException', off && off.name);
    const uc = await c.send(new ddb.UpdateContinuousBackupsCommand({ TableName: T,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 3 } }));
    const pd = uc.ContinuousBackupsDescription.PointInTimeRecoveryDescription;
    ok(pd.PointInTimeRecoveryStatus === 'ENABLED' && pd.RecoveryPeriodInDays === 3 && pd.EarliestRestorableDateTime instanceof Date,
       'UpdateContinuousBackups: ENABLED, its period, the window as Dates', pd);
    await new Promise((r) => setTimeout(r, 20));
    const at = new Date();
    await new Promise((r) => setTimeout(r, 20));
    await c.send(new ddb.DeleteItemCommand({ TableName: T, Key: { PK: S('W#7'), SK: S('I#0003') } }));
    const pit = await c.send(new ddb.RestoreTableToPointInTimeCommand({ SourceTableName: T, TargetTableName: T + 'Then', RestoreDateTime: at }));
    ok(pit.TableDescription && pit.TableDescription.RestoreSummary && pit.TableDescription.RestoreSummary.RestoreDateTime instanceof Date,
       'RestoreTableToPointInTime: the new table, restored to a Date', pit.TableDescription);
    const then = await c.send(new ddb.GetItemCommand({ TableName: T + 'Then', Key: { PK: S('W#7'), SK: S('I#0003') } }));
    ok(then.Item && then.Item.v.N === '3' && await count(T + 'Then') === items,
       'the item deleted after that moment is there, and every other', then.Item);
    const bad = await thrown(() => c.send(new ddb.RestoreTableToPointInTimeCommand({
      SourceTableName: T, TargetTableName: T + 'Never', RestoreDateTime: new Date(Date.now() - 7 * 86400e3) })));
    ok(bad instanceof ddb.InvalidRestoreTimeException, 'a moment before the window: InvalidRestoreTimeException', bad && bad.name);
    const dlb = await c.send(new ddb.DeleteBackupCommand({ BackupArn: cb2.BackupDetails.BackupArn }));
    ok(dlb.BackupDescription.BackupDetails.BackupStatus === 'DELETED', 'DeleteBackup: DELETED', dlb.BackupDescription);
    for (const t of [T + 'Copy', T + 'Then']) await c.send(new ddb.DeleteTableCommand({ TableName: t }));
  }

  // The 2024-2026 members through the SDK (issue 39, item 5): resource
  // policies (PolicyNotFoundException and its words: moto's AWS-verified
  // tests; the revision kept for the same document: the API reference),
  // OnDemandThroughput and WarmThroughput as DescribeTable gives them
  // (AWS's answers captured 2026-10-08 by the ack-api-quirks lab).
  {
    const P = 'SdkPolicy';
    await c.send(new ddb.CreateTableCommand({
      TableName: P, BillingMode: 'PAY_PER_REQUEST', OnDemandThroughput: { MaxReadRequestUnits: 100 },
      WarmThroughput: { ReadUnitsPerSecond: 12001 },
      AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }] }));
    const arn = (await c.send(new ddb.DescribeTableCommand({ TableName: P }))).Table.TableArn;
    const none = await thrown(() => c.send(new ddb.GetResourcePolicyCommand({ ResourceArn: arn })));
    ok(none instanceof ddb.PolicyNotFoundException && none.message === 'Resource-based policy not found for the provided ResourceArn: ' + arn,
      'GetResourcePolicy of a table without one: PolicyNotFoundException', none && none.message);
    const doc = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: '000000000000' }, Action: 'dynamodb:GetItem', Resource: arn }] });
    const put = await c.send(new ddb.PutResourcePolicyCommand({ ResourceArn: arn, Policy: doc, ExpectedRevisionId: 'NO_POLICY' }));
    const again = await c.send(new ddb.PutResourcePolicyCommand({ ResourceArn: arn, Policy: doc }));
    const got = await c.send(new ddb.GetResourcePolicyCommand({ ResourceArn: arn }));
    ok(put.RevisionId && again.RevisionId === put.RevisionId && got.Policy === doc && got.RevisionId === put.RevisionId,
      'PutResourcePolicy then GetResourcePolicy: the document and its revision, the same document keeping it', got);
    const stale = await thrown(() => c.send(new ddb.DeleteResourcePolicyCommand({ ResourceArn: arn, ExpectedRevisionId: '1' })));
    ok(stale instanceof ddb.PolicyNotFoundException && /Requested update for policy with revision id 1, but the policy associated to target table SdkPolicy has revision id /.test(stale.message),
      'DeleteResourcePolicy with another revision: PolicyNotFoundException', stale && stale.message);
    const del = await c.send(new ddb.DeleteResourcePolicyCommand({ ResourceArn: arn, ExpectedRevisionId: put.RevisionId }));
    ok(del.RevisionId === put.RevisionId, 'DeleteResourcePolicy: the revision it removed', del);
    const d = (await c.send(new ddb.DescribeTableCommand({ TableName: P }))).Table;
    ok(d.OnDemandThroughput && d.OnDemandThroughput.MaxReadRequestUnits === 100 && d.OnDemandThroughput.MaxWriteRequestUnits === undefined &&
      d.WarmThroughput && d.WarmThroughput.ReadUnitsPerSecond === 12001 && d.WarmThroughput.WriteUnitsPerSecond === 4000 && d.WarmThroughput.Status === 'ACTIVE',
      'DescribeTable: OnDemandThroughput as given, WarmThroughput over the on-demand floor with its Status', d);
    const low = await thrown(() => c.send(new ddb.UpdateTableCommand({ TableName: P, WarmThroughput: { ReadUnitsPerSecond: 12000 } })));
    ok(low && low.name === 'ValidationException' && /decreasing WarmThroughput is not supported$/.test(low.message),
      'UpdateTable lowering WarmThroughput: ValidationException', low && low.message);
    await c.send(new ddb.DeleteTableCommand({ TableName: P }));
  }

  // ItemCollectionMetrics (API reference: per write on a table with a
  // local secondary index; BatchWriteItem's and TransactWriteItems' a map
  // of table to a list), read by the SDK as it reads DynamoDB's.
  {
    const L = 'SdkLsi';
    await c.send(new ddb.CreateTableCommand({
      TableName: L, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }, { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'L', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
      LocalSecondaryIndexes: [{ IndexName: 'ByL', KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'L', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } }],
    }));
    const small = (m, pk) => m && m.ItemCollectionKey && m.ItemCollectionKey.PK.S === pk &&
      JSON.stringify(m.SizeEstimateRangeGB) === '[0,1]';
    const p1 = await c.send(new ddb.PutItemCommand({ TableName: L, Item: { PK: S('a'), SK: S('1'), L: S('x') },
      ReturnItemCollectionMetrics: 'SIZE' }));
    ok(small(p1.ItemCollectionMetrics, 'a'), 'PutItem: ItemCollectionMetrics', p1.ItemCollectionMetrics);
    const bw = await c.send(new ddb.BatchWriteItemCommand({ ReturnItemCollectionMetrics: 'SIZE', RequestItems: {
      [L]: [{ PutRequest: { Item: { PK: S('b'), SK: S('1') } } }, { PutRequest: { Item: { PK: S('a'), SK: S('2') } } }],
      [T]: [{ PutRequest: { Item: { PK: S('LSI#x'), SK: S('1') } } }] } }));
    const bm = bw.ItemCollectionMetrics || {};
    ok(Object.keys(bm).join() === L && bm[L].length === 2 && small(bm[L][0], 'b') && small(bm[L][1], 'a'),
       'BatchWriteItem: ItemCollectionMetrics per table, one per collection written', bm);
    const tw = await c.send(new ddb.TransactWriteItemsCommand({ ReturnItemCollectionMetrics: 'SIZE', TransactItems: [
      { Delete: { TableName: L, Key: { PK: S('b'), SK: S('1') } } }, { Put: { TableName: T, Item: { PK: S('LSI#y'), SK: S('1') } } }] }));
    const tm = tw.ItemCollectionMetrics || {};
    ok(Object.keys(tm).join() === L && tm[L].length === 1 && small(tm[L][0], 'b'),
       'TransactWriteItems: ItemCollectionMetrics per table', tm);
    await c.send(new ddb.DeleteTableCommand({ TableName: L }));
  }

  // Vector indexes through the SDK's own commands (issue 39): CreateTable's
  // VectorIndexes, DescribeTable's, SearchVectors' SearchResults and
  // VectorCapacity, a refusal as a ValidationException (expectations:
  // tests/data/test_vector.c and the API reference's SearchVectors).
  {
    const V = 'SdkVectors';
    await c.send(new ddb.CreateTableCommand({ TableName: V, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }, { AttributeName: 'tenant', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      VectorIndexes: [{ IndexName: 'emb-idx', VectorAttribute: { AttributeName: 'emb' }, Dimensions: 3,
        DistanceFunction: 'DOT_PRODUCT', SearchSchema: [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' }],
        Projection: { ProjectionType: 'KEYS_ONLY' } }] }));
    const vec = (a, b, z) => ({ L: [{ N: a }, { N: b }, { N: z }] });
    for (const [id, t, e] of [['a', 't1', vec('1', '0', '0')], ['b', 't1', vec('3', '0', '0')], ['c', 't2', vec('9', '0', '0')]])
      await c.send(new ddb.PutItemCommand({ TableName: V, Item: { id: S(id), tenant: S(t), emb: e } }));
    const dv = await c.send(new ddb.DescribeTableCommand({ TableName: V }));
    const vi = (dv.Table.VectorIndexes || [])[0] || {};
    ok(vi.IndexName === 'emb-idx' && vi.IndexStatus === 'ACTIVE' && vi.Dimensions === 3 && vi.ItemCount === 3,
       'DescribeTable: VectorIndexes', dv.Table.VectorIndexes);
    const sv = await c.send(new ddb.SearchVectorsCommand({ TableName: V, IndexName: 'emb-idx', TopK: 5,
      SearchVector: [{ N: '1' }, { N: '0' }, { N: '0' }], SearchConditionExpression: 'tenant = :t',
      ExpressionAttributeValues: { ':t': S('t1') }, ReturnConsumedCapacity: 'TOTAL' }));
    const got = (sv.SearchResults || []).map((r) => `${r.Item.id.S}=${r.Score}`).join(' ');
    ok(got === 'b=3 a=1' && sv.ConsumedCapacity && sv.ConsumedCapacity.VectorSearchRequestBytes === 1024,
       'SearchVectors: DOT_PRODUCT, highest first, one tenant, its VectorCapacity', sv);
    const bad = await thrown(() => c.send(new ddb.SearchVectorsCommand({ TableName: V, IndexName: 'emb-idx', TopK: 101,
      SearchVector: [{ N: '1' }, { N: '0' }, { N: '0' }] })));
    ok(bad && bad.name === 'ValidationException' && /TopK value '101' is out of valid range/.test(bad.message),
       'SearchVectors with TopK 101: ValidationException', bad && bad.message);
    await c.send(new ddb.DeleteTableCommand({ TableName: V }));
  }

  // SearchConditionExpression with IN, BETWEEN and OR on inline filters
  // through the SDK (the guide's SearchConditionExpression reference; the
  // whole case list is tests/data/test_vector.c's test_condition_combinators).
  {
    const F = 'SdkVecFilter';
    await c.send(new ddb.CreateTableCommand({ TableName: F, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }, { AttributeName: 'tenant', AttributeType: 'S' },
        { AttributeName: 'cat', AttributeType: 'S' }, { AttributeName: 'price', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      VectorIndexes: [{ IndexName: 'byT', VectorAttribute: { AttributeName: 'emb' }, Dimensions: 2,
        DistanceFunction: 'DOT_PRODUCT', SearchSchema: [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' },
          { AttributeName: 'cat', SearchSchemaElementType: 'INLINE_FILTER' },
          { AttributeName: 'price', SearchSchemaElementType: 'INLINE_FILTER' }],
        Projection: { ProjectionType: 'KEYS_ONLY' } }] }));
    const rows = [['a', 'x', '5', '1'], ['b', 'y', '15', '2'], ['c', 'z', '25', '3'], ['d', null, '12', '4']];
    for (const [id, cat, price, x] of rows) {
      const Item = { id: S(id), tenant: S('t1'), price: { N: price }, emb: { L: [{ N: x }, { N: '0' }] } };
      if (cat) Item.cat = S(cat);
      await c.send(new ddb.PutItemCommand({ TableName: F, Item }));
    }
    const fv = await c.send(new ddb.SearchVectorsCommand({ TableName: F, IndexName: 'byT', TopK: 10,
      SearchVector: [{ N: '1' }, { N: '0' }],
      SearchConditionExpression: 'tenant = :t AND (cat IN (:x, :y) OR price BETWEEN :lo AND :hi)',
      ExpressionAttributeValues: { ':t': S('t1'), ':x': S('x'), ':y': S('y'), ':lo': { N: '10' }, ':hi': { N: '20' } } }));
    const fgot = (fv.SearchResults || []).map((r) => r.Item.id.S).join(' ');
    ok(fgot === 'd b a', 'SearchVectors: IN, BETWEEN and OR on inline filters (d has no cat, its price is in range)', fv);
    await c.send(new ddb.DeleteTableCommand({ TableName: F }));
  }

  // ddbx api on the same database sees what the endpoint wrote.
  const line = JSON.stringify({ Operation: 'GetItem', Input: { TableName: T, Key: { PK: S('W#7'), SK: S('I#0199') } } });
  const api = spawnSync(DDBX, ['api', '--db', DBFILE], { input: line + '\n', encoding: 'utf8', timeout: 20000 });
  let apiOut = null;
  try { apiOut = JSON.parse(api.stdout); } catch (e) { /* reported below */ }
  ok(apiOut && apiOut.Output && apiOut.Output.Item && apiOut.Output.Item.v.N === '199',
     '`ddbx api` on the same database sees a write made through the endpoint', api.stdout + api.stderr);

  const lt = await c.send(new ddb.ListTablesCommand({}));
  ok(lt.TableNames.includes(T), 'ListTables', lt.TableNames);
  const dl = await c.send(new ddb.DeleteTableCommand({ TableName: T }));
  ok(dl.TableDescription && dl.TableDescription.TableName === T, 'DeleteTable', dl.TableDescription);
  const lt2 = await c.send(new ddb.ListTablesCommand({}));
  ok(!lt2.TableNames.includes(T), 'ListTables after DeleteTable', lt2.TableNames);
  // Recovery was enabled on T: DeleteTable kept its SYSTEM backup.
  const sys = await c.send(new ddb.ListBackupsCommand({ TableName: T, BackupType: 'SYSTEM' }));
  ok(sys.BackupSummaries.length === 1 && sys.BackupSummaries[0].BackupName === T + '$DeletedTableBackup' &&
     sys.BackupSummaries[0].BackupExpiryDateTime instanceof Date, 'DeleteTable with recovery enabled: a SYSTEM backup', sys.BackupSummaries);
  c.destroy();
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  ok(false, 'sdk.js ran to the end', e && e.stack);
  process.exit(1);
});
