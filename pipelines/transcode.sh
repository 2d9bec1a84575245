#!/usr/bin/env bash
# pipelines/transcode.sh: re-encode a video with a sharpening filter on the
# GPU — decode, tiledconv preset=sharpen (a 3x3 unsharp kernel), encode to
# H.264 (or H.265 with --h265), write an MP4.
#
#   pipelines/transcode.sh [INPUT] [--output FILE] [--frames N] [--h265]
#
# Without INPUT a test clip is made first (out/transcode-input.mp4, N frames
# of GStreamer's test pattern, default 60). Writes out/transcode.mp4 unless
# --output names another file. Builds vktile first unless SKIP_BUILD=1.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${VKTILE_BUILD_DIR:-$ROOT/build}
. "$ROOT/tools/ensure-deps.sh"

input=""
output=out/transcode.mp4
frames=60
encoder="x264enc ! video/x-h264,profile=high"
while [ $# -gt 0 ]; do
  case $1 in
    --output) output=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --h265) encoder="x265enc"; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) input=$1; shift ;;
  esac
done

vktile_prepare_scripts "$BUILD"
mkdir -p out "$(dirname "$output")"

if [ -z "$input" ]; then
  input=out/transcode-input.mp4
  gst-launch-1.0 -q -e videotestsrc num-buffers="$frames" ! \
    video/x-raw,width=640,height=360,framerate=30/1 ! x264enc ! mp4mux ! \
    filesink location="$input"
  echo "Made a test clip: $input"
fi
[ -e "$input" ] || { echo "no such file: $input" >&2; exit 1; }

# The frames reach tiledconv in system memory (the decoder's), are
# uploaded, filtered and read back by it, and go on to the encoder. The
# audio, if any, is left out.
# shellcheck disable=SC2086 # the encoder is words
gst-launch-1.0 -q -e filesrc location="$input" ! decodebin ! videoconvert ! \
  video/x-raw,format=I420 ! tiledconv preset=sharpen ! videoconvert ! \
  $encoder ! mp4mux ! filesink location="$output"
echo "Wrote $output"
