#!/usr/bin/env bash
# tests/run.sh — build vktile and run every test executable against the
# freshly built plugin only. Prints each test's result and ends with exactly
# one line "N passed, N failed" (N counting Check test cases); exits non-zero
# when anything failed.
#
# On a fresh Debian 12 machine it installs what is missing with apt-get (as
# root or through sudo), configures build/ once and compiles. Environment:
#   VKTILE_BUILD_DIR  build directory (default: build)
#   SKIP_BUILD=1      no apt, no meson: run a prebuilt build dir (GPU machine)
#   VKTILE_SEED       seed of the random frames (printed on every run)
#   GST_CHECKS        run only the tests matching these globs
#   VKTILE_TESTS      run only these executables (e.g. "test_gaussblur test_kernel";
#                     "fuzz" is the ASan fuzzer)
#   VKTILE_FUZZ=0     no fuzzing (it builds build-asan/ and runs a corpus, ~2 min)
#   VKTILE_FUZZ_CASES cases of the fixed-seed corpus (default 120)
#   VKTILE_FUZZ_SECONDS  fuzz new cases for this many seconds instead
#   VKTILE_FUZZ_ARGS  the fuzzer's arguments instead (replay: "--case K --verbose")
#   VKTILE_JOBS       tests run side by side (default: the cores, at most 4)
set -u

cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${VKTILE_BUILD_DIR:-build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac

. "$ROOT/tools/ensure-deps.sh"

# System plugins the tests use (appsrc/fakesink/capsfilter, videotestsrc,
# vulkanupload, ...). They are linked into a private directory so that
# nothing else installed — another vktile in particular — can be loaded.
SYSTEM_PLUGINS=(coreelements app videotestsrc vulkan videoconvertscale
  videoconvert imagefreeze debug coretracers
  # the scripts of pipelines/ (test_pipelines)
  opencv png playback typefindfunctions isomp4 x264 videoparsersbad libav
  multifile compositor autodetect)

summary() { echo "$1 passed, $2 failed"; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  if ! vktile_ensure_packages || ! vktile_ensure_pipeline_packages; then
    echo "package installation failed"; summary 0 1; exit 1
  fi
  if ! vktile_build "$BUILD_DIR"; then summary 0 1; exit 1; fi
fi

if [ ! -e "$BUILD_DIR/plugin/libgstvktile.so" ]; then
  echo "no plugin at $BUILD_DIR/plugin/libgstvktile.so"
  summary 0 1
  exit 1
fi

# Where the system's GStreamer plugins are: an activated portable runtime
# (GPU machine) says so in the environment, else pkg-config, else Debian's.
sysdir=${GST_PLUGIN_SYSTEM_PATH_1_0:-${GST_PLUGIN_SYSTEM_PATH:-}}
if [ -z "$sysdir" ]; then
  sysdir=$(pkg-config --variable=pluginsdir gstreamer-1.0 2>/dev/null)
fi
[ -n "$sysdir" ] || sysdir=/usr/lib/$(uname -m)-linux-gnu/gstreamer-1.0
sysdir=${sysdir%%:*}

plugdir=$BUILD_DIR/tests/system-plugins
rm -rf "$plugdir"
mkdir -p "$plugdir"
for p in "${SYSTEM_PLUGINS[@]}"; do
  [ -e "$sysdir/libgst$p.so" ] && ln -s "$sysdir/libgst$p.so" "$plugdir/"
done

export GST_PLUGIN_SYSTEM_PATH_1_0=$plugdir GST_PLUGIN_SYSTEM_PATH=$plugdir
export GST_PLUGIN_PATH_1_0=$BUILD_DIR/plugin GST_PLUGIN_PATH=$BUILD_DIR/plugin
export GST_REGISTRY_1_0=$BUILD_DIR/tests/registry.bin GST_REGISTRY=$BUILD_DIR/tests/registry.bin
# the benchmark of the build under test, wherever that build now lies
export VKTILE_BENCH=$BUILD_DIR/bench/vktile-bench
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-300}
export CK_VERBOSITY=verbose
export GST_DEBUG_NO_COLOR=1
# one seed for every test process, so that it replays the whole run
export VKTILE_SEED=${VKTILE_SEED:-$((RANDOM * 32768 + RANDOM))}
echo "VKTILE_SEED=$VKTILE_SEED"

start_all=$SECONDS
results=$BUILD_DIR/tests/results
rm -rf "$results"
mkdir -p "$results"

# One Check executable, or the part of it named after '@': the test cases
# tagged with that name, or for "rest" those with none of the executable's
# PARTS tags; after a '+discrete', on the device shown as a discrete GPU
# (tests/discretelayer.c). Writes the report to
# $results/LABEL.out and "passed failed" to $results/LABEL.count.
run_check() {
  local label=$1 exe=${1%+*} name part= start=$SECONDS rc line checks fails errors
  local log=$BUILD_DIR/tests/$label.log p=0 f=0
  local -a partenv=()
  name=${exe%@*}
  [[ $exe == *@* ]] && part=${exe#*@}
  case $part in
    '') ;;
    rest) partenv=("CK_EXCLUDE_TAGS=${PARTS[$name]}") ;;
    *) partenv=("CK_INCLUDE_TAGS=$part") ;;
  esac
  if [[ $label == *+discrete ]]; then
    partenv+=("VK_LAYER_PATH=$BUILD_DIR/tests"
      "VK_INSTANCE_LAYERS=VK_LAYER_VKTILE_discrete"
      "GST_REGISTRY_1_0=$BUILD_DIR/tests/registry-discrete-$name.bin")
  fi
  timeout 1200 env "${partenv[@]}" "$BUILD_DIR/tests/$name" >"$log" 2>&1
  rc=$?
  {
    echo "=== $label"
    # Check's per-test lines (P: passed, F: failed, E: error) and anything
    # that explains a failure; lavapipe's conformance warning is noise.
    grep -v -e '^WARNING: lavapipe is not a conformant' -e '^Running suite' "$log"
    line=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" | tail -n 1)
    if [ -n "$line" ]; then
      checks=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
      fails=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
      errors=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
      p=$((checks - fails - errors))
      f=$((fails + errors))
      # a crash after the summary still fails the executable
      if [ $rc -ne 0 ] && [ $f -eq 0 ]; then f=1; fi
    elif [ $rc -eq 0 ]; then
      p=1   # not a Check program: one test
    else
      echo "$label: exit status $rc"
      f=1
    fi
    echo "--- $label: $((SECONDS - start)) s (log: $log)"
  } >"$results/$label.out"
  echo "$p $f" >"$results/$label.count"
}

