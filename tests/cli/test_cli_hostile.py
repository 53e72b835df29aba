#!/usr/bin/env python3
"""Files strangers send (issue 32): model configs and decks built to break
poslab, through `poslab model`, `deck check`, `deck export`, `export` and
`gui --session`, run headless. One class of the issue per test case:

 1 numbers JSON allows (subnormals, 1e999, 400 digits)   → refused by field or read, never a crash
 2 deep nesting (100,000 "[")                            → refused at the depth bound, at once
 4 control characters in what poslab prints and writes   → one stderr line, no ESC/BEL/NUL; SVG well-formed
 5 unbounded reads and work                              → capped reads, sweep budget, decks in bounded memory
 6 files                                                 → sets appear whole or not at all, modes and links
                                                           kept, long names, SIGXFSZ reported, --out one level
 8 messages that send the user the wrong way             → a folder is a folder, PDF lists pdf/png/svg
 9 silent acceptance                                     → duplicate keys and misspelt fields refused by name

Usage: test_cli_hostile.py PATH/TO/poslab
Standard library only.
"""
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

POSLAB = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "poslab"
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
ENV["LANG"] = "C.UTF-8"
SANITIZED = "ASAN_OPTIONS" in os.environ
SANITIZER_REPORTS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error:",
                     b"SUMMARY: UndefinedBehaviorSanitizer")
LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 8192,
         "rope_theta": 500000.0}


def run(*args, check=None, timeout=120, stdin=None, preexec=None):
    p = subprocess.run([POSLAB, *args], capture_output=True, env=ENV, timeout=timeout, input=stdin,
                       preexec_fn=preexec)
    for report in SANITIZER_REPORTS:
        if report in p.stderr:
            raise AssertionError(f"poslab {' '.join(args)}: sanitizer report\n{p.stderr.decode(errors='replace')}")
    if p.returncode < 0:
        raise AssertionError(f"poslab {' '.join(args)} died of signal {-p.returncode}\n{p.stderr.decode(errors='replace')}")
    if check is not None and p.returncode != check:
        raise AssertionError(f"poslab {' '.join(args)} exited {p.returncode}, expected {check}\n"
                             f"stderr: {p.stderr.decode(errors='replace')}")
    return p


def one_line(p):
    """The one error line: exactly one, no control character but its newline."""
    err = p.stderr
    assert err.endswith(b"\n") and err.count(b"\n") == 1, err
    assert all(b >= 0x20 for b in err[:-1]), err
    return err.decode()


def deck(scenes, **extra):
    return json.dumps({"format": "poslab-deck", "version": 1, "title": "T", "scenes": scenes, **extra})


class Case(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-hostile-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text, mode="w"):
        with open(self.path(name), mode) as f:
            f.write(text)
        return self.path(name)


class Numbers(Case):
    """Class 1: every number JSON allows."""

    def test_beyond_a_double_is_refused_under_the_configs_field(self):
        for number in ("1e999", "-1e999", "9" * 400, "-" + "9" * 400):
            for field in ("rope_theta", "max_position_embeddings", "hidden_size"):
                with self.subTest(number=number[:12], field=field):
                    text = json.dumps(LLAMA).replace(f'"{field}": {json.dumps(LLAMA[field])}', f'"{field}": {number}')
                    line = one_line(run("model", self.write("c.json", text), check=2))
                    self.assertTrue(line.startswith(f"poslab: {field} = "), line)
                    self.assertIn("1.8e308", line)

    def test_subnormals_never_escape_as_exceptions(self):
        # The six fields; each is read or refused by name (exit 0 or 2), never "stod" or exit 134.
        fields = {"partial_rotary_factor": None, "rope_theta": None, "max_position_embeddings": None,
                  "rope_scaling.factor": "linear", "rope_scaling.beta_fast": "yarn", "rope_scaling.attention_factor": "yarn"}
        for field, rope_type in fields.items():
            for number in ("1e-320", "4.9e-324", "-1e-320", "1e-400"):
                with self.subTest(field=field, number=number):
                    config = dict(LLAMA)
                    if rope_type:
                        config["rope_scaling"] = {"rope_type": rope_type, "factor": 4,
                                                  "original_max_position_embeddings": 2048}
                    text = json.dumps(config)
                    if field.startswith("rope_scaling."):
                        key = field.split(".")[1]
                        text = text.replace('"rope_scaling": {', f'"rope_scaling": {{"{key}": {number}, ', 1)
                        text = text.replace(f'"factor": 4, ', "") if key == "factor" else text
                    elif field in config:
                        text = text.replace(f'"{field}": {json.dumps(config[field])}', f'"{field}": {number}')
                    else:
                        text = text[:-1] + f', "{field}": {number}}}'
                    p = run("model", self.write("c.json", text), "--format", "json")
                    self.assertIn(p.returncode, (0, 2), p.stderr)
                    self.assertNotIn(b"stod", p.stderr)
                    if p.returncode == 2:
                        self.assertIn(field.split(".")[-1], one_line(p))

    def test_a_deck_or_session_number_beyond_a_double_is_that_parameters_error(self):
        bad = self.write("bad.json", deck([{"lesson": "rope"}, {"lesson": "rope", "params": {"d": "D"}}]).replace('"D"', "1e999"))
        for args in (["deck", "check", bad], ["deck", "export", bad, "--format", "pdf", "--out", self.path("h.pdf")]):
            line = one_line(run(*args, check=2))
            self.assertIn("scene 2", line)
            self.assertIn("d = 1e999: must be an even integer in 2..8192", line)
            self.assertNotIn("corrupt", line)
        self.assertFalse(os.path.exists(self.path("h.pdf")))


