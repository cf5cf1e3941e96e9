'use strict';
/*
 * remote.js — the explorer on an endpoint (issue 42), measured as the
 * issue measured it: `ddbx serve` holding the generated table of
 * tests/rplan/gen.js (P partitions of K items of ~310 B, GSI1 inverted,
 * and 4 small tables), behind tests/lib/latency.js, which adds a delay
 * each way and logs each request with the ConsumedCapacity of its answer.
 * Each action is one explorer session (DDBX_SCRIPT, DDBX_TIMING, 100x24),
 * at 0 and at 50 ms round trip (25 ms each way); an action's requests and
 * RCU are its session's minus those of the session that only opens the
 * table; its wall time is DDBX_TIMING's for its keys (the first screen's
 * for opening). Beside each: the cheapest equivalent request, sent to the
 * same server (its RCU), and the targets (open ≤ 250 ms and ≤ 3 round
 * trips; a browsing key ≤ 2 round trips; RCU ≤ 2x the cheapest; a 2 s
 * request never blocks Esc: the time until Esc gave the screen back).
 *
 *   node tests/bench/remote.js --build DIR [--parts P] [--items K]
 * prints the Markdown table; bench.js calls run() for BENCHMARKS.md.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn, spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');

function waitLine(child, re, ms) {
  return new Promise((resolve, reject) => {
    let text = '';
    const t = setTimeout(() => reject(new Error('no ' + re + ' within ' + ms + ' ms: ' + text.slice(0, 200))), ms);
    child.stdout.on('data', (c) => {
      text += c;
      const m = re.exec(text);
      if (m) { clearTimeout(t); resolve(m); }
    });
  });
}

function call(port, op, input) {
  const body = Buffer.from(JSON.stringify(Object.assign({ ReturnConsumedCapacity: 'TOTAL' }, input)));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: {
      'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': body.length,
      'X-Amz-Target': 'DynamoDB_20120810.' + op, 'X-Amz-Date': '20260101T000000Z',
      Authorization: 'AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request, ' +
        'SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=' + '0'.repeat(64),
    } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const o = JSON.parse(Buffer.concat(chunks).toString() || '{}');
        resolve(o.ConsumedCapacity ? o.ConsumedCapacity.CapacityUnits : NaN);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/* The actions: name, keys after opening, the keys timed, the cheapest
 * equivalent (op, input) or null. */
function actions(P) {
  const last = 'ACTOR#p' + String(P - 1).padStart(3, '0');
  return [
    { name: 'open a table by name, first screen', keys: [], cheap: ['Scan', { TableName: 'Big', Limit: 21 }] },
    { name: 'table list', list: true, keys: [], cheap: null },
    { name: 'G', keys: ['G'], timed: ['G'], cheap: ['Query', { TableName: 'Big', KeyConditionExpression: 'PK = :p',
      ExpressionAttributeValues: { ':p': { S: last } }, ScanIndexForward: false, Limit: 21 }] },
    { name: 'flip to GSI1', keys: ['i'], timed: ['i'], cheap: ['Scan', { TableName: 'Big', IndexName: 'GSI1', Limit: 21 }] },
    { name: 'open an item', keys: ['j', '<Enter>'], timed: ['Enter'], cheap: ['GetItem', { TableName: 'Big',
      Key: { PK: { S: 'ACTOR#p000' }, SK: { S: 'TARGET#p000' } } }] },
    { name: 'f follow an edge', keys: ['jj', 'f'], timed: ['f'], cheap: ['Query', { TableName: 'Big',
      KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: 'ACTOR#p001' } }, Limit: 21 }] },
    { name: '/ search for the last item', keys: ['/m' + String(P - 1).padStart(3, '0') + '0', 'y'], timed: ['/', 'y'],
      cheap: ['Scan', { TableName: 'Big', ProjectionExpression: 'PK' }], whole: true },
    { name: ':scan + :load-all', keys: [':scan', ':load-all', 'y'], timed: [':', 'y'], cheap: ['Scan', { TableName: 'Big' }], whole: true },
    { name: 'partition count (:count-parts)', keys: [':count-parts', 'y'], timed: [':', 'y'],
      cheap: ['Scan', { TableName: 'Big', ProjectionExpression: 'PK' }], whole: true },
  ];
}

function sums(log) {
  const l = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map(JSON.parse) : [];
  return { requests: l.length, rcu: l.reduce((a, r) => a + r.rcu, 0) };
}

function timingOf(file, timed) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const first = /first-screen ([\d.]+) ms/.exec(text);
  if (!timed) return first ? Number(first[1]) : NaN;
  let ms = 0;
  for (const m of text.matchAll(/^key (\S+) ([\d.]+) ms/gm))
    if (timed.some((k) => m[1] === k || m[1].startsWith(k))) ms += Number(m[2]);
  return ms;
}

