#!/usr/bin/env bash
# pipelines/webcam-denoise.sh: live denoising of one camera or several with
# the denoise element (a light Gaussian that keeps the detail standing out
# of the noise, then smoothing across frames that backs off where a pixel
# moved, at the noise level it estimates itself), all on one GPU.
#
#   pipelines/webcam-denoise.sh [DEVICE ...] [--cameras N] [--frames N]
#
# DEVICE defaults to /dev/video0; give several to denoise several cameras,
# each a branch of one pipeline on the same GPU. --cameras N stands N noisy
# test sources in for cameras (a moving ball under ~10 codes of noise, each
# its own), as does a DEVICE that does not exist. With a display each result
# shows in a window; without one (or with --frames N) N frames of each are
# written to out/webcam-denoise[-CAMERA]-NNN.png instead. Builds vktile
# first unless SKIP_BUILD=1.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${VKTILE_BUILD_DIR:-$ROOT/build}
. "$ROOT/tools/ensure-deps.sh"

devices=()
frames=0
cameras=0
while [ $# -gt 0 ]; do
  case $1 in
    --frames) frames=$2; shift 2 ;;
    --cameras) cameras=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) devices+=("$1"); shift ;;
  esac
done
if [ "${#devices[@]}" -eq 0 ]; then
  if [ "$cameras" -gt 0 ]; then
    for ((i = 0; i < cameras; i++)); do devices+=("test:$i"); done
  else
    devices=(/dev/video0)
  fi
fi

vktile_prepare_scripts "$BUILD"

if [ "$frames" -eq 0 ] && [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  frames=30
fi
limit=""
[ "$frames" -gt 0 ] && limit="num-buffers=$frames"
mkdir -p out
rm -f out/webcam-denoise*.png

# One branch per camera. The element's defaults are the recipe: the noise
# level is estimated per plane (noise-sigma=6, in 8-bit codes, fixes it),
# keep-detail is on. denoise takes a camera's own raw formats (YUY2, UYVY,
# NV12, ...): no videoconvert before it.
branches=""
n=${#devices[@]}
for ((i = 0; i < n; i++)); do
  device=${devices[$i]}
  name=""
  [ "$n" -gt 1 ] && name="-$i"
  if [ "$frames" -gt 0 ]; then
    sink="videoconvert ! pngenc ! multifilesink location=out/webcam-denoise$name-%03d.png"
  else
    sink="videoconvert ! autovideosink"
  fi
  if [ -e "$device" ]; then
    source="v4l2src device=$device $limit ! video/x-raw"
    echo "Denoising $device"
  else
    # A moving ball, and 12 % of uniform noise (sigma ~9 codes) blended
    # over it, in a webcam's YUY2; each test camera's ball starts
    # elsewhere.
    caps="video/x-raw,format=AYUV,width=640,height=360,framerate=30/1"
    source="videotestsrc pattern=ball is-live=true animation-mode=frames
      motion=$((i % 3)) $limit ! $caps ! mix$i.sink_0
      videotestsrc pattern=snow $limit ! $caps ! mix$i.sink_1
      compositor name=mix$i sink_1::alpha=0.12 ! videoconvert !
      video/x-raw,format=YUY2"
    echo "Camera $i: a noisy test source"
  fi
  branches="$branches $source ! denoise ! $sink"
done

# shellcheck disable=SC2086 # the pipeline is words
gst-launch-1.0 -q -e $branches
if [ "$frames" -gt 0 ]; then
  echo "Wrote out/webcam-denoise*-000.png .. $(printf '%03d' $((frames - 1))).png"
fi
