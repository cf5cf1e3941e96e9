'use strict';
/*
 * explorer.js — the explorer at scale (shared/BENCH.md W6, issue 27's
 * "Scale"): the same scripted sessions on two databases of the follow
 * graph, 100,000 and 10,000,000 items, so that each figure can be set
 * beside the other.
 *
 * A database here is the generated follow graph of N items (gen N, table
 * Graph with GSI1) plus one hot partition, ACTOR#zoe, who follows 100,000
 * users (gen N --star 100000): the last partition in key order, and the
 * 100,000-item Query that `V` marks. So the databases hold N + 100,000
 * items.
 *
 * The 10,000,000-item database is about 15 GB. It is loaded once (in
 * slices of 1,000,000 items, one `ddbx load` transaction each, so the WAL
 * stays a slice's size) and kept under BUILD/bench-data between runs; a
 * file beside it says it is complete. When the disk has no room for it
 * (df, see room()), the 10,000,000-item rows are left out with a message.
 *
 * Sessions (each its own explorer process, DDBX_SCRIPT and DDBX_TIMING,
 * under tests/tools/peakrss):
 *   walk     launch to the first full screen, then the 1,000 scripted keys
 *            of W6 (paging, partition hops, GSI1 toggles): first screen,
 *            p50 and p99 a key
 *   search   `/` for the table's last item (its line text, so no earlier
 *            item matches): the whole table read in chunks, a progress
 *            line between them
 *   search-esc  the same with Esc typed meanwhile: how soon it stops
 *   mark     `:query ACTOR#zoe`, then `V` over its 100,000 results (every
 *            page read, then the question that names the count, answered
 *            `a`: all): the time of V, its question and answer included
 *   load     `:scan` with a filter matching ~0.1% (tier = gold and score
 *            below 25), then `:load-all`: every page of the table read
 *   load-esc the same with Esc typed meanwhile
 * The peak RSS is the largest of the sessions'.
 *
 *   node tests/bench/explorer.js --build build-bench --prepare N
 *       loads (or finds) the database of N items and prints its path
 *   node tests/bench/explorer.js --build build-bench --run N
 *       runs the sessions on it and prints the figures as JSON
 */
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const STAR = 100000;
const SLICE = 1000000;
/* Bytes a database item takes on disk (BENCHMARKS.md W8 at 1,000,000
 * items: 1,407), with room for the WAL of one slice and the filesystem. */
const BYTES_PER_ITEM = 1500;
const HEADROOM = 4 * 2 ** 30;
/* What a complete database's marker says; a change to the data (gen) or
 * to how it is loaded makes the kept database stale. */
const FORMAT = 'explorer-db 1: gen N --parts slices of 1,000,000 + gen N --star 100000, table Graph with GSI1 (ALL)';

const CREATE = {
  TableName: 'Graph',
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
};

function paths(build, n) {
  const data = path.join(build, 'bench-data');
  return { data, db: path.join(data, `explorer-${n}.db`), done: path.join(data, `explorer-${n}.done`) };
}

function rmDb(p) {
  for (const s of ['', '-wal', '-shm']) fs.rmSync(p + s, { force: true });
}

/* Free bytes on the filesystem of dir, and what a database of n items
 * needs there. */
function room(dir, n) {
  const st = fs.statfsSync(dir);
  return { free: st.bavail * st.bsize, need: (n + STAR) * BYTES_PER_ITEM + HEADROOM };
}

const gib = (b) => (b / 2 ** 30).toFixed(1) + ' GB';

/* The database of n graph items (+ zoe's), loaded unless a complete one
 * is kept. Returns { db } or { skip: why }. log gets progress lines. */
