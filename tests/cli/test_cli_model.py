#!/usr/bin/env python3
"""CLI tests for `poslab model` (docs/CONTRACT.md §5): text, json and md
output of the fixtures in tests/fixtures/configs/, standard input, and bad
input (exit 2, one line naming the config field).

Usage: test_cli_model.py PATH/TO/poslab
"""
import json
import math
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
        for name in sorted(n for n in os.listdir(CONFIGS) if n.endswith(".json")):
            with self.subTest(name=name):
                p = run("model", os.path.join(CONFIGS, name), "--format", "json")
                self.assertEqual(p.returncode, 0, p.stderr)
                j = json.loads(p.stdout)
                self.assertEqual(list(j)[:11], ["model", "family", "view", "head_dim", "rotary_dim", "trained_context",
                                               "target_context", "attention_factor", "params", "defaulted", "warnings"])
                self.assertIn(j["family"], ("rope", "alibi", "t5", "learned", "none", "unknown"))
                # a model is its layers: every group names its kind and, when the count is known, its layers
                self.assertIn("layers", j)
                counted = 0
                for g in j["layers"]:
                    self.assertIn(g["kind"], ("rope", "nope", "alibi", "t5", "learned", "sinusoidal", "none"))
                    if g["indices"] is not None:
                        self.assertEqual(g["count"], len(g["indices"]))
                        counted += g["count"]
                if j["num_layers"] is not None and j["layers"]:
                    self.assertEqual(counted, j["num_layers"])
                if j["family"] == "none":
                    self.assertFalse(any(g["kind"] == "rope" for g in j["layers"]))
                for w in j["warnings"]:
                    self.assertEqual(set(w), {"id", "text"})

    def test_llama31_json(self):
        j = json.loads(run("model", config("llama-3.1-8b"), "--format", "json").stdout)
        self.assertEqual(j["view"], "scaling")
        # target_context: the scaling lesson's L′ is told where it is not factor × L (8 × 8,192 = 65,536)
        self.assertEqual(j["params"], {"method": "llama3", "d": 128, "base": 500000.0, "factor": 8.0,
                                       "original_context": 8192, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                       "target_context": 131072})
        self.assertEqual((j["trained_context"], j["target_context"]), (8192, 131072))

    def test_scaling_lessons_context_is_the_models(self):
        # Every fixture the scaling lesson opens: its figures mark L′ = the report's target_context
        # (told where it is not factor × L), and the flags open the lesson as they are.
        told = 0
        for name in sorted(n[:-5] for n in os.listdir(CONFIGS) if n.endswith(".json")):
            j = json.loads(run("model", config(name), "--format", "json").stdout)
            if j["view"] != "scaling" or j["target_context"] is None:
                continue
            with self.subTest(name=name):
                p = j["params"]
                product = p["factor"] * p["original_context"]
                self.assertEqual("target_context" in p, j["target_context"] != product)
                told += "target_context" in p
                def text(v):
                    return ",".join(map(str, v)) if isinstance(v, list) else str(v).lower() if isinstance(v, bool) else str(v)
                flags = [a for k, v in p.items() for a in ("--set", f"{k}={text(v)}")]
                d = run("export", "--view", "scaling", "--figure", "wavelength", "--describe", *flags)
                self.assertEqual(d.returncode, 0, d.stderr)
                self.assertIn(f"“L′ = {j['target_context']:,} (target)”", d.stdout.decode())
        self.assertGreaterEqual(told, 3)  # Llama 3.1, 3.2 and 4, Gemma 3

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


