#!/usr/bin/env python3
"""CLI tests for `poslab model` (docs/CONTRACT.md §5): text, json and md
output of the fixtures in tests/fixtures/configs/, standard input, and bad
input (exit 2, one line naming the config field).

Usage: test_cli_model.py PATH/TO/poslab
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

POSLAB = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "poslab"
CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "configs")
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
ENV["LANG"] = "C.UTF-8"


def run(*args, stdin=None):
    return subprocess.run([POSLAB, *args], input=stdin, capture_output=True, env=ENV, timeout=60)


def config(name):
    return os.path.join(CONFIGS, name + ".json")


class ModelOutput(unittest.TestCase):
    def test_json_shape(self):
        for name in sorted(os.listdir(CONFIGS)):
            with self.subTest(name=name):
                p = run("model", os.path.join(CONFIGS, name), "--format", "json")
                self.assertEqual(p.returncode, 0, p.stderr)
                j = json.loads(p.stdout)
                self.assertEqual(list(j)[:11], ["model", "family", "view", "head_dim", "rotary_dim", "trained_context",
                                               "target_context", "attention_factor", "params", "defaulted", "warnings"])
                self.assertIn(j["family"], ("rope", "alibi", "t5", "learned", "unknown"))
                for w in j["warnings"]:
                    self.assertEqual(set(w), {"id", "text"})

    def test_llama31_json(self):
        j = json.loads(run("model", config("llama-3.1-8b"), "--format", "json").stdout)
        self.assertEqual(j["view"], "scaling")
        self.assertEqual(j["params"], {"method": "llama3", "d": 128, "base": 500000.0, "factor": 8.0,
                                       "original_context": 8192, "low_freq_factor": 1.0, "high_freq_factor": 4.0})
        self.assertEqual((j["trained_context"], j["target_context"]), (8192, 131072))

    def test_text_and_md(self):
        text = run("model", config("deepseek-v3")).stdout.decode()
        self.assertIn("--set method=yarn", text)
        self.assertIn("warning mscale_cancels", text)
        md = run("model", config("deepseek-v3"), "--format", "md").stdout.decode()
        self.assertIn("| attention_factor | 1 |", md)
        self.assertIn("- **mscale_cancels**", md)

    def test_stdin_and_out(self):
        with open(config("gemma-7b"), "rb") as f:
            data = f.read()
        p = run("model", "-", "--format", "json", stdin=data)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["head_dim"], 256)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "gemma.md")
            self.assertEqual(run("model", config("gemma-7b"), "--format", "md", "--out", out).returncode, 0)
            with open(out, encoding="utf-8") as f:
                self.assertIn("head_dim_explicit", f.read())

    def test_params_reproduce_in_table(self):
        j = json.loads(run("model", config("qwen2.5-7b-yarn"), "--format", "json").stdout)
        sets = [a for k, v in j["params"].items() for a in ("--set", f"{k}={v}")]
        p = run("table", "rope-scaling", *sets, "--format", "json")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertAlmostEqual(json.loads(p.stdout)["meta"]["attention_factor"], j["attention_factor"], places=12)


class ModelOnTableAndExport(unittest.TestCase):
    def test_table_model_then_set(self):
        p = run("table", "rope-scaling", "--model", config("deepseek-v3"), "--format", "json")
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)
        self.assertEqual((j["params"]["method"], j["params"]["factor"], j["params"]["d"]), ("yarn", 40, 64))
        self.assertEqual(j["meta"]["attention_factor"], 1.0)
        j = json.loads(run("table", "rope-scaling", "--model", config("deepseek-v3"), "--set", "factor=4",
                           "--format", "json").stdout)
        self.assertEqual(j["params"]["factor"], 4)  # an explicit --set wins
        # keys the table does not read are skipped, not refused
        p = run("table", "alibi-slopes", "--model", config("bloom-560m"), "--format", "json")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(json.loads(p.stdout)["rows"]), 16)

    def test_export_model(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = run("export", "--view", "t5", "--model", config("t5-base"), "--format", "csv", "--out", tmp)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(os.listdir(tmp))

    def test_bad_model_exits_2(self):
        p = run("table", "rope-scaling", "--model", "-", stdin=b"[]")
        self.assertEqual(p.returncode, 2)
        self.assertIn("config", p.stderr.decode())


class ModelBadInput(unittest.TestCase):
    CASES = [
        (b"not json", "config"),
        (b"[1]", "config"),
        (b'{"vocab_size": 32000}', "config"),
        (b'{"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":0}}', "rope_scaling.factor"),
        (b'{"model_type":"llama","rope_theta":-10000}', "rope_theta"),
        (b'{"model_type":"llama","hidden_size":4096,"num_attention_heads":1000000000}', "num_attention_heads"),
        (b'{"model_type":"llama","rope_scaling":{"type":"yarn","rope_type":"linear","factor":2}}', "rope_scaling.type"),
    ]

    def test_exit_2_names_the_field(self):
        for data, field in self.CASES:
            with self.subTest(data=data):
                p = run("model", "-", stdin=data)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(p.stdout, b"")
                lines = p.stderr.decode().strip().splitlines()
                self.assertEqual(len(lines), 1)
                self.assertTrue(lines[0].startswith(f"poslab: {field} = "), lines[0])

    def test_wrong_longrope_length(self):
        with open(config("phi-3-mini-128k"), encoding="utf-8") as f:
            j = json.load(f)
        j["rope_scaling"]["long_factor"].pop()
        p = run("model", "-", stdin=json.dumps(j).encode())
        self.assertEqual(p.returncode, 2)
        self.assertIn("rope_scaling.long_factor = 47 numbers", p.stderr.decode())

    def test_bad_format_and_missing_file(self):
        self.assertEqual(run("model", config("llama-2-7b"), "--format", "csv").returncode, 2)
        self.assertEqual(run("model", "/nonexistent/config.json").returncode, 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