class Depth(Case):
    """Class 2: 100,000 nested lists (a 200 KB file) as a config value and as a scene's params."""

    def test_deep_nesting_is_refused_at_once_everywhere(self):
        deep = "[" * 100000 + "]" * 100000
        config = self.write("deep-config.json", json.dumps(LLAMA)[:-1] + ', "rope_scaling": ' + deep + "}")
        scene = self.write("deep-deck.json", deck([{"lesson": "rope", "params": {"d": "X"}}]).replace('"X"', deep))
        for args in (["model", config], ["table", "rope-frequencies", "--model", config],
                     ["deck", "check", scene], ["deck", "export", scene, "--format", "svg", "--out", self.path("s")],
                     ["gui", "--session", scene]):
            with self.subTest(args=args[:2]):
                start = time.monotonic()
                p = run(*args, check=2, timeout=60)
                self.assertIn("nested deeper than", one_line(p))
                self.assertLess(time.monotonic() - start, 30)
        self.assertFalse(os.path.exists(self.path("s")))


class ControlCharacters(Case):
    """Class 4: text from files reaches the terminal escaped, SVG well-formed."""

    def test_the_error_line_is_one_line_without_escape_sequences(self):
        hostile = "x\n\x1b]0;pwned\x07\x1b[2J\u202e\x00cut"
        for name, text, args in (
                ("m.json", json.dumps({"model_type": "llama", "rope_theta": hostile, "hidden_size": 64,
                                       "num_attention_heads": 1}), ["model"]),
                ("d.json", deck([{"lesson": hostile}]), ["deck", "check"]),
                ("k.json", deck([{"lesson": "rope", hostile: 1}]), ["deck", "check"])):
            with self.subTest(name=name):
                p = run(*args, self.write(name, text), check=2)
                line = one_line(p)
                self.assertNotIn("\x1b", line)
                self.assertNotIn("\u202e", line)
                self.assertIn("]0;pwned", line)  # escaped: \e]0;pwned, or \u001b]0;pwned as JSON quotes it
                self.assertIn("cut", line)  # NUL cut nothing short

    def test_model_text_and_markdown_quote_the_configs_texts_safely(self):
        hostile = "llama\n\x1b]0;pwned\x07\x1b[2J\u202e\x00cut<script>alert(1)</script><img src=x onerror=alert(1)>|x`y"
        clean = dict(LLAMA, rope_scaling={"rope_type": "linear", "factor": 2.0})
        for bad, fmt in ((dict(clean, model_type=hostile), "text"), (dict(clean, model_type=hostile), "md"),
                         (dict(clean, rope_scaling={"rope_type": hostile, "factor": 2.0}), "text"),
                         (dict(clean, rope_scaling={"rope_type": hostile, "factor": 2.0}), "md")):
            with self.subTest(fmt=fmt, field="model_type" if bad["model_type"] != "llama" else "rope_type"):
                good = run("model", self.write("good.json", json.dumps(clean)), "--format", fmt, check=0).stdout.decode()
                p = run("model", self.write("bad.json", json.dumps(bad)), "--format", fmt)
                self.assertIn(p.returncode, (0, 2), p.stderr)
                out = p.stdout.decode() + p.stderr.decode()
                for raw in ("\x1b", "\x07", "\x00", "\u202e"):
                    self.assertNotIn(raw, out)
                self.assertIn("]0;pwned", out)  # shown, escaped
                self.assertIn("cut", out)
                if p.returncode == 0:
                    # Nothing forged: as many lines as the clean config's output, give or take its warnings.
                    lines = [l for l in p.stdout.decode().splitlines() if l.startswith(("model ", "## "))]
                    self.assertEqual(len(lines), 1, p.stdout.decode())
                    self.assertLessEqual(p.stdout.decode().count("\n"), good.count("\n") + 4)
                if fmt == "md":
                    self.assertNotIn("<script>", out)
                    self.assertNotIn("<img", out)
                    self.assertNotIn("|x", out.replace("\\|x", ""))  # a | that ends a cell

    def test_svg_of_a_deck_with_forbidden_characters_is_well_formed_xml(self):
        text = "a\x01b\x0bc\uffff<script>&amp;\"'\u202e"
        src = self.write("x.json", deck([{"lesson": "rope", "caption": text, "question": text, "answer": text}],
                                        title={"en": text}))
        out = self.path("svg")
        run("deck", "export", src, "--format", "svg", "--out", out, check=0)
        files = os.listdir(out)
        self.assertEqual(len(files), 1)
        ET.parse(os.path.join(out, files[0]))  # raises on anything not well-formed
        with open(os.path.join(out, files[0]), "rb") as f:
            body = f.read()
        self.assertNotIn(b"<script>", body)
        self.assertNotIn(b"\x01", body)


