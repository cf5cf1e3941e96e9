'use strict';
/*
 * ddb — two ways to send DynamoDB requests, with one answer shape.
 *
 * HttpClient speaks the DynamoDB JSON 1.0 protocol over node's http module
 * (X-Amz-Target: DynamoDB_20120810.OP, a syntactically valid but fake
 * AWS4-HMAC-SHA256 Authorization header: dynalite checks its form only).
 * ApiDriver runs `ddbx api --db FILE` once and exchanges one JSON line per
 * request, in order.
 *
 * Both resolve call(op, input) to {Output: {...}} or
 * {Error: {Code, Message, ...extra}}: a DynamoDB error type such as
 * "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException" is
 * cut to the part after '#', and "message"/"Message" both become Message.
 * Transport failures (connection refused, ddbx exiting) reject.
 */
const http = require('http');
const { spawn } = require('child_process');
const readline = require('readline');

/* A request unanswered this long is a hang, reported as an error. */
const TIMEOUT_MS = 30000;

function normaliseError(body) {
  const type = String(body.__type || body.code || 'UnknownError');
  const code = type.includes('#') ? type.slice(type.lastIndexOf('#') + 1) : type;
  const err = { Code: code, Message: body.message !== undefined ? body.message : body.Message };
  for (const k of Object.keys(body)) {
    if (k !== '__type' && k !== 'message' && k !== 'Message' && k !== 'code') err[k] = body[k];
  }
  return { Error: err };
}

class HttpClient {
  constructor(port, host) {
    this.port = port;
    this.host = host || '127.0.0.1';
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  }

  call(op, input) {
    const body = Buffer.from(JSON.stringify(input));
    const headers = {
      'Content-Type': 'application/x-amz-json-1.0',
      'Content-Length': body.length,
      'X-Amz-Target': 'DynamoDB_20120810.' + op,
      'X-Amz-Date': '20260101T000000Z',
      Authorization: 'AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request, ' +
        'SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=' + '0'.repeat(64),
    };
    return new Promise((resolve, reject) => {
      const req = http.request({ host: this.host, port: this.port, method: 'POST', path: '/', headers, agent: this.agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = text ? JSON.parse(text) : {};
          } catch (e) {
            return reject(new Error(`HTTP ${res.statusCode}: unparseable body: ${text.slice(0, 200)}`));
          }
          if (res.statusCode === 200) resolve({ Output: parsed });
          else resolve(normaliseError(parsed));
        });
      });
      req.on('error', reject);
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer to ${op} within ${TIMEOUT_MS} ms`)));
      req.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

class ApiDriver {
  /* bin: the ddbx binary; db: the database file (created by ddbx). */
  constructor(bin, db) {
    this.proc = spawn(bin, ['api', '--db', db], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.pending = [];
    this.stderr = '';
    this.dead = null;
    this.proc.stderr.on('data', (c) => {
      this.stderr = (this.stderr + c.toString('utf8')).slice(-4000);
    });
    this.proc.stdin.on('error', () => {}); // reported through 'exit'
    const rl = readline.createInterface({ input: this.proc.stdout, crlfDelay: Infinity });
    rl.on('line', (line) => {
      const p = this.pending.shift();
      if (!p) {
        this.dead = this.dead || new Error('ddbx api wrote an unrequested line: ' + line.slice(0, 200));
        return;
      }
      let v;
      try {
        v = JSON.parse(line);
      } catch (e) {
        return p.reject(new Error('ddbx api wrote a line that is not JSON: ' + line.slice(0, 300)));
      }
      if (v && typeof v === 'object' && v.Error && typeof v.Error === 'object') {
        // Same shape as HttpClient: extra members (CancellationReasons,
        // Item) may sit beside Code/Message or in Error itself.
        const err = Object.assign({}, v.Error);
        for (const k of Object.keys(v)) if (k !== 'Error') err[k] = v[k];
        p.resolve({ Error: err });
      } else if (v && typeof v === 'object' && v.Output && typeof v.Output === 'object') {
        p.resolve({ Output: v.Output });
      } else {
        p.reject(new Error('ddbx api answered neither Output nor Error: ' + line.slice(0, 300)));
      }
    });
    this.proc.on('exit', (code, signal) => {
      this.dead = new Error(`ddbx api exited (code ${code}, signal ${signal}); stderr: ${this.stderr.slice(-1500)}`);
      for (const p of this.pending.splice(0)) p.reject(this.dead);
    });
    this.proc.on('error', (e) => {
      this.dead = new Error('cannot run ddbx api: ' + e.message);
      for (const p of this.pending.splice(0)) p.reject(this.dead);
    });
  }

  call(op, input) {
    return this.raw(JSON.stringify({ Operation: op, Input: input }), op);
  }

  /* Writes one raw line (also for malformed-input tests). */
  raw(line, what) {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.dead = new Error(`ddbx api gave no answer to ${what || 'a line'} within ${TIMEOUT_MS} ms`);
        for (const p of this.pending.splice(0)) p.reject(this.dead);
        this.proc.kill('SIGKILL');
      }, TIMEOUT_MS);
      const done = (f) => (v) => { clearTimeout(timer); f(v); };
      this.pending.push({ resolve: done(resolve), reject: done(reject) });
      this.proc.stdin.write(line + '\n');
    });
  }

  close() {
    return new Promise((resolve) => {
      if (this.dead) return resolve();
      this.proc.once('exit', () => resolve());
      this.proc.stdin.end();
    });
  }
}

module.exports = { HttpClient, ApiDriver, normaliseError };
