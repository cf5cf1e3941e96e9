'use strict';
/*
 * The AWS side of the credential chain, played on 127.0.0.1 (port chosen
 * by the kernel; prints "PORT <n>") for tests/creds/run.sh. One server
 * answers, by path and method:
 *
 *   POST /            STS's query API (AssumeRole, AssumeRoleWithWebIdentity,
 *                     GetCallerIdentity), or DynamoDB when x-amz-target is
 *                     set (ListTables answers {"TableNames":["Fake"]})
 *   GET  /federation/credentials   the IAM Identity Center portal
 *                     (GetRoleCredentials, bearer token in x-amz-sso_bearer_token)
 *   POST /token       SSO OIDC CreateToken (grantType refresh_token)
 *   GET  /container/* the ECS/EKS container credentials endpoint
 *   PUT  /latest/api/token, GET /latest/meta-data/iam/security-credentials/[ROLE]
 *                     IMDSv2 (FAKE_IMDS=v1only: the token PUT answers 403, so
 *                     only IMDSv1 works; FAKE_IMDS=hang: the token PUT never answers)
 *   CONNECT host:443  as an HTTPS proxy: logged and refused (which endpoint was chosen)
 *
 * Every request must be what AWS requires, or it is refused as AWS would:
 * SigV4 checked with node's own HMAC (service "sts" or "dynamodb", every
 * required header signed, the session token signed) against the base keys
 * in FAKE_KEYS ("AKID:SECRET,...") and the temporary keys this server
 * issued; AssumeRoleWithWebIdentity must NOT be signed and must carry the
 * token in FAKE_WEB_TOKEN; MFA codes must be FAKE_MFA_CODE; an ExternalId
 * must be FAKE_EXTERNAL_ID; the portal wants a token from FAKE_SSO_TOKENS
 * (comma-separated) or one this server refreshed; OIDC wants
 * FAKE_SSO_CLIENT / FAKE_SSO_CLIENT_SECRET / FAKE_SSO_REFRESH; the container
 * endpoint wants Authorization: FAKE_CONTAINER_AUTH; IMDS wants the token
 * it gave. Temporary credentials expire FAKE_EXPIRES_IN seconds ahead
 * (default DurationSeconds, else 3600).
 *
 * Each request is logged on stderr as one line, never with a secret:
 * "REQ n KIND key=AKID token=yes|no k=v ..." (params of STS calls except
 * WebIdentityToken and TokenCode, which are logged as present or not).
 * Exits when stdin ends.
 */
const crypto = require('crypto');
const http = require('http');
const { URL } = require('url');

const env = process.env;
const keys = {};                 // akid -> {secret, token, arn, account, userId}
for (const kv of (env.FAKE_KEYS || '').split(',')) {
  const i = kv.indexOf(':');
  if (i > 0) keys[kv.slice(0, i)] = { secret: kv.slice(i + 1), token: null,
    arn: 'arn:aws:iam::111122223333:user/' + kv.slice(0, i), account: '111122223333', userId: 'AIDA' + kv.slice(0, i) };
}
const ssoTokens = new Set((env.FAKE_SSO_TOKENS || '').split(',').filter(Boolean));
let imdsToken = null;
let issued = 0;
let n = 0;

const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
const hmac = (k, s) => crypto.createHmac('sha256', k).update(s).digest();
const log = (s) => console.error('REQ ' + n + ' ' + s);

// null when signed right for service, else [code, message].
function verify(req, body, service) {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/
    .exec(req.headers.authorization || '');
  if (!m) return ['MissingAuthenticationToken', 'Request is missing Authentication Token'];
  const [, ak, date, region, svc, signed, sig] = m;
  const k = keys[ak];
  if (!k) return ['InvalidClientTokenId', 'The security token included in the request is invalid.'];
  const names = signed.split(';');
  for (const need of ['host', 'x-amz-date'])
    if (!names.includes(need)) return ['SignatureDoesNotMatch', need + ' is not signed'];
  if (k.token !== null) {
    if (req.headers['x-amz-security-token'] !== k.token)
      return ['InvalidClientTokenId', 'The security token included in the request is invalid.'];
    if (!names.includes('x-amz-security-token'))
      return ['SignatureDoesNotMatch', 'the session token is not signed'];
  }
  const amzDate = req.headers['x-amz-date'] || '';
  if (amzDate.slice(0, 8) !== date || svc !== service)
    return ['SignatureDoesNotMatch', 'Credential should be scoped to a valid service: ' + svc];
  const canon = [req.method, req.url, '',
    ...names.map((h) => h + ':' + String(req.headers[h] || '').trim().replace(/\s+/g, ' ')),
    '', signed, sha(body)].join('\n');
  const sts = ['AWS4-HMAC-SHA256', amzDate, [date, region, svc, 'aws4_request'].join('/'), sha(canon)].join('\n');
  let kk = hmac('AWS4' + k.secret, date);
  kk = hmac(kk, region); kk = hmac(kk, svc); kk = hmac(kk, 'aws4_request');
  if (hmac(kk, sts).toString('hex') !== sig)
    return ['SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.'];
  return null;
}

