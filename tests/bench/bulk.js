'use strict';
/*
 * bulk.js — the explorer's bulk actions at scale (issue 38: "a row for
 * every bulk action at 1,000,000 items"): `:marked delete`, `:marked set`,
 * `:marked remove`, `:undo` and `:redo` of each, `:commit` of N staged
 * deletes and its `:undo`, `:discard`, `:backup` and `:restore`, and
 * `:diff` of N differences against a backup. Each with its wall time,
 * CPU time, the process's peak RSS when it ended, and its ratio to the
 * action it undoes or mirrors. Targets: an undo or redo within 2x the
 * action, RSS within 256 MB. And `u`, the staged view opened on N
 * staged deletes, and `G` in it (a key, not a `:` command: its row is
 * named <u>, <G>).
 *
 * The database: the follow graph of N items (tests/bench/gen N, table
 * Graph with GSI1, as explorer.js's), loaded afresh under
 * BUILD/bench-data/bulk-N.db for each run (the sessions change it).
 * Each session is its own explorer process at 120x40 (DDBX_SCRIPT,
 * DDBX_TIMING): the timing log's "command TEXT work N" line names the
 * `:` command the next "key" line timed (wall ms, CPU ms, peak RSS so
 * far). Sessions end with the table as they found it (a last :undo), so
 * they run one after another on the one database.
 *
 *   node tests/bench/bulk.js --build build-bench --run N
 *       loads the database, runs the sessions, prints the table (Markdown)
 */
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const RSS_MAX = 256 * 2 ** 20;
const UNDO_MAX = 2;

/* The table: explorer.js's (Graph with GSI1, its projection ALL). */
const { CREATE } = require('./explorer.js');

function rmDb(p) {
  for (const s of ['', '-wal', '-shm']) fs.rmSync(p + s, { force: true });
  fs.rmSync(p + '-backups', { recursive: true, force: true });
}

/* A fresh database of n graph items. */
function prepare(build, n, log) {
  const data = path.join(build, 'bench-data');
  fs.mkdirSync(data, { recursive: true });
  const db = path.join(data, `bulk-${n}.db`);
  rmDb(db);
  const ddbx = path.join(build, 'ddbx'), gen = path.join(build, 'tests', 'bench', 'gen');
  const api = spawnSync(ddbx, ['api', '--db', db], {
    encoding: 'utf8', input: JSON.stringify({ Operation: 'CreateTable', Input: CREATE }) + '\n',
  });
  if (api.status !== 0 || !/"Output"/.test(api.stdout)) throw new Error(`ddbx api CreateTable: ${api.stdout} ${api.stderr}`);
  const t0 = Date.now();
  const l = spawnSync('sh', ['-c', `"${gen}" ${n} | "${ddbx}" load - --format s3 --table Graph --db "${db}"`], { encoding: 'utf8' });
  if (l.status !== 0) throw new Error(`loading ${n} items: ${l.stderr.slice(-2000)}`);
  log(`bulk actions: ${n.toLocaleString('en-US')} items loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s (${db})`);
  return db;
}

const MARK = [':scan', 'V', 'a'];
/* Each session, and what its last screen must say (the run did what the
 * row claims). */
const SESSIONS = {
  delete: {
    /* The diff after :redo (the table empty again), so the undo's and
     * the redo's peak RSS are their own. */
    keys: [...MARK, ':marked delete', 'y', 'q', ':undo', 'y', ':redo', 'y', ':diff backup:Graph-auto-1', ':load-all',
      'q', ':undo', 'y', ':save-display found'],
    says: /Undid :marked delete/,
  },
  set: {
    keys: [...MARK, ':marked set flag \'{"BOOL":true}\'', 'y', ':undo', 'y', ':redo', 'y', ':undo', 'y',
      ':save-display found'],
    says: /Undid :marked set/,
  },
  remove: {
    keys: [...MARK, ':marked remove note', 'y', ':undo', 'y', ':redo', 'y', ':undo', 'y', ':save-display found'],
    says: /Undid :marked remove/,
  },
  commit: {
    keys: [':stage on', ...MARK, ':marked delete', 'q', ':commit', ':undo', 'y', ':save-display found'],
    says: /Undid :commit/,
  },
  discard: {
    /* u opens the staged view on the N staged deletes, G goes to its
     * last page, q back: a page read each (issue 38's leftover). */
    keys: [':stage on', ...MARK, ':marked delete', 'q', 'u', 'G', 'q', ':discard', 'y', ':save-display found'],
    says: /Discarded \d+ staged change/,
  },
  restore: {
    keys: [':backup', ':backups', ':restore Restored', ':save-display found'],
    says: /Restored .* into the new table Restored/,
  },
};

