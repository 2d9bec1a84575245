#!/usr/bin/env bash
# pipelines/demo.sh: builds vktile (installing what is missing), runs its
# elements on a built-in test picture, writes the pictures to out/ and prints
# the GPU timing each element reported in its per-frame timing meta.
# Without a GPU everything runs on Mesa's lavapipe (the CPU Vulkan driver).
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${VKTILE_BUILD_DIR:-$ROOT/build}
. "$ROOT/tools/ensure-deps.sh"

vktile_prepare_scripts "$BUILD"
mkdir -p out

# A portrait (NASA's Eileen Collins, public domain), 320x240: faces and
# fine detail show what each filter does.
picture=$ROOT/pipelines/data/astronaut.png
input="filesrc location=$picture ! pngdec ! videoconvert ! video/x-raw,format=RGBA"
save() { echo "videoconvert ! pngenc ! filesink location=out/$1.png"; }

# One picture: the element on the portrait, written to out/NAME.png; its
# row of the closing table gets the GPU time the frame's timing meta
# reported (post-messages=true posts it; gst-launch -m prints it).
rows=()
run() {  # NAME ELEMENT PROPERTIES...
  local name=$1 element=$2 ns us
  shift 2
  ns=$(gst-launch-1.0 -m $input ! "$element" "$@" post-messages=true ! \
      $(save "$name") 2>/dev/null |
    sed -n 's/.*vktile-timing,.* gpu-ns=(guint64)\([0-9]*\).*/\1/p' | head -n 1)
  us=$( [ -n "$ns" ] && awk -v ns="$ns" 'BEGIN { printf "%.1f", ns / 1000 }' || echo -)
  rows+=("$element $*|$us|out/$name.png")
  echo "  out/$name.png  ($element $*)"
}

echo "Writing out/ ..."
gst-launch-1.0 -q $input ! $(save input)
for args in "preset=gaussian5" "preset=sharpen" "preset=sobel-x absolute=true planes=0x7" \
    "preset=emboss bias=0.5 planes=0x7" "preset=box5 roi-x=80 roi-y=60 roi-width=160 roi-height=120 border=mirror"; do
  name=tiledconv-$(echo "$args" | cut -d' ' -f1 | cut -d= -f2)
  case $args in *roi-x*) name=$name-roi ;; esac
  run "$name" tiledconv $args
done
for args in "sigma=3" "sigma=12 sigma-y=2" "sigma=2 amount=1.5" "sigma=6 border=mirror roi-x=80 roi-y=60 roi-width=160 roi-height=120"; do
  name=gaussblur-$(echo "$args" | sed 's/ roi-y.*//; s/[ =.]/-/g')
  run "$name" gaussblur $args
done
for args in "filter=gaussian sigma=3" "filter=gaussian sigma=40" "filter=box radius=6 iterations=3" \
    "filter=exponential alpha=0.9 direction=causal axes=x" "filter=gaussian sigma=8 border=constant border-value=1.0"; do
  name=recursivefilter-$(echo "$args" | sed 's/^filter=//; s/[ =.]/-/g')
  run "$name" recursivefilter $args
done
run denoise denoise
run pixelate-roi pixelate block-size=12 roi-x=80 roi-y=60 roi-width=160 roi-height=120

# The privacy blur: OpenCV's face detector marks the face, gaussblur blurs
# only there, and pixelate turns it into a mosaic (pipelines/privacy-blur.sh
# is the whole pipeline, with video).
if gst-inspect-1.0 facedetect >/dev/null 2>&1; then
  SKIP_BUILD=1 "$ROOT/pipelines/privacy-blur.sh" --frames 1 >/dev/null 2>&1 &&
    echo "  out/privacy-blur.png  (facedetect ! gaussblur roi-meta=face)" &&
    echo "  out/privacy-pixelate.png  (facedetect ! pixelate roi-meta=face)"
fi

device=$(GST_DEBUG=vktilefilter:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -q \
    $input ! tiledconv ! fakesink 2>&1 |
  sed -n 's/.*using "\([^"]*\)".*/\1/p' | head -n 1)
echo
echo "Each element on the 320x240 portrait, one frame, on ${device:-the GPU}:"
echo "its GPU time from the frame's timing meta (the first frame: caches"
echo "cold; on lavapipe the \"GPU\" is the CPU)."
echo
width=7
for row in "${rows[@]}"; do
  what=${row%%|*}
  [ ${#what} -gt $width ] && width=${#what}
done
printf '%-*s %10s  %s\n' $width "element" "GPU µs" "picture"
for row in "${rows[@]}"; do
  IFS='|' read -r what us file <<<"$row"
  printf '%-*s %10s  %s\n' $width "$what" "$us" "$file"
done
echo
echo "The full report (every element against the GPU's floors, system memory,"
echo "chains, interleaved rounds): pipelines/benchmark.sh"