# The fuzzer of the elements' boundary (tests/fuzz.c, docs/RELIABILITY.md),
# built with ASan and UBSan in a directory of its own and run on a
# fixed-seed corpus: one test. Only the plugin and the fuzzer are compiled
# there. The ASan plugin is loaded into the ASan fuzzer itself: no plugin
# scanner process (GST_REGISTRY_FORK=no), a registry of its own.
run_fuzz() {
  local asan_dir=${VKTILE_ASAN_DIR:-$ROOT/build-asan} start=$SECONDS log rc out
  local args=(--cases "${VKTILE_FUZZ_CASES:-120}")
  log=$asan_dir/fuzz.log
  [ -n "${VKTILE_FUZZ_SECONDS:-}" ] && args=(--seconds "$VKTILE_FUZZ_SECONDS")
  # shellcheck disable=SC2206  # word splitting wanted
  [ -n "${VKTILE_FUZZ_ARGS:-}" ] && args=($VKTILE_FUZZ_ARGS)
  echo "=== fuzz (ASan/UBSan)"
  if [ "${SKIP_BUILD:-0}" != 1 ]; then
    if [ ! -f "$asan_dir/build.ninja" ] && ! out=$(meson setup "$asan_dir" \
        -Db_sanitize=address,undefined -Db_lundef=false 2>&1); then
      tail -n 20 <<<"$out"
      echo "fuzz: meson setup of $asan_dir failed"
      return 1
    fi
    # ninja regenerates build.ninja when a meson.build changed, which
    # meson compile needs to know the fuzz target
    if ! { ninja -C "$asan_dir" build.ninja &&
        meson compile -C "$asan_dir" gstvktile fuzz; } >"$asan_dir/compile.log" 2>&1; then
      tail -n 40 "$asan_dir/compile.log"
      echo "fuzz: build failed (full log: $asan_dir/compile.log)"
      return 1
    fi
    echo "fuzz: ASan build $((SECONDS - start)) s"
  elif ! "$asan_dir/tests/fuzz" --help >/dev/null 2>&1; then
    # the GPU machine builds nothing: run it only where it was carried over
    echo "fuzz: skipped (no runnable $asan_dir/tests/fuzz)"
    return 2
  fi
  start=$SECONDS
  (
    export GST_PLUGIN_PATH_1_0=$asan_dir/plugin GST_PLUGIN_PATH=$asan_dir/plugin
    export GST_REGISTRY_1_0=$asan_dir/fuzz-registry.bin GST_REGISTRY=$asan_dir/fuzz-registry.bin
    export GST_REGISTRY_FORK=no
    # GStreamer's and lavapipe's own leaks are not ours (the leaks tracer
    # of test_streaming covers ours); a report must stop the run
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    timeout 1800 "$asan_dir/tests/fuzz" "${args[@]}"
  ) >"$log" 2>&1
  rc=$?
  grep -v -e '^WARNING: lavapipe is not a conformant' "$log"
  echo "--- fuzz: $((SECONDS - start)) s, exit status $rc (log: $log; replay a" \
    "case with VKTILE_TESTS=fuzz VKTILE_FUZZ_ARGS=\"--seed S --case K --verbose\")"
  return $((rc != 0))
}

