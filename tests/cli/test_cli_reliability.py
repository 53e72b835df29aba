#!/usr/bin/env python3
"""No input crashes, stalls or loses data — the command line's part
(docs/CONTRACT.md §1, §2), run headless.

Usage: test_cli_reliability.py PATH/TO/poslab
- parameters at the edge of what the math can represent are refused with
  exit 2 naming the key and its range, never a crash or `nan`/`inf` output;
- --out through symbolic links (dangling, a loop) and into a FIFO with no
  reader: the documented outcome, and never a hang;
- gui --session: an unreadable file is I/O (exit 1), a bad one is exit 2
  naming what is wrong (an unknown preset, a number beyond a double);
- work budgets (docs/CONTRACT.md §3 "Budgets"): the issue's stalls are
  refused at once in one message form, the largest accepted inputs finish
  within the memory they promise; export and screenshot pixels;
- --digits bounds, --set of a key twice, messages in a GB18030 locale.
Standard library only.
"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

POSLAB = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "poslab"
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
ENV["LANG"] = "C.UTF-8"

# Reports of the sanitizer build: any of them fails the test, whatever the exit code.
# The sanitizer build (its memory is ASan's, not the program's): no RSS checks there.
SANITIZED = "ASAN_OPTIONS" in os.environ
SANITIZER_REPORTS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error:",
                     b"SUMMARY: UndefinedBehaviorSanitizer")


def run(*args, check=None, timeout=120):
    """Runs poslab; a hang fails the test (subprocess.TimeoutExpired) instead of stalling ctest."""
    p = subprocess.run([POSLAB, *args], capture_output=True, env=ENV, timeout=timeout)
    for report in SANITIZER_REPORTS:
        if report in p.stderr:
            raise AssertionError(f"poslab {' '.join(args)}: sanitizer report\n{p.stderr.decode(errors='replace')}")
    if check is not None and p.returncode != check:
        raise AssertionError(f"poslab {' '.join(args)} exited {p.returncode}, expected {check}\n"
                             f"stderr: {p.stderr.decode(errors='replace')}")
    return p


def one_line(p):
    lines = p.stderr.decode().strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


class Extremes(unittest.TestCase):
    """The issue's reports: each was a crash, `nan` or `inf` with exit 0."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-cli-rel-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def refused(self, args, key, bound):
        p = run(*args, check=2)
        line = one_line(p)
        self.assertTrue(line.startswith(f"poslab: {key} = "), line)
        self.assertIn(bound, line)
        self.assertEqual(p.stdout, b"")

    def test_widths_and_rotations_below_what_doubles_hold(self):
        out = os.path.join(self.dir, "x")
        for view in ("gaussian", "decay"):
            with self.subTest(view=view):
                self.refused(["export", "--view", view, "--format", "csv", "--out", out, "--set", "sigma2=1e-200"],
                             "sigma2", "> 0.001")
                self.assertFalse(os.path.exists(out))
        self.refused(["table", "gaussian-kernel", "--set", "sigma2=5e-324"], "sigma2", "> 0.001")
        self.refused(["table", "decay-compare", "--set", "sigma1=1e-300"], "sigma1", "> 0.001")
        self.refused(["table", "gaussian-shift", "--set", "sigma1=1e-300"], "sigma1", "> 0.001")
        self.refused(["table", "yarn-interpolation", "--set", "beta_slow=1e-320"], "beta_slow", "1e-6..1e6")
        self.refused(["table", "rope-scaling", "--set", "beta_fast=1e-7", "--set", "beta_slow=1e-8"],
                     "beta_fast", "1e-6..1e6")

    def test_the_edges_themselves_give_finite_output(self):
        for args in (["table", "gaussian-kernel", "--set", "sigma1=0.0010001", "--set", "sigma2=1e9"],
                     ["table", "decay-compare", "--set", "sigma1=0.0010001"],
                     ["table", "gaussian-shift", "--set", "sigma1=0.0010001", "--set", "sigma2=0.0010001"],
                     ["table", "yarn-interpolation", "--set", "beta_slow=1e-6", "--set", "beta_fast=2e-6"],
                     ["table", "rope-scaling", "--set", "beta_slow=1e-6", "--set", "beta_fast=1e6"],
                     ["table", "gaussian-shift", "--set", "alpha1=5e-324", "--set", "alpha2=5e-324"]):
            with self.subTest(args=args):
                p = run(*args, "--format", "json", check=0, timeout=60)
                text = p.stdout.decode()
                for bad in ("nan", "inf", "NaN", "Infinity"):
                    self.assertNotIn(bad, text.replace("info", ""))
                json.loads(text)
        out = os.path.join(self.dir, "edge")
        run("export", "--view", "gaussian", "--format", "csv", "--out", out, "--set", "sigma2=0.0010001", check=0)
        for name in os.listdir(out):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                self.assertNotIn("nan", f.read().lower())


