#!/usr/bin/env bash
# pipelines/benchmark.sh: times every element against the floors of this
# machine's GPU (vktile-bench: interleaved rounds, GPU-resident and
# system-memory frames, chains) and draws the plot.
#
#   pipelines/benchmark.sh [--quick] [VKTILE-BENCH OPTIONS ...]
#
# Writes out/benchmark.csv, out/benchmark.md and out/benchmark.png (the
# README's figure comes from a run on an H100: docs/BENCHMARKS.md). --quick
# is a smoke run of small frames and few rounds (a minute on lavapipe); the
# full run takes several minutes on a GPU. Builds vktile first unless
# SKIP_BUILD=1.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${VKTILE_BUILD_DIR:-$ROOT/build}
. "$ROOT/tools/ensure-deps.sh"

case ${1:-} in -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

vktile_prepare_scripts "$BUILD"
mkdir -p out
rm -f out/benchmark.csv out/benchmark.md out/benchmark.png

"$BUILD/bench/vktile-bench" --csv out/benchmark.csv --markdown out/benchmark.md "$@"
"$(command -v /usr/bin/python3 || command -v python3)" bench/plot.py out/benchmark.csv --out out/benchmark.png
echo "Wrote out/benchmark.csv, out/benchmark.md and out/benchmark.png"