run_fuzz_job() {
  local p=0 f=0
  run_fuzz >"$results/fuzz.out" 2>&1
  case $? in
    0) p=1 ;;
    1) f=1 ;;
  esac
  echo "$p $f" >"$results/fuzz.count"
}

# The jobs run side by side, VKTILE_JOBS at a time (default: the cores, at
# most 4): on lavapipe a test's time is mostly the compiling of shader
# variants. Longest first, so that the last to end is a short one. An
# executable with PARTS runs as one process per tag of its test cases and
# one for the untagged rest, so that no process comes near its limit with
# a cold shader cache. Executables not named here run after these.
declare -A PARTS=([test_recursivefilter]="settings filter")
# Suites run a second time on lavapipe shown as a discrete GPU (device-local
# memory apart from host memory): the paths frames take across a bus — the
# copy shader's transfers, outputs written across it, transfers paired
# between frames — which lavapipe's one kind of memory never takes.
DISCRETE=(test_streaming test_reliability test_denoise test_pixelate test_faults
  test_basefilter)
ORDER=(test_recursivefilter@settings test_recursivefilter@filter fuzz
  test_gaussblur test_tiledconv test_recursivefilter_temporal
  test_recursivefilter@rest test_reliability test_faults test_streaming)

selected() { [ -z "${VKTILE_TESTS:-}" ] || [[ " $VKTILE_TESTS " == *" $1 "* ]]; }

job_list=()
for label in "${ORDER[@]}"; do
  name=${label%@*}
  if [ "$name" = fuzz ]; then
    [ "${VKTILE_FUZZ:-1}" != 0 ] && selected fuzz && job_list+=(fuzz)
  elif [ -x "$BUILD_DIR/tests/$name" ] && selected "$name"; then
    job_list+=("$label")
  fi
done
if [ -f "$BUILD_DIR/tests/libvktile_discrete_layer.so" ]; then
  for name in "${DISCRETE[@]}"; do
    [ -x "$BUILD_DIR/tests/$name" ] && selected "$name" &&
      job_list+=("$name+discrete")
  done
fi
for exe in "$BUILD_DIR"/tests/test_*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue
  name=$(basename "$exe")
  selected "$name" || continue
  [[ " ${ORDER[*]} " == *" $name "* || " ${ORDER[*]} " == *" $name@"* ]] && continue
  if [ -n "${PARTS[$name]:-}" ]; then
    for part in ${PARTS[$name]} rest; do job_list+=("$name@$part"); done
  else
    job_list+=("$name")
  fi
done

max_jobs=${VKTILE_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ -n "${VKTILE_JOBS:-}" ] || [ "$max_jobs" -le 4 ] || max_jobs=4
echo "running ${#job_list[@]} jobs, $max_jobs at a time: ${job_list[*]}"

declare -A job_of=()
# the tests of a killed run must not go on alone: each job's timeout, which
# passes the signal on to its test, then the job
stop_jobs() {
  local pid
  for pid in "${!job_of[@]}"; do
    pkill -TERM -P "$pid" 2>/dev/null
    kill "$pid" 2>/dev/null
  done
}
trap stop_jobs EXIT

finish_one() {
  local pid
  wait -n -p pid "${!job_of[@]}"
  cat "$results/${job_of[$pid]}.out"
  unset "job_of[$pid]"
}

for label in "${job_list[@]}"; do
  while [ "${#job_of[@]}" -ge "$max_jobs" ]; do finish_one; done
  if [ "$label" = fuzz ]; then
    run_fuzz_job &
  else
    run_check "$label" &
  fi
  job_of[$!]=$label
done
while [ "${#job_of[@]}" -gt 0 ]; do finish_one; done
trap - EXIT

passed=0
failed=0
for label in "${job_list[@]}"; do
  if read -r p f <"$results/$label.count"; then
    passed=$((passed + p))
    failed=$((failed + f))
  else
    echo "$label: no result"
    failed=$((failed + 1))
  fi
done
echo "all tests: $((SECONDS - start_all)) s"
summary "$passed" "$failed"
[ "$failed" -eq 0 ]
