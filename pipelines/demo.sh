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

echo "Writing out/ ..."
gst-launch-1.0 -q $input ! $(save input)
for args in "preset=gaussian5" "preset=sharpen" "preset=sobel-x absolute=true planes=0x7" \
    "preset=emboss bias=0.5 planes=0x7" "preset=box5 roi-x=80 roi-y=60 roi-width=160 roi-height=120 border=mirror"; do
  name=tiledconv-$(echo "$args" | cut -d' ' -f1 | cut -d= -f2)
  case $args in *roi-x*) name=$name-roi ;; esac
  gst-launch-1.0 -q $input ! tiledconv $args ! $(save "$name")
  echo "  out/$name.png  (tiledconv $args)"
done
for args in "sigma=3" "sigma=12 sigma-y=2" "sigma=2 amount=1.5" "sigma=6 border=mirror roi-x=80 roi-y=60 roi-width=160 roi-height=120"; do
  name=gaussblur-$(echo "$args" | sed 's/ roi-y.*//; s/[ =.]/-/g')
  gst-launch-1.0 -q $input ! gaussblur $args ! $(save "$name")
  echo "  out/$name.png  (gaussblur $args)"
done
for args in "filter=gaussian sigma=3" "filter=gaussian sigma=40" "filter=box radius=6 iterations=3" \
    "filter=exponential alpha=0.9 direction=causal axes=x" "filter=gaussian sigma=8 border=constant border-value=1.0"; do
  name=recursivefilter-$(echo "$args" | sed 's/^filter=//; s/[ =.]/-/g')
  gst-launch-1.0 -q $input ! recursivefilter $args ! $(save "$name")
  echo "  out/$name.png  (recursivefilter $args)"
done

# The privacy blur: OpenCV's face detector marks the face, gaussblur blurs
# only there (pipelines/privacy-blur.sh is the whole pipeline, with video).
if gst-inspect-1.0 facedetect >/dev/null 2>&1; then
  SKIP_BUILD=1 "$ROOT/pipelines/privacy-blur.sh" --frames 1 >/dev/null 2>&1 &&
    echo "  out/privacy-blur.png  (facedetect ! gaussblur roi-meta=face)"
fi

echo
echo "GPU time per frame (median of the timing meta, after warm-up):"
"$BUILD/bench/vktile-bench" --quick -f RGBA,NV12 --stream-formats RGBA \
  -c "tiledconv preset=gaussian3" -c "gaussblur sigma=2" -c "gaussblur sigma=40" \
  -c "recursivefilter filter=gaussian sigma=4"