def hf_inv_freq(config):
    """transformers' (inv_freq, attention_factor) for a config, transcribed from
    modeling_rope_utils.py (the 2025 file: _compute_default/linear/dynamic/yarn/
    longrope/llama3_parameters) in plain float64 Python, independently of
    poslab: the dims, the base and L come from the config's own fields here."""
    rs = config.get("rope_scaling") or {}
    rtype = rs.get("rope_type", rs.get("type", "default"))
    head_dim = config.get("qk_rope_head_dim") or config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    dim = int(head_dim * config.get("partial_rotary_factor", 1.0))
    base = config.get("rope_theta", 10000.0)
    max_pos = config["max_position_embeddings"]
    default = [1.0 / base ** (i / dim) for i in range(0, dim, 2)]
    if rtype == "dynamic":  # at init (seq_len None → max_position_embeddings), the state poslab opens on
        factor = rs["factor"]
        seq_len = max_pos
        b = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        return [1.0 / b ** (i / dim) for i in range(0, dim, 2)], 1.0
    if rtype == "llama3":
        factor, low, high = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"]
        old = rs["original_max_position_embeddings"]
        out = []
        for f in default:
            wl = 2 * math.pi / f
            if wl < old / high:
                out.append(f)
            elif wl > old / low:
                out.append(f / factor)
            else:
                smooth = (old / wl - low) / (high - low)
                out.append((1 - smooth) * f / factor + smooth * f)
        return out, 1.0
    if rtype == "yarn":
        factor = rs["factor"]
        original = rs.get("original_max_position_embeddings", max_pos)
        mscale, mscale_all_dim = rs.get("mscale"), rs.get("mscale_all_dim")

        def get_mscale(scale, m=1):
            return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

        attention = rs.get("attention_factor")
        if attention is None:
            attention = get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim) if mscale and mscale_all_dim \
                else get_mscale(factor)
        beta_fast, beta_slow = rs.get("beta_fast") or 32, rs.get("beta_slow") or 1

        def corr(rot):
            return (dim * math.log(original / (rot * 2 * math.pi))) / (2 * math.log(base))

        low, high = corr(beta_fast), corr(beta_slow)
        if rs.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        out = []
        for i in range(dim // 2):
            extrapolation = 1 - min(max((i - low) / (high - low), 0), 1)
            pos = base ** (2 * i / dim)
            out.append(1.0 / (factor * pos) * (1 - extrapolation) + 1.0 / pos * extrapolation)
        return out, attention
    if rtype in ("longrope", "su"):
        original = config.get("original_max_position_embeddings", rs.get("original_max_position_embeddings", max_pos))
        factor = rs.get("factor") or max_pos / original
        attention = rs.get("attention_factor")
        if attention is None:
            attention = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(original))
        seq_len = None  # at init, the state poslab opens on: transformers builds the short list
        ext = rs["long_factor"] if seq_len and seq_len > original else rs["short_factor"]
        return [1.0 / (e * base ** (i / dim)) for e, i in zip(ext, range(0, dim, 2))], attention
    if rtype == "linear":
        return [f / rs["factor"] for f in default], 1.0
    return default, 1.0


class ModelAgainstTransformers(unittest.TestCase):
    """`poslab table rope-scaling --model F` gives transformers' inv_freq and attention factor."""

    def test_rope_scaling_table(self):
        for name, rtype in [("deepseek-v3", "yarn"), ("gpt-oss-20b", "yarn"), ("qwen2.5-7b-yarn", "yarn"),
                            ("llama-3.1-8b", "llama3"), ("llama-3.2-1b", "llama3"), ("llama-dynamic", "dynamic"),
                            ("phi-3-mini-128k", "longrope"), ("vicuna-7b-v1.5-16k", "linear"),
                            ("deepseek-v2-lite", "yarn")]:
            with self.subTest(name=name):
                with open(config(name), encoding="utf-8") as f:
                    cfg = json.load(f)
                inv_freq, attention = hf_inv_freq(cfg)
                p = run("table", "rope-scaling", "--model", config(name), "--format", "json")
                self.assertEqual(p.returncode, 0, p.stderr)
                t = json.loads(p.stdout)
                self.assertEqual(t["params"]["method"], rtype)
                col = t["columns"].index("scaled_theta")
                got = [row[col] for row in t["rows"]]
                self.assertEqual(len(got), len(inv_freq))
                for i, (a, b) in enumerate(zip(got, inv_freq)):
                    self.assertAlmostEqual(a / b, 1.0, delta=1e-12, msg=f"pair {i}")
                self.assertAlmostEqual(t["meta"]["attention_factor"], attention, delta=1e-14)

    def test_gpt_oss_truncate_false_changes_the_ramp(self):
        with open(config("gpt-oss-20b"), encoding="utf-8") as f:
            cfg = json.load(f)
        cfg["rope_scaling"]["truncate"] = True
        rounded, _ = hf_inv_freq(cfg)
        t = json.loads(run("table", "rope-scaling", "--model", config("gpt-oss-20b"), "--format", "json").stdout)
        col = t["columns"].index("scaled_theta")
        self.assertGreater(abs(t["rows"][10][col] / rounded[10] - 1), 1e-3)  # the unrounded ramp differs inside it
        self.assertAlmostEqual(t["meta"]["correction_low"], 8.092779115512402, delta=1e-12)

    def test_longrope_short_list_at_seq_len_l(self):
        with open(config("phi-3-mini-128k"), encoding="utf-8") as f:
            cfg = json.load(f)
        t = json.loads(run("table", "rope-scaling", "--model", config("phi-3-mini-128k"), "--set", "seq_len=4096",
                           "--format", "json").stdout)
        col = t["columns"].index("scaled_theta")
        for i, e in enumerate(cfg["rope_scaling"]["short_factor"]):
            self.assertAlmostEqual(t["rows"][i][col] * e * 10000.0 ** (2 * i / 96), 1.0, delta=1e-12)
        self.assertEqual(t["meta"]["factor_list"], "short")

    def test_warnings_in_chinese(self):
        p = run("model", config("deepseek-v3"), "--format", "json", "--lang", "zh")
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)
        self.assertIn("mscale_cancels", [w["id"] for w in j["warnings"]])
        for w in j["warnings"]:
            self.assertNotIn("{", w["text"])
            self.assertTrue(any("\u4e00" <= ch <= "\u9fff" for ch in w["text"]), w["text"])
        p = run("model", "-", "--lang", "zh", stdin=b'{"model_type":"llama","rope_scaling":{"rope_type":"yarn"}}')
        self.assertEqual(p.returncode, 2)
        self.assertIn("rope_scaling.factor", p.stderr.decode())
        self.assertIn("必须", p.stderr.decode())


