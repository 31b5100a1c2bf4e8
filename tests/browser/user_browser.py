"""User events in the HTML report, in headless Chromium (cdp.py): the `make run` ThreadX demo
records printf text, value channels, intervals and a state machine through evtrace/user.h; its
report must load clean, list the producer's lines as the text snprintf gives ("sent message 0:
value 3"), and draw, in the "User channels" group, the text marks, the plotted value lane "sum"
(its plot colour inside the lane), the interval lane "work round" (slices in their colour) and the
state lane "worker state". A missing chromium is a failure, never a skip.
DEMO is run as `DEMO TRACE`: the ThreadX demo, or `test_user_etw`, which writes the same user events
through the ETW recorder (TRACE_NAME demo.etl).
usage: user_browser.py EVTRACE DEMO ARTIFACTS [TRACE_NAME]"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print('FAIL: ' + msg)
    return cond


# Count the pixels of colour rgb in the lane labelled `label` (its <small> sub-label `sub`), after
# scrolling the lanes so that it is in view. Returns {found, pixels, h}.
LANE_PIXELS = r"""(function(label, sub, rgb){
 var labs=document.querySelectorAll('.lane-label'),lab=null;
 for(var i=0;i<labs.length;i++){var s=labs[i].querySelector('small');
  if(labs[i].firstChild&&labs[i].firstChild.textContent===label&&s&&s.textContent===sub){lab=labs[i];break;}}
 if(!lab)return {found:false};
 var box=document.getElementById('lanes');box.scrollTop=parseFloat(lab.style.top)-20;
 return {found:true,top:parseFloat(lab.style.top),h:parseFloat(lab.style.height)};})(%s,%s,%s)"""

COUNT = r"""(function(label, sub, rgb){
 var labs=document.querySelectorAll('.lane-label'),lab=null;
 for(var i=0;i<labs.length;i++){var s=labs[i].querySelector('small');
  if(labs[i].firstChild&&labs[i].firstChild.textContent===label&&s&&s.textContent===sub){lab=labs[i];break;}}
 var cv=document.getElementById('tl'),cr=cv.getBoundingClientRect(),lr=lab.getBoundingClientRect();
 var g=cv.getContext('2d'),k=cv.width/cr.width,img=g.getImageData(0,0,cv.width,cv.height).data,n=0;
 var y0=Math.max(0,Math.floor((lr.top-cr.top)*k)),y1=Math.min(cv.height,Math.floor((lr.bottom-cr.top)*k));
 for(var y=y0;y<y1;y++)for(var x=0;x<cv.width;x++){var o=(y*cv.width+x)*4;
  if(Math.abs(img[o]-rgb[0])<=3&&Math.abs(img[o+1]-rgb[1])<=3&&Math.abs(img[o+2]-rgb[2])<=3)n++;}
 return n;})(%s,%s,%s)"""


def lane_pixels(b, label, sub, rgb):
    import json
    args = (json.dumps(label), json.dumps(sub), json.dumps(rgb))
    r = b.eval(LANE_PIXELS % args)
    if not r['found']:
        return None
    b.frames(3)
    return b.eval(COUNT % args)


def main():
    evtrace, demo, art = sys.argv[1:4]
    name = sys.argv[4] if len(sys.argv) > 4 else 'demo.trx'
    if not cdp.find_chromium():
        print('FAIL: chromium missing (Debian package chromium; scripts/deps.sh check installs it)')
        sys.exit(1)
    os.makedirs(art, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        trx, html = os.path.join(tmp, name), os.path.join(tmp, 'demo.html')
        subprocess.run([demo, trx], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([evtrace, 'report', '-q', '--force', '--clock-hz', '1000000', trx, '-o', html], check=True)
        b = cdp.Browser()
        try:
            b.navigate('file://' + html)
            for _ in range(400):
                if b.eval('document.body.dataset.ready') == '1':
                    break
                b.pump(0.05)
            check(b.eval('document.body.dataset.ready') == '1', 'the page did not become ready')
            b.frames(2)
            check(not b.problems(), 'console or load problems: %r' % b.problems()[:5])
            # the event list: the producer's lines as text
            b.eval("(function(){var v=document.getElementById('f-visible');v.checked=false;v.dispatchEvent(new Event('change'));"
                   "var n=document.getElementById('f-name');n.value='producer';n.dispatchEvent(new Event('input'));})()")
            b.frames(3)
            rows = b.eval("Array.prototype.map.call(document.querySelectorAll('#ev-rows .ev-row'),function(r){return r.textContent;})")
            check(any('sent message 0: value 3' in r for r in rows),
                  'no event-list row shows "sent message 0: value 3"; rows: %r' % rows[:4])
            check(all('USER_4096' not in r for r in rows), 'the list still shows USER_4096')
            # the lanes: text marks, a plotted value lane, intervals, a state strip
            n = lane_pixels(b, 'producer', 'text', [0x7c, 0x3a, 0xed])
            check(n is not None and n > 20, 'producer text lane: %r mark pixels' % n)
            n = lane_pixels(b, 'sum', 'value', [0x0f, 0x76, 0x6e])
            check(n is not None and n > 50, 'value lane "sum": %r plot pixels' % n)
            b.screenshot(os.path.join(art, 'user-lanes.png'))
            n = lane_pixels(b, 'work round', 'intervals', [0xd9, 0x77, 0x06])
            check(n is not None and n > 20, 'interval lane "work round": %r slice pixels' % n)
            r = b.eval(LANE_PIXELS % ('"worker state"', '"state machine"', '[0,0,0]'))
            check(r['found'], 'no state-machine lane "worker state"')
            # the test's own canvas readbacks make Chromium suggest willReadFrequently: not the page's
            late = [p for p in b.problems() if 'willReadFrequently' not in str(p)]
            check(not late, 'problems after interaction: %r' % late[:5])
        finally:
            b.close()
    if failures:
        print('%d failure(s)' % len(failures))
        sys.exit(1)
    print('user_browser: ok')


if __name__ == '__main__':
    main()