function prepare(build, n, log) {
  const p = paths(build, n);
  fs.mkdirSync(p.data, { recursive: true });
  if (fs.existsSync(p.done) && fs.existsSync(p.db) && fs.readFileSync(p.done, 'utf8').trim() === FORMAT) {
    log(`explorer database of ${n.toLocaleString('en-US')} items: kept (${gib(fs.statSync(p.db).size)}, ${path.relative(process.cwd(), p.db)})`);
    return { db: p.db };
  }
  fs.rmSync(p.done, { force: true });
  rmDb(p.db);
  const r = room(p.data, n);
  if (r.free < r.need) {
    return { skip: `left out: the ${n.toLocaleString('en-US')}-item database needs about ${gib(r.need)} ` +
      `under ${p.data} and the disk has ${gib(r.free)} free` };
  }
  log(`explorer database of ${n.toLocaleString('en-US')} items: loading (about ${gib((n + STAR) * BYTES_PER_ITEM)}, kept in ${p.data} for the next runs)`);
  const ddbx = path.join(build, 'ddbx'), gen = path.join(build, 'tests', 'bench', 'gen');
  const api = spawnSync(ddbx, ['api', '--db', p.db], {
    encoding: 'utf8', input: JSON.stringify({ Operation: 'CreateTable', Input: CREATE }) + '\n',
  });
  if (api.status !== 0 || !/"Output"/.test(api.stdout)) throw new Error(`ddbx api CreateTable: ${api.stdout} ${api.stderr}`);
  const parts = n / 100, per = SLICE / 100;
  const slices = [];
  for (let a = 0; a < parts; a += per) slices.push(['--parts', `${a}:${Math.min(parts, a + per)}`]);
  slices.push(['--star', String(STAR)]);
  const t0 = Date.now();
  slices.forEach((s, i) => {
    /* gen's lines go straight into `ddbx load -` (no 7 GB file). */
    const sh = `"${gen}" ${n} ${s.join(' ')} | "${ddbx}" load - --format s3 --table Graph --db "${p.db}"`;
    const l = spawnSync('sh', ['-c', sh], { encoding: 'utf8' });
    if (l.status !== 0) throw new Error(`loading slice ${s.join(' ')}: ${l.stderr.slice(-2000)}`);
    log(`  slice ${i + 1} of ${slices.length} (${s.join(' ')}) loaded, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  });
  fs.writeFileSync(p.done, FORMAT + '\n');
  return { db: p.db };
}

/* ---- sessions ----------------------------------------------------------- */

/* W6's 1,000 keys: page down through items, hop partitions, page back,
 * and toggle GSI1 every 20 keys. */
function walkKeys() {
  const unit = ['<PgDn>', '<PgDn>', ']', '<Down>', '<PgDn>', ']', ']', '<PgUp>', '<Down>', ']'];
  const lines = ['# W6: 1,000 keys'];
  let keys = 0;
  for (let i = 0; keys < 1000; i++) {
    const k = i % 2 === 1 && (keys % 20) + unit.length >= 20 ? unit.slice(0, 9).concat(['i']) : unit;
    lines.push(k.join(''));
    keys += k.length;
  }
  return lines;
}

const LAST = 'PK=ACTOR#zoe SK=TARGET#u99999';
const FILTER = ['"--filter=tier = :t AND score < :s"', '\'--values={":t":{"S":"gold"},":s":{"N":"25"}}\''];

const SESSIONS = {
  walk: () => walkKeys(),
  search: () => [`/${LAST}`, ':save-display found'],
  'search-esc': () => [`/${LAST}`, '<Esc>', ':save-display found'],
  mark: () => [':query ACTOR#zoe', 'V', 'a', ':save-display found'],
  load: () => [`:scan ${FILTER.join(' ')}`, ':load-all', ':save-display found'],
  'load-esc': () => [`:scan ${FILTER.join(' ')}`, ':load-all', '<Esc>', ':save-display found'],
};

/* One session: its timing log's keys, first screen, peak RSS, and the
 * screen it saved. */
function session(build, db, name, dir) {
  const script = path.join(dir, `${name}.keys`), timing = path.join(dir, `${name}.timing`);
  const found = path.join(dir, 'found');
  fs.writeFileSync(script, SESSIONS[name]().join('\n') + '\n');
  for (const f of [timing, found]) fs.rmSync(f, { force: true });
  const r = spawnSync(path.join(build, 'tests', 'tools', 'peakrss'), [path.join(build, 'ddbx'), '--db', db, 'Graph'], {
    encoding: 'utf8', cwd: dir, timeout: 3600000,
    env: Object.assign({}, process.env, { DDBX_SCRIPT: script, DDBX_TIMING: timing, TERM: 'xterm', LINES: '40', COLUMNS: '120' }),
  });
  const m = /peakrss wall_ms=([\d.]+) cpu_ms=([\d.]+) maxrss_kb=(\d+) status=(\d+)/.exec(r.stderr || '');
  const text = fs.existsSync(timing) ? fs.readFileSync(timing, 'utf8') : '';
  const first = /first-screen ([\d.]+) ms/.exec(text);
  if (r.status !== 0 || !m || !first) {
    throw new Error(`explorer session ${name} did not run: ${(r.stderr || '').split('\n').slice(-3).join(' ').slice(0, 300)}`);
  }
  const keys = [...text.matchAll(/^key (\S+) ([\d.]+) ms cpu ([\d.]+) ms/gm)].map((k) => ({ key: k[1], ms: Number(k[2]), cpu: Number(k[3]) }));
  return {
    first: Number(first[1]), keys, rss: Number(m[3]) * 1024, wall: Number(m[1]),
    screen: fs.existsSync(found) ? fs.readFileSync(found, 'utf8') : '',
  };
}

function pct(xs, q) {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * q))] : NaN;
}

/* The sessions on the database of n items (reps walks); figures as
 * [name, value] pairs, and what each session's screen showed. */
function run(build, db, n, reps) {
  const dir = path.join(paths(build, n).data, `explorer-${n}-run`);
  fs.mkdirSync(dir, { recursive: true });
  const f = [];
  const rss = [];
  const check = (name, s, re, what) => {
    if (!re.test(s.screen)) throw new Error(`explorer session ${name} on ${n} items: ${what}; the screen:\n${s.screen}`);
  };
  for (let i = 0; i < reps; i++) {
    const w = session(build, db, 'walk', dir);
    const per = w.keys.map((k) => k.ms);
    f.push(['X.first', w.first], ['X.p50', pct(per, 0.5)], ['X.p99', pct(per, 0.99)], ['X.keys', per.length],
      ['X.p99_cpu', pct(w.keys.map((k) => k.cpu), 0.99)]);
    rss.push(w.rss);
  }
  /* The keys that ran the work, by name (a `:` key's time includes its
   * prompt and command; V's its question and the answer typed). */
  const keyMs = (s, label) => s.keys.filter((k) => k.key === label).map((k) => k.ms);
  const keyCpu = (s, label) => s.keys.filter((k) => k.key === label).map((k) => k.cpu);
  const s = session(build, db, 'search', dir);
  check('search', s, /TARGET#u99999/, 'the last item is not on screen');
  f.push(['X.search', keyMs(s, '/')[0]], ['X.search_cpu', keyCpu(s, '/')[0]]);
  rss.push(s.rss);
  const se = session(build, db, 'search-esc', dir);
  check('search-esc', se, /Stopped|stopped/, 'Esc did not stop the search');
  f.push(['X.search_esc', keyMs(se, '/')[0]]);
  rss.push(se.rss);
  const mk = session(build, db, 'mark', dir);
  check('mark', mk, /100,?000 marked/, 'V did not mark the 100,000 items');
  f.push(['X.mark', keyMs(mk, 'V')[0]], ['X.mark_cpu', keyCpu(mk, 'V')[0]]);
  rss.push(mk.rss);
  const ld = session(build, db, 'load', dir);
  check('load', ld, /Loaded: .*the end/, ':load-all did not reach the end');
  f.push(['X.load', keyMs(ld, ':')[1]], ['X.load_cpu', keyCpu(ld, ':')[1]]);
  const scanned = /([\d,]+) items scanned/.exec(ld.screen);
  if (scanned) f.push(['X.load_scanned', Number(scanned[1].replace(/,/g, ''))]);
  rss.push(ld.rss);
  const le = session(build, db, 'load-esc', dir);
  check('load-esc', le, /Stopped:/, 'Esc did not stop :load-all');
  f.push(['X.load_esc', keyMs(le, ':')[1]]);
  rss.push(le.rss);
  f.push(['X.rss', Math.max(...rss)]);
  return f;
}

module.exports = { prepare, run, room, walkKeys, CREATE, STAR, LAST };

if (require.main === module) {
  const args = process.argv.slice(2);
  const opt = (k) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : undefined; };
  const build = path.resolve(opt('--build') || 'build-bench');
  const log = (...m) => console.error('[explorer]', ...m);
  const n = Number(opt('--prepare') || opt('--run'));
  const p = prepare(build, n, log);
  if (p.skip) {
    console.log(p.skip);
  } else if (opt('--run')) {
    console.log(JSON.stringify(run(build, p.db, n, 1)));
  } else {
    console.log(p.db);
  }
}
