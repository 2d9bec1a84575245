#!/usr/bin/env bash
# bench/ab.sh: two builds of the plugin timed against each other on one GPU.
# The GPU's speed drifts between runs (2-3x within minutes on a shared
# one), so the two never run far apart: vktile-bench runs ROUNDS times for
# each, alternating A, B, A, B, each run in a process of its own with its
# own registry, and writes a CSV per run. Ratios (x copy, x PCIe, ...) are
# what compare: bench/compare.py A-k.csv B-k.csv does it for each round
# here when python3 is around, or later on the CSVs.
#
#   bench/ab.sh [-n ROUNDS] [-o DIR] A_PLUGIN_DIR B_PLUGIN_DIR [-- BENCH_ARGS ...]
#
# A_PLUGIN_DIR, B_PLUGIN_DIR: folders holding a libgstvktile.so each (e.g.
# build/plugin of two checkouts). BENCH_ARGS go to every run (e.g. -e
# gaussblur --no-gpu --stream-formats NV12). ROUNDS defaults to 2, DIR to
# out/ab. VKTILE_BENCH names the benchmark (default build/bench/vktile-bench;
# it links lib/, which both builds must agree on).
set -eu
rounds=2
out=out/ab
while [ $# -gt 0 ]; do
  case $1 in
    -n) rounds=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [-n ROUNDS] [-o DIR] A_PLUGIN_DIR B_PLUGIN_DIR [-- BENCH_ARGS ...]" >&2
  exit 2
fi
a=$(cd "$1" && pwd)
b=$(cd "$2" && pwd)
shift 2
[ "${1:-}" = "--" ] && shift
bench=${VKTILE_BENCH:-build/bench/vktile-bench}
for d in "$a" "$b"; do
  [ -e "$d/libgstvktile.so" ] || { echo "no libgstvktile.so in $d" >&2; exit 2; }
done
mkdir -p "$out"
registry=$(mktemp -d)
trap 'rm -rf "$registry"' EXIT

for ((r = 1; r <= rounds; r++)); do
  for side in A B; do
    dir=$a
    [ $side = B ] && dir=$b
    echo "round $r, $side ($dir)"
    GST_PLUGIN_PATH=$dir GST_REGISTRY=$registry/$side.bin \
      "$bench" --csv "$out/$side-$r.csv" "$@" >"$out/$side-$r.txt" 2>&1 ||
      echo "  failed: see $out/$side-$r.txt"
  done
done

python=$(command -v /usr/bin/python3 || command -v python3 || true)
if [ -n "$python" ]; then
  for ((r = 1; r <= rounds; r++)); do
    [ -e "$out/A-$r.csv" ] && [ -e "$out/B-$r.csv" ] || continue
    echo "== round $r: B against A"
    "$python" "$(dirname "$0")/compare.py" "$out/A-$r.csv" "$out/B-$r.csv" || true
  done
else
  echo "CSVs in $out (bench/compare.py A-k.csv B-k.csv compares them)"
fi