class PresetsAreConfigs(unittest.TestCase):
    """A model preset exports exactly what --model with the same published config exports."""

    def test_preset_equals_model(self):
        presets = {p["id"]: p for p in json.loads(run("list", "presets", "--format", "json").stdout)}
        for preset, fixture in [("phi-3-mini-128k", "phi-3-mini-128k"), ("deepseek-v3", "deepseek-v3"),
                                ("llama3.1-8b", "llama-3.1-8b"), ("gpt-oss-20b", "gpt-oss-20b")]:
            with self.subTest(preset=preset):
                self.assertIn("config.json", presets[preset]["source"])
                with tempfile.TemporaryDirectory() as tmp:
                    a, b = os.path.join(tmp, "a.csv"), os.path.join(tmp, "b.csv")
                    for out, how in ((a, ("--preset", preset)), (b, ("--model", config(fixture)))):
                        p = run("export", "--view", "scaling", "--figure", "ratio", "--format", "csv", "--out", out, *how)
                        self.assertEqual(p.returncode, 0, p.stderr)
                    with open(a, "rb") as fa, open(b, "rb") as fb:
                        self.assertEqual(fa.read(), fb.read())


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


EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "model_expected", "expected.json")


def expected():
    """transformers' numbers for the 2025–26 fixtures, derived with numpy by
    tests/fixtures/model_expected/expected.py (kept, so this test needs no numpy)."""
    with open(EXPECTED, encoding="utf-8") as f:
        return json.load(f)


