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
#   VKTILE_TESTS      run only these executables (e.g. "test_gaussblur test_kernel")
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
echo "all tests: $((SECONDS - start_all)) s"
summary "$passed" "$failed"
[ "$failed" -eq 0 ]
