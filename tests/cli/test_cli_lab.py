#!/usr/bin/env python3
"""CLI tests for `poslab lab run` (docs/CONTRACT.md §1 and §9): the JSON and
CSV shapes on tiny runs (a few steps: these check the command, not the
learning — docs/LAB.md and `make bench` train the real lab), determinism
across thread counts, --out written atomically, and bad input refused with one
line naming the key, exit 2, before any training.

Usage: test_cli_lab.py PATH/TO/poslab
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

POSLAB = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "poslab"
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
ENV["LANG"] = "C.UTF-8"
# a tiny lab: one layer of width 16, a handful of steps, short sequences
TINY = ["--steps", "4", "--layers", "1", "--width", "16", "--heads", "2", "--batch", "4", "--train-length", "8"]


def run(*args):
    return subprocess.run([POSLAB, "lab", "run", *args], capture_output=True, env=ENV, timeout=300)


class LabOutput(unittest.TestCase):
    def test_lm_json_shape(self):
        p = run("--task", "lm", "--encodings", "rope,learned", "--extension", "none,yarn", "--seeds", "2", *TINY)
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)
        self.assertEqual(list(j)[:5], ["task", "train_length", "eval_length", "floor", "metric"])
        self.assertEqual((j["task"], j["train_length"], j["eval_length"], j["metric"]), ("lm", 8, 32, "loss"))
        self.assertGreater(j["floor"], 0)
        # rope: none and yarn for each seed; learned: none only
        self.assertEqual([(r["encoding"], r["extension"], r["seed"]) for r in j["runs"]],
                         [("rope", "none", 1), ("rope", "yarn", 1), ("rope", "none", 2), ("rope", "yarn", 2),
                          ("learned", "none", 1), ("learned", "none", 2)])
        for r in j["runs"]:
            self.assertEqual([b["length"] for b in r["by_length"]], list(range(1, 33)))
            for key in ("train_seconds", "steps", "final_train_loss", "params", "trained_value", "reached_floor"):
                self.assertIn(key, r)
            self.assertEqual(r["steps"], 4)
            self.assertEqual(r["factor"], 4 if r["extension"] == "yarn" else 1)
            self.assertTrue(all(b["value"] > 0 and b["floor"] > 0 for b in r["by_length"]))
        learned = [r for r in j["runs"] if r["encoding"] == "learned"]
        self.assertEqual(learned[0]["untrained_positions_from"], 8)
        self.assertNotIn("untrained_positions_from", j["runs"][0])
        # one trained model, two readings: the trained range is read the same at s = 1 ... only position 0 agrees
        self.assertAlmostEqual(j["runs"][0]["by_length"][0]["value"], j["runs"][1]["by_length"][0]["value"], places=5)

    def test_copy_and_reverse_csv(self):
        for task in ("copy", "reverse"):
            with self.subTest(task=task):
                p = run("--task", task, "--encodings", "alibi", "--seeds", "1", "--format", "csv", *TINY[:-2],
                        "--train-length", "4")
                self.assertEqual(p.returncode, 0, p.stderr)
                rows = list(csv.DictReader(io.StringIO(p.stdout.decode())))
                self.assertEqual(len(rows), 12)  # lengths 1..3L
                self.assertEqual(list(rows[0]), ["task", "encoding", "extension", "factor", "seed", "metric", "length",
                                                 "value", "floor", "train_seconds", "steps", "final_train_loss", "params"])
                self.assertTrue(all(r["metric"] == "accuracy" and 0 <= float(r["value"]) <= 1 for r in rows))

    def test_threads_do_not_change_the_numbers(self):
        a = json.loads(run("--encodings", "t5,alibi", "--seeds", "2", "--threads", "1", *TINY).stdout)
        b = json.loads(run("--encodings", "t5,alibi", "--seeds", "2", "--threads", "3", *TINY).stdout)
        strip = lambda j: [{k: v for k, v in r.items() if k not in ("train_seconds", "train_cpu_seconds")} for r in j["runs"]]
        self.assertEqual(strip(a), strip(b))

    def test_out_is_written_atomically(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "lab.json")
            p = run("--encodings", "nope", "--seeds", "1", "--out", out, *TINY)
            self.assertEqual((p.returncode, p.stdout), (0, b""))
            with open(out) as f:
                self.assertEqual(json.load(f)["runs"][0]["encoding"], "nope")
            self.assertEqual(os.listdir(d), ["lab.json"])


class LabRefusals(unittest.TestCase):
    CASES = [
        (["--encodings", "rope,xpos2"], "encoding = xpos2: must be one of nope, learned, sinusoidal, rope, alibi, t5"),
        (["--width", "30"], "width = 30: must be a multiple of heads = 4"),
        (["--width", "12", "--heads", "4"], "width = 12: must be a multiple of heads = 4 with an even head size"),
        (["--eval-length", "100000"], "eval_length = 100000: must be an integer in 32..256"),
        (["--learning-rate", "nan"], "learning_rate = nan: must be a number in 0.00001..0.1"),
        (["--task", "sort"], "task = sort: must be one of lm, copy, reverse"),
        (["--extension", "pi", "--encodings", "alibi"], "extension = pi: context extension rescales RoPE"),
        (["--extension", "longrope"], "extension = longrope: must be one of none, pi, ntk, yarn, dynamic"),
        (["--seeds", "0"], "seeds = 0: must be an integer in 1..16"),
        (["--layers", "9"], "layers = 9: must be an integer in 1..4"),
        (["--steps", "0"], "steps = 0: must be an integer in 1..100000"),
        (["--threads", "0"], "threads = 0: must be an integer in 1..64"),
        (["--width", "0"], "width = 0: must be an integer in 4..512"),
        (["--format", "xml"], "format = xml: must be one of json, csv"),
        (["--extension", "pi", "--factor", "0.5"], "factor = 0.5: must be"),
    ]

    def test_bad_input_is_one_line_exit_2_before_training(self):
        for args, message in self.CASES:
            with self.subTest(args=args):
                t0 = time.monotonic()
                # the default steps: a refusal that came after training would take seconds
                p = run(*args)
                self.assertEqual(p.returncode, 2, p.stderr)
                err = p.stderr.decode()
                self.assertEqual(err.count("\n"), 1, err)
                self.assertIn(message, err)
                self.assertEqual(p.stdout, b"")
                self.assertLess(time.monotonic() - t0, 5)

    def test_chinese(self):
        p = run("--width", "30", "--lang", "zh")
        self.assertEqual(p.returncode, 2)
        self.assertIn("width = 30：必须是 heads = 4 的整数倍", p.stderr.decode())

    def test_no_file_on_refusal(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "lab.json")
            self.assertEqual(run("--width", "30", "--out", out).returncode, 2)
            self.assertEqual(os.listdir(d), [])

    def test_lab_needs_a_subcommand(self):
        p = subprocess.run([POSLAB, "lab"], capture_output=True, env=ENV, timeout=60)
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    unittest.main()