/* The `:` commands a session ran, in order: text, wall and CPU ms, work,
 * peak RSS (bytes) when it ended and whether it rose during it. */
function commands(text) {
  const out = [];
  let cmd = null, rss = 0;
  for (const line of text.split('\n')) {
    const c = /^command (.*) work (\d+)$/.exec(line);
    if (c) { cmd = { text: c[1], work: Number(c[2]) }; continue; }
    const k = /^key (\S+) ([\d.]+) ms cpu ([\d.]+) ms work \d+ rss (\d+) kB/.exec(line);
    if (!k) continue;
    const now = Number(k[4]) * 1024;
    /* A key no `:` command ran under is a row of its own, named <KEY>. */
    if (!cmd) cmd = { text: `<${k[1]}>`, work: Number(/ work (\d+)/.exec(line)[1]) };
    out.push(Object.assign(cmd, { wall: Number(k[2]), cpu: Number(k[3]), rss: now, rose: now > rss }));
    cmd = null;
    rss = now;
  }
  return out;
}

function session(build, db, name, dir) {
  const s = SESSIONS[name];
  const script = path.join(dir, `${name}.keys`), timing = path.join(dir, `${name}.timing`);
  const found = path.join(dir, 'found');
  fs.writeFileSync(script, s.keys.join('\n') + '\n');
  for (const f of [timing, found]) fs.rmSync(f, { force: true });
  const r = spawnSync(path.join(build, 'tests', 'tools', 'peakrss'), [path.join(build, 'ddbx'), '--db', db, 'Graph'], {
    encoding: 'utf8', cwd: dir, timeout: 4 * 3600000,
    env: Object.assign({}, process.env, { DDBX_SCRIPT: script, DDBX_TIMING: timing, TERM: 'xterm', LINES: '40', COLUMNS: '120' }),
  });
  const screen = fs.existsSync(found) ? fs.readFileSync(found, 'utf8') : '';
  if (r.status !== 0 || !s.says.test(screen)) {
    throw new Error(`bulk session ${name} did not do what it should (exit ${r.status}); its screen:\n${screen}` +
      `${(r.stderr || '').split('\n').slice(-3).join(' ').slice(0, 300)}`);
  }
  return commands(fs.existsSync(timing) ? fs.readFileSync(timing, 'utf8') : '');
}

/* Rows: id, label, session, command (its text's start), which run of it
 * (0: the first), and what it is set beside (session, command, run) with
 * the most the ratio may be (undefined: no target). */
function rowsOf(n) {
  const N = n.toLocaleString('en-US');
  const del = ['delete', 'marked delete', 0];
  return [
    ['B.delete', `\`:marked delete\` of ${N} items (BatchWriteItem; the automatic backup first)`, ...del, null],
    ['B.undo_delete', `\`:undo\` of it (${N} put back) ÷ the delete`, 'delete', 'undo', 0, del, UNDO_MAX],
    ['B.redo_delete', `\`:redo\` of that (${N} deleted again) ÷ the delete`, 'delete', 'redo', 0, del, UNDO_MAX],
    ['B.diff', `\`:diff backup:Graph-auto-1\` of the table emptied again, \`:load-all\` (${N} differences) ÷ the delete`,
      'delete', 'load-all', 0, del],
    ['B.set', `\`:marked set flag\` on ${N} items (UpdateItem each)`, 'set', 'marked set', 0, null],
    ['B.undo_set', '`:undo` of it ÷ the set', 'set', 'undo', 0, ['set', 'marked set', 0], UNDO_MAX],
    ['B.redo_set', '`:redo` of that ÷ the set', 'set', 'redo', 0, ['set', 'marked set', 0], UNDO_MAX],
    ['B.remove', `\`:marked remove note\` on ${N} items`, 'remove', 'marked remove', 0, null],
    ['B.undo_remove', '`:undo` of it ÷ the remove', 'remove', 'undo', 0, ['remove', 'marked remove', 0], UNDO_MAX],
    ['B.redo_remove', '`:redo` of that ÷ the remove', 'remove', 'redo', 0, ['remove', 'marked remove', 0], UNDO_MAX],
    ['B.stage', `\`:marked delete\` with \`:stage on\`: ${N} deletes staged ÷ the delete`, 'commit', 'marked delete', 0, del],
    ['B.commit', `\`:commit\` of the ${N} staged deletes (TransactWriteItems of 100) ÷ the delete`, 'commit', 'commit', 0, del],
    ['B.undo_commit', '`:undo` of that commit ÷ the commit', 'commit', 'undo', 0, ['commit', 'commit', 0], UNDO_MAX],
    ['B.staged_view', `\`u\`: the staged view opened on ${N} staged deletes (a page read) ÷ staging them`, 'discard', '<u>', 0,
      ['discard', 'marked delete', 0]],
    ['B.staged_last', `\`G\` in it: the last page (keyset, backwards from the end) ÷ staging them`, 'discard', '<G>', 0,
      ['discard', 'marked delete', 0]],
    ['B.discard', `\`:discard\` of ${N} staged deletes ÷ staging them`, 'discard', 'discard', 0, ['discard', 'marked delete', 0]],
    ['B.backup', `\`:backup\` of the ${N}-item table`, 'restore', 'backup', 0, null],
    ['B.restore', '`:restore` of that backup into a new table ÷ the backup', 'restore', 'restore', 0, ['restore', 'backup', 0]],
  ];
}

