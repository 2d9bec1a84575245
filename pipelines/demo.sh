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

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  vktile_ensure_packages
  vktile_build "$BUILD"
fi

export GST_PLUGIN_PATH=$BUILD/plugin
export GST_REGISTRY=$BUILD/demo-registry.bin
mkdir -p out

input="videotestsrc pattern=smpte num-buffers=1 ! video/x-raw,format=RGBA,width=640,height=360"
save() { echo "videoconvert ! pngenc ! filesink location=out/$1.png"; }

echo "Writing out/ ..."
gst-launch-1.0 -q $input ! $(save input)
for args in "preset=gaussian5" "preset=sharpen" "preset=sobel-x absolute=true planes=0x7" \
    "preset=emboss bias=0.5 planes=0x7" "preset=box5 roi-x=160 roi-y=90 roi-width=320 roi-height=180 border=mirror"; do
  name=tiledconv-$(echo "$args" | cut -d' ' -f1 | cut -d= -f2)
  case $args in *roi-x*) name=$name-roi ;; esac
  gst-launch-1.0 -q $input ! tiledconv $args ! $(save "$name")
  echo "  out/$name.png  (tiledconv $args)"
done
for args in "sigma=3" "sigma=12 sigma-y=2" "sigma=2 amount=1.5" "sigma=6 border=mirror roi-x=160 roi-y=90 roi-width=320 roi-height=180"; do
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

echo
echo "GPU time per frame (median of the timing meta, after warm-up):"
"$BUILD/bench/vktile-bench" --quick -f RGBA,NV12 --stream-formats RGBA \
  -c "tiledconv preset=gaussian3" -c "gaussblur sigma=2" -c "gaussblur sigma=40" \
  -c "recursivefilter filter=gaussian sigma=4"
