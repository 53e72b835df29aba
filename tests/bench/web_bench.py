#!/usr/bin/python3
"""poslab bench in the browser against the native one, in one run (issues 16, 31).

Usage:
  tests/bench/web_bench.py [--site build-web/site] [--native build/poslab] [--json] [--view ID ...]
  tests/bench/web_bench.py --worker [--site …] [--native …] [--json] [--view ID ...]

--worker (issue 31): the page as a student meets it — figures built in its
Web Worker, nothing warmed up, every key at the maxima — against `poslab
bench --view …` natively (figures on a worker thread), right after: per key the
page's frame p95 and slowest frame (targets: p95 <= 16 ms, none above 50 ms)
and how long the figure trails the slider ("trail_ms": from the move seen to
its figure taken in, measured the same way on both sides), web against native
(target <= 2x); beside it each side's build time ("figure_ms").

Without --worker (issue 16): the page with each figure built in the frame
and each lesson warmed up first (#bench&in-place&warm) against
`poslab bench --in-place`, at the defaults: the ratio web/native of the
frames' p95, a measure of how fast the wasm runs.

Serves the web build, opens index.html#bench in headless Chromium (software
WebGL, as the web tests do) and reads the frame report the page prints; runs
`poslab bench --json --in-place` natively right after (figures built in the
frame, as the single-threaded page does), on the same
machine; prints frame p95 per lesson and key at the defaults in both, and the
ratio web/native (target: ≤ 2 at the defaults). The page measures wall time
per frame (a browser has no thread CPU clock), the native bench thread CPU
time: on a quiet machine the two agree for single-threaded work. The page
sweeps each lesson's keys unmeasured until the frames stop getting faster
before timing them (V8 optimizes a wasm function only once it runs hot);
--view measures some lessons alone.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "web"))
import cdp  # noqa: E402  (tests/web/cdp.py)
from run_web_tests import chromium, serve  # noqa: E402


def web_report(site, views=(), flags="&in-place&warm"):
    server = serve(site)
    url = (f"http://127.0.0.1:{server.server_address[1]}/index.html#bench" + ("=" + ",".join(views) if views else "")
           + flags)
    b = cdp.Browser(chromium(), 1280, 800)
    try:
        b.call("Page.navigate", url=url)
        text = b.call("Runtime.evaluate", timeout=3600, returnByValue=True, awaitPromise=True, expression="""
            new Promise((done) => {
              const t = setInterval(() => {
                if (document.body && document.body.dataset.bench === 'done') {
                  clearInterval(t);
                  done(document.getElementById('bench').textContent);
                }
              }, 500);
            })""")["result"]["value"]
    finally:
        b.close()
        server.shutdown()
    return json.loads(text)


def worker_main(args):
    # The page at the maxima alone (the targets are about them), then natively the
    # same lessons' frames (--view: no exports, kernels or deck), right after.
    load_before = os.getloadavg()
    web = web_report(pathlib.Path(args.site), args.view,
                     "&max" + (f"&figure-workers={args.figure_workers}" if args.figure_workers else "")
                     + ("&after-warm" if args.after_warm else ""))
    views = args.view or list(web.get("frame_ms", {}))
    native = json.loads(subprocess.run([args.native, "bench", "--json"] + [a for v in views for a in ("--view", v)],
                                       capture_output=True, text=True, check=True).stdout)
    rows = []
    for view, w in web["frame_ms"].items():
        n = native["frame_ms"].get(view, {})
        for key, wc in w["keys"].items():
            wm, nm = wc.get("max", {}), n.get("keys", {}).get(key, {}).get("max", {})
            if "p95" not in wm:
                continue
            # How far the figure trails the slider, the same on both sides (trail_ms:
            # from the move seen to the figure showing it taken in); figure_ms is a
            # build's own time natively, request to landing in the page.
            trail_w, trail_n = wm["trail_ms"]["p95"], nm.get("trail_ms", {}).get("p95", 0)
            landing = wm.get("figures_from_page_worker", {}).get("landing_max", 0)
            rows.append({"view": view, "key": key, "p95": wm["p95"], "max_frame": max(wm["max_frame"], landing),
                         "frames": wm["frames"], "figure_p95_web": trail_w, "figure_p95_native": trail_n,
                         "trail_ratio": trail_w / trail_n if trail_n > 0 else None,
                         "build_p95_web": wm["figure_ms"]["p95"], "build_p95_native": nm.get("figure_ms", {}).get("p95", 0),
                         "worker_builds": wm.get("figures_from_page_worker", {}).get("builds", 0),
                         "caught_up": wm.get("caught_up")})
    if args.json:
        print(json.dumps({"web": web, "native": native, "rows": rows}, indent=2))
        return
    start = ("dragged once the page's workers had warmed up" if args.after_warm
             else "dragged the moment the worker was up (its warm-up beside)")
    print(f"{web.get('figures_built')}; {web.get('settings')}; {start}; no warm-up of the bench's own; load average "
          f"{load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores)")
    print(f"{'lesson':14} {'key':22} {'p95':>6} {'max':>7} {'trail web':>9} {'native':>7} {'ratio':>6} "
          f"{'build web':>9} {'native':>7}   (maxima, ms; trail: from the move, p95)")
    for r in rows:
        ratio = f"{r['trail_ratio']:6.2f}" if r["trail_ratio"] else "     —"
        print(f"{r['view']:14} {r['key']:22} {r['p95']:6.1f} {r['max_frame']:7.1f} {r['figure_p95_web']:9.1f} "
              f"{r['figure_p95_native']:7.1f} {ratio} {r['build_p95_web']:9.1f} {r['build_p95_native']:7.1f}")
    over16 = [r for r in rows if r["p95"] > 16]
    over50 = [r for r in rows if r["max_frame"] > 50]
    trails = [r for r in rows if r["trail_ratio"] and r["trail_ratio"] > 2 and r["figure_p95_web"] > 16.7]
    print(f"{len(rows)} keys at the maxima: p95 above 16 ms: {len(over16)}; a frame above 50 ms: {len(over50)} "
          f"(slowest {max((r['max_frame'] for r in rows), default=0):.1f} ms); figure trailing more than 2x native "
          f"(and more than a frame): {len(trails)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", default=str(ROOT / "build-web" / "site"))
    ap.add_argument("--native", default=str(ROOT / "build" / "poslab"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--worker", action="store_true", help="the page with its worker at the maxima (issue 31)")
    ap.add_argument("--view", action="append", default=[], help="these lessons alone (repeatable)")
    ap.add_argument("--after-warm", action="store_true",
                    help="--worker: drag once the page's workers have warmed up (web/worker.js), not the moment "
                         "they are up")
    ap.add_argument("--figure-workers", type=int, choices=(1, 2),
                    help="--worker: the page's figure workers (default: the page's own choice, 2 from 3 cores)")
    args = ap.parse_args()
    if args.worker:
        worker_main(args)
        return
    web = web_report(pathlib.Path(args.site), args.view)
    native = json.loads(subprocess.run([args.native, "bench", "--json", "--in-place"] +
                                       [a for v in args.view for a in ("--view", v)],
                                       capture_output=True, text=True, check=True).stdout)
    rows = []
    for view, w in web["frame_ms"].items():
        n = native["frame_ms"].get(view)
        if not n:
            continue
        for key, wc in w["keys"].items():
            nd, wd = n["keys"].get(key, {}).get("default", {}), wc.get("default", {})
            if "p95" in nd and "p95" in wd and nd["p95"] > 0:
                rows.append((view, key, nd["p95"], wd["p95"], wd["p95"] / nd["p95"]))
    if args.json:
        print(json.dumps({"web": web, "native": native,
                          "ratios": [dict(zip(("view", "key", "native_p95", "web_p95", "ratio"), r)) for r in rows]},
                         indent=2))
        return
    print(f"{'lesson':14} {'key':22} {'native p95':>10} {'web p95':>9} {'web/native':>10}   (defaults, ms)")
    for r in rows:
        print(f"{r[0]:14} {r[1]:22} {r[2]:10.3f} {r[3]:9.3f} {r[4]:10.2f}")
    worst = max(rows, key=lambda r: r[4]) if rows else None
    if worst:
        print(f"worst web/native at the defaults: {worst[4]:.2f} ({worst[0]} {worst[1]}); "
              f"median {sorted(r[4] for r in rows)[len(rows) // 2]:.2f} over {len(rows)} keys")


if __name__ == "__main__":
    main()
