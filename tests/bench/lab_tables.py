#!/usr/bin/python3
"""Markdown tables of a `poslab lab run` result, for docs/LAB.md.

Usage: tests/bench/lab_tables.py lab-lm.json [lab-copy.json ...]

Per encoding (and extension): the metric at the trained lengths and at chosen
multiples of L, each as mean (min..max) over the seeds, whether every seed
reached the floor, and the CPU seconds of training.
"""
import json
import statistics
import sys


def at(run, length):
    for b in run["by_length"]:
        if b["length"] == length:
            return b["value"]
    raise KeyError(length)


def window(run, lo, hi):
    vals = [b["value"] for b in run["by_length"] if lo <= b["length"] <= hi]
    return sum(vals) / len(vals)


def fmt(values, digits):
    m = statistics.mean(values)
    return f"{m:.{digits}f} ({min(values):.{digits}f}..{max(values):.{digits}f})"


def table(j):
    L, M = j["train_length"], j["eval_length"]
    lm = j["task"] == "lm"
    groups = {}
    for r in j["runs"]:
        groups.setdefault((r["encoding"], r["extension"]), []).append(r)
    if lm:
        cols = [("trained (1..L)", lambda r: r["trained_value"]),
                (f"L+1..2L", lambda r: window(r, L + 1, 2 * L)),
                (f"2L+1..3L", lambda r: window(r, 2 * L + 1, 3 * L)),
                (f"3L+1..4L", lambda r: window(r, 3 * L + 1, min(4 * L, M)))]
        head = f"floor (entropy rate) {j['floor']:.4f} nats; trained floor (mean over positions 1..L) " \
               f"{j['runs'][0]['trained_floor']:.4f}; 5 % above it: {1.05 * j['runs'][0]['trained_floor']:.4f}"
    else:
        cols = [("trained (n ≤ L)", lambda r: r["trained_value"]),
                (f"n = L+1..2L", lambda r: window(r, L + 1, 2 * L)),
                (f"n = 2L+1..3L", lambda r: window(r, 2 * L + 1, 3 * L)),
                (f"n = 3L", lambda r: at(r, 3 * L))]
        head = "exact-match accuracy (1 = every answer right); the floor is 0.95 at the trained lengths"
    out = [f"**{j['task']}**, L = {L}, M = {M}, {len(groups)} rows × {len(next(iter(groups.values())))} seeds: {head}", "",
           "| encoding | extension | " + " | ".join(c for c, _ in cols) + " | reached | CPU s |",
           "|---|---|" + "---|" * len(cols) + "---|---|"]
    for (enc, ext), runs in groups.items():
        cells = [fmt([f(r) for r in runs], 3) for _, f in cols]
        reached = sum(r["reached_floor"] for r in runs)
        cpu = statistics.mean(r.get("train_cpu_seconds", r["train_seconds"]) for r in runs)
        out.append(f"| {enc} | {ext} | " + " | ".join(cells) + f" | {reached}/{len(runs)} | {cpu:.1f} |")
    return "\n".join(out)


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            print(table(json.load(f)))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