function xmlError(res, status, code, message) {
  const body = '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>' +
    code + '</Code><Message>' + message + '</Message></Error><RequestId>r-1</RequestId></ErrorResponse>';
  res.writeHead(status, { 'Content-Type': 'text/xml' });
  res.end(body);
}

// New temporary keys, remembered for signature checks.
function issue(prefix, arn, seconds) {
  issued++;
  const ak = 'ASIA' + prefix + issued;
  const k = { secret: prefix.toLowerCase() + 'SECRET' + issued + '/x+y', token: prefix.toLowerCase() + 'TOKEN' + issued + '/z+w',
    arn, account: (arn.split(':')[4] || '111122223333'), userId: 'AROA' + prefix + ':s' + issued };
  keys[ak] = k;
  const exp = new Date(Date.now() + 1000 * Number(env.FAKE_EXPIRES_IN || seconds || 3600));
  return { ak, k, exp: exp.toISOString().replace(/\.\d+Z$/, 'Z') };
}

function credXml(action, c, arn) {
  return '<' + action + 'Response xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><' + action + 'Result>' +
    '<Credentials><AccessKeyId>' + c.ak + '</AccessKeyId><SecretAccessKey>' + c.k.secret +
    '</SecretAccessKey><SessionToken>' + c.k.token + '</SessionToken><Expiration>' + c.exp +
    '</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>' + c.k.userId + '</AssumedRoleId><Arn>' +
    arn + '</Arn></AssumedRoleUser></' + action + 'Result><ResponseMetadata><RequestId>r-1</RequestId>' +
    '</ResponseMetadata></' + action + 'Response>';
}

function sts(req, body, res) {
  const p = new URLSearchParams(body.toString());
  const action = p.get('Action');
  const shown = [];
  for (const [k, v] of p) shown.push(k === 'WebIdentityToken' || k === 'TokenCode' ? k + '=(given)' : k + '=' + v);
  const cred = /Credential=([^/]+)\/\d+\/([^/]+)\//.exec(req.headers.authorization || '');
  log('STS key=' + (cred ? cred[1] : '-') + ' region=' + (cred ? cred[2] : '-') + ' token=' +
    (req.headers['x-amz-security-token'] ? 'yes' : 'no') + ' ' + shown.join(' '));
  if (p.get('Version') !== '2011-06-15') return xmlError(res, 400, 'InvalidAction', 'bad Version');
  if (action === 'AssumeRoleWithWebIdentity') {
    if (req.headers.authorization) return xmlError(res, 400, 'InvalidAction', 'AssumeRoleWithWebIdentity is not signed');
    if (p.get('WebIdentityToken') !== env.FAKE_WEB_TOKEN) return xmlError(res, 400, 'InvalidIdentityToken', 'The web identity token is not valid');
    const role = p.get('RoleArn') || '';
    const name = p.get('RoleSessionName');
    if (!name) return xmlError(res, 400, 'ValidationError', 'RoleSessionName is required');
    const arn = role.replace(':iam::', ':sts::').replace(':role/', ':assumed-role/') + '/' + name;
    const c = issue('WEB', arn);
    res.writeHead(200, { 'Content-Type': 'text/xml' });
    return res.end(credXml(action, c, arn));
  }
  const bad = verify(req, body, 'sts');
  if (bad) return xmlError(res, 403, bad[0], bad[1]);
  const caller = keys[cred[1]];
  if (action === 'GetCallerIdentity') {
    res.writeHead(200, { 'Content-Type': 'text/xml' });
    return res.end('<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>' +
      caller.arn + '</Arn><UserId>' + caller.userId + '</UserId><Account>' + caller.account +
      '</Account></GetCallerIdentityResult></GetCallerIdentityResponse>');
  }
  if (action === 'AssumeRole') {
    const role = p.get('RoleArn') || '';
    const name = p.get('RoleSessionName');
    if (!/^arn:aws:iam::\d{12}:role\/[\w+=,.@-]+$/.test(role)) return xmlError(res, 400, 'ValidationError', 'RoleArn is not a role ARN');
    if (!name || !/^[\w+=,.@-]{2,64}$/.test(name)) return xmlError(res, 400, 'ValidationError', 'RoleSessionName is not valid');
    if (/mfa/.test(role) && (!p.get('SerialNumber') || p.get('TokenCode') !== env.FAKE_MFA_CODE))
      return xmlError(res, 403, 'AccessDenied', 'MultiFactorAuthentication failed with invalid MFA one time pass code.');
    if (/external/.test(role) && p.get('ExternalId') !== env.FAKE_EXTERNAL_ID)
      return xmlError(res, 403, 'AccessDenied', 'User is not authorized to perform: sts:AssumeRole');
    const d = p.get('DurationSeconds');
    const arn = role.replace(':iam::', ':sts::').replace(':role/', ':assumed-role/') + '/' + name;
    const c = issue('ROLE', arn, d ? Number(d) : 3600);
    res.writeHead(200, { 'Content-Type': 'text/xml' });
    return res.end(credXml(action, c, arn));
  }
  return xmlError(res, 400, 'InvalidAction', 'Could not find operation ' + action);
}

