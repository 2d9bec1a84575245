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
  videoconvert imagefreeze debug coretracers)

summary() { echo "$1 passed, $2 failed"; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  if ! vktile_ensure_packages; then echo "package installation failed"; summary 0 1; exit 1; fi
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
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-300}
export CK_VERBOSITY=verbose
export GST_DEBUG_NO_COLOR=1

passed=0
failed=0
start_all=$SECONDS
for exe in "$BUILD_DIR"/tests/test_*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue
  name=$(basename "$exe")
  if [ -n "${VKTILE_TESTS:-}" ] && [[ " $VKTILE_TESTS " != *" $name "* ]]; then continue; fi
  log=$BUILD_DIR/tests/$name.log
  start=$SECONDS
  echo "=== $name"
  timeout 1200 "$exe" >"$log" 2>&1
  rc=$?
  # Check's per-test lines (P: passed, F: failed, E: error) and anything
  # that explains a failure; lavapipe's conformance warning is noise.
  grep -v -e '^WARNING: lavapipe is not a conformant' -e '^Running suite' "$log"
  line=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" | tail -n 1)
  if [ -n "$line" ]; then
    checks=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
    fails=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
    errors=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
    passed=$((passed + checks - fails - errors))
    failed=$((failed + fails + errors))
    # a crash after the summary still fails the executable
    if [ $rc -ne 0 ] && [ $((fails + errors)) -eq 0 ]; then failed=$((failed + 1)); fi
  elif [ $rc -eq 0 ]; then
    passed=$((passed + 1))   # not a Check program: one test
  else
    echo "$name: exit status $rc"
    failed=$((failed + 1))
  fi
  echo "--- $name: $((SECONDS - start)) s (log: $log)"
done

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

if [ "${VKTILE_FUZZ:-1}" != 0 ] && { [ -z "${VKTILE_TESTS:-}" ] ||
    [[ " $VKTILE_TESTS " == *" fuzz "* ]]; }; then
  run_fuzz
  case $? in
    0) passed=$((passed + 1)) ;;
    1) failed=$((failed + 1)) ;;
  esac
fi
echo "all tests: $((SECONDS - start_all)) s"
summary "$passed" "$failed"
[ "$failed" -eq 0 ]
