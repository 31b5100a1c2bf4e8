"""Test harness: starts Debian's clickhouse-server (18.16) from its own configuration in a temporary
folder, listening on 127.0.0.1 only, on free ports it picks, with its own data, log and tmp paths;
waits until it answers over HTTP; stops ONLY the servers it started, by their pid (on exit, on
SIGTERM/SIGINT, and in `stop()`). With shards=2: two server processes, each configured with a
`remote_servers` cluster (CLUSTER) of both, for Distributed tables.

As a module:  with ClickHouse(shards=2) as ch: ch.urls, ch.query(sql, shard=0), ch.kill(0), ch.restart(0)
As a command: clickhouse_server.py [--shards N] -- CMD ARGS...  runs CMD with CH_URL (shard 0),
              CH_URLS (space separated), CH_CLUSTER and CH_PIDS in its environment, then stops.
EVT_CH_KEEP=1 keeps the temporary folder (configuration, data, logs) after the servers stop.
Server binary missing: exit 77 (ctest SKIP_RETURN_CODE) locally; under CI=true a failure (1)."""
import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SERVER = os.environ.get('CLICKHOUSE_SERVER', '/usr/sbin/clickhouse-server')
CLUSTER = 'evt'
SKIP = 77


def server_missing_exit():
    """When the binary is absent: a skip locally, a failure in CI (the check must run there)."""
    if os.path.exists(SERVER):
        return
    ci = os.environ.get('CI', '').lower() in ('1', 'true', 'yes')
    print('%s: %s not found (scripts/deps.sh check installs clickhouse-server)' %
          ('FAIL' if ci else 'SKIP', SERVER), file=sys.stderr)
    sys.exit(1 if ci else SKIP)


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(('127.0.0.1', 0))
    p = s.getsockname()[1]
    s.close()
    return p


CONFIG = """<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{d}/log/server.log</log><errorlog>{d}/log/err.log</errorlog>
    <size>20M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>{http}</http_port>
  <tcp_port>{tcp}</tcp_port>
  <path>{d}/data/</path>
  <tmp_path>{d}/tmp/</tmp_path>
  <user_files_path>{d}/user_files/</user_files_path>
  <format_schema_path>{d}/format_schemas/</format_schema_path>
  <max_connections>64</max_connections>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <users_config>{d}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <remote_servers><{cluster}>{shards}</{cluster}></remote_servers>
{tls}</yandex>
"""
# https_port with a certificate the harness makes (make_tls): ClickHouse's openSSL server section.
TLS = """  <https_port>{https}</https_port>
  <openSSL><server>
    <certificateFile>{crt}</certificateFile><privateKeyFile>{key}</privateKeyFile>
    <verificationMode>none</verificationMode><loadDefaultCAFile>false</loadDefaultCAFile>
    <cacheSessions>true</cacheSessions><disableProtocols>sslv2,sslv3</disableProtocols>
    <preferServerCiphers>true</preferServerCiphers>
  </server></openSSL>
"""
SHARD = '<shard><replica><host>127.0.0.1</host><port>{tcp}</port></replica></shard>'
USERS = """<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default>{users}</users>
  <quotas><default></default></quotas>
</yandex>
"""


USER = '<{name}><password>{pw}</password><networks><ip>127.0.0.1</ip></networks>' \
       '<profile>default</profile><quota>default</quota></{name}>'


def make_tls(d):
    """A certificate authority and a server certificate for 127.0.0.1 (subjectAltName IP and DNS
    localhost) signed by it, made with openssl in d: returns (ca.crt, server.crt, server.key)."""
    ca_key, ca_crt = os.path.join(d, 'ca.key'), os.path.join(d, 'ca.crt')
    key, csr, crt = os.path.join(d, 'server.key'), os.path.join(d, 'server.csr'), os.path.join(d, 'server.crt')
    ext = os.path.join(d, 'san.ext')
    with open(ext, 'w') as f:
        f.write('subjectAltName = IP:127.0.0.1, DNS:localhost\nbasicConstraints = CA:FALSE\n')
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', ca_key, '-out', ca_crt,
                    '-days', '2', '-subj', '/CN=evtrace test CA'], **quiet)
    subprocess.run(['openssl', 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr,
                    '-subj', '/CN=127.0.0.1'], **quiet)
    subprocess.run(['openssl', 'x509', '-req', '-in', csr, '-CA', ca_crt, '-CAkey', ca_key, '-CAcreateserial',
                    '-out', crt, '-days', '2', '-extfile', ext], **quiet)
    os.chmod(key, 0o600)
    return ca_crt, crt, key


