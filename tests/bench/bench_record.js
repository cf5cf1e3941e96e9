'use strict';
/*
 * `ddbx serve --record` and `ddbx patterns` (issue 40), for bench.js and
 * on its own:
 *
 * - GetItem of random keys over HTTP (tests/bench/loadc get, 1 and 4
 *   connections) against `ddbx serve` on the loaded Graph database,
 *   without and with --record, alternately, several runs each: requests a
 *   second, the median latency and the server's CPU a request (on a
 *   loaded machine the p50 and the CPU are what its other load inflates
 *   least; requests a second swing with it). The target: recording costs
 *   at most 10%.
 * - `ddbx patterns` on a generated record of LINES requests (default
 *   1,000,000: the follow graph's access patterns, a Query a user's
 *   following, a GSI1 Query a user's followers, a GetItem a profile, a
 *   filtered Scan, PutItems, with Zipf-ish keys), under
 *   tests/tools/peakrss: wall time and peak RSS. The target: <= 10 s and
 *   <= 128 MB.
 *
 * On its own (what an engineer runs at a small size):
 *   node tests/bench/bench_record.js --build build [--items 20000]
 *        [--lines 1000000] [--secs 1] [--reps 3]
 * builds a Graph database of --items items with tests/bench/gen and
 * `ddbx load`, and prints the figures as {"fig":...,"value":...} lines
 * and a table.
 */
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

/* A record line as `ddbx serve --record` writes it (data/record.h). */
function hash(n) {
  return (n * 2654435761 % 4294967296).toString(16).padStart(8, '0') + 'a1b2c3d4';
}

/* LINES record lines into file, in chunks (bounded memory). */
function writeRecord(file, lines) {
  const fd = fs.openSync(file, 'w');
  let t = 1765000000, chunk = [];
  for (let i = 0; i < lines; i++) {
    t += 0.001;
    const r = (i * 7919) % 1000, u = Math.floor(1000 / (1 + (i * 31) % 97));   /* a few users far more often */
    const ts = t.toFixed(3);
    let l;
    if (r < 400) {
      l = `{"t":${ts},"op":"GetItem","table":"Graph","key":{"PK":"S:${hash(u)}","SK":"S:${hash(0)}"},"count":1,"units":0.5,"ms":0.041,"status":200}`;
    } else if (r < 700) {
      l = `{"t":${ts},"op":"Query","table":"Graph","key_condition":"PK = :pk AND begins_with(SK, :p)","values":{":pk":"S:${hash(u)}",":p":"S:${hash(1)}"},"limit":100,"count":100,"scanned":100,"units":3,"ms":0.21,"status":200}`;
    } else if (r < 900) {
      l = `{"t":${ts},"op":"Query","table":"Graph","index":"GSI1","key_condition":"GSI1PK = :t","values":{":t":"S:${hash(u + 7)}"},"count":${r % 50},"scanned":${r % 50},"units":1.5,"ms":0.12,"status":200}`;
    } else if (r < 905) {
      l = `{"t":${ts},"op":"Scan","table":"Graph","filter":"#n = :v","names":{"#n":"name"},"values":{":v":"S:${hash(r)}"},"limit":1000,"count":4,"scanned":1000,"units":64,"ms":3.1,"status":200}`;
    } else {
      l = `{"t":${ts},"op":"PutItem","table":"Graph","item":{"PK":"S","SK":"S","GSI1PK":"S","GSI1SK":"S","name":"S"},"units":2,"ms":0.09,"status":200}`;
    }
    chunk.push(l);
    if (chunk.length === 10000) {
      fs.writeSync(fd, chunk.join('\n') + '\n');
      chunk = [];
    }
  }
  if (chunk.length) fs.writeSync(fd, chunk.join('\n') + '\n');
  fs.closeSync(fd);
}

/* `ddbx serve --db DB [--record FILE]` on a free port: { srv, port }. */
function startServe(ctx, db, rec) {
  const argv = ['serve', '--db', db, '--port', '0'].concat(rec ? ['--record', rec] : []);
  const srv = spawn(ctx.bin('ddbx'), argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => { srv.kill('SIGKILL'); reject(new Error('ddbx serve did not start')); }, 20000);
    srv.stdout.on('data', (c) => {
      text += c;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (m) { clearTimeout(timer); resolve({ srv, port: Number(m[1]) }); }
    });
    srv.on('exit', (code) => { clearTimeout(timer); reject(new Error(`ddbx serve exited ${code}`)); });
  });
}

