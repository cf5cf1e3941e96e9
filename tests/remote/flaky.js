'use strict';
/*
 * A misbehaving DynamoDB endpoint for the retry tests: listens on
 * 127.0.0.1 (port chosen by the kernel), prints "PORT <n>", and for each
 * request, by its number k (1, 2, ...):
 *   node flaky.js UPSTREAM_PORT throttle K   k <= K: 400 ThrottlingException, then proxy
 *   node flaky.js UPSTREAM_PORT every M      every M-th request: 400
 *                                            ProvisionedThroughputExceededException
 *   node flaky.js UPSTREAM_PORT 503 K        k <= K: 503 ServiceUnavailable, then proxy
 *   node flaky.js UPSTREAM_PORT crc K        k <= K: the answer with a wrong x-amz-crc32
 *   node flaky.js UPSTREAM_PORT drop K       k <= K: the connection is destroyed, then proxy
 *   node flaky.js UPSTREAM_PORT hang K       k <= K: no answer (the client must time out)
 *   node flaky.js UPSTREAM_PORT hang-scan    every Scan: no answer; the rest proxied
 *   node flaky.js UPSTREAM_PORT verify       every request's SigV4 signature is checked
 *                                            against the keys in FLAKY_KEYS ("AKID:SECRET,...",
 *                                            computed here with node's crypto, independently of
 *                                            ddbx): 400 InvalidSignatureException or
 *                                            UnrecognizedClientException when wrong
 *   node flaky.js UPSTREAM_PORT fail-write K the K-th BatchWriteItem: 500 InternalServerError
 *                                            (nothing written); the rest proxied
 *   node flaky.js UPSTREAM_PORT unprocessed K the first K BatchWriteItems: only the first
 *                                            half of each table's items goes upstream, the
 *                                            rest comes back as UnprocessedItems
 *   node flaky.js UPSTREAM_PORT proxy        nothing wrong (with FLAKY_TLS_CERT/KEY: over HTTPS)
 * Everything else is proxied to dynalite on 127.0.0.1:UPSTREAM_PORT. Each
 * request is logged on stderr as "REQ k TARGET". Exits when stdin ends.
 */
const crypto = require('crypto');
const http = require('http');
const [upPort, mode, arg] = process.argv.slice(2);
const k0 = Number(arg || 0);
let k = 0;
let writes = 0;

function send(res, status, type, message, extraHeaders, extra) {
  const body = JSON.stringify(Object.assign({ __type: 'com.amazonaws.dynamodb.v20120810#' + type, message }, extra || {}));
  res.writeHead(status, Object.assign({ 'Content-Type': 'application/x-amz-json-1.0',
    'Content-Length': Buffer.byteLength(body) }, extraHeaders || {}));
  res.end(body);
}

function proxy(req, body, res, corrupt) {
  const headers = Object.assign({}, req.headers);
  const up = http.request({ host: '127.0.0.1', port: Number(upPort), method: req.method,
    path: req.url, headers }, (ur) => {
    const chunks = [];
    ur.on('data', (c) => chunks.push(c));
    ur.on('end', () => {
      const h = Object.assign({}, ur.headers);
      if (corrupt) h['x-amz-crc32'] = String((Number(h['x-amz-crc32'] || 0) + 1) % 4294967296);
      res.writeHead(ur.statusCode, h);
      res.end(Buffer.concat(chunks));
    });
  });
  up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  up.end(body);
}

// Sends the first half of each table's writes upstream and answers with
// the other half as UnprocessedItems, as DynamoDB does under load.
function halfWrite(req, body, res) {
  const input = JSON.parse(body.toString());
  const kept = {}, left = {};
  for (const [t, reqs] of Object.entries(input.RequestItems)) {
    const h = Math.ceil(reqs.length / 2);
    kept[t] = reqs.slice(0, h);
    if (reqs.length > h) left[t] = reqs.slice(h);
  }
  const fwd = Buffer.from(JSON.stringify(Object.assign({}, input, { RequestItems: kept })));
  const headers = Object.assign({}, req.headers, { 'content-length': String(fwd.length) });
  delete headers['x-amz-crc32'];
  const up = http.request({ host: '127.0.0.1', port: Number(upPort), method: req.method,
    path: req.url, headers }, (ur) => {
    const chunks = [];
    ur.on('data', (c) => chunks.push(c));
    ur.on('end', () => {
      const out = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      out.UnprocessedItems = left;
      const b = JSON.stringify(out);
      res.writeHead(ur.statusCode, { 'Content-Type': 'application/x-amz-json-1.0',
        'Content-Length': Buffer.byteLength(b) });
      res.end(b);
    });
  });
  up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  up.end(fwd);
}

