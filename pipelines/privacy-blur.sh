#!/usr/bin/env bash
# pipelines/privacy-blur.sh: blur and pixelate every face that a detector
# finds, on the GPU — OpenCV's facedetect marks the faces of each frame (it
# attaches region-of-interest metadata of type "face"); gaussblur
# roi-meta=face blurs exactly those regions and, on a second branch,
# pixelate roi-meta=face turns them into a mosaic, each leaving the rest of
# the frame untouched.
#
#   pipelines/privacy-blur.sh [VIDEO_OR_PICTURE] [--frames N] [--sigma S]
#                             [--block-size B]
#
# Without an argument the input is a picture with a face
# (pipelines/data/astronaut.png, NASA's portrait of Eileen Collins, public
# domain), shown as a clip of N frames (default 30). Writes
# out/privacy-blur.mp4 (H.264) and out/privacy-blur.png (the last frame),
# and out/privacy-pixelate.mp4 and out/privacy-pixelate.png; with a display
# the blurred result also shows in a window. Builds vktile first unless
# SKIP_BUILD=1.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${VKTILE_BUILD_DIR:-$ROOT/build}
. "$ROOT/tools/ensure-deps.sh"

input=$ROOT/pipelines/data/astronaut.png
frames=30
sigma=12
block=24
while [ $# -gt 0 ]; do
  case $1 in
    --frames) frames=$2; shift 2 ;;
    --sigma) sigma=$2; shift 2 ;;
    --block-size) block=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) input=$1; shift ;;
  esac
done
[ -e "$input" ] || { echo "no such file: $input" >&2; exit 1; }

vktile_prepare_scripts "$BUILD"

# Debian 12's facedetect names eye, nose and mouth cascades by default that
# opencv-data does not ship; it only needs them to confirm a face, so point
# them at cascades that exist (the face's box is what roi-meta uses).
cascades=/usr/share/opencv4/haarcascades
detect="facedetect display=false profile=$cascades/haarcascade_frontalface_default.xml
  eyes-profile=$cascades/haarcascade_eye.xml nose-profile=$cascades/haarcascade_eye.xml
  mouth-profile=$cascades/haarcascade_smile.xml"
# A strong blur that covers the whole face: the box grown by 10 % of its
# usual size at this picture's scale.
blur="gaussblur roi-meta=face roi-padding=10 sigma=$sigma"
pixelate="pixelate roi-meta=face roi-padding=10 block-size=$block"

case $input in
  *.png|*.PNG|*.jpg|*.JPG|*.jpeg|*.JPEG)
    source="filesrc location=$input ! decodebin ! videoconvert ! imagefreeze num-buffers=$frames" ;;
  *)
    source="filesrc location=$input ! decodebin" ;;
esac

mkdir -p out
rm -f out/privacy-blur.mp4 out/privacy-blur.png out/privacy-pixelate.mp4 \
  out/privacy-pixelate.png
display=""
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  display="t. ! queue ! videoconvert ! autovideosink"
fi
# facedetect takes RGB; x264 wants even sizes.
# shellcheck disable=SC2086 # the pipeline is words
gst-launch-1.0 -q -e $source ! videoconvert ! video/x-raw,format=RGB ! $detect ! \
  videoconvert ! video/x-raw,format=I420 ! tee name=d \
  d. ! queue ! $blur ! tee name=t \
  t. ! queue ! videoconvert ! x264enc ! mp4mux ! filesink location=out/privacy-blur.mp4 \
  t. ! queue ! videoconvert ! pngenc ! multifilesink location=out/privacy-blur.png \
  $display \
  d. ! queue ! $pixelate ! tee name=p \
  p. ! queue ! videoconvert ! x264enc ! mp4mux ! filesink location=out/privacy-pixelate.mp4 \
  p. ! queue ! videoconvert ! pngenc ! multifilesink location=out/privacy-pixelate.png
echo "Wrote out/privacy-blur.mp4, out/privacy-blur.png, out/privacy-pixelate.mp4" \
  "and out/privacy-pixelate.png"
