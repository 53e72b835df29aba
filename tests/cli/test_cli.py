#!/usr/bin/env python3
"""CLI tests for poslab (docs/CONTRACT.md §1, §3, §4), run headless.

Usage: test_cli.py PATH/TO/poslab
Runs with DISPLAY and WAYLAND_DISPLAY removed, so `table`, `export` and `list`
prove they need no display. Standard library only, plus pdftoppm (poppler)
to check that PDFs render a page.
"""
import csv
import io
import json
import os
import resource
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
import zlib

POSLAB = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "poslab"
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
ENV["LANG"] = "C.UTF-8"


def slurp(path, mode="r"):
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
        return f.read()


# Reports of the sanitizer build (AddressSanitizer, LeakSanitizer at exit,
# UndefinedBehaviorSanitizer): any of them fails the test, whatever the exit code.
SANITIZER_REPORTS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error:",
                     b"SUMMARY: UndefinedBehaviorSanitizer")


def run(*args, check=None, preexec_fn=None):
    p = subprocess.run([POSLAB, *args], capture_output=True, env=ENV, timeout=300, preexec_fn=preexec_fn)
    for report in SANITIZER_REPORTS:
        if report in p.stderr:
            raise AssertionError(f"poslab {' '.join(args)}: sanitizer report\n{p.stderr.decode(errors='replace')}")
    if check is not None and p.returncode != check:
        raise AssertionError(f"poslab {' '.join(args)} exited {p.returncode}, expected {check}\n"
                             f"stderr: {p.stderr.decode(errors='replace')}")
    return p


