'use strict';
/*
 * `ddbx serve` as a drop-in for DynamoDB Local (issue 43): its command
 * line (also after -jar DynamoDBLocal.jar), its database rule, CORS,
 * -delayTransientStatuses, and --require-credentials, through the AWS SDK
 * for JavaScript v3 and raw HTTP. Prints TAP lines (no plan; the caller
 * counts). Usage: node dropin.js DDBX TMPDIR
 *
 * Where the expectations come from: DynamoDB Local's usage notes ("If you
 * omit -sharedDb, the database file is named myaccesskeyid_region.db";
 * "-sharedDb ... a single database file named shared-local-instance.db")
 * and DynamoDB Local 3.3.1's answers seen here 2026-12-06 (file names
 * AKIDabc_us-west-2.db, MissingAuthenticationToken without a credential,
 * UnrecognizedClientException for a key ID with '-', the CORS headers,
 * CREATING with Backfilling false first); AWS's SigV4 refusals as
 * data/sigv4_check.h quotes them.
 */
const http = require('http');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { spawn, spawnSync } = require('child_process');
const ddb = require(path.join(__dirname, '../node/node_modules/@aws-sdk/client-dynamodb'));

const [DDBX, TMP] = [process.argv[2], process.argv[3]];
let n = 0;
function ok(cond, what, detail) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - dropin: ${what}`);
  if (!cond && detail !== undefined)
    console.log('#   ' + String(typeof detail === 'string' ? detail : JSON.stringify(detail)).slice(0, 1500).replace(/\n/g, '\n#   '));
}

/* Starts ddbx serve ARGS in cwd; resolves {proc, port, err()} once it
 * listens, or {proc, port: 0, code} when it exits first. */
function start(args, cwd, env) {
  return new Promise((resolve) => {
    const proc = spawn(DDBX, ['serve', ...args], { cwd: cwd || TMP, stdio: ['ignore', 'pipe', 'pipe'],
      env: env ? { ...process.env, ...env } : process.env });
    let out = '', err = '';
    const srv = { proc, port: 0, err: () => err };
    proc.stdout.on('data', (c) => {
      out += c;
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m && !srv.port) { srv.port = Number(m[1]); resolve(srv); }
    });
    proc.stderr.on('data', (c) => { err += c; });
    proc.on('exit', (code) => { srv.code = code; if (!srv.port) resolve(srv); });
    proc.on('close', () => { srv.closed = true; });
  });
}

function stop(srv) {
  return new Promise((resolve) => {
    if (srv.code !== undefined) return resolve(srv.code);
    srv.proc.on('exit', (code) => resolve(code));
    srv.proc.kill('SIGTERM');
  });
}

function client(srv, key, region, secret, extra) {
  return new ddb.DynamoDBClient({
    endpoint: `http://127.0.0.1:${srv.port}`, region: region || 'us-east-1',
    credentials: { accessKeyId: key, secretAccessKey: secret || 'x' }, maxAttempts: 1, ...(extra || {}),
  });
}

async function thrown(p) {
  try { await p; return null; } catch (e) { return e; }
}

/* A raw request: resolves {status, headers, body}. */
function raw(srv, method, headers, body) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: srv.port, method, path: '/', headers }, (res) => {
      let b = '';
      res.on('data', (c) => { b += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: b }));
    });
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: String(e) }));
    req.end(body || '');
  });
}

