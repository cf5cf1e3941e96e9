'use strict';
/*
 * bench_portable.js — two parts of bench.js's HTTP run (issue 43 items 8
 * and 9), each picked by BENCH_HTTP (floor, poller; both by default):
 *
 * floor: `ddbx serve --in-memory` from exec to its first answered
 *   ListTables beside tests/bench/floor.c's (a program of libc alone that
 *   binds the port and answers a fixed 200: what the kernel, the loader
 *   and a socket cost), one run of each in turn, 15 of each (loadc
 *   startup): the figures are the medians of 15. Target: serve ≤ 1.5×
 *   the floor. Both binaries: the build's (every library shared, as the
 *   .deb ships it) and the image's (BUILD/ddbx-image, SQLite, zlib and
 *   http-parser linked in: what `make image` puts in the image, run here
 *   without the chroot; tests/dropin/image.py --bench times it under
 *   chroot, the image rows). BENCH_FLOOR_RUNS=N runs N of each instead
 *   of 15 (to try the rows out).
 * poller: GetItem over HTTP (loadc, 1 and 16 connections) against the
 *   same database served by the default build (epoll) and by the forced
 *   portable build (make POLLER=poll: BUILD-poll/ddbx, poll()), rounds
 *   alternating the two. The database is the follow graph loaded by
 *   `ddbx load` (CreateTable through `ddbx api` first).
 *
 * ctx: { size, file, bin(p), pollBin, DATA, CREATE, add, med, runs,
 *        mustRun, run, figs, log, fmt, rmDb, startEndpoint, stopEndpoint }
 */
const fs = require('fs');
const path = require('path');

const FLOOR_RUNS = Number(process.env.BENCH_FLOOR_RUNS) || 15;   /* fewer to try the rows out */
const POLL_ROUNDS = 3;
const POLL_CONNS = [1, 16];
const POLL_SECS = 1;

function floorStartups(ctx) {
  const { size, bin } = ctx;
  const cmd = {
    'serve-mem': ['--', bin('ddbx'), 'serve', '--in-memory', '--port', '{PORT}'],
    'serve-img': ['--', bin('ddbx-image'), 'serve', '--in-memory', '--port', '{PORT}'],
    floor: ['--', bin('tests/bench/floor'), '--port', '{PORT}'],
  };
  for (let i = 0; i < FLOOR_RUNS; i++) {
    if (i % 5 === 0) ctx.log(`start-up beside the floor program, runs ${i + 1}-${Math.min(i + 5, FLOOR_RUNS)} of ${FLOOR_RUNS}`);
    for (const sys of ['serve-mem', 'serve-img', 'floor']) {
      const out = ctx.figs(ctx.mustRun(bin('tests/bench/loadc'), ['startup', '1', 'F'].concat(cmd[sys])).stdout);
      ctx.add(size, sys, out.filter(([k]) => k === 'F.startup_ms'));
    }
  }
}

async function pollerAB(ctx) {
  const { size, file, bin, pollBin } = ctx;
  if (!fs.existsSync(pollBin)) throw new Error(`no ${pollBin}: make bench builds it (make POLLER=poll BUILD=...-poll)`);
  const db = path.join(ctx.DATA, `poller-${size}.db`);
  ctx.rmDb(db);
  ctx.log(`poller: loading ${size} items with ddbx load`);
  const api = ctx.run(bin('ddbx'), ['api', '--db', db], {
    input: JSON.stringify({ Operation: 'CreateTable', Input: ctx.CREATE }) + '\n',
  });
  if (api.status !== 0 || !/"Output"/.test(api.stdout)) throw new Error(`ddbx api CreateTable: ${api.stdout} ${api.stderr}`);
  ctx.mustRun(bin('ddbx'), ['load', file, '--table', 'Graph', '--db', db]);
  try {
    for (let rep = 0; rep < POLL_ROUNDS; rep++) {
      for (const [sys, exe] of [['serve', bin('ddbx')], ['serve-poll', pollBin]]) {
        const { proc, port } = await ctx.startEndpoint('serve-file', db, exe);
        try {
          for (const c of POLL_CONNS) {
            ctx.log(`poller ${sys}: GetItem, ${c} connection${c > 1 ? 's' : ''}, round ${rep + 1}`);
            ctx.add(size, sys, ctx.figs(ctx.mustRun(bin('tests/bench/loadc'), ['load', String(port), String(size), 'get',
              String(c), String(POLL_SECS), `P.get.c${c}`, String(proc.pid)]).stdout));
          }
        } finally {
          await ctx.stopEndpoint(proc);
        }
      }
    }
  } finally {
    ctx.rmDb(db);
  }
}

/* The report's rows (markdown), '' when neither part ran. */
function portableTable(ctx) {
  const { size, med, fmt, runs } = ctx;
  const out = [];
  const fl = med(size, 'floor', 'F.startup_ms');
  const starts = [['serve-mem', 'the build\'s binary (libraries shared, as the .deb)'],
    ['serve-img', 'the image\'s binary (BUILD/ddbx-image: SQLite, zlib, http-parser linked in)']]
    .filter(([sys]) => med(size, sys, 'F.startup_ms') !== undefined);
  if (fl !== undefined && starts.length) {
    out.push('| figure | ddbx serve --in-memory | floor program (tests/bench/floor.c) | serve / floor | target | met |',
      '|--------|-----------------------:|------------------------------------:|--------------:|--------|-----|');
    for (const [sys, what] of starts) {
      const mem = med(size, sys, 'F.startup_ms'), r = mem / fl;
      out.push(`| exec to the first answered request, ${what}, ms (median of ${runs(size, sys, 'F.startup_ms')}) | ` +
        `${fmt(mem, 'ms')} | ${fmt(fl, 'ms')} | ${r.toFixed(2)}× | ≤ 1.5× the floor | ${r <= 1.5 ? 'yes' : '**no**'} |`);
    }
    out.push('');
  }
  const rows = [];
  for (const c of POLL_CONNS) {
    const e = med(size, 'serve', `P.get.c${c}.ops`), p = med(size, 'serve-poll', `P.get.c${c}.ops`);
    if (e === undefined && p === undefined) continue;
    const ec = med(size, 'serve', `P.get.c${c}.srv_cpu_us`), pc = med(size, 'serve-poll', `P.get.c${c}.srv_cpu_us`);
    rows.push(`| GetItem, ${c} connection${c > 1 ? 's' : ''}, requests/s (median of ${runs(size, 'serve-poll', `P.get.c${c}.ops`)} rounds) | ` +
      `${fmt(e)} | ${fmt(p)} | ${e && p ? (p / e).toFixed(2) + '×' : '—'} | ${fmt(ec, 'us')} / ${fmt(pc, 'us')} |`);
  }
  if (rows.length) {
    out.push('| figure | epoll (default build) | poll() (make POLLER=poll) | poll / epoll | server CPU a request, µs (epoll / poll) |',
      '|--------|----------------------:|--------------------------:|-------------:|------:|', ...rows, '');
  }
  return out.join('\n');
}

module.exports = { floorStartups, pollerAB, portableTable };