class Links(unittest.TestCase):
    """--out through symbolic links: the target is written, the link stays."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-cli-rel-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_a_dangling_link_creates_its_target(self):
        link = os.path.join(self.dir, "link.csv")
        os.symlink("made.csv", link)
        run("table", "alibi-slopes", "--out", link, check=0)
        self.assertTrue(os.path.islink(link), "the link was replaced by a file")
        with open(os.path.join(self.dir, "made.csv"), encoding="utf-8") as f:
            self.assertTrue(f.read().startswith("head,slope\n"))
        self.assertEqual(sorted(os.listdir(self.dir)), ["link.csv", "made.csv"])

    def test_a_dangling_link_into_a_missing_folder_is_an_io_failure(self):
        link = os.path.join(self.dir, "link.png")
        os.symlink(os.path.join(self.dir, "missing", "x.png"), link)
        p = run("export", "--view", "rope", "--figure", "frequencies", "--format", "png", "--out", link, check=1)
        self.assertIn("does not exist", one_line(p))
        self.assertTrue(os.path.islink(link))
        self.assertEqual(os.listdir(self.dir), ["link.png"])

    def test_a_loop_of_links_is_refused_and_left_alone(self):
        a, b = os.path.join(self.dir, "a.csv"), os.path.join(self.dir, "b.csv")
        os.symlink("b.csv", a)
        os.symlink("a.csv", b)
        for args in (["table", "alibi-slopes"], ["export", "--view", "rope", "--figure", "frequencies", "--format", "svg"]):
            with self.subTest(args=args[0]):
                p = run(*args, "--out", a, check=1)
                self.assertIn("Too many levels of symbolic links", one_line(p))
                self.assertTrue(os.path.islink(a) and os.path.islink(b))
                self.assertEqual(os.readlink(a), "b.csv")
                self.assertEqual(sorted(os.listdir(self.dir)), ["a.csv", "b.csv"])


class Fifos(unittest.TestCase):
    """--out into a FIFO: written when someone reads, refused at once when no one does."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-cli-rel-")
        self.fifo = os.path.join(self.dir, "pipe")
        os.mkfifo(self.fifo)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_no_reader_is_a_clear_io_failure_not_a_hang(self):
        for args in (["table", "alibi-slopes"], ["export", "--view", "rope", "--figure", "frequencies", "--format", "png"]):
            with self.subTest(args=args[0]):
                p = run(*args, "--out", self.fifo, check=1, timeout=30)
                self.assertIn("no process is reading from this FIFO", one_line(p))
                self.assertIn(self.fifo, one_line(p))
        self.assertEqual(os.listdir(self.dir), ["pipe"])  # no temporary file left, the FIFO still there

    def test_with_a_reader_the_bytes_go_through(self):
        for args, start in ((["table", "alibi-slopes", "--set", "heads=4"], b"head,slope\n"),
                            (["export", "--view", "rope", "--figure", "frequencies", "--format", "png"], b"\x89PNG")):
            with self.subTest(args=args[0]):
                got = []
                fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader before poslab opens it

                def read_all():
                    os.set_blocking(fd, True)
                    chunks = []
                    while True:
                        chunk = os.read(fd, 65536)
                        if not chunk:
                            break
                        chunks.append(chunk)
                    got.append(b"".join(chunks))

                # The reader must see a writer before it reads EOF: read after poslab opened it.
                proc = subprocess.Popen([POSLAB, *args, "--out", self.fifo], env=ENV,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                reader = threading.Thread(target=read_all)
                # Wait until poslab holds the write end (or has ended), then read to EOF.
                deadline = time.time() + 60
                while time.time() < deadline and proc.poll() is None:
                    try:
                        if any(os.readlink(f"/proc/{proc.pid}/fd/{n}") == self.fifo
                               for n in os.listdir(f"/proc/{proc.pid}/fd")):
                            break
                    except OSError:
                        pass
                    time.sleep(0.01)
                reader.start()
                _, err = proc.communicate(timeout=60)
                reader.join(timeout=60)
                os.close(fd)
                self.assertEqual(proc.returncode, 0, err.decode(errors="replace"))
                self.assertTrue(got and got[0].startswith(start), got[0][:16] if got else None)


class Sessions(unittest.TestCase):
    """gui --session is checked before any window opens: exit 1 for I/O, 2 for bad content."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-cli-rel-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def session(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_a_folder_or_a_missing_file_is_an_io_failure(self):
        for path in (self.dir, os.path.join(self.dir, "missing.json")):
            for command in ("gui", "screenshot"):
                with self.subTest(path=path, command=command):
                    extra = ["--view", "rope", "--out", os.path.join(self.dir, "s.png")] if command == "screenshot" else []
                    p = run(command, *extra, "--session", path, check=1)
                    self.assertIn(path, one_line(p))
                    self.assertIn("cannot read", one_line(p))

    def test_an_unknown_preset_is_refused_by_name(self):
        path = self.session("p.json", json.dumps({"format": "poslab-session", "version": 1, "lesson": "rope",
                                                  "preset": "gpt-9", "params": {}}))
        line = one_line(run("gui", "--session", path, check=2))
        self.assertIn("gpt-9", line)
        self.assertIn("preset", line)

    def test_a_number_beyond_a_double_names_its_key(self):
        path = self.session("d.json", '{"format": "poslab-session", "version": 1, "lesson": "rope", '
                                      '"params": {"d": 1e999}}')
        line = one_line(run("gui", "--session", path, check=2))
        self.assertIn("d = 1e999", line)
        self.assertIn("2..8192", line)
        self.assertNotIn("not valid JSON", line)
        path = self.session("a.json", '{"format": "poslab-session", "version": 1, "lesson": "rope", "params": {}, '
                                      '"animation": {"key": "m", "from": -1e999, "to": 1}}')
        line = one_line(run("gui", "--session", path, check=2))
        self.assertIn("animation.from", line)
        self.assertIn("beyond the range of a double", line)


def budget_line(p):
    """The one stderr line of a budget refusal, checked for the common form."""
    line = one_line(p)
    assert "is over the" in line and "budget of" in line and "(docs/CONTRACT.md §" in line, line
    return line


class Budgets(unittest.TestCase):
    """The issue's stalls (49 s, 177 s / 456 MB, 7 min, 650 MB) are refused
    before any work, naming the product, the budget and how far the key may go."""

    def test_the_reported_stalls_are_refused_at_once(self):
        ones = ",".join(["1"] * 8192)
        cases = [
            (["table", "rope-decay", "--set", "d=8192", "--set", "distance=0:999999"],
             "distance = 0:999999: rows × d/2 = 1000000 × 4096", "distance may hold at most 16384 items"),
            (["table", "decay-compare", "--set", "d=8192", "--set", "distance=0:999999"],
             "rows × 3·d/2 = 1000000 × 12288", "distance may hold at most 5461 items"),
            (["table", "rope-mixed-layouts", "--set", "vector=" + ones, "--set", "pos=0:999999"],
             "rows × 8·|vector| = 1000000 × 65536", "pos may hold at most 1024 items"),
            (["table", "gaussian-shift", "--set", "window=1000000", "--set", "d=2"],
             "window = 1e6: rows × 16·(d + 16) = 1000001 × 288", "window may be at most 233015"),
            (["export", "--view", "decay", "--format", "csv", "--out", os.path.join(tempfile.gettempdir(), "unused"),
              "--set", "d=8192", "--set", "samples=10000"],
             "samples = 10000: samples × d = 10000 × 8192", "samples may be at most 64"),
        ]
        for args, product, fit in cases:
            with self.subTest(args=args[:2]):
                line = budget_line(run(*args, check=2, timeout=60))
                self.assertIn(product, line)
                self.assertIn(fit, line)

    def test_budget_edges_are_exact(self):
        # gaussian-shift at d = 64: (window + 1) rows × 16·(d + 16) = 1280
        # units each against 2^26: window 52427 is the last within, the next
        # is over (the old "≤ 4e7" refused exactly 4e7).
        p = run("table", "gaussian-shift", "--set", "window=52427", "--format", "csv", "--out",
                os.path.join(self.dir, "edge.csv"), check=0, timeout=120)
        with open(os.path.join(self.dir, "edge.csv"), encoding="utf-8") as f:
            self.assertEqual(sum(1 for _ in f), 1 + 52428)
        line = budget_line(run("table", "gaussian-shift", "--set", "window=52428", check=2))
        self.assertIn("rows × 16·(d + 16) = 52429 × 1280 = 67109120", line)
        self.assertIn("window may be at most 52427", line)
        self.assertEqual(p.stderr, b"")

    def test_the_contracts_largest_list_is_a_table(self):
        # distance = 0:1048575 (1,048,576 items, what §2 allows) was refused
        # as "more than 1000000 rows": at d = 128 it is exactly the work budget.
        out = os.path.join(self.dir, "big.csv")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        run("table", "rope-decay", "--set", "distance=0:1048575", "--out", out, check=0, timeout=300)
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        with open(out, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 1 + 1048576)
        self.assertEqual(lines[0], "distance,bound,ones_score")
        self.assertTrue(lines[-1].startswith("1048575,"))
        if not SANITIZED and peak_kb > before:  # this run set the children's peak
            self.assertLess(peak_kb / 1024, 500, "a table at its budget stays under 500 MB")
        # d = 130 makes the same list one unit per row over.
        line = budget_line(run("table", "rope-decay", "--set", "distance=0:1048575", "--set", "d=130", check=2))
        self.assertIn("1048576 × 65", line)
        self.assertIn("at most 1032444 items", line)

    def test_images_name_the_product_the_options_make(self):
        out = os.path.join(self.dir, "x.png")
        line = budget_line(run("export", "--view", "sinusoidal", "--figure", "heatmap", "--format", "png", "--out", out,
                               "--width", "8000", "--height", "8000", check=2))
        self.assertIn("width × height × scale² = 8000 × 8000 × 1²: 64000000 pixels", line)
        self.assertNotIn("scale = ", line)
        line = budget_line(run("export", "--view", "relative", "--format", "png", "--out", self.dir, "--scale", "2.5",
                               check=2))
        self.assertIn("figures × width × height × scale² = 6 × 1600 × 1000 × 2.5²", line)
        line = budget_line(run("screenshot", "--view", "rope", "--out", out, "--size", "8192x8192", check=2))
        self.assertIn("size = 8192x8192: 67108864 pixels", line)
        self.assertFalse(os.path.exists(out))
        # At the image budget itself: written.
        run("export", "--view", "rope", "--figure", "frequencies", "--format", "png", "--out", out,
            "--width", "4096", "--height", "4096", check=0, timeout=300)
        with open(out, "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual((int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")), (4096, 4096))

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="poslab-cli-rel-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class Options(unittest.TestCase):
    """--digits within what a double has; each --set key once, as in a session."""

    def test_digits_outside_0_to_17_are_refused(self):
        for digits in ("-1", "18", "1000"):
            with self.subTest(digits=digits):
                line = one_line(run("table", "alibi-slopes", "--format", "md", "--digits", digits, check=2))
                self.assertIn(f"--digits {digits}: must be an integer in 0..17", line)
        md = run("table", "alibi-slopes", "--set", "heads=1", "--format", "md", "--digits", "17", check=0).stdout
        self.assertIn(b"| 1 | 0.00390625 |", md)
        md = run("table", "alibi-slopes", "--set", "heads=1", "--format", "md", "--digits", "0", check=0).stdout
        self.assertIn(b"| 1 | 0.00390625 |", md)

    def test_a_key_set_twice_is_refused_everywhere(self):
        out = os.path.join(tempfile.gettempdir(), "poslab-never-written")
        for args in (["table", "rope-decay"], ["export", "--view", "rope", "--format", "csv", "--out", out],
                     ["gui", "--view", "rope"], ["screenshot", "--view", "rope", "--out", out + ".png"]):
            with self.subTest(command=args[0]):
                line = one_line(run(*args, "--set", "d=64", "--set", " d=32", check=2))
                self.assertEqual(line, "poslab: d = 64, 32: given twice; set each key once")
                self.assertFalse(os.path.exists(out) or os.path.exists(out + ".png"))


class Locales(unittest.TestCase):
    """A Chinese message under a GB18030 locale is GB18030 bytes, not UTF-8."""

    def test_gb18030(self):
        env = dict(ENV, LANG="zh_CN.GB18030", LC_ALL="zh_CN.GB18030")
        p = subprocess.run([POSLAB, "table", "rope-decay", "--set", "d=7"], capture_output=True, env=env, timeout=60)
        self.assertEqual(p.returncode, 2)
        text = p.stderr.decode("gb18030")
        self.assertIn("d = 7", text)
        self.assertIn("必须是偶数", text)
        with self.assertRaises(UnicodeDecodeError):
            p.stderr.decode("utf-8")
        # The same message under a UTF-8 locale is UTF-8.
        env = dict(ENV, LANG="zh_CN.UTF-8", LC_ALL="zh_CN.UTF-8")
        p = subprocess.run([POSLAB, "table", "rope-decay", "--set", "d=7"], capture_output=True, env=env, timeout=60)
        self.assertIn("必须是偶数", p.stderr.decode("utf-8"))


if __name__ == "__main__":
    unittest.main(verbosity=1)
