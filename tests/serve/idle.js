// A test suite's connection pattern (issue 32): thousands of idle
// keep-alive connections, then a new client. Usage:
//
//   node idle.js PORT keep N      N idle connections, none closed by the
//                                 server (its file limit holds them all)
//   node idle.js PORT evict N     N idle connections on a server whose
//                                 file limit holds fewer: the server closes
//                                 the oldest to make room, never the newest
//   node idle.js PORT timeout S   connections idle past S seconds are closed
//
// Each idle connection has sent one ListTables and had its answer, as an
// SDK client's pooled connection has. Then a new connection's request must
// be answered within 100 ms. A stall (the server not accepting, as
// libmicrohttpd did at its 512-connection limit) leaves a request
// unanswered for good, a loaded machine only delays one: so five new
// connections are tried in turn, each must be answered within 3 s (a
// stall fails every one of them, the bound cannot hide it), and the
// fastest of the five must be within 100 ms. Prints TAP.
'use strict';
const net = require('net');

const [PORT, MODE, ARG] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4])];
let n = 0, failed = 0;
function ok(cond, what, detail) {
  n++;
  if (!cond) failed++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - serve idle: ${what}`);
  if (!cond && detail !== undefined) console.log('#   ' + String(detail).slice(0, 600));
}

const body = '{}';
const request = 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n' +
  'X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: ' + body.length + '\r\n\r\n' + body;

// One keep-alive connection: connects, sends a request, resolves once the
// whole answer is in (status and body), and keeps the socket open after.
function open(i) {
  return new Promise((resolve) => {
    const c = { i, s: null, closed: false, answered: false, err: null };
    const s = net.connect(PORT, '127.0.0.1');
    c.s = s;
    let got = '';
    // Unanswered in 5 s: counted as such (a stalled server never answers).
    const timer = setTimeout(() => resolve(c), 5000);
    s.setNoDelay(true);
    s.on('connect', () => s.write(request));
    s.on('data', (d) => {
      got += d;
      if (!c.answered && /^HTTP\/1\.1 200 /.test(got) && got.endsWith('{"TableNames":[]}')) {
        c.answered = true;
        got = '';
        clearTimeout(timer);
        resolve(c);
      }
    });
    s.on('error', (e) => { c.err = e.code || e.message; });
    s.on('close', () => { c.closed = true; if (!c.answered) resolve(c); });
  });
}

// A new connection's request: the milliseconds to its answer, or null
// when none came within `cap` ms.
function probe(cap) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const s = net.connect(PORT, '127.0.0.1');
    let got = '', done = false;
    const finish = (v) => { if (!done) { done = true; clearTimeout(timer); s.destroy(); resolve(v); } };
    const timer = setTimeout(() => finish(null), cap);
    s.on('connect', () => s.write(request));
    s.on('data', (d) => {
      got += d;
      if (got.endsWith('{"TableNames":[]}')) finish(Number(process.hrtime.bigint() - t0) / 1e6);
    });
    s.on('error', () => finish(null));
  });
}

async function openMany(count) {
  const conns = [];
  // In batches, so that the client does not flood its own backlog.
  for (let i = 0; i < count; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 100); j++) batch.push(open(j));
    conns.push(...await Promise.all(batch));
  }
  return conns;
}

async function probes() {
  const ms = [];
  for (let k = 0; k < 5; k++) ms.push(await probe(3000));
  const answered = ms.filter((x) => x !== null);
  const best = answered.length ? Math.min(...answered) : null;
  return { ms, answered: answered.length, best };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
  if (MODE === 'keep' || MODE === 'evict') {
    const count = ARG;
    const conns = await openMany(count);
    const served = conns.filter((c) => c.answered).length;
    await sleep(200);   // closes for room, if any, reach the client
    const closed = conns.filter((c) => c.closed);
    if (MODE === 'keep') {
      ok(served === count, `${count} connections each had their request answered (${served})`,
        conns.filter((c) => !c.answered).slice(0, 3).map((c) => c.i + ' ' + c.err).join('; '));
      ok(closed.length === 0, `all ${count} stay open while idle (${closed.length} closed)`);
    } else {
      ok(served === count, `${count} connections each had their request answered before room was made (${served})`,
        conns.filter((c) => !c.answered).slice(0, 3).map((c) => c.i + ' ' + c.err).join('; '));
      // Oldest first: every closed connection is older than every open
      // one (by batch: the hundred of a batch connect at once, in no
      // set order).
      const open = conns.filter((c) => !c.closed);
      const batch = (c) => Math.floor(c.i / 100);
      const newestClosed = closed.length ? Math.max(...closed.map(batch)) : -1;
      const oldestOpen = open.length ? Math.min(...open.map(batch)) : count;
      ok(closed.length > 0 && newestClosed <= oldestOpen && open.length > 0,
        `slots ran short: the server closed the ${closed.length} oldest idle connections, ` +
        `and none of the ${open.length} newer ones`, `newest closed batch ${newestClosed}, oldest open batch ${oldestOpen}`);
      // A connection that was kept is still served.
      const last = open.length ? open[open.length - 1] : null;
      const again = last ? await new Promise((resolve) => {
        let got = '';
        const t = setTimeout(() => resolve(false), 3000);
        last.s.removeAllListeners('data');
        last.s.on('data', (d) => { got += d; if (got.endsWith('{"TableNames":[]}')) { clearTimeout(t); resolve(true); } });
        last.s.write(request);
      }) : false;
      ok(again, 'the newest idle connection is still served');
    }
    const p = await probes();
    ok(p.answered === 5, `with ${count} idle connections open, every new connection is answered (${p.answered} of 5 within 3 s)`,
      p.ms.join(' '));
    ok(p.best !== null && p.best <= 100,
      `a new connection's request is answered within 100 ms (fastest of 5: ${p.best === null ? 'none' : p.best.toFixed(1) + ' ms'})`,
      p.ms.map((x) => x === null ? 'none' : x.toFixed(1)).join(' '));
    for (const c of conns) c.s.destroy();
  } else if (MODE === 'timeout') {
    const secs = ARG;
    const conns = await openMany(10);
    ok(conns.every((c) => c.answered), '10 connections answered');
    // Closed by the server once idle past the timeout (well past it here:
    // the check is that they are closed at all, not when).
    const deadline = Date.now() + secs * 1000 + 5000;
    while (Date.now() < deadline && !conns.every((c) => c.closed)) await sleep(50);
    ok(conns.every((c) => c.closed), `connections idle past --idle-timeout ${secs} are closed by the server ` +
      `(${conns.filter((c) => c.closed).length} of 10)`);
    const p = await probes();
    ok(p.answered === 5, `a new connection is answered afterwards (${p.answered} of 5)`, p.ms.join(' '));
  } else {
    throw new Error('usage: idle.js PORT keep|evict N | timeout S');
  }
})().then(() => process.exit(failed ? 1 : 0), (e) => {
  ok(false, `idle.js ${MODE} ran to the end`, e && e.stack);
  process.exit(1);
});
