#!/usr/bin/env python3
"""The adversarial pass of issue 32: generates hostile model configs and
decks (from the fixtures, the built-in deck and the steps files, broken in
every way the issue names and some more) and runs them through
`poslab model`, `poslab deck check` and `poslab deck export`, best under
the ASan/UBSan build. Reports what poslab must never do:

  - die of a signal (abort, segfault), exit with a code other than 0, 1, 2;
  - print a sanitizer report;
  - fail without exactly one stderr line, or print control characters on it;
  - run longer than --timeout seconds;
  - leave a temporary file, or write anything when it fails;
  - write an SVG that is not well-formed XML.

Usage: scripts/hostile_files.py POSLAB [--configs N] [--decks N] [--exports N]
       [--jobs J] [--seed S] [--keep DIR] [--timeout S]
Prints a summary by class and every finding (the file kept under --keep).
Standard library only.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SANITIZER = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error:", b"SUMMARY: UndefinedBehaviorSanitizer")

NUMBERS = ["1e999", "-1e999", "9" * 400, "-" + "9" * 400, "1e-320", "4.9e-324", "-1e-320", "1e-400", "0", "-0",
           "1.7976931348623157e308", "-1.7976931348623157e308", "2.2250738585072014e-308", "18446744073709551616",
           "9223372036854775808", "-9223372036854775809", "1e308", "0.5", "1e-7", "3", "-1", "65537", "1048577",
           "1e9", "1e12", "0.0000000000000000000000001", "123456789.123456789"]
BAD_TOKENS = ["NaN", "Infinity", "-Infinity", "+1", ".5", "01", "1.", "1e", "0x10", "tru", "nul", "'x'", "\u201cx\u201d"]
HOSTILE_TEXT = ["x\n\x1b]0;pwned\x07\x1b[2J", "\u202eevil", "a\x00b", "<script>alert(1)</script>",
                "<img src=x onerror=alert(1)>", "a|b\n|c", "`code`", "\x01\x0b\uffff", "\ud800", "\U0001F600" * 50,
                "x" * 10000, "", " ", "rope", "yarn", "llama3", "longrope", "su", "linear", "dynamic", "default"]


def deep(n, kind="["):
    return kind * n + ("]" if kind == "[" else "}") * n if kind == "[" else '{"a":' * n + "1" + "}" * n


def mutate_value(rng, v):
    r = rng.random()
    if r < 0.35:
        return ("raw", rng.choice(NUMBERS))
    if r < 0.45:
        return ("raw", rng.choice(BAD_TOKENS))
    if r < 0.6:
        return ("json", rng.choice(HOSTILE_TEXT))
    if r < 0.7:
        return ("raw", deep(rng.choice([70, 1000, 100000])))
    if r < 0.8:
        return ("json", rng.choice([None, True, [], {}, [1, 2], {"rope_type": "linear"}, "1e4", [1e-320] * 3]))
    if r < 0.9 and isinstance(v, (int, float)) and not isinstance(v, bool):
        return ("json", v * rng.choice([-1, 0, 1e-300, 1e300, 2, 0.5]))
    return ("json", [rng.random()] * rng.choice([0, 1, 63, 64, 65, 4096]))


def dump_with(obj, rng, raws):
    """JSON text of obj where the placeholder strings in raws are replaced by raw text."""
    text = json.dumps(obj, ensure_ascii=rng.random() < 0.5)
    for key, raw in raws.items():
        text = text.replace(json.dumps(key), raw, 1)
    return text


def paths(obj, prefix=()):
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + (k,))
            out += paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:8]):
            out.append(prefix + (i,))
            out += paths(v, prefix + (i,))
    return out


def get(obj, path):
    for p in path:
        obj = obj[p]
    return obj


def put(obj, path, value):
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value


def text_damage(rng, text):
    r = rng.random()
    if r < 0.25:
        return text[:rng.randrange(len(text) + 1)]  # truncated
    if r < 0.5:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice([",", "]", "}", "[", "{", ":", '"', "\\", "\x00", "\xff", ",}", "// c\n"]) + text[i:]
    if r < 0.65:  # a key given twice
        i = text.find('"', 1)
        j = text.find(",", i)
        if i > 0 and j > i:
            return text[:j + 1] + text[i:j] + "," + text[j + 1:]
        return text
    if r < 0.8:  # a trailing comma
        k = text.rfind("}")
        return text[:k] + "," + text[k:] if k > 0 else text
    b = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randrange(1, 4)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return b.decode("latin-1")


def hostile(rng, seed_obj, fields_to_misspell):
    """One hostile text from a seed object, and the class it exercises."""
    obj = json.loads(json.dumps(seed_obj))
    r = rng.random()
    raws = {}
    if r < 0.55:
        cls = "value"
        for _ in range(rng.randrange(1, 4)):
            ps = paths(obj)
            if not ps:
                break
            p = rng.choice(ps)
            kind, v = mutate_value(rng, get(obj, p))
            if kind == "raw":
                marker = f"@@RAW{len(raws)}@@"
                raws[marker] = v
                put(obj, p, marker)
                cls = "number" if v in NUMBERS else ("depth" if v.startswith(("[[", '{"a"')) else "token")
            else:
                put(obj, p, v)
                cls = "text" if isinstance(v, str) else "value"
        return cls, dump_with(obj, rng, raws)
    if r < 0.7:
        ps = [p for p in paths(obj) if isinstance(p[-1], str)]
        if ps:
            p = rng.choice(ps)
            parent = get(obj, p[:-1])
            key = p[-1]
            wrong = rng.choice(fields_to_misspell.get(key, [key[:-1], key + "s", key.upper(), key[1:] + key[0]]))
            if wrong and wrong not in parent:
                parent[wrong] = parent.pop(key)
        return "misspelt", json.dumps(obj)
    if r < 0.75:
        return "control", json.dumps(obj, ensure_ascii=False).replace("a", rng.choice(["\x1b[2J", "\u202e", "\x07"]), 1)
    return "broken", text_damage(rng, json.dumps(obj, indent=rng.choice([None, 1, 2])))


MISSPELT = {"caption": ["captoin", "Caption", "captions", "capiton"], "question": ["questoin", "qestion"],
            "answer": ["answr", "anwser"], "lesson": ["lessen", "lesso"], "params": ["parms", "param"],
            "figure": ["figur", "fig"], "scenes": ["scene", "sceens"], "rope_theta": ["rope_thta"],
            "rope_scaling": ["rope_scalling"], "factor": ["facter"]}


def run(poslab, args, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run([poslab, *args], capture_output=True, timeout=timeout,
                           env={**os.environ, "LANG": "C.UTF-8"})
    except subprocess.TimeoutExpired:
        return None, b"", time.monotonic() - start
    return p, p.stderr, time.monotonic() - start


def judge(p, err, seconds, out_paths, timeout):
    """What is wrong with one run ("" when nothing)."""
    if p is None:
        return f"no answer in {timeout} s"
    for s in SANITIZER:
        if s in err:
            return "sanitizer: " + err.decode(errors="replace")[:400]
    if p.returncode < 0:
        return f"signal {-p.returncode}: " + err.decode(errors="replace")[-300:]
    if p.returncode not in (0, 1, 2):
        return f"exit {p.returncode}: " + err.decode(errors="replace")[-300:]
    if p.returncode != 0:
        if not err.endswith(b"\n") or err.count(b"\n") != 1:
            return "not one stderr line: " + repr(err[:300])
        if any(b < 0x20 for b in err[:-1]) or b"\xe2\x80\xae" in err:
            return "control characters on stderr: " + repr(err[:200])
        for o in out_paths:
            if os.path.exists(o) and (not os.path.isdir(o) or os.listdir(o)):
                return f"failed (exit {p.returncode}) but wrote {o}"
    for o in out_paths:
        d = o if os.path.isdir(o) else os.path.dirname(o)
        if os.path.isdir(d):
            left = [f for f in os.listdir(d) if ".tmp-" in f]
            if left:
                return f"temporary files left: {left[:3]}"
        if p.returncode == 0 and o.endswith("svg") and os.path.isdir(o):
            for f in os.listdir(o):
                try:
                    ET.parse(os.path.join(o, f))
                except ET.ParseError as e:
                    return f"SVG not well-formed: {f}: {e}"
    if seconds > timeout * 0.8:
        return f"slow: {seconds:.1f} s"
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("poslab")
    ap.add_argument("--configs", type=int, default=2000)
    ap.add_argument("--decks", type=int, default=1000)
    ap.add_argument("--exports", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--keep", default="")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="poslab-hostile-")
    configs = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/configs/*.json")))]
    decks = [json.load(open(f)) for f in [os.path.join(ROOT, "assets/decks/course.json")] +
             sorted(glob.glob(os.path.join(ROOT, "assets/steps/*.json")))]
    heavy = {"format": "poslab-deck", "version": 1, "scenes": [
        {"lesson": "sinusoidal", "params": {"d": 8192, "positions": 1048576}, "figure": "heatmap"},
        {"lesson": "decay", "params": {"d": 8192}}, {"lesson": "t5", "params": {"relative": "-1048575:0"}}]}
    jobs = []
    for i in range(a.configs):
        cls, text = hostile(rng, rng.choice(configs), MISSPELT)
        fmt = rng.choice(["text", "json", "md"])
        jobs.append(("config/" + cls, text, [["model", "{f}", "--format", fmt]], []))
    for i in range(a.decks):
        cls, text = hostile(rng, rng.choice(decks + [heavy]), MISSPELT)
        jobs.append(("deck/" + cls, text, [["deck", "check", "{f}"]], []))
    for i in range(a.exports):
        cls, text = hostile(rng, rng.choice(decks + [heavy]), MISSPELT) if rng.random() < 0.7 else ("heavy", json.dumps(heavy))
        fmt = rng.choice(["svg", "png", "pdf"])
        out = "{d}/out." + fmt if fmt == "pdf" else "{d}/out-" + fmt
        jobs.append(("export/" + cls, text, [["deck", "export", "{f}", "--format", fmt, "--out", out]], [out]))
    rng.shuffle(jobs)

    def one(n_job):
        n, (cls, text, commands, outs) = n_job
        d = os.path.join(work, str(n))
        os.makedirs(d)
        f = os.path.join(d, "in.json")
        with open(f, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(text)
        findings = []
        codes = []
        for c in commands:
            args = [x.replace("{f}", f).replace("{d}", d) for x in c]
            out_paths = [o.replace("{d}", d) for o in outs]
            p, err, seconds = run(a.poslab, args, a.timeout)
            codes.append(None if p is None else p.returncode)
            why = judge(p, err, seconds, out_paths, a.timeout)
            if why:
                findings.append((cls, " ".join(c[:2]), why))
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    shutil.copy(f, os.path.join(a.keep, f"{n}-{cls.replace('/', '-')}.json"))
        shutil.rmtree(d, ignore_errors=True)
        return cls, codes, findings

    summary = {}
    findings = []
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for cls, codes, f in ex.map(one, enumerate(jobs)):
            s = summary.setdefault(cls, {"runs": 0, "exit 0": 0, "exit 1": 0, "exit 2": 0, "other": 0})
            for c in codes:
                s["runs"] += 1
                key = f"exit {c}" if c in (0, 1, 2) else "other"
                s[key] += 1
            findings += f
    shutil.rmtree(work, ignore_errors=True)
    print(f"{len(jobs)} files, {sum(s['runs'] for s in summary.values())} runs in {time.monotonic() - start:.0f} s")
    for cls in sorted(summary):
        s = summary[cls]
        print(f"  {cls:18} runs {s['runs']:5}  exit 0 {s['exit 0']:5}  exit 1 {s['exit 1']:4}  exit 2 {s['exit 2']:5}  other {s['other']}")
    print(f"findings: {len(findings)}")
    for cls, cmd, why in findings[:200]:
        print(f"  [{cls}] {cmd}: {why}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
