#!/usr/bin/env python3
"""The image `make image` builds (tools/image.sh), tested as a container
would run it, without a container runtime (none can start in this
sandbox): its oci-archive unpacked (index, manifest, config, layers), its
entry point run as PID 1 under chroot in new mount, network and PID
namespaces (so it listens on 0.0.0.0:8000 as inside a container, without
meeting another 8000 on the machine), a host folder bound on its volume.
The AWS CLI asks it; SIGTERM stops it; a restart finds the data.

  image.py TAR TMPDIR           TAP lines (no plan)
  image.py TAR TMPDIR --bench N the median of N starts with the default
                                command: milliseconds from the exec of the
                                entry point (after chroot, as PID 1) to the
                                first answered ListTables

Needs root (chroot, unshare), util-linux's unshare, iproute2's ip, the
aws command line. Expectations: DynamoDB Local's image (amazon/dynamodb-
local: WORKDIR /home/dynamodblocal, CMD -jar DynamoDBLocal.jar -inMemory,
port 8000) and issue 43 item 5 (at most 12 MB).
"""
import gzip
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time

TAR, TMP = sys.argv[1], sys.argv[2]
BENCH = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == '--bench' else 0
n = int(os.environ.get('TAP_START', '0'))   # numbered on from the suite's other tests
bad = 0


def ok(cond, what, detail=None):
    global n, bad
    n += 1
    print(('ok' if cond else 'not ok') + ' %d - image: %s' % (n, what))
    if not cond:
        bad = 1
        if detail is not None:
            print('#   ' + str(detail)[:1500].replace('\n', '\n#   '))
    sys.stdout.flush()


def unpack(tar, root):
    """The image's config, its layers extracted into root in order."""
    d = os.path.join(TMP, 'oci')
    with tarfile.open(tar) as t:
        t.extractall(d)
    blob = lambda dg: os.path.join(d, 'blobs', *dg.split(':'))
    index = json.load(open(os.path.join(d, 'index.json')))
    manifest = json.load(open(blob(index['manifests'][0]['digest'])))
    config = json.load(open(blob(manifest['config']['digest'])))
    for layer in manifest['layers']:
        f = blob(layer['digest'])
        opener = gzip.open if layer['mediaType'].endswith('gzip') else open
        with opener(f, 'rb') as raw, tarfile.open(fileobj=raw, mode='r|') as t:
            t.extractall(root)
    return config


LAUNCH = r'''
import os, sys, time
root, wd = sys.argv[1], sys.argv[2]
os.chroot(root)
os.chdir(wd)
print("exec-at %.9f" % time.monotonic(), flush=True)
os.execv(sys.argv[3], sys.argv[3:])
'''


class Server:
    """The entry point as PID 1: unshare -p -f, then chroot and exec."""

    def __init__(self, root, cfg, args):
        c = cfg['config']
        argv = c['Entrypoint'] + args
        self.log = open(os.path.join(TMP, 'serve.log'), 'w+')
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(['unshare', '-p', '-f', sys.executable, '-c', LAUNCH, root,
                                   c.get('WorkingDir', '/'), *argv], stdout=self.log, stderr=subprocess.STDOUT)

    def pid(self):
        """ddbx's pid as seen here (the unshare's child)."""
        for _ in range(100):
            try:
                kids = open('/proc/%d/task/%d/children' % (self.p.pid, self.p.pid)).read().split()
                if kids:
                    return int(kids[0])
            except OSError:
                pass
            time.sleep(0.01)
        return None

    def output(self, want=None):
        """What it printed (waiting up to 2 s for `want` in it)."""
        t0 = time.monotonic()
        while want and want not in open(self.log.name).read() and time.monotonic() - t0 < 2:
            time.sleep(0.01)
        self.log.flush()
        self.log.seek(0)
        return self.log.read()


def answered(port=8000, timeout=10.0):
    """Seconds until a ListTables is answered 200 (None: never)."""
    t0 = time.monotonic()
    body = b'{}'
    req = (b'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n'
           b'X-Amz-Target: DynamoDB_20120810.ListTables\r\nAuthorization: AWS4-HMAC-SHA256 '
           b'Credential=AKIDBENCH/20261206/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00\r\n'
           b'Content-Length: 2\r\nConnection: close\r\n\r\n' + body)
    while time.monotonic() - t0 < timeout:
        try:
            s = socket.create_connection(('127.0.0.1', port), timeout=1)
            s.sendall(req)
            got = s.recv(64)
            s.close()
            if got.startswith(b'HTTP/1.1 200'):
                return time.monotonic()
        except OSError:
            time.sleep(0.0005)
    return None