class ModelLayers(unittest.TestCase):
    """A model is its layers (issue #27): --format json's num_layers and layers, text and md tables, the figure."""

    def test_layers_json_match_expected(self):
        for name, e in expected().items():
            if "groups" not in e:
                continue
            with self.subTest(name=name):
                p = run("model", config(name), "--format", "json")
                self.assertEqual(p.returncode, 0, p.stderr)
                j = json.loads(p.stdout)
                self.assertEqual(j["num_layers"], e["num_layers"])
                self.assertEqual(len(j["layers"]), len(e["groups"]))
                for got, want in zip(j["layers"], e["groups"]):
                    for key, value in want.items():
                        self.assertEqual(got[key], value, key)
                    for key in ("base", "rotary_dim", "method", "factor", "window", "mrope_section"):
                        if key not in want:
                            self.assertNotIn(key, got)  # keys that do not apply are left out

    def test_table_rope_scaling_gives_transformers_inv_freq(self):
        for name, e in expected().items():
            if "groups" not in e or "inv_freq" not in e:
                continue
            with self.subTest(name=name):
                p = run("table", "rope-scaling", "--model", config(name), "--format", "json")
                self.assertEqual(p.returncode, 0, p.stderr)
                t = json.loads(p.stdout)
                col = t["columns"].index("scaled_theta")
                got = [row[col] for row in t["rows"]]
                want = [x for x in e["inv_freq"]["rope" if "rope" in e["inv_freq"] else "full"] if x > 0]
                self.assertEqual(len(got), len(want))
                for i, (a, b) in enumerate(zip(got, want)):
                    self.assertAlmostEqual(a / b, 1.0, delta=1e-12, msg=f"pair {i}")
                self.assertAlmostEqual(t["meta"]["attention_factor"], e["attention_factor"], delta=1e-14)

    def test_dynamic_init_state(self):
        j = json.loads(run("model", config("llama-dynamic"), "--format", "json").stdout)
        self.assertEqual(j["states"], [{"name": "init", "seq_len": 4096}, {"name": "long_context", "seq_len": 8192}])
        want = expected()["llama-dynamic"]["inv_freq"]["init"]
        t = json.loads(run("table", "rope-scaling", "--model", config("llama-dynamic"), "--set", "seq_len=4096",
                           "--format", "json").stdout)
        col = t["columns"].index("scaled_theta")
        for a, b in zip([row[col] for row in t["rows"]], want):
            self.assertAlmostEqual(a / b, 1.0, delta=1e-12)

    def test_text_and_md_tables(self):
        text = run("model", config("llama-4-scout")).stdout.decode()
        self.assertIn("config part      text_config", text)
        self.assertIn("layers           48", text)
        self.assertIn("3, 7, …, 47", text)
        self.assertIn("query scale      llama4_temperature", text)
        self.assertIn("warning nope_layers: No position encoding in 12 of the 48 layers (indices from 0: 3, 7, …, 47;", text)
        md = run("model", config("gemma-3-4b"), "--format", "md").stdout.decode()
        self.assertIn("### Layers (34)", md)
        self.assertIn("| 5, 11, 17, 23, 29 | 5 | rope |", md)
        self.assertIn("- **scaling_some_layers**", md)

    def test_figure_layers_exports(self):
        with tempfile.TemporaryDirectory() as tmp:
            for ext in ("png", "svg", "csv", "pdf"):
                with self.subTest(ext=ext):
                    out = os.path.join(tmp, "layers." + ext)
                    p = run("model", config("llama-4-scout"), "--figure", "layers", "--out", out)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    with open(out, "rb") as f:
                        data = f.read()
                    self.assertGreater(len(data), 200)
                    if ext == "png":
                        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
                    if ext == "svg":
                        self.assertIn(b"Layers of this model", data)
                    if ext == "csv":
                        rows = data.decode().splitlines()
                        self.assertEqual(len(rows), 1 + 48)  # one row per layer
            zh = os.path.join(tmp, "zh.svg")
            p = run("model", config("command-r7b"), "--figure", "layers", "--format", "svg", "--out", zh, "--lang", "zh")
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(zh, encoding="utf-8") as f:
                self.assertIn("这个模型的各层", f.read())
            # refused: an unknown figure, no --out
            self.assertEqual(run("model", config("command-r7b"), "--figure", "heads", "--out", zh).returncode, 2)
            self.assertEqual(run("model", config("command-r7b"), "--figure", "layers").returncode, 2)

    def test_bad_layers_exit_2_naming_the_field(self):
        def edited(name, edit):
            with open(config(name), encoding="utf-8") as f:
                j = json.load(f)
            edit(j)
            return json.dumps(j).encode()

        cases = [
            (edited("llama-4-scout", lambda j: j["text_config"].update(num_hidden_layers=-48)), "text_config.num_hidden_layers"),
            (edited("gemma-3-4b-v5", lambda j: j["text_config"]["layer_types"].pop()), "text_config.layer_types"),
            (edited("gemma-3-4b-v5", lambda j: j["text_config"]["layer_types"].__setitem__(0, "local")),
             "text_config.layer_types[0]"),
            (edited("qwen2.5-vl-7b", lambda j: j["rope_scaling"].update(mrope_section=[16, 24, 16])), "rope_scaling.mrope_section"),
            (edited("smollm3-3b", lambda j: j.update(no_rope_layers=[1, 0])), "no_rope_layers"),
        ]
        for data, field in cases:
            with self.subTest(field=field):
                p = run("model", "-", stdin=data)
                self.assertEqual(p.returncode, 2, p.stderr)
                lines = p.stderr.decode().strip().splitlines()
                self.assertEqual(len(lines), 1)
                self.assertTrue(lines[0].startswith(f"poslab: {field} = "), lines[0])

    def test_numbers_json_allows_never_crash(self):
        for value in ("1e-320", "1e999", "-1e999", "9" * 400):
            for field in ("partial_rotary_factor", "rope_theta", "max_position_embeddings"):
                with self.subTest(field=field, value=value[:10]):
                    data = ('{"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"%s":%s}' % (field, value)).encode()
                    p = run("model", "-", stdin=data)
                    self.assertEqual(p.returncode, 2, p.stderr)  # refused, one line, never a crash
                    lines = p.stderr.decode().strip().splitlines()
                    self.assertEqual(len(lines), 1)
                    self.assertTrue(lines[0].startswith(f"poslab: {field} = "), lines[0])  # under its field
        # a number no double holds, deep in the file, is named with its path
        p = run("model", "-", stdin=b'{"model_type":"qwen2_vl","rope_scaling":{"type":"mrope","mrope_section":[16,1e999,24]}}')
        self.assertEqual(p.returncode, 2)
        self.assertTrue(p.stderr.decode().startswith("poslab: rope_scaling.mrope_section[1] = 1e999: "), p.stderr)
        p = run("model", "-", stdin=b'{"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":2000}}')
        self.assertEqual(p.returncode, 2)
        self.assertIn("poslab: rope_scaling.factor = 2000", p.stderr.decode())