def full_disk(limit_bytes):
    """A preexec_fn that makes the disk look full after limit_bytes per file:
    RLIMIT_FSIZE makes further writes fail (EFBIG) like ENOSPC would, with
    SIGXFSZ ignored so the process sees an error instead of being killed."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    return apply


def png_info(path):
    """(width, height, distinct pixel values in a sample) of an 8-bit RGB(A) PNG."""
    data = slurp(path, "rb")
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w, h, bpp = 8, b"", 0, 0, 4
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        if y % max(1, h // 40) == 0:
            for x in range(0, w, max(1, w // 40)):
                seen.add(bytes(line[x * bpp:(x + 1) * bpp]))
        prev = line
    return w, h, len(seen)


class Tables(unittest.TestCase):
    def table_ids(self):
        return [t["id"] for t in json.loads(run("list", "tables", "--format", "json", check=0).stdout)]

    def test_contract_tables_exist(self):
        ids = self.table_ids()
        for t in ["sinusoidal", "rope-frequencies", "rope-rotate", "rope-decay", "t5-buckets",
                  "alibi-slopes", "rope-scaling", "position-map", "gaussian-kernel", "mrope-positions"]:
            self.assertIn(t, ids)

    def test_mrope_positions_as_the_issue_writes_it(self):
        # 3 text tokens, a video of 2 × 2 × 3 tokens, 2 text tokens (Qwen2-VL's get_rope_index by hand:
        # the grid starts at 3, (3 + τ, 3 + row, 3 + col); the text after at max(4, 4, 5) + 1 = 6).
        j = json.loads(run("table", "mrope-positions", "--set", "text_before=3", "--set", "grid_t=2", "--set", "grid_h=2",
                           "--set", "grid_w=3", "--set", "text_after=2", "--format", "json", check=0).stdout)
        self.assertEqual(j["columns"], ["index", "kind", "t", "h", "w"])
        self.assertEqual([r[0] for r in j["rows"]], list(range(17)))
        self.assertEqual([r[1] for r in j["rows"]], ["text"] * 3 + ["video"] * 12 + ["text"] * 2)
        self.assertEqual(j["rows"][3][2:], [3, 3, 3])
        self.assertEqual(j["rows"][14][2:], [4, 4, 5])
        self.assertEqual(j["rows"][15][2:], [6, 6, 6])
        self.assertEqual(j["meta"]["next_id"], 8)
        # Qwen2.5-VL's absolute time: 2 ids a second at 1 s a patch
        j = json.loads(run("table", "mrope-positions", "--set", "grid_t=3", "--set", "video_time=absolute",
                           "--format", "json", check=0).stdout)
        self.assertEqual(sorted({r[2] for r in j["rows"] if r[1] == "video"}), [2, 4, 6])
        # a key the table does not read is refused
        run("table", "mrope-positions", "--set", "d=64", check=2)

    def test_every_table_in_every_format(self):
        for tid in self.table_ids():
            with self.subTest(table=tid):
                j = json.loads(run("table", tid, "--format", "json", check=0).stdout)
                self.assertEqual(set(j), {"table", "params", "columns", "rows", "meta"})
                self.assertEqual(j["table"], tid)
                self.assertTrue(j["rows"], "empty table")
                for row in j["rows"]:
                    self.assertEqual(len(row), len(j["columns"]))
                rows = list(csv.reader(io.StringIO(run("table", tid, check=0).stdout.decode())))
                self.assertEqual(rows[0], j["columns"])
                self.assertEqual(len(rows) - 1, len(j["rows"]))
                # csv and json carry the same full-precision numbers
                for cr, jr in zip(rows[1:4], j["rows"][:3]):
                    for c, v in zip(cr, jr):
                        if isinstance(v, (int, float)) and not isinstance(v, bool):
                            self.assertEqual(float(c), float(v))
                md = run("table", tid, "--format", "md", check=0).stdout.decode()
                self.assertTrue(md.startswith("| " + " | ".join(c.replace("|", "\\|") for c in j["columns"]) + " |\n"))
                tex = run("table", tid, "--format", "tex", check=0).stdout.decode()
                self.assertIn("\\begin{tabular}", tex)
                self.assertIn("\\end{tabular}", tex)

    def test_params_are_resolved_and_exact(self):
        j = json.loads(run("table", "rope-scaling", "--set", "method=yarn", "--set", "d=128",
                           "--format", "json", check=0).stdout)
        self.assertEqual(j["params"]["method"], "yarn")
        self.assertEqual(j["params"]["factor"], 8)
        self.assertIn("attention_factor", j["meta"])
        # 0.1·ln 8 + 1, the YaRN reference's get_mscale(8)
        import math
        self.assertAlmostEqual(j["meta"]["attention_factor"], 0.1 * math.log(8) + 1, places=15)
        j = json.loads(run("table", "alibi-slopes", "--set", "heads=8", "--format", "json", check=0).stdout)
        self.assertEqual([r[1] for r in j["rows"]], [2 ** -(i + 1) for i in range(8)])

    def test_out_file_and_errors_leave_nothing(self):
        d = tempfile.mkdtemp()
        try:
            out = os.path.join(d, "t.csv")
            run("table", "sinusoidal", "--out", out, check=0)
            self.assertTrue(slurp(out).startswith("pos,i,value\n"))
            good = slurp(out)
            for args in (["table", "sinusoidal", "--set", "d=7"],
                         ["table", "sinusoidal", "--set", "base=nan"],
                         ["table", "sinusoidal", "--set", "clip=3"],
                         ["table", "sinusoidal", "--set", "nosuch=1"],
                         ["table", "sinusoidal", "--set", "d"],
                         ["table", "sinusoidal", "--format", "xlsx"],
                         ["table", "nosuchtable"],
                         ["table", "sinusoidal", "--set", "pos=0:2000000"]):
                with self.subTest(args=args):
                    p = run(*args, "--out", out, check=2)
                    err = p.stderr.decode()
                    self.assertEqual(err.count("\n"), 1, err)
                    self.assertTrue(err.startswith("poslab: "), err)
                    self.assertEqual(slurp(out), good, "existing file changed")
            fresh = os.path.join(d, "fresh.csv")
            run("table", "sinusoidal", "--set", "d=7", "--out", fresh, check=2)
            self.assertFalse(os.path.exists(fresh))
            run("table", "sinusoidal", "--out", os.path.join(d, "missing", "x.csv"), check=1)
            self.assertEqual(sorted(os.listdir(d)), ["t.csv"])
        finally:
            shutil.rmtree(d)

    def test_error_names_parameter_and_range(self):
        err = run("table", "sinusoidal", "--set", "d=7", check=2).stderr.decode()
        self.assertIn("d = 7", err)
        self.assertIn("even integer in 2..8192", err)


class Exports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.views = json.loads(run("list", "views", "--format", "json", check=0).stdout)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_every_figure_every_format(self):
        for v in self.views:
            for fmt in ("png", "svg", "pdf", "csv"):
                out = os.path.join(self.dir, fmt)
                with self.subTest(view=v["id"], format=fmt):
                    # The lab's figures are empty frames until it trains: a tiny run (one seed, 20 steps).
                    trained = ["--set", "lab_train=true", "--set", "lab_seeds=1", "--set", "lab_steps=20"] \
                        if v["id"] == "lab" else []
                    run("export", "--view", v["id"], "--format", fmt, "--out", out,
                        "--width", "800", "--height", "500", "--lang", "en", *trained, check=0)
                    for fig in v["figures"]:
                        path = os.path.join(out, f"{v['id']}-{fig}.{fmt}")
                        self.assertTrue(os.path.getsize(path) > 0, path)
                        if fmt == "png":
                            w, h, colours = png_info(path)
                            self.assertEqual((w, h), (800, 500))
                            self.assertGreater(colours, 3, "blank PNG")
                        elif fmt == "svg":
                            root = ET.parse(path).getroot()
                            self.assertTrue(root.tag.endswith("svg"))
                            self.assertTrue(root.findall(".//{http://www.w3.org/2000/svg}text"), "no text")
                        elif fmt == "pdf":
                            if shutil.which("pdftoppm"):
                                subprocess.run(["pdftoppm", "-png", "-r", "10", "-singlefile", path,
                                                path[:-4] + "-page"], check=True, capture_output=True)
                                self.assertTrue(os.path.getsize(path[:-4] + "-page.png") > 0)
                            else:
                                self.assertTrue(slurp(path, "rb").startswith(b"%PDF-"))
                        else:
                            rows = list(csv.reader(io.StringIO(slurp(path))))
                            self.assertGreater(len(rows), 1)
                            self.assertEqual(rows[0][0], "series")
                            for r in rows[1:]:
                                self.assertEqual(len(r), len(rows[0]))

    def test_png_size_and_scale(self):
        out = os.path.join(self.dir, "scaled.png")
        run("export", "--view", "rope", "--figure", "frequencies", "--format", "png", "--out", out,
            "--width", "640", "--height", "400", "--scale", "2", "--theme", "dark", "--transparent", check=0)
        self.assertEqual(png_info(out)[:2], (1280, 800))

    def test_width_alone_keeps_the_default_shape(self):
        out = os.path.join(self.dir, "narrow.png")
        run("export", "--view", "rope", "--figure", "frequencies", "--format", "png", "--out", out,
            "--width", "641", check=0)
        self.assertEqual(png_info(out)[:2], (641, 401))  # 641 × 0.625 = 400.6
        run("export", "--view", "rope", "--figure", "frequencies", "--format", "png", "--out", out,
            "--height", "300", check=0)
        self.assertEqual(png_info(out)[:2], (1600, 300))  # a height alone changes only the height

    def test_csv_numbers_match_the_tables(self):
        out = os.path.join(self.dir, "freq.csv")
        run("export", "--view", "rope", "--figure", "frequencies", "--format", "csv", "--out", out,
            "--set", "d=16", "--set", "base=500000", check=0)
        rows = list(csv.reader(io.StringIO(slurp(out))))
        table = json.loads(run("table", "rope-frequencies", "--set", "d=16", "--set", "base=500000",
                               "--format", "json", check=0).stdout)
        wavelengths = {r[0]: r[2] for r in table["rows"]}
        thetas = {r[0]: r[1] for r in table["rows"]}
        series = {}
        for r in rows[1:]:
            series.setdefault(r[0], []).append(r)
        self.assertEqual(len(series), 2)
        for name, points in series.items():
            for p in points:
                pair = int(float(p[1]))
                y = float(p[2])
                self.assertTrue(y == wavelengths[pair] or y == thetas[pair], (name, p))
        out = os.path.join(self.dir, "pe.csv")
        run("export", "--view", "sinusoidal", "--figure", "heatmap", "--format", "csv", "--out", out,
            "--set", "d=8", "--set", "positions=4", check=0)
        cells = {(float(r[1]), float(r[2])): float(r[-1]) for r in list(csv.reader(io.StringIO(slurp(out))))[1:]}
        t = json.loads(run("table", "sinusoidal", "--set", "d=8", "--set", "pos=0:3", "--format", "json",
                           check=0).stdout)
        for pos, i, value in t["rows"]:
            self.assertAlmostEqual(cells[(i, pos)], value, places=6)  # the heatmap stores float32

    def test_bad_input(self):
        out = os.path.join(self.dir, "bad")
        for args, code in ((["--view", "nosuch", "--format", "png"], 2),
                           (["--view", "rope", "--figure", "nosuch", "--format", "png"], 2),
                           (["--view", "rope", "--format", "gif"], 2),
                           (["--view", "rope", "--format", "png", "--set", "d=3"], 2),
                           (["--view", "rope", "--format", "png", "--set", "clip=3"], 2),
                           (["--view", "rope", "--format", "png", "--width", "10"], 2),
                           (["--view", "rope", "--format", "png", "--preset", "nosuch"], 2),
                           (["--view", "rope", "--format", "png", "--lang", "fr"], 2)):
            with self.subTest(args=args):
                p = run("export", *args, "--out", out, check=code)
                self.assertEqual(p.stderr.decode().count("\n"), 1)
                self.assertFalse(os.path.exists(out))
        run("export", "--view", "rope", "--figure", "frequencies", "--format", "png",
            "--out", os.path.join(self.dir, "missing", "f.png"), check=1)

    def test_presets(self):
        presets = json.loads(run("list", "presets", "--format", "json", check=0).stdout)
        ids = {p["id"] for p in presets}
        for want in ("llama2-7b", "llama3.1-8b", "qwen2.5-7b", "mistral-7b", "gpt-neox-20b", "t5-base",
                     "bloom-176b"):
            self.assertIn(want, ids)
        for p in presets:
            self.assertTrue(p["note"], p["id"])
            if p["view"] and p["view"] in {v["id"] for v in self.views}:
                run("export", "--view", p["view"], "--format", "png", "--preset", p["id"],
                    "--out", os.path.join(self.dir, "preset-" + p["id"]), check=0)


class Files(unittest.TestCase):
    """Every write lands whole or not at all (CONTRACT.md §1: exit 1 for I/O,
    one line naming the path, no partial output, an existing file intact)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.original = b"original bytes\n"

    def tearDown(self):
        shutil.rmtree(self.dir)

    def existing(self, name):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(self.original)
        return path

    def assert_io_failure(self, p, path):
        err = p.stderr.decode()
        self.assertEqual(err.count("\n"), 1, err)
        self.assertTrue(err.startswith("poslab: cannot write "), err)
        self.assertIn(path, err)

    def assert_only(self, folder, names):
        self.assertEqual(sorted(os.listdir(folder)), sorted(names), "a temporary or partial file was left")

    def test_full_disk_leaves_the_existing_file(self):
        cases = (("table.csv", ["table", "sinusoidal", "--set", "pos=0:99"]),
                 ("table.json", ["table", "rope-scaling", "--format", "json"]),
                 ("figure.png", ["export", "--view", "rope", "--figure", "frequencies", "--format", "png"]),
                 ("figure.svg", ["export", "--view", "sinusoidal", "--figure", "heatmap", "--format", "svg"]),
                 ("figure.pdf", ["export", "--view", "t5", "--figure", "buckets", "--format", "pdf"]),
                 ("figure.csv", ["export", "--view", "sinusoidal", "--figure", "heatmap", "--format", "csv"]))
        for name, args in cases:
            with self.subTest(out=name):
                path = self.existing(name)
                # The full output is far larger than 4 KB: without the limit it is written.
                p = run(*args, "--out", path, check=1, preexec_fn=full_disk(4096))
                self.assert_io_failure(p, path)
                self.assertEqual(slurp(path, "rb"), self.original, "existing file changed")
        self.assert_only(self.dir, [name for name, _ in cases])
        for name, args in cases:  # the same commands do write when there is room
            run(*args, "--out", os.path.join(self.dir, name), check=0)
            self.assertGreater(os.path.getsize(os.path.join(self.dir, name)), 4096, name)

    def test_a_full_device(self):
        if not os.path.exists("/dev/full"):
            self.fail("no /dev/full on this system")
        before = os.stat("/dev/full")
        for args in (["table", "alibi-slopes"], ["export", "--view", "rope", "--figure", "frequencies", "--format", "svg"]):
            with self.subTest(args=args):
                p = run(*args, "--out", "/dev/full", check=1)
                self.assert_io_failure(p, "/dev/full")
                self.assertIn("No space left on device", p.stderr.decode())
        after = os.stat("/dev/full")  # still the device, not a file renamed over it
        self.assertTrue(stat.S_ISCHR(after.st_mode))
        self.assertEqual(before.st_rdev, after.st_rdev)

    def test_devices_and_links_are_written_through(self):
        p = run("table", "alibi-slopes", "--set", "heads=4", "--out", "/dev/stdout", check=0)
        self.assertEqual(p.stdout.decode().splitlines()[0], "head,slope")
        self.assertEqual(len(p.stdout.decode().splitlines()), 5)
        target = self.existing("target.csv")
        link = os.path.join(self.dir, "link.csv")
        os.symlink("target.csv", link)
        run("table", "alibi-slopes", "--out", link, check=0)
        self.assertTrue(os.path.islink(link), "the link was replaced by a file")
        self.assertTrue(slurp(target).startswith("head,slope\n"))
        self.assert_only(self.dir, ["link.csv", "target.csv"])

    def test_missing_and_unwritable_folders(self):
        path = self.existing("t.csv")
        # /proc/self accepts no new files, even for root (chmod does not stop root).
        folders = [os.path.join(self.dir, "missing"), "/proc/self"]
        if os.geteuid() != 0:
            locked = os.path.join(self.dir, "locked")
            os.mkdir(locked)
            os.chmod(locked, 0o555)
            folders.append(locked)
        for folder in folders:
            for args in (["table", "sinusoidal"], ["export", "--view", "rope", "--figure", "frequencies", "--format", "png"]):
                with self.subTest(folder=folder, args=args[0]):
                    out = os.path.join(folder, "out.file")
                    p = run(*args, "--out", out, check=1)
                    self.assert_io_failure(p, out)
                    self.assertFalse(os.path.exists(out))
        # A folder given where a file belongs (I/O), a file where the lesson's folder belongs (usage).
        run("table", "sinusoidal", "--out", self.dir, check=1)
        run("export", "--view", "rope", "--format", "png", "--out", path, check=2)
        self.assertEqual(slurp(path, "rb"), self.original)
        if os.geteuid() != 0:
            os.chmod(os.path.join(self.dir, "locked"), 0o755)