class Bounded(Case):
    """Class 5: reads capped, sweeps budgeted, decks exported in bounded memory."""

    def test_model_reads_at_most_16_mib(self):
        for source in ("/dev/zero", "-"):
            with self.subTest(source=source):
                start = time.monotonic()
                stdin = b"{" + b" " * (20 << 20) if source == "-" else None
                p = run("model", source, check=1, stdin=stdin, timeout=60)
                self.assertIn("too large to be a model config", one_line(p))
                self.assertLess(time.monotonic() - start, 30)
        big = self.write("big.json", '{"model_type": "llama", "pad": "' + "x" * (64 << 20) + '"}')
        self.assertIn("larger than 16 MiB", one_line(run("model", big, check=1)))
        self.assertIn("too large", one_line(run("deck", "check", "/dev/zero", check=2)))

    def test_a_sweep_over_its_pixel_budget_is_refused_before_any_work(self):
        start = time.monotonic()
        p = run("export", "--view", "rope-2d", "--figure", "plane", "--sweep", "m=0:64", "--frames", "600",
                "--format", "gif", "--out", self.path("s.gif"), check=2)
        self.assertIn("pixels per sweep", one_line(p))
        self.assertLess(time.monotonic() - start, 10)
        self.assertFalse(os.path.exists(self.path("s.gif")))

    @unittest.skipIf(SANITIZED, "ASan's memory is not the program's")
    def test_a_long_deck_exports_in_the_memory_of_a_short_one(self):
        # Scenes at the largest sizes their lessons take: every page used to be
        # kept until the end (measured before: 3 scenes 68 MB, 9 scenes 85 MB,
        # ~3 MB more a scene, > 1 GB at 500); one page at a time, memory stays flat.
        heavy = [{"lesson": "learned", "figure": "table", "params": {"d": 8192, "max_length": 1048576, "positions": 1048576}},
                 {"lesson": "decay", "figure": "curves", "params": {"d": 8192, "distance": "0:1048575"}},
                 {"lesson": "alibi", "figure": "bias", "params": {"heads": 256, "positions": 1048576}}]
        peaks = {}
        for n in (3, 9):
            src = self.write(f"d{n}.json", deck([heavy[i % 3] for i in range(n)]))
            script = ("import resource,subprocess,sys;subprocess.run(sys.argv[1:],capture_output=True);"
                      "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
            p = subprocess.run([sys.executable, "-c", script, POSLAB, "deck", "export", src, "--format", "png",
                                "--out", self.path(f"o{n}")], capture_output=True, env=ENV, timeout=600)
            peaks[n] = int(p.stdout) / 1024
            self.assertEqual(len(os.listdir(self.path(f"o{n}"))), n)
        # Not below 8 MB: the peak can step up once by one page's pixels (a
        # 1920 × 1080 RGBA image, 8.3 MB: the previous page's block not yet
        # reused), at whichever scene the heap's layout makes it happen —
        # measured 2026-11-30: 58.4 MB at 3, 6 and 9 scenes and 66.7 at 12 in
        # one series, 66.5 at 9 in another, before and after poslab set
        # glibc's mmap threshold. The bug this guards against grew ~3 MB a
        # scene (17 MB from 3 to 9).
        self.assertLess(peaks[9] - peaks[3], 12, peaks)


class Files(Case):
    """Class 6: what a failure leaves, and what a success keeps."""

    def test_a_deck_export_that_fails_half_way_leaves_the_older_set(self):
        src = self.write("lec.json", deck([{"lesson": "rope"}, {"lesson": "t5"}, {"lesson": "alibi"}, {"lesson": "decay"}]))
        out = self.path("slides")
        run("deck", "export", src, "--format", "png", "--out", out, check=0)
        before = {f: os.path.getmtime(os.path.join(out, f)) for f in os.listdir(out)}
        self.assertEqual(len(before), 4)
        time.sleep(0.05)

        def small_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (150 << 10, 150 << 10))
        p = run("deck", "export", src, "--format", "png", "--out", out, preexec=small_files)
        self.assertEqual(p.returncode, 1, p.stderr)  # not killed by SIGXFSZ
        self.assertIn("File too large", one_line(p))
        after = {f: os.path.getmtime(os.path.join(out, f)) for f in os.listdir(out)}
        self.assertEqual(after, before)  # the older set whole: no new file, no temporary left

    def test_export_without_figure_into_a_new_folder_appears_whole_or_not_at_all(self):
        out = self.path("figs")

        def small_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (60 << 10, 60 << 10))
        p = run("export", "--view", "rope", "--format", "png", "--out", out, preexec=small_files)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertFalse(os.path.exists(out))
        self.assertEqual([f for f in os.listdir(self.dir) if ".tmp-" in f], [])
        run("export", "--view", "rope", "--format", "svg", "--out", out, check=0)
        self.assertGreaterEqual(len(os.listdir(out)), 3)

    def test_out_creates_one_folder_level_only(self):
        deep = self.path("no/such/dir")
        src = self.write("d.json", deck([{"lesson": "rope"}]))
        for args in (["deck", "export", src, "--format", "svg", "--out", deep],
                     ["export", "--view", "rope", "--format", "svg", "--out", deep]):
            with self.subTest(args=args[0]):
                line = one_line(run(*args, check=1))
                self.assertIn("does not exist", line)
                self.assertFalse(os.path.exists(self.path("no")))
        run("deck", "export", src, "--format", "svg", "--out", self.path("one"), check=0)
        self.assertEqual(len(os.listdir(self.path("one"))), 1)

    def test_mode_and_hard_links_are_kept(self):
        out = self.path("t.csv")
        with open(out, "w") as f:
            f.write("old\n")
        os.chmod(out, 0o600)
        os.link(out, self.path("link.csv"))
        run("table", "alibi-slopes", "--out", out, check=0)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o600)
        with open(self.path("link.csv")) as f:
            self.assertTrue(f.read().startswith("head,slope"))
        self.assertEqual(os.stat(out).st_ino, os.stat(self.path("link.csv")).st_ino)
        single = self.path("single.csv")
        with open(single, "w") as f:
            f.write("old\n")
        os.chmod(single, 0o640)
        run("table", "alibi-slopes", "--out", single, check=0)
        self.assertEqual(os.stat(single).st_mode & 0o777, 0o640)

    def test_a_legal_long_file_name_is_written(self):
        name = "x" * 239 + ".csv"  # 243 bytes: legal; the temporary name must fit too
        run("table", "alibi-slopes", "--out", self.path(name), check=0)
        self.assertTrue(os.path.exists(self.path(name)))
        cjk = "位" * 80 + ".csv"  # 243 bytes of UTF-8
        run("table", "alibi-slopes", "--out", self.path(cjk), check=0)
        self.assertEqual(sorted(f for f in os.listdir(self.dir)), sorted([name, cjk]))

    def test_sigxfsz_is_a_reported_write_error(self):
        out = self.path("big.csv")

        def tiny():
            resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
        p = run("table", "sinusoidal", "--set", "pos=0:999", "--out", out, preexec=tiny)
        self.assertEqual(p.returncode, 1)
        self.assertIn("File too large", one_line(p))
        self.assertEqual(os.listdir(self.dir), [])


