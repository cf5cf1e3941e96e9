'use strict';
/*
 * Differential tests: the same DynamoDB requests go to dynalite (a DynamoDB
 * implementation from npm, over HTTP) and to `ddbx api` (over a pipe); the
 * answers must be equal. Each group of requests is one TAP line.
 *
 *   node diff.js PORT DDBX DBFILE
 *
 * Environment: DIFF_SERVE_PORT=N sends the ddbx side to `ddbx serve` on
 * that port (run.sh does a second pass so); DIFF_SEED (default 20261129) reseeds every generator;
 * DIFF_ONLY=substring runs matching groups only; DIFF_ALL=1 also runs the
 * groups whose operations ddbx does not offer yet (see DDBX_OPS);
 * DIFF_LOG=FILE appends every disagreement as a JSON line; DIFF_SELF=PORT
 * puts a second dynalite in ddbx's place (run.sh: DIFF_SELF=1), a check of
 * the harness; DIFF_STATS=1 (or 2, with messages) prints the outcome mix of
 * each group; DIFF_DUMP=text prints requests whose dynalite error message
 * contains text (for tuning the generators).
 *
 * Comparison: JSON with object members in sorted order; SS/NS/BS as sets;
 * Scan items as sets (dynalite scans in hash order, ddbx in key order);
 * errors by code and message; ConsumedCapacity when both return it;
 * table descriptions by their definition (name, keys, indexes,
 * projections), not by dates, ARNs or status.
 *
 * After a write on which the two disagree, ddbx's copy of that item is
 * reset to dynalite's, so one disagreement does not cascade.
 *
 * Known deviations (KNOWN below) are reported as TAP comments, not
 * failures; each says whose deviation it is and why it is tolerated.
 */
const fs = require('fs');
const { spawnSync } = require('child_process');
const { HttpClient, ApiDriver } = require('../node/ddb.js');

const [, , PORT, DDBX, DBFILE] = process.argv;
const SEED = Number(process.env.DIFF_SEED || 20261129);
const ONLY = process.env.DIFF_ONLY || '';
const ALL = process.env.DIFF_ALL === '1';
const LOG = process.env.DIFF_LOG || '';
/* The oracle on PORT: dynalite (default) or DynamoDB Local 3.3
 * (DIFF_ORACLE=ddblocal, run.sh's third pass). DynamoDB Local returns
 * numbers as they were sent ("1.0", "2.97E+110") where DynamoDB normalises
 * them, and words many errors its own way: against it numbers compare by
 * value and errors by code (and cancellation reasons by code); messages
 * are pinned against AWS's wording in tests/data and wrong16.js, not here. */
const ORACLE = process.env.DIFF_ORACLE || 'dynalite';
const BY_VALUE = ORACLE === 'ddblocal';

/*
 * Operations `ddbx api` offers in this tree. A group runs only when every
 * operation it needs is here: a group against a missing operation would
 * only measure "not implemented". Extend as the store lands them.
 * SearchVectors (and CreateTable's VectorIndexes, UpdateTable's
 * VectorIndexUpdates) has no group: neither dynalite nor DynamoDB Local
 * implements vector search (checked 2026-12-06: dynalite has no
 * SearchVectors action and answers UnknownOperationException; the
 * DynamoDB Local build the suite installs, 2026-05-28, has no vector class
 * in DynamoDBLocal.jar), so there is no oracle to differ from; tests/data/test_vector.c
 * pins it against AWS's documents instead.
 */
const DDBX_OPS = new Set([
  'eval',            // `ddbx eval` (expression language, no store)
  'CreateTable', 'DescribeTable', 'ListTables', 'DeleteTable',
  'PutItem', 'GetItem', 'DeleteItem', 'UpdateItem', 'Query', 'Scan',
  'BatchWriteItem', 'BatchGetItem', 'TransactWriteItems', 'TransactGetItems',
  'UpdateTable', 'DescribeTimeToLive', 'TagResource', 'UntagResource', 'ListTagsOfResource',
]);

/* ---------------------------------------------------------------- PRNG */

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function hashStr(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
class Rng {
  constructor(seed) { this.r = mulberry32(seed); }
  f() { return this.r(); }
  int(n) { return Math.floor(this.r() * n); }
  range(lo, hi) { return lo + this.int(hi - lo + 1); }
  pick(a) { return a[this.int(a.length)]; }
  chance(p) { return this.r() < p; }
  shuffle(a) {
    const b = a.slice();
    for (let i = b.length - 1; i > 0; i--) { const j = this.int(i + 1); [b[i], b[j]] = [b[j], b[i]]; }
    return b;
  }
  sample(a, k) { return this.shuffle(a).slice(0, k); }
}

/* ----------------------------------------------------------- values */

const ASCII = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 #-_.:/';
const KOREAN = '가나다라마바사아자차카타파하김이박최정강조윤장임학생수업노래';
const OTHER = 'éüßçøñ日本語中文🙂🎵Ωλ\u00a0';

/* Never empty: dynalite mishandles "" in BETWEEN, IN and attribute_type
 * (checked against DynamoDB's documented behaviour in the docs group). */
function genString(r, maxLen) {
  const n = r.range(1, maxLen === undefined ? 12 : maxLen);
  let s = '';
  const alpha = r.pick([ASCII, ASCII, KOREAN, OTHER, ASCII + KOREAN]);
  const chars = Array.from(alpha);
  for (let i = 0; i < n; i++) s += r.pick(chars);
  if (r.chance(0.02)) s += r.pick(['\n', '\t', '"', '\\', '\u0001', '\u007f']);
  return s;
}

function digits(r, n, lead) {
  let s = lead ? String(r.range(1, 9)) : '';
  while (s.length < n) s += String(r.int(10));
  return s;
}

/* Numbers in DynamoDB's range (38 significant digits, 1E-130 .. 9.9..E+125),
 * in canonical and non-canonical spellings. */
function genNumber(r) {
  const sign = r.chance(0.3) ? '-' : '';
  switch (r.int(12)) {
    case 0: return sign + String(r.int(10));
    case 1: return sign + String(r.int(100000));
    case 2: return sign + digits(r, r.range(1, 5), true) + '.' + digits(r, r.range(1, 4), false);
    case 3: return sign + digits(r, 38, true);                       // 38 digits
    case 4: return sign + '0.' + digits(r, r.range(1, 37), true);
    case 5: return sign + digits(r, r.range(1, 10), true) + 'E' + r.range(-100, 100);
    case 6: return sign + '9.' + '9'.repeat(37) + 'E+125';            // largest
    case 7: return sign + '1E-130';                                   // smallest
    case 8: return sign + '00' + r.int(1000) + '.500';                // non-canonical
    case 9: return sign + digits(r, 20, true) + '.' + digits(r, 18, false); // 38 digits with fraction
    case 10: return String(r.int(50));
    default: return sign + r.int(1000) + 'e' + r.range(0, 3);
  }
}

function numKey(s) {
  // Numeric identity for de-duplicating NS members.
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m) return s;
  let int = (m[2] || '').replace(/^0+/, '');
  let frac = m[3] || '';
  let exp = Number(m[4] || 0) + int.length;
  let mant = (int + frac).replace(/0+$/, '');
  const lz = mant.match(/^0*/)[0].length;
  mant = mant.slice(lz); exp -= lz;
  if (!mant) return '0';
  return (m[1] === '-' ? '-' : '') + mant + 'e' + exp;
}

/* Exact decimal sums, to keep generated arithmetic inside DynamoDB's
 * numbers (38 significant digits, magnitude 1E-130 .. 9.99E+125):
 * dynalite keeps any precision (checked in the docs group instead). */
function parseDec(s) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  const frac = m[3] || '';
  const mant = BigInt((m[2] || '') + frac || '0');
  return { m: m[1] === '-' ? -mant : mant, e: Number(m[4] || 0) - frac.length };
}
function decFits(a, b, sign) {
  const x = parseDec(a); const y = parseDec(b);
  const e = Math.min(x.e, y.e);
  let m = x.m * 10n ** BigInt(x.e - e) + BigInt(sign) * y.m * 10n ** BigInt(y.e - e);
  if (m === 0n) return true;
  if (m < 0n) m = -m;
  let digits = m.toString();
  let exp = e;
  while (digits.endsWith('0')) { digits = digits.slice(0, -1); exp++; }
  const lead = exp + digits.length - 1;
  return digits.length <= 38 && lead <= 125 && lead >= -130;
}

function genBinary(r, maxLen) {
  const n = r.range(1, maxLen || 12);
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = r.int(256);
  return b.toString('base64');
}

function uniqueSet(r, gen, key, max) {
  const n = r.range(1, max);
  const seen = new Set();
  const out = [];
  for (let i = 0; i < n * 3 && out.length < n; i++) {
    const v = gen();
    const k = key(v);
    if (!seen.has(k)) { seen.add(k); out.push(v); }
  }
  return out;
}

const MAP_NAMES = ['x', 'y', 'z', 'name', '이름', 'k-1', 'deep', 'l', 'm'];

function genValue(r, depth) {
  const t = r.int(depth > 0 ? 11 : 9);
  switch (t) {
    case 0: return { S: genString(r) };
    case 1: return { N: genNumber(r) };
    case 2: return { B: genBinary(r) };
    case 3: return { BOOL: r.chance(0.5) };
    case 4: return { NULL: true };
    case 5: return { SS: uniqueSet(r, () => genString(r, 6), (s) => s, 4) };
    case 6: return { NS: uniqueSet(r, () => genNumber(r), numKey, 4) };
    case 7: return { BS: uniqueSet(r, () => genBinary(r, 4), (s) => Buffer.from(s, 'base64').toString('hex'), 3) };
    case 8: return { S: genString(r, 4) };
    case 9: {
      const n = r.int(4);
      const L = [];
      for (let i = 0; i < n; i++) L.push(genValue(r, depth - 1));
      return { L };
    }
    default: {
      const M = {};
      for (const k of r.sample(MAP_NAMES, r.int(4))) M[k] = genValue(r, depth - 1);
      return { M };
    }
  }
}

/* S, N or B: what the comparison operators get (see SCALAR_NAMES). */
function genScalar(r) {
  const k = r.int(10);
  if (k < 4) return { S: genString(r, 8) };
  if (k < 8) return { N: genNumber(r) };
  return { B: genBinary(r, 6) };
}

/* ----------------------------------------------------------- tables */

/*
 * The tables under test: every key type, hash-only and hash+range, GSIs
 * with ALL / KEYS_ONLY / INCLUDE projections, an LSI, an inverted GSI.
 */
const TABLES = {
  diff_sn: {
    hash: ['pk', 'S'], range: ['sk', 'N'],
    gsis: [
      { name: 'gsi_s', hash: ['g1', 'S'], range: ['g2', 'N'], proj: { ProjectionType: 'ALL' } },
      { name: 'gsi_b', hash: ['gb', 'B'], proj: { ProjectionType: 'KEYS_ONLY' } },
    ],
    lsis: [
      { name: 'lsi_s', range: ['ls', 'S'], proj: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['a', 'b'] } },
    ],
    pkPool: (r) => r.pick(['ACTOR#alice', 'ACTOR#bob', '학생#김', 'TARGET#star#0', 'x', 'ü']),
    skPool: (r) => r.pick([String(r.int(20)), String(-r.int(20)), r.int(100) + '.' + r.int(10), genNumber(r)]),
  },
  diff_h: {
    hash: ['pk', 'N'],
    gsis: [
      { name: 'gsi_n', hash: ['gn', 'N'], range: ['gs', 'S'], proj: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['c'] } },
    ],
    lsis: [],
    pkPool: (r) => r.pick([String(r.int(40)), String(-r.int(5)), '1.5', '1e3', genNumber(r)]),
  },
  diff_bs: {
    hash: ['pk', 'B'], range: ['sk', 'S'],
    gsis: [
      // The inverted index of adjacency lists: sort key becomes partition.
      { name: 'inverted', hash: ['sk', 'S'], range: ['pk', 'B'], proj: { ProjectionType: 'ALL' } },
    ],
    lsis: [],
    pkPool: (r) => r.pick(['AA==', 'AQ==', 'AQI=', '/w==', 'gA==', '//8=']),
    skPool: (r) => r.pick(['PROFILE', 'ENROLL#CRS#math204', 'ENROLL#CRS#art101', 'd#' + r.int(30), 'A', 'A#downloads', '수업#' + r.int(5)]),
  },
};

function createTableInput(name) {
  const t = TABLES[name];
  const defs = new Map();
  const add = ([n, ty]) => defs.set(n, ty);
  add(t.hash); if (t.range) add(t.range);
  const ks = (h, rg) => [{ AttributeName: h[0], KeyType: 'HASH' }].concat(rg ? [{ AttributeName: rg[0], KeyType: 'RANGE' }] : []);
  const input = { TableName: name, KeySchema: ks(t.hash, t.range), BillingMode: 'PAY_PER_REQUEST' };
  if (t.gsis.length) {
    input.GlobalSecondaryIndexes = t.gsis.map((g) => {
      add(g.hash); if (g.range) add(g.range);
      return { IndexName: g.name, KeySchema: ks(g.hash, g.range), Projection: g.proj };
    });
  }
  if (t.lsis.length) {
    input.LocalSecondaryIndexes = t.lsis.map((l) => {
      add(l.range);
      return { IndexName: l.name, KeySchema: ks(t.hash, l.range), Projection: l.proj };
    });
  }
  input.AttributeDefinitions = Array.from(defs, ([n, ty]) => ({ AttributeName: n, AttributeType: ty }));
  return input;
}

/* The attributes a KEYS_ONLY or INCLUDE GSI holds (table keys, its keys,
 * NonKeyAttributes); null for the table, an LSI or an ALL GSI. */
function gsiHolds(t, ix, keyNames) {
  if (!ix || !ix.hash || ix.proj.ProjectionType === 'ALL') return null;
  return Array.from(new Set(keyNames.concat([ix.hash[0]], ix.range ? [ix.range[0]] : [], ix.proj.NonKeyAttributes || [])));
}

function keyValue(r, type, pool) {
  if (pool && r.chance(0.9)) {
    const v = pool(r);
    return { [type]: v };
  }
  if (type === 'S') return { S: genString(r, 8) || 'k' };
  if (type === 'N') return { N: genNumber(r) };
  return { B: genBinary(r, 6) };
}

function genKey(r, tname) {
  const t = TABLES[tname];
  const k = { [t.hash[0]]: keyValue(r, t.hash[1], t.pkPool) };
  if (t.range) k[t.range[0]] = keyValue(r, t.range[1], t.skPool);
  return k;
}

const ATTR_NAMES = ['a', 'b', 'c', 'n', 's', 'l', 'm', 'ss', 'ns', 'bs', 'flag', 'nul', '이름', 'data', 'count', 'e'];
/*
 * Attributes that only ever hold S, N or B, in every table (items and
 * updates keep it so). The comparison operators (= <> < <= > >= BETWEEN
 * IN) get only these paths and S/N/B values: dynalite evaluates them
 * wrongly for maps and lists (`m = :m` is false for equal maps), for
 * BOOL false (`b IN (:f)`), for sets and BOOL under < and >, and compares
 * strings by UTF-16 code units in conditions. Those cases are checked
 * against DynamoDB's documented behaviour in the docs group instead.
 */
const SCALAR_NAMES = ['a', 'b', 'c', 'n', 's'];
const isScalarName = (n) => SCALAR_NAMES.includes(n);

/* Index key attributes: mostly the declared type, sometimes absent (sparse
 * index), rarely the wrong type (a ValidationException). */
function indexAttrs(r, tname, item) {
  const t = TABLES[tname];
  const seen = new Set([t.hash[0], t.range && t.range[0]]);
  for (const ix of t.gsis.concat(t.lsis)) {
    for (const ka of [ix.hash, ix.range]) {
      if (!ka || seen.has(ka[0])) continue;
      seen.add(ka[0]);
      if (r.chance(0.25)) continue;
      if (r.chance(0.02)) { item[ka[0]] = r.pick([{ S: 'wrong' }, { N: '1' }, { BOOL: true }]); continue; }
      const pool = ka[1] === 'S' ? (rr) => rr.pick(['g#1', 'g#2', 'g#3', '노래', 'TARGET#bob']) :
        ka[1] === 'N' ? (rr) => String(rr.int(8)) : (rr) => rr.pick(['AA==', 'AQ==', 'Ag==']);
      item[ka[0]] = keyValue(r, ka[1], pool);
    }
  }
}

function genItem(r, tname, key) {
  const item = Object.assign({}, key || genKey(r, tname));
  for (const n of r.sample(ATTR_NAMES, r.range(0, 7))) item[n] = isScalarName(n) ? genScalar(r) : genValue(r, 3);
  indexAttrs(r, tname, item);
  return item;
}

function keyOf(tname, item) {
  const t = TABLES[tname];
  const k = { [t.hash[0]]: item[t.hash[0]] };
  if (t.range) k[t.range[0]] = item[t.range[0]];
  return k;
}

/* ------------------------------------------------------- expressions */

/* Names whose bare use is a reserved word (DynamoDB's list). */
const RESERVED = new Set(['data', 'count', 'name', 'status', 'size', 'value', 'values', 'key', 'type', 'date', 'comment']);

/*
 * Collects ExpressionAttributeNames / Values while an expression is being
 * generated, so that every placeholder is used exactly when wanted.
 */
class Ctx {
  constructor(r, pool) {
    this.r = r; this.pool = pool || [];
    this.names = {}; this.values = {}; this.nv = 0; this.nn = 0;
  }
  name(n) {
    // Reserved words and non-identifier names need #placeholders; others
    // sometimes get one anyway, and rarely a reserved word goes bare.
    const needs = RESERVED.has(n) || !/^[A-Za-z][A-Za-z0-9_]*$/.test(n);
    if (needs ? !this.r.chance(0.01) : this.r.chance(0.3)) {
      for (const [k, v] of Object.entries(this.names)) if (v === n && this.r.chance(0.7)) return k;
      const k = '#n' + this.nn++;
      this.names[k] = n;
      return k;
    }
    return n;
  }
  value(v) {
    const k = ':v' + this.nv++;
    this.values[k] = v;
    return k;
  }
  path(names) {
    const r = this.r;
    let p = this.name(r.pick(names));
    const depth = r.chance(0.35) ? r.range(1, 3) : 0;
    for (let i = 0; i < depth; i++) {
      if (r.chance(0.5)) p += '[' + r.int(4) + ']';
      else p += '.' + this.name(r.pick(MAP_NAMES));
    }
    return p;
  }
  // A value likely to be relevant: one seen in generated items, or fresh.
  someValue() {
    const r = this.r;
    if (this.pool.length && r.chance(0.6)) return r.pick(this.pool);
    return genValue(r, 1);
  }
  // The same, S/N/B only (for comparisons, IN, contains).
  someScalar() {
    const r = this.r;
    const sc = this.pool.filter((v) => v.S !== undefined || v.N !== undefined || v.B !== undefined);
    if (sc.length && r.chance(0.6)) return r.pick(sc);
    return genScalar(r);
  }
  attach(input) {
    if (Object.keys(this.names).length) input.ExpressionAttributeNames = this.names;
    if (Object.keys(this.values).length) input.ExpressionAttributeValues = this.values;
    return input;
  }
}

function collectValues(item, out) {
  for (const v of Object.values(item)) {
    out.push(v);
    if (v.M) collectValues(v.M, out);
    if (v.L) v.L.forEach((x) => { out.push(x); if (x.M) collectValues(x.M, out); });
  }
  if (out.length > 400) out.splice(0, out.length - 400);
}

const TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS'];

/* An operand of a comparison: a scalar attribute (or a key attribute), a
 * size(), or an S/N/B value. */
function genOperand(c, names) {
  const r = c.r;
  const k = r.int(10);
  if (k < 4) return c.name(r.pick(names.filter((n) => isScalarName(n) || !ATTR_NAMES.includes(n))));
  if (k < 5) return 'size(' + c.path(names) + ')';
  return c.value(c.someScalar());
}

// Binary prefixes of ASCII bytes only: dynalite compares binaries in
// begins_with/contains as UTF-8 decoded text.
const ASCII_B = ['AA==', 'AQ==', 'QQ==', 'QUI='];

function genCondLeaf(c, names) {
  const r = c.r;
  switch (r.int(11)) {
    // One side a value: dynalite holds two missing operands equal (and
    // <=, >=) where DynamoDB says false; checked in the docs group.
    case 0: case 1: case 2: {
      const ops = [genOperand(c, names), c.value(c.someScalar())];
      if (r.chance(0.5)) ops.reverse();
      return ops[0] + ' ' + r.pick(['=', '<>', '<', '<=', '>', '>=']) + ' ' + ops[1];
    }
    case 3: {
      const lo = r.chance(0.5) ? { N: String(r.int(50)) } : { S: r.pick(['a', 'g#1', '가', 'ACTOR#']) };
      const hi = lo.N ? { N: String(Number(lo.N) + r.int(1000)) } : { S: r.pick(['z', 'g#3', '힣', 'TARGET#']) };
      return genOperand(c, names) + ' BETWEEN ' + c.value(lo) + ' AND ' + c.value(hi);
    }
    case 4: {
      const n = r.range(1, 5);
      const vs = [];
      for (let i = 0; i < n; i++) vs.push(c.value(c.someScalar()));
      return genOperand(c, names) + ' IN (' + vs.join(', ') + ')';
    }
    case 5: return 'attribute_exists(' + c.path(names) + ')';
    case 6: return 'attribute_not_exists(' + c.path(names) + ')';
    // Not BOOL: dynalite finds no type for a false BOOL.
    case 7: return 'attribute_type(' + c.path(names) + ', ' + c.value({ S: r.pick(TYPES.filter((t) => t !== 'BOOL')) }) + ')';
    case 8: return 'begins_with(' + c.path(names) + ', ' +
      c.value(r.chance(0.8) ? { S: r.pick(['a', 'g#', 'ACTOR', '가', 'TARGET#star']) } : { B: r.pick(ASCII_B) }) + ')';
    case 9: {
      const v = c.someScalar();
      return 'contains(' + c.path(names) + ', ' + c.value(v.B !== undefined ? { B: r.pick(ASCII_B) } : v) + ')';
    }
    default: return 'size(' + c.path(names) + ') ' + r.pick(['=', '<', '>=', '<>']) + ' ' + c.value({ N: String(r.int(6)) });
  }
}

