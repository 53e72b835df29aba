#!/usr/bin/python3
"""The lab's training in wasm against native, in one run (issue 26: "the browser ≤ 2× native").

Usage:
  tests/bench/lab_web_bench.py [--native build/poslab] [--wasm build-web/wasm] [--rounds 2]
                               [--task lm] [--encoding rope] [--steps N] [--json]

Trains one model of the default lab (`poslab lab run --task lm --encodings
rope --seeds 1`: 1,500 steps of the lesson's model, then its evaluation)
natively and with the web build's command line under node (poslab-cli.js: the
same poslab.wasm code as the page and its worker, built with the same flags),
alternately, --rounds times each. Reports per run the training's wall time
(`train_seconds`), the native run's thread CPU time (`train_cpu_seconds`), the
CPU time of each whole process (rusage: node's includes compiling the wasm),
the ratio wasm/native of each, and the load average (`uptime`) before and
after: on a shared machine the wall times follow the load, the CPU times
much less. Also checks the two builds agree: the evaluated loss at every
position within float tolerance (not bit for bit: the native kernel rounds
each multiply-add once with FMA, wasm has no FMA).

Node is not the browser: the page's worker runs the same wasm in Chromium's
V8 (the web checks, tests/web/run_web_tests.py, time the lesson's models
there and print it).
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from node_cmd import node_cmd  # noqa: E402  (tests/web/node_cmd.py)


def load():
    return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])


def run(cmd, env=None):
    """Runs cmd; returns (its JSON output, the child's CPU seconds, wall seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = p.communicate()
    wall = time.monotonic() - t0
    # the child's rusage: communicate() reaped it; read the totals of all children instead
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {err.decode()[:500]}")
    return json.loads(out), wall


def children_cpu():
    r = os.times()
    return r.children_user + r.children_system


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--native", default=str(ROOT / "build" / "poslab"))
    ap.add_argument("--wasm", default=str(ROOT / "build-web" / "wasm"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--task", default="lm")
    ap.add_argument("--encoding", default="rope")
    ap.add_argument("--steps", type=int, default=0, help="0: the lab's default")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    args = ["lab", "run", "--task", a.task, "--encodings", a.encoding, "--seeds", "1", "--format", "json"]
    if a.steps:
        args += ["--steps", str(a.steps)]
    cli = pathlib.Path(a.wasm) / "poslab-cli.js"
    if not cli.exists():
        sys.exit(f"{cli} is missing: scripts/build-web.sh --tests builds it")
    env = dict(os.environ, POSLAB_ASSETS=str(ROOT / "assets"))
    report = {"load_before": load(), "args": args, "runs": []}
    results = {}
    for rnd in range(a.rounds):
        for side, cmd in (("native", [a.native] + args), ("wasm", node_cmd() + [str(cli)] + args)):
            cpu0 = children_cpu()
            out, wall = run(cmd, env)
            cpu = children_cpu() - cpu0
            r = out["runs"][0]
            results[side] = r
            report["runs"].append({"round": rnd + 1, "side": side, "train_seconds": r["train_seconds"],
                                   "train_cpu_seconds": r.get("train_cpu_seconds"), "process_cpu_seconds": cpu,
                                   "process_wall_seconds": wall, "load": load()})
    report["load_after"] = load()

    def best(side, key):
        return min(x[key] for x in report["runs"] if x["side"] == side)

    report["ratio_train_seconds_best"] = best("wasm", "train_seconds") / best("native", "train_seconds")
    report["ratio_process_cpu_best"] = best("wasm", "process_cpu_seconds") / best("native", "process_cpu_seconds")
    n = [v["value"] for v in results["native"]["by_length"]]
    w = [v["value"] for v in results["wasm"]["by_length"]]
    diff = max(abs(x - y) / max(abs(x), 1e-9) for x, y in zip(n, w)) if len(n) == len(w) else float("inf")
    report["max_relative_difference_by_length"] = diff
    report["final_train_loss"] = {"native": results["native"]["final_train_loss"],
                                  "wasm": results["wasm"]["final_train_loss"]}
    if a.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{' '.join(args)}   load before {report['load_before']}, after {report['load_after']}")
    print(f"{'round':>5} {'side':>6} {'train s':>9} {'train CPU s':>12} {'process CPU s':>14} {'load':>16}")
    for x in report["runs"]:
        tc = x["train_cpu_seconds"]
        print(f"{x['round']:>5} {x['side']:>6} {x['train_seconds']:>9.2f} {(tc if tc else 0):>12.2f} "
              f"{x['process_cpu_seconds']:>14.2f} {x['load']:>16}")
    print(f"wasm / native, best of each: training wall {report['ratio_train_seconds_best']:.2f}x, "
          f"process CPU {report['ratio_process_cpu_best']:.2f}x (target <= 2x)")
    print(f"loss by position, wasm vs native: max relative difference {diff:.2e}; final training loss "
          f"{report['final_train_loss']['native']:.6f} vs {report['final_train_loss']['wasm']:.6f}")


if __name__ == "__main__":
    main()