class Messages(Case):
    """Class 8: the message says what happened."""

    def test_a_folder_is_a_folder(self):
        line = one_line(run("model", self.dir, check=1))
        self.assertIn("it is a folder", line)
        line = one_line(run("deck", "check", self.dir, check=1))
        self.assertIn("it is a folder", line)

    def test_deck_export_lists_the_formats_it_writes(self):
        src = self.write("d.json", deck([{"lesson": "rope"}]))
        for word in ("PDF", "csv", "gif"):
            line = one_line(run("deck", "export", src, "--format", word, "--out", self.path("o"), check=2))
            self.assertIn("must be one of pdf, png, svg", line)
            self.assertNotIn("csv,", line)

    def test_broken_json_says_line_column_and_what_was_expected(self):
        text = deck([{"lesson": "rope", "caption": "one"}, {"lesson": "t5"}]).replace('"one"}', '"one",}')
        line = one_line(run("deck", "check", self.write("d.json", text), check=2))
        self.assertIn("line 1, column", line)
        self.assertIn("JSON allows no comma after the last item", line)
        line = one_line(run("deck", "check", self.write("e.json", '{\n "format": "poslab-deck"\n "version": 1}'), check=2))
        self.assertIn("line 3, column 2", line)
        self.assertIn("expected ',' or '}' after a value, found \"version\"", line)
        self.assertIn("第 3 行第 2 列", one_line(run("deck", "check", self.path("e.json"), "--lang", "zh", check=2)))