function genCond(c, names, depth) {
  const r = c.r;
  if (depth <= 0 || r.chance(0.45)) return genCondLeaf(c, names);
  switch (r.int(4)) {
    case 0: return genCond(c, names, depth - 1) + ' AND ' + genCond(c, names, depth - 1);
    case 1: return genCond(c, names, depth - 1) + ' OR ' + genCond(c, names, depth - 1);
    case 2: return 'NOT ' + (r.chance(0.5) ? genCondLeaf(c, names) : '(' + genCond(c, names, depth - 1) + ')');
    default: return '(' + genCond(c, names, depth - 1) + ')';
  }
}

/* Every document path of an item (to depth 3), with its value. */
function itemPaths(item) {
  const out = [];
  const walk = (v, segs, depth) => {
    out.push({ segs, v });
    if (depth >= 2) return;
    if (v.M) for (const [k, x] of Object.entries(v.M)) walk(x, segs.concat([{ name: k }]), depth + 1);
    if (v.L) v.L.forEach((x, i) => walk(x, segs.concat([{ index: i }]), depth + 1));
  };
  for (const [k, v] of Object.entries(item || {})) walk(v, [{ name: k }], 0);
  return out;
}
function renderPath(c, segs) {
  return segs.map((s, i) => (s.index !== undefined ? '[' + s.index + ']' : (i ? '.' : '') + c.name(s.name))).join('');
}
/* Paths overlap when one is a prefix of the other. */
function overlaps(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i].name !== b[i].name || a[i].index !== b[i].index) return false;
  return true;
}
function setOfType(r, t) {
  if (t === 'SS') return { SS: uniqueSet(r, () => genString(r, 3), (s) => s, 3) };
  if (t === 'NS') return { NS: uniqueSet(r, () => String(r.int(20)), numKey, 3) };
  return { BS: uniqueSet(r, () => genBinary(r, 2), (s) => Buffer.from(s, 'base64').toString('hex'), 2) };
}

/*
 * An UpdateExpression for an item (its current value, or null when absent):
 * mostly paths that exist with operations that fit their types, so most
 * updates succeed; some new paths, missing paths, wrong types and overlaps,
 * so the errors are exercised too. Several list indexes of one list in one
 * REMOVE are left out: dynalite gets them wrong (see the docs group).
 */
function genUpdate(c, item, keyNames, keyTargets = true, indexKeys = {}) {
  const r = c.r;
  // Index key attributes are set whole, to a value of their declared type:
  // a wrong type is rejected (validation group), and a path into one is
  // refused by DynamoDB ("Key attributes must be scalars").
  const all = itemPaths(item).filter((p) => !keyNames.includes(p.segs[0].name) && !(p.segs[0].name in indexKeys && p.segs.length > 1));
  const chosen = [];
  // Lists an element is REMOVEd from: nothing else may touch them.
  // DynamoDB resolves every path against the item before the update;
  // dynalite removes one element after another, so `REMOVE l[0], l[2]`
  // or `REMOVE e[0], e[2].z` hit other elements there (see the docs
  // group, which checks DynamoDB's behaviour in ddbx).
  const blocked = [];
  const used = [];
  // Nor may anything write where a SET reads: dynalite copies by
  // reference, so `SET b = a REMOVE a.x` loses x from b as well (DynamoDB
  // copies the value; checked in the docs group).
  const free = (segs) => !blocked.some((b) => overlaps(b, segs)) && !used.some((u) => overlaps(u, segs)) &&
    (!chosen.some((q) => overlaps(q, segs)) || r.chance(0.02));
  const pickTarget = (want) => {
    for (let tries = 0; tries < 8; tries++) {
      let segs; let v;
      if (all.length && r.chance(0.75)) {
        const cands = want ? all.filter((p) => want(p.v)) : all;
        if (!cands.length) continue;
        ({ segs, v } = r.pick(cands));
      } else if (keyTargets && r.chance(0.03)) {
        segs = [{ name: r.pick(keyNames) }];                    // a key attribute: rejected
      } else if (all.some((q) => !(q.segs[0].name in indexKeys)) && r.chance(0.3)) {
        const base = r.pick(all.filter((q) => !(q.segs[0].name in indexKeys)));
        segs = base.segs.concat(base.v.L ? [{ index: base.v.L.length + r.int(3) }] : [{ name: r.pick(MAP_NAMES) }]);
        if (base.v.L) {
          // Past the end appends: that list is then this action's alone
          // (where a second action on it lands is not pinned down).
          if (chosen.some((q) => overlaps(q, base.segs)) || used.some((q) => overlaps(q, base.segs)) ||
            blocked.some((b) => overlaps(b, segs))) continue;
          chosen.push(segs);
          blocked.push(base.segs);
          return { segs, v: undefined };
        }
      } else {
        segs = [{ name: r.pick(ATTR_NAMES) }];
        v = item ? item[segs[0].name] : undefined;
      }
      if (free(segs)) { chosen.push(segs); return { segs, v }; }
    }
    const segs = [{ name: 'u' + chosen.length }];
    chosen.push(segs);
    return { segs, v: undefined };
  };
  // An operand path that does not overlap the target: `SET m.x = m`
  // makes dynalite build a cyclic value and crash (stack overflow).
  // A missing attribute in its place makes the update fail (both sides),
  // so the fallback is a scalar name, which never holds a map or list.
  const operandOf = (want, target) => {
    const clear = (segs) => !overlaps(segs, target) && !blocked.some((b) => overlaps(b, segs)) && !chosen.some((q) => overlaps(q, segs));
    const cands = all.filter((p) => want(p.v) && clear(p.segs));
    const tops = SCALAR_NAMES.filter((n) => clear([{ name: n }]));
    const segs = cands.length && (r.chance(0.7) || !tops.length) ? r.pick(cands).segs : [{ name: tops.length ? r.pick(tops) : 'zz' }];
    used.push(segs);
    return renderPath(c, segs);
  };
  const clauses = [];
  const nSet = r.int(4);
  if (nSet) {
    const acts = [];
    for (let i = 0; i < nSet; i++) {
      const { segs, v } = pickTarget(null);
      const p = renderPath(c, segs);
      // A scalar attribute (SCALAR_NAMES) only ever gets S, N or B.
      const sc = segs.length === 1 && isScalarName(segs[0].name);
      const isSc = (x) => x.S !== undefined || x.N !== undefined || x.B !== undefined;
      const anyV = () => (sc ? c.someScalar() : c.someValue());
      let rhs;
      const k = r.int(10);
      const ixType = segs.length === 1 ? indexKeys[segs[0].name] : undefined;
      if (ixType) {
        const val = c.value(keyValue(r, ixType, null));
        rhs = r.chance(0.5) ? val : 'if_not_exists(' + p + ', ' + val + ')';
      } else if (v && v.N && k < 5 && decFits(v.N, '100', 1) && decFits(v.N, '100', -1)) {
        let n = r.chance(0.5) ? String(r.int(100)) : genNumber(r);
        if (!decFits(v.N, n, 1) || !decFits(v.N, n, -1)) n = String(r.int(100));
        rhs = r.chance(0.8) ? p + ' ' + r.pick(['+', '-']) + ' ' + c.value({ N: n })
          : c.value({ N: String(r.int(100)) }) + ' - ' + p;
      } else if (v && v.L && k < 6) {
        const l = { L: [genValue(r, 0)] };
        rhs = r.chance(0.5) ? 'list_append(' + p + ', ' + c.value(l) + ')' : 'list_append(' + c.value(l) + ', ' + p + ')';
      } else if (k < 7) {
        rhs = 'if_not_exists(' + (r.chance(0.7) ? p : operandOf(sc ? isSc : () => true, segs)) + ', ' + c.value(anyV()) + ')';
      } else if (k < 8) {
        rhs = v && v.N && !decFits(v.N, '9', 1) ? c.value({ N: '1' })
          : 'if_not_exists(' + p + ', ' + c.value({ N: '0' }) + ') + ' + c.value({ N: String(r.range(1, 9)) });
      } else if (k < 9) {
        const nums = all.filter((q) => q.v.N !== undefined && !overlaps(q.segs, segs) && !chosen.some((t) => overlaps(t, q.segs)));
        const [q1, q2] = [r.pick(nums), r.pick(nums)];
        if (r.chance(0.6) || !nums.length || !decFits(q1.v.N, q2.v.N, 1)) rhs = operandOf(sc ? isSc : () => true, segs);
        else { used.push(q1.segs, q2.segs); rhs = renderPath(c, q1.segs) + ' + ' + renderPath(c, q2.segs); }
      } else {
        rhs = c.value(sc ? c.someScalar() : r.chance(0.5) ? c.someValue() : genValue(r, 2));
      }
      acts.push(p + ' = ' + rhs);
    }
    clauses.push('SET ' + acts.join(', '));
  }
  if (r.chance(0.4)) {
    const acts = [];
    for (let i = r.range(1, 2); i > 0; i--) {
      const { segs } = pickTarget(null);
      if (segs[segs.length - 1].index !== undefined) {
        const list = segs.slice(0, -1);
        if (chosen.some((q) => q !== segs && overlaps(q, list)) || used.some((q) => overlaps(q, list))) continue;
        blocked.push(list);
      }
      acts.push(renderPath(c, segs));
    }
    if (acts.length) clauses.push('REMOVE ' + acts.join(', '));
  }
  if (r.chance(0.35)) {
    const { segs, v } = pickTarget((x) => x.N || x.SS || x.NS || x.BS);
    let val;
    if (r.chance(0.05)) val = { S: 'notaset' };
    else if (segs.length === 1 && isScalarName(segs[0].name)) val = { N: v && v.N && !decFits(v.N, '9', 1) ? '0' : String(r.int(10)) };
    else if (v && (v.SS || v.NS || v.BS)) val = setOfType(r, v.SS ? 'SS' : v.NS ? 'NS' : 'BS');
    else if (v && v.N) {
      val = { N: r.chance(0.5) ? String(r.int(10)) : genNumber(r) };
      if (!decFits(v.N, val.N, 1)) val = { N: '0' };
    }
    else val = r.chance(0.5) ? { N: String(r.int(10)) } : setOfType(r, r.pick(['SS', 'NS', 'BS']));
    clauses.push('ADD ' + renderPath(c, segs) + ' ' + c.value(val));
  }
  if (r.chance(0.3)) {
    const { segs, v } = pickTarget((x) => x.SS || x.NS || x.BS);
    let val;
    if (r.chance(0.05)) val = { N: '1' };
    else if (v && (v.SS || v.NS || v.BS)) {
      const t = v.SS ? 'SS' : v.NS ? 'NS' : 'BS';
      const mine = r.sample(v[t], r.range(1, v[t].length));
      const extra = setOfType(r, t)[t].filter((e) => !mine.includes(e) && (t !== 'NS' || !mine.some((m) => numKey(m) === numKey(e))));
      val = { [t]: mine.concat(r.chance(0.3) ? extra.slice(0, 1) : []) };
    } else val = setOfType(r, r.pick(['SS', 'NS', 'BS']));
    clauses.push('DELETE ' + renderPath(c, segs) + ' ' + c.value(val));
  }
  if (!clauses.length) {
    const { segs } = pickTarget(null);
    const ixType = segs.length === 1 ? indexKeys[segs[0].name] : undefined;
    clauses.push('SET ' + renderPath(c, segs) + ' = ' + c.value(ixType ? keyValue(r, ixType, null)
      : segs.length === 1 && isScalarName(segs[0].name) ? c.someScalar() : c.someValue()));
  }
  return r.shuffle(clauses).join(' ');
}

/* -------------------------------------------------------- comparison */

function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v).sort()) {
      let x = v[k];
      if (BY_VALUE && k === 'N' && typeof x === 'string') x = numKey(x);
      if (BY_VALUE && k === 'NS' && Array.isArray(x)) x = x.map((e) => (typeof e === 'string' ? numKey(e) : e));
      if ((k === 'SS' || k === 'NS' || k === 'BS') && Array.isArray(x) && x.every((e) => typeof e === 'string')) x = x.slice().sort();
      out[k] = canon(x);
    }
    return out;
  }
  return v;
}
const cj = (v) => JSON.stringify(canon(v));

function tableDef(td) {
  if (!td) return td;
  const ix = (l) => l && l.map((i) => ({ IndexName: i.IndexName, KeySchema: i.KeySchema, Projection: canonProj(i.Projection) }))
    .sort((a, b) => (a.IndexName < b.IndexName ? -1 : 1));
  return {
    TableName: td.TableName,
    KeySchema: td.KeySchema,
    AttributeDefinitions: td.AttributeDefinitions && td.AttributeDefinitions.slice().sort((a, b) => (a.AttributeName < b.AttributeName ? -1 : 1)),
    GlobalSecondaryIndexes: ix(td.GlobalSecondaryIndexes),
    LocalSecondaryIndexes: ix(td.LocalSecondaryIndexes),
  };
}
function canonProj(p) {
  if (!p) return p;
  const q = { ProjectionType: p.ProjectionType };
  if (p.NonKeyAttributes) q.NonKeyAttributes = p.NonKeyAttributes.slice().sort();
  return q;
}

/* What of an answer is compared, by operation. */
function comparable(op, ans, opts) {
  if (ans.Error) {
    const e = { Code: ans.Error.Code, Message: ans.Error.Message };
    if (ans.Error.Item) e.Item = ans.Error.Item;
    if (ans.Error.CancellationReasons) e.CancellationReasons = ans.Error.CancellationReasons;
    if (BY_VALUE) {
      delete e.Message;
      if (e.CancellationReasons) e.CancellationReasons = e.CancellationReasons.map((r) => Object.assign({}, r, { Message: undefined }));
    }
    return { Error: e };
  }
  const o = Object.assign({}, ans.Output);
  if (op === 'CreateTable') o.TableDescription = tableDef(o.TableDescription);
  // DeleteTable: DynamoDB's answer leaves KeySchema, AttributeDefinitions,
  // CreationDateTime and the indexes out, dynalite's keeps the first ones
  // (issue 16; ddbx's shape is checked in wrong16.js): compare the name
  // and status.
  if (op === 'DeleteTable' && o.TableDescription) {
    o.TableDescription = { TableName: o.TableDescription.TableName, TableStatus: o.TableDescription.TableStatus };
  }
  // Not ItemCount/TableSizeBytes: dynalite never updates them (DynamoDB
  // does every six hours or so; ddbx keeps them current).
  if (op === 'DescribeTable') o.Table = tableDef(o.Table);
  // dynalite applies a throughput change after a delay (its answer shows
  // the old units, ddbx's the new): compare the definition.
  if (op === 'UpdateTable' && o.TableDescription) o.TableDescription = tableDef(o.TableDescription);
  if ((op === 'Scan' || (opts && opts.unordered)) && Array.isArray(o.Items)) o.Items = o.Items.map(cj).sort();
  if (op === 'BatchGetItem' && o.Responses) {
    const rs = {};
    for (const [t, items] of Object.entries(o.Responses)) rs[t] = items.map(cj).sort();
    o.Responses = rs;
  }
  if (opts && opts.noLek) delete o.LastEvaluatedKey;
  return { Output: o };
}

/* Both answers comparable; ConsumedCapacity only when both carry it. */
function agree(op, d, x, opts) {
  const a = comparable(op, d, opts);
  const b = comparable(op, x, opts);
  if (a.Output && b.Output) {
    // DynamoDB Local's capacity is its own (0 for a read that finds
    // nothing, where DynamoDB charges the minimum read): capacity is
    // compared with dynalite and in the documented groups.
    if (BY_VALUE || !('ConsumedCapacity' in a.Output) || !('ConsumedCapacity' in b.Output)) {
      delete a.Output.ConsumedCapacity; delete b.Output.ConsumedCapacity;
    }
  }
  return cj(a) === cj(b);
}

/*
 * Known deviations. Each matches one narrow kind of disagreement and says
 * why it is tolerated. who: "dynalite" where dynalite differs from real
 * DynamoDB (ddbx follows DynamoDB); "ddbx" for a gap ddbx has not closed.
 */
