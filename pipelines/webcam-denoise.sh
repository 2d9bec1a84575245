#!/usr/bin/env bash
# pipelines/webcam-denoise.sh: live denoising of a camera with recursivefilter
# (a light spatial blur that keeps detail, then smoothing across frames that
# backs off where a pixel moved, at the noise level it estimates itself).
#
#   pipelines/webcam-denoise.sh [DEVICE] [--frames N]
#
# DEVICE defaults to /dev/video0. Without a camera a noisy test source stands
# in (a moving ball under ~10 codes of noise). With a display the result
# shows in a window; without one (or with --frames N) N frames are written to
# out/webcam-denoise-NNN.png instead. Builds vktile first unless
# SKIP_BUILD=1.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${VKTILE_BUILD_DIR:-$ROOT/build}
. "$ROOT/tools/ensure-deps.sh"

device=/dev/video0
frames=0
while [ $# -gt 0 ]; do
  case $1 in
    --frames) frames=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) device=$1; shift ;;
  esac
done

vktile_prepare_scripts "$BUILD"

# The recipe: noise-sigma is estimated per plane (give it, in 8-bit codes,
# to fix it), keep-detail is on by default.
denoise="recursivefilter sigma=0.8 temporal-alpha=0.8 temporal-mode=motion-adaptive"

if [ "$frames" -eq 0 ] && [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  frames=30
fi
limit=""
if [ "$frames" -gt 0 ]; then
  mkdir -p out
  rm -f out/webcam-denoise-*.png
  limit="num-buffers=$frames"
  sink="videoconvert ! pngenc ! multifilesink location=out/webcam-denoise-%03d.png"
else
  sink="videoconvert ! autovideosink"
fi

if [ -e "$device" ]; then
  source="v4l2src device=$device $limit ! videoconvert ! video/x-raw,format=NV12"
  echo "Denoising $device"
else
  # A moving ball, and 12 % of uniform noise (sigma ~9 codes) blended over it.
  caps="video/x-raw,format=AYUV,width=640,height=360,framerate=30/1"
  source="videotestsrc pattern=ball is-live=true $limit ! $caps ! mix.sink_0
    videotestsrc pattern=snow $limit ! $caps ! mix.sink_1
    compositor name=mix sink_1::alpha=0.12 ! videoconvert ! video/x-raw,format=NV12"
  echo "No camera at $device: denoising a noisy test source"
fi

# shellcheck disable=SC2086 # the pipeline is words
gst-launch-1.0 -q -e $source ! $denoise ! $sink
if [ "$frames" -gt 0 ]; then
  echo "Wrote out/webcam-denoise-000.png .. $(printf '%03d' $((frames - 1))).png"
fi