class Lists(unittest.TestCase):
    def test_lists(self):
        views = run("list", "views", check=0).stdout.decode().split()
        self.assertTrue(views)
        figures = run("list", "figures", check=0).stdout.decode().split()
        for f in figures:
            self.assertIn(f.split("/")[0], views)
        params = json.loads(run("list", "params", "--format", "json", check=0).stdout)
        self.assertIn("base", [p["key"] for p in params])
        run("list", "nonsense", check=2)

    def test_help_and_version(self):
        self.assertIn(b"poslab", run("--version", check=0).stdout)
        self.assertIn(b"export", run("--help", check=0).stdout)
        run("--frobnicate", check=2)


class StandardOutput(unittest.TestCase):
    """What a command prints is checked like a file it writes (CONTRACT.md §1):
    standard output on a full disk is exit 1 with one line, never a silent 0."""

    def run_into(self, device, *args):
        with open(device, "wb") as out:
            p = subprocess.run([POSLAB, *args], stdout=out, stderr=subprocess.PIPE, env=ENV, timeout=300)
        for report in SANITIZER_REPORTS:
            self.assertNotIn(report, p.stderr, p.stderr.decode(errors="replace"))
        return p

    def test_a_full_standard_output_fails(self):
        if not os.path.exists("/dev/full"):
            self.fail("no /dev/full on this system")
        # Large and small outputs: one fails while printing, the other only when flushed.
        for args in (["table", "sinusoidal"], ["table", "alibi-slopes", "--format", "md"], ["list", "views"],
                     ["list", "params", "--format", "json"], ["bench", "--json", "--kernels"], ["--help"]):
            with self.subTest(args=args):
                p = self.run_into("/dev/full", *args)
                self.assertEqual(p.returncode, 1, p.stderr.decode(errors="replace"))
                self.assertEqual(p.stderr.decode(), "poslab: cannot write to standard output\n")

    def test_the_message_is_translated(self):
        p = self.run_into("/dev/full", "table", "sinusoidal", "--lang", "zh")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stderr.decode(), "poslab: 无法写入标准输出\n")

    def test_a_usage_error_keeps_its_code_and_line(self):
        p = self.run_into("/dev/full", "table", "nonsense")
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr.decode().count("\n"), 1)
        self.assertIn("nonsense", p.stderr.decode())

    def test_a_working_standard_output_succeeds(self):
        for args in (["table", "sinusoidal"], ["list", "views"], ["bench", "--json", "--kernels"]):
            with self.subTest(args=args):
                p = self.run_into(os.devnull, *args)
                self.assertEqual(p.returncode, 0, p.stderr.decode(errors="replace"))
                self.assertEqual(p.stderr, b"")


