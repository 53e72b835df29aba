#!/usr/bin/python3
"""Cuts the fonts the browser build carries to the glyphs poslab shows.

The page cannot use the machine's fonts (a browser has no fontconfig, and a
student's laptop may have no CJK font at all), so it carries its own:
DejaVu Sans and DejaVu Sans Bold (Latin, Greek, math symbols) and
WenQuanYi Micro Hei (CJK), all from Debian's font packages, each cut to
  - the ranges the UI always bakes (app/ui/font_atlas.cpp kBaseRanges: what
    a formula's commands — \\theta, \\cdot, \\langle — draw is in them),
  - every character of the translations, guided steps, decks, presets and
    the notation card (CJK characters into the CJK font only), and
  - every character of GB 2312 (7,098 CJK characters and symbols: all of
    everyday simplified Chinese), so that a lecturer's own captions, notes
    and titles render in the browser as on the desktop (issue 29; the atlas
    bakes what a deck or the keyboard brings when it appears).
Measured (WQY Micro Hei, fontTools 4.38): the texts' CJK alone 148 KiB
(83 KiB gzipped); with GB 2312 1,166 KiB (622 KiB gzipped); all 20,932 CJK
ideographs the font has 3,012 KiB (1,558 KiB gzipped). GB 2312 is carried:
the page grows from 3.8 to 4.8 MB (1.4 to 1.9 MB gzipped), where the whole
font would double it. A rarer character (traditional forms, names) still
shows as ImGui's fallback in the browser; the desktop uses the system's
full CJK font.

usage: web-fonts.py ASSETS_DIR OUT_DIR
"""
import json
import logging
import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
WQY = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"

# app/ui/font_atlas.cpp kBaseRanges (inclusive pairs)
BASE_RANGES = [(0x20, 0xFF), (0x100, 0x17F), (0x370, 0x3FF), (0x1D62, 0x1D6A), (0x2000, 0x206F),
               (0x2070, 0x209F), (0x2100, 0x214F), (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2300, 0x23FF),
               (0x25A0, 0x25FF), (0x2713, 0x2718), (0x27E8, 0x27E9)]


def is_cjk(c):  # app/ui/font_atlas.cpp is_cjk
    return 0x2E80 <= c <= 0x9FFF or 0xF900 <= c <= 0xFAFF or 0xFF00 <= c <= 0xFFEF or 0x3000 <= c <= 0x303F


def gb2312_cjk():
    """The CJK characters of GB 2312, as Python's codec knows the set."""
    out = set()
    for c in range(0x2E80, 0xFFF0):
        if not is_cjk(c):
            continue
        try:
            chr(c).encode("gb2312")
        except UnicodeEncodeError:
            continue
        out.add(c)
    return out


def texts(assets):
    for path in sorted(assets.rglob("*.json")):
        yield path.read_text(encoding="utf-8")


def cut(src, out, codepoints, font_number=0):
    options = subset.Options()
    options.font_number = font_number
    options.layout_features = ["kern"]
    options.name_IDs = ["*"]  # keep the family name: figures and SVGs name it
    options.hinting = False
    options.notdef_outline = True
    font = subset.load_font(src, options)
    have = set(font.getBestCmap())
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted(codepoints & have))
    sub.subset(font)
    subset.save_font(font, out, options)


def main():
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # "FFTM NOT subset": a FontForge timestamp, dropped
    assets, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    latin, cjk = set(), set()
    for lo, hi in BASE_RANGES:
        latin.update(range(lo, hi + 1))
    for text in texts(assets):
        json.loads(text)  # a broken asset fails here, not in the browser
        for ch in text:
            c = ord(ch)
            if c > 0xFFFF:
                continue
            (cjk if is_cjk(c) else latin).add(c)
    cjk |= gb2312_cjk()
    latin.add(0xFFFD)
    cut(DEJAVU, out / "DejaVuSans-subset.ttf", latin)
    cut(DEJAVU_BOLD, out / "DejaVuSans-Bold-subset.ttf", latin)
    cut(WQY, out / "wqy-microhei-subset.ttf", cjk | {0x3000, 0x3001, 0x3002, 0xFF0C, 0xFF1A}, font_number=0)
    for f in sorted(out.glob("*.ttf")):
        family = TTFont(f)["name"].getDebugName(1)
        print(f"{f.name}: {f.stat().st_size // 1024} KiB ({family})")


if __name__ == "__main__":
    main()