def edited(name, edit):
    """A fixture config changed by `edit` (a function of the parsed JSON), as bytes for stdin."""
    with open(config(name), encoding="utf-8") as f:
        j = json.load(f)
    edit(j)
    return json.dumps(j).encode()


def reading(data, *args):
    p = run("model", "-", "--format", "json", *args, stdin=data)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def warning_text(j, wid):
    return " ".join(w["text"] for w in j["warnings"] if w["id"] == wid)


class AuditFixes(unittest.TestCase):
    """What the #27 audit found, each with the case that would have caught it."""

    def test_mrope_advice_is_what_transformers_converts(self):
        # configuration_qwen2_vl.py converts only `type` "mrope" → "default"; rope_type "mrope" is a KeyError
        with open(config("qwen2.5-vl-7b"), "rb") as f:
            j = reading(f.read())
        ids = [w["id"] for w in j["warnings"]]
        self.assertIn("legacy_type", ids)
        self.assertIn("mrope_legacy", ids)
        legacy = warning_text(j, "legacy_type")
        self.assertIn('"rope_type": "default"', legacy)
        self.assertNotIn('Write "rope_type": "mrope"', legacy)
        self.assertIn("KeyError", legacy)
        # the sentence on the other spelling names one key, not `type` and "rope_type" run together
        self.assertIn('written as "rope_type": "mrope", it is converted by no config class', legacy)
        self.assertNotIn('`type`: "rope_type"', legacy)
        spelled = edited("qwen2.5-vl-7b", lambda c: c["rope_scaling"].update(rope_type=c["rope_scaling"].pop("type")))
        for lang in ("en", "zh"):
            j = reading(spelled, "--lang", lang)
            ids = [w["id"] for w in j["warnings"]]
            self.assertIn("mrope_rope_type", ids)
            self.assertNotIn("mrope_legacy", ids)  # it would claim transformers converts it
            self.assertNotIn("legacy_type", ids)
            self.assertIn("KeyError", warning_text(j, "mrope_rope_type"))
            self.assertEqual(j["layers"][0]["mrope_section"], [16, 24, 24])

    def test_mrope_names_a_command_that_opens_its_sections(self):
        # The family line names the rope lesson (the `poslab` line's flags are its own); the mrope warning
        # names the multimodal lesson as a command a practitioner can paste, at the model's base and sections,
        # in both languages, and the same command draws those sections (checked through export --describe).
        for name, sections, base, interleaved in (("qwen2.5-vl-7b", "16,24,24", "1000000", False),
                                                  ("qwen3-vl-4b", "24,20,20", "5000000", True)):
            for lang in ("en", "zh"):
                with self.subTest(name=name, lang=lang):
                    j = json.loads(run("model", config(name), "--format", "json", "--lang", lang).stdout)
                    text = warning_text(j, "mrope")
                    want = f"poslab gui --view multimodal --set base={base} --set mrope_section={sections}" + (
                        " --set mrope_interleaved=true" if interleaved else "")
                    self.assertIn(want, text)
                    self.assertNotIn(want + " --set", text)  # nothing else appended to it
            args = want.split()[2:]  # --view multimodal --set …
            p = run("export", *args, "--figure", "sections", "--describe")
            self.assertEqual(p.returncode, 0, p.stderr)
            described = p.stdout.decode()
            t, h, w = (int(x) for x in sections.split(","))
            self.assertIn(f"t (time): {t} pairs", described)
            self.assertIn(f"h (height): {h} pairs", described)
            self.assertIn(f"pair i: 0 to {t + h + w - 1}", described)
        # legacy "type": "mrope" — the conversion is told once (legacy_type); mrope_legacy only says poslab reads it so
        j = json.loads(run("model", config("qwen2.5-vl-7b"), "--format", "json").stdout)
        self.assertIn("config classes", warning_text(j, "legacy_type"))
        self.assertNotIn("config classes", warning_text(j, "mrope_legacy"))

    def test_linear_context_per_family(self):
        # Gemma 3: max_position_embeddings is the extended context (report: pre-trained at 32K, linear ×8)
        j = json.loads(run("model", config("gemma-3-4b"), "--format", "json").stdout)
        self.assertEqual((j["trained_context"], j["target_context"]), (32768, 131072))
        self.assertEqual(j["params"]["original_context"], 32768)
        self.assertEqual(j["params"]["factor"], 8)
        self.assertIn("linear_context", [w["id"] for w in j["warnings"]])
        v5 = json.loads(run("model", config("gemma-3-4b-v5"), "--format", "json").stdout)
        self.assertEqual((v5["trained_context"], v5["target_context"]), (32768, 131072))
        # the preset the GUI opens reads the same
        presets = {p["id"]: p for p in json.loads(run("list", "presets", "--format", "json").stdout)}
        self.assertEqual((presets["gemma3-4b"]["params"]["original_context"], presets["gemma3-4b"]["params"]["factor"]),
                         ("32768", "8"))
        # vicuna-7b-v1.5-16k states its trained context: 4,096 → 16,384, and the file cannot tell: warned
        j = json.loads(run("model", config("vicuna-7b-v1.5-16k"), "--format", "json").stdout)
        self.assertEqual((j["trained_context"], j["target_context"]), (4096, 16384))
        self.assertIn("does not say", warning_text(j, "linear_context"))
        # an original_max_position_embeddings says it: no warning
        said = edited("vicuna-7b-v1.5-16k", lambda c: c["rope_scaling"].update(original_max_position_embeddings=4096))
        self.assertNotIn("linear_context", [w["id"] for w in reading(said)["warnings"]])

    def test_deepseek_v2_pairs_are_interleaved(self):
        j = json.loads(run("model", config("deepseek-v2-lite"), "--format", "json").stdout)
        self.assertEqual([g["layout"] for g in j["layers"]], ["interleaved"])
        # DeepSeek-VL2: the same model under language_config, with or without its model_type
        with open(config("deepseek-v2-lite"), encoding="utf-8") as f:
            inner = json.load(f)
        for keep_type in (True, False):
            lang = dict(inner) if keep_type else {k: v for k, v in inner.items() if k != "model_type"}
            vl2 = reading(json.dumps({"model_type": "deepseek_vl_v2", "language_config": lang}).encode())
            self.assertEqual(vl2["config_part"], "language_config")
            self.assertEqual(vl2["layers"][0]["layout"], "interleaved")
        # DeepSeek-V3 with rope_interleave false rotates halves
        flat = edited("deepseek-v3", lambda c: c.update(rope_interleave=False))
        self.assertEqual(reading(flat)["layers"][0]["layout"], "half")

    def test_irregular_layer_lists_are_not_shortened(self):
        pattern = [1, 1, 1, 0] * 5 + [1, 1, 1, 1, 0, 1, 1] + [0, 1, 1, 1] * 5 + [0]
        self.assertEqual(len(pattern), 48)
        nope = [i for i, v in enumerate(pattern) if v == 0]
        data = edited("smollm3-3b", lambda c: c.update(num_hidden_layers=48, no_rope_layers=pattern))
        j = reading(data)
        group = [g for g in j["layers"] if g["kind"] == "nope"][0]
        self.assertEqual(group["indices"], nope)
        shown = "3, 7, 11, 15, 19, 24, 27, 31, …, 47"
        for fmt in ("text", "md"):
            out = run("model", "-", "--format", fmt, stdin=data).stdout.decode()
            self.assertIn(shown, out)
            self.assertNotIn("3, 7, …, 47", out)
        self.assertIn(shown, warning_text(j, "nope_layers"))

    def test_rope_view_gets_the_models_context_and_layout(self):
        for name, L, layout in [("qwen2.5-vl-7b", 128000, "half"), ("command-r7b", 8192, "interleaved"),
                                ("modernbert-base", 8192, "half"), ("gemma-4-31b", 262144, "half"),
                                ("smollm3-3b", 65536, "half"), ("llama-2-7b", 4096, "half")]:
            with self.subTest(name=name):
                j = json.loads(run("model", config(name), "--format", "json").stdout)
                self.assertEqual(j["view"], "rope")
                self.assertEqual(j["params"]["original_context"], L)
                self.assertEqual(j["params"]["original_context"], j["trained_context"])
                self.assertEqual(j["params"]["layout"], layout)
                self.assertEqual(j["params"]["layout"], j["layers"][[g["kind"] for g in j["layers"]].index("rope")]["layout"])
                with tempfile.TemporaryDirectory() as tmp:
                    p = run("export", "--view", "rope", "--model", config(name), "--format", "csv", "--out", tmp)
                    self.assertEqual(p.returncode, 0, p.stderr)
        # the scaling view's params stay the table's keys
        j = json.loads(run("model", config("llama-3.1-8b"), "--format", "json").stdout)
        self.assertNotIn("layout", j["params"])

    def test_mscale_cancels_says_deepseek_only_for_deepseek(self):
        ds = json.loads(run("model", config("deepseek-v3"), "--format", "json").stdout)
        self.assertIn("its attention multiplies the softmax scale", warning_text(ds, "mscale_cancels"))
        mi = json.loads(run("model", config("ministral-3-8b"), "--format", "json").stdout)
        text = warning_text(mi, "mscale_cancels")
        self.assertTrue(text)
        self.assertNotIn("its attention multiplies", text)
        self.assertIn("do not assume", text)

    def test_text_slips(self):
        # attn_temperature_tuning false: no temperature "below", no query scale
        j = reading(edited("llama-4-scout", lambda c: c["text_config"].update(attn_temperature_tuning=False)))
        self.assertNotIn("temperature below", warning_text(j, "nope_layers"))
        self.assertNotIn("query_scales", j)
        # SmolLM3 with an interval of 3: layers 2, 5, 8, …, and no "every fourth layer"
        j = reading(edited("smollm3-3b", lambda c: (c.pop("no_rope_layers", None), c.update(no_rope_layer_interval=3))))
        nope = [g for g in j["layers"] if g["kind"] == "nope"][0]["indices"]
        self.assertEqual(nope, list(range(2, 36, 3)))
        self.assertNotIn("fourth", warning_text(j, "nope_layers"))
        # one NoPE layer: no "layers 3 (1 of 4)"
        j = reading(edited("smollm3-3b", lambda c: (c.pop("no_rope_layers", None), c.update(num_hidden_layers=4))))
        self.assertIn("1 of the 4 layers (indices from 0: 3;", warning_text(j, "nope_layers"))
        # scaling_some_layers cites Gemma 3 for Gemma 3's legacy keys, the keyed rope_parameters otherwise
        legacy = json.loads(run("model", config("gemma-3-4b"), "--format", "json").stdout)
        self.assertIn("Gemma 3", warning_text(legacy, "scaling_some_layers"))
        keyed = reading(edited("gemma-3-4b-v5", lambda c: c["text_config"].update(model_type="gemma3_keyed_test")))
        text = warning_text(keyed, "scaling_some_layers")
        self.assertIn("rope_parameters.full_attention", text)
        self.assertNotIn("Gemma 3", text)
        # defaults that come from a model's own code are not called transformers' defaults
        glm = run("model", config("glm-4-9b-chat")).stdout.decode()
        self.assertNotIn("(transformers' defaults)", glm)

    def test_dynamic_and_longrope_open_on_init(self):
        dyn = json.loads(run("model", config("llama-dynamic"), "--format", "json").stdout)
        self.assertEqual(dyn["params"]["seq_len"], dyn["states"][0]["seq_len"])
        self.assertEqual(dyn["states"][0]["name"], "init")
        phi = json.loads(run("model", config("phi-3-mini-128k"), "--format", "json").stdout)
        self.assertEqual([s["name"] for s in phi["states"]], ["init", "long_context"])
        self.assertEqual(phi["params"]["seq_len"], 4096)
        self.assertIn("init: seq_len=4096 (params);", run("model", config("phi-3-mini-128k")).stdout.decode())
        # the long-context state, named, is one --set away: the long list
        with open(config("phi-3-mini-128k"), encoding="utf-8") as f:
            cfg = json.load(f)
        t = json.loads(run("table", "rope-scaling", "--model", config("phi-3-mini-128k"), "--set",
                           "seq_len=%d" % phi["states"][1]["seq_len"], "--format", "json").stdout)
        col = t["columns"].index("scaled_theta")
        for i, e in enumerate(cfg["rope_scaling"]["long_factor"]):
            self.assertAlmostEqual(t["rows"][i][col] * e * 10000.0 ** (2 * i / 96), 1.0, delta=1e-12)

    def test_gpt_oss_alternates_without_layer_types(self):
        j = json.loads(run("model", config("gpt-oss-20b"), "--format", "json").stdout)
        self.assertEqual(j["num_layers"], 24)
        by = {g["attention"]: g for g in j["layers"]}
        self.assertEqual(by["sliding"]["indices"], list(range(0, 24, 2)))  # (i + 1) % 2 → sliding
        self.assertEqual(by["sliding"]["window"], 128)
        self.assertEqual(by["full"]["indices"], list(range(1, 24, 2)))
        # no layer count: GptOssConfig's default, 36
        j = reading(edited("gpt-oss-20b", lambda c: c.pop("num_hidden_layers")))
        self.assertEqual(j["num_layers"], 36)
        self.assertIn("num_hidden_layers", j["defaulted"])

    def test_qwen3_next_interval_and_llama_4_scaling(self):
        j = json.loads(run("model", config("qwen3-next-80b-a3b"), "--format", "json").stdout)
        full = [i for i in range(48) if (i + 1) % 4 == 0]
        rope = [g for g in j["layers"] if g["kind"] == "rope"]
        self.assertEqual(len(rope), 1)
        self.assertEqual(rope[0]["indices"], full)
        self.assertEqual((rope[0]["rotary_dim"], rope[0]["head_dim"]), (64, 256))
        self.assertEqual([g for g in j["layers"] if g["kind"] == "none"][0]["count"], 36)
        t = json.loads(run("table", "rope-scaling", "--model", config("qwen3-next-80b-a3b"), "--format", "json").stdout)
        col = t["columns"].index("scaled_theta")
        for i, row in enumerate(t["rows"]):  # partial rotary: 1e7^(−2i/64) over the 64 rotating dims
            self.assertAlmostEqual(row[col] * 1e7 ** (2 * i / 64), 1.0, delta=1e-12)
        # vLLM's top-level llama_4_scaling: transformers does not read it; warned with its values
        data = edited("mistral-7b-v0.1", lambda c: c.update(llama_4_scaling={"original_max_position_embeddings": 8192, "beta": 0.1}))
        text = warning_text(reading(data), "llama_4_scaling_toplevel")
        self.assertIn("8,192 → %.5f" % (1 + 0.1 * math.log(2)), text)
        self.assertIn("32,768 → %.5f" % (1 + 0.1 * math.log(5)), text)

    def test_warnings_never_contradict_the_file_or_each_other(self):
        # A practitioner's review (2026-11-29). Qwen3-Next: head_dim 256 of which 64 rotate —
        # head_dim_explicit must not say RoPE rotates 256 beside partial_rotary's 64 of 256.
        for lang in ("en", "zh"):
            j = json.loads(run("model", config("qwen3-next-80b-a3b"), "--format", "json", "--lang", lang).stdout)
            self.assertEqual(j["rotary_dim"], 64)
            head = warning_text(j, "head_dim_explicit")
            self.assertIn("256", head)
            for claim in ("rotates 256", "旋转 256"):
                self.assertNotIn(claim, head)
            self.assertIn("64", warning_text(j, "partial_rotary"))
            # Llama 4 Scout's file has no_rope_layers = []: nope_layers names the entries, not the field, as 0
            j = json.loads(run("model", config("llama-4-scout"), "--format", "json", "--lang", lang).stdout)
            self.assertIn("no_rope_layers = []", warning_text(j, "no_rope_layers_empty"))
            nope = warning_text(j, "nope_layers")
            self.assertIn("no_rope_layers[i] = 0", nope)
            self.assertNotIn("no_rope_layers = 0", nope)


if __name__ == "__main__":
    unittest.main(verbosity=2)