function stopServe(srv) {
  srv.removeAllListeners('exit');
  return new Promise((resolve) => { srv.once('exit', resolve); srv.kill('SIGTERM'); });
}

/* The GetItem runs, alternating off and on; figures R.get.cN.{off,on}.* */
async function getRuns(ctx, db, items) {
  const rec = path.join(ctx.DATA, 'bench-record.jsonl');
  for (let rep = 0; rep < ctx.reps; rep++) {
    for (const mode of ['off', 'on']) {
      for (const s of ['', '.1', '.2', '.3', '.4', '.key']) fs.rmSync(rec + s, { force: true });
      const { srv, port } = await startServe(ctx, db, mode === 'on' ? rec : null);
      try {
        for (const c of [1, 4]) {
          ctx.log(`record: GetItem, ${c} connection${c > 1 ? 's' : ''}, --record ${mode}, run ${rep + 1}`);
          ctx.add('record', 'ddbx', ctx.figs(ctx.mustRun(ctx.bin('tests/bench/loadc'), ['load', String(port),
            String(items), 'get', String(c), String(ctx.secs), `R.get.c${c}.${mode}`, String(srv.pid)]).stdout));
        }
      } finally {
        await stopServe(srv);
      }
    }
  }
  for (const s of ['', '.1', '.2', '.3', '.4', '.key']) fs.rmSync(rec + s, { force: true });
}