const table = (name) => new ddb.CreateTableCommand({
  TableName: name, BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'g', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  GlobalSecondaryIndexes: [{ IndexName: 'Old', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
});
const names = async (c) => (await c.send(new ddb.ListTablesCommand({}))).TableNames;
const dbFiles = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.db')).sort();
const fresh = (name) => { const d = path.join(TMP, name); fs.mkdirSync(d); return d; };

async function perKey() {
  const dir = fresh('data');
  // The container's form, as compose files give DynamoDB Local's image.
  let srv = await start(['-jar', 'DynamoDBLocal.jar', '-port', '0', '-dbPath', dir]);
  ok(srv.port > 0, '-jar DynamoDBLocal.jar -port 0 -dbPath DIR starts', srv.err());
  if (!srv.port) return;
  const a = client(srv, 'AKIDteamA'), b = client(srv, 'AKIDteamB'), aw = client(srv, 'AKIDteamA', 'eu-west-1');
  await a.send(table('Orders'));
  await a.send(new ddb.PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'o1' } } }));
  ok(JSON.stringify(await names(a)) === '["Orders"]', 'a key and region sees its own table');
  ok(JSON.stringify(await names(b)) === '[]', 'another access key ID sees none of it');
  ok(JSON.stringify(await names(aw)) === '[]', 'the same key in another region sees none of it');
  ok(JSON.stringify(dbFiles(dir)) === '["AKIDteamA_eu-west-1.db","AKIDteamA_us-east-1.db","AKIDteamB_us-east-1.db"]',
    'one KEY_REGION.db a key and region, as DynamoDB Local names them', dbFiles(dir));
  let r = await raw(srv, 'POST', { 'X-Amz-Target': 'DynamoDB_20120810.ListTables', 'Content-Type': 'application/x-amz-json-1.0' }, '{}');
  ok(r.status === 400 && /#MissingAuthenticationToken"/.test(r.body), 'a request without credentials: MissingAuthenticationToken, as DynamoDB Local', r);
  const e = await thrown(client(srv, 'team-a').send(new ddb.ListTablesCommand({})));
  ok(e && e.name === 'UnrecognizedClientException', 'a key ID with a dash: UnrecognizedClientException, as DynamoDB Local', e && e.name);
  ok(await stop(srv) === 0, 'stops cleanly on SIGTERM');
  srv = await start(['-jar', 'DynamoDBLocal.jar', '-port', '0', '-dbPath', dir]);
  const got = await client(srv, 'AKIDteamA').send(new ddb.GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o1' } } }));
  ok(got.Item && got.Item.pk.S === 'o1', 'a restart with the same -dbPath keeps each database');
  await stop(srv);
}

/* Each database's own Streams and TTL sweep. */
async function ownStreamsAndTtl() {
  const dir = fresh('own');
  const srv = await start(['-dbPath', dir, '--ttl-interval', '0.2', '-port', '0']);
  const a = client(srv, 'AKIDa'), b = client(srv, 'AKIDb');
  for (const c of [a, b]) {
    await c.send(new ddb.CreateTableCommand({
      TableName: 'Events', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      ...(c === a ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } } : {}),
    }));
    await c.send(new ddb.UpdateTimeToLiveCommand({ TableName: 'Events', TimeToLiveSpecification: { Enabled: true, AttributeName: 'exp' } }));
  }
  const past = String(Math.floor(Date.now() / 1000) - 3600);
  await b.send(new ddb.PutItemCommand({ TableName: 'Events', Item: { pk: { S: 'old' }, exp: { N: past } } }));
  await a.send(new ddb.PutItemCommand({ TableName: 'Events', Item: { pk: { S: 'old' }, exp: { N: past } } }));
  const streams = require(path.join(__dirname, '../node/node_modules/@aws-sdk/client-dynamodb-streams'));
  const sc = (key) => new streams.DynamoDBStreamsClient({ endpoint: `http://127.0.0.1:${srv.port}`, region: 'us-east-1',
    credentials: { accessKeyId: key, secretAccessKey: 'x' }, maxAttempts: 1 });
  const la = (await sc('AKIDa').send(new streams.ListStreamsCommand({}))).Streams || [];
  const lb = (await sc('AKIDb').send(new streams.ListStreamsCommand({}))).Streams || [];
  ok(la.length === 1 && lb.length === 0, 'each database has its own Streams (ListStreams)', { la, lb });
  await a.send(new ddb.CreateBackupCommand({ TableName: 'Events', BackupName: 'mine' }));
  const ba = (await a.send(new ddb.ListBackupsCommand({}))).BackupSummaries || [];
  const bb = (await b.send(new ddb.ListBackupsCommand({}))).BackupSummaries || [];
  ok(ba.length === 1 && bb.length === 0 && fs.existsSync(path.join(dir, 'AKIDa_us-east-1.db-backups')),
    'each database has its own backups (ListBackups; KEY_REGION.db-backups beside its file)', { ba, bb });
  let left = null;
  for (let i = 0; i < 50; i++) {
    const ca = (await a.send(new ddb.ScanCommand({ TableName: 'Events' }))).Count;
    const cb = (await b.send(new ddb.ScanCommand({ TableName: 'Events' }))).Count;
    left = [ca, cb];
    if (ca === 0 && cb === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  ok(left[0] === 0 && left[1] === 0, 'the TTL sweep runs in every database', left);
  await stop(srv);
}

async function shared() {
  const dir = fresh('shared');
    // DynamoDB Local's own command line after ddbx's flags, with a JVM option.
  const srv = await start(['--port', '0', '-Djava.library.path=./DynamoDBLocal_lib', '-jar', 'DynamoDBLocal.jar',
    '-sharedDb', '-dbPath', dir]);
  await client(srv, 'AKIDone').send(table('Shared'));
  ok(JSON.stringify(await names(client(srv, 'AKIDtwo', 'ap-south-1'))) === '["Shared"]',
    '-sharedDb: every key and region sees the same tables');
  ok(JSON.stringify(dbFiles(dir)) === '["shared-local-instance.db"]', '-sharedDb: one shared-local-instance.db', dbFiles(dir));
  await stop(srv);
}

async function inMemory() {
  const cwd = fresh('cwd');
  const srv = await start(['-jar', 'DynamoDBLocal.jar', '-inMemory', '-port', '0'], cwd);
  await client(srv, 'AKIDone').send(table('Mem'));
  ok(JSON.stringify(await names(client(srv, 'AKIDtwo'))) === '[]' &&
    JSON.stringify(await names(client(srv, 'AKIDone'))) === '["Mem"]',
  '-jar ... -inMemory: one database in memory a key and region, as DynamoDB Local');
  ok(fs.readdirSync(cwd).length === 0, '-inMemory writes no file', fs.readdirSync(cwd));
  await stop(srv);
}

async function foreign() {
  const dir = fresh('ddblocal');
  const file = path.join(dir, 'shared-local-instance.db');
  // DynamoDB Local 3.3.1's tables in its database files (seen 2026-12-06).
  const py = spawnSync('python3', ['-c', `import sqlite3,sys
c = sqlite3.connect(sys.argv[1])
for t in ["cf", "dm", "sm", "ss", "tr", "us"]:
    c.execute("CREATE TABLE %s (x)" % t)
c.commit()`, file]);
  ok(py.status === 0, 'a DynamoDB Local database file is made (python3 sqlite3)', String(py.stderr));
  const before = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  const srv = await start(['-sharedDb', '-dbPath', dir, '-port', '0']);
  ok(!srv.port && srv.code === 1 && /shared-local-instance\.db: a DynamoDB Local database/.test(srv.err()),
    'a DynamoDB Local -dbPath folder is refused at start, naming the file', srv.err());
  const after = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  ok(before === after && JSON.stringify(fs.readdirSync(dir)) === '["shared-local-instance.db"]',
    'its file is left byte for byte, nothing written beside it', fs.readdirSync(dir));
  if (srv.port) await stop(srv);
}

async function cors() {
  const srv = await start(['--in-memory', '-cors', 'http://a.example,http://b.example', '--port', '0']);
  const pre = (origin) => raw(srv, 'OPTIONS', { Origin: origin, 'Access-Control-Request-Method': 'POST',
    'Access-Control-Request-Headers': 'content-type,x-amz-target' });
  let r = await pre('http://b.example');
  ok(r.status === 200 && r.headers['access-control-allow-origin'] === 'http://b.example' &&
    r.headers['access-control-allow-methods'] === 'POST' &&
    r.headers['access-control-allow-headers'] === 'content-type,x-amz-target' &&
    r.headers['access-control-max-age'] === '1728000', 'a preflight from a listed origin is answered', r.headers);
  r = await pre('http://c.example');
  ok(r.status === 200 && !r.headers['access-control-allow-origin'], 'an origin not listed gets no Allow-Origin', r.headers);
  r = await raw(srv, 'POST', { Origin: 'http://a.example', 'X-Amz-Target': 'DynamoDB_20120810.ListTables' }, '{}');
  ok(r.status === 200 && r.headers['access-control-allow-origin'] === 'http://a.example' &&
    /x-amzn-RequestId/.test(r.headers['access-control-expose-headers'] || ''),
  'a request from a listed origin carries Allow-Origin and exposes the request id', r.headers);
  await stop(srv);
  const any = await start(['--in-memory', '--cors', '*', '--port', '0']);
  r = await raw(any, 'OPTIONS', { Origin: 'http://anywhere.example', 'Access-Control-Request-Method': 'POST' });
  ok(r.headers['access-control-allow-origin'] === 'http://anywhere.example', '--cors * allows any origin', r.headers);
  await stop(any);
  const none = await start(['--in-memory', '--port', '0']);
  r = await raw(none, 'OPTIONS', { Origin: 'http://a.example', 'Access-Control-Request-Method': 'POST' });
  ok(!r.headers['access-control-allow-origin'] && !r.headers['access-control-allow-methods'],
    'without --cors no CORS header at all', r.headers);
  await stop(none);
}

async function delays() {
  const srv = await start(['--in-memory', '-delayTransientStatuses', '--port', '0']);
  const c = client(srv, 'AKIDx');
  await c.send(table('Slow'));
  const first = (await c.send(new ddb.DescribeTableCommand({ TableName: 'Slow' }))).Table;
  ok(first.TableStatus === 'ACTIVE', 'a new table is ACTIVE at once, as DynamoDB Local has it (its index statuses only are held)',
    first.TableStatus);
  await c.send(new ddb.UpdateTableCommand({
    TableName: 'Slow', AttributeDefinitions: [{ AttributeName: 'h', AttributeType: 'S' }],
    GlobalSecondaryIndexUpdates: [{ Create: { IndexName: 'New', KeySchema: [{ AttributeName: 'h', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } } }],
  }));
  await c.send(new ddb.UpdateTableCommand({ TableName: 'Slow', GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'Old' } }] }));
  const t = (await c.send(new ddb.DescribeTableCommand({ TableName: 'Slow' }))).Table;
  const by = Object.fromEntries((t.GlobalSecondaryIndexes || []).map((g) => [g.IndexName, g]));
  ok(by.New && by.New.IndexStatus === 'CREATING' && by.New.Backfilling === false,
    'a new index is CREATING (Backfilling false) in its first 15 s', by.New);
  ok(by.Old && by.Old.IndexStatus === 'DELETING', 'a deleted index is DELETING in its 15 s', by.Old);
  await stop(srv);
}