/* Runs the sessions on a fresh database of n items: the rows' figures. */
function run(build, n, log) {
  const db = prepare(build, n, log);
  const dir = path.join(build, 'bench-data', `bulk-${n}-run`);
  fs.mkdirSync(dir, { recursive: true });
  const ran = {};
  for (const name of Object.keys(SESSIONS)) {
    const t0 = Date.now();
    ran[name] = session(build, db, name, dir);
    log(`bulk actions: session ${name} on ${n.toLocaleString('en-US')} items, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  const pick = (s, c, i) => (ran[s] || []).filter((x) => x.text.startsWith(c))[i];
  const out = rowsOf(n).map(([id, label, s, c, i, vs, most]) => {
    const a = pick(s, c, i), b = vs ? pick(...vs) : undefined;
    return {
      id, label, wall: a && a.wall, cpu: a && a.cpu, rss: a && a.rss, rose: a && a.rose,
      ratio: a && b ? a.wall / b.wall : undefined, ratioCpu: a && b ? a.cpu / b.cpu : undefined, most,
    };
  });
  rmDb(db);
  return out;
}

function ms(v) {
  return v === undefined ? '—' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1);
}
function x(r) {
  return r === undefined ? '—' : (r >= 10 ? Math.round(r) : r.toFixed(2)) + '×';
}

/* The Markdown table of run's rows. */
function table(rows) {
  const L = ['| action | wall ms | CPU ms | peak RSS | ratio (wall; CPU) | target | met |',
    '|--------|-----:|-----:|-----:|-----:|--------|-----|'];
  for (const r of rows) {
    const t = [], m = [];
    if (r.most) {
      /* Judged on both: wall is what the user waits, CPU the process's
       * own work (a busy machine inflates the wall of either side). */
      t.push(`≤ ${r.most}× the action`);
      const ok = (v) => (v <= r.most ? 'yes' : '**no**');
      m.push(r.ratio === undefined ? 'n/a' : r.ratio <= r.most && r.ratioCpu <= r.most ? 'yes'
        : `wall ${ok(r.ratio)}, CPU ${ok(r.ratioCpu)}`);
    }
    t.push('RSS ≤ 256 MB');
    m.push(r.rss === undefined ? 'n/a' : r.rss <= RSS_MAX ? 'yes' : '**no**');
    const rss = r.rss === undefined ? '—' : `${(r.rss / 2 ** 20).toFixed(1)} MB${r.rose ? '' : ' (≤)'}`;
    L.push(`| ${r.label} | ${ms(r.wall)} | ${ms(r.cpu)} | ${rss} | ${r.ratio === undefined ? '—' : `${x(r.ratio)}; ${x(r.ratioCpu)}`} | ` +
      `${t.join('; ')} | ${m.join('; ')} |`);
  }
  return L;
}

module.exports = { run, table, SESSIONS };

if (require.main === module) {
  const args = process.argv.slice(2);
  const opt = (k) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : undefined; };
  const build = path.resolve(opt('--build') || 'build-bench');
  const n = Number(opt('--run'));
  const rows = run(build, n, (...m) => console.error('[bulk]', ...m));
  console.log(table(rows).join('\n'));
}
