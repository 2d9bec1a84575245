#!/usr/bin/env bash
# tests/stress.sh — the long soak, for a machine with a GPU (it runs on
# lavapipe too, slowly). FRAMES frames (default 10000; videotestsrc's
# black, which costs the CPU little: its moving ball holds a 4K stream to
# 20 frames/s) go through the three elements chained — system memory in,
# Vulkan buffers between the elements, system memory out — while the
# process's resident memory and the GPU memory it holds are sampled every
# half second. The
# run fails when the pipeline fails or either grows by more than its
# allowance between the end of the first quarter of the run and its end.
#
#   tests/stress.sh [FRAMES] [WIDTHxHEIGHT]     (default 10000 3840x2160)
#
# Environment: VKTILE_BUILD_DIR (default build; the plugin is taken from
# its plugin/), STRESS_RSS_MB (allowance, default 32), STRESS_GPU_MB
# (default 64), STRESS_FORMAT (default RGBA).
set -u

cd "$(dirname "$0")/.."
frames=${1:-10000}
size=${2:-3840x2160}
width=${size%x*}
height=${size#*x}
build=${VKTILE_BUILD_DIR:-build}
rss_allow=$((${STRESS_RSS_MB:-32} * 1024))
gpu_allow=${STRESS_GPU_MB:-64}
format=${STRESS_FORMAT:-RGBA}

export GST_PLUGIN_PATH=$PWD/$build/plugin GST_PLUGIN_PATH_1_0=$PWD/$build/plugin
if ! gst-inspect-1.0 recursivefilter >/dev/null 2>&1; then
  echo "stress: no vktile plugin in $build/plugin (build it first)" >&2
  exit 1
fi

# The GPU memory a process holds, in MiB, where nvidia-smi can say so;
# else the device's used memory (other processes' too), else nothing.
gpu_mb() {
  command -v nvidia-smi >/dev/null || return 0
  local own
  own=$(nvidia-smi --query-compute-apps=pid,used_memory \
    --format=csv,noheader,nounits 2>/dev/null | awk -F', *' -v p="$1" '$1 == p { print $2 }')
  if [ -n "$own" ]; then echo "$own"; return; fi
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -n 1
}

log=$(mktemp)
gst-launch-1.0 -q videotestsrc pattern=black num-buffers="$frames" ! \
  "video/x-raw,format=$format,width=$width,height=$height,framerate=60/1" ! \
  tiledconv preset=sharpen ! 'video/x-raw(memory:VulkanBuffer)' ! \
  gaussblur sigma=3 ! 'video/x-raw(memory:VulkanBuffer)' ! \
  recursivefilter sigma=4 temporal-alpha=0.5 ! video/x-raw ! \
  fakesink sync=false >"$log" 2>&1 &
pid=$!
start=$SECONDS
rss=() gpu=()
while kill -0 "$pid" 2>/dev/null; do
  r=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
  [ -n "$r" ] && rss+=("$r") && gpu+=("$(gpu_mb "$pid")")
  sleep 0.5
done
wait "$pid"
rc=$?
elapsed=$((SECONDS - start))

n=${#rss[@]}
if [ "$rc" -ne 0 ] || [ "$n" -lt 4 ]; then
  cat "$log"
  echo "stress: the pipeline failed (exit $rc) or ended too soon to sample ($n samples)"
  rm -f "$log"
  exit 1
fi
rm -f "$log"

# Settled: the end of the first quarter; then the largest value after it.
q=$((n / 4))
max_after() {
  local -n a=$1
  local m=${a[$q]:-0} i
  for ((i = q; i < n; i++)); do
    [ -n "${a[$i]}" ] && [ "${a[$i]}" -gt "$m" ] && m=${a[$i]}
  done
  echo "$m"
}
rss0=${rss[$q]} rss1=$(max_after rss)
echo "samples (every 10 %): RSS MiB / GPU MiB"
for ((i = 0; i < n; i += (n + 9) / 10)); do
  echo "  $((i * 100 / n)) %: $((rss[i] / 1024)) / ${gpu[$i]:-n/a}"
done
echo "stress: $frames frames of ${width}x$height $format in $elapsed s" \
  "($((frames / (elapsed > 0 ? elapsed : 1))) frames/s)"
echo "RSS: $((rss0 / 1024)) MiB after the first quarter, at most" \
  "$((rss1 / 1024)) MiB after it (+$(((rss1 - rss0) / 1024)), allowed" \
  "$((rss_allow / 1024)))"
ok=1
[ $((rss1 - rss0)) -le "$rss_allow" ] || ok=0
if [ -n "${gpu[$q]}" ]; then
  gpu0=${gpu[$q]} gpu1=$(max_after gpu)
  echo "GPU memory: $gpu0 MiB after the first quarter, at most $gpu1 MiB" \
    "after it (+$((gpu1 - gpu0)), allowed $gpu_allow)"
  [ $((gpu1 - gpu0)) -le "$gpu_allow" ] || ok=0
else
  echo "GPU memory: not measured (no nvidia-smi)"
fi
if [ "$ok" = 1 ]; then
  echo "stress: flat"
else
  echo "stress: memory grew"
  exit 1
fi
