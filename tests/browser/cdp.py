"""A tiny Chrome DevTools Protocol client over --remote-debugging-pipe (no websocket, no npm):
Debian's chromium reads commands from its fd 3 and writes replies and events to fd 4, each a
JSON message ended by a NUL byte. One page target, attached with flatten=true; every event of
that session is kept in `events` for the caller to inspect. Never downloads a browser: it runs
the `chromium` on PATH (or $EVT_CHROMIUM)."""
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars',
         '--mute-audio', '--disable-extensions', '--disable-dev-shm-usage', '--remote-debugging-pipe']


class CdpError(Exception):
    pass


def find_chromium():
    return os.environ.get('EVT_CHROMIUM') or shutil.which('chromium')


class Browser:
    def __init__(self, width=1400, height=1000, timeout=60):
        exe = find_chromium()
        if not exe:
            raise CdpError('chromium missing (Debian package chromium, scripts/deps.sh check)')
        self.udd = tempfile.mkdtemp(prefix='evt-chromium-')
        self.timeout = timeout
        cmd_r, self.cmd_w = os.pipe()   # we write commands, chromium reads them on its fd 3
        self.res_r, res_w = os.pipe()   # chromium writes replies on its fd 4, we read them
        argv = [exe] + FLAGS + ['--user-data-dir=' + self.udd, '--window-size=%d,%d' % (width, height),
                                'about:blank']
        # the shell puts the two pipe ends on fds 3 and 4, then becomes chromium
        sh = 'exec "$@" 3<&%d 4>&%d' % (cmd_r, res_w)
        self.err = tempfile.TemporaryFile()  # chromium's own log (D-Bus noise): a file, never a full pipe
        self.proc = subprocess.Popen(['sh', '-c', sh, 'sh'] + argv, pass_fds=(cmd_r, res_w),
                                     stdout=subprocess.DEVNULL, stderr=self.err)
        os.close(cmd_r)
        os.close(res_w)
        self.buf = b''
        self.next_id = 0
        self.events = []
        self.session = None
        tid = self.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        self.session = self.call('Target.attachToTarget', {'targetId': tid, 'flatten': True})['sessionId']
        for dom in ('Page', 'Runtime', 'Log', 'Network'):
            self.call(dom + '.enable')
        self.call('Emulation.setDeviceMetricsOverride',
                  {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False})

    def _read(self, deadline):
        while b'\0' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CdpError('no reply from chromium within %ds' % self.timeout)
            r, _, _ = select.select([self.res_r], [], [], left)
            if not r:
                continue
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                self.err.seek(0)
                err = self.err.read().decode('utf-8', 'replace')
                raise CdpError('chromium closed the pipe (exit %r) %s' % (self.proc.poll(), err[-2000:]))
            self.buf += chunk
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg.decode('utf-8'))

    def call(self, method, params=None, timeout=None):
        self.next_id += 1
        mid = self.next_id
        m = {'id': mid, 'method': method, 'params': params or {}}
        if self.session and not method.startswith(('Target.', 'Browser.')):
            m['sessionId'] = self.session
        data = json.dumps(m).encode('utf-8') + b'\0'
        while data:
            data = data[os.write(self.cmd_w, data):]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            r = self._read(deadline)
            if r.get('id') == mid:
                if 'error' in r:
                    raise CdpError('%s: %s' % (method, r['error']))
                return r.get('result', {})
            if 'method' in r:
                self.events.append(r)

    def pump(self, seconds):
        """Collect events for a while (no command)."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                self.events.append(self._read(deadline))
        except CdpError as e:
            if 'no reply' not in str(e):
                raise

    def wait_event(self, method, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        seen = len(self.events)
        for e in self.events[:seen]:
            if e.get('method') == method:
                self.events.remove(e)
                self.events.append(e)
                return e
        while True:
            e = self._read(deadline)
            if 'method' in e:
                self.events.append(e)
                if e['method'] == method:
                    return e

    def eval(self, expr, await_promise=False):
        r = self.call('Runtime.evaluate', {'expression': expr, 'returnByValue': True,
                                           'awaitPromise': await_promise})
        if 'exceptionDetails' in r:
            raise CdpError('evaluate %r: %s' % (expr[:80], r['exceptionDetails']))
        return r['result'].get('value')

    def eval_while_loading(self, expr):
        """eval for a page that may still navigate by itself (evtrace live's waiting page
        reloads when the first data arrives): None when the page navigated or its context went
        away during the evaluation, so the caller polls again."""
        try:
            return self.eval(expr)
        except CdpError as e:
            if 'navigated or closed' in str(e) or 'context' in str(e).lower():
                return None
            raise

    def navigate(self, url):
        self.events = [e for e in self.events if e.get('method') != 'Page.loadEventFired']
        r = self.call('Page.navigate', {'url': url})
        if r.get('errorText'):
            raise CdpError('navigate %s: %s' % (url, r['errorText']))
        self.wait_event('Page.loadEventFired')

    def frames(self, n=2):
        """Wait for n animation frames (what a redraw needs)."""
        self.eval('new Promise(function (r) { var k = %d; (function f() { if (--k < 0) r(1); '
                  'else requestAnimationFrame(f); })(); })' % n, await_promise=True)

    def mouse(self, kind, x, y, **kw):
        p = {'type': kind, 'x': x, 'y': y}
        p.update(kw)
        self.call('Input.dispatchMouseEvent', p)

    def click(self, x, y):
        self.mouse('mouseMoved', x, y)
        self.mouse('mousePressed', x, y, button='left', buttons=1, clickCount=1)
        self.mouse('mouseReleased', x, y, button='left', buttons=0, clickCount=1)

    def key(self, ch):
        code = 'Key' + ch.upper()
        for t in ('keyDown', 'keyUp'):
            p = {'type': t, 'key': ch, 'code': code, 'windowsVirtualKeyCode': ord(ch.upper())}
            if t == 'keyDown':
                p['text'] = ch
            self.call('Input.dispatchKeyEvent', p)

    def screenshot(self, path):
        import base64
        data = self.call('Page.captureScreenshot', {'format': 'png'})['data']
        with open(path, 'wb') as f:
            f.write(base64.b64decode(data))

    def problems(self):
        """Console messages, uncaught exceptions, log errors/warnings and failed or non-local
        requests seen so far."""
        out = []
        for e in self.events:
            m, p = e.get('method'), e.get('params', {})
            if m == 'Runtime.consoleAPICalled':
                out.append('console.%s: %s' % (p.get('type'), ' '.join(str(a.get('value', a.get('description')))
                                                                     for a in p.get('args', []))))
            elif m == 'Runtime.exceptionThrown':
                d = p.get('exceptionDetails', {})
                out.append('exception: %s %s' % (d.get('text'), d.get('exception', {}).get('description', '')))
            elif m == 'Log.entryAdded' and p.get('entry', {}).get('level') in ('error', 'warning'):
                out.append('log %s: %s' % (p['entry']['level'], p['entry'].get('text')))
            elif m == 'Network.loadingFailed':
                out.append('failed request: %s' % p.get('errorText'))
            elif m == 'Network.requestWillBeSent':
                url = p.get('request', {}).get('url', '')
                if not (url.startswith('file:') or url.startswith('data:') or url == 'about:blank'):
                    out.append('network request: %s' % url)
        return out

    def close(self):
        try:
            self.call('Browser.close', timeout=10)
        except (CdpError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.cmd_w, self.res_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.err.close()
        shutil.rmtree(self.udd, ignore_errors=True)