class Silent(Case):
    """Class 9: nothing is dropped or decided silently."""

    def test_duplicate_keys_are_refused_with_the_key_and_where(self):
        text = '{"format": "poslab-deck", "version": 1, "scenes": [{"lesson": "rope",\n "params": {"d": 64, "d": 32}}]}'
        line = one_line(run("deck", "check", self.write("d.json", text), check=2))
        self.assertIn('the key "d" is given twice', line)
        self.assertIn("line 2", line)
        session = '{"format": "poslab-session", "version": 1, "lesson": "rope", "params": {"d": 64, "d": 32}}'
        line = one_line(run("gui", "--session", self.write("s.json", session), check=2))
        self.assertIn('the key "d" is given twice', line)

    def test_misspelt_fields_are_refused_with_the_nearest_name(self):
        for wrong, right in (("captoin", "caption"), ("questoin", "question"), ("answr", "answer"), ("lessen", "lesson")):
            with self.subTest(wrong=wrong):
                scene = {"lesson": "rope", wrong: "x"}
                line = one_line(run("deck", "check", self.write("d.json", deck([{"lesson": "rope"}, scene])), check=2))
                self.assertIn("scene 2", line)
                self.assertIn(f'"{wrong}" is not a field of a scene; did you mean "{right}"?', line)
                self.assertRegex(line, r"line \d+, column \d+")
        session = '{"format": "poslab-session", "version": 1, "lesson": "rope", "parms": {"d": 64}}'
        line = one_line(run("gui", "--session", self.write("s.json", session), check=2))
        self.assertIn('did you mean "params"?', line)

    def test_deck_check_passes_every_published_deck_and_opens_nothing(self):
        p = run("deck", "check", "course", check=0)
        self.assertIn("a good deck", p.stdout.decode())
        self.assertEqual(p.stderr, b"")
        steps = os.path.join(os.environ.get("POSLAB_ASSETS", ""), "steps")
        for name in sorted(os.listdir(steps)) if os.path.isdir(steps) else []:
            with self.subTest(steps=name):
                run("deck", "check", os.path.join(steps, name), check=0)
        with_notes = self.write("n.json", deck([{"lesson": "rope", "notes": {"en": "say it slowly", "zh": "慢慢说"}}]))
        run("deck", "check", with_notes, check=0)
        # Each lesson once, in order: "rope" after "rope-2d" is a lesson of its own.
        p = run("deck", "check", self.write("l.json", deck([{"lesson": "rope-2d"}, {"lesson": "rope"}, {"lesson": "rope-2d"}])), check=0)
        self.assertIn("3 scenes (rope-2d, rope)", p.stdout.decode())


if __name__ == "__main__":
    unittest.main(verbosity=2)
