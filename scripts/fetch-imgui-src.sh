#!/usr/bin/env bash
# Fetches the sources of Dear ImGui 1.86 from Debian's `imgui` source package
# (the same version as libimgui-dev, which the desktop build links) for the
# browser build, which compiles ImGui itself with emscripten.
#
# The machine's apt configuration is left alone: a private sources.list with a
# deb-src line for bookworm and private package lists live in a cache folder
# ($POSLAB_CACHE, default ~/.cache/poslab), and `apt-get source` unpacks there.
# Needs no root (apt-get source and an update of private lists run as any user).
#
#   scripts/fetch-imgui-src.sh        prints the unpacked source folder
#
# Idempotent: a folder already unpacked is printed at once, with no network.
set -euo pipefail

cache="${POSLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/poslab}"
version="1.86+ds"
dest="$cache/imgui-src"
# Debian repacks the upstream folder as imgui-<upstream version>.
if [ -f "$dest/.complete" ] && [ -d "$(cat "$dest/.complete")" ]; then
  cat "$dest/.complete"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-source >/dev/null 2>&1; then
  echo "poslab: fetching ImGui's sources needs apt-get and dpkg-source (package dpkg-dev)" >&2
  exit 1
fi

apt="$cache/apt"
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$dest"
# The machine's own mirror when it names one (a local mirror or proxy keeps
# working); Debian's otherwise.
mirror="http://deb.debian.org/debian"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -r "$f" ] || continue
  m=$(grep -Eo 'https?://[^ ]*/debian/?( |$)' "$f" 2>/dev/null | head -n1 | tr -d ' ' || true)
  if [ -n "$m" ]; then mirror="${m%/}"; break; fi
done
echo "deb-src $mirror bookworm main" > "$apt/sources.list"
: > "$apt/status"

opts=(
  -o "Dir::Etc::sourcelist=$apt/sources.list"
  -o "Dir::Etc::sourceparts=-"
  -o "Dir::State::Lists=$apt/lists"
  -o "Dir::State::status=$apt/status"
  -o "Dir::Cache=$apt"
  -o "Dir::Cache::archives=$apt/archives"
  -o "APT::Sandbox::User=$(id -un)"
  -o "Debug::NoLocking=1"
)
echo "poslab: fetching Debian's imgui $version source package into $dest" >&2
apt-get "${opts[@]}" -qq update >&2
( cd "$dest" && apt-get "${opts[@]}" -qq source "imgui=${version}-1" >&2 )
found=$(find "$dest" -maxdepth 2 -name imgui.cpp -printf '%h\n' | head -n1)
if [ -z "$found" ]; then
  echo "poslab: apt-get source imgui gave no imgui.cpp under $dest" >&2
  exit 1
fi
for f in imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp backends/imgui_impl_glfw.cpp \
         backends/imgui_impl_opengl3.cpp; do
  [ -f "$found/$f" ] || { echo "poslab: $found/$f is missing" >&2; exit 1; }
done
echo "$found" > "$dest/.complete"
echo "$found"