async function run(opts) {
  const build = opts.build || 'build';
  const ddbx = path.resolve(ROOT, build, 'ddbx');
  const P = opts.parts || 50, K = opts.items || 60;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ddbx-bench-remote-'));
  const children = [];
  try {
    const gen = spawnSync('node', [path.join(ROOT, 'tests/rplan/gen.js'), String(P), String(K), '5'], { maxBuffer: 1 << 30 });
    fs.writeFileSync(path.join(tmp, 'req.jsonl'), gen.stdout);
    const db = path.join(tmp, 'big.db');
    spawnSync(ddbx, ['api', '--db', db], { input: gen.stdout, maxBuffer: 1 << 30 });
    const serve = spawn(ddbx, ['serve', '--db', db, '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(serve);
    const sport = Number((await waitLine(serve, /listening on http:\/\/127\.0\.0\.1:(\d+)/, 10000))[1]);
    const log = path.join(tmp, 'log');
    const proxy = spawn('node', [path.join(ROOT, 'tests/lib/latency.js'), String(sport), '0', log],
      { stdio: ['pipe', 'pipe', 'ignore'] });
    children.push(proxy);
    const pport = Number((await waitLine(proxy, /PORT (\d+)/, 10000))[1]);
    const url = 'http://127.0.0.1:' + pport;
    const rows = [];
    const acts = actions(P);
    const cheap = [];
    for (const a of acts) cheap.push(a.cheap ? await call(sport, a.cheap[0], a.cheap[1]) : NaN);
    const session = (keys, list, rtt) => {
      fs.writeFileSync(log + '.delay', String(rtt / 2));
      fs.writeFileSync(log, '');
      const script = path.join(tmp, 'keys');
      fs.writeFileSync(script, keys.concat([':save-display ' + path.join(tmp, 'screen')]).join('\n') + '\n');
      const timing = path.join(tmp, 'timing');
      fs.rmSync(timing, { force: true });
      const t0 = Date.now();
      const r = spawnSync(ddbx, ['--endpoint-url', url].concat(list ? [] : ['Big']), { cwd: tmp, timeout: 600000,
        env: { PATH: process.env.PATH, HOME: tmp, TERM: 'xterm', LINES: '24', COLUMNS: '100', LANG: 'C.UTF-8',
          AWS_ACCESS_KEY_ID: 'AKIDBENCH', AWS_SECRET_ACCESS_KEY: 'bench-secret', DDBX_SCRIPT: script, DDBX_TIMING: timing } });
      return { wall: Date.now() - t0, status: r.status, sums: sums(log), timing };
    };
    for (const rtt of [0, 50]) {
      const base = session([], false, rtt);
      for (let i = 0; i < acts.length; i++) {
        const a = acts[i];
        const s = a.keys.length || a.list ? session(a.keys, a.list, rtt) : base;
        const own = a.list || !a.keys.length ? s.sums
          : { requests: s.sums.requests - base.sums.requests, rcu: s.sums.rcu - base.sums.rcu };
        rows.push({ action: a.name, rtt, ms: a.list ? timingOf(s.timing) : timingOf(s.timing, a.timed),
          requests: own.requests, rcu: own.rcu, cheapest: cheap[i], whole: !!a.whole, status: s.status });
      }
      // A 2 s request (1 s each way) on GSI1, Esc typed at once: how soon
      // the screen is back.
      fs.writeFileSync(log + '.delay', '1000 GSI1');
      const script = path.join(tmp, 'keys');
      fs.writeFileSync(script, ['i', '<Esc>'].join('\n') + '\n');
      const timing = path.join(tmp, 'timing');
      fs.rmSync(timing, { force: true });
      spawnSync(ddbx, ['--endpoint-url', url, 'Big'], { cwd: tmp, timeout: 60000,
        env: { PATH: process.env.PATH, HOME: tmp, TERM: 'xterm', LINES: '24', COLUMNS: '100', LANG: 'C.UTF-8',
          AWS_ACCESS_KEY_ID: 'AKIDBENCH', AWS_SECRET_ACCESS_KEY: 'bench-secret', DDBX_SCRIPT: script, DDBX_TIMING: timing } });
      rows.push({ action: 'a 2 s request, Esc typed at once: screen back after', rtt: 2000, ms: timingOf(timing, ['i']),
        requests: NaN, rcu: NaN, cheapest: NaN, whole: false, status: 0 });
      // The cancelled request is logged when its answer would have gone
      // out (2 s on): not in the next session's log.
      await new Promise((res) => setTimeout(res, 2500));
      fs.rmSync(log + '.delay', { force: true });
    }
    return { parts: P, items: K, rows };
  } finally {
    for (const c of children) c.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function table(res) {
  const L = [];
  L.push(`The explorer on \`ddbx serve\` behind tests/lib/latency.js: ${res.parts} partitions of ${res.items} items of ~310 B ` +
    `(${(res.parts * res.items).toLocaleString('en-US')} items), GSI1 inverted, 100x24. Requests and RCU are the action's own ` +
    '(its session minus the session that only opens the table); "cheapest" is one request doing the same, sent to the same server. ' +
    'Targets at 50 ms RTT: open ≤ 250 ms and ≤ 3 round trips; a browsing key ≤ 2 round trips; RCU ≤ 2x the cheapest (a whole-table ' +
    'read: its own Scan\'s); a 2 s request never blocks Esc.');
  L.push('');
  L.push('| action | RTT | wall ms | requests | RCU | cheapest RCU | ratio |');
  L.push('|---|---|---|---|---|---|---|');
  for (const r of res.rows) {
    const ratio = r.cheapest > 0 ? (r.rcu / r.cheapest).toFixed(2) : '';
    const f = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : '');
    L.push(`| ${r.action} | ${r.rtt} ms | ${f(r.ms, 1)} | ${f(r.requests, 0)} | ${f(r.rcu, 1)} | ${f(r.cheapest, 1)} | ${ratio} |`);
  }
  return L;
}

module.exports = { run, table };

if (require.main === module) {
  const a = process.argv.slice(2);
  const get = (k) => { const i = a.indexOf(k); return i >= 0 ? a[i + 1] : undefined; };
  run({ build: get('--build'), parts: Number(get('--parts') || 50), items: Number(get('--items') || 60) })
    .then((res) => console.log(table(res).join('\n')))
    .catch((e) => { console.error(e.stack || e.message); process.exit(1); });
}