def aws(*args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID='AKIDIMAGE', AWS_SECRET_ACCESS_KEY='x', AWS_DEFAULT_REGION='us-east-1',
               AWS_PAGER='', AWS_EC2_METADATA_DISABLED='true')
    r = subprocess.run(['aws', '--endpoint-url', 'http://127.0.0.1:8000', '--output', 'json', 'dynamodb', *args],
                       env=env, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def stop(srv):
    pid = srv.pid()
    if pid:
        os.kill(pid, signal.SIGTERM)
    try:
        return srv.p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        srv.p.kill()
        return None


def main():
    root = os.path.join(TMP, 'root')
    vol = os.path.join(TMP, 'volume')
    os.makedirs(root)
    os.makedirs(vol)
    size = os.path.getsize(TAR)
    cfg = unpack(TAR, root)
    c = cfg['config']
    subprocess.run(['ip', 'link', 'set', 'lo', 'up'], check=True)
    data = os.path.join(root, 'home/dynamodblocal/data')
    subprocess.run(['mount', '--bind', vol, data], check=True)
    if BENCH:
        times = []
        for _ in range(BENCH):
            srv = Server(root, cfg, ['-jar', 'DynamoDBLocal.jar', '-inMemory'])
            t = answered()
            at = [float(l.split()[1]) for l in srv.output('exec-at').splitlines() if l.startswith('exec-at ')]
            times.append((t - at[0]) * 1000 if t and at else float('nan'))
            stop(srv)
        times.sort()
        print('%.1f' % times[len(times) // 2])
        return 0
    ok(size <= 12 * 1000 * 1000, 'the image archive is at most 12 MB (%d bytes)' % size)
    files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)
    ok(files[-1] == 'usr/bin/ddbx' and all(f.startswith(('lib', 'usr/bin/ddbx')) for f in files),
       'FROM scratch: ddbx and the libraries it loads, nothing else', files)
    ok(c['Entrypoint'] == ['/usr/bin/ddbx', 'serve', '--host', '0.0.0.0', '--port', '8000'] and
       c.get('Cmd') == ['-jar', 'DynamoDBLocal.jar', '-inMemory'] and c.get('WorkingDir') == '/home/dynamodblocal' and
       '/home/dynamodblocal/data' in c.get('Volumes', {}) and '8000/tcp' in c.get('ExposedPorts', {}),
       "entry point, DynamoDB Local's default command, working directory, volume and port", c)
    # The command a compose file gives DynamoDB Local's image.
    compose = ['-jar', 'DynamoDBLocal.jar', '-sharedDb', '-dbPath', './data']
    srv = Server(root, cfg, compose)
    first = answered()
    ok(first is not None and 'listening on http://0.0.0.0:8000' in srv.output('listening'),
       'the entry point with -jar DynamoDBLocal.jar -sharedDb -dbPath ./data listens on 0.0.0.0:8000', srv.output())
    if first is None:
        stop(srv)
        return 1
    rc, out, err = aws('create-table', '--table-name', 'Img', '--billing-mode', 'PAY_PER_REQUEST',
                       '--attribute-definitions', 'AttributeName=pk,AttributeType=S',
                       '--key-schema', 'AttributeName=pk,KeyType=HASH')
    ok(rc == 0 and '"TableName": "Img"' in out, 'aws dynamodb create-table is answered', err)
    rc, out, err = aws('put-item', '--table-name', 'Img', '--item', '{"pk":{"S":"kept"}}')
    ok(rc == 0, 'aws dynamodb put-item is answered', err)
    ok(stop(srv) == 0 and 'terminated, stopping' in srv.output('stopping'), 'SIGTERM to PID 1 stops it cleanly (exit 0)',
       srv.output())
    ok(os.listdir(vol) and 'shared-local-instance.db' in os.listdir(vol),
       'the data is in the volume, as shared-local-instance.db', os.listdir(vol))
    srv = Server(root, cfg, compose)
    answered()
    rc, out, err = aws('get-item', '--table-name', 'Img', '--key', '{"pk":{"S":"kept"}}')
    ok(rc == 0 and '"kept"' in out, 'a restart on the same volume finds the item', (out, err))
    stop(srv)
    srv = Server(root, cfg, c['Cmd'])
    ok(answered() is not None, "the default command (DynamoDB Local's -inMemory) is answered", srv.output())
    stop(srv)
    return bad


if __name__ == '__main__':
    if os.environ.get('DDBX_IMAGE_NS') != '1':
        # Into new mount and network namespaces first (the volume's bind
        # mount and port 8000 stay in them).
        os.environ['DDBX_IMAGE_NS'] = '1'
        os.execvp('unshare', ['unshare', '-m', '-n', sys.executable] + sys.argv)
    sys.exit(main())