/* The warning is on stderr, the "listening" line that start() waits for on
 * stdout: two pipes read in no fixed order, so stderr is read whole, after
 * the server has stopped and closed it. */
function stopped(srv) {
  return new Promise((resolve) => {
    if (srv.closed) return resolve();
    srv.proc.on('close', () => resolve());
    if (srv.code === undefined) srv.proc.kill('SIGTERM');
  });
}

async function hostWarning() {
  let srv = await start(['--in-memory', '--host', '0.0.0.0', '--port', '0']);
  await stopped(srv);
  ok(/warning: 0\.0\.0\.0 accepts connections from other machines, and no credentials are checked: anyone who reaches this port can read, change and delete every table/.test(srv.err()),
    '--host 0.0.0.0 warns of the open endpoint', srv.err());
  srv = await start(['--in-memory', '--port', '0']);
  await stopped(srv);
  ok(!/warning/.test(srv.err()), 'loopback: no warning', srv.err());
}

async function credentials() {
  const srv = await start(['--in-memory', '--require-credentials', 'AKIDteam:s3cret', '--port', '0']);
  ok(JSON.stringify(await names(client(srv, 'AKIDteam', 'us-east-1', 's3cret'))) === '[]',
    '--require-credentials: a request signed with the key and secret is answered');
  let e = await thrown(client(srv, 'AKIDteam', 'us-east-1', 'wrong').send(new ddb.ListTablesCommand({})));
  ok(e && e.name === 'InvalidSignatureException' && e.$metadata.httpStatusCode === 400 &&
    e.message === 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  'a wrong secret: InvalidSignatureException with AWS\'s message', e && [e.name, e.message]);
  e = await thrown(client(srv, 'AKIDother', 'us-east-1', 's3cret').send(new ddb.ListTablesCommand({})));
  ok(e && e.name === 'UnrecognizedClientException' && e.message === 'The security token included in the request is invalid.',
    'another key: UnrecognizedClientException with AWS\'s message', e && [e.name, e.message]);
  // A request signed 16 minutes ago (the client's clock behind), as a replay is.
  e = await thrown(client(srv, 'AKIDteam', 'us-east-1', 's3cret', { systemClockOffset: -16 * 60 * 1000 })
    .send(new ddb.ListTablesCommand({})));
  ok(e && e.name === 'InvalidSignatureException' &&
    /^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 15 min\.\)$/.test(e.message),
  'a request older than 15 minutes: InvalidSignatureException, Signature expired', e && [e.name, e.message]);
  const r = await raw(srv, 'POST', { 'X-Amz-Target': 'DynamoDB_20120810.ListTables' }, '{}');
  ok(r.status === 400 && /MissingAuthenticationTokenException/.test(r.body), 'no Authorization: MissingAuthenticationTokenException', r);
  await stop(srv);
}

