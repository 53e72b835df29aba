#!/usr/bin/env bash
# Installs the Debian 12 packages poslab builds and tests with.
#
# Idempotent: asks dpkg which packages are missing and calls apt only for
# those; prints nothing and exits 0 when everything is present. Uses sudo when
# not root. Set POSLAB_SKIP_DEPS=1 to skip the check entirely (e.g. on a
# machine without apt where the libraries were installed another way).
set -euo pipefail

if [ "${POSLAB_SKIP_DEPS:-0}" = 1 ]; then
  exit 0
fi

packages=(
  # toolchain
  build-essential cmake pkg-config
  # core
  libeigen3-dev
  # app
  libimgui-dev libglfw3-dev libepoxy-dev libcairo2-dev libpng-dev libfontconfig-dev
  nlohmann-json3-dev libcli11-dev libstb-dev libgif-dev
  # fonts: a clear sans with Greek and math symbols, and a CJK face with a bold
  # weight for Chinese headings (Noto Sans CJK SC; WenQuanYi has regular only)
  fonts-dejavu-core fonts-wqy-microhei fonts-noto-cjk
  # tests: doctest, a virtual display with Mesa's software GL, clang's sanitizers
  # and libFuzzer, poppler to check that exported PDFs render
  doctest-dev xvfb xauth libgl1-mesa-dri clang libclang-rt-14-dev poppler-utils
  # tests: XTest sends real key taps to the window under Xvfb; giflib reads back the GIFs poslab writes
  libxtst-dev
  python3
  # builds: a second build folder or clone of the same sources compiles from the cache
  ccache
)

# The browser build and its checks (make web, make test-web): Debian's
# emscripten, dpkg-dev for `apt-get source imgui` (scripts/fetch-imgui-src.sh),
# fontTools to cut the fonts the page carries, Chromium to open the page
# headless, Pillow to look at its screenshots. `make test` runs them too.
web_packages=(emscripten dpkg-dev python3-fonttools chromium python3-pil libstb-dev doctest-dev)

if [ "${1:-}" = "--web" ]; then
  packages+=("${web_packages[@]}")
elif [ "${1:-}" = "--bench" ]; then
  # tests/bench/compare.py runs the same kernels in numpy and torch
  packages+=(python3-numpy python3-torch)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  case "$status" in
    *"install ok installed"*) ;;
    *) missing+=("$p") ;;
  esac
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "poslab: installing missing Debian packages: ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "poslab: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "poslab: not root and sudo is missing; install as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
# A fresh machine has empty package lists; refresh them once, then install.
if ! "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo_cmd[@]}" apt-get update
  "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