const keys = {};
for (const kv of (process.env.FLAKY_KEYS || '').split(',')) {
  const i = kv.indexOf(':');
  if (i > 0) keys[kv.slice(0, i)] = kv.slice(i + 1);
}
const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
const hmac = (k, s) => crypto.createHmac('sha256', k).update(s).digest();

// null when the request is signed right, else [type, message].
function verify(req, body) {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/
    .exec(req.headers.authorization || '');
  if (!m) return ['IncompleteSignatureException', 'bad Authorization header'];
  const [, ak, date, region, service, signed, sig] = m;
  if (!(ak in keys)) return ['UnrecognizedClientException', 'The security token included in the request is invalid.'];
  const names = signed.split(';');
  for (const need of ['host', 'x-amz-date', 'x-amz-target'])
    if (!names.includes(need)) return ['InvalidSignatureException', need + ' is not signed'];
  if (req.headers['x-amz-security-token'] && !names.includes('x-amz-security-token'))
    return ['InvalidSignatureException', 'the session token is not signed'];
  const amzDate = req.headers['x-amz-date'] || '';
  if (amzDate.slice(0, 8) !== date || service !== 'dynamodb')
    return ['InvalidSignatureException', 'bad credential scope'];
  const canon = [req.method, req.url, '',
    ...names.map((n) => n + ':' + String(req.headers[n] || '').trim().replace(/\s+/g, ' ')),
    '', signed, sha(body)].join('\n');
  const sts = ['AWS4-HMAC-SHA256', amzDate, [date, region, service, 'aws4_request'].join('/'), sha(canon)].join('\n');
  let k = hmac('AWS4' + keys[ak], date);
  k = hmac(k, region); k = hmac(k, service); k = hmac(k, 'aws4_request');
  if (hmac(k, sts).toString('hex') !== sig)
    return ['InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.'];
  return null;
}

// FLAKY_TLS_CERT and FLAKY_TLS_KEY (PEM files): serve HTTPS instead.
const tls = process.env.FLAKY_TLS_CERT ? {
  cert: require('fs').readFileSync(process.env.FLAKY_TLS_CERT),
  key: require('fs').readFileSync(process.env.FLAKY_TLS_KEY),
} : null;
const handler = (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    k++;
    const body = Buffer.concat(chunks);
    const cred = /Credential=([^/]+)\/\d+\/([^/]+)\//.exec(req.headers.authorization || '');
    console.error('REQ ' + k + ' ' + (req.headers['x-amz-target'] || '') + ' KEY=' + (cred ? cred[1] : '-') + ' REGION=' + (cred ? cred[2] : '-') +
      ' TOKEN=' + (req.headers['x-amz-security-token'] ? 'yes' : 'no'));
    if (mode === 'verify') {
      const bad = verify(req, body);
      if (bad) return send(res, 400, bad[0], bad[1]);
    }
    // ThrottlingReasons: the shape AWS gives a ThrottlingException since
    // 2025 (API reference, ThrottlingReason: reason, resource).
    if (mode === 'throttle' && k <= k0)
      return send(res, 400, 'ThrottlingException', 'Rate of requests exceeds the allowed throughput.', null,
        { ThrottlingReasons: [{ reason: 'TableReadKeyRangeThroughputExceeded', resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/Big' }] });
    if (mode === 'every' && k % k0 === 0)
      return send(res, 400, 'ProvisionedThroughputExceededException',
        'The level of configured provisioned throughput for the table was exceeded.');
    if (mode === '503' && k <= k0)
      return send(res, 503, 'ServiceUnavailable', 'Service unavailable');
    if (mode === 'drop' && k <= k0)
      return req.socket.destroy();
    if (mode === 'hang' && k <= k0)
      return;
    if (mode === 'hang-scan' && /\.Scan$/.test(req.headers['x-amz-target'] || ''))
      return;
    const isWrite = /\.BatchWriteItem$/.test(req.headers['x-amz-target'] || '');
    if (isWrite)
      writes++;
    if (mode === 'fail-write' && isWrite && writes === k0)
      return send(res, 500, 'InternalServerError', 'Internal server error');
    if (mode === 'unprocessed' && isWrite && writes <= k0)
      return halfWrite(req, body, res);
    proxy(req, body, res, mode === 'crc' && k <= k0);
  });
};
const server = tls ? require('https').createServer(tls, handler) : http.createServer(handler);
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