function dynamodb(req, body, res) {
  const cred = /Credential=([^/]+)\/\d+\/([^/]+)\//.exec(req.headers.authorization || '');
  log('DYNAMODB key=' + (cred ? cred[1] : '-') + ' region=' + (cred ? cred[2] : '-') + ' token=' +
    (req.headers['x-amz-security-token'] ? 'yes' : 'no') + ' target=' + req.headers['x-amz-target']);
  const bad = verify(req, body, 'dynamodb');
  const send = (status, obj) => {
    const s = JSON.stringify(obj);
    res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': Buffer.byteLength(s) });
    res.end(s);
  };
  if (bad) return send(400, { __type: 'com.amazon.coral.service#' + (bad[0] === 'SignatureDoesNotMatch' ? 'InvalidSignatureException' : 'UnrecognizedClientException'), message: bad[1] });
  const op = (req.headers['x-amz-target'] || '').replace(/^.*\./, '');
  if (op === 'ListTables') return send(200, { TableNames: ['Fake'] });
  if (op === 'DescribeTable') return send(200, { Table: { TableName: 'Fake', TableStatus: 'ACTIVE',
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
    ItemCount: 0, TableSizeBytes: 0, CreationDateTime: 1700000000, BillingModeSummary: { BillingMode: 'PAY_PER_REQUEST' } } });
  if (op === 'Scan' || op === 'Query') return send(200, { Items: [], Count: 0, ScannedCount: 0 });
  return send(400, { __type: 'com.amazonaws.dynamodb.v20120810#UnknownOperationException' });
}

function json(res, status, obj) {
  const s = JSON.stringify(obj);
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(s);
}

function portal(req, u, res) {
  const t = req.headers['x-amz-sso_bearer_token'];
  log('SSO account_id=' + u.searchParams.get('account_id') + ' role_name=' + u.searchParams.get('role_name') +
    ' bearer=' + (t ? (ssoTokens.has(t) ? 'valid' : 'invalid') : 'none'));
  if (!t || !ssoTokens.has(t)) return json(res, 401, { message: 'Session token not found or invalid' });
  const acct = u.searchParams.get('account_id'), role = u.searchParams.get('role_name');
  if (!acct || !role) return json(res, 400, { message: 'account_id and role_name are required' });
  const c = issue('SSO', 'arn:aws:sts::' + acct + ':assumed-role/AWSReservedSSO_' + role + '_abc/user');
  return json(res, 200, { roleCredentials: { accessKeyId: c.ak, secretAccessKey: c.k.secret,
    sessionToken: c.k.token, expiration: Date.parse(c.exp) } });
}