class Bench(unittest.TestCase):
    """`poslab bench --view`: every key of a view swept at the defaults and the maxima (issue 16)."""

    def test_every_key_of_a_view(self):
        views = {v["id"]: v for v in json.loads(run("list", "views", "--format", "json").stdout)}
        p = run("bench", "--view", "rope-2d", "--view", "why-position", "--json")
        self.assertEqual(p.returncode, 0, p.stderr)
        report = json.loads(p.stdout)
        self.assertEqual(sorted(report["frame_ms"]), ["rope-2d", "why-position"])
        self.assertNotIn("deck_scene_ms", report)
        self.assertNotIn("kernels", report)
        self.assertIn("every figure", report["plots_laid_out"])  # not only the plots in view
        for vid, entry in report["frame_ms"].items():
            keys = entry["keys"]
            # every key the view reads has a case at both settings, measured or skipped with a reason
            for k in views[vid]["params"]:
                for side in ("default", "max"):
                    case = keys[k][side]
                    if "skipped" in case:
                        self.assertTrue(case["skipped"])
                        continue
                    self.assertNotIn("error", case)
                    self.assertGreater(case["frames"], 0, (vid, k, side))
                    self.assertGreater(case["p95"], 0, (vid, k, side))
                    self.assertLessEqual(case["p50"], case["p95"] + 1e-12)
                    self.assertLessEqual(case["p95"], case["max_frame"] + 1e-12)
            measured = [k for k in views[vid]["params"] if "p95" in keys[k]["default"]]
            self.assertGreaterEqual(len(measured), 2, vid)
            # the guided steps count as a key
            self.assertIn("p95", keys["step"]["default"])
            # the worst key is the slowest at the maxima, and its ratio is its own
            worst = entry["worst_key"]
            self.assertIn(worst, keys)
            wmax = keys[worst].get("max", keys[worst]["default"])
            for k, c in keys.items():
                m = c.get("max", c["default"])
                if "p95" in m and "p95" in wmax:
                    self.assertLessEqual(m["p95"], wmax["p95"] + 1e-12, (vid, k))
            self.assertAlmostEqual(entry["max_over_default"], wmax["p95"] / keys[worst]["default"]["p95"], places=9)
            self.assertGreaterEqual(entry["slowest_frame"], entry["max"]["p95"])
            # the slowest layout on the UI thread names a figure of the view, the worst of every case's
            titles = set()
            for c in keys.values():
                for side in c.values():
                    if "slowest_layout" in side:
                        self.assertGreaterEqual(side["slowest_layout"]["ms"], 0)
                        titles.add(side["slowest_layout"]["figure"])
                        self.assertLessEqual(side["slowest_layout"]["ms"], entry["slowest_layout"]["ms"] + 1e-12)
            self.assertIn(entry["slowest_layout"]["figure"], titles)
            self.assertTrue(entry["slowest_layout"]["figure"], vid)

    def test_unknown_view_is_usage(self):
        p = run("bench", "--view", "nope")
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"nope", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