const KNOWN_ALL = [
  {
    who: 'dynalite',
    id: 'syntax-error-wording',
    why: 'dynalite words syntax errors with its PEG parser\'s expectations ("Expected ... but ... found"); ' +
      'DynamoDB says "Syntax error; token: \\"X\\", near: \\"...\\"". Same code, same expression kind ' +
      '(in PutItem and UpdateItem inside AWS\'s "1 validation error detected: " envelope: put-update-envelope).',
    match: (op, req, d, x) => d.Error && x.Error && d.Error.Code === 'ValidationException' && x.Error.Code === 'ValidationException' &&
      /^Invalid [A-Za-z]+Expression: Syntax error; /.test(d.Error.Message) &&
      d.Error.Message.split('Syntax error;')[0] ===
        String(x.Error.Message).replace(/^1 validation error detected: /, '').split('Syntax error;')[0] &&
      /Syntax error;/.test(x.Error.Message),
  },
  {
    who: 'dynalite',
    id: 'condition-key-paths',
    why: 'dynalite evaluates a ConditionExpression on a path into a key attribute (pk.x, sk[0], an index key\'s ' +
      'g.y); DynamoDB Local, AWS\'s own code, refuses it as DynamoDB refuses such a path in a projection, a ' +
      'filter and an update ("Key attributes must be scalars; ... Key: pk", dynalite\'s own tests of those, ' +
      'written against DynamoDB), ConditionChecks of a transaction excepted. The developer guide is silent; ddbx ' +
      'follows DynamoDB Local (pinned in tests/data/test_messages.c).',
    match: (op, req, d, x) => x.Error && x.Error.Code === 'ValidationException' && !(d.Error && d.Error.Code === 'ValidationException') &&
      (req.ConditionExpression || (req.TransactItems || []).some((t) => !t.ConditionCheck)) &&
      /^Key attributes must be scalars; list random access '\[\]' and map lookup '\.' are not allowed: (Index)?Key: /.test(x.Error.Message),
  },
  {
    who: 'dynalite',
    id: 'key-condition-nested-wording',
    why: 'A nested path in a KeyConditionExpression: dynalite says "KeyConditionExpressions cannot have conditions ' +
      'on nested attributes"; DynamoDB today prefixes "Invalid KeyConditionExpression: " (captured from AWS in ' +
      '2026 by ExtendDB, PR 195, and by dynoxide, changelog 0.12, eu-west-2). Pinned in tests/expr/key.golden.',
    match: (op, req, d, x) => d.Error && x.Error && d.Error.Message === 'KeyConditionExpressions cannot have conditions on nested attributes' &&
      x.Error.Message === 'Invalid KeyConditionExpression: ' + d.Error.Message,
  },
  {
    who: 'dynalite',
    id: 'validation-wording-today',
    why: 'dynalite words the constraint family as DynamoDB did before: a collection\'s value printed at a camel-case ' +
      'path, a short table name checked apart ("TableName must be at least 3 characters long ..."), an empty ' +
      'RequestItems a length error. DynamoDB today (AWS, issue 29): "Value at \'RequestItems.T.member.Keys\'" ' +
      '(no value for a collection, the request\'s casing), "Value \'ab\' at \'tableName\' ... length greater than ' +
      'or equal to 3", "The requestItems parameter is required for BatchGetItem". Pinned in tests/data/test_messages.c.',
    match: (op, req, d, x) => {
      if (!d.Error || !x.Error || d.Error.Code !== 'ValidationException' || x.Error.Code !== 'ValidationException') return false;
      const dm = String(d.Error.Message); const xm = String(x.Error.Message);
      const tail = (m) => m.slice(m.indexOf('failed to satisfy constraint: '));
      return (/^The requestItems parameter is required for (BatchGetItem|BatchWriteItem)$/.test(xm) &&
          /^1 validation error detected: Value '\{\}' at 'requestItems' failed to satisfy constraint: Member must have length greater than or equal to 1$/.test(dm)) ||
        (/^1 validation error detected: Value at '[A-Z]/.test(xm) && /^1 validation error detected: Value '[[{]/.test(dm) && tail(dm) === tail(xm)) ||
        (dm === 'TableName must be at least 3 characters long and at most 255 characters long' &&
          /^\d+ validation errors? detected: .*Value '[^']*' at 'tableName' failed to satisfy constraint: Member must have length (greater than or equal to 3|less than or equal to 255)(;|$)/.test(xm));
    },
  },
  {
    who: 'dynalite',
    id: 'table-name-or-arn',
    why: 'dynalite checks every operation\'s TableName as a new table\'s name in the constraint family; DynamoDB ' +
      'takes a table\'s name or ARN, 1 to 1024 characters, outside CreateTable (API reference, PutItem\'s TableName: ' +
      '"Length Constraints: Minimum length of 1. Maximum length of 1024."), then refuses a name no table can have ' +
      'with "Invalid table/index name. ..." (DynamoDB Local 3.3\'s wording, which agrees).',
    match: (op, req, d, x) => op !== 'CreateTable' && typeof req.TableName === 'string' && req.TableName.length >= 1 &&
      req.TableName.length <= 1024 && d.Error && d.Error.Code === 'ValidationException' &&
      /(TableName must be at least 3 characters long|at 'tableName' failed to satisfy constraint: Member must (satisfy regular expression pattern|have length))/.test(d.Error.Message) &&
      x.Error && /^Invalid table\/index name\.  Table\/index names must be between 3 and 255 characters long/.test(x.Error.Message),
  },
  {
    who: 'dynalite',
    id: 'table-exists-message',
    why: 'dynalite answers CreateTable of an existing table with an empty message; DynamoDB says ' +
      '"Table already exists: NAME" (accepted only with exactly that message).',
    match: (op, req, d, x) => op === 'CreateTable' && d.Error && x.Error && d.Error.Code === 'ResourceInUseException' &&
      x.Error.Code === 'ResourceInUseException' && d.Error.Message === '' && x.Error.Message === 'Table already exists: ' + req.TableName,
  },
  {
    who: 'dynalite',
    id: 'legacy-not-contains-missing',
    why: 'dynalite makes the legacy NOT_CONTAINS true on a missing attribute; DynamoDB makes it false (AWS fails ' +
      'an UpdateItem whose Expected has NOT_CONTAINS on a missing attribute, alternator test_expected.py). ' +
      'Accepted when only that differs: the write ddbx refuses, or the items only dynalite returns lack the attribute.',
    match: (op, req, d, x) => notContainsOnMissing(req, d, x),
  },
  {
    who: 'dynalite',
    id: 'legacy-conditional-operator-count',
    why: 'dynalite accepts ConditionalOperator with fewer than two conditions; DynamoDB refuses it ("ConditionalOperator ' +
      'can only be used when Filter or Expected has two or more elements", as AWS answers a one-condition ScanFilter; ' +
      '"... cannot be used without Filter or Expected" with neither, DynamoDB Local\'s ErrorFactory).',
    match: (op, req, d, x) => req.ConditionalOperator !== undefined && x.Error && x.Error.Code === 'ValidationException' &&
      Object.keys(req.Expected || req.QueryFilter || req.ScanFilter || {}).length < 2 &&
      /^ConditionalOperator (can only be used when Filter or Expected has two or more elements|cannot be used without Filter or Expected)$/.test(x.Error.Message),
  },
  {
    who: 'dynalite',
    id: 'legacy-or',
    why: 'dynalite\'s ConditionalOperator OR stops at the first condition whatever it is (matchesFilter returns ' +
      'false on a false first condition); DynamoDB\'s OR holds when any condition does (API reference, ' +
      'ConditionalOperator; AWS: alternator test_expected.py multi_true). Accepted only in that direction: ' +
      'ddbx applies a write dynalite refuses, or returns every item dynalite does and more.',
    match: (op, req, d, x) => req.ConditionalOperator === 'OR' && (
      (req.Expected && d.Error && d.Error.Code === 'ConditionalCheckFailedException' &&
       (x.Output || x.Error.Code !== 'ConditionalCheckFailedException')) ||
      (!req.Expected && d.Output && x.Output && Array.isArray(d.Output.Items) && Array.isArray(x.Output.Items) &&
       d.Output.Items.every((i) => x.Output.Items.some((j) => cj(j) === cj(i))) && x.Output.Items.length > d.Output.Items.length) ||
      (!req.Expected && d.Output && x.Output && !d.Output.Items && !x.Output.Items && x.Output.Count > d.Output.Count)),
  },
  {
    who: 'dynalite',
    id: 'legacy-exists-true-value',
    why: 'dynalite reads Expected {Exists: true, Value: V} as "the attribute exists", ignoring V; DynamoDB ' +
      'compares the value (AWS fails {Exists: true, Value: 2} on an attribute holding 1, alternator ' +
      'test_expected.py). Accepted when ddbx fails the condition that dynalite passed.',
    match: (op, req, d, x) => req.Expected && Object.values(req.Expected).some((e) => e.Exists === true && e.Value) &&
      x.Error && x.Error.Code === 'ConditionalCheckFailedException' && !(d.Error && d.Error.Code === 'ConditionalCheckFailedException'),
  },
  {
    who: 'dynalite',
    id: 'legacy-delete-only-creates',
    why: 'dynalite creates the item (its key alone) for an UpdateItem whose AttributeUpdates only DELETE; ' +
      'DynamoDB writes nothing (AWS: alternator test_item.py, test_update_item_non_existent). Accepted when ' +
      'dynalite returns just the key as the new item and ddbx returns no Attributes.',
    match: (op, req, d, x) => op === 'UpdateItem' && deletesOnly(req) && d.Output && x.Output && !x.Output.Attributes &&
      d.Output.Attributes && TABLES[req.TableName] && sameKey(d.Output.Attributes, req.Key),
  },
  {
    who: 'dynalite',
    id: 'legacy-expected-types',
    why: 'dynalite does not check the types of Expected\'s values; DynamoDB does, as for the filters (AWS refuses ' +
      'Expected CONTAINS/IN/BETWEEN with a list or set value, alternator test_expected.py): ' +
      '"ComparisonOperator X is not valid for Y AttributeValue type".',
    match: (op, req, d, x) => req.Expected && x.Error && x.Error.Code === 'ValidationException' &&
      /^One or more parameter values were invalid: ComparisonOperator [A-Z_]+ is not valid for [A-Z]+ AttributeValue type$/.test(x.Error.Message) &&
      !(d.Error && d.Error.Message === x.Error.Message),
  },
  // ---- ddbx gaps (DynamoDB's behaviour per dynalite and the docs; to be
  // closed in the store, then removed from here). Closed since: GetItem
  // projections matching nothing ("Item": {}), paths into key attributes
  // refused, no index write for an update of unprojected attributes, eval's
  // item line printing DEL as "?" (now \u007f, exact JSON). ----
  {
    who: 'dynalite',
    id: 'expression-limits',
    why: 'dynalite accepts IN with more than 100 operands and expressions over 4 KB; DynamoDB rejects both ' +
      '(documented limits).',
    match: (op, req, d, x) => d.Output && x.Error && x.Error.Code === 'ValidationException' &&
      ['ConditionExpression', 'FilterExpression', 'KeyConditionExpression', 'UpdateExpression', 'ProjectionExpression'].some((e) =>
        typeof req[e] === 'string' && (Buffer.byteLength(req[e]) > 4096 ? /maximum allowed size/.test(x.Error.Message)
          : (req[e].match(/,/g) || []).length >= 100 && / IN \(/.test(req[e]) && /too many operands/.test(x.Error.Message))),
  },
  {
    who: 'dynalite',
    id: 'path-nesting-and-orderable-operands',
    why: 'dynalite accepts document paths of more than 32 steps and evaluates <, <=, >, >= and BETWEEN against ' +
      'a constant that is not S, N or B to false; DynamoDB refuses both ("The document path has too many nesting ' +
      'levels", "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"). ' +
      'Issue 16; pinned in tests/expr/errors.golden.',
    match: (op, req, d, x) => d.Output && x.Error && x.Error.Code === 'ValidationException' &&
      /(The document path has too many nesting levels; nesting levels: (3[3-9]|[4-9]\d)|Incorrect operand type for operator or function; operator or function: (<|<=|>|>=|BETWEEN), operand type: (BOOL|NULL|L|M|SS|NS|BS))$/.test(x.Error.Message),
  },
  {
    who: ['dynalite', 'ddblocal'],
    id: 'removal-only-update-creates',
    why: 'an UpdateItem whose expression only removes (REMOVE, DELETE) creates a missing item in dynalite and ' +
      'in DynamoDB Local; DynamoDB writes nothing (issue 16, from a conformance run against DynamoDB; pinned in ' +
      'wrong16.js). The oracle then follows ddbx\'s copy of the item; ALL_NEW differs by the key-only item it made.',
    removalOnly: (op, req) => op === 'UpdateItem' && typeof req.UpdateExpression === 'string' &&
      !/(^|\s)(SET|ADD)\s/i.test(req.UpdateExpression),
    follow(op, req) { return this.removalOnly(op, req); },
    match(op, req, d, x) {
      return this.removalOnly(op, req) && d.Output && x.Output && x.Output.Attributes === undefined &&
        d.Output.Attributes && TABLES[req.TableName] && sameKey(d.Output.Attributes, req.Key) &&
        cj(Object.assign({}, d.Output, { Attributes: undefined })) === cj(x.Output);
    },
  },
  {
    who: 'dynalite',
    id: 'gsi-unprojected-attributes',
    why: 'dynalite answers a request to a KEYS_ONLY or INCLUDE global secondary index for attributes it does not ' +
      'project with items lacking them; DynamoDB refuses it ("Global secondary index queries cannot fetch ' +
      'attributes from the parent table", developer guide; issue 16).',
    match: (op, req, d, x) => (op === 'Query' || op === 'Scan') && !d.Error && x.Error && x.Error.Code === 'ValidationException' &&
      /^One or more parameter values were invalid: Global secondary index \S+ does not project the attribute /.test(x.Error.Message) &&
      TABLES[req.TableName] && TABLES[req.TableName].gsis.some((gi) => gi.name === req.IndexName && gi.proj.ProjectionType !== 'ALL'),
  },
  {
    who: 'dynalite',
    id: 'index-unprojected-filter',
    why: 'dynalite answers a Query of a KEYS_ONLY or INCLUDE index whose filter names attributes the index does ' +
      'not project; DynamoDB refuses it ("One or more parameter values were invalid: Secondary index X does not ' +
      'project one or more filter attributes: [a, b]", a user\'s AppSync resolver met it on AWS; DynamoDB ' +
      'Local 3.3 agrees, an LSI too). Pinned in tests/data/test_messages.c.',
    match: (op, req, d, x) => op === 'Query' && !d.Error && x.Error && x.Error.Code === 'ValidationException' &&
      /^One or more parameter values were invalid: Secondary index \S+ does not project one or more filter attributes: \[/.test(x.Error.Message),
  },
  {
    who: 'dynalite',
    id: 'empty-key-condition-value',
    why: 'dynalite answers a Query whose key condition compares a key with an empty string or binary (pk = "", ' +
      'begins_with(sk, "")); DynamoDB refuses it as it refuses such a key ("One or more parameter values are ' +
      'not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK", AWS ' +
      'as moto issue 7062 quotes it; DynamoDB Local 3.3 agrees, the index form for an index). Pinned in ' +
      'tests/data/test_messages.c.',
    match: (op, req, d, x) => op === 'Query' && !d.Error && x.Error && x.Error.Code === 'ValidationException' &&
      /^One or more parameter values are not valid\. (A value specified for a secondary index key is not supported\. )?The AttributeValue for a key attribute cannot contain an empty (string|binary) value\. (Key|IndexName): /.test(x.Error.Message),
  },
  {
    who: ['dynalite', 'ddblocal'],
    id: 'put-update-envelope',
    why: 'PutItem\'s and UpdateItem\'s request-validation refusals (sets empty or with duplicates, {"NULL": false}, ' +
      'an invalid value among ExpressionAttributeValues, an invalid expression, expression parameters misused, ' +
      'ReturnValues) carry AWS\'s "1 validation error detected: " envelope, and {"NULL": false} among the values ' +
      'is refused without the "ExpressionAttributeValues contains invalid value" wrapper in every operation ' +
      '(AWS, eu-west-2: dynoxide 0.12.0\'s changelog and envelope tests, 2026-07); dynalite and DynamoDB Local 3.3 ' +
      'answer bare. AWS decides; pinned in tests/data/test_messages.c.',
    norm: (m) => (m || '').replace(/^1 validation error detected: /, '')
      .replace(/^ExpressionAttributeValues contains invalid value: (.*Null attribute value types must have the value of true) for key :\w+$/, '$1'),
    match(op, req, d, x) {
      return d.Error && x.Error && d.Error.Code === 'ValidationException' && x.Error.Code === 'ValidationException' &&
        d.Error.Message !== x.Error.Message && this.norm(d.Error.Message) === this.norm(x.Error.Message) &&
        (op === 'PutItem' || op === 'UpdateItem' || /Null attribute value types/.test(x.Error.Message));
    },
  },
  {
    who: ['dynalite', 'ddblocal'],
    id: 'aws-2026-validation-wording',
    why: 'AWS reworded these in 2026 (its validation framework, region by region; eu-west-2, the region the ' +
      'emulators that test against AWS pin, has them): Limit and a negative Segment as "Value at \'Limit\'" ' +
      'with no value quoted (dynoxide\'s Query captures; nubo-db/dynamodb-conformance\'s Scan messages, by ' +
      '2026-09-26), Segment past TotalSegments without ": Segment: N is not less than TotalSegments: M", and ' +
      'more than two KeySchema elements, TransactItems empty or over 100 and BatchWriteItem over 25 quoted as ' +
      'Java prints them, at \'keySchema\', \'transactItems\', \'requestItems\' (the same suite\'s CreateTable, ' +
      'TransactWriteItems and BatchWriteItem messages), and a duplicate attribute definition as "Attribute Name is ' +
      'duplicated: NAME" (AWS\'s answer captured on 2026-10-08 by the ack-api-quirks lab). dynalite and DynamoDB ' +
      'Local 3.3 keep the older words. AWS decides; pinned in tests/data/test_messages.c.',
    match: (op, req, d, x) => d.Error && x.Error && d.Error.Code === 'ValidationException' &&
      x.Error.Code === 'ValidationException' &&
      (/^1 validation error detected: Value at '(Limit|Segment)' failed to satisfy constraint: /.test(x.Error.Message) ||
        x.Error.Message === 'The Segment parameter is zero-based and must be less than parameter TotalSegments' ||
        /^1 validation error detected: Value '[[{].*' at '(keySchema|transactItems|requestItems)' failed to satisfy constraint: /s.test(x.Error.Message) ||
        /^Attribute Name is duplicated: /.test(x.Error.Message)),
  },
  {
    who: 'dynalite',
    id: 'attribute-name-lengths',
    why: 'dynalite accepts an empty attribute name and names past 65535 bytes; DynamoDB refuses both (API reference: ' +
      'AttributeName is at most 65535 bytes; issue 16, checked in wrong16.js).',
    match: (op, req, d, x) => x.Error && x.Error.Code === 'ValidationException' &&
      /(Empty attribute name|Attribute name is too large, must be less than 65536 bytes)/.test(x.Error.Message) &&
      (d.Output || /is not defined; attribute name: #/.test(d.Error && d.Error.Message)),
  },
  {
    who: 'dynalite',
    id: 'capacity-utf16-sizes',
    why: 'dynalite sizes strings and attribute names in UTF-16 code units (JavaScript length); DynamoDB counts ' +
      'UTF-8 bytes. Only ConsumedCapacity differs, and the exchange holds non-ASCII text, or it is a Query or ' +
      'Scan of a table holding non-ASCII text (all but diff_cap). (ASCII sizes are compared strictly in the ' +
      'capacity group; UTF-8 sizes are checked in the docs group.)',
    match: (op, req, d, x) => onlyCapacityDiffers(op, d, x) && (/[^\u0000-\u007f]/.test(JSON.stringify([req, d, x])) ||
      ((op === 'Query' || op === 'Scan') && req.TableName !== 'diff_cap')),
  },
  {
    who: 'dynalite',
    id: 'empty-read-capacity',
    why: 'a Query or Scan that reads nothing costs dynalite 0 units; DynamoDB charges the minimum read, ' +
      '0.5 (eventually consistent) or 1 (consistent), and a whole Scan that minimum for each of the four ' +
      'partitions of an on-demand table (issue 16; checked in wrong16.js).',
    match: (op, req, d, x) => (op === 'Query' || op === 'Scan') && onlyCapacityDiffers(op, d, x) && d.Output.ScannedCount === 0 &&
      capacityTotal(d) === 0 && capacityTotal(x) === (req.ConsistentRead ? 1 : 0.5) *
        (op === 'Scan' && req.TotalSegments === undefined && !x.Output.LastEvaluatedKey ? 4 : 1),
  },
  {
    who: 'dynalite',
    id: 'consistent-scan-capacity',
    why: 'dynalite halves a Scan\'s read units even with ConsistentRead; DynamoDB halves only eventually ' +
      'consistent reads (accepted when ddbx charges exactly twice).',
    match: (op, req, d, x) => op === 'Scan' && req.ConsistentRead === true && onlyCapacityDiffers(op, d, x) &&
      capacityTotal(x) === 2 * capacityTotal(d),
  },
  {
    who: 'dynalite',
    id: 'return-values-on-condition-check-failure',
    why: 'dynalite ignores ReturnValuesOnConditionCheckFailure (added to DynamoDB in 2023); DynamoDB puts the ' +
      'item in the ConditionalCheckFailedException (accepted when it is the item of the request\'s key).',
    match: (op, req, d, x) => req.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && d.Error && x.Error &&
      d.Error.Code === 'ConditionalCheckFailedException' && x.Error.Code === d.Error.Code && x.Error.Message === d.Error.Message &&
      !d.Error.Item && x.Error.Item && TABLES[req.TableName] &&
      sameKey(keyOf(req.TableName, x.Error.Item), req.Key || keyOf(req.TableName, req.Item)),
  },
  {
    who: 'dynalite',
    id: 'delete-return-values',
    why: 'dynalite accepts any ReturnValues on DeleteItem; DynamoDB takes only NONE and ALL_OLD.',
    match: (op, req, d, x) => op === 'DeleteItem' && !['NONE', 'ALL_OLD', undefined].includes(req.ReturnValues) && d.Output &&
      x.Error && x.Error.Code === 'ValidationException' && x.Error.Message === 'ReturnValues can only be ALL_OLD or NONE',
  },
  {
    who: 'dynalite',
    id: 'select-and-projection',
    why: 'dynalite accepts Select COUNT/ALL_ATTRIBUTES/ALL_PROJECTED_ATTRIBUTES with a ProjectionExpression, ' +
      'SPECIFIC_ATTRIBUTES without one, and ALL_PROJECTED_ATTRIBUTES without an index; DynamoDB rejects each ' +
      '("If you use the ProjectionExpression parameter, then the value for Select can only be SPECIFIC_ATTRIBUTES").',
    match: (op, req, d, x) => (op === 'Query' || op === 'Scan') && d.Output && x.Error && x.Error.Code === 'ValidationException' &&
      ((req.ProjectionExpression !== undefined && req.Select && req.Select !== 'SPECIFIC_ATTRIBUTES') ||
       (req.AttributesToGet !== undefined && req.Select && req.Select !== 'SPECIFIC_ATTRIBUTES') ||
       (req.Select === 'SPECIFIC_ATTRIBUTES' && req.ProjectionExpression === undefined && req.AttributesToGet === undefined) ||
       (req.Select === 'ALL_PROJECTED_ATTRIBUTES' && !req.IndexName)),
  },
  {
    who: 'dynalite',
    id: 'empty-index-key',
    why: 'dynalite stores an empty string as a secondary index key; DynamoDB rejects it ("The AttributeValue ' +
      'for a key attribute cannot contain an empty string value").',
    match: (op, req, d, x) => op === 'PutItem' && d.Output && x.Error && x.Error.Code === 'ValidationException' &&
      /cannot contain an empty string value/.test(x.Error.Message) && Object.values(req.Item || {}).some((v) => v.S === ''),
  },
  {
    who: 'dynalite',
    id: 'empty-updated-attributes',
    why: 'dynalite answers UPDATED_OLD/UPDATED_NEW with "Attributes": {} when nothing it reports changed; ' +
      'DynamoDB leaves Attributes out. (A normaliser: dynalite\'s empty Attributes is dropped, then the ' +
      'answers are compared, other known deviations included.)',
    normalise: (op, req, d, x) => (op === 'UpdateItem' && d.Output && x.Output && cj(d.Output.Attributes) === '{}' &&
      x.Output.Attributes === undefined ? [{ Output: Object.assign({}, d.Output, { Attributes: undefined }) }, x] : null),
    match: () => false,
  },
  {
    who: 'dynalite',
    id: 'capacity-index-writes',
    why: 'dynalite charges a write to the table only; DynamoDB adds the write units of every index the write ' +
      'changes. Only ConsumedCapacity differs, on a write to a table with indexes, and ddbx charges more. ' +
      '(Index write units are checked in the docs group.)',
    match: (op, req, d, x) => /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/.test(op) && onlyCapacityDiffers(op, d, x) &&
      capacityTotal(x) > capacityTotal(d) && writtenTables(op, req).some((t) => TABLES[t] && TABLES[t].gsis.length + TABLES[t].lsis.length > 0),
  },
  {
    who: 'dynalite',
    id: 'unused-attribute-definitions',
    why: 'dynalite accepts an attribute definition that no key of the table or its indexes uses; DynamoDB refuses ' +
      'it ("Some AttributeDefinitions are not used. AttributeDefinitions: [...], keys used: [...]", AWS as cfn-lint ' +
      'issue 1037 quotes it; DynamoDB Local agrees). Pinned in tests/data/test_messages.c.',
    match: (op, req, d, x) => op === 'CreateTable' && d.Output && x.Error && x.Error.Code === 'ValidationException' &&
      /^One or more parameter values were invalid: Some AttributeDefinitions are not used\. /.test(x.Error.Message),
  },
  // ---- DynamoDB Local's deviations (DIFF_ORACLE=ddblocal): where it departs
  // from the AWS documentation, or from AWS's answers where the
  // documentation is silent (each says which). ----
  {
    who: 'ddblocal',
    id: 'ddblocal-delete-table-status',
    why: 'DynamoDB Local answers DeleteTable with TableStatus ACTIVE; DynamoDB with DELETING (API reference, ' +
      'DeleteTable: "the table is in the DELETING state until DynamoDB completes the deletion").',
    match: (op, req, d, x) => op === 'DeleteTable' && d.Output && x.Output && d.Output.TableDescription &&
      x.Output.TableDescription && d.Output.TableDescription.TableStatus === 'ACTIVE' &&
      x.Output.TableDescription.TableStatus === 'DELETING' &&
      d.Output.TableDescription.TableName === x.Output.TableDescription.TableName,
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-no-tagging',
    why: 'DynamoDB Local 3.3 has no tagging ("Tagging is not currently supported in DynamoDB Local."); ' +
      'TagResource, UntagResource and ListTagsOfResource are compared with dynalite and pinned in tests/data.',
    match: (op, req, d, x) => d.Error && d.Error.Code === 'UnknownOperationException' &&
      /^Tagging is not currently supported in DynamoDB Local/.test(String(d.Error.Message)),
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-internal-failure',
    why: 'DynamoDB Local fails internally (InternalFailure) on requests DynamoDB answers: a BOOL given as ' +
      '"yes" (read as true), B that is not base64 (SerializationException), an unknown BillingMode (the API ' +
      'reference\'s enum: PROVISIONED, PAY_PER_REQUEST).',
    match: (op, req, d, x) => d.Error && d.Error.Code === 'InternalFailure' && !(x.Error && x.Error.Code === 'InternalFailure'),
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-update-table-throughput',
    why: 'DynamoDB Local accepts an UpdateTable that names throughput for an on-demand table, or BillingMode ' +
      'PROVISIONED without ProvisionedThroughput; ddbx refuses both, as dynalite does ("Neither ' +
      'ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST" is ' +
      'AWS\'s CreateTable message; the API reference: "If you set BillingMode as PAY_PER_REQUEST, you cannot ' +
      'specify this property"). For the second the documentation is silent: not decided by it.',
    match: (op, req, d, x) => op === 'UpdateTable' && d.Output && x.Error && x.Error.Code === 'ValidationException' &&
      /^One or more parameter values were invalid: (Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST|ProvisionedThroughput must be specified when BillingMode is PROVISIONED)$/.test(x.Error.Message),
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-updated-nested',
    why: 'UPDATED_OLD and UPDATED_NEW of an update to a nested path (SET a.b, ADD l[1].x): DynamoDB Local returns ' +
      'the whole top-level attribute; DynamoDB returns only the nested attributes updated, within their ' +
      'hierarchy (scylladb\'s test_returnvalues.py, test_update_item_returnvalues_nested, run against ' +
      'DynamoDB; the API reference: "only the updated attributes"). ddbx returns DynamoDB\'s.',
    match: (op, req, d, x) => op === 'UpdateItem' && /^UPDATED_(OLD|NEW)$/.test(req.ReturnValues) && d.Output && x.Output &&
      d.Output.Attributes && x.Output.Attributes && subDocument(x.Output.Attributes, d.Output.Attributes) &&
      cj(Object.assign({}, d.Output, { Attributes: undefined, ConsumedCapacity: undefined })) ===
        cj(Object.assign({}, x.Output, { Attributes: undefined, ConsumedCapacity: undefined })),
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-update-checked-after-condition',
    why: 'An update that cannot apply, with a condition that fails: one naming a key attribute (SET pk, REMOVE ' +
      'sk, SET pk.x, AttributeUpdates on pk), or AttributeUpdates that ADD a string, map or BOOL, DELETE a value ' +
      'from a non-set, or give no value to PUT or ADD. DynamoDB Local judges the condition first ' +
      '(ConditionalCheckFailedException); dynalite and ddbx refuse the update first. For the AttributeUpdates ' +
      'refusals dynalite\'s tests, written against DynamoDB, get them for a table that does not exist (DynamoDB ' +
      'checks them with the request, before any item is read); for the key attributes the documentation does ' +
      'not say which comes first: not decided by it.',
    match: (op, req, d, x) => (op === 'UpdateItem' || op === 'TransactWriteItems') && d.Error && x.Error &&
      /^(ConditionalCheckFailedException|TransactionCanceledException)$/.test(d.Error.Code) && x.Error.Code === 'ValidationException' &&
      /(Cannot update attribute .*\. This attribute is part of the key|^Key attributes must be scalars; .* (Index)?Key: |^One or more parameter values were invalid: (ADD action is not supported for the type|DELETE action with value is not supported for the type|Only DELETE action is allowed when no attribute value is specified))/.test(x.Error.Message),
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-index-scan-filter',
    why: 'A Scan of a KEYS_ONLY or INCLUDE index filtering on an attribute the index does not project: DynamoDB ' +
      'Local filters the table\'s items (and answers the index\'s view of them); ddbx filters what the index ' +
      'holds, where the attribute is absent. The API reference: a Scan of an index reads the index\'s items ' +
      '("Scan ... every item in a table or a secondary index"); dynalite answers as ddbx does.',
    match: (op, req, d, x) => op === 'Scan' && req.IndexName && d.Output && x.Output && d.Output.ScannedCount === x.Output.ScannedCount &&
      filterNamesUnprojected(req),
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-limit-last-page',
    why: 'A Query that stops at its Limit with nothing after it in the key range (the one item of a hash-only ' +
      'partition, the last sort key of a BETWEEN): DynamoDB Local leaves LastEvaluatedKey out; ddbx and dynalite ' +
      'return it, as for any read that stops at its Limit. Both are DynamoDB\'s contract (API reference, Query: ' +
      '"If LastEvaluatedKey is not empty, it does not necessarily mean that there is more data in the result ' +
      'set"); which one AWS answers here it does not say: not decided by it.',
    match: (op, req, d, x) => (op === 'Query' || op === 'Scan') && d.Output && x.Output && !d.Output.LastEvaluatedKey &&
      x.Output.LastEvaluatedKey && req.Limit === x.Output.ScannedCount &&
      cj(Object.assign({}, d.Output, { ConsumedCapacity: undefined })) ===
        cj(Object.assign({}, x.Output, { LastEvaluatedKey: undefined, ConsumedCapacity: undefined })),
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-attribute-updates-default-put',
    why: 'AttributeUpdates with a Value and no Action: DynamoDB Local ignores the attribute; the API reference ' +
      '(AttributeValueUpdate: "Valid values are PUT (default), DELETE, and ADD") makes it a PUT, as ddbx and ' +
      'dynalite do. The oracle then follows ddbx\'s copy of the item.',
    follow: (op, req) => op === 'UpdateItem' && req.AttributeUpdates &&
      Object.values(req.AttributeUpdates).some((u) => u && u.Action === undefined && u.Value !== undefined),
    match(op, req, d, x) { return this.follow(op, req) && !!d.Output && !!x.Output; },
  },
  {
    who: 'ddblocal',
    id: 'ddblocal-expression-details',
    why: 'Two expression details where DynamoDB Local and dynalite answer differently and ddbx follows dynalite: ' +
      'an empty ExpressionAttributeNames without an expression (DynamoDB Local accepts it; dynalite and ddbx ' +
      'refuse "ExpressionAttributeNames can only be specified when using expressions", the rule the API ' +
      'reference states) and a list index written with a leading zero, a[01] (DynamoDB Local: a syntax error; ' +
      'the developer guide\'s grammar does not say; not decided by it).',
    match: (op, req, d, x) => (d.Output && x.Error && x.Error.Message === 'ExpressionAttributeNames can only be specified when using expressions' &&
        req.ExpressionAttributeNames && !Object.keys(req.ExpressionAttributeNames).length) ||
      (d.Error && x.Output && /^Invalid ProjectionExpression: Syntax error; token: "\d+", near: "0\d/.test(String(d.Error.Message))),
  },
];

/* The known deviations of this run's oracle, and ddbx's own gaps. A
 * deviation both oracles share names both: who: ['dynalite', 'ddblocal']. */
const whoOf = (k) => [].concat(k.who);
const KNOWN = KNOWN_ALL.filter((k) => k.who === 'ddbx' || whoOf(k).includes(ORACLE));

/* Is a (an UPDATED_* answer of nested paths) a part of b (the whole
 * attributes): the same value, or a map of some of b's members each a
 * part of b's, or a list of parts of b's elements in order. */
function subDocument(a, b) {
  if (cj(a) === cj(b)) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a.M && b.M) return subDocument(a.M, b.M);
  if (a.L && b.L) {
    let j = 0;
    for (const e of a.L) {
      while (j < b.L.length && !subDocument(e, b.L[j])) j++;
      if (j++ >= b.L.length) return false;
    }
    return true;
  }
  if (['N', 'S', 'B', 'SS', 'NS', 'BS', 'BOOL', 'NULL'].some((t) => t in a)) return false;
  return Object.keys(a).every((k) => k in b && subDocument(a[k], b[k]));
}

/* Does a read of a KEYS_ONLY or INCLUDE index filter on an attribute
 * the index does not hold? (The filter's names, read roughly: its words
 * less functions and keywords, #names resolved.) */
function filterNamesUnprojected(req) {
  const t = TABLES[req.TableName];
  const ix = t && t.gsis.concat(t.lsis).find((i) => i.name === req.IndexName);
  if (!ix || ix.proj.ProjectionType === 'ALL') return false;
  const held = new Set([t.hash[0], t.range && t.range[0], ix.hash && ix.hash[0], ix.range && ix.range[0]]
    .concat(ix.proj.NonKeyAttributes || []).filter(Boolean));
  let names = Object.keys(req.ScanFilter || req.QueryFilter || {});
  if (req.FilterExpression) {
    const words = req.FilterExpression.replace(/:[\w]+/g, ' ').replace(/\.[#\p{L}\p{N}_-]+|\[\d+\]/gu, '').match(/#?[\p{L}_][\p{L}\p{N}_-]*/gu) || [];
    names = names.concat(words.filter((w) => !/^(AND|OR|NOT|BETWEEN|IN|attribute_exists|attribute_not_exists|attribute_type|begins_with|contains|size)$/i.test(w))
      .map((w) => (w[0] === '#' ? (req.ExpressionAttributeNames || {})[w] : w)));
  }
  return names.some((n) => n && !held.has(n));
}

/* Keys equal as DynamoDB compares them (numbers by value: 1e3 = 1000). */
function sameKey(a, b) {
  const norm = (k) => cj(Object.fromEntries(Object.entries(k || {}).map(([n, v]) => [n, v && v.N !== undefined ? { N: numKey(v.N) } : v])));
  return norm(a) === norm(b);
}
function onlyCapacityDiffers(op, d, x) {
  if (!d.Output || !x.Output) return false;
  const strip = (a) => { const c = comparable(op, a); delete c.Output.ConsumedCapacity; return cj(c); };
  return strip(d) === strip(x);
}
function capacityTotal(a) {
  const cc = a.Output && a.Output.ConsumedCapacity;
  if (!cc) return 0;
  return (Array.isArray(cc) ? cc : [cc]).reduce((n, c) => n + (c.CapacityUnits || 0), 0);
}
function writtenTables(op, req) {
  return op === 'BatchWriteItem' ? Object.keys(req.RequestItems || {}) : [req.TableName];
}

/* ------------------------------------------------------------ runner */

let tapN = 0;
let failures = 0;
let tapPrefix = '';
const knownCount = new Map();
function tap(ok, desc, diag) {
  tapN++;
  if (!ok) failures++;
  console.log((ok ? 'ok ' : 'not ok ') + tapN + ' - ' + tapPrefix + desc);
  if (diag) for (const l of diag) console.log('# ' + l);
}
const clip = (s, n) => (s.length > n ? s.slice(0, n) + '…' : s);

class Group {
  constructor(name, dyn, ddbx) {
    this.name = name; this.dyn = dyn; this.ddbx = ddbx;
    this.count = 0; this.bad = []; this.known = 0; this.outcomes = {};
    this.r = new Rng((SEED ^ hashStr(name)) >>> 0);
  }
  /* Sends one request to both; returns [dynaliteAnswer, ddbxAnswer, agreed]. */
  async both(op, input, opts) {
    this.count++;
    const [d0, x] = await Promise.all([this.dyn.call(op, input), this.ddbx.call(op, input)]);
    let d = d0;
    for (const kd of KNOWN) {
      const n = kd.normalise && kd.normalise(op, input, d, x);
      if (!n) continue;
      d = JSON.parse(JSON.stringify(n[0]));
      this.known++;
      knownCount.set(kd, (knownCount.get(kd) || 0) + 1);
    }
    if (process.env.DIFF_DUMP && d.Error && String(d.Error.Message).includes(process.env.DIFF_DUMP)) console.log('# DUMP ' + JSON.stringify(input).slice(0, 400) + ' => ' + d.Error.Message);
    const oc = op + ':' + (d.Output && d.Output.Count !== undefined ? (d.Output.Count ? 'items' : 'empty') + ':' : '') + (d.Error ? d.Error.Code + (process.env.DIFF_STATS === '2' ? ' ' + String(d.Error.Message).replace(/[:;].*/, '').slice(0, 60) : '') : 'ok');
    this.outcomes[oc] = (this.outcomes[oc] || 0) + 1;
    // Writes where dynalite's state departs from DynamoDB's although the
    // answers may agree: dynalite follows ddbx's copy of the item.
    const fk = KNOWN.find((kd) => kd.follow && kd.follow(op, input, d, x));
    if (fk && TABLES[input.TableName] && input.Key) await this.resync(input.TableName, input.Key, true);
    if (agree(op, d, x, opts)) return [d, x, true];
    const k = KNOWN.find((kd) => kd.match(op, input, d, x));
    if (k) {
      this.known++;
      knownCount.set(k, (knownCount.get(k) || 0) + 1);
      // A tolerated dynalite deviation on a write that only one side
      // performed: dynalite follows ddbx (which does what DynamoDB does).
      if (whoOf(k).includes(ORACLE) && !d.Error !== !x.Error && /^(PutItem|UpdateItem|DeleteItem)$/.test(op) && TABLES[input.TableName]) {
        const key = input.Key || (input.Item && keyOf(input.TableName, input.Item));
        if (key) await this.resync(input.TableName, key, true);
      }
      return [d, x, true];
    }
    this.mismatch(op, input, d, x);
    return [d, x, false];
  }
  mismatch(op, input, d, x, note) {
    // For item lists, say which items only one side has: the lists are
    // long and differ in a few members.
    const items = (a) => (a && a.Output && Array.isArray(a.Output.Items) ? a.Output.Items.map((i) => (typeof i === 'string' ? i : cj(i))) : null);
    const di = items(d); const xi = items(x);
    if (di && xi) {
      const ds = new Set(di); const xs = new Set(xi);
      const onlyD = di.filter((i) => !xs.has(i)); const onlyX = xi.filter((i) => !ds.has(i));
      if (onlyD.length || onlyX.length) {
        note = (note ? note + '; ' : '') + `${onlyD.length} items only in dynalite ${clip(onlyD.slice(0, 2).join(' '), 300)}; ` +
          `${onlyX.length} only in ddbx ${clip(onlyX.slice(0, 2).join(' '), 300)}`;
      }
    }
    this.bad.push({ op, input, d, x, note });
    if (LOG) fs.appendFileSync(LOG, JSON.stringify({ group: this.name, op, input, dynalite: d, ddbx: x, note }) + '\n');
  }
  /* After a disagreeing write: make ddbx's item equal to dynalite's. */
  async resync(tname, key, fromDdbx) {
    const [src, dst] = fromDdbx ? [this.ddbx, this.dyn] : [this.dyn, this.ddbx];
    const g = await src.call('GetItem', { TableName: tname, Key: key, ConsistentRead: true });
    if (g.Output && g.Output.Item) await dst.call('PutItem', { TableName: tname, Item: g.Output.Item });
    else if (g.Output) await dst.call('DeleteItem', { TableName: tname, Key: key });
  }
  /* Whole-table comparison after a group of writes, so a divergence shows
   * where it starts rather than groups later. */
  async checkState(tname) {
    const all = async (cl) => {
      const items = []; let start;
      for (let i = 0; i < 1000; i++) {
        const a = await cl.call('Scan', Object.assign({ TableName: tname, ConsistentRead: true }, start ? { ExclusiveStartKey: start } : {}));
        if (a.Error) return a;
        items.push(...a.Output.Items);
        if (!a.Output.LastEvaluatedKey) break;
        start = a.Output.LastEvaluatedKey;
      }
      return { Output: { Items: items.map(cj).sort() } };
    };
    this.count++;
    const [d, x] = await Promise.all([all(this.dyn), all(this.ddbx)]);
    if (cj(d) !== cj(x)) this.mismatch('Scan', { TableName: tname, note: 'whole table after the group' }, d, x, 'table state');
  }
  report(what) {
    if (process.env.DIFF_STATS) console.log('# outcomes ' + this.name + ': ' + JSON.stringify(this.outcomes));
    const desc = `${this.name}: ${what} (${this.count} requests${this.known ? ', ' + this.known + ' known deviations' : ''})`;
    if (!this.bad.length) return tap(this.count > 0, desc, this.count > 0 ? null : ['no request was sent']);
    const diag = [`${this.bad.length} of ${this.count} requests disagree; first ${Math.min(3, this.bad.length)}:`];
    for (const b of this.bad.slice(0, 3)) {
      diag.push(`${b.op} ${clip(JSON.stringify(b.input), 700)}${b.note ? '  [' + b.note + ']' : ''}`);
      diag.push(`  ${b.d && b.d.expected !== undefined ? 'expected:' : ORACLE + ':'} ${clip(JSON.stringify(b.d), 600)}`);
      diag.push(`  ddbx:     ${clip(JSON.stringify(b.x), 600)}`);
    }
    tap(false, desc, diag);
  }
}

const valuePool = [];

/* ------------------------------------------------------------ groups */

const GROUPS = [];
function group(name, needs, fn) { GROUPS.push({ name, needs, fn }); }

/* dynalite creates tables asynchronously (CREATING, then ACTIVE). */
async function waitGone(dyn, name) {
  for (let i = 0; i < 200; i++) {
    const d = await dyn.call('DescribeTable', { TableName: name });
    if (d.Error) return;
    await new Promise((res) => setTimeout(res, 5));
  }
}
async function waitActive(dyn, name) {
  for (let i = 0; i < 200; i++) {
    const d = await dyn.call('DescribeTable', { TableName: name });
    if (!d.Output || d.Output.Table.TableStatus === 'ACTIVE') return;
    await new Promise((res) => setTimeout(res, 5));
  }
}

group('tables', ['CreateTable', 'DescribeTable', 'ListTables', 'DeleteTable'], async (g) => {
  for (const t of Object.keys(TABLES)) {
    await g.both('CreateTable', createTableInput(t));
    await waitActive(g.dyn, t);
    if (process.env.DIFF_SELF) await waitActive(g.ddbx, t);
  }
  for (const t of Object.keys(TABLES)) await g.both('DescribeTable', { TableName: t });
  await g.both('CreateTable', createTableInput('diff_sn'));            // ResourceInUseException
  await g.both('DescribeTable', { TableName: 'diff_missing' });       // ResourceNotFoundException
  const tmp = createTableInput('diff_h');
  tmp.TableName = 'diff_tmp';
  await g.both('CreateTable', tmp);
  await waitActive(g.dyn, 'diff_tmp');
  if (process.env.DIFF_SELF) await waitActive(g.ddbx, 'diff_tmp');
  await g.both('DeleteTable', { TableName: 'diff_tmp' });
  await waitGone(g.dyn, 'diff_tmp');
  if (process.env.DIFF_SELF) await waitGone(g.ddbx, 'diff_tmp');
  const [d, x] = await Promise.all([g.dyn.call('ListTables', {}), g.ddbx.call('ListTables', {})]);
  g.count++;
  if (cj(d) !== cj(x)) g.mismatch('ListTables', {}, d, x);
  g.report('CreateTable/DescribeTable/DeleteTable/ListTables of S/N/B keys, GSIs, LSI');
});

group('createtable-validation', ['CreateTable'], async (g) => {
  const base = () => createTableInput('diff_sn');
  const cases = [];
  let c = base(); c.TableName = 'v1'; cases.push(c);                            // too short name
  c = base(); c.TableName = 'bad name!'; cases.push(c);
  c = base(); c.TableName = 'diff_v_a'; c.AttributeDefinitions.push({ AttributeName: 'unused', AttributeType: 'S' }); cases.push(c);
  c = base(); c.TableName = 'diff_v_b'; c.AttributeDefinitions = c.AttributeDefinitions.filter((a) => a.AttributeName !== 'sk'); cases.push(c);
  c = base(); c.TableName = 'diff_v_c'; c.KeySchema = [{ AttributeName: 'pk', KeyType: 'RANGE' }]; cases.push(c);
  c = base(); c.TableName = 'diff_v_d'; c.AttributeDefinitions[0].AttributeType = 'BOOL'; cases.push(c);
  c = base(); c.TableName = 'diff_v_e'; c.GlobalSecondaryIndexes[1].IndexName = 'gsi_s'; cases.push(c);
  c = base(); c.TableName = 'diff_v_f'; delete c.KeySchema; cases.push(c);
  c = base(); c.TableName = 'diff_v_g'; c.LocalSecondaryIndexes[0].KeySchema[0].AttributeName = 'g1'; cases.push(c);
  for (const inp of cases) await g.both('CreateTable', inp);
  g.report('invalid CreateTable requests');
});

/* UpdateTable's throughput and billing changes and refusals, tags and
 * DescribeTimeToLive, as dynalite implements them (it has no GSI Create or
 * Delete, no UpdateTimeToLive: those are pinned by tests/data's
 * test_update_table and test_ttl_tags). */
group('update-table and tags', ['CreateTable', 'UpdateTable', 'DescribeTimeToLive', 'TagResource',
  'UntagResource', 'ListTagsOfResource', 'DeleteTable'], async (g) => {
  const T = 'diff_ut', P = 'diff_ut_ppr';
  const prov = { TableName: T, AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'g', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    GlobalSecondaryIndexes: [{ IndexName: 'byG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' },
      ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 2 } }] };
  const ppr = { TableName: P, AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' };
  for (const t of [prov, ppr]) {
    await g.both('CreateTable', t);
    await waitActive(g.dyn, t.TableName);
    if (process.env.DIFF_SELF) await waitActive(g.ddbx, t.TableName);
  }
  const pt = (r, w) => ({ ReadCapacityUnits: r, WriteCapacityUnits: w });
  const cases = [
    { TableName: T },
    { TableName: T, GlobalSecondaryIndexUpdates: [] },
    { TableName: T, ProvisionedThroughput: pt(5, 5) },
    { TableName: T, ProvisionedThroughput: pt(0, 5) },
    { TableName: T, ProvisionedThroughput: pt(1e13, 5) },
    { TableName: T, BillingMode: 'PROVISIONED' },
    { TableName: T, BillingMode: 'SOMETIMES' },
    { TableName: T, GlobalSecondaryIndexUpdates: [{}] },
    { TableName: T, GlobalSecondaryIndexUpdates: [{ Update: { IndexName: 'byG', ProvisionedThroughput: pt(2, 2) } }] },
    { TableName: T, GlobalSecondaryIndexUpdates: [{ Update: { IndexName: 'byG', ProvisionedThroughput: pt(1e13, 2) } }] },
    { TableName: T, GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'byG' } }, { Update: { IndexName: 'byG', ProvisionedThroughput: pt(3, 3) } }] },
    { TableName: T, GlobalSecondaryIndexUpdates: ['a1x', 'a2x', 'a3x', 'a4x', 'a5x', 'a6x'].map((n) => ({ Delete: { IndexName: n } })) },
    { TableName: T, ProvisionedThroughput: pt(6, 5) },
    { TableName: 'diff_missing', ProvisionedThroughput: pt(6, 5) },
    { TableName: P, ProvisionedThroughput: pt(1, 1) },
    { TableName: P, BillingMode: 'PAY_PER_REQUEST' },
  ];
  for (const inp of cases) await g.both('UpdateTable', inp);
  await g.both('DescribeTimeToLive', { TableName: T });
  await g.both('DescribeTimeToLive', { TableName: 'diff_missing' });
  const arn = (t) => 'arn:aws:dynamodb:us-east-1:000000000000:table/' + t;
  const tagCases = [
    ['TagResource', { ResourceArn: arn(T), Tags: [{ Key: 'team', Value: 'graph' }, { Key: 'env', Value: 'dev' }] }],
    ['ListTagsOfResource', { ResourceArn: arn(T) }],
    ['TagResource', { ResourceArn: arn(T), Tags: [{ Key: 'env', Value: 'prod' }] }],
    ['UntagResource', { ResourceArn: arn(T), TagKeys: ['team', 'absent'] }],
    ['ListTagsOfResource', { ResourceArn: arn(T) }],
    ['TagResource', { ResourceArn: arn(T), Tags: [] }],
    ['TagResource', { ResourceArn: arn(T) }],
    ['TagResource', { Tags: [{ Key: 'a', Value: 'b' }] }],
    ['TagResource', { ResourceArn: arn('diff_missing'), Tags: [{ Key: 'a', Value: 'b' }] }],
    ['TagResource', { ResourceArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/x', Tags: [{ Key: 'a', Value: 'b' }] }],
    ['UntagResource', { ResourceArn: arn(T), TagKeys: [] }],
    ['UntagResource', { ResourceArn: arn('diff_missing'), TagKeys: ['a'] }],
    ['ListTagsOfResource', { ResourceArn: arn('diff_missing') }],
    ['ListTagsOfResource', { ResourceArn: arn(P) }],
  ];
  for (const [op, inp] of tagCases) await g.both(op, inp);
  for (const t of [T, P]) {
    await g.both('DeleteTable', { TableName: t });
    await waitGone(g.dyn, t);
    if (process.env.DIFF_SELF) await waitGone(g.ddbx, t);
  }
  g.report('UpdateTable throughput, billing and refusals; TagResource/UntagResource/ListTagsOfResource; DescribeTimeToLive');
});

/* Items written by the put/get/delete group, reused as value pools. */
async function putGetDelete(g, tname, n) {
  const r = g.r;
  const keys = [];
  for (let i = 0; i < n; i++) {
    const op = r.int(10);
    if (op < 5 || !keys.length) {
      const item = genItem(r, tname, keys.length && r.chance(0.3) ? r.pick(keys) : null);
      collectValues(item, valuePool);
      const input = { TableName: tname, Item: item };
      if (r.chance(0.5)) input.ReturnValues = r.chance(0.05) ? 'ALL_NEW' : r.pick(['NONE', 'ALL_OLD']);
      if (r.chance(0.3)) input.ReturnConsumedCapacity = r.pick(['TOTAL', 'INDEXES', 'NONE']);
      const [d, , ok] = await g.both('PutItem', input);
      if (d.Output) keys.push(keyOf(tname, item));
      if (!ok) await g.resync(tname, keyOf(tname, item));
    } else if (op < 8) {
      const key = r.chance(0.8) ? r.pick(keys) : genKey(r, tname);
      const input = { TableName: tname, Key: key };
      if (r.chance(0.3)) input.ConsistentRead = r.chance(0.5);
      if (r.chance(0.3)) input.ReturnConsumedCapacity = r.pick(['TOTAL', 'INDEXES']);
      if (r.chance(0.25)) {
        const c = new Ctx(r, valuePool);
        const ps = [];
        for (let j = r.range(1, 3); j > 0; j--) ps.push(c.path(ATTR_NAMES.concat(Object.keys(key))));
        input.ProjectionExpression = ps.join(', ');
        c.attach(input);
      }
      await g.both('GetItem', input);
    } else {
      const key = r.chance(0.8) ? r.pick(keys) : genKey(r, tname);
      const input = { TableName: tname, Key: key };
      if (r.chance(0.5)) input.ReturnValues = r.pick(['NONE', 'ALL_OLD']);
      if (r.chance(0.3)) input.ReturnConsumedCapacity = 'TOTAL';
      const [, , ok] = await g.both('DeleteItem', input);
      if (!ok) await g.resync(tname, key);
    }
  }
}

for (const t of Object.keys(TABLES)) {
  group('put-get-delete ' + t, ['CreateTable', 'PutItem', 'GetItem', 'DeleteItem'], async (g) => {
    await putGetDelete(g, t, 400);
    await g.checkState(t);
    g.report('random items of every type, ReturnValues, projections, capacity');
  });
}

async function conditional(g, tname, n) {
  const r = g.r;
  const t = TABLES[tname];
  const keyNames = [t.hash[0]].concat(t.range ? [t.range[0]] : []);
  const names = ATTR_NAMES.concat(keyNames);
  for (let i = 0; i < n; i++) {
    const c = new Ctx(r, valuePool);
    const cond = genCond(c, names, 3);
    const key = genKey(r, tname);
    let op; let input;
    if (r.chance(0.6)) {
      const item = genItem(r, tname, key);
      collectValues(item, valuePool);
      op = 'PutItem';
      input = { TableName: tname, Item: item, ConditionExpression: cond };
      if (r.chance(0.4)) input.ReturnValues = r.pick(['NONE', 'ALL_OLD']);
    } else {
      op = 'DeleteItem';
      input = { TableName: tname, Key: key, ConditionExpression: cond };
      if (r.chance(0.4)) input.ReturnValues = r.pick(['NONE', 'ALL_OLD']);
    }
    if (r.chance(0.2)) input.ReturnValuesOnConditionCheckFailure = r.pick(['ALL_OLD', 'NONE']);
    c.attach(input);
    const [, , ok] = await g.both(op, input);
    if (!ok) await g.resync(tname, key);
    // Keep the table populated: deletes would empty it over time.
    if (op === 'DeleteItem' && r.chance(0.7)) {
      const item = genItem(r, tname, key);
      collectValues(item, valuePool);
      const [, , ok2] = await g.both('PutItem', { TableName: tname, Item: item });
      if (!ok2) await g.resync(tname, key);
    }
  }
}

for (const t of Object.keys(TABLES)) {
  group('conditions ' + t, ['PutItem', 'DeleteItem'], async (g) => {
    await conditional(g, t, t === 'diff_sn' ? 200 : 100);
    await g.checkState(t);
    g.report('PutItem/DeleteItem with generated ConditionExpressions');
  });
}

/* The item as dynalite holds it (null: none). */
async function dynaliteItem(g, tname, key) {
  const cur = await g.dyn.call('GetItem', { TableName: tname, Key: key, ConsistentRead: true });
  return cur.Output && cur.Output.Item ? cur.Output.Item : null;
}

async function updates(g, tname, n) {
  const r = g.r;
  const t = TABLES[tname];
  const keyNames = [t.hash[0]].concat(t.range ? [t.range[0]] : []);
  for (let i = 0; i < n; i++) {
    const c = new Ctx(r, valuePool);
    const key = genKey(r, tname);
    // The current item (from dynalite) steers the update towards paths
    // and operations that fit it.
    const item = await dynaliteItem(g, tname, key);
    const indexKeys = {};
    for (const ix of t.gsis.concat(t.lsis)) for (const ka of [ix.hash, ix.range]) if (ka && !keyNames.includes(ka[0])) indexKeys[ka[0]] = ka[1];
    const input = { TableName: tname, Key: key, UpdateExpression: genUpdate(c, item, keyNames, true, indexKeys) };
    if (r.chance(0.2)) input.ConditionExpression = genCond(c, ATTR_NAMES.concat(keyNames), 1);
    if (r.chance(0.7)) input.ReturnValues = r.pick(['NONE', 'ALL_OLD', 'UPDATED_OLD', 'ALL_NEW', 'UPDATED_NEW']);
    if (r.chance(0.2)) input.ReturnConsumedCapacity = r.pick(['TOTAL', 'INDEXES']);
    c.attach(input);
    const [d, , ok] = await g.both('UpdateItem', input);
    if (!ok) await g.resync(tname, key);
    if (d.Output && d.Output.Attributes) collectValues(d.Output.Attributes, valuePool);
  }
}

for (const t of Object.keys(TABLES)) {
  group('updates ' + t, ['PutItem', 'UpdateItem', 'GetItem'], async (g) => {
    await updates(g, t, t === 'diff_sn' ? 250 : 120);
    await g.checkState(t);
    g.report('UpdateItem with generated SET/REMOVE/ADD/DELETE');
  });
}

/* Follows LastEvaluatedKey on both sides while they agree. */
async function paginate(g, op, input, maxPages, opts) {
  let start;
  for (let page = 0; page < maxPages; page++) {
    const inp = Object.assign({}, input);
    if (start) inp.ExclusiveStartKey = start;
    const [d, x, ok] = await g.both(op, inp, opts);
    if (!ok || !d.Output || !d.Output.LastEvaluatedKey) return;
    start = d.Output.LastEvaluatedKey;
  }
}

/*
 * Index queries: items with equal index keys come in no defined order
 * (dynalite orders them by a hash of the table key), so pages cannot be
 * compared one by one. Compared instead: the whole result over all pages
 * as a set, the sequence of index key values, and the summed counts.
 */
async function indexQuery(g, input, hash, range) {
  const collect = async (cl) => {
    const items = []; let start; let count = 0; let scanned = 0;
    for (let page = 0; page < 200; page++) {
      const inp = Object.assign({}, input);
      if (start) inp.ExclusiveStartKey = start;
      const a = await cl.call('Query', inp);
      if (a.Error) return page ? { Error: { Code: a.Error.Code, Message: a.Error.Message, page } } : a;
      if (a.Output.Items) items.push(...a.Output.Items);
      count += a.Output.Count; scanned += a.Output.ScannedCount;
      if (!a.Output.LastEvaluatedKey) break;
      start = a.Output.LastEvaluatedKey;
    }
    const keyseq = items.map((it) => cj([it[hash[0]], range ? it[range[0]] : null]));
    return { Output: { Items: items.map(cj).sort(), Count: count, ScannedCount: scanned, KeyOrder: keyseq } };
  };
  g.count++;
  const [d, x] = await Promise.all([collect(g.dyn), collect(g.ddbx)]);
  const comp = (a) => (a.Error ? comparable('Query', { Error: { Code: a.Error.Code, Message: a.Error.Message } }) : a);
  if (cj(comp(d)) === cj(comp(x))) return;
  const k = KNOWN.find((kd) => kd.match('Query', input, d, x));
  if (k) { g.known++; knownCount.set(k, (knownCount.get(k) || 0) + 1); return; }
  g.mismatch('Query', input, d, x, 'all pages of an index query');
}

function keyCondition(r, c, hashName, hashVal, range, skPool) {
  let kc = c.name(hashName) + ' = ' + c.value(hashVal);
  if (range && r.chance(0.75)) {
    const rn = c.name(range[0]);
    const v = () => keyValue(r, range[1], skPool);
    const k = r.int(8);
    if (k < 5) {
      const opx = r.pick(['=', '<', '<=', '>', '>=']);
      kc += ' AND ' + (r.chance(0.8) ? rn + ' ' + opx + ' ' + c.value(v()) : c.value(v()) + ' ' + opx + ' ' + rn);
    } else if (k < 7) {
      let a = v(); let b = v();
      kc += ' AND ' + rn + ' BETWEEN ' + c.value(a) + ' AND ' + c.value(b);
    } else if (range[1] !== 'N') {
      const full = v()[range[1]];
      const pre = range[1] === 'S' ? { S: Array.from(full).slice(0, r.int(4)).join('') } : { B: r.pick(['AA==', 'AQ==', '/w==']) };
      kc += ' AND begins_with(' + rn + ', ' + c.value(pre) + ')';
    } else {
      kc += ' AND ' + rn + ' >= ' + c.value(v());
    }
  }
  return r.chance(0.2) ? kc.split(' AND ').reverse().join(' AND ') : kc;
}

async function queries(g, tname, n) {
  const r = g.r;
  const t = TABLES[tname];
  const keyNames = [t.hash[0]].concat(t.range ? [t.range[0]] : []);
  const ixs = [null].concat(t.gsis, t.lsis);
  for (let i = 0; i < n; i++) {
    const c = new Ctx(r, valuePool);
    const ix = r.pick(ixs);
    let input;
    if (!ix) {
      const hv = keyValue(r, t.hash[1], t.pkPool);
      input = { TableName: tname, KeyConditionExpression: keyCondition(r, c, t.hash[0], hv, t.range, t.skPool) };
    } else {
      const hash = ix.hash || t.hash;
      const pool = ix.hash ? (hash[1] === 'S' ? (rr) => rr.pick(['g#1', 'g#2', '노래', 'TARGET#bob', 'PROFILE', 'd#3', 'A'])
        : hash[1] === 'N' ? (rr) => String(rr.int(8)) : (rr) => rr.pick(['AA==', 'AQ==', 'Ag=='])) : t.pkPool;
      const hv = keyValue(r, hash[1], pool);
      input = { TableName: tname, IndexName: ix.name, KeyConditionExpression: keyCondition(r, c, hash[0], hv, ix.range, null) };
    }
    // An LSI query asks only for what the LSI holds: DynamoDB fetches
    // the rest from the table, dynalite does not (docs group).
    const lsi = ix && !ix.hash;
    const visible = lsi ? keyNames.concat([ix.range[0]], ix.proj.NonKeyAttributes || []) : ATTR_NAMES.concat(keyNames);
    if (r.chance(0.35)) input.FilterExpression = genCond(c, lsi ? visible.filter((n) => !keyNames.includes(n)) : ATTR_NAMES, 2);
    if (r.chance(0.25)) {
      // A KEYS_ONLY or INCLUDE GSI is mostly asked for what it projects:
      // asking for more is refused by DynamoDB (see gsi-unprojected-attributes).
      const held = gsiHolds(t, ix, keyNames);
      const narrow = held && r.chance(0.7);
      const ps = [];
      for (let j = r.range(1, 4); j > 0; j--) ps.push(lsi ? c.name(r.pick(visible)) : narrow ? c.name(r.pick(held)) : c.path(visible));
      input.ProjectionExpression = ps.join(', ');
    } else if (r.chance(0.15)) {
      // (ALL_PROJECTED_ATTRIBUTES only with an index: see select-and-projection)
      input.Select = r.pick(lsi ? ['COUNT', 'ALL_PROJECTED_ATTRIBUTES'] : ix ? ['COUNT', 'ALL_ATTRIBUTES', 'ALL_PROJECTED_ATTRIBUTES'] : ['COUNT', 'ALL_ATTRIBUTES']);
    }
    if (r.chance(0.4)) input.ScanIndexForward = r.chance(0.5);
    if (r.chance(0.5)) input.Limit = r.range(1, 7);
    if (r.chance(0.1)) input.ConsistentRead = true;
    if (r.chance(0.3)) input.ReturnConsumedCapacity = r.pick(['TOTAL', 'INDEXES']);
    c.attach(input);
    if (!ix) await paginate(g, 'Query', input, 40);
    else await indexQuery(g, input, ix.hash || t.hash, ix.range);
  }
}

for (const t of Object.keys(TABLES)) {
  group('query ' + t, ['Query', 'PutItem'], async (g) => {
    await queries(g, t, 150);
    g.report('Query: key conditions on base table, GSIs, LSI; filters, projections, order, Limit, pagination');
  });
}

async function scans(g, tname, n) {
  const r = g.r;
  const t = TABLES[tname];
  const ixs = [null].concat(t.gsis, t.lsis);
  for (let i = 0; i < n; i++) {
    const c = new Ctx(r, valuePool);
    const ix = r.pick(ixs);
    const input = { TableName: tname };
    if (ix) input.IndexName = ix.name;
    const lsi = ix && !ix.hash;       // see queries(): only what an LSI holds
    if (r.chance(0.5)) input.FilterExpression = genCond(c, lsi ? ['a', 'b'] : ATTR_NAMES, 2);
    const held = gsiHolds(t, ix, [t.hash[0]].concat(t.range ? [t.range[0]] : []));
    if (r.chance(0.2)) {
      input.ProjectionExpression = held && r.chance(0.7) ? r.sample(held, r.range(1, 3)).map((nm) => c.name(nm)).join(', ')
        : (lsi ? ['a', 'b'] : ['a', 'b', c.path(ATTR_NAMES)]).slice(r.int(2)).join(', ');
    } else if (r.chance(0.25)) input.Select = 'COUNT';
    if (r.chance(0.2)) input.ReturnConsumedCapacity = 'TOTAL';
    c.attach(input);
    // Scan order is the implementation's (dynalite: hash order); only an
    // unlimited scan is comparable, as a set of items.
    await g.both('Scan', input);
  }
  // Limit and pagination: the union of all pages, and the page count sum.
  for (let i = 0; i < 6; i++) {
    const limit = r.range(1, 9);
    const all = async (cl) => {
      const items = []; let start; let pages = 0; let count = 0;
      for (;;) {
        const inp = { TableName: tname, Limit: limit };
        if (start) inp.ExclusiveStartKey = start;
        const a = await cl.call('Scan', inp);
        if (a.Error) return a;
        items.push(...a.Output.Items); count += a.Output.Count; pages++;
        if (!a.Output.LastEvaluatedKey || pages > 2000) break;
        start = a.Output.LastEvaluatedKey;
      }
      return { Output: { Items: items.map(cj).sort(), Count: count } };
    };
    g.count++;
    const [d, x] = await Promise.all([all(g.dyn), all(g.ddbx)]);
    if (cj(d) !== cj(x)) g.mismatch('Scan', { TableName: tname, Limit: limit, note: 'all pages' }, d, x, 'union of paginated pages');
  }
}

/* Parallel scan: the segments together hold every item exactly once. */
async function segmentScans(g, tname) {
  for (const total of [2, 3, 5]) {
    const all = async (cl) => {
      const items = []; let count = 0;
      for (let seg = 0; seg < total; seg++) {
        let start;
        for (let page = 0; page < 500; page++) {
          const inp = { TableName: tname, Segment: seg, TotalSegments: total, Limit: 7 };
          if (start) inp.ExclusiveStartKey = start;
          const a = await cl.call('Scan', inp);
          if (a.Error) return a;
          items.push(...a.Output.Items); count += a.Output.Count;
          if (!a.Output.LastEvaluatedKey) break;
          start = a.Output.LastEvaluatedKey;
        }
      }
      const keys = items.map((i) => cj(keyOf(tname, i)));
      return { Output: { Items: items.map(cj).sort(), Count: count, Duplicates: keys.length - new Set(keys).size } };
    };
    g.count++;
    const [d, x] = await Promise.all([all(g.dyn), all(g.ddbx)]);
    if (cj(d) !== cj(x)) g.mismatch('Scan', { TableName: tname, TotalSegments: total, note: 'all segments, all pages' }, d, x, 'union of segments');
  }
}

for (const t of Object.keys(TABLES)) {
  group('scan ' + t, ['Scan'], async (g) => {
    await scans(g, t, 40);
    await segmentScans(g, t);
    g.report('Scan of table and indexes with filters/projections/COUNT (items as sets); paginated and segmented unions');
  });
}

group('batch', ['BatchWriteItem', 'BatchGetItem', 'GetItem'], async (g) => {
  const r = g.r;
  const tn = Object.keys(TABLES);
  const written = [];
  for (let i = 0; i < 60; i++) {
    const req = {};
    const seen = new Set();
    for (let j = r.range(1, 25); j > 0; j--) {
      const t = r.pick(tn);
      const old = written.length && r.chance(0.4) ? r.pick(written) : null;
      const key = old ? old.key : genKey(r, t);
      const tk = old ? old.t : t;
      const id = tk + cj(key);
      if (seen.has(id) && !r.chance(0.05)) continue;                // rare duplicates: a ValidationException
      seen.add(id);
      (req[tk] = req[tk] || []).push(r.chance(0.75) ? { PutRequest: { Item: genItem(r, tk, key) } } : { DeleteRequest: { Key: key } });
      written.push({ t: tk, key });
    }
    const input = { RequestItems: req };
    if (r.chance(0.3)) input.ReturnConsumedCapacity = r.pick(['TOTAL', 'INDEXES']);
    const [, , ok] = await g.both('BatchWriteItem', input);
    if (!ok) for (const [t, reqs] of Object.entries(req)) for (const q of reqs) await g.resync(t, q.DeleteRequest ? q.DeleteRequest.Key : keyOf(t, q.PutRequest.Item));
  }
  for (let i = 0; i < 60; i++) {
    const req = {};
    const seen = new Set();
    for (let j = r.range(1, 40); j > 0; j--) {
      const w = written.length && r.chance(0.7) ? r.pick(written) : { t: r.pick(tn), key: null };
      const key = w.key || genKey(r, w.t);
      const id = w.t + cj(key);
      if (seen.has(id) && !r.chance(0.05)) continue;
      seen.add(id);
      req[w.t] = req[w.t] || { Keys: [] };
      req[w.t].Keys.push(key);
      if (r.chance(0.1)) req[w.t].ConsistentRead = true;
    }
    const input = { RequestItems: req };
    if (r.chance(0.3)) input.ReturnConsumedCapacity = 'TOTAL';
    await g.both('BatchGetItem', input);
  }
  for (const t of tn) await g.checkState(t);
  g.report('BatchWriteItem (puts/deletes across tables) and BatchGetItem');
});

/*
 * Item sizes and capacity units, strictly: ASCII-only items (so dynalite's
 * UTF-16 sizing is exact) on a table without indexes, padded to within a
 * few bytes of the 1 KB write-unit and 4 KB read-unit boundaries and of
 * the 400 KB item limit.
 */
function estSize(item) {
  const val = (v) => {
    const t = Object.keys(v)[0]; const x = v[t];
    switch (t) {
      case 'S': return Buffer.byteLength(x, 'utf8');
      case 'B': return Buffer.from(x, 'base64').length;
      case 'N': {
        const digits = numKey(x).replace(/^-/, '').replace(/e.*$/, '');
        if (digits === '0') return 1;
        return 1 + Math.ceil(digits.length / 2) + (x.startsWith('-') ? 1 : 0);
      }
      case 'SS': return x.reduce((n, e) => n + Buffer.byteLength(e, 'utf8'), 0);
      case 'BS': return x.reduce((n, e) => n + Buffer.from(e, 'base64').length, 0);
      case 'NS': return x.reduce((n, e) => n + val({ N: e }), 0);
      case 'L': return 3 + x.reduce((n, e) => n + 1 + val(e), 0);
      case 'M': return 3 + Object.keys(x).length + estSize(x);
      default: return 1;
    }
  };
  return Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k, 'utf8') + val(v), 0);
}

group('capacity and item size', ['CreateTable', 'PutItem', 'GetItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan'], async (g) => {
  const r = g.r;
  const T = 'diff_cap';
  await g.both('CreateTable', { TableName: T, KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST' });
  await waitActive(g.dyn, T);
  if (process.env.DIFF_SELF) await waitActive(g.ddbx, T);
  const asciiExtra = () => r.pick([
    { N: digits(r, r.range(1, 38), true) }, { N: '-' + digits(r, r.range(1, 20), true) + '.' + digits(r, 5, false) + '1' },
    { N: '0' }, { N: '1' + '0'.repeat(r.int(30)) }, { B: genBinary(r, 40) }, { BOOL: true }, { NULL: true },
    { L: [{ N: '12' }, { S: 'abc' }, { M: { q: { S: 'x' } } }] }, { M: { aa: { N: '3' }, bb: { SS: ['x', 'yz'] } } },
    { SS: ['a', 'bb', 'ccc'] }, { NS: ['1', '22', '-3.5'] }, { BS: ['AAE=', 'AgME'] }]);
  let n = 0;
  for (const target of [1024, 2048, 4096, 8192, 12288, 409600]) {
    for (let delta = -2; delta <= 2; delta++) {
      const key = { pk: { S: 'cap#' + n++ } };
      const item = Object.assign({ x: asciiExtra() }, key, { pad: { S: '' } });
      const len = target + delta - estSize(item);
      item.pad.S = 'p'.repeat(Math.max(1, len));
      const tc = r.pick(['TOTAL', 'INDEXES']);
      await g.both('PutItem', { TableName: T, Item: item, ReturnConsumedCapacity: tc });
      await g.both('GetItem', { TableName: T, Key: key, ReturnConsumedCapacity: tc, ConsistentRead: r.chance(0.5) });
      await g.both('Query', { TableName: T, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': key.pk }, ReturnConsumedCapacity: tc });
      await g.both('UpdateItem', { TableName: T, Key: key, UpdateExpression: 'SET #p = :s', ExpressionAttributeNames: { '#p': 'pad' }, ExpressionAttributeValues: { ':s': { S: 'q'.repeat(r.int(3000)) } },
        ReturnConsumedCapacity: tc, ReturnValues: 'UPDATED_OLD' });
      if (r.chance(0.3)) await g.both('DeleteItem', { TableName: T, Key: key, ReturnConsumedCapacity: tc, ReturnValues: 'ALL_OLD' });
    }
  }
  await g.both('Scan', { TableName: T, ReturnConsumedCapacity: 'TOTAL' });
  await g.both('Scan', { TableName: T, ReturnConsumedCapacity: 'TOTAL', ConsistentRead: true, Select: 'COUNT' });
  g.report('ConsumedCapacity and the 400 KB limit at item sizes around 1 KB, 4 KB and 400 KB boundaries');
});

/*
 * The expression language alone: `ddbx eval` (no store) against dynalite.
 * A condition's verdict is dynalite's answer to a conditional put of the
 * item over itself (Output: true; ConditionalCheckFailed: false); an
 * update's result is dynalite's ALL_NEW. Table diff_eval has no indexes,
 * so only the expression decides.
 */
function ddbxEval(kind, expr, input, item) {
  // diff_eval's key schema, as the store knows its table's (paths into a
  // key attribute are refused).
  const args = ['eval', expr, '--kind', kind, '--item', JSON.stringify(item), '--key-schema', 'pk:S,sk:N'];
  if (input.ExpressionAttributeNames) args.push('--names', JSON.stringify(input.ExpressionAttributeNames));
  if (input.ExpressionAttributeValues) args.push('--values', JSON.stringify(input.ExpressionAttributeValues));
  const p = spawnSync(DDBX, args, { encoding: 'utf8', timeout: 20000 });
  if (p.error) throw new Error('cannot run ddbx eval: ' + p.error.message);
  const out = p.stdout.split('\n');
  if (p.status === 0) {
    if (kind === 'update') {
      const l = out.find((x) => x.startsWith('item: '));
      if (l) return { Output: { Attributes: JSON.parse(l.slice(6)) } };
    } else {
      const l = out.find((x) => x.startsWith('verdict: '));
      if (l === 'verdict: true') return { Output: {} };
      if (l === 'verdict: false') return { Error: { Code: 'ConditionalCheckFailedException', Message: 'The conditional request failed' } };
    }
    return { Error: { Code: 'EvalOutputNotUnderstood', Message: clip(p.stdout, 300) } };
  }
  const m = /^(\w+): (.*)$/m.exec(p.stderr);
  return m ? { Error: { Code: m[1], Message: m[2] } } : { Error: { Code: 'EvalFailed', Message: `exit ${p.status}: ${clip(p.stderr, 300)}` } };
}

async function evalGroup(g, kind, n) {
  const r = g.r;
  const T = 'diff_eval';
  const c0 = await g.dyn.call('DescribeTable', { TableName: T });
  if (c0.Error) {
    await g.dyn.call('CreateTable', { TableName: T, KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'N' }], BillingMode: 'PAY_PER_REQUEST' });
    await waitActive(g.dyn, T);
  }
  const keyNames = ['pk', 'sk'];
  for (let i = 0; i < n; i++) {
    const key = { pk: { S: 'eval' }, sk: { N: String(i) } };
    const item = Object.assign({}, key);
    for (const nm of r.sample(ATTR_NAMES, r.range(2, 9))) item[nm] = isScalarName(nm) ? genScalar(r) : genValue(r, 3);
    collectValues(item, valuePool);
    const put = await g.dyn.call('PutItem', { TableName: T, Item: item });
    if (put.Error) throw new Error('dynalite refused a generated item: ' + JSON.stringify(put.Error));
    const stored = (await g.dyn.call('GetItem', { TableName: T, Key: key, ConsistentRead: true })).Output.Item;
    const c = new Ctx(r, valuePool);
    let input; let d; let x;
    if (kind === 'condition') {
      input = c.attach({ TableName: T, Item: stored, ConditionExpression: genCond(c, ATTR_NAMES.concat(keyNames), 3) });
      d = await g.dyn.call('PutItem', input);
      x = ddbxEval('condition', input.ConditionExpression, input, stored);
    } else {
      input = c.attach({ TableName: T, Key: key, UpdateExpression: genUpdate(c, stored, keyNames, false), ReturnValues: 'ALL_NEW' });
      d = await g.dyn.call('UpdateItem', input);
      x = ddbxEval('update', input.UpdateExpression, input, stored);
    }
    g.count++;
    const oc = 'eval:' + (d.Error ? d.Error.Code : 'ok');
    g.outcomes[oc] = (g.outcomes[oc] || 0) + 1;
    if (agree('UpdateItem', d, x)) continue;
    const req = Object.assign({ item: stored }, input);
    const k = KNOWN.find((kd) => kd.match(kind === 'update' ? 'UpdateItem' : 'PutItem', req, d, x));
    if (k) { g.known++; knownCount.set(k, (knownCount.get(k) || 0) + 1); continue; }
    g.mismatch('ddbx eval --kind ' + kind, req, d, x);
  }
}

group('eval conditions', ['eval'], async (g) => {
  await evalGroup(g, 'condition', 300);
  g.report('ddbx eval of generated ConditionExpressions vs dynalite conditional puts');
});
group('eval updates', ['eval'], async (g) => {
  await evalGroup(g, 'update', 300);
  g.report('ddbx eval of generated UpdateExpressions vs dynalite UpdateItem ALL_NEW');
});

/* UpdateExpressions as the condition builder prints them, with the nested
 * operands its update form builds (if_not_exists and list_append inside
 * each other and on either side of + and -), each applied twice. */
group('builder update operands', ['PutItem', 'UpdateItem'], async (g) => {
  const T = 'diff_sn';
  const k = { pk: { S: 'BUILDER#nested' }, sk: { N: '1' } };
  await g.both('PutItem', { TableName: T, Item: Object.assign({
    b: { N: '4' }, c: { M: { d: { N: '2' } } }, q: { L: [{ S: 'z' }, { M: { r: { S: 'deep' } } }] },
    tmp: { L: [{ S: '1' }, { S: '2' }] }, x: { M: { y: { L: [{ N: '0' }, { N: '1' }, { N: '2' }] } } },
    s2: { SS: ['a', 'c'] } }, k) });
  const values = {
    ':a': { N: '0' }, ':a_1': { N: '1' }, ':b': { N: '10' }, ':l': { L: [] }, ':l_1': { L: [{ S: 'n' }] },
    ':m': { L: [{ S: 'f' }] }, ':m_1': { L: [{ N: '7' }] }, ':n': { N: '1' }, ':s': { SS: ['a', 'b'] }, ':s2': { SS: ['a', 'b'] },
  };
  // (A list_append inside a list_append or as an if_not_exists default is
  // refused by DynamoDB, and by the builder: model/builder_req.c.)
  const texts = [
    'SET a = if_not_exists(a, :a) + :a_1, b = :b - if_not_exists(c.d, b), l = list_append(if_not_exists(l, :l), :l_1),'
      + ' m = list_append(:m, if_not_exists(m, if_not_exists(q, :m_1))), p = q[1].r REMOVE tmp[0], x.y[2] ADD n :n, s :s DELETE s2 :s2',
    'SET l = list_append(if_not_exists(l, if_not_exists(nope, :m)), if_not_exists(nope, :m_1))',
    'SET a = :a_1 - if_not_exists(a, :a), m = if_not_exists(nope, if_not_exists(q, :m))',
    'SET m = list_append(if_not_exists(nope, q), :m_1)',
  ];
  for (const t of texts) {
    const vs = {};
    for (const v of Object.keys(values)) if (t.includes(v + ',') || t.includes(v + ')') || t.endsWith(v) || t.includes(v + ' ')) vs[v] = values[v];
    const input = { TableName: T, Key: k, UpdateExpression: t, ExpressionAttributeValues: vs, ReturnValues: 'ALL_NEW' };
    await g.both('UpdateItem', input);
    await g.both('UpdateItem', input);
  }
  g.report('UpdateItem with nested if_not_exists/list_append operands, as the builder prints them');
});

/* Hand-written requests DynamoDB rejects: each must be rejected alike. */
group('validation', ['PutItem', 'GetItem', 'DeleteItem', 'UpdateItem', 'Query', 'Scan', 'DescribeTable', 'DeleteTable'], async (g) => {
  const T = 'diff_sn';
  const k = { pk: { S: 'ACTOR#alice' }, sk: { N: '1' } };
  const cases = [
    ['PutItem', { TableName: T, Item: { pk: { S: 'x' } } }],                         // missing range key
    ['PutItem', { TableName: T, Item: { pk: { N: '1' }, sk: { N: '1' } } }],         // wrong key type
    ['PutItem', { TableName: T, Item: { pk: { S: '' }, sk: { N: '1' } } }],          // empty key string
    ['PutItem', { TableName: T, Item: { pk: { S: 'x' }, sk: { N: '1' }, g1: { N: '5' } } }], // GSI key wrong type
    ['PutItem', { TableName: T, Item: { pk: { S: 'x' }, sk: { N: '1' }, g1: { S: '' } } }],  // empty GSI key
    ['PutItem', { TableName: 'diff_missing', Item: k }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { SS: [] } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { SS: ['x', 'x'] } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { NS: ['1', '1.0'] } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { N: '1e126' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { N: '1e-131' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { N: '1' + '0'.repeat(38) + '1' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { N: 'abc' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { S: 'x', N: '1' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: {} }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { S: 'x'.repeat(400 * 1024) } }, k) }],
    ['PutItem', { TableName: T, Item: k, ReturnValues: 'ALL_NEW' }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'a = :v' }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'a = :v', ExpressionAttributeValues: { ':v': { S: 'x' }, ':w': { S: 'y' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: '#a = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'a = :v', ExpressionAttributeNames: { '#u': 'u' }, ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'status = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'size(a)', ExpressionAttributeValues: {} }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'a BETWEEN :b AND :a', ExpressionAttributeValues: { ':a': { N: '1' }, ':b': { N: '2' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'foo(a)' }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'begins_with(a, :n)', ExpressionAttributeValues: { ':n': { N: '1' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'attribute_type(a, :t)', ExpressionAttributeValues: { ':t': { S: 'X' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: '((a = :v))', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: 'a = :v', ExpressionAttributeValues: { ':v': { S: 'x' } }, Expected: { a: { Exists: false } } }],
    ['PutItem', { TableName: T, Item: k, ConditionExpression: '' }],
    ['GetItem', { TableName: T, Key: { pk: { S: 'x' } } }],
    ['GetItem', { TableName: T, Key: Object.assign({ a: { S: 'x' } }, k) }],
    ['GetItem', { TableName: T, Key: k, ProjectionExpression: 'a, a' }],
    ['GetItem', { TableName: T, Key: k, ProjectionExpression: 'a, a.b' }],
    ['GetItem', { TableName: T, Key: k, ProjectionExpression: 'a', ExpressionAttributeNames: { '#x': 'x' } }],
    ['DeleteItem', { TableName: T, Key: k, ReturnValues: 'ALL_NEW' }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET pk = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET a = :v, a.b = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET a = :v REMOVE a', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET a = :v SET b = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'ADD a :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'DELETE a :v', ExpressionAttributeValues: { ':v': { N: '1' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET a = b + :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET a[0] = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET a = list_append(:v, :v)', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': { S: 'x' } }, ReturnValues: 'SOME' }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'SET g1 = :v', ExpressionAttributeValues: { ':v': { N: '1' } } }],
    ['UpdateItem', { TableName: T, Key: k, UpdateExpression: 'REMOVE a SET' }],
    ['Query', { TableName: T, KeyConditionExpression: 'sk = :v', ExpressionAttributeValues: { ':v': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND a = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v OR sk = :n', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v', ExpressionAttributeValues: { ':v': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND begins_with(sk, :n)', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v', FilterExpression: 'sk > :n', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, IndexName: 'nope', KeyConditionExpression: 'pk = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, IndexName: 'gsi_s', ConsistentRead: true, KeyConditionExpression: 'g1 = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, IndexName: 'gsi_b', Select: 'ALL_ATTRIBUTES', KeyConditionExpression: 'gb = :v', ExpressionAttributeValues: { ':v': { B: 'AA==' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v', Limit: 0, ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v', Select: 'COUNT', ProjectionExpression: 'a', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v', ExclusiveStartKey: { pk: { S: 'y' }, sk: { N: '1' } }, ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Scan', { TableName: T, Segment: 1 }],
    ['Scan', { TableName: T, Limit: -1 }],
    ['Scan', { TableName: T, FilterExpression: 'a = :v' }],
    ['Scan', { TableName: T, Segment: 0, TotalSegments: 0 }],
    ['Scan', { TableName: T, Segment: 2, TotalSegments: 2 }],
    ['Scan', { TableName: T, TotalSegments: 2 }],
    ['Scan', { TableName: T, Select: 'SPECIFIC_ATTRIBUTES' }],
    ['Scan', { TableName: T, IndexName: 'gsi_b', Select: 'ALL_ATTRIBUTES' }],
    ['Scan', { TableName: T, ExpressionAttributeNames: {} }],
    ['Scan', { TableName: T, FilterExpression: 'a = :v', ExpressionAttributeValues: {} }],
    ['Scan', { TableName: T, FilterExpression: 'a = :v', ExpressionAttributeValues: { ':v': { S: 'x' }, v: { S: 'y' } } }],
    ['Scan', { TableName: T, FilterExpression: '#a = :v', ExpressionAttributeNames: { a: 'a' }, ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Scan', { TableName: T, FilterExpression: 'a IN (' + Array.from({ length: 101 }, (_, i) => ':v' + i).join(', ') + ')',
      ExpressionAttributeValues: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [':v' + i, { N: String(i) }])) }],
    ['Scan', { TableName: T, FilterExpression: 'attribute_exists(' + 'a' + '.b'.repeat(32) + ')' }],
    ['Scan', { TableName: T, FilterExpression: 'attribute_exists(a' + '.b'.repeat(31) + ')' }],
    ['Scan', { TableName: T, FilterExpression: 'attribute_exists(a) AND ' + 'size(a) > :n AND '.repeat(250) + 'attribute_exists(b)', ExpressionAttributeValues: { ':n': { N: '1' } } }],
    ['Scan', { TableName: T, FilterExpression: 'size(a) > size(b)' }],
    ['Scan', { TableName: T, FilterExpression: 'a = :v AND b = :v', ExpressionAttributeValues: { ':v': { M: { x: { S: 'y' } } } } }],
    ['Scan', { TableName: T, FilterExpression: 'contains(a)' }],
    ['Scan', { TableName: T, FilterExpression: 'attribute_exists(:v)', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Scan', { TableName: T, FilterExpression: 'a BETWEEN :a AND :b', ExpressionAttributeValues: { ':a': { S: 'x' }, ':b': { N: '1' } } }],
    ['Scan', { TableName: T, FilterExpression: 'a < :a', ExpressionAttributeValues: { ':a': { BOOL: true } } }],
    ['Scan', { TableName: T, FilterExpression: 'a = :a OR', ExpressionAttributeValues: { ':a': { S: 'x' } } }],
    ['Scan', { TableName: T, FilterExpression: 'NOT NOT a' }],
    ['Scan', { TableName: T, ProjectionExpression: 'data' }],
    ['Scan', { TableName: T, ProjectionExpression: 'a[01]' }],
    ['Scan', { TableName: T, ProjectionExpression: 'a[-1]' }],
    ['Scan', { TableName: T, ProjectionExpression: 'a,' }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk > :v', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND sk = :n AND sk > :n', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND sk <> :n', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND contains(sk, :n)', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND sk BETWEEN :b AND :a', ExpressionAttributeValues: { ':v': { S: 'x' }, ':a': { N: '1' }, ':b': { N: '2' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND sk IN (:n)', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v AND NOT sk = :n', ExpressionAttributeValues: { ':v': { S: 'x' }, ':n': { N: '1' } } }],
    ['Query', { TableName: T, KeyConditionExpression: '(pk = :v)', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, KeyConditionExpression: 'pk = :v', Select: 'SPECIFIC_ATTRIBUTES', ExpressionAttributeValues: { ':v': { S: 'x' } } }],
    ['Query', { TableName: T, IndexName: 'lsi_s', KeyConditionExpression: 'pk = :v AND ls = :l', ExpressionAttributeValues: { ':v': { S: 'x' }, ':l': { S: 'y' } }, Select: 'ALL_ATTRIBUTES' }],
    ['Query', { TableName: T }],
    ['GetItem', { TableName: T, Key: { pk: { S: 'x' }, sk: { S: '1' } } }],
    ['GetItem', { TableName: T, Key: { pk: { S: 'x' }, sk: { NULL: true } } }],
    ['GetItem', { TableName: T, Key: k, ProjectionExpression: 'a', AttributesToGet: ['a'] }],
    ['GetItem', { Key: k }],
    ['GetItem', { TableName: 'no such table!', Key: k }],
    ['PutItem', { TableName: T, Item: { pk: { S: 'x'.repeat(2049) }, sk: { N: '1' } } }],
    ['PutItem', { TableName: 'diff_bs', Item: { pk: { B: 'AA==' }, sk: { S: 's'.repeat(1025) } } }],
    ['PutItem', { TableName: 'diff_bs', Item: { pk: { B: Buffer.alloc(2049).toString('base64') }, sk: { S: 's' } } }],
    ['PutItem', { TableName: 'diff_bs', Item: { pk: { B: '' }, sk: { S: 's' } } }],
    ['PutItem', { TableName: T, Item: Object.assign({ '': { S: 'x' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { B: '!!!' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { BOOL: 'yes' } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { NULL: false } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { L: [{ S: 'x' }, { Q: 'y' }] } }, k) }],
    ['PutItem', { TableName: T, Item: Object.assign({ a: { M: { b: { SS: [] } } } }, k) }],
    ['DeleteItem', { TableName: T, Key: k, ReturnValues: 'UPDATED_OLD' }],
    ['DeleteItem', { TableName: T, Key: k, ConditionExpression: 'attribute_exists(pk)', Expected: { pk: { Exists: true } } }],
    ['DescribeTable', { TableName: 'x' }],
    ['DeleteTable', { TableName: 'diff_missing' }],
  ];
  for (const [op, inp] of cases) await g.both(op, inp);
  await g.checkState(T);
  g.report('requests DynamoDB rejects: keys, types, sets, numbers, size, placeholders, reserved words, bad expressions');
});

group('validation of batches', ['BatchWriteItem', 'BatchGetItem'], async (g) => {
  const T = 'diff_sn';
  const k = { pk: { S: 'ACTOR#alice' }, sk: { N: '1' } };
  const cases = [
    ['BatchWriteItem', { RequestItems: {} }],
    ['BatchWriteItem', { RequestItems: { [T]: Array.from({ length: 26 }, (_, i) => ({ PutRequest: { Item: { pk: { S: 'b' + i }, sk: { N: '1' } } } })) } }],
    ['BatchWriteItem', { RequestItems: { diff_missing: [{ PutRequest: { Item: k } }] } }],
    ['BatchWriteItem', { RequestItems: { [T]: [{ PutRequest: { Item: k } }, { DeleteRequest: { Key: k } }] } }],
    ['BatchWriteItem', { RequestItems: { [T]: [{ PutRequest: { Item: { pk: { S: 'x' } } } }] } }],
    ['BatchWriteItem', { RequestItems: { [T]: [{}] } }],
    ['BatchGetItem', { RequestItems: {} }],
    ['BatchGetItem', { RequestItems: { [T]: { Keys: Array.from({ length: 101 }, (_, i) => ({ pk: { S: 'b' + i }, sk: { N: '1' } })) } } }],
    ['BatchGetItem', { RequestItems: { [T]: { Keys: [] } } }],
    ['BatchGetItem', { RequestItems: { diff_missing: { Keys: [k] } } }],
    ['BatchGetItem', { RequestItems: { [T]: { Keys: [k], ProjectionExpression: '#x' } } }],
  ];
  for (const [op, inp] of cases) await g.both(op, inp);
  g.report('batch requests DynamoDB rejects: sizes, duplicates, unknown tables, malformed requests');
});

/* -------------------------------------------------- legacy parameters */

/*
 * The legacy (pre-expression) parameters: Expected + ConditionalOperator
 * on PutItem/UpdateItem/DeleteItem, AttributeUpdates, QueryFilter,
 * ScanFilter, KeyConditions, AttributesToGet, and the errors for mixing
 * them with expressions. The same limits as the expression generators:
 * ordering operators, IN, CONTAINS and BEGINS_WITH get S/N/B values on
 * the scalar attributes (SCALAR_NAMES); EQ/NE also sets (dynalite
 * refuses EQ on L, M, BOOL and NULL in a filter, which DynamoDB accepts:
 * the legacy docs group checks that).
 */
const LEGACY_OPS = ['EQ', 'NE', 'LE', 'LT', 'GE', 'GT', 'NOT_NULL', 'NULL', 'CONTAINS', 'NOT_CONTAINS', 'BEGINS_WITH', 'IN', 'BETWEEN'];
const smallNumber = (r) => r.pick([String(r.range(-50, 50)), r.range(0, 99) + '.' + r.range(1, 9), String(r.range(1, 9)) + 'E' + r.range(-3, 3)]);

/* Two values of one type in DynamoDB's order (small, so that JavaScript
 * numbers compare them exactly). */
function orderedPair(r) {
  const k = r.int(3);
  let a; let b;
  if (k === 0) { a = { N: String(r.range(-20, 20)) }; b = { N: String(r.range(-20, 20)) }; if (Number(a.N) > Number(b.N)) [a, b] = [b, a]; }
  else if (k === 1) { a = { S: genString(r, 3).replace(/[^ -~]/g, 'q') }; b = { S: genString(r, 3).replace(/[^ -~]/g, 'r') }; if (a.S > b.S) [a, b] = [b, a]; }
  else { [a, b] = r.sample(ASCII_B, 2).sort((x, y) => Buffer.compare(Buffer.from(x, 'base64'), Buffer.from(y, 'base64'))).map((v) => ({ B: v })); }
  return [a, b];
}

/* One Condition (filters, and Expected with a ComparisonOperator). bad:
 * the chance of an argument count or type that DynamoDB refuses. */
function genLegacyCondition(c, name, bad) {
  const r = c.r;
  const op = r.pick(LEGACY_OPS);
  const scalarTarget = isScalarName(name);
  let list;
  switch (op) {
    case 'NULL': case 'NOT_NULL': list = r.chance(0.5) ? [] : undefined; break;
    case 'EQ': case 'NE':
      list = [scalarTarget || r.chance(0.6) ? c.someScalar() : setOfType(r, r.pick(['SS', 'NS', 'BS']))]; break;
    case 'CONTAINS': case 'NOT_CONTAINS':
      // (Binary needles of ASCII bytes: dynalite compares binaries as UTF-8 text.)
      list = [r.pick([{ S: genString(r, 2) }, c.someScalar(), { N: String(r.int(10)) }, { B: r.pick(ASCII_B) }])];
      if (list[0].B !== undefined) list[0] = { B: r.pick(ASCII_B) };
      break;
    case 'BEGINS_WITH':
      list = [r.chance(0.7) ? { S: genString(r, 2) } : { B: r.pick(ASCII_B) }]; break;
    case 'IN': {
      const t = r.pick(['S', 'N', 'B']);
      list = [];
      for (let i = r.range(1, 4); i > 0; i--) {
        let v = c.someScalar();
        if (Object.keys(v)[0] !== t) v = t === 'S' ? { S: genString(r, 4) } : t === 'N' ? { N: smallNumber(r) } : { B: genBinary(r, 3) };
        if (!list.some((w) => cj(w) === cj(v))) list.push(v);
      }
      break;
    }
    case 'BETWEEN': list = orderedPair(r); if (r.chance(0.1)) list.reverse(); break;
    default: list = [c.someScalar()];
  }
  if (r.chance(bad)) {
    switch (r.int(4)) {
      case 0: list = (list || []).concat([c.someScalar()]); break;             // one too many
      case 1: list = []; break;                                                // none
      case 2: if (list && list.length > 1) list[1] = list[0].N !== undefined ? { S: 'x' } : { N: '1' }; break; // mixed types
      default: if (op !== 'EQ' && op !== 'NE' && list && list.length) list[0] = r.pick([{ SS: ['x'] }, { BOOL: true }, { L: [] }]);
    }
  }
  const cond = { ComparisonOperator: op };
  if (list !== undefined) cond.AttributeValueList = list;
  return cond;
}

/* An ExpectedAttributeValue: Value, Exists, or a Condition. */
function genExpectedValue(c, name, bad) {
  const r = c.r;
  const k = r.int(10);
  const val = () => (isScalarName(name) || r.chance(0.7) ? c.someScalar() : setOfType(r, r.pick(['SS', 'NS', 'BS'])));
  let e;
  if (k < 2) e = { Value: val() };
  else if (k < 3) e = { Exists: true, Value: val() };
  else if (k < 5) e = { Exists: false };
  else e = genLegacyCondition(c, name, bad);
  if (r.chance(bad)) {
    switch (r.int(6)) {
      case 0: e = { Exists: true }; break;
      case 1: e = { Exists: false, Value: val() }; break;
      case 2: e = { Value: val(), AttributeValueList: [val()] }; break;
      case 3: e = { ComparisonOperator: 'EQ', Exists: r.chance(0.5), AttributeValueList: [val()] }; break;
      case 4: e = { AttributeValueList: [val()] }; break;
      default: e = { ComparisonOperator: r.pick(['EQ', 'LT', 'CONTAINS']) }; break;
    }
  }
  return e;
}

/* A map of conditions on distinct names, and maybe a ConditionalOperator
 * (with two or more conditions: see legacy docs for one). */
function genLegacyMap(c, names, gen, into, bad) {
  const r = c.r;
  const map = {};
  for (const n of r.sample(names, r.range(1, 3))) map[n] = gen(c, n, bad);
  // (Not OR with NOT_CONTAINS: two dynalite deviations that hide each other.)
  const nc = Object.values(map).some((e) => e.ComparisonOperator === 'NOT_CONTAINS');
  if (Object.keys(map).length > 1 && r.chance(0.5)) into.ConditionalOperator = nc ? 'AND' : r.pick(['AND', 'OR']);
  return map;
}

function withExpected(c, input, keyNames) {
  const r = c.r;
  if (!r.chance(0.75)) return input;
  input.Expected = genLegacyMap(c, ATTR_NAMES.concat(r.chance(0.2) ? keyNames : []), genExpectedValue, input, 0.08);
  return input;
}

/* NOT_CONTAINS is false on a missing attribute in DynamoDB; dynalite
 * makes it true. Are the answers otherwise the same? */
function notContainsOnMissing(req, d, x) {
  const conds = req.Expected || req.QueryFilter || req.ScanFilter;
  if (!conds) return false;
  const nc = Object.keys(conds).filter((n) => conds[n].ComparisonOperator === 'NOT_CONTAINS');
  if (!nc.length) return false;
  if (req.Expected) return !!(x.Error && x.Error.Code === 'ConditionalCheckFailedException' && !(d.Error && d.Error.Code === x.Error.Code));
  if (!d.Output || !x.Output) return false;
  // Counted or projected away: fewer items is all that can be seen.
  if (req.Select === 'COUNT' || req.AttributesToGet) return x.Output.ScannedCount === d.Output.ScannedCount && x.Output.Count < d.Output.Count;
  if (!Array.isArray(d.Output.Items) || !Array.isArray(x.Output.Items)) return false;
  const xs = new Set(x.Output.Items.map(cj));
  const extra = d.Output.Items.filter((i) => !xs.has(cj(i)));
  return extra.length > 0 && x.Output.Items.every((i) => d.Output.Items.some((j) => cj(j) === cj(i))) &&
    extra.every((i) => nc.some((n) => i[n] === undefined));
}

/* A value an AttributeUpdates action can take on an attribute holding
 * cur (undefined: missing), keeping the scalar names scalar. */
function genAttrUpdate(r, c, name, cur) {
  const t = cur ? Object.keys(cur)[0] : null;
  const scalar = isScalarName(name);
  const k = r.int(10);
  if (k < 3) return r.chance(0.3) ? { Value: scalar ? c.someScalar() : genValue(r, 2) } : { Action: 'PUT', Value: scalar ? c.someScalar() : genValue(r, 2) };
  if (k < 4) return { Action: 'DELETE' };
  if (k < 7) {
    // ADD: a number (small: 38 digits stay 38), a set of the attribute's
    // type, a list; sometimes a type that clashes.
    if ((t === 'N' || (!t && (scalar || r.chance(0.5)))) && (!cur || cur.N.replace(/[-.]|E.*$/gi, '').length < 15)) return { Action: 'ADD', Value: { N: smallNumber(r) } };
    if (scalar) return { Action: 'PUT', Value: c.someScalar() };
    if (t === 'L' || (!t && r.chance(0.3))) return { Action: 'ADD', Value: { L: [genValue(r, 1)] } };
    const st = t && ['SS', 'NS', 'BS'].includes(t) ? t : r.pick(['SS', 'NS', 'BS']);
    return { Action: 'ADD', Value: setOfType(r, st) };
  }
  if (k < 9 && t && ['SS', 'NS', 'BS'].includes(t)) {
    // DELETE some of the set's elements (maybe all: the attribute goes).
    const els = r.sample(cur[t], r.range(1, cur[t].length));
    if (r.chance(0.3)) els.push(...setOfType(r, t)[t].filter((e) => !els.includes(e)));
    return { Action: 'DELETE', Value: { [t]: els } };
  }
  if (k < 9) return { Action: 'DELETE', Value: setOfType(r, r.pick(['SS', 'NS', 'BS'])) };
  // What DynamoDB refuses: PUT/ADD without Value, DELETE of a scalar, ADD
  // of a string, a map, a BOOL.
  return r.pick([{ Action: 'PUT' }, { Action: 'ADD' }, { Action: 'DELETE', Value: { S: 'x' } }, { Action: 'ADD', Value: { S: 'x' } },
    { Action: 'ADD', Value: { M: {} } }, { Action: 'ADD', Value: { BOOL: true } }, { Action: 'DELETE', Value: { N: '1' } }]);
}

const deletesOnly = (req) => req.AttributeUpdates && Object.keys(req.AttributeUpdates).length > 0 &&
  Object.values(req.AttributeUpdates).every((u) => u.Action === 'DELETE');

async function legacyWrites(g, tname, n) {
  const r = g.r;
  const t = TABLES[tname];
  const keyNames = [t.hash[0]].concat(t.range ? [t.range[0]] : []);
  for (let i = 0; i < n; i++) {
    const c = new Ctx(r, valuePool);
    const key = genKey(r, tname);
    const item = await dynaliteItem(g, tname, key);
    const k = r.int(10);
    let op; let input;
    if (k < 6) {
      op = 'UpdateItem';
      const upd = {};
      const names = r.sample(ATTR_NAMES, r.range(0, 4));
      if (r.chance(0.03)) names.push(r.pick(keyNames));
      for (const nm of names) upd[nm] = genAttrUpdate(r, c, nm, item && item[nm]);
      input = { TableName: tname, Key: key, AttributeUpdates: upd };
      if (r.chance(0.6)) input.ReturnValues = r.pick(['NONE', 'ALL_OLD', 'UPDATED_OLD', 'ALL_NEW', 'UPDATED_NEW']);
    } else if (k < 8) {
      op = 'PutItem';
      const it = genItem(r, tname, key);
      collectValues(it, valuePool);
      input = { TableName: tname, Item: it };
      if (r.chance(0.4)) input.ReturnValues = r.pick(['NONE', 'ALL_OLD']);
    } else {
      op = 'DeleteItem';
      input = { TableName: tname, Key: key };
      if (r.chance(0.4)) input.ReturnValues = r.pick(['NONE', 'ALL_OLD']);
    }
    withExpected(c, input, keyNames);
    if (r.chance(0.2)) input.ReturnConsumedCapacity = r.pick(['TOTAL', 'INDEXES']);
    const [d, x, ok] = await g.both(op, input);
    if (!ok) await g.resync(tname, key);
    // DynamoDB creates no item for DELETEs only (legacy-delete-only-creates):
    // dynalite's copy follows ddbx's.
    else if (op === 'UpdateItem' && !item && x.Output && deletesOnly(input)) await g.resync(tname, key, true);
    if (d.Output && d.Output.Attributes) collectValues(d.Output.Attributes, valuePool);
    if (op === 'DeleteItem' && r.chance(0.7)) {
      const it = genItem(r, tname, key);
      const [, , ok2] = await g.both('PutItem', { TableName: tname, Item: it });
      if (!ok2) await g.resync(tname, key);
    }
  }
}

for (const t of Object.keys(TABLES)) {
  group('legacy writes ' + t, ['PutItem', 'UpdateItem', 'DeleteItem', 'GetItem'], async (g) => {
    await legacyWrites(g, t, t === 'diff_sn' ? 300 : 150);
    await g.checkState(t);
    g.report('AttributeUpdates PUT/ADD/DELETE; Expected (Value, Exists, every ComparisonOperator) with ConditionalOperator');
  });
}

/* KeyConditions for a base-table or index query (hash EQ, maybe a range
 * condition). */
function genKeyConditions(r, hash, hv, range, skPool) {
  const kc = { [hash[0]]: { ComparisonOperator: 'EQ', AttributeValueList: [hv] } };
  if (range && r.chance(0.7)) {
    const v = () => keyValue(r, range[1], skPool);
    const op = r.pick(['EQ', 'LT', 'LE', 'GT', 'GE', 'BETWEEN', 'BEGINS_WITH']);
    if (op === 'BETWEEN') {
      const a = v(); const b = v();
      kc[range[0]] = { ComparisonOperator: op, AttributeValueList: [a, b] };
    } else if (op === 'BEGINS_WITH') {
      if (range[1] === 'N') kc[range[0]] = { ComparisonOperator: 'GE', AttributeValueList: [v()] };
      else kc[range[0]] = { ComparisonOperator: op, AttributeValueList: [range[1] === 'S' ? { S: Array.from(v().S).slice(0, r.int(4)).join('') } : { B: r.pick(['AA==', 'AQ==', '/w==']) }] };
    } else {
      kc[range[0]] = { ComparisonOperator: op, AttributeValueList: [v()] };
    }
  }
  if (r.chance(0.1)) {
    // What DynamoDB refuses: a non-key attribute, no hash condition, an
    // operator a key cannot take, a value of another type, a count.
    const hc = kc[hash[0]];
    switch (r.int(6)) {
      case 0: kc.a = { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'x' }] }; break;
      case 1: delete kc[hash[0]]; if (!Object.keys(kc).length) kc.a = { ComparisonOperator: 'EQ', AttributeValueList: [{ N: '1' }] }; break;
      case 2: hc.ComparisonOperator = r.pick(['NE', 'IN', 'NULL', 'LT', 'BEGINS_WITH', 'CONTAINS']); if (hc.ComparisonOperator === 'NULL') hc.AttributeValueList = []; break;
      case 3: hc.AttributeValueList = [hash[1] === 'N' ? { S: '1' } : { N: '1' }]; break;
      case 4: hc.AttributeValueList.push(hc.AttributeValueList[0]); break;
      default: if (range) kc[range[0]] = { ComparisonOperator: 'BETWEEN', AttributeValueList: [keyValue(r, range[1], skPool)] };
    }
  }
  return kc;
}

async function legacyReads(g, tname, n) {
  const r = g.r;
  const t = TABLES[tname];
  const keyNames = [t.hash[0]].concat(t.range ? [t.range[0]] : []);
  const ixs = [null].concat(t.gsis);
  for (let i = 0; i < n; i++) {
    const c = new Ctx(r, valuePool);
    const kind = r.int(10);
    let input;
    if (kind < 5) {
      const ix = r.pick(ixs);
      const hash = ix ? ix.hash : t.hash;
      const range = ix ? ix.range : t.range;
      const pool = ix ? (hash[1] === 'S' ? (rr) => rr.pick(['g#1', 'g#2', '노래', 'TARGET#bob', 'PROFILE', 'd#3', 'A'])
        : hash[1] === 'N' ? (rr) => String(rr.int(8)) : (rr) => rr.pick(['AA==', 'AQ==', 'Ag=='])) : t.pkPool;
      input = { TableName: tname, KeyConditions: genKeyConditions(r, hash, keyValue(r, hash[1], pool), range, ix ? null : t.skPool) };
      if (ix) input.IndexName = ix.name;
      if (r.chance(0.5)) input.QueryFilter = genLegacyMap(c, ATTR_NAMES.concat(r.chance(0.05) ? keyNames : []), genLegacyCondition, input, 0.05);
      if (r.chance(0.3)) input.ScanIndexForward = r.chance(0.5);
      if (r.chance(0.3)) input.Limit = r.range(1, 7);
    } else if (kind < 9) {
      input = { TableName: tname };
      if (r.chance(0.7)) input.ScanFilter = genLegacyMap(c, ATTR_NAMES, genLegacyCondition, input, 0.05);
    } else {
      input = { TableName: tname, Key: genKey(r, tname) };
    }
    if (r.chance(0.35)) {
      input.AttributesToGet = r.sample(ATTR_NAMES.concat(keyNames), r.range(1, 4));
      if (r.chance(0.05)) input.AttributesToGet.push(input.AttributesToGet[0]);        // duplicate
      // (COUNT with AttributesToGet: DynamoDB refuses, dynalite does not;
      // test_store_legacy checks it.)
      if (input.Key === undefined && r.chance(0.3)) input.Select = 'SPECIFIC_ATTRIBUTES';
    } else if (input.Key === undefined && r.chance(0.15)) {
      input.Select = 'COUNT';
    }
    const op = input.Key ? 'GetItem' : input.KeyConditions ? 'Query' : 'Scan';
    if (op === 'Query' && !input.IndexName) await paginate(g, op, input, 40);
    else if (op === 'Query') await indexQuery(g, input, TABLES[tname].gsis.find((x) => x.name === input.IndexName).hash, TABLES[tname].gsis.find((x) => x.name === input.IndexName).range);
    else await g.both(op, input);
  }
}

for (const t of Object.keys(TABLES)) {
  group('legacy reads ' + t, ['Query', 'Scan', 'GetItem'], async (g) => {
    await legacyReads(g, t, t === 'diff_sn' ? 250 : 120);
    g.report('KeyConditions, QueryFilter, ScanFilter, ConditionalOperator, AttributesToGet, Select');
  });
}

/* Legacy and expression parameters in one request: DynamoDB's exact
 * message for each combination (validateExpressionParams). */
group('legacy mixed with expressions', ['PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query', 'Scan'], async (g) => {
  const r = g.r;
  const T = 'diff_sn';
  const key = { pk: { S: 'x' }, sk: { N: '1' } };
  const v = { ':v': { N: '1' } };
  const exp = { a: { Exists: false } };
  const cond = { a: { ComparisonOperator: 'NOT_NULL' } };
  const kc = { pk: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'x' }] } };
  const base = {
    PutItem: { TableName: T, Item: key }, DeleteItem: { TableName: T, Key: key }, UpdateItem: { TableName: T, Key: key },
    GetItem: { TableName: T, Key: key }, Query: { TableName: T }, Scan: { TableName: T },
  };
  const exprs = {
    PutItem: { ConditionExpression: 'attribute_exists(a)' }, DeleteItem: { ConditionExpression: 'attribute_exists(a)' },
    UpdateItem: { UpdateExpression: 'SET a = :v', ConditionExpression: 'attribute_exists(a)' },
    GetItem: { ProjectionExpression: 'a' },
    Query: { ProjectionExpression: 'a', FilterExpression: 'a = :v', KeyConditionExpression: 'pk = :p' },
    Scan: { ProjectionExpression: 'a', FilterExpression: 'a = :v' },
  };
  const legacy = {
    PutItem: { Expected: exp, ConditionalOperator: 'AND' }, DeleteItem: { Expected: exp, ConditionalOperator: 'OR' },
    UpdateItem: { AttributeUpdates: { a: { Action: 'PUT', Value: { N: '2' } } }, Expected: exp, ConditionalOperator: 'AND' },
    GetItem: { AttributesToGet: ['a'] },
    Query: { AttributesToGet: ['a'], QueryFilter: cond, ConditionalOperator: 'AND', KeyConditions: kc },
    Scan: { AttributesToGet: ['a'], ScanFilter: cond, ConditionalOperator: 'OR' },
  };
  for (const op of Object.keys(base)) {
    for (let i = 0; i < 40; i++) {
      const input = Object.assign({}, base[op]);
      for (const k of r.sample(Object.keys(exprs[op]), r.range(0, Object.keys(exprs[op]).length))) input[k] = exprs[op][k];
      for (const k of r.sample(Object.keys(legacy[op]), r.range(0, Object.keys(legacy[op]).length))) input[k] = legacy[op][k];
      const usesV = ['UpdateExpression', 'FilterExpression'].some((k) => input[k] !== undefined);
      if (usesV || (op !== 'GetItem' && r.chance(0.1))) input.ExpressionAttributeValues = Object.assign({}, usesV ? v : { ':w': { N: '1' } });
      if (input.KeyConditionExpression) input.ExpressionAttributeValues = Object.assign(input.ExpressionAttributeValues || {}, { ':p': { S: 'x' } });
      if (r.chance(0.1)) input.ExpressionAttributeNames = { '#a': 'a' };
      if (op === 'Query' && !input.KeyConditions && !input.KeyConditionExpression && r.chance(0.8)) input.KeyConditions = kc;
      await g.both(op, input);
    }
  }
  g.report('the "Can not use both expression and non-expression parameters" messages and the names/values rules');
});

/*
 * Not differential: what dynalite cannot answer (it has no transactions,
 * and applies several list-index REMOVEs one after another), checked in
 * ddbx alone against the behaviour the DynamoDB documentation gives.
 * Keys under "DOC#" are written to ddbx only; these groups run last.
 */
async function expect(g, op, input, check) {
  g.count++;
  const x = await g.ddbx.call(op, input);
  const problem = check(x);
  if (problem) {
    const k = KNOWN.find((kd) => kd.who === 'ddbx' && kd.doc && kd.match(op, input, { expected: problem }, x));
    if (k) { g.known++; knownCount.set(k, (knownCount.get(k) || 0) + 1); return x; }
    g.mismatch(op, input, { expected: problem }, x, 'documented behaviour');
  }
  return x;
}
const isErr = (code, msg) => (a) => (a.Error && a.Error.Code === code && (msg === undefined ||
  (msg instanceof RegExp ? msg.test(String(a.Error.Message)) : a.Error.Message === msg)) ? null
  : `${code}${msg === undefined ? '' : ': ' + msg}`);
const hasItem = (item) => (a) => (a.Output && cj(a.Output.Item) === cj(item) ? null : `Output.Item = ${cj(item)}`);
const noItem = (a) => (a.Output && !a.Output.Item ? null : 'no Item');

group('api protocol (ddbx only)', ['ListTables'], async (g) => {
  // A malformed line gets an Error line and the stream goes on.
  for (const line of ['this is not json', '{"Operation":"NoSuchOperation","Input":{}}', '{"Input":{}}', '[1,2]', '{"Operation":"ListTables","Input":"x"}']) {
    g.count++;
    const a = await g.ddbx.raw(line, 'a malformed line');
    if (!a.Error || typeof a.Error.Code !== 'string' || !a.Error.Code) g.mismatch('(raw line)', line, { expected: 'an Error line with a Code' }, a);
  }
  await expect(g, 'ListTables', {}, (a) => (a.Output && Array.isArray(a.Output.TableNames) ? null : 'Output.TableNames after the malformed lines'));
  g.report('malformed lines get an Error line; the stream goes on');
});

group('expressions where dynalite errs (documented, ddbx eval only)', ['eval'], async (g) => {
  const item = {
    pk: { S: 'k' }, b: { BOOL: false }, m: { M: { x: { N: '1' } } }, l: { L: [{ M: { x: { N: '1' } } }, { N: '2' }] },
    e: { S: '' }, k: { S: '\uff71' }, n: { N: '9.9999999999999999999999999999999999999E+125' },
    ns: { NS: ['1', '2'] }, lst: { L: ['a', 'b', 'c', 'd', 'e'].map((v) => ({ S: v })) },
    nested: { L: [{ S: 'a' }, { S: 'b' }, { M: { z: { S: 'c' }, y: { S: 'd' } } }] },
  };
  const check = (kind, expr, values, want, what) => {
    g.count++;
    const input = values ? { ExpressionAttributeValues: values } : {};
    const x = ddbxEval(kind, expr, input, item);
    const problem = want(x);
    if (problem) g.mismatch('ddbx eval --kind ' + kind, { expr, values, item }, { expected: problem || what }, x, 'documented behaviour');
  };
  const holds = (expr, values, yes) => check('condition', expr, values,
    (x) => (yes ? (x.Output ? null : 'true') : (x.Error && x.Error.Code === 'ConditionalCheckFailedException' ? null : 'false')));
  holds('b IN (:f, :t)', { ':f': { BOOL: false }, ':t': { S: 'x' } }, true);     // a false BOOL is a value
  holds('attribute_type(b, :ty)', { ':ty': { S: 'BOOL' } }, true);
  holds('m = :m', { ':m': { M: { x: { N: '1.0' } } } }, true);                   // "EQ is supported for all data types, including lists and maps"
  holds('m <> :m', { ':m': { M: { x: { N: '1' } } } }, false);
  holds('l = :l', { ':l': { L: [{ M: { x: { N: '1' } } }, { N: '2' }] } }, true);
  holds('e BETWEEN :a AND :z', { ':a': { S: '' }, ':z': { S: 'z' } }, true);     // "" compares like any string
  holds('e IN (:a)', { ':a': { S: '' } }, true);
  holds('attribute_type(e, :ty)', { ':ty': { S: 'S' } }, true);
  holds('k < :emoji', { ':emoji': { S: '\u{1F600}' } }, true);                    // UTF-8 bytes: EF BD B1 < F0 9F 98 80
  // A missing operand makes = and the orderings false (dynalite: two
  // missing operands are equal).
  holds('nope1 = nope2', null, false);
  holds('size(nope1) <= nope2', null, false);
  const becomes = (expr, values, path, want) => check('update', expr, values, (x) => {
    if (!x.Output) return `${path} = ${JSON.stringify(want)}`;
    return cj(x.Output.Attributes[path]) === cj(want) ? null : `${path} = ${JSON.stringify(want)}`;
  });
  // Every path names the item as it was before the update.
  becomes('REMOVE lst[0], lst[2]', null, 'lst', { L: [{ S: 'b' }, { S: 'd' }, { S: 'e' }] });
  becomes('REMOVE nested[0], nested[2].z', null, 'nested', { L: [{ S: 'b' }, { M: { y: { S: 'd' } } }] });
  // SET copies a value: later changes to the source do not reach the copy.
  becomes('SET cp = m REMOVE m.x', null, 'cp', { M: { x: { N: '1' } } });
  becomes('SET cp = ns DELETE ns :one', { ':one': { NS: ['1'] } }, 'cp', { NS: ['1', '2'] });
  // Arithmetic past the largest number is refused.
  check('update', 'SET n = n + :v', { ':v': { N: '1E+125' } }, (x) => (x.Error && x.Error.Code === 'ValidationException' &&
    x.Error.Message === 'Number overflow. Attempting to store a number with magnitude larger than supported range' ? null
    : 'ValidationException: Number overflow. Attempting to store a number with magnitude larger than supported range'));
  g.report('conditions on false, "", maps, lists, missing operands, UTF-8 order; updates against the original item, copies, overflow');
});

group('transactions (documented, ddbx only)', ['TransactWriteItems', 'TransactGetItems', 'GetItem', 'PutItem'], async (g) => {
  const T = 'diff_sn';
  const K = (n) => ({ pk: { S: 'DOC#tx' }, sk: { N: String(n) } });
  const I = (n, extra) => Object.assign(K(n), extra || {});
  for (const n of [2, 3, 4]) await g.ddbx.call('PutItem', { TableName: T, Item: I(n, { v: { N: '1' } }) });
  // All four kinds succeed together.
  await expect(g, 'TransactWriteItems', {
    TransactItems: [
      { Put: { TableName: T, Item: I(1, { v: { N: '1' } }), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Update: { TableName: T, Key: K(2), UpdateExpression: 'SET v = v + :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
      { Delete: { TableName: T, Key: K(3) } },
      { ConditionCheck: { TableName: T, Key: K(4), ConditionExpression: 'attribute_exists(v)' } },
    ],
  }, (a) => (a.Output ? null : 'Output {}'));
  await expect(g, 'GetItem', { TableName: T, Key: K(1) }, hasItem(I(1, { v: { N: '1' } })));
  await expect(g, 'GetItem', { TableName: T, Key: K(2) }, hasItem(I(2, { v: { N: '2' } })));
  await expect(g, 'GetItem', { TableName: T, Key: K(3) }, noItem);
  // A failed condition cancels everything, with reasons in request order.
  const cancel = await expect(g, 'TransactWriteItems', {
    TransactItems: [
      { Put: { TableName: T, Item: I(5) } },
      { ConditionCheck: { TableName: T, Key: K(6), ConditionExpression: 'attribute_exists(pk)' } },
      { Update: { TableName: T, Key: K(2), UpdateExpression: 'SET v = :z', ConditionExpression: 'v = :z',
        ExpressionAttributeValues: { ':z': { N: '0' } }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
    ],
  }, isErr('TransactionCanceledException',
    'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, ConditionalCheckFailed]'));
  g.count++;
  const reasons = cancel.Error && cancel.Error.CancellationReasons;
  const want = [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
    { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', Item: I(2, { v: { N: '2' } }) }];
  if (cj(reasons) !== cj(want)) g.mismatch('TransactWriteItems', 'CancellationReasons of the request above', { expected: want }, cancel);
  await expect(g, 'GetItem', { TableName: T, Key: K(5) }, noItem);
  await expect(g, 'GetItem', { TableName: T, Key: K(2) }, hasItem(I(2, { v: { N: '2' } })));
  // Two actions on one item.
  await expect(g, 'TransactWriteItems', {
    TransactItems: [{ Put: { TableName: T, Item: I(7) } }, { Delete: { TableName: T, Key: K(7) } }],
  }, isErr('ValidationException', 'Transaction request cannot include multiple operations on one item'));
  // More than 100 actions.
  const many = [];
  for (let n = 0; n < 101; n++) many.push({ Put: { TableName: T, Item: I(1000 + n) } });
  await expect(g, 'TransactWriteItems', { TransactItems: many },
    (a) => (a.Error && a.Error.Code === 'ValidationException' && /100/.test(a.Error.Message) ? null : 'ValidationException naming the limit of 100'));
  // Reads: in request order, {} for a missing item.
  await expect(g, 'TransactGetItems', {
    TransactItems: [{ Get: { TableName: T, Key: K(2) } }, { Get: { TableName: T, Key: K(9) } },
      { Get: { TableName: T, Key: K(1), ProjectionExpression: 'v' } }],
  }, (a) => (a.Output && cj(a.Output.Responses) === cj([{ Item: I(2, { v: { N: '2' } }) }, {}, { Item: { v: { N: '1' } } }]) ? null
    : 'Responses [{Item: item 2}, {}, {Item: {v: 1}}]'));
  // Transactions cost double: a 1 KB-or-less put is 2 write units.
  await expect(g, 'TransactWriteItems', { TransactItems: [{ Put: { TableName: T, Item: I(8) } }], ReturnConsumedCapacity: 'TOTAL' },
    (a) => (a.Output && Array.isArray(a.Output.ConsumedCapacity) && a.Output.ConsumedCapacity.length === 1 &&
      a.Output.ConsumedCapacity[0].TableName === T && a.Output.ConsumedCapacity[0].CapacityUnits === 2 ? null
      : 'ConsumedCapacity [{TableName, CapacityUnits: 2}]'));
  g.report('TransactWriteItems/TransactGetItems: all-or-nothing, CancellationReasons in order, limits, capacity');
});

group('evaluation where dynalite errs (documented, ddbx only)', ['PutItem', 'Query'], async (g) => {
  // A conditional put of the same item: success means the condition held.
  const T = 'diff_sn';
  const item = {
    pk: { S: 'DOC#eval' }, sk: { N: '1' }, b: { BOOL: false }, m: { M: { x: { N: '1' } } },
    l: { L: [{ M: { x: { N: '1' } } }, { N: '2' }] }, e: { S: '' }, k: { S: '\uff71' },
  };
  await g.ddbx.call('PutItem', { TableName: T, Item: item });
  const holds = (cond, values, want) => expect(g, 'PutItem', { TableName: T, Item: item, ConditionExpression: cond, ExpressionAttributeValues: values },
    want ? (a) => (a.Output ? null : 'the condition holds (Output {})') : isErr('ConditionalCheckFailedException', 'The conditional request failed'));
  await holds('b IN (:f, :t)', { ':f': { BOOL: false }, ':t': { S: 'x' } }, true);       // a false BOOL is a value
  await holds('attribute_type(b, :ty)', { ':ty': { S: 'BOOL' } }, true);
  await holds('m = :m', { ':m': { M: { x: { N: '1.0' } } } }, true);                     // "EQ is supported for all data types, including lists and maps"
  await holds('m <> :m', { ':m': { M: { x: { N: '1' } } } }, false);
  await holds('l = :l', { ':l': { L: [{ M: { x: { N: '1' } } }, { N: '2' }] } }, true);
  await holds('e BETWEEN :a AND :z', { ':a': { S: '' }, ':z': { S: 'z' } }, true);       // empty strings compare like any string
  await holds('e IN (:a)', { ':a': { S: '' } }, true);
  await holds('attribute_type(e, :ty)', { ':ty': { S: 'S' } }, true);
  // Strings compare by their UTF-8 bytes: U+FF71 (EF BD B1) sorts before
  // U+1F600 (F0 9F 98 80), though not in UTF-16 code units.
  await holds('k < :emoji', { ':emoji': { S: '\u{1F600}' } }, true);
  const pk = { B: Buffer.from('DOC').toString('base64') };
  for (const sk of ['\u{1F600}', 'z', '\uff71']) await g.ddbx.call('PutItem', { TableName: 'diff_bs', Item: { pk, sk: { S: sk } } });
  await expect(g, 'Query', { TableName: 'diff_bs', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': pk } },
    (a) => (a.Output && cj(a.Output.Items.map((i) => i.sk.S)) === cj(['z', '\uff71', '\u{1F600}']) ? null : 'sort keys in UTF-8 order: z, \uff71, \u{1F600}'));
  await expect(g, 'Query', { TableName: 'diff_bs', KeyConditionExpression: 'pk = :p AND sk < :e', ExpressionAttributeValues: { ':p': pk, ':e': { S: '\u{1F600}' } } },
    (a) => (a.Output && a.Output.Count === 2 ? null : 'Count 2 (z and \uff71 sort before the emoji)'));
  g.report('conditions on false, empty strings, maps, lists, non-BMP strings; UTF-8 key order');
});

group('capacity (documented, ddbx only)', ['PutItem', 'UpdateItem', 'GetItem'], async (g) => {
  const units = (want) => (a) => (capacityTotal(a) === want ? null : `ConsumedCapacity.CapacityUnits ${want}`);
  // Sizes are UTF-8 bytes: "s" + 341 Hangul syllables (3 bytes each) +
  // "pk" + "k" = 1027 bytes, two write units (not 345 "characters").
  await expect(g, 'PutItem', { TableName: 'diff_cap', Item: { pk: { S: 'k' }, s: { S: '가'.repeat(341) } }, ReturnConsumedCapacity: 'TOTAL' }, units(2));
  await expect(g, 'GetItem', { TableName: 'diff_cap', Key: { pk: { S: 'k' } }, ReturnConsumedCapacity: 'TOTAL' }, units(0.5));
  // A write that puts an item into a GSI costs the index a write unit too;
  // changing the index key costs two (delete the old entry, put the new).
  const T = 'diff_h';
  const key = { pk: { N: '900001' } };
  await expect(g, 'PutItem', { TableName: T, Item: Object.assign({ a: { S: 'x' } }, key), ReturnConsumedCapacity: 'TOTAL' }, units(1));
  await expect(g, 'PutItem', { TableName: T, Item: Object.assign({ gn: { N: '1' }, gs: { S: 'a' } }, key), ReturnConsumedCapacity: 'INDEXES' },
    (a) => {
      const cc = a.Output && a.Output.ConsumedCapacity;
      const want = { CapacityUnits: 2, TableName: T, Table: { CapacityUnits: 1 }, GlobalSecondaryIndexes: { gsi_n: { CapacityUnits: 1 } } };
      return cc && cj(cc) === cj(want) ? null : 'ConsumedCapacity ' + JSON.stringify(want);
    });
  await expect(g, 'UpdateItem', { TableName: T, Key: key, UpdateExpression: 'SET gs = :b', ExpressionAttributeValues: { ':b': { S: 'b' } },
    ReturnConsumedCapacity: 'TOTAL' }, units(3));
  // z is neither an index key nor projected (INCLUDE c): no index write.
  await expect(g, 'UpdateItem', { TableName: T, Key: key, UpdateExpression: 'SET z = :b', ExpressionAttributeValues: { ':b': { S: 'b' } },
    ReturnConsumedCapacity: 'TOTAL' }, units(1));
  await expect(g, 'DeleteItem', { TableName: T, Key: key, ReturnConsumedCapacity: 'TOTAL' }, units(2));
  g.report('UTF-8 item sizes; write units of GSI entries put, moved and deleted');
});

group('remove list indexes (documented, ddbx only)', ['UpdateItem', 'PutItem', 'GetItem'], async (g) => {
  // "REMOVE l[0], l[2]": every index names an element of the list as it
  // was before the update (dynalite removes one after another instead).
  const T = 'diff_sn';
  const key = { pk: { S: 'DOC#remove' }, sk: { N: '1' } };
  const list = ['a', 'b', 'c', 'd', 'e'].map((v) => ({ S: v }));
  await g.ddbx.call('PutItem', { TableName: T, Item: Object.assign({ l: { L: list }, m: { M: { l: { L: list } } } }, key) });
  await expect(g, 'UpdateItem', { TableName: T, Key: key, UpdateExpression: 'REMOVE l[0], l[2], m.l[4], m.l[1]', ReturnValues: 'ALL_NEW' },
    (a) => (a.Output && cj(a.Output.Attributes) === cj(Object.assign({ l: { L: [list[1], list[3], list[4]] }, m: { M: { l: { L: [list[0], list[2], list[3]] } } } }, key))
      ? null : 'l = [b, d, e], m.l = [a, c, d]'));
  // Order in the expression does not matter.
  await expect(g, 'UpdateItem', { TableName: T, Key: key, UpdateExpression: 'REMOVE l[2], l[0]', ReturnValues: 'ALL_NEW' },
    (a) => (a.Output && a.Output.Attributes && cj(a.Output.Attributes.l) === cj({ L: [list[3]] }) ? null : 'l = [d]'));
  g.report('REMOVE of several list indexes refers to the list before the update');
});

// Issue 16's behaviours, in their own file.
require('./wrong16.js')({ group, expect, isErr, hasItem, noItem, cj, capacityTotal });

/* ------------------------------------------------------------- main */

async function main() {
  const dyn = new HttpClient(Number(PORT));
  // DIFF_SELF=PORT2 compares dynalite with a second dynalite: a check of
  // the harness itself (generators, normalisation), for development.
  // DIFF_SERVE_PORT: ddbx reached as a DynamoDB endpoint (`ddbx serve`)
  // over HTTP instead of `ddbx api`; a subset of the groups runs.
  const serve = process.env.DIFF_SERVE_PORT ? Number(process.env.DIFF_SERVE_PORT) : 0;
  const ddbx = process.env.DIFF_SELF ? new HttpClient(Number(process.env.DIFF_SELF))
    : serve ? new HttpClient(serve) : new ApiDriver(DDBX, DBFILE);
  if (serve) tapPrefix = '[ddbx serve] ';
  if (ORACLE !== 'dynalite') tapPrefix += '[' + ORACLE + '] ';
  let done = 0;
  for (const gr of GROUPS) {
    if (ONLY && !gr.name.includes(ONLY) && gr.name !== 'tables') continue;
    if (process.env.DIFF_SELF && gr.name.includes('ddbx only') && !process.env.DIFF_SELF_DOCS) continue;
    if (serve && !/^(tables|put-get-delete diff_sn|conditions diff_bs|updates diff_sn|query diff_sn|scan diff_bs|batch|validation|transactions|legacy writes diff_sn|legacy reads diff_bs|legacy mixed|U\+0000)/.test(gr.name)) continue;
    if (process.env.DIFF_SELF && gr.needs.includes('eval')) continue;
    // Against DynamoDB Local: every group that asks an oracle (its
    // disagreements with ddbx are the ddblocal entries of KNOWN_ALL); the
    // documented groups ask ddbx alone and ran in the first pass.
    if (ORACLE === 'ddblocal' && /(ddbx only|ddbx eval only)/.test(gr.name)) continue;
    const missing = process.env.DIFF_SELF ? [] : gr.needs.filter((o) => !DDBX_OPS.has(o));
    if (missing.length && !ALL) {
      console.log(`# not run: ${gr.name} (ddbx api lacks ${missing.join(', ')})`);
      continue;
    }
    const g = new Group(gr.name, dyn, ddbx);
    try {
      await gr.fn(g);
    } catch (e) {
      tap(false, `${gr.name}: harness error after ${g.count} requests`, [String(e && e.stack || e).split('\n').slice(0, 6).join(' | ')]);
      if (ddbx.dead) break;
    }
    done++;
  }
  for (const [k, n] of knownCount) console.log(`# known ${k.who === 'ddbx' ? 'ddbx' : ORACLE} deviation "${k.id}": ${n} times — ${k.why}`);
  if (!serve && ORACLE === 'dynalite') for (const k of KNOWN) if (k.who === 'ddbx' && !knownCount.has(k)) console.log(`# known ddbx gap "${k.id}" did not occur in this run (fixed? then remove it)`);
  await ddbx.close();
  dyn.close();
  if (!done) console.log('# no group ran');
  console.log('1..' + tapN);
  process.exitCode = failures ? 1 : 0;
}

main().catch((e) => {
  console.log('not ok ' + (tapN + 1) + ' - differential harness crashed: ' + String(e && e.message || e).split('\n')[0]);
  console.log('# ' + String(e && e.stack || e).split('\n').slice(0, 8).join(' | '));
  process.exitCode = 1;
});