/* `ddbx patterns` on LINES generated lines: R.mine.{ms,cpu_ms,rss,lines}. */
function mineRun(ctx, lines) {
  const file = path.join(ctx.DATA, `record-${lines}.jsonl`);
  ctx.log(`record: generating ${lines} recorded requests`);
  writeRecord(file, lines);
  ctx.log(`record: ddbx patterns on ${lines} requests`);
  const r = spawnSync(ctx.bin('tests/tools/peakrss'), [ctx.bin('ddbx'), 'patterns', file, '--format', 'json'],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /peakrss wall_ms=([\d.]+) cpu_ms=([\d.]+) maxrss_kb=(\d+) status=(\d+)/.exec(r.stderr || '');
  /* exit 1: findings (the Scan, the filter, the hot user) were named */
  if (!m || (r.status !== 0 && r.status !== 1)) throw new Error(`ddbx patterns: ${(r.stderr || '').slice(-1000)}`);
  const j = JSON.parse(r.stdout);
  if (j.requests !== lines || j.patterns.length !== 5) throw new Error(`ddbx patterns: ${j.requests} requests, ${j.patterns.length} patterns`);
  ctx.add('record', 'ddbx', [['R.mine.ms', Number(m[1])], ['R.mine.cpu_ms', Number(m[2])],
    ['R.mine.rss', Number(m[3]) * 1024], ['R.mine.lines', lines], ['R.mine.bytes', fs.statSync(file).size]]);
  fs.rmSync(file, { force: true });
}

async function run(ctx, db, items, lines) {
  await getRuns(ctx, db, items);
  mineRun(ctx, lines);
}

/* The report's section (med(size, sys, fig) is bench.js's). */
function table(med) {
  const f = (x, d) => (x === undefined ? '—' : x.toLocaleString('en-US', { maximumFractionDigits: d }));
  const L = ['| figure | without --record | with --record | cost | target | met |', '|---|---|---|---|---|---|'];
  for (const c of [1, 4]) {
    const a = med('record', 'ddbx', `R.get.c${c}.off.ops`), b = med('record', 'ddbx', `R.get.c${c}.on.ops`);
    const ca = med('record', 'ddbx', `R.get.c${c}.off.srv_cpu_us`), cb = med('record', 'ddbx', `R.get.c${c}.on.srv_cpu_us`);
    const lost = a && b ? (1 - b / a) * 100 : undefined, more = ca && cb ? (cb / ca - 1) * 100 : undefined;
    L.push(`| GetItem ops/s, ${c} conn | ${f(a, 0)} | ${f(b, 0)} | ${f(lost, 1)}% fewer | ≤ 10% | ${lost === undefined ? '—' : lost <= 10 ? 'yes' : '**no**'} |`);
    const pa = med('record', 'ddbx', `R.get.c${c}.off.p50`), pb = med('record', 'ddbx', `R.get.c${c}.on.p50`);
    const slower = pa && pb ? (pb / pa - 1) * 100 : undefined;
    L.push(`| GetItem p50 µs, ${c} conn | ${f(pa, 1)} | ${f(pb, 1)} | ${f(slower, 1)}% slower | ≤ 10% | ${slower === undefined ? '—' : slower <= 10 ? 'yes' : '**no**'} |`);
    L.push(`| server CPU µs a GetItem, ${c} conn | ${f(ca, 1)} | ${f(cb, 1)} | ${f(more, 1)}% more | ≤ 10% | ${more === undefined ? '—' : more <= 10 ? 'yes' : '**no**'} |`);
  }
  const ms = med('record', 'ddbx', 'R.mine.ms'), rss = med('record', 'ddbx', 'R.mine.rss');
  const n = med('record', 'ddbx', 'R.mine.lines'), by = med('record', 'ddbx', 'R.mine.bytes');
  L.push(`| ddbx patterns on ${f(n, 0)} requests (${f(by / 2 ** 20, 0)} MB), wall s | — | ${f(ms / 1000, 2)} | — | ≤ 10 s | ${ms === undefined ? '—' : ms <= 10000 ? 'yes' : '**no**'} |`);
  L.push(`| ddbx patterns peak RSS, MB | — | ${f(rss / 2 ** 20, 1)} | — | ≤ 128 MB | ${rss === undefined ? '—' : rss <= 128 * 2 ** 20 ? 'yes' : '**no**'} |`);
  return L.join('\n');
}

module.exports = { run, table, writeRecord };

if (require.main === module) {
  const root = path.resolve(__dirname, '..', '..');
  const args = process.argv.slice(2);
  const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
  const BUILD = path.resolve(root, opt('--build', 'build'));
  const results = {};
  const ctx = {
    bin: (p) => path.join(BUILD, p), DATA: path.join(BUILD, 'bench-data'), secs: Number(opt('--secs', '1')),
    reps: Number(opt('--reps', '3')), log: (...m) => console.error('[bench_record]', ...m),
    add: (size, sys, pairs) => { for (const [k, v] of pairs) { (results[k] = results[k] || []).push(v); console.log(JSON.stringify({ fig: k, value: v })); } },
    figs: (text) => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((v) => v.fig !== undefined).map((v) => [v.fig, v.value]),
    mustRun: (cmd, argv) => {
      const r = spawnSync(cmd, argv, { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')}: ${r.stderr}`);
      return r;
    },
  };
  const items = Number(opt('--items', '20000')), lines = Number(opt('--lines', '1000000'));
  fs.mkdirSync(ctx.DATA, { recursive: true });
  const db = path.join(ctx.DATA, `record-graph-${items}.db`), gfile = path.join(ctx.DATA, `record-graph-${items}.jsonl`);
  const med = (size, sys, k) => {
    const xs = (results[k] || []).slice().sort((a, b) => a - b);
    return xs.length ? (xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2) : undefined;
  };
  (async () => {
    if (!fs.existsSync(db)) {
      const g = fs.openSync(gfile, 'w');
      spawnSync(ctx.bin('tests/bench/gen'), [String(items)], { stdio: ['ignore', g, 'inherit'] });
      fs.closeSync(g);
      const { CREATE } = require('./explorer.js');
      ctx.mustRun('sh', ['-c', `echo '${JSON.stringify({ Operation: 'CreateTable', Input: CREATE })}' | "$0" api --db "$1" >/dev/null && "$0" load "$2" --table Graph --db "$1" >/dev/null`, ctx.bin('ddbx'), db, gfile]);
      fs.rmSync(gfile, { force: true });
    }
    await run(ctx, db, items, lines);
    console.log(table(med));
  })().catch((e) => { console.error('bench_record: ' + (e.stack || e.message)); process.exit(1); });
}
