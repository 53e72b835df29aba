#!/usr/bin/env python3
"""CLI tests for the lecture hall (docs/DECKS.md, docs/CONTRACT.md §1):
`poslab deck export` handouts (one PDF page per scene, checked with pdfinfo
and pdftoppm when present; one PNG or SVG per scene), bad decks refused with
exit 2 naming the scene and nothing written, `list decks`, and the slide
options of `poslab export` (--font-scale, --line-scale, --page, --sweep).

Usage: test_cli_lecture.py PATH/TO/poslab
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

POSLAB = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "poslab"
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
ENV["LANG"] = "C.UTF-8"


def run(*args):
    return subprocess.run([POSLAB, *args], capture_output=True, env=ENV, timeout=300)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def deck(scenes, version=1):
    return json.dumps({"format": "poslab-deck", "version": version, "title": "T", "scenes": scenes})


class Handouts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-deck-cli-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_formulas_in_handouts_keep_their_glyphs(self):
        # A formula is typeset in runs (base, raised script, fraction parts):
        # the SVG holds each run as text, the PDF as text a reader extracts.
        scene = {"lesson": "scaling", "figure": "wavelength",
                 "caption": {"en": "Pair $θ_i = b^{-2i/d}$ and $b' = b·s^{\\frac{d}{d-2}}$ with $\\sqrt{1 + \\ln s}$.",
                             "zh": "第 $i$ 对：$θ_i = b^{-2i/d}$。"}}
        src = self.path("f.json")
        with open(src, "w", encoding="utf-8") as f:
            f.write(deck([scene]))
        runs = ["θ", "−2i/d", "b′", "d−2", "ln", "1"]
        out = self.path("svg")
        p = run("deck", "export", src, "--format", "svg", "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        (svg,) = [os.path.join(out, n) for n in os.listdir(out)]
        with open(svg, encoding="utf-8") as f:
            texts = [t.split(">", 1)[1] for t in f.read().split("<text")[1:]]
        texts = [t.split("</text>", 1)[0] for t in texts]
        for r in runs:
            self.assertTrue(any(t.strip() == r or t.strip() == r.replace("−", "−") for t in texts), (r, texts[-20:]))
        self.assertFalse(any("$" in t or "\\frac" in t for t in texts), "markup left in the SVG")
        if shutil.which("pdftotext"):
            pdf = self.path("f.pdf")
            p = run("deck", "export", src, "--format", "pdf", "--out", pdf)
            self.assertEqual(p.returncode, 0, p.stderr)
            text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
            flat = "".join(text.split())
            for r in runs:
                self.assertIn(r, flat)
            self.assertNotIn("\\frac", flat)
        # A formula that does not parse: refused, naming the scene, nothing written.
        with open(src, "w", encoding="utf-8") as f:
            f.write(deck([dict(scene, caption="a $\\hat{x}$")]))
        bad = self.path("bad.pdf")
        p = run("deck", "export", src, "--format", "pdf", "--out", bad)
        self.assertEqual(p.returncode, 2)
        self.assertIn("scene 1", p.stderr.decode())
        self.assertIn("unknown command", p.stderr.decode())
        self.assertFalse(os.path.exists(bad))

    def test_list_decks(self):
        p = run("list", "decks", "--format", "json")
        self.assertEqual(p.returncode, 0, p.stderr)
        decks = {d["id"]: d for d in json.loads(p.stdout)}
        self.assertIn("course", decks)
        self.assertGreaterEqual(decks["course"]["scenes"], 18)

    def test_builtin_deck_pdf_one_page_per_scene(self):
        scenes = {d["id"]: d["scenes"] for d in json.loads(run("list", "decks", "--format", "json").stdout)}
        out = self.path("handout.pdf")
        p = run("deck", "export", "course", "--format", "pdf", "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            pdf = f.read()
        self.assertTrue(pdf.startswith(b"%PDF-"))
        self.assertEqual(pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page "), scenes["course"])
        if shutil.which("pdfinfo"):
            info = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout
            self.assertIn("Pages:           %d" % scenes["course"], info)
            self.assertIn("841.89 x 595.28 pts (A4)", info)
        if shutil.which("pdftoppm"):
            # Every page has ink on it: the rendered pages are not blank.
            subprocess.run(["pdftoppm", "-r", "20", "-gray", out, self.path("page")], check=True)
            pages = sorted(f for f in os.listdir(self.dir) if f.startswith("page"))
            self.assertEqual(len(pages), scenes["course"])
            for name in pages:
                with open(self.path(name), "rb") as f:
                    data = f.read()
                # PGM: the header's three lines, then one byte per pixel.
                pixels = data.split(b"\n", 3)[3]
                dark = sum(1 for b in pixels if b < 128)
                self.assertGreater(dark, len(pixels) // 200, name)

    def test_handout_pages_show_each_scenes_own_parameters(self):
        # Page i names scene i's lesson and every value the scene sets, and
        # no value another scene sets for the same key.
        if not shutil.which("pdftotext"):
            self.skipTest("pdftotext (poppler-utils) is not installed")
        scenes = [{"lesson": "sinusoidal", "params": {"d": 500}, "figure": "wavelengths", "caption": "first"},
                  {"lesson": "rope", "params": {"d": 4, "base": 500000, "layout": "half"}, "figure": "layouts"},
                  {"lesson": "alibi", "params": {"heads": 16}, "caption": {"en": "third", "zh": "三"}},
                  {"lesson": "t5", "caption": "defaults only"}]
        src = self.path("own.deck.json")
        with open(src, "w") as f:
            f.write(deck(scenes))
        out = self.path("own.pdf")
        p = run("deck", "export", src, "--format", "pdf", "--out", out, "--lang", "en")
        self.assertEqual(p.returncode, 0, p.stderr)
        titles = {"sinusoidal": "Sinusoidal encoding", "rope": "RoPE in d dimensions", "alibi": "ALiBi linear biases",
                  "t5": "T5 relative buckets"}
        for i, scene in enumerate(scenes, start=1):
            with self.subTest(page=i):
                text = subprocess.run(["pdftotext", "-layout", "-f", str(i), "-l", str(i), out, "-"],
                                      capture_output=True, text=True, check=True).stdout
                self.assertIn("%d/%d" % (i, len(scenes)), text.replace(" ", ""))
                self.assertIn(titles[scene["lesson"]], text)
                caption = scene.get("caption", "")
                self.assertIn(caption if isinstance(caption, str) else caption["en"], text)
                # The parameter line: "key = value" for each value the scene sets, nothing else.
                lines = [l.strip() for l in text.splitlines() if l.strip()]
                line = lines[-1]
                for key, value in scene.get("params", {}).items():
                    self.assertIn("%s = %s" % (key, value), line)
                if i == 1:  # the name already ends in the key: "model dimension d = 500", no "(d = 500)" after it
                    self.assertNotIn("(d = 500)", line)
                if i == 2:
                    self.assertNotIn("d = 500", text)  # scene 1's d
                    self.assertNotIn("(half) (layout", line)  # a choice's own "(half)" gives way to the key's
                if not scene.get("params"):  # a scene of the lesson's defaults says so
                    self.assertIn("default values", text)

    def test_png_and_svg_one_file_per_scene(self):
        src = self.path("two.deck.json")
        with open(src, "w") as f:
            f.write(deck([{"lesson": "rope", "params": {"d": 4}, "caption": "c"},
                          {"lesson": "alibi", "figure": "slopes", "caption": {"en": "e", "zh": "中"}}]))
        for fmt in ("png", "svg"):
            out = self.path(fmt)
            p = run("deck", "export", src, "--format", fmt, "--out", out, "--page", "slide")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(sorted(os.listdir(out)), ["two-01-rope.%s" % fmt, "two-02-alibi.%s" % fmt])
        self.assertEqual(png_size(self.path("png/two-01-rope.png")), (1920, 1080))
        # A scene with a caption and no question: the figure takes the page
        # down to its one line of words, which sit near the bottom (an empty
        # question and answer reserved a line each: ~60 of 540 pt left blank).
        import re
        with open(self.path("svg/two-01-rope.svg"), encoding="utf-8") as f:
            svg = f.read()
        ys = {t: float(y) for y, t in re.findall(r'<text[^>]* y="([0-9.]+)"[^>]*>([^<]*)</text>', svg)}
        self.assertIn("c", ys)
        self.assertGreater(ys["c"], 540 * 0.85, "the caption's baseline on a 540 pt slide")
        # Without --page a PNG is a 16:9 slide too; --page a4 gives the handout's page.
        for page, size in ((None, (1920, 1080)), ("a4", (1684, 1191))):
            out = self.path("png-%s" % page)
            args = ["deck", "export", src, "--format", "png", "--out", out] + (["--page", page] if page else [])
            p = run(*args)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(png_size(os.path.join(out, "two-01-rope.png")), size)

    def test_gif_sweep_slide_size_by_default_and_says_its_size(self):
        out = self.path("shift.gif")
        p = run("export", "--view", "rope-2d", "--figure", "score-shift", "--sweep", "shift=0:20", "--frames", "12",
                "--format", "gif", "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            head = f.read(10)
        width, height = int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
        self.assertEqual((width, height), (960, 540))
        mb = os.path.getsize(out) / 1e6
        self.assertIn("12 frames", p.stdout.decode())
        self.assertIn("960 × 540", p.stdout.decode())
        self.assertIn("%.1f MB" % mb, p.stdout.decode())
        # --width and --height still choose.
        p = run("export", "--view", "rope-2d", "--figure", "score-shift", "--sweep", "shift=0:20", "--frames", "3",
                "--format", "gif", "--width", "640", "--height", "400", "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            head = f.read(10)
        self.assertEqual((int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")), (640, 400))

    def test_bad_decks_exit_2_naming_the_scene_and_write_nothing(self):
        cases = {
            "lesson": (deck([{"lesson": "rope"}, {"lesson": "nope"}]), "scene 2"),
            "param": (deck([{"lesson": "rope", "params": {"d": 3}}]), "scene 1"),
            "unknown param": (deck([{"lesson": "alibi", "params": {"base": 2}}]), "scene 1"),
            "version": (deck([{"lesson": "rope"}], version=99), "newer poslab"),
            "truncated": (deck([{"lesson": "rope"}])[:-9], "found the end of the file"),
        }
        for name, (text, said) in cases.items():
            with self.subTest(name):
                src = self.path("bad.json")
                with open(src, "w") as f:
                    f.write(text)
                for fmt, out in (("pdf", self.path("bad.pdf")), ("png", self.path("badpng"))):
                    p = run("deck", "export", src, "--format", fmt, "--out", out)
                    self.assertEqual(p.returncode, 2, p.stderr)
                    err = p.stderr.decode()
                    self.assertIn(said, err)
                    self.assertEqual(err.count("\n"), 1, err)
                    self.assertFalse(os.path.exists(out))
                # A handout already there is left as it was.
                old = self.path("old.pdf")
                with open(old, "wb") as f:
                    f.write(b"the last good handout")
                p = run("deck", "export", src, "--format", "pdf", "--out", old)
                self.assertEqual(p.returncode, 2, p.stderr)
                with open(old, "rb") as f:
                    self.assertEqual(f.read(), b"the last good handout")
                self.assertEqual([n for n in os.listdir(self.dir) if n.startswith(("old", ".old"))], ["old.pdf"])
        p = run("deck", "export", self.path("missing.json"), "--format", "pdf", "--out", self.path("m.pdf"))
        self.assertEqual(p.returncode, 1)


class SlideExports(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-slides-cli-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_page_and_scales(self):
        out = os.path.join(self.dir, "f.pdf")
        p = run("export", "--view", "rope", "--figure", "frequencies", "--format", "pdf", "--width", "1920",
                "--height", "1080", "--page", "slide", "--font-scale", "1.5", "--line-scale", "2", "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        if shutil.which("pdfinfo"):
            info = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout
            self.assertIn("Page size:       960 x 540 pts", info)
        for page, size in (("a4", "841.89 x 595.28 pts (A4)"), ("letter", "792 x 612 pts (letter)")):
            with self.subTest(page=page):
                out3 = os.path.join(self.dir, page + ".pdf")
                p = run("export", "--view", "rope", "--figure", "frequencies", "--format", "pdf", "--page", page,
                        "--out", out3)
                self.assertEqual(p.returncode, 0, p.stderr)
                if shutil.which("pdfinfo"):
                    info = subprocess.run(["pdfinfo", out3], capture_output=True, text=True).stdout
                    self.assertIn("Page size:       " + size, info)
        # a page size on a PNG or SVG is refused, not silently ignored
        for fmt in ("png", "svg"):
            with self.subTest(page_with=fmt):
                out4 = os.path.join(self.dir, "p." + fmt)
                p = run("export", "--view", "rope", "--figure", "frequencies", "--format", fmt, "--page", "slide",
                        "--out", out4)
                self.assertEqual(p.returncode, 2)
                self.assertIn(b"--format pdf", p.stderr)
                self.assertFalse(os.path.exists(out4))
        for bad in (["--font-scale", "9"], ["--line-scale", "0"], ["--page", "tabloid"]):
            with self.subTest(bad=bad):
                out2 = os.path.join(self.dir, "bad.pdf")
                p = run("export", "--view", "rope", "--figure", "frequencies", "--format", "pdf", "--out", out2, *bad)
                self.assertEqual(p.returncode, 2)
                self.assertIn(bad[0].lstrip("-"), p.stderr.decode())
                self.assertFalse(os.path.exists(out2))

    def test_sweep_gif(self):
        out = os.path.join(self.dir, "s.gif")
        p = run("export", "--view", "alibi", "--figure", "slopes", "--sweep", "heads=2:16", "--frames", "5",
                "--format", "gif", "--width", "480", "--height", "270", "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            head = f.read(13)
        self.assertEqual(head[:6], b"GIF89a")
        self.assertEqual(struct.unpack("<HH", head[6:10]), (480, 270))
        self.assertEqual(head[10] & 0x80, 0x80)  # one global colour table
        p = run("export", "--view", "alibi", "--sweep", "heads=2:16", "--format", "gif", "--out", out)
        self.assertEqual(p.returncode, 2)  # --figure is needed


if __name__ == "__main__":
    unittest.main(verbosity=1)