/* The secret kept off the command line (ps and /proc/PID/cmdline show
 * every user the arguments): given there anyway it is overwritten once
 * read, as mysql does with -pPASSWORD ("mysql overwrites the password on
 * the command line with xxxxx", its manual's "End-User Guidelines for
 * Password Security"); read from a file (--require-credentials-file, a
 * compose or Kubernetes secret's mount) or the environment
 * (DDBX_REQUIRE_CREDENTIALS, a CI secret; /proc/PID/environ is readable
 * by the process's owner only), it is never there. */
async function secretOffCommandLine() {
  const cmdline = (srv) => fs.readFileSync(`/proc/${srv.proc.pid}/cmdline`, 'latin1').split('\0').join(' ');
  const answered = async (srv, secret) => {
    try { return JSON.stringify(await names(client(srv, 'AKIDteam', 'us-east-1', secret))) === '[]'; } catch (e) { return false; }
  };
  let srv = await start(['--in-memory', '--require-credentials', 'AKIDteam:s3cret', '--port', '0']);
  let c = cmdline(srv);
  ok(!/s3cret/.test(c) && /--require-credentials AKIDteam:x{6}( |$)/.test(c),
    '--require-credentials KEY:SECRET: /proc/PID/cmdline of the running server shows KEY:xxxxxx, not the secret', c);
  ok(await answered(srv, 's3cret'), 'and the secret overwritten in argv is still the one checked');
  await stop(srv);
  srv = await start(['--in-memory', '--require-credentials=AKIDteam:s3cret', '--port', '0']);
  c = cmdline(srv);
  ok(!/s3cret/.test(c), '--require-credentials=KEY:SECRET: the secret is gone from /proc/PID/cmdline too', c);
  await stop(srv);
  const file = path.join(TMP, 'creds');
  fs.writeFileSync(file, 'AKIDteam:s3cret\n', { mode: 0o600 });
  srv = await start(['--in-memory', '--require-credentials-file', file, '--port', '0']);
  ok(await answered(srv, 's3cret') && !await answered(srv, 'wrong') && !/s3cret/.test(cmdline(srv)),
    '--require-credentials-file FILE (KEY:SECRET and a newline): signed requests answered, others refused', srv.err());
  await stop(srv);
  srv = await start(['--in-memory', '--port', '0'], TMP, { DDBX_REQUIRE_CREDENTIALS: 'AKIDteam:s3cret' });
  ok(await answered(srv, 's3cret') && !await answered(srv, 'wrong') && !/s3cret/.test(cmdline(srv)),
    'DDBX_REQUIRE_CREDENTIALS=KEY:SECRET in the environment: the same', srv.err());
  await stop(srv);
  srv = await start(['--in-memory', '--require-credentials-file', file, '--require-credentials', 'AKIDteam:s3cret', '--port', '0']);
  ok(srv.code === 2 && /--require-credentials and --require-credentials-file: one or the other/.test(srv.err()),
    'the option and the file both: refused, exit 2', [srv.code, srv.err()]);
  fs.writeFileSync(path.join(TMP, 'bad'), 'no colon here\n');
  srv = await start(['--in-memory', '--require-credentials-file', path.join(TMP, 'bad'), '--port', '0']);
  ok(srv.code === 2 && srv.err().includes(`--require-credentials-file ${path.join(TMP, 'bad')}: needs one line KEY:SECRET`),
    'a file without KEY:SECRET: refused naming the file, exit 2', [srv.code, srv.err()]);
  srv = await start(['--in-memory', '--require-credentials-file', path.join(TMP, 'none'), '--port', '0']);
  ok(srv.code === 2 && srv.err().includes(`--require-credentials-file ${path.join(TMP, 'none')}: No such file or directory`),
    'a file that is not there: refused naming it, exit 2', [srv.code, srv.err()]);
}