function oidc(body, res) {
  let q = {};
  try { q = JSON.parse(body.toString()); } catch (e) { /* refused below */ }
  log('OIDC grantType=' + q.grantType + ' client=' + (q.clientId === env.FAKE_SSO_CLIENT ? 'ok' : 'bad') +
    ' refresh=' + (q.refreshToken === env.FAKE_SSO_REFRESH ? 'ok' : 'bad'));
  if (q.grantType !== 'refresh_token' || q.clientId !== env.FAKE_SSO_CLIENT ||
      q.clientSecret !== env.FAKE_SSO_CLIENT_SECRET || q.refreshToken !== env.FAKE_SSO_REFRESH)
    return json(res, 400, { error: 'invalid_grant' });
  const t = 'ssoREFRESHEDaccess' + (++issued);
  ssoTokens.add(t);
  return json(res, 200, { accessToken: t, expiresIn: 3600, tokenType: 'Bearer', refreshToken: env.FAKE_SSO_REFRESH });
}

function container(req, res) {
  const a = req.headers.authorization;
  log('CONTAINER path=' + req.url + ' auth=' + (a === undefined ? 'none' : a === env.FAKE_CONTAINER_AUTH ? 'valid' : 'invalid'));
  if (env.FAKE_CONTAINER_AUTH && a !== env.FAKE_CONTAINER_AUTH)
    return json(res, 401, { code: 'AccessDenied', message: 'Authorization header is missing or wrong' });
  const c = issue('ECS', 'arn:aws:sts::444455556666:assumed-role/ecs-task/abc');
  return json(res, 200, { AccessKeyId: c.ak, SecretAccessKey: c.k.secret, Token: c.k.token, Expiration: c.exp,
    RoleArn: 'arn:aws:iam::444455556666:role/ecs-task' });
}

function imds(req, res) {
  const tok = req.headers['x-aws-ec2-metadata-token'];
  if (req.method === 'PUT' && req.url === '/latest/api/token') {
    const ttl = req.headers['x-aws-ec2-metadata-token-ttl-seconds'];
    log('IMDS token-put ttl=' + (ttl || 'none'));
    if (env.FAKE_IMDS === 'hang') return;
    if (env.FAKE_IMDS === 'v1only') { res.writeHead(403); return res.end(); }
    if (!ttl || !(Number(ttl) >= 1 && Number(ttl) <= 21600)) { res.writeHead(400); return res.end(); }
    imdsToken = 'imdsSESSION' + (++issued);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    return res.end(imdsToken);
  }
  log('IMDS get path=' + req.url + ' session=' + (tok === undefined ? 'none' : tok === imdsToken ? 'valid' : 'invalid'));
  if (env.FAKE_IMDS !== 'v1only' && tok !== imdsToken) { res.writeHead(401); return res.end(); }
  if (req.url === '/latest/meta-data/iam/security-credentials/') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    return res.end('ddbx-instance-role');
  }
  if (req.url === '/latest/meta-data/iam/security-credentials/ddbx-instance-role') {
    const c = issue('IMDS', 'arn:aws:sts::777788889999:assumed-role/ddbx-instance-role/i-0abc');
    return json(res, 200, { Code: 'Success', LastUpdated: new Date().toISOString(), Type: 'AWS-HMAC',
      AccessKeyId: c.ak, SecretAccessKey: c.k.secret, Token: c.k.token, Expiration: c.exp });
  }
  res.writeHead(404);
  res.end();
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    n++;
    const body = Buffer.concat(chunks);
    const u = new URL(req.url, 'http://127.0.0.1');
    if (u.pathname.startsWith('/latest/')) return imds(req, res);
    if (u.pathname.startsWith('/container/')) return container(req, res);
    if (req.method === 'GET' && u.pathname === '/federation/credentials') return portal(req, u, res);
    if (req.method === 'POST' && u.pathname === '/token') return oidc(body, res);
    if (req.method === 'POST' && req.headers['x-amz-target']) return dynamodb(req, body, res);
    if (req.method === 'POST' && u.pathname === '/') return sts(req, body, res);
    log('UNKNOWN ' + req.method + ' ' + u.pathname);
    res.writeHead(404);
    res.end();
  });
});
// As an HTTPS proxy (https_proxy=http://127.0.0.1:PORT): logs the host a
// CONNECT asks for and refuses it, so a test sees which AWS endpoint ddbx
// chose without anything leaving the machine.
server.on('connect', (req, sock) => {
  n++;
  log('CONNECT ' + req.url);
  sock.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
});
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
