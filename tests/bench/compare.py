#!/usr/bin/python3
"""Times poslab's core kernels against numpy and torch on this machine, in one run.

Usage:
  tests/bench/compare.py [--poslab build/app/poslab] [--threads 1] [--repeats 7] [--json]

poslab's numbers come from `poslab bench --kernels --json` run here; numpy
and torch compute the same outputs the way their users would write them (HF
transformers' rotate_half, Meta's view_as_complex, HF's T5 bucket function),
with the same number of threads (default 1: poslab's kernels are single
threaded). Times are the best of --repeats runs. Ratios > 1 mean poslab is
faster. Needs Debian's python3-numpy and python3-torch (`make bench` installs
them); run with /usr/bin/python3, where Debian's packages live.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time


def best_ms(fn, repeats):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, (time.perf_counter() - t0) * 1e3)
    return best


# ----------------------------------------------------------------- numpy
def numpy_kernels(np, repeats):
    out = {}
    P, D = 32768, 1024
    pos = np.arange(P, dtype=np.float32)[:, None]
    w = (10000.0 ** (-np.arange(0, D, 2, dtype=np.float64) / D)).astype(np.float32)

    def sinusoidal():
        ang = pos * w
        t = np.empty((P, D), dtype=np.float32)
        t[:, 0::2] = np.sin(ang)
        t[:, 1::2] = np.cos(ang)
        return t
    out["sinusoidal_table"] = best_ms(sinusoidal, repeats)

    T, H, d = 4096, 32, 128
    inv = (10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)).astype(np.float32)
    tpos = np.arange(T, dtype=np.float32)
    out["rope_cos_sin_table"] = best_ms(lambda: (np.cos(np.outer(tpos, inv)), np.sin(np.outer(tpos, inv))), repeats)
    ang = np.outer(tpos, inv)
    c, s = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    x = np.random.default_rng(0).standard_normal((T, H, d), dtype=np.float32)

    def interleaved():
        a, b = x[..., 0::2], x[..., 1::2]
        cc, ss = c[:, None, :], s[:, None, :]
        y = np.empty_like(x)
        y[..., 0::2] = a * cc - b * ss
        y[..., 1::2] = a * ss + b * cc
        return y
    out["rope_apply_interleaved"] = best_ms(interleaved, repeats)
    c2, s2 = np.concatenate([c, c], -1)[:, None, :], np.concatenate([s, s], -1)[:, None, :]

    def half():
        rot = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], -1)  # rotate_half
        return x * c2 + rot * s2
    out["rope_apply_half"] = best_ms(half, repeats)
    y = np.empty_like(x)
    np.copyto(y, x)  # warm, pre-faulted pages, as poslab's copy
    out["memcpy_rope_tensor"] = best_ms(lambda: np.copyto(y, x), repeats)

    theta = 10000.0 ** (-np.arange(0, 128, 2, dtype=np.float64) / 128)
    r = np.arange(65536, dtype=np.float64)

    def decay():
        S = np.cumsum(np.exp(1j * np.outer(r, theta)), axis=1)
        return np.abs(S).mean(axis=1)
    out["decay_bound_curve"] = best_ms(decay, repeats)

    def t5():
        rp = np.arange(4096)[None, :] - np.arange(4096)[:, None]
        nb, maxd = 16, 128
        ret = (rp > 0).astype(np.int64) * nb
        n = np.abs(rp)
        max_exact = nb // 2
        small = n < max_exact
        with np.errstate(divide="ignore", invalid="ignore"):  # log(0) on the diagonal; np.where drops it
            large = max_exact + (np.log(n.astype(np.float32) / max_exact) / math.log(maxd / max_exact)
                                 * (nb - max_exact)).astype(np.int64)
        large = np.minimum(large, nb - 1)
        return ret + np.where(small, n, large)
    out["t5_bucket_matrix"] = best_ms(t5, repeats)
    out.update(scaling_kernels(np, repeats))
    return out


def scaling_kernels(xp, repeats, torch=False):
    """Every context-extension method's per-pair table, d = 128 (HF transcriptions)."""
    d, base, s, L = 128, 10000.0, 8.0, 4096
    ar = (xp.arange(0, d, 2, dtype=xp.float32) if torch else xp.arange(0, d, 2).astype(xp.float32))
    clamp = (lambda v, a, b: xp.clamp(v, a, b)) if torch else (lambda v, a, b: xp.clip(v, a, b))
    where = xp.where

    def inv(b):
        return 1.0 / (b ** (ar / d))

    def yarn():
        def dim(rot):
            return (d * math.log(L / (rot * 2 * math.pi))) / (2 * math.log(base))
        low, high = max(math.floor(dim(32)), 0), min(math.ceil(dim(1)), d - 1)
        ramp = clamp((xp.arange(d // 2, dtype=xp.float32) - low) / (high - low), 0, 1)
        f = inv(base)
        return f / s * ramp + f * (1 - ramp)

    def yarn_paper():
        f = inv(base)
        r = L / (2 * math.pi / f)
        g = clamp((r - 1) / (32 - 1), 0, 1)
        return (1 - g) * f / s + g * f

    def llama3():
        f = inv(base)
        wl = 2 * math.pi / f
        out = where(wl > L / 1, f / s, f)
        sm = (L / wl - 1) / (4 - 1)
        mid = (1 - sm) * out / s + sm * out
        return where((wl >= L / 4) & (wl <= L / 1), mid, out)

    methods = {
        "scaling_none": lambda: inv(base),
        "scaling_linear": lambda: inv(base) / s,
        "scaling_ntk": lambda: inv(base * s ** (d / (d - 2))),
        "scaling_dynamic": lambda: inv(base * ((s * 32768 / L) - (s - 1)) ** (d / (d - 2))),
        "scaling_yarn": yarn,
        "scaling_yarn_paper": yarn_paper,
        "scaling_llama3": llama3,
        "scaling_notes": lambda: inv(base) / s ** (0.25 / (d // 2)),  # the lecture notes' method (was "seed")
    }
    return {k: best_ms(lambda f=f: [f() for _ in range(100)], repeats) / 100 for k, f in methods.items()}


# ----------------------------------------------------------------- torch
def torch_kernels(torch, repeats):
    out = {}
    with torch.inference_mode():
        P, D = 32768, 1024
        pos = torch.arange(P, dtype=torch.float32)[:, None]
        w = (10000.0 ** (-torch.arange(0, D, 2, dtype=torch.float64) / D)).float()

        def sinusoidal():
            ang = pos * w
            t = torch.empty((P, D), dtype=torch.float32)
            t[:, 0::2] = torch.sin(ang)
            t[:, 1::2] = torch.cos(ang)
            return t
        out["sinusoidal_table"] = best_ms(sinusoidal, repeats)

        T, H, d = 4096, 32, 128
        inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
        t = torch.arange(T, dtype=torch.float32)
        out["rope_cos_sin_table"] = best_ms(lambda: (torch.outer(t, inv).cos(), torch.outer(t, inv).sin()), repeats)
        freqs = torch.outer(t, inv)
        x = torch.randn(T, H, d, generator=torch.Generator().manual_seed(0))
        cis = torch.polar(torch.ones_like(freqs), freqs)[:, None, :]

        def interleaved():  # Meta's apply_rotary_emb
            xc = torch.view_as_complex(x.reshape(T, H, d // 2, 2))
            return torch.view_as_real(xc * cis).flatten(2)
        out["rope_apply_interleaved"] = best_ms(interleaved, repeats)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[:, None, :], emb.sin()[:, None, :]

        def rotate_half(v):
            return torch.cat((-v[..., d // 2:], v[..., : d // 2]), dim=-1)
        out["rope_apply_half"] = best_ms(lambda: x * cos + rotate_half(x) * sin, repeats)  # HF
        y = torch.empty_like(x)
        y.copy_(x)  # warm, pre-faulted pages
        out["memcpy_rope_tensor"] = best_ms(lambda: y.copy_(x), repeats)

        theta = 10000.0 ** (-torch.arange(0, 128, 2, dtype=torch.float64) / 128)
        r = torch.arange(65536, dtype=torch.float64)

        def decay():
            S = torch.cumsum(torch.polar(torch.ones(65536, 64, dtype=torch.float64), torch.outer(r, theta)), dim=1)
            return S.abs().mean(dim=1)
        out["decay_bound_curve"] = best_ms(decay, repeats)

        def t5():  # HF T5Attention._relative_position_bucket, bidirectional, 32 buckets, 128
            rp = torch.arange(4096)[None, :] - torch.arange(4096)[:, None]
            nb, maxd = 16, 128
            ret = (rp > 0).to(torch.long) * nb
            rp = torch.abs(rp)
            max_exact = nb // 2
            small = rp < max_exact
            large = max_exact + (torch.log(rp.float() / max_exact) / math.log(maxd / max_exact)
                                 * (nb - max_exact)).to(torch.long)
            large = torch.min(large, torch.full_like(large, nb - 1))
            return ret + torch.where(small, rp, large)
        out["t5_bucket_matrix"] = best_ms(t5, repeats)
        out.update(scaling_kernels(torch, repeats, torch=True))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--poslab", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "app", "poslab"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    ours = json.loads(subprocess.run([args.poslab, "bench", "--kernels", "--json"], check=True,
                                     capture_output=True).stdout)["kernels"]
    result = {"threads": args.threads, "kernels": {}}
    try:
        import numpy as np
        theirs_np = numpy_kernels(np, args.repeats)
    except ImportError:
        print("numpy is missing: apt-get install python3-numpy", file=sys.stderr)
        theirs_np = {}
    try:
        import torch
        torch.set_num_threads(args.threads)
        theirs_torch = torch_kernels(torch, args.repeats)
        result["torch_version"] = torch.__version__
    except ImportError:
        print("torch is missing: apt-get install python3-torch", file=sys.stderr)
        theirs_torch = {}

    for name, k in ours.items():
        e = {"poslab_ms": k["ms"]}
        if name in theirs_np:
            e["numpy_ms"] = theirs_np[name]
            e["numpy_over_poslab"] = theirs_np[name] / k["ms"]
        if name in theirs_torch:
            e["torch_ms"] = theirs_torch[name]
            e["torch_over_poslab"] = theirs_torch[name] / k["ms"]
        result["kernels"][name] = e
    # The memory bound (issue 16): the fastest copy of the same tensor into
    # warm pages measured in this run — poslab's memcpy, its streaming copy,
    # numpy's and torch's copies.
    copies = [ours.get(n, {}).get("ms") for n in ("memcpy_rope_tensor", "stream_copy_rope_tensor")]
    copies += [theirs_np.get("memcpy_rope_tensor"), theirs_torch.get("memcpy_rope_tensor")]
    copies = [c for c in copies if c]
    if copies:
        bound = min(copies)
        result["copy_bound_ms"] = bound
        for layout in ("interleaved", "half"):
            k = ours.get(f"rope_apply_{layout}")
            if k:
                result[f"rope_apply_{layout}_over_copy_bound"] = k["ms"] / bound
    # poslab times RoPE and its two copies in turns, round after round (a slow
    # stretch of the memory bandwidth falls on all of them alike); numpy's and
    # torch's copies ran at another time, in another process.
    own = [ours.get(n, {}).get("ms") for n in ("memcpy_rope_tensor", "stream_copy_rope_tensor")]
    own = [c for c in own if c]
    if own:
        for layout in ("interleaved", "half"):
            k = ours.get(f"rope_apply_{layout}")
            if k:
                result[f"rope_apply_{layout}_over_own_copies"] = k["ms"] / min(own)

    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"threads: {args.threads}; best of {args.repeats}; ratio > 1: poslab is faster "
          f"(targets: >= 3x numpy, >= 1x torch)")
    print(f"{'kernel':26} {'poslab ms':>10} {'numpy ms':>10} {'torch ms':>10} {'np/poslab':>10} {'torch/poslab':>12}")
    for name, e in result["kernels"].items():
        def fmt(key, width, spec):
            return format(e[key], spec).rjust(width) if key in e else "—".rjust(width)
        print(f"{name:26} {fmt('poslab_ms', 10, '.4g')} {fmt('numpy_ms', 10, '.4g')} {fmt('torch_ms', 10, '.4g')}"
              f" {fmt('numpy_over_poslab', 10, '.1f')} {fmt('torch_over_poslab', 12, '.1f')}")
    if "copy_bound_ms" in result:
        print(f"copy bound (fastest of poslab's memcpy and streaming copy, numpy's and torch's copy, "
              f"warm pages): {result['copy_bound_ms']:.4g} ms")
    for layout in ("interleaved", "half"):
        key = f"rope_apply_{layout}_over_copy_bound"
        if key in result:
            print(f"RoPE apply ({layout}) / copy bound: {result[key]:.2f}x (target <= 1.5x)")
    for layout in ("interleaved", "half"):
        key = f"rope_apply_{layout}_over_own_copies"
        if key in result:
            print(f"RoPE apply ({layout}) / poslab's copies timed in turns with it: {result[key]:.2f}x")


if __name__ == "__main__":
    main()