/* The Date header of every answer is HTTP's IMF-fixdate in GMT (RFC 9110
 * section 5.6.7: "Sun, 06 Nov 1994 08:49:37 GMT"), the time now, whatever
 * the server's time zone (TZ five and a half hours off GMT here, as a
 * POSIX string that needs no zone files): ui/httpd.c formats it itself. */
async function dateHeader() {
  const tz = process.env.TZ;
  process.env.TZ = 'IST-5:30';
  const srv = await start(['--in-memory', '--port', '0']);
  if (tz === undefined) delete process.env.TZ; else process.env.TZ = tz;
  const r = await raw(srv, 'POST', { 'X-Amz-Target': 'DynamoDB_20120810.ListTables' }, '{}');
  const d = r.headers.date || '';
  const fixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;
  const off = Math.abs(Date.parse(d) - Date.now());
  ok(r.status === 200 && fixdate.test(d) && off < 5000 && new Date(Date.parse(d)).toUTCString() === d,
    'the Date header is IMF-fixdate in GMT, now, under a server time zone off GMT', { date: d, off });
  await stop(srv);
}

(async () => {
  for (const part of [perKey, ownStreamsAndTtl, shared, inMemory, foreign, cors, dateHeader, delays, hostWarning, credentials,
    secretOffCommandLine]) {
    try { await part(); } catch (e) { ok(false, `${part.name} ran`, e && e.stack); }
  }
})();
