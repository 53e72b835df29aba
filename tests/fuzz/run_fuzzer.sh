#!/usr/bin/env bash
# run_fuzzer.sh FUZZER CORPUS SECONDS [DICT]
# Runs a libFuzzer target for SECONDS on a scratch copy of CORPUS (the source
# tree is never written). A crash leaves its input in $POSLAB_FUZZ_ARTIFACTS
# (default: build dir/fuzz-artifacts) — add it to CORPUS as a regression test.
set -euo pipefail
fuzzer=$1 corpus=$2 seconds=$3 dict=${4:-}
artifacts=${POSLAB_FUZZ_ARTIFACTS:-$(dirname "$fuzzer")/fuzz-artifacts}
mkdir -p "$artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=1024 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 ${dict:+-dict="$dict"} "$scratch" "$corpus" 2>&1 | tail -n 25
