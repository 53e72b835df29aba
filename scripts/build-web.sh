#!/usr/bin/env bash
# Builds poslab for the browser into build-web/site/ (make web):
#   index.html, page.js, poslab.js, poslab.wasm, poslab.data — the page;
#   worker.js — its Web Worker (the same poslab.wasm, building slow figures);
#   sw.js, manifest.webmanifest, icon-256.png — offline use and installing;
#   embed-example.html — a course page with poslab figures in it
# with Debian's emscripten and Dear ImGui's sources from Debian's source
# package (scripts/fetch-imgui-src.sh). With --tests, also the node programs
# the web tests run (the core suite, the command line).
#
# Environment: WEB_DIR (default build-web), JOBS (default: nproc).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
web="${WEB_DIR:-$root/build-web}"
case "$web" in /*) ;; *) web="$root/$web" ;; esac
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
targets=(poslab_web)
tests=OFF
if [ "${1:-}" = "--tests" ]; then
  targets+=(poslab_cli_node poslab_core_tests_node)
  tests=ON
fi

for tool in emcmake em++ node /usr/bin/python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "poslab: $tool is missing (scripts/install-deps.sh --web)" >&2; exit 1; }
done
# emscripten runs its JavaScript tools with node; a node that is not
# Debian's finds Debian's node modules (acorn) only through NODE_PATH.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
# Debian ships emscripten's system libraries prebuilt in a frozen cache
# (/usr/share/emscripten/cache, FROZEN_CACHE): nothing is built into it or
# written to it on a first run.

imgui="$("$root/scripts/fetch-imgui-src.sh")"

# ccache, when installed, as the native builds use it (CMakeLists.txt): emcc
# runs its clang through EM_COMPILER_WRAPPER; paths relative to the source
# tree so another build folder or clone of the same sources shares objects.
if [ -z "${EM_COMPILER_WRAPPER:-}" ] && command -v ccache >/dev/null 2>&1; then
  export EM_COMPILER_WRAPPER=ccache CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi

# The assets the page carries: the app's, with the fonts cut to the glyphs
# the texts use.
rm -rf "$web/assets.new"
mkdir -p "$web"
cp -a "$root/assets" "$web/assets.new"
rm -f "$web/assets.new/icons/"*.desktop
/usr/bin/python3 "$root/scripts/web-fonts.py" "$root/assets" "$web/assets.new/fonts" >/dev/null
if [ -d "$web/assets" ] && diff -r -q "$web/assets" "$web/assets.new" >/dev/null 2>&1; then
  rm -rf "$web/assets.new"  # unchanged: the packed data stays up to date
else
  rm -rf "$web/assets"
  mv "$web/assets.new" "$web/assets"
fi

emcmake cmake -S "$root/app/platform/web" -B "$web/wasm" -DCMAKE_BUILD_TYPE=Release \
  -DPOSLAB_IMGUI_DIR="$imgui" -DPOSLAB_WEB_ASSETS="$web/assets" -DPOSLAB_WEB_TESTS="$tests" \
  -DPOSLAB_WERROR=ON >/dev/null
cmake --build "$web/wasm" -j "$jobs" --target "${targets[@]}"
# The packed assets are an input the compiler does not track: relink when they changed.
if [ "$web/assets" -nt "$web/wasm/poslab.data" ]; then
  rm -f "$web/wasm/poslab.js"
  cmake --build "$web/wasm" -j "$jobs" --target poslab_web
fi

site="$web/site"
rm -rf "$site.new"
mkdir -p "$site.new"
cp "$root/web/index.html" "$root/web/page.js" "$root/web/worker.js" "$root/web/sw.js" \
   "$root/web/manifest.webmanifest" "$root/web/embed-example.html" "$site.new/"
cp "$web/wasm/poslab.js" "$web/wasm/poslab.wasm" "$web/wasm/poslab.data" "$site.new/"
cp "$root/assets/icons/poslab.svg" "$site.new/favicon.svg"
cp "$root/assets/icons/poslab-256.png" "$site.new/icon-256.png"
# The site's version: the program's, and a hash of every file as built (a
# new build is a new version: the service worker caches it beside the old
# one, and the page says which it runs). Written into the page, the worker
# and the service worker, with the list of files the latter keeps offline.
program_version=$(sed -n 's/^project(poslab_web VERSION \([0-9.]*\).*/\1/p' "$root/app/platform/web/CMakeLists.txt")
hash=$(cd "$site.new" && LC_ALL=C ls | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-10)
site_version="${program_version:-0}+$hash"
files=$(cd "$site.new" && LC_ALL=C ls | grep -v '^sw\.js$' | LC_ALL=C sort | sed "s/.*/'&'/" | paste -sd, -)
sed -i "s/@POSLAB_SITE_VERSION@/$site_version/g" "$site.new/index.html" "$site.new/page.js" "$site.new/worker.js" \
  "$site.new/sw.js"
sed -i "s|/\*@POSLAB_SITE_FILES@\*/|$files|" "$site.new/sw.js"
rm -rf "$site"
mv "$site.new" "$site"
bytes=$(cat "$site"/* | gzip -9 | wc -c)
echo "poslab: the site $site_version is in $site ($(du -sk "$site" | cut -f1) KiB, $((bytes / 1024)) KiB gzipped)"
