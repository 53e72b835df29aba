#!/usr/bin/python3
"""The length-generalisation lab's speed and gradients against numpy and torch, in one run.

Usage:
  tests/bench/lab_compare.py [--poslab build/app/poslab] [--lab-runs] [--save DIR] [--json]

1. `poslab bench --lab --json`: the training throughput of the default lm model
   per encoding (GFLOP/s of its matrix products), one model's time per task,
   the step's matrix-product shapes and a tiny reference model's gradients.
2. numpy (Debian's, on OpenBLAS) times float32 matrix products of exactly those
   shapes and counts, with OPENBLAS_NUM_THREADS=1 and 2: the machine's best
   sgemm GFLOP/s for this work. Target: poslab's training >= 30 % of the
   one-thread figure (poslab trains one run per thread).
3. torch (if installed) rebuilds the reference model from the same weights in
   float64 and checks poslab's float32 loss and every gradient (relative error
   of the gradient vector <= 1e-4).
4. --lab-runs: the default lab, `poslab lab run --task lm` and `--task copy`
   (six encodings x 3 seeds each, --threads 2), wall time and peak memory;
   --save DIR keeps their JSON (docs/LAB.md's numbers).

Run with /usr/bin/python3 (Debian's numpy and torch); `make bench` does.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def sgemm_child(threads, gemms, repeats=7):
    """GFLOP/s of numpy float32 matmuls of the given shapes, in a child with `threads` BLAS threads.

    Each shape is timed two ways and the faster counts (numpy's best for this
    work): `count` separate calls, and one batched np.matmul over a stack of
    `count` matrices (what a numpy model does for attention's per-head
    products; it saves Python's call overhead on the 32 x 8 x 32 ones).
    """
    code = r"""
import json, sys, time
import numpy as np
gemms = json.load(sys.stdin)
rng = np.random.default_rng(0)
def best_of(f, n):
    f(); b = float("inf")
    for _ in range(n):
        t0 = time.perf_counter(); f(); b = min(b, time.perf_counter() - t0)
    return b
total = 0.0
looped_total = 0.0
for g in gemms:
    m, k, n, count = g["m"], g["k"], g["n"], g["count"]
    a = rng.standard_normal((m, k), dtype=np.float32); b = rng.standard_normal((k, n), dtype=np.float32)
    c = np.empty((m, n), dtype=np.float32)
    def looped():
        for _ in range(count):
            np.matmul(a, b, out=c)
    t_loop = best_of(looped, %d)
    t = t_loop
    if count > 1:
        sa = rng.standard_normal((count, m, k), dtype=np.float32); sb = rng.standard_normal((count, k, n), dtype=np.float32)
        sc = np.empty((count, m, n), dtype=np.float32)
        t = min(t, best_of(lambda: np.matmul(sa, sb, out=sc), %d))
    total += t
    looped_total += t_loop
flops = sum(2.0 * g["m"] * g["k"] * g["n"] * g["count"] for g in gemms)
big = rng.standard_normal((1024, 1024), dtype=np.float32)
out = np.empty_like(big)
bbest = best_of(lambda: np.matmul(big, big, out=out), 5)
print(json.dumps({"step_gflops": flops / total / 1e9, "step_ms": total * 1e3,
                  "looped_step_gflops": flops / looped_total / 1e9, "sgemm_1024_gflops": 2 * 1024**3 / bbest / 1e9}))
""" % (repeats, repeats)
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    p = subprocess.run(["/usr/bin/python3", "-c", code], input=json.dumps(gemms).encode(), capture_output=True, env=env,
                       check=True)
    return json.loads(p.stdout)


# ---------------------------------------------------------------- torch check
def torch_reference(torch, name, gradients_expected):
    """The reference model of lab_reference.py in torch (float64, autograd)."""
    sys.path.insert(0, HERE)
    import lab_reference as ref
    encoding = name.split("-")[0]
    rope_layout = "interleaved" if name.endswith("interleaved") else "half"
    flat = torch.tensor(ref.reference_weights(encoding), dtype=torch.float64, requires_grad=True)
    w, i = {}, 0
    for key, r, c in ref.layout(encoding):
        w[key] = flat[i:i + r * c].view(r, c)
        i += r * c
    C, NH = ref.C, ref.NH
    hs = C // NH
    tok, pos = torch.tensor(ref.TOKENS), torch.tensor(ref.POSITIONS, dtype=torch.float64)
    B, T = tok.shape
    ln = lambda x, g, b: torch.nn.functional.layer_norm(x, (C,), g[0], b[0], eps=1e-5)
    x = w["wte"][tok]
    if encoding == "learned":
        x = x + w["wpe"][pos.long()]
    if encoding == "sinusoidal":
        omega = 10000.0 ** (-torch.arange(0, C, 2, dtype=torch.float64) / C)
        ang = pos[..., None] * omega
        x = x + torch.stack([ang.sin(), ang.cos()], -1).reshape(B, T, C)  # PE[2i] = sin, PE[2i+1] = cos
    dist = pos[:, :, None] - pos[:, None, :]
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for l in range(ref.LAYERS):
        h = f"h{l}."
        qkv = ln(x, w[h + "ln1_w"], w[h + "ln1_b"]) @ w[h + "qkv_w"] + w[h + "qkv_b"][0]
        q, k, v = (t.reshape(B, T, NH, hs).transpose(1, 2) for t in qkv.split(C, -1))
        if encoding == "rope":
            theta = 10000.0 ** (-torch.arange(0, hs, 2, dtype=torch.float64) / hs)
            ang = pos[:, None, :, None] * theta
            cos, sin = ang.cos(), ang.sin()
            def rot(t):
                if rope_layout == "interleaved":  # Meta's complex view
                    a, b = t[..., 0::2], t[..., 1::2]
                    return torch.stack([a * cos - b * sin, a * sin + b * cos], -1).flatten(-2)
                a, b = t[..., : hs // 2], t[..., hs // 2:]  # HF rotate_half
                return torch.cat([a * cos - b * sin, a * sin + b * cos], -1)
            q, k = rot(q), rot(k)
        s = q @ k.transpose(-1, -2) / math.sqrt(hs)
        if encoding == "alibi":
            s = s - torch.tensor(ref.alibi_slopes(NH), dtype=torch.float64)[None, :, None, None] * dist[:, None]
        if encoding == "t5":
            buckets = torch.tensor([[[ref.t5_bucket(-int(d), ref.BUCKETS, ref.MAX_DISTANCE) if d >= 0 else 0
                                      for d in row] for row in m] for m in dist.tolist()])
            s = s + w["t5_bias"][:, buckets].permute(1, 0, 2, 3)
        s = s.masked_fill(~mask, float("-inf"))
        o = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, C)
        x = x + o @ w[h + "proj_w"] + w[h + "proj_b"][0]
        y = ln(x, w[h + "ln2_w"], w[h + "ln2_b"])
        x = x + torch.nn.functional.gelu(y @ w[h + "fc_w"] + w[h + "fc_b"][0], approximate="tanh") @ w[h + "fcproj_w"] \
            + w[h + "fcproj_b"][0]
    logits = ln(x, w["lnf_w"], w["lnf_b"]) @ w["out_w"] + w["out_b"][0]
    nll = torch.nn.functional.cross_entropy(logits.reshape(-1, ref.VOCAB), torch.tensor(ref.TARGETS).reshape(-1),
                                            reduction="none")
    wt = torch.tensor(ref.WEIGHTS, dtype=torch.float64).reshape(-1)
    loss = (wt * nll).sum() / wt.sum()
    loss.backward()
    g = flat.grad
    expected = torch.tensor(gradients_expected, dtype=torch.float64)
    return float(loss), float((g - expected).norm() / g.norm())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poslab", default="build/app/poslab")
    ap.add_argument("--lab-runs", action="store_true", help="also time the default lab (about 3 minutes)")
    ap.add_argument("--save", help="folder for the default lab's JSON")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    load = os.getloadavg()
    bench = json.loads(subprocess.run([a.poslab, "bench", "--lab", "--json"], capture_output=True, check=True).stdout)
    lab = bench["lab"]
    numpy = {f"threads_{t}": sgemm_child(t, lab["gemms"]) for t in (1, 2)}
    report = {"load_before": load, "gemm_path": lab.get("gemm_path"), "poslab_gflops": lab["gflops"], "poslab_step_ms": lab["step_ms"],
              "numpy_sgemm": numpy, "model_seconds": lab["model_seconds"], "bench_peak_rss_mb": bench["peak_rss_mb"]}
    one = numpy["threads_1"]["step_gflops"]
    report["ratio_to_sgemm_1_thread"] = {e: g / one for e, g in lab["gflops"].items()}
    try:
        import torch
        checks = {}
        for name, r in lab["reference"].items():
            loss, rel = torch_reference(torch, name, r["gradients"])
            checks[name] = {"loss_poslab": r["loss"], "loss_torch": loss, "gradient_relative_error": rel,
                            "ok": abs(loss - r["loss"]) <= 1e-5 * abs(loss) and rel <= 1e-4}
        report["torch_check"] = checks
    except ImportError:
        report["torch_check"] = "torch is not installed"
    if a.lab_runs:
        runs = {}
        import tempfile
        for task in ("lm", "copy"):
            t0 = time.perf_counter()
            with tempfile.TemporaryFile() as out:
                # wait4: this child's own peak memory (RUSAGE_CHILDREN would also count numpy's children above)
                p = subprocess.Popen([a.poslab, "lab", "run", "--task", task, "--threads", "2"], stdout=out)
                _, status, usage = os.wait4(p.pid, 0)
                p.returncode = os.waitstatus_to_exitcode(status)
                if p.returncode != 0:
                    raise SystemExit(f"poslab lab run --task {task} failed ({p.returncode})")
                out.seek(0)
                stdout = out.read()
            runs[task] = {"seconds": time.perf_counter() - t0, "peak_rss_mb": usage.ru_maxrss / 1024,
                          "cpu_seconds": usage.ru_utime + usage.ru_stime}
            if a.save:
                os.makedirs(a.save, exist_ok=True)
                with open(os.path.join(a.save, f"lab-{task}.json"), "wb") as f:
                    f.write(stdout)
        runs["total_seconds"] = runs["lm"]["seconds"] + runs["copy"]["seconds"]
        runs["total_cpu_seconds"] = runs["lm"]["cpu_seconds"] + runs["copy"]["cpu_seconds"]
        runs["peak_rss_mb"] = max(runs["lm"]["peak_rss_mb"], runs["copy"]["peak_rss_mb"])
        report["default_lab"] = runs
    report["load_after"] = os.getloadavg()
    if a.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"load average before/after: {load[0]:.2f} / {report['load_after'][0]:.2f}")
    print(f"numpy float32 sgemm of the step's shapes: {one:.1f} GFLOP/s (1 thread), "
          f"{numpy['threads_2']['step_gflops']:.1f} (2 threads); one call per product: "
          f"{numpy['threads_1']['looped_step_gflops']:.1f}; 1024^3: {numpy['threads_1']['sgemm_1024_gflops']:.1f}")
    print(f"poslab's matrix kernel: {report['gemm_path']}")
    for e, g in lab["gflops"].items():
        print(f"  poslab {e:<11} {g:6.2f} GFLOP/s  {lab['step_ms'][e]:6.2f} ms/step  "
              f"{100 * g / one:5.1f} % of sgemm (target >= 30 %)")
    print("one model: " + ", ".join(f"{t} {s:.1f} s" for t, s in lab["model_seconds"].items()) + " (target <= 20 s)")
    if isinstance(report["torch_check"], dict):
        for name, c in report["torch_check"].items():
            print(f"  torch {name:<17} loss {c['loss_poslab']:.7f} vs {c['loss_torch']:.7f}, "
                  f"gradient rel. error {c['gradient_relative_error']:.1e} {'ok' if c['ok'] else 'MISMATCH'}")
    else:
        print(report["torch_check"])
    if "default_lab" in report:
        d = report["default_lab"]
        print(f"default lab (6 encodings x 3 seeds, 2 threads): lm {d['lm']['seconds']:.1f} s + copy "
              f"{d['copy']['seconds']:.1f} s = {d['total_seconds']:.1f} s (target <= 180 s); "
              f"{d['total_cpu_seconds']:.0f} CPU s (on 2 idle cores: about {d['total_cpu_seconds'] / 2:.0f} s); "
              f"peak memory {d['peak_rss_mb']:.0f} MB (target <= 300 MB)")
    bad = isinstance(report["torch_check"], dict) and not all(c["ok"] for c in report["torch_check"].values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