class ClickHouse:
    def __init__(self, shards=1, keep=False, https=False, users=None):
        """https: each server also listens on an https_port (self.https_urls) with a certificate
        signed by a CA the harness makes (self.ca_file). users: {name: password} besides default."""
        server_missing_exit()
        self.dir = tempfile.mkdtemp(prefix='evt-clickhouse-')
        self.https_urls = []
        self.ca_file = None
        tls_files = make_tls(self.dir) if https else None
        if tls_files:
            self.ca_file = tls_files[0]
        users_xml = ''.join(USER.format(name=n, pw=pw) for n, pw in (users or {}).items())
        self.keep = keep or os.environ.get('EVT_CH_KEEP') == '1'  # keep the folder (logs) to debug
        self.procs = []
        ports = [(free_port(), free_port()) for _ in range(shards)]
        shard_xml = ''.join(SHARD.format(tcp=tcp) for _, tcp in ports)
        self.urls = []
        self.dirs = []
        for i, (http, tcp) in enumerate(ports):
            d = os.path.join(self.dir, 'shard%d' % i)
            for sub in ('log', 'data', 'tmp', 'user_files', 'format_schemas'):
                os.makedirs(os.path.join(d, sub))
            tls = ''
            if tls_files:
                hp = free_port()
                tls = TLS.format(https=hp, crt=tls_files[1], key=tls_files[2])
                self.https_urls.append('https://127.0.0.1:%d/' % hp)
            with open(os.path.join(d, 'config.xml'), 'w') as f:
                f.write(CONFIG.format(d=d, http=http, tcp=tcp, cluster=CLUSTER, shards=shard_xml, tls=tls))
            with open(os.path.join(d, 'users.xml'), 'w') as f:
                f.write(USERS.format(users=users_xml))
            self.dirs.append(d)
            self.urls.append('http://127.0.0.1:%d/' % http)
        self.cluster = CLUSTER
        atexit.register(self.stop)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)
        for d in self.dirs:
            self.procs.append(self._spawn(d))
        for i in range(shards):
            self.wait(i)

    @staticmethod
    def _spawn(d):
        out = open(os.path.join(d, 'log', 'stdout.log'), 'a')
        return subprocess.Popen([SERVER, '--config-file=' + os.path.join(d, 'config.xml')], cwd=d, stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def restart(self, shard):
        """Starts a stopped (killed) server again on the same ports and data, and waits for it.
        First removes the tmp_* part directories a killed merge or insert left: ClickHouse 18.16
        keeps them (temporary_directories_lifetime, a day) and until then fails every merge and
        mutation of those parts ("Directory .../tmp_merge_... already exists")."""
        if self.procs[shard].poll() is None:
            raise RuntimeError('shard %d is running' % shard)
        data = os.path.join(self.dirs[shard], 'data', 'data')
        for db in os.listdir(data) if os.path.isdir(data) else []:
            for table in os.listdir(os.path.join(data, db)):
                tdir = os.path.join(data, db, table)
                for part in os.listdir(tdir) if os.path.isdir(tdir) else []:
                    if part.startswith('tmp_'):
                        shutil.rmtree(os.path.join(tdir, part), ignore_errors=True)
        self.procs[shard] = self._spawn(self.dirs[shard])
        self.wait(shard)

    def _on_signal(self, signum, _frame):
        self.stop()
        sys.exit(128 + signum)

    def wait(self, shard, timeout=60.0):
        """Until the server answers SELECT 1; its log in the failure when it died or timed out."""
        end = time.time() + timeout
        while time.time() < end:
            if self.procs[shard].poll() is not None:
                break
            try:
                if self.query('SELECT 1', shard=shard).strip() == '1':
                    return
            except (OSError, RuntimeError):
                pass
            time.sleep(0.2)
        log = ''
        for name in ('stdout.log', 'err.log'):
            p = os.path.join(self.dirs[shard], 'log', name)
            if os.path.exists(p):
                with open(p, errors='replace') as f:
                    log += f.read()[-3000:]
        self.stop()
        raise RuntimeError('clickhouse-server shard %d did not answer on %s:\n%s' % (shard, self.urls[shard], log))

    def query(self, sql, shard=0, data=None):
        """Runs one statement over HTTP; returns the body (text). RuntimeError with the server's
        message on an HTTP error."""
        if data is None:
            req = urllib.request.Request(self.urls[shard], data=sql.encode())
        else:
            req = urllib.request.Request(self.urls[shard] + '?query=' + urllib.parse.quote(sql), data=data)
        try:
            with urllib.request.urlopen(req, timeout=600) as r:
                return r.read().decode()
        except urllib.error.HTTPError as e:
            raise RuntimeError('%s: %s' % (sql[:200], e.read().decode(errors='replace').strip()))

    def kill(self, shard):
        """Stops one server (SIGKILL, by its pid): to test a server that went away."""
        p = self.procs[shard]
        if p and p.poll() is None:
            p.kill()
            p.wait()

    def stop(self):
        """Stops the servers this harness started (SIGTERM, then SIGKILL after 20 s); by pid only."""
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs = []
        if self.dir and not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def main(argv):
    shards = 1
    if argv[:1] == ['--shards']:
        shards = int(argv[1])
        argv = argv[2:]
    if argv[:1] == ['--']:
        argv = argv[1:]
    if not argv:
        print('usage: clickhouse_server.py [--shards N] -- CMD ARGS...', file=sys.stderr)
        return 2
    with ClickHouse(shards) as ch:
        env = dict(os.environ, CH_URL=ch.urls[0], CH_URLS=' '.join(ch.urls), CH_CLUSTER=ch.cluster,
                   CH_PIDS=' '.join(str(p.pid) for p in ch.procs))
        return subprocess.call(argv, env=env)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
